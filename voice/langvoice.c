/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "voice/langvoice.h"

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "voice/phonemes.h"
#include "voice/phrases.h"

/* The loudness of a voice: the power of its 20 ms frames within 30 dB of its loudest. */
#define LEVEL_FRAME_MS	 20
#define LEVEL_FRAMES_MAX 2048
#define LEVEL_RANGE	 1000.0 /* 30 dB in power */

/* A gain beyond these is a voice too odd to bring level: it is used as it is. */
#define GAIN_MIN 0.25f
#define GAIN_MAX 4.0f

static const char *const sentences[PHRASE_LANG_COUNT] = {
    "Springer Gustav eins Felix drei. Bauer Emil zwei Emil vier. Dame David acht schlägt "
    "Hektor vier, Schach. Kurze Rochade. Weiß: eine Stunde, zwei Minuten. Schwarz: drei "
    "Minuten, fünf Sekunden. Gespielte Züge: einunddreißig.",
    "White: one hour, two minutes. Black: three minutes, five seconds. Moves played: "
    "thirty-one. The board does not match the game.",
    "Vit: en timme, två minuter. Svart: tre minuter, fem sekunder. Spelade drag: "
    "trettioett. Brädet stämmer inte med partiet.",
    "Wit: een uur, twee minuten. Zwart: drie minuten, vijf seconden. Gespeelde zetten: "
    "eenendertig. Het bord klopt niet met de partij.",
};

const char *lang_voice_sentence(enum phrase_lang lang)
{
	return sentences[(unsigned)lang < PHRASE_LANG_COUNT ? lang : 0];
}

void lang_voice_default(struct lang_voice *lv, enum phrase_lang lang)
{
	memset(lv, 0, sizeof(*lv));
	snprintf(lv->name, sizeof(lv->name), "%s", phrase_lang_code(lang));
	lv->rate = (unsigned)voice_espeak_init(VOICE_ESPEAK_BUFFER_MS);
	lv->volume_percent = 100;
	lv->gain = 1.0f;
}

int lang_voice_load(const struct lang_voice *lv)
{
	const espeak_VOICE *cur;
	const char *id, *base;

	if (espeak_SetVoiceByName(lv->name) != EE_OK)
		return -1;
	if (!lv->named)
		return 0;
	/* eSpeak NG takes an unknown variant (de+mb-de6) as the plain voice: the one loaded
	 * must be the one named, by file ("mb/mb-de6") or by name ("German"). */
	cur = espeak_GetCurrentVoice();
	if (!cur)
		return -1;
	id = cur->identifier ? cur->identifier : "";
	base = strrchr(id, '/') ? strrchr(id, '/') + 1 : id;
	if (strcasecmp(base, lv->name) && (!cur->name || strcasecmp(cur->name, lv->name)))
		return -2;
	return 0;
}

struct level_acc {
	int frame;
	double sum;
	int in_frame;
	size_t frames;
	double power[LEVEL_FRAMES_MAX];
	struct voice_level *out;
};

static struct level_acc acc;

static int measure_callback(short *wav, int n, espeak_EVENT *events)
{
	(void)events;
	for (int i = 0; wav && i < n; i++) {
		int a = abs(wav[i]);

		if (a > acc.out->peak)
			acc.out->peak = a;
		if (a >= 32767)
			acc.out->clipped++;
		acc.sum += (double)wav[i] * wav[i];
		if (++acc.in_frame == acc.frame) {
			if (acc.frames < LEVEL_FRAMES_MAX)
				acc.power[acc.frames++] = acc.sum / acc.frame;
			acc.sum = 0;
			acc.in_frame = 0;
		}
	}
	if (wav && n > 0)
		acc.out->samples += (uint64_t)n;
	return 0;
}

