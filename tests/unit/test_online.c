/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Online play (docs/online.md "Playing online") in the referee, through the command table as the
 * control socket gives it: the online process beginning a game, the player's move completed
 * by their press (what the process sends), the server's moves announced, pressed and guided
 * square by square, the server's clock followed and never flagged, offers and requests both
 * ways through the button menu, the game set back to the server's plies, the server's
 * result approved at once, the other commands refused, and the records read back giving the
 * same game.  Tournament mode refuses all of it.
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

/* A request as the online process's connection gives it (it watches, and after `online on`
 * or `online wait` it is the online process). */
static bool online_connected;

static int as(const char *author, bool self, const char *line)
{
	struct control_env env = {.referee = t->r,
				  .now = t->now,
				  .role = ROLE_ASSISTANT,
				  .author = author,
				  .connection = true,
				  .watching = true,
				  .online_self = self};
	struct control_outcome out;
	char text[GAME_REPLY_MAX + 64] = "";
	int rc;

	control_dispatch(&env, line, strlen(line), &out);
	if (out.reply.p && reply_check_line(out.reply.p))
		fail_msg("reply to '%s': %s", line, reply_check_line(out.reply.p));
	if (out.reply.p && json_get(out.reply.p, out.ok ? "text" : "error", text, sizeof(text)) < 0)
		snprintf(text, sizeof(text), "%s", out.reply.p);
	rt_log_reply(t, out.ok, text);
	/* The online process's connection (ctlsock's part). */
	if (!strcmp(author, "online") && out.action == CONTROL_ACT_ONLINE)
		online_connected = true;
	else if (!strcmp(author, "online") && out.action == CONTROL_ACT_ONLINE_OFF)
		online_connected = false;
	rc = out.ok ? 0 : -1;
	control_outcome_free(&out);
	referee_flush(t->r, t->now);
	return rc;
}

static int as_online(const char *line)
{
	return as("online", online_connected, line);
}

/* A device in casual play (or `mode`), its board in the start position (`fen`, NULL: the
 * initial one), no game begun. */
static void open_device_at(enum game_mode mode, const char *fen)
{
	if (t->r)
		rt_close(t);
	online_connected = false;
	referee_settings_defaults(&t->set);
	t->set.next.mode = mode;
	t->set.online_menu = true;
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", fen);
}

static void open_device(enum game_mode mode)
{
	open_device_at(mode, NULL);
}

/* An online game begun by the online process, the player with `color`. */
static void begin_online(const char *color)
{
	char line[256];

	open_device(GAME_CASUAL);
	assert_int_equal(as_online("online on"), 0);
	assert_true(online_connected);
	snprintf(line, sizeof(line),
		 "online begin %s 900+10 AbCd1234 Event \"Rated rapid game\" Site "
		 "\"https://lichess.org/AbCd1234\" White \"anna\" Black \"ben \\\"b\\\"\"",
		 color);
	assert_int_equal(as_online(line), 0);
	last_reply("online game AbCd1234 begun");
}

/* The server's move made on the board as guided, then a moment's stillness. */
static void replicate(const char *from, const char *to)
{
	rt_lift(t, from);
	rt_place(t, to);
	rt_wait(t, 500);
}

