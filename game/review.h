/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A finished game studied move by move on the tactile board (docs/training.md "Training and study",
 * `review`): its start position, its lines (the game's own and the variations of a study file,
 * each an alternative to one move of the line it branches from), the comments on its moves,
 * and what is shown.  Pure data; the referee (referee_train.c) guides the board to the position
 * shown and announces each step.
 *
 *   OFF ──load──▶ LOADING ──add, variation, annotate...──▶ LOADING ──begin──▶ ON
 *   ON ──next/back/goto/enter/leave/where──▶ ON
 *   ON ──end──▶ RETURN (the game's own position set up again) ──the board matches──▶ OFF
 *   ON ──end, the game being over──▶ OFF
 *
 * Plies count from the start position along a line and the lines it branches from: a
 * variation's `base` is the plies before its first move, which replaces its parent's move
 * at that ply.  What is shown is a line and a ply on it (base <= at <= base + count).
 *
 * The review is no part of the game: nothing of it is journaled, and the game itself never
 * changes while it is on.
 */
#ifndef ANNABELLA_REVIEW_H
#define ANNABELLA_REVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "chess/chess.h"
#include "game/game.h"

#define REVIEW_MAX_PLIES    GAME_MAX_PLIES /* the moves of all lines together */
#define REVIEW_MAX_LINES    512		   /* the game's line and its variations */
#define REVIEW_COMMENTS_MAX (64 * 1024)	   /* the comments' text, all together */
#define REVIEW_COMMENT_MAX  2000	   /* one comment's bytes (longer ones are cut) */
#define REVIEW_MAIN	    0		   /* the game's own line */

enum review_state { REVIEW_OFF = 0, REVIEW_LOADING, REVIEW_ON, REVIEW_RETURN };

struct review_line {
	int parent; /* the line it branches from; -1: the game's own line */
	int base;   /* the plies before its first move */
	int first;  /* its first move in moves[] */
	int count;
};

struct review {
	enum review_state state;
	struct chess_pos start;
	int lines; /* the lines loaded; moves are added to the last one */
	struct review_line line[REVIEW_MAX_LINES];
	int count; /* the moves of all lines */
	chess_move moves[REVIEW_MAX_PLIES];
	int comment[REVIEW_MAX_PLIES]; /* after each move: its offset in text + 1, or 0 */
	int lead_comment;	       /* before the game's first move: the same */
	char text[REVIEW_COMMENTS_MAX];
	int text_len;
	struct chess_pos end; /* after the last line's last move */
	/* What is shown: line `cur` at ply `at`, the position `shown`. */
	int cur;
	int at;
	struct chess_pos shown;
	int left;   /* the variation just left (where it branches is shown), or 0 */
	bool ready; /* the board has shown the start position once */
	/* Squares whose peg stays while its piece changes (a capture stepped over, a jump):
	 * the peg must be lifted and the other piece put in (the referee keeps it). */
	uint64_t swap;
	bool aloud; /* said on the speaker too (casual play; [training] review-aloud) */
	/* A move to go to being chosen with the buttons (the menu's item): its number (0: the
	 * start), and when a button was last pressed. */
	bool choosing;
	int choose_move;
	uint64_t choose_ms;
};

void review_reset(struct review *v);
/* A review of the game from `start` is being loaded (LOADING, the game's line empty). */
void review_load(struct review *v, const struct chess_pos *start);
/* The next move of the last line, if it is legal after its moves so far and there is room:
 * 0, else -1 (nothing changed). */
int review_add(struct review *v, chess_move m);
/* A new line, branching from `parent` at ply `base` (its move there replaced), that the next
 * moves are added to: its number, or -1 (no such line, no move of it at that ply, no room). */
int review_add_line(struct review *v, int parent, int base);
/* The comment after ply `ply` of `line` (a move of its own; ply 0 of the game's line: before
 * its first move), cut to REVIEW_COMMENT_MAX bytes: 0, -1 when there is no such move, -2 when
 * the comments' room is full. */
int review_annotate(struct review *v, int line, int ply, const char *text);
/* LOADING -> ON, showing the start position. */
void review_begin(struct review *v);

/* The move of `line` at ply `ply` (0-based), along the lines it branches from: NONE past its
 * end. */
chess_move review_move_at(const struct review *v, int line, int ply);
/* The position at ply `ply` of `line` into *out. */
void review_position(const struct review *v, int line, int ply, struct chess_pos *out);
/* The last ply of `line`. */
int review_line_end(const struct review *v, int line);
/* The comment after ply `ply` of `line`, along the lines it branches from (0: before the
 * game's first move), or NULL. */
const char *review_comment(const struct review *v, int line, int ply);
/* The variations that branch from `line` at ply `ply` (alternatives to its move there),
 * counted; *first: the first after `after` (-1: from the start), or -1. */
int review_variations(const struct review *v, int line, int ply, int after, int *first);

/* Show ply `ply` of `line` (clamped to it). */
void review_show(struct review *v, int line, int ply);
/* One move forward (+1) or back (-1) on the line shown: false at its end or the game's start
 * (nothing changed).  Back from a variation's first move goes on along its parent. */
bool review_step(struct review *v, int dir);
/* The move number of ply `ply` (0-based), as the scoresheet numbers it. */
int review_move_number(const struct review *v, int ply);
bool review_active(const struct review *v); /* ON or RETURN */
const char *review_state_name(enum review_state s);

#endif
