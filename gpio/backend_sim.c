/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The sim backend: virtual pegs and buttons, changed from outside (board_sim_peg() and
 * friends, driven by the board-script driver), shown on GPIO lines as the configured wiring
 * would show them:
 *  - direct: one line per hole, level = sensor (inverted if active-low), with edges;
 *  - matrix: a column line reads active when a peg sits in that file in a row that is driven
 *    active (a diode per hole, so other rows do not leak in); rows are outputs;
 *  - shift: eight 74HC165 in a chain: SH/LD low latches every hole, QH shows the current
 *    bit (a1 first), each CLK rising edge while SH/LD is high shifts the next one out.
 * Buttons are active-low input lines with edges in every wiring.  A chattering sensor flips
 * on its own for a while, a faulty line is stuck at a level or bounces irregularly for a
 * while: the backend plays that in time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio/line.h"

#define EDGE_QUEUE 256

enum sim_role {
	ROLE_NONE = 0,
	ROLE_SQUARE,
	ROLE_BUTTON,
	ROLE_ROW,
	ROLE_COLUMN,
	ROLE_LOAD,
	ROLE_CLOCK,
	ROLE_DATA,
	ROLE_LED /* the LEDs (0, 1) and the vibration motor (2): outputs the daemon drives */
};

struct chatter {
	uint32_t left; /* level changes still to come */
	uint64_t next_ns, step_ns;
};

enum fault_kind { FAULT_NONE = 0, FAULT_STUCK, FAULT_BOUNCE };

/* A line's fault: squares 0..63, buttons BOARD_SIM_BUTTON + i. */
struct fault {
	enum fault_kind kind;
	bool level; /* stuck: what the line reads (occupied, or down) */
	bool flip;  /* bounce: the line shows the opposite of its peg or button now */
	uint64_t until_ns, next_ns;
	uint64_t rng;
};

#define FAULT_LINES (BOARD_SIM_BUTTON + BOARD_BUTTON_COUNT)

struct sim {
	struct board_config cfg;
	uint64_t pegs;
	uint64_t toggled; /* sensors flipped by a chatter in progress */
	bool pressed[BOARD_BUTTON_COUNT];
	struct chatter chatter[64];
	int chattering;
	struct fault fault[FAULT_LINES];
	int faults; /* lines with a fault in progress */
	/* edges made by changes from outside, not yet read */
	struct line_edge queue[EDGE_QUEUE];
	int q_head, q_len;
	/* outputs driven by the scanning code */
	bool row_level[8];
	bool load_level, clock_level;
	bool led_level[3];
	uint64_t latched; /* line levels latched into the shift chain */
	int shift_pos;
	uint8_t role[BOARD_MAX_LINE + 1];
	uint8_t role_index[BOARD_MAX_LINE + 1];
};

static bool sensor(const struct sim *s, int sq)
{
	const struct fault *f = &s->fault[sq];

	if (f->kind == FAULT_STUCK)
		return f->level;
	return (((s->pegs ^ s->toggled) >> sq) & 1) != (f->kind == FAULT_BOUNCE && f->flip);
}

/* A button as its line shows it. */
static bool button_down(const struct sim *s, int i)
{
	const struct fault *f = &s->fault[BOARD_SIM_BUTTON + i];

	if (f->kind == FAULT_STUCK)
		return f->level;
	return s->pressed[i] != (f->kind == FAULT_BOUNCE && f->flip);
}

/* Physical level of a hole's sensor output. */
static int hole_level(const struct sim *s, int sq)
{
	return sensor(s, sq) != s->cfg.active_low_squares;
}

static void set_role(struct sim *s, int line, enum sim_role role, int index)
{
	if (line >= 0 && line <= BOARD_MAX_LINE) {
		s->role[line] = (uint8_t)role;
		s->role_index[line] = (uint8_t)index;
	}
}

