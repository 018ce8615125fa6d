/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The mismatch flow (D.2.9; docs/arbiter.md "Behaviour the Laws ask for"): the tactile board and
 * the game disagree.
 *
 *   NONE ──unexplained on the player's own move, clock running (tournament)──▶ HELD
 *   NONE ──unexplained otherwise────────────────────────────────────────────▶ OPEN
 *   HELD ──the player's press (Art. 7.5.1)──▶ OPEN
 *   HELD, OPEN ──the board matches again, or shows a legal move──▶ NONE
 *   any ──the arbiter retraces the game (rollback, illegal move)──▶ SETUP ──matches──▶ NONE
 *
 * HELD keeps the player's own board theirs until the press: pointing out an impossible move
 * before it would be advice (Art. 11.3.1).  OPEN is said privately; `select` then names the
 * squares that differ, one per press.  SETUP guides the player square by square to set up
 * the position the arbiter retraced the game to, confirming each square from the sensors.
 */
#ifndef ANNABELLA_MISMATCH_H
#define ANNABELLA_MISMATCH_H

#include <stdbool.h>
#include <stdint.h>

enum mismatch_state { MISMATCH_NONE = 0, MISMATCH_HELD, MISMATCH_OPEN, MISMATCH_SETUP };

struct mismatch {
	enum mismatch_state state;
	/* When it was raised or held: squares whose occupancy differs from the game. */
	uint64_t should_be_empty, should_be_occupied;
	uint64_t since_ms;
};

void mismatch_reset(struct mismatch *m);
void mismatch_hold(struct mismatch *m, uint64_t empty, uint64_t occupied, uint64_t now);
void mismatch_open(struct mismatch *m, uint64_t empty, uint64_t occupied, uint64_t now);
void mismatch_setup(struct mismatch *m, uint64_t now);
/* HELD, OPEN or SETUP. */
bool mismatch_active(const struct mismatch *m);
const char *mismatch_state_name(enum mismatch_state s);

#endif
