/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee driven event by event (docs/arbiter.md "Behaviour the Laws ask for"; docs/control.md
 * "Control interface"): what it records and what it asks to be said, and that its records read back
 * into the same game.
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

static int count_records(const char *type)
{
	int n = 0;

	for (int i = 0; i < t->nrec; i++)
		n += !strcmp(t->types[i], type);
	return n;
}

static void command(enum game_command_kind kind, enum game_role role)
{
	struct game_command c = {.kind = kind, .role = role, .color = -1};

	snprintf(c.author, sizeof(c.author), "tester");
	rt_command(t, &c);
}

/* ------------------------------------------------------------------ moves */

static void test_moves_and_captures(void **state)
{
	(void)state;
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", NULL);
	assert_logged("1000 GAME_START");
	rt_move(t, "e2", "e4");
	rt_move(t, "d7", "d5");
	rt_capture(t, "e4", "d5"); /* the captured pawn off first */
	rt_lift(t, "d8");	   /* the capturing queen first */
	rt_lift(t, "d5");
	rt_place(t, "d5");
	rt_wait(t, 200);
	assert_int_equal(game_plies(rt_game(t)), 4);
	assert_string_equal(san(2), "exd5");
	assert_string_equal(san(3), "Qxd5");
	assert_logged(" MOVE e2e4\n");
	assert_logged(" MOVE d8d5\n");
	/* Without a clock a move is complete when made. */
	assert_int_equal(count_records("complete"), 4);
	assert_string_equal(last_record("complete"), "4 -1");
	assert_string_equal(last_record("made"), "4 d8d5 Qxd5 3"); /* of 3 board events */
	assert_string_equal(t->types[1], "lift");		   /* the touch of e2, in order */
	assert_string_equal(t->args[1], "e2 P");
	assert_replays();
}

/* Against a person, the tactile player's move is its announcement (D.2.3.3): said whole.
 * The opponent's move, which the opponent announced (D.2.1), may be cut by the next. */
static void test_which_moves_are_echoes(void **state)
{
	(void)state;
	t->now = 1000;
	rt_open(t, CHESS_BLACK, "-", NULL);
	rt_move(t, "e2", "e4");
	assert_true(t->last_move_echo);
	rt_move(t, "e7", "e5");
	assert_false(t->last_move_echo);
	assert_int_equal(t->last_move_report, 0);
	assert_replays();
}

static void test_repeat_and_info(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" SAY private nothing-to-repeat\n");
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" REPEAT g1f3\n");
	rt_press(t, GAME_BUTTON_INFO);
	assert_logged(" TIMES 0 0 1\n");
}

/* ------------------------------------------------------------------ the clock */

static void test_clock_readings(void **state)
{
	const struct game *g;

	(void)state;
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "300+2", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);    /* Black's press starts White's clock */
	assert_logged(" SAY private game-start\n"); /* GAME_MSG_GAME_START */
	t->now = 3000;
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	t->now = 10000;
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	g = rt_game(t);
	assert_int_equal(game_plies(g), 2);
	/* White ran from 1000 (the press went down at 1000) to 3400: 2.4 s, +2 s. */
	assert_int_equal(g->plies[0].clk_ms, 300000 - 2400 + 2000);
	assert_int_equal(g->plies[1].clk_ms, 300000 - (10400 - 3400) + 2000);
	assert_true(g->plies[1].flags & GAME_PLY_COMPLETE);
	assert_replays();
}

