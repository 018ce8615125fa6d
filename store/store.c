/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/store.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/fileplace.h"
#include "base/log.h"
#include "base/strbuf.h"
#include "chess/pgn.h"
#include "store/journal.h"
#include "store/lock.h"
#include "store/recovery.h"
#include "store/sheet.h"
#include "store/state.h"
#include "store/writer.h"

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
static void saving_failed(struct store *s, const char *what, int err)
{
	snprintf(s->fail_error, sizeof(s->fail_error), "%s: %s", what, strerror(err));
	if (s->failing)
		return;
	s->failing = true;
	log_error(LOG_GAME, "cannot save the game (%s); kept in memory, retried", s->fail_error);
	if (s->notice)
		s->notice(s->notice_user, STORE_NOTICE_FAILING);
}

static void saving_works(struct store *s)
{
	if (!s->failing)
		return;
	s->failing = false;
	log_info(LOG_GAME, "saving works again: the game is on disk whole");
	if (s->notice)
		s->notice(s->notice_user, STORE_NOTICE_WORKS);
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
static void archive_journal(struct store *s)
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
		saving_failed(s, "the recovered record", errno ? errno : EIO);
	} else if (open_journal(s, err, err_size)) {
		saving_failed(s, "journal", errno);
	}
	note_recovery(s);
	return 0;
}

static int write_pgn(struct store *s, const struct game *g, bool archive_copy);

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
		saving_failed(s, "journal", errno);
		return;
	}
	s->sync_asked = size;
	s->sync_failed = false;
}

static void take_results(struct store *s);
static void note_lag(struct store *s);

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
		saving_failed(s, why, EBUSY);
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
static int flush(struct store *s)
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
			saving_failed(s, path, errno);
			return -1;
		}
		dir_found(s);
		if (relock(s))
			return -1;
		/* What recovery could not write at the start: the copies it keeps, the journal
		 * written again whole (with every line since). */
		if (recovery_mend_due(&s->recovery)) {
			if (recovery_mend(&s->recovery, s->lines, s->nlines)) {
				saving_failed(s, "the recovered record", errno);
				return -1;
			}
			s->written = s->nlines;
		} else if (s->rewrite && s->nlines) {
			if (write_whole(s)) {
				saving_failed(s, "journal", errno);
				return -1;
			}
			s->written = s->nlines;
		}
		if (open_journal(s, err, sizeof(err))) {
			saving_failed(s, "journal", errno);
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
			saving_failed(s, "journal", errno);
			return -1;
		}
	}
	ask_sync(s);
	take_results(s);
	if (s->copy_due && s->nlines) {
		s->copy_due = false;
		write_game_copy(s, s->lines[0]);
	}
	/* The scoresheets went with the directory: written again at once. */
	if (rewritten) {
		if (s->game)
			write_pgn(s, s->game, true);
		if (s->notice)
			s->notice(s->notice_user, STORE_NOTICE_REPLACED);
	}
	return s->sync_failed ? -1 : 0;
}

