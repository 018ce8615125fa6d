/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the board script parser (DESIGN 4.3). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "daemon/script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct script s;
	char err[256];

	if (script_parse((const char *)data, size, "fuzz", &s, err, sizeof(err)) == 0) {
		uint64_t t = 0;

		for (int i = 0; i < s.count; i++) {
			/* times never go backwards; targets are in range */
			if (s.actions[i].time_ms < t || s.actions[i].target < 0 ||
			    s.actions[i].target > 63)
				__builtin_trap();
			t = s.actions[i].time_ms;
		}
		if (s.header.has_setup && strlen(s.header.setup_fen) >= sizeof(s.header.setup_fen))
			__builtin_trap();
		script_free(&s);
	} else if (strncmp(err, "fuzz:", 5) != 0) {
		__builtin_trap();
	}
	return 0;
}
