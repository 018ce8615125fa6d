/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Commands that change the game (docs/control.md "Control interface"), as the control protocol's
 * command table parses them (control/protocol.h) and the button menu makes them, and what a command
 * needs of the game before it may be given.  The referee carries them out (referee_command()).
 */
#ifndef ANNABELLA_COMMAND_H
#define ANNABELLA_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/effect.h"
#include "game/record.h"
#include "game/replies.h"

#define GAME_COMMAND_TEXT_MAX 4096
#define GAME_COMMAND_LINE_MAX 160

/* Who gives a command: the control socket's users (docs/control.md "Control interface") and the
 * tactile player through the button menu. */
enum game_role { ROLE_ASSISTANT = 0, ROLE_ARBITER, ROLE_PLAYER, ROLE_COUNT };

enum game_command_kind {
	CMD_TAG = 0,	   /* tags NAME VALUE */
	CMD_DRAW_OFFER,	   /* draw-offer [white|black] */
	CMD_CLAIM,	   /* claim threefold|fifty [white|black] [MOVE] */
	CMD_RESIGN,	   /* resign white|black */
	CMD_RESULT,	   /* result 1-0|0-1|1/2-1/2 REASON... */
	CMD_APPROVE,	   /* approve */
	CMD_PAUSE,	   /* pause */
	CMD_RESUME,	   /* resume */
	CMD_MOVE,	   /* move MOVE (relayed) */
	CMD_ROLLBACK,	   /* rollback PLY */
	CMD_ILLEGAL,	   /* illegal [white|black] */
	CMD_CLOCK_SET,	   /* clock set H:MM:SS H:MM:SS [W B] */
	CMD_CLOCK_CONTROL, /* clock control TC: the time control from now on (6.10.2) */
	CMD_CLOCK_ADD,	   /* clock add white|black H:MM:SS: time added to one clock */
	CMD_ACCEPT_DRAW,   /* the button menu: the player accepts the opponent's offer */
	CMD_RULING,	   /* claim uphold|reject: the arbiter's ruling on the open claim */
	CMD_HINT,	   /* hint: the engine's suggestion, asked of the training process */
	CMD_TAKEBACK,	   /* takeback: the last move pair back (casual) */
	CMD_ENGINE, /* engine on|off|wait|hint: the training process (docs/training.md "Training and
		     * study")
		     */
	CMD_LAST_MOVES, /* last-moves [N]: the last N moves of both sides, said privately */
	CMD_EVAL,	/* eval: the engine's evaluation, asked of the training process */
	CMD_NEW_GAME,	/* new-game [FEN]: a casual game from a position, its board guided */
	CMD_ONLINE,	/* online ...: the online process (docs/online.md "Playing online") */
	CMD_REVIEW,	/* review ...: going over a game (docs/training.md "Going over a game"),
			 * carried out by referee_review(), never ref_command() */
	CMD_KIND_COUNT
};

/* What the training process says of itself (CMD_ENGINE). */
enum game_engine_op {
	ENGINE_OP_ON = 0, /* it plays `color` with the engine named `text` */
	ENGINE_OP_OFF,	  /* it stops, for `engine_end` */
	ENGINE_OP_WAIT,	  /* it waits for the button menu's request to play */
	ENGINE_OP_HINT,	  /* the engine's suggestion `move` for ply `ply` */
	ENGINE_OP_DRAW,	  /* its answer to the player's draw offer: `engine_accept` */
	ENGINE_OP_EVAL,	  /* its evaluation for ply `ply`: `engine_cp` (White's view), `engine_mate`
			   */
};

/* What the online process says (CMD_ONLINE, docs/online.md "Playing online"): of itself, and of the
 * game on the server, whose position, clock and result win. */
enum game_online_op {
	ONLINE_OP_ON = 0, /* it is the online process */
	ONLINE_OP_OFF,	  /* it is no longer */
	ONLINE_OP_WAIT,	  /* it waits for the button menu's entry */
	ONLINE_OP_BEGIN,  /* a game began on the server: `color`, `time_control`, `online_id`,
			     `text` the FEN ("" for the initial position), `tags` */
	ONLINE_OP_MOVE,	  /* the server's ply `ply` is `move` (UCI); with the clocks after it
			     when `white_ms` >= 0 (`color` the side whose clock runs, -1 none) */
	ONLINE_OP_CLOCK,  /* the server's clocks: `white_ms`, `black_ms`, `color` running */
	ONLINE_OP_BACK,	  /* the server's game has `ply` plies: the rest taken back, for
			     `online_news` (enum game_online_back) */
	ONLINE_OP_RESULT, /* the server ended the game: `text` its status, `color` the winner */
	ONLINE_OP_SAY,	  /* news for the player: `online_news` (enum game_online_news) */
	ONLINE_OP_OFFERS, /* the offers standing on the server: `online_news` bits (game/online.h)
			   */
	ONLINE_OP_GONE,	  /* the opponent left (`ply`: seconds until a claim, -1: back) */
};

