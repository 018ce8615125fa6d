/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The codes and arguments of the clock's rulings (docs/control.md "Reply codes"): `resume` after a
 * press while the clocks stood, `approve` of a flag the arbiter decides, `illegal` on a move
 * and on a press (the penalty, the article, the clocks and what was taken back), the 2005
 * edition's refusals, and a rejected claim with and without the 2005 cut.  Each reply is
 * checked as a page reads it: its code, the arguments a page words in its own language, and
 * the English text the goldens and the other tests pin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/strbuf.h"
#include "control/protocol.h"
#include "tests/unit/referee_cases.h"

#define W   CHESS_WHITE
#define B   CHESS_BLACK
#define SEC 1000

static struct game_reply reply;

/* A command as the arbiter (or an assistant) gives it; its reply in `reply`, checked as the
 * socket would send it (reply_check.h). */
static enum reply_code give(enum game_command_kind kind, enum game_role role, int color)
{
	struct game_command c = {.kind = kind, .role = role, .color = color};
	struct strbuf line = {0};

	snprintf(c.author, sizeof(c.author), "%s", role == ROLE_ARBITER ? "arb" : "asst");
	c.white_moves = c.black_moves = -1;
	referee_command(t->r, &c, t->now, &reply);
	referee_flush(t->r, t->now);
	control_reply(&line, &reply);
	if (!line.p || reply_check_line(line.p))
		fail_msg("%s", line.p ? reply_check_line(line.p) : "no reply");
	free(line.p);
	return reply.code;
}

static const char *arg_s(const char *key)
{
	const struct reply_arg *a = game_reply_find(&reply, key);

	if (!a)
		return NULL;
	if (a->number)
		fail_msg("%s is a number", key);
	return reply.pool + a->at;
}

static int64_t arg_n(const char *key)
{
	const struct reply_arg *a = game_reply_find(&reply, key);

	if (!a || !a->number)
		fail_msg("no number %s in %s", key, reply.text);
	return a->n;
}

static void open_game(enum rules_edition edition, const char *tc)
{
	referee_settings_defaults(&t->set);
	t->set.next.edition = edition;
	t->set.next.mode = GAME_TOURNAMENT;
	rt_open(t, W, tc, NULL);
}

/* 1. e4 made and completed by White's press, 1... e5 on the board, Black's press made. */
static void first_moves(void)
{
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
}

/* `resume`: whose clock runs, and what a press while they stood completed (a move on the
 * tactile board, by its ply; or the opponent's move on their own board). */
static void test_resume(void **state)
{
	(void)state;
	open_game(RULES_2023, "600+10");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_int_equal(give(CMD_PAUSE, ROLE_ARBITER, -1), REPLY_CLOCKS_PAUSED);
	assert_int_equal(give(CMD_RESUME, ROLE_ARBITER, -1), REPLY_CLOCKS_RUNNING);
	assert_string_equal(arg_s("color"), "white");
	assert_string_equal(reply.text, "clocks running: white's");
	give(CMD_PAUSE, ROLE_ARBITER, -1);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(give(CMD_RESUME, ROLE_ARBITER, -1), REPLY_CLOCKS_RUNNING_PRESS);
	assert_string_equal(arg_s("color"), "black");
	assert_string_equal(arg_s("pressed_color"), "white");
	assert_int_equal(arg_n("ply"), 1);
	assert_string_equal(arg_s("name"), "1. e4");
	assert_string_equal(reply.text, "clocks running: black's; white pressed while they stood, "
					"completing 1. e4 (no reading, no increment), so white's "
					"clock no longer runs");
	give(CMD_PAUSE, ROLE_ARBITER, -1);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* 1... e5 on Black's board only */
	assert_int_equal(give(CMD_RESUME, ROLE_ARBITER, -1), REPLY_CLOCKS_RUNNING_PRESS_UNSEEN);
	assert_string_equal(arg_s("color"), "white");
	assert_string_equal(arg_s("pressed_color"), "black");
	assert_null(game_reply_find(&reply, "ply"));
	assert_string_equal(reply.text, "clocks running: white's; black pressed while they stood, "
					"completing their move on the opponent's board (no "
					"reading, no increment), so black's clock no longer runs");
	assert_int_equal(give(CMD_RESUME, ROLE_ARBITER, -1), REPLY_CLOCKS_NOT_PAUSED);
}

