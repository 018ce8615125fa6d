/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Pronunciation overrides: words eSpeak NG says wrongly, given to it as phonemes
 * ("[[ts'e:zA:r]]", input with espeakPHONEMES) in the voice of their segment's language.
 * A built-in table per language holds the Appendix D words eSpeak NG gets wrong (Cesar,
 * David, Rochade, en passant, a stressed "eins") and words found wrong in its phoneme
 * output; the configuration adds more ([speech] pronounce WORD = PHONEMES), and a user's
 * entry goes before a built-in one.  speech.log keeps the plain words.  Pure.
 */
#ifndef ANNABELLA_PRONOUNCE_H
#define ANNABELLA_PRONOUNCE_H

#include <stddef.h>

#include "voice/utterance.h"

#define PRONOUNCE_WORD_MAX     48 /* bytes, with the NUL */
#define PRONOUNCE_PHONEMES_MAX 64
#define PRONOUNCE_USER_MAX     32

struct pronounce_entry {
	enum phrase_lang lang;
	char word[PRONOUNCE_WORD_MAX]; /* one word or a few, matched whole and case-sensitively */
	char phonemes[PRONOUNCE_PHONEMES_MAX]; /* eSpeak NG phoneme mnemonics (espeak-ng -x) */
};

struct pronounce_table {
	int count;
	struct pronounce_entry user[PRONOUNCE_USER_MAX];
};

/* Add a user's entry (replacing one for the same word and language).  0, or -1 with a
 * message in err: the word must be letters, blanks, hyphens or apostrophes; the phonemes
 * printable ASCII without brackets; both within their sizes; at most PRONOUNCE_USER_MAX. */
int pronounce_add(struct pronounce_table *t, enum phrase_lang lang, const char *word,
		  const char *phonemes, char *err, size_t err_size);
/* The phonemes for word in lang (user's first, then built-in), or NULL. */
const char *pronounce_lookup(const struct pronounce_table *t, enum phrase_lang lang,
			     const char *word);
/* text in lang with every overridden word replaced by [[phonemes]]; the length as
 * snprintf.  t may be NULL (built-ins only). */
size_t pronounce_apply(const struct pronounce_table *t, enum phrase_lang lang, const char *text,
		       char *out, size_t size);

#endif
