/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chess clock: time controls (DESIGN 4.6) and clock arithmetic.  Pure: every call
 * takes the daemon time; nothing reads a clock.
 */
#ifndef ANNABELLA_CLOCK_H
#define ANNABELLA_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TC_MAX_PERIODS 8

enum tc_mode { TC_PLAIN = 0, TC_FISCHER, TC_DELAY, TC_BRONSTEIN };

struct tc_period {
	int moves;	  /* moves in this period; 0: the rest of the game */
	uint64_t base_ms; /* time added at the start of the period */
	enum tc_mode mode;
	uint64_t extra_ms; /* increment, delay or Bronstein delay */
};

struct time_control {
	int count; /* 0: no clock ("-") */
	struct tc_period periods[TC_MAX_PERIODS];
};

/* "40/5400+30:1800+30", "900+10", "300d5", "300b5", "-".  0, or -1 with a message naming the
 * column in err. */
int time_control_parse(const char *text, struct time_control *tc, char *err, size_t err_size);
/* Back to the same syntax (the PGN TimeControl tag value). */
void time_control_format(const struct time_control *tc, char *buf, size_t size);

enum clock_state {
	CLOCK_NOT_STARTED = 0, /* waiting for Black's first press (Art. 6.6) */
	CLOCK_RUNNING,
	CLOCK_PAUSED,	/* Art. 6.11.2, or restored after a restart */
	CLOCK_FLAGGED,	/* a flag fell; the clock stands */
	CLOCK_STOPPED,	/* the game is over */
};

struct chess_clock {
	struct time_control tc;
	enum clock_state state;
	int running;		  /* colour whose time runs (0 white, 1 black) while RUNNING/PAUSED */
	int64_t remaining_ms[2];  /* at the last press / pause / correction */
	uint64_t since_ms;	  /* daemon time when `running` started this stretch */
	uint64_t turn_used_ms[2]; /* time used in the current turn before this stretch (pauses) */
	int period[2];		  /* index into tc.periods */
	int moves[2];		  /* moves completed (presses) by each colour */
	int moves_in_period[2];
	int flagged;		  /* colour whose flag fell, or -1 */
};

void clock_init(struct chess_clock *c, const struct time_control *tc);
/* `color` presses their clock button at now.  Black's first press starts White's clock;
 * a press by the colour whose clock is not running does nothing and returns 1.
 * Returns 0 when the press completes a move (increment added, period advanced).  */
int clock_press(struct chess_clock *c, int color, uint64_t now);
/* Remaining time of `color` at now (may be negative after a flag). */
int64_t clock_remaining(const struct chess_clock *c, int color, uint64_t now);
/* The exact daemon time at which the running side's flag falls, or UINT64_MAX. */
uint64_t clock_flag_deadline(const struct chess_clock *c);
/* Call at or after the deadline: returns the flagged colour, or -1. */
int clock_check_flag(struct chess_clock *c, uint64_t now);
void clock_pause(struct chess_clock *c, uint64_t now);
void clock_resume(struct chess_clock *c, uint64_t now);
/* Arbiter's correction (Art. 6.10, 7.1): times and, if moves >= 0, the move counters. */
void clock_set(struct chess_clock *c, int64_t white_ms, int64_t black_ms, int moves, uint64_t now);
/* Stop for good (game over). */
void clock_stop(struct chess_clock *c, uint64_t now);

#endif
