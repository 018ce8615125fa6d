/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Training and study (docs/training.md "Training and study") in the referee, through the command
 * table as the control socket gives it: the training process's engine (its move pressed and guided
 * square by square, the hint it is asked for, its failures said), taking back the last move pair
 * with the clocks as they stood, the button menu's training items, and the review of a
 * game on the tactile board.  Tournament mode refuses all of it.
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

/* A request as the training process's connection gives it (it watches, and, after its
 * `engine on`, it is the engine). */
static bool engine_connected;

static int as_engine(const char *line)
{
	struct control_env env = {.referee = t->r,
				  .now = t->now,
				  .role = ROLE_ASSISTANT,
				  .author = "trainer",
				  .connection = true,
				  .watching = true,
				  .engine_self = engine_connected};
	struct control_outcome out;
	char text[GAME_REPLY_MAX + 64] = "";
	int rc;

	control_dispatch(&env, line, strlen(line), &out);
	/* Every reply a code of the table, its text that code's wording (reply_check.h). */
	if (out.reply.p && reply_check_line(out.reply.p))
		fail_msg("reply to '%s': %s", line, reply_check_line(out.reply.p));
	if (out.reply.p && json_get(out.reply.p, out.ok ? "text" : "error", text, sizeof(text)) < 0)
		snprintf(text, sizeof(text), "%s", out.reply.p);
	rt_log_reply(t, out.ok, text);
	if (out.action == CONTROL_ACT_ENGINE)
		engine_connected = true;
	else if (out.action == CONTROL_ACT_ENGINE_OFF)
		engine_connected = false;
	rc = out.ok ? 0 : -1;
	control_outcome_free(&out);
	referee_flush(t->r, t->now);
	return rc;
}

static void open_with(enum game_mode mode, bool train_menu, int player, const char *tc)
{
	engine_connected = false;
	referee_settings_defaults(&t->set);
	t->set.next.mode = mode;
	t->set.train_menu = train_menu;
	t->now = 1000;
	rt_open(t, player, tc, NULL);
}

static void open_game(enum game_mode mode, int player, const char *tc)
{
	open_with(mode, false, player, tc);
}

/* ------------------------------------------------------------------ tournament */

static void test_tournament_refuses_training(void **state)
{
	static const char *const lines[] = {"engine on black", "engine wait", "hint",
					    "takeback",	       "review load", "review where"};

	(void)state;
	open_game(GAME_TOURNAMENT, CHESS_WHITE, "300+0");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		int records = t->nrec;

		assert_int_equal(as_engine(lines[i]), -1);
		last_reply("not allowed in tournament mode");
		assert_int_equal(t->nrec, records);
	}
	assert_false(engine_connected);
	assert_non_null(strstr(rt_status(t), "\"engine\":null"));
	assert_non_null(strstr(rt_status(t), "\"review\":null"));
	/* The menu offers none of it. */
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_not_logged("menu-hint");
	assert_not_logged("menu-takeback");
	assert_not_logged("menu-train");
	assert_not_logged("ENGINE_ASK");
}

static int count_guides_impl(const char *log)
{
	int n = 0;

	for (const char *p = strstr(log, " GUIDE "); p; p = strstr(p + 1, " GUIDE "))
		n++;
	return n;
}

static int count_guides(void)
{
	return count_guides_impl(t->log);
}

static int count_records(const char *type)
{
	int n = 0;

	for (int i = 0; i < t->nrec; i++)
		n += !strcmp(t->types[i], type);
	return n;
}

/* ------------------------------------------------------------------ the engine's move */

