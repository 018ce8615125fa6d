/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Line backends: what lies below the board code.  A backend owns GPIO lines by number: it
 * reports input edges (with their daemon time), reads input levels and drives outputs.
 * The board code (wirings, scanning, debouncing) is the same above every backend.
 * Internal to gpio/.
 */
#ifndef ANNABELLA_GPIO_LINE_H
#define ANNABELLA_GPIO_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpio/board.h"

#define NS_PER_MS 1000000ull

enum line_edge_kind { LINE_FALLING = 0, LINE_RISING = 1 };

struct line_edge {
	uint64_t time_ns; /* daemon time */
	int line;	  /* GPIO line, or BOARD_VIRTUAL_LINE + square (replay of scanned wiring) */
	enum line_edge_kind kind;
};

/* What the sim backend can be told to do. */
enum line_inject {
	LINE_INJECT_PEG = 0,
	LINE_INJECT_BUTTON,
	LINE_INJECT_CHATTER,
	LINE_INJECT_STUCK,  /* target: square, or 64 + button; arg: ms; arg2: the level */
	LINE_INJECT_BOUNCE, /* target as for STUCK; arg: ms; arg2: the seed */
};

struct line_backend {
	const char *name;
	/* The backend plays back recorded hole levels (virtual lines): the board does not scan. */
	bool recorded;
	/* arg: what follows "name:" in the spec (NULL if none).  NULL with err on failure. */
	void *(*open)(const struct board_config *cfg, const char *arg, uint64_t now_ms, char *err,
		      size_t err_size);
	void (*close)(void *ctx);
	int (*fd)(void *ctx);
	/* Up to max input edges with time_ns <= now_ns, in time order.  Count, or -1 with err. */
	int (*read_edges)(void *ctx, uint64_t now_ns, struct line_edge *out, int max, char *err,
			  size_t err_size);
	/* Level of a line (0 or 1), or -1. */
	int (*get)(void *ctx, int line);
	/* Drive an output line.  0 or -1. */
	int (*set)(void *ctx, int line, int value);
	/* Wait us microseconds for driven lines to settle before a read; NULL: the backend's
	 * lines settle at once (sim, replay). */
	void (*settle)(void *ctx, uint32_t us);
	/* Daemon time of the backend's next own change (script action, logged edge), or
	 * UINT64_MAX. */
	uint64_t (*deadline_ns)(void *ctx);
	/* No more input will ever come. */
	bool (*finished)(void *ctx);
	/* sim only, NULL elsewhere: set the pegs; change a peg, button or sensor at t_ns
	 * (0 changed, 1 no change, -1 error). */
	void (*place)(void *ctx, uint64_t occupancy);
	int (*inject)(void *ctx, enum line_inject kind, int target, uint32_t arg, uint32_t arg2,
		      uint64_t t_ns);
};

extern const struct line_backend line_backend_gpiod;
extern const struct line_backend line_backend_sim;
extern const struct line_backend line_backend_replay;

/* The lines a wiring uses, by role. */
#define LINE_ROLES_MAX (64 + BOARD_BUTTON_COUNT)
struct line_roles {
	int edge_inputs[LINE_ROLES_MAX]; /* direct holes and buttons: edge events */
	bool edge_is_button[LINE_ROLES_MAX];
	int n_edge;
	int plain_inputs[8]; /* matrix columns, shift data: read by the scan */
	int n_plain;
	int outputs[12]; /* matrix rows, shift load and clock, the LEDs, the vibration motor */
	int output_init[12];
	int n_out;
};
void line_roles_get(const struct board_config *cfg, struct line_roles *roles);

#endif
