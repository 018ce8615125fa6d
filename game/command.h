/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Commands that change the game (DESIGN 8), as the control protocol parses them and the
 * button menu makes them.  The referee checks them against the game; see referee.h.
 */
#ifndef ANNABELLA_COMMAND_H
#define ANNABELLA_COMMAND_H

#include <stdbool.h>
#include <stdint.h>

#include "game/record.h"

#define GAME_COMMAND_TEXT_MAX 4096
#define GAME_COMMAND_LINE_MAX 160

enum game_role { ROLE_ASSISTANT = 0, ROLE_ARBITER, ROLE_PLAYER };

enum game_command_kind {
	CMD_TAG = 0,	 /* tags NAME VALUE */
	CMD_DRAW_OFFER,	 /* draw-offer [white|black] */
	CMD_CLAIM,	 /* claim threefold|fifty [MOVE] */
	CMD_RESIGN,	 /* resign white|black */
	CMD_RESULT,	 /* result 1-0|0-1|1/2-1/2 REASON... */
	CMD_APPROVE,	 /* approve */
	CMD_PAUSE,	 /* pause */
	CMD_RESUME,	 /* resume */
	CMD_MOVE,	 /* move MOVE (relayed) */
	CMD_ROLLBACK,	 /* rollback PLY */
	CMD_ILLEGAL,	 /* illegal [white|black] */
	CMD_CLOCK_SET,	 /* clock set H:MM:SS H:MM:SS [W B] */
	CMD_ACCEPT_DRAW, /* the button menu: the player accepts the opponent's offer */
	CMD_RULING,	 /* claim uphold|reject: the arbiter's ruling on the open claim */
	CMD_KIND_COUNT
};

/* The request of commands made at the board (the arbiter's menu): their replies go to
 * control.log, with the command's line. */
#define GAME_REQUEST_BOARD UINT32_MAX

struct game_command {
	enum game_command_kind kind;
	uint32_t request; /* echoed in the reply */
	enum game_role role;
	char author[GAME_AUTHOR_MAX];
	int color; /* -1: the command's default */
	enum claim_kind claim;
	bool upheld;   /* CMD_RULING */
	char move[32]; /* claim's intended move, relayed move: SAN or UCI */
	char result[8];
	char text[RESULT_REASON_MAX]; /* result's reason */
	struct game_tag tag;
	int ply;
	int64_t white_ms, black_ms;
	int white_moves, black_moves;	  /* -1: keep */
	char line[GAME_COMMAND_LINE_MAX]; /* made at the board: the command as a line */
};

#endif
