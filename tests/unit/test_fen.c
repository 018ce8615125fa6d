/* SPDX-License-Identifier: GPL-3.0-or-later */
/* FEN parsing (valid and invalid, with the column named), formatting, square names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "chess/chess.h"

static void test_roundtrip(void **state)
{
	(void)state;
	static const char *const fens[] = {
	    CHESS_FEN_START,
	    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
	    "8/8/8/8/8/8/8/K6k b - - 99 150",
	    "r3k3/8/8/8/8/8/8/4K2R w Kq - 12 40",
	};
	for (size_t i = 0; i < sizeof(fens) / sizeof(fens[0]); i++) {
		struct chess_pos pos;
		struct chess_error err;
		char buf[CHESS_FEN_MAX];
		assert_int_equal(chess_fen_parse(&pos, fens[i], &err), 0);
		chess_fen_format(&pos, buf, sizeof(buf));
		assert_string_equal(buf, fens[i]);
	}
}

static void test_start_matches_init(void **state)
{
	(void)state;
	struct chess_pos a, b;
	assert_int_equal(chess_fen_parse(&a, CHESS_FEN_START, NULL), 0);
	chess_pos_init_start(&b);
	assert_memory_equal(a.board, b.board, sizeof(a.board));
	assert_int_equal(a.key, b.key);
	assert_int_equal(a.castling, 15);
	assert_int_equal(a.fullmove_number, 1);
}

static void test_lenient_forms(void **state)
{
	(void)state;
	struct chess_pos pos;
	char buf[CHESS_FEN_MAX];
	/* EPD style (no counters), extra blanks and a line end. */
	assert_int_equal(chess_fen_parse(&pos, "4k3/8/8/8/8/8/8/4K3 b - -", NULL), 0);
	chess_fen_format(&pos, buf, sizeof(buf));
	assert_string_equal(buf, "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
	assert_int_equal(chess_fen_parse(&pos, "  4k3/8/8/8/8/8/8/4K3  w  -  -  3  7\n", NULL), 0);
	assert_int_equal(pos.halfmove_clock, 3);
	assert_int_equal(pos.fullmove_number, 7);
	/* An e.p. square without a legal capture is accepted, but not kept (Art. 9.2.3). */
	assert_int_equal(chess_fen_parse(&pos, "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", NULL), 0);
	assert_int_equal(pos.ep_square, CHESS_NO_SQUARE);
	/* Castling letters in any order. */
	assert_int_equal(chess_fen_parse(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", NULL), 0);
	assert_int_equal(pos.castling, 15);
}

struct bad_fen {
	const char *fen;
	int column;
	const char *words; /* a piece of the message */
};

static void test_invalid(void **state)
{
	(void)state;
	static const struct bad_fen bad[] = {
	    {"", 1, "fields"},
	    {"4k3/8/8/8/8/8/8/4K3 w - - 0", 28, "fields"},
	    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 x", 31, "more than 6"},
	    {"4k3/8/8/8/8/8/8/4K3 w", 22, "fields"},
	    {"4k3/8/8/8/8/8/8/4K3w - - 0 1", 29, "fields"},
	    {"4k3/8/8/8/8/8/4K3 w - - 0 1", 17, "7 ranks"},
	    {"4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", 18, "more than 8 ranks"},
	    {"4k3/8/8/8/7/8/8/4K3 w - - 0 1", 12, "7 squares"},
	    {"4k3/8/8/8/9/8/8/4K3 w - - 0 1", 11, "1 to 8"},
	    {"4k3/8/8/8/44/8/8/4K3 w - - 0 1", 12, "two digits"},
	    {"4k3/8/8/8/ppppppppp/8/8/4K3 w - - 0 1", 19, "more than 8"},
	    {"4k3/8/8/8/3x4/8/8/4K3 w - - 0 1", 12, "'x'"},
	    {"4k3/8/8/8/8/8/8/4K3/ w - - 0 1", 20, "more than 8 ranks"},
	    {"8/8/8/8/8/8/8/4K3 w - - 0 1", 1, "Black has 0 kings"},
	    {"4k3/8/8/8/8/8/8/4KK2 w - - 0 1", 1, "White has 2 kings"},
	    {"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", 1, "pawn on rank 8"},
	    {"4k3/8/8/8/8/8/8/p3K3 w - - 0 1", 17, "pawn on rank 1"},
	    {"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", 1, "9 pawns"},
	    {"qqqqk3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", 1, "promoted"},
	    {"4k3/8/8/8/8/8/8/4K3 x - - 0 1", 21, "w or b"},
	    {"4k3/8/8/8/8/8/8/4K3 white - - 0 1", 21, "w or b"},
	    {"4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1", 23, "Black is in check"},
	    {"4k3/8/8/8/8/8/8/4K3 w X - 0 1", 23, "not a castling right"},
	    {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", 23, "rook on h1"},
	    {"r3k3/8/8/8/8/8/8/4K2R w Kk - 0 1", 26, "rook on h8"},
	    {"4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", 26, "twice"},
	    {"4k3/8/8/8/8/8/8/R4K1R w Q - 0 1", 25, "king on e1"},
	    {"4k3/8/8/8/8/8/8/4K3 w -- - 0 1", 23, "not a castling right"},
	    {"4k3/8/8/8/8/8/8/4K3 w - e9 0 1", 25, "square or -"},
	    {"4k3/8/8/8/8/8/8/4K3 w - e 0 1", 25, "square or -"},
	    {"4k3/8/8/8/8/8/8/4K3 w - e3 0 1", 25, "not on rank 6"},
	    {"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", 25, "no pawn"},
	    {"4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", 29, "cannot have just moved"},
	    {"4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1", 29, "cannot have just moved"},
	    {"4k3/8/8/8/8/8/8/4K3 w - - x 1", 27, "halfmove clock must be a number"},
	    {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", 27, "number"},
	    {"4k3/8/8/8/8/8/8/4K3 w - - 0 0", 29, "at least 1"},
	    {"4k3/8/8/8/8/8/8/4K3 w - - 99999 1", 27, "larger"},
	    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1x", 30, "number"},
	    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1\nx", 31, "after the end"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct chess_pos pos;
		struct chess_error err;
		memset(&err, 0, sizeof(err));
		int rc = chess_fen_parse(&pos, bad[i].fen, &err);
		if (rc != -1 || err.column != bad[i].column || !strstr(err.message, bad[i].words))
			print_error("\"%s\": rc %d column %d \"%s\", expected column %d \"%s\"\n",
				    bad[i].fen, rc, err.column, err.message, bad[i].column,
				    bad[i].words);
		assert_int_equal(rc, -1);
		assert_int_equal(err.line, 1);
		assert_int_equal(err.column, bad[i].column);
		assert_non_null(strstr(err.message, bad[i].words));
	}
}

static void test_failure_leaves_position(void **state)
{
	(void)state;
	struct chess_pos pos, before;
	chess_pos_init_start(&pos);
	before = pos;
	assert_int_equal(chess_fen_parse(&pos, "4k3/8/8/8/8/8/8/4K3 w K - 0 1", NULL), -1);
	assert_memory_equal(&before.board, &pos.board, sizeof(pos.board));
	assert_int_equal(chess_fen_parse(&pos, NULL, NULL), -1);
}

static void test_squares(void **state)
{
	(void)state;
	char buf[3];
	assert_int_equal(chess_square_parse("a1"), 0);
	assert_int_equal(chess_square_parse("h1"), 7);
	assert_int_equal(chess_square_parse("e4"), 28);
	assert_int_equal(chess_square_parse("h8"), 63);
	assert_int_equal(chess_square_parse("i1"), -1);
	assert_int_equal(chess_square_parse("a9"), -1);
	assert_int_equal(chess_square_parse("A1"), -1);
	assert_int_equal(chess_square_parse(""), -1);
	for (int sq = 0; sq < 64; sq++) {
		chess_square_format(sq, buf);
		assert_int_equal(chess_square_parse(buf), sq);
	}
	chess_square_format(28, buf);
	assert_string_equal(buf, "e4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roundtrip),
	    cmocka_unit_test(test_start_matches_init),
	    cmocka_unit_test(test_lenient_forms),
	    cmocka_unit_test(test_invalid),
	    cmocka_unit_test(test_failure_leaves_position),
	    cmocka_unit_test(test_squares),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
