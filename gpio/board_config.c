/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The [board] configuration: defaults, keys, checks, and the lines each wiring uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio/board.h"
#include "gpio/line.h"

static const char *const button_names[BOARD_BUTTON_COUNT] = {
    "player-clock", "opponent-clock", "info", "repeat", "select", "pause",
};

static const char *const wiring_names[] = {"direct", "matrix", "shift"};

int board_button_parse(const char *name)
{
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++)
		if (!strcmp(name, button_names[i]))
			return i;
	return -1;
}

const char *board_button_name(enum board_button b)
{
	return (unsigned)b < BOARD_BUTTON_COUNT ? button_names[b] : "?";
}

const char *board_wiring_name(enum board_wiring w)
{
	return (unsigned)w < 3 ? wiring_names[w] : "?";
}

void board_config_defaults(struct board_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->chip, sizeof(cfg->chip), "gpiochip0");
	cfg->wiring = BOARD_WIRING_DIRECT;
	cfg->active_low_squares = false;
	for (int i = 0; i < 64; i++)
		cfg->square_lines[i] = i;
	for (int i = 0; i < 8; i++) {
		cfg->row_lines[i] = i;
		cfg->column_lines[i] = 8 + i;
	}
	cfg->shift_load = 0;
	cfg->shift_clock = 1;
	cfg->shift_data = 2;
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++)
		cfg->button_lines[i] = 64 + i;
	cfg->led_lines[0] = cfg->led_lines[1] = BOARD_NO_LINE;
	cfg->haptic_line = BOARD_NO_LINE;
	cfg->debounce_ms = 20;
	cfg->scan_hz = 100;
}

static int parse_line_number(const char *s, const char **end)
{
	long v;
	char *e;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &e, 10);
	if (v > BOARD_MAX_LINE)
		return -1;
	*end = e;
	return (int)v;
}

/* A list of line numbers and ranges ("0-63", "8 9 10", "7-0"), exactly want of them. */
static int parse_line_list(const char *value, int *out, int want, char *err, size_t err_size)
{
	const char *s = value;
	int n = 0;

	for (;;) {
		int a, b;

		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		if (!*s)
			break;
		a = parse_line_number(s, &s);
		if (a < 0)
			goto bad;
		b = a;
		if (*s == '-') {
			b = parse_line_number(s + 1, &s);
			if (b < 0)
				goto bad;
		}
		if (*s && *s != ' ' && *s != '\t' && *s != ',')
			goto bad;
		for (int step = a <= b ? 1 : -1, v = a;; v += step) {
			if (n == want) {
				snprintf(err, err_size, "more than %d line numbers", want);
				return -1;
			}
			out[n++] = v;
			if (v == b)
				break;
		}
	}
	if (n != want) {
		snprintf(err, err_size, "%d line numbers given, %d needed", n, want);
		return -1;
	}
	return 0;
bad:
	snprintf(err, err_size, "bad line list '%s' (numbers 0..%d or ranges such as 0-63)", value,
		 BOARD_MAX_LINE);
	return -1;
}

