/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Irregularities as the Laws handle them, in the referee: relayed moves (D.2.10) and their
 * corrections (D.2.8), the scoresheets compared and the game retraced (D.2.9), illegal moves
 * and their penalties in every edition (7.5), the arbiter's clocks (6.10.2, 7.1), claims
 * ruled (9.5), and the board cases that went wrong (issue: a press of an impossible board,
 * the player's own board, a move changed before the press, a pending promotion, a press
 * with no move, readings on the right move).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game/compare.h"
#include "tests/unit/referee_cases.h"

static struct game_command cmd(enum game_command_kind kind, enum game_role role)
{
	struct game_command c = {.kind = kind, .role = role, .color = -1};

	snprintf(c.author, sizeof(c.author), "%s", role == ROLE_ARBITER ? "arb" : "asst");
	c.white_moves = c.black_moves = -1;
	return c;
}

static void relay(const char *move)
{
	struct game_command c = cmd(CMD_MOVE, ROLE_ASSISTANT);

	snprintf(c.move, sizeof(c.move), "%s", move);
	rt_command(t, &c);
}

/* ------------------------------------------------------------------ relayed moves */

static void test_relayed_move(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	relay("Sf6"); /* German letters */
	assert_logged(" REPLY ok 1... Nf6 relayed");
	assert_logged(" MOVE g8f6\n");
	assert_string_equal(last_record("relayed"), "asst 2 g8f6 Nf6");
	/* The tactile board shows it afterwards: no second announcement. */
	clear_log();
	rt_move(t, "g8", "f6");
	rt_wait(t, 4000);
	assert_not_logged("MOVE");
	assert_not_logged("mismatch");
	assert_int_equal(game_plies(rt_game(t)), 2);
	/* The board goes on: the player's next move is read from it. */
	rt_move(t, "b1", "c3");
	assert_string_equal(san(2), "Nc3");
	assert_replays();
}

static void test_relayed_move_not_on_the_board(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_move(t, "e2", "e4");
	relay("e7e5"); /* UCI */
	/* The player replicates another move: the mismatch flow opens. */
	rt_move(t, "d7", "d5");
	rt_wait(t, 4000);
	assert_logged(" SAY private mismatch\n");
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" GUIDE d5 empty");
	rt_move(t, "d5", "d7");
	rt_move(t, "e7", "e5");
	assert_logged(" SAY private board-restored\n");
	assert_int_equal(rt_game(t)->mismatch.state, MISMATCH_NONE);
	assert_replays();
}

static void test_relay_corrected_before_the_press(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	relay("e5");
	relay("e5");
	assert_logged(" REPLY ok 1... e5 is in the game already");
	relay("c5");
	assert_logged(" REPLY ok 1... c5 relayed as a correction");
	assert_string_equal(san(1), "c5");
	assert_non_null(strstr(last_record("withdrawn"), "asst 2 e7e5"));
	assert_int_equal(rt_game(t)->note_count, 1);
	assert_non_null(strstr(rt_game(t)->notes[0].text, "1... e5"));
	/* After the opponent's press the move stands (D.2.8). */
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	relay("d5");
	assert_logged(" REPLY error 1... c5 was completed by the opponent's press");
	relay("Ke2");
	assert_logged(" REPLY error 'Ke2' is not a legal move for black");
	assert_replays();
}

/* ------------------------------------------------------------------ D.2.9 */

static void play_opening(void)
{
	rt_move(t, "e2", "e4");
	rt_move(t, "e7", "e5");
	rt_move(t, "g1", "f3");
	rt_move(t, "b8", "c6");
	rt_move(t, "f1", "b5");
}

