/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/store.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "chess/pgn.h"
#include "daemon/journal.h"
#include "daemon/state.h"

struct store {
	char dir[256];
	char serial[64];	     /* the device's, for the finished game's scoresheet */
	char damaged_kept[PATH_MAX]; /* where a damaged journal was kept at start, or "" */
	bool sync, record_audio, virtual_time;
	int keep_audio, keep_games;
	struct voice *voice;
	struct journal *journal;
	char journal_game[GAME_ID_MAX]; /* the game whose records the journal file holds */
	/* The scoresheet as last written, kept up to date from the game move by move, so a
	 * long game costs no more per move than a short one. */
	struct pgn_game pgn;
	bool pgn_ready;
	char pgn_game_id[GAME_ID_MAX];
	/* What each ply's comment was made from, so only changed comments are made again. */
	struct game_ply *marks;
	int marks_count, marks_capacity;
	struct game_params tagged;     /* the tags last given to the scoresheet */
	int notes_seen;		       /* the game's notes when the comments were last made */
	struct journal_stats recovery; /* what reading the journal at start found */
	/* game.pgn held more plies than the journal gave back: how many, and where it is kept */
	int scoresheet_kept;
	char scoresheet_kept_path[PATH_MAX];
	/* At start: the moves of the unfinished game in game.pgn, to put back move records the
	 * journal lost (filled: how many were). */
	struct pgn_game disk;
	bool disk_ready;
	int filled;
	bool game_from_copy; /* the game record came from game.record */
	/* The current game's journal lines, all of them: the ones not yet on disk are written
	 * when storage works again, and all of them if the file was removed. */
	char **lines;
	size_t nlines, lines_cap, written;
	/* Saving fails: since when, why; the scoresheet to write again. */
	bool failing;
	char fail_error[128];
	uint64_t last_try_ms;
	bool pgn_due;
	const struct game *game;
	void (*notice)(void *user, bool failing);
	void *notice_user;
};

const char *store_saving_error(const struct store *s)
{
	return s->failing ? s->fail_error : NULL;
}

void store_set_notice(struct store *s, void (*notice)(void *user, bool failing), void *user)
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

static int lines_add(struct store *s, const char *line)
{
	char *copy = strdup(line);

	if (!copy)
		return -1;
	if (s->nlines == s->lines_cap) {
		size_t cap = s->lines_cap ? s->lines_cap * 2 : 256;
		char **l = realloc(s->lines, cap * sizeof(*l));

		if (!l) {
			free(copy);
			return -1;
		}
		s->lines = l;
		s->lines_cap = cap;
	}
	s->lines[s->nlines++] = copy;
	return 0;
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
		s->notice(s->notice_user, true);
}

static void saving_works(struct store *s)
{
	if (!s->failing)
		return;
	s->failing = false;
	log_info(LOG_GAME, "saving works again: the game is on disk whole");
	if (s->notice)
		s->notice(s->notice_user, false);
}

int store_moves_filled(const struct store *s)
{
	return s->filled;
}

int store_scoresheet_kept(const struct store *s, const char **path)
{
	if (path)
		*path = s->scoresheet_kept_path;
	return s->scoresheet_kept;
}

int store_recovery_skipped(const struct store *s)
{
	return s->recovery.bad + s->recovery.duplicates + s->recovery.refused;
}

const struct journal_stats *store_recovery(const struct store *s)
{
	return &s->recovery;
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
	s->keep_games = cfg->keep_games > 0 ? cfg->keep_games : -1;
	s->virtual_time = cfg->virtual_time;
	snprintf(s->serial, sizeof(s->serial), "%s", cfg->serial ? cfg->serial : "");
	s->voice = voice;
	snprintf(path, sizeof(path), "%s/games", s->dir);
	if (state_mkdir(path)) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		free(s);
		return NULL;
	}
	return s;
}

