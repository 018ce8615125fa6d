/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control protocol (docs/control.md "Control interface"): one table of commands, and the JSON
 * of replies and watch events.  Pure.
 *
 * Each command is one row of the table (protocol.c): its name, its usage, who may give it
 * (roles), the game command it gives, whose modes and needs of the game are the model's
 * (game_command_needs(), game/command.h), its parser and its handler.  control_dispatch()
 * takes a request line through the row: the role, the parser, the modes and needs, then the
 * handler, whose reply it returns to the caller.  The control
 * socket and the board script's `control` action dispatch through it; the CLI's help and
 * completion and the web page's forms read the same rows (control_command_at(), `help`).
 *
 * A request is one UTF-8 line of at most CONTROL_LINE_MAX bytes, `COMMAND ARGS...`; every
 * request gets one reply line, {"ok":true,...} or {"ok":false,"error":"..."}, which ends
 * with the reply's code and arguments (game/replies.h): "code":"...","args":{...}.
 */
#ifndef ANNABELLA_PROTOCOL_H
#define ANNABELLA_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "game/summary.h"
#include "game/audience.h"
#include "game/command.h"
#include "game/compare.h"
#include "game/game.h"
#include "referee/referee.h"

#define CONTROL_LINE_MAX 4096
/* `auth PIN NAME`: the longest name (with its NUL). */
#define CONTROL_NAME_MAX 17

enum control_export { EXPORT_PGN = 0, EXPORT_TEXT, EXPORT_BRF, EXPORT_UNICODE };

/* Who may give a command: bits of enum game_role. */
#define CONTROL_ROLE(role) (1u << (role))
#define CONTROL_ANYONE	   (CONTROL_ROLE(ROLE_ASSISTANT) | CONTROL_ROLE(ROLE_ARBITER))
#define CONTROL_ARBITER	   CONTROL_ROLE(ROLE_ARBITER)

/* A row that gives no game command. */
#define CONTROL_NO_KIND CMD_KIND_COUNT

/* What a command is. */
enum control_flag {
	/* It changes the game: carried out by the referee, journaled. */
	CONTROL_CHANGES = 1u << 0,
	/* It only reads what anyone may know: a web visitor without a PIN may give it. */
	CONTROL_READS = 1u << 1,
	/* It is about the connection itself (watch, auth): not a command of the web page. */
	CONTROL_SESSION = 1u << 2,
	/* Its arguments stay out of control.log (a PIN). */
	CONTROL_SECRET = 1u << 3,
};

/* A request's words: the command's name first. */
#define CONTROL_MAX_WORDS 8
struct control_words {
	int n;
	char w[CONTROL_MAX_WORDS][64];
	const char *rest[CONTROL_MAX_WORDS]; /* the line from word i on */
};

struct control_request;
struct control_env;
struct control_outcome;

struct control_command {
	const char *name;
	/* The first arguments that select this row rather than the next of the same name,
	 * '|'-separated ("uphold|reject"), or NULL. */
	const char *sub;
	const char *usage;
	/* What the first argument may be, space-separated (completion, the web page's form),
	 * or NULL. */
	const char *words;
	unsigned roles; /* CONTROL_ROLE() bits */
	/* The game command it gives: its modes and needs are game_command_needs(kind)'s (the
	 * request's own kind is checked: `clock add`, of the `clock` row, needs no flag waiting
	 * too).  A row that gives none (CONTROL_NO_KIND: status, watch, help...) needs nothing,
	 * not even a game. */
	enum game_command_kind kind;
	unsigned flags; /* enum control_flag */
	int (*parse)(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err);
	void (*handle)(const struct control_env *env, struct control_request *req,
		       struct control_outcome *out);
};

/* The table: row i (NULL past the end). */
const struct control_command *control_command_at(int i);
/* The row a request line would go to (by its first word, and its second for rows with a
 * `sub`), or NULL. */
const struct control_command *control_command_find(const char *line);
const char *control_role_name(enum game_role role);

struct control_request {
	const struct control_command *command;
	/* CONTROL_CHANGES: what the referee is given (role and author from the env). */
	struct game_command game;
	enum control_export export_format;
	char game_id[GAME_ID_MAX]; /* export: a finished game's, or "" for the current one */
	bool public_view;	   /* `status public`, `watch public` */
	/* `review` (docs/training.md "Going over a game"); its text (a FEN, moves, a comment) in
	 * `movetext` */
	struct referee_review_cmd review;
	char pin[40];
	char name[CONTROL_NAME_MAX];	 /* auth's NAME ("" for none) */
	char movetext[CONTROL_LINE_MAX]; /* compare; review's text */
	int count;			 /* games N */
};

/* Parse one request line (without its newline; len bytes, which may hold NULs) through its
 * row's parser.  0, or -1 with the error reply in *err (a line too long, not UTF-8 text, an
 * unknown command, a malformed argument).  Who may give it is not checked here. */
