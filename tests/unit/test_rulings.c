/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A clock and rulings an arbiter can sign: periods by completed moves (6.2.1.2, 6.3.1, 7.5.3),
 * the flag's check of the moves (6.4), who stops and who starts the clocks (6.11), the 2005
 * edition's rules (B1, C1, B6, C3, 9.5 b), what `illegal` takes back (7.1), a press while the
 * clocks stand, the next game after an approval, and how a flag is said.
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

static struct game_command cmd(enum game_command_kind kind, enum game_role role, uint32_t id)
{
	struct game_command c = {.kind = kind, .role = role, .color = -1};

	(void)id;

	snprintf(c.author, sizeof(c.author), "%s", role == ROLE_ARBITER ? "arb" : "asst");
	c.white_moves = c.black_moves = -1;
	return c;
}

static void command(enum game_command_kind kind, enum game_role role, int color, uint32_t id)
{
	struct game_command c = cmd(kind, role, id);

	c.color = color;
	rt_command(t, &c);
}

static void open_edition(enum rules_edition edition, enum game_mode mode, const char *tc)
{
	referee_settings_defaults(&t->set);
	t->set.next.edition = edition;
	t->set.next.mode = mode;
	rt_open(t, W, tc, NULL);
}

static struct game_record record(enum game_record_type type, uint64_t ms)
{
	struct game_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = type;
	rec.ms = ms;
	return rec;
}

static chess_move uci(const char *text)
{
	char from[3] = {text[0], text[1], 0}, to[3] = {text[2], text[3], 0};

	return chess_move_make(chess_square_parse(from), chess_square_parse(to), CHESS_MOVE_NORMAL,
			       CHESS_NO_PIECE);
}

static int64_t reading(int color)
{
	return clock_remaining(&rt_game(t)->clock, color, t->now);
}

/* The game's status as the control interface gives it to an arbiter. */
static const char *status(void)
{
	static char text[16384];
	struct strbuf b = {0};
	struct control_status_extra x = {
	    .now = t->now, .audience = GAME_AUDIENCE_ARBITER, .lang = "de"};
	char *s;

	control_reply_status(&b, rt_game(t), &x);
	s = strbuf_finish(&b);
	assert_non_null(s);
	snprintf(text, sizeof(text), "%s", s);
	free(s);
	return text;
}

static void assert_status(const char *want)
{
	const char *s = status();

	if (!strstr(s, want))
		fail_msg("expected '%s' in status:\n%s", want, s);
}

/* ------------------------------------------------------------------ periods by moves */

/* 6.2.1.2: with 3/30:20, a forgotten press followed by the next move and its press completes
 * both: three moves, the second period's 20 s added; no flag where the press count would
 * have given none. */
static void test_forgotten_press_completes_the_period(void **state)
{
	const struct game *g;

	(void)state;
	rt_open(t, W, "3/30:20", NULL);
	g = rt_game(t);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "g1", "f3");			 /* the press forgotten */
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* does nothing: White's clock runs */
	rt_move(t, "b8", "c6");
	rt_move(t, "f1", "c4"); /* completes 2. Nf3 */
	assert_true(g->plies[2].flags & GAME_PLY_COMPLETE);
	assert_true(g->plies[2].flags & GAME_PLY_COUNTED);
	assert_non_null(strstr(last_record("complete"), "3 -1 running white "));
	assert_int_equal(g->clock.moves[W], 2);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(g->clock.moves[W], 3);
	assert_int_equal(g->clock.period[W], 1);
	assert_true(reading(W) > 45 * SEC && reading(W) < 50 * SEC);
	/* Black completes Nc6 now; White thinks 35 s: the 20 s are there. */
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 35000);
	assert_not_logged("flag-white");
	assert_int_equal(g->result.state, RESULT_ON);
	assert_replays();
}

/* 7.5.3: a press with no move made is not a move: it brings no period early; the move made
 * after it is complete at once and counted then. */
