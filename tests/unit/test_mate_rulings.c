/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The results the Laws give "unless the opponent cannot checkmate by any series of legal
 * moves" (6.9 flag, 7.5.5 the illegal move that loses, 2023 5.1.2 resignation), as the
 * referee rules them with chess_pos_mate(): a draw where the opponent can never mate (issue
 * 17: a flag of the side with K+Q against a lone knight was scored as a loss), and, where
 * that is not proven either way, "*": the arbiter decides, with the position in the reply
 * and in status, and nobody can approve the result or begin a new game before.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/referee_cases.h"

/* A constructed position the searches cannot settle (test_game): both could mate by a long
 * series through the locked h-file, but none is found within the bounds and nothing proves
 * "never", so it is unknown. */
#define UNDECIDED   "7k/p7/P7/8/8/6p1/4B1Pp/7K w - - 0 1"
#define UNDECIDED_B "7k/p7/P7/8/8/6p1/4B1Pp/7K b - - 0 1"

static struct game_command cmd(enum game_command_kind kind, enum game_role role, uint32_t id)
{
	struct game_command c = {.kind = kind, .role = role, .color = -1};

	(void)id; /* the replies are logged in order */

	snprintf(c.author, sizeof(c.author), "%s", role == ROLE_ARBITER ? "arb" : "asst");
	c.white_moves = c.black_moves = -1;
	return c;
}

/* White's flag falls in a position of that FEN, White to move (Black's press starts White's
 * clock); returns the flag's result. */
static const char *white_flags_in(const char *fen)
{
	rt_open(t, CHESS_WHITE, "10+0", fen);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 20000);
	assert_int_equal(rt_game(t)->result.state, RESULT_FLAG_PENDING);
	assert_logged("10000 SAY public flag-white\n");
	return rt_game(t)->result.flag_result;
}

/* Regression: the lone knight cannot mate K+Q, so White's flag is a draw. */
static void test_flag_queen_against_lone_knight_is_a_draw(void **state)
{
	(void)state;
	assert_string_equal(white_flags_in("1n2k3/8/8/8/8/8/8/3QK3 w - - 0 1"), "1/2-1/2");
	assert_true(strstr(last_record("flag"), "white 1/2-1/2") != NULL);
	assert_replays();
}

/* Regression: nor can a lone bishop mate K+R. */
static void test_flag_rook_against_lone_bishop_is_a_draw(void **state)
{
	(void)state;
	assert_string_equal(white_flags_in("2b1k3/8/8/8/8/8/8/R3K3 w - - 0 1"), "1/2-1/2");
	assert_replays();
}

/* A lone knight mates K+R with help (Kh1 Rh2, Kf1 Ng3#): White's flag loses. */
static void test_flag_rook_against_lone_knight_loses(void **state)
{
	(void)state;
	assert_string_equal(white_flags_in("1n2k3/8/8/8/8/8/8/R3K3 w - - 0 1"), "0-1");
}

/* Black to move with only the capture of the queen: the flag of the lone king's opponent is
 * a draw however much it has (the position decides, not the material alone). */
static void test_flag_where_the_capture_is_forced(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "10+0", "8/8/8/8/8/1K6/8/Qk6 b - - 0 1");
	/* Set up with Black to move: White's press starts Black's clock. */
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_wait(t, 20000);
	assert_string_equal(rt_game(t)->result.flag_result, "1/2-1/2");
}

/* Not proven either way: the flag's result is "*", the players cannot approve it, the
 * arbiter's result decides it. */
static void test_flag_undecided_goes_to_the_arbiter(void **state)
{
	struct game_command approve = cmd(CMD_APPROVE, ROLE_ASSISTANT, 1);
	struct game_command result = cmd(CMD_RESULT, ROLE_ARBITER, 2);

	(void)state;
	rt_open(t, CHESS_BLACK, "10+0", UNDECIDED_B);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* White's press starts Black's clock */
	rt_wait(t, 20000);
	assert_int_equal(rt_game(t)->result.state, RESULT_FLAG_PENDING);
	assert_string_equal(rt_game(t)->result.flag_result, "*");
	assert_true(result_undecided(&rt_game(t)->result));
	rt_command(t, &approve);
	assert_logged("REPLY error no result to approve yet: the arbiter decides it");
	assert_int_equal(rt_game(t)->result.state, RESULT_FLAG_PENDING);
	snprintf(result.result, sizeof(result.result), "1/2-1/2");
	snprintf(result.text, sizeof(result.text), "time forfeit: White cannot mate");
	rt_command(t, &result);
	assert_logged("REPLY ok 1/2-1/2");
	assert_int_equal(rt_game(t)->result.state, RESULT_ENDED);
	assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
	assert_false(result_undecided(&rt_game(t)->result));
	rt_command(t, &approve);
	assert_int_equal(rt_game(t)->result.state, RESULT_APPROVED);
	assert_replays();
}

