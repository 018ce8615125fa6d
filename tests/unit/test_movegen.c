/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Legal move generation: the standard perft suite and hand-picked special cases. */
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
	struct chess_error err;
	int rc = chess_fen_parse(&pos, fen, &err);
	if (rc)
		print_error("FEN %s: column %d: %s\n", fen, err.column, err.message);
	assert_int_equal(rc, 0);
	return pos;
}

static void check_perft(const char *fen, const uint64_t *expected, int depths)
{
	struct chess_pos pos = parse(fen);
	for (int d = 1; d <= depths; d++) {
		struct chess_pos before = pos;
		uint64_t n = chess_perft(&pos, d);
		if (n != expected[d - 1])
			print_error("%s depth %d: %llu, expected %llu\n", fen, d,
				    (unsigned long long)n, (unsigned long long)expected[d - 1]);
		assert_true(n == expected[d - 1]);
		/* perft must leave the position as it found it */
		assert_memory_equal(&before, &pos, offsetof(struct chess_pos, side));
		assert_int_equal(before.key, pos.key);
	}
}

static void test_perft_initial(void **state)
{
	(void)state;
	static const uint64_t n[] = {20, 400, 8902, 197281, 4865609};
	check_perft(CHESS_FEN_START, n, 5);
}

static void test_perft_kiwipete(void **state)
{
	(void)state;
	static const uint64_t n[] = {48, 2039, 97862, 4085603, 193690690};
	check_perft("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", n, 5);
}

static void test_perft_position3(void **state)
{
	(void)state;
	static const uint64_t n[] = {14, 191, 2812, 43238, 674624, 11030083};
	check_perft("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", n, 6);
}

static void test_perft_position4(void **state)
{
	(void)state;
	static const uint64_t n[] = {6, 264, 9467, 422333, 15833292};
	check_perft("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", n, 5);
	/* the same position with colours reversed */
	check_perft("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", n, 4);
}

static void test_perft_position5(void **state)
{
	(void)state;
	static const uint64_t n[] = {44, 1486, 62379, 2103487, 89941194};
	check_perft("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", n, 5);
}

static void test_perft_position6(void **state)
{
	(void)state;
	static const uint64_t n[] = {46, 2079, 89890, 3894594};
	check_perft("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", n,
		    4);
}

static int count_moves(const char *fen)
{
	struct chess_pos pos = parse(fen);
	struct chess_move_list list;
	return chess_pos_legal_moves(&pos, &list);
}

static bool has_move(const char *fen, const char *from, const char *to, enum chess_piece_type promo)
{
	struct chess_pos pos = parse(fen);
	return chess_pos_find_move(&pos, chess_square_parse(from), chess_square_parse(to), promo) !=
	       CHESS_MOVE_NONE;
}