static void test_compare(void **state)
{
	struct game_comparison c;
	char err[80];

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	play_opening();
	assert_int_equal(game_compare(rt_game(t), "1. e4 e5 2. Sf3 Sc6 3. Lb5", NULL, &c, err, 80),
			 0);
	assert_int_equal(c.agree, 5);
	assert_false(c.differ);
	assert_int_equal(game_compare(rt_game(t), "e4 e5 Nf3 Nf6 {hm} Bc4 (=)", NULL, &c, err, 80),
			 0);
	assert_int_equal(c.agree, 3);
	assert_true(c.differ);
	assert_int_equal(c.move_number, 2);
	assert_string_equal(c.device, "Nc6");
	assert_string_equal(c.theirs, "Nf6");
	assert_int_equal(c.their_plies, 5);
	assert_int_equal(game_compare(rt_game(t), "1.e4 e5 2.Nf3", NULL, &c, err, 80), 0);
	assert_int_equal(c.agree, 3);
	assert_true(c.differ); /* theirs ends first */
	assert_string_equal(c.theirs, "");
	assert_int_equal(game_compare(rt_game(t), "1. e4 e5 2. Ke3", NULL, &c, err, 80), 0);
	assert_true(c.unreadable);
	assert_string_equal(c.unreadable_word, "Ke3");
	/* A Dutch scoresheet (Paard: P) read in Dutch; in German its P is no piece. */
	assert_int_equal(game_compare(rt_game(t), "1. e4 e5 2. Pf3 Pc6 3. Lb5", "nl", &c, err, 80),
			 0);
	assert_int_equal(c.agree, 5);
	assert_false(c.unreadable);
	assert_int_equal(game_compare(rt_game(t), "1. e4 e5 2. Pf3", "de", &c, err, 80), 0);
	assert_true(c.unreadable);
	assert_string_equal(c.unreadable_word, "Pf3");
}

