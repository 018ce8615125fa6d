/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "voice/phonemes.h"

#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <string.h>

/* eSpeak NG is set up once per process and never terminated: espeak_Terminate() followed by
 * a second espeak_Initialize() can hang in eSpeak NG 1.51. */
static int espeak_rate;

int voice_espeak_init(int buffer_ms)
{
	if (espeak_rate == 0) {
		espeak_rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, buffer_ms, NULL,
						espeakINITIALIZE_DONT_EXIT);
		if (espeak_rate <= 0)
			espeak_rate = -1;
	}
	return espeak_rate;
}

const char *voice_espeak_version(void)
{
	const char *path;

	return espeak_Info(&path);
}

size_t voice_phonemes(enum phrase_lang lang, const char *input, char *out, size_t size)
{
	char part[2 * UTTERANCE_TEXT_MAX];
	size_t n = 0;

#define PUT(s)                                                                                     \
	do {                                                                                       \
		n += (size_t)snprintf(out + (n < size ? n : size), n < size ? size - n : 0,        \
				      "%s%s", n ? " " : "", (s));                                  \
	} while (0)
	if (size > 0)
		out[0] = '\0';
	if (voice_espeak_init(20) <= 0)
		return 0;
	espeak_SetVoiceByName(phrase_lang_code(lang));
	for (const char *p = input; *p;) {
		const char *open = strstr(p, "[["), *close = open ? strstr(open, "]]") : NULL;
		size_t k = open && close ? (size_t)(open - p) : strlen(p);

		if (k > 0) {
			const void *text = part;

			snprintf(part, sizeof(part), "%.*s", (int)k, p);
			while (text) {
				const char *ph = espeak_TextToPhonemes(&text, espeakCHARS_UTF8, 0);

				if (ph && *ph)
					PUT(ph);
			}
		}
		if (!open || !close)
			break;
		snprintf(part, sizeof(part), "%.*s", (int)(close - open - 2), open + 2);
		PUT(part);
		p = close + 2;
	}
#undef PUT
	return n;
}