static void test_press_before_replication(void **state)
{
	const struct game *g;

	(void)state;
	rt_open(t, CHESS_WHITE, "60+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	/* The sighted opponent moves and presses before the move reaches the tactile board. */
	t->now += 5000;
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	g = rt_game(t);
	assert_int_equal(g->completion.early_presses.count, 1);
	rt_move(t, "c7", "c5");
	assert_int_equal(g->completion.early_presses.count, 0);
	assert_true(g->plies[1].flags & GAME_PLY_COMPLETE);
	assert_true(g->plies[1].clk_ms > 54000 && g->plies[1].clk_ms < 55000);
	assert_replays();
}

static void test_flag_at_deadline(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "10+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* White's clock runs from 0 */
	rt_wait(t, 20000);
	assert_logged("10000 SAY public flag-white\n"); /* at the deadline */
	assert_string_equal(rt_game(t)->result.flag_result, "0-1");
	assert_int_equal(rt_game(t)->result.state, RESULT_FLAG_PENDING);
	assert_int_equal(count_records("flag"), 1);
	assert_replays();
}

/* Regression: in real time a press can come after the flag's deadline before any tick saw
 * it; the flag is what happened (it was journaled as an idle press, and never said). */
static void test_flag_found_by_late_press(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "10+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	t->now = 12000; /* no tick since the deadline at 10000 */
	rt_event(t, GAME_EV_BUTTON, GAME_BUTTON_PLAYER_CLOCK, true);
	assert_logged("12000 SAY public flag-white\n");
	assert_non_null(last_record("flag"));
	assert_true(strncmp(last_record("flag"), "white 0-1 flagged", 17) == 0);
	assert_null(strstr(last_record("press"), "idle"));
	assert_replays();
}

/* Tournament mode: the player's pause stops the clocks to call the arbiter (6.11.2); it does
 * not start them again (6.11.3). */
static void test_pause_button(void **state)
{
	(void)state;
	rt_open(t, CHESS_BLACK, "600+0", NULL);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_PAUSED);
	assert_int_equal(rt_game(t)->stopped_by, STOP_PLAYER);
	assert_logged(" SAY private paused\n");
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_PAUSED);
	assert_logged(" SAY private arbiter-resumes\n");
	assert_null(last_record("resume"));
	assert_replays();
}

/* Casual mode: the button toggles. */
static void test_pause_button_casual(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->set.next.mode = GAME_CASUAL;
	rt_open(t, CHESS_BLACK, "600+0", NULL);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_PAUSED);
	assert_logged(" SAY private paused\n");
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_RUNNING);
	assert_int_equal(rt_game(t)->stopped_by, STOP_NONE);
	assert_logged(" SAY private resumed\n");
	assert_true(strncmp(last_record("resume"), "player running", 14) == 0);
	assert_replays();
}

/* ------------------------------------------------------------------ promotion */

#define PROMO_FEN "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"

static void test_promotion_needs_a_piece(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "60+0", PROMO_FEN);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "a7", "a8");
	assert_logged(" SAY private promotion-prompt\n"); /* choose a piece */
	assert_int_equal(game_plies(rt_game(t)), 0);
	/* Trap 2: a press before the choice is refused, never a silent queen. */
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged(" SAY private promotion-needed\n");
	assert_non_null(strstr(last_record("press"), "white refused "));
	assert_int_equal(game_plies(rt_game(t)), 0);
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" PIECE Q\n");
	assert_logged(" PIECE R\n");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(game_plies(rt_game(t)), 1);
	assert_string_equal(san(0), "a8=R+");
	assert_replays();
}

/* ------------------------------------------------------------------ mismatch */

static void test_impossible_move_held_until_press(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e5");
	rt_wait(t, 5000);
	/* Art. 11.3.1: nothing is said about the player's own board before their press. */
	assert_not_logged("private mismatch");
	assert_int_equal(rt_game(t)->mismatch.state, MISMATCH_HELD);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged(" SAY private mismatch\n");
	assert_non_null(strstr(last_record("press"), "white illegal "));
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" GUIDE e2 occupied P\n");
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" GUIDE e5 empty  \n");
	rt_move(t, "e5", "e4");
	assert_int_equal(game_plies(rt_game(t)), 1);
	assert_int_equal(rt_game(t)->mismatch.state, MISMATCH_NONE);
	assert_replays();
}

static void test_casual_mismatch_at_once(void **state)
{
	(void)state;
	t->set.next.mode = GAME_CASUAL;
	referee_settings_defaults(&t->set);
	t->set.next.mode = GAME_CASUAL;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e5");
	rt_wait(t, 3500);
	assert_logged(" SAY private illegal-move\n"); /* illegal move, casual mode only */
	assert_logged(" SAY private mismatch\n");
}

/* ------------------------------------------------------------------ the end */