/* 7.5.5: Black's second illegal move where White's mate is not proven either way: the game
 * is over with "*", the reply asks the arbiter with the position, no result is said, and
 * the arbiter's result then stands. */
static void test_illegal_undecided_goes_to_the_arbiter(void **state)
{
	struct game_command illegal = cmd(CMD_ILLEGAL, ROLE_ARBITER, 1);
	struct game_command approve = cmd(CMD_APPROVE, ROLE_ASSISTANT, 3);

	(void)state;
	rt_open(t, CHESS_BLACK, "-", UNDECIDED);
	rt_move(t, "e2", "d3"); /* White's move on the board */
	for (int n = 0; n < 2; n++) {
		rt_move(t, "h8", "g8");
		illegal.color = CHESS_BLACK;
		rt_command(t, &illegal);
		if (n == 0) {
			rt_move(t, "g8", "h8");
			rt_wait(t, 500);
		}
	}
	assert_true(game_over(rt_game(t)));
	assert_string_equal(san(0), "Bd3");
	assert_string_equal(rt_game(t)->result.result, "*");
	assert_true(result_undecided(&rt_game(t)->result));
	assert_logged("REPLY ok 1... Kg8 illegal: black's number 2 ends the game; can white "
		      "still mate from ");
	assert_logged("? the arbiter decides: result 1-0 or 1/2-1/2\n");
	assert_not_logged("result-white-wins");
	assert_non_null(strstr(rt_game(t)->result.reason, "the arbiter's decision"));
	rt_command(t, &approve);
	assert_int_equal(rt_game(t)->result.state, RESULT_ENDED);
	assert_logged("REPLY error no result to approve yet: the arbiter decides it (Black's "
		      "illegal move number 2 (7.5.5); whether White can still mate is the "
		      "arbiter's decision)\n");
	/* Through the command table: the game is over for a resignation, not for the
	 * arbiter's result. */
	assert_int_not_equal(rt_control(t, ROLE_ARBITER, "resign white"), 0);
	assert_logged("REPLY error the game is over: *\n");
	assert_int_equal(
	    rt_control(t, ROLE_ARBITER, "result 1-0 rules infraction: 7.5.5, White can mate"), 0);
	assert_string_equal(rt_game(t)->result.result, "1-0");
	assert_int_equal(rt_game(t)->result.termination, TERMINATION_RULES_INFRACTION);
	/* Decided, not approved: the arbiter's second result replaces the first (8.7), both
	 * journaled; once approved, a result is refused. */
	assert_int_equal(rt_control(t, ROLE_ARBITER, "result 1/2-1/2 adjudication"), 0);
	assert_logged("REPLY ok 1/2-1/2, adjudication (in place of 1-0, not approved)\n");
	assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
	assert_int_equal(rt_game(t)->result.termination, TERMINATION_ADJUDICATION);
	assert_non_null(strstr(last_record("result"), " replaces"));
	assert_int_equal(rt_control(t, ROLE_ARBITER, "result 1-0 rules infraction: 7.5.5"), 0);
	assert_string_equal(rt_game(t)->result.result, "1-0");
	rt_command(t, &approve);
	assert_int_equal(rt_game(t)->result.state, RESULT_APPROVED);
	assert_int_not_equal(rt_control(t, ROLE_ARBITER, "result 0-1 adjudication"), 0);
	assert_logged("REPLY error the result is approved: the game is closed");
	assert_string_equal(rt_game(t)->result.result, "1-0");
	assert_replays();
}

/* 2005 7.4 b: the third illegal move loses, whatever the opponent's men (no proviso there,
 * unlike 2018 and 2023 7.5.5): against a lone king the game is lost all the same. */
