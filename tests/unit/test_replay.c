/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Record a sim run's raw edges, replay them, and get the same events. */
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

#define MAX_EVENTS 512

static const char game[] = "setup rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
			   "+1000 press opponent-clock\n"
			   "+700 lift e2\n"
			   "+3 chatter e2 4\n"
			   "+250 place e4\n"
			   "+1 chatter e4 2\n"
			   "+400 press player-clock\n"
			   "+900 lift d7\n"
			   "+333 place d5\n"
			   "+600 press opponent-clock\n"
			   "+1200 lift e4\n"
			   "+7 lift d5\n"
			   "+505 place d5\n"
			   "+2 chatter h1 9\n"
			   "+11 hold select 45\n"
			   "+3 hold select 5\n"
			   "+1000 press player-clock\n";

struct run {
	struct board_event ev[MAX_EVENTS];
	int n;
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	assert_non_null(f);
	assert_true(fread(buf, 1, (1 << 20) - 1, f) > 0);
	fclose(f);
	return buf;
}

/* A board as the daemon runs it: "sim:SCRIPT" played by the board-script driver. */
static void run(const struct board_config *cfg, const char *spec, const char *record,
		uint64_t start, struct run *r)
{
	char err[256] = "";
	struct driver *d = NULL;
	struct driver_hooks hooks = {0};
	struct board *b = board_open(cfg, spec, record, start, err, sizeof(err));
	uint64_t now = start;

	if (!b)
		fail_msg("board_open %s: %s", spec, err);
	if (!strncmp(spec, "sim:", 4)) {
		d = driver_open(spec + 4, cfg, err, sizeof(err));
		if (!d)
			fail_msg("driver_open %s: %s", spec, err);
		driver_start(d, b, start, &hooks);
	}
	r->n = 0;
	for (int guard = 0; guard < 1000000 && !(board_finished(b) && (!d || driver_done(d)));
	     guard++) {
		uint64_t dl = board_deadline(b);
		int n;

		if (d && driver_deadline(d, now) < dl)
			dl = driver_deadline(d, now);
		assert_true(dl != UINT64_MAX);
		if (dl > now)
			now = dl;
		if (d)
			driver_run(d, now);
		n = board_service(b, now, r->ev + r->n, MAX_EVENTS - r->n);
		assert_true(n >= 0);
		r->n += n;
	}
	assert_true(board_finished(b));
	board_close(b);
	driver_free(d);
}

static void same_events(const struct run *a, const struct run *b, uint64_t shift)
{
	assert_int_equal(a->n, b->n);
	for (int i = 0; i < a->n; i++) {
		assert_int_equal(a->ev[i].time_ms + shift, b->ev[i].time_ms);
		assert_int_equal(a->ev[i].change_ms + shift, b->ev[i].change_ms);
		assert_int_equal(a->ev[i].type, b->ev[i].type);
		assert_int_equal(a->ev[i].index, b->ev[i].index);
		assert_int_equal(a->ev[i].active, b->ev[i].active);
	}
}

/* The edge lines of a log (everything after the header). */
static const char *body(const char *log)
{
	const char *s = log;

	while (*s == '#')
		s = strchr(s, '\n') + 1;
	return s;
}

