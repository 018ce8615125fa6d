/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Clock arithmetic: modes, periods, start, pause, corrections, flags, [%clk]. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "game/clock.h"
#include "game/rules.h"

#define W   0
#define B   1
#define SEC 1000

static void make(struct chess_clock *c, const char *text)
{
	struct time_control tc;
	char err[128];
	assert_int_equal(time_control_parse(text, &tc, err, sizeof(err)), 0);
	clock_init(c, &tc);
}

/* Start at t: Black's press starts White's clock. */
static void start(struct chess_clock *c, uint64_t t)
{
	assert_int_equal(clock_press(c, B, t), CLOCK_PRESS_STARTED);
}

static void test_start_by_black(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "300");
	assert_int_equal(c.state, CLOCK_NOT_STARTED);
	assert_int_equal(clock_flag_deadline(&c), UINT64_MAX);
	/* White's presses before the start do nothing. */
	assert_int_equal(clock_press(&c, W, 100), CLOCK_PRESS_IGNORED);
	assert_int_equal(c.state, CLOCK_NOT_STARTED);
	assert_int_equal(clock_remaining(&c, W, 5000), 300 * SEC);
	start(&c, 1000);
	assert_int_equal(c.state, CLOCK_RUNNING);
	assert_int_equal(c.running, W);
	assert_int_equal(c.moves[B], 0);
	assert_int_equal(clock_remaining(&c, W, 3500), 300 * SEC - 2500);
	assert_int_equal(clock_remaining(&c, B, 3500), 300 * SEC);
	/* Black presses again while White's clock runs: nothing. */
	assert_int_equal(clock_press(&c, B, 4000), CLOCK_PRESS_IGNORED);
	assert_int_equal(c.running, W);
	assert_int_equal(clock_press(&c, W, 11000), CLOCK_PRESS_MOVE);
	assert_int_equal(c.running, B);
	assert_int_equal(c.moves[W], 1);
	assert_int_equal(clock_remaining(&c, W, 20000), 290 * SEC);
	assert_int_equal(clock_remaining(&c, B, 20000), 291 * SEC);
}

static void test_first_mover_black(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "60");
	clock_set_first_mover(&c, B);
	assert_int_equal(clock_press(&c, B, 0), CLOCK_PRESS_IGNORED);
	assert_int_equal(clock_press(&c, W, 0), CLOCK_PRESS_STARTED);
	assert_int_equal(c.running, B);
}

static void test_no_clock(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "-");
	assert_int_equal(clock_press(&c, B, 0), CLOCK_PRESS_IGNORED);
	assert_int_equal(clock_press(&c, W, 0), CLOCK_PRESS_IGNORED);
	assert_int_equal(clock_flag_deadline(&c), UINT64_MAX);
}

static void test_fischer(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "900+10");
	start(&c, 0);
	assert_int_equal(clock_press(&c, W, 4000), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, W), 906 * SEC);
	assert_int_equal(clock_remaining(&c, W, 99999), 906 * SEC);
	assert_int_equal(clock_press(&c, B, 4000 + 30500), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, B), 900 * SEC - 30500 + 10 * SEC);
}

static void test_delay(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "300d5");
	start(&c, 0);
	/* Within the delay the main time does not move. */
	assert_int_equal(clock_remaining(&c, W, 4999), 300 * SEC);
	assert_int_equal(clock_remaining(&c, W, 5000), 300 * SEC);
	assert_int_equal(clock_remaining(&c, W, 5001), 300 * SEC - 1);
	assert_int_equal(clock_press(&c, W, 3000), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, W), 300 * SEC);
	/* Black uses 12 s: 7 s come off. */
	assert_int_equal(clock_press(&c, B, 15000), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_remaining(&c, B, 15000), 293 * SEC);
	/* Delay is not added: deadline = main time + delay. */
	assert_int_equal(clock_flag_deadline(&c), 15000 + 300 * SEC + 5 * SEC);
}

static void test_bronstein(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "300b5");
	start(&c, 0);
	/* The time runs at once. */
	assert_int_equal(clock_remaining(&c, W, 3000), 297 * SEC);
	/* 3 s used: all given back. */
	assert_int_equal(clock_press(&c, W, 3000), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, W), 300 * SEC);
	/* 12 s used: 5 s given back. */
	assert_int_equal(clock_press(&c, B, 15000), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, B), 293 * SEC);
	/* Deadline without the credit. */
	assert_int_equal(clock_flag_deadline(&c), 15000 + 300 * SEC);
}

