/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The built-in overrides, each checked with `espeak-ng -x -v LANG` (eSpeak NG 1.51):
 *   de Cesar      "k'e:zA:r" (a K)            -> ts'e:zA:r
 *   de David      "dav'i:t" (stress on -vid)  -> d'a:vIt
 *   de Rochade    "r'OxA:d@" (stress, ch)     -> rOS'a:d@
 *   de en passant "_!'e:n pas'ant" (German)   -> A~pas'A~ (French, as chess players say it)
 *   de eins       "_|aIns", unstressed mid-phrase -> 'aIns (rank 1 heard in a noisy hall)
 *   de Remis      "r'e:mIs"                   -> r@m'i:
 *   de Remisangebot, fortgesetzt, überein: stress and vowels of the compound
 *   de Braillezeile "br'aIle:ts,aIl@" (Braille as a German word) -> br'aIj@ts,aIl@
 *   en hundred and "h'VndrI2d_:_: and" (a pause inside the number) -> h'Vndr@d@nd
 *   sv remi       "R'e:mi:" (stress on re-)   -> rEm'i:
 *   nl remise     "r'e:mis@"                  -> r@m'i:z@
 *   nl opgeven    "_|OpQ'e:v@n" (stress)      -> 'OpXe:v@n
 */
#include "voice/pronounce.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const struct pronounce_entry builtin[] = {
    {PHRASE_DE, "Cesar", "ts'e:zA:r"},
    {PHRASE_DE, "David", "d'a:vIt"},
    {PHRASE_DE, "Rochade", "rOS'a:d@"},
    {PHRASE_DE, "en passant", "A~pas'A~"},
    {PHRASE_DE, "eins", "'aIns"},
    {PHRASE_DE, "Remis", "r@m'i:"},
    {PHRASE_DE, "Remisangebot", "r@m'i:|ang@b,o:t"},
    {PHRASE_DE, "fortgesetzt", "f'Ortg@z,Etst"},
    {PHRASE_DE, "überein", "y:b3_!'aIn"},
    {PHRASE_DE, "Braillezeile", "br'aIj@ts,aIl@"},
    {PHRASE_EN, "hundred and", "h'Vndr@d@nd"},
    {PHRASE_SV, "remi", "rEm'i:"},
    {PHRASE_NL, "remise", "r@m'i:z@"},
    {PHRASE_NL, "opgeven", "'OpXe:v@n"},
    /* Online play (docs/online.md "Playing online"): "lee-chess", as its players say it. */
    {PHRASE_DE, "Lichess", "l'i:tSEs"},
    {PHRASE_EN, "Lichess", "l'i:tSEs"},
    {PHRASE_EN, "lichess", "l'i:tSEs"},
    {PHRASE_SV, "Lichess", "l'i:tSEs"},
    {PHRASE_SV, "lichess", "l'i:tSEs"},
    {PHRASE_NL, "Lichess", "l'i:tSEs"},
    {PHRASE_NL, "lichess", "l'i:tSEs"},
};

static bool word_byte(unsigned char c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z' ? true : c >= 0x80 || c == '-' || c == '\'';
}

int pronounce_add(struct pronounce_table *t, enum phrase_lang lang, const char *word,
		  const char *phonemes, char *err, size_t err_size)
{
	size_t wn = strlen(word), pn = strlen(phonemes);
	struct pronounce_entry *e = NULL;

	if (wn == 0 || wn >= PRONOUNCE_WORD_MAX || word[0] == ' ' || word[wn - 1] == ' ') {
		snprintf(err, err_size, "pronounce: the word must be 1..%d bytes",
			 PRONOUNCE_WORD_MAX - 1);
		return -1;
	}
	for (const unsigned char *p = (const unsigned char *)word; *p; p++)
		if (!word_byte(*p) && *p != ' ') {
			snprintf(err, err_size,
				 "pronounce: '%s' must be letters, blanks, hyphens or apostrophes",
				 word);
			return -1;
		}
	if (pn == 0 || pn >= PRONOUNCE_PHONEMES_MAX) {
		snprintf(err, err_size, "pronounce: phonemes must be 1..%d characters",
			 PRONOUNCE_PHONEMES_MAX - 1);
		return -1;
	}
	for (const unsigned char *p = (const unsigned char *)phonemes; *p; p++)
		if (*p < 0x20 || *p > 0x7e || *p == '[' || *p == ']') {
			snprintf(err, err_size,
				 "pronounce: phonemes must be eSpeak NG's ASCII mnemonics "
				 "(espeak-ng -x), without brackets");
			return -1;
		}
	for (int i = 0; i < t->count; i++)
		if (t->user[i].lang == lang && !strcmp(t->user[i].word, word))
			e = &t->user[i];
	if (!e) {
		if (t->count == PRONOUNCE_USER_MAX) {
			snprintf(err, err_size, "pronounce: at most %d words", PRONOUNCE_USER_MAX);
			return -1;
		}
		e = &t->user[t->count++];
	}
	e->lang = lang;
	memcpy(e->word, word, wn + 1);
	memcpy(e->phonemes, phonemes, pn + 1);
	return 0;
}

const char *pronounce_lookup(const struct pronounce_table *t, enum phrase_lang lang,
			     const char *word)
{
	for (int i = 0; t && i < t->count; i++)
		if (t->user[i].lang == lang && !strcmp(t->user[i].word, word))
			return t->user[i].phonemes;
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		if (builtin[i].lang == lang && !strcmp(builtin[i].word, word))
			return builtin[i].phonemes;
	return NULL;
}

/* The entry whose word starts at text[at] and ends at a word boundary; the longest. */
static const struct pronounce_entry *match_at(const struct pronounce_table *t,
					      enum phrase_lang lang, const char *s, size_t *len)
{
	const struct pronounce_entry *best = NULL;
	int count = (int)(sizeof(builtin) / sizeof(builtin[0]));

	*len = 0;
	for (int pass = 0; pass < 2; pass++) {
		const struct pronounce_entry *list = pass == 0 ? (t ? t->user : NULL) : builtin;
		int n = pass == 0 ? (t ? t->count : 0) : count;

		for (int i = 0; i < n; i++) {
			size_t wn = strlen(list[i].word);

			if (list[i].lang != lang || wn <= *len || strncmp(s, list[i].word, wn) ||
			    word_byte((unsigned char)s[wn]))
				continue;
			best = &list[i];
			*len = wn;
		}
	}
	return best;
}

size_t pronounce_apply(const struct pronounce_table *t, enum phrase_lang lang, const char *text,
		       char *out, size_t size)
{
	size_t n = 0;
	bool at_start = true;

#define PUT(s, k)                                                                                  \
	do {                                                                                       \
		if (n + (k) < size)                                                                \
			memcpy(out + n, (s), (k));                                                 \
		n += (k);                                                                          \
	} while (0)
	for (const char *p = text; *p;) {
		size_t len;
		const struct pronounce_entry *e = at_start ? match_at(t, lang, p, &len) : NULL;

		if (e) {
			PUT("[[", 2);
			PUT(e->phonemes, strlen(e->phonemes));
			PUT("]]", 2);
			p += len;
			at_start = false;
			continue;
		}
		at_start = !word_byte((unsigned char)*p);
		PUT(p, 1);
		p++;
	}
#undef PUT
	if (size > 0)
		out[n < size ? n : size - 1] = '\0';
	return n;
}
