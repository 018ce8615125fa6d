/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Games: repetitions (with e.p. rights per Art. 9.2.3), automatic ends, claims, and
 * mating material (dead positions). */
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
		print_error("%s: column %d: %s\n", fen, err.column, err.message);
	assert_int_equal(rc, 0);
	return pos;
}

/* Play "e2e4 e7e5 ..." (from-to squares, promotion letter). */
static void play(struct chess_game *g, const char *moves)
{
	const char *p = moves;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		int from = chess_square_parse(p), to = chess_square_parse(p + 2);
		enum chess_piece_type promo = CHESS_NO_PIECE;
		p += 4;
		if (*p && *p != ' ') {
			promo = *p == 'q'   ? CHESS_QUEEN
				: *p == 'r' ? CHESS_ROOK
				: *p == 'b' ? CHESS_BISHOP
					    : CHESS_KNIGHT;
			p++;
		}
		chess_move m = chess_pos_find_move(&g->pos, from, to, promo);
		if (m == CHESS_MOVE_NONE)
			print_error("illegal move at \"%s\"\n", p - 4);
		assert_int_not_equal(m, CHESS_MOVE_NONE);
		assert_int_equal(chess_game_push(g, m), 0);
	}
}

static void test_push_pop(void **state)
{
	(void)state;
	struct chess_game g;
	struct chess_pos start, pos;
	chess_pos_init_start(&start);
	assert_int_equal(chess_game_init(&g, &start), 0);
	assert_int_equal(chess_game_pop(&g), -1);
	assert_int_equal(chess_game_push(&g, chess_move_make(12, 36, CHESS_MOVE_NORMAL, 0)), -1);
	/* Enough moves to grow the arrays several times. */
	for (int i = 0; i < 100; i++)
		play(&g, "g1f3 g8f6 f3g1 f6g8");
	assert_int_equal(g.count, 400);
	assert_int_equal(g.keys[400], start.key);
	play(&g, "e2e4 e7e5");
	chess_game_position_at(&g, 401, &pos);
	assert_int_equal(pos.board[28], CHESS_PIECE(CHESS_WHITE, CHESS_PAWN));
	assert_int_equal(pos.side, CHESS_BLACK);
	assert_int_equal(chess_game_pop(&g), 0);
	assert_int_equal(g.count, 401);
	assert_int_equal(g.pos.key, pos.key);
	assert_memory_equal(g.pos.board, pos.board, sizeof(pos.board));
	chess_game_position_at(&g, 0, &pos);
	assert_int_equal(pos.key, start.key);
	chess_game_free(&g);
}

static void test_threefold_and_fivefold(void **state)
{
	(void)state;
	struct chess_game g;
	struct chess_pos start;
	chess_pos_init_start(&start);
	chess_game_init(&g, &start);
	play(&g, "g1f3 g8f6 f3g1 f6g8");
	assert_int_equal(chess_game_repetitions(&g), 2);
	assert_false(chess_game_can_claim_threefold(&g));
	/* Announcing the move that repeats a third time is a valid claim (9.2.1.1). */
	play(&g, "g1f3 g8f6 f3g1");
	assert_true(chess_game_move_claims_threefold(&g, chess_pos_find_move(&g.pos, 45, 62, 0)));
	assert_false(chess_game_move_claims_threefold(&g, chess_pos_find_move(&g.pos, 45, 55, 0)));
	play(&g, "f6g8");
	assert_int_equal(chess_game_repetitions(&g), 3);
	assert_true(chess_game_can_claim_threefold(&g));
	assert_int_equal(chess_game_outcome(&g), CHESS_ONGOING);
	play(&g, "g1f3 g8f6 f3g1 f6g8");
	assert_int_equal(chess_game_repetitions(&g), 4);
	assert_int_equal(chess_game_outcome(&g), CHESS_ONGOING);
	play(&g, "g1f3 g8f6 f3g1 f6g8");
	assert_int_equal(chess_game_repetitions(&g), 5);
	assert_int_equal(chess_game_outcome(&g), CHESS_FIVEFOLD);
	/* A pawn move makes every earlier position unrepeatable. */
	play(&g, "e2e3");
	assert_int_equal(chess_game_repetitions(&g), 1);
	chess_game_free(&g);
}

