/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Going over a game (docs/training.md "Going over a game") in the referee, through the command
 * table as the control socket gives it and through the buttons: a study's variations and
 * comments, going straight to a move with only the squares that change guided (a piece changed
 * under a peg too), no step before the start position is on the board, and the review said on
 * the speaker too.
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

static int review(const char *line)
{
	return rt_control(t, ROLE_ASSISTANT, line);
}

static void open_casual(void)
{
	referee_settings_defaults(&t->set);
	t->set.next.mode = GAME_CASUAL;
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", NULL);
}

/* The guided squares of the log, in order, as "e2- d5+ d5=" (emptied, filled, confirmed). */
static const char *guided(void)
{
	static char out[512];
	size_t n = 0;

	out[0] = '\0';
	for (const char *q = strstr(t->log, " GUIDE "); q && n + 8 < sizeof(out);
	     q = strstr(q + 1, " GUIDE ")) {
		char sq[3] = {q[7], q[8], 0};
		const char *eol = strchr(q, '\n');
		bool confirmed = strstr(q, "confirmed") && strstr(q, "confirmed") < eol;

		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s%c", n ? " " : "", sq,
				      confirmed			     ? '='
				      : !strncmp(q + 10, "empty", 5) ? '-'
								     : '+');
	}
	return out;
}

/* 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5, with a variation and comments. */
static void load_study(void)
{
	assert_int_equal(review("review load"), 0);
	assert_int_equal(review("review add e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"), 0);
	/* 2... Nf6 3. Bb5+ Bd7 instead of 2... Qxd5 (ply 3). */
	assert_int_equal(review("review variation 0 3 g8f6 f1b5 c8d7"), -1);
	last_reply("usage");
	assert_int_equal(review("review variation 0 3"), 0);
	last_reply("variation 1: from ply 3 of line 0");
	assert_int_equal(review("review add g8f6 f1b5 c8d7"), 0);
	/* Its own variation: 3. c4 instead of 3. Bb5+ (ply 4 of line 1). */
	assert_int_equal(review("review variation 1 4"), 0);
	assert_int_equal(review("review add c2c4"), 0);
	assert_int_equal(review("review variation 1 9"), -1);
	last_reply("line 1 has no move at ply 9");
	assert_int_equal(review("review annotate 0 0 The Scandinavian."), 0);
	assert_int_equal(review("review annotate 0 4 The queen comes out early."), 0);
	assert_int_equal(review("review annotate 1 4 Quieter."), 0);
	assert_int_equal(review("review annotate 1 3 no"), -1);
	last_reply("line 1 has no move at ply 3");
	assert_int_equal(review("review begin"), 0);
	assert_logged("SAY private review-ready\n");
	/* The game's opening comment once the board shows the start. */
	assert_logged(" REVIEW goto - at 0 of 6 comment");
	assert_logged(" 'The Scandinavian.'\n");
}