static void fools_mate(void)
{
	rt_move(t, "f2", "f3");
	rt_move(t, "e7", "e5");
	rt_move(t, "g2", "g4");
	rt_move(t, "d8", "h4");
}

static void test_checkmate_ends_the_game(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	fools_mate();
	assert_true(game_over(rt_game(t)));
	assert_string_equal(rt_game(t)->result.result, "0-1");
	assert_logged(" GAME_END\n");
	/* Pegs moved after the end change nothing. */
	rt_move(t, "e1", "f2");
	assert_int_equal(game_plies(rt_game(t)), 4);
	assert_replays();
}

static void test_checkmate_press_completes(void **state)
{
	(void)state;
	rt_open(t, CHESS_BLACK, "60+1", NULL);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "f2", "f3");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "g2", "g4");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "d8", "h4");
	assert_true(game_over(rt_game(t)));
	/* The clocks run until the mating move's press, which gives its reading. */
	assert_int_equal(rt_game(t)->clock.state, CLOCK_RUNNING);
	assert_true(rt_game(t)->plies[3].clk_ms < 0);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_STOPPED);
	assert_true(rt_game(t)->plies[3].clk_ms > 59000);
	assert_replays();
}

/* ------------------------------------------------------------------ a restart */

static void test_resume_from_records(void **state)
{
	struct game_sink none = {0};
	struct referee *fresh;
	const struct game *g;

	(void)state;
	rt_open(t, CHESS_WHITE, "900+10", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_lift(t, "c7"); /* touched when the power goes */
	fresh = referee_new(&t->set, &none);
	assert_int_equal(rt_replay(t, 0, t->nrec, fresh), 0);
	referee_start(fresh, 0);
	assert_true(referee_resumed(fresh));
	g = referee_game(fresh);
	assert_int_equal(game_plies(g), 1);
	assert_true(g->touched & (1ull << rt_sq("c7")));
	/* The clocks come back standing at their last journaled reading. */
	assert_int_equal(g->clock.state, CLOCK_PAUSED);
	assert_int_equal(g->clock.running, CHESS_BLACK);
	assert_int_equal(clock_remaining(&g->clock, CHESS_BLACK, 5000), 900000);
	referee_free(fresh);
}

/* ------------------------------------------------------------------ commands */

static void test_draw_offer(void **state)
{
	struct game_command c = {.kind = CMD_DRAW_OFFER, .role = ROLE_ASSISTANT};

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	c.color = -1;
	rt_command(t, &c);
	assert_logged(" REPLY error a draw is offered after making a move");
	rt_move(t, "e2", "e4");
	rt_move(t, "e7", "e5");
	rt_command(t, &c); /* default: the side that moved last, Black */
	assert_logged(" REPLY ok draw offer by black with move 1");
	assert_logged(" SAY private black-offers-draw\n"); /* Black offers, to the tactile player */
	assert_true(rt_game(t)->plies[1].flags & GAME_PLY_DRAW_OFFER);
	assert_int_equal(rt_game(t)->offer_color, CHESS_BLACK);
	rt_move(t, "g1", "f3"); /* the offer lapses with White's move */
	assert_int_equal(rt_game(t)->offer_color, -1);
	assert_replays();
}

static void repeat_knights(int times)
{
	for (int i = 0; i < times; i++) {
		rt_move(t, "g1", "f3");
		rt_move(t, "g8", "f6");
		rt_move(t, "f3", "g1");
		rt_move(t, "f6", "g8");
	}
}

static void test_claim_threefold(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "600+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_control(t, ROLE_ASSISTANT, "claim threefold");
	/* To the assistant the reply does not say whether the claim is correct. */
	assert_logged(" REPLY ok threefold claim by white: the clocks stand for the arbiter");
	assert_logged(" CLAIM white threefold\n"); /* that a claim was made: public */
	assert_int_equal(rt_game(t)->clock.state, CLOCK_PAUSED);
	assert_true(rt_game(t)->claim.open);
	assert_false(rt_game(t)->claim.correct);
	/* The arbiter names the claimant. */
	rt_control(t, ROLE_ARBITER, "claim threefold");
	assert_logged(" REPLY error whose claim? claim threefold white|black [MOVE]");
	rt_control(t, ROLE_ARBITER, "claim threefold white");
	assert_logged(" REPLY ok threefold claim by white is not correct");
	rt_control(t, ROLE_ARBITER, "resume");
	assert_logged(" REPLY ok clocks running");
	assert_false(rt_game(t)->claim.open);
	assert_not_logged("claim-correct"); /* nothing said to the players (11.3.1) */
	assert_replays();
}

static void test_claim_with_intended_move(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	repeat_knights(1);
	rt_move(t, "g1", "f3");
	rt_move(t, "g8", "f6");
	rt_move(t, "f3", "g1");
	/* Black intends Ng8: the start position would stand a third time. */
	rt_control(t, ROLE_ARBITER, "claim threefold black Sg8");
	assert_logged(" REPLY ok threefold claim by black is correct");
	assert_non_null(strstr(last_record("claim"), "black threefold f6g8 yes"));
	rt_control(t, ROLE_ARBITER, "claim threefold black Ke9");
	assert_logged(" REPLY error 'Ke9' is not a legal move for black");
	assert_replays();
}

/* A move made after a flag fell, while the result waits for the arbiter (6.8): kept, marked
 * as made after the flag, and the flagged clock stays at zero: the move that completes the
 * period adds no time (it gave 59 s before). */
static void test_move_after_the_flag(void **state)
{
	const struct game *g;

	(void)state;
	rt_open(t, CHESS_WHITE, "1/10:60", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* White's clock runs: 10 s for one move */
	rt_wait(t, 11000);
	g = rt_game(t);
	assert_int_equal(g->result.state, RESULT_FLAG_PENDING);
	assert_int_equal(g->clock.flagged, CHESS_WHITE);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_move(t, "g1", "f3"); /* completes 1. e4 (6.2.1.2): the period's one move */
	g = rt_game(t);
	assert_int_equal(game_plies(g), 3);
	assert_true(g->plies[0].flags & GAME_PLY_AFTER_FLAG);
	assert_true(g->plies[2].flags & GAME_PLY_AFTER_FLAG);
	assert_int_equal(clock_remaining(&g->clock, CHESS_WHITE, t->now), 0);
	assert_int_equal(g->clock.state, CLOCK_FLAGGED);
	assert_replays();
}

/* A claim after the claimant's own move is on the board (made, not yet pressed): the verdict
 * is on the position after that move, and the arbiter hears that the claimant no longer had
 * the move (1.3, 9.4); the claim record journals the move, and status says so. */
static void test_claim_after_the_move_made(void **state)
{
	static const char *const moves[][2] = {{"g1", "f3"}, {"g8", "f6"}, {"f3", "g1"},
					       {"f6", "g8"}, {"g1", "f3"}, {"g8", "f6"},
					       {"f3", "g1"}, {"f6", "g8"}};
	struct control_env env = {.role = ROLE_ARBITER, .author = "arb", .connection = true};
	struct control_outcome out;
	char st[8192];

	(void)state;
	rt_open(t, CHESS_WHITE, "5400+30", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	for (size_t i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		rt_move(t, moves[i][0], moves[i][1]);
		rt_press(t, i % 2 ? GAME_BUTTON_OPPONENT_CLOCK : GAME_BUTTON_PLAYER_CLOCK);
	}
	/* 5. Nf3 made, not pressed: the position after it stands for the third time. */
	rt_move(t, "g1", "f3");
	assert_int_equal(rt_control(t, ROLE_ARBITER, "claim threefold white"), 0);
	assert_logged(" REPLY ok threefold claim by white is correct, made after 5. Nf3 was made "
		      "on the board (the claimant no longer has the move: 1.3, 9.4)");
	assert_non_null(strstr(last_record("claim"), " white threefold g1f3 yes"));
	assert_true(rt_game(t)->claim.after_move);
	env.referee = t->r;
	env.now = t->now;
	control_dispatch(&env, "status", 6, &out);
	snprintf(st, sizeof(st), "%s", out.reply.p);
	control_outcome_free(&out);
	assert_non_null(strstr(st, "\"after_move\":true"));
	assert_replays();
	/* A claim of the side on move with no move made assumes none. */
	rt_control(t, ROLE_ARBITER, "claim reject");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(rt_control(t, ROLE_ARBITER, "claim threefold black"), 0);
	assert_logged(" REPLY ok threefold claim by black is correct\n");
	assert_false(rt_game(t)->claim.after_move);
	assert_replays();
}

/* A claim carries the claimant's side.  The tactile player's claim (from
 * the assistant or the menu) when the opponent is on move is refused with the reason; it
 * was charged to the opponent, and the rejected claim's penalty then went to the tactile
 * player.  A rejected claim's penalty goes to the claimant's opponent. */
static void test_claim_charged_to_claimant(void **state)
{
	int64_t white, black;

	(void)state;
	rt_open(t, CHESS_WHITE, "5400+30", NULL); /* standard play: 2 minutes (9.5.3) */
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	/* Black (the sighted opponent) is on move: the tactile player (White) may not claim. */
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "claim fifty"), -1);
	assert_logged(" REPLY error white cannot claim now: black is on move (9.2, 9.3");
	assert_int_equal(rt_game(t)->claims, 0);
	assert_null(last_record("claim"));
	assert_int_equal(rt_game(t)->clock.state, CLOCK_RUNNING);
	/* The menu offers no claim on the opponent's move (9.2, 9.3). */
	rt_hold(t, GAME_BUTTON_SELECT, 1200);
	assert_logged(" SAY private menu-offer-draw\n");
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" SAY private menu-resign\n");
	assert_not_logged("menu-claim");
	rt_wait(t, 20000); /* closes unused */
	assert_null(last_record("claim"));
	/* The arbiter names a side not on move: refused, never turned into Black's claim. */
	assert_int_equal(rt_control(t, ROLE_ARBITER, "claim fifty white"), -1);
	assert_null(last_record("claim"));
	/* Black's claim, rejected: the penalty goes to White, Black's opponent. */
	rt_wait(t, 1000);
	white = clock_remaining(&rt_game(t)->clock, CHESS_WHITE, t->now);
	assert_int_equal(rt_control(t, ROLE_ARBITER, "claim fifty black"), 0);
	assert_logged(" REPLY ok fifty claim by black is not correct");
	assert_non_null(strstr(last_record("claim"), " black fifty - no"));
	black = clock_remaining(&rt_game(t)->clock, CHESS_BLACK, t->now);
	assert_int_equal(rt_control(t, ROLE_ARBITER, "claim reject"), 0);
	assert_logged(" REPLY ok claim rejected: +0:02:00 to white (9.5.3); the clocks run");
	assert_int_equal(clock_remaining(&rt_game(t)->clock, CHESS_WHITE, t->now), white + 120000);
	assert_int_equal(clock_remaining(&rt_game(t)->clock, CHESS_BLACK, t->now), black);
	/* After White's reply, White's claim through the assistant is White's. */
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "claim threefold"), 0);
	assert_logged(" REPLY ok threefold claim by white: the clocks stand");
	assert_non_null(strstr(last_record("claim"), " white threefold - no"));
	assert_replays();
}