static void test_empty_press_is_not_a_move(void **state)
{
	const struct game *g;
	int64_t before;

	(void)state;
	rt_open(t, W, "3/30:20", NULL);
	g = rt_game(t);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "b8", "c6");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK); /* no move */
	assert_non_null(strstr(last_record("press"), "white empty "));
	assert_int_equal(g->clock.moves[W], 2);
	assert_int_equal(g->clock.period[W], 0);
	before = reading(W);
	rt_move(t, "f1", "c4"); /* complete at once: the press came first */
	assert_true(g->plies[4].flags & GAME_PLY_COUNTED);
	assert_int_equal(g->clock.moves[W], 3);
	assert_int_equal(g->clock.period[W], 1);
	assert_int_equal(reading(W), before + 20 * SEC);
	assert_replays();
}

/* A record of a journal written before: read back, and kept with the run's records. */
static int old_record(const struct game_record *rec)
{
	if (referee_replay(t->r, rec))
		return -1;
	rt_record(t, rec);
	return 0;
}

/* A journal of a version that counted presses, with a forgotten press: at the flag, the
 * moves are checked (6.4) and the completed move the clock did not count is counted, with
 * the period's time: no flag. */
static void test_flag_counts_the_moves_an_old_journal_missed(void **state)
{
	struct game_sink sink = {
	    .user = t, .record = rt_record, .effect = rt_effect, .new_game = rt_new_game};
	struct game_record rec;
	struct time_control tc;
	struct chess_clock c;
	static const struct {
		const char *uci, *san;
		int press; /* -1: none; 0: press; 1: the press is ignored (the other's clock) */
		uint64_t ms;
	} plies[] = {
	    {"e2e4", "e4", 0, 3000},  {"e7e5", "e5", 0, 5000},	 {"g1f3", "Nf3", -1, 7000},
	    {"b8c6", "Nc6", 1, 9000}, {"f1c4", "Bc4", 0, 12000}, {"d7d6", "d6", 0, 14000},
	};
	const struct game *g;

	(void)state;
	referee_settings_defaults(&t->set);
	t->set.next.player = W;
	snprintf(t->set.next.time_control, sizeof(t->set.next.time_control), "3/30:20");
	t->r = referee_new(&t->set, &sink);
	assert_int_equal(time_control_parse("3/30:20", &tc, NULL, 0), 0);
	clock_init(&c, &tc);
	rec = record(REC_GAME, 0);
	rec.u.game = t->set.next;
	snprintf(rec.u.game.id, sizeof(rec.u.game.id), "old");
	assert_int_equal(old_record(&rec), 0);
	clock_press(&c, B, 1000);
	rec = record(REC_PRESS, 1000);
	rec.u.press.color = B;
	rec.u.press.kind = PRESS_START;
	rec.clock = c;
	assert_int_equal(old_record(&rec), 0);
	for (int i = 0; i < 6; i++) {
		int color = i & 1;

		rec = record(REC_MADE, plies[i].ms);
		rec.u.made.ply = i + 1;
		rec.u.made.move = uci(plies[i].uci);
		snprintf(rec.u.made.san, sizeof(rec.u.made.san), "%s", plies[i].san);
		assert_int_equal(old_record(&rec), 0);
		if (i == 4) { /* 2. Nf3 completed by 3. Bc4, uncounted as the old version did */
			rec = record(REC_COMPLETE, plies[i].ms);
			rec.u.complete.ply = 3;
			rec.u.complete.clk_ms = -1;
			assert_int_equal(old_record(&rec), 0);
		}
		if (plies[i].press < 0)
			continue;
		/* The old version: every completing press counted one move. */
		assert_int_equal(clock_press(&c, color, plies[i].ms + 500),
				 plies[i].press ? CLOCK_PRESS_IGNORED : CLOCK_PRESS_MOVE);
		rec = record(REC_PRESS, plies[i].ms + 500);
		rec.u.press.color = color;
		rec.u.press.kind = plies[i].press ? PRESS_IDLE : PRESS_MOVE;
		rec.clock = c;
		assert_int_equal(old_record(&rec), 0);
		if (plies[i].press)
			continue;
		rec = record(REC_COMPLETE, plies[i].ms + 500);
		rec.u.complete.ply = i + 1;
		rec.u.complete.clk_ms = c.last_press_ms[color];
		assert_int_equal(old_record(&rec), 0);
	}
	g = rt_game(t);
	assert_int_equal(g->clock.moves[W], 2); /* two presses for three moves */
	/* The power came back: the clocks stand until the arbiter starts them. */
	t->now = 20000;
	referee_start(t->r, t->now);
	assert_int_equal(g->stopped_by, STOP_RESTART);
	command(CMD_RESUME, ROLE_ARBITER, -1, 1);
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	rt_wait(t, 30000); /* White had about 19 s of the first period */
	assert_not_logged("flag-white");
	assert_int_equal(g->clock.moves[W], 3);
	assert_int_equal(g->clock.period[W], 1);
	assert_non_null(strstr(last_record("complete"), "3 -1 running white "));
	assert_true(reading(W) > 5 * SEC);
	assert_replays();
}

