/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The last moves on request (docs/arbiter.md "Behaviour the Laws ask for"): repeat held alone, the
 * menu's item and `last-moves` say the last five moves of both sides privately, in a tournament
 * too; repeat held together with another button (the arbiter's chord) or let go early does not.
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

/* A tournament game without a clock, 6 moves of each side played on the board. */
static void play(void)
{
	static const char *const moves[][2] = {
	    {"e2", "e4"}, {"e7", "e5"}, {"g1", "f3"}, {"b8", "c6"}, {"f1", "c4"}, {"g8", "f6"},
	    {"d2", "d3"}, {"f8", "c5"}, {"c2", "c3"}, {"d7", "d6"}, {"b1", "d2"}, {"a7", "a6"}};

	referee_settings_defaults(&t->set);
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", NULL);
	for (size_t i = 0; i < sizeof(moves) / sizeof(moves[0]); i++)
		rt_move(t, moves[i][0], moves[i][1]);
	assert_int_equal(game_plies(rt_game(t)), 12);
}

static void test_repeat_held(void **state)
{
	(void)state;
	play();
	clear_log();
	/* A press: the last move; held a second: the last five moves of each side. */
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" REPEAT a7a6\n");
	assert_not_logged("LAST_MOVES");
	rt_hold(t, GAME_BUTTON_REPEAT, 1100);
	assert_logged(" LAST_MOVES plies 10 from 2\n");
	/* Held with another button (the arbiter's chord begins so): nothing more. */
	clear_log();
	rt_event(t, GAME_EV_BUTTON, GAME_BUTTON_REPEAT, true);
	rt_wait(t, 300);
	rt_event(t, GAME_EV_BUTTON, GAME_BUTTON_INFO, true);
	rt_wait(t, 2500);
	rt_event(t, GAME_EV_BUTTON, GAME_BUTTON_INFO, false);
	rt_event(t, GAME_EV_BUTTON, GAME_BUTTON_REPEAT, false);
	rt_wait(t, 100);
	assert_not_logged("LAST_MOVES");
}

static void test_menu_and_command(void **state)
{
	(void)state;
	play();
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	/* After cancel and the quick guide: the last moves. */
	for (int i = 0; i < 10 && !strstr(t->log, "menu-last-moves"); i++)
		rt_press(t, GAME_BUTTON_SELECT);
	assert_logged("SAY private menu-last-moves\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" LAST_MOVES plies 10 from 2\n");
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "last-moves 2"), 0);
	assert_logged(" LAST_MOVES plies 4 from 8\n");
	assert_logged("the last 4 plies said to the player: 5. c3 d6 6. Nbd2 a6\n");
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "last-moves 11"), -1);
	assert_logged("'11': how many moves of each side (1 to 10)");
	/* Nothing of the game changed. */
	assert_int_equal(game_plies(rt_game(t)), 12);
}

/* Before any move: nothing to say, as repeat. */
static void test_no_move_yet(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", NULL);
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "last-moves"), -1);
	assert_logged("no move has been made yet");
	assert_logged("SAY private nothing-to-repeat\n");
	assert_not_logged("LAST_MOVES");
}

/* From Black's move: the first ply said is Black's, and an odd number of plies is fine. */
static void test_black_first(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_move(t, "e2", "e4");
	rt_move(t, "e7", "e5");
	rt_move(t, "g1", "f3");
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "last-moves 1"), 0);
	assert_logged(" LAST_MOVES plies 2 from 1\n");
	assert_logged("the last 2 plies said to the player: 1... e5 2. Nf3\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_repeat_held, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_menu_and_command, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_move_yet, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_black_first, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
