/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game's files in the state directory (docs/state.md "State directory"): the journal the
 * referee's records go to (one per game; a finished game's is kept under games/), game.pgn
 * rewritten from the game after every change (sheet.h), its copy and the public audio record under
 * games/. What survives at start is recovery's to decide (recovery.h); the store writes, keeps what
 * could not be written, and tries again.
 */
#ifndef ANNABELLA_STORE_H
#define ANNABELLA_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "chess/pgn.h"
#include "referee/referee.h"
#include "voice/voice.h"

struct store_config {
	const char *dir;
	bool sync;	   /* sync every journal record and scoresheet to storage */
	bool record_audio; /* keep each game's public announcements (D.2.7) */
	bool virtual_time; /* dates are unknown in virtual time */
	bool threaded;	   /* syncs and scoresheets written on a thread of their own (writer.h) */
	int keep_audio;	   /* finished games whose audio record is kept (-1: all; 0: default 50) */
	/* The finished games' audio records together at most this (0: no bound); the game in
	 * progress keeps room besides (store.c, docs/state.md "State directory"). */
	uint64_t keep_audio_bytes;
	int keep_games; /* finished games whose PGN and journal are kept (-1 or 0: all) */
	const char
	    *serial; /* the device's serial, in the finished game's scoresheet (NULL: none) */
	/* A new game's settings (NULL: none): a game resumed from game.pgn alone takes from
	 * them what game.pgn does not say (the player's colour, mode, edition). */
	const struct game_params *params;
};

struct store;

/* NULL with a message in err if the directory cannot be made. */
struct store *store_open(const struct store_config *cfg, struct voice *voice, char *err,
			 size_t err_size);
void store_free(struct store *s);
/* The state directory's lock (lock.h) the caller took, fd (-1: none could be taken yet, on
 * read-only storage): the store holds it from now on (closed by store_free()), takes it
 * once storage can be written, and takes it again in a directory it makes again. */
void store_hold_lock(struct store *s, int fd);
/* Replay the journal into the referee: every record that can be read and fits the game;
 * the others are skipped and reported (log; store_recovery()).  0, or -1 with a message in
 * err when the journal cannot be read at all. */
int store_replay(struct store *s, struct referee *r, char *err, size_t err_size);
/* What the replay at start skipped (records not read, duplicated, or not fitting). */
struct journal_stats;
const struct journal_stats *store_recovery(const struct store *s);
int store_recovery_skipped(const struct store *s);
/*
 * Saving: a failed or short write (disk full, EIO, read-only, the state directory removed)
 * is found where it happens (a journal record's write in the loop, a sync or a scoresheet
 * when the writer reports it); the game goes on in memory, the records wait, and every
 * STORE_RETRY_MS the store tries again: the journal's missing lines, then the scoresheet.
 * The notice is called once when saving starts failing and once when it works again.
 *
 * A state directory that is no longer the one the store writes (the journal removed, or
 * another file or directory in its place: a card pulled and put back, empty or as it was;
 * a journal put there by hand) is found at the next record: the directory is made again,
 * locked again, and the whole record written into it from memory (a journal found there
 * that is not the start of this one is kept under games/ first), then the scoresheets.
 */
#define STORE_RETRY_MS 2000u
enum store_notice {
	STORE_NOTICE_FAILING = 0, /* saving fails (once, until it works again) */
	STORE_NOTICE_WORKS,	  /* it works again: everything is written */
	STORE_NOTICE_REPLACED,	  /* the state directory was removed or replaced (storage
				     unmounted, mounted again): the whole record written again */
};
void store_set_notice(struct store *s, void (*notice)(void *user, enum store_notice n), void *user);
/* Why saving fails now, or NULL when it works. */
const char *store_saving_error(const struct store *s);
/* The store as a loop source: the writer's descriptor (-1 without a thread), readable when
 * it finished something; when the store must act next (a retry; in virtual time, a slow
 * sync that finishes; UINT64_MAX: nothing waits), and the action. */
int store_fd(const struct store *s);
void store_service(struct store *s, uint64_t now);
uint64_t store_deadline(const struct store *s);
void store_tick(struct store *s, uint64_t now);
/* Move records the journal had lost, put back from game.pgn at start. */
int store_moves_filled(const struct store *s);
/* The plies game.pgn held when recovery kept it before writing it again (the journal gave
 * back fewer, or it was damaged, or it held other moves or readings; 0 if it was not), and
 * where that scoresheet is kept (games/ID-before-recovery-N.pgn; "" while storage fails). */
int store_scoresheet_kept(const struct store *s, const char **path);
/* Everything recovery found at start (recovery.h). */
struct recovery;
const struct recovery *store_recovered(const struct store *s);

/* The referee's sink: a record goes to the journal (a game record starts a new journal
 * and keeps the finished game's under games/); a new game gets its id and date. */
void store_record(struct store *s, const struct game_record *rec);
void store_new_game(struct store *s, struct game_params *params);
/* A game begins or resumes: its audio record, its scoresheet and the copy. */
void store_game_start(struct store *s, const struct game *g);
/* game.pgn again (and its copy under games/ once the game is over). */
void store_scoresheet(struct store *s, const struct game *g);
/* The daemon stops: everything written; the journal of a game whose result is approved
 * kept under games/. */
void store_close(struct store *s, const struct game *g);
/* A note of the record's own in the journal (store/journal.h: the device, the audit's
 * anchors), chained with the game's records; nothing without a game.  TEXT is `WORD ...`. */
void store_note(struct store *s, uint64_t ms, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The journal's chain value as it stands (hex), "" without a journal, and the line it
 * stands after (0 without a journal). */
const char *store_chain(const struct store *s);
long store_journal_line(const struct store *s);
/* The state directory. */
const char *store_dir(const struct store *s);
/* The scoresheet as last written (after store_scoresheet()). */
const struct pgn_game *store_pgn(const struct store *s);

#endif
