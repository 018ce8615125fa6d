/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The board over the sim backend in virtual time, with each wiring. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "daemon/driver.h"
#include "gpio/board.h"
#include "tests/unit/board_testutil.h"

#define MAX_EVENTS 256

static const enum board_wiring wirings[] = {BOARD_WIRING_DIRECT, BOARD_WIRING_MATRIX,
					    BOARD_WIRING_SHIFT};

struct run {
	struct board_event ev[MAX_EVENTS];
	int n;
	uint64_t now;
};

static char script_path[64];

static const char *write_script(const char *text)
{
	int fd;
	FILE *f;

	snprintf(script_path, sizeof(script_path), "/tmp/annabella-board-XXXXXX");
	fd = mkstemp(script_path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return script_path;
}

/* The board of the sim backend, played by the board-script driver as the daemon plays it. */
static struct driver *driver;

static struct board *open_sim(const struct board_config *cfg, const char *text)
{
	char err[256] = "";
	struct driver_hooks hooks = {0};
	struct board *b;

	driver_free(driver);
	driver = driver_open(write_script(text), cfg, err, sizeof(err));
	if (!driver)
		fail_msg("driver_open: %s", err);
	unlink(script_path);
	b = board_open(cfg, "sim:test", NULL, 0, err, sizeof(err));
	if (!b)
		fail_msg("board_open: %s", err);
	driver_start(driver, b, 0, &hooks);
	return b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Run virtual time from deadline to deadline until `until`: the script's actions at a time
 * first, then the board. */
static void run_until(struct board *b, struct run *r, uint64_t until)
{
	for (int guard = 0; guard < 1000000; guard++) {
		uint64_t d = min_u64(board_deadline(b),
				     driver ? driver_deadline(driver, r->now) : UINT64_MAX);
		int n;

		if (d > until)
			break;
		if (d > r->now)
			r->now = d;
		if (driver)
			driver_run(driver, r->now);
		n = board_service(b, r->now, r->ev + r->n, MAX_EVENTS - r->n);
		assert_true(n >= 0);
		r->n += n;
	}
	if (r->now < until)
		r->now = until;
}

static bool finished(const struct board *b)
{
	return board_finished(b) && (!driver || driver_done(driver));
}

static void expect(const struct run *r, int i, uint64_t time, enum board_event_type type, int index,
		   bool active)
{
	if (i >= r->n)
		fail_msg("event %d missing (%d events)", i, r->n);
	if (r->ev[i].time_ms != time || r->ev[i].type != type || r->ev[i].index != index ||
	    r->ev[i].active != active)
		fail_msg("event %d: got %llu %d %d %d, want %llu %d %d %d", i,
			 (unsigned long long)r->ev[i].time_ms, r->ev[i].type, r->ev[i].index,
			 r->ev[i].active, (unsigned long long)time, type, index, active);
}

static void test_lift_place(void **state)
{
	(void)state;
	for (int lo = 0; lo < 2; lo++) {
		for (size_t w = 0; w < 3; w++) {
			struct board_config cfg;
			struct run r = {.n = 0};
			struct board *b;

			board_test_config(&cfg, wirings[w], lo);
			b = open_sim(&cfg, "+100 lift e2\n+400 place e4\n+1000 lift g8\n");
			assert_true(board_occupancy(b) == 0xffff00000000ffffull);
			assert_false(driver_header(driver)->has_setup);
			run_until(b, &r, 5000);
			assert_int_equal(r.n, 3);
			/* lifts at scan times (multiples of 10 ms) look the same to every wiring */
			expect(&r, 0, 120, BOARD_EVENT_SQUARE, 12, false);
			assert_int_equal(r.ev[0].change_ms, 100);
			expect(&r, 1, 520, BOARD_EVENT_SQUARE, 28, true);
			expect(&r, 2, 1520, BOARD_EVENT_SQUARE, 62, false);
			assert_true(
			    board_occupancy(b) ==
			    ((0xffff00000000ffffull & ~(1ull << 12) & ~(1ull << 62)) | 1ull << 28));
			assert_true(finished(b));
			board_close(b);
		}
	}
}

static void test_scan_timing(void **state)
{
	(void)state;
	for (size_t w = 1; w < 3; w++) {
		struct board_config cfg;
		struct run r = {.n = 0};
		struct board *b;

		board_test_config(&cfg, wirings[w], false);
		/* between scans: seen by the scan at 110 */
		b = open_sim(&cfg, "+105 lift d2\n");
		run_until(b, &r, 200);
		assert_int_equal(r.n, 1);
		expect(&r, 0, 130, BOARD_EVENT_SQUARE, 11, false);
		assert_int_equal(r.ev[0].change_ms, 110);
		board_close(b);
	}
	{
		struct board_config cfg;
		struct run r = {.n = 0};
		struct board *b;

		board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
		b = open_sim(&cfg, "+105 lift d2\n");
		run_until(b, &r, 200);
		assert_int_equal(r.n, 1);
		expect(&r, 0, 125, BOARD_EVENT_SQUARE, 11, false);
		board_close(b);
	}
}

static void test_chatter(void **state)
{
	(void)state;
	for (size_t w = 0; w < 3; w++) {
		struct board_config cfg;
		struct run r = {.n = 0};
		struct board *b;

		board_test_config(&cfg, wirings[w], w == 1);
		b = open_sim(&cfg, "+100 chatter e2 3\n+200 chatter e4 1\n+200 chatter a8 50\n"
				   "+3 chatter a8 1000\n");
		run_until(b, &r, 2000);
		assert_int_equal(r.n, 0);
		assert_true(board_occupancy(b) == 0xffff00000000ffffull);
		assert_true(finished(b));
		board_close(b);
	}
	{
		/* chatter right after a lift: reported once, after the last bounce settles */
		struct board_config cfg;
		struct run r = {.n = 0};
		struct board *b;

		board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
		b = open_sim(&cfg, "+100 lift e2\n+5 chatter e2 2\n");
		run_until(b, &r, 1000);
		assert_int_equal(r.n, 1);
		/* bounces at 105, 107.5, 110, 112.5: stable from 112.5 */
		expect(&r, 0, 133, BOARD_EVENT_SQUARE, 12, false);
		board_close(b);
	}
}

static void test_buttons(void **state)
{
	(void)state;
	for (size_t w = 0; w < 3; w++) {
		struct board_config cfg;
		struct run r = {.n = 0};
		struct board *b;

		board_test_config(&cfg, wirings[w], false);
		b = open_sim(&cfg, "+100 press player-clock\n+1000 hold select 500\n"
				   "+1000 hold pause 10\n+1000 press info\n+40 press info\n");
		run_until(b, &r, 10000);
		assert_int_equal(r.n, 6);
		expect(&r, 0, 120, BOARD_EVENT_BUTTON, BOARD_BUTTON_PLAYER_CLOCK, true);
		assert_int_equal(r.ev[0].change_ms, 100);
		expect(&r, 1, 200, BOARD_EVENT_BUTTON, BOARD_BUTTON_PLAYER_CLOCK, false);
		expect(&r, 2, 1120, BOARD_EVENT_BUTTON, BOARD_BUTTON_SELECT, true);
		expect(&r, 3, 1620, BOARD_EVENT_BUTTON, BOARD_BUTTON_SELECT, false);
		/* the 10 ms hold of pause is shorter than the debounce: nothing */
		/* the second press of info while it is held extends the press */
		expect(&r, 4, 3120, BOARD_EVENT_BUTTON, BOARD_BUTTON_INFO, true);
		expect(&r, 5, 3240, BOARD_EVENT_BUTTON, BOARD_BUTTON_INFO, false);
		board_close(b);
	}
}

/* Faults on the lines, in every wiring: a stuck sensor hides the peg until it lets go; a
 * bounce ends as the peg is; a button stuck up loses a press that ends during the fault and
 * shows one still held when it ends; a stuck line shows no chatter. */
static void test_stuck_and_bounce(void **state)
{
	(void)state;
	for (size_t w = 0; w < 3; w++) {
		struct board_config cfg;
		struct run r = {.n = 0};
		struct board *b;

		board_test_config(&cfg, wirings[w], w == 2);
		b = open_sim(&cfg, "+100 stuck e2 occupied 1000\n"
				   "+100 lift e2\n"
				   "+1500 bounce e4 300 42\n"
				   "+1000 stuck select up 500\n"
				   "+100 press select\n"
				   "+1000 stuck info up 500\n"
				   "+100 hold info 1000\n"
				   "+2000 stuck a8 occupied 200\n"
				   "chatter a8 5\n");
		run_until(b, &r, 10000);
		/* e2 seen empty when its sensor lets go (1100), not at the lift (200). */
		assert_true(r.n >= 2);
		assert_int_equal(r.ev[0].type, BOARD_EVENT_SQUARE);
		assert_int_equal(r.ev[0].index, 12);
		assert_false(r.ev[0].active);
		assert_true(r.ev[0].change_ms >= 1100 && r.ev[0].change_ms <= 1110);
		/* e4's bounce may show a flicker, but the board ends as its pegs are. */
		assert_true(board_occupancy(b) == (0xffff00000000ffffull & ~(1ull << 12)));
		/* select's press was lost; info's shows at the end of its fault (4300). */
		for (int i = 0; i < r.n; i++) {
			if (r.ev[i].type != BOARD_EVENT_BUTTON)
				continue;
			assert_int_not_equal(r.ev[i].index, BOARD_BUTTON_SELECT);
			if (r.ev[i].index == BOARD_BUTTON_INFO && r.ev[i].active)
				assert_true(r.ev[i].change_ms >= 4300 && r.ev[i].change_ms <= 4310);
		}
		assert_true(finished(b));
		board_close(b);
	}
}

/* A bounce is the same for a script run twice, and a seed changes it. */
static void test_bounce_is_repeatable(void **state)
{
	struct run runs[3];

	(void)state;
	for (int k = 0; k < 3; k++) {
		struct board_config cfg;
		struct board *b;

		memset(&runs[k], 0, sizeof(runs[k]));
		board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
		cfg.debounce_ms = 2;
		b = open_sim(&cfg, k < 2 ? "+100 bounce e2 500\n" : "+100 bounce e2 500 9\n");
		run_until(b, &runs[k], 2000);
		board_close(b);
	}
	assert_true(runs[0].n > 2);
	assert_int_equal(runs[0].n, runs[1].n);
	for (int i = 0; i < runs[0].n; i++)
		assert_int_equal(runs[0].ev[i].change_ms, runs[1].ev[i].change_ms);
	assert_true(runs[2].n != runs[0].n || runs[2].ev[0].change_ms != runs[0].ev[0].change_ms ||
		    runs[2].ev[1].change_ms != runs[0].ev[1].change_ms);
}

static void test_deadlines(void **state)
{
	struct board_config cfg;
	struct board_event ev[8];
	struct board *b;

	(void)state;
	board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
	b = open_sim(&cfg, "");
	assert_int_equal(board_fd(b), -1);
	assert_true(board_deadline(b) == UINT64_MAX);
	assert_int_equal(board_sim_peg(b, 12, false, 100), 0);
	assert_int_equal(board_deadline(b), 100);
	assert_int_equal(board_service(b, 50, ev, 8), 0);
	assert_int_equal(board_deadline(b), 100);
	assert_int_equal(board_service(b, 100, ev, 8), 0);
	assert_int_equal(board_deadline(b), 120); /* debounce expiry */
	assert_int_equal(board_service(b, 119, ev, 8), 0);
	assert_int_equal(board_service(b, 120, ev, 8), 1);
	assert_true(board_deadline(b) == UINT64_MAX);
	assert_int_equal(board_sim_peg(b, 28, true, 400), 0);
	assert_int_equal(board_deadline(b), 400);
	assert_false(finished(b));
	/* late service: the event keeps its own time */
	assert_int_equal(board_service(b, 1000, ev, 8), 1);
	assert_int_equal(ev[0].time_ms, 420);
	assert_int_equal(ev[0].index, 28);
	/* idle direct board: no wake-up at all */
	assert_true(board_deadline(b) == UINT64_MAX);
	assert_true(finished(b));
	board_close(b);

	/* a scanned board wakes once per scan period and for nothing else */
	board_test_config(&cfg, BOARD_WIRING_MATRIX, false);
	cfg.scan_hz = 50;
	b = open_sim(&cfg, "");
	assert_int_equal(board_deadline(b), 20);
	assert_int_equal(board_service(b, 20, ev, 8), 0);
	assert_int_equal(board_deadline(b), 40);
	assert_true(finished(b));
	board_close(b);

	/* events beyond max stay queued; the deadline says so */
	board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
	b = open_sim(&cfg, "");
	for (int sq = 8; sq < 11; sq++)
		assert_int_equal(board_sim_peg(b, sq, false, 10), 0);
	assert_int_equal(board_service(b, 100, ev, 2), 2);
	assert_int_equal(board_deadline(b), 0);
	assert_false(finished(b));
	assert_int_equal(board_service(b, 100, ev, 2), 1);
	assert_int_equal(ev[0].index, 10);
	assert_true(board_deadline(b) == UINT64_MAX);
	board_close(b);
}

static void test_setup_place(void **state)
{
	struct board_config cfg;
	struct run r = {.n = 0};
	struct board *b;

	(void)state;
	board_test_config(&cfg, BOARD_WIRING_SHIFT, true);
	b = open_sim(&cfg, "player white\nsetup 8/8/8/8/8/8/8/K6k w - - 0 1\n"
			   "+100 lift a1\n+100 place a2\n");
	assert_true(board_occupancy(b) == 0xffff00000000ffffull);
	assert_int_equal(driver_header(driver)->player, 0);
	board_sim_place(b, 0x81);
	assert_true(board_occupancy(b) == 0x81);
	board_sim_place(b, 0x8001);
	assert_true(board_occupancy(b) == 0x8001);
	run_until(b, &r, 1000);
	assert_int_equal(r.n, 2);
	expect(&r, 0, 120, BOARD_EVENT_SQUARE, 0, false);
	expect(&r, 1, 220, BOARD_EVENT_SQUARE, 8, true);
	assert_true(finished(b));
	/* A peg into a taken hole changes nothing; not a sim board: refused. */
	assert_int_equal(board_sim_peg(b, 8, true, 1000), 1);
	assert_int_equal(board_sim_button(b, BOARD_BUTTON_COUNT, true, 1000), -1);
	board_close(b);
}

static void test_open_errors(void **state)
{
	struct board_config cfg;
	char err[256], spec[128];

	(void)state;
	board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
	assert_null(board_open(&cfg, "usb", NULL, 0, err, sizeof(err)));
	assert_string_equal(err, "unknown board 'usb' (gpiod, sim:SCRIPT or replay:LOG)");
	assert_null(board_open(&cfg, "sim:", NULL, 0, err, sizeof(err)));
	assert_null(driver_open("/nonexistent/x", &cfg, err, sizeof(err)));
	assert_string_equal(err, "/nonexistent/x: No such file or directory");

	cfg.button_lines[BOARD_BUTTON_PAUSE] = BOARD_NO_LINE;
	snprintf(spec, sizeof(spec), "%s", write_script("lift a2\n\npress pause\n"));
	assert_null(driver_open(spec, &cfg, err, sizeof(err)));
	assert_non_null(strstr(err, ":3: button 'pause' has no line in the configuration"));
	snprintf(spec, sizeof(spec), "%s", write_script("lift a2\nlift a9\n"));
	assert_null(driver_open(spec, &cfg, err, sizeof(err)));
	assert_non_null(strstr(err, ":2: bad square 'a9'"));
	unlink(script_path);

	cfg.square_lines[5] = 66;
	assert_null(board_open(&cfg, "gpiod", NULL, 0, err, sizeof(err)));
	assert_string_equal(err, "board configuration: line 66 used twice (direct wiring)");
	/* no GPIO chip on the build machine */
	board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
	snprintf(cfg.chip, sizeof(cfg.chip), "nochip");
	assert_null(board_open(&cfg, "gpiod", NULL, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "gpiod: cannot open chip"));
}

static void test_config_keys(void **state)
{
	struct board_config cfg;
	char err[256];

	(void)state;
	board_config_defaults(&cfg);
	assert_int_equal(board_config_check(&cfg, err, sizeof(err)), 0);
	assert_int_equal(board_config_set(&cfg, "wiring", "matrix", err, sizeof(err)), 0);
	assert_int_equal(cfg.wiring, BOARD_WIRING_MATRIX);
	assert_int_equal(board_config_set(&cfg, "wiring", "star", err, sizeof(err)), -1);
	assert_string_equal(err, "wiring must be direct, matrix or shift");
	assert_int_equal(board_config_set(&cfg, "chip", "/dev/gpiochip4", err, sizeof(err)), 0);
	assert_string_equal(cfg.chip, "/dev/gpiochip4");
	assert_int_equal(board_config_set(&cfg, "squares", "63-0", err, sizeof(err)), 0);
	assert_int_equal(cfg.square_lines[0], 63);
	assert_int_equal(cfg.square_lines[63], 0);
	assert_int_equal(board_config_set(&cfg, "squares", "100-131, 200-231", err, sizeof(err)),
			 0);
	assert_int_equal(cfg.square_lines[31], 131);
	assert_int_equal(cfg.square_lines[32], 200);
	assert_int_equal(board_config_set(&cfg, "squares", "0-62", err, sizeof(err)), -1);
	assert_string_equal(err, "63 line numbers given, 64 needed");
	assert_int_equal(board_config_set(&cfg, "squares", "0-64", err, sizeof(err)), -1);
	assert_string_equal(err, "more than 64 line numbers");
	assert_int_equal(board_config_set(&cfg, "squares", "0-x", err, sizeof(err)), -1);
	assert_int_equal(board_config_set(&cfg, "rows", "2 3 4 5 6 7 8 9", err, sizeof(err)), 0);
	assert_int_equal(cfg.row_lines[7], 9);
	assert_int_equal(
	    board_config_set(&cfg, "columns", "17,16,15,14,13,12,11,10", err, sizeof(err)), 0);
	assert_int_equal(cfg.column_lines[0], 17);
	assert_int_equal(board_config_set(&cfg, "columns", "1000-1007", err, sizeof(err)), -1);
	assert_int_equal(board_config_set(&cfg, "load", "22", err, sizeof(err)), 0);
	assert_int_equal(cfg.shift_load, 22);
	assert_int_equal(board_config_set(&cfg, "clock", "23", err, sizeof(err)), 0);
	assert_int_equal(board_config_set(&cfg, "data", "24", err, sizeof(err)), 0);
	assert_int_equal(board_config_set(&cfg, "data", "none", err, sizeof(err)), -1);
	assert_string_equal(err, "data must be a line number 0..999");
	assert_int_equal(board_config_set(&cfg, "button-pause", "none", err, sizeof(err)), 0);
	assert_int_equal(cfg.button_lines[BOARD_BUTTON_PAUSE], BOARD_NO_LINE);
	assert_int_equal(board_config_set(&cfg, "button-player-clock", "26", err, sizeof(err)), 0);
	assert_int_equal(cfg.button_lines[BOARD_BUTTON_PLAYER_CLOCK], 26);
	assert_int_equal(board_config_set(&cfg, "button-coffee", "27", err, sizeof(err)), -1);
	assert_string_equal(err, "unknown key 'button-coffee' in [board]");
	assert_int_equal(board_config_set(&cfg, "active-low", "yes", err, sizeof(err)), 0);
	assert_true(cfg.active_low_squares);
	assert_int_equal(board_config_set(&cfg, "active-low", "maybe", err, sizeof(err)), -1);
	assert_int_equal(board_config_set(&cfg, "debounce-ms", "35", err, sizeof(err)), 0);
	assert_int_equal(cfg.debounce_ms, 35);
	assert_int_equal(board_config_set(&cfg, "debounce-ms", "1001", err, sizeof(err)), -1);
	assert_string_equal(err, "debounce-ms must be a number 0..1000");
	assert_int_equal(board_config_set(&cfg, "scan-hz", "0", err, sizeof(err)), -1);
	assert_int_equal(board_config_set(&cfg, "scan-hz", "250", err, sizeof(err)), 0);
	assert_int_equal(cfg.scan_hz, 250);
	assert_int_equal(board_config_check(&cfg, err, sizeof(err)), 0);
	/* A matrix scan at 250 Hz has 4 ms; eight settles must end within it. */
	assert_int_equal(board_config_set(&cfg, "scan-settle-us", "499", err, sizeof(err)), 0);
	assert_int_equal(board_config_check(&cfg, err, sizeof(err)), 0);
	assert_int_equal(board_config_set(&cfg, "scan-settle-us", "500", err, sizeof(err)), 0);
	assert_int_equal(board_config_check(&cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "as long as its period"));
	assert_int_equal(board_config_set(&cfg, "scan-settle-us", "100001", err, sizeof(err)), -1);
	assert_int_equal(board_config_set(&cfg, "scan-settle-us", "0", err, sizeof(err)), 0);
	assert_int_equal(board_config_set(&cfg, "columns", "9-16", err, sizeof(err)), 0);
	assert_int_equal(board_config_check(&cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "line 9 used twice (matrix wiring)");
	assert_int_equal(board_config_set(&cfg, "sensors", "1", err, sizeof(err)), -1);
	assert_string_equal(err, "unknown key 'sensors' in [board]");
	assert_int_equal(board_button_parse("select"), BOARD_BUTTON_SELECT);
	assert_int_equal(board_button_parse("Select"), -1);
	assert_string_equal(board_button_name(BOARD_BUTTON_OPPONENT_CLOCK), "opponent-clock");
}

static void test_zero_debounce(void **state)
{
	struct board_config cfg;
	struct run r = {.n = 0};
	struct board *b;

	(void)state;
	board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
	cfg.debounce_ms = 0;
	b = open_sim(&cfg, "+100 chatter c3 1\n");
	run_until(b, &r, 1000);
	assert_int_equal(r.n, 2); /* without debounce every bounce is reported */
	expect(&r, 0, 100, BOARD_EVENT_SQUARE, 18, true);
	expect(&r, 1, 105, BOARD_EVENT_SQUARE, 18, false);
	board_close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lift_place),	     cmocka_unit_test(test_scan_timing),
	    cmocka_unit_test(test_chatter),	     cmocka_unit_test(test_buttons),
	    cmocka_unit_test(test_stuck_and_bounce), cmocka_unit_test(test_bounce_is_repeatable),
	    cmocka_unit_test(test_deadlines),	     cmocka_unit_test(test_setup_place),
	    cmocka_unit_test(test_open_errors),	     cmocka_unit_test(test_config_keys),
	    cmocka_unit_test(test_zero_debounce),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	driver_free(driver);
	return rc;
}
