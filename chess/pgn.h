/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * PGN: export-format writer and a reader for files with several games.
 * Pure: works on strings in memory.
 */
#ifndef ANNABELLA_PGN_H
#define ANNABELLA_PGN_H

#include "chess/chess.h"

struct pgn_tag {
	char *name;
	char *value;
};

/* A variation of a study file (kept when the reader is told to: pgn_reader_keep_variations):
 * an alternative to the move at ply `base` of the line it branches from. */
struct pgn_variation {
	int parent; /* the variation it branches from (its index), or -1: the game's moves */
	int base;   /* the plies from the start before its first move */
	int count;
	int capacity;
	chess_move *moves;
	char **comments;       /* comments[i]: text after move i, or NULL */
	char *leading_comment; /* before its first move, or NULL */
};

struct pgn_game {
	int tag_count;
	struct pgn_tag *tags;
	struct chess_game game;	    /* start position (from SetUp/FEN tags) and the moves */
	char **comments;	    /* comments[i]: text after move i (without braces), or NULL */
	int comments_capacity;	    /* also the capacity of san */
	char (*san)[CHESS_SAN_MAX]; /* san[i]: move i in SAN, made when it was pushed, so writing
				       a long game's scoresheet after every move stays linear */
	char result[8];		    /* "1-0", "0-1", "1/2-1/2" or "*" */
	char *leading_comment;	    /* text before the first move, or NULL */
	/* Variations, each after the variations it branches from (kept by a reader told to;
	 * the writer leaves them out). */
	int variation_count;
	struct pgn_variation *variations;
};

/* Bounds on what the reader accepts (and the writer keeps); longer input is an error or,
 * for comments, cut short. */
#define PGN_MAX_TAGS		64
#define PGN_MAX_TAG_NAME	64
#define PGN_MAX_TAG_VALUE	1024
#define PGN_MAX_COMMENT		4096
#define PGN_MAX_PLIES		12000
#define PGN_MAX_VARIATION_DEPTH 64
#define PGN_MAX_VARIATIONS	4096

/* A game from `start` (NULL: the initial position), with the seven-tag roster set to "?"
 * (Date "????.??.??", Result "*").  0 or -1 (out of memory). */
int pgn_game_init(struct pgn_game *g, const struct chess_pos *start);
void pgn_game_free(struct pgn_game *g);
/* Set or replace a tag; value is copied. */
int pgn_game_set_tag(struct pgn_game *g, const char *name, const char *value);
const char *pgn_game_tag(const struct pgn_game *g, const char *name);
/* Play a legal move and attach an optional comment (copied; e.g. "[%clk 1:23:45]"). */
int pgn_game_push(struct pgn_game *g, chess_move m, const char *comment);
/* Set the comment before the first move (NULL clears it). */
int pgn_game_set_leading_comment(struct pgn_game *g, const char *comment);
/* Set the result ("1-0", "0-1", "1/2-1/2", "*") and the Result tag. */
int pgn_game_set_result(struct pgn_game *g, const char *result);

/* The move at ply `ply` along variation `line` (-1: the game's moves) and the lines it
 * branches from, or CHESS_MOVE_NONE past its end. */
chess_move pgn_variation_move(const struct pgn_game *g, int line, int ply);

/* Export format: seven-tag roster first in its order, then other tags, SetUp/FEN when the
 * game does not start from the initial position, movetext in SAN with comments, lines under
 * 80 columns, result.  Returns a malloc'd string, or NULL (out of memory). */
char *pgn_format(const struct pgn_game *g);

struct pgn_reader;
/* Reads from text (copied). */
struct pgn_reader *pgn_reader_new(const char *text, size_t len);
void pgn_reader_free(struct pgn_reader *r);
/* Variations are kept (struct pgn_variation, their moves checked as the main line's) rather
 * than passed over. */
void pgn_reader_keep_variations(struct pgn_reader *r, bool keep);
/* Next game into *g (initialised by the call; free with pgn_game_free).  1: a game,
 * 0: end of input, -1: error with err naming line and column (the reader then skips to the
 * next game).  Comments, NAGs, variations (skipped, or kept), move numbers and results are
 * handled.  On 0 and -1, *g holds nothing (pgn_game_free on it is harmless). */
int pgn_reader_next(struct pgn_reader *r, struct pgn_game *g, struct chess_error *err);

#endif
