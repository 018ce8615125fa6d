/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/store.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileplace.h"
#include "base/log.h"
#include "base/strbuf.h"
#include "store/journal.h"
#include "store/lock.h"
#include "store/recovery.h"
#include "store/sheet.h"
#include "store/state.h"
#include "store/store_int.h"
#include "store/writer.h"

const char *store_saving_error(const struct store *s)
{
	return s->failing ? s->fail_error : NULL;
}

void store_set_notice(struct store *s, void (*notice)(void *user, enum store_notice n), void *user)
{
	s->notice = notice;
	s->notice_user = user;
}

static void lines_clear(struct store *s)
{
	for (size_t i = 0; i < s->nlines; i++)
		free(s->lines[i]);
	s->nlines = s->written = 0;
}

/* Saving failed: said once (log, the arbiter's status, privately to the player); the game
 * goes on in memory. */
void store_saving_failed(struct store *s, const char *what, int err)
{
	snprintf(s->fail_error, sizeof(s->fail_error), "%s: %s", what, strerror(err));
	if (s->failing)
		return;
	s->failing = true;
	log_error(LOG_GAME, "cannot save the game (%s); kept in memory, retried", s->fail_error);
	if (s->notice)
		s->notice(s->notice_user, STORE_NOTICE_FAILING);
}

int store_moves_filled(const struct store *s)
{
	return s->recovery.filled;
}

int store_scoresheet_kept(const struct store *s, const char **path)
{
	if (path)
		*path = s->recovery.scoresheet_kept_path;
	return s->recovery.scoresheet_kept_path[0] || s->recovery.keep_scoresheet
		   ? s->recovery.scoresheet_kept
		   : 0;
}

const struct recovery *store_recovered(const struct store *s)
{
	return &s->recovery;
}

int store_recovery_skipped(const struct store *s)
{
	return recovery_skipped(&s->recovery);
}

const struct journal_stats *store_recovery(const struct store *s)
{
	return &s->recovery.stats;
}

/* The state directory as it is now: what the store writes from here on. */
static void dir_found(struct store *s)
{
	struct stat st;

	if (stat(s->dir, &st))
		return;
	s->dir_known = true;
	s->dir_dev = st.st_dev;
	s->dir_ino = st.st_ino;
}

struct store *store_open(const struct store_config *cfg, struct voice *voice, char *err,
			 size_t err_size)
{
	struct store *s = calloc(1, sizeof(*s));
	char path[PATH_MAX];

	if (!s) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	snprintf(s->dir, sizeof(s->dir), "%s", cfg->dir);
	s->sync = cfg->sync;
	s->record_audio = cfg->record_audio;
	s->keep_audio = cfg->keep_audio ? cfg->keep_audio : 50;
	s->keep_audio_bytes = cfg->keep_audio_bytes;
	s->keep_games = cfg->keep_games > 0 ? cfg->keep_games : -1;
	s->virtual_time = cfg->virtual_time;
	snprintf(s->serial, sizeof(s->serial), "%s", cfg->serial ? cfg->serial : "");
	s->voice = voice;
	s->lock_fd = -1;
	if (cfg->params) {
		s->params = *cfg->params;
		s->have_params = true;
	}
	s->sheet = sheet_new();
	s->writer = s->sheet ? writer_new(cfg->threaded) : NULL;
	s->writer_threaded = cfg->threaded;
	if (!s->writer) {
		snprintf(err, err_size, "%s", s->sheet ? strerror(errno) : "out of memory");
		sheet_free(s->sheet);
		free(s);
		return NULL;
	}
	/* In virtual time a slow sync takes daemon time (the store keeps it unfinished until
	 * then), not real time. */
	state_set_sync_delay_sleeps(cfg->threaded);
	/* A state directory that cannot be written now is written when it can (flush makes
	 * games/ again). */
	snprintf(path, sizeof(path), "%s/games", s->dir);
	if (state_mkdir(path))
		log_error(LOG_GAME, "%s: %s", path, strerror(errno));
	dir_found(s);
	return s;
}

void store_hold_lock(struct store *s, int fd)
{
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	s->lock_fd = fd;
}

void store_free(struct store *s)
{
	if (!s)
		return;
	writer_free(s->writer);
	journal_close(s->journal);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	sheet_free(s->sheet);
	recovery_free(&s->recovery);
	lines_clear(s);
	free(s->lines);
	free(s);
}

