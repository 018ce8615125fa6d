/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A pronunciation override tried before it is used ([speech] pronounce WORD = PHONEMES):
 * eSpeak NG speaks it and the plain word, in the voice of the override's language, and
 * reports which of the phonemes it read and how long each sounds.  eSpeak NG stops reading
 * a phoneme string at the first mnemonic its voice does not know ("f'Ynf" in the German
 * voice is read as "f": there is no "Y" there), so an override it does not accept is read
 * short.  Initialises eSpeak NG in this process (voice_espeak_init): call it at start,
 * before the voice thread runs.
 */
#ifndef ANNABELLA_PRONOUNCE_CHECK_H
#define ANNABELLA_PRONOUNCE_CHECK_H

#include <stdbool.h>

#include "voice/pronounce.h"

/* Less than this share of the plain word's sound is "far shorter" (a warning). */
#define PRONOUNCE_SHORT_PERCENT 50

struct pronounce_verdict {
	bool accepted;	      /* eSpeak NG read every phoneme given */
	char read[128];	      /* the phonemes it read, as `espeak-ng -x` prints them */
	unsigned phonemes_ms; /* the override's sound, the silence at its ends left out */
	unsigned word_ms;     /* the plain word's */
	bool short_sound;     /* phonemes_ms under PRONOUNCE_SHORT_PERCENT of word_ms */
};

/* 0, or -1 if eSpeak NG cannot start. */
int pronounce_check(const struct pronounce_entry *e, struct pronounce_verdict *v);

#endif
