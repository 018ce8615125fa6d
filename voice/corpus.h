/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The speech corpus: every phrase of every language, moves in each language's settings
 * (long form; short form with national numerals), durations and numbers, as the daemon would
 * say them; for the listening kit and the phoneme golden (annabella speech-phonemes,
 * speech-samples) and for the check of pronunciation overrides at start.
 */
#ifndef ANNABELLA_CORPUS_H
#define ANNABELLA_CORPUS_H

#include <stddef.h>

#include "voice/phrases.h"
#include "voice/utterance.h"

/* Item i of the corpus: its name ("de-phrase-07") and utterance; -1 past the end. */
int speech_corpus_item(int i, char *name, size_t size, struct utterance *u);
/* Whether the voice of `lang` says `word` (a whole word, without regard to case) anywhere in
 * the corpus: 1; 0 when only another language's voice says it (*other names one); -1 when
 * no voice does. */
int speech_corpus_says(enum phrase_lang lang, const char *word, enum phrase_lang *other);

#endif