void store_free(struct store *s)
{
	if (!s)
		return;
	journal_close(s->journal);
	if (s->pgn_ready)
		pgn_game_free(&s->pgn);
	free(s->marks);
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

/* ------------------------------------------------------------------ replay */

struct replay {
	struct store *s;
	struct referee *r;
	bool copy_tried;
	bool unfinished_only; /* the journal was empty: a finished game stays in games/ */
};

static int replay_record(void *user, const struct journal_record *jr, char *why, size_t why_size);
static int pgn_file_plies_ex(const char *path, bool *finished);

static int replay_game_copy(void *user, const struct journal_record *jr, char *why, size_t why_size)
{
	struct replay *rp = user;
	struct game_record rec;
	char archived[PATH_MAX];

	if (strcmp(jr->type, "game")) {
		snprintf(why, why_size, "not a game record");
		return -1;
	}
	if (rp->unfinished_only &&
	    !game_record_decode(&rec, jr->type, jr->args, jr->ms, why, why_size)) {
		bool ended = false;

		snprintf(archived, sizeof(archived), "%s/games/%s.pgn", rp->s->dir, rec.u.game.id);
		pgn_file_plies_ex(archived, &ended);
		if (ended) {
			snprintf(why, why_size, "game %s has ended (kept as %s)", rec.u.game.id,
				 archived);
			return -1;
		}
	}
	return replay_record(user, jr, why, why_size);
}

/* The game record from its copy, when the journal has none that can be read. */
static void game_from_copy(struct replay *rp)
{
	char path[PATH_MAX], err[256];
	struct journal_stats st;

	if (rp->copy_tried)
		return;
	rp->copy_tried = true;
	game_copy_path(rp->s, path, sizeof(path));
	if (access(path, F_OK))
		return;
	if (journal_read(path, false, replay_game_copy, rp, &st, err, sizeof(err)) < 0 ||
	    !rp->s->journal_game[0]) {
		log_warn(LOG_GAME, "%s: no game to resume from it", path);
		return;
	}
	rp->s->game_from_copy = true;
	log_warn(LOG_GAME, "the journal has no readable game record: game %s from %s",
		 rp->s->journal_game, path);
}

/* The game's record of a move the journal lost, from the scoresheet on disk: made records
 * for the plies up to `upto` (plies the game has, counted from 0), each only if it is the
 * scoresheet's move there and legal.  They go into the journal's lines in their place. */
static void fill_from_scoresheet(struct store *s, struct referee *r, int upto, uint64_t ms)
{
	const struct game *g = referee_game(r);

	while (s->disk_ready && g->open && !game_over(g) && game_plies(g) < upto &&
	       game_plies(g) < s->disk.game.count) {
		struct game_record rec;
		char args[GAME_RECORD_MAX], line[JOURNAL_LINE_MAX + 1];
		int ply = game_plies(g);

		/* The scoresheet must be this game's up to here. */
		for (int i = 0; i < ply; i++)
			if (g->plies[i].move != s->disk.game.moves[i])
				return;
		memset(&rec, 0, sizeof(rec));
		rec.type = REC_MADE;
		rec.ms = ms;
		rec.u.made.ply = ply + 1;
		rec.u.made.move = s->disk.game.moves[ply];
		chess_move_to_san(game_position(g), rec.u.made.move, rec.u.made.san,
				  sizeof(rec.u.made.san));
		if (referee_replay(r, &rec))
			return;
		log_warn(LOG_GAME, "move %d (%s) was not in the journal: taken from game.pgn",
			 ply + 1, rec.u.made.san);
		s->filled++;
		if (game_record_encode(&rec, args, sizeof(args)) >= 0 &&
		    journal_format(line, sizeof(line), rec.ms, game_record_name(rec.type), "%s",
				   args) > 0)
			lines_add(s, line);
	}
}

/* A journal line as read, kept among the lines (written again when the journal is). */
static void keep_line(struct store *s, const struct journal_record *jr)
{
	char line[JOURNAL_LINE_MAX + 1];

	if (journal_format(line, sizeof(line), jr->ms, jr->type, "%s", jr->args) > 0 &&
	    lines_add(s, line) == 0)
		s->written = s->nlines;
}

static int replay_record(void *user, const struct journal_record *jr, char *why, size_t why_size)
{
	struct replay *rp = user;
	struct game_record rec;

	/* The record's own notes (device, audit anchors, recoveries) are kept, never applied. */
	if (!strcmp(jr->type, JOURNAL_NOTE_TYPE)) {
		if (rp->s->journal_game[0])
			keep_line(rp->s, jr);
		return 0;
	}
	if (game_record_decode(&rec, jr->type, jr->args, jr->ms, why, why_size))
		return -1;
	/* One game per journal: a finished game's records are kept under games/. */
	if (rec.type == REC_GAME && rp->s->journal_game[0]) {
		snprintf(why, why_size, "a second game record");
		return -1;
	}
	if (rec.type != REC_GAME && !rp->s->journal_game[0])
		game_from_copy(rp);
	if (rec.type != REC_GAME && !rp->s->journal_game[0]) {
		snprintf(why, why_size, "no game record before it");
		return -1;
	}
	if (rec.type == REC_MADE || rec.type == REC_RELAYED)
		fill_from_scoresheet(
		    rp->s, rp->r, (rec.type == REC_MADE ? rec.u.made.ply : rec.u.relayed.ply) - 1,
		    jr->ms);
	if (referee_replay(rp->r, &rec)) {
		snprintf(why, why_size, "it does not fit the game");
		return -1;
	}
	if (rec.type == REC_GAME)
		snprintf(rp->s->journal_game, sizeof(rp->s->journal_game), "%s", rec.u.game.id);
	keep_line(rp->s, jr);
	return 0;
}

/* The plies of the first game of a PGN file if it is unfinished (result "*"; a finished
 * game is in games/ already); -1 if it cannot be read or is finished. */
static int pgn_file_plies_ex(const char *path, bool *finished)
{
	struct chess_error cerr;
	struct pgn_game pgn;
	struct pgn_reader *rd;
	size_t len;
	char *text = state_read_file(path, &len);
	int plies = -1;

	if (!text)
		return -1;
	rd = pgn_reader_new(text, len);
	if (rd && pgn_reader_next(rd, &pgn, &cerr) == 1) {
		if (!strcmp(pgn.result, "*"))
			plies = pgn.game.count;
		else if (finished)
			*finished = true;
		pgn_game_free(&pgn);
	}
	pgn_reader_free(rd);
	free(text);
	return plies;
}

static int pgn_file_plies(const char *path)
{
	return pgn_file_plies_ex(path, NULL);
}

/*
 * The scoresheet on disk is the one record a player cannot get back: when the journal gave
 * back fewer moves than game.pgn holds (damaged records, an empty journal), game.pgn is kept
 * under games/ before it is ever written again, and the arbiter and the player are told.
 */
static void keep_longer_scoresheet(struct store *s, const struct game *g)
{
	char path[PATH_MAX], kept[PATH_MAX];
	int on_disk, recovered = g->open ? game_plies(g) : 0;

	snprintf(path, sizeof(path), "%s/game.pgn", s->dir);
	on_disk = pgn_file_plies(path);
	if (on_disk <= recovered)
		return;
	for (int n = 1; n < 1000; n++) {
		snprintf(kept, sizeof(kept), "%s/games/%s-before-recovery-%d.pgn", s->dir,
			 g->open ? g->params.id : "unknown", n);
		if (access(kept, F_OK) == 0)
			continue;
		if (link(path, kept) && errno != EEXIST) {
			log_error(LOG_GAME, "cannot keep %s as %s: %s", path, kept,
				  strerror(errno));
			return;
		}
		break;
	}
	s->scoresheet_kept = on_disk;
	snprintf(s->scoresheet_kept_path, sizeof(s->scoresheet_kept_path), "%s", kept);
	log_warn(LOG_GAME,
		 "the journal gave back %d plies, game.pgn holds %d: game.pgn kept as %s; the "
		 "arbiter decides",
		 recovered, on_disk, kept);
}

/* game.pgn's unfinished game, for putting back move records the journal lost. */
static void load_disk_scoresheet(struct store *s)
{
	char path[PATH_MAX];
	struct chess_error cerr;
	struct pgn_reader *rd;
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "%s/game.pgn", s->dir);
	text = state_read_file(path, &len);
	if (!text)
		return;
	rd = pgn_reader_new(text, len);
	if (rd && pgn_reader_next(rd, &s->disk, &cerr) == 1) {
		s->disk_ready = !strcmp(s->disk.result, "*");
		if (!s->disk_ready)
			pgn_game_free(&s->disk);
	}
	pgn_reader_free(rd);
	free(text);
}

