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
/* Physical line numbers are 0..BOARD_MAX_LINE; above them the line log keeps virtual lines. */
#define BOARD_MAX_LINE 999

struct board_config {
	char chip[64]; /* gpiochip name or path for the gpiod backend, e.g. "gpiochip0" */
	enum board_wiring wiring;
	bool active_low_squares;		 /* sensor reads 0 when a peg is present */
	int square_lines[64];			 /* direct: one input line per hole, a1..h8 */
	int row_lines[8];			 /* matrix: outputs, rank 1..8 */
	int column_lines[8];			 /* matrix: inputs, file a..h */
	int shift_load, shift_clock, shift_data; /* shift: 74HC165 chain, a1 first out */
	int button_lines[BOARD_BUTTON_COUNT];	 /* active low; BOARD_NO_LINE if absent */
	/* Outputs: one LED per side (White, Black), lit high, on the same chip ([display]
	 * led-white, led-black); BOARD_NO_LINE if absent. */
	int led_lines[2];
	/* An output for the vibration motor's driver, on when high ([haptic] line;
	 * docs/wiring.md "The vibration motor"); BOARD_NO_LINE if absent. */
	int haptic_line;
	uint32_t debounce_ms;	 /* squares and buttons (default 20) */
	uint32_t scan_hz;	 /* matrix and shift scan rate (default 100) */
	uint32_t scan_settle_us; /* matrix and shift: wait after driving, before reading */
};

/* Defaults: direct wiring on lines 0..63, buttons on 64..69, 20 ms debounce, 100 Hz scans,
 * chip "gpiochip0", squares active high. */
void board_config_defaults(struct board_config *cfg);

/*
 * The [board] section of the configuration file.  board_config_set() takes one key and its
 * value: 0, or -1 with a message in err (without file and line: the caller adds them).
 * Unknown keys are errors.  Documentation of the keys (for configs/annabella.conf):
 *
 * [board]
 * # How the 64 hole sensors reach the GPIO lines:
 * #   direct  one input line per hole (edge events; no polling when idle)
 * #   matrix  8 row outputs x 8 column inputs with a diode per hole; scanned scan-hz times
 * #           a second, one row driven at a time
 * #   shift   a chain of eight 74HC165 shift registers (load, clock, data), a1 shifted out
 * #           first; scanned scan-hz times a second
 * wiring = direct
 * # The GPIO chip: name ("gpiochip0"), path ("/dev/gpiochip0"), number or label.
 * chip = gpiochip0
 * # direct: the input line of each hole, a1 b1 ... h1 a2 ... h8 (64 numbers, separated by
 * # spaces or commas), or ranges such as 0-63 or "0-31 32-63" (a range may run downwards).
 * # A list too long for one line (lines are at most 198 characters) continues on
 * # indented lines.
 * squares = 0-63
 * # matrix: the row output lines for ranks 1..8 and the column input lines for files a..h.
 * rows = 0-7
 * columns = 8-15
 * # shift: the 74HC165 chain's SH/LD (output, low loads), CLK (output) and QH (input) lines.
 * load = 0
 * clock = 1
 * data = 2
 * # Buttons: one input line each, active low (pressed pulls the line to ground; the pull-up
 * # is requested); "none" if the button is not fitted.
 * button-player-clock = 64
 * button-opponent-clock = 65
 * button-info = 66
 * button-repeat = 67
 * button-select = 68
 * button-pause = 69
 * # yes: a hole's sensor reads 0 when a peg is in it (reed switch to ground, pull-up).
 * # With matrix wiring the driven row is then low and the columns read low for a peg.
 * active-low = no
 * # A sensor or button change counts only after it has been stable this long (0..1000 ms).
 * # Chatter shorter than this is ignored.  Where the kernel debounces edges (libgpiod 2),
 * # a quarter of this period is also applied there, so bounces do not wake the daemon.
 * debounce-ms = 20
 * # Scans per second for matrix and shift wiring (1..1000).
 * scan-hz = 100
 * # matrix and shift: microseconds the scan waits after driving a row (or pulsing the
 * # 74HC165's load or clock line) before it reads (0..100000).  Long wires, or pull
 * # resistors weak against the lines' capacitance, need a few microseconds to settle
 * # (keyboard firmwares wait about 30); 0 reads at once.  A scan takes about 8 (matrix) or
 * # 64 (shift) times this long, which must be less than the scan period.
 * scan-settle-us = 0
 */