/* 6.4: a flag with the period's moves made and not all completed is the arbiter's to
 * decide; `approve` says so with the article. */
static void test_flag_undecided(void **state)
{
	(void)state;
	rt_open(t, W, "2/20:20", NULL);
	first_moves();
	rt_move(t, "g1", "f3");			 /* White forgets to press */
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* Black's press after Nc6: ignored */
	rt_move(t, "b8", "c6");
	rt_move(t, "f1", "c4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_wait(t, 30000); /* Black's clock runs out */
	assert_int_equal(give(CMD_APPROVE, ROLE_ASSISTANT, -1), REPLY_FLAG_UNDECIDED);
	assert_false(reply.ok);
	assert_string_equal(arg_s("color"), "black");
	assert_string_equal(arg_s("article"), "6.4");
	assert_string_equal(reply.text,
			    "black's flag fell with the period's moves made and not all completed "
			    "(6.4): the arbiter decides (result, or clock set and resume)");
}

/* 7.5.5 and 7.1 on a move: the ply, the penalty with its article, the clocks after it, and
 * what was taken back (the increment and the period's time, one move on the counter). */
static void test_illegal_move(void **state)
{
	char want[GAME_REPLY_MAX];

	(void)state;
	open_game(RULES_2023, "2/300+10:60+10");
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, W), REPLY_ILLEGAL_NO_MOVE);
	assert_string_equal(arg_s("color"), "white");
	assert_string_equal(reply.text, "no completed move or press of white to rule on");
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, -1), REPLY_ILLEGAL_NO_MOVE_ANY);
	assert_string_equal(reply.text, "no completed move or press of either side to rule on");
	first_moves();
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK); /* move 2: +10 s and the next period's 60 s */
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, W), REPLY_ILLEGAL_RULED);
	assert_int_equal(arg_n("ply"), 3);
	assert_string_equal(arg_s("name"), "2. Nf3");
	assert_string_equal(arg_s("color"), "white");
	assert_int_equal(arg_n("count"), 1);
	assert_string_equal(arg_s("penalty"), "0:01:00");
	assert_int_equal(arg_n("penalty_ms"), 60 * SEC);
	assert_string_equal(arg_s("other_color"), "black");
	assert_string_equal(arg_s("article"), "7.5.5, A.3");
	assert_int_equal(arg_n("white_moves"), 1);
	assert_int_equal(arg_n("black_moves"), 1);
	assert_string_equal(arg_s("white_back"), "0:01:10");
	assert_int_equal(arg_n("white_back_moves"), 1);
	assert_null(game_reply_find(&reply, "black_back"));
	assert_null(game_reply_find(&reply, "black_back_moves"));
	assert_string_equal(arg_s("taken_back"), "White 0:01:10 and 1 move");
	snprintf(want, sizeof(want),
		 "2. Nf3 illegal: white's illegal move number 1; +0:01:00 to black (7.5.5, A.3); "
		 "clocks White %s, Black %s, moves 1/1; taken back: White 0:01:10 and 1 move",
		 arg_s("white"), arg_s("black"));
	assert_string_equal(reply.text, want);
}

/* Without a clock: no clocks and nothing taken back in the reply. */
static void test_illegal_move_without_clock(void **state)
{
	(void)state;
	open_game(RULES_2023, "-");
	rt_move(t, "e2", "e4");
	rt_move(t, "e7", "e5");
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, B), REPLY_ILLEGAL_RULED);
	assert_int_equal(arg_n("ply"), 2);
	assert_string_equal(arg_s("name"), "1... e5");
	assert_int_equal(arg_n("penalty_ms"), 0);
	assert_null(game_reply_find(&reply, "white"));
	assert_null(game_reply_find(&reply, "taken_back"));
	assert_non_null(strstr(reply.text, "1... e5 illegal: black's illegal move number 1; "
					   "+0:00:00 to white ("));
	assert_null(strstr(reply.text, "clocks"));
}

/* 7.5.3 on a press with no move: the press's kind for a page to word (`press`, as status
 * names it) and its English (`detail`); the second ends the game. */
