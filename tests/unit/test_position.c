/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Position representation: set-up, attacks, check, make/unmake and incremental keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "chess/chess.h"

static struct chess_pos parse(const char *fen)
{
	struct chess_pos pos;
	assert_int_equal(chess_fen_parse(&pos, fen, NULL), 0);
	return pos;
}

static void assert_same_pos(const struct chess_pos *a, const struct chess_pos *b)
{
	assert_memory_equal(a->by_color, b->by_color, sizeof(a->by_color));
	assert_memory_equal(a->by_type, b->by_type, sizeof(a->by_type));
	assert_memory_equal(a->board, b->board, sizeof(a->board));
	assert_int_equal(a->side, b->side);
	assert_int_equal(a->castling, b->castling);
	assert_int_equal(a->ep_square, b->ep_square);
	assert_int_equal(a->halfmove_clock, b->halfmove_clock);
	assert_int_equal(a->fullmove_number, b->fullmove_number);
	assert_int_equal(a->key, b->key);
}

/* Mailbox and bitboards describe the same board. */
static void assert_consistent(const struct chess_pos *pos)
{
	uint64_t by_color[2] = {0, 0}, by_type[7] = {0};
	for (int sq = 0; sq < 64; sq++) {
		chess_piece p = pos->board[sq];
		if (!p)
			continue;
		by_color[CHESS_PIECE_COLOR(p)] |= (uint64_t)1 << sq;
		by_type[CHESS_PIECE_TYPE(p)] |= (uint64_t)1 << sq;
	}
	assert_memory_equal(by_color, pos->by_color, sizeof(by_color));
	assert_memory_equal(by_type + 1, pos->by_type + 1, sizeof(uint64_t) * 6);
}

static void test_start(void **state)
{
	(void)state;
	struct chess_pos pos;
	chess_pos_init_start(&pos);
	assert_consistent(&pos);
	assert_int_equal(chess_pos_piece_at(&pos, 4), CHESS_PIECE(CHESS_WHITE, CHESS_KING));
	assert_int_equal(chess_pos_piece_at(&pos, 59), CHESS_PIECE(CHESS_BLACK, CHESS_QUEEN));
	assert_int_equal(chess_pos_king_square(&pos, CHESS_WHITE), 4);
	assert_int_equal(chess_pos_king_square(&pos, CHESS_BLACK), 60);
	assert_int_equal(chess_pos_occupancy(&pos), 0xFFFF00000000FFFFULL);
	assert_false(chess_pos_in_check(&pos));
	assert_int_equal(pos.side, CHESS_WHITE);
	assert_int_equal(pos.ep_square, CHESS_NO_SQUARE);
	assert_true(pos.key != 0);
}

static void test_put_remove_refresh(void **state)
{
	(void)state;
	struct chess_pos a, b;
	chess_pos_clear(&a);
	assert_int_equal(chess_pos_king_square(&a, CHESS_WHITE), CHESS_NO_SQUARE);
	chess_pos_put(&a, 4, CHESS_PIECE(CHESS_WHITE, CHESS_KING));
	chess_pos_put(&a, 60, CHESS_PIECE(CHESS_BLACK, CHESS_KING));
	chess_pos_put(&a, 27, CHESS_PIECE(CHESS_WHITE, CHESS_QUEEN));
	chess_pos_put(&a, 27, CHESS_PIECE(CHESS_WHITE, CHESS_ROOK)); /* replaces */
	chess_pos_put(&a, 0, CHESS_PIECE(CHESS_BLACK, CHESS_KNIGHT));
	chess_pos_remove(&a, 0);
	chess_pos_remove(&a, 1); /* empty: nothing */
	chess_pos_refresh(&a);
	assert_consistent(&a);
	b = parse("4k3/8/8/8/3R4/8/8/4K3 w - - 0 1");
	assert_same_pos(&a, &b);
	/* A rook on e4 gives check along the e-file. */
	chess_pos_remove(&a, 27);
	chess_pos_put(&a, 28, CHESS_PIECE(CHESS_WHITE, CHESS_ROOK));
	a.side = CHESS_BLACK;
	chess_pos_refresh(&a);
	assert_true(chess_pos_in_check(&a));
	assert_true(a.key != b.key);
	/* An e.p. square with no capture behind it is dropped by refresh. */
	chess_pos_remove(&a, 28);
	chess_pos_put(&a, 27, CHESS_PIECE(CHESS_WHITE, CHESS_ROOK));
	a.side = CHESS_WHITE;
	a.ep_square = 44;
	chess_pos_refresh(&a);
	assert_int_equal(a.ep_square, CHESS_NO_SQUARE);
	assert_int_equal(a.key, b.key);
}