int board_config_set(struct board_config *cfg, const char *key, const char *value, char *err,
		     size_t err_size);
/* Check a whole configuration: every line the wiring uses in 0..BOARD_MAX_LINE and no line used
 * twice.  board_open() calls it too.  0, or -1 with a message. */
int board_config_check(const struct board_config *cfg, char *err, size_t err_size);
/* "direct", "matrix", "shift" */
const char *board_wiring_name(enum board_wiring w);

enum board_event_type { BOARD_EVENT_SQUARE = 0, BOARD_EVENT_BUTTON };

struct board_event {
	uint64_t time_ms; /* when the change was confirmed: change_ms + debounce-ms */
	enum board_event_type type;
	int index;   /* square 0..63, or enum board_button */
	bool active; /* square: peg present; button: pressed */
	/* When the (raw) change that has now been confirmed began: the moment the peg left or the
	 * button went down, best for clock readings. */
	uint64_t change_ms;
};

struct board;

/*
 * Line logs (docs/scripts.md "Board scripts, line logs, time controls"), written by record_path and
 * read by "replay:LOG":
 *
 *   # format: annabella line log 1
 *   # board: sim:game.script            (the spec it was recorded from)
 *   # wiring: direct|matrix|shift
 *   # date: 2025-03-01T10:00:00Z
 *   # start-ns: 0                       (daemon time of board_open, ns)
 *   # occupancy: 0xffff00000000ffff     (pegs sensed at the start, a1 = bit 0)
 *   # buttons: 0x0                      (buttons held at the start, bit per enum board_button)
 *   # active-low / debounce-ms / scan-hz (for information)
 *   NS LINE rising|falling              (daemon time in ns, non-decreasing)
 *
 * A raw edge is a level change of an input line as the board code sees it before debouncing:
 *  - direct wiring: the hole lines and button lines, as GPIO line numbers;
 *  - matrix and shift wiring: the holes have no line of their own, so every change in a hole's
 *    level found by a scan is logged as virtual line BOARD_VIRTUAL_LINE + square
 *    (a1 = 1000 ... h8 = 1063), at the scan's time, "rising" meaning a peg is sensed (active-low
 *    already applied); buttons keep their GPIO line numbers.
 * Replay feeds these edges to the same debounce code at the same times (relative to start-ns,
 * or to the first edge if the log has no start-ns), so it gives the same events.  Replay takes
 * the line numbers and active-low from the configuration (the virtual lines need neither);
 * without an occupancy header the pegs start as in the initial position.  Lines starting with
 * '#' after the first edge are comments; any other malformed line is an error "LOG:LINE: ...".
 */
#define BOARD_VIRTUAL_LINE 1000

/* The line backends a board spec names: the real board's GPIO lines, the simulated board
 * (moved by a board script), a line log played back. */
enum board_kind { BOARD_GPIOD = 0, BOARD_SIM, BOARD_REPLAY, BOARD_KIND_COUNT };
/*
 * Read a board spec, "gpiod", "sim[:NAME]" or "replay:LOG" (the backends' table in board.c):
 * its backend into *kind and what follows "name:" into *arg (NULL when nothing does).  0, or -1
 * with errno EINVAL and a message in err for a backend it does not know or a file name missing.
 */
int board_spec_parse(const char *spec, enum board_kind *kind, const char **arg, char *err,
		     size_t err_size);

/*
 * Open a board: spec is "gpiod", "sim[:NAME]" or "replay:LOG".  record_path, if not NULL,
 * receives every raw line edge (docs/scripts.md "Board scripts, line logs, time controls").  now_ms
 * is the daemon time at start. Returns NULL with a message in err (naming file and line for a bad
 * log).
 */
struct board *board_open(const struct board_config *cfg, const char *spec, const char *record_path,
			 uint64_t now_ms, char *err, size_t err_size);