int lang_voice_measure(const char *text, int volume, struct voice_level *out)
{
	double loudest = 0, sum = 0;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	memset(&acc, 0, sizeof(acc));
	out->rate = (unsigned)espeak_ng_GetSampleRate();
	acc.out = out;
	acc.frame = (int)(out->rate * LEVEL_FRAME_MS / 1000);
	if (acc.frame <= 0)
		return -1;
	espeak_SetParameter(espeakVOLUME, volume, 0);
	espeak_SetSynthCallback(measure_callback);
	if (espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL,
			 NULL) != EE_OK)
		return -1;
	for (size_t i = 0; i < acc.frames; i++)
		if (acc.power[i] > loudest)
			loudest = acc.power[i];
	for (size_t i = 0; i < acc.frames; i++)
		if (acc.power[i] * LEVEL_RANGE >= loudest) {
			sum += acc.power[i];
			n++;
		}
	out->active_db = n && sum > 0 ? 10 * log10(sum / (double)n / (32768.0 * 32768.0)) : -200;
	return 0;
}

int lang_voice_try(struct lang_voice *lv, enum phrase_lang lang, const char *asked, int volume,
		   char *why, size_t why_size)
{
	struct lang_voice own;
	struct voice_level ref, got;
	const char *text = lang_voice_sentence(lang);
	int headroom = volume * LANG_VOICE_HEADROOM_PERCENT / 100, rc;

	lang_voice_default(&own, lang);
	*lv = own;
	if (!asked[0] || !strcmp(asked, own.name))
		return 0;
	if (lang_voice_load(&own) || lang_voice_measure(text, volume, &ref)) {
		snprintf(why, why_size, "eSpeak NG has no voice %s", own.name);
		return -1;
	}
	snprintf(own.name, sizeof(own.name), "%s", asked);
	own.named = true;
	rc = lang_voice_load(&own);
	if (rc == -1) {
		snprintf(why, why_size, "eSpeak NG has no voice %s%s", asked,
			 !strncmp(asked, "mb-", 3)
			     ? " (an MBROLA voice needs the packages mbrola and "
			       "its voice's)"
			     : "");
		return -1;
	}
	if (rc) {
		const espeak_VOICE *cur = espeak_GetCurrentVoice();

		snprintf(why, why_size, "eSpeak NG loads %s for it, not %s",
			 cur && cur->identifier ? cur->identifier : "another voice", asked);
		return -1;
	}
	if (lang_voice_measure(text, headroom, &got) || got.samples == 0) {
		snprintf(why, why_size, "%s says nothing (is the mbrola program installed?)",
			 asked);
		return -1;
	}
	own.mbrola = !strncmp(espeak_GetCurrentVoice()->identifier, "mb/", 3);
	own.rate = got.rate;
	own.volume_percent = LANG_VOICE_HEADROOM_PERCENT;
	own.gain = (float)pow(10, (ref.active_db - got.active_db) / 20);
	if (own.gain < GAIN_MIN || own.gain > GAIN_MAX)
		own.gain = 1.0f;
	*lv = own;
	return 0;
}

bool lang_voice_variant_exists(const char *name)
{
	espeak_VOICE spec = {.languages = "variant"};
	const espeak_VOICE **list = espeak_ListVoices(&spec);

	for (int i = 0; list && list[i]; i++) {
		const char *id = list[i]->identifier ? list[i]->identifier : "";
		const char *base = strrchr(id, '/') ? strrchr(id, '/') + 1 : id;

		if (!strcasecmp(base, name))
			return true;
	}
	return false;
}

void lang_voice_gain(const struct lang_voice *lv, int16_t *s, size_t n)
{
	const float top = 32767.0f - LANG_VOICE_LIMIT;

	if (lv->gain == 1.0f)
		return;
	for (size_t i = 0; i < n; i++) {
		float y = (float)s[i] * lv->gain, a = fabsf(y);

		if (a > LANG_VOICE_LIMIT) {
			a = LANG_VOICE_LIMIT + top * tanhf((a - LANG_VOICE_LIMIT) / top);
			y = y < 0 ? -a : a;
		}
		s[i] = (int16_t)lrintf(y);
	}
}