static void test_record_replay(void **state)
{
	static const enum board_wiring wirings[] = {BOARD_WIRING_DIRECT, BOARD_WIRING_MATRIX,
						    BOARD_WIRING_SHIFT};
	char script[] = "/tmp/annabella-replay-XXXXXX";
	char log1[64], log2[64], spec[96];
	int fd = mkstemp(script);

	(void)state;
	close(fd);
	write_file(script, game);
	snprintf(log1, sizeof(log1), "%s.log1", script);
	snprintf(log2, sizeof(log2), "%s.log2", script);
	for (int lo = 0; lo < 2; lo++) {
		for (size_t w = 0; w < 3; w++) {
			struct board_config cfg;
			struct run sim, replay, later;
			char *a, *b;

			board_test_config(&cfg, wirings[w], lo);
			snprintf(spec, sizeof(spec), "sim:%s", script);
			run(&cfg, spec, log1, 0, &sim);
			assert_true(sim.n >= 16);

			snprintf(spec, sizeof(spec), "replay:%s", log1);
			run(&cfg, spec, log2, 0, &replay);
			same_events(&sim, &replay, 0);

			/* recording a replay gives the same edges */
			a = read_file(log1);
			b = read_file(log2);
			assert_string_equal(body(a), body(b));
			assert_non_null(strstr(a, "# format: annabella line log 1\n"));
			assert_non_null(strstr(a, "# start-ns: 0\n"));
			assert_non_null(strstr(a, "# occupancy: 0xffff00000000ffff\n"));
			if (wirings[w] == BOARD_WIRING_DIRECT) {
				assert_non_null(strstr(a, "# wiring: direct\n"));
				/* e2 is line 12; lifted at 1700 ms */
				assert_non_null(strstr(a, lo ? "1700000000 12 rising\n"
							     : "1700000000 12 falling\n"));
			} else {
				/* scanned: virtual line 1012, rising = peg sensed */
				assert_non_null(strstr(a, "1700000000 1012 falling\n"));
			}
			assert_non_null(strstr(a, "1000000000 65 falling\n"));
			free(a);
			free(b);

			/* replayed later in daemon time: the same events, shifted */
			run(&cfg, spec, NULL, 5000, &later);
			same_events(&sim, &later, 5000);
		}
	}
	unlink(script);
	unlink(log1);
	unlink(log2);
}

static void test_hand_written_log(void **state)
{
	char path[] = "/tmp/annabella-log-XXXXXX";
	int fd = mkstemp(path);
	struct board_config cfg;
	struct run r;
	char spec[64];

	(void)state;
	close(fd);
	/* no start-ns: times count from the first edge; no occupancy: the initial position */
	write_file(path, "# board: gpiod\n"
			 "# a comment without a key\n"
			 "\n"
			 "5000000000 12 falling\n"
			 "5000400000 12 rising\n"
			 "5000800000 12 falling\n"
			 "  5200000000\t28 rising  \r\n"
			 "# a comment in the body\n"
			 "5300000000 64 falling\n"
			 "5300000000 500 falling\n"
			 "5400000000 64 rising\n");
	board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
	snprintf(spec, sizeof(spec), "replay:%s", path);
	run(&cfg, spec, NULL, 100, &r);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.ev[0].time_ms, 121); /* stable from 100.8 ms */
	assert_int_equal(r.ev[0].change_ms, 101);
	assert_int_equal(r.ev[0].index, 12);
	assert_false(r.ev[0].active);
	assert_int_equal(r.ev[1].time_ms, 320);
	assert_int_equal(r.ev[1].index, 28);
	assert_true(r.ev[1].active);
	assert_int_equal(r.ev[2].type, BOARD_EVENT_BUTTON);
	assert_int_equal(r.ev[2].index, BOARD_BUTTON_PLAYER_CLOCK);
	assert_true(r.ev[2].active);
	assert_int_equal(r.ev[2].time_ms, 420);
	assert_false(r.ev[3].active);
	assert_int_equal(r.ev[3].time_ms, 520);
	unlink(path);
}

struct bad_log {
	const char *text;
	const char *error; /* after "PATH:" */
};

