/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/rules.h"

#include <string.h>

#define MIN(n) ((int64_t)(n)*60 * 1000)

static const struct rules editions[RULES_EDITION_COUNT] = {
    [RULES_2023] =
	{
	    .name = "2023",
	    .illegal_penalty_ms = {MIN(2), MIN(1), MIN(1)},
	    .illegal_losing_count = 2,
	    .resignation_draw_without_mate = true,
	    .illegal_loss_draw_without_mate = true,
	    .automatic_fivefold_seventy_five = true,
	    .delay_carries_saved_time = false,
	},
    [RULES_2018] =
	{
	    .name = "2018",
	    .illegal_penalty_ms = {MIN(2), MIN(2), MIN(1)},
	    .illegal_losing_count = 2,
	    .resignation_draw_without_mate = false,
	    .illegal_loss_draw_without_mate = true,
	    .automatic_fivefold_seventy_five = true,
	    .delay_carries_saved_time = false,
	},
    [RULES_2005] =
	{
	    .name = "2005",
	    .illegal_penalty_ms = {MIN(2), MIN(2), MIN(2)},
	    .illegal_losing_count = 3,
	    .resignation_draw_without_mate = false,
	    .illegal_loss_draw_without_mate = false,
	    .automatic_fivefold_seventy_five = false,
	    .delay_carries_saved_time = false,
	},
};

const struct rules *rules_get(enum rules_edition edition)
{
	if ((unsigned)edition >= RULES_EDITION_COUNT)
		edition = RULES_2023;
	return &editions[edition];
}

int rules_edition_parse(const char *name)
{
	for (int i = 0; i < RULES_EDITION_COUNT; i++)
		if (!strcmp(name, editions[i].name))
			return i;
	return -1;
}

const char *rules_edition_name(enum rules_edition edition)
{
	return rules_get(edition)->name;
}