static void *sim_open(const struct board_config *cfg, const char *name, uint64_t now_ms, char *err,
		      size_t err_size)
{
	struct sim *s = calloc(1, sizeof(*s));

	(void)name;
	(void)now_ms;
	if (!s) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	s->pegs = BOARD_INITIAL_OCCUPANCY;
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++)
		set_role(s, cfg->button_lines[i], ROLE_BUTTON, i);
	for (int i = 0; i < 2; i++)
		set_role(s, cfg->led_lines[i], ROLE_LED, i);
	set_role(s, cfg->haptic_line, ROLE_LED, 2);
	switch (cfg->wiring) {
	case BOARD_WIRING_DIRECT:
		for (int sq = 0; sq < 64; sq++)
			set_role(s, cfg->square_lines[sq], ROLE_SQUARE, sq);
		break;
	case BOARD_WIRING_MATRIX:
		for (int i = 0; i < 8; i++) {
			set_role(s, cfg->row_lines[i], ROLE_ROW, i);
			set_role(s, cfg->column_lines[i], ROLE_COLUMN, i);
			s->row_level[i] = cfg->active_low_squares; /* not selected */
		}
		break;
	case BOARD_WIRING_SHIFT:
		set_role(s, cfg->shift_load, ROLE_LOAD, 0);
		set_role(s, cfg->shift_clock, ROLE_CLOCK, 0);
		set_role(s, cfg->shift_data, ROLE_DATA, 0);
		s->load_level = true;
		break;
	}
	return s;
}

static void sim_close(void *ctx)
{
	free(ctx);
}

static int sim_fd(void *ctx)
{
	(void)ctx;
	return -1;
}

static void queue_edge(struct sim *s, uint64_t t, int line, bool rising)
{
	if (s->q_len == EDGE_QUEUE) {
		/* The reader is far behind: the oldest edge is lost, as on a real line. */
		s->q_head = (s->q_head + 1) % EDGE_QUEUE;
		s->q_len--;
	}
	s->queue[(s->q_head + s->q_len++) % EDGE_QUEUE] = (struct line_edge){
	    .time_ns = t, .line = line, .kind = rising ? LINE_RISING : LINE_FALLING};
}

/* A hole's sensor may have changed from `before`: an edge on its line if it did and the
 * hole has a line of its own. */
static void hole_edge(struct sim *s, int sq, bool before, uint64_t t)
{
	if (sensor(s, sq) != before && s->cfg.wiring == BOARD_WIRING_DIRECT)
		queue_edge(s, t, s->cfg.square_lines[sq], hole_level(s, sq));
}

/* The same for a button's line (active low: down pulls it low). */
static void button_edge(struct sim *s, int i, bool before, uint64_t t)
{
	if (button_down(s, i) != before)
		queue_edge(s, t, s->cfg.button_lines[i], !button_down(s, i));
}

/* Either kind of line: what it shows now (occupied, down). */
static bool line_shows(const struct sim *s, int target)
{
	return target < BOARD_SIM_BUTTON ? sensor(s, target)
					 : button_down(s, target - BOARD_SIM_BUTTON);
}

static void line_edge(struct sim *s, int target, bool before, uint64_t t)
{
	if (target < BOARD_SIM_BUTTON)
		hole_edge(s, target, before, t);
	else
		button_edge(s, target - BOARD_SIM_BUTTON, before, t);
}

/* The next fault step (line into *target), or UINT64_MAX. */
static uint64_t next_fault(const struct sim *s, int *target)
{
	uint64_t t = UINT64_MAX;

	for (int i = 0; s->faults && i < FAULT_LINES; i++) {
		const struct fault *f = &s->fault[i];
		uint64_t at = f->kind == FAULT_STUCK ? f->until_ns : f->next_ns;

		if (f->kind != FAULT_NONE && at < t) {
			t = at;
			*target = i;
		}
	}
	return t;
}

/* The time to the next flicker of a bouncing line. */
static uint64_t bounce_step_ns(struct fault *f)
{
	uint64_t x = f->rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	f->rng = x;
	if ((x >> 8) % 4 != 0)
		return 50000 + (x >> 16) % 4950000; /* 0.05-5 ms */
	return 5000000 + (x >> 16) % 35000000;	    /* 5-40 ms: gets through a debounce */
}

static void fault_end(struct sim *s, int target, uint64_t t)
{
	bool before = line_shows(s, target);

	s->fault[target].kind = FAULT_NONE;
	s->fault[target].flip = false;
	s->faults--;
	line_edge(s, target, before, t);
}

