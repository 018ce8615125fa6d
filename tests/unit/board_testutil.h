/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the board tests: one configuration for each wiring. */
#ifndef ANNABELLA_BOARD_TESTUTIL_H
#define ANNABELLA_BOARD_TESTUTIL_H

#include "gpio/board.h"

/* A wiring with its matrix and shift lines kept clear of the buttons on 64..69. */
static inline void board_test_config(struct board_config *cfg, enum board_wiring w, bool active_low)
{
	board_config_defaults(cfg);
	cfg->wiring = w;
	cfg->active_low_squares = active_low;
	for (int i = 0; i < 8; i++) {
		cfg->row_lines[i] = 10 + i;
		cfg->column_lines[i] = 20 + i;
	}
	cfg->shift_load = 30;
	cfg->shift_clock = 31;
	cfg->shift_data = 32;
}

#endif
