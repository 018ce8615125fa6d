/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chess clock: time controls (docs/scripts.md "Board scripts, line logs, time controls") and
 * clock arithmetic.  Pure: every call takes the daemon time; nothing reads a clock.  All times are
 * integer milliseconds.
 *
 * Time controls
 * -------------
 * `[MOVES/]SECONDS[+INCREMENT|dDELAY|bBRONSTEIN]` periods joined by ':' (whole seconds),
 * or "-" for no clock:
 *   "40/5400+30:1800+30"  90 min for 40 moves, then 30 min for the rest, +30 s from move 1
 *   "900+10"              15 min + 10 s Fischer increment per move
 *   "300d5"               5 min, 5 s delay per move (US delay)
 *   "300b5"               5 min, Bronstein 5 s
 *   "40/7200"             2 h per 40 moves, repeating
 * A period with a move count lasts that many moves of each player; when a colour completes
 * them, the next period's SECONDS are added to that colour's remaining time and the next
 * period's mode applies.  The clock counts completed moves, not presses: the caller says how
 * many moves a press completes (none for a press with no move, Art. 7.5.3) and counts a move
 * completed without a press (by the player's next move, 6.2.1.2) with clock_count_move(); after a
 * flag (FLAGGED) a move is counted but adds no time: the readings stand.  After a
 * delay or Bronstein period the time saved in it is not carried over (Art. 6.3.2): the remaining
 * time becomes the next period's SECONDS.  A period without a move count lasts the rest of the
 * game, so it may only be the last.  If the last period has a move count, it repeats: "40/7200"
 * gives another 2 h after every 40 moves, and "40/5400:20/1800" adds 30 min after moves 60, 80,
 * 100, ...
 *
 * Modes, applied to the turn of the colour whose clock runs:
 *   Fischer (+N): N s are added when the mover presses (also on the move that completes a
 *      period: the increment of the period the move was made in).
 *   delay (dN): the main time runs only after the first N s of each turn.
 *   Bronstein (bN): the time runs at once; at the press min(time used this turn, N s) is
 *      given back.
 * "Time used this turn" counts only running time: a pause (Art. 6.11.2) keeps it, so
 * resuming neither renews the delay nor loses the Bronstein credit.
 *
 * The game
 * --------
 * Before the start both clocks stand.  The press by the colour that does not move first
 * (Black, Art. 6.6) starts the clock of the first mover; other presses do nothing.  After
 * that only the colour whose clock runs can press: the press completes their move and
 * starts the opponent's clock.  A flag falls when the running colour's remaining time
 * reaches 0 ms: a press at time t is in time only if clock_remaining(t) > 0.
 */
#ifndef ANNABELLA_CLOCK_H
#define ANNABELLA_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TC_MAX_PERIODS 8
/* Bounds of the syntax: seconds per period, extra seconds, moves per period. */
#define TC_MAX_SECONDS 360000
#define TC_MAX_EXTRA   3600
#define TC_MAX_MOVES   999
/* Enough for any formatted time control. */
#define TC_FORMAT_MAX (TC_MAX_PERIODS * 20 + 2)

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
 * 1-based column in err ("column 4: ..."); *tc is then cleared. */
int time_control_parse(const char *text, struct time_control *tc, char *err, size_t err_size);
/* Back to the same syntax (the PGN TimeControl tag value); a mode given with 0 extra seconds
 * ("900+0") is kept, so parse -> format -> parse gives the same struct. */
void time_control_format(const struct time_control *tc, char *buf, size_t size);
bool time_control_equal(const struct time_control *a, const struct time_control *b);

/* Appendix A/B: the kind of game, from the first period's time + 60 x increment; the bounds
 * differ between editions of the Laws (rules_kind() in rules.h). */
enum clock_game_kind { CLOCK_STANDARD = 0, CLOCK_RAPID, CLOCK_BLITZ };

enum clock_state {
	CLOCK_NOT_STARTED = 0, /* waiting for Black's first press (Art. 6.6) */
	CLOCK_RUNNING,
	CLOCK_PAUSED,  /* Art. 6.11.2, or restored after a restart */
	CLOCK_FLAGGED, /* a flag fell; the clock stands */
	CLOCK_STOPPED, /* the game is over */
};

/* What clock_press() did. */
enum clock_press_result {
	CLOCK_PRESS_MOVE = 0,	 /* completed a move of `color`; the opponent's clock runs */
	CLOCK_PRESS_IGNORED = 1, /* nothing happened */
	CLOCK_PRESS_STARTED = 2, /* the starting press: the first mover's clock runs */
	CLOCK_PRESS_FLAGGED = 3, /* too late: the presser's flag had fallen (now FLAGGED) */
};

/*
 * The fields are public for the journal and tests; change them only through the calls.
 * For each colour, remaining_ms is the main time at the start of its current turn (after
 * corrections); its reading at `now` is remaining_ms minus the time charged for the turn.
 */
struct chess_clock {
	struct time_control tc;
	enum clock_state state;
	int running;	 /* colour whose time runs (0 white, 1 black) while RUNNING/PAUSED */
	int first_mover; /* colour whose clock the starting press starts (default white) */
	int64_t remaining_ms[2];  /* at the start of the turn / at the last press or correction */
	uint64_t since_ms;	  /* daemon time when `running` started this stretch */
	uint64_t turn_used_ms[2]; /* time used in the current turn before this stretch (pauses) */
	uint64_t game_used_ms[2]; /* time used in the game's turns before the current one */
	int period[2];		  /* index into tc.periods */
	int moves[2];		  /* moves completed by each colour (the move counter) */
	int moves_in_period[2];
	int flagged;		  /* colour whose flag fell, or -1 */
	int64_t last_press_ms[2]; /* reading right after the colour's last completing press */
	/* Art. 6.3.2: time saved in a period is carried over to the next, except in delay
	 * mode (a delay or Bronstein period); true carries it over in delay mode too.  From the
	 * rules of the game's edition (rules.h); false after clock_init(). */
	bool delay_carries_saved_time;
};

/* Both clocks get the first period's time; the state is NOT_STARTED.  With "-" (count 0)
 * the clock never runs: every press returns CLOCK_PRESS_IGNORED. */
void clock_init(struct chess_clock *c, const struct time_control *tc);
/* Before the start, for set-up positions with Black to move: the starting press is then
 * White's and starts Black's clock. */
void clock_set_first_mover(struct chess_clock *c, int color);
/* `color` presses their clock button at now; see enum clock_press_result.  On a completing
 * press: Bronstein credit and Fischer increment of the current period are added, the move
 * counter advances by the `moves` the press completes (clock_press(): one), and on completing
 * a period the next period's time is added. */
enum clock_press_result clock_press(struct chess_clock *c, int color, uint64_t now);
enum clock_press_result clock_press_moves(struct chess_clock *c, int color, int moves,
					  uint64_t now);
/* A move of `color` completed at now without a press of its own (Art. 6.2.1.2: by the
 * player's next move): counted, and a period it completes adds the next period's time to
 * the reading at once, also while that colour's clock runs. */
void clock_count_move(struct chess_clock *c, int color, uint64_t now);
/* Time `color` has used in the game up to now: every turn's running time, the current
 * turn's included (the time used that `info` may say instead of, or with, the time left). */
uint64_t clock_used(const struct chess_clock *c, int color, uint64_t now);
/* Remaining time of `color` at now (may be negative after a late flag check). */
int64_t clock_remaining(const struct chess_clock *c, int color, uint64_t now);
/* The exact daemon time at which the running side's flag falls (its reading reaches 0),
 * or UINT64_MAX when no clock runs.  In delay mode the unused delay is included. */
uint64_t clock_flag_deadline(const struct chess_clock *c);
/* Call at or after the deadline: when the running colour's reading at now is <= 0, the
 * clock stands (FLAGGED, readings frozen at now) and that colour is returned; else -1. */
int clock_check_flag(struct chess_clock *c, uint64_t now);
/* Stop both clocks (Art. 6.11.2); only while RUNNING.  The turn's used time is kept. */
void clock_pause(struct chess_clock *c, uint64_t now);
/* Restart the running colour's clock after a pause; only while PAUSED. */
void clock_resume(struct chess_clock *c, uint64_t now);
/* Arbiter's correction (Art. 6.10, 7.1): the readings at now become white_ms and black_ms
 * (delay and Bronstein accounting of the running turn continue from there).  If moves >= 0,
 * it is the number of moves White has completed (the clock's move counter); Black's count
 * is the same on the first mover's turn, otherwise one less (White first) or one more
 * (Black first); the periods are placed from these counts (no time is added).  A FLAGGED clock
 * becomes PAUSED (the arbiter decided the game goes on); otherwise the state is kept. */
void clock_set(struct chess_clock *c, int64_t white_ms, int64_t black_ms, int moves, uint64_t now);
/* Both counters explicitly (the arbiter's clock set). */
void clock_set_moves(struct chess_clock *c, int white_moves, int black_moves);
/* The arbiter's correction of the time control (Art. 6.10.2): `tc` (with a clock) from now
 * on, the readings at now kept, the periods placed from the move counters (no time added:
 * clock_set() corrects the times).  The turn that runs is charged by the old control up to
 * now, by the new one from now; a FLAGGED clock becomes PAUSED, as with clock_set(). */
void clock_set_control(struct chess_clock *c, const struct time_control *tc, uint64_t now);
/* Time added to a colour's remaining time (a penalty given to the opponent, Art. 7.5.5). */
void clock_give(struct chess_clock *c, int color, int64_t ms);
/* What retracted presses gave `color` is taken back (Art. 7.1: the arbiter sets times and
 * counter after an irregularity): `moves` counted moves off the counter (the periods placed
 * from it again) and `earned_ms` (increments, Bronstein credits, periods' time) off the
 * reading at now; the time used since stays used. */
void clock_take_back(struct chess_clock *c, int color, int moves, int64_t earned_ms, uint64_t now);
/* The arbiter's turn of the clock: `color`'s clock is the one that runs (or would, while the
 * clocks stand), a new turn from now.  A FLAGGED clock becomes PAUSED; a clock not started
 * or stopped is left alone. */
void clock_set_running(struct chess_clock *c, int color, uint64_t now);
/* A casual game taken back after it ended or a flag fell (docs/training.md "Training and study"):
 * the clock runs again, `color`'s turn from now.  Only a STOPPED or FLAGGED clock. */
void clock_reopen(struct chess_clock *c, int color, uint64_t now);
/* Online play (docs/online.md "Playing online"): the server's clock is the clock.  The readings
 * become white_ms and black_ms at now and `running`'s clock runs from now; with running -1 it has
 * not started (the server's starts after both sides' first moves; a stopped clock stays
 * stopped).  No flag ever falls here: the server decides. */
void clock_follow(struct chess_clock *c, int64_t white_ms, int64_t black_ms, int running,
		  uint64_t now);
/* Online play: `color` completes a move (its press, or the server's move): counted, the
 * period's increment added, the opponent's clock running, never a flag; a clock not started
 * (the server's starts after both first moves) only counts the move.  Its reading after it:
 * clock_last_press_remaining(). */
void clock_press_follow(struct chess_clock *c, int color, uint64_t now);
/* Stop for good (game over); the readings freeze at now. */
void clock_stop(struct chess_clock *c, uint64_t now);

/* Delay mode: how much of `color`'s delay is left in the turn its clock runs (or stands
 * in), the main time not yet running; -1 when its clock does not run or its period has no
 * delay (the clock display and `info` show it). */
int64_t clock_delay_left(const struct chess_clock *c, int color, uint64_t now);
/* The move count at which `color`'s current period ends ("40" of "40/5400:..."), or 0 when
 * the period lasts the rest of the game. */
int clock_period_end(const struct chess_clock *c, int color);

/*
 * The `[%clk]` value of a move (docs/state.md "State directory"): the mover's reading right after
 * the press that completed it, including the increment, the Bronstein credit and the time of a
 * period that press completed.  Read it right after clock_press() returned CLOCK_PRESS_MOVE and
 * format it with clock_format_hms(), which truncates to whole seconds.
 */
int64_t clock_last_press_remaining(const struct chess_clock *c, int color);
/* "H:MM:SS", truncated to whole seconds; negative times give "0:00:00". */
void clock_format_hms(int64_t ms, char *buf, size_t size);

/*
 * The clock's state as text, for the journal: everything but the time control (which the
 * game record holds), read at `now`:
 *
 *	STATE RUNNING W_MS B_MS W_MOVES B_MOVES W_PERIOD B_PERIOD W_INPER B_INPER W_USED B_USED
 *	W_LAST B_LAST FIRST FLAGGED
 *
 * STATE is not-started|running|paused|flagged|stopped, RUNNING and FIRST white|black,
 * FLAGGED white|black|-.  W_USED/B_USED are the running time of the current turn up to now,
 * so the text stands alone: decoding it at a later time continues from there.  Returns the
 * length (as snprintf).
 */
#define CLOCK_TEXT_MAX 200
int clock_encode(const struct chess_clock *c, uint64_t now, char *buf, size_t size);
/* Read what clock_encode() wrote into *c, keeping c->tc; the running stretch restarts at now.
 * Returns the number of bytes read, or -1 (nothing changed) if the text is not a clock. */
int clock_decode(struct chess_clock *c, const char *text, uint64_t now);
/* Take the state of `from` (decoded from the journal), keeping c's time control.  0, or -1
 * (nothing changed) if it names a period c's time control does not have. */
int clock_adopt(struct chess_clock *c, const struct chess_clock *from);
/* The daemon started again: its time counts from a new origin, and the time between the last
 * journaled reading and the restart is unknown.  A running clock stands (PAUSED) at its
 * reading as it was journaled, restarting from now when resumed. */
void clock_rebase(struct chess_clock *c, uint64_t now);

#endif
