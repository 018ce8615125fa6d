/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/recovery.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/strbuf.h"
#include "chess/pgn.h"
#include "store/recovery_int.h"
#include "store/state.h"

/* ------------------------------------------------------------------ lines and paths */

/* A copy of the journal's first line, the game record (a journal of one line): everything
 * the game's behaviour depends on, so a damaged first line or an empty journal does not
 * lose the game. */
void rcv_game_copy_path(const char *dir, char *path, size_t size)
{
	snprintf(path, size, "%s/game.record", dir);
}

/* The plies of the first game of a PGN file if it is unfinished (result "*"); -1 if it
 * cannot be read or is finished (*finished then says which). */
static int pgn_file_plies(const char *path, bool *finished)
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

static void journal_line(const struct game_record *rec, char *line, size_t size)
{
	char args[GAME_RECORD_MAX];

	line[0] = '\0';
	if (game_record_encode(rec, args, sizeof(args)) < 0 ||
	    journal_format(line, size, rec->ms, game_record_name(rec->type), "%s", args) < 0)
		line[0] = '\0';
}

/* ------------------------------------------------------------------ replaying */

/* A record into the game and the recovered journal (its line as read, or made from it). */
int rcv_apply(struct replay *rp, const struct game_record *rec, const char *line)
{
	char made[JOURNAL_LINE_MAX + 1];
	const struct game *g = referee_game(rp->r);

	if (referee_replay(rp->r, rec))
		return -1;
	rp->seq++;
	rp->last_ms = rec->ms;
	if (!line) {
		journal_line(rec, made, sizeof(made));
		line = made;
	}
	if (line[0])
		strv_append(&rp->rc->lines, &rp->rc->nlines, &rp->rc->lines_cap, line);
	if (rec->type == REC_GAME)
		snprintf(rp->rc->game_id, sizeof(rp->rc->game_id), "%s", rec->u.game.id);
	if (game_record_has_clock(rec->type) && g->has_clock)
		rp->clock_seq = rp->seq;
	if (rec->type == REC_COMPLETE) {
		int ply = rec->u.complete.ply - 1;

		if (ply >= 0 && ply < GAME_MAX_PLIES && rec->u.complete.clk_ms >= 0)
			rp->reading_seq[ply] = rp->seq;
	}
	return 0;
}

/* A complete record put back: ply's reading (or none, -1). */
static void put_complete(struct replay *rp, int ply, int64_t clk, uint64_t ms, const char *from)
{
	struct game_record rec = {.type = REC_COMPLETE, .ms = ms};
	const struct game *g = referee_game(rp->r);

	rec.u.complete.ply = ply + 1;
	rec.u.complete.clk_ms = clk;
	if (rcv_apply(rp, &rec, NULL))
		return;
	if (clk < 0 || !from)
		return;
	if (!strcmp(from, "game.pgn"))
		rp->rc->readings_filled++;
	else
		rp->rc->readings_from_presses++;
	log_warn(LOG_GAME, "the reading of move %d (%s) was not in the journal: taken from %s",
		 ply + 1, g->plies[ply].san, from);
}

/* The complete record the referee made with the last one, if the journal lost it. */
static void settle_pending(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);
	struct pending p = rp->pending;

	rp->pending.on = false;
	if (!p.on || p.ply >= game_plies(g) || (g->plies[p.ply].flags & GAME_PLY_COMPLETE))
		return;
	put_complete(rp, p.ply, p.clk_ms, p.ms, p.clk_ms >= 0 ? "its press record" : NULL);
}

/* Moves of `color` still waiting for their press are complete when the mover makes the next
 * (6.2.1.2: the referee journals it before that move): with game.pgn's reading when it has
 * one (the press was lost), else without.  Only game.pgn's readings when !all. */