/* ------------------------------------------------------------------ 6.4 at the flag */

/* The opponent's move waits for a press, but a press of theirs was ignored (the player's
 * clock ran): their moves may all be complete.  The flag is left to the arbiter: nothing
 * public, no 0-1. */
static void test_flag_with_the_opponents_moves_made(void **state)
{
	struct game_command set = cmd(CMD_CLOCK_SET, ROLE_ARBITER, 3);
	const struct game *g;

	(void)state;
	rt_open(t, W, "2/20:20", NULL);
	g = rt_game(t);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "g1", "f3");			 /* White forgets to press */
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK); /* Black's press after Nc6: ignored */
	rt_move(t, "b8", "c6");
	rt_move(t, "f1", "c4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(g->ignored_presses[B], 1);
	clear_log();
	rt_wait(t, 30000); /* Black's clock runs out */
	assert_not_logged("flag-black");
	assert_logged(" SAY private paused\n");
	assert_non_null(strstr(last_record("flag"), "black * "));
	assert_int_equal(g->result.state, RESULT_FLAG_PENDING);
	command(CMD_APPROVE, ROLE_ASSISTANT, -1, 2);
	assert_logged(" REPLY error black's flag fell with the period's moves made");
	assert_int_equal(g->result.state, RESULT_FLAG_PENDING);
	assert_status("\"flag_result\":\"*\"");
	/* The arbiter counts them and sets the clocks: the game goes on. */
	set.white_ms = 40 * SEC;
	set.black_ms = 20 * SEC;
	set.white_moves = 3;
	set.black_moves = 2;
	rt_command(t, &set);
	assert_int_equal(g->result.state, RESULT_ON);
	command(CMD_RESUME, ROLE_ARBITER, -1, 4);
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	assert_replays();
}

/* The player's own move made and not pressed when the flag falls: 2023 asks for completed
 * moves (6.3.1, 6.9): the flag stands.  2005 asks for moves made (6.3, 6.2 a) while 6.10 says
 * completed: the arbiter decides. */
static void play_made_not_pressed(enum rules_edition edition)
{
	open_edition(edition, GAME_TOURNAMENT, "2/20:20");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "g1", "f3");
	rt_wait(t, 25000);
}

static void test_flag_with_the_players_move_made(void **state)
{
	(void)state;
	play_made_not_pressed(RULES_2023);
	assert_logged(" SAY public flag-white\n");
	assert_non_null(strstr(last_record("flag"), "white 0-1 "));
	assert_replays();
	rt_close(t);
	memset(t, 0, sizeof(*t));
	play_made_not_pressed(RULES_2005);
	assert_not_logged("flag-white");
	assert_non_null(strstr(last_record("flag"), "white * "));
	assert_replays();
}

/* ------------------------------------------------------------------ the illegal press */

/* 7.5.3 and 7.5.5: `illegal` rules the press with no move: the penalty and the count, the
 * press's increment taken back, the offender's clock runs again and their next move needs
 * its own press. */