/* Why the training process stops (engine off REASON). */
enum game_engine_end {
	ENGINE_END_NORMAL = 0,
	ENGINE_END_MISSING,  /* the engine could not be started */
	ENGINE_END_DIED,     /* it stopped */
	ENGINE_END_HUNG,     /* it did not answer in its time */
	ENGINE_END_NONSENSE, /* it answered something that is no legal move */
	ENGINE_END_COUNT
};
/* "normal", "missing", "died", "hung", "nonsense"; -1 for another word. */
const char *game_engine_end_name(enum game_engine_end end);
int game_engine_end_parse(const char *word);
/* The request of commands made at the board (the arbiter's menu): their replies go to
 * control.log, with the command's line. */
#define GAME_REQUEST_BOARD UINT32_MAX

struct game_command {
	enum game_command_kind kind;
	enum game_role role;
	char author[GAME_AUTHOR_MAX];
	int color; /* -1: the command's default */
	enum claim_kind claim;
	bool upheld;   /* CMD_RULING */
	char move[32]; /* claim's intended move, relayed move: SAN or UCI */
	/* The language whose piece letters `move` may be written in besides the English and
	 * German ones (chess_move_parse_lang(): the Dutch P), "" for none. */
	char lang[3];
	/* A relayed move names the ply it is for (from 1), or its move number with `color`;
	 * 0: neither (as `move MOVE`: the opponent's next move, or a correction of their
	 * last). */
	int move_number;
	char result[8];
	char text[RESULT_REASON_MAX]; /* result's reason; clock control's time control */
	struct game_tag tag;
	int ply; /* rollback's; a relayed move's (0: not named) */
	int64_t white_ms, black_ms;
	int white_moves, black_moves; /* -1: keep */
	/* Given on the training process's connection (its `move` is the engine's). */
	bool engine;
	enum game_engine_op engine_op;
	enum game_engine_end engine_end;
	/* engine on: its strength as set (a rating, or a level: -1 none) and the rating asked
	 * for; engine draw, engine eval: the answer */
	int engine_elo, engine_asked, engine_level;
	bool engine_accept;
	int engine_cp, engine_mate;
	/* Given on the online process's connection (docs/online.md "Playing online"). */
	bool online;
	enum game_online_op online_op;
	int online_news;
	char online_id[GAME_ID_MAX];
	char time_control[64];
	int tag_count; /* ONLINE_OP_BEGIN: the game's tags */
	struct game_tag tags[GAME_MAX_TAGS];
	char line[GAME_COMMAND_LINE_MAX]; /* made at the board: the command as a line */
};

/* The reply to a command, returned to whoever gave it: struct game_reply (replies.h). */

/*
 * What a command needs of the game, stated once for every door (the control socket and the
 * board script through the command table, the web page and the CLI's help from it, the player's
 * button menu, the arbiter's menu at the board, the referee's review and online gates): one row
 * per command kind (game_command_needs()).  A command whose needs the game does not meet is
 * refused with the reason and changes nothing.
 */
enum game_need {
	GAME_NEED_PLAY = 1u << 0,	/* the game is on and no flag waits for the arbiter */
	GAME_NEED_NOT_OVER = 1u << 1,	/* the game has not ended (a fallen flag may wait) */
	GAME_NEED_CLOCK = 1u << 2,	/* the game has a clock */
	GAME_NEED_NOT_CLOSED = 1u << 3, /* its result is not approved */
};
#define GAME_NEED_COUNT 4
/* The modes a command may be given in: bits of enum game_mode. */
#define GAME_MODE_BIT(m) (1u << (m))
#define GAME_MODES_ALL                                                                             \
	(GAME_MODE_BIT(GAME_TOURNAMENT) | GAME_MODE_BIT(GAME_CASUAL) | GAME_MODE_BIT(GAME_ONLINE))

struct game_command_needs {
	unsigned modes; /* GAME_MODE_BIT() bits */
	unsigned needs; /* enum game_need bits */
	/* It may be given while a review has the board (docs/training.md "Going over a game"):
	 * it changes nothing on the board. */
	bool in_review;
	/* In an online game it is the server's (docs/online.md "Playing online"): refused, the
	 * online process's stream says it. */
	bool server;
};

/* The row of a command kind (CMD_KIND_COUNT or past: a row that needs nothing). */
const struct game_command_needs *game_command_needs(enum game_command_kind kind);

struct game;

/* NULL when the game is in one of `modes` and meets `needs`; else why not (in buf): "the
 * game is over: 0-1", "the game has no clock", "not allowed in tournament mode"... */
const char *game_command_unmet(const struct game *g, unsigned modes, unsigned needs, char *buf,
			       size_t size);
/* The same as a reply: false when met, else true with *reply set (no-game, not-in-mode,
 * no-clock, game-closed, game-over, flag-pending). */
bool game_command_unmet_reply(const struct game *g, unsigned modes, unsigned needs,
			      struct game_reply *reply);
/* game_command_unmet_reply() with the modes and needs of the kind's row. */
bool game_command_kind_unmet(const struct game *g, enum game_command_kind kind,
			     struct game_reply *reply);
/* "play", "not-over", "clock", "not-closed" for one need's bit (help, the web page). */
const char *game_need_name(unsigned need);

/* The side on move for a draw claim (9.2, 9.3) without an intended move: the side to move,
 * or, with a clock, the side whose move is made on the board and not yet completed by its
 * press (that move is the one the claim intends).  *made: the latter. */
int game_claim_on_move(const struct game *g, bool *made);

#endif