void board_close(struct board *b);
/* The line log's header, once the pegs are where the game starts (the sim's are placed after
 * board_open); written at the first board_service() otherwise.  Without it a real board that
 * sees no edge and needs no scan would leave the log without a header until its first edge. */
void board_record_start(struct board *b);

/* The pegs of the initial position (a1 = bit 0). */
#define BOARD_INITIAL_OCCUPANCY 0xffff00000000ffffull

/*
 * The sim backend's board (spec "sim" or "sim:NAME", NAME only naming it in a line log): the
 * simulated pegs and buttons, driven from outside (the board-script driver in daemon/), shown
 * on GPIO lines as the configured wiring would show them, so scanning and debouncing run as on
 * hardware.  The pegs start as the initial position.
 */
/* Place the virtual pegs to match an occupancy, before the first service call. */
void board_sim_place(struct board *b, uint64_t occupancy);
/* At daemon time now_ms: a peg leaves (present false) or enters a hole; a button goes down
 * or up; a hole's sensor bounces `bounces` times within 10 ms, ending as it was.  Returns 0,
 * 1 when nothing changed (the hole was already so, the button already down), or -1 when the
 * board is not simulated or the target has no line. */
int board_sim_peg(struct board *b, int square, bool present, uint64_t now_ms);
int board_sim_button(struct board *b, int button, bool down, uint64_t now_ms);
int board_sim_chatter(struct board *b, int square, unsigned bounces, uint64_t now_ms);
/* How long a sim chatter lasts. */
#define BOARD_SIM_CHATTER_MS 10u
/*
 * Sensor faults, on the line below scanning and debouncing (so every wiring sees them).
 * target: a square 0..63, or BOARD_SIM_BUTTON + enum board_button.
 * - stuck: for ms the line reads `level` (occupied, or the button down) whatever the peg or
 *   button does, then shows the peg or button again; a stuck line shows no bounce or chatter.
 *   A press that ends while its button is stuck up is lost; one still held shows at the end.
 * - bounce: for ms the line flickers at pseudo-random intervals from `seed` (three in four
 *   0.05-5 ms apart, one in four 5-40 ms, so some flickers outlast a 20 ms debounce), then
 *   shows the peg or button as it is.
 * A new fault on a line replaces the one in progress.  Returns 0, or -1 (not simulated, no
 * line, ms 0).
 */
#define BOARD_SIM_BUTTON 64
int board_sim_stuck(struct board *b, int target, bool level, uint32_t ms, uint64_t now_ms);
int board_sim_bounce(struct board *b, int target, uint32_t ms, uint32_t seed, uint64_t now_ms);

/* A file descriptor to poll() for readability, or -1 if the board has none. */
int board_fd(const struct board *b);
/* The next time board_service() must run even without fd activity (scan period,
 * debounce expiry, next scripted action), or UINT64_MAX. */
uint64_t board_deadline(const struct board *b);
/* Read lines, scan, debounce; up to max events into out, in time order.  Returns the count,
 * or -1 on a fatal backend error (message from board_error()).  Events that did not fit stay
 * queued: board_deadline() is then 0, so call again. */
int board_service(struct board *b, uint64_t now_ms, struct board_event *out, int max);
/* The message of the last failed board_service() ("LOG:LINE: ..." for a replay log). */
const char *board_error(const struct board *b);
/* True once a sim script or replay log has no more input. */
bool board_finished(const struct board *b);
/* Debounced occupancy now (bit per square). */
uint64_t board_occupancy(const struct board *b);
/* Light or put out a side's LED (led_lines): 0, 1 when the board has none for that side, or
 * -1 when the line could not be driven. */
int board_set_led(struct board *b, int side, bool on);
/* A side's LED line, or BOARD_NO_LINE. */
int board_led_line(const struct board *b, int side);
/* Run or stop the vibration motor (haptic_line): 0, 1 when the board has none, or -1 when
 * the line could not be driven. */
int board_set_haptic(struct board *b, bool on);
/* The level of a line as the backend reads or drives it (the sim's LEDs, for tests), or -1. */
int board_line_level(const struct board *b, int line);

#endif