static int count(const char *what)
{
	int n = 0;

	for (const char *p = strstr(t->log, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* ------------------------------------------------------------------ tournament */

static void test_tournament_refuses_online(void **state)
{
	static const char *const lines[] = {"online on", "online wait",
					    "online begin white 900+10 x1"};

	(void)state;
	open_device(GAME_TOURNAMENT);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		int records = t->nrec;

		assert_int_equal(as_online(lines[i]), -1);
		last_reply("not allowed in tournament mode");
		assert_int_equal(t->nrec, records);
	}
	assert_false(online_connected);
	assert_non_null(strstr(rt_status(t), "\"online\":null"));
	assert_non_null(strstr(rt_status(t), "\"mode\":\"tournament\""));
	/* The menu offers no online entry, whatever [online] menu says. */
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_not_logged("menu-online");
	assert_not_logged("ONLINE_ASK");
}

/* ------------------------------------------------------------------ the game */

static void test_begin_and_the_connection(void **state)
{
	struct control_env env;
	struct control_outcome out;

	(void)state;
	open_device(GAME_CASUAL);
	/* Only a watching connection is the online process; only it speaks for the server. */
	env = (struct control_env){.referee = t->r,
				   .now = t->now,
				   .role = ROLE_ASSISTANT,
				   .author = "x",
				   .connection = true};
	control_dispatch(&env, "online on", 9, &out);
	assert_false(out.ok);
	assert_non_null(strstr(out.reply.p, "online-watch-first"));
	control_outcome_free(&out);
	assert_int_equal(as("x", false, "online begin white 900+10 x1"), -1);
	last_reply("only the online process says that");
	env.online_elsewhere = true;
	env.watching = true;
	control_dispatch(&env, "online on", 9, &out);
	assert_false(out.ok);
	assert_non_null(strstr(out.reply.p, "online-elsewhere"));
	control_outcome_free(&out);

	assert_int_equal(as_online("online on"), 0);
	assert_int_equal(as_online("online begin green 900+10 x1"), -1);
	assert_int_equal(as_online("online begin white - x1"), -1);
	last_reply("the device cannot play the server's game: -");
	assert_int_equal(as_online("online begin white 900+10 x1 FEN \"not a fen\""), -1);
	assert_int_equal(as_online("online begin black 600+5 Xy12 White \"ben\" Black \"anna\""),
			 0);
	last_reply("the tactile player plays black");
	assert_logged("SAY private online-plays-black");
	assert_int_equal(rt_game(t)->params.mode, GAME_ONLINE);
	assert_int_equal(rt_game(t)->params.player, CHESS_BLACK);
	assert_string_equal(game_params_tag(&rt_game(t)->params, "LichessId"), "Xy12");
	assert_string_equal(game_params_tag(&rt_game(t)->params, "White"), "ben");
	/* The club's tags are not the server's game's. */
	assert_null(game_params_tag(&rt_game(t)->params, "Round"));
	assert_non_null(strstr(rt_status(t), "\"mode\":\"online\""));
	assert_non_null(strstr(rt_status(t), "\"online\":{\"state\":\"connected\""));
	/* The same game again: the process came back to it. */
	assert_int_equal(as_online("online begin black 600+5 Xy12"), 0);
	last_reply("online game Xy12 goes on");
	/* Another while it is on: refused. */
	assert_int_equal(as_online("online move 1 e2e4 600000 600000 -"), 0);
	assert_int_equal(as_online("online begin white 600+5 Zz99"), -1);
	last_reply("a game is on (1 ply): finish it first");
	assert_replays();
}

static void test_player_move_sent_at_press_server_move_guided(void **state)
{
	const struct game *g;

	(void)state;
	begin_online("white");
	g = rt_game(t);
	/* The move is made and announced; nothing goes to the server before the press. */
	rt_move(t, "e2", "e4");
	assert_non_null(last_record("made"));
	assert_null(last_record("complete"));
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	/* Its press completes it (what the online process sends); the server's clock has not
	 * started (it starts after both first moves): the readings stay. */
	assert_string_equal(last_record("complete"), "1 900000");
	assert_int_equal(g->clock.state, CLOCK_NOT_STARTED);
	/* The server's reply: announced publicly, pressed for the opponent with the server's
	 * clocks, and guided square by square. */
	clear_log();
	assert_int_equal(as_online("online move 2 e7e5 900000 900000 white"), 0);
	last_reply("the server's ply 2: 1... e5");
	assert_logged(" MOVE e7e5\n");
	assert_logged(" GUIDE e7 empty  \n");
	assert_string_equal(last_record("complete"), "2 900000");
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	assert_int_equal(g->clock.running, CHESS_WHITE);
	replicate("e7", "e5");
	assert_logged(" GUIDE e5 occupied P confirmed\n");
	/* The same ply again is in step; another move for it is the process's to set back. */
	assert_int_equal(as_online("online move 2 e7e5"), 0);
	last_reply("ply 2 is 1... e5 here too");
	assert_int_equal(as_online("online move 2 d7d5"), -1);
	last_reply("ply 2 is 1... e5 here: set the game back first");
	assert_int_equal(as_online("online move 5 g1f3"), -1);
	assert_int_equal(as_online("online move 3 e7e5"), -1);
	last_reply("is not a legal move here");
	/* The second move's press: the increment added. */
	rt_wait(t, 2000);
	rt_move(t, "g1", "f3");
	rt_wait(t, 500);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_non_null(strstr(last_record("complete"), "3 "));
	assert_true(g->plies[2].clk_ms > 900000 && g->plies[2].clk_ms < 910000);
	assert_int_equal(g->clock.running, CHESS_BLACK);
	/* The server's clocks are followed, journaled as a clock-set, said to no one. */
	clear_log();
	assert_int_equal(as_online("online clock 906500 899000 black"), 0);
	last_reply("clocks as the server's: White 0:15:06, Black 0:14:59");
	assert_not_logged("SAY");
	assert_non_null(last_record("clock-set"));
	assert_int_equal(clock_remaining(&g->clock, CHESS_WHITE, t->now), 906500);
	/* A press with no move: said, nothing sent; the opponent's button is not the player's
	 * to press. */
	assert_int_equal(as_online("online move 4 b8c6 906500 897000 white"), 0);
	replicate("b8", "c6");
	rt_wait(t, 300);
	clear_log();
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged("SAY private press-no-move");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_logged("SAY private not-now");
	/* The pause button does not stop the server's clock. */
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	assert_int_equal(game_plies(g), 4);
	assert_replays();
}

static void test_clock_never_flags(void **state)
{
	const struct game *g;

	(void)state;
	begin_online("white");
	g = rt_game(t);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_online("online move 2 e7e5 900000 900000 white"), 0);
	replicate("e7", "e5");
	assert_int_equal(as_online("online clock 3000 900000 white"), 0);
	/* Past zero: the server decides, not the device. */
	rt_wait(t, 10000);
	assert_null(last_record("flag"));
	assert_int_equal(g->result.state, RESULT_ON);
	/* A press then still completes the move (sent; the server says whether it was in
	 * time). */
	rt_move(t, "d2", "d4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_non_null(strstr(last_record("complete"), "3 "));
	assert_int_equal(as_online("online result outoftime black"), 0);
	last_reply("the server's result: 0-1 (White's time ran out)");
	assert_logged("SAY private flag-white");
	assert_logged("SAY private result-black-wins");
	assert_int_equal(g->result.state, RESULT_APPROVED);
	assert_string_equal(result_termination_pgn(g->result.termination), "time forfeit");
	assert_replays();
}

static void test_draw_offers_both_ways(void **state)
{
	const struct game *g;

	(void)state;
	begin_online("white");
	g = rt_game(t);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_online("online move 2 e7e5 900000 900000 white"), 0);
	replicate("e7", "e5");
	/* The menu's draw offer goes to the server; the game does not change before it says
	 * so. */
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_not_logged("menu-abort"); /* both have moved: too late to abort */
	assert_logged("SAY private menu-offer-draw");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ONLINE_ASK offer-draw ply 2");
	assert_int_equal(g->offers, 0);
	/* The server's stream shows it: the scoresheet's (=), said publicly. */
	assert_int_equal(as_online("online offers white-draw"), 0);
	assert_int_equal(g->offers, 1);
	assert_logged("SAY public white-offers-draw");
	assert_int_equal(as_online("online offers white-draw"), 0);
	assert_int_equal(g->offers, 1); /* the same offer still standing: no second mark */
	/* Declined on the server: the menu offers a draw again. */
	assert_int_equal(as_online("online offers"), 0);
	/* The opponent's offer: said privately; the menu accepts or declines it there. */
	clear_log();
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_online("online move 4 b8c6 905000 900000 white"), 0);
	assert_int_equal(as_online("online offers black-draw"), 0);
	assert_logged("SAY private black-offers-draw");
	assert_non_null(strstr(rt_status(t), "\"offers\":\"black-draw\""));
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-accept-draw");
	assert_not_logged("menu-offer-draw");
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged("SAY private menu-decline-draw");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ONLINE_ASK decline-draw ply 4");
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ONLINE_ASK accept-draw ply 4");
	assert_int_equal(g->result.state, RESULT_ON);
	/* The server's draw ends it, approved at once. */
	assert_int_equal(as_online("online result draw"), 0);
	assert_logged("SAY private result-draw");
	assert_string_equal(g->result.result, "1/2-1/2");
	assert_int_equal(g->result.state, RESULT_APPROVED);
	assert_replays();
}