static void journal_path(const struct store *s, char *path, size_t size)
{
	snprintf(path, size, "%s/journal", s->dir);
}

/* A copy of the journal's first line, the game record (a journal of one line): everything
 * the game's behaviour depends on, so a damaged first line or an empty journal does not
 * lose the game. */
static void game_copy_path(const struct store *s, char *path, size_t size)
{
	snprintf(path, size, "%s/game.record", s->dir);
}

/* ------------------------------------------------------------------ the journal */

static void ask_sync(struct store *s);

static int open_journal(struct store *s, char *err, size_t err_size)
{
	char path[PATH_MAX];

	journal_path(s, path, sizeof(path));
	s->journal = journal_open(path, s->sync, err, err_size);
	if (!s->journal)
		return -1;
	s->journal_gen++;
	s->sync_asked = journal_size(s->journal);
	s->sync_failed = false;
	return 0;
}

/* The journal file closed; what it holds is synced by the writer (its sync was asked for
 * already), not in the loop. */
static void close_journal(struct store *s)
{
	if (!s->journal)
		return;
	ask_sync(s);
	journal_mark_synced(s->journal, journal_size(s->journal));
	journal_close(s->journal);
	s->journal = NULL;
	s->nslow = 0;
}

/* A finished game's journal is kept under games/, so the next game starts a new one. */
void store_archive_journal(struct store *s)
{
	char from[PATH_MAX], to[PATH_MAX];

	close_journal(s);
	lines_clear(s);
	if (!s->journal_game[0])
		return;
	/* The copy goes first: a power cut between the two leaves the finished game's
	 * journal, never a copy without it. */
	game_copy_path(s, from, sizeof(from));
	if (unlink(from) && errno != ENOENT)
		log_error(LOG_GAME, "cannot remove %s: %s", from, strerror(errno));
	journal_path(s, from, sizeof(from));
	snprintf(to, sizeof(to), "%s/games/%s.journal", s->dir, s->journal_game);
	if (rename(from, to) && errno != ENOENT)
		log_error(LOG_GAME, "cannot keep %s as %s: %s", from, to, strerror(errno));
	s->journal_game[0] = '\0';
}

/* The recovery is itself part of the record: a note in the chain says what it did. */
static void note_recovery(struct store *s)
{
	const struct recovery *rc = &s->recovery;
	const char *kept = rc->damaged_path[0] ? rc->damaged_path + strlen(s->dir) + 1 : "-";

	if (!rc->stats.torn_tail && !recovery_incomplete(rc) && !rc->filled &&
	    !rc->readings_filled && !rc->readings_from_presses && !rc->reordered &&
	    !rc->game_from_copy && !recovery_lost(rc))
		return;
	store_note(s, rc->last_ms,
		   "recovered torn=%s bad=%d duplicates=%d refused=%d reordered=%d filled=%d "
		   "readings=%d presses=%d copy=%s uncertain=%s foreign=%s kept=%s from-pgn=%s "
		   "moves-lost=%d readings-missing=%d",
		   rc->stats.torn_tail ? "yes" : "no", rc->stats.bad, rc->stats.duplicates,
		   rc->stats.refused, rc->reordered, rc->filled, rc->readings_filled,
		   rc->readings_from_presses, rc->game_from_copy ? "yes" : "no",
		   rc->clock_uncertain ? "yes" : "no", rc->foreign_path[0] ? "yes" : "no", kept,
		   rc->from_scoresheet ? "yes" : "no", rc->moves_lost, rc->readings_missing);
}

int store_replay(struct store *s, struct referee *r, char *err, size_t err_size)
{
	const struct game *g = referee_game(r);

	/* A game from game.pgn alone gets a new game's id unless its copy under games/ has
	 * one. */
	if (s->have_params)
		store_new_game(s, &s->params);
	if (recovery_run(&s->recovery, s->dir, s->sync, s->have_params ? &s->params : NULL, r, err,
			 err_size))
		return -1;
	/* The recovered journal's lines are the current game's, all on disk. */
	s->lines = s->recovery.lines;
	s->nlines = s->written = s->recovery.nlines;
	s->lines_cap = s->recovery.lines_cap;
	s->recovery.lines = NULL;
	s->recovery.nlines = s->recovery.lines_cap = 0;
	snprintf(s->journal_game, sizeof(s->journal_game), "%s", s->recovery.game_id);
	s->lag_ms = s->lag_noted_ms = s->recovery.sync_lag_ms;
	/* A finished game's journal stays open for what its end left (a last move's reading)
	 * until the next game's record keeps it under games/.  Storage that cannot be written
	 * (read-only, full; the mending recovery could not write) is no reason not to start:
	 * the game goes on in memory and is written when storage works again. */
	if (!g->open)
		return 0;
	if (recovery_mend_due(&s->recovery)) {
		store_saving_failed(s, "the recovered record", errno ? errno : EIO);
	} else if (open_journal(s, err, err_size)) {
		store_saving_failed(s, "journal", errno);
	}
	note_recovery(s);
	return 0;
}

