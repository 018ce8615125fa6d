/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: control.log's escaping (daemon/audit.h).  Whatever the bytes, what is
 * written holds no control character, DEL or C1 control, is valid UTF-8 without the marks
 * that turn or hide text, and reads back (\xHH and \\ undone) as exactly the bytes given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The length of the valid UTF-8 sequence at p (shortest form, no surrogate, at most
 * U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len = p[0] < 0x80	     ? 1
		     : (p[0] & 0xe0) == 0xc0 ? 2
		     : (p[0] & 0xf0) == 0xe0 ? 3
		     : (p[0] & 0xf8) == 0xf0 ? 4
					     : 0;
	uint32_t c = len == 1	? p[0]
		     : len == 2 ? p[0] & 0x1fu
		     : len == 3 ? p[0] & 0x0fu
				: p[0] & 7u;
	static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};

	if (!len || len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3fu);
	}
	if (c < min[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return len;
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cap = 4 * size + 1, n, back = 0;
	char *out = malloc(cap);
	unsigned char *again = malloc(size + 1);

	if (!out || !again)
		abort();
	n = audit_escape((const char *)data, size, out, cap);
	if (n != strlen(out))
		abort();
	for (size_t i = 0, l; i < n; i += l)
		if (!(l = utf8_len((const unsigned char *)out + i, n - i)))
			abort();
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];

		if (c < 0x20 || c == 0x7f)
			abort();
		/* No C1 control (U+0080..U+009F: C2 80..C2 9F) and no U+202E (E2 80 AE). */
		if (c == 0xc2 && i + 1 < n && (unsigned char)out[i + 1] < 0xa0)
			abort();
		if (c == 0xe2 && i + 2 < n && (unsigned char)out[i + 1] == 0x80 &&
		    (unsigned char)out[i + 2] == 0xae)
			abort();
		if (c == '\\') {
			if (out[i + 1] == '\\') {
				again[back++] = '\\';
				i++;
			} else if (out[i + 1] == 'x' && hex(out[i + 2]) >= 0 &&
				   hex(out[i + 3]) >= 0) {
				again[back++] =
				    (unsigned char)(hex(out[i + 2]) << 4 | hex(out[i + 3]));
				i += 3;
			} else {
				abort();
			}
		} else {
			again[back++] = c;
		}
		if (back > size)
			abort();
	}
	if (back != size || memcmp(again, data, size))
		abort();
	free(out);
	free(again);
	return 0;
}
