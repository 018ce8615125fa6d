/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The journal's words (game/record.h): the tokens a record is written in and read from
 * (words, quoted text, numbers, square masks, colours, moves in UCI, clocks, authors), the
 * names of the presses, claims and modes the records give, and a game's PGN tags.
 */
#include "game/record_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ tokens */

static void put_raw(struct rec_writer *w, const char *s, size_t n)
{
	if (w->full || w->len + n + 1 > w->size) {
		w->full = true;
		return;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = '\0';
}

static void put_sep(struct rec_writer *w)
{
	if (w->len)
		put_raw(w, " ", 1);
}

void rec_put_word(struct rec_writer *w, const char *word)
{
	put_sep(w);
	put_raw(w, word, strlen(word));
}

void rec_put_fmt(struct rec_writer *w, const char *fmt, ...)
{
	char tmp[CLOCK_TEXT_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		w->full = true;
		return;
	}
	rec_put_word(w, tmp);
}

void rec_put_string(struct rec_writer *w, const char *s)
{
	put_sep(w);
	put_raw(w, "\"", 1);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			put_raw(w, "\\", 1);
		if (*s == '\n' || *s == '\r')
			put_raw(w, " ", 1); /* one line per record */
		else
			put_raw(w, s, 1);
	}
	put_raw(w, "\"", 1);
}

/* The next space-separated word into buf; false (and bad) if none or too long. */
/* Both readers leave "" in buf when they fail, so a decoder that checks r->bad only at
 * its end never reads an unset buffer. */
bool rec_get_word(struct rec_reader *r, char *buf, size_t size)
{
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	if (r->bad || !*r->p || *r->p == ' ' || *r->p == '"') {
		r->bad = true;
		return false;
	}
	while (r->p[n] && r->p[n] != ' ')
		n++;
	if (n >= size) {
		r->bad = true;
		return false;
	}
	memcpy(buf, r->p, n);
	buf[n] = '\0';
	r->p += n;
	if (*r->p == ' ')
		r->p++;
	return true;
}

bool rec_get_string(struct rec_reader *r, char *buf, size_t size)
{
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	if (r->bad || *r->p != '"') {
		r->bad = true;
		return false;
	}
	r->p++;
	while (*r->p && *r->p != '"') {
		if (*r->p == '\\' && r->p[1])
			r->p++;
		if (n + 1 >= size) {
			buf[n < size ? n : 0] = '\0';
			r->bad = true;
			return false;
		}
		buf[n++] = *r->p++;
	}
	buf[n] = '\0';
	if (*r->p != '"') {
		r->bad = true;
		return false;
	}
	buf[n] = '\0';
	r->p++;
	if (*r->p == ' ')
		r->p++;
	return true;
}

bool rec_at_end(const struct rec_reader *r)
{
	return !r->bad && !*r->p;
}

long long rec_get_int(struct rec_reader *r, long long min, long long max)
{
	char word[24], *end;
	long long v;

	if (!rec_get_word(r, word, sizeof(word)))
		return min;
	errno = 0;
	v = strtoll(word, &end, 10);
	if (errno || *end || end == word || v < min || v > max) {
		r->bad = true;
		return min;
	}
	return v;
}

uint64_t rec_get_mask(struct rec_reader *r)
{
	char word[24], *end;
	unsigned long long v;

	if (!rec_get_word(r, word, sizeof(word)))
		return 0;
	errno = 0;
	v = strtoull(word, &end, 16);
	if (errno || *end || end == word || strlen(word) != 16)
		r->bad = true;
	return v;
}

int rec_get_color(struct rec_reader *r)
{
	char word[8];
	int c;

	if (!rec_get_word(r, word, sizeof(word)))
		return 0;
	c = game_color_parse(word);
	if (c < 0)
		r->bad = true;
	return c < 0 ? 0 : c;
}

int rec_get_enum(struct rec_reader *r, const char *(*name)(int), int count)
{
	char word[24];

	if (!rec_get_word(r, word, sizeof(word)))
		return 0;
	for (int i = 0; i < count; i++)
		if (!strcmp(word, name(i)))
			return i;
	r->bad = true;
	return 0;
}