static void test_compare_promotion_letters(void **state)
{
	struct game_comparison c;
	char err[80];

	(void)state;
	rt_open(t, CHESS_WHITE, "-", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
	rt_move(t, "a7", "a8");
	rt_press(t, GAME_BUTTON_SELECT);
	rt_wait(t, 4000);
	assert_string_equal(san(0), "a8=Q+");
	assert_int_equal(game_compare(rt_game(t), "1. a8D+", NULL, &c, err, 80), 0);
	assert_int_equal(c.agree, 1);
	assert_int_equal(game_compare(rt_game(t), "1. a8=Q", NULL, &c, err, 80), 0);
	assert_int_equal(c.agree, 1);
	assert_int_equal(game_compare(rt_game(t), "1. a8S", NULL, &c, err, 80), 0);
	assert_int_equal(c.agree, 0);
	assert_string_equal(c.theirs, "a8=N");
}

static void test_rollback_and_set_up(void **state)
{
	struct game_command c = cmd(CMD_ROLLBACK, ROLE_ARBITER);

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	/* On an empty game the message was "rollback takes 0..-1". */
	rt_control(t, ROLE_ARBITER, "rollback 99");
	assert_logged(" REPLY error the game has no moves yet: there is nothing to roll back\n");
	rt_control(t, ROLE_ARBITER, "rollback 0");
	assert_not_logged("-1");
	assert_int_equal(t->nrec, 1); /* the game record: nothing else */
	play_opening();
	c.ply = 9;
	rt_command(t, &c);
	assert_logged(
	    " REPLY error the game has 5 plies: rollback takes a ply from 0 (the start) to 4\n");
	c.ply = 3;
	clear_log();
	rt_command(t, &c);
	assert_logged(" REPLY ok retraced to ply 3 (after 2. Nf3); 2 later plies kept");
	assert_int_equal(game_plies(rt_game(t)), 3);
	assert_int_equal(rt_game(t)->mismatch.state, MISMATCH_SETUP);
	assert_non_null(strstr(rt_game(t)->notes[0].text, "2... Nc6 3. Bb5"));
	/* Guided privately, square by square, each square named with its piece. */
	assert_logged(" SAY private setup\n");
	assert_logged(" GUIDE f1 occupied B\n");
	clear_log();
	rt_lift(t, "b5");
	rt_place(t, "f1");
	rt_wait(t, 300);
	assert_logged(" GUIDE f1 occupied B confirmed\n");
	clear_log();
	rt_lift(t, "c6");
	rt_place(t, "b8");
	rt_wait(t, 500);
	assert_logged(" SAY private setup-done\n");
	assert_int_equal(rt_game(t)->mismatch.state, MISMATCH_NONE);
	/* Moves count again. */
	rt_move(t, "g8", "f6");
	assert_string_equal(san(3), "Nf6");
	assert_replays();
}

static void test_set_up_survives_a_restart(void **state)
{
	struct game_command c = cmd(CMD_ROLLBACK, ROLE_ARBITER);
	struct game_sink none = {0};
	struct referee *fresh;
	struct game_event ready = {.kind = GAME_EV_BOARD_READY};
	const struct game *g;

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	play_opening();
	c.ply = 3;
	rt_command(t, &c);
	rt_lift(t, "b5");
	rt_place(t, "f1");
	/* The power goes in the middle of the set-up. */
	fresh = referee_new(&t->set, &none);
	assert_int_equal(rt_replay(t, 0, t->nrec, fresh), 0);
	referee_start(fresh, 0);
	g = referee_game(fresh);
	assert_int_equal(g->mismatch.state, MISMATCH_SETUP);
	ready.sensed =
	    chess_pos_occupancy(game_position(g)) ^ (1ull << rt_sq("c6")) ^ (1ull << rt_sq("b8"));
	referee_handle(fresh, &ready);
	/* The knight still on c6: no moves are read until the board matches. */
	assert_int_equal(referee_board_differences(fresh) != 0, 1);
	referee_free(fresh);
}

/* ------------------------------------------------------------------ 7.5 */

/* The edition's penalty for a completed illegal move, by kind of game (standard, rapid,
 * blitz), and the move that loses. */
static void test_illegal_penalties_every_edition(void **state)
{
	static const struct {
		enum rules_edition edition;
		const char *tc;
		int64_t penalty;
		int losing;
	} cases[] = {
	    {RULES_2023, "5400+30", 120000, 2}, {RULES_2023, "900+10", 60000, 2},
	    {RULES_2023, "180+2", 60000, 2},	{RULES_2018, "5400+30", 120000, 2},
	    {RULES_2018, "900+10", 120000, 2},	{RULES_2018, "180+2", 60000, 2},
	    {RULES_2005, "5400+30", 120000, 3}, {RULES_2005, "900+10", 120000, 3},
	    {RULES_2005, "180+2", 0, 1}, /* C3: the opponent's claim of the win */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct game_command c = cmd(CMD_ILLEGAL, ROLE_ARBITER);
		int64_t before;

		memset(t, 0, sizeof(*t));
		referee_settings_defaults(&t->set);
		t->set.next.edition = cases[i].edition;
		rt_open(t, CHESS_WHITE, cases[i].tc, NULL);
		rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
		for (int n = 1; n <= cases[i].losing; n++) {
			rt_move(t, "e2", "e4");
			rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
			before = clock_remaining(&rt_game(t)->clock, CHESS_BLACK, t->now);
			c.color = CHESS_WHITE;
			rt_command(t, &c);
			assert_int_equal(rt_game(t)->illegal_count[CHESS_WHITE], n);
			if (n < cases[i].losing) {
				/* Retraced: White to move, White's clock running, Black given the
				 * penalty. */
				assert_int_equal(game_plies(rt_game(t)), 0);
				assert_int_equal(rt_game(t)->clock.running, CHESS_WHITE);
				assert_int_equal(
				    clock_remaining(&rt_game(t)->clock, CHESS_BLACK, t->now) -
					before,
				    cases[i].penalty);
				rt_move(t, "e4", "e2"); /* set up again */
				rt_wait(t, 500);
				assert_int_equal(rt_game(t)->mismatch.state, MISMATCH_NONE);
			} else {
				assert_true(game_over(rt_game(t)));
				assert_string_equal(rt_game(t)->result.result, "0-1");
				assert_int_equal(rt_game(t)->result.termination,
						 TERMINATION_RULES_INFRACTION);
			}
		}
		assert_replays();
		rt_close(t);
	}
}

/* 7.5.5: the losing illegal move is a draw when the opponent cannot checkmate. */
static void test_illegal_draw_without_mating_material(void **state)
{
	struct game_command c = cmd(CMD_ILLEGAL, ROLE_ARBITER);

	(void)state;
	rt_open(t, CHESS_WHITE, "-", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
	for (int n = 0; n < 2; n++) {
		rt_move(t, "d2", "d3");
		c.color = CHESS_WHITE;
		rt_command(t, &c);
		if (n == 0) {
			rt_move(t, "d3", "d2");
			rt_wait(t, 500);
		}
	}
	assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
}

static void test_claim_ruling(void **state)
{
	struct game_command claim = cmd(CMD_CLAIM, ROLE_ASSISTANT);
	struct game_command rule = cmd(CMD_RULING, ROLE_ARBITER);
	int64_t white;

	(void)state;
	rt_open(t, CHESS_BLACK, "5400+30", NULL);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rule.upheld = false;
	rt_command(t, &rule);
	assert_logged(" REPLY error no claim to rule on");
	claim.claim = CLAIM_FIFTY;
	white = clock_remaining(&rt_game(t)->clock, CHESS_WHITE, t->now);
	assert_true(white > 5400000 && white < 5400000 + 30000); /* e4 took under 30 s */
	rt_command(t, &claim);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_PAUSED);
	rt_command(t, &rule);
	/* 9.5.3: the claimant's opponent gets the penalty; the clocks run again. */
	assert_logged(" REPLY ok claim rejected: +0:02:00 to white (9.5.3); the clocks run");
	assert_logged(" SAY private claim-rejected\n");
	assert_int_equal(rt_game(t)->clock.state, CLOCK_RUNNING);
	assert_int_equal(clock_remaining(&rt_game(t)->clock, CHESS_WHITE, t->now), white + 120000);
	rt_command(t, &claim);
	rule.upheld = true;
	rt_command(t, &rule);
	assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
	assert_string_equal(rt_game(t)->result.reason, "fifty-move rule claimed (9.3)");
	assert_replays();
}

static void test_clock_set(void **state)
{
	struct game_command c = cmd(CMD_CLOCK_SET, ROLE_ARBITER);

	(void)state;
	rt_open(t, CHESS_WHITE, "40/5400+30:1800+30", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	c.white_ms = 3600000;
	c.black_ms = 1800000;
	c.white_moves = 39;
	c.black_moves = 38;
	rt_command(t, &c);
	assert_logged(" REPLY ok clocks set: White 1:00:00, Black 0:30:00");
	assert_int_equal(clock_remaining(&rt_game(t)->clock, CHESS_WHITE, t->now), 3600000);
	assert_int_equal(clock_remaining(&rt_game(t)->clock, CHESS_BLACK, t->now), 1800000);
	/* The next readings follow from it: Black completes move 39, then White move 40 (and
	 * the period, +30 min). */
	t->now += 10000;
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_true(rt_game(t)->plies[1].clk_ms > 1800000 - 11000 + 30000);
	assert_true(rt_game(t)->plies[1].clk_ms < 1800000 + 30000);
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_true(rt_game(t)->plies[2].clk_ms > 3600000 + 1800000);
	assert_replays();
}

/* ------------------------------------------------------------------ the clock's Laws */

/* 7.5.3: a press with no move made. */
static void test_press_without_a_move(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged(" SAY private press-no-move\n");
	assert_non_null(strstr(last_record("press"), "white empty "));
	assert_int_equal(rt_game(t)->empty_presses[CHESS_WHITE], 1);
	assert_int_equal(rt_game(t)->clock.running, CHESS_BLACK);
	assert_replays();
}

/* After a press with no move the player's next move is complete at once (their press came
 * first); a move the player makes while the opponent has only forgotten to press is not:
 * their own board stays theirs until their press (11.3.1). */
static void test_move_after_a_press_that_came_first(void **state)
{
	const struct game *g;

	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK); /* no move: 7.5.3 */
	rt_move(t, "e2", "e4");
	g = rt_game(t);
	assert_true(g->plies[0].flags & GAME_PLY_COMPLETE);
	assert_int_equal(g->plies[0].clk_ms, -1);
	assert_false(g->player_pressed_first);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	/* Black replicates, forgets to press; White goes on and then moves a second piece. */
	rt_move(t, "b8", "c6");
	rt_move(t, "f1", "c4");
	assert_false(g->plies[4].flags & GAME_PLY_COMPLETE);
	clear_log();
	rt_lift(t, "d2");
	rt_place(t, "d5");
	rt_wait(t, 6000);
	assert_not_logged("mismatch");
	assert_replays();
}

/* Readings belong to the move whose press they record: moves made before the clocks
 * started get none, and a later press no longer shifts readings onto earlier moves. */
static void test_readings_on_their_own_moves(void **state)
{
	const struct game *g;

	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_move(t, "e2", "e4"); /* before Black started the clocks */
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* the start */
	t->now += 3000;
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	t->now += 2000;
	rt_move(t, "b8", "c6");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	g = rt_game(t);
	assert_int_equal(g->plies[0].clk_ms, -1);
	assert_int_equal(g->plies[1].clk_ms, -1);
	assert_true(g->plies[2].clk_ms > 296000 && g->plies[2].clk_ms < 297000);
	assert_true(g->plies[3].clk_ms > 297000 && g->plies[3].clk_ms < 298000);
	assert_replays();
}

/* 6.3.2: time saved in a delay period is not carried over. */
static void test_delay_period_saves_nothing(void **state)
{
	struct time_control tc;
	struct chess_clock c;

	(void)state;
	assert_int_equal(time_control_parse("2/60d5:30d5", &tc, NULL, 0), 0);
	clock_init(&c, &tc);
	clock_press(&c, CHESS_BLACK, 0);
	clock_press(&c, CHESS_WHITE, 1000); /* within the delay: 60 s stay */
	clock_press(&c, CHESS_BLACK, 2000);
	clock_press(&c, CHESS_WHITE, 3000); /* move 2 ends the period: 30 s, not 90 */
	assert_int_equal(clock_remaining(&c, CHESS_WHITE, 3000), 30000);
	clock_init(&c, &tc);
	c.delay_carries_saved_time = true;
	clock_press(&c, CHESS_BLACK, 0);
	clock_press(&c, CHESS_WHITE, 1000);
	clock_press(&c, CHESS_BLACK, 2000);
	clock_press(&c, CHESS_WHITE, 3000);
	assert_int_equal(clock_remaining(&c, CHESS_WHITE, 3000), 90000);
}

/* ------------------------------------------------------------------ board cases */

/* 1: a press of a board no legal move explains opens the flow at once, before the
 * mismatch time. */
static void test_press_of_an_impossible_board(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_lift(t, "e1");  /* castling with only the king moved */
	rt_place(t, "g1"); /* (g1 is taken: the knight first, in a real board) */
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged(" SAY private mismatch\n");
	assert_non_null(strstr(last_record("press"), "white illegal "));
	assert_replays();
}

/* 2: the player's move made, then a second own piece moved before the press: nothing is
 * said before the press. */
static void test_second_own_piece_before_the_press(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_move(t, "d2", "d4");
	rt_wait(t, 10000);
	assert_not_logged("private mismatch");
	assert_int_equal(rt_game(t)->mismatch.state, MISMATCH_HELD);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged(" SAY private mismatch\n");
}

/* 9: no clock in tournament mode: the player's own impossible move is kept from them until
 * the opponent's reply reaches the board, or the pause button. */
static void test_own_move_without_a_clock(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_move(t, "e2", "e5");
	rt_wait(t, 10000);
	assert_not_logged("private mismatch");
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_logged(" SAY private mismatch\n");
	rt_close(t);
	clear_log();
	memset(t, 0, sizeof(*t));
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_move(t, "g1", "g3");
	rt_wait(t, 10000);
	assert_not_logged("private mismatch");
	rt_lift(t, "e7"); /* the opponent's reply replicated */
	assert_logged(" SAY private mismatch\n");
}

/* 3: a move changed after its announcement and before the press: a correction said before
 * the opponent's clock starts; the first move kept as a comment. */
static void test_move_changed_before_the_press(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e3");
	assert_logged(" MOVE e2e3\n");
	rt_move(t, "e3", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged(" MOVE e2e4\n");
	assert_int_equal(game_plies(rt_game(t)), 1);
	assert_string_equal(san(0), "e4");
	assert_true(rt_game(t)->plies[0].flags & GAME_PLY_COMPLETE);
	assert_non_null(strstr(last_record("withdrawn"), "device 1 e2e3"));
	assert_non_null(strstr(rt_game(t)->notes[0].text, "1. e3"));
	assert_int_equal(rt_game(t)->clock.running, CHESS_BLACK);
	assert_replays();
}

/* 4: a pending promotion is re-checked at every change: the pawn put back and another move
 * made instead. */
static void test_promotion_withdrawn(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", "4k3/P7/8/8/8/8/6P1/4K3 w - - 0 1");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "a7", "a8");
	assert_logged(" SAY private promotion-prompt\n");
	rt_move(t, "a8", "a7"); /* put back */
	assert_false(promotion_is_pending(&rt_game(t)->promotion));
	rt_move(t, "g2", "g4");
	assert_int_equal(game_plies(rt_game(t)), 1);
	assert_string_equal(san(0), "g4");
	assert_replays();
}

/* 8: after a power cut the board's events come back in their order: a pawn of the
 * opponent felt and put back, then the player's own pawn lifted, is no capture. */
static void test_events_in_order_after_a_restart(void **state)
{
	struct game_sink none = {0};
	struct referee *fresh;
	struct game_event ready = {.kind = GAME_EV_BOARD_READY};
	const struct game *g;

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_move(t, "e2", "e4");
	rt_move(t, "d7", "d5");
	rt_lift(t, "d5"); /* felt and put back */
	rt_place(t, "d5");
	rt_lift(t, "e4"); /* the power goes with the pawn in the hand */
	fresh = referee_new(&t->set, &none);
	assert_int_equal(rt_replay(t, 0, t->nrec, fresh), 0);
	referee_start(fresh, 0);
	g = referee_game(fresh);
	ready.sensed = chess_pos_occupancy(game_position(g)) & ~(1ull << rt_sq("e4"));
	referee_handle(fresh, &ready);
	/* The pawn goes to e5: a quiet move, not exd5. */
	{
		struct game_event ev = {
		    .kind = GAME_EV_SQUARE, .ms = 100, .index = rt_sq("e5"), .active = true};
		struct game_event tick = {.kind = GAME_EV_TICK, .ms = 1000};

		referee_handle(fresh, &ev);
		referee_handle(fresh, &tick);
	}
	assert_int_equal(game_plies(g), 3);
	assert_string_equal(g->plies[2].san, "e5");
	referee_free(fresh);
}

/* What a restarted referee says privately: its GAME_FX_SAY messages and their times. */
struct said {
	int count;
	enum game_msg msg[8];
	int64_t ms[8];
};

static void said_effect(void *user, const struct game_effect *fx)
{
	struct said *s = user;

	if (fx->kind == GAME_FX_SAY && s->count < 8) {
		s->msg[s->count] = fx->msg;
		s->ms[s->count++] = fx->has_clock ? fx->white_ms : -1;
	}
}

/* The journal so far read into a fresh referee, which resumes: a power cut on storage whose
 * records waited up to lag_ms to be on it. */
static struct referee *power_cut_lag(struct said *said, uint32_t lag_ms)
{
	struct game_sink sink = {.user = said, .effect = said_effect};
	struct referee *fresh = referee_new(&t->set, &sink);

	assert_non_null(fresh);
	assert_int_equal(rt_replay(t, 0, t->nrec, fresh), 0);
	referee_set_storage_lag(fresh, lag_ms);
	referee_start(fresh, 0);
	return fresh;
}

static struct referee *power_cut(struct said *said)
{
	return power_cut_lag(said, 0);
}

/* A power cut 20 s into a turn gives the player at most a checkpoint's 5 s
 * back, and the arbiter and the player are told; the clocks stand. */
static void test_power_cut_in_a_turn_loses_at_most_a_checkpoint(void **state)
{
	struct said said = {0};
	struct referee *fresh;
	const struct game *g;

	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* White's clock runs */
	rt_wait(t, 20000 - 180);		 /* 20 s into White's turn */
	fresh = power_cut(&said);
	g = referee_game(fresh);
	assert_int_equal(g->clock.state, CLOCK_PAUSED);
	assert_int_equal(clock_remaining(&g->clock, CHESS_WHITE, 0), 300000 - 20000);
	assert_int_equal(g->uncharged_ms, 0);
	assert_int_equal(g->uncharged_up_to_ms, GAME_CHECKPOINT_MS);
	assert_int_equal(g->uncharged_color, CHESS_WHITE);
	assert_false(g->clock_uncertain);
	assert_int_equal(said.count, 2);
	assert_int_equal(said.msg[0], GAME_MSG_RESUMED_AFTER_RESTART);
	assert_int_equal(said.msg[1], GAME_MSG_CLOCK_GAP_WHITE);
	assert_int_equal(said.ms[1], GAME_CHECKPOINT_MS);
	referee_free(fresh);
}

/* A record after the last checkpoint shows the clock ran at least that long more. */
static void test_restart_reports_uncharged_time(void **state)
{
	struct said said = {0};
	struct referee *fresh;
	const struct game *g;

	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 22000 - 180);
	rt_lift(t, "e2"); /* touched 2 s after the checkpoint at 20 s */
	fresh = power_cut(&said);
	g = referee_game(fresh);
	assert_int_equal(clock_remaining(&g->clock, CHESS_WHITE, 0), 300000 - 20000);
	assert_int_equal(g->uncharged_ms, 2000);
	assert_int_equal(g->uncharged_up_to_ms, GAME_CHECKPOINT_MS);
	assert_int_equal(g->uncharged_color, CHESS_WHITE);
	/* The arbiter's clock set settles it. */
	referee_free(fresh);
}

/* A gap belongs to the restart that found it: the arbiter's resumption settles it, and a
 * second restart while the clocks stand (here for the player's call) finds none and says
 * none. */
static void test_gap_belongs_to_its_restart(void **state)
{
	const struct game *g;
	size_t mark;

	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 20000 - 180);
	rt_restart(t);
	g = rt_game(t);
	assert_int_equal(g->uncharged_up_to_ms, GAME_CHECKPOINT_MS);
	assert_logged(" SAY private clock-gap-white\n");
	assert_int_equal(rt_control(t, ROLE_ARBITER, "resume"), 0);
	g = rt_game(t);
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	assert_int_equal(g->uncharged_ms, 0);
	assert_int_equal(g->uncharged_up_to_ms, 0);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_wait(t, 3000);
	rt_press(t, GAME_BUTTON_PAUSE); /* the player calls the arbiter: the clocks stand */
	assert_int_equal(rt_game(t)->clock.state, CLOCK_PAUSED);
	mark = t->log_len;
	rt_restart(t);
	g = rt_game(t);
	assert_int_equal(g->uncharged_ms, 0);
	assert_int_equal(g->uncharged_up_to_ms, 0);
	assert_null(strstr(t->log + mark, "clock-gap"));
}

