/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time controls: whatever parses formats back to text that parses to the same control. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game/clock.h"
#include "game/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[256];
	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';

	struct time_control tc, again;
	char err[128], buf[TC_FORMAT_MAX];
	if (time_control_parse(text, &tc, err, sizeof(err)) != 0) {
		if (strncmp(err, "column ", 7) != 0)
			abort();
		return 0;
	}
	time_control_format(&tc, buf, sizeof(buf));
	if (time_control_parse(buf, &again, err, sizeof(err)) != 0)
		abort();
	if (!time_control_equal(&tc, &again))
		abort();
	/* The clock must accept any parsed control. */
	struct chess_clock c;
	clock_init(&c, &tc);
	clock_press(&c, 1, 0);
	for (uint64_t t = 1; t < 5; t++)
		clock_press(&c, (int)(t & 1) ^ 1, t * 1000);
	/* Moves counted without a press and taken back: the periods placed again. */
	clock_count_move(&c, 0, 5500);
	clock_press_moves(&c, c.running, 0, 6000);
	clock_take_back(&c, 0, 1, 1000, 6500);
	(void)clock_flag_deadline(&c);
	for (int e = 0; e < RULES_EDITION_COUNT; e++)
		if ((unsigned)rules_kind(rules_get((enum rules_edition)e), &tc) > CLOCK_BLITZ)
			abort();
	return 0;
}