/* Art. 9.2.3: a position with a legal e.p. capture differs from the same placement without;
 * a double step that allows no legal e.p. capture gives no right that counts. */
static void test_repetition_ep(void **state)
{
	(void)state;
	struct chess_game g;
	struct chess_pos start;
	const char *shuffle = "e8d8 e1d1 d8e8 d1e1";

	/* The d4 pawn can take e.p.: the position after e2e4 is never repeated. */
	start = parse("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
	chess_game_init(&g, &start);
	play(&g, "e2e4");
	assert_true(chess_pos_ep_capture_legal(&g.pos));
	play(&g, shuffle);
	assert_int_equal(chess_game_repetitions(&g), 1);
	play(&g, shuffle);
	assert_int_equal(chess_game_repetitions(&g), 2);
	assert_false(chess_game_can_claim_threefold(&g));
	chess_game_free(&g);

	/* No pawn beside: the position after e2e4 is the first occurrence. */
	start = parse("4k3/8/8/8/p7/8/4P3/4K3 w - - 0 1");
	chess_game_init(&g, &start);
	play(&g, "e2e4");
	play(&g, shuffle);
	play(&g, shuffle);
	assert_int_equal(chess_game_repetitions(&g), 3);
	assert_true(chess_game_can_claim_threefold(&g));
	chess_game_free(&g);

	/* A pawn beside that may not take (pinned along the rank): the right does not count. */
	start = parse("8/8/8/8/R2p3k/8/4P3/K7 w - - 0 1");
	chess_game_init(&g, &start);
	play(&g, "e2e4");
	assert_false(chess_pos_ep_capture_legal(&g.pos));
	play(&g, "h4h5 a1a2 h5h4 a2a1 h4h5 a1a2 h5h4 a2a1");
	assert_int_equal(chess_game_repetitions(&g), 3);
	assert_true(chess_game_can_claim_threefold(&g));
	chess_game_free(&g);

	/* Castling rights differ: not the same position. */
	start = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	chess_game_init(&g, &start);
	play(&g, "e1d1 e8d8 d1e1 d8e8");
	assert_int_equal(chess_game_repetitions(&g), 1);
	play(&g, "e1d1 e8d8 d1e1 d8e8 e1d1 e8d8 d1e1 d8e8");
	assert_int_equal(chess_game_repetitions(&g), 3);
	chess_game_free(&g);
}

static void test_seventy_five_and_fifty(void **state)
{
	(void)state;
	struct chess_game g;
	struct chess_pos start = parse("7k/8/6K1/8/8/8/8/R7 w - - 98 100");
	chess_game_init(&g, &start);
	assert_false(chess_game_can_claim_fifty(&g));
	assert_false(chess_game_move_claims_fifty(&g, chess_pos_find_move(&g.pos, 0, 1, 0)));
	play(&g, "a1b1");
	assert_true(chess_game_move_claims_fifty(&g, chess_pos_find_move(&g.pos, 63, 62, 0)));
	play(&g, "h8g8");
	assert_true(chess_game_can_claim_fifty(&g));
	assert_int_equal(chess_game_outcome(&g), CHESS_ONGOING);
	chess_game_free(&g);

	/* The 150th half-move without pawn move or capture ends the game... */
	start = parse("7k/8/6K1/8/8/8/8/R7 w - - 149 100");
	chess_game_init(&g, &start);
	play(&g, "a1b1");
	assert_int_equal(chess_game_outcome(&g), CHESS_SEVENTY_FIVE);
	chess_game_free(&g);
	/* ...unless it mates (Art. 9.6.2). */
	chess_game_init(&g, &start);
	play(&g, "a1a8");
	assert_int_equal(chess_game_outcome(&g), CHESS_CHECKMATE);
	assert_false(chess_game_can_claim_fifty(&g));
	chess_game_free(&g);
}

static void test_mate_precedes_fivefold(void **state)
{
	(void)state;
	/* Mate and stalemate are reported even with the 75-move count long passed. */
	struct chess_game g;
	struct chess_pos start = parse("R6k/8/6K1/8/8/8/8/8 b - - 160 120");
	chess_game_init(&g, &start);
	assert_int_equal(chess_game_outcome(&g), CHESS_CHECKMATE);
	chess_game_free(&g);
	start = parse("7k/8/6QK/8/8/8/8/8 b - - 160 120");
	chess_game_init(&g, &start);
	assert_int_equal(chess_game_outcome(&g), CHESS_STALEMATE);
	chess_game_free(&g);
}

static void test_outcomes(void **state)
{
	(void)state;
	struct chess_game g;
	struct chess_pos start;
	chess_pos_init_start(&start);
	chess_game_init(&g, &start);
	play(&g, "f2f3 e7e5 g2g4 d8h4");
	assert_int_equal(chess_game_outcome(&g), CHESS_CHECKMATE);
	chess_game_free(&g);
	/* Capturing the last piece leaves K v K: dead. */
	start = parse("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
	chess_game_init(&g, &start);
	assert_int_equal(chess_game_outcome(&g), CHESS_ONGOING);
	play(&g, "e1d2");
	assert_int_equal(chess_game_outcome(&g), CHESS_DEAD_POSITION);
	chess_game_free(&g);
}

/* Who can still checkmate (chess/mate.c): N never, P possible, U unknown (the arbiter). */
enum { N = CHESS_MATE_NEVER, P = CHESS_MATE_POSSIBLE, U = CHESS_MATE_UNKNOWN };

struct material_case {
	const char *fen;
	int white, black;
};

static void test_can_checkmate(void **state)
{
	(void)state;
	static const struct material_case cases[] = {
	    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", N, N},	   /* K v K */
	    {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", N, N},	   /* K+N v K */
	    {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", N, N},	   /* K+B v K */
	    {"4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", P, P},	   /* B v B, opposite colours */
	    {"4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1", N, N},	   /* B v B, same colour */
	    {"4k1b1/8/8/8/8/7B/B7/3BKB2 w - - 0 1", N, N}, /* many, one colour (the rule) */
	    {"4k1b1/8/8/8/8/8/8/2B1KB2 w - - 0 1", P, P},  /* W has both colours */
	    {"4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", P, N},	   /* K+N+N v K: helpmate */
	    {"4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", P, P},	   /* K+N v K+N */
	    {"4kn2/8/8/8/8/8/8/4KB2 w - - 0 1", P, P},	   /* K+B v K+N */
	    {"4kb2/8/8/8/8/8/8/4KN2 w - - 0 1", P, P},	   /* K+N v K+B */
	    {"4k3/8/8/8/8/8/8/4KBN1 w - - 0 1", P, N},	   /* K+B+N v K */
	    {"4k3/8/8/8/8/8/8/4KR2 w - - 0 1", P, N},	   /* K+R v K */
	    {"4kq2/8/8/8/8/8/8/4K3 w - - 0 1", N, P},	   /* K v K+Q */
	    {"4k1b1/8/8/8/8/8/8/4KN2 w - - 0 1", P, P},	   /* a knight blocks for the bishop */
	    {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", P, N},	   /* K+P v K: it promotes */
	    /* A lone minor piece cannot mate K+Q, nor a lone bishop K+R (the flag of
	     * the side with the queen or rook is a draw, 6.9). */
	    {"4kq2/8/8/8/8/8/8/4KN2 w - - 0 1", N, P},	/* K+N v K+Q */
	    {"4kq2/8/8/8/8/8/8/4KB2 w - - 0 1", N, P},	/* K+B v K+Q */
	    {"4kr2/8/8/8/8/8/8/4KB2 w - - 0 1", N, P},	/* K+B v K+R */
	    {"4k1b1/8/8/8/8/8/8/R3K3 w - - 0 1", P, N}, /* K+R v K+B */
	    {"4kr2/8/8/8/8/8/8/4KN2 w - - 0 1", P, P},	/* K+N v K+R: Kh1 Rh2, Kf1, Ng3# */
	    /* The position decides, not only the material: Black must take the queen. */
	    {"8/8/8/8/8/1K6/8/Qk6 b - - 0 1", N, N},
	    /* Black's one quiet move, Ra1+, forces Kxa1 and stalemate; its other is Rxb2+:
	     * White can never mate, though both sides have quiet moves (the five-man proof
	     * found it). */
	    {"8/8/8/8/8/k7/rRB5/1K6 b - - 0 1", N, P},
	    /* A king boxed in by its own bishops: White's moves all stalemate or lose a bishop. */
	    {"8/8/8/8/8/K7/8/kBB5 w - - 0 1", N, N},
	    /* Castling rights count (the exact answer holds with them too). */
	    {"4k3/8/8/8/8/8/8/4K2R w K - 0 1", P, N},
	    /* Larger positions: proven by a series found, or left to the arbiter. */
	    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", P, P},
	    {"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", P, P}, /* a back rank */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct chess_pos pos = parse(cases[i].fen);
		enum chess_mate w = chess_pos_mate(&pos, CHESS_WHITE, NULL);
		enum chess_mate b = chess_pos_mate(&pos, CHESS_BLACK, NULL);

		if ((int)w != cases[i].white || (int)b != cases[i].black)
			print_error("%s: white %s black %s\n", cases[i].fen, chess_mate_name(w),
				    chess_mate_name(b));
		assert_int_equal(w, cases[i].white);
		assert_int_equal(b, cases[i].black);
		assert_int_equal(chess_pos_can_checkmate(&pos, CHESS_WHITE), (int)w != N);
		assert_int_equal(chess_pos_is_dead(&pos),
				 cases[i].white == N && cases[i].black == N);
	}
}

/* A position the searches cannot settle: neither "never" nor a loss, but unknown, so the
 * arbiter decides (never a loss the Laws make a draw).  Both can mate here (CHA-Solver's
 * classified set says so: a long helpmate through the locked h-file), but no search within
 * its bounds finds one and no proof of "never" exists. */
static void test_mate_unknown_goes_to_the_arbiter(void **state)
{
	(void)state;
	struct chess_pos pos = parse("7k/p7/P7/8/8/6p1/4B1Pp/7K w - - 0 1");

	assert_int_equal(chess_pos_mate(&pos, CHESS_WHITE, NULL), CHESS_MATE_UNKNOWN);
	assert_int_equal(chess_pos_mate(&pos, CHESS_BLACK, NULL), CHESS_MATE_UNKNOWN);
	assert_false(chess_pos_is_dead(&pos));
}

/* Kings and locked pawns, a bishop behind its own pawns on their colour: nobody can ever
 * mate, and the game ends as drawn at once (5.2.2). */
static void test_locked_pawns_are_dead(void **state)
{
	(void)state;
	static const char *const dead[] = {
	    "8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1",
	    "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/3BK3 w - - 0 1",
	};
	struct chess_game g;

	for (size_t i = 0; i < sizeof(dead) / sizeof(dead[0]); i++) {
		struct chess_pos pos = parse(dead[i]);

		assert_int_equal(chess_pos_mate(&pos, CHESS_WHITE, NULL), CHESS_MATE_NEVER);
		assert_int_equal(chess_pos_mate(&pos, CHESS_BLACK, NULL), CHESS_MATE_NEVER);
		assert_true(chess_pos_is_dead(&pos));
	}
	/* Reached by a move: the game's outcome after it. */
	{
		struct chess_pos start = parse("8/8/1k6/p1p1p1p1/P1P1P3/6P1/4K3/8 w - - 0 1");

		chess_game_init(&g, &start);
		assert_int_equal(chess_game_outcome(&g), CHESS_ONGOING);
		play(&g, "g3g4");
		assert_int_equal(chess_game_outcome(&g), CHESS_DEAD_POSITION);
		chess_game_free(&g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_push_pop),
	    cmocka_unit_test(test_threefold_and_fivefold),
	    cmocka_unit_test(test_repetition_ep),
	    cmocka_unit_test(test_seventy_five_and_fifty),
	    cmocka_unit_test(test_mate_precedes_fivefold),
	    cmocka_unit_test(test_outcomes),
	    cmocka_unit_test(test_can_checkmate),
	    cmocka_unit_test(test_mate_unknown_goes_to_the_arbiter),
	    cmocka_unit_test(test_locked_pawns_are_dead),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