/* With a clock, the mover whose move is made on the board but not yet completed by the
 * press is on move for a claim (the move made is the one intended). */
static void test_claim_with_move_made_before_press(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "600+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "claim fifty"), 0);
	assert_logged(" REPLY ok fifty claim by white: the clocks stand for the arbiter");
	rt_control(t, ROLE_ARBITER, "resume");
	/* Black cannot claim in White's move. */
	assert_int_equal(rt_control(t, ROLE_ARBITER, "claim fifty black"), -1);
	assert_logged(" REPLY error black cannot claim now: white is on move");
	/* An intended move besides the one made is refused with the reason. */
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "claim fifty Nf3"), -1);
	assert_logged(" REPLY error white has made a move on the board, not yet completed");
	assert_replays();
}

static void test_resign(void **state)
{
	struct game_command c = {.kind = CMD_RESIGN, .role = ROLE_ASSISTANT};

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	c.color = -1;
	rt_command(t, &c);
	assert_logged(" REPLY error resign needs the side");
	c.color = CHESS_BLACK;
	rt_command(t, &c);
	assert_logged(" REPLY ok black resigns: 1-0");
	assert_logged(" SAY public black-resigns\n"); /* for both to hear */
	assert_string_equal(rt_game(t)->result.result, "1-0");
	/* A command at the wrong moment changes nothing (the table's needs). */
	rt_control(t, ROLE_ASSISTANT, "resign black");
	assert_logged(" REPLY error the game is over: 1-0");
	assert_int_equal(count_records("resign"), 1);
	assert_replays();
}