static void test_variations_and_comments(void **state)
{
	(void)state;
	open_casual();
	load_study();
	clear_log();
	review("review next");
	rt_move(t, "e2", "e4");
	review("review next");
	rt_move(t, "d7", "d5");
	clear_log();
	review("review next");
	/* 2. exd5: the pawn on d5 is changed for White's. */
	assert_logged(" REVIEW next e4d5 at 3 of 6 variations 1\n");
	rt_lift(t, "e4");
	rt_lift(t, "d5");
	rt_place(t, "d5");
	assert_string_equal(guided(), "e4- e4= d5+ d5=");
	/* info: into the variation 2... Nf6, its first move made and guided. */
	clear_log();
	rt_press(t, GAME_BUTTON_INFO);
	assert_logged(" REVIEW enter g8f6 at 4 of 6 line 1 variations 1 comment 'Quieter.'\n");
	rt_move(t, "g8", "f6");
	assert_int_equal(review("review next"), 0);
	last_reply("at ply 5 of 6, in variation 1");
	assert_logged(" REVIEW next f1b5 at 5 of 6 line 1\n");
	/* 3. c4 branches at the position before 3. Bb5+. */
	assert_int_equal(review("review back"), 0);
	assert_logged(" REVIEW back f1b5 at 4 of 6 line 1 variations 1\n");
	assert_int_equal(review("review enter"), 0);
	assert_logged(" REVIEW enter c2c4 at 5 of 5 line 2\n");
	assert_int_equal(review("review next"), -1);
	assert_logged("SAY private review-end-of-variation\n");
	/* Out of 3. c4, then out of 2... Nf6: back where 2... Qxd5 is next. */
	assert_int_equal(review("review leave"), 0);
	assert_logged(" REVIEW leave g8f6 at 4 of 6 line 1 variations 1 comment 'Quieter.'\n");
	/* info at 3. c4's fork, just left: no variation after it there, so out of 2... Nf6 too
	 * (info goes through a fork's variations in turn, then out). */
	clear_log();
	rt_press(t, GAME_BUTTON_INFO);
	assert_logged(" REVIEW leave e4d5 at 3 of 6 variations 1\n");
	/* Past the last variation on the game's line: where we are; then in again, the fork's
	 * first variation. */
	rt_press(t, GAME_BUTTON_INFO);
	assert_logged(" REVIEW where e4d5 at 3 of 6 variations 1\n");
	rt_press(t, GAME_BUTTON_INFO);
	assert_logged(" REVIEW enter g8f6 at 4 of 6 line 1");
	assert_int_equal(review("review leave"), 0);
	assert_int_equal(review("review leave"), -1);
	last_reply("the review shows the game's own line, no variation");
	/* The comment is said after its move, and again with repeat. */
	clear_log();
	assert_int_equal(review("review next"), 0);
	assert_logged(" REVIEW next d8d5 at 4 of 6 comment 'The queen comes out early.'\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" REVIEW comment d8d5 at 4 of 6 comment 'The queen comes out early.'\n");
	assert_non_null(strstr(rt_status(t), "\"at\":4,\"plies\":6,\"line\":0,\"aloud\":false"));
}

static void test_comments_on_request(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->set.next.mode = GAME_CASUAL;
	t->set.review_comments_on_request = true;
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", NULL);
	load_study();
	clear_log();
	review("review goto 2...");
	/* Only that there is a comment; repeat says it. */
	assert_logged(" REVIEW goto d8d5 at 4 of 6 comment-cue 'The queen comes out early.'\n");
	review("review comment");
	assert_logged(" REVIEW comment d8d5 at 4 of 6 comment 'The queen comes out early.'\n");
}

/* Straight to a move: only the squares that differ from the position shown are guided, a
 * piece changed under its peg among them; then back to the start the same way. */
static void test_goto_guides_the_difference(void **state)
{
	(void)state;
	open_casual();
	load_study();
	clear_log();
	assert_int_equal(review("review goto 3"), 0);
	last_reply("at ply 5 of 6");
	assert_logged(" REVIEW goto b1c3 at 5 of 6\n");
	/* From the start: b1, e2, d7, d8 emptied, then c3 and d5 filled. */
	assert_string_equal(guided(), "b1-");
	rt_lift(t, "b1");
	rt_lift(t, "e2");
	rt_lift(t, "d7");
	rt_lift(t, "d8");
	rt_place(t, "c3");
	rt_place(t, "d5");
	assert_string_equal(guided(), "b1- b1= e2- e2= d7- d7= d8- d8= c3+ c3= d5+ d5=");
	/* One more: 3... Qa5 moves the queen; back to 2. exd5 puts the pawn under d5's peg. */
	clear_log();
	assert_int_equal(review("review goto 2."), 0);
	assert_logged(" REVIEW goto e4d5 at 3 of 6 variations 1\n");
	assert_string_equal(guided(), "c3-");
	rt_lift(t, "c3");
	rt_place(t, "b1");
	assert_string_equal(guided(), "c3- c3= b1+ b1= d5+");
	/* d5 stays occupied: the queen is lifted and the pawn put in; the queen goes back to
	 * d8. */
	rt_lift(t, "d5");
	rt_place(t, "d5");
	rt_place(t, "d8");
	assert_string_equal(guided(), "c3- c3= b1+ b1= d5+ d5= d8+ d8=");
	assert_non_null(strstr(t->log, " GUIDE d5 occupied P confirmed"));
	/* The chooser on the buttons: the menu's item, ten on, one back, go. */
	clear_log();
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-end-review\n");
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged("SAY private menu-review-goto\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" REVIEW choose-begin - at 3 of 6 move 2\n");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	/* Held to the game's last move. */
	assert_logged(" REVIEW choose - at 3 of 6 move 3\n");
	rt_press(t, GAME_BUTTON_INFO);
	rt_press(t, GAME_BUTTON_INFO);
	rt_press(t, GAME_BUTTON_INFO);
	assert_logged(" REVIEW choose - at 3 of 6 move 0\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged(" REVIEW goto - at 0 of 6 comment 'The Scandinavian.'\n");
	/* The clock buttons step again once the move is gone to. */
	clear_log();
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_logged("SAY private review-start-of-game\n");
}

/* A step before the start position is on the board: said, and the next square named. */
static void test_set_up_first(void **state)
{
	(void)state;
	open_casual();
	rt_lift(t, "e2");
	assert_int_equal(review("review load"), 0);
	assert_int_equal(review("review add e2e4 e7e5"), 0);
	assert_int_equal(review("review begin"), 0);
	assert_not_logged("review-ready");
	clear_log();
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged("SAY private review-setup-first\n");
	assert_logged(" GUIDE e2 occupied P\n");
	assert_not_logged(" REVIEW next");
	assert_int_equal(review("review next"), -1);
	last_reply("set the board up first: 1 square to put right");
	assert_int_equal(review("review goto 1"), -1);
	assert_int_equal(review("review where"), 0);
	rt_place(t, "e2");
	assert_logged("SAY private review-ready\n");
	assert_int_equal(review("review next"), 0);
	assert_logged(" REVIEW next e2e4 at 1 of 2\n");
}

/* The review on the speaker too, for a coach beside the player: its steps, its guidance and
 * its words public (the setting, the menu's item or the command); the menu itself stays in the
 * earphone, and the game's own position is guided back there. */
static void test_review_aloud(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->set.next.mode = GAME_CASUAL;
	t->set.review_aloud = true;
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", NULL);
	assert_int_equal(review("review load"), 0);
	assert_int_equal(review("review add e2e4 e7e5"), 0);
	assert_int_equal(review("review begin"), 0);
	assert_logged("SAY public review-setup\n");
	assert_logged("SAY public review-ready\n");
	clear_log();
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_logged(" REVIEW next e2e4 at 1 of 2 aloud\n");
	assert_logged(" GUIDE e2 empty   aloud\n");
	/* The menu's item: in the earphone only from now on. */
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	assert_logged("SAY private menu-end-review\n");
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged("SAY private menu-review-quiet\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged("SAY private review-quiet\n");
	clear_log();
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged(" REVIEW where e2e4 at 1 of 2\n");
	assert_logged(" GUIDE e4 occupied P\n");
	assert_int_equal(review("review aloud on"), 0);
	last_reply("the review is said on the speaker too");
	assert_logged("SAY public review-aloud\n");
	assert_non_null(strstr(t->log, "aloud"));
	assert_int_equal(review("review end"), 0);
	/* The game had no move: its position goes back in the earphone. */
	assert_logged("SAY private review-return\n");
}

/* The menu's "play on from here": a casual game from the position shown, the waiting
 * training process asked to play it. */
static void test_play_on_from_here(void **state)
{
	struct control_env env = {.referee = NULL,
				  .role = ROLE_ASSISTANT,
				  .author = "trainer",
				  .connection = true,
				  .watching = true};
	struct control_outcome out;
	const struct game *g;

	(void)state;
	open_casual();
	env.referee = t->r;
	env.now = t->now;
	control_dispatch(&env, "engine wait", 11, &out);
	assert_true(out.ok);
	control_outcome_free(&out);
	load_study();
	assert_int_equal(review("review goto 2."), 0);
	rt_lift(t, "e2");
	rt_lift(t, "d7");
	clear_log();
	/* Played from before the board shows it: the new game guides the rest. */
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_SELECT);
	assert_logged("SAY private menu-review-play\n");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged("SAY private new-game-setup\n");
	assert_logged(" GUIDE d5 occupied P\n");
	assert_not_logged("SAY private new-game\n");
	assert_logged(" ENGINE_ASK play black ply 0\n");
	assert_non_null(strstr(rt_status(t), "\"review\":null"));
	rt_place(t, "d5");
	assert_logged(" GUIDE d5 occupied P confirmed\n");
	rt_wait(t, 300);
	assert_logged("SAY private setup-done\n");
	/* Once more from the board as it stands: no set-up to do. */
	assert_int_equal(review("resign white"), 0);
	clear_log();
	assert_int_equal(
	    review("review load rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"), 0);
	assert_int_equal(review("review add d8d5"), 0);
	assert_int_equal(review("review begin"), 0);
	assert_logged("SAY private review-ready\n");
	rt_hold(t, GAME_BUTTON_SELECT, 1100);
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_logged("SAY private new-game\n");
	assert_logged(" ENGINE_ASK play black ply 0\n");
	assert_non_null(strstr(rt_status(t), "\"review\":null"));
	g = rt_game(t);
	assert_string_equal(g->params.fen,
			    "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
	assert_int_equal(g->params.mode, GAME_CASUAL);
	/* The board shows it: the game goes on from the pegs. */
	rt_capture(t, "d8", "d5");
	rt_move(t, "b1", "c3");
	assert_int_equal(game_plies(g), 2);
	assert_string_equal(san(0), "Qxd5");
	assert_replays();
}

/* None of it in a tournament: the command table refuses it. */
static void test_tournament(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->set.review_aloud = true;
	t->now = 1000;
	rt_open(t, CHESS_WHITE, "-", NULL);
	assert_int_equal(review("review aloud on"), -1);
	last_reply("not allowed in tournament mode");
	assert_int_equal(review("review goto 3"), -1);
	assert_int_equal(review("review variation 0 1"), -1);
	assert_not_logged("aloud");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_variations_and_comments, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_comments_on_request, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_goto_guides_the_difference, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_set_up_first, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_review_aloud, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_play_on_from_here, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tournament, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