static void test_resign_abort_and_claims(void **state)
{
	const struct game *g;

	(void)state;
	begin_online("black");
	g = rt_game(t);
	assert_int_equal(as_online("online move 1 d2d4 900000 900000 -"), 0);
	replicate("d2", "d4");
	/* Before both sides have moved the menu offers to abort first.  Resigning asks for the
	 * second repeat, then asks the server. */
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-abort");
	for (int i = 0; i < 8 && !strstr(t->log, "menu-resign"); i++)
		rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged("menu-confirm-resign");
	assert_not_logged("ONLINE_ASK");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ONLINE_ASK resign ply 1");
	assert_int_equal(g->result.state, RESULT_ON);
	/* The opponent gone: said, then the claims once the server allows them. */
	clear_log();
	assert_int_equal(as_online("online gone 5"), 0);
	assert_logged("SAY private online-opponent-gone");
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_not_logged("menu-claim-victory");
	rt_press(t, GAME_BUTTON_PAUSE);
	rt_wait(t, 16000);
	clear_log();
	assert_int_equal(as_online("online gone 0"), 0);
	assert_logged("SAY private online-claim-possible");
	assert_non_null(strstr(rt_status(t), "\"claimable\":true"));
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	for (int i = 0; i < 8 && !strstr(t->log, "menu-claim-victory"); i++)
		rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ONLINE_ASK claim-victory ply 1");
	assert_int_equal(as_online("online gone back"), 0);
	assert_logged("SAY private online-opponent-back");
	/* The server's resignation: the resign record, said as at the board, approved. */
	clear_log();
	assert_int_equal(as_online("online result resign white"), 0);
	assert_string_equal(last_record("resign"), "online black");
	assert_logged("SAY public black-resigns");
	assert_logged("SAY private result-white-wins");
	assert_int_equal(g->result.state, RESULT_APPROVED);
	assert_int_equal(as_online("online move 2 e7e5"), -1);
	last_reply("the game is over");
	assert_replays();

	/* An aborted game: "*", decided, and a new online game may begin at once. */
	begin_online("white");
	g = rt_game(t);
	clear_log();
	assert_int_equal(as_online("online result aborted"), 0);
	assert_logged("SAY private online-aborted");
	assert_not_logged("result-");
	assert_string_equal(g->result.result, "*");
	assert_int_equal(g->result.state, RESULT_APPROVED);
	assert_false(result_undecided(&g->result));
	/* The menu offers the next online game (to a process that waits for it). */
	assert_int_equal(as_online("online wait"), 0);
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-online");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ONLINE_ASK play ply 0");
	assert_int_equal(as_online("online begin white 900+10 Next0001"), 0);
	assert_int_equal(as_online("online result started"), -1);
	last_reply("'started' is no end of a game");
}

