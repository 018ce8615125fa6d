/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * UTF-8 as the device takes and writes text from outside (requests, tags, names): decoded
 * strictly, and the characters that break a line or turn the text around them told apart.
 *
 * Such a character is never taken (a request or a configuration value holding one is
 * refused) and never written raw into a record a person reads: in a scoresheet (game.pgn,
 * round.pgn, the paper notation) what breaks a line becomes a space and what turns the
 * text a visible U+FFFD, so a tag can neither start a line of its own nor make the text
 * after it read backwards ("Trojan Source", CVE-2021-42574).
 */
#ifndef ANNABELLA_UTF8_H
#define ANNABELLA_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

/* The length of the UTF-8 sequence at p (at most n bytes) and its code point, or 0 when it
 * is none (a stray byte, an overlong form, a surrogate, beyond U+10FFFF, cut short). */
size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp);
/* What a character does to the text around it: nothing, break the line (C0 controls, NEL
 * U+0085, the line and paragraph separators U+2028 and U+2029), or turn it (DEL, the other
 * C1 controls, the bidirectional embeddings, overrides and isolates U+202A to U+202E and
 * U+2066 to U+2069). */
enum utf8_effect { UTF8_PLAIN, UTF8_BREAKS, UTF8_TURNS };
enum utf8_effect utf8_effect(uint32_t cp);
/* The first character of s (len bytes) that breaks a line or turns the text, or that is no
 * UTF-8: its offset, or len when there is none.  A tab is let through when tab is true. */
size_t utf8_unsafe_at(const char *s, size_t len, bool tab);
/* len bytes of s appended, each character that breaks the line as a space (a newline kept
 * when lines is true), each that turns the text or is no UTF-8 as U+FFFD. */
void utf8_append_safe(struct strbuf *b, const char *s, size_t len, bool lines);
/* The same into out (NUL-terminated, cut at a character's edge to fit); its length. */
size_t utf8_copy_safe(char *out, size_t size, const char *s, size_t len);

#endif
