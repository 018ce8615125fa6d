/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * An utterance: the words of one announcement as segments, each in its own language.
 * Appendix D words (piece and file names, German rank numerals, castling) are German
 * whatever the interface language; national rank numerals are in their language; the rest
 * is in the interface language.  The voice gives each segment the voice of its language;
 * speech.log and watchers get the plain text, the segments joined as written.  Pure.
 */
#ifndef ANNABELLA_UTTERANCE_H
#define ANNABELLA_UTTERANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/lang.h"

/* Longest text in bytes (longer text is cut at a character), and most segments (more are
 * merged into the last). */
#define UTTERANCE_TEXT_MAX     480
#define UTTERANCE_SEGMENTS_MAX 16

struct utterance_segment {
	enum phrase_lang lang;
	uint16_t start, end; /* byte offsets into text */
};

struct utterance {
	char text[UTTERANCE_TEXT_MAX];
	size_t len;  /* bytes in text */
	size_t want; /* as snprintf: the length the whole text would have */
	int count;
	struct utterance_segment seg[UTTERANCE_SEGMENTS_MAX];
};

void utterance_clear(struct utterance *u);
/* Append s in lang.  Text without letters (spaces, punctuation) joins the segment before it,
 * so segments start and end with words; text in the language of the last segment extends
 * it. */
void utterance_add(struct utterance *u, enum phrase_lang lang, const char *s);
/* The words of segment i without the blanks and separators around it ("Gustav eins", not
 * " Gustav eins: "); returns the length as snprintf. */
size_t utterance_segment_text(const struct utterance *u, int i, char *buf, size_t size);
/* Cut the text to its first len bytes (segments past it go). */
void utterance_truncate(struct utterance *u, size_t len);
/* An utterance of one segment. */
void utterance_set(struct utterance *u, enum phrase_lang lang, const char *s);

#endif
