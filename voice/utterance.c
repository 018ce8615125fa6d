/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "voice/utterance.h"

#include <stdio.h>
#include <string.h>

void utterance_clear(struct utterance *u)
{
	u->text[0] = '\0';
	u->len = 0;
	u->want = 0;
	u->count = 0;
}

/* Letters are ASCII letters and every byte of a UTF-8 sequence (ä, ö, ü, ß, å, é ...). */
static bool has_letter(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')
			return true;
		else if (*p >= 0x80)
			return true;
	return false;
}

void utterance_add(struct utterance *u, enum phrase_lang lang, const char *s)
{
	size_t n = strlen(s), room, k;
	size_t start = u->len;

	if ((unsigned)lang >= PHRASE_LANG_COUNT)
		lang = PHRASE_DE;
	u->want += n;
	room = sizeof(u->text) - 1 - u->len;
	k = n < room ? n : room;
	if (k < n)
		while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
			k--;
	memcpy(u->text + u->len, s, k);
	u->len += k;
	u->text[u->len] = '\0';
	if (k == 0)
		return;
	if (u->count > 0 && (u->seg[u->count - 1].lang == lang || !has_letter(s) ||
			     u->count == UTTERANCE_SEGMENTS_MAX)) {
		u->seg[u->count - 1].end = (uint16_t)u->len;
		return;
	}
	u->seg[u->count].lang = lang;
	u->seg[u->count].start = (uint16_t)start;
	u->seg[u->count].end = (uint16_t)u->len;
	u->count++;
}

void utterance_truncate(struct utterance *u, size_t len)
{
	if (len >= u->len)
		return;
	u->len = u->want = len;
	u->text[len] = '\0';
	while (u->count > 0 && u->seg[u->count - 1].start >= len)
		u->count--;
	if (u->count > 0 && u->seg[u->count - 1].end > len)
		u->seg[u->count - 1].end = (uint16_t)len;
}

void utterance_set(struct utterance *u, enum phrase_lang lang, const char *s)
{
	utterance_clear(u);
	utterance_add(u, lang, s);
}

static bool is_separator(char c)
{
	return c == ' ' || c == ',' || c == ':' || c == ';' || c == '.' || c == '\n' || c == '\t';
}

size_t utterance_segment_text(const struct utterance *u, int i, char *buf, size_t size)
{
	size_t start, end;

	if (i < 0 || i >= u->count) {
		if (size > 0)
			buf[0] = '\0';
		return 0;
	}
	start = u->seg[i].start;
	end = u->seg[i].end;
	while (start < end && is_separator(u->text[start]))
		start++;
	while (end > start && is_separator(u->text[end - 1]))
		end--;
	return (size_t)snprintf(buf, size, "%.*s", (int)(end - start), u->text + start);
}
