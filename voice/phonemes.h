/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * eSpeak NG's phoneme output (as `espeak-ng -x`) for the listening kit and the phoneme
 * golden (annabella speech-phonemes, tests/speech/phonemes.golden), and the one
 * initialisation of eSpeak NG in a process (the voice thread uses it too).  Not to be
 * called while a voice thread speaks: eSpeak NG is not thread-safe.
 */
#ifndef ANNABELLA_PHONEMES_H
#define ANNABELLA_PHONEMES_H

#include <stddef.h>

#include "voice/utterance.h"

/* eSpeak NG hands over samples every this many ms of audio: small, so that the first samples
 * of a move reach the device early.  The first initialisation in a process sets it, also for
 * the voice thread after it (the pronunciation check at start comes first). */
#define VOICE_ESPEAK_BUFFER_MS 20

/* Initialise eSpeak NG once (synchronous, in process); its sample rate, or -1. */
int voice_espeak_init(int buffer_ms);
/* "1.51" */
const char *voice_espeak_version(void);
/* The phonemes of input (a segment's eSpeak NG input, voice_segment_input) in lang's voice:
 * plain words through espeak_TextToPhonemes, [[...]] overrides as given.  Clauses are
 * joined with " ". The length as snprintf; 0 if eSpeak NG cannot start. */
size_t voice_phonemes(enum phrase_lang lang, const char *input, char *out, size_t size);

#endif
