/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lichess's Board API messages as `annabella online` reads them (docs/online.md "Playing online"),
 * pure: one NDJSON line of the event stream, a game's stream or a challenge's into a struct, the
 * Board API's limits on time controls, the moves of a state.  No I/O; the HTTP side is
 * cli/lichess.c.  The fields are those of lichess's published OpenAPI description
 * (GameFullEvent, GameStateEvent, OpponentGoneEvent, GameStartEvent, ChallengeEvent, ...).
 */
#ifndef ANNABELLA_LICHESS_MSG_H
#define ANNABELLA_LICHESS_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define LICHESS_ID_MAX	 32
#define LICHESS_NAME_MAX 32
#define LICHESS_WORD_MAX 32
/* A state's moves: every ply as UCI (at most 5 characters) and a space. */
#define LICHESS_MOVES_MAX (GAME_MAX_PLIES * 6 + 1)
/* The longest line read: a game's full state with the longest game, and its names. */
#define LICHESS_LINE_MAX (LICHESS_MOVES_MAX + 4096)

enum lichess_msg_type {
	LICHESS_KEEP_ALIVE = 0,	    /* an empty line */
	LICHESS_GAME_FULL,	    /* a game's stream: its first line */
	LICHESS_GAME_STATE,	    /* a game's stream: a move, an offer, the end */
	LICHESS_CHAT_LINE,	    /* a game's stream: a chat line (not read further) */
	LICHESS_OPPONENT_GONE,	    /* a game's stream: the opponent left, or is back */
	LICHESS_GAME_START,	    /* the event stream: a game began (or is on) */
	LICHESS_GAME_FINISH,	    /* the event stream: a game ended */
	LICHESS_CHALLENGE,	    /* the event stream: a challenge, to us or from us */
	LICHESS_CHALLENGE_CANCELED, /* the event stream: one was canceled */
	LICHESS_CHALLENGE_DECLINED, /* the event stream: ours was declined */
	LICHESS_CHALLENGE_DONE,	    /* a kept-alive challenge's end: {"done":"accepted"} */
	LICHESS_OTHER,		    /* a type this client does not read */
};

struct lichess_state {
	char moves[LICHESS_MOVES_MAX]; /* UCI, space-separated */
	int64_t wtime, btime, winc, binc;
	char status[LICHESS_WORD_MAX];
	int winner; /* enum chess_color, or -1 */
	bool wdraw, bdraw, wtakeback, btakeback;
};

struct lichess_player {
	char id[LICHESS_NAME_MAX], name[LICHESS_NAME_MAX];
	int rating;   /* -1: none */
	int ai_level; /* lichess's own computer: 1..8; 0: a person */
};

struct lichess_game_full {
	char id[LICHESS_ID_MAX];
	char variant[LICHESS_WORD_MAX], speed[LICHESS_WORD_MAX], perf[LICHESS_WORD_MAX];
	bool rated;
	int64_t initial_ms, increment_ms; /* -1: no clock (correspondence, unlimited) */
	struct lichess_player white, black;
	char initial_fen[CHESS_FEN_MAX]; /* "startpos", or a FEN */
};

struct lichess_game_event {
	char game_id[LICHESS_ID_MAX];
	int color; /* ours: enum chess_color, or -1 */
	char speed[LICHESS_WORD_MAX];
	char variant[LICHESS_WORD_MAX];
	bool board; /* the Board API plays it (compat.board; true when not said) */
	char status[LICHESS_WORD_MAX];
};

struct lichess_challenge {
	char id[LICHESS_ID_MAX];
	char status[LICHESS_WORD_MAX];
	char challenger[LICHESS_NAME_MAX]; /* its id (lower case) */
	char dest[LICHESS_NAME_MAX];	   /* the challenged user's id, or "" (open) */
	char direction[8];		   /* "in", "out", or "" */
	char variant[LICHESS_WORD_MAX];
	char speed[LICHESS_WORD_MAX];
	char tc_type[LICHESS_WORD_MAX]; /* clock, correspondence, unlimited */
	int limit_s, increment_s;	/* a clock's */
	bool rated;
	char color[8]; /* white, black, random: the challenger's */
	char decline_reason[LICHESS_WORD_MAX];
};

struct lichess_msg {
	enum lichess_msg_type type;
	char type_name[LICHESS_WORD_MAX];
	union {
		struct lichess_game_full full;	/* GAME_FULL, with `state` */
		struct lichess_game_event game; /* GAME_START, GAME_FINISH */
		struct lichess_challenge challenge;
		struct {
			bool gone;
			int claim_in_s; /* -1: not said */
		} gone;
		char done[LICHESS_WORD_MAX];
	} u;
	struct lichess_state state; /* GAME_FULL's and GAME_STATE's */
};

/* One line (without its newline).  0, or -1 with what is wrong in err (not a JSON object, a
 * required field missing or of the wrong kind). */
int lichess_msg_parse(const char *line, struct lichess_msg *msg, char *err, size_t size);
/* The text of an error body ({"error":"..."}), or the body cut short. */
void lichess_error_text(const char *body, char *buf, size_t size);

/* The Board API's time controls (its description's "Restrictions"): rapid, classical and
 * correspondence; blitz too for a direct challenge.  A seek takes minutes (0..180) and an
 * increment (0..180 s); a challenge's clock limit is 0, 15, 30, 45, 60, 90 s or a multiple of
 * 60 up to 10800, its increment 0..60 s.  true when SECONDS+INCREMENT may be played started
 * that way; else false with the reason in why. */
enum lichess_start { LICHESS_BY_SEEK = 0, LICHESS_BY_CHALLENGE };
bool lichess_time_control_allowed(enum lichess_start how, int seconds, int increment, char *why,
				  size_t size);

/* The next move of a moves string from *at: its UCI into word (6 bytes), *at past it; false
 * at the end.  A king taking its own rook (lichess's Chess960-compatible castling) is given
 * as the standard castling move of `pos`. */
bool lichess_next_move(const char **at, const struct chess_pos *pos, char word[6]);

#endif