static void test_server_position_wins(void **state)
{
	const struct game *g;

	(void)state;
	begin_online("white");
	g = rt_game(t);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_online("online move 2 c7c5 900000 900000 white"), 0);
	replicate("c7", "c5");
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	/* The server refused the move: the game goes back to its plies, the player is guided
	 * back square by square. */
	clear_log();
	assert_int_equal(as_online("online back 2 refused"), 0);
	last_reply("after ply 2; 1 ply taken back");
	assert_logged("SAY private online-move-refused");
	assert_logged(" GUIDE g1 occupied N\n");
	assert_int_equal(game_plies(g), 2);
	assert_int_equal(g->clock.running, CHESS_WHITE);
	rt_lift(t, "f3");
	rt_place(t, "g1");
	rt_wait(t, 500);
	assert_logged("SAY private setup-done");
	/* A takeback both agreed to on the server: two plies back, the same way. */
	rt_move(t, "d2", "d4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_online("online move 4 c5d4 900000 900000 white"), 0);
	rt_lift(t, "c5");
	rt_lift(t, "d4");
	rt_place(t, "d4");
	rt_wait(t, 300);
	clear_log();
	assert_int_equal(as_online("online offers black-takeback"), 0);
	assert_logged("SAY private online-takeback-asked");
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	for (int i = 0; i < 8 && !strstr(t->log, "menu-accept-takeback"); i++)
		rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ONLINE_ASK accept-takeback ply 4");
	assert_int_equal(game_plies(g), 4); /* not before the server says so */
	clear_log();
	assert_int_equal(as_online("online back 3 takeback"), 0);
	assert_logged("SAY private takeback");
	assert_int_equal(game_plies(g), 3);
	assert_int_equal(g->clock.running, CHESS_BLACK);
	/* In step with the board: nothing to do. */
	assert_int_equal(as_online("online back 4 sync"), -1);
	assert_replays();
}

