/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/promotion.h"

void promotion_reset(struct promotion *p)
{
	p->state = PROMOTION_NONE;
	p->move = CHESS_MOVE_NONE;
	p->choice = CHESS_NO_PIECE;
	p->last_select_ms = 0;
}

enum chess_piece_type promotion_next_choice(const struct promotion *p)
{
	/* Dame -> Turm -> Läufer -> Springer -> Dame ... (README "The device"). */
	static const enum chess_piece_type cycle[] = {CHESS_QUEEN, CHESS_ROOK, CHESS_BISHOP,
						      CHESS_KNIGHT};

	for (int i = 0; i < 4; i++)
		if (cycle[i] == p->choice)
			return cycle[(i + 1) % 4];
	return CHESS_QUEEN;
}

void promotion_choose(struct promotion *p, enum chess_piece_type piece, uint64_t now)
{
	p->choice = piece;
	p->last_select_ms = now;
}

void promotion_set_pending(struct promotion *p, chess_move move)
{
	p->state = PROMOTION_PENDING;
	p->move = move;
}

bool promotion_is_pending(const struct promotion *p)
{
	return p->state == PROMOTION_PENDING;
}

chess_move promotion_final_move(const struct promotion *p)
{
	if (p->state != PROMOTION_PENDING || p->choice == CHESS_NO_PIECE)
		return CHESS_MOVE_NONE;
	return chess_move_make(chess_move_from(p->move), chess_move_to(p->move),
			       CHESS_MOVE_PROMOTION, p->choice);
}
