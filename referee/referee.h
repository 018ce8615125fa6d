/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee: the pure core's live side.  Events come in, each with its time (the board
 * ready, a square's peg, a button, a timer tick, a command); the referee decides, and what
 * it decides goes out as journal records (applied to the game through game_apply(), then
 * handed to the sink to be written) and as meaning-level effects (effect.h).
 *
 * No I/O, no clock reads, no logging, no threads, and no allocation after referee_new().
 * A restart replays the journal with referee_replay(): records only, no effects.
 */
#ifndef ANNABELLA_REFEREE_H
#define ANNABELLA_REFEREE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/pinhash.h"
#include "chess/detect.h"
#include "referee/board_arbiter.h"
#include "game/command.h"
#include "game/effect.h"
#include "game/game.h"

#define REFEREE_MAX_WARNINGS 8

/* What the referee hands out.  record() sees each record after it was applied; new_game()
 * fills the id and what the world knows of a game about to begin (its date). */
struct game_sink {
	void *user;
	void (*record)(void *user, const struct game_record *rec);
	void (*effect)(void *user, const struct game_effect *fx);
	void (*new_game)(void *user, struct game_params *params);
};

/* [clock] flag-announce: how a fallen flag is said. */
enum flag_announce {
	FLAG_ANNOUNCE_LAWS = 0, /* as the edition says: public, or private where the arbiter
				   does not point a flag out (2005 B7) */
	FLAG_ANNOUNCE_PUBLIC,
	FLAG_ANNOUNCE_PRIVATE, /* to the tactile player alone */
	FLAG_ANNOUNCE_OFF,     /* not said (journaled and in status all the same) */
};

struct referee_settings {
	struct game_params next; /* every new game: player, mode, edition, clock, start, tags */
	enum flag_announce flag_announce;
	struct detect_config detect;
	uint32_t
	    promotion_ms; /* a replicated promotion's choice is final this long after the
			     last select press (docs/arbiter.md "Behaviour the Laws ask for") */
	int warning_count;
	uint32_t warnings_s[REFEREE_MAX_WARNINGS]; /* private warnings at these times left */
	uint32_t hold_ms;			   /* holding select this long opens the menu */
	uint32_t menu_ms;			   /* the menu closes after this long unused */
	bool braille_display; /* the menu offers the braille scoresheet on the display */
	bool train_menu;      /* casual play: the menu offers a training game ([training] menu) */
	/* A review ([training] review-aloud, review-comments): said on the speaker too; a
	 * move's comment said only on request (repeat), else after the move. */
	bool review_aloud;
	bool review_comments_on_request;
	bool online_menu; /* casual play: the menu offers an online game ([online] menu) */
	/* The arbiter's menu on the buttons (board_arbiter.h): on when there is a clock
	 * display to show it, an arbiter PIN (its hash, base/pinhash.h) to open it and a PIN
	 * budget (referee_attach_pins()). */
	bool board_arbiter;
	struct pin_secret arbiter_pin;
};
void referee_settings_defaults(struct referee_settings *s);

enum game_event_kind {
	GAME_EV_BOARD_READY, /* the sensors are read: `sensed` */
	GAME_EV_SQUARE,	     /* `index` square, `active`: a peg is in it */
	GAME_EV_BUTTON,	     /* `index` enum game_button, `active`: pressed */
	GAME_EV_TICK,	     /* time passed (referee_deadline() reached) */
	GAME_EV_SAID,	     /* the announcement of the MOVE effect `index` (its `report`) has
				been heard to its end, or was cut short */
};

/* The board's buttons (README "The device"), in the board's order. */
enum game_button {
	GAME_BUTTON_PLAYER_CLOCK = 0,
	GAME_BUTTON_OPPONENT_CLOCK,
	GAME_BUTTON_INFO,
	GAME_BUTTON_REPEAT,
	GAME_BUTTON_SELECT,
	GAME_BUTTON_PAUSE,
	GAME_BUTTON_COUNT
};

