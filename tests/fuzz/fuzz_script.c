/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the board script parser (docs/scripts.md "Board scripts, line logs, time
 * controls"). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "daemon/script.h"
#include "store/state.h"
#include "gpio/board.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The largest target an action may have: a square, a button, a line, a role, a fault. */
static int max_target(enum script_action_type type)
{
	switch (type) {
	case SCRIPT_PRESS:
	case SCRIPT_HOLD:
		return BOARD_BUTTON_COUNT - 1;
	case SCRIPT_STUCK:
	case SCRIPT_BOUNCE:
		return BOARD_SIM_BUTTON + BOARD_BUTTON_COUNT - 1;
	case SCRIPT_DISK:
		return SCRIPT_DISK_REMOVED;
	case SCRIPT_CONTROL:
		return 1;
	case SCRIPT_CRASH:
		return SCRIPT_CRASH_UNSYNCED;
	default:
		return 63;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct script s;
	char err[256];

	if (script_parse((const char *)data, size, "fuzz", &s, err, sizeof(err)) == 0) {
		uint64_t t = 0;

		for (int i = 0; i < s.count; i++) {
			const struct script_action *a = &s.actions[i];

			/* times never go backwards; targets are in range for their action */
			if (a->time_ms < t || a->target < 0 || a->target > max_target(a->type))
				__builtin_trap();
			if (a->type == SCRIPT_DISK && a->target > STATE_FAULT_READONLY &&
			    a->target != SCRIPT_DISK_REMOVED)
				__builtin_trap();
			if (a->type == SCRIPT_CRASH && a->target == SCRIPT_CRASH_AFTER_BYTES &&
			    (a->arg < 1 || a->arg > 100000000))
				__builtin_trap();
			t = a->time_ms;
		}
		if (s.header.has_setup && strlen(s.header.setup_fen) >= sizeof(s.header.setup_fen))
			__builtin_trap();
		script_free(&s);
	} else if (strncmp(err, "fuzz:", 5) != 0) {
		__builtin_trap();
	}
	return 0;
}