static void test_illegal_press(void **state)
{
	(void)state;
	open_game(RULES_2023, "300+5");
	first_moves();
	t->now += 2000;
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK); /* no move */
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, -1), REPLY_ILLEGAL_PRESS_RULED);
	assert_null(game_reply_find(&reply, "ply"));
	assert_null(game_reply_find(&reply, "name"));
	assert_string_equal(arg_s("color"), "white");
	assert_string_equal(arg_s("press"), "empty");
	assert_string_equal(arg_s("detail"), "with no move made");
	assert_int_equal(arg_n("count"), 1);
	assert_string_equal(arg_s("penalty"), "0:01:00");
	assert_string_equal(arg_s("article"), "7.5.5, B.3 (A.3)");
	assert_string_equal(arg_s("white_back"), "0:00:05");
	assert_null(game_reply_find(&reply, "white_back_moves"));
	assert_string_equal(arg_s("taken_back"), "White 0:00:05");
	assert_non_null(strstr(reply.text, "white's press with no move made illegal: white's "
					   "illegal move number 1; +0:01:00 to black (7.5.5, B.3 "
					   "(A.3)); clocks White "));
	t->now += 2000;
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK); /* again no move */
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, W), REPLY_ILLEGAL_PRESS_ENDS);
	assert_string_equal(arg_s("press"), "empty");
	assert_int_equal(arg_n("count"), 2);
	assert_string_equal(arg_s("result"), "0-1");
	assert_string_equal(
	    reply.text, "white's press with no move made illegal: white's illegal move number 2 "
			"ends the game: 0-1 (7.5.5, B.3 (A.3))");
	assert_string_equal(rt_game(t)->result.result, "0-1");
}

/* The opponent's press whose move is not on the tactile board, and a move ending the game
 * at once (2005 blitz, C3). */
static void test_2005_blitz(void **state)
{
	(void)state;
	open_game(RULES_2005, "720+0");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* Black's move not on the tactile board */
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, B), REPLY_ILLEGAL_PRESS_ENDS);
	assert_string_equal(arg_s("press"), "move");
	assert_string_equal(arg_s("article"), "C3");
	assert_string_equal(reply.text, "black's press whose move is not on the tactile board "
					"illegal: black's illegal move number 1 ends the game: 1-0 "
					"(C3)");
	rt_close(t);
	memset(t, 0, sizeof(*t));
	open_game(RULES_2005, "720+0");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, W), REPLY_ILLEGAL_ENDS);
	assert_int_equal(arg_n("ply"), 1);
	assert_string_equal(arg_s("name"), "1. e4");
	assert_string_equal(arg_s("result"), "0-1");
	assert_string_equal(reply.text,
			    "1. e4 illegal: white's illegal move number 1 ends the game: 0-1 (C3)");
}

/* 2005: a press with no move is no illegal move; B6: too late once the opponent moved. */
static void test_2005_refusals(void **state)
{
	(void)state;
	open_game(RULES_2005, "5400+30");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, W), REPLY_EMPTY_PRESS_NOT_ILLEGAL);
	assert_string_equal(arg_s("color"), "white");
	assert_string_equal(arg_s("edition"), "2005");
	assert_string_equal(arg_s("article"), "6.8 a");
	assert_string_equal(reply.text, "white's press with no move made: not an illegal move in "
					"the 2005 Laws (no article like 7.5.3; 6.8 a); set the "
					"clocks with clock set");
	rt_close(t);
	memset(t, 0, sizeof(*t));
	open_game(RULES_2005, "900+0");
	first_moves();
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, W), REPLY_ILLEGAL_TOO_LATE);
	assert_int_equal(arg_n("ply"), 1);
	assert_string_equal(arg_s("name"), "1. e4");
	assert_string_equal(arg_s("color"), "white");
	assert_string_equal(arg_s("other_color"), "black");
	assert_string_equal(arg_s("edition"), "2005");
	assert_string_equal(reply.text,
			    "1. e4: black has moved since; under 2005 the illegal move stands "
			    "(7.4 b, B6)");
}

/* 2005 B6 (rapid) and C3 (blitz): after the tactile player's illegal move, the opponent's
 * reply reaches the device only as a press (the board is wrong, so it cannot be relayed);
 * that press closes the window for `illegal` as a reply on the tactile board does. */
