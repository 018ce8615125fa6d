/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/recovery.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "chess/pgn.h"
#include "daemon/state.h"

static int lines_add(struct recovery *rc, const char *line)
{
	char *copy = strdup(line);

	if (!copy)
		return -1;
	if (rc->nlines == rc->lines_cap) {
		size_t cap = rc->lines_cap ? rc->lines_cap * 2 : 256;
		char **l = realloc(rc->lines, cap * sizeof(*l));

		if (!l) {
			free(copy);
			return -1;
		}
		rc->lines = l;
		rc->lines_cap = cap;
	}
	rc->lines[rc->nlines++] = copy;
	return 0;
}

/* A copy of the journal's first line, the game record (a journal of one line): everything
 * the game's behaviour depends on, so a damaged first line or an empty journal does not
 * lose the game. */
static void game_copy_path(const char *dir, char *path, size_t size)
{
	snprintf(path, size, "%s/game.record", dir);
}

struct replay {
	struct recovery *rc;
	const char *dir;
	bool sync;
	/* At start: the moves of the unfinished game in game.pgn, to put back move records
	 * the journal lost. */
	struct pgn_game disk;
	bool disk_ready;
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

		snprintf(archived, sizeof(archived), "%s/games/%s.pgn", rp->dir, rec.u.game.id);
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
	game_copy_path(rp->dir, path, sizeof(path));
	if (access(path, F_OK))
		return;
	if (journal_read(path, false, replay_game_copy, rp, &st, err, sizeof(err)) < 0 ||
	    !rp->rc->game_id[0]) {
		log_warn(LOG_GAME, "%s: no game to resume from it", path);
		return;
	}
	rp->rc->game_from_copy = true;
	log_warn(LOG_GAME, "the journal has no readable game record: game %s from %s",
		 rp->rc->game_id, path);
}

/* The game's record of a move the journal lost, from the scoresheet on disk: made records
 * for the plies up to `upto` (plies the game has, counted from 0), each only if it is the
 * scoresheet's move there and legal.  They go into the journal's lines in their place. */
static void fill_from_scoresheet(struct replay *rp, int upto, uint64_t ms)
{
	struct referee *r = rp->r;
	const struct game *g = referee_game(r);

	while (rp->disk_ready && g->open && !game_over(g) && game_plies(g) < upto &&
	       game_plies(g) < rp->disk.game.count) {
		struct game_record rec;
		char args[GAME_RECORD_MAX], line[JOURNAL_LINE_MAX + 1];
		int ply = game_plies(g);

		/* The scoresheet must be this game's up to here. */
		for (int i = 0; i < ply; i++)
			if (g->plies[i].move != rp->disk.game.moves[i])
				return;
		memset(&rec, 0, sizeof(rec));
		rec.type = REC_MADE;
		rec.ms = ms;
		rec.u.made.ply = ply + 1;
		rec.u.made.move = rp->disk.game.moves[ply];
		chess_move_to_san(game_position(g), rec.u.made.move, rec.u.made.san,
				  sizeof(rec.u.made.san));
		if (referee_replay(r, &rec))
			return;
		log_warn(LOG_GAME, "move %d (%s) was not in the journal: taken from game.pgn",
			 ply + 1, rec.u.made.san);
		rp->rc->filled++;
		if (game_record_encode(&rec, args, sizeof(args)) >= 0 &&
		    journal_format(line, sizeof(line), rec.ms, game_record_name(rec.type), "%s",
				   args) > 0)
			lines_add(rp->rc, line);
	}
}