void store_record(struct store *s, const struct game_record *rec)
{
	char args[GAME_RECORD_MAX], line[JOURNAL_LINE_MAX + 1];

	if (rec->type == REC_GAME) {
		archive_journal(s);
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
	flush(s);
	note_lag(s);
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
		flush(s);
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

/* Saving works again once every line is written, its sync done, and no scoresheet waits. */
static void check_works(struct store *s)
{
	if (s->failing && s->written == s->nlines && !s->sync_failed && !s->pgn_due &&
	    (!s->journal || s->sync_asked >= journal_size(s->journal)))
		saving_works(s);
}

/* Virtual time: a sync that takes its `disk slow` time in daemon time, after the one under
 * way; one waiting already takes this one in (the writer merges them so). */
static void slow_sync(struct store *s, off_t upto)
{
	uint64_t start;

	if (s->nslow == STORE_SLOW_SYNCS) {
		if (upto > s->slow[s->nslow - 1].upto)
			s->slow[s->nslow - 1].upto = upto;
		return;
	}
	start = s->nslow ? s->slow[s->nslow - 1].due : s->now;
	if (start < s->now)
		start = s->now;
	s->slow[s->nslow++] =
	    (struct slow_sync){.upto = upto, .due = start + state_sync_delay(), .asked = s->now};
}

/* The longest a record has waited to reach storage, noted in the journal whenever it has
 * grown (by a tenth, 10 ms at least): a restart's bound of the time it gives back covers it
 * (recovery reads the notes). */
static void note_lag(struct store *s)
{
	uint32_t step = s->lag_noted_ms / 10 > 10 ? s->lag_noted_ms / 10 : 10;

	if (s->lag_ms < s->lag_noted_ms + step || s->failing || !s->journal_game[0])
		return;
	s->lag_noted_ms = (s->lag_ms + 9) / 10 * 10;
	store_note(s, s->now, "sync latency=%" PRIu32, s->lag_noted_ms);
}

/* What the writer finished: a sync's place on storage (in virtual time once its `disk
 * slow` time has come), a failure said and tried again. */
static void take_results(struct store *s)
{
	struct writer_result res[16];
	int n;

	while ((n = writer_results(s->writer, res, 16)) > 0) {
		for (int i = 0; i < n; i++) {
			const struct writer_result *r = &res[i];

			if (r->kind == WRITER_SYNC) {
				if (r->tag != s->journal_gen || !s->journal)
					continue;
				if (r->err) {
					s->sync_failed = true;
					saving_failed(s, "journal", r->err);
					continue;
				}
				if (!s->writer_threaded && state_sync_delay()) {
					slow_sync(s, r->upto);
				} else {
					journal_mark_synced(s->journal, r->upto);
					/* In virtual time a sync takes no daemon time but its
					 * `disk slow` delay (slow_sync): the machine's own time
					 * for it (a loaded machine, valgrind) is not the game's. */
					if (s->writer_threaded && r->latency_ms > s->lag_ms)
						s->lag_ms = r->latency_ms;
				}
				continue;
			}
			if (!r->err) {
				if (strstr(r->path, "/game.pgn"))
					s->pgn_due = false;
				continue;
			}
			if (strstr(r->path, "/game.record")) {
				log_warn(LOG_GAME, "%s: %s (the journal keeps the game record)",
					 r->path, strerror(r->err));
				s->copy_due = true;
				continue;
			}
			s->pgn_due = true;
			saving_failed(s, r->path, r->err);
		}
	}
	check_works(s);
}

int store_fd(const struct store *s)
{
	return writer_fd(s->writer);
}

void store_service(struct store *s, uint64_t now)
{
	s->now = now;
	take_results(s);
	note_lag(s);
}

uint64_t store_deadline(const struct store *s)
{
	uint64_t t = s->failing ? s->last_try_ms + STORE_RETRY_MS : UINT64_MAX;

	if (s->nslow && s->slow[0].due < t)
		t = s->slow[0].due;
	return t;
}

void store_tick(struct store *s, uint64_t now)
{
	s->now = now;
	while (s->nslow && s->slow[0].due <= now) {
		if (s->journal)
			journal_mark_synced(s->journal, s->slow[0].upto);
		if (s->slow[0].due - s->slow[0].asked > s->lag_ms)
			s->lag_ms = (uint32_t)(s->slow[0].due - s->slow[0].asked);
		memmove(s->slow, s->slow + 1, sizeof(s->slow[0]) * (size_t)--s->nslow);
	}
	note_lag(s);
	if (!s->failing || now < s->last_try_ms + STORE_RETRY_MS)
		return;
	s->last_try_ms = now;
	if (flush(s))
		return;
	if (s->pgn_due && s->game)
		write_pgn(s, s->game, game_over(s->game));
	take_results(s);
}

static int next_game_number(const char *games_dir)
{
	DIR *d = opendir(games_dir);
	struct dirent *e;
	int best = 0;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		int n;

		if (sscanf(e->d_name, "game-%d.", &n) == 1 && n > best)
			best = n;
	}
	closedir(d);
	return best + 1;
}

void store_new_game(struct store *s, struct game_params *p)
{
	char games[PATH_MAX];

	snprintf(games, sizeof(games), "%s/games", s->dir);
	snprintf(p->id, sizeof(p->id), "game-%04d", next_game_number(games));
	if (!s->virtual_time) {
		time_t t = time(NULL);
		struct tm tm;
		char date[16], stamp[20], host[64] = "board";
		unsigned short rnd = 0;
		size_t n = strlen(p->id);

		localtime_r(&t, &tm);
		strftime(date, sizeof(date), "%Y.%m.%d", &tm);
		game_params_set_tag(p, "Date", date);
		/* Unique across boards and time: the number, this board's name, the start time
		 * and a random part, so a journal or archive from another board never takes
		 * this game's place. */
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
		if (gethostname(host, sizeof(host) - 1))
			snprintf(host, sizeof(host), "board");
		for (char *c = host; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			      (*c >= '0' && *c <= '9')))
				*c = '_';
		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
			rnd = (unsigned short)(t ^ getpid());
		snprintf(p->id + n, sizeof(p->id) - n, "-%.12s-%s-%04x", host, stamp, rnd);
	}
}

