/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The tactile board as the daemon sees it: debounced square and button events
 * from a line backend (gpiod, sim, replay) through a wiring (direct, matrix,
 * shift).  Times are daemon milliseconds, given by the caller, so the same code
 * runs in real and in virtual time.
 */
#ifndef ANNABELLA_BOARD_H
#define ANNABELLA_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "gpio/script.h"

enum board_button {
	BOARD_BUTTON_PLAYER_CLOCK = 0,
	BOARD_BUTTON_OPPONENT_CLOCK,
	BOARD_BUTTON_INFO,
	BOARD_BUTTON_REPEAT,
	BOARD_BUTTON_SELECT,
	BOARD_BUTTON_PAUSE,
	BOARD_BUTTON_COUNT
};
/* "player-clock" ... "pause" <-> enum; -1 if unknown. */
int board_button_parse(const char *name);
const char *board_button_name(enum board_button b);

enum board_wiring { BOARD_WIRING_DIRECT = 0, BOARD_WIRING_MATRIX, BOARD_WIRING_SHIFT };

#define BOARD_NO_LINE (-1)

struct board_config {
	char chip[64]; /* gpiochip name or path for the gpiod backend, e.g. "gpiochip0" */
	enum board_wiring wiring;
	bool active_low_squares; /* sensor reads 0 when a peg is present */
	int square_lines[64];	 /* direct: one input line per hole, a1..h8 */
	int row_lines[8];	 /* matrix: outputs, rank 1..8 */
	int column_lines[8];	 /* matrix: inputs, file a..h */
	int shift_load, shift_clock, shift_data; /* shift: 74HC165 chain, a1 first out */
	int button_lines[BOARD_BUTTON_COUNT];	 /* active low; BOARD_NO_LINE if absent */
	uint32_t debounce_ms;			 /* squares and buttons (default 20) */
	uint32_t scan_hz;			 /* matrix and shift scan rate (default 100) */
};

/* Defaults: direct wiring on lines 0..63, buttons on 64..69, 20 ms debounce, 100 Hz scans. */
void board_config_defaults(struct board_config *cfg);

enum board_event_type { BOARD_EVENT_SQUARE = 0, BOARD_EVENT_BUTTON, BOARD_EVENT_CRASH };

struct board_event {
	uint64_t time_ms;
	enum board_event_type type;
	int index;   /* square 0..63, or enum board_button */
	bool active; /* square: peg present; button: pressed */
};

struct board;

/*
 * Open a board: spec is "gpiod", "sim:SCRIPT" or "replay:LOG".  record_path, if not NULL,
 * receives every raw line edge (DESIGN 4.5).  now_ms is the daemon time at start.
 * Returns NULL with a message in err (naming file and line for a bad script or log).
 * For sim:, the pegs start as the script's `setup` (or the initial position); see
 * board_sim_place() for a resumed game.
 */
struct board *board_open(const struct board_config *cfg, const char *spec, const char *record_path,
			 uint64_t now_ms, char *err, size_t err_size);
void board_close(struct board *b);

/* The script's header (sim only; NULL otherwise). */
const struct script_header *board_script_header(const struct board *b);
/* For sim: place the virtual pegs to match an occupancy (a resumed game), before the first
 * service call. */
void board_sim_place(struct board *b, uint64_t occupancy);

/* A file descriptor to poll() for readability, or -1 if the board has none. */
int board_fd(const struct board *b);
/* The next time board_service() must run even without fd activity (scan period,
 * debounce expiry, next scripted action), or UINT64_MAX. */
uint64_t board_deadline(const struct board *b);
/* Read lines, scan, debounce; up to max events into out.  Returns the count, or -1 on a
 * fatal backend error (message in err). */
int board_service(struct board *b, uint64_t now_ms, struct board_event *out, int max);
/* True once a sim script or replay log has no more input. */
bool board_finished(const struct board *b);
/* Debounced occupancy now (bit per square). */
uint64_t board_occupancy(const struct board *b);

#endif
