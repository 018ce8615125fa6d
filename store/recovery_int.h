/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recovery's inside, shared by its files (docs/state.md "State directory"): recovery.c (the
 * journal replayed into the referee, with what it lost around each record; the whole run),
 * recovery_pgn.c (game.pgn: read as far as it can be, the game from it alone, whether it
 * must be kept), recovery_clock.c (the clock put together when its records were lost) and
 * recovery_mend.c (a foreign journal set aside; the copies kept and the record written
 * again).  Internal to store/recovery*.c.
 */
#ifndef ANNABELLA_RECOVERY_INT_H
#define ANNABELLA_RECOVERY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/recovery.h"
#include "store/salvage.h"

/* A record that must follow the one just replayed, as the referee makes them together: the
 * `complete` of a press (its reading) or of a move completed when made. */
struct pending {
	bool on;
	int ply; /* 0-based */
	int64_t clk_ms;
	uint64_t ms;
};

struct replay {
	struct recovery *rc;
	const char *dir;
	struct referee *r;
	const struct game_params *params; /* a new game's, for a game from game.pgn alone */
	bool copy_tried, sheet_tried;
	/* The journal ends in a torn line that may have been a clock press (its type is one,
	 * or cannot be read): the press of a move waiting for it may be lost with it. */
	bool torn_press;
	bool unfinished_only; /* the journal was empty: a finished game stays in games/ */
	/* game.pgn: its text, and read as far as it can be once the game's start is known */
	char *disk_text;
	size_t disk_len;
	struct salvage disk;
	bool disk_read, disk_usable;
	/* Order of what was replayed: each record's number, the last clock record's, and when
	 * each ply's reading came. */
	int seq, clock_seq;
	int *reading_seq;
	bool *journal_complete; /* a complete record of the ply came from the journal */
	struct pending pending;
	/* A record refused once, tried again after the next record that fits. */
	bool deferred;
	struct game_record deferred_rec;
	char deferred_line[JOURNAL_LINE_MAX + 1];
	int deferred_lineno;
	uint64_t last_ms;
};

/* recovery.c: game.record's path in the state directory dir. */
void rcv_game_copy_path(const char *dir, char *path, size_t size);
/* A record into the game and the recovered journal (its line as read, or made from it when
 * line is NULL).  0, or -1 if it does not fit. */
int rcv_apply(struct replay *rp, const struct game_record *rec, const char *line);

/* recovery_pgn.c: game.pgn read as far as it can be, if it is this game's (NULL: not). */
const struct salvage *rcv_disk(struct replay *rp);
/* game.pgn's move at ply, if it is that of the game's position there. */
chess_move rcv_disk_move(struct replay *rp, int ply);
/* game.pgn's reading of ply (made already), if its move there is the game's; -1: none. */
int64_t rcv_disk_reading(struct replay *rp, int ply);
/* Whether game.pgn is this game's up to ply (but for one move at most). */
bool rcv_disk_agrees(struct replay *rp, int upto);
/* The game from game.pgn alone (neither the journal nor game.record holds its record). */
void rcv_game_from_scoresheet(struct replay *rp);
/* Whether game.pgn holds what the game recovered does not: then it is kept first. */
bool rcv_scoresheet_differs(struct replay *rp);
/* The plies of game.pgn read from the initial position. */
int rcv_sheet_plies(struct replay *rp);
/* The plies game.pgn held beyond the game recovered. */
int rcv_plies_beyond(struct replay *rp);

/* recovery_clock.c: whether the journal's torn last line may have been a press. */
bool rcv_torn_line_may_press(const char *path);
/* The clock put together from the last readings known, if its records were lost. */
void rcv_recover_clock(struct replay *rp, uint64_t ms);

/* recovery_mend.c: the journal at path set aside under games/ if it is another game's. */
void rcv_set_aside_foreign(struct replay *rp, const char *path);

#endif