int control_parse(const char *line, size_t len, struct control_request *req,
		  struct game_reply *err);

/* ------------------------------------------------------------------ dispatch */

/* What the daemon knows besides the game for a status reply. */
struct control_status_extra {
	uint64_t now;
	const char *last_move_words; /* the last move as announced, or NULL */
	uint64_t board_differences;  /* squares that differ from the game now */
	/* Who asks: the arbiter also sees whether a claim is correct and a mismatch kept from
	 * the player (audience.h); `status public` is what anyone may see. */
	enum game_audience audience;
	const char *lang; /* the interface language ("de", "en", "sv", "nl"), or NULL */
	/* The record on disk (docs/state.md "State directory"): what the journal's reading at start
	 * skipped, a longer scoresheet kept aside, and whether saving works now. */
	struct control_record_status {
		int skipped, bad, duplicates, refused, first_skipped_line;
		int moves_from_scoresheet; /* lost move records put back from game.pgn */
		int scoresheet_kept_plies;
		const char *scoresheet_kept; /* path, or NULL */
		bool saving_fails;
		const char *saving_error; /* why, or NULL */
		/* Readings put back from game.pgn and from their press records, records that
		 * fitted after the next one, a journal of another game set aside (path). */
		int readings_from_scoresheet, readings_from_presses, reordered;
		const char *foreign_journal;
		/* What was lost (store/recovery.h): moves game.pgn held beyond the game, moves
		 * completed without their reading; the game came from game.pgn alone. */
		int moves_lost, readings_missing;
		bool from_scoresheet;
	} record;
	/* The journal's anchor (README "Security model"): its chain's value after its last
	 * line written, that line, and the device key's id (NULL: not keyed); chain NULL or
	 * "": "journal" is null. */
	struct control_journal_anchor {
		long line;
		const char *chain, *key;
	} journal;
	/* The device's power ([power], daemon/power.h); monitored false: "power" is null. */
	struct control_power_status {
		bool monitored;
		const char *state;	  /* "ok", "undervoltage", "battery-low", "on-battery" */
		bool undervoltage_sensor; /* the Pi's flag was found */
		bool undervoltage;
		bool battery; /* a battery or UPS was found */
		const char *battery_status;
		int percent;	  /* -1: unknown */
		int minutes_left; /* on battery at the measured rate, -1: unknown */
	} power;
	/* Training and study (docs/training.md "Training and study"): the training process, and a
	 * review on the board. */
	struct referee_engine_info engine;
	struct referee_review_info review;
	/* Online play (docs/online.md "Playing online"): the online process and the server's
	 * offers. */
	struct referee_online_info online;
};

/* Who gives a request, when, and what the shell adds that the pure layer cannot know. */
struct control_env {
	struct referee *referee;
	uint64_t now;
	enum game_role role;
	const char *author;
	/* The language whose piece letters its moves may use besides the English and German
	 * ones (the connection's `notation`, else the interface language), or NULL. */
	const char *notation;
	bool connection; /* from a connection (a board script has none: no watch) */
	bool watching;	 /* that connection follows `watch` */
	/* The training process (docs/training.md "Training and study"): this connection is it;
	 * another connection is. */
	bool engine_self, engine_elsewhere;
	/* The online process (docs/online.md "Playing online"): this connection is it; another is.
	 */
	bool online_self, online_elsewhere;
	/* `auth PIN`: the PINs of [control] (base/pinhash.h; NULL or not set: none). */
	struct pin_secret *arbiter_pin, *assistant_pin;
	void *shell;
	/* Fills what the daemon knows for `status` (all but `now` and `audience`). */
	void (*status_extra)(void *shell, struct control_status_extra *x);
	/* The scoresheet in a format, malloc'd; NULL with the reason in *why (no-game,
	 * render-failed, no-such-game, game-unreadable).  game_id: a finished game kept under
	 * games/, or "" for the current game. */
	char *(*render)(void *shell, enum control_export f, const char *game_id,
			enum reply_code *why);
	/* The finished games kept under games/, newest first, at most max: how many, or -1
	 * when they cannot be read. */
	int (*list_games)(void *shell, struct game_summary *out, int max);
};

/* What the connection must do after a request. */
enum control_action {
	CONTROL_ACT_NONE = 0,
	CONTROL_ACT_WATCH,	 /* send events from now on (public_view: public ones only) */
	CONTROL_ACT_ROLE,	 /* take `role` (a right PIN), and `name` after the author's */
	CONTROL_ACT_PIN_REFUSED, /* a wrong PIN: an event for the arbiters, counted */
	CONTROL_ACT_ENGINE,	 /* the connection is the training process from now on */
	CONTROL_ACT_ENGINE_OFF,	 /* it is no longer */
	CONTROL_ACT_ONLINE,	 /* the connection is the online process from now on */
	CONTROL_ACT_ONLINE_OFF,	 /* it is no longer */
	CONTROL_ACT_NOTATION,	 /* its moves use the piece letters of `lang` from now on */
};