static void test_malformed(void **state)
{
	static const struct bad_log cases[] = {
	    {"# wiring: direct\n100 12 sideways\n", "2: bad edge 'sideways' (rising or falling)"},
	    {"100 12\n", "1: bad edge '' (rising or falling)"},
	    {"100\n", "1: bad line number ''"},
	    {"x 12 rising\n", "1: bad time 'x 12 rising' (NS LINE rising|falling)"},
	    {"-5 12 rising\n", "1: bad time '-5 12 rising' (NS LINE rising|falling)"},
	    {"10x 12 rising\n", "1: bad time '10x 12 rising' (NS LINE rising|falling)"},
	    {"100 1x rising\n", "1: bad line number '1x rising'"},
	    {"100 100000 rising\n", "1: bad line number '100000 rising'"},
	    {"99999999999999999999 1 rising\n",
	     "1: bad time '99999999999999999999 1 rising' (NS LINE rising|falling)"},
	    {"100 12 rising now\n", "1: unexpected 'now'"},
	    {"100 12 risingfalling\n", "1: unexpected 'falling'"},
	    {"200 12 rising\n100 12 falling\n", "2: time goes backwards (100 after 200)"},
	    {"# start-ns: 500\n100 12 rising\n", "2: time 100 before start-ns 500"},
	    {"# start-ns: soon\n", "1: bad start-ns 'soon'"},
	    {"# occupancy: ffff\n", "1: bad occupancy 'ffff' (0x and hex digits)"},
	    {"# occupancy: 0x12345678123456789\n",
	     "1: bad occupancy '0x12345678123456789' (0x and hex digits)"},
	    {"# buttons: 0xq\n", "1: bad buttons '0xq' (0x and hex digits)"},
	};
	char path[] = "/tmp/annabella-bad-XXXXXX";
	int fd = mkstemp(path);
	struct board_config cfg;
	char spec[64], err[512], want[600];

	(void)state;
	close(fd);
	board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
	snprintf(spec, sizeof(spec), "replay:%s", path);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_file(path, cases[i].text);
		err[0] = 0;
		if (board_open(&cfg, spec, NULL, 0, err, sizeof(err)))
			fail_msg("accepted: %s", cases[i].text);
		snprintf(want, sizeof(want), "%s:%s", path, cases[i].error);
		assert_string_equal(err, want);
	}
	{
		/* an over-long line and a NUL byte */
		char text[400];
		FILE *f;

		memset(text, '1', sizeof(text) - 1);
		text[sizeof(text) - 1] = 0;
		write_file(path, text);
		assert_null(board_open(&cfg, spec, NULL, 0, err, sizeof(err)));
		snprintf(want, sizeof(want), "%s:1: line too long (at most 256 characters)", path);
		assert_string_equal(err, want);
		f = fopen(path, "w");
		fwrite("1 2 rising\n3 4\0 rising\n", 1, 23, f);
		fclose(f);
		assert_null(board_open(&cfg, spec, NULL, 0, err, sizeof(err)));
		snprintf(want, sizeof(want), "%s:2: NUL character", path);
		assert_string_equal(err, want);
	}
	unlink(path);
	assert_null(board_open(&cfg, spec, NULL, 0, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	assert_string_equal(err, want);
}

static void test_empty_log(void **state)
{
	char path[] = "/tmp/annabella-empty-XXXXXX";
	int fd = mkstemp(path);
	struct board_config cfg;
	char spec[64], err[256];
	struct board *b;

	(void)state;
	close(fd);
	write_file(path, "# start-ns: 0\n# occupancy: 0x0\n");
	board_test_config(&cfg, BOARD_WIRING_MATRIX, false);
	snprintf(spec, sizeof(spec), "replay:%s", path);
	b = board_open(&cfg, spec, NULL, 0, err, sizeof(err));
	assert_non_null(b);
	/* nothing to wait for, and finished without a service call */
	assert_true(board_deadline(b) == UINT64_MAX);
	assert_true(board_finished(b));
	assert_true(board_occupancy(b) == 0);
	board_close(b);
	unlink(path);
}

static void test_record_unwritable(void **state)
{
	struct board_config cfg;
	char err[256];

	(void)state;
	board_test_config(&cfg, BOARD_WIRING_DIRECT, false);
	assert_null(board_open(&cfg, "sim:/dev/null", "/nonexistent/dir/log", 0, err, sizeof(err)));
	assert_string_equal(err, "/nonexistent/dir/log: No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_record_replay),     cmocka_unit_test(test_hand_written_log),
	    cmocka_unit_test(test_malformed),	      cmocka_unit_test(test_empty_log),
	    cmocka_unit_test(test_record_unwritable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