/* A sync of what the journal holds now, unless one was asked for it already.  Every record
 * is synced, a touch too: a capture in progress depends on its lifts (a power cut that
 * lost the victim's lift left the board after the capture unexplained; check-crash's
 * `crash unsynced` points showed it).  The sync is the writer's: the game goes on while
 * the storage takes its time. */
static void ask_sync(struct store *s)
{
	off_t size;

	if (!s->journal)
		return;
	size = journal_size(s->journal);
	if (size < 0 || (size <= s->sync_asked && !s->sync_failed))
		return;
	if (writer_sync(s->writer, journal_fd(s->journal), size, s->sync, s->journal_gen)) {
		store_saving_failed(s, "journal", errno);
		return;
	}
	s->sync_asked = size;
	s->sync_failed = false;
}

/* The state directory is no longer the one the store writes: the journal removed (the
 * directory deleted), or another file or directory in its place (the storage unmounted
 * and mounted again, empty or as it was; a journal put there by hand).  A directory that
 * cannot be looked at now (EIO) is left to the writes to find. */
static bool storage_changed(struct store *s)
{
	char path[PATH_MAX];
	struct stat now;

	if (s->journal) {
		journal_path(s, path, sizeof(path));
		return !file_in_place(journal_fd(s->journal), path);
	}
	if (!s->dir_known)
		return false;
	if (stat(s->dir, &now))
		return errno == ENOENT;
	return now.st_dev != s->dir_dev || now.st_ino != s->dir_ino;
}

/* The state directory's lock where the store writes now (a directory made again, storage
 * that could not be written at the start).  0, or -1 while another process holds it. */
static int relock(struct store *s)
{
	char why[sizeof(s->dir) + 64];
	pid_t holder;
	int fd;

	if (state_lock_holds(s->lock_fd, s->dir))
		return 0;
	fd = state_lock(s->dir, true, &holder);
	if (fd < 0 && errno == EWOULDBLOCK) {
		snprintf(why, sizeof(why), "%s is in use by process %ld", s->dir, (long)holder);
		store_saving_failed(s, why, EBUSY);
		return -1;
	}
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	s->lock_fd = fd;
	return 0;
}

/* game.record, the copy of the journal's first line (its game record). */
static void write_game_copy(struct store *s, const char *line)
{
	char path[PATH_MAX], *text = strdup(line);

	game_copy_path(s, path, sizeof(path));
	if (!text || writer_replace(s->writer, path, text, strlen(line), s->sync))
		log_warn(LOG_GAME, "%s: %s (the journal keeps the game record)", path,
			 strerror(errno));
}

/* A state directory removed or replaced: the whole record written into it from memory, a
 * journal found there that is not the start of this one (another game's, or one left
 * half-written when the storage went) kept under games/ first.  0, or -1 with errno. */
static int write_whole(struct store *s)
{
	char path[PATH_MAX], kept[PATH_MAX];
	size_t len, old_len = 0;
	char *text = journal_chain_text(s->lines, s->nlines, &len), *old;
	int rc = 0;

	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	journal_path(s, path, sizeof(path));
	old = state_read_file(path, &old_len);
	if (old && old_len && (old_len > len || memcmp(old, text, old_len))) {
		rc = state_keep(s->dir, path, s->journal_game, "replaced", "journal", kept,
				sizeof(kept));
		if (!rc)
			log_warn(LOG_GAME, "%s was not this game's journal: kept as %s", path,
				 kept);
	}
	free(old);
	if (!rc)
		rc = state_write_atomic(path, text, len, s->sync);
	free(text);
	if (rc)
		return -1;
	write_game_copy(s, s->lines[0]);
	log_warn(LOG_GAME, "the whole record written again (%zu records)", s->nlines);
	return 0;
}

/* The journal's lines not yet on disk, written and their sync asked for; all of them again
 * when the state directory was removed or replaced.  0, or -1 (saving failed). */
