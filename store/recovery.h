/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recovery (docs/state.md "State directory"): what survives of the game when the daemon starts. The
 * state directory holds the record twice: the journal (every record, each line checked; its game
 * record copied in game.record) and the scoresheet game.pgn (every move with its [%clk]
 * reading, rewritten after each).  Recovery replays the journal into the referee and puts
 * back from game.pgn what the journal lost, so the longest consistent game of both copies
 * comes back, with every reading either holds:
 *
 *  - a record that does not fit where it stands is tried again after the next one (two
 *    records swapped);
 *  - a move's reading whose `complete` record was lost is the press record's (the referee
 *    makes the one from the other); moves and readings the journal lost are game.pgn's,
 *    read as far as it can be (salvage.h), each only where game.pgn agrees with the game;
 *  - a clock whose records were lost resumes from the last reading known for each side
 *    (journal or game.pgn), stopped and marked uncertain (a `checkpoint recovered`
 *    record) until the arbiter resumes or sets it: a reading on disk is never changed and
 *    none is made up;
 *  - a journal of another game with the same id (its game record is not game.record's, or
 *    its moves are not game.pgn's) is set aside under games/ and the game of game.record and
 *    game.pgn resumes; the arbiter chooses (`annabella fsck --use`);
 *  - when neither the journal nor game.record holds the game record (both lost: deleted,
 *    emptied, or each with a bad byte, as one damaged region of a card can take both),
 *    an unfinished game.pgn is the game: its start position, time control and tags, the
 *    rest (the player's colour, mode, edition) the device's settings for a new game, its id
 *    its copy's under games/ when one is found; the arbiter is asked to check it.
 *
 * Every file recovery changes is kept under games/ first: the damaged journal
 * (ID-damaged-N.journal) before the mended one replaces it, game.pgn
 * (ID-before-recovery-N.pgn) when the game recovered is not what it holds (fewer or other
 * moves, readings or tags, a comment or tag that cannot be read, the only copy of a game, or
 * a game that is no other file's under games/ and is not resumed).  When storage cannot be
 * written (read-only, full), the mending waits: recovery_mend() again.
 */
#ifndef ANNABELLA_RECOVERY_H
#define ANNABELLA_RECOVERY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "store/journal.h"
#include "referee/referee.h"

struct recovery {
	struct journal_stats stats; /* what reading the journal found */
	char game_id[GAME_ID_MAX];  /* the game whose records the journal holds ("": none) */
	bool game_from_copy;	    /* its game record came from game.record */
	bool from_scoresheet;	    /* ... or from game.pgn alone (both copies of it lost) */
	int filled;		    /* move records put back from game.pgn */
	int readings_filled;	    /* readings put back from game.pgn */
	int readings_from_presses;  /* readings put back from their press records */
	int reordered;		    /* records that fitted after the next one */
	bool clock_uncertain;	    /* the clock was put together from the last readings */
	int moves_lost;		    /* plies game.pgn held beyond the game recovered */
	int readings_missing;	    /* moves completed without a reading because the records that
				       would tell were lost (no complete, press or game.pgn reading) */
	uint64_t last_ms;	    /* the time of the last record recovered */
	/* The longest a record waited to reach storage, as the journal noted it (`journal
	 * sync latency=MS`; 0: not noted). */
	uint32_t sync_lag_ms;
	/* game.pgn was kept before recovery changed it: the plies it held, and where
	 * (games/ID-before-recovery-N.pgn); "" until it is kept. */
	int scoresheet_kept;
	char scoresheet_kept_path[PATH_MAX];
	/* A journal of another game set aside (games/ID-foreign-N.journal), or "". */
	char foreign_path[PATH_MAX];
	/* The recovered journal, line by line (with their newlines), as the file holds it
	 * after recovery. */
	char **lines;
	size_t nlines, lines_cap;
	/* Mending that could not be written yet (storage failing): the journal to write again
	 * whole, game.pgn to keep first, game.record to write again (from the first line);
	 * the damaged journal kept as ("" until it is). */
	bool mend_journal, keep_scoresheet, write_copy;
	char damaged_path[PATH_MAX];
	char dir[256];
	bool sync;
};

/*
 * Recover the game of the state directory `dir` into the referee (which has no game yet).
 * sync: what recovery writes is synced.  params: a new game's settings with its id (what a
 * game resumed from game.pgn alone takes for what game.pgn does not say; NULL: none is).
 * 0, or -1 with a message in err when the journal cannot be read at all.  Free with
 * recovery_free().
 */
int recovery_run(struct recovery *rc, const char *dir, bool sync, const struct game_params *params,
		 struct referee *r, char *err, size_t err_size);
/* The mending recovery_run() could not write: the copies kept, the journal written again
 * from `lines` (the store's: the recovered lines and what was added since).  0 when nothing
 * is left to do, -1 with errno while storage fails. */
int recovery_mend(struct recovery *rc, char *const *lines, size_t nlines);
bool recovery_mend_due(const struct recovery *rc);
void recovery_free(struct recovery *rc);
/* Records skipped: not read, duplicated, or not fitting the game. */
int recovery_skipped(const struct recovery *rc);
/* Whether recovery did anything the record should note (store.c: the `recovered` note). */
bool recovery_incomplete(const struct recovery *rc);
/* Whether a move or a reading was lost, or what came back needs the arbiter (a clock put
 * together, another game's journal set aside, a game from game.pgn alone): said to the
 * player, with what. */
bool recovery_lost(const struct recovery *rc);

#endif