static void test_2005_opponent_press_closes_the_window(void **state)
{
	(void)state;
	for (int k = 0; k < 2; k++) {
		open_game(RULES_2005, k ? "300+0" : "900+0");
		rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
		rt_move(t, "e2", "e5"); /* a board no legal move explains */
		rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
		assert_true(rt_game(t)->open_press[W].open);
		/* Black replies on their own board and presses: the move stands. */
		rt_wait(t, 3 * SEC);
		rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
		assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, W), REPLY_ILLEGAL_PRESS_TOO_LATE);
		assert_string_equal(arg_s("color"), "white");
		assert_string_equal(arg_s("other_color"), "black");
		assert_string_equal(arg_s("article"), k ? "C3" : "7.4 b, B6");
		assert_int_equal(rt_game(t)->illegal_count[W], 0);
		rt_close(t);
		memset(t, 0, sizeof(*t));
	}
	/* Before Black's press it is ruled. */
	open_game(RULES_2005, "900+0");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e5");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(give(CMD_ILLEGAL, ROLE_ARBITER, W), REPLY_ILLEGAL_PRESS_RULED);
}

/* 6.10.2: a game started as 5400+0 instead of 40/5400+30:1800+30 gets its increments from
 * the arbiter's `clock control` on: journaled, replayed, the TimeControl tag follows; the
 * readings stand (clock set corrects them). */
static void test_clock_control(void **state)
{
	const struct game *g;
	int64_t white;

	(void)state;
	open_game(RULES_2023, "5400+0");
	first_moves(); /* 1. e4 e5, Black pressed: White's clock runs */
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "clock control 40/5400+30:1800+30"), -1);
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock control 40/5400+30:1800"), 0);
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock control 40/5400+30:1800+30"), 0);
	assert_logged(" REPLY ok time control 40/5400+30:1800+30 from now on; the times and move "
		      "counters stand (clock set corrects them)\n");
	g = rt_game(t);
	assert_string_equal(g->params.time_control, "40/5400+30:1800+30");
	assert_int_equal(g->tc.periods[0].extra_ms, 30 * SEC);
	assert_non_null(strstr(last_record("clock-control"), " 40/5400+30:1800+30 "));
	rt_wait(t, 5 * SEC);
	rt_move(t, "g1", "f3");
	white = clock_remaining(&g->clock, W, t->now);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(clock_remaining(&rt_game(t)->clock, W, t->now), white + 30 * SEC);
	assert_replays();
	/* Bad controls are refused, naming what is wrong. */
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock control 40/5400x"), -1);
	assert_logged(" REPLY error '40/5400x' is no time control for this game: column ");
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock control -"), -1);
	assert_logged("a game with a clock keeps one");
}

/* The arbiter's move counters settle the moves before them: a move waiting for its press
 * when they were set is not counted again by that press (3/20:2/30:60 gave the next
 * period's time one move early). */
static void test_counters_settle_the_waiting_move(void **state)
{
	const struct game *g;

	(void)state;
	open_game(RULES_2023, "3/20:2/30:60");
	first_moves();
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "b8", "c6");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "f1", "c4"); /* White's third move, waiting for its press */
	assert_int_equal(rt_control(t, ROLE_ARBITER, "pause"), 0);
	/* The arbiter counts it: White 3 moves, Black 2; the times as they should be. */
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock set 0:00:45 0:00:15 3 2"), 0);
	assert_non_null(strstr(last_record("clock-set"), " counters"));
	g = rt_game(t);
	assert_int_equal(g->clock.moves[W], 3);
	assert_int_equal(g->clock.period[W], 1);
	/* The clocks run for Black, whose move it is; White's press never came. */
	assert_int_equal(rt_control(t, ROLE_ARBITER, "resume"), 0);
	rt_move(t, "d7", "d6");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "d2", "d3"); /* completes 3. Bc4 (6.2.1.2): already counted */
	g = rt_game(t);
	assert_true(g->plies[4].flags & GAME_PLY_COMPLETE);
	assert_int_equal(g->clock.moves[W], 3);
	assert_int_equal(g->clock.moves_in_period[W], 0);
	assert_int_equal(g->clock.period[W], 1);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK); /* completes 4. d3: the first of period 2 */
	g = rt_game(t);
	assert_int_equal(g->clock.moves[W], 4);
	assert_int_equal(g->clock.moves_in_period[W], 1);
	assert_int_equal(g->clock.period[W], 1);
	assert_replays();
}

