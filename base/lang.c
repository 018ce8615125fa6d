/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/lang.h"

#include <string.h>

static const char *const lang_codes[PHRASE_LANG_COUNT] = {"de", "en", "sv", "nl"};

int phrase_lang_parse(const char *code)
{
	if (code == NULL)
		return -1;
	for (int i = 0; i < PHRASE_LANG_COUNT; i++)
		if (strcmp(code, lang_codes[i]) == 0)
			return i;
	return -1;
}

enum phrase_lang phrase_lang_or(const char *code, enum phrase_lang otherwise)
{
	int lang = phrase_lang_parse(code);

	return lang < 0 ? otherwise : (enum phrase_lang)lang;
}

const char *phrase_lang_code(enum phrase_lang lang)
{
	return (unsigned)lang < PHRASE_LANG_COUNT ? lang_codes[lang] : "de";
}