/* 2023 Art. 5.1.2: resigning against a lone king is a draw. */
static void test_resign_against_bare_king(void **state)
{
	struct game_command c = {.kind = CMD_RESIGN, .role = ROLE_ARBITER, .color = CHESS_WHITE};

	(void)state;
	rt_open(t, CHESS_WHITE, "-", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
	rt_command(t, &c);
	assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
	rt_close(t);
	t->set.next.edition = RULES_2018;
	rt_open(t, CHESS_WHITE, "-", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
	rt_command(t, &c);
	assert_string_equal(rt_game(t)->result.result, "0-1");
}

static void test_result_and_approve(void **state)
{
	struct game_command c = {.kind = CMD_RESULT, .role = ROLE_ASSISTANT};

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	command(CMD_APPROVE, ROLE_ASSISTANT);
	assert_logged(" REPLY error no result to approve: the game is on");
	rt_control(t, ROLE_ASSISTANT, "result 1/2-1/2 agreed draw");
	assert_logged(" REPLY error not allowed for this role");
	assert_false(game_over(rt_game(t)));
	snprintf(c.text, sizeof(c.text), "agreed draw");
	c.role = ROLE_ARBITER;
	snprintf(c.result, sizeof(c.result), "2-0");
	rt_command(t, &c);
	assert_logged(" REPLY error result must be 1-0, 0-1 or 1/2-1/2");
	snprintf(c.result, sizeof(c.result), "1/2-1/2");
	rt_command(t, &c);
	assert_logged(" REPLY ok 1/2-1/2, agreed draw");
	assert_int_equal(rt_game(t)->result.state, RESULT_ENDED);
	assert_int_equal(rt_game(t)->result.termination, TERMINATION_NORMAL);
	command(CMD_APPROVE, ROLE_ASSISTANT);
	assert_logged(" REPLY ok result 1/2-1/2 approved");
	assert_int_equal(rt_game(t)->result.state, RESULT_APPROVED);
	command(CMD_APPROVE, ROLE_ASSISTANT);
	assert_logged(" REPLY error the result 1/2-1/2 is approved already");
	assert_replays();
}

static void test_time_forfeit_result(void **state)
{
	struct game_command c = {.kind = CMD_RESULT, .role = ROLE_ARBITER};

	(void)state;
	rt_open(t, CHESS_WHITE, "5+0", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 6000);
	snprintf(c.result, sizeof(c.result), "0-1");
	snprintf(c.text, sizeof(c.text), "White lost on time");
	rt_command(t, &c);
	assert_int_equal(rt_game(t)->result.termination, TERMINATION_TIME_FORFEIT);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_STOPPED);
	assert_replays();
}

static void test_tags(void **state)
{
	struct game_command c = {.kind = CMD_TAG, .role = ROLE_ASSISTANT};

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	snprintf(c.tag.name, sizeof(c.tag.name), "White");
	snprintf(c.tag.value, sizeof(c.tag.value), "Anna \"the rook\" Berg");
	rt_command(t, &c);
	assert_logged(" REPLY ok White set");
	assert_string_equal(game_params_tag(&rt_game(t)->params, "White"),
			    "Anna \"the rook\" Berg");
	snprintf(c.tag.name, sizeof(c.tag.name), "Result");
	rt_command(t, &c);
	assert_logged(" REPLY error Result is written by the device from the game");
	snprintf(c.tag.name, sizeof(c.tag.name), "Bad Name");
	rt_command(t, &c);
	assert_logged(" REPLY error 'Bad Name' is not a tag name");
	assert_replays();
}

static void test_pause_commands(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_control(t, ROLE_ARBITER, "pause");
	assert_logged(" REPLY error the game has no clock");
	rt_close(t);
	rt_open(t, CHESS_WHITE, "600+0", NULL);
	command(CMD_PAUSE, ROLE_ARBITER);
	assert_logged(" REPLY error the clocks are not running");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_control(t, ROLE_ASSISTANT, "pause");
	assert_logged(" REPLY error not allowed for this role");
	command(CMD_PAUSE, ROLE_ARBITER);
	assert_logged(" REPLY ok clocks paused");
	assert_non_null(strstr(last_record("pause"), "tester paused"));
}

/* ------------------------------------------------------------------ the button menu */

static void test_menu(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_move(t, "e2", "e4");
	rt_move(t, "e7", "e5"); /* White on move: the claims are offered */
	rt_hold(t, GAME_BUTTON_SELECT, 1500);
	assert_logged(" SAY private menu-offer-draw\n"); /* offer a draw */
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" SAY private menu-claim-threefold\n"); /* claim: threefold */
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" SAY private menu-resign\n"); /* resign */
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" SAY private menu-confirm-resign\n"); /* confirm with repeat again */
	assert_false(game_over(rt_game(t)));
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_true(game_over(rt_game(t)));
	assert_string_equal(rt_game(t)->result.result, "0-1");
	assert_non_null(strstr(last_record("resign"), "player white"));
	/* After the end the menu offers approving the result. */
	rt_hold(t, GAME_BUTTON_SELECT, 1500);
	assert_logged(" SAY private menu-approve\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_int_equal(rt_game(t)->result.state, RESULT_APPROVED);
	assert_replays();
}