/* clock add: the usual two minutes to one side in one command. */
static void test_clock_add(void **state)
{
	int64_t white, black;

	(void)state;
	open_game(RULES_2023, "900+0");
	first_moves();
	assert_int_equal(rt_control(t, ROLE_ARBITER, "pause"), 0);
	white = clock_remaining(&rt_game(t)->clock, W, t->now);
	black = clock_remaining(&rt_game(t)->clock, B, t->now);
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock add black 0:02:00"), 0);
	assert_logged(" REPLY ok 0:02:00 added to black's clock: White ");
	assert_int_equal(clock_remaining(&rt_game(t)->clock, W, t->now), white);
	assert_int_equal(clock_remaining(&rt_game(t)->clock, B, t->now), black + 120 * SEC);
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock add blue 0:02:00"), -1);
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock add white 0:00:00"), -1);
	assert_replays();
}

/* 6.3.2 in delay mode: the main time left at a period's end is carried into the next (only
 * the unused delay is not saved), and the player hears how much; the arbiter is told when
 * such a control is set. */
static void test_delay_period_carries_main_time(void **state)
{
	const struct game *g;

	(void)state;
	open_game(RULES_2023, "2/20d5:60d5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 8 * SEC); /* 5 s delay, then 3 s of main time */
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 2 * SEC);
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK); /* White's period ends with 17 s left */
	g = rt_game(t);
	assert_int_equal(g->clock.period[W], 1);
	assert_true(clock_remaining(&g->clock, W, t->now) > 76 * SEC);
	assert_logged(" SAY private period-carried-white\n");
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock control 2/20d5:60d5"), 0);
	assert_logged("; at the end of 1 period with a delay the main time left is carried into "
		      "the next (6.3.2)\n");
	assert_replays();
}

/* A no-show is a forfeit, not a loss on the clock, though its reason names the default time
 * (6.7.1); a flag waiting for the arbiter has its reason in status. */
static void test_absent_and_flag_reasons(void **state)
{
	(void)state;
	open_game(RULES_2023, "900+0");
	assert_int_equal(
	    rt_control(t, ROLE_ARBITER, "result 1-0 absent (6.7.1, default time 0:15)"), 0);
	assert_int_equal(rt_game(t)->result.termination, TERMINATION_ABANDONED);
	rt_close(t);
	memset(t, 0, sizeof(*t));
	open_game(RULES_2023, "10+0");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 11 * SEC);
	assert_int_equal(rt_game(t)->result.state, RESULT_FLAG_PENDING);
	assert_string_equal(rt_game(t)->result.reason, "white's flag fell");
}

/* 9.5.3, and 9.5 b with the claimant's time cut. */
static void test_claim_rejected(void **state)
{
	struct game_command claim = {
	    .kind = CMD_CLAIM, .role = ROLE_ASSISTANT, .color = -1, .claim = CLAIM_THREEFOLD};

	(void)state;
	snprintf(claim.author, sizeof(claim.author), "asst");
	claim.white_moves = claim.black_moves = -1;
	open_game(RULES_2023, "5400+0");
	first_moves();
	rt_command(t, &claim);
	assert_int_equal(give(CMD_RULING, ROLE_ARBITER, -1), REPLY_CLAIM_REJECTED);
	assert_string_equal(arg_s("color"), "black");
	assert_string_equal(arg_s("article"), "9.5.3");
	assert_null(game_reply_find(&reply, "claimant_color"));
	assert_string_equal(reply.text,
			    "claim rejected: +0:02:00 to black (9.5.3); the clocks run");
	rt_close(t);
	memset(t, 0, sizeof(*t));
	open_game(RULES_2005, "5400+0");
	first_moves();
	rt_command(t, &claim);
	assert_int_equal(give(CMD_RULING, ROLE_ARBITER, -1), REPLY_CLAIM_REJECTED);
	assert_string_equal(arg_s("penalty"), "0:03:00");
	assert_int_equal(arg_n("penalty_ms"), 180 * SEC);
	assert_string_equal(arg_s("article"), "9.5 b");
	assert_string_equal(arg_s("claimant_color"), "white");
	assert_non_null(arg_s("cut_from"));
	assert_non_null(strstr(reply.text, "claim rejected: +0:03:00 to black (9.5 b), white's "
					   "time cut from "));
	assert_non_null(strstr(reply.text, arg_s("cut_to")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_resume, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_flag_undecided, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_move, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_move_without_clock, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_press, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_2005_blitz, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_2005_refusals, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_2005_opponent_press_closes_the_window, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_clock_control, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_counters_settle_the_waiting_move, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_add, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_absent_and_flag_reasons, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_delay_period_carries_main_time, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_claim_rejected, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