static void test_illegal_2005_loses_without_proviso(void **state)
{
	struct game_command illegal = cmd(CMD_ILLEGAL, ROLE_ARBITER, 1);

	(void)state;
	referee_settings_defaults(&t->set);
	t->set.next.edition = RULES_2005;
	rt_open(t, CHESS_WHITE, "-", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
	for (int n = 0; n < 3; n++) {
		rt_move(t, "d2", "d3");
		illegal.color = CHESS_WHITE;
		rt_command(t, &illegal);
		if (n < 2) {
			rt_move(t, "d3", "d2");
			rt_wait(t, 500);
		}
	}
	assert_string_equal(rt_game(t)->result.result, "0-1");
}

/* 2023 5.1.2: a resignation where the opponent's mate is not proven either way. */
static void test_resignation_undecided_goes_to_the_arbiter(void **state)
{
	struct game_command resign = cmd(CMD_RESIGN, ROLE_ASSISTANT, 1);

	(void)state;
	rt_open(t, CHESS_BLACK, "-", UNDECIDED);
	resign.color = CHESS_BLACK;
	rt_command(t, &resign);
	assert_string_equal(rt_game(t)->result.result, "*");
	assert_logged("REPLY ok black resigns; can white still mate from ");
	assert_logged("SAY public black-resigns");
	assert_replays();
}

/* Before 2023 a resignation loses whatever the material. */
static void test_resignation_before_2023_loses(void **state)
{
	struct game_command resign = cmd(CMD_RESIGN, ROLE_ASSISTANT, 1);

	(void)state;
	t->set.promotion_ms = 0;
	referee_settings_defaults(&t->set);
	t->set.next.edition = RULES_2018;
	rt_open(t, CHESS_BLACK, "-", "1n2k3/8/8/8/8/8/8/3QK3 w - - 0 1");
	resign.color = CHESS_WHITE;
	rt_command(t, &resign);
	assert_string_equal(rt_game(t)->result.result, "0-1");
}

/* 2023: the side with the queen resigns against a lone knight: a draw. */
static void test_resignation_2023_against_a_lone_knight(void **state)
{
	struct game_command resign = cmd(CMD_RESIGN, ROLE_ASSISTANT, 1);

	(void)state;
	rt_open(t, CHESS_BLACK, "-", "1n2k3/8/8/8/8/8/8/3QK3 w - - 0 1");
	resign.color = CHESS_WHITE;
	rt_command(t, &resign);
	assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
}

/* In a king and pawn ending where the flagging side's opponent needs a long series
 * (K+P v K+2P, Ding-Gukesh 2024: Black queens a pawn and mates), the device rules the flag
 * itself: a loss, where it gave "*" before. */
static void test_flag_pawn_ending_ruled_by_the_device(void **state)
{
	(void)state;
	assert_string_equal(white_flags_in("8/8/8/3k1p2/6p1/6P1/5K2/8 w - - 0 1"), "0-1");
	assert_false(result_undecided(&rt_game(t)->result));
	assert_replays();
}

/* 5.2.2 (2005: 5.2 b): a move that locks the last pawns leaves a dead position; the game
 * ends at once as drawn in every edition, said to the tactile player with its result and
 * recorded with its reason. */
static void test_dead_position_ends_the_game_in_every_edition(void **state)
{
	static const enum rules_edition editions[] = {RULES_2005, RULES_2018, RULES_2023};

	(void)state;
	for (size_t i = 0; i < sizeof(editions) / sizeof(editions[0]); i++) {
		if (t->r)
			rt_close(t);
		memset(t, 0, sizeof(*t));
		referee_settings_defaults(&t->set);
		t->set.next.edition = editions[i];
		rt_open(t, CHESS_BLACK, "-", "8/8/1k6/p1p1p1p1/P1P1P3/6P1/4K3/8 w - - 0 1");
		rt_move(t, "g3", "g4");
		assert_true(game_over(rt_game(t)));
		assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
		assert_string_equal(rt_game(t)->result.reason, "dead position");
		assert_non_null(strstr(last_record("result"), "1/2-1/2"));
		assert_logged("SAY private dead-position\n");
		assert_logged("SAY private result-draw\n");
		assert_not_logged("SAY public dead-position");
		assert_replays();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_flag_queen_against_lone_knight_is_a_draw, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_flag_rook_against_lone_bishop_is_a_draw, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_flag_rook_against_lone_knight_loses, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_flag_where_the_capture_is_forced, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_flag_undecided_goes_to_the_arbiter, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_undecided_goes_to_the_arbiter, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_resignation_undecided_goes_to_the_arbiter, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_2005_loses_without_proviso, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_resignation_before_2023_loses, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resignation_2023_against_a_lone_knight, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_flag_pawn_ending_ruled_by_the_device, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_dead_position_ends_the_game_in_every_edition,
					    setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
