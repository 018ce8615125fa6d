/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The tokens a journal record is written in and read from (game/record.h): the writer and
 * reader that game/record.c's encoders and decoders use, written in game/record_words.c.
 * Internal to game/record*.c.
 */
#ifndef ANNABELLA_RECORD_INT_H
#define ANNABELLA_RECORD_INT_H

#include "game/record.h"

/* A record's text as it is written into the caller's buffer; full: it did not fit. */
struct rec_writer {
	char *buf;
	size_t size, len;
	bool full;
};

/* A record's arguments as they are read; bad: one was missing or not what was asked. */
struct rec_reader {
	const char *p;
	bool bad;
};

/* A word, a word from printf's format, a string in double quotes (\" and \\ escaped, a line
 * break a space), each after a space when the record is not empty. */
void rec_put_word(struct rec_writer *w, const char *word);
void rec_put_fmt(struct rec_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rec_put_string(struct rec_writer *w, const char *s);
/* A move in UCI ("-": none), a clock in its own text (clock_encode()), an author as one word. */
void rec_put_uci(struct rec_writer *w, chess_move m);
void rec_put_clock(struct rec_writer *w, const struct chess_clock *c, uint64_t ms);
void rec_put_author(struct rec_writer *w, const char *author);

/* The next word, or string in double quotes, into buf; false (and bad) if none or too long. */
bool rec_get_word(struct rec_reader *r, char *buf, size_t size);
bool rec_get_string(struct rec_reader *r, char *buf, size_t size);
/* Every argument read and each as it should be. */
bool rec_at_end(const struct rec_reader *r);
/* A decimal number in [min, max] (min when bad), a square mask in 16 hex digits, a colour's
 * word, the index whose name(i) is the word. */
long long rec_get_int(struct rec_reader *r, long long min, long long max);
uint64_t rec_get_mask(struct rec_reader *r);
int rec_get_color(struct rec_reader *r);
int rec_get_enum(struct rec_reader *r, const char *(*name)(int), int count);
chess_move rec_get_uci(struct rec_reader *r);
void rec_get_clock(struct rec_reader *r, struct chess_clock *c, uint64_t ms);
void rec_get_author(struct rec_reader *r, char *author);

#endif