static void test_pause_resume_delay(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "300d5");
	start(&c, 0);
	/* 3 s of the 5 s delay used, then the arbiter is called for 60 s. */
	clock_pause(&c, 3000);
	assert_int_equal(c.state, CLOCK_PAUSED);
	assert_int_equal(clock_remaining(&c, W, 50000), 300 * SEC);
	assert_int_equal(clock_flag_deadline(&c), UINT64_MAX);
	assert_int_equal(clock_press(&c, W, 30000), CLOCK_PRESS_IGNORED);
	clock_resume(&c, 63000);
	/* Only 2 s of delay remain. */
	assert_int_equal(clock_remaining(&c, W, 65000), 300 * SEC);
	assert_int_equal(clock_remaining(&c, W, 66000), 299 * SEC);
	assert_int_equal(clock_flag_deadline(&c), 63000 + 2 * SEC + 300 * SEC);
	assert_int_equal(clock_press(&c, W, 66000), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, W), 299 * SEC);
	/* Black gets a fresh delay. */
	assert_int_equal(clock_remaining(&c, B, 70000), 300 * SEC);
}

static void test_pause_resume_bronstein(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "300b5");
	start(&c, 0);
	clock_pause(&c, 2000);
	clock_resume(&c, 100000);
	/* 2 s + 2 s used; the pause is not counted and the credit survives it. */
	assert_int_equal(clock_remaining(&c, W, 102000), 296 * SEC);
	assert_int_equal(clock_press(&c, W, 102000), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, W), 300 * SEC);
	/* Black: 4 s, pause, 4 s more: 8 s used, 5 s back. */
	clock_pause(&c, 106000);
	clock_resume(&c, 200000);
	assert_int_equal(clock_press(&c, B, 204000), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, B), 297 * SEC);
}

static void test_periods(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "2/100+1:1/50+2:30");
	start(&c, 0);
	uint64_t t = 0;
	/* Each press after 10 s. */
	for (int i = 0; i < 2; i++) {
		t += 10 * SEC;
		assert_int_equal(clock_press(&c, W, t), CLOCK_PRESS_MOVE);
		t += 10 * SEC;
		assert_int_equal(clock_press(&c, B, t), CLOCK_PRESS_MOVE);
	}
	/* Two moves: 100 - 20 + 2 (period-1 increments) + 50. */
	assert_int_equal(clock_remaining(&c, W, t), 132 * SEC);
	assert_int_equal(c.period[W], 1);
	assert_int_equal(c.moves_in_period[W], 0);
	assert_int_equal(c.moves[W], 2);
	/* Third move: period 2 increment 2, then 30 s added for the rest of the game. */
	t += 10 * SEC;
	assert_int_equal(clock_press(&c, W, t), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, W), (132 - 10 + 2 + 30) * SEC);
	assert_int_equal(c.period[W], 2);
	/* Black is still in period 2 until it presses. */
	assert_int_equal(c.period[B], 1);
	/* The last period has no move count: no more time. */
	for (int i = 0; i < 5; i++) {
		t += SEC;
		assert_int_equal(clock_press(&c, B, t), CLOCK_PRESS_MOVE);
		t += SEC;
		assert_int_equal(clock_press(&c, W, t), CLOCK_PRESS_MOVE);
	}
	assert_int_equal(c.period[W], 2);
	assert_int_equal(clock_remaining(&c, W, t), (154 - 5) * SEC);
}

static void test_fide_classical(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "40/5400+30:1800+30");
	start(&c, 0);
	uint64_t t = 0;
	for (int i = 0; i < 40; i++) {
		t += 60 * SEC;
		assert_int_equal(clock_press(&c, W, t), CLOCK_PRESS_MOVE);
		t += 30 * SEC;
		assert_int_equal(clock_press(&c, B, t), CLOCK_PRESS_MOVE);
	}
	/* White: 5400 - 40*60 + 40*30 + 1800. */
	assert_int_equal(clock_last_press_remaining(&c, W), (5400 - 2400 + 1200 + 1800) * SEC);
	assert_int_equal(clock_last_press_remaining(&c, B), (5400 + 1800) * SEC);
	assert_int_equal(c.moves[W], 40);
	assert_int_equal(c.period[B], 1);
}

static void test_repeating_last_period(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "2/60");
	start(&c, 0);
	uint64_t t = 0;
	int64_t expect = 60 * SEC;
	for (int i = 1; i <= 6; i++) {
		t += SEC;
		assert_int_equal(clock_press(&c, W, t), CLOCK_PRESS_MOVE);
		expect -= SEC;
		if (i % 2 == 0)
			expect += 60 * SEC;
		assert_int_equal(clock_last_press_remaining(&c, W), expect);
		t += SEC;
		assert_int_equal(clock_press(&c, B, t), CLOCK_PRESS_MOVE);
	}
	assert_int_equal(c.period[W], 0);
	assert_int_equal(c.moves[W], 6);
}