struct game_event {
	enum game_event_kind kind;
	uint64_t ms; /* when it happened: the peg moved, the button went down */
	int index;
	bool active;
	uint64_t sensed;
};

struct referee;

/* NULL if out of memory.  The settings and sink are copied. */
struct referee *referee_new(const struct referee_settings *settings, const struct game_sink *sink);
void referee_free(struct referee *r);
/* Settings that may change while a game runs (thresholds, warnings); `next` applies from
 * the next game on. */
void referee_update_settings(struct referee *r, const struct referee_settings *settings);

/* A journal record read back at start.  0, or -1 if it does not fit the game so far. */
int referee_replay(struct referee *r, const struct game_record *rec);
/* After the replay: resume its game (said privately), or begin a new game when there was
 * none or it had ended. */
void referee_start(struct referee *r, uint64_t now);
/* Before referee_start(): the longest a record waited to reach storage before the restart
 * (the journal's notes; 0, the default: not known), which the bound of the time the
 * restart gives back covers (game.h: uncharged_up_to_ms). */
void referee_set_storage_lag(struct referee *r, uint32_t lag_ms);
void referee_handle(struct referee *r, const struct game_event *ev);
/* A command (docs/control.md "Control interface") at time `now`, given by cmd->role as cmd->author:
 * carried out, or refused because it does not fit the game, and the reply into *reply.  Who may
 * give it and what it needs of the game are the command table's to check first
 * (control/protocol.h); the referee checks what only the game can tell (a legal move, a claim to
 * rule on). */
void referee_command(struct referee *r, const struct game_command *cmd, uint64_t now,
		     struct game_reply *reply);
/* The scoresheet effect for what the last command changed, if anything.  The caller gives it
 * once the command's reply is on its way, so the reply does not wait for the scoresheet's
 * files (the journal records are handed out before the reply); any later event gives it
 * too. */
void referee_flush(struct referee *r, uint64_t now);
/* The next time a GAME_EV_TICK is due, or UINT64_MAX. */
uint64_t referee_deadline(const struct referee *r, uint64_t now);
/* The daemon stops: a game-ending move whose press never came gets the reading when it was
 * made. */
void referee_stop(struct referee *r, uint64_t now);

const struct game *referee_game(const struct referee *r);
/* Whether referee_start() resumed a game. */
bool referee_resumed(const struct referee *r);
/* The squares the board should show now (a resumed game's pegs). */
uint64_t referee_expected_occupancy(const struct referee *r);
/* The mismatch flow's view of the board: squares that differ from the game now. */
uint64_t referee_board_differences(const struct referee *r);
struct pin_guard;
/* The PIN budget the PINs entered on the buttons go through (docs/control.md "Control interface":
 * the control socket's, under the key PIN_KEY_BOARD); without one the arbiter's menu on the buttons
 * stays shut. */
void referee_attach_pins(struct referee *r, struct pin_guard *pins);
/* The arbiter's menu on the buttons as the clock display shows it (state CLOSED: shut). */
void referee_arbiter_view(const struct referee *r, uint64_t now, struct board_arbiter_view *v);

/* The device's fair-play state, measured by the shell (game/fairplay.h; docs/fairplay.md "Fair
 * play"), and the arbiter's policy: journaled in a tournament game whenever it changes (and
 * at each game's start), judged against the policy. */
void referee_fairplay(struct referee *r, const struct fairplay_policy *policy,
		      const struct fairplay_state *state, uint64_t now);

/* ------------------------------------------------------------------ training and study */

/*
 * Training (docs/training.md "Training and study"): a training process, a client of the control
 * socket, plays one side with a UCI engine; the daemon never runs one.  What it says of itself
 * comes as CMD_ENGINE commands (on, off, wait, a hint's answer); what the referee asks of it goes
 * out as GAME_FX_ENGINE_ASK, which the shell gives to that process's connection alone.  None of it
 * is journaled: the training process's connection is no part of the game.
 */
