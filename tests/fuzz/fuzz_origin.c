/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the web page's Host and Origin checks (net/origin.h), on the headers a
 * client sends: NUL-separated Host, Origin, Sec-Fetch-Site and the club's names. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/origin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 4), *field[4];
	size_t at = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	memset(text + size, 0, 4);
	for (int i = 0; i < 4; i++) {
		field[i] = text + at;
		at += strlen(text + at) + (at < size + 3 ? 1 : 0);
		if (at > size + 3)
			at = size + 3;
	}
	if (origin_host_ok(field[0], "annabella-pi", field[3]) &&
	    !origin_host_ok(field[0], "annabella-pi", field[3]))
		__builtin_trap();
	/* The page's own origin is always its own. */
	if (field[0][0] && !strchr(field[0], '\n')) {
		char own[300];

		strcpy(own, "http://");
		strncat(own, field[0], sizeof(own) - 8);
		if (strlen(field[0]) < sizeof(own) - 8 && !origin_same(false, field[0], own, NULL))
			__builtin_trap();
	}
	origin_same(true, field[0], field[1], field[2]);
	free(text);
	return 0;
}
