/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Completion of made moves by their clock presses (D.2.3, D.2.4, Art. 6.2.1).
 *
 * A move is made when the board shows it and it is announced; it is complete when its mover
 * presses the clock.  The tactile player's own move completes at their press after it.  The
 * opponent's move may reach the tactile board after or before the opponent's press: presses
 * and replicated moves are matched in order, whichever comes first waits for the other.
 * Without a clock a move is complete when made.
 */
#ifndef ANNABELLA_COMPLETION_H
#define ANNABELLA_COMPLETION_H

#include <stdbool.h>
#include <stdint.h>

#define COMPLETION_PENDING_MAX 8

struct completion_fifo {
	int count;
	int64_t items[COMPLETION_PENDING_MAX];
};

struct completion {
	/* Plies made and not yet complete, per mover. */
	struct completion_fifo uncompleted[2];
	/* Opponent presses that wait for their move to reach the tactile board: the [%clk]
	 * reading of each. */
	struct completion_fifo early_presses;
	/* The mover's reading when a move ended the game: its [%clk] if its press never comes. */
	int64_t final_clk;
};

void completion_reset(struct completion *c);
/* A move was made by `mover`: it waits for its press. */
void completion_made(struct completion *c, int mover, int ply);
/* The oldest move of `color` waiting for its press, or -1. */
int completion_waiting(const struct completion *c, int color);
/* That move is complete: it waits no more.  False if it was not waiting. */
bool completion_done(struct completion *c, int color, int ply);
/* An opponent's press came before their move reached the board. */
void completion_early_press(struct completion *c, int64_t clk_ms);
/* The reading of the oldest early press, taken; false if none waits. */
bool completion_take_early(struct completion *c, int64_t *clk_ms);
bool completion_has_early(const struct completion *c);

#endif