static void test_engine_move_guided_square_by_square(void **state)
{
	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	/* Only a watching connection may be the training process. */
	{
		struct control_env env = {.referee = t->r,
					  .now = t->now,
					  .role = ROLE_ASSISTANT,
					  .author = "x",
					  .connection = true};
		struct control_outcome out;

		control_dispatch(&env, "engine on", 9, &out);
		assert_false(out.ok);
		assert_non_null(strstr(out.reply.p, "watch first"));
		control_outcome_free(&out);
	}
	assert_int_equal(as_engine("engine on white"), -1); /* the tactile player's side */
	last_reply("the engine plays black");
	assert_int_equal(as_engine("engine on Stockfish 15.1"), 0);
	last_reply("Stockfish 15.1 plays black");
	assert_logged("SAY private engine-plays-black");
	assert_non_null(strstr(rt_status(t),
			       "\"engine\":{\"state\":\"playing\",\"name\":\"Stockfish 15.1\","
			       "\"plays\":\"black\",\"hint_asked\":false}"));

	rt_move(t, "e2", "e4");
	t->log_len = 0;
	t->log[0] = '\0';
	assert_int_equal(as_engine("move e7e5"), 0);
	/* Announced, then its squares one by one: the from-square first. */
	assert_logged(" MOVE e7e5\n");
	assert_logged(" GUIDE e7 empty  \n");
	assert_not_logged("e5 occupied");
	rt_lift(t, "e7");
	assert_logged(" GUIDE e7 empty   confirmed\n");
	assert_logged(" GUIDE e5 occupied P\n");
	rt_place(t, "e5");
	assert_logged(" GUIDE e5 occupied P confirmed\n");
	rt_wait(t, 3500);
	assert_not_logged("mismatch");
	/* The game goes on from the board. */
	rt_move(t, "g1", "f3");
	assert_int_equal(game_plies(rt_game(t)), 3);
	assert_string_equal(san(2), "Nf3");

	/* A capture: the captured piece's square stays occupied, so the board guides the
	 * capturing piece's square, and the move's words say it captures. */
	assert_int_equal(as_engine("move d7d5"), 0);
	rt_move(t, "d7", "d5");
	rt_capture(t, "e4", "d5");
	t->log_len = 0;
	t->log[0] = '\0';
	assert_int_equal(as_engine("move d8d5"), 0);
	assert_logged(" MOVE d8d5\n");
	assert_logged(" GUIDE d8 empty  \n");
	rt_lift(t, "d8");
	assert_logged(" GUIDE d8 empty   confirmed\n");
	assert_int_equal(count_guides(), 2);
	/* Lifting the pawn and putting the queen there: nothing more to guide. */
	rt_lift(t, "d5");
	rt_place(t, "d5");
	rt_wait(t, 3500);
	assert_not_logged("mismatch");
	assert_replays();
}

static void test_engine_presses_its_clock(void **state)
{
	(void)state;
	open_game(GAME_CASUAL, CHESS_BLACK, "300+2");
	assert_int_equal(as_engine("engine on"), 0);
	last_reply("plays white");
	/* Black's press starts White's clock: the engine moves. */
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	t->now += 1500;
	assert_int_equal(as_engine("move e2e4"), 0);
	/* Its press waits for its announcement (D.2.3-D.2.4): the player's clock is not
	 * charged while they hear it.  Another report is not its own. */
	assert_int_not_equal(t->last_move_report, 0);
	assert_true(t->last_move_echo);
	assert_int_equal(rt_game(t)->clock.running, CHESS_WHITE);
	rt_event(t, GAME_EV_SAID, t->last_move_report + 1, false);
	assert_int_equal(rt_game(t)->clock.running, CHESS_WHITE);
	t->now += 1800;
	rt_said(t);
	assert_non_null(strstr(last_record("press"), "white move running black"));
	/* White's reading after its thinking and its announcement (its clock ran from Black's
	 * press), and the increment. */
	assert_string_equal(last_record("complete"), "1 298520"); /* - 3480 ms + 2000 */
	assert_int_equal(rt_game(t)->clock.running, CHESS_BLACK);
	rt_move(t, "e2", "e4");
	rt_move(t, "c7", "c5");
	/* The player's own move: no sighted opponent needs it said whole. */
	assert_true(t->last_move_echo);
	assert_int_equal(t->last_move_report, 0);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(game_plies(rt_game(t)), 2);
	assert_int_equal(rt_game(t)->clock.running, CHESS_WHITE);

	/* No report (a voice whose output is stuck): pressed ten seconds after the move. */
	assert_int_equal(as_engine("move g1f3"), 0);
	rt_wait(t, 9900);
	assert_int_equal(rt_game(t)->clock.running, CHESS_WHITE);
	rt_wait(t, 200);
	assert_int_equal(rt_game(t)->clock.running, CHESS_BLACK);
	rt_said(t); /* late: nothing more */
	assert_int_equal(rt_game(t)->clock.running, CHESS_BLACK);

	/* The player presses before the report: the engine's press comes first, at that
	 * moment, then the player's own (a press with no move, 7.5.3). */
	rt_move(t, "g1", "f3");
	rt_move(t, "b8", "c6");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_engine("move d2d4"), 0);
	{
		int presses = count_records("press");

		rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
		assert_int_equal(count_records("press"), presses + 2);
		rt_said(t);
		assert_int_equal(count_records("press"), presses + 2);
	}
	assert_replays();
}

/* The engine's move taken back before its announcement was heard: no press comes for it. */
static void test_engine_press_after_takeback(void **state)
{
	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "300+0");
	assert_int_equal(as_engine("engine on"), 0);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_engine("move e7e5"), 0);
	{
		int presses = count_records("press");

		/* The takeback is a command: the press comes first, then the takeback. */
		assert_int_equal(as_engine("takeback"), 0);
		assert_int_equal(count_records("press"), presses + 1);
		rt_said(t);
		rt_wait(t, 11000);
		assert_int_equal(count_records("press"), presses + 1);
	}
	assert_int_equal(game_plies(rt_game(t)), 0);
	assert_replays();
}

