/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The languages the device speaks, by their codes ("de", "en", "sv", "nl"): the interface
 * language, each language's voice (eSpeak NG names its voices by the same codes), the
 * notation a control connection asks for and the languages the web page speaks.  One list,
 * read by every layer that names a language.
 */
#ifndef ANNABELLA_LANG_H
#define ANNABELLA_LANG_H

enum phrase_lang { PHRASE_DE = 0, PHRASE_EN, PHRASE_SV, PHRASE_NL, PHRASE_LANG_COUNT };

/* "de", "en", "sv", "nl" <-> enum; -1 if unknown (or NULL).  An enum out of range: "de". */
int phrase_lang_parse(const char *code);
const char *phrase_lang_code(enum phrase_lang lang);
/* The language of a code, or `otherwise` for NULL or a code the device does not speak. */
enum phrase_lang phrase_lang_or(const char *code, enum phrase_lang otherwise);

#endif