static void test_illegal_rules_an_empty_press(void **state)
{
	const struct game *g;
	int64_t white, black;

	(void)state;
	rt_open(t, W, "300+5", NULL);
	g = rt_game(t);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	t->now += 2000;
	white = reading(W);
	rt_event(t, GAME_EV_BUTTON, GAME_BUTTON_PLAYER_CLOCK, true); /* no move */
	assert_int_equal(reading(W), white + 5 * SEC); /* the clock gave its increment */
	rt_event(t, GAME_EV_BUTTON, GAME_BUTTON_PLAYER_CLOCK, false);
	rt_wait(t, 3000);
	black = reading(B);
	assert_status("\"open_presses\":{\"white\":\"empty\",\"black\":null}");
	clear_log();
	command(CMD_ILLEGAL, ROLE_ARBITER, -1, 5);
	/* 5 min + 60 x 5 s: blitz, one minute. */
	assert_logged(" REPLY ok white's press with no move made illegal: white's illegal move "
		      "number 1; +0:01:00 to black (7.5.5, B.3 (A.3))");
	assert_logged("taken back: White 0:00:05");
	assert_int_equal(g->illegal_count[W], 1);
	assert_int_equal(g->clock.running, W);
	assert_int_equal(reading(W), white);
	assert_int_equal(reading(B), black + 60 * SEC);
	assert_false(g->player_pressed_first);
	assert_false(g->open_press[W].open);
	assert_int_equal(game_plies(g), 2);
	rt_move(t, "g1", "f3");
	assert_string_equal(san(2), "Nf3");
	assert_false(g->plies[2].flags & GAME_PLY_COMPLETE); /* waits for its press */
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_true(g->plies[2].flags & GAME_PLY_COMPLETE);
	assert_replays();
}

/* 2005 has no 7.5.3: a press with no move is no illegal move there. */
static void test_empty_press_is_legal_in_2005(void **state)
{
	(void)state;
	open_edition(RULES_2005, GAME_TOURNAMENT, "5400+30");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	command(CMD_ILLEGAL, ROLE_ARBITER, W, 1);
	assert_logged(" REPLY error white's press with no move made: not an illegal move in the "
		      "2005 Laws");
	assert_int_equal(rt_game(t)->illegal_count[W], 0);
}

/* The opponent's press whose move has not reached the tactile board (an illegal move on
 * their board, or none): ruled as a press, their clock runs again. */
static void test_illegal_rules_the_opponents_press(void **state)
{
	const struct game *g;

	(void)state;
	rt_open(t, W, "300+0", NULL);
	g = rt_game(t);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_int_equal(g->completion.early_presses.count, 1);
	command(CMD_ILLEGAL, ROLE_ARBITER, B, 2);
	assert_logged(" REPLY ok black's press whose move is not on the tactile board illegal");
	assert_int_equal(g->completion.early_presses.count, 0);
	assert_int_equal(g->clock.running, B);
	assert_int_equal(g->clock.moves[B], 0);
	rt_move(t, "e7", "e5");
	assert_false(g->plies[1].flags & GAME_PLY_COMPLETE);
	assert_replays();
}

/* ------------------------------------------------------------------ 7.1: taken back */

/* The retracted moves' increments, period time and counted moves come off; the time used
 * stays used. */
static void test_illegal_takes_back_increments_and_counters(void **state)
{
	const struct game *g;
	int64_t white;

	(void)state;
	rt_open(t, W, "2/300+10:60+10", NULL);
	g = rt_game(t);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK); /* move 2: +10 s and the next period's 60 s */
	assert_int_equal(g->clock.moves[W], 2);
	assert_int_equal(g->clock.period[W], 1);
	white = reading(W);
	command(CMD_ILLEGAL, ROLE_ARBITER, W, 1);
	/* 5 min + 60 x 10 s: rapid, one minute (A.3). */
	assert_logged("2. Nf3 illegal: white's illegal move number 1; +0:01:00 to black (7.5.5, "
		      "A.3);");
	assert_logged("moves 1/1; taken back: White 0:01:10 and 1 move");
	assert_int_equal(g->clock.moves[W], 1);
	assert_int_equal(g->clock.period[W], 0);
	assert_int_equal(g->clock.running, W);
	assert_int_equal(reading(W), white - 70 * SEC);
	/* The move made again completes the period again. */
	rt_move(t, "f3", "g1");
	rt_wait(t, 500);
	rt_move(t, "b1", "c3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(g->clock.moves[W], 2);
	assert_int_equal(g->clock.period[W], 1);
	assert_replays();
}

