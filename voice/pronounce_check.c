/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "voice/pronounce_check.h"

#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "voice/phonemes.h"

/* Samples quieter than this are silence (eSpeak NG's pauses are exact zeros or close). */
#define QUIET 256

struct sound {
	long first, last; /* the first and last loud sample, -1 before any */
	long count;
};

static int measure(short *wav, int n, espeak_EVENT *events)
{
	struct sound *s = events ? events->user_data : NULL;

	if (!s || !wav)
		return 0;
	for (int i = 0; i < n; i++) {
		if (wav[i] > QUIET || wav[i] < -QUIET) {
			if (s->first < 0)
				s->first = s->count + i;
			s->last = s->count + i;
		}
	}
	s->count += n;
	return 0;
}

/* The sound of text in ms, and what eSpeak NG read of it into read (may be NULL). */
static unsigned speak(const char *text, int rate, char *read, size_t size)
{
	struct sound s = {-1, -1, 0};
	char *trace = NULL;
	size_t trace_len = 0;
	FILE *f = read ? open_memstream(&trace, &trace_len) : NULL;

	if (f)
		espeak_SetPhonemeTrace(espeakPHONEMES_SHOW, f);
	espeak_SetSynthCallback(measure);
	espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8 | espeakPHONEMES,
		     NULL, &s);
	espeak_Synchronize();
	if (f) {
		espeak_SetPhonemeTrace(0, NULL);
		fclose(f);
		/* One line per clause: "  f'ynf\n"; blanks and line ends left out. */
		size_t n = 0;

		for (size_t i = 0; trace && i < trace_len && n + 1 < size; i++)
			if (trace[i] != '\n' && trace[i] != ' ')
				read[n++] = trace[i];
		read[n] = '\0';
		free(trace);
	}
	espeak_SetSynthCallback(NULL);
	if (s.first < 0 || rate <= 0)
		return 0;
	return (unsigned)((s.last - s.first + 1) * 1000 / rate);
}

/* The phoneme characters of a mnemonic string: stress, syllable, pause and separator marks
 * left out, so what was given and what was read compare by their sounds. */
static size_t sounds(const char *p, char *out, size_t size)
{
	size_t n = 0;

	for (; *p && n + 1 < size; p++)
		if (!strchr("'\",%=_!| ", *p))
			out[n++] = *p;
	out[n] = '\0';
	return n;
}

int pronounce_check(const struct pronounce_entry *e, struct pronounce_verdict *v)
{
	char text[PRONOUNCE_PHONEMES_MAX + 8], given[PRONOUNCE_PHONEMES_MAX], got[128];
	int rate = voice_espeak_init(VOICE_ESPEAK_BUFFER_MS);

	memset(v, 0, sizeof(*v));
	if (rate <= 0)
		return -1;
	espeak_SetVoiceByName(phrase_lang_code(e->lang));
	snprintf(text, sizeof(text), "[[%s]]", e->phonemes);
	v->phonemes_ms = speak(text, rate, v->read, sizeof(v->read));
	v->word_ms = speak(e->word, rate, NULL, 0);
	/* Read short: eSpeak NG stopped at a mnemonic its voice does not have. */
	v->accepted =
	    sounds(v->read, got, sizeof(got)) >= sounds(e->phonemes, given, sizeof(given));
	v->short_sound = v->phonemes_ms * 100 < v->word_ms * PRONOUNCE_SHORT_PERCENT;
	return 0;
}
