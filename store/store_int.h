/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The store's inside, shared by its files (docs/state.md "State directory"): store.c (the
 * store opened and freed, the recovery at the start, the journal's lines written and synced,
 * the whole record written again into a directory made anew), store_sync.c (what the writer
 * finished: syncs in place, in virtual time after their `disk slow` time, the lag noted,
 * saving tried again) and store_game.c (a new game's id, the scoresheets written, the
 * finished games' files pruned, the stop).  Internal to store/store*.c.
 */
#ifndef ANNABELLA_STORE_INT_H
#define ANNABELLA_STORE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "store/recovery.h"
#include "store/store.h"

/* Syncs taking their time at once in virtual time, as on the writer's thread: one under way
 * and one waiting, into which later ones are merged (writer.h). */
#define STORE_SLOW_SYNCS 2

struct store {
	char dir[256];
	char serial[64]; /* the device's, for the finished game's scoresheet */
	bool sync, record_audio, virtual_time;
	int keep_audio, keep_games;
	uint64_t keep_audio_bytes;
	struct voice *voice;
	struct game_params params; /* a new game's settings */
	bool have_params;
	int lock_fd; /* the state directory's lock (lock.h), -1 while none is held */
	/* The state directory as last made or found (device and inode): another in its place
	 * is storage unmounted and mounted again. */
	bool dir_known;
	dev_t dir_dev;
	ino_t dir_ino;
	/* The directory was removed or replaced: the whole record is written again. */
	bool rewrite;
	bool copy_due; /* game.record could not be written: again with the next record */
	struct journal *journal;
	char journal_game[GAME_ID_MAX]; /* the game whose records the journal file holds */
	struct sheet *sheet;		/* the scoresheet as last written */
	struct recovery recovery;	/* what recovery found at start */
	/* The current game's journal lines, all of them: the ones not yet on disk are written
	 * when storage works again, and all of them if the file was removed. */
	char **lines;
	size_t nlines, lines_cap, written;
	/* The syncs of the journal, done by the writer off the loop: the journal file's
	 * generation (a sync's result for an older file is no news), the size the last sync
	 * asked for, and whether the last one failed. */
	struct writer *writer;
	bool writer_threaded;
	uint64_t journal_gen;
	off_t sync_asked;
	bool sync_failed;
	/* Virtual time: syncs the writer finished that still take their `disk slow` time
	 * (the journal counts as synced up to `upto` once `due` has come). */
	struct slow_sync {
		off_t upto;
		uint64_t due;
		uint64_t asked; /* when the first of the syncs it stands for was asked */
	} slow[STORE_SLOW_SYNCS];
	int nslow;
	/* The longest a record waited to reach storage (a sync's time from its asking, in the
	 * writer's queue and on storage), and what the journal noted of it last. */
	uint32_t lag_ms, lag_noted_ms;
	uint64_t now; /* the daemon time of the last record or tick */
	/* Saving fails: since when, why; the scoresheet to write again. */
	bool failing;
	char fail_error[128];
	uint64_t last_try_ms;
	bool pgn_due;
	const struct game *game;
	void (*notice)(void *user, enum store_notice n);
	void *notice_user;
};

/* store.c: saving failed (what, errno err): said once; the game goes on in memory. */
void store_saving_failed(struct store *s, const char *what, int err);
/* The journal's lines not yet on disk written and their sync asked for (all of them when
 * the state directory was removed or replaced).  0, or -1 (saving failed). */
int store_flush(struct store *s);
/* A finished game's journal kept under games/ (game.record removed first). */
void store_archive_journal(struct store *s);

/* store_sync.c: what the writer finished taken in. */
void store_take_results(struct store *s);
/* The longest a record waited to reach storage, noted in the journal when it has grown. */
void store_note_lag(struct store *s);

/* store_game.c: game.pgn written (and its copy games/ID.pgn with archive_copy).  0, or -1
 * (it waits: written again when it can). */
int store_write_pgn(struct store *s, const struct game *g, bool archive_copy);

#endif
