/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control protocol (DESIGN 8): one table of commands {name, role, parser}, shared by the
 * daemon and the `annabella` CLI, and the JSON of replies and watch events.  Pure.
 *
 * A request is one UTF-8 line of at most CONTROL_LINE_MAX bytes, `COMMAND ARGS...`; every
 * request gets one reply line, {"ok":true,...} or {"ok":false,"error":"..."}.
 */
#ifndef ANNABELLA_PROTOCOL_H
#define ANNABELLA_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "game/command.h"
#include "game/compare.h"
#include "game/game.h"

#define CONTROL_LINE_MAX 4096

enum control_cmd {
	CTL_STATUS = 0,
	CTL_MOVES,
	CTL_TAGS,
	CTL_MOVE,
	CTL_DRAW_OFFER,
	CTL_CLAIM,
	CTL_RESIGN,
	CTL_RESULT,
	CTL_APPROVE,
	CTL_PAUSE,
	CTL_RESUME,
	CTL_CLOCK,
	CTL_COMPARE,
	CTL_ROLLBACK,
	CTL_ILLEGAL,
	CTL_WATCH,
	CTL_AUTH,
	CTL_EXPORT,
	CTL_HELP,
	CTL_CMD_COUNT
};

enum control_export { EXPORT_PGN = 0, EXPORT_TEXT, EXPORT_BRF, EXPORT_UNICODE };

struct control_request {
	enum control_cmd cmd;
	bool arbiter_only;
	/* Commands that change the game: what the referee is given (role and author are the
	 * connection's, filled by the caller). */
	bool changes_game;
	struct game_command game;
	enum control_export export_format;
	char pin[40];
	char movetext[CONTROL_LINE_MAX]; /* compare */
};

struct control_command_info {
	const char *name;
	bool arbiter_only;
	const char *usage;
};

/* Parse one request line (without its newline; len bytes, which may hold NULs).  0, or -1
 * with a message for the error reply (a line too long, not UTF-8 text, an unknown command,
 * a malformed argument). */
int control_parse(const char *line, size_t len, struct control_request *req, char *err,
		  size_t err_size);
/* Whether a role may give the request. */
bool control_allowed(const struct control_request *req, enum game_role role);
/* The table, for help and completion. */
const struct control_command_info *control_commands(int *count);
const char *control_role_name(enum game_role role);

/* ------------------------------------------------------------------ replies */

/* {"ok":false,"error":"..."} */
void control_reply_error(struct strbuf *out, const char *error);
/* {"ok":true,"text":"..."} (text NULL: {"ok":true}) */
void control_reply_ok(struct strbuf *out, const char *text);

/* What the daemon knows besides the game for a status reply. */
struct control_status_extra {
	uint64_t now;
	const char *last_move_words; /* the last move as announced, or NULL */
	uint64_t board_differences;  /* squares that differ from the game now */
	enum game_role role;	     /* the arbiter also sees whether a claim is correct */
	const char *lang;	     /* the interface language ("de", "en", "sv", "nl"), or NULL */
	/* The record on disk (DESIGN 4.4): what the journal's reading at start skipped, a
	 * longer scoresheet kept aside, and whether saving works now. */
	struct control_record_status {
		int skipped, bad, duplicates, refused, first_skipped_line;
		int moves_from_scoresheet; /* lost move records put back from game.pgn */
		int scoresheet_kept_plies;
		const char *scoresheet_kept; /* path, or NULL */
		bool saving_fails;
		const char *saving_error; /* why, or NULL */
	} record;
	/* The device's power ([power], daemon/power.h); monitored false: "power" is null. */
	struct control_power_status {
		bool monitored;
		const char *state;	  /* "ok", "undervoltage", "battery-low", "on-battery" */
		bool undervoltage_sensor; /* the Pi's flag was found */
		bool undervoltage;
		bool battery; /* a battery or UPS was found */
		const char *battery_status;
		int percent; /* -1: unknown */
	} power;
};
void control_reply_status(struct strbuf *out, const struct game *g,
			  const struct control_status_extra *extra);
/* {"ok":true,"moves":[{"ply":1,"san":"e4","clk":"0:04:58","clk_ms":298000,"draw_offer":false},...]}
 */
void control_reply_moves(struct strbuf *out, const struct game *g);
/* {"ok":true,"format":"pgn","text":"..."} */
void control_reply_export(struct strbuf *out, const char *format, const char *text);
/* {"ok":true,"agree":N,"device_plies":..,"their_plies":..,"differ":{"ply","move_number",
 * "device","theirs","their_word"}|null[,"unreadable":WORD]} (D.2.9) */
void control_reply_compare(struct strbuf *out, const struct game_comparison *c);
/* {"ok":true,"commands":[{"name":..,"usage":..,"arbiter":..},...]} */
void control_reply_help(struct strbuf *out);
const char *control_export_name(enum control_export f);

/* ------------------------------------------------------------------ watch events */

/* One line for watchers: a record as it happened ({"event":"made","ms":..,...}). */
void control_event_record(struct strbuf *out, const struct game_record *rec, const struct game *g);
/* An utterance ({"event":"say","ms":..,"channel":"public","text":"..."}). */
void control_event_say(struct strbuf *out, uint64_t ms, bool public_channel, const char *text);

#endif