enum referee_engine_state {
	REFEREE_ENGINE_NONE = 0,
	REFEREE_ENGINE_WAITING, /* waits for the menu's request to play */
	REFEREE_ENGINE_PLAYING,
};
struct referee_engine_info {
	enum referee_engine_state state;
	int side;	  /* PLAYING: the colour it plays */
	const char *name; /* PLAYING: the engine's name */
	bool hint_asked;  /* a hint waits for its answer */
};
void referee_engine_info(const struct referee *r, struct referee_engine_info *out);
/* The training process's connection closed without `engine off`: said privately if it was
 * playing. */
void referee_engine_gone(struct referee *r, uint64_t now);

/* ------------------------------------------------------------------ online play */

/*
 * Online play (docs/online.md "Playing online"): the online process, a client of the control
 * socket, plays the tactile player's game on a server; the daemon opens no network socket.  What
 * the server says of its game comes as CMD_ONLINE commands; what the player asks of the server from
 * the button menu goes out as GAME_FX_ONLINE_ASK to that process's connection alone. Its state is
 * not journaled: the online process is no part of the game (the game's moves, clocks and result
 * are, as the server gave them).
 */
enum referee_online_state {
	REFEREE_ONLINE_NONE = 0,
	REFEREE_ONLINE_WAITING,	  /* waits for the menu's online entry */
	REFEREE_ONLINE_CONNECTED, /* it is there, a game on or not */
};
struct referee_online_info {
	enum referee_online_state state;
	unsigned offers;    /* the offers standing on the server (game/online.h) */
	bool opponent_gone; /* the opponent left the game */
	bool claimable;	    /* and the player may claim the win or a draw now */
};
void referee_online_info(const struct referee *r, uint64_t now, struct referee_online_info *out);
/* The online process's connection closed without `online off`: said privately if its game
 * is on. */
void referee_online_gone(struct referee *r, uint64_t now);

/*
 * Review (docs/training.md "Going over a game", game/review.h): a finished game loaded move by
 * move, with its variations and comments, then stepped through with the buttons (player-clock:
 * next, opponent-clock: back, select: where are we, info: into a variation or out of it, repeat:
 * the move again with its comment, the menu: go to a move) or these commands.
 */
enum referee_review_op {
	REFEREE_REVIEW_LOAD = 0, /* begin loading from `text` (a FEN; NULL: the initial position) */
	REFEREE_REVIEW_ADD,	 /* the next moves of the line being loaded: UCI words in `text` */
	REFEREE_REVIEW_VARIATION, /* a variation of `line` from ply `ply` is loaded next */
	REFEREE_REVIEW_ANNOTATE,  /* `text`: the comment after ply `ply` of `line` */
	REFEREE_REVIEW_BEGIN,	  /* loaded: guide the set-up of its start position */
	REFEREE_REVIEW_NEXT,
	REFEREE_REVIEW_BACK,
	REFEREE_REVIEW_WHERE,
	REFEREE_REVIEW_END,
	REFEREE_REVIEW_GOTO,	/* move `move` of `color` (0: the start, -1: the line's end) */
	REFEREE_REVIEW_ENTER,	/* the `n`-th variation that branches here (0: the next) */
	REFEREE_REVIEW_LEAVE,	/* back to the line the variation branches from */
	REFEREE_REVIEW_COMMENT, /* the move shown again, with its comment */
	REFEREE_REVIEW_ALOUD,	/* said on the speaker too (`on`), or in the earphone only */
};
struct referee_review_cmd {
	enum referee_review_op op;
	const char *text;
	int line, ply;
	int move, color;
	int n;
	bool on;
};
void referee_review(struct referee *r, const struct referee_review_cmd *c, uint64_t now,
		    struct game_reply *reply);
struct referee_review_info {
	int state; /* enum review_state */
	int at, plies;
	int line;	 /* the line shown: 0 the game's, else a variation */
	bool aloud;	 /* said on the speaker too */
	uint64_t differ; /* squares that differ from the position shown */
};
void referee_review_info(const struct referee *r, struct referee_review_info *out);

#endif