/* ------------------------------------------------------------------ hints */

static void test_hint(void **state)
{
	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	assert_int_equal(as_engine("hint"), -1);
	last_reply("no engine is connected");
	assert_int_equal(as_engine("engine on black Stockfish"), 0);
	assert_int_equal(as_engine("hint"), 0);
	last_reply("hint asked of Stockfish");
	assert_logged(" ENGINE_ASK hint white ply 0\n");
	assert_non_null(strstr(rt_status(t), "\"hint_asked\":true"));
	/* Only the engine's connection answers, for the position asked, with a legal move. */
	engine_connected = false;
	assert_int_equal(as_engine("engine hint 0 g1f3"), -1);
	last_reply("only the training process answers a hint");
	engine_connected = true;
	assert_int_equal(as_engine("engine hint 1 g1f3"), -1);
	last_reply("no hint is asked for ply 1");
	assert_int_equal(as_engine("engine hint 0 g1g3"), -1);
	last_reply("not a legal move");
	assert_int_equal(as_engine("engine hint 0 g1f3"), 0);
	last_reply("hint said: Nf3");
	assert_logged(" HINT g1f3\n");
	/* Answered once. */
	assert_int_equal(as_engine("engine hint 0 g1f3"), -1);
	/* Not on the engine's move. */
	rt_move(t, "e2", "e4");
	assert_int_equal(as_engine("hint"), -1);
	last_reply("a hint is for the tactile player's move: black is on move");

	/* From the button menu: the first item on the player's move. */
	assert_int_equal(as_engine("move e7e5"), 0);
	rt_move(t, "e7", "e5");
	t->log_len = 0;
	t->log[0] = '\0';
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-hint\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ENGINE_ASK hint white ply 2\n");
	assert_int_equal(as_engine("engine hint 2 b1c3"), 0);
	assert_logged(" HINT b1c3\n");
	/* A hint changes nothing in the game. */
	assert_int_equal(game_plies(rt_game(t)), 2);
	assert_replays();
}

/* ------------------------------------------------------------------ failures */

static void test_engine_failures_said(void **state)
{
	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	/* No engine at all: said, though none was on. */
	assert_int_equal(as_engine("engine off missing"), 0);
	assert_logged("SAY private engine-missing");
	assert_int_equal(as_engine("engine off bored"), -1);
	assert_int_equal(as_engine("engine on"), 0);
	assert_int_equal(as_engine("engine off hung"), 0);
	assert_logged("SAY private engine-hung");
	assert_false(engine_connected);
	assert_int_equal(as_engine("engine on"), 0);
	assert_int_equal(as_engine("engine off nonsense"), 0);
	assert_logged("SAY private engine-nonsense");
	assert_int_equal(as_engine("engine on"), 0);
	assert_int_equal(as_engine("engine off died"), 0);
	assert_logged("SAY private engine-died");
	assert_int_equal(as_engine("engine on"), 0);
	referee_engine_gone(t->r, t->now);
	assert_logged("SAY private engine-gone");
	assert_non_null(strstr(rt_status(t), "\"engine\":null"));
	/* A waiting training process that goes away is not said. */
	engine_connected = false;
	assert_int_equal(as_engine("engine wait"), 0);
	assert_non_null(strstr(rt_status(t), "\"engine\":{\"state\":\"waiting\"}"));
	t->log_len = 0;
	t->log[0] = '\0';
	referee_engine_gone(t->r, t->now);
	assert_not_logged("engine-gone");
	assert_int_equal(game_plies(rt_game(t)), 0);
}

/* The club's menu entry: the waiting training process is asked to play. */
static void test_menu_train(void **state)
{
	(void)state;
	open_with(GAME_CASUAL, true, CHESS_WHITE, "-");
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-train\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged("SAY private engine-not-ready\n");
	assert_not_logged("ENGINE_ASK");
	assert_int_equal(as_engine("engine wait"), 0);
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ENGINE_ASK play black ply 0\n");
	assert_logged("SAY private train-requested\n");
	assert_int_equal(as_engine("engine on black"), 0);
	assert_logged("SAY private engine-plays-black");
	/* Playing: the entry is no longer offered. */
	t->log_len = 0;
	t->log[0] = '\0';
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_not_logged("menu-train");
}

/* ------------------------------------------------------------------ what the engine says */

