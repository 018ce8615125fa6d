/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recovery (DESIGN 4.4): what survives of the game when the daemon starts.  The state
 * directory's copies of the record are read (the journal, the copy of its game record in
 * game.record, the scoresheet game.pgn) and the game they hold is replayed into the
 * referee: every journal record that can be read and fits the game, the records the journal
 * lost put back from the other copies.  A journal that needed mending is written again
 * whole, and every file recovery changes is kept under games/ first.
 */
#ifndef ANNABELLA_RECOVERY_H
#define ANNABELLA_RECOVERY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "daemon/journal.h"
#include "game/referee.h"

struct recovery {
	struct journal_stats stats; /* what reading the journal found */
	char game_id[GAME_ID_MAX];  /* the game whose records the journal holds ("": none) */
	bool game_from_copy;	    /* its game record came from game.record */
	int filled;		    /* move records put back from game.pgn */
	/* game.pgn held more plies than the journal gave back: how many, and where it is
	 * kept (games/ID-before-recovery-N.pgn) */
	int scoresheet_kept;
	char scoresheet_kept_path[PATH_MAX];
	/* The recovered journal, line by line (with their newlines), as the file holds it
	 * after recovery. */
	char **lines;
	size_t nlines, lines_cap;
};

/*
 * Recover the game of the state directory `dir` into the referee (which has no game yet).
 * sync: the mended journal is synced.  0, or -1 with a message in err when the journal
 * cannot be read at all.  Free with recovery_free().
 */
int recovery_run(struct recovery *rc, const char *dir, bool sync, struct referee *r, char *err,
		 size_t err_size);
void recovery_free(struct recovery *rc);
/* Records skipped: not read, duplicated, or not fitting the game. */
int recovery_skipped(const struct recovery *rc);

#endif
