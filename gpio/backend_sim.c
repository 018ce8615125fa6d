/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The sim backend: runs a board script (DESIGN 4.3) against virtual pegs and buttons and
 * shows them on GPIO lines as the configured wiring would:
 *  - direct: one line per hole, level = sensor (inverted if active-low), with edges;
 *  - matrix: a column line reads active when a peg sits in that file in a row that is driven
 *    active (a diode per hole, so other rows do not leak in); rows are outputs;
 *  - shift: eight 74HC165 in a chain: SH/LD low latches every hole, QH shows the current
 *    bit (a1 first), each CLK rising edge while SH/LD is high shifts the next one out.
 * Buttons are active-low input lines with edges in every wiring.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "gpio/line.h"
#include "gpio/script.h"

enum sim_role {
	ROLE_NONE = 0,
	ROLE_SQUARE,
	ROLE_BUTTON,
	ROLE_ROW,
	ROLE_COLUMN,
	ROLE_LOAD,
	ROLE_CLOCK,
	ROLE_DATA
};

struct chatter {
	uint32_t left; /* level changes still to come */
	uint64_t next_ns, step_ns;
};

struct sim {
	struct board_config cfg;
	struct script script;
	char name[256];
	uint64_t origin_ns;
	int next; /* next script action */
	bool crashed;
	uint64_t pegs;
	uint64_t toggled; /* sensors flipped by a chatter in progress */
	bool pressed[BOARD_BUTTON_COUNT];
	uint64_t release_ns[BOARD_BUTTON_COUNT];
	struct chatter chatter[64];
	int chattering;
	/* outputs driven by the scanning code */
	bool row_level[8];
	bool load_level, clock_level;
	uint64_t latched; /* line levels latched into the shift chain */
	int shift_pos;
	uint8_t role[BOARD_MAX_LINE + 1];
	uint8_t role_index[BOARD_MAX_LINE + 1];
};

static bool sensor(const struct sim *s, int sq)
{
	return ((s->pegs ^ s->toggled) >> sq) & 1;
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

static void *sim_open(const struct board_config *cfg, const char *path, uint64_t now_ms, char *err,
		      size_t err_size)
{
	struct sim *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	snprintf(s->name, sizeof(s->name), "%s", path);
	if (script_load(path, &s->script, err, err_size))
		goto fail;
	for (int i = 0; i < s->script.count; i++) {
		const struct script_action *a = &s->script.actions[i];

		if ((a->type == SCRIPT_PRESS || a->type == SCRIPT_HOLD) &&
		    cfg->button_lines[a->target] == BOARD_NO_LINE) {
			snprintf(err, err_size,
				 "%s:%d: button '%s' has no line in the configuration", path,
				 a->line, board_button_name((enum board_button)a->target));
			goto fail;
		}
	}
	s->origin_ns = now_ms * NS_PER_MS;
	s->pegs = SCRIPT_INITIAL_OCCUPANCY;
	if (s->script.header.has_setup)
		script_fen_occupancy(s->script.header.setup_fen, &s->pegs);
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++) {
		s->release_ns[i] = UINT64_MAX;
		set_role(s, cfg->button_lines[i], ROLE_BUTTON, i);
	}
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
fail:
	script_free(&s->script);
	free(s);
	return NULL;
}

static void sim_close(void *ctx)
{
	struct sim *s = ctx;

	script_free(&s->script);
	free(s);
}

static int sim_fd(void *ctx)
{
	(void)ctx;
	return -1;
}

static uint64_t action_ns(const struct sim *s, int i)
{
	return s->origin_ns + s->script.actions[i].time_ms * NS_PER_MS;
}

/* What happens next: a button release (kind 0, index), a chatter step (1, square) or the
 * next action (2).  Ties go in that order.  UINT64_MAX if nothing will. */
static uint64_t next_change(const struct sim *s, int *kind, int *index)
{
	uint64_t t = UINT64_MAX;

	if (s->crashed)
		return t;
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++) {
		if (s->pressed[i] && s->release_ns[i] < t) {
			t = s->release_ns[i];
			*kind = 0;
			*index = i;
		}
	}
	for (int sq = 0; s->chattering && sq < 64; sq++) {
		if (s->chatter[sq].left && s->chatter[sq].next_ns < t) {
			t = s->chatter[sq].next_ns;
			*kind = 1;
			*index = sq;
		}
	}
	if (s->next < s->script.count && action_ns(s, s->next) < t) {
		t = action_ns(s, s->next);
		*kind = 2;
		*index = s->next;
	}
	return t;
}

