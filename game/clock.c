/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Clock arithmetic and the time-control syntax.  See clock.h for the rules.
 */
#include "game/clock.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game/color.h"

/* ---------------------------------------------------------------- time controls */

static int parse_fail(struct time_control *tc, char *err, size_t err_size, size_t column,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int parse_fail(struct time_control *tc, char *err, size_t err_size, size_t column,
		      const char *fmt, ...)
{
	memset(tc, 0, sizeof(*tc));
	if (err && err_size) {
		int n = snprintf(err, err_size, "column %zu: ", column);
		if (n >= 0 && (size_t)n < err_size) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(err + n, err_size - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return -1;
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Digits at text[*pos] as a bounded number; -1 if none, -2 if above max. */
static long read_number(const char *text, size_t *pos, long max)
{
	size_t i = *pos;
	long value = 0;
	bool over = false;
	if (!is_digit(text[i]))
		return -1;
	while (is_digit(text[i])) {
		if (!over) {
			value = value * 10 + (text[i] - '0');
			if (value > max)
				over = true;
		}
		i++;
	}
	*pos = i;
	return over ? -2 : value;
}

/* The moves and seconds of the period at *pos: "40/5400" or "5400"; a move count names the
 * period's moves, and only the first period must have time. */
static int parse_period_time(const char *text, size_t *pos, struct time_control *tc, char *err,
			     size_t err_size)
{
	struct tc_period *p = &tc->periods[tc->count];
	size_t start = *pos;
	long first = read_number(text, pos, TC_MAX_SECONDS);

	if (first == -1)
		return parse_fail(tc, err, err_size, *pos + 1,
				  "expected a number of moves or seconds");
	if (text[*pos] == '/') {
		if (first == -2 || first > TC_MAX_MOVES)
			return parse_fail(tc, err, err_size, start + 1,
					  "more than %d moves in a period", TC_MAX_MOVES);
		if (first == 0)
			return parse_fail(tc, err, err_size, start + 1,
					  "a period needs at least one move");
		p->moves = (int)first;
		(*pos)++;
		start = *pos;
		first = read_number(text, pos, TC_MAX_SECONDS);
		if (first == -1)
			return parse_fail(tc, err, err_size, *pos + 1,
					  "expected seconds after '/'");
	}
	if (first == -2)
		return parse_fail(tc, err, err_size, start + 1, "more than %d seconds",
				  TC_MAX_SECONDS);
	if (first == 0 && tc->count == 0)
		return parse_fail(tc, err, err_size, start + 1, "the first period needs time");
	p->base_ms = (uint64_t)first * 1000u;
	return 0;
}

/* The increment or delay after the period's time, if any: "+30", "d5", "b10". */
static int parse_period_extra(const char *text, size_t *pos, struct time_control *tc, char *err,
			      size_t err_size)
{
	struct tc_period *p = &tc->periods[tc->count];
	char sign = text[*pos];

	if (sign != '+' && sign != 'd' && sign != 'b')
		return 0;
	p->mode = sign == '+' ? TC_FISCHER : sign == 'd' ? TC_DELAY : TC_BRONSTEIN;
	(*pos)++;
	size_t extra_at = *pos;
	long extra = read_number(text, pos, TC_MAX_EXTRA);
	if (extra == -1)
		return parse_fail(tc, err, err_size, *pos + 1, "expected seconds after '%c'", sign);
	if (extra == -2)
		return parse_fail(tc, err, err_size, extra_at + 1, "more than %d extra seconds",
				  TC_MAX_EXTRA);
	p->extra_ms = (uint64_t)extra * 1000u;
	return 0;
}

int time_control_parse(const char *text, struct time_control *tc, char *err, size_t err_size)
{
	memset(tc, 0, sizeof(*tc));
	if (err && err_size)
		err[0] = '\0';
	if (!text || !text[0])
		return parse_fail(tc, err, err_size, 1, "empty time control");
	if (strcmp(text, "-") == 0)
		return 0;

	size_t pos = 0;
	for (;;) {
		if (tc->count == TC_MAX_PERIODS)
			return parse_fail(tc, err, err_size, pos + 1, "more than %d periods",
					  TC_MAX_PERIODS);
		if (parse_period_time(text, &pos, tc, err, err_size) < 0 ||
		    parse_period_extra(text, &pos, tc, err, err_size) < 0)
			return -1;
		tc->count++;

		if (text[pos] == '\0')
			break;
		if (text[pos] == ':') {
			if (tc->periods[tc->count - 1].moves == 0)
				return parse_fail(
				    tc, err, err_size, pos + 1,
				    "only the last period may be without a move count");
			pos++;
			continue;
		}
		if (text[pos] == '.')
			return parse_fail(tc, err, err_size, pos + 1,
					  "fractions are not supported: whole seconds");
		return parse_fail(tc, err, err_size, pos + 1, "unexpected '%c'", text[pos]);
	}
	return 0;
}

void time_control_format(const struct time_control *tc, char *buf, size_t size)
{
	if (!size)
		return;
	buf[0] = '\0';
	if (tc->count <= 0) {
		snprintf(buf, size, "-");
		return;
	}
	size_t used = 0;
	for (int i = 0; i < tc->count && i < TC_MAX_PERIODS; i++) {
		const struct tc_period *p = &tc->periods[i];
		char part[64];
		int n = 0;
		if (p->moves > 0)
			n = snprintf(part, sizeof(part), "%d/", p->moves);
		n += snprintf(part + n, sizeof(part) - (size_t)n, "%llu",
			      (unsigned long long)(p->base_ms / 1000u));
		if (p->mode != TC_PLAIN) {
			char sign = p->mode == TC_FISCHER ? '+' : p->mode == TC_DELAY ? 'd' : 'b';
			snprintf(part + n, sizeof(part) - (size_t)n, "%c%llu", sign,
				 (unsigned long long)(p->extra_ms / 1000u));
		}
		int w = snprintf(buf + used, size - used, "%s%s", i ? ":" : "", part);
		if (w < 0 || (size_t)w >= size - used)
			return; /* truncated */
		used += (size_t)w;
	}
}

bool time_control_equal(const struct time_control *a, const struct time_control *b)
{
	if (a->count != b->count)
		return false;
	for (int i = 0; i < a->count && i < TC_MAX_PERIODS; i++) {
		const struct tc_period *p = &a->periods[i], *q = &b->periods[i];
		if (p->moves != q->moves || p->base_ms != q->base_ms || p->mode != q->mode ||
		    p->extra_ms != q->extra_ms)
			return false;
	}
	return true;
}

/* ---------------------------------------------------------------- clock */

static const struct tc_period *current_period(const struct chess_clock *c, int color)
{
	return &c->tc.periods[c->period[color]];
}

/* Main time charged for `used` ms of running time in a turn. */
static int64_t charged(const struct chess_clock *c, int color, uint64_t used)
{
	const struct tc_period *p = current_period(c, color);
	if (p->mode == TC_DELAY)
		return used > p->extra_ms ? (int64_t)(used - p->extra_ms) : 0;
	return (int64_t)used;
}

/* Running time of `color`'s current turn up to now. */
static uint64_t turn_used(const struct chess_clock *c, int color, uint64_t now)
{
	uint64_t used = c->turn_used_ms[color];
	if (c->state == CLOCK_RUNNING && c->running == color && now > c->since_ms)
		used += now - c->since_ms;
	return used;
}

/* The current turn of `color` ends: its running time goes to the game's. */
static void end_turn(struct chess_clock *c, int color, uint64_t now)
{
	c->game_used_ms[color] += turn_used(c, color, now);
	c->turn_used_ms[color] = 0;
}

uint64_t clock_used(const struct chess_clock *c, int color, uint64_t now)
{
	if (color != 0 && color != 1)
		return 0;
	return c->game_used_ms[color] + turn_used(c, color, now);
}

/* Fold the running stretch into turn_used so that since_ms == now. */
static void fold(struct chess_clock *c, uint64_t now)
{
	if (c->state != CLOCK_RUNNING)
		return;
	c->turn_used_ms[c->running] = turn_used(c, c->running, now);
	c->since_ms = now;
}

static void start_turn(struct chess_clock *c, int color, uint64_t now)
{
	c->running = color;
	c->turn_used_ms[color] = 0;
	c->since_ms = now;
	c->state = CLOCK_RUNNING;
}

void clock_init(struct chess_clock *c, const struct time_control *tc)
{
	memset(c, 0, sizeof(*c));
	c->tc = *tc;
	if (c->tc.count < 0)
		c->tc.count = 0;
	if (c->tc.count > TC_MAX_PERIODS)
		c->tc.count = TC_MAX_PERIODS;
	c->state = CLOCK_NOT_STARTED;
	c->first_mover = 0;
	c->flagged = -1;
	int64_t base = c->tc.count ? (int64_t)c->tc.periods[0].base_ms : 0;
	for (int i = 0; i < 2; i++) {
		c->remaining_ms[i] = base;
		c->last_press_ms[i] = base;
	}
}

void clock_set_first_mover(struct chess_clock *c, int color)
{
	if (c->state == CLOCK_NOT_STARTED)
		c->first_mover = color ? 1 : 0;
}

/* The reading of `color` becomes `reading` at now, whether or not its clock runs (the
 * current period's delay accounting of a running turn continues from there). */
static void set_reading(struct chess_clock *c, int color, int64_t reading, uint64_t now)
{
	if ((c->state == CLOCK_RUNNING || c->state == CLOCK_PAUSED) && color == c->running)
		reading += charged(c, color, turn_used(c, color, now));
	c->remaining_ms[color] = reading;
}

/* One more completed move of `color`, at now: the next period when this one's moves are
 * done, its time added to the reading at once (also in the middle of a turn: a move
 * completed by the player's next move, Art. 6.2.1.2). */
static void count_move(struct chess_clock *c, int color, uint64_t now)
{
	const struct tc_period *p = current_period(c, color);
	int64_t reading = clock_remaining(c, color, now);
	bool saves =
	    (p->mode != TC_DELAY && p->mode != TC_BRONSTEIN) || c->delay_carries_saved_time;

	c->moves[color]++;
	c->moves_in_period[color]++;
	if (p->moves == 0 || c->moves_in_period[color] < p->moves)
		return;
	c->moves_in_period[color] = 0;
	if (c->period[color] + 1 < c->tc.count)
		c->period[color]++;
	/* else the last period repeats */
	/* After a flag the clock stands at its readings: a move made or completed then adds no
	 * time (the arbiter sets the clocks if the game goes on, 6.10.2). */
	if (c->state == CLOCK_FLAGGED)
		return;
	reading = (saves ? reading : 0) + (int64_t)current_period(c, color)->base_ms;
	set_reading(c, color, reading, now);
}

enum clock_press_result clock_press(struct chess_clock *c, int color, uint64_t now)
{
	return clock_press_moves(c, color, 1, now);
}

enum clock_press_result clock_press_moves(struct chess_clock *c, int color, int moves, uint64_t now)
{
	if (c->tc.count == 0 || (color != 0 && color != 1))
		return CLOCK_PRESS_IGNORED;
	if (c->state == CLOCK_NOT_STARTED) {
		if (color == c->first_mover)
			return CLOCK_PRESS_IGNORED;
		start_turn(c, c->first_mover, now);
		return CLOCK_PRESS_STARTED;
	}
	if (c->state != CLOCK_RUNNING || color != c->running)
		return CLOCK_PRESS_IGNORED;
	if (clock_check_flag(c, now) >= 0)
		return CLOCK_PRESS_FLAGGED;

	uint64_t used = turn_used(c, color, now);
	const struct tc_period *p = current_period(c, color);
	int64_t left = c->remaining_ms[color] - charged(c, color, used);
	if (p->mode == TC_BRONSTEIN)
		left += (int64_t)(used < p->extra_ms ? used : p->extra_ms);
	else if (p->mode == TC_FISCHER)
		left += (int64_t)p->extra_ms;
	c->remaining_ms[color] = left;
	end_turn(c, color, now);
	start_turn(c, !color, now);
	for (int i = 0; i < moves; i++)
		count_move(c, color, now);
	c->last_press_ms[color] = c->remaining_ms[color];
	return CLOCK_PRESS_MOVE;
}

void clock_count_move(struct chess_clock *c, int color, uint64_t now)
{
	if (c->tc.count == 0 || (color != 0 && color != 1))
		return;
	count_move(c, color, now);
}

int64_t clock_remaining(const struct chess_clock *c, int color, uint64_t now)
{
	if (color != 0 && color != 1)
		return 0;
	if (c->tc.count == 0)
		return 0;
	if ((c->state == CLOCK_RUNNING || c->state == CLOCK_PAUSED) && color == c->running)
		return c->remaining_ms[color] - charged(c, color, turn_used(c, color, now));
	return c->remaining_ms[color];
}

uint64_t clock_flag_deadline(const struct chess_clock *c)
{
	if (c->state != CLOCK_RUNNING || c->tc.count == 0)
		return UINT64_MAX;
	int color = c->running;
	int64_t main_left = c->remaining_ms[color];
	if (main_left <= 0)
		return c->since_ms; /* already out: due at once */
	/* Running time of the turn at which the reading reaches 0. */
	uint64_t zero_at = (uint64_t)main_left;
	const struct tc_period *p = current_period(c, color);
	if (p->mode == TC_DELAY)
		zero_at += p->extra_ms;
	uint64_t used = c->turn_used_ms[color];
	if (zero_at <= used)
		return c->since_ms;
	uint64_t left = zero_at - used;
	if (left > UINT64_MAX - c->since_ms)
		return UINT64_MAX;
	return c->since_ms + left;
}

int clock_check_flag(struct chess_clock *c, uint64_t now)
{
	if (c->state != CLOCK_RUNNING)
		return -1;
	int color = c->running;
	int64_t left = clock_remaining(c, color, now);
	if (left > 0)
		return -1;
	c->remaining_ms[color] = left;
	end_turn(c, color, now);
	c->since_ms = now;
	c->state = CLOCK_FLAGGED;
	c->flagged = color;
	return color;
}

void clock_pause(struct chess_clock *c, uint64_t now)
{
	if (c->state != CLOCK_RUNNING)
		return;
	fold(c, now);
	c->state = CLOCK_PAUSED;
}

void clock_resume(struct chess_clock *c, uint64_t now)
{
	if (c->state != CLOCK_PAUSED)
		return;
	c->since_ms = now;
	c->state = CLOCK_RUNNING;
}

/* Place a colour's period and its moves in it from its completed move count. */
static void locate_period(struct chess_clock *c, int color, int moves)
{
	if (moves < 0)
		moves = 0;
	c->moves[color] = moves;
	int period = 0;
	int left = moves;
	for (;;) {
		int in = c->tc.count ? c->tc.periods[period].moves : 0;
		if (in == 0 || left < in)
			break;
		left -= in;
		if (period + 1 < c->tc.count)
			period++;
		else
			left %= in; /* the last period repeats */
	}
	c->period[color] = period;
	c->moves_in_period[color] = left;
}

void clock_set_moves(struct chess_clock *c, int white_moves, int black_moves)
{
	locate_period(c, 0, white_moves);
	locate_period(c, 1, black_moves);
}

void clock_set_control(struct chess_clock *c, const struct time_control *tc, uint64_t now)
{
	int64_t white = clock_remaining(c, 0, now), black = clock_remaining(c, 1, now);

	c->tc = *tc;
	clock_set_moves(c, c->moves[0], c->moves[1]);
	if (c->state != CLOCK_NOT_STARTED && c->state != CLOCK_STOPPED)
		clock_set(c, white, black, -1, now);
}

void clock_set(struct chess_clock *c, int64_t white_ms, int64_t black_ms, int moves, uint64_t now)
{
	fold(c, now);
	if (moves >= 0) {
		/* Equal counts on the first mover's turn; otherwise the first mover is one up. */
		int black = moves;
		bool turn_known = c->state == CLOCK_RUNNING || c->state == CLOCK_PAUSED ||
				  c->state == CLOCK_FLAGGED;
		if (turn_known && c->running != c->first_mover)
			black = c->first_mover == 0 ? moves - 1 : moves + 1;
		clock_set_moves(c, moves, black);
	}
	int64_t target[2] = {white_ms, black_ms};
	for (int color = 0; color < 2; color++) {
		c->remaining_ms[color] = target[color];
		if ((c->state == CLOCK_RUNNING || c->state == CLOCK_PAUSED) && color == c->running)
			c->remaining_ms[color] += charged(c, color, c->turn_used_ms[color]);
	}
	if (c->state == CLOCK_FLAGGED) {
		c->state = CLOCK_PAUSED;
		c->flagged = -1;
		c->turn_used_ms[c->running] = 0;
	}
}

void clock_give(struct chess_clock *c, int color, int64_t ms)
{
	if (color == 0 || color == 1)
		c->remaining_ms[color] += ms;
}

void clock_take_back(struct chess_clock *c, int color, int moves, int64_t earned_ms, uint64_t now)
{
	int64_t reading;

	if (c->tc.count == 0 || (color != 0 && color != 1))
		return;
	reading = clock_remaining(c, color, now) - earned_ms;
	if (moves > 0)
		locate_period(c, color, c->moves[color] - moves);
	set_reading(c, color, reading, now);
}

void clock_set_running(struct chess_clock *c, int color, uint64_t now)
{
	if (c->state == CLOCK_NOT_STARTED || c->state == CLOCK_STOPPED ||
	    (color != 0 && color != 1))
		return;
	if (c->running != color) {
		/* The reading of the colour that ran stays as it is now. */
		c->remaining_ms[c->running] = clock_remaining(c, c->running, now);
		end_turn(c, c->running, now);
		c->running = color;
		c->turn_used_ms[color] = 0;
	}
	if (c->state == CLOCK_FLAGGED) {
		c->state = CLOCK_PAUSED;
		c->flagged = -1;
	}
	c->since_ms = now;
}

void clock_reopen(struct chess_clock *c, int color, uint64_t now)
{
	if ((c->state != CLOCK_STOPPED && c->state != CLOCK_FLAGGED) || (color != 0 && color != 1))
		return;
	c->state = CLOCK_RUNNING;
	c->flagged = -1;
	start_turn(c, color, now);
}

void clock_follow(struct chess_clock *c, int64_t white_ms, int64_t black_ms, int running,
		  uint64_t now)
{
	if (c->state == CLOCK_RUNNING || c->state == CLOCK_PAUSED || c->state == CLOCK_FLAGGED)
		end_turn(c, c->running, now);
	c->remaining_ms[0] = white_ms;
	c->remaining_ms[1] = black_ms;
	c->flagged = -1;
	if (running == 0 || running == 1) {
		start_turn(c, running, now);
	} else if (c->state != CLOCK_STOPPED) {
		c->state = CLOCK_NOT_STARTED;
		c->turn_used_ms[0] = c->turn_used_ms[1] = 0;
	}
}

void clock_press_follow(struct chess_clock *c, int color, uint64_t now)
{
	int64_t reading;

	if (c->tc.count == 0 || (color != 0 && color != 1))
		return;
	reading = clock_remaining(c, color, now);
	if (reading < 0)
		reading = 0;
	if (c->state == CLOCK_RUNNING && c->running == color) {
		const struct tc_period *p = current_period(c, color);

		if (p->mode == TC_FISCHER)
			reading += (int64_t)p->extra_ms;
		end_turn(c, color, now);
		c->remaining_ms[color] = reading;
		start_turn(c, !color, now);
	}
	c->moves[color]++;
	c->moves_in_period[color]++;
	c->last_press_ms[color] = reading;
}

void clock_stop(struct chess_clock *c, uint64_t now)
{
	if (c->state == CLOCK_RUNNING || c->state == CLOCK_PAUSED) {
		int color = c->running;
		c->remaining_ms[color] = clock_remaining(c, color, now);
		end_turn(c, color, now);
	}
	c->since_ms = now;
	c->state = CLOCK_STOPPED;
}

int64_t clock_last_press_remaining(const struct chess_clock *c, int color)
{
	if (color != 0 && color != 1)
		return 0;
	return c->last_press_ms[color];
}

void clock_format_hms(int64_t ms, char *buf, size_t size)
{
	if (!size)
		return;
	if (ms < 0)
		ms = 0;
	int64_t s = ms / 1000;
	snprintf(buf, size, "%lld:%02lld:%02lld", (long long)(s / 3600), (long long)(s / 60 % 60),
		 (long long)(s % 60));
}

/* ---------------------------------------------------------------- journal text */

static const char *const state_names[] = {"not-started", "running", "paused", "flagged", "stopped"};

int clock_encode(const struct chess_clock *c, uint64_t now, char *buf, size_t size)
{
	uint64_t used[2] = {turn_used(c, 0, now), turn_used(c, 1, now)};

	return snprintf(
	    buf, size, "%s %s %lld %lld %d %d %d %d %d %d %llu %llu %lld %lld %s %s %llu %llu",
	    state_names[c->state], game_color_name(c->running), (long long)c->remaining_ms[0],
	    (long long)c->remaining_ms[1], c->moves[0], c->moves[1], c->period[0], c->period[1],
	    c->moves_in_period[0], c->moves_in_period[1], (unsigned long long)used[0],
	    (unsigned long long)used[1], (long long)c->last_press_ms[0],
	    (long long)c->last_press_ms[1], game_color_name(c->first_mover),
	    c->flagged < 0 ? "-" : game_color_name(c->flagged),
	    (unsigned long long)c->game_used_ms[0], (unsigned long long)c->game_used_ms[1]);
}

static int word_index(const char *word, const char *const *names, int count)
{
	for (int i = 0; i < count; i++)
		if (!strcmp(word, names[i]))
			return i;
	return -1;
}

int clock_decode(struct chess_clock *c, const char *text, uint64_t now)
{
	char state[16], running[8], first[8], flagged[8];
	long long w, b, lw, lb;
	unsigned long long uw, ub;
	int mw, mb, pw, pb, iw, ib, n = 0;
	int st, run, fm, fl;
	struct chess_clock out = *c;

	if (sscanf(text, "%15s %7s %lld %lld %d %d %d %d %d %d %llu %llu %lld %lld %7s %7s%n",
		   state, running, &w, &b, &mw, &mb, &pw, &pb, &iw, &ib, &uw, &ub, &lw, &lb, first,
		   flagged, &n) != 16 ||
	    !n)
		return -1;
	st = word_index(state, state_names, 5);
	run = game_color_parse(running);
	fm = game_color_parse(first);
	fl = strcmp(flagged, "-") ? game_color_parse(flagged) : 2; /* 2: no flag fell */
	if (st < 0 || run < 0 || fm < 0 || fl < 0 || mw < 0 || mb < 0 || iw < 0 || ib < 0 ||
	    pw < 0 || pb < 0 || pw >= TC_MAX_PERIODS || pb >= TC_MAX_PERIODS || uw > UINT32_MAX ||
	    ub > UINT32_MAX || w < -TC_MAX_SECONDS * 1000ll * TC_MAX_PERIODS ||
	    w > 1000ll * UINT32_MAX || b < -TC_MAX_SECONDS * 1000ll * TC_MAX_PERIODS ||
	    b > 1000ll * UINT32_MAX)
		return -1;
	out.state = (enum clock_state)st;
	out.running = run;
	out.remaining_ms[0] = w;
	out.remaining_ms[1] = b;
	out.moves[0] = mw;
	out.moves[1] = mb;
	out.period[0] = pw;
	out.period[1] = pb;
	out.moves_in_period[0] = iw;
	out.moves_in_period[1] = ib;
	out.turn_used_ms[0] = uw;
	out.turn_used_ms[1] = ub;
	out.last_press_ms[0] = lw;
	out.last_press_ms[1] = lb;
	out.first_mover = fm;
	out.flagged = fl == 2 ? -1 : fl;
	out.since_ms = now;
	/* The time used in the game's earlier turns; journals written before it was kept have
	 * none (the time used then counts from the restart). */
	{
		unsigned long long gw, gb;
		int m = 0;

		if (sscanf(text + n, " %llu %llu%n", &gw, &gb, &m) == 2 && m) {
			out.game_used_ms[0] = gw;
			out.game_used_ms[1] = gb;
			n += m;
		}
	}
	*c = out;
	return n;
}

void clock_rebase(struct chess_clock *c, uint64_t now)
{
	if (c->state == CLOCK_RUNNING)
		c->state = CLOCK_PAUSED;
	c->since_ms = now;
}

int clock_adopt(struct chess_clock *c, const struct chess_clock *from)
{
	int periods = c->tc.count ? c->tc.count : 1;
	struct time_control tc = c->tc;

	if (from->period[0] >= periods || from->period[1] >= periods)
		return -1;
	*c = *from;
	c->tc = tc;
	return 0;
}

/* ---------------------------------------------------------------- for the displays */

int64_t clock_delay_left(const struct chess_clock *c, int color, uint64_t now)
{
	const struct tc_period *p;
	uint64_t used;

	if ((color != 0 && color != 1) || c->tc.count == 0 || c->running != color ||
	    (c->state != CLOCK_RUNNING && c->state != CLOCK_PAUSED))
		return -1;
	p = current_period(c, color);
	if (p->mode != TC_DELAY)
		return -1;
	used = turn_used(c, color, now);
	return used < p->extra_ms ? (int64_t)(p->extra_ms - used) : 0;
}

int clock_period_end(const struct chess_clock *c, int color)
{
	const struct tc_period *p;

	if ((color != 0 && color != 1) || c->tc.count == 0)
		return 0;
	p = current_period(c, color);
	if (!p->moves)
		return 0;
	return c->moves[color] + (p->moves - c->moves_in_period[color]);
}