/* ------------------------------------------------------------------ the scoresheet */

static int write_pgn(struct store *s, const struct game *g, bool archive_copy)
{
	char path[PATH_MAX];
	char *text, *copy;
	size_t len;
	int rc = 0;

	if (!g->open)
		return 0;
	s->game = g;
	/* game.pgn is kept before it is written again (recovery); until then it waits. */
	if (s->recovery.keep_scoresheet) {
		s->pgn_due = true;
		return -1;
	}
	text = sheet_text(s->sheet, g,
			  &(struct sheet_anchor){.serial = s->serial,
						 .chain = store_chain(s),
						 .line = store_journal_line(s)});
	if (!text) {
		log_error(LOG_GAME, "cannot make the scoresheet (out of memory)");
		return -1;
	}
	/* The writer writes and syncs them off the loop; a failure comes back as its result. */
	len = strlen(text);
	copy = archive_copy ? strdup(text) : NULL;
	snprintf(path, sizeof(path), "%s/game.pgn", s->dir);
	if (writer_replace(s->writer, path, text, len, s->sync)) {
		saving_failed(s, "game.pgn", errno);
		rc = -1;
	}
	snprintf(path, sizeof(path), "%s/games/%s.pgn", s->dir, g->params.id);
	if (archive_copy && (!copy || writer_replace(s->writer, path, copy, len, s->sync))) {
		saving_failed(s, path, copy ? errno : ENOMEM);
		rc = -1;
	}
	if (rc)
		s->pgn_due = true;
	take_results(s);
	return rc;
}

void store_scoresheet(struct store *s, const struct game *g)
{
	write_pgn(s, g, game_over(g));
}

static int newer_first(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/* games/ keeps the last `keep` games' files with this suffix (their names sort by game
 * number); older ones go.  The game being played is never among them. */
static void prune(struct store *s, const char *suffix, int keep, const char *current)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	char **names = NULL;
	size_t n = 0, cap = 0, sl = strlen(suffix);
	struct dirent *e;
	DIR *d;

	if (keep < 0)
		return;
	snprintf(dir, sizeof(dir), "%s/games", s->dir);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (strncmp(e->d_name, "game-", 5) || l <= sl ||
		    strcmp(e->d_name + l - sl, suffix) ||
		    (current[0] && !strncmp(e->d_name, current, strlen(current))))
			continue;
		if (n == cap) {
			char **more = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));

			if (!more)
				break;
			names = more;
		}
		if (!(names[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), newer_first);
	for (size_t i = 0; i < n; i++) {
		if ((int)i >= keep) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			if (unlink(path) == 0)
				log_info(LOG_GAME, "removed %s (kept the last %d)", path, keep);
		}
		free(names[i]);
	}
	free(names);
}