static void restart_line(void *user, const struct game_record *rec);

/* On slow storage the last checkpoints may still have waited for their sync when
 * the power went: the bound covers the longest wait the journal noted, and a journal read
 * again (the restart record carries it) gives the same bound. */
static void test_restart_bound_covers_storage_lag(void **state)
{
	struct said said = {0};
	struct referee *fresh, *again;
	struct game_sink none = {0};
	char line[GAME_RECORD_MAX] = "";

	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 12000);
	fresh = power_cut_lag(&said, 640);
	assert_int_equal(referee_game(fresh)->uncharged_up_to_ms, GAME_CHECKPOINT_MS + 640);
	assert_int_equal(said.ms[1], GAME_CHECKPOINT_MS + 640);
	referee_free(fresh);
	/* The restart record journaled, read back: the same bound. */
	{
		struct game_sink sink = {.user = line, .record = restart_line};

		fresh = referee_new(&t->set, &sink);
		assert_non_null(fresh);
		assert_int_equal(rt_replay(t, 0, t->nrec, fresh), 0);
		referee_set_storage_lag(fresh, 640);
		referee_start(fresh, 0);
		referee_free(fresh);
	}
	assert_non_null(strstr(line, " 640"));
	again = referee_new(&t->set, &none);
	assert_non_null(again);
	assert_int_equal(rt_replay(t, 0, t->nrec, again), 0);
	{
		struct game_record rec;
		char err[128];

		assert_int_equal(game_record_decode(&rec, "restart", line, 0, err, sizeof(err)), 0);
		assert_int_equal(rec.u.restart.lag_ms, 640);
		assert_int_equal(referee_replay(again, &rec), 0);
	}
	assert_int_equal(referee_game(again)->uncharged_up_to_ms, GAME_CHECKPOINT_MS + 640);
	referee_free(again);
}

