/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A relayed move that names its ply (docs/control.md "Control interface", `move`; D.2.10, D.2.8):
 * two people relaying the same ply at once never replace each other's move; the one who relayed a
 * move may still correct it before the opponent's press; `move MOVE` without a ply is as it always
 * was.  Through the command table, as the control socket gives them, with each reply's
 * text checked against its code (reply_check.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/referee_cases.h"

static struct control_outcome out;
static char code[64];

/* A request by `author` as an assistant (an arbiter for "arbiter"); its reply's code kept
 * in `code`.  Whether it was ok. */
static bool give_as(const char *author, const char *line)
{
	struct control_env env = {.referee = t->r,
				  .now = t->now,
				  .role = strcmp(author, "arbiter") ? ROLE_ASSISTANT : ROLE_ARBITER,
				  .author = author,
				  .connection = true};

	control_outcome_free(&out);
	control_dispatch(&env, line, strlen(line), &out);
	if (reply_check_line(out.reply.p))
		fail_msg("reply to '%s': %s", line, reply_check_line(out.reply.p));
	if (json_get(out.reply.p, "code", code, sizeof(code)) < 0)
		fail_msg("no code in %s", out.reply.p);
	rt_logf(t, "%" PRIu64 " REPLY %s %s\n", t->now, out.ok ? "ok" : "error", out.said);
	referee_flush(t->r, t->now);
	return out.ok;
}

static void assert_reply(const char *want)
{
	if (!out.reply.p || !strstr(out.reply.p, want))
		fail_msg("expected '%s' in the reply %s", want, out.reply.p ? out.reply.p : "");
}

static int teardown_relay(void **state)
{
	control_outcome_free(&out);
	return teardown(state);
}

/* White is the tactile player; 1. e4 made and completed on the board: Black's first move
 * (ply 2) is the opponent's to relay. */
static void open_after_e4(const char *tc)
{
	rt_open(t, CHESS_WHITE, tc, NULL);
	if (strcmp(tc, "-"))
		rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	if (strcmp(tc, "-"))
		rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(game_plies(rt_game(t)), 1);
}

/* The case: Anna and Ben both see Black to move and relay at once.  Anna's is
 * taken; Ben's, naming the same ply, is refused with who relayed it, and nothing changes;
 * Anna corrects her own before Black's press. */
static void test_second_relayer_refused(void **state)
{
	int records;

	(void)state;
	open_after_e4("600+5");
	assert_true(give_as("anna", "move 2 e5"));
	assert_string_equal(code, "relayed");
	assert_reply("\"args\":{\"ply\":2,\"name\":\"1... e5\"}");
	records = t->nrec;
	assert_false(give_as("ben", "move 2 c5"));
	assert_string_equal(code, "relay-taken");
	assert_reply("\"error\":\"ply 2 is 1... e5, relayed by anna: c5 not taken");
	assert_reply("\"args\":{\"ply\":2,\"name\":\"1... e5\",\"by\":\"anna\",\"move\":\"c5\"}");
	assert_int_equal(t->nrec, records);
	assert_string_equal(san(1), "e5");
	/* The same move from Ben: already so, nothing more. */
	assert_true(give_as("ben", "move 2 e5"));
	assert_string_equal(code, "relay-in-game");
	assert_int_equal(t->nrec, records);
	/* Anna's own correction, by the move number this time. */
	assert_true(give_as("anna", "move 1... c5"));
	assert_string_equal(code, "relayed-correction");
	assert_reply("\"args\":{\"ply\":2,\"name\":\"1... c5\",\"replaced\":\"1... e5\"}");
	assert_string_equal(san(1), "c5");
	assert_non_null(last_record("withdrawn"));
	/* Black presses: too late for anyone. */
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_false(give_as("anna", "move 2 e5"));
	assert_string_equal(code, "relay-too-late");
	assert_replays();
}

/* Plies the relay cannot be for. */
static void test_plies_refused(void **state)
{
	(void)state;
	open_after_e4("-");
	assert_false(give_as("anna", "move 4 e5"));
	assert_string_equal(code, "relay-ahead");
	assert_reply("\"error\":\"the game has 1 ply: the next to relay is ply 2, not 4\"");
	assert_false(give_as("anna", "move 1 e4"));
	assert_string_equal(code, "relay-players-ply");
	assert_reply("\"args\":{\"ply\":1,\"color\":\"white\"}");
	assert_false(give_as("anna", "move 1. d4"));
	assert_string_equal(code, "relay-players-ply");
	assert_false(give_as("anna", "move 2 Nf9"));
	assert_string_equal(code, "not-legal");
	assert_reply("\"why\":\"syntax\"");
	assert_false(give_as("anna", "move 2 Ke2"));
	assert_string_equal(code, "not-legal");
	assert_reply("\"why\":\"no-such-move\"");
	assert_false(give_as("anna", "move two e5"));
	assert_string_equal(code, "want-relay-ply");
	assert_false(give_as("anna", "move 0 e5"));
	assert_string_equal(code, "want-relay-ply");
	assert_false(give_as("anna", "move 2 e5 now"));
	assert_string_equal(code, "usage");
	assert_true(give_as("anna", "move 1...e5"));
	assert_string_equal(code, "relayed");
	/* Without a clock the move is complete at once; the game goes on. */
	rt_move(t, "e7", "e5");
	rt_move(t, "g1", "f3");
	assert_true(give_as("anna", "move 4 Nc6"));
	rt_move(t, "b8", "c6");
	/* Ply 2 again, long past: the same move is no harm, another one is refused. */
	assert_true(give_as("ben", "move 2 e5"));
	assert_string_equal(code, "relay-in-game");
	assert_false(give_as("ben", "move 2 c5"));
	assert_string_equal(code, "relay-past");
	assert_reply("\"error\":\"ply 2 is 1... e5, and the game has 4 plies: too late to relay or "
		     "correct it; the arbiter may roll back\"");
	assert_replays();
}

/* A game from a position: move numbers count from its first move. */
static void test_move_numbers_from_a_position(void **state)
{
	(void)state;
	/* Black to move at move 30; White (the tactile player) moves next after it. */
	rt_open(t, CHESS_WHITE, "-", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30");
	assert_false(give_as("anna", "move 29... Kd7"));
	assert_string_equal(code, "relay-before-start");
	assert_reply("\"error\":\"the game begins with move 30: there is no move 29 in it\"");
	assert_true(give_as("anna", "move 30... Kd7"));
	assert_string_equal(code, "relayed");
	assert_reply("\"name\":\"30... Kd7\"");
	assert_int_equal(game_plies(rt_game(t)), 1);
}

/* `move MOVE` without a ply: the opponent's next move, or a correction of their last
 * before their press, whoever relays it (as it always was); 0-0 is a move. */
static void test_without_ply_as_before(void **state)
{
	(void)state;
	open_after_e4("600+5");
	assert_true(give_as("anna", "move e5"));
	assert_string_equal(code, "relayed");
	assert_true(give_as("ben", "move c5"));
	assert_string_equal(code, "relayed-correction");
	assert_false(give_as("ben", "move 0-0"));
	assert_string_equal(code, "not-legal");
	assert_reply("\"move\":\"0-0\"");
	rt_close(t);
	rt_open(t, CHESS_WHITE, "-", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1");
	assert_true(give_as("anna", "move 0-0-0"));
	assert_reply("\"name\":\"1... O-O-O\"");
}

/* A move made on the tactile board has no relayer: a relay naming its ply corrects it
 * (the relayer tells what the opponent played; the board then differs). */
static void test_board_move_corrected_by_relay(void **state)
{
	(void)state;
	open_after_e4("600+5");
	rt_move(t, "e7", "e5");
	assert_int_equal(game_plies(rt_game(t)), 2);
	assert_true(give_as("anna", "move 2 c5"));
	assert_string_equal(code, "relayed-correction");
	assert_string_equal(san(1), "c5");
}

/* After a restart the journal says who relayed the last move: Ben is still refused. */
static void test_relayer_kept_across_restart(void **state)
{
	struct game_sink none = {0};
	struct referee *fresh;
	struct control_env env;

	(void)state;
	open_after_e4("600+5");
	assert_true(give_as("anna", "move 2 e5"));
	assert_string_equal(rt_game(t)->relayed_by, "anna");
	fresh = referee_new(&t->set, &none);
	assert_non_null(fresh);
	assert_int_equal(rt_replay(t, rt_game_start(t), t->nrec, fresh), 0);
	assert_string_equal(referee_game(fresh)->relayed_by, "anna");
	assert_int_equal(referee_game(fresh)->relayed_ply, 1);
	env = (struct control_env){
	    .referee = fresh, .now = t->now, .role = ROLE_ASSISTANT, .author = "ben"};
	control_outcome_free(&out);
	control_dispatch(&env, "move 2 c5", 9, &out);
	assert_false(out.ok);
	assert_reply("\"code\":\"relay-taken\"");
	control_outcome_free(&out);
	env.author = "anna";
	control_dispatch(&env, "move 2 c5", 9, &out);
	assert_true(out.ok);
	assert_reply("\"code\":\"relayed-correction\"");
	referee_free(fresh);
}

/* `auth PIN NAME` names the person at a connection (the web page's phones). */
static void test_auth_name(void **state)
{
	static const unsigned char salt[PIN_HASH_SALT] = "salt of the test";
	struct pin_secret assistant = {0};
	struct control_env env;

	(void)state;
	rt_open(t, CHESS_WHITE, "-", NULL);
	pin_hash_make(&assistant.hash, "1234", salt, PIN_HASH_ITERATIONS);
	env = (struct control_env){.referee = t->r,
				   .role = ROLE_ASSISTANT,
				   .author = "web",
				   .connection = true,
				   .assistant_pin = &assistant};
	control_outcome_free(&out);
	control_dispatch(&env, "auth 1234 p7k2x9", 16, &out);
	assert_true(out.ok);
	assert_int_equal(out.action, CONTROL_ACT_ROLE);
	assert_string_equal(out.name, "p7k2x9");
	assert_reply("\"text\":\"assistant\",\"code\":\"auth\",\"args\":{\"role\":\"assistant\"}");
	control_outcome_free(&out);
	control_dispatch(&env, "auth 1234 two words", 19, &out);
	assert_false(out.ok);
	assert_reply("\"code\":\"usage\"");
	control_outcome_free(&out);
	control_dispatch(&env, "auth 1234 a:b", 13, &out);
	assert_false(out.ok);
	assert_reply("\"code\":\"want-name\"");
	assert_int_equal(out.action, CONTROL_ACT_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_second_relayer_refused, setup, teardown_relay),
	    cmocka_unit_test_setup_teardown(test_plies_refused, setup, teardown_relay),
	    cmocka_unit_test_setup_teardown(test_move_numbers_from_a_position, setup,
					    teardown_relay),
	    cmocka_unit_test_setup_teardown(test_without_ply_as_before, setup, teardown_relay),
	    cmocka_unit_test_setup_teardown(test_board_move_corrected_by_relay, setup,
					    teardown_relay),
	    cmocka_unit_test_setup_teardown(test_relayer_kept_across_restart, setup,
					    teardown_relay),
	    cmocka_unit_test_setup_teardown(test_auth_name, setup, teardown_relay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
