/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The mismatch flow (D.2.9, DESIGN 6): the tactile board and the game disagree.
 *
 *   NONE ──unexplained on the player's own move, clock running (tournament)──▶ HELD
 *   NONE ──unexplained otherwise────────────────────────────────────────────▶ OPEN
 *   HELD ──the player's press (Art. 7.5.1)──▶ OPEN
 *   HELD, OPEN ──the board matches again, or shows a legal move──▶ NONE
 *
 * HELD keeps the player's own board theirs until the press: pointing out an impossible move
 * before it would be advice (Art. 11.3.1).  OPEN is said privately; `select` then names the
 * squares that differ, one per press.
 */
#ifndef ANNABELLA_MISMATCH_H
#define ANNABELLA_MISMATCH_H

#include <stdbool.h>
#include <stdint.h>

enum mismatch_state { MISMATCH_NONE = 0, MISMATCH_HELD, MISMATCH_OPEN };

struct mismatch {
	enum mismatch_state state;
	/* When it was raised or held: squares whose occupancy differs from the game. */
	uint64_t should_be_empty, should_be_occupied;
	uint64_t since_ms;
};

void mismatch_reset(struct mismatch *m);
void mismatch_hold(struct mismatch *m, uint64_t empty, uint64_t occupied, uint64_t now);
void mismatch_open(struct mismatch *m, uint64_t empty, uint64_t occupied, uint64_t now);
/* HELD or OPEN. */
bool mismatch_active(const struct mismatch *m);
const char *mismatch_state_name(enum mismatch_state s);

#endif
