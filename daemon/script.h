/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Board scripts (docs/scripts.md "Board scripts, line logs, time controls"): the sim backend's
 * input.  Pure parser.
 *
 * Grammar, one item per line; `#` starts a comment, blank lines are ignored:
 *   player white|black          header (before the first action only, at most once each)
 *   time-control TC             header; TC is one word ("-" for no clock)
 *   setup FEN                   header; the pegs match the FEN's placement field
 *   [+MS] lift SQ               SQ is a1..h8
 *   [+MS] place SQ
 *   [+MS] press BUTTON          BUTTON: player-clock, opponent-clock, info, repeat, select, pause
 *   [+MS] hold BUTTON MS
 *   [+MS] chatter SQ N          N bounces (2N level changes) within 10 ms, ending as it was
 *   [+MS] stuck SQ occupied|empty MS     the sensor reads that for MS, whatever the peg does
 *   [+MS] stuck BUTTON down|up MS        the same for a button's line
 *   [+MS] disk full|eio|readonly|ok      the state directory's writes fail that way from now
 *                               on (ok: they work again); see state_set_fault()
 *   [+MS] disk removed          the state directory is removed (as if deleted or unmounted)
 *   [+MS] disk slow MS          from now on each sync of the state directory takes MS longer
 *                               (an SD card); 0 heals.  See state_set_sync_delay()
 *   [+MS] bounce SQ|BUTTON MS [SEED]     the line flickers irregularly for MS, then shows the
 *                               peg or button as it is; without SEED the flickers follow
 *                               from the action's time and line (the same script, the same
 *                               flickers).  See board_sim_stuck()/board_sim_bounce().
 *   [+MS] crash                 the power goes (SIGKILL: nothing is flushed)
 *   [+MS] crash unsynced        the power goes, and the journal loses what was written after
 *                               its last sync
 *   [+MS] crash after BYTES     the power goes once BYTES more bytes have been written to
 *                               the state directory, in the middle of a write if it falls
 *                               there (a torn journal record or scoresheet)
 *   [+MS] control ROLE COMMAND...  ROLE: assistant|arbiter; COMMAND as on the control socket
 *                               (docs/control.md "Control interface"), its words joined by single
 * spaces; given by the author "script", or "script:NAME" for ROLE:NAME (NAME: letters, digits, -
 * and _; two people relaying, say)
 * `+MS` waits MS milliseconds after the previous action; without it an action happens at the
 * same time as the previous one.  Every error is reported as "NAME:LINE: message".
 */
#ifndef ANNABELLA_SCRIPT_H
#define ANNABELLA_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds: longest line (without the newline), most actions, largest file script_load reads,
 * longest single wait or hold, most bounces of one chatter, latest action time. */
#define SCRIPT_MAX_LINE	   1024
#define SCRIPT_MAX_ACTIONS 100000
#define SCRIPT_MAX_BYTES   (16u << 20)
#define SCRIPT_MAX_WAIT_MS 86400000u /* one day */
#define SCRIPT_MAX_CHATTER 1000u
#define SCRIPT_MAX_TIME_MS (1000ull * 86400000u)
/* How long `press` holds a button, and the window of a `chatter`. */
#define SCRIPT_PRESS_MS	  80u
#define SCRIPT_CHATTER_MS 10u

enum script_action_type {
	SCRIPT_LIFT = 0,
	SCRIPT_PLACE,
	SCRIPT_PRESS,	/* press and release: held 80 ms */
	SCRIPT_HOLD,	/* press, hold arg ms, release */
	SCRIPT_CHATTER, /* the square's sensor bounces arg times within 10 ms, ending as it was */
	SCRIPT_CRASH,
	SCRIPT_CONTROL, /* target: 0 assistant, 1 arbiter; arg: offset of the text in `texts`;
			   arg2: 1 + offset of the author's NAME there, or 0 */
	SCRIPT_STUCK,	/* target: square, or BOARD_SIM_BUTTON + button; arg: ms; arg2: level */
	SCRIPT_BOUNCE,	/* target as for STUCK; arg: ms; arg2: seed */
	SCRIPT_DISK,	/* target: enum state_fault, or SCRIPT_DISK_REMOVED */
};
#define SCRIPT_DISK_REMOVED 100
/* `disk slow MS`: a SCRIPT_DISK whose arg is the extra time of each sync. */
#define SCRIPT_DISK_SLOW   101
#define SCRIPT_MAX_SLOW_MS 60000u
/* `crash after BYTES`: a SCRIPT_CRASH whose power cut comes after arg more bytes written to
 * the state directory, in the middle of a write if it falls there (state_crash_after). */
#define SCRIPT_CRASH_AFTER_BYTES 1
/* `crash unsynced`: the power goes, and the journal loses what was not yet synced. */
#define SCRIPT_CRASH_UNSYNCED 2

struct script_action {
	uint64_t time_ms; /* absolute script time: the sum of the +MS waits so far */
	enum script_action_type type;
	int target; /* square 0..63 or enum board_button */
	uint32_t arg;
	uint32_t arg2;
	int line; /* line in the script file */
};

struct script_header {
	int player; /* -1: not given (config decides), else enum chess_color */
	bool has_time_control;
	char time_control[64]; /* "-" for none */
	bool has_setup;
	char setup_fen[100];
	/* Lines of the header items (0 if absent), so that the daemon can name the line when its
	 * full time-control or FEN check fails.  The parser checks only the shape: TC's
	 * characters, and the FEN's placement field (which the pegs follow). */
	int player_line, time_control_line, setup_line;
};

struct script {
	struct script_header header;
	int count;
	struct script_action *actions;
	char *texts; /* the control commands' texts, NUL-terminated one after the other */
	size_t texts_len;
};

/* The command text of a SCRIPT_CONTROL action. */
const char *script_control_text(const struct script *s, const struct script_action *a);
/* "assistant", "arbiter" */
const char *script_control_role(const struct script_action *a);
/* "script", or "script:NAME" (the text lives in the script). */
const char *script_control_author(const struct script *s, const struct script_action *a);

/* Parse script text.  0, or -1 with "NAME:LINE: message" in err. */
int script_parse(const char *text, size_t len, const char *name, struct script *out, char *err,
		 size_t err_size);
/* A live script's line (a named pipe, read as it is written), appended to *s: its action
 * happens at script time at_ms (when it arrived) plus its wait, never before the actions
 * already in s.  Header lines are refused once an action is in s.  0, or -1 with
 * "NAME:LINE: message" in err. */
int script_append_line(struct script *s, const char *line, int lineno, const char *name,
		       uint64_t at_ms, char *err, size_t err_size);
/* Read and parse a file; errors name the path (and line). */
int script_load(const char *path, struct script *out, char *err, size_t err_size);
void script_free(struct script *s);

/* The occupancy (bit per square, a1 = bit 0) of a FEN's placement field.  0 or -1. */
int script_fen_occupancy(const char *fen, uint64_t *occupancy);
/* Occupancy of the initial position. */
#define SCRIPT_INITIAL_OCCUPANCY 0xffff00000000ffffull

#endif
