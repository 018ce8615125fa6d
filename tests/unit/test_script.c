/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gpio/board.h"
#include "daemon/script.h"

static int parse(const char *text, struct script *s, char *err, size_t size)
{
	return script_parse(text, strlen(text), "t.script", s, err, size);
}

static void test_actions(void **state)
{
	struct script s;
	char err[256] = "";
	const char *text = "# a game\n"
			   "player black\n"
			   "time-control 40/5400+30:1800+30\n"
			   "setup rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n"
			   "\n"
			   "+100 lift e2   # touch\n"
			   "+250 place e4\n"
			   "press player-clock\n"
			   "+1000 hold opponent-clock 300\n"
			   "\t+5\tchatter h8 3\r\n"
			   "+0 crash";
	(void)state;
	assert_int_equal(parse(text, &s, err, sizeof(err)), 0);
	assert_int_equal(s.header.player, 1);
	assert_int_equal(s.header.player_line, 2);
	assert_true(s.header.has_time_control);
	assert_string_equal(s.header.time_control, "40/5400+30:1800+30");
	assert_int_equal(s.header.time_control_line, 3);
	assert_true(s.header.has_setup);
	assert_string_equal(s.header.setup_fen,
			    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
	assert_int_equal(s.header.setup_line, 4);
	assert_int_equal(s.count, 6);
	assert_int_equal(s.actions[0].type, SCRIPT_LIFT);
	assert_int_equal(s.actions[0].target, 12);
	assert_int_equal(s.actions[0].time_ms, 100);
	assert_int_equal(s.actions[0].line, 6);
	assert_int_equal(s.actions[1].type, SCRIPT_PLACE);
	assert_int_equal(s.actions[1].target, 28);
	assert_int_equal(s.actions[1].time_ms, 350);
	assert_int_equal(s.actions[2].type, SCRIPT_PRESS);
	assert_int_equal(s.actions[2].target, BOARD_BUTTON_PLAYER_CLOCK);
	assert_int_equal(s.actions[2].arg, SCRIPT_PRESS_MS);
	assert_int_equal(s.actions[2].time_ms, 350);
	assert_int_equal(s.actions[3].type, SCRIPT_HOLD);
	assert_int_equal(s.actions[3].target, BOARD_BUTTON_OPPONENT_CLOCK);
	assert_int_equal(s.actions[3].arg, 300);
	assert_int_equal(s.actions[3].time_ms, 1350);
	assert_int_equal(s.actions[4].type, SCRIPT_CHATTER);
	assert_int_equal(s.actions[4].target, 63);
	assert_int_equal(s.actions[4].arg, 3);
	assert_int_equal(s.actions[4].time_ms, 1355);
	assert_int_equal(s.actions[4].line, 10);
	assert_int_equal(s.actions[5].type, SCRIPT_CRASH);
	assert_int_equal(s.actions[5].line, 11);
	script_free(&s);
}

static void test_defaults(void **state)
{
	struct script s;
	char err[256];

	(void)state;
	assert_int_equal(parse("", &s, err, sizeof(err)), 0);
	assert_int_equal(s.count, 0);
	assert_int_equal(s.header.player, -1);
	assert_false(s.header.has_time_control);
	assert_false(s.header.has_setup);
	script_free(&s);
	assert_int_equal(parse("time-control -\nplayer white\n", &s, err, sizeof(err)), 0);
	assert_string_equal(s.header.time_control, "-");
	assert_int_equal(s.header.player, 0);
	script_free(&s);
	for (int b = 0; b < BOARD_BUTTON_COUNT; b++) {
		char text[64];

		snprintf(text, sizeof(text), "press %s\n", board_button_name((enum board_button)b));
		assert_int_equal(parse(text, &s, err, sizeof(err)), 0);
		assert_int_equal(s.actions[0].target, b);
		script_free(&s);
	}
}

static void test_fen_occupancy(void **state)
{
	uint64_t occ;

	(void)state;
	assert_int_equal(
	    script_fen_occupancy("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &occ),
	    0);
	assert_true(occ == SCRIPT_INITIAL_OCCUPANCY);
	assert_int_equal(script_fen_occupancy("8/8/8/8/8/8/8/K6k", &occ), 0);
	assert_true(occ == ((1ull << 0) | (1ull << 7)));
	assert_int_equal(script_fen_occupancy("8/8/8/8/8/8/8/K7k", &occ), -1);
	assert_int_equal(script_fen_occupancy("8/8/8/8/8/8/8", &occ), -1);
	assert_int_equal(script_fen_occupancy("8/8/8/8/8/8/8/8/8", &occ), -1);
	assert_int_equal(script_fen_occupancy("8/8/8/8/8/8/8/7x", &occ), -1);
}

struct bad_case {
	const char *text;
	const char *error;
};

/* Sensor faults: squares and buttons, levels, durations, seeds (given, or from the time
 * and the line). */
static void test_faults(void **state)
{
	struct script s;
	char err[256];

	(void)state;
	assert_int_equal(parse("+100 stuck e2 occupied 4000\n+5 stuck select up 300\n"
			       "+10 bounce g1 60 7\n+10 bounce pause 40\n+10 bounce pause 40\n",
			       &s, err, sizeof(err)),
			 0);
	assert_int_equal(s.count, 5);
	assert_int_equal(s.actions[0].type, SCRIPT_STUCK);
	assert_int_equal(s.actions[0].target, 12);
	assert_int_equal(s.actions[0].arg, 4000);
	assert_int_equal(s.actions[0].arg2, 1);
	assert_int_equal(s.actions[1].target, BOARD_SIM_BUTTON + BOARD_BUTTON_SELECT);
	assert_int_equal(s.actions[1].arg2, 0);
	assert_int_equal(s.actions[2].type, SCRIPT_BOUNCE);
	assert_int_equal(s.actions[2].arg2, 7);
	assert_int_equal(s.actions[3].target, BOARD_SIM_BUTTON + BOARD_BUTTON_PAUSE);
	/* Without a seed, two bounces at different times flicker differently. */
	assert_int_not_equal(s.actions[3].arg2, s.actions[4].arg2);
	script_free(&s);
}

static void test_errors(void **state)
{
	static const struct bad_case cases[] = {
	    {"lift e2\njump e4\n", "t.script:2: unknown action 'jump'"},
	    {"\n\nlift e9\n", "t.script:3: bad square 'e9' (a1..h8)"},
	    {"place E2\n", "t.script:1: bad square 'E2' (a1..h8)"},
	    {"lift\n", "t.script:1: usage: lift SQ"},
	    {"lift e2 e4\n", "t.script:1: unexpected 'e4' after lift"},
	    {"press clock\n", "t.script:1: bad button 'clock'"},
	    {"hold info\n", "t.script:1: usage: hold BUTTON MS"},
	    {"hold info 1x\n", "t.script:1: bad number '1x' (milliseconds, at most 86400000)"},
	    {"chatter a1 0\n", "t.script:1: bad number '0' (bounces, 1..1000)"},
	    {"chatter a1 1001\n", "t.script:1: bad number '1001' (bounces, 1..1000)"},
	    {"crash now\n", "t.script:1: unexpected 'now' after crash"},
	    {"stuck e2 full 100\n", "t.script:1: bad level 'full' (occupied or empty)"},
	    {"stuck select occupied 100\n", "t.script:1: bad level 'occupied' (down or up)"},
	    {"stuck e2 occupied\n",
	     "t.script:1: usage: stuck SQ occupied|empty MS, or stuck BUTTON down|up MS"},
	    {"stuck z9 empty 10\n", "t.script:1: bad square or button 'z9'"},
	    {"stuck e2 empty 0\n", "t.script:1: bad number '0' (milliseconds, 1..86400000)"},
	    {"bounce e2\n", "t.script:1: usage: bounce SQ|BUTTON MS [SEED]"},
	    {"bounce e2 10 1 2\n", "t.script:1: unexpected '2' after bounce"},
	    {"bounce e2 10 -1\n", "t.script:1: bad seed '-1' (0..4294967295)"},
	    {"+abc lift e2\n", "t.script:1: bad number '+abc' (a wait is +MS, at most 86400000)"},
	    {"+-5 lift e2\n", "t.script:1: bad number '+-5' (a wait is +MS, at most 86400000)"},
	    {"+ lift e2\n", "t.script:1: bad number '+' (a wait is +MS, at most 86400000)"},
	    {"+99999999999999999999 lift e2\n",
	     "t.script:1: bad number '+99999999999999999999' (a wait is +MS, at most 86400000)"},
	    {"+10\n", "t.script:1: missing action after '+10'"},
	    {"+10 player white\n", "t.script:1: a header line takes no wait"},
	    {"lift e2\nplayer white\n", "t.script:2: header 'player' after the first action"},
	    {"lift e2\nsetup 8/8/8/8/8/8/8/8 w - - 0 1\n",
	     "t.script:2: header 'setup' after the first action"},
	    {"lift e2\ntime-control 900\n",
	     "t.script:2: header 'time-control' after the first action"},
	    {"player red\n", "t.script:1: bad player 'red' (white or black)"},
	    {"player\n", "t.script:1: usage: player white|black"},
	    {"player white\nplayer black\n", "t.script:2: duplicate 'player' (first on line 1)"},
	    {"time-control 5 minutes\n",
	     "t.script:1: usage: time-control TC (one word, '-' for none)"},
	    {"time-control fast\n", "t.script:1: bad time control 'fast'"},
	    {"setup\n", "t.script:1: usage: setup FEN"},
	    {"setup 8/8/8 w - - 0 1\n", "t.script:1: bad FEN placement '8/8/8'"},
	    {"setup 8/8/8/8/8/8/8/8 w - - 0 1 x\n", "t.script:1: bad FEN: more than six fields"},
	    {"setup 8/8/8/8/8/8/8/8\nsetup 8/8/8/8/8/8/8/8\n",
	     "t.script:2: duplicate 'setup' (first on line 1)"},
	};
	struct script s;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = 0;
		if (parse(cases[i].text, &s, err, sizeof(err)) != -1)
			fail_msg("accepted: %s", cases[i].text);
		assert_string_equal(err, cases[i].error);
		assert_null(s.actions);
	}
}

static void test_bounds(void **state)
{
	struct script s;
	char err[256];
	size_t n = SCRIPT_MAX_LINE + 10;
	char *text = malloc(n + 1);
	char nul[] = "lift e2\nplace\0e4\n";

	(void)state;
	memset(text, ' ', n);
	memcpy(text, "lift e2", 7);
	text[n] = 0;
	assert_int_equal(parse(text, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "t.script:1: line too long (at most 1024 characters)");
	free(text);

	assert_int_equal(script_parse(nul, sizeof(nul) - 1, "t.script", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "t.script:2: NUL character");

	/* SCRIPT_MAX_ACTIONS actions parse, one more does not. */
	n = (size_t)(SCRIPT_MAX_ACTIONS + 1) * 6;
	text = malloc(n + 1);
	for (size_t i = 0; i < (size_t)SCRIPT_MAX_ACTIONS + 1; i++)
		memcpy(text + i * 6, "crash\n", 6);
	assert_int_equal(script_parse(text, n - 6, "t.script", &s, err, sizeof(err)), 0);
	assert_int_equal(s.count, SCRIPT_MAX_ACTIONS);
	script_free(&s);
	assert_int_equal(script_parse(text, n, "t.script", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "t.script:100001: too many actions (at most 100000)");
	free(text);
}

static void test_load(void **state)
{
	char path[] = "/tmp/annabella-script-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct script s;
	char err[512], want[600];

	(void)state;
	fputs("+10 lift a1\n+10 lift z1\n", f);
	fclose(f);
	assert_int_equal(script_load(path, &s, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:2: bad square 'z1' (a1..h8)", path);
	assert_string_equal(err, want);
	unlink(path);
	assert_int_equal(script_load(path, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_actions),	  cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_fen_occupancy), cmocka_unit_test(test_faults),
	    cmocka_unit_test(test_errors),	  cmocka_unit_test(test_bounds),
	    cmocka_unit_test(test_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