/* The strength the training process set, said as set; a rating it could not play said too. */
static void test_engine_strength_said(void **state)
{
	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	assert_int_equal(as_engine("engine on black elo strong Stockfish"), -1);
	last_reply("'strong': a rating or level");
	assert_false(engine_connected);
	/* 500 asked, 1350 set: the player hears both. */
	assert_int_equal(as_engine("engine on black elo 1350 asked 500 Stockfish 16"), 0);
	last_reply("Stockfish 16 plays black");
	assert_logged("SAY private engine-plays-black-elo 1350\n");
	assert_logged("SAY private engine-elo-lowest 1350\n");
	assert_not_logged("engine-plays-black\n");
	assert_int_equal(as_engine("engine off"), 0);
	clear_log();
	assert_int_equal(as_engine("engine on black elo 2850 asked 4000 Stockfish 16"), 0);
	assert_logged("SAY private engine-plays-black-elo 2850\n");
	assert_logged("SAY private engine-elo-highest 2850\n");
	assert_int_equal(as_engine("engine off"), 0);
	/* A rating it plays: nothing more said. */
	clear_log();
	assert_int_equal(as_engine("engine on black elo 1800 asked 1800 Stockfish 16"), 0);
	assert_logged("SAY private engine-plays-black-elo 1800\n");
	assert_not_logged("engine-elo-");
	assert_int_equal(as_engine("engine off"), 0);
	clear_log();
	assert_int_equal(as_engine("engine on black level 3 Stockfish 16"), 0);
	assert_logged("SAY private engine-plays-black-level 3\n");
	last_reply("Stockfish 16 plays black");
	/* Said once: the same `engine on` again changes nothing. */
	clear_log();
	assert_int_equal(as_engine("engine on black level 3 Stockfish 16"), 0);
	assert_not_logged("SAY");
}

/* The engine lost in a game: the clocks stop, the player hears how to go on; it comes back
 * and they run again, or the player starts them with the pause button and plays on. */
static void test_engine_lost_stops_the_clocks(void **state)
{
	const struct game *g;
	int64_t white, black;

	(void)state;
	/* The club's menu offers the training game: it is how the engine comes back. */
	open_with(GAME_CASUAL, true, CHESS_WHITE, "300+0");
	g = rt_game(t);
	assert_int_equal(as_engine("engine on black Stockfish"), 0);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	t->now += 4000;
	clear_log();
	assert_int_equal(as_engine("engine off died"), 0);
	assert_logged("SAY private engine-died\n");
	assert_logged("SAY private paused\n");
	assert_logged("SAY private engine-lost-how-on\n");
	assert_int_equal(g->clock.state, CLOCK_PAUSED);
	assert_non_null(strstr(last_record("pause"), "engine"));
	assert_int_equal(g->stopped_by, STOP_ENGINE);
	assert_non_null(strstr(rt_status(t), "\"stopped_by\":\"engine\""));
	white = clock_remaining(&g->clock, CHESS_WHITE, t->now);
	black = clock_remaining(&g->clock, CHESS_BLACK, t->now);
	rt_wait(t, 60000);
	assert_int_equal(clock_remaining(&g->clock, CHESS_BLACK, t->now), black);
	/* Back (the training process waited and started again): Black's clock runs on. */
	clear_log();
	assert_int_equal(as_engine("engine on black Stockfish"), 0);
	assert_logged("SAY private engine-plays-black\n");
	assert_logged("SAY private resumed\n");
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	assert_int_equal(g->clock.running, CHESS_BLACK);
	assert_int_equal(clock_remaining(&g->clock, CHESS_WHITE, t->now), white);
	assert_int_equal(clock_remaining(&g->clock, CHESS_BLACK, t->now), black);
	assert_int_equal(as_engine("move e7e5"), 0);
	rt_move(t, "e7", "e5");
	/* Stopped (a signal to the training process) with the game on: the same. */
	clear_log();
	assert_int_equal(as_engine("engine off"), 0);
	assert_logged("SAY private engine-off\n");
	assert_logged("SAY private engine-lost-how-on\n");
	assert_int_equal(g->clock.state, CLOCK_PAUSED);
	assert_int_equal(as_engine("engine on black Stockfish"), 0);
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	assert_int_equal(g->clock.running, CHESS_WHITE);
	/* Its connection gone: the same, and the player plays on alone from the pause button. */
	clear_log();
	referee_engine_gone(t->r, t->now);
	assert_logged("SAY private engine-gone\n");
	assert_logged("SAY private engine-lost-how-on\n");
	assert_int_equal(g->clock.state, CLOCK_PAUSED);
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	assert_int_equal(g->clock.running, CHESS_WHITE);
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "b8", "c6");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_int_equal(game_plies(g), 4);
	/* Before the first move nothing stands and nothing is said of it. */
	assert_int_equal(as_engine("resign white"), 0);
	assert_replays();
}