/* ------------------------------------------------------------------ 2005 */

/* B6: in 2005 rapid the illegal move is ruled only before the opponent moves. */
static void test_2005_rapid_only_before_the_opponent_moves(void **state)
{
	(void)state;
	open_edition(RULES_2005, GAME_TOURNAMENT, "900+0");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	command(CMD_ILLEGAL, ROLE_ARBITER, W, 1);
	assert_logged(" REPLY error 1. e4: black has moved since; under 2005 the illegal move "
		      "stands (7.4 b, B6)");
	command(CMD_ILLEGAL, ROLE_ARBITER, B, 2);
	assert_logged(" REPLY ok 1... e5 illegal: black's illegal move number 1; +0:02:00 to "
		      "white (7.4 b, B6)");
}

/* C3: in 2005 blitz (under 15 minutes: 12 minutes here) the completed illegal move gives
 * the opponent the win, or a draw when they cannot mate. */
static void test_2005_blitz_illegal_move_loses(void **state)
{
	(void)state;
	open_edition(RULES_2005, GAME_TOURNAMENT, "720+0");
	assert_int_equal(rules_kind(rt_game(t)->rules, &rt_game(t)->tc), CLOCK_BLITZ);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	command(CMD_ILLEGAL, ROLE_ARBITER, W, 1);
	assert_logged(" REPLY ok 1. e4 illegal: white's illegal move number 1 ends the game: 0-1 "
		      "(C3)");
	assert_string_equal(rt_game(t)->result.result, "0-1");
	assert_replays();
	rt_close(t);
	memset(t, 0, sizeof(*t));
	/* Black has a bare king: the claim gives a draw. */
	referee_settings_defaults(&t->set);
	t->set.next.edition = RULES_2005;
	rt_open(t, W, "300+0", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "d2", "d3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	command(CMD_ILLEGAL, ROLE_ARBITER, W, 2);
	assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
}

/* 2005 7.4 b declares the game lost at the third illegal move, with no draw clause: Black's
 * bare king wins it; 2023's 7.5.5 makes the same game a draw. */
static void illegal_three_times(enum rules_edition edition)
{
	referee_settings_defaults(&t->set);
	t->set.next.edition = edition;
	rt_open(t, W, "5400+0", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	for (int n = 0; n < 3 && !game_over(rt_game(t)); n++) {
		rt_move(t, "d2", "d3");
		rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
		command(CMD_ILLEGAL, ROLE_ARBITER, W, (uint32_t)n);
		rt_move(t, "d3", "d2");
		rt_wait(t, 500);
	}
	assert_true(game_over(rt_game(t)));
}

static void test_2005_losing_illegal_move_has_no_draw_clause(void **state)
{
	(void)state;
	illegal_three_times(RULES_2005);
	assert_string_equal(rt_game(t)->result.result, "0-1");
	assert_int_equal(rt_game(t)->illegal_count[W], 3);
	rt_close(t);
	memset(t, 0, sizeof(*t));
	illegal_three_times(RULES_2023);
	assert_string_equal(rt_game(t)->result.result, "1/2-1/2");
	assert_int_equal(rt_game(t)->illegal_count[W], 2);
}

/* 9.5 b: a wrong claim gives the opponent three minutes and cuts the claimant's time. */
static void test_2005_wrong_claim(void **state)
{
	struct game_command claim = cmd(CMD_CLAIM, ROLE_ASSISTANT, 1);
	struct game_command rule = cmd(CMD_RULING, ROLE_ARBITER, 2);
	struct game_command set = cmd(CMD_CLOCK_SET, ROLE_ARBITER, 3);
	int64_t white, black;

	(void)state;
	open_edition(RULES_2005, GAME_TOURNAMENT, "5400+0");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	claim.claim = CLAIM_THREEFOLD;
	rt_command(t, &claim);
	white = reading(W);
	black = reading(B);
	rule.upheld = false;
	rt_command(t, &rule);
	assert_logged(" REPLY ok claim rejected: +0:03:00 to black (9.5 b), white's time cut from");
	assert_int_equal(reading(B), black + 180 * SEC);
	assert_int_equal(reading(W), white - 180 * SEC);
	/* With 1:30 left, the claimant is set to one minute. */
	set.white_ms = 90 * SEC;
	set.black_ms = 600 * SEC;
	rt_command(t, &set);
	rt_command(t, &claim);
	rt_command(t, &rule);
	assert_logged("white's time cut from 0:01:30 to 0:01:00");
	assert_int_equal(reading(W), 60 * SEC);
	assert_replays();
}

/* ------------------------------------------------------------------ 6.11: who starts */

/* The arbiter's stop, a claim's and a restart's: the player's pause button starts none of
 * them in a tournament; status says who stopped them. */
static void test_only_the_arbiter_resumes(void **state)
{
	struct game_command claim = cmd(CMD_CLAIM, ROLE_ASSISTANT, 2);
	struct game_sink none = {0};
	struct referee *fresh;
	const struct game *g;

	(void)state;
	rt_open(t, W, "600+0", NULL);
	g = rt_game(t);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	command(CMD_PAUSE, ROLE_ARBITER, -1, 1);
	assert_status("\"stopped_by\":\"arbiter\",\"stopped_by_author\":\"arb\"");
	clear_log();
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_logged(" SAY private arbiter-resumes\n");
	assert_int_equal(g->clock.state, CLOCK_PAUSED);
	command(CMD_RESUME, ROLE_ARBITER, -1, 3);
	assert_logged(" REPLY ok clocks running: white's");
	assert_status("\"stopped_by\":null");
	/* A claim stops them. */
	claim.claim = CLAIM_FIFTY;
	rt_command(t, &claim);
	assert_status("\"stopped_by\":\"claim\",\"stopped_by_author\":\"asst\"");
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_int_equal(g->clock.state, CLOCK_PAUSED);
	command(CMD_RESUME, ROLE_ARBITER, -1, 4);
	assert_int_equal(g->clock.state, CLOCK_RUNNING);
	/* The player's own stop. */
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_status("\"stopped_by\":\"player\"");
	command(CMD_RESUME, ROLE_ARBITER, -1, 5);
	assert_replays();
	/* A restart's. */
	fresh = referee_new(&t->set, &none);
	assert_int_equal(rt_replay(t, rt_game_start(t), t->nrec, fresh), 0);
	referee_start(fresh, t->now + 5000);
	assert_int_equal(referee_game(fresh)->stopped_by, STOP_RESTART);
	assert_int_equal(referee_game(fresh)->clock.state, CLOCK_PAUSED);
	{
		struct game_event ev = {.kind = GAME_EV_BUTTON,
					.ms = t->now + 6000,
					.index = GAME_BUTTON_PAUSE,
					.active = true};

		referee_handle(fresh, &ev);
		assert_int_equal(referee_game(fresh)->clock.state, CLOCK_PAUSED);
	}
	referee_free(fresh);
}

/* A press while the clocks stand: no reading, no switch; the arbiter's resume says so and
 * starts the clock of the side to move. */
static void test_press_while_paused(void **state)
{
	const struct game *g;
	int64_t white;

	(void)state;
	rt_open(t, W, "600+10", NULL);
	g = rt_game(t);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	command(CMD_PAUSE, ROLE_ARBITER, -1, 1);
	rt_move(t, "e2", "e4");
	white = reading(W);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_non_null(strstr(last_record("press"), "white paused "));
	assert_int_equal(g->plies[0].clk_ms, -1);
	assert_int_equal(reading(W), white); /* no increment */
	assert_int_equal(g->clock.moves[W], 1);
	assert_int_equal(g->clock.running, W);
	assert_status("\"completed_while_stopped\":\"white\"");
	command(CMD_RESUME, ROLE_ARBITER, -1, 2);
	assert_logged(" REPLY ok clocks running: black's; white pressed while they stood, "
		      "completing 1. e4 (no reading, no increment), so white's clock no longer "
		      "runs");
	assert_int_equal(g->clock.running, B);
	assert_int_equal(reading(W), white);
	/* The opponent's press while they stand, their move not yet on the tactile board. */
	command(CMD_PAUSE, ROLE_ARBITER, -1, 3);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	command(CMD_RESUME, ROLE_ARBITER, -1, 4);
	assert_logged(" REPLY ok clocks running: white's; black pressed while they stood, "
		      "completing their move on the opponent's board");
	rt_move(t, "e7", "e5");
	assert_true(g->plies[1].flags & GAME_PLY_COMPLETE);
	assert_int_equal(g->clock.moves[B], 1);
	/* A claim stops them; the claimant completes their move meanwhile; the rejection
	 * starts the other clock. */
	{
		struct game_command claim = cmd(CMD_CLAIM, ROLE_ASSISTANT, 5);
		struct game_command rule = cmd(CMD_RULING, ROLE_ARBITER, 6);

		claim.claim = CLAIM_FIFTY;
		rt_command(t, &claim);
		rt_move(t, "g1", "f3");
		rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
		rule.upheld = false;
		rt_command(t, &rule);
		assert_int_equal(g->clock.state, CLOCK_RUNNING);
		assert_int_equal(g->clock.running, B);
	}
	assert_replays();
}

/* ------------------------------------------------------------------ the next game */

/* An approval while the board shows the start position begins no game: the player asks for
 * one by setting it up (here: a piece lifted and put back). */
static void test_approval_with_the_start_position(void **state)
{
	(void)state;
	rt_open(t, W, "-", NULL);
	command(CMD_RESIGN, ROLE_ASSISTANT, W, 1);
	assert_true(game_over(rt_game(t)));
	command(CMD_APPROVE, ROLE_ASSISTANT, -1, 2);
	rt_wait(t, 10000);
	assert_int_equal(t->games, 1);
	assert_int_equal(rt_game(t)->result.state, RESULT_APPROVED);
	rt_lift(t, "e2");
	rt_place(t, "e2");
	rt_wait(t, 1000);
	assert_int_equal(t->games, 2);
	assert_logged(" SAY private new-game\n");
}

/* ------------------------------------------------------------------ the flag said */

static void flag_game(enum rules_edition edition, enum flag_announce how, const char *tc)
{
	referee_settings_defaults(&t->set);
	t->set.next.edition = edition;
	t->set.flag_announce = how;
	rt_open(t, W, tc, NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 4000000);
	assert_non_null(last_record("flag"));
}

static void next_run(void)
{
	rt_close(t);
	memset(t, 0, sizeof(*t));
}

static void test_flag_announce(void **state)
{
	(void)state;
	flag_game(RULES_2023, FLAG_ANNOUNCE_LAWS, "900+0");
	assert_logged(" SAY public flag-white\n");
	next_run();
	flag_game(RULES_2023, FLAG_ANNOUNCE_PRIVATE, "900+0");
	assert_logged(" SAY private flag-white\n");
	assert_not_logged("public flag-white");
	next_run();
	flag_game(RULES_2023, FLAG_ANNOUNCE_OFF, "900+0");
	assert_not_logged("flag-white");
	next_run();
	/* 2005 B7: in rapid the arbiter does not point a flag out; in standard play he does. */
	flag_game(RULES_2005, FLAG_ANNOUNCE_LAWS, "900+0");
	assert_logged(" SAY private flag-white\n");
	assert_not_logged("public flag-white");
	next_run();
	flag_game(RULES_2005, FLAG_ANNOUNCE_LAWS, "3600+0");
	assert_logged(" SAY public flag-white\n");
	next_run();
	flag_game(RULES_2005, FLAG_ANNOUNCE_PUBLIC, "300+0");
	assert_logged(" SAY public flag-white\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_forgotten_press_completes_the_period, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_empty_press_is_not_a_move, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_flag_counts_the_moves_an_old_journal_missed, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_flag_with_the_opponents_moves_made, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_flag_with_the_players_move_made, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_rules_an_empty_press, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty_press_is_legal_in_2005, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_rules_the_opponents_press, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_illegal_takes_back_increments_and_counters, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_2005_rapid_only_before_the_opponent_moves, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_2005_blitz_illegal_move_loses, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_2005_losing_illegal_move_has_no_draw_clause, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_2005_wrong_claim, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_only_the_arbiter_resumes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_press_while_paused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_approval_with_the_start_position, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_flag_announce, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