/* Two restarts at the same time with the same plies are two records, not one line twice
 * (six plain restarts in virtual time wrote identical lines, read back as a duplicate). */
static void restart_line(void *user, const struct game_record *rec)
{
	if (rec->type == REC_RESTART)
		assert_true(game_record_encode(rec, user, GAME_RECORD_MAX) > 0);
}

static void test_restart_records_differ(void **state)
{
	char lines[3][GAME_RECORD_MAX];

	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	for (int i = 0; i < 3; i++) {
		struct game_sink sink = {.user = lines[i], .record = restart_line};
		struct referee *fresh = referee_new(&t->set, &sink);

		assert_int_equal(rt_replay(t, 0, t->nrec, fresh), 0);
		referee_start(fresh, 0);
		referee_free(fresh);
		/* The restart's record is the journal's next line, as the store writes it. */
		snprintf(t->types[t->nrec], sizeof(t->types[0]), "restart");
		snprintf(t->args[t->nrec], sizeof(t->args[0]), "%.100s", lines[i]);
		t->ms[t->nrec++] = 0;
	}
	assert_string_equal(lines[0], "0 1");
	assert_string_equal(lines[1], "0 2");
	assert_string_equal(lines[2], "0 3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_relayed_move, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_relayed_move_not_on_the_board, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_relay_corrected_before_the_press, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_compare, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_compare_promotion_letters, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rollback_and_set_up, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_set_up_survives_a_restart, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_penalties_every_edition, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_draw_without_mating_material, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_claim_ruling, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_set, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_press_without_a_move, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_move_after_a_press_that_came_first, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_readings_on_their_own_moves, setup, teardown),
	    cmocka_unit_test(test_delay_period_saves_nothing),
	    cmocka_unit_test_setup_teardown(test_press_of_an_impossible_board, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_second_own_piece_before_the_press, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_own_move_without_a_clock, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_move_changed_before_the_press, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_promotion_withdrawn, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_events_in_order_after_a_restart, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_restart_reports_uncharged_time, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gap_belongs_to_its_restart, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_restart_bound_covers_storage_lag, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_power_cut_in_a_turn_loses_at_most_a_checkpoint,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_restart_records_differ, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