static void test_attacks(void **state)
{
	(void)state;
	struct chess_pos pos = parse("4k3/8/8/3p4/8/2N5/8/R3K3 w Q - 0 1");
	/* The knight on c3 attacks d5, e4, b1; the rook a1 runs up the file and along to d1. */
	assert_true(chess_pos_square_attacked(&pos, chess_square_parse("d5"), CHESS_WHITE));
	assert_true(chess_pos_square_attacked(&pos, chess_square_parse("a8"), CHESS_WHITE));
	assert_true(chess_pos_square_attacked(&pos, chess_square_parse("d1"), CHESS_WHITE));
	assert_false(chess_pos_square_attacked(&pos, chess_square_parse("f1"), CHESS_BLACK));
	/* The black pawn on d5 attacks c4 and e4, not d4. */
	assert_true(chess_pos_square_attacked(&pos, chess_square_parse("c4"), CHESS_BLACK));
	assert_true(chess_pos_square_attacked(&pos, chess_square_parse("e4"), CHESS_BLACK));
	assert_false(chess_pos_square_attacked(&pos, chess_square_parse("d4"), CHESS_BLACK));
	/* Kings attack their neighbours. */
	assert_true(chess_pos_square_attacked(&pos, chess_square_parse("d7"), CHESS_BLACK));
	assert_false(chess_pos_in_check(&pos));
	pos = parse("4k3/8/8/1B6/8/8/8/4K3 b - - 0 1");
	assert_true(chess_pos_in_check(&pos));
}

static void test_transposition_key(void **state)
{
	(void)state;
	struct chess_pos pos, start;
	struct chess_undo u[4];
	static const int moves[4][2] = {{6, 21}, {62, 45}, {21, 6}, {45, 62}};
	chess_pos_init_start(&start);
	pos = start;
	for (int i = 0; i < 4; i++) {
		chess_move m = chess_pos_find_move(&pos, moves[i][0], moves[i][1], CHESS_NO_PIECE);
		assert_int_not_equal(m, CHESS_MOVE_NONE);
		chess_pos_make(&pos, m, &u[i]);
	}
	assert_int_equal(pos.key, start.key);
	assert_int_equal(pos.fullmove_number, 3);
	assert_int_equal(pos.halfmove_clock, 4);
}

static uint32_t rng = 12345;

static uint32_t next_random(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

/* Random games: after every move the incremental key equals a fresh computation, the
 * two representations agree, and unmake restores the position exactly. */
static void random_walk(const char *fen, int games, int plies)
{
	for (int g = 0; g < games; g++) {
		struct chess_pos pos = parse(fen);
		for (int ply = 0; ply < plies; ply++) {
			struct chess_move_list list;
			struct chess_undo undo;
			struct chess_pos before = pos, fresh;
			if (chess_pos_legal_moves(&pos, &list) == 0)
				break;
			chess_move m = list.moves[next_random() % (uint32_t)list.count];
			chess_pos_make(&pos, m, &undo);
			assert_consistent(&pos);
			fresh = pos;
			chess_pos_refresh(&fresh);
			assert_same_pos(&fresh, &pos);
			/* and the FEN of it reads back to the same position */
			char buf[CHESS_FEN_MAX];
			struct chess_pos reread;
			chess_fen_format(&pos, buf, sizeof(buf));
			assert_int_equal(chess_fen_parse(&reread, buf, NULL), 0);
			assert_same_pos(&reread, &pos);
			chess_pos_unmake(&pos, m, &undo);
			assert_same_pos(&before, &pos);
			chess_pos_make(&pos, m, &undo);
		}
	}
}

static void test_make_unmake_random(void **state)
{
	(void)state;
	random_walk(CHESS_FEN_START, 200, 200);
	random_walk("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 200,
		    100);
	random_walk("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 200, 100);
	random_walk("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 200, 100);
}

static void test_special_moves_make(void **state)
{
	(void)state;
	struct chess_pos pos = parse("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 5");
	struct chess_undo u;
	chess_move m = chess_pos_find_move(&pos, chess_square_parse("e5"), chess_square_parse("d6"),
					   CHESS_NO_PIECE);
	chess_pos_make(&pos, m, &u);
	assert_int_equal(chess_pos_piece_at(&pos, chess_square_parse("d5")), 0);
	assert_int_equal(chess_pos_piece_at(&pos, chess_square_parse("d6")),
			 CHESS_PIECE(CHESS_WHITE, CHESS_PAWN));
	assert_int_equal(pos.halfmove_clock, 0);
	assert_int_equal(pos.side, CHESS_BLACK);
	/* Black castles long; the rook lands on d8 and Black's rights go. */
	m = chess_pos_find_move(&pos, 60, 58, CHESS_NO_PIECE);
	assert_int_equal(chess_move_kind(m), CHESS_MOVE_CASTLING);
	chess_pos_make(&pos, m, &u);
	assert_int_equal(chess_pos_piece_at(&pos, 59), CHESS_PIECE(CHESS_BLACK, CHESS_ROOK));
	assert_int_equal(chess_pos_piece_at(&pos, 56), 0);
	assert_int_equal(pos.castling, CHESS_CASTLE_WK | CHESS_CASTLE_WQ);
	assert_int_equal(pos.fullmove_number, 6);
	/* Capturing a rook at home removes the right that depends on it. */
	pos = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	m = chess_pos_find_move(&pos, 0, 56, CHESS_NO_PIECE);
	chess_pos_make(&pos, m, &u);
	assert_int_equal(pos.castling, CHESS_CASTLE_WK | CHESS_CASTLE_BK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_start),
	    cmocka_unit_test(test_put_remove_refresh),
	    cmocka_unit_test(test_attacks),
	    cmocka_unit_test(test_transposition_key),
	    cmocka_unit_test(test_make_unmake_random),
	    cmocka_unit_test(test_special_moves_make),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