int store_flush(struct store *s)
{
	char path[PATH_MAX], err[256];
	bool rewritten = false;

	if (storage_changed(s)) {
		log_error(LOG_GAME,
			  "the state directory %s was removed or replaced (storage unmounted, "
			  "mounted again?): the whole record is written again",
			  s->dir);
		if (s->journal) {
			journal_mark_synced(s->journal, journal_size(s->journal));
			journal_close(s->journal);
			s->journal = NULL;
		}
		s->nslow = 0;
		s->written = 0;
		s->rewrite = true;
		s->pgn_due = true;
	}
	if (!s->journal && s->journal_game[0]) {
		snprintf(path, sizeof(path), "%s/games", s->dir);
		if (state_mkdir(path)) {
			store_saving_failed(s, path, errno);
			return -1;
		}
		dir_found(s);
		if (relock(s))
			return -1;
		/* What recovery could not write at the start: the copies it keeps, the journal
		 * written again whole (with every line since). */
		if (recovery_mend_due(&s->recovery)) {
			if (recovery_mend(&s->recovery, s->lines, s->nlines)) {
				store_saving_failed(s, "the recovered record", errno);
				return -1;
			}
			s->written = s->nlines;
		} else if (s->rewrite && s->nlines) {
			if (write_whole(s)) {
				store_saving_failed(s, "journal", errno);
				return -1;
			}
			s->written = s->nlines;
		}
		if (open_journal(s, err, sizeof(err))) {
			store_saving_failed(s, "journal", errno);
			return -1;
		}
		rewritten = s->rewrite;
		s->rewrite = false;
	}
	if (!s->journal)
		return 0;
	for (; s->written < s->nlines; s->written++) {
		if (journal_append_line(s->journal, s->lines[s->written],
					strlen(s->lines[s->written]))) {
			store_saving_failed(s, "journal", errno);
			return -1;
		}
	}
	ask_sync(s);
	store_take_results(s);
	if (s->copy_due && s->nlines) {
		s->copy_due = false;
		write_game_copy(s, s->lines[0]);
	}
	/* The scoresheets went with the directory: written again at once. */
	if (rewritten) {
		if (s->game)
			store_write_pgn(s, s->game, true);
		if (s->notice)
			s->notice(s->notice_user, STORE_NOTICE_REPLACED);
	}
	return s->sync_failed ? -1 : 0;
}

void store_record(struct store *s, const struct game_record *rec)
{
	char args[GAME_RECORD_MAX], line[JOURNAL_LINE_MAX + 1];

	if (rec->type == REC_GAME) {
		store_archive_journal(s);
		snprintf(s->journal_game, sizeof(s->journal_game), "%s", rec->u.game.id);
	}
	if (!s->journal_game[0])
		return;
	if (game_record_encode(rec, args, sizeof(args)) < 0 ||
	    journal_format(line, sizeof(line), rec->ms, game_record_name(rec->type), "%s", args) <
		0) {
		log_error(LOG_GAME, "%s record too long for the journal",
			  game_record_name(rec->type));
		return;
	}
	if (strv_append(&s->lines, &s->nlines, &s->lines_cap, line)) {
		log_error(LOG_GAME, "out of memory: %s record not kept",
			  game_record_name(rec->type));
		return;
	}
	if (rec->type == REC_GAME)
		write_game_copy(s, line);
	s->now = rec->ms;
	s->last_try_ms = rec->ms;
	/* While saving fails, a record waits for the next try with the others. */
	if (s->failing)
		return;
	store_flush(s);
	store_note_lag(s);
}

void store_note(struct store *s, uint64_t ms, const char *fmt, ...)
{
	char text[GAME_RECORD_MAX], line[JOURNAL_LINE_MAX + 1];
	va_list ap;
	int n;

	if (!s->journal_game[0])
		return;
	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(text) ||
	    journal_format(line, sizeof(line), ms, JOURNAL_NOTE_TYPE, "%s", text) < 0 ||
	    strv_append(&s->lines, &s->nlines, &s->lines_cap, line)) {
		log_error(LOG_GAME, "a note of the record could not be kept");
		return;
	}
	if (!s->failing)
		store_flush(s);
}

const char *store_dir(const struct store *s)
{
	return s->dir;
}

const char *store_chain(const struct store *s)
{
	return s->journal ? journal_chain_value(s->journal) : "";
}

long store_journal_line(const struct store *s)
{
	return s->journal ? journal_lines(s->journal) : 0;
}