/* A move given in UCI, checked only for its shape (the position is the game's). */
chess_move rec_get_uci(struct rec_reader *r)
{
	char word[8];
	int from, to;
	enum chess_piece_type promo = CHESS_NO_PIECE;

	if (!rec_get_word(r, word, sizeof(word)))
		return CHESS_MOVE_NONE;
	from = chess_square_parse((char[]){word[0], word[0] ? word[1] : 0, 0});
	to = strlen(word) >= 4 ? chess_square_parse((char[]){word[2], word[3], 0}) : -1;
	if (strlen(word) == 5) {
		const char *p = strchr("nbrq", word[4]);

		promo = p && word[4] ? (enum chess_piece_type)(CHESS_KNIGHT + (p - "nbrq"))
				     : CHESS_NO_PIECE;
	}
	if (from < 0 || to < 0 || (strlen(word) != 4 && promo == CHESS_NO_PIECE)) {
		r->bad = true;
		return CHESS_MOVE_NONE;
	}
	/* The kind is settled against the position when the record is applied. */
	return chess_move_make(from, to, promo ? CHESS_MOVE_PROMOTION : CHESS_MOVE_NORMAL, promo);
}

void rec_put_uci(struct rec_writer *w, chess_move m)
{
	char uci[8];

	if (m == CHESS_MOVE_NONE) {
		rec_put_word(w, "-");
		return;
	}
	chess_move_to_uci(m, uci, sizeof(uci));
	rec_put_word(w, uci);
}

void rec_put_clock(struct rec_writer *w, const struct chess_clock *c, uint64_t ms)
{
	char text[CLOCK_TEXT_MAX];
	int n = clock_encode(c, ms, text, sizeof(text));

	if (n < 0 || (size_t)n >= sizeof(text)) {
		w->full = true;
		return;
	}
	rec_put_word(w, text);
}

void rec_get_clock(struct rec_reader *r, struct chess_clock *c, uint64_t ms)
{
	int n;

	if (r->bad)
		return;
	memset(c, 0, sizeof(*c));
	n = clock_decode(c, r->p, ms);
	if (n < 0) {
		r->bad = true;
		return;
	}
	r->p += n;
	if (*r->p == ' ')
		r->p++;
}

/* An author is one word: what would split it becomes '_'. */
void rec_put_author(struct rec_writer *w, const char *author)
{
	char word[GAME_AUTHOR_MAX];
	size_t n = 0;

	for (; author[n] && n + 1 < sizeof(word); n++)
		word[n] = author[n] == ' ' || author[n] == '"' || (unsigned char)author[n] < 0x20
			      ? '_'
			      : author[n];
	word[n] = '\0';
	rec_put_word(w, n ? word : "-");
}

void rec_get_author(struct rec_reader *r, char *author)
{
	rec_get_word(r, author, GAME_AUTHOR_MAX);
}
/* ------------------------------------------------------------------ names */

const char *game_press_kind_name(enum press_kind kind)
{
	static const char *const names[PRESS_KIND_COUNT] = {"start",   "move",	 "idle", "refused",
							    "illegal", "paused", "empty"};

	return (unsigned)kind < PRESS_KIND_COUNT ? names[kind] : "?";
}

const char *game_claim_kind_name(enum claim_kind kind)
{
	return kind == CLAIM_FIFTY ? "fifty" : "threefold";
}

const char *game_mode_name(enum game_mode mode)
{
	static const char *const names[GAME_MODE_COUNT] = {"tournament", "casual", "online"};

	return (unsigned)mode < GAME_MODE_COUNT ? names[mode] : "tournament";
}

const char *game_params_tag(const struct game_params *p, const char *name)
{
	for (int i = 0; i < p->tag_count; i++)
		if (!strcmp(p->tags[i].name, name))
			return p->tags[i].value;
	return NULL;
}

bool game_tag_derived(const char *name)
{
	static const char *const derived[] = {"Result",	     "FEN",	    "SetUp",
					      "TimeControl", "Termination", "DeviceSerial",
					      "GameId",	     "JournalLine", "JournalChain"};

	for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++)
		if (!strcmp(name, derived[i]))
			return true;
	return false;
}

int game_params_set_tag(struct game_params *p, const char *name, const char *value)
{
	struct game_tag *t = NULL;

	if (strlen(name) >= GAME_TAG_NAME_MAX || strlen(value) >= GAME_TAG_VALUE_MAX)
		return -1;
	for (int i = 0; i < p->tag_count; i++)
		if (!strcmp(p->tags[i].name, name))
			t = &p->tags[i];
	if (!t) {
		if (p->tag_count == GAME_MAX_TAGS)
			return -1;
		t = &p->tags[p->tag_count++];
		snprintf(t->name, sizeof(t->name), "%s", name);
	}
	snprintf(t->value, sizeof(t->value), "%s", value);
	return 0;
}