static void complete_waiting(struct replay *rp, int color, uint64_t ms, bool all)
{
	const struct game *g = referee_game(rp->r);
	int ply;

	while ((ply = completion_waiting(&g->completion, color)) >= 0) {
		int64_t clk = rcv_disk_reading(rp, ply);

		if (clk < 0 && !all)
			return;
		/* Its complete, its press and game.pgn's reading all lost: whether it had a
		 * reading cannot be known, and none is made up. */
		if (clk < 0)
			rp->rc->readings_missing++;
		put_complete(rp, ply, clk, ms, clk >= 0 ? "game.pgn" : NULL);
		if (completion_waiting(&g->completion, color) == ply)
			return;
	}
}

/* Moves the journal lost, from game.pgn: the plies up to `upto` (0-based count), each only
 * where game.pgn can be read, agrees with the game so far, and holds a legal move; its
 * reading with it.  They go into the journal's lines in their place. */
static void fill_from_scoresheet(struct replay *rp, int upto, uint64_t ms)
{
	const struct game *g = referee_game(rp->r);

	while (g->open && !game_over(g) && game_plies(g) < upto) {
		int ply = game_plies(g);
		chess_move m = rcv_disk_move(rp, ply);
		struct game_record rec = {.type = REC_MADE, .ms = ms};

		if (m == CHESS_MOVE_NONE || !rcv_disk_agrees(rp, ply))
			return;
		if (g->has_clock) {
			complete_waiting(rp, !game_position(g)->side, ms, false);
			complete_waiting(rp, game_position(g)->side, ms, true);
		}
		rec.u.made.ply = ply + 1;
		rec.u.made.move = m;
		chess_move_to_san(game_position(g), m, rec.u.made.san, sizeof(rec.u.made.san));
		if (rcv_apply(rp, &rec, NULL))
			return;
		rp->rc->filled++;
		log_warn(LOG_GAME, "move %d (%s) was not in the journal: taken from game.pgn",
			 ply + 1, rec.u.made.san);
		if (!g->has_clock)
			put_complete(rp, ply, -1, ms, NULL);
	}
}

/* What the referee journals right after a record, from the game before and after it. */
static void expect_after(struct replay *rp, const struct game_record *rec, bool early,
			 int64_t early_clk, bool pressed_first)
{
	const struct game *g = referee_game(rp->r);
	int ply;

	rp->pending.on = false;
	if (rec->type == REC_MADE || rec->type == REC_RELAYED) {
		if (g->has_clock && !early && !pressed_first)
			return;
		rp->pending = (struct pending){.on = true,
					       .ply = game_plies(g) - 1,
					       .clk_ms = early ? early_clk : -1,
					       .ms = rec->ms};
		return;
	}
	if (rec->type != REC_PRESS)
		return;
	if (rec->u.press.kind != PRESS_MOVE && rec->u.press.kind != PRESS_ILLEGAL &&
	    rec->u.press.kind != PRESS_PAUSED)
		return;
	ply = completion_waiting(&g->completion, rec->u.press.color);
	if (ply < 0)
		return;
	rp->pending = (struct pending){
	    .on = true,
	    .ply = ply,
	    .clk_ms = rec->u.press.kind == PRESS_MOVE && ply >= g->readings_lost_before
			  ? clock_last_press_remaining(&g->clock, rec->u.press.color)
			  : -1,
	    .ms = rec->ms};
}

/* A record of the journal into the game, with what the journal lost around it.  -1: it does
 * not fit (yet). */