static int parse_one_line(const char *key, const char *value, int *out, bool allow_none, char *err,
			  size_t err_size)
{
	const char *end;
	int v;

	if (allow_none && !strcmp(value, "none")) {
		*out = BOARD_NO_LINE;
		return 0;
	}
	v = parse_line_number(value, &end);
	if (v < 0 || *end) {
		snprintf(err, err_size, "%s must be a line number 0..%d%s", key, BOARD_MAX_LINE,
			 allow_none ? " or none" : "");
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_uint_range(const char *key, const char *value, uint32_t lo, uint32_t hi,
			    uint32_t *out, char *err, size_t err_size)
{
	char *end;
	unsigned long v;

	if (*value < '0' || *value > '9')
		goto bad;
	v = strtoul(value, &end, 10);
	if (*end || v < lo || v > hi)
		goto bad;
	*out = (uint32_t)v;
	return 0;
bad:
	snprintf(err, err_size, "%s must be a number %u..%u", key, lo, hi);
	return -1;
}

int board_config_set(struct board_config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	if (!strcmp(key, "wiring")) {
		for (int i = 0; i < 3; i++) {
			if (!strcmp(value, wiring_names[i])) {
				cfg->wiring = (enum board_wiring)i;
				return 0;
			}
		}
		snprintf(err, err_size, "wiring must be direct, matrix or shift");
		return -1;
	}
	if (!strcmp(key, "chip")) {
		if (!*value || strlen(value) >= sizeof(cfg->chip)) {
			snprintf(err, err_size, "chip must be a name or path of 1..%zu characters",
				 sizeof(cfg->chip) - 1);
			return -1;
		}
		strcpy(cfg->chip, value);
		return 0;
	}
	if (!strcmp(key, "squares"))
		return parse_line_list(value, cfg->square_lines, 64, err, err_size);
	if (!strcmp(key, "rows"))
		return parse_line_list(value, cfg->row_lines, 8, err, err_size);
	if (!strcmp(key, "columns"))
		return parse_line_list(value, cfg->column_lines, 8, err, err_size);
	if (!strcmp(key, "load"))
		return parse_one_line(key, value, &cfg->shift_load, false, err, err_size);
	if (!strcmp(key, "clock"))
		return parse_one_line(key, value, &cfg->shift_clock, false, err, err_size);
	if (!strcmp(key, "data"))
		return parse_one_line(key, value, &cfg->shift_data, false, err, err_size);
	if (!strncmp(key, "button-", 7)) {
		int b = board_button_parse(key + 7);

		if (b >= 0)
			return parse_one_line(key, value, &cfg->button_lines[b], true, err,
					      err_size);
	}
	if (!strcmp(key, "active-low")) {
		if (!strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "1")) {
			cfg->active_low_squares = true;
			return 0;
		}
		if (!strcmp(value, "no") || !strcmp(value, "false") || !strcmp(value, "0")) {
			cfg->active_low_squares = false;
			return 0;
		}
		snprintf(err, err_size, "active-low must be yes or no");
		return -1;
	}
	if (!strcmp(key, "debounce-ms"))
		return parse_uint_range(key, value, 0, 1000, &cfg->debounce_ms, err, err_size);
	if (!strcmp(key, "scan-hz"))
		return parse_uint_range(key, value, 1, 1000, &cfg->scan_hz, err, err_size);
	if (!strcmp(key, "scan-settle-us"))
		return parse_uint_range(key, value, 0, 100000, &cfg->scan_settle_us, err, err_size);
	snprintf(err, err_size, "unknown key '%s' in [board]", key);
	return -1;
}

void line_roles_get(const struct board_config *cfg, struct line_roles *r)
{
	memset(r, 0, sizeof(*r));
	switch (cfg->wiring) {
	case BOARD_WIRING_DIRECT:
		for (int i = 0; i < 64; i++)
			r->edge_inputs[r->n_edge++] = cfg->square_lines[i];
		break;
	case BOARD_WIRING_MATRIX:
		for (int i = 0; i < 8; i++) {
			r->outputs[r->n_out] = cfg->row_lines[i];
			/* no row selected */
			r->output_init[r->n_out++] = cfg->active_low_squares ? 1 : 0;
			r->plain_inputs[r->n_plain++] = cfg->column_lines[i];
		}
		break;
	case BOARD_WIRING_SHIFT:
		r->outputs[r->n_out] = cfg->shift_load;
		r->output_init[r->n_out++] = 1;
		r->outputs[r->n_out] = cfg->shift_clock;
		r->output_init[r->n_out++] = 0;
		r->plain_inputs[r->n_plain++] = cfg->shift_data;
		break;
	}
	for (int b = 0; b < BOARD_BUTTON_COUNT; b++) {
		if (cfg->button_lines[b] == BOARD_NO_LINE)
			continue;
		r->edge_is_button[r->n_edge] = true;
		r->edge_inputs[r->n_edge++] = cfg->button_lines[b];
	}
	for (int side = 0; side < 2; side++) {
		if (cfg->led_lines[side] == BOARD_NO_LINE)
			continue;
		r->outputs[r->n_out] = cfg->led_lines[side];
		r->output_init[r->n_out++] = 0; /* out */
	}
	if (cfg->haptic_line != BOARD_NO_LINE) {
		r->outputs[r->n_out] = cfg->haptic_line;
		r->output_init[r->n_out++] = 0; /* still */
	}
}

int board_config_check(const struct board_config *cfg, char *err, size_t err_size)
{
	struct line_roles r;
	int used[BOARD_MAX_LINE + 1];

	if ((unsigned)cfg->wiring > BOARD_WIRING_SHIFT) {
		snprintf(err, err_size, "bad wiring");
		return -1;
	}
	if (cfg->scan_hz < 1 || cfg->scan_hz > 1000 || cfg->debounce_ms > 1000) {
		snprintf(err, err_size, "scan-hz must be 1..1000 and debounce-ms 0..1000");
		return -1;
	}
	if (cfg->wiring != BOARD_WIRING_DIRECT) {
		/* A scan waits this long in all: it must end before the next is due. */
		uint64_t steps = cfg->wiring == BOARD_WIRING_MATRIX ? 8 : 64;

		if (steps * cfg->scan_settle_us >= 1000000u / cfg->scan_hz) {
			snprintf(err, err_size,
				 "scan-settle-us %u makes a %s scan (%llu settles) as long as "
				 "its period at scan-hz %u",
				 cfg->scan_settle_us, board_wiring_name(cfg->wiring),
				 (unsigned long long)steps, cfg->scan_hz);
			return -1;
		}
	}
	line_roles_get(cfg, &r);
	for (int i = 0; i <= BOARD_MAX_LINE; i++)
		used[i] = -1;
	for (int role = 0; role < 3; role++) {
		const int *lines = role == 0   ? r.edge_inputs
				   : role == 1 ? r.plain_inputs
					       : r.outputs;
		int n = role == 0 ? r.n_edge : role == 1 ? r.n_plain : r.n_out;

		for (int i = 0; i < n; i++) {
			int l = lines[i];

			if (l < 0 || l > BOARD_MAX_LINE) {
				snprintf(err, err_size, "line %d out of range 0..%d", l,
					 BOARD_MAX_LINE);
				return -1;
			}
			if (used[l] >= 0) {
				snprintf(err, err_size, "line %d used twice (%s wiring)", l,
					 wiring_names[cfg->wiring]);
				return -1;
			}
			used[l] = role;
		}
	}
	return 0;
}
