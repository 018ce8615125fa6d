/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The voice each language speaks with: the language's own eSpeak NG voice, or the one the
 * configuration names ([voice] voice-de = mb-de6, any eSpeak NG voice, MBROLA's too), tried
 * before it is used.  A named voice must load as itself (eSpeak NG loads another silently
 * for a variant or voice it does not have) and say a sentence of its language; it is then
 * measured against the language's own voice on the same sentence: its sample rate, and the
 * gain that brings its loudness to the same level without clipping (eSpeak NG clips MBROLA's
 * louder voices itself, so they are made at half the volume and brought up after).
 * Internal to voice/: from the voice thread, or before it runs (eSpeak NG is not
 * thread-safe).
 */
#ifndef ANNABELLA_LANGVOICE_H
#define ANNABELLA_LANGVOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voice/utterance.h"
#include "voice/voice.h"

/* Above this a sample is bent by the limiter towards full scale, never past it. */
#define LANG_VOICE_LIMIT 26000
/* A named voice's volume given to eSpeak NG, in percent of the channel's. */
#define LANG_VOICE_HEADROOM_PERCENT 50

struct lang_voice {
	char name[VOICE_NAME_MAX]; /* the eSpeak NG voice loaded for the language */
	bool named;		   /* the configuration's (not the language's own) */
	bool mbrola;		   /* an MBROLA voice: its end needs a pause (voice.c) */
	bool apart;		   /* said by a worker (voice/worker.h), not the voice thread */
	unsigned rate;		   /* its samples per second */
	int volume_percent;	   /* of the channel's volume, for eSpeak NG */
	float gain;		   /* on its samples after eSpeak NG (1: none) */
};

/* How a language's voice sounds on a test sentence. */
struct voice_level {
	unsigned rate;
	uint64_t samples;
	int peak;
	uint64_t clipped; /* samples at full scale */
	double active_db; /* the power of its sounding 20 ms frames, dB of full scale */
};

/* The language's own voice (no measurement). */
void lang_voice_default(struct lang_voice *lv, enum phrase_lang lang);
/* Try asked for lang at the channel volume `volume`: 0 with lv set (the gain measured
 * against the language's own voice), or -1 with why ("eSpeak NG has no voice mb-de9", "it
 * said nothing") and lv the language's own voice.  Changes eSpeak NG's voice and synth
 * callback: the caller sets its own again. */
int lang_voice_try(struct lang_voice *lv, enum phrase_lang lang, const char *asked, int volume,
		   char *why, size_t why_size);
/* Load lv's voice into eSpeak NG: 0; -1 if eSpeak NG has no such voice, -2 if it loads
 * another for it (a named voice only). */
int lang_voice_load(const struct lang_voice *lv);
/* Say text with the voice loaded and measure it (changes the synth callback). */
int lang_voice_measure(const char *text, int volume, struct voice_level *out);
/* lv's gain on n samples (in place), bent above LANG_VOICE_LIMIT, never clipped. */
void lang_voice_gain(const struct lang_voice *lv, int16_t *s, size_t n);
/* Whether eSpeak NG has the variant name ("f2", "klatt": espeak-ng-data/voices/!v/). */
bool lang_voice_variant_exists(const char *name);
/* The sentence each voice is tried and measured with. */
const char *lang_voice_sentence(enum phrase_lang lang);

#endif