struct control_outcome {
	const struct control_command *command; /* NULL: the line is not a command */
	bool ok;
	struct strbuf reply;		/* the reply line (JSON, no newline) */
	char said[GAME_REPLY_MAX + 64]; /* what control.log says after ok|error */
	enum reply_code code;		/* the reply's code */
	bool quotes;			/* the reply quotes words of the request */
	enum control_action action;
	enum game_role role;	     /* CONTROL_ACT_ROLE */
	char name[CONTROL_NAME_MAX]; /* CONTROL_ACT_ROLE: `auth PIN NAME`'s, or "" */
	bool public_view;	     /* CONTROL_ACT_WATCH */
	char lang[3];		     /* CONTROL_ACT_NOTATION */
};

/* One request line through the table (see the top).  The reply is always set; free it with
 * control_outcome_free(). */
void control_dispatch(const struct control_env *env, const char *line, size_t len,
		      struct control_outcome *out);
void control_outcome_free(struct control_outcome *out);

/* ------------------------------------------------------------------ replies */

/* {"ok":false,"error":TEXT,"code":..,"args":{..}} or {"ok":true,"text":TEXT,"code":..,
 * "args":{..}} (no text for a code without wording). */
void control_reply(struct strbuf *out, const struct game_reply *reply);
void control_reply_status(struct strbuf *out, const struct game *g,
			  const struct control_status_extra *extra);
/* {"ok":true,"moves":[{"ply":1,"san":"e4","clk":"0:04:58","clk_ms":298000,
 * "draw_offer":false,"uci":"e2e4"},...]}
 */
void control_reply_moves(struct strbuf *out, const struct game *g);
/* {"ok":true,"games":[{"id":..,"number":N,"white":..,"black":..,"result":..,"date":..,
 * "plies":N},...],"code":"games","args":{"count":N}}: the finished games, newest first */
void control_reply_games(struct strbuf *out, const struct game_summary *games, int count);
/* {"ok":true,"format":"pgn","text":"..."} */
void control_reply_export(struct strbuf *out, const char *format, const char *text);
/* {"ok":true,"agree":N,"device_plies":..,"their_plies":..,"differ":{"ply","move_number",
 * "device","theirs","their_word"}|null[,"unreadable":WORD]} (D.2.9) */
void control_reply_compare(struct strbuf *out, const struct game_comparison *c);
/* {"ok":true,"commands":[{"name":..,"usage":..,"role":"any"|"arbiter","roles":[..],
 * "modes":[..],"needs":[..],"args":[..],"reads":..,"session":..},...]}: the table. */
void control_reply_help(struct strbuf *out);
const char *control_export_name(enum control_export f);

/* ------------------------------------------------------------------ watch events */

/* Every event carries "audience" (audience.h); a watcher gets it only if its level
 * reaches it (game_audience_reaches()). */

/* A record as it happened ({"event":"made","ms":..,"audience":"public",...}). */
void control_event_record(struct strbuf *out, const struct game_record *rec, const struct game *g);
/* An utterance ({"event":"say","ms":..,"audience":..,"channel":"public","text":"..."}) with
 * the languages of its parts (the Appendix D words are German whatever the interface
 * language): "parts":[{"lang":"de","text":"..."},...], whose texts joined are the text (none
 * with count 0).  Each part is text[start, end) in lang; the text between parts joins the
 * part before it. */
struct control_say_part {
	const char *lang;
	size_t start, end;
};
void control_event_say_parts(struct strbuf *out, uint64_t ms, enum game_audience audience,
			     const char *text, const struct control_say_part *parts, int count);
/* An effect that is news to watchers but no record and nothing said (a claim made:
 * {"event":"claimed",...}); false (nothing written) for the other effects. */
bool control_event_effect(struct strbuf *out, const struct game_effect *fx);
/* What the referee asks of the training process (GAME_FX_ENGINE_ASK), for its connection
 * alone: {"event":"hint-request","ms":..,"ply":N,"fen":..} or {"event":"train-request",
 * "ms":..,"side":"black","ply":N}. */
void control_event_engine_ask(struct strbuf *out, const struct game_effect *fx,
			      const struct game *g);
/* What the player asks of the server (GAME_FX_ONLINE_ASK), for the online process's
 * connection alone: {"event":"online-request","ms":..,"request":"resign","ply":N,
 * "side":"white"} (docs/online.md "Playing online"). */
void control_event_online_ask(struct strbuf *out, const struct game_effect *fx);
/* A wrong PIN ({"event":"pin-refused","audience":"arbiter","author":...}). */
void control_event_pin_refused(struct strbuf *out, uint64_t ms, const char *author);
/* The audience of a refused PIN: decided here, once. */
#define CONTROL_PIN_REFUSED_AUDIENCE GAME_AUDIENCE_ARBITER

#endif