/* The finished games' audio records (games/game-*.opus, and the .wav of earlier versions):
 * the newest keep_audio of them, together at most keep_audio_bytes less the room the game
 * in progress keeps (as large as the largest record, at least STORE_AUDIO_ROOM); and
 * fewer while the file system has less than that room free.  The oldest go first. */
#define STORE_AUDIO_ROOM (2u * 1000 * 1000)

struct audio_file {
	char name[NAME_MAX + 1];
	uint64_t size;
};

static int audio_newer_first(const void *a, const void *b)
{
	return strcmp(((const struct audio_file *)b)->name, ((const struct audio_file *)a)->name);
}

static void prune_audio(struct store *s, const char *current)
{
	char dir[PATH_MAX], path[PATH_MAX + NAME_MAX + 2];
	struct audio_file *files = NULL;
	size_t n = 0, cap = 0, kept = 0;
	uint64_t room = STORE_AUDIO_ROOM, total = 0, free_bytes = UINT64_MAX;
	struct statvfs fs;
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/games", s->dir);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		struct stat st;

		if (strncmp(e->d_name, "game-", 5) ||
		    (!(l > 5 && !strcmp(e->d_name + l - 5, ".opus")) &&
		     !(l > 4 && !strcmp(e->d_name + l - 4, ".wav"))) ||
		    (current[0] && !strncmp(e->d_name, current, strlen(current))) ||
		    fstatat(dirfd(d), e->d_name, &st, 0))
			continue;
		if (n == cap) {
			struct audio_file *more =
			    realloc(files, (cap = cap ? cap * 2 : 64) * sizeof(*files));

			if (!more)
				break;
			files = more;
		}
		snprintf(files[n].name, sizeof(files[n].name), "%s", e->d_name);
		files[n++].size = (uint64_t)st.st_size;
		if ((uint64_t)st.st_size > room)
			room = (uint64_t)st.st_size;
	}
	closedir(d);
	if (n)
		qsort(files, n, sizeof(*files), audio_newer_first);
	if (statvfs(dir, &fs) == 0)
		free_bytes = (uint64_t)fs.f_bavail * fs.f_frsize;
	while (kept < n && (s->keep_audio < 0 || kept < (size_t)s->keep_audio) &&
	       (!s->keep_audio_bytes || total + files[kept].size + room <= s->keep_audio_bytes))
		total += files[kept++].size;
	while (kept > 0 && free_bytes < room) {
		free_bytes += files[--kept].size;
		total -= files[kept].size;
	}
	for (size_t i = kept; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
		if (unlink(path) == 0)
			log_info(LOG_GAME,
				 "removed %s (kept the last %zu, %llu MB; %llu MB kept for the "
				 "game in progress)",
				 path, kept, (unsigned long long)(total / 1000000),
				 (unsigned long long)(room / 1000000));
	}
	free(files);
}

void store_game_start(struct store *s, const struct game *g)
{
	/* The finished games' files beyond what is kept go (the audio is the large part; PGN
	 * and journals are small and all kept unless told otherwise). */
	prune_audio(s, g->params.id);
	prune(s, ".pgn", s->keep_games, g->params.id);
	prune(s, ".journal", s->keep_games, g->params.id);
	if (s->voice && s->record_audio) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/games/%s.opus", s->dir, g->params.id);
		voice_record_to(s->voice, path);
	}
	write_pgn(s, g, true);
}

void store_close(struct store *s, const struct game *g)
{
	flush(s);
	write_pgn(s, g, true);
	writer_drain(s->writer);
	take_results(s);
	if (s->written < s->nlines)
		log_error(LOG_GAME, "%zu journal records could not be saved before the stop",
			  s->nlines - s->written);
	/* A game whose result is approved is done: its journal is kept under games/.  One
	 * still waiting for approval (8.7) is resumed at the next start. */
	if (g->open && g->result.state == RESULT_APPROVED)
		archive_journal(s);
}

const struct pgn_game *store_pgn(const struct store *s)
{
	return sheet_pgn(s->sheet);
}