/* The time of the journal's last line. */
static uint64_t last_line_ms(const struct store *s)
{
	const char *body = s->lines[s->nlines - 1] + 9;

	return strtoull(body, NULL, 10);
}

/* A journal that needed mending is written again whole from the records taken (and the
 * ones put back), after the damaged file is kept under games/ for the arbiter. */
static void rewrite_journal(struct store *s, const char *path)
{
	char kept[PATH_MAX], tmp[PATH_MAX];
	size_t total = 0;
	char *text;

	for (int n = 1; n < 1000; n++) {
		snprintf(kept, sizeof(kept), "%s/games/%s-damaged-%d.journal", s->dir,
			 s->journal_game, n);
		if (access(kept, F_OK))
			break;
	}
	if (link(path, kept)) {
		log_error(LOG_GAME, "cannot keep the damaged journal as %s: %s", kept,
			  strerror(errno));
		return;
	}
	snprintf(s->damaged_kept, sizeof(s->damaged_kept), "%s", kept);
	/* A new chain over the records kept; the recovery itself is noted in it (below). */
	text = journal_chain_text(s->lines, s->nlines, &total);
	if (!text)
		return;
	snprintf(tmp, sizeof(tmp), "%s", path);
	if (state_write_atomic(tmp, text, total, s->sync))
		log_error(LOG_GAME, "cannot write the mended journal: %s", strerror(errno));
	else {
		/* Every line is on disk now, the ones put back from game.pgn too. */
		s->written = s->nlines;
		log_warn(LOG_GAME, "journal mended (%zu records); the damaged one is kept as %s",
			 s->nlines, kept);
	}
	free(text);
}