/* A hole's sensor changed: an edge on its line if it has one. */
static int hole_edge(struct sim *s, int sq, uint64_t t, struct line_edge *e)
{
	if (s->cfg.wiring != BOARD_WIRING_DIRECT)
		return 0;
	*e = (struct line_edge){.time_ns = t,
				.line = s->cfg.square_lines[sq],
				.kind = hole_level(s, sq) ? LINE_RISING : LINE_FALLING};
	return 1;
}

static int button_edge(struct sim *s, int button, uint64_t t, struct line_edge *e)
{
	*e = (struct line_edge){.time_ns = t,
				.line = s->cfg.button_lines[button],
				.kind = s->pressed[button] ? LINE_FALLING : LINE_RISING};
	return 1;
}

static int toggle(struct sim *s, int sq, uint64_t t, struct line_edge *e)
{
	struct chatter *c = &s->chatter[sq];

	s->toggled ^= 1ull << sq;
	if (--c->left == 0)
		s->chattering--;
	c->next_ns = t + c->step_ns;
	return hole_edge(s, sq, t, e);
}

/* Carry out one action; 0 or 1 edge into e. */
static int act(struct sim *s, const struct script_action *a, uint64_t t, struct line_edge *e)
{
	uint64_t bit = 1ull << (a->target & 63);
	struct chatter *c;

	switch (a->type) {
	case SCRIPT_LIFT:
	case SCRIPT_PLACE:
		if (!(s->pegs & bit) == (a->type == SCRIPT_LIFT)) {
			log_warn(LOG_GPIO, "%s:%d: %s: hole already %s", s->name, a->line,
				 a->type == SCRIPT_LIFT ? "lift" : "place",
				 a->type == SCRIPT_LIFT ? "empty" : "taken");
			return 0;
		}
		s->pegs ^= bit;
		return hole_edge(s, a->target, t, e);
	case SCRIPT_PRESS:
	case SCRIPT_HOLD: {
		uint64_t until = t + (uint64_t)a->arg * NS_PER_MS;

		if (s->pressed[a->target]) {
			if (until > s->release_ns[a->target])
				s->release_ns[a->target] = until;
			return 0;
		}
		s->pressed[a->target] = true;
		s->release_ns[a->target] = until;
		return button_edge(s, a->target, t, e);
	}
	case SCRIPT_CHATTER:
		c = &s->chatter[a->target];
		if (!c->left)
			s->chattering++;
		/* N bounces are 2N level changes spread evenly over the window. */
		c->left += 2 * a->arg;
		c->step_ns = SCRIPT_CHATTER_MS * NS_PER_MS / (2 * a->arg);
		return toggle(s, a->target, t, e);
	case SCRIPT_CRASH:
		s->crashed = true;
		*e = (struct line_edge){.time_ns = t, .line = -1, .kind = LINE_CRASH};
		return 1;
	}
	return 0;
}

static int sim_read_edges(void *ctx, uint64_t now_ns, struct line_edge *out, int max, char *err,
			  size_t err_size)
{
	struct sim *s = ctx;
	int n = 0;

	(void)err;
	(void)err_size;
	while (n < max) {
		int kind = 0, index = 0;
		uint64_t t = next_change(s, &kind, &index);

		if (t > now_ns)
			break;
		if (kind == 0) {
			s->pressed[index] = false;
			s->release_ns[index] = UINT64_MAX;
			n += button_edge(s, index, t, &out[n]);
		} else if (kind == 1) {
			n += toggle(s, index, t, &out[n]);
		} else {
			s->next++;
			n += act(s, &s->script.actions[index], t, &out[n]);
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
		return !s->pressed[i];
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
	default:
		errno = EPERM;
		return -1;
	}
}

static uint64_t sim_deadline_ns(void *ctx)
{
	int kind, index;

	return next_change(ctx, &kind, &index);
}

static bool sim_finished(void *ctx)
{
	int kind, index;

	return next_change(ctx, &kind, &index) == UINT64_MAX;
}

static const struct script_header *sim_header(void *ctx)
{
	return &((struct sim *)ctx)->script.header;
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
    .header = sim_header,
    .place = sim_place,
};