static void test_engine_lost_without_the_menu(void **state)
{
	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "300+0");
	assert_int_equal(as_engine("engine on black"), 0);
	/* Before the clocks started nothing stands, and nothing is said of it. */
	clear_log();
	assert_int_equal(as_engine("engine off hung"), 0);
	assert_logged("SAY private engine-hung\n");
	assert_not_logged("engine-lost");
	assert_int_equal(rt_game(t)->clock.state, CLOCK_NOT_STARTED);
	/* No training game in the menu: pause is the way on. */
	assert_int_equal(as_engine("engine on black"), 0);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	clear_log();
	assert_int_equal(as_engine("engine off died"), 0);
	assert_logged("SAY private engine-lost-pause\n");
	assert_not_logged("engine-lost-how-on");
	/* Without a clock nothing stands. */
	rt_close(t);
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	assert_int_equal(as_engine("engine on black"), 0);
	rt_move(t, "e2", "e4");
	clear_log();
	assert_int_equal(as_engine("engine off died"), 0);
	assert_logged("SAY private engine-died\n");
	assert_not_logged("engine-lost");
}

/* The player's draw offer: asked of the engine, its answer said. */
static void test_engine_answers_draw_offer(void **state)
{
	const struct game *g;

	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	g = rt_game(t);
	assert_int_equal(as_engine("engine on black Stockfish"), 0);
	rt_move(t, "e2", "e4");
	clear_log();
	assert_int_equal(as_engine("draw-offer white"), 0);
	assert_logged("SAY public white-offers-draw\n");
	assert_logged(" ENGINE_ASK draw black ply 1\n");
	engine_connected = false;
	assert_int_equal(as_engine("engine draw decline"), -1);
	last_reply("only the training process answers for its engine");
	engine_connected = true;
	assert_int_equal(as_engine("engine draw maybe"), -1);
	assert_int_equal(as_engine("engine draw decline"), 0);
	last_reply("Stockfish declines the draw");
	assert_logged("SAY private engine-declines-draw\n");
	/* Answered once. */
	assert_int_equal(as_engine("engine draw accept"), -1);
	last_reply("no draw offer of the player's stands");
	assert_false(game_over(g));
	/* Its move before its answer declines the offer; an answer after it is none. */
	assert_int_equal(as_engine("move e7e5"), 0);
	rt_move(t, "e7", "e5");
	rt_move(t, "g1", "f3");
	assert_int_equal(as_engine("draw-offer white"), 0);
	assert_logged(" ENGINE_ASK draw black ply 3\n");
	clear_log();
	assert_int_equal(as_engine("move b8c6"), 0);
	assert_logged("SAY private engine-declines-draw\n");
	assert_int_equal(as_engine("engine draw accept"), -1);
	assert_false(game_over(g));
	rt_move(t, "b8", "c6");
	/* Accepted: the game is drawn by agreement. */
	rt_move(t, "f1", "c4");
	clear_log();
	assert_int_equal(as_engine("draw-offer white"), 0);
	assert_int_equal(as_engine("engine draw accept"), 0);
	assert_logged("SAY private engine-accepts-draw\n");
	assert_logged("SAY public result-draw\n");
	assert_true(game_over(g));
	assert_string_equal(g->result.result, "1/2-1/2");
	assert_replays();
	/* The engine's own offer is no question for it. */
	rt_close(t);
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	assert_int_equal(as_engine("engine on black"), 0);
	rt_move(t, "e2", "e4");
	assert_int_equal(as_engine("move e7e5"), 0);
	clear_log();
	assert_int_equal(as_engine("draw-offer black"), 0);
	assert_not_logged("ENGINE_ASK");
}

/* The evaluation asked for and said, privately; asked of no engine, or answered for another
 * position, nothing is said. */