int store_replay(struct store *s, struct referee *r, char *err, size_t err_size)
{
	struct replay rp = {.s = s, .r = r};
	const struct game *g = referee_game(r);
	char path[PATH_MAX];
	int n;

	journal_path(s, path, sizeof(path));
	load_disk_scoresheet(s);
	n = journal_read(path, true, replay_record, &rp, &s->recovery, err, err_size);
	if (n < 0)
		return -1;
	/* An empty journal (a power cut before anything after the game record reached the
	 * disk): the game from its copy, its moves from game.pgn. */
	if (!g->open) {
		rp.unfinished_only = true;
		game_from_copy(&rp);
	}
	/* Moves after the journal's last readable move record, from game.pgn. */
	if (g->open)
		fill_from_scoresheet(s, r, s->disk_ready ? s->disk.game.count : 0,
				     s->nlines ? last_line_ms(s) : 0);
	if (s->disk_ready) {
		pgn_game_free(&s->disk);
		s->disk_ready = false;
	}
	/* A torn last line (a power cut mid-write) is cut off by the reading itself: the file
	 * is written again only when records inside it were lost or put back. */
	if (g->open && (store_recovery_skipped(s) || s->filled || s->game_from_copy))
		rewrite_journal(s, path);
	if (store_recovery_skipped(s))
		log_warn(LOG_GAME,
			 "%s: %d records skipped (%d bad, %d duplicated, %d not fitting the game), "
			 "the first at line %d; %d records kept",
			 path, store_recovery_skipped(s), s->recovery.bad, s->recovery.duplicates,
			 s->recovery.refused, s->recovery.first_skipped, n);
	keep_longer_scoresheet(s, g);
	/* A finished game's journal stays open for what its end left (a last move's reading)
	 * until the next game's record keeps it under games/. */
	if (g->open) {
		s->journal = journal_open(path, s->sync, err, err_size);
		if (!s->journal)
			return -1;
	}
	/* The recovery is itself part of the record: a note in the chain says what it did. */
	if (g->open &&
	    (s->recovery.torn_tail || store_recovery_skipped(s) || s->filled || s->game_from_copy))
		store_note(s, s->nlines ? last_line_ms(s) : 0,
			   "recovered torn=%s bad=%d duplicates=%d refused=%d filled=%d copy=%s "
			   "kept=%s",
			   s->recovery.torn_tail ? "yes" : "no", s->recovery.bad,
			   s->recovery.duplicates, s->recovery.refused, s->filled,
			   s->game_from_copy ? "yes" : "no",
			   s->damaged_kept[0] ? s->damaged_kept + strlen(s->dir) + 1 : "-");
	if (g->open && !game_over(g))
		log_info(LOG_GAME, "resuming game %s after %d moves", g->params.id, game_plies(g));
	return 0;
}