/* A fault's moment at t: a stuck line lets go, a bouncing one flickers or ends. */
static void fault_step(struct sim *s, int target, uint64_t t)
{
	struct fault *f = &s->fault[target];
	bool before;

	if (f->kind == FAULT_STUCK || t >= f->until_ns) {
		fault_end(s, target, t);
		return;
	}
	before = line_shows(s, target);
	f->flip = !f->flip;
	f->next_ns = t + bounce_step_ns(f);
	if (f->next_ns > f->until_ns)
		f->next_ns = f->until_ns;
	line_edge(s, target, before, t);
}

static int fault_start(struct sim *s, enum fault_kind kind, int target, uint32_t ms, uint32_t arg2,
		       uint64_t t)
{
	struct fault *f;
	bool before;

	if (target < 0 || target >= FAULT_LINES || ms == 0)
		return -1;
	if (target >= BOARD_SIM_BUTTON &&
	    s->cfg.button_lines[target - BOARD_SIM_BUTTON] == BOARD_NO_LINE)
		return -1;
	f = &s->fault[target];
	before = line_shows(s, target);
	if (f->kind == FAULT_NONE)
		s->faults++;
	*f = (struct fault){.kind = kind, .until_ns = t + (uint64_t)ms * NS_PER_MS};
	if (kind == FAULT_STUCK) {
		f->level = arg2 != 0;
	} else {
		/* Never zero: xorshift would stay there. */
		f->rng = ((uint64_t)arg2 << 32 | (uint32_t)target) ^ 0x9e3779b97f4a7c15ull;
		f->flip = true;
		f->next_ns = t + bounce_step_ns(f);
		if (f->next_ns > f->until_ns)
			f->next_ns = f->until_ns;
	}
	line_edge(s, target, before, t);
	return 0;
}

/* The next chatter step (square into *sq), or UINT64_MAX. */
static uint64_t next_chatter(const struct sim *s, int *sq)
{
	uint64_t t = UINT64_MAX;

	for (int i = 0; s->chattering && i < 64; i++) {
		if (s->chatter[i].left && s->chatter[i].next_ns < t) {
			t = s->chatter[i].next_ns;
			*sq = i;
		}
	}
	return t;
}

static void toggle(struct sim *s, int sq, uint64_t t)
{
	struct chatter *c = &s->chatter[sq];
	bool before = sensor(s, sq);

	s->toggled ^= 1ull << sq;
	if (--c->left == 0)
		s->chattering--;
	c->next_ns = t + c->step_ns;
	hole_edge(s, sq, before, t);
}

static int sim_inject(void *ctx, enum line_inject kind, int target, uint32_t arg, uint32_t arg2,
		      uint64_t t)
{
	struct sim *s = ctx;
	struct chatter *c;
	bool before;

	switch (kind) {
	case LINE_INJECT_PEG:
		if (target < 0 || target > 63)
			return -1;
		if (((s->pegs >> target) & 1) == arg)
			return 1;
		before = sensor(s, target);
		s->pegs ^= 1ull << target;
		hole_edge(s, target, before, t);
		return 0;
	case LINE_INJECT_BUTTON:
		if (target < 0 || target >= BOARD_BUTTON_COUNT ||
		    s->cfg.button_lines[target] == BOARD_NO_LINE)
			return -1;
		if (s->pressed[target] == (arg != 0))
			return 1;
		before = button_down(s, target);
		s->pressed[target] = arg != 0;
		button_edge(s, target, before, t);
		return 0;
	case LINE_INJECT_STUCK:
		return fault_start(s, FAULT_STUCK, target, arg, arg2, t);
	case LINE_INJECT_BOUNCE:
		return fault_start(s, FAULT_BOUNCE, target, arg, arg2, t);
	case LINE_INJECT_CHATTER:
		if (target < 0 || target > 63 || arg == 0)
			return -1;
		c = &s->chatter[target];
		if (!c->left)
			s->chattering++;
		/* N bounces are 2N level changes spread evenly over the window. */
		c->left += 2 * arg;
		c->step_ns = BOARD_SIM_CHATTER_MS * NS_PER_MS / (2 * arg);
		toggle(s, target, t);
		return 0;
	}
	return -1;
}

