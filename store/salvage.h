/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A scoresheet read as far as it can be (recovery; docs/state.md "State directory"): game.pgn as
 * the store writes it, perhaps damaged (a flipped byte, cut short).  A PGN reader refuses a whole
 * file for one bad byte; this one keeps every ply it can place: its move's text and its [%clk]
 * reading. Plies are placed by their move numbers ("12." White's, "12..." Black's), so one bad
 * token costs that ply only; a token that cannot be placed (after a damaged move number, until the
 * next good one) is left out rather than guessed.  The moves are text: whether each is
 * legal is for the caller to see against the game.  The tags are read too, each line whole or
 * not at all (a game resumed from game.pgn alone takes its start position, time control and
 * tags from them).
 */
#ifndef ANNABELLA_SALVAGE_H
#define ANNABELLA_SALVAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"

struct salvage_ply {
	char san[CHESS_SAN_MAX]; /* the move as written, "" if it could not be read */
	int64_t clk_ms;		 /* its [%clk] reading, -1 if none or unreadable */
	/* Its comment as written (within the text read; NULL: none). */
	const char *comment;
	size_t comment_len;
};

/* The tags, as the store writes them (docs/state.md "State directory"): PGN's tag pairs. */
#define SALVAGE_TAGS_MAX      32
#define SALVAGE_TAG_NAME_MAX  32
#define SALVAGE_TAG_VALUE_MAX 128
struct salvage_tag {
	char name[SALVAGE_TAG_NAME_MAX];
	char value[SALVAGE_TAG_VALUE_MAX];
};

struct salvage {
	int count; /* plies placed (some perhaps unreadable) */
	struct salvage_ply *plies;
	bool damaged;	 /* something could not be read (or the file was cut short) */
	bool has_result; /* it ends with a result */
	bool finished;	 /* that result ends the game (not "*") */
	/* The tag pairs read whole, in order; a line of the tag section that is none (a
	 * flipped byte) or beyond SALVAGE_TAGS_MAX is left out and makes it damaged. */
	int tag_count;
	struct salvage_tag tags[SALVAGE_TAGS_MAX];
	bool tags_damaged;
};

/* text: the first game of a PGN file; start: the game's start position (its move number and
 * side place the plies).  0, or -1 (out of memory).  Free with salvage_free(); the plies'
 * comments point into text. */
int salvage_read(struct salvage *sv, const char *text, size_t len, const struct chess_pos *start);
/* A tag's value, or NULL. */
const char *salvage_tag(const struct salvage *sv, const char *name);
void salvage_free(struct salvage *sv);

#endif