static void test_corrections(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "40/5400+30:1800+30");
	start(&c, 0);
	clock_pause(&c, 10 * SEC);
	/* Arbiter: White 1:00:00, Black 0:50:00, 39 moves (White to move). */
	clock_set(&c, 3600 * SEC, 3000 * SEC, 39, 20 * SEC);
	assert_int_equal(c.state, CLOCK_PAUSED);
	assert_int_equal(clock_remaining(&c, W, 30 * SEC), 3600 * SEC);
	assert_int_equal(clock_remaining(&c, B, 30 * SEC), 3000 * SEC);
	assert_int_equal(c.moves[W], 39);
	assert_int_equal(c.moves[B], 39);
	assert_int_equal(c.moves_in_period[W], 39);
	clock_resume(&c, 40 * SEC);
	/* Move 40 completes the period: +30 s and +1800 s. */
	assert_int_equal(clock_press(&c, W, 50 * SEC), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&c, W), (3600 - 10 + 30 + 1800) * SEC);
	assert_int_equal(c.period[W], 1);
	/* Correction while Black's clock runs: Black's counter is one less. */
	clock_set(&c, 1000 * SEC, 500 * SEC, 45, 60 * SEC);
	assert_int_equal(c.moves[W], 45);
	assert_int_equal(c.moves[B], 44);
	assert_int_equal(c.period[B], 1);
	assert_int_equal(c.moves_in_period[B], 4);
	assert_int_equal(c.state, CLOCK_RUNNING);
	assert_int_equal(clock_remaining(&c, B, 60 * SEC), 500 * SEC);
	assert_int_equal(clock_remaining(&c, B, 61 * SEC), 499 * SEC);
	assert_int_equal(clock_flag_deadline(&c), 560 * SEC);
	/* Times only. */
	clock_set(&c, 1000 * SEC, 400 * SEC, -1, 61 * SEC);
	assert_int_equal(c.moves[B], 44);
	assert_int_equal(clock_remaining(&c, B, 61 * SEC), 400 * SEC);
}

static void test_correction_mid_delay(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "300d5");
	start(&c, 0);
	/* 3 s into the turn the arbiter sets White to 100 s: 2 s of delay remain. */
	clock_set(&c, 100 * SEC, 200 * SEC, -1, 3 * SEC);
	assert_int_equal(clock_remaining(&c, W, 3 * SEC), 100 * SEC);
	assert_int_equal(clock_remaining(&c, W, 5 * SEC), 100 * SEC);
	assert_int_equal(clock_remaining(&c, W, 6 * SEC), 99 * SEC);
	assert_int_equal(clock_flag_deadline(&c), 105 * SEC);
}

static void test_flag_deadline_exact(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "3+2");
	start(&c, 1000);
	assert_int_equal(clock_flag_deadline(&c), 4000);
	assert_int_equal(clock_check_flag(&c, 3999), -1);
	assert_int_equal(clock_remaining(&c, W, 3999), 1);
	/* A press 1 ms before the deadline is in time. */
	struct chess_clock d = c;
	assert_int_equal(clock_press(&d, W, 3999), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_last_press_remaining(&d, W), 2001);
	/* At the deadline it is too late. */
	d = c;
	assert_int_equal(clock_press(&d, W, 4000), CLOCK_PRESS_FLAGGED);
	assert_int_equal(d.state, CLOCK_FLAGGED);
	assert_int_equal(d.flagged, W);
	assert_int_equal(clock_check_flag(&c, 4000), W);
	assert_int_equal(c.state, CLOCK_FLAGGED);
	assert_int_equal(clock_remaining(&c, W, 9000), 0);
	assert_int_equal(clock_remaining(&c, B, 9000), 3000);
	assert_int_equal(clock_flag_deadline(&c), UINT64_MAX);
	assert_int_equal(clock_press(&c, W, 5000), CLOCK_PRESS_IGNORED);
	/* A late check freezes the negative reading. */
	make(&d, "3");
	start(&d, 0);
	assert_int_equal(clock_check_flag(&d, 3250), W);
	assert_int_equal(clock_remaining(&d, W, 10000), -250);
	/* The arbiter sets the clock again: paused, flag cleared. */
	clock_set(&d, 60 * SEC, 60 * SEC, -1, 11000);
	assert_int_equal(d.state, CLOCK_PAUSED);
	assert_int_equal(d.flagged, -1);
	clock_resume(&d, 12000);
	assert_int_equal(clock_flag_deadline(&d), 72000);
}

