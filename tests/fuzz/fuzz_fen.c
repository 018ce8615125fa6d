/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for chess_fen_parse: any accepted FEN must format to a FEN
 * that parses to the same position, and its legal moves must be computable
 * (perft 2 exercises make/unmake on everything generated).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_or_die(const struct chess_pos *a, const struct chess_pos *b)
{
	if (memcmp(a->board, b->board, sizeof(a->board)) ||
	    memcmp(a->by_color, b->by_color, sizeof(a->by_color)) ||
	    memcmp(a->by_type, b->by_type, sizeof(a->by_type)) || a->side != b->side ||
	    a->castling != b->castling || a->ep_square != b->ep_square ||
	    a->halfmove_clock != b->halfmove_clock || a->fullmove_number != b->fullmove_number ||
	    a->key != b->key)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char fen[256];
	char out[CHESS_FEN_MAX];
	struct chess_pos pos, again, before;
	struct chess_error err;

	if (size >= sizeof(fen))
		return 0;
	memcpy(fen, data, size);
	fen[size] = 0;
	if (chess_fen_parse(&pos, fen, &err) != 0) {
		if (err.column < 1 || err.column > (int)size + 1 || !err.message[0])
			abort();
		return 0;
	}
	chess_fen_format(&pos, out, sizeof(out));
	if (chess_fen_parse(&again, out, &err) != 0)
		abort();
	same_or_die(&pos, &again);
	before = pos;
	chess_perft(&pos, 2);
	same_or_die(&before, &pos);
	return 0;
}