static void test_evaluation(void **state)
{
	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	assert_int_equal(as_engine("eval"), -1);
	last_reply("no engine is connected");
	assert_int_equal(as_engine("engine on black Stockfish"), 0);
	rt_move(t, "e2", "e4");
	assert_int_equal(as_engine("move c7c5"), 0);
	rt_move(t, "c7", "c5");
	assert_int_equal(as_engine("engine eval 2 cp 30"), -1);
	last_reply("no evaluation is asked for ply 2");
	clear_log();
	assert_int_equal(as_engine("eval"), 0);
	last_reply("evaluation asked of Stockfish");
	assert_logged(" ENGINE_ASK eval white ply 2\n");
	engine_connected = false;
	assert_int_equal(as_engine("engine eval 2 cp 30"), -1);
	engine_connected = true;
	assert_int_equal(as_engine("engine eval 1 cp 30"), -1);
	assert_int_equal(as_engine("engine eval 2 pawns 30"), -1);
	assert_int_equal(as_engine("engine eval 2 cp lots"), -1);
	last_reply("'lots': centipawns for White, or moves to mate");
	assert_int_equal(as_engine("engine eval 2 mate 0"), -1);
	assert_int_equal(as_engine("engine eval 2 cp -95"), 0);
	last_reply("evaluation said: -95 centipawns for White");
	assert_logged(" EVAL cp -95 mate 0 ply 2\n");
	assert_int_equal(as_engine("engine eval 2 cp -95"), -1);
	/* From the button menu, after the hint; a mate seen. */
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-hint\n");
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged("SAY private menu-eval\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ENGINE_ASK eval white ply 2\n");
	assert_int_equal(as_engine("engine eval 2 mate -3"), 0);
	last_reply("evaluation said: black mates in 3 moves");
	assert_logged(" EVAL cp -100000 mate -3 ply 2\n");
	/* Asked, then the position changed: the answer is for another. */
	assert_int_equal(as_engine("eval"), 0);
	rt_move(t, "g1", "f3");
	assert_int_equal(as_engine("engine eval 2 cp 10"), -1);
	assert_int_equal(game_plies(rt_game(t)), 3);
}