static void test_deadline_across_pause(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "10");
	start(&c, 0);
	assert_int_equal(clock_press(&c, W, 4000), CLOCK_PRESS_MOVE);
	assert_int_equal(clock_press(&c, B, 5000), CLOCK_PRESS_MOVE);
	clock_pause(&c, 6000);
	clock_resume(&c, 16000);
	/* White: 6 s left at the turn's start, 1 s used before the pause. */
	assert_int_equal(clock_flag_deadline(&c), 21000);
	assert_int_equal(clock_check_flag(&c, 20999), -1);
	assert_int_equal(clock_check_flag(&c, 21000), W);
}

static void test_stop(void **state)
{
	(void)state;
	struct chess_clock c;
	make(&c, "60");
	start(&c, 0);
	clock_stop(&c, 1500);
	assert_int_equal(c.state, CLOCK_STOPPED);
	assert_int_equal(clock_remaining(&c, W, 99000), 58500);
	assert_int_equal(clock_press(&c, W, 2000), CLOCK_PRESS_IGNORED);
	assert_int_equal(clock_flag_deadline(&c), UINT64_MAX);
}

static void test_clk_truncation(void **state)
{
	(void)state;
	char buf[32];
	clock_format_hms(0, buf, sizeof(buf));
	assert_string_equal(buf, "0:00:00");
	clock_format_hms(999, buf, sizeof(buf));
	assert_string_equal(buf, "0:00:00");
	clock_format_hms(59999, buf, sizeof(buf));
	assert_string_equal(buf, "0:00:59");
	clock_format_hms(3600 * SEC - 1, buf, sizeof(buf));
	assert_string_equal(buf, "0:59:59");
	clock_format_hms(5400 * SEC + 30 * SEC + 999, buf, sizeof(buf));
	assert_string_equal(buf, "1:30:30");
	clock_format_hms(-1, buf, sizeof(buf));
	assert_string_equal(buf, "0:00:00");
	clock_format_hms(-3600 * SEC, buf, sizeof(buf));
	assert_string_equal(buf, "0:00:00");
	clock_format_hms(100 * 3600 * (int64_t)SEC, buf, sizeof(buf));
	assert_string_equal(buf, "100:00:00");

	/* The [%clk] of a move: 15 min + 10 s, White thinks 4.7 s. */
	struct chess_clock c;
	make(&c, "900+10");
	start(&c, 0);
	assert_int_equal(clock_press(&c, W, 4700), CLOCK_PRESS_MOVE);
	clock_format_hms(clock_last_press_remaining(&c, W), buf, sizeof(buf));
	assert_string_equal(buf, "0:15:05");
}

/* Appendix A/B by edition: 2023 and 2018 blitz ten minutes or less (B.1), rapid less than
 * sixty (A.1); 2005 blitz under fifteen (C1), rapid fifteen to sixty (B1). */
static void test_kind_by_edition(void **state)
{
	(void)state;
	struct time_control tc;
	char err[128];
	static const struct {
		const char *tc;
		enum clock_game_kind k2023, k2005;
	} cases[] = {
	    {"-", CLOCK_STANDARD, CLOCK_STANDARD},
	    {"40/5400+30:1800+30", CLOCK_STANDARD, CLOCK_STANDARD},
	    {"3600", CLOCK_STANDARD, CLOCK_STANDARD},
	    {"3599", CLOCK_RAPID, CLOCK_RAPID},
	    {"900+10", CLOCK_RAPID, CLOCK_RAPID},
	    {"900", CLOCK_RAPID, CLOCK_RAPID}, /* 2005: exactly fifteen minutes is rapid */
	    {"899", CLOCK_RAPID, CLOCK_BLITZ},
	    {"720", CLOCK_RAPID, CLOCK_BLITZ},
	    {"600", CLOCK_BLITZ, CLOCK_BLITZ},
	    {"601", CLOCK_RAPID, CLOCK_BLITZ},
	    {"180+2", CLOCK_BLITZ, CLOCK_BLITZ},
	    {"300+5", CLOCK_BLITZ, CLOCK_BLITZ},	 /* 5 min + 60 x 5 s: exactly 10 minutes */
	    {"600+5", CLOCK_RAPID, CLOCK_RAPID},	 /* 10 + 5 min */
	    {"540+5", CLOCK_RAPID, CLOCK_BLITZ},	 /* 9 + 5 min */
	    {"1500+60", CLOCK_STANDARD, CLOCK_STANDARD}, /* 25 + 60 min */
	    {"300d5", CLOCK_BLITZ, CLOCK_BLITZ},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(time_control_parse(cases[i].tc, &tc, err, sizeof(err)), 0);
		assert_int_equal(rules_kind(rules_get(RULES_2023), &tc), cases[i].k2023);
		assert_int_equal(rules_kind(rules_get(RULES_2018), &tc), cases[i].k2023);
		assert_int_equal(rules_kind(rules_get(RULES_2005), &tc), cases[i].k2005);
	}
}