static void test_menu_closes_unused(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_hold(t, GAME_BUTTON_SELECT, 1500);
	rt_wait(t, 20000);
	assert_logged(" SAY private menu-closed\n"); /* menu closed */
	/* repeat is the board's repeat again */
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" SAY private nothing-to-repeat\n");
}

/* After cancel: the spoken quick guide, then (with a braille display) the braille
 * scoresheet, page by page with repeat while the menu stays open. */
static void test_menu_guide_and_braille_sheet(void **state)
{
	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_hold(t, GAME_BUTTON_SELECT, 1500);
	assert_logged(" SAY private menu-offer-draw\n");
	for (int i = 0; i < 5; i++) /* threefold, fifty, resign, cancel, then the guide */
		rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" SAY private menu-quick-guide\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" SAY private quick-guide-buttons\n");
	assert_logged(" SAY private quick-guide-menu\n");
	assert_logged(" SAY private quick-guide-speech\n");
	/* No display configured: the guide is the last item, the menu closed with it. */
	rt_hold(t, GAME_BUTTON_SELECT, 1500);
	for (int i = 0; i < 6; i++)
		rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" SAY private menu-offer-draw\n");
	assert_null(strstr(t->log, "menu-braille-sheet"));
	rt_wait(t, 20000);
	rt_close(t);

	t->set.braille_display = true;
	rt_open(t, CHESS_WHITE, "-", NULL);
	rt_hold(t, GAME_BUTTON_SELECT, 1500);
	for (int i = 0; i < 6; i++)
		rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" SAY private menu-braille-sheet\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" BRAILLE_PAGE page 1\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" BRAILLE_PAGE page 2\n");
	/* Still open: select goes on to the next item (round to the first). */
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" SAY private menu-offer-draw\n");
	/* Nothing of it changed the game. */
	assert_int_equal(game_plies(rt_game(t)), 0);
	assert_replays();
	t->set.braille_display = false;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_moves_and_captures, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_which_moves_are_echoes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repeat_and_info, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_readings, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_press_before_replication, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_flag_at_deadline, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_flag_found_by_late_press, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pause_button, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pause_button_casual, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_promotion_needs_a_piece, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_impossible_move_held_until_press, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_casual_mismatch_at_once, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_checkmate_ends_the_game, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_checkmate_press_completes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resume_from_records, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_draw_offer, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_claim_threefold, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_claim_with_intended_move, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_claim_charged_to_claimant, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_claim_after_the_move_made, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_move_after_the_flag, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_claim_with_move_made_before_press, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_resign, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resign_against_bare_king, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_result_and_approve, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_time_forfeit_result, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tags, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pause_commands, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_menu, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_menu_closes_unused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_menu_guide_and_braille_sheet, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
