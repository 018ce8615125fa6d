/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The service's status line (daemon/svcstatus.h) as a game goes on: the move and who is to
 * move, a draw offer, the clocks stopped, the result waiting for approval and approved, a
 * storage fault and a new version waiting; svcstatus_due() says so exactly when the line
 * would change.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/svcstatus.h"
#include "tests/unit/referee_cases.h"

static struct svcstatus st;

/* The line now, after checking that it is due exactly when it differs from the last one. */
static const char *line(const char *saving_error, bool waits)
{
	static char buf[400], last[400];
	bool due = svcstatus_due(&st, rt_game(t), saving_error != NULL, waits);
	int n = svcstatus_format(&st, rt_game(t), saving_error, waits, buf, sizeof(buf));

	assert_true(n > 0 && (size_t)n < sizeof(buf));
	if (due != (strcmp(buf, last) != 0))
		fail_msg("due %d, but the line went from '%s' to '%s'", due, last, buf);
	assert_false(svcstatus_due(&st, rt_game(t), saving_error != NULL, waits));
	snprintf(last, sizeof(last), "%s", buf);
	return buf;
}

static void test_game_goes_on(void **state)
{
	(void)state;
	memset(&st, 0, sizeof(st));
	rt_open(t, CHESS_WHITE, "600+5", NULL);
	assert_string_equal(line(NULL, false), "test-1: move 1, White to move");
	assert_string_equal(line(NULL, false), "test-1: move 1, White to move");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* Black's press starts White's clock */
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_string_equal(line(NULL, false), "test-1: move 1, Black to move");
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_string_equal(line(NULL, false), "test-1: move 2, White to move");
	rt_control(t, ROLE_ASSISTANT, "draw-offer white");
	assert_string_equal(line(NULL, false),
			    "test-1: move 2, White to move; White offers a draw");
	rt_control(t, ROLE_ARBITER, "pause");
	assert_string_equal(line(NULL, false), "test-1: move 2, White to move; the clocks "
					       "stand (arbiter); White offers a draw");
	assert_string_equal(line("No space left on device", true),
			    "test-1: move 2, White to move; the clocks stand (arbiter); White "
			    "offers a draw; saving fails (No space left on device): the game is "
			    "kept in memory; a new version waits for the end of the game");
	rt_control(t, ROLE_ARBITER, "resign black");
	assert_string_equal(line(NULL, true), "test-1: 1-0 (Black resigns) after 1 move, "
					      "waiting for the players' approval; a new version "
					      "waits for the end of the game");
	/* The arbiter's result replaces one the players have not approved (8.7). */
	rt_control(t, ROLE_ARBITER, "result 1/2-1/2 agreed draw");
	assert_string_equal(line(NULL, false), "test-1: 1/2-1/2 (agreed draw) after 1 move, "
					       "waiting for the players' approval");
	rt_control(t, ROLE_ASSISTANT, "approve");
	assert_string_equal(line(NULL, false),
			    "test-1: 1/2-1/2 (agreed draw) after 1 move, approved");
}

static void test_no_game(void **state)
{
	struct game g;

	(void)state;
	memset(&st, 0, sizeof(st));
	game_init(&g);
	assert_true(svcstatus_due(&st, &g, false, false));
	char buf[64];
	svcstatus_format(&st, &g, NULL, false, buf, sizeof(buf));
	assert_string_equal(buf, "no game open");
	assert_false(svcstatus_due(&st, &g, false, false));
	assert_true(svcstatus_due(&st, &g, true, false));
	/* A short buffer: cut, and the length the whole line would have. */
	char small[8];
	assert_int_equal(svcstatus_format(&st, &g, "x", true, small, sizeof(small)),
			 (int)strlen("no game open; saving fails (x): the game is kept in memory; "
				     "a new version waits for the end of the game"));
	assert_string_equal(small, "no game");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_game_goes_on, setup, teardown),
	    cmocka_unit_test(test_no_game),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
