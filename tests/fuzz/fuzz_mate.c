/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for chess_pos_mate() and chess_pos_is_dead() (chess/mate*.c) on any
 * position the FEN reader accepts: each answer comes back within its bounds, every
 * "possible" carries a line that replays, move by move legal, to that colour's mate, and a
 * position called dead has no such line for either colour (a found helpmate against a proof
 * of "never" would be a wrong proof).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void replays_or_die(const struct chess_pos *start, enum chess_color color,
			   const struct chess_mate_info *info)
{
	struct chess_pos pos = *start;
	struct chess_move_list list;

	if (info->line_len < 0 || info->line_len > CHESS_MATE_LINE_MAX)
		abort();
	for (int i = 0; i < info->line_len; i++) {
		struct chess_undo undo;

		if (!chess_pos_is_legal(&pos, info->line[i]))
			abort();
		chess_pos_make(&pos, info->line[i], &undo);
	}
	if (pos.side == color || !chess_pos_in_check(&pos) ||
	    chess_pos_legal_moves(&pos, &list) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char fen[256];
	struct chess_pos pos;
	struct chess_error err;
	bool dead, possible = false;

	if (size >= sizeof(fen))
		return 0;
	memcpy(fen, data, size);
	fen[size] = 0;
	if (chess_fen_parse(&pos, fen, &err) != 0)
		return 0;
	dead = chess_pos_is_dead(&pos);
	for (int c = 0; c < 2; c++) {
		struct chess_mate_info info = {0};
		enum chess_mate m = chess_pos_mate(&pos, (enum chess_color)c, &info);

		if ((unsigned)m > CHESS_MATE_UNKNOWN || !info.reason)
			abort();
		if (m == CHESS_MATE_POSSIBLE && info.line_len > 0) {
			replays_or_die(&pos, (enum chess_color)c, &info);
			possible = true;
		}
	}
	if (dead && possible)
		abort();
	return 0;
}
