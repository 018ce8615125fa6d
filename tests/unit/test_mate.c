/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Who can still checkmate (chess/mate*.c, docs/arbiter.md "Who can still checkmate") for
 * positions with pawns: the examples of real games, each static rule's proof of "never",
 * the searches' proofs, every "possible" line replayed to the mate, and the dead position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "chess/chess.h"

enum { N = CHESS_MATE_NEVER, P = CHESS_MATE_POSSIBLE, U = CHESS_MATE_UNKNOWN };

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

/* The answer for `color`; a "possible" one's line must replay, move by move legal, to that
 * colour's mate. */
static enum chess_mate asked(const char *fen, enum chess_color color, struct chess_mate_info *info)
{
	struct chess_pos pos = parse(fen), at;
	struct chess_move_list list;
	enum chess_mate m = chess_pos_mate(&pos, color, info);

	if (m != CHESS_MATE_POSSIBLE || (info->answer_only && info->line_len == 0))
		return m;
	at = pos;
	for (int i = 0; i < info->line_len; i++) {
		struct chess_undo undo;

		if (!chess_pos_is_legal(&at, info->line[i]))
			fail_msg("%s: move %d of the line is illegal", fen, i + 1);
		chess_pos_make(&at, info->line[i], &undo);
	}
	if (at.side == color || !chess_pos_in_check(&at) || chess_pos_legal_moves(&at, &list))
		fail_msg("%s: the line does not end in the mate", fen);
	return m;
}

struct mate_case {
	const char *fen;
	int white, black;
	const char *why;
};

static void run_cases(const struct mate_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct chess_mate_info w = {0}, b = {0};
		enum chess_mate mw = asked(cases[i].fen, CHESS_WHITE, &w);
		enum chess_mate mb = asked(cases[i].fen, CHESS_BLACK, &b);

		if ((int)mw != cases[i].white || (int)mb != cases[i].black)
			fail_msg("%s (%s): white %s (%s), black %s (%s)", cases[i].fen,
				 cases[i].why, chess_mate_name(mw), w.reason, chess_mate_name(mb),
				 b.reason);
	}
}

/* The examples of real games the device left to the arbiter before: each side can mate, and
 * the line shows how. */
static void test_real_games(void **state)
{
	static const struct mate_case cases[] = {
	    {"8/8/8/3k1p2/6p1/6P1/5K2/8 w - - 0 1", P, P, "K+P v K+2P, Ding-Gukesh 2024"},
	    {"r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/2N1BP2/PPPQ2PP/2KR1B1R w - - 0 12", P, P,
	     "a Sicilian middlegame"},
	    {"8/8/4k3/8/3n4/8/P7/K7 w - - 0 1", P, P, "K+P v K+N: the pawn to a7, the king a8"},
	    {"8/1k6/3K4/8/7P/8/4b3/8 b - - 19 82", P, P,
	     "a lone bishop mates against the pawn promoted to a blocker"},
	    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", P, P, "the start"},
	};

	(void)state;
	run_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Each rule of the static analysis (chess/mate_reach.c) proving "never" where it is the only
 * proof, and the searches' proofs. */
static void test_never(void **state)
{
	static const struct mate_case cases[] = {
	    {"8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1", N, N,
	     "kings and locked pawns: the squares in front of the wall attacked for good"},
	    {"4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/3BK3 w - - 0 1", N, N,
	     "a bishop behind its own pawns, on their colour"},
	    {"1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1", N, N,
	     "pawns on one file do not pass each other"},
	    {"2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1", N, N,
	     "a king and rook in a cage: every reachable position looked at"},
	    {"qK6/3k4/8/8/8/8/8/8 w - - 0 60", N, N, "the queen must be taken (five men)"},
	    {"8/8/8/7p/5k1K/8/8/5b2 w - - 0 52", N, N, "White to move is stalemated"},
	};

	(void)state;
	run_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Regressions of the analysis's own development.  A man "never taken" standing on a move's
 * target must not block that move: whether it can be taken is what the analysis works out
 * (with the circular rule White's king could not take the bishop on c8 and both sides were
 * called unable to mate).  And the helpmate's target is the best square of all where a mate
 * may be (the first squares in board order alone left K+Q+N v K with the king on g1 without
 * a line). */
static void test_regressions(void **state)
{
	struct chess_mate_info info = {0};

	(void)state;
	assert_int_not_equal(
	    asked("k1bK4/1p1p4/1PpPp3/2P1Pp2/2p1pP2/2p1P3/2P5/8 w - - 0 1", CHESS_WHITE, &info), N);
	assert_int_not_equal(
	    asked("k1bK4/1p1p4/1PpPp3/2P1Pp2/2p1pP2/2p1P3/2P5/8 w - - 0 1", CHESS_BLACK, &info), N);
	assert_int_equal(asked("6K1/7N/8/8/8/8/5Q2/6k1 b - - 0 1", CHESS_WHITE, &info), P);
	assert_true(info.line_len > 0);
	assert_string_equal(info.reason, "helpmate");
}

/* The answer's grounds: a line with "possible" (empty where the side has mated already), a
 * reason with every answer; a five-man "possible" without its line only when asked so. */
static void test_info(void **state)
{
	struct chess_mate_info info = {0};

	(void)state;
	assert_int_equal(asked("4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1", CHESS_WHITE, &info), P);
	assert_int_equal(info.line_len, 0);
	assert_int_equal(asked("4k3/8/8/8/8/8/8/4KR2 w - - 0 1", CHESS_WHITE, &info), P);
	assert_true(info.line_len > 0);
	info = (struct chess_mate_info){.answer_only = true};
	assert_int_equal(asked("4k3/8/8/8/8/8/8/4KR2 w - - 0 1", CHESS_WHITE, &info), P);
	assert_int_equal(info.line_len, 0);
	assert_string_equal(info.reason, "the exact analysis of five men");
	assert_int_equal(asked("4k3/8/8/8/8/8/8/4KR2 w - - 0 1", CHESS_BLACK, &info), N);
	assert_non_null(strstr(info.reason, "exact"));
	assert_int_equal(asked("8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1", CHESS_WHITE, &info),
			 N);
	assert_non_null(strstr(info.reason, "locked pawns"));
}

/* The dead-position check after a move: the quick means only, never against a line. */
static void test_dead(void **state)
{
	static const char *const dead[] = {
	    "8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1",
	    "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1",
	    "8/8/8/7p/5k1K/8/8/5b2 w - - 0 52",
	};
	static const char *const alive[] = {
	    "8/8/8/3k1p2/6p1/6P1/5K2/8 w - - 0 1",
	    "8/8/1k6/p1p1p1p1/P1P1P3/6P1/4K3/8 w - - 0 1",
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(dead) / sizeof(dead[0]); i++) {
		struct chess_pos pos = parse(dead[i]);

		if (!chess_pos_is_dead(&pos))
			fail_msg("%s is dead", dead[i]);
	}
	for (size_t i = 0; i < sizeof(alive) / sizeof(alive[0]); i++) {
		struct chess_pos pos = parse(alive[i]);

		if (chess_pos_is_dead(&pos))
			fail_msg("%s is not dead", alive[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_real_games),	cmocka_unit_test(test_never),
	    cmocka_unit_test(test_regressions), cmocka_unit_test(test_info),
	    cmocka_unit_test(test_dead),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