static int replay_one(struct replay *rp, const struct game_record *rec, const char *line)
{
	const struct game *g = referee_game(rp->r);
	bool early = false, pressed_first = false;
	int64_t early_clk = -1;

	/* The complete that came with the last record, unless this is it (a result may come
	 * between a move and its completion). */
	if (rp->pending.on &&
	    !(rec->type == REC_COMPLETE && rec->u.complete.ply - 1 == rp->pending.ply) &&
	    (rec->ms != rp->pending.ms ||
	     (rec->type != REC_RESULT && rec->type != REC_FLAG && rec->type != REC_COMPLETE)))
		settle_pending(rp);
	if ((rec->type == REC_MADE || rec->type == REC_RELAYED) && g->open) {
		int ply = (rec->type == REC_MADE ? rec->u.made.ply : rec->u.relayed.ply) - 1;
		int mover;

		fill_from_scoresheet(rp, ply, rec->ms);
		mover = game_position(g)->side;
		if (g->has_clock && ply == game_plies(g))
			complete_waiting(rp, mover, rec->ms, true);
		early = g->has_clock && mover != g->params.player &&
			completion_has_early(&g->completion);
		if (early)
			early_clk = g->completion.early_presses.items[0];
		pressed_first =
		    g->has_clock && mover == g->params.player && g->player_pressed_first;
	}
	if (rcv_apply(rp, rec, line))
		return -1;
	if (rec->type == REC_COMPLETE && rec->u.complete.ply >= 1 &&
	    rec->u.complete.ply <= GAME_MAX_PLIES) {
		rp->journal_complete[rec->u.complete.ply - 1] = true;
		if (rp->pending.on && rp->pending.ply == rec->u.complete.ply - 1)
			rp->pending.on = false;
	}
	expect_after(rp, rec, early, early_clk, pressed_first);
	return 0;
}

/* A record refused for good: counted and logged as journal_read() does. */
static void refuse(struct replay *rp, int lineno, const char *type)
{
	struct journal_stats *st = &rp->rc->stats;

	st->refused++;
	st->taken--;
	if (!st->first_skipped || lineno < st->first_skipped)
		st->first_skipped = lineno;
	log_warn(LOG_GAME, "journal:%d: %s record skipped: it does not fit the game", lineno, type);
}

/* The deferred record once more, as the last try: the complete record of a move whose own
 * record the journal lost (bad) and that game.pgn holds, after that move is put back from
 * game.pgn, so the reading on disk is kept (game.pgn's may be damaged too).  0 if it fits. */
static int replay_deferred(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);
	const struct game_record *rec = &rp->deferred_rec;

	if (!replay_one(rp, rec, rp->deferred_line))
		return 0;
	if (rec->type != REC_COMPLETE || !g->open || rec->u.complete.ply <= game_plies(g))
		return -1;
	fill_from_scoresheet(rp, rec->u.complete.ply, rec->ms);
	return replay_one(rp, rec, rp->deferred_line);
}

static void retry_deferred(struct replay *rp)
{
	if (!rp->deferred)
		return;
	rp->deferred = false;
	switch (replay_deferred(rp)) {
	case -1:
		refuse(rp, rp->deferred_lineno, game_record_name(rp->deferred_rec.type));
		return;
	case 1:
		return;
	default:
		break;
	}
	rp->rc->reordered++;
	log_warn(LOG_GAME, "journal:%d: %s record fitted after the next one (swapped)",
		 rp->deferred_lineno, game_record_name(rp->deferred_rec.type));
}

static void game_from_copy(struct replay *rp);

