/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The results the Laws give "unless the opponent cannot checkmate by any series of legal
 * moves" (Art. 6.9 flag, 7.5.5 the illegal move that loses, 2023 5.1.2 resignation): a win,
 * a draw, or, where chess_pos_mate() can prove neither, "*": the arbiter decides, with the
 * position and the question in the reply and in status (never a loss the Laws make a draw).
 */
#include "referee/referee_int.h"

const char *ref_mate_result(const struct referee *r, int winner)
{
	switch (chess_pos_mate(game_position(&r->g), (enum chess_color)winner, NULL)) {
	case CHESS_MATE_POSSIBLE:
		return result_win(winner);
	case CHESS_MATE_NEVER:
		return "1/2-1/2";
	default:
		return "*";
	}
}

void ref_mate_fen(const struct referee *r, char *buf, size_t size)
{
	chess_fen_format(game_position(&r->g), buf, size);
}
