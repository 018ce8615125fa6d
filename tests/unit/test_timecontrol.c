/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time-control syntax (docs/scripts.md "Board scripts, line logs, time controls"): parsing,
 * formatting, errors with columns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "game/clock.h"

static void test_parse_fide(void **state)
{
	(void)state;
	struct time_control tc;
	char err[128];
	assert_int_equal(time_control_parse("40/5400+30:1800+30", &tc, err, sizeof(err)), 0);
	assert_int_equal(tc.count, 2);
	assert_int_equal(tc.periods[0].moves, 40);
	assert_int_equal(tc.periods[0].base_ms, 5400000);
	assert_int_equal(tc.periods[0].mode, TC_FISCHER);
	assert_int_equal(tc.periods[0].extra_ms, 30000);
	assert_int_equal(tc.periods[1].moves, 0);
	assert_int_equal(tc.periods[1].base_ms, 1800000);
	assert_int_equal(tc.periods[1].mode, TC_FISCHER);
	assert_int_equal(tc.periods[1].extra_ms, 30000);
}

static void test_parse_modes(void **state)
{
	(void)state;
	struct time_control tc;
	char err[128];
	assert_int_equal(time_control_parse("300d5", &tc, err, sizeof(err)), 0);
	assert_int_equal(tc.count, 1);
	assert_int_equal(tc.periods[0].mode, TC_DELAY);
	assert_int_equal(tc.periods[0].extra_ms, 5000);
	assert_int_equal(time_control_parse("300b5", &tc, err, sizeof(err)), 0);
	assert_int_equal(tc.periods[0].mode, TC_BRONSTEIN);
	assert_int_equal(time_control_parse("900", &tc, err, sizeof(err)), 0);
	assert_int_equal(tc.periods[0].mode, TC_PLAIN);
	assert_int_equal(tc.periods[0].extra_ms, 0);
	assert_int_equal(time_control_parse("-", &tc, err, sizeof(err)), 0);
	assert_int_equal(tc.count, 0);
	assert_int_equal(time_control_parse("40/7200", &tc, err, sizeof(err)), 0);
	assert_int_equal(tc.count, 1);
	assert_int_equal(tc.periods[0].moves, 40);
}

static void test_format_round_trip(void **state)
{
	(void)state;
	static const char *const texts[] = {
	    "-",
	    "900+10",
	    "300d5",
	    "300b5",
	    "40/5400+30:1800+30",
	    "40/7200",
	    "900+0",
	    "40/5400:20/1800",
	    "60",
	    "1/1:1/1:1/1:1/1:1/1:1/1:1/1:1",
	    "40/5400:0+30",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct time_control tc, again;
		char err[128], buf[TC_FORMAT_MAX];
		assert_int_equal(time_control_parse(texts[i], &tc, err, sizeof(err)), 0);
		time_control_format(&tc, buf, sizeof(buf));
		assert_string_equal(buf, texts[i]);
		assert_int_equal(time_control_parse(buf, &again, err, sizeof(err)), 0);
		assert_true(time_control_equal(&tc, &again));
	}
}

static void test_format_small_buffer(void **state)
{
	(void)state;
	struct time_control tc;
	char err[128], buf[8];
	assert_int_equal(time_control_parse("40/5400+30:1800+30", &tc, err, sizeof(err)), 0);
	memset(buf, 'x', sizeof(buf));
	time_control_format(&tc, buf, sizeof(buf));
	assert_true(memchr(buf, '\0', sizeof(buf)) != NULL);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *message;
	} cases[] = {
	    {"", "column 1: empty time control"},
	    {"abc", "column 1: expected a number of moves or seconds"},
	    {"900+", "column 5: expected seconds after '+'"},
	    {"900d", "column 5: expected seconds after 'd'"},
	    {"900bx", "column 5: expected seconds after 'b'"},
	    {"40/", "column 4: expected seconds after '/'"},
	    {"0/60", "column 1: a period needs at least one move"},
	    {"1000/60", "column 1: more than 999 moves in a period"},
	    {"0", "column 1: the first period needs time"},
	    {"40/0", "column 4: the first period needs time"},
	    {"900.5", "column 4: fractions are not supported: whole seconds"},
	    {"900+10x", "column 7: unexpected 'x'"},
	    {" 900", "column 1: expected a number of moves or seconds"},
	    {"900 ", "column 4: unexpected ' '"},
	    {"900:", "column 4: only the last period may be without a move count"},
	    {"40/900:", "column 8: expected a number of moves or seconds"},
	    {"40/5400+30:", "column 12: expected a number of moves or seconds"},
	    {"5400:1800", "column 5: only the last period may be without a move count"},
	    {"40/5400::1800", "column 9: expected a number of moves or seconds"},
	    {"360001", "column 1: more than 360000 seconds"},
	    {"40/360001", "column 4: more than 360000 seconds"},
	    {"900+3601", "column 5: more than 3600 extra seconds"},
	    {"1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1", "column 33: more than 8 periods"},
	    {"?", "column 1: expected a number of moves or seconds"},
	    {"--", "column 1: expected a number of moves or seconds"},
	    {"900+-5", "column 5: expected seconds after '+'"},
	    {"40/5400/30", "column 8: unexpected '/'"},
	    {"99999999999999999999999", "column 1: more than 360000 seconds"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct time_control tc;
		char err[128];
		memset(&tc, 0x55, sizeof(tc));
		int rc = time_control_parse(cases[i].text, &tc, err, sizeof(err));
		if (rc != -1 || strcmp(err, cases[i].message) != 0)
			fail_msg("\"%s\": rc %d, \"%s\", want \"%s\"", cases[i].text, rc, err,
				 cases[i].message);
		assert_int_equal(tc.count, 0);
	}
}

static void test_error_buffer(void **state)
{
	(void)state;
	struct time_control tc;
	char err[10];
	assert_int_equal(time_control_parse("x", &tc, err, sizeof(err)), -1);
	assert_string_equal(err, "column 1:");
	assert_int_equal(time_control_parse("x", &tc, NULL, 0), -1);
	assert_int_equal(time_control_parse(NULL, &tc, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_fide),
	    cmocka_unit_test(test_parse_modes),
	    cmocka_unit_test(test_format_round_trip),
	    cmocka_unit_test(test_format_small_buffer),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_error_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