static int replay_record(void *user, const struct journal_record *jr, char *why, size_t why_size)
{
	struct replay *rp = user;
	struct game_record rec;
	char line[JOURNAL_LINE_MAX + 1];

	/* The record's own notes (device, audit anchors, recoveries) are kept, never applied;
	 * the storage's lag is taken from them. */
	if (!strcmp(jr->type, JOURNAL_NOTE_TYPE)) {
		unsigned lag;

		if (sscanf(jr->args, "sync latency=%u", &lag) == 1 && lag > rp->rc->sync_lag_ms)
			rp->rc->sync_lag_ms = lag;
		if (rp->rc->game_id[0] &&
		    journal_format(line, sizeof(line), jr->ms, jr->type, "%s", jr->args) > 0)
			strv_append(&rp->rc->lines, &rp->rc->nlines, &rp->rc->lines_cap, line);
		return 0;
	}
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
	if (journal_format(line, sizeof(line), jr->ms, jr->type, "%s", jr->args) < 0)
		line[0] = '\0';
	if (replay_one(rp, &rec, line) == 0) {
		retry_deferred(rp);
		return 0;
	}
	/* It may fit after the next record (two records swapped): kept until then. */
	if (rp->deferred)
		refuse(rp, rp->deferred_lineno, game_record_name(rp->deferred_rec.type));
	rp->deferred = true;
	rp->deferred_rec = rec;
	rp->deferred_lineno = jr->line;
	memcpy(rp->deferred_line, line, sizeof(line));
	return 0;
}

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
		pgn_file_plies(archived, &ended);
		if (ended) {
			snprintf(why, why_size, "game %s has ended (kept as %s)", rec.u.game.id,
				 archived);
			return -1;
		}
	}
	if (game_record_decode(&rec, jr->type, jr->args, jr->ms, why, why_size) ||
	    rcv_apply(rp, &rec, NULL)) {
		snprintf(why, why_size, "it does not fit");
		return -1;
	}
	return 0;
}

/* The game record from its copy, when the journal has none that can be read. */
static void game_from_copy(struct replay *rp)
{
	char path[PATH_MAX], err[256];
	struct journal_stats st;

	if (rp->copy_tried)
		return;
	rp->copy_tried = true;
	rcv_game_copy_path(rp->dir, path, sizeof(path));
	if (!access(path, F_OK)) {
		if (journal_read(path, false, replay_game_copy, rp, &st, err, sizeof(err)) >= 0 &&
		    rp->rc->game_id[0]) {
			rp->rc->game_from_copy = true;
			log_warn(LOG_GAME,
				 "the journal has no readable game record: game %s from %s",
				 rp->rc->game_id, path);
			return;
		}
		log_warn(LOG_GAME, "%s: no game to resume from it", path);
	}
	rcv_game_from_scoresheet(rp);
}

/* ------------------------------------------------------------------ the whole */

int recovery_skipped(const struct recovery *rc)
{
	return rc->stats.bad + rc->stats.duplicates + rc->stats.refused;
}

bool recovery_lost(const struct recovery *rc)
{
	return rc->moves_lost || rc->readings_missing || rc->clock_uncertain ||
	       rc->foreign_path[0] || rc->from_scoresheet;
}

bool recovery_incomplete(const struct recovery *rc)
{
	return recovery_skipped(rc) || rc->scoresheet_kept || rc->scoresheet_kept_path[0] ||
	       rc->foreign_path[0] || rc->clock_uncertain || rc->from_scoresheet;
}

void recovery_free(struct recovery *rc)
{
	for (size_t i = 0; i < rc->nlines; i++)
		free(rc->lines[i]);
	free(rc->lines);
	rc->lines = NULL;
	rc->nlines = rc->lines_cap = 0;
}

static void finish(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);

	if (rp->deferred) {
		rp->deferred = false;
		if (replay_deferred(rp) < 0)
			refuse(rp, rp->deferred_lineno, game_record_name(rp->deferred_rec.type));
	}
	settle_pending(rp);
	if (!g->open)
		return;
	/* Moves after the journal's last readable move record, and readings it lost. */
	if (rcv_disk(rp))
		fill_from_scoresheet(rp, rcv_disk(rp)->count, rp->last_ms);
	if (g->has_clock) {
		complete_waiting(rp, CHESS_WHITE, rp->last_ms, false);
		complete_waiting(rp, CHESS_BLACK, rp->last_ms, false);
		for (int i = 0; i < game_plies(g); i++) {
			int64_t clk;

			if (g->plies[i].flags & GAME_PLY_COMPLETE || rp->journal_complete[i])
				continue;
			clk = rcv_disk_reading(rp, i);
			if (clk >= 0)
				put_complete(rp, i, clk, rp->last_ms, "game.pgn");
		}
		rcv_recover_clock(rp, rp->last_ms);
	}
}