/* A casual game from a position: guided onto the board, then played from it. */
static void test_new_game_from_a_position(void **state)
{
	const struct game *g;

	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	rt_move(t, "e2", "e4");
	assert_int_equal(as_engine("new-game"), -1);
	last_reply("a game is being played (1 ply): a new one begins once it has ended");
	assert_int_equal(as_engine("resign white"), 0);
	assert_int_equal(as_engine("new-game 8/8/8/8/8/8/8/8 w - - 0 1"), -1);
	last_reply("the new game's FEN, column");
	assert_int_equal(as_engine("new-game 4k3/8/8/8/8/8/4P3/4K3 x - - 0 1"), -1);
	last_reply("the new game's FEN, column");
	g = rt_game(t);
	assert_true(game_over(g));
	clear_log();
	/* King and pawn against king, from the start position's pegs (e2 moved to e4). */
	assert_int_equal(as_engine("new-game 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), 0);
	last_reply("game test-2 begun; 31 squares to set up");
	g = rt_game(t);
	assert_false(game_over(g));
	assert_string_equal(g->params.fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
	assert_int_equal(g->params.mode, GAME_CASUAL);
	assert_logged("SAY private new-game-setup\n");
	assert_logged(" GUIDE a1 empty  \n");
	/* Another position while none is played: it takes this one's place. */
	assert_int_equal(as_engine("new-game 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), 0);
	last_reply("game test-3 begun");
	for (const char *sq = "a1b1c1d1f1g1h1a2b2c2d2f2g2h2a7b7c7d7e7f7g7h7a8b8c8d8f8g8h8"; *sq;
	     sq += 2) {
		char name[3] = {sq[0], sq[1], 0};

		rt_lift(t, name);
	}
	rt_lift(t, "e4");
	rt_place(t, "e2");
	rt_wait(t, 300);
	assert_logged("SAY private setup-done");
	rt_move(t, "e2", "e4");
	rt_move(t, "e8", "d7");
	assert_int_equal(game_plies(g), 2);
	assert_string_equal(san(1), "Kd7");
	assert_replays();
	/* None in a tournament. */
	rt_close(t);
	open_game(GAME_TOURNAMENT, CHESS_WHITE, "300+0");
	assert_int_equal(as_engine("new-game"), -1);
	last_reply("not allowed in tournament mode");
	assert_int_equal(as_engine("eval"), -1);
	last_reply("not allowed in tournament mode");
}

/* The engine's promotion with a capture: the captured piece's peg is changed for the new
 * piece, so that square is named with it ("a1 should be occupied: queen"). */
static void test_engine_promotes_with_capture(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->set.next.mode = GAME_CASUAL;
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1");
	assert_int_equal(as_engine("engine on black"), 0);
	clear_log();
	assert_int_equal(as_engine("move b2a1q"), 0);
	assert_logged(" MOVE b2a1q\n");
	assert_logged(" GUIDE b2 empty  \n");
	rt_lift(t, "b2");
	assert_logged(" GUIDE b2 empty   confirmed\n");
	assert_logged(" GUIDE a1 occupied Q\n");
	/* The rook lifted: still to do; the queen put in: confirmed. */
	rt_lift(t, "a1");
	assert_not_logged("a1 occupied Q confirmed");
	rt_place(t, "a1");
	assert_logged(" GUIDE a1 occupied Q confirmed\n");
	rt_wait(t, 3500);
	assert_not_logged("mismatch");
	rt_move(t, "e1", "d2");
	assert_int_equal(game_plies(rt_game(t)), 2);
	/* A promotion to an empty square guides as any move. */
	rt_close(t);
	engine_connected = false;
	rt_open(t, CHESS_WHITE, "-", "4k3/8/8/8/8/8/1p6/4K3 b - - 0 1");
	assert_int_equal(as_engine("engine on black"), 0);
	clear_log();
	assert_int_equal(as_engine("move b2b1n"), 0);
	rt_lift(t, "b2");
	assert_logged(" GUIDE b1 occupied N\n");
	rt_place(t, "b1");
	assert_logged(" GUIDE b1 occupied N confirmed\n");
}

/* ------------------------------------------------------------------ takeback */

static void test_takeback_restores_clocks(void **state)
{
	const struct game *g;

	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "300+5");
	assert_int_equal(as_engine("engine on black"), 0);
	assert_int_equal(as_engine("takeback"), -1);
	last_reply("nothing to take back: white has made no move");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	t->now += 2000;
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK); /* white 300000 - 2500ish + 5000 */
	t->now += 3000;
	assert_int_equal(as_engine("move e7e5"), 0);
	rt_move(t, "e7", "e5");
	t->now += 7000;
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	t->now += 4000;
	assert_int_equal(as_engine("move b8c6"), 0);
	rt_move(t, "b8", "c6");
	g = rt_game(t);
	assert_int_equal(game_plies(g), 4);
	{
		int64_t white_clk = g->plies[0].clk_ms, black_clk = g->plies[1].clk_ms;

		t->now += 10000;
		assert_int_equal(as_engine("takeback"), 0);
		last_reply("2 plies taken back, to after 1... e5; set the position up");
		assert_int_equal(game_plies(g), 2);
		/* The clocks as they stood when White was to play 2. Nf3. */
		assert_int_equal(clock_remaining(&g->clock, CHESS_WHITE, t->now), white_clk);
		assert_int_equal(clock_remaining(&g->clock, CHESS_BLACK, t->now), black_clk);
		assert_int_equal(g->clock.running, CHESS_WHITE);
		assert_int_equal(g->clock.moves[0], 1);
		assert_int_equal(g->clock.moves[1], 1);
	}
	assert_logged("SAY private takeback\n");
	/* Set-up guidance: the knights go back. */
	assert_logged(" GUIDE g1 occupied N\n");
	rt_lift(t, "c6");
	rt_place(t, "b8");
	rt_lift(t, "f3");
	rt_place(t, "g1");
	rt_wait(t, 300);
	assert_logged("SAY private setup-done");
	/* The game goes on with another move. */
	rt_move(t, "d2", "d4");
	assert_int_equal(game_plies(g), 3);
	assert_string_equal(san(2), "d4");
	assert_replays();
	assert_non_null(strstr(g->notes[g->note_count - 1].text, "taken back: 2. Nf3 Nc6"));
}

/* Mated by the engine: the takeback opens the game again and the clock runs. */
static void test_takeback_after_mate(void **state)
{
	const struct game *g;

	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "600+0");
	assert_int_equal(as_engine("engine on black"), 0);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "f2", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_engine("move e7e5"), 0);
	rt_move(t, "e7", "e5");
	rt_move(t, "g2", "g4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_engine("move d8h4"), 0);
	g = rt_game(t);
	assert_true(game_over(g));
	assert_string_equal(g->result.result, "0-1");
	rt_move(t, "d8", "h4");
	assert_int_equal(as_engine("takeback"), 0);
	assert_false(game_over(g));
	assert_int_equal(game_plies(g), 2);
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	assert_int_equal(g->clock.running, CHESS_WHITE);
	assert_replays();
}

/* ------------------------------------------------------------------ review */

static int lifts_and_places(void)
{
	int n = 0;

	for (int i = 0; i < t->nrec; i++)
		n += !strcmp(t->types[i], "lift") || !strcmp(t->types[i], "place");
	return n;
}

static void test_review_steps_and_guides(void **state)
{
	int pegs;

	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "600+0");
	assert_int_equal(as_engine("review begin"), -1);
	last_reply("no review is being loaded");
	assert_int_equal(as_engine("review load"), 0);
	assert_int_equal(as_engine("review add e2e4 e7e5 g1f3 b8c6 f1b5"), 0);
	last_reply("5 moves added, 5 in all");
	assert_int_equal(as_engine("review add a7a6 b5a5"), -1);
	last_reply("move 7 of the review, 'b5a5': not a legal move there (UCI)");
	/* A line goes in whole or not at all. */
	assert_int_equal(as_engine("review add a7a6"), 0);
	last_reply("1 move added, 6 in all");
	assert_int_equal(as_engine("review begin"), 0);
	last_reply("review of 6 plies");
	/* The board shows the start position already. */
	assert_logged("SAY private review-setup\n");
	assert_logged("SAY private review-ready\n");
	assert_non_null(strstr(rt_status(t), "\"review\":{\"state\":\"on\",\"at\":0,\"plies\":6"));
	pegs = lifts_and_places();

	t->log_len = 0;
	t->log[0] = '\0';
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged(" REVIEW next e2e4 at 1 of 6\n");
	assert_logged(" GUIDE e2 empty  \n");
	/* The clock did not start: the game stands. */
	assert_int_equal(rt_game(t)->clock.state, CLOCK_NOT_STARTED);
	rt_lift(t, "e2");
	assert_logged(" GUIDE e2 empty   confirmed\n");
	assert_logged(" GUIDE e4 occupied P\n");
	rt_place(t, "e4");
	assert_logged(" GUIDE e4 occupied P confirmed\n");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged(" REVIEW next e7e5 at 2 of 6\n");
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" REVIEW where e7e5 at 2 of 6\n");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_logged(" REVIEW back e7e5 at 1 of 6\n");
	assert_logged(" GUIDE e5 empty  \n");
	rt_move(t, "e5", "e7");
	/* No move of the game was read from those pegs, none journaled. */
	assert_int_equal(game_plies(rt_game(t)), 0);
	assert_int_equal(lifts_and_places(), pegs);
	/* The commands that change the game wait for the review's end. */
	assert_int_equal(as_engine("takeback"), -1);
	last_reply("a review has the board: review end first");
	for (int i = 1; i < 6; i++) /* from ply 1 */
		assert_int_equal(as_engine("review next"), 0);
	assert_int_equal(as_engine("review next"), -1);
	assert_logged("SAY private review-end-of-game\n");
	assert_int_equal(as_engine("review where"), 0);
	assert_logged(" REVIEW where a7a6 at 6 of 6\n");
	for (int i = 0; i < 6; i++)
		assert_int_equal(as_engine("review back"), 0);
	assert_int_equal(as_engine("review back"), -1);
	assert_logged("SAY private review-start-of-game\n");

	/* The menu ends it; the board goes back to the game's position. */
	t->log_len = 0;
	t->log[0] = '\0';
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-end-review\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged("SAY private review-return\n");
	assert_logged(" GUIDE e4 empty  \n");
	rt_lift(t, "e4");
	rt_place(t, "e2");
	assert_logged("SAY private setup-done\n");
	assert_non_null(strstr(rt_status(t), "\"review\":null"));
	/* The game is played from the board again. */
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "d2", "d4");
	assert_int_equal(game_plies(rt_game(t)), 1);
	assert_replays();
}