/* ------------------------------------------------------------------ the journal */

/* A finished game's journal is kept under games/, so the next game starts a new one. */
static void archive_journal(struct store *s)
{
	char from[PATH_MAX], to[PATH_MAX];

	journal_close(s->journal);
	s->journal = NULL;
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

static int write_pgn(struct store *s, const struct game *g, bool archive_copy);

/* The journal's lines not yet on disk, written and synced; all of them again when the file
 * was removed (the state directory deleted: made again).  0, or -1 (saving failed). */
static int flush(struct store *s)
{
	char path[PATH_MAX], err[256];

	if (s->journal && journal_removed(s->journal)) {
		log_error(LOG_GAME, "the journal was removed; writing the game again");
		journal_close(s->journal);
		s->journal = NULL;
		s->written = 0;
		s->pgn_due = true;
	}
	if (!s->journal && s->journal_game[0]) {
		snprintf(path, sizeof(path), "%s/games", s->dir);
		if (state_mkdir(path)) {
			saving_failed(s, path, errno);
			return -1;
		}
		journal_path(s, path, sizeof(path));
		s->journal = journal_open(path, s->sync, err, sizeof(err));
		if (!s->journal) {
			saving_failed(s, "journal", errno);
			return -1;
		}
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
	/* Every record is synced before the game goes on, a touch too: a capture in progress
	 * depends on its lifts (a power cut that lost the victim's lift left the board after
	 * the capture unexplained; check-crash's `crash unsynced` points showed it). */
	if (journal_sync(s->journal)) {
		saving_failed(s, "journal", errno);
		return -1;
	}
	return 0;
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
	if (lines_add(s, line)) {
		log_error(LOG_GAME, "out of memory: %s record not kept",
			  game_record_name(rec->type));
		return;
	}
	if (rec->type == REC_GAME) {
		char copy[PATH_MAX];

		game_copy_path(s, copy, sizeof(copy));
		if (state_write_atomic(copy, line, strlen(line), s->sync))
			log_warn(LOG_GAME, "%s: %s (the journal keeps the game record)", copy,
				 strerror(errno));
	}
	s->last_try_ms = rec->ms;
	/* While saving fails, a record waits for the next try with the others. */
	if (s->failing)
		return;
	flush(s);
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
	    lines_add(s, line)) {
		log_error(LOG_GAME, "a note of the record could not be kept");
		return;
	}
	if (!s->failing)
		flush(s);
}

const char *store_chain(const struct store *s)
{
	return s->journal ? journal_chain_value(s->journal) : "";
}

uint64_t store_retry_deadline(const struct store *s)
{
	return s->failing ? s->last_try_ms + STORE_RETRY_MS : UINT64_MAX;
}

void store_retry(struct store *s, uint64_t now)
{
	s->last_try_ms = now;
	if (flush(s))
		return;
	if (s->pgn_due && s->game && write_pgn(s, s->game, game_over(s->game)))
		return;
	saving_works(s);
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

static void set_comment(struct pgn_game *pgn, int ply, const char *text)
{
	char *copy;

	if (ply < 0 || ply >= pgn->game.count || ply >= pgn->comments_capacity)
		return;
	if (!text && !pgn->comments[ply])
		return;
	if (text && pgn->comments[ply] && !strcmp(text, pgn->comments[ply]))
		return;
	copy = text ? strdup(text) : NULL;
	if (text && !copy)
		return;
	free(pgn->comments[ply]);
	pgn->comments[ply] = copy;
}

/* What the game notes after ply `ply` (-1: before the first move): moves withdrawn,
 * retracted or ruled illegal, and after the last move why the game ended; "" if nothing. */
static void notes_after(const struct game *g, int ply, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < g->note_count && n < size; i++)
		if (g->notes[i].ply == ply)
			n += (size_t)snprintf(buf + n, size - n, "%s%s.", n ? " " : "",
					      g->notes[i].text);
	if (game_over(g) && ply == game_plies(g) - 1 && g->result.reason[0] && n < size)
		snprintf(buf + n, size - n, "%s%s", n ? " " : "", g->result.reason);
}

/* A ply's comment: its [%clk] reading (DESIGN 4.4: truncated to whole seconds), the draw
 * offer made with it (8.1.5), and the notes after it. */
static const char *ply_comment(const struct game_ply *p, const char *notes, char *buf, size_t size)
{
	char hms[32];
	int n = 0;

	buf[0] = '\0';
	if (p->clk_ms >= 0) {
		clock_format_hms(p->clk_ms, hms, sizeof(hms));
		n = snprintf(buf, size, "[%%clk %s]", hms);
	}
	if (p->flags & GAME_PLY_DRAW_OFFER)
		n += snprintf(buf + n, size - (size_t)n, "%s(=)", n ? " " : "");
	if (notes[0] && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "%s%s", n ? " " : "", notes);
	return buf[0] ? buf : NULL;
}

/* Bring the kept scoresheet up to the game: new moves pushed, readings and marks set. */
static int sync_pgn(struct store *s, const struct game *g)
{
	struct pgn_game *pgn = &s->pgn;
	char notes[GAME_MAX_NOTES * GAME_NOTE_MAX / 4], comment[sizeof(notes) + 64];
	int last = game_plies(g) - 1;

	/* Moves withdrawn or retracted leave the scoresheet: it is made again. */
	if (s->pgn_ready &&
	    (strcmp(s->pgn_game_id, g->params.id) || pgn->game.count > game_plies(g) ||
	     memcmp(pgn->game.moves, g->chess.moves,
		    sizeof(chess_move) * (size_t)pgn->game.count))) {
		pgn_game_free(pgn);
		s->pgn_ready = false;
		s->marks_count = 0;
	}
	if (game_plies(g) > s->marks_capacity) {
		int cap = game_plies(g) + 256;
		struct game_ply *m = realloc(s->marks, sizeof(*m) * (size_t)cap);

		if (!m)
			return -1;
		s->marks = m;
		s->marks_capacity = cap;
	}
	if (!s->pgn_ready) {
		if (pgn_game_init(pgn, &g->start))
			return -1;
		s->pgn_ready = true;
		snprintf(s->pgn_game_id, sizeof(s->pgn_game_id), "%s", g->params.id);
	}
	if (s->marks_count == 0 || g->params.tag_count != s->tagged.tag_count ||
	    memcmp(g->params.tags, s->tagged.tags,
		   sizeof(g->params.tags[0]) * (size_t)g->params.tag_count)) {
		for (int i = 0; i < g->params.tag_count; i++)
			pgn_game_set_tag(pgn, g->params.tags[i].name, g->params.tags[i].value);
		s->tagged = g->params;
	}
	if (g->has_clock)
		pgn_game_set_tag(pgn, "TimeControl", g->params.time_control);
	if (game_over(g)) {
		pgn_game_set_result(pgn, g->result.result);
		pgn_game_set_tag(pgn, "Termination", result_termination_pgn(g->result.termination));
		/* Which device recorded the game, and the journal's chain as it stands when this
		 * scoresheet is written: `annabella verify` finds it in the journal. */
		if (s->serial[0])
			pgn_game_set_tag(pgn, "DeviceSerial", s->serial);
		if (store_chain(s)[0])
			pgn_game_set_tag(pgn, "JournalChain", store_chain(s));
	} else {
		pgn_game_set_result(pgn, "*");
	}
	notes_after(g, -1, notes, sizeof(notes));
	pgn_game_set_leading_comment(pgn, notes[0] ? notes : NULL);
	if (g->note_count != s->notes_seen) {
		s->notes_seen = g->note_count;
		s->marks_count = 0; /* every comment made again */
	}
	for (int i = pgn->game.count; i < game_plies(g); i++)
		if (pgn_game_push(pgn, g->plies[i].move, NULL))
			return -1;
	for (int i = 0; i < game_plies(g); i++) {
		const struct game_ply *p = &g->plies[i];

		/* The last ply's comment also says why the game ended: made again each time. */
		if (i < s->marks_count && s->marks[i].clk_ms == p->clk_ms &&
		    s->marks[i].flags == p->flags && i != last)
			continue;
		notes_after(g, i, notes, sizeof(notes));
		set_comment(pgn, i, ply_comment(p, notes, comment, sizeof(comment)));
		s->marks[i] = *p;
	}
	s->marks_count = game_plies(g);
	return 0;
}

static int write_pgn(struct store *s, const struct game *g, bool archive_copy)
{
	char path[PATH_MAX];
	char *text;
	int rc = 0;

	if (!g->open)
		return 0;
	s->game = g;
	if (sync_pgn(s, g)) {
		log_error(LOG_GAME, "cannot update the scoresheet (out of memory)");
		return -1;
	}
	text = pgn_format(&s->pgn);
	if (!text) {
		log_error(LOG_GAME, "cannot format the scoresheet (out of memory)");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/game.pgn", s->dir);
	if (state_write_atomic(path, text, strlen(text), s->sync)) {
		saving_failed(s, "game.pgn", errno);
		rc = -1;
	}
	snprintf(path, sizeof(path), "%s/games/%s.pgn", s->dir, g->params.id);
	if (rc == 0 && archive_copy && state_write_atomic(path, text, strlen(text), s->sync)) {
		saving_failed(s, path, errno);
		rc = -1;
	}
	free(text);
	s->pgn_due = rc != 0;
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

void store_game_start(struct store *s, const struct game *g)
{
	/* The finished games' files beyond what is kept go (the audio is large: 2.5 MB a game;
	 * PGN and journals are small and all kept unless told otherwise). */
	prune(s, ".wav", s->keep_audio, g->params.id);
	prune(s, ".pgn", s->keep_games, g->params.id);
	prune(s, ".journal", s->keep_games, g->params.id);
	if (s->voice && s->record_audio) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/games/%s.wav", s->dir, g->params.id);
		voice_record_to(s->voice, path);
	}
	write_pgn(s, g, true);
}

void store_close(struct store *s, const struct game *g)
{
	if (flush(s) && s->written < s->nlines)
		log_error(LOG_GAME, "%zu journal records could not be saved before the stop",
			  s->nlines - s->written);
	write_pgn(s, g, true);
	/* A game whose result is approved is done: its journal is kept under games/.  One
	 * still waiting for approval (8.7) is resumed at the next start. */
	if (g->open && g->result.state == RESULT_APPROVED)
		archive_journal(s);
}

const struct pgn_game *store_pgn(const struct store *s)
{
	return s->pgn_ready ? &s->pgn : NULL;
}