/* Whether game.record holds the game record the journal begins with. */
static bool copy_whole(const struct recovery *rc)
{
	char path[PATH_MAX];
	size_t len;
	char *text;
	bool same;

	rcv_game_copy_path(rc->dir, path, sizeof(path));
	text = state_read_file(path, &len);
	same =
	    text && rc->nlines && len == strlen(rc->lines[0]) && !memcmp(text, rc->lines[0], len);
	free(text);
	return same;
}

int recovery_run(struct recovery *rc, const char *dir, bool sync, const struct game_params *params,
		 struct referee *r, char *err, size_t err_size)
{
	struct replay rp = {.rc = rc, .dir = dir, .r = r, .params = params};
	const struct game *g = referee_game(r);
	char path[PATH_MAX], pgn_path[PATH_MAX];
	int n;

	memset(rc, 0, sizeof(*rc));
	snprintf(rc->dir, sizeof(rc->dir), "%s", dir);
	rc->sync = sync;
	rp.reading_seq = calloc(GAME_MAX_PLIES, sizeof(*rp.reading_seq));
	rp.journal_complete = calloc(GAME_MAX_PLIES, sizeof(*rp.journal_complete));
	if (!rp.reading_seq || !rp.journal_complete) {
		free(rp.reading_seq);
		free(rp.journal_complete);
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/journal", dir);
	snprintf(pgn_path, sizeof(pgn_path), "%s/game.pgn", dir);
	rp.disk_text = state_read_file(pgn_path, &rp.disk_len);
	rcv_set_aside_foreign(&rp, path);
	rp.torn_press = rcv_torn_line_may_press(path);
	n = journal_read(path, true, replay_record, &rp, &rc->stats, err, err_size);
	if (n < 0)
		goto out;
	/* An empty journal (a power cut before anything after the game record reached the
	 * disk, or a journal set aside): the game from its copy, its moves from game.pgn. */
	if (!g->open) {
		rp.unfinished_only = true;
		game_from_copy(&rp);
	}
	finish(&rp);
	if (recovery_skipped(rc))
		log_warn(LOG_GAME,
			 "%s: %d records skipped (%d bad, %d duplicated, %d not fitting the game), "
			 "the first at line %d; %d records kept",
			 path, recovery_skipped(rc), rc->stats.bad, rc->stats.duplicates,
			 rc->stats.refused, rc->stats.first_skipped, rc->stats.taken);
	/* game.pgn is the one record a player cannot get back: kept under games/ before it is
	 * ever written again when the game recovered is not what it holds (and always when it
	 * was the only copy). */
	if (rc->from_scoresheet || rcv_scoresheet_differs(&rp)) {
		rc->keep_scoresheet = true;
		rc->scoresheet_kept = rp.disk_read ? rp.disk.count : rcv_sheet_plies(&rp);
	}
	rc->moves_lost = rcv_plies_beyond(&rp);
	/* A torn last line (a power cut mid-write) is cut off by the reading itself: the file
	 * is written again only when records inside it were lost or put back. */
	rc->mend_journal =
	    g->open && (recovery_skipped(rc) || rc->filled || rc->game_from_copy ||
			rc->from_scoresheet || rc->readings_filled || rc->readings_from_presses ||
			rc->reordered || rc->clock_uncertain);
	rc->write_copy = g->open && rc->nlines && !copy_whole(rc);
	if (recovery_mend_due(rc) && recovery_mend(rc, rc->lines, rc->nlines))
		log_error(LOG_GAME, "cannot mend the record now (%s): it waits for storage",
			  strerror(errno));
	if (g->open && !game_over(g))
		log_info(LOG_GAME, "resuming game %s after %d moves", g->params.id, game_plies(g));
	rc->last_ms = rp.last_ms;
	n = 0;
out:
	if (rp.disk_read)
		salvage_free(&rp.disk);
	free(rp.disk_text);
	free(rp.reading_seq);
	free(rp.journal_complete);
	return n < 0 ? -1 : 0;
}