static int sim_read_edges(void *ctx, uint64_t now_ns, struct line_edge *out, int max, char *err,
			  size_t err_size)
{
	struct sim *s = ctx;
	int n = 0, sq = 0;

	(void)err;
	(void)err_size;
	while (n < max) {
		int line = 0;
		uint64_t tc = next_chatter(s, &sq);
		uint64_t tf = next_fault(s, &line);
		uint64_t tq = s->q_len ? s->queue[s->q_head].time_ns : UINT64_MAX;

		if (tq <= tc && tq <= tf && tq <= now_ns) {
			out[n++] = s->queue[s->q_head];
			s->q_head = (s->q_head + 1) % EDGE_QUEUE;
			s->q_len--;
		} else if (tc <= tf && tc <= now_ns) {
			/* A chatter step queues its edge, read in the next round. */
			toggle(s, sq, tc);
		} else if (tf <= now_ns) {
			fault_step(s, line, tf);
		} else {
			break;
		}
	}
	return n;
}

static int sim_get(void *ctx, int line)
{
	struct sim *s = ctx;
	int i, active = !s->cfg.active_low_squares;

	if (line < 0 || line > BOARD_MAX_LINE) {
		errno = EINVAL;
		return -1;
	}
	i = s->role_index[line];
	switch ((enum sim_role)s->role[line]) {
	case ROLE_SQUARE:
		return hole_level(s, i);
	case ROLE_BUTTON:
		return !button_down(s, i);
	case ROLE_ROW:
		return s->row_level[i];
	case ROLE_COLUMN:
		for (int r = 0; r < 8; r++)
			if (s->row_level[r] == active && sensor(s, r * 8 + i))
				return active;
		return !active;
	case ROLE_LOAD:
		return s->load_level;
	case ROLE_CLOCK:
		return s->clock_level;
	case ROLE_DATA:
		if (!s->load_level)
			return hole_level(s, 0);
		/* The chain's serial input is tied low. */
		return s->shift_pos < 64 ? (int)(s->latched >> s->shift_pos & 1) : 0;
	case ROLE_LED:
		return s->led_level[i];
	case ROLE_NONE:
		break;
	}
	errno = ENOENT;
	return -1;
}

static int sim_set(void *ctx, int line, int value)
{
	struct sim *s = ctx;
	int i;

	if (line < 0 || line > BOARD_MAX_LINE) {
		errno = EINVAL;
		return -1;
	}
	i = s->role_index[line];
	switch ((enum sim_role)s->role[line]) {
	case ROLE_ROW:
		s->row_level[i] = value;
		return 0;
	case ROLE_LOAD:
		if (!value) {
			s->latched = 0;
			for (int sq = 0; sq < 64; sq++)
				s->latched |= (uint64_t)hole_level(s, sq) << sq;
			s->shift_pos = 0;
		}
		s->load_level = value;
		return 0;
	case ROLE_CLOCK:
		if (value && !s->clock_level && s->load_level && s->shift_pos < 64)
			s->shift_pos++;
		s->clock_level = value;
		return 0;
	case ROLE_LED:
		s->led_level[i] = value;
		return 0;
	default:
		errno = EPERM;
		return -1;
	}
}

static uint64_t sim_deadline_ns(void *ctx)
{
	struct sim *s = ctx;
	int sq, line;
	uint64_t t = next_chatter(s, &sq), tf = next_fault(s, &line);

	if (tf < t)
		t = tf;
	if (s->q_len && s->queue[s->q_head].time_ns < t)
		t = s->queue[s->q_head].time_ns;
	return t;
}

static bool sim_finished(void *ctx)
{
	return sim_deadline_ns(ctx) == UINT64_MAX;
}

static void sim_place(void *ctx, uint64_t occupancy)
{
	struct sim *s = ctx;

	s->pegs = occupancy;
}

const struct line_backend line_backend_sim = {
    .name = "sim",
    .recorded = false,
    .open = sim_open,
    .close = sim_close,
    .fd = sim_fd,
    .read_edges = sim_read_edges,
    .get = sim_get,
    .set = sim_set,
    .deadline_ns = sim_deadline_ns,
    .finished = sim_finished,
    .place = sim_place,
    .inject = sim_inject,
};