static void test_en_passant(void **state)
{
	(void)state;
	/* Plain e.p. capture. */
	assert_true(has_move("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5", "d6", CHESS_NO_PIECE));
	/* The capture would expose the king along the fifth rank: illegal. */
	assert_false(has_move("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "e5", "d6", CHESS_NO_PIECE));
	assert_false(has_move("8/8/8/KPp4r/8/8/8/7k w - c6 0 1", "b5", "c6", CHESS_NO_PIECE));
	/* Exposure along a diagonal through the captured pawn (a7-g1). */
	assert_false(has_move("8/k7/8/8/3Pp3/8/8/4K1B1 b - d3 0 1", "e4", "d3", CHESS_NO_PIECE));
	assert_true(has_move("8/k7/8/8/3Pp3/8/8/4K1B1 b - d3 0 1", "e4", "e3", CHESS_NO_PIECE));
	/* Capturing e.p. the pawn that gives check is legal. */
	assert_true(has_move("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "e4", "d3", CHESS_NO_PIECE));
	/* A pinned pawn may capture e.p. along its pin line only. */
	assert_true(has_move("4k3/2b5/8/3pP3/8/6K1/8/8 w - d6 0 1", "e5", "d6", CHESS_NO_PIECE));
	assert_false(has_move("4k3/2b5/8/3pP3/8/6K1/8/8 w - d6 0 1", "e5", "e6", CHESS_NO_PIECE));
	assert_false(has_move("4k3/8/1b6/2Pp4/8/8/8/6K1 w - d6 0 1", "c5", "d6", CHESS_NO_PIECE));
}

static void test_ep_key(void **state)
{
	(void)state;
	struct chess_pos a = parse("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
	struct chess_pos b;
	struct chess_undo u;
	chess_move m = chess_pos_find_move(&a, 12, 28, CHESS_NO_PIECE); /* e2e4 */
	assert_int_not_equal(m, CHESS_MOVE_NONE);
	chess_pos_make(&a, m, &u);
	/* Black's d4 pawn can take e.p.: the square is kept and hashed. */
	assert_int_equal(a.ep_square, 20);
	assert_true(chess_pos_ep_capture_legal(&a));
	b = parse("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
	assert_true(a.key != b.key);

	/* Same double step with no pawn beside: no e.p. right, same key as without it. */
	a = parse("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
	m = chess_pos_find_move(&a, 12, 28, CHESS_NO_PIECE);
	chess_pos_make(&a, m, &u);
	assert_int_equal(a.ep_square, CHESS_NO_SQUARE);
	b = parse("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
	assert_int_equal(a.key, b.key);

	/* A pawn beside that is pinned so it cannot take: the right does not count. */
	a = parse("8/8/8/8/R2p3k/8/4P3/K7 w - - 0 1");
	m = chess_pos_find_move(&a, 12, 28, CHESS_NO_PIECE);
	chess_pos_make(&a, m, &u);
	assert_int_equal(a.ep_square, CHESS_NO_SQUARE);
	a = parse("8/8/8/8/R2pP2k/8/8/7K b - e3 0 1");
	assert_false(chess_pos_ep_capture_legal(&a));
	b = parse("8/8/8/8/R2pP2k/8/8/7K b - - 0 1");
	assert_int_equal(a.key, b.key);
}

static void test_castling(void **state)
{
	(void)state;
	/* Both sides free. */
	assert_true(has_move("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1", "g1", CHESS_NO_PIECE));
	assert_true(has_move("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1", "c1", CHESS_NO_PIECE));
	assert_true(has_move("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8", "c8", CHESS_NO_PIECE));
	/* Through an attacked square (f1 by the rook on f8). */
	assert_false(has_move("5r2/8/3k4/8/8/8/8/R3K2R w KQ - 0 1", "e1", "g1", CHESS_NO_PIECE));
	assert_true(has_move("5r2/8/3k4/8/8/8/8/R3K2R w KQ - 0 1", "e1", "c1", CHESS_NO_PIECE));
	/* Into check (g1). */
	assert_false(has_move("6r1/8/3k4/8/8/8/8/R3K2R w KQ - 0 1", "e1", "g1", CHESS_NO_PIECE));
	/* Out of check. */
	assert_false(has_move("4r3/8/2k5/8/8/8/8/R3K2R w KQ - 0 1", "e1", "g1", CHESS_NO_PIECE));
	assert_false(has_move("4r3/8/2k5/8/8/8/8/R3K2R w KQ - 0 1", "e1", "c1", CHESS_NO_PIECE));
	/* b1 attacked does not matter for O-O-O; b1 occupied does. */
	assert_true(has_move("1r6/8/3k4/8/8/8/8/R3K2R w KQ - 0 1", "e1", "c1", CHESS_NO_PIECE));
	assert_false(has_move("8/8/3k4/8/8/8/8/RN2K2R w KQ - 0 1", "e1", "c1", CHESS_NO_PIECE));
	/* d1 attacked by the knight on c3. */
	assert_false(has_move("8/8/3k4/8/8/2n5/8/R3K2R w KQ - 0 1", "e1", "c1", CHESS_NO_PIECE));
	/* Without the right. */
	assert_false(has_move("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "e1", "g1", CHESS_NO_PIECE));
	/* The encoding is the king's two-square move. */
	struct chess_pos pos = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	chess_move m = chess_pos_find_move(&pos, 4, 6, CHESS_NO_PIECE);
	assert_int_equal(chess_move_kind(m), CHESS_MOVE_CASTLING);
	struct chess_undo u;
	chess_pos_make(&pos, m, &u);
	assert_int_equal(pos.board[5], CHESS_PIECE(CHESS_WHITE, CHESS_ROOK));
	assert_int_equal(pos.board[7], 0);
	assert_int_equal(pos.castling, CHESS_CASTLE_BK | CHESS_CASTLE_BQ);
}

static void test_promotions(void **state)
{
	(void)state;
	const char *fen = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
	/* a8 (4 pieces) and axb8 (4 pieces), plus 5 king moves. */
	assert_int_equal(count_moves(fen), 13);
	assert_true(has_move(fen, "a7", "a8", CHESS_QUEEN));
	assert_true(has_move(fen, "a7", "a8", CHESS_ROOK));
	assert_true(has_move(fen, "a7", "b8", CHESS_BISHOP));
	assert_true(has_move(fen, "a7", "b8", CHESS_KNIGHT));
	assert_false(has_move(fen, "a7", "a8", CHESS_NO_PIECE));
	/* Black promotes with capture and check. */
	struct chess_pos pos = parse("4k3/8/8/8/8/8/6p1/4K2R b K - 0 1");
	chess_move m = chess_pos_find_move(&pos, 14, 7, CHESS_KNIGHT);
	assert_int_not_equal(m, CHESS_MOVE_NONE);
	assert_int_equal(chess_pos_captured_piece(&pos, m), CHESS_PIECE(CHESS_WHITE, CHESS_ROOK));
	struct chess_undo u;
	struct chess_pos before = pos;
	chess_pos_make(&pos, m, &u);
	assert_int_equal(pos.board[7], CHESS_PIECE(CHESS_BLACK, CHESS_KNIGHT));
	assert_int_equal(pos.castling, 0);
	chess_pos_unmake(&pos, m, &u);
	assert_memory_equal(&before, &pos, offsetof(struct chess_pos, side));
	assert_int_equal(before.castling, pos.castling);
}

static void test_checks_and_pins(void **state)
{
	(void)state;
	/* Double check (rook and knight): only king moves. */
	struct chess_pos pos = parse("4r1k1/8/8/8/8/5n2/8/4K2R w K - 0 1");
	struct chess_move_list list;
	assert_true(chess_pos_legal_moves(&pos, &list) > 0);
	for (int i = 0; i < list.count; i++)
		assert_int_equal(chess_move_from(list.moves[i]), 4);
	/* A pinned rook may move along the pin only. */
	assert_true(has_move("4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1", "e2", "e5", CHESS_NO_PIECE));
	assert_false(has_move("4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1", "e2", "d2", CHESS_NO_PIECE));
	/* A pinned knight cannot move at all. */
	assert_false(has_move("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1", "e2", "c3", CHESS_NO_PIECE));
	/* The king may not step back along the checking ray. */
	assert_false(has_move("4r2k/8/8/8/8/8/8/4K3 w - - 0 1", "e1", "e2", CHESS_NO_PIECE));
	assert_false(has_move("7k/8/8/8/4r3/8/4K3/8 w - - 0 1", "e2", "e1", CHESS_NO_PIECE));
	/* Checkmate and stalemate have no moves. */
	assert_int_equal(count_moves("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), 0);
	assert_int_equal(count_moves("7k/8/6QK/8/8/8/8/8 b - - 0 1"), 0);
	/* The most moves known in a legal position. */
	assert_int_equal(count_moves("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"), 218);
}

static void test_helpers(void **state)
{
	(void)state;
	struct chess_pos pos = parse("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
	chess_move m = chess_pos_find_move(&pos, chess_square_parse("e5"), chess_square_parse("d6"),
					   CHESS_NO_PIECE);
	assert_int_equal(chess_move_kind(m), CHESS_MOVE_EN_PASSANT);
	assert_int_equal(chess_move_capture_square(&pos, m), chess_square_parse("d5"));
	assert_int_equal(chess_pos_captured_piece(&pos, m), CHESS_PIECE(CHESS_BLACK, CHESS_PAWN));
	assert_int_equal(chess_pos_moving_piece(&pos, m), CHESS_PIECE(CHESS_WHITE, CHESS_PAWN));
	assert_true(chess_pos_is_legal(&pos, m));
	assert_false(chess_pos_is_legal(&pos, chess_move_make(4, 20, CHESS_MOVE_NORMAL, 0)));
	assert_false(chess_pos_is_legal(&pos, CHESS_MOVE_NONE));
	m = chess_pos_find_move(&pos, 4, 12, CHESS_NO_PIECE);
	assert_int_equal(chess_move_capture_square(&pos, m), CHESS_NO_SQUARE);
	assert_int_equal(chess_pos_captured_piece(&pos, m), 0);
	assert_int_equal(chess_pos_find_move(&pos, 4, 28, CHESS_NO_PIECE), CHESS_MOVE_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_perft_initial),   cmocka_unit_test(test_perft_kiwipete),
	    cmocka_unit_test(test_perft_position3), cmocka_unit_test(test_perft_position4),
	    cmocka_unit_test(test_perft_position5), cmocka_unit_test(test_perft_position6),
	    cmocka_unit_test(test_en_passant),	    cmocka_unit_test(test_ep_key),
	    cmocka_unit_test(test_castling),	    cmocka_unit_test(test_promotions),
	    cmocka_unit_test(test_checks_and_pins), cmocka_unit_test(test_helpers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
