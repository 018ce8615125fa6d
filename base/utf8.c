/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/utf8.h"

#include <string.h>

/* U+FFFD REPLACEMENT CHARACTER, in UTF-8. */
#define REPLACEMENT "\xef\xbf\xbd"

size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c, min;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if ((p[0] & 0xe0) == 0xc0) {
		len = 2;
		c = p[0] & 0x1f;
		min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		len = 3;
		c = p[0] & 0x0f;
		min = 0x800;
	} else if ((p[0] & 0xf8) == 0xf0) {
		len = 4;
		c = p[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

enum utf8_effect utf8_effect(uint32_t cp)
{
	if (cp < 0x20 || cp == 0x85 || cp == 0x2028 || cp == 0x2029)
		return UTF8_BREAKS;
	if ((cp >= 0x7f && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069))
		return UTF8_TURNS;
	return UTF8_PLAIN;
}

size_t utf8_unsafe_at(const char *s, size_t len, bool tab)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_decode(p + i, len - i, &cp);

		if (!n || (utf8_effect(cp) != UTF8_PLAIN && !(tab && cp == '\t')))
			return i;
		i += n;
	}
	return len;
}

/* Each character of s through emit(): as it is, a space, or U+FFFD (see utf8_append_safe). */
static void each_safe(const char *s, size_t len, bool lines,
		      bool (*emit)(void *user, const char *text, size_t n), void *user)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = utf8_decode(p + i, len - i, &cp);
		enum utf8_effect e = n ? utf8_effect(cp) : UTF8_TURNS;
		bool more;

		if (e == UTF8_PLAIN || (lines && cp == '\n'))
			more = emit(user, s + i, n);
		else if (e == UTF8_BREAKS)
			more = emit(user, " ", 1);
		else
			more = emit(user, REPLACEMENT, 3);
		if (!more)
			return;
		i += n ? n : 1;
	}
}

static bool to_strbuf(void *user, const char *text, size_t n)
{
	strbuf_append(user, text, n);
	return true;
}

void utf8_append_safe(struct strbuf *b, const char *s, size_t len, bool lines)
{
	each_safe(s, len, lines, to_strbuf, b);
}

struct bounded {
	char *out;
	size_t size, at;
};

static bool to_bounded(void *user, const char *text, size_t n)
{
	struct bounded *o = user;

	if (o->at + n >= o->size)
		return false;
	memcpy(o->out + o->at, text, n);
	o->at += n;
	return true;
}

size_t utf8_copy_safe(char *out, size_t size, const char *s, size_t len)
{
	struct bounded o = {out, size, 0};

	if (!size)
		return 0;
	each_safe(s, len, false, to_bounded, &o);
	out[o.at] = '\0';
	return o.at;
}
