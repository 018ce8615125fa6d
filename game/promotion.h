/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The promotion flow (D.2.1, trap 2): occupancy sensors cannot see which piece was put
 * down, so the player names it with `select`: Dame, Turm, Läufer, Springer, Dame ...
 *
 *   NONE ──board shows a promotion──▶ PENDING ──the piece is final──▶ NONE (move made)
 *
 * A choice may be stepped before the promotion is on the board (the pawn in the hand); it
 * is kept until the move is made.  When the choice becomes final is the referee's decision
 * (the mover's press; for a replicated promotion also the next lift or promotion-ms after
 * the last select).
 */
#ifndef ANNABELLA_PROMOTION_H
#define ANNABELLA_PROMOTION_H

#include <stdbool.h>
#include <stdint.h>

#include "chess/chess.h"

enum promotion_state { PROMOTION_NONE = 0, PROMOTION_PENDING };

struct promotion {
	enum promotion_state state;
	chess_move move;	      /* PENDING: the pawn's move (its piece a placeholder) */
	enum chess_piece_type choice; /* CHESS_NO_PIECE until the first select */
	uint64_t last_select_ms;
};

void promotion_reset(struct promotion *p);
/* The piece the next select press chooses. */
enum chess_piece_type promotion_next_choice(const struct promotion *p);
void promotion_choose(struct promotion *p, enum chess_piece_type piece, uint64_t now);
void promotion_set_pending(struct promotion *p, chess_move move);
bool promotion_is_pending(const struct promotion *p);
/* The move with the chosen piece; CHESS_MOVE_NONE unless pending with a choice. */
chess_move promotion_final_move(const struct promotion *p);

#endif