static int replay_record(void *user, const struct journal_record *jr, char *why, size_t why_size)
{
	struct replay *rp = user;
	struct game_record rec;

	if (game_record_decode(&rec, jr->type, jr->args, jr->ms, why, why_size))
		return -1;
	/* One game per journal: a finished game's records are kept under games/. */
	if (rec.type == REC_GAME && rp->rc->game_id[0]) {
		snprintf(why, why_size, "a second game record");
		return -1;
	}
	if (rec.type != REC_GAME && !rp->rc->game_id[0])
		game_from_copy(rp);
	if (rec.type != REC_GAME && !rp->rc->game_id[0]) {
		snprintf(why, why_size, "no game record before it");
		return -1;
	}
	if (rec.type == REC_MADE || rec.type == REC_RELAYED)
		fill_from_scoresheet(
		    rp, (rec.type == REC_MADE ? rec.u.made.ply : rec.u.relayed.ply) - 1, jr->ms);
	if (referee_replay(rp->r, &rec)) {
		snprintf(why, why_size, "it does not fit the game");
		return -1;
	}
	if (rec.type == REC_GAME)
		snprintf(rp->rc->game_id, sizeof(rp->rc->game_id), "%s", rec.u.game.id);
	{
		char line[JOURNAL_LINE_MAX + 1];

		if (journal_format(line, sizeof(line), jr->ms, jr->type, "%s", jr->args) > 0)
			lines_add(rp->rc, line);
	}
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
static void keep_longer_scoresheet(struct recovery *rc, const char *dir, const struct game *g)
{
	char path[PATH_MAX], kept[PATH_MAX];
	int on_disk, recovered = g->open ? game_plies(g) : 0;

	snprintf(path, sizeof(path), "%s/game.pgn", dir);
	on_disk = pgn_file_plies(path);
	if (on_disk <= recovered)
		return;
	for (int n = 1; n < 1000; n++) {
		snprintf(kept, sizeof(kept), "%s/games/%s-before-recovery-%d.pgn", dir,
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
	rc->scoresheet_kept = on_disk;
	snprintf(rc->scoresheet_kept_path, sizeof(rc->scoresheet_kept_path), "%s", kept);
	log_warn(LOG_GAME,
		 "the journal gave back %d plies, game.pgn holds %d: game.pgn kept as %s; the "
		 "arbiter decides",
		 recovered, on_disk, kept);
}

/* game.pgn's unfinished game, for putting back move records the journal lost. */
static void load_disk_scoresheet(struct replay *rp)
{
	char path[PATH_MAX];
	struct chess_error cerr;
	struct pgn_reader *rd;
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "%s/game.pgn", rp->dir);
	text = state_read_file(path, &len);
	if (!text)
		return;
	rd = pgn_reader_new(text, len);
	if (rd && pgn_reader_next(rd, &rp->disk, &cerr) == 1) {
		rp->disk_ready = !strcmp(rp->disk.result, "*");
		if (!rp->disk_ready)
			pgn_game_free(&rp->disk);
	}
	pgn_reader_free(rd);
	free(text);
}

/* The time of the journal's last line. */
static uint64_t last_line_ms(const struct recovery *rc)
{
	const char *body = rc->lines[rc->nlines - 1] + 9;

	return strtoull(body, NULL, 10);
}

/* A journal that needed mending is written again whole from the records taken (and the
 * ones put back), after the damaged file is kept under games/ for the arbiter. */
static void rewrite_journal(struct recovery *rc, const char *dir, const char *path, bool sync)
{
	char kept[PATH_MAX];
	size_t total = 0, at = 0;
	char *text;

	for (int n = 1; n < 1000; n++) {
		snprintf(kept, sizeof(kept), "%s/games/%s-damaged-%d.journal", dir, rc->game_id, n);
		if (access(kept, F_OK))
			break;
	}
	if (link(path, kept)) {
		log_error(LOG_GAME, "cannot keep the damaged journal as %s: %s", kept,
			  strerror(errno));
		return;
	}
	for (size_t i = 0; i < rc->nlines; i++)
		total += strlen(rc->lines[i]);
	text = malloc(total + 1);
	if (!text)
		return;
	for (size_t i = 0; i < rc->nlines; i++) {
		size_t l = strlen(rc->lines[i]);

		memcpy(text + at, rc->lines[i], l);
		at += l;
	}
	if (state_write_atomic(path, text, total, sync))
		log_error(LOG_GAME, "cannot write the mended journal: %s", strerror(errno));
	else
		log_warn(LOG_GAME, "journal mended (%zu records); the damaged one is kept as %s",
			 rc->nlines, kept);
	free(text);
}

int recovery_skipped(const struct recovery *rc)
{
	return rc->stats.bad + rc->stats.duplicates + rc->stats.refused;
}

void recovery_free(struct recovery *rc)
{
	for (size_t i = 0; i < rc->nlines; i++)
		free(rc->lines[i]);
	free(rc->lines);
	rc->lines = NULL;
	rc->nlines = rc->lines_cap = 0;
}

int recovery_run(struct recovery *rc, const char *dir, bool sync, struct referee *r, char *err,
		 size_t err_size)
{
	struct replay rp = {.rc = rc, .dir = dir, .sync = sync, .r = r};
	const struct game *g = referee_game(r);
	char path[PATH_MAX];
	int n;

	memset(rc, 0, sizeof(*rc));
	snprintf(path, sizeof(path), "%s/journal", dir);
	load_disk_scoresheet(&rp);
	n = journal_read(path, true, replay_record, &rp, &rc->stats, err, err_size);
	if (n < 0) {
		if (rp.disk_ready)
			pgn_game_free(&rp.disk);
		return -1;
	}
	/* An empty journal (a power cut before anything after the game record reached the
	 * disk): the game from its copy, its moves from game.pgn. */
	if (!g->open) {
		rp.unfinished_only = true;
		game_from_copy(&rp);
	}
	/* Moves after the journal's last readable move record, from game.pgn. */
	if (g->open)
		fill_from_scoresheet(&rp, rp.disk_ready ? rp.disk.game.count : 0,
				     rc->nlines ? last_line_ms(rc) : 0);
	if (rp.disk_ready) {
		pgn_game_free(&rp.disk);
		rp.disk_ready = false;
	}
	/* A torn last line (a power cut mid-write) is cut off by the reading itself: the file
	 * is written again only when records inside it were lost or put back. */
	if (g->open && (recovery_skipped(rc) || rc->filled || rc->game_from_copy))
		rewrite_journal(rc, dir, path, sync);
	if (recovery_skipped(rc))
		log_warn(LOG_GAME,
			 "%s: %d records skipped (%d bad, %d duplicated, %d not fitting the game), "
			 "the first at line %d; %d records kept",
			 path, recovery_skipped(rc), rc->stats.bad, rc->stats.duplicates,
			 rc->stats.refused, rc->stats.first_skipped, n);
	keep_longer_scoresheet(rc, dir, g);
	if (g->open && !game_over(g))
		log_info(LOG_GAME, "resuming game %s after %d moves", g->params.id, game_plies(g));
	return 0;
}