static void test_review_needs_a_finished_game(void **state)
{
	(void)state;
	open_game(GAME_CASUAL, CHESS_WHITE, "-");
	rt_move(t, "e2", "e4");
	assert_int_equal(as_engine("review load"), -1);
	last_reply("a game is being played (1 ply)");
	assert_int_equal(as_engine("resign white"), 0);
	assert_int_equal(as_engine("review load 8/8/8/4k3/8/8/4P3/4K3 w - - 0 60"), 0);
	assert_int_equal(as_engine("review add e2e4 e8e7"), -1);
	last_reply("move 2 of the review, 'e8e7'");
	assert_int_equal(as_engine("review add e1d2"), 0); /* the line before added nothing */
	assert_int_equal(as_engine("review begin"), 0);
	/* The board shows the game's end: set-up guidance from the first square. */
	assert_logged("SAY private review-setup\n");
	assert_logged(" GUIDE a1 empty  \n");
	assert_not_logged("review-ready");
	assert_int_equal(as_engine("review end"), 0);
	last_reply("review ended");
	assert_logged("SAY private review-ended\n");
	assert_non_null(strstr(rt_status(t), "\"review\":null"));
	assert_int_equal(as_engine("review load nonsense"), -1);
	last_reply("the review's FEN");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_tournament_refuses_training, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_engine_move_guided_square_by_square, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_engine_presses_its_clock, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_engine_press_after_takeback, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hint, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_engine_failures_said, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_menu_train, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_engine_strength_said, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_engine_lost_stops_the_clocks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_engine_lost_without_the_menu, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_engine_answers_draw_offer, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_evaluation, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_new_game_from_a_position, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_engine_promotes_with_capture, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_takeback_restores_clocks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_takeback_after_mate, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_review_steps_and_guides, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_review_needs_a_finished_game, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
