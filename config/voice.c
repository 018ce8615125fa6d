/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * [voice] and [speech] (docs/voice.md): the sound card or file each channel goes to, the
 * voices, their rate, pitch, volume and variant, and what is said and how.
 */
#include "config/sections.h"

#include <string.h>

/* rate, pitch, volume, variant: "public-rate" for one channel, "rate" for both.  0 if
 * set; -1 with err empty if the key is not one of them, with a message if the value is
 * bad. */
static int set_voice_params(struct config *cfg, const char *key, const char *value, char *err,
			    size_t err_size)
{
	int first = 0, last = VOICE_CHANNEL_COUNT - 1;
	const char *name = key;
	long v = 0;

	err[0] = '\0';
	if (!strncmp(key, "public-", 7)) {
		first = last = VOICE_PUBLIC;
		name = key + 7;
	} else if (!strncmp(key, "private-", 8)) {
		first = last = VOICE_PRIVATE;
		name = key + 8;
	}
	if (!strcmp(name, "rate")) {
		if (config_parse_uint(value, 80, 450, &v))
			BAD("%s must be 80..450 words per minute", key);
	} else if (!strcmp(name, "pitch")) {
		if (config_parse_uint(value, 0, 100, &v))
			BAD("%s must be 0..100", key);
	} else if (!strcmp(name, "volume")) {
		if (config_parse_uint(value, 0, 200, &v))
			BAD("%s must be 0..200", key);
	} else if (!strcmp(name, "variant")) {
		if (strlen(value) >= sizeof(cfg->voice.params[0].variant) ||
		    strspn(value, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(value))
			BAD("%s must be an eSpeak NG variant name (e.g. f2, klatt), or empty", key);
	} else {
		return -1;
	}
	for (int ch = first; ch <= last; ch++) {
		struct voice_params *p = &cfg->voice.params[ch];

		if (!strcmp(name, "rate"))
			p->rate = (int)v;
		else if (!strcmp(name, "pitch"))
			p->pitch = (int)v;
		else if (!strcmp(name, "volume"))
			p->volume = (int)v;
		else
			config_copy_string(p->variant, sizeof(p->variant), value);
	}
	return 0;
}

/* [speech]: pronunciation overrides and how a repeat asked again is said.
 * "pronounce WORD" is for the German voice, "pronounce-en WORD" (-sv, -nl) for another. */
int config_set_speech(struct config *cfg, const char *key, const char *value, char *err,
		      size_t err_size)
{
	long v;

	if (!strncmp(key, "pronounce", 9)) {
		const char *word = key + 9;
		int lang = PHRASE_DE;

		if (word[0] == '-') {
			char code[3] = {word[1], word[1] ? word[2] : '\0', '\0'};

			lang = phrase_lang_parse(code);
			if (lang < 0 || !word[1] || !word[2])
				BAD("'%s': pronounce-LANG takes de, en, sv or nl", key);
			word += 3;
		}
		if (word[0] != ' ')
			BAD("'%s': write pronounce WORD = PHONEMES", key);
		word += strspn(word, " ");
		cfg->pronounce_again = false;
		for (int i = 0; i < cfg->voice.pronounce.count; i++)
			if (cfg->voice.pronounce.user[i].lang == (enum phrase_lang)lang &&
			    !strcmp(cfg->voice.pronounce.user[i].word, word))
				cfg->pronounce_again = true;
		if (pronounce_add(&cfg->voice.pronounce, (enum phrase_lang)lang, word, value, err,
				  err_size))
			return -1;
		for (int i = 0; i < cfg->voice.pronounce.count; i++)
			if (cfg->voice.pronounce.user[i].lang == (enum phrase_lang)lang &&
			    !strcmp(cfg->voice.pronounce.user[i].word, word))
				cfg->pronounce_last = i;
		return 0;
	}
	if (!strcmp(key, "slow-repeat")) {
		if (config_parse_uint(value, 50, 100, &v))
			BAD("slow-repeat must be 50..100 (percent of the rate)");
		cfg->slow_repeat = (int)v;
		return 0;
	}
	BAD("unknown key '%s' in [speech]", key);
}

int config_set_voice(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	bool b;

	if (!strcmp(key, "language")) {
		int lang = phrase_lang_parse(value);

		if (lang < 0)
			BAD("language must be de, en, sv or nl, not '%s'", value);
		cfg->phrases.lang = (enum phrase_lang)lang;
	} else if (!strcmp(key, "short-form") || !strcmp(key, "national-ranks") ||
		   !strcmp(key, "announce-check") || !strcmp(key, "record")) {
		if (config_parse_bool(value, &b))
			BAD("%s must be yes or no, not '%s'", key, value);
		if (!strcmp(key, "short-form"))
			cfg->phrases.short_form = b;
		else if (!strcmp(key, "national-ranks"))
			cfg->phrases.national_ranks = b;
		else if (!strcmp(key, "record"))
			cfg->voice.record = b;
		else {
			cfg->phrases.announce_check = b;
			cfg->announce_check_set = true;
		}
	} else if (!strcmp(key, "audio")) {
		if (!strcmp(value, "alsa"))
			cfg->voice.sink = VOICE_SINK_ALSA;
		else if (!strcmp(value, "wav"))
			cfg->voice.sink = VOICE_SINK_WAV;
		else if (!strcmp(value, "none"))
			cfg->voice.sink = VOICE_SINK_NONE;
		else
			BAD("audio must be alsa, wav or none, not '%s'", value);
	} else if (!strncmp(key, "voice-", 6)) {
		int lang = phrase_lang_parse(key + 6);

		if (lang < 0)
			BAD("'%s': voice-LANG takes de, en, sv or nl", key);
		if (strlen(value) >= sizeof(cfg->voice.voice_name[0]) ||
		    strspn(value,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
			strlen(value))
			BAD("%s must be an eSpeak NG voice name (e.g. mb-de6, de), or empty", key);
		config_copy_string(cfg->voice.voice_name[lang], sizeof(cfg->voice.voice_name[lang]),
				   value);
	} else if (!strcmp(key, "engine")) {
		if (!strcmp(value, "library"))
			cfg->voice.engine = VOICE_ENGINE_LIBRARY;
		else if (!strcmp(value, "process"))
			cfg->voice.engine = VOICE_ENGINE_PROCESS;
		else
			BAD("engine must be library or process, not '%s'", value);
	} else if (set_voice_params(cfg, key, value, err, err_size) == 0) {
		return 0;
	} else if (err[0]) {
		return -1;
	} else if (!strcmp(key, "public-device") || !strcmp(key, "private-device")) {
		int ch = !strcmp(key, "public-device") ? VOICE_PUBLIC : VOICE_PRIVATE;

		if (config_copy_string(cfg->voice.device[ch], sizeof(cfg->voice.device[ch]), value))
			BAD("%s too long", key);
	} else {
		BAD("unknown key '%s' in [voice]", key);
	}
	return 0;
}