static void test_other_commands_refused(void **state)
{
	static const char *const lines[] = {"move e7e5", "draw-offer white", "resign white",
					    "takeback", "hint"};
	int records;

	(void)state;
	begin_online("white");
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	records = t->nrec;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(rt_control(t, ROLE_ASSISTANT, lines[i]), -1);
	assert_int_equal(rt_control(t, ROLE_ARBITER, "result 1-0 arbiter"), -1);
	last_reply("come from the server");
	assert_int_equal(rt_control(t, ROLE_ARBITER, "clock set 0:10:00 0:10:00"), -1);
	assert_int_equal(t->nrec, records);
	/* Tags are the scoresheet's: they may be set. */
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "tags Annotator \"club\""), 0);
}

static void test_device_ends_only_mate_and_stalemate(void **state)
{
	const struct game *g;

	(void)state;
	begin_online("white");
	g = rt_game(t);
	/* Fool's mate the other way round: the player's mating move goes out at once. */
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_online("online move 2 f7f6 900000 900000 white"), 0);
	replicate("f7", "f6");
	rt_move(t, "d2", "d4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(as_online("online move 4 g7g5 900000 900000 white"), 0);
	replicate("g7", "g5");
	clear_log();
	rt_lift(t, "d1");
	rt_place(t, "h5");
	rt_wait(t, 300);
	assert_logged("SAY public checkmate");
	assert_non_null(strstr(last_record("complete"), "5 "));
	assert_string_equal(g->result.result, "1-0");
	assert_int_equal(g->result.state, RESULT_ENDED);
	/* The server's word approves it. */
	assert_int_equal(as_online("online result mate white"), 0);
	assert_int_equal(g->result.state, RESULT_APPROVED);
	assert_replays();

	/* A dead position (a knight against a king) is the server's to end. */
	open_device_at(GAME_CASUAL, "4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1");
	assert_int_equal(as_online("online on"), 0);
	assert_int_equal(as_online("online begin white 900+10 Dead0001 FEN "
				   "\"4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1\""),
			 0);
	assert_not_logged("online-setup");
	clear_log();
	rt_capture(t, "b1", "c3");
	assert_int_equal(game_plies(rt_game(t)), 1);
	assert_int_equal(rt_game(t)->result.state, RESULT_ON);
	assert_not_logged("dead-position");
	assert_int_equal(as_online("online result insufficientMaterialClaim"), 0);
	assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
}

static void test_setup_guided_at_begin_and_replay(void **state)
{
	(void)state;
	open_device(GAME_CASUAL);
	/* A casual game was played and ended; its board is not the start position. */
	rt_move(t, "e2", "e4");
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "resign black"), 0);
	assert_int_equal(as_online("online on"), 0);
	clear_log();
	assert_int_equal(as_online("online begin white 900+10 Setup001"), 0);
	assert_logged("SAY private online-setup");
	assert_logged(" GUIDE e2 occupied P\n");
	rt_lift(t, "e4");
	rt_place(t, "e2");
	rt_wait(t, 500);
	assert_logged("SAY private setup-done");
	rt_move(t, "d2", "d4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_non_null(last_record("complete"));
	assert_replays();
}

static void test_menu_entry_and_process_gone(void **state)
{
	(void)state;
	open_device(GAME_CASUAL);
	/* No process waiting: said. */
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-online");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged("SAY private online-not-ready");
	assert_not_logged("ONLINE_ASK");
	/* Waiting: the request goes to it. */
	assert_int_equal(as_online("online wait"), 0);
	assert_non_null(strstr(rt_status(t), "\"online\":{\"state\":\"waiting\""));
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" ONLINE_ASK play ply 0");
	assert_logged("SAY private online-requested");
	/* Its news said privately. */
	assert_int_equal(as_online("online say seeking"), 0);
	assert_logged("SAY private online-seeking");
	assert_int_equal(as_online("online say nonsense"), -1);
	/* In its game, the process going without a word is said. */
	assert_int_equal(as_online("online begin white 900+10 Gone0001"), 0);
	clear_log();
	referee_online_gone(t->r, t->now);
	assert_logged("SAY private online-gone");
	/* A menu request with none connected: said, nothing asked. */
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged("SAY private online-not-ready");
	assert_int_equal(count(" ONLINE_ASK"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_tournament_refuses_online, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_begin_and_the_connection, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_player_move_sent_at_press_server_move_guided,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_never_flags, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_draw_offers_both_ways, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resign_abort_and_claims, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_server_position_wins, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_other_commands_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_device_ends_only_mate_and_stalemate, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_setup_guided_at_begin_and_replay, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_menu_entry_and_process_gone, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