/* 2005 9.5 b: a wrong claim cuts the claimant's time: more than two minutes lose half, at
 * most three; one to two minutes become one; under one minute stays. */
static void test_claim_cut_2005(void **state)
{
	(void)state;
	const struct rules_claim *c2005 = &rules_get(RULES_2005)->claim[CLOCK_STANDARD];
	const struct rules_claim *c2023 = &rules_get(RULES_2023)->claim[CLOCK_STANDARD];

	assert_int_equal(c2005->penalty_ms, 180 * SEC);
	assert_int_equal(rules_claim_cut(c2005, 3600 * SEC), 3600 * SEC - 180 * SEC);
	assert_int_equal(rules_claim_cut(c2005, 300 * SEC), 150 * SEC);
	assert_int_equal(rules_claim_cut(c2005, 360 * SEC), 180 * SEC);
	assert_int_equal(rules_claim_cut(c2005, 121 * SEC), 60500);
	assert_int_equal(rules_claim_cut(c2005, 120 * SEC), 60 * SEC);
	assert_int_equal(rules_claim_cut(c2005, 90 * SEC), 60 * SEC);
	assert_int_equal(rules_claim_cut(c2005, 60 * SEC), 60 * SEC);
	assert_int_equal(rules_claim_cut(c2005, 59 * SEC), 59 * SEC);
	assert_int_equal(rules_claim_cut(c2005, 0), 0);
	assert_int_equal(rules_claim_cut(c2023, 3600 * SEC), 3600 * SEC);
}

/* The counter counts completed moves: a press that completes none does not count (7.5.3),
 * and a move completed without a press (6.2.1.2) counts with its period's time at once, in
 * the middle of the turn. */
static void test_counted_moves(void **state)
{
	(void)state;
	struct chess_clock c;

	make(&c, "3/30:20");
	start(&c, 0);
	assert_int_equal(clock_press_moves(&c, W, 0, 1000), CLOCK_PRESS_MOVE); /* no move */
	assert_int_equal(c.moves[W], 0);
	assert_int_equal(c.running, B);
	clock_press(&c, B, 2000);
	clock_press(&c, W, 3000);
	clock_press(&c, B, 4000);
	clock_press(&c, W, 5000);
	clock_press(&c, B, 6000);
	assert_int_equal(c.moves[W], 2);
	assert_int_equal(clock_remaining(&c, W, 6000), 27 * SEC);
	/* White's third move is completed by the next one: 20 s added at once. */
	clock_count_move(&c, W, 10000);
	assert_int_equal(c.moves[W], 3);
	assert_int_equal(c.period[W], 1);
	assert_int_equal(clock_remaining(&c, W, 10000), 23 * SEC + 20 * SEC);
	assert_int_equal(clock_remaining(&c, W, 12000), 41 * SEC);
	assert_int_equal(clock_flag_deadline(&c), 53000);
	/* Taken back (a retracted move): the counter, the period and its time. */
	clock_take_back(&c, W, 1, 20 * SEC, 13000);
	assert_int_equal(c.moves[W], 2);
	assert_int_equal(c.period[W], 0);
	assert_int_equal(clock_remaining(&c, W, 13000), 20 * SEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_start_by_black),
	    cmocka_unit_test(test_first_mover_black),
	    cmocka_unit_test(test_no_clock),
	    cmocka_unit_test(test_fischer),
	    cmocka_unit_test(test_delay),
	    cmocka_unit_test(test_bronstein),
	    cmocka_unit_test(test_pause_resume_delay),
	    cmocka_unit_test(test_pause_resume_bronstein),
	    cmocka_unit_test(test_periods),
	    cmocka_unit_test(test_fide_classical),
	    cmocka_unit_test(test_repeating_last_period),
	    cmocka_unit_test(test_corrections),
	    cmocka_unit_test(test_correction_mid_delay),
	    cmocka_unit_test(test_flag_deadline_exact),
	    cmocka_unit_test(test_deadline_across_pause),
	    cmocka_unit_test(test_stop),
	    cmocka_unit_test(test_clk_truncation),
	    cmocka_unit_test(test_kind_by_edition),
	    cmocka_unit_test(test_claim_cut_2005),
	    cmocka_unit_test(test_counted_moves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
