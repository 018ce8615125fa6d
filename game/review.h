/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A finished game studied move by move on the tactile board (docs/training.md "Training and study",
 * `review`): its start position and moves, and how far it is shown.  Pure data; the referee
 * (referee_train.c) guides the board to the position shown and announces each step.
 *
 *   OFF ──load──▶ LOADING ──add...──▶ LOADING ──begin──▶ ON ──next/back/where──▶ ON
 *   ON ──end──▶ RETURN (the game's own position set up again) ──the board matches──▶ OFF
 *   ON ──end, the game being over──▶ OFF
 *
 * The review is no part of the game: nothing of it is journaled, and the game itself never
 * changes while it is on.
 */
#ifndef ANNABELLA_REVIEW_H
#define ANNABELLA_REVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "chess/chess.h"
#include "game/game.h"

#define REVIEW_MAX_PLIES GAME_MAX_PLIES

enum review_state { REVIEW_OFF = 0, REVIEW_LOADING, REVIEW_ON, REVIEW_RETURN };

struct review {
	enum review_state state;
	struct chess_pos start;
	struct chess_pos end;	/* after the last move loaded */
	struct chess_pos shown; /* after `at` moves: what the board should show */
	int count;
	int at;
	bool ready; /* the board has shown the start position once */
	chess_move moves[REVIEW_MAX_PLIES];
};

void review_reset(struct review *v);
/* A review of the game from `start` is being loaded (LOADING, no moves yet). */
void review_load(struct review *v, const struct chess_pos *start);
/* The next move of the game, if it is legal after the moves so far and there is room: 0,
 * else -1 (nothing changed). */
int review_add(struct review *v, chess_move m);
/* LOADING -> ON, showing the start position. */
void review_begin(struct review *v);
/* One move forward (+1) or back (-1): false at the end or the start (nothing changed). */
bool review_step(struct review *v, int dir);
/* The position before move `ply` (0-based) into *out. */
void review_position_before(const struct review *v, int ply, struct chess_pos *out);
/* The move number of move `ply` (0-based), as the scoresheet numbers it. */
int review_move_number(const struct review *v, int ply);
bool review_active(const struct review *v); /* ON or RETURN */
const char *review_state_name(enum review_state s);

#endif
