/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/recovery.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "base/strbuf.h"
#include "chess/pgn.h"
#include "store/salvage.h"
#include "store/sheet.h"
#include "store/state.h"

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

/* ------------------------------------------------------------------ lines and paths */

/* A copy of the journal's first line, the game record (a journal of one line): everything
 * the game's behaviour depends on, so a damaged first line or an empty journal does not
 * lose the game. */
static void game_copy_path(const char *dir, char *path, size_t size)
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

/* ------------------------------------------------------------------ game.pgn */

/* game.pgn read as far as it can be, once the game (its start) is known; used only if it is
 * this game's unfinished scoresheet, or the finished game's (its copy under games/ is the
 * same). */
static const struct salvage *disk(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);

	if (!rp->disk_read && g->open && rp->disk_text) {
		rp->disk_read = true;
		if (salvage_read(&rp->disk, rp->disk_text, rp->disk_len, &g->start) == 0) {
			rp->disk_usable = !rp->disk.finished;
			if (rp->disk.finished) {
				char path[PATH_MAX];
				size_t len = 0;
				char *archived;

				snprintf(path, sizeof(path), "%s/games/%s.pgn", rp->dir,
					 g->params.id);
				archived = state_read_file(path, &len);
				rp->disk_usable = archived && len == rp->disk_len &&
						  !memcmp(archived, rp->disk_text, len);
				free(archived);
			}
		}
	}
	return rp->disk_usable ? &rp->disk : NULL;
}

/* game.pgn's move at ply, if it can be read and is that of the game's position there. */
static chess_move disk_move(struct replay *rp, int ply)
{
	const struct salvage *sv = disk(rp);
	const struct game *g = referee_game(rp->r);
	chess_move m = CHESS_MOVE_NONE;

	if (!sv || ply >= sv->count || ply != game_plies(g) || !sv->plies[ply].san[0])
		return CHESS_MOVE_NONE;
	if (chess_move_parse_san(game_position(g), sv->plies[ply].san, &m, NULL))
		return CHESS_MOVE_NONE;
	return m;
}

/* game.pgn's reading of ply (made already), if its move there is the game's. */
static int64_t disk_reading(struct replay *rp, int ply)
{
	const struct salvage *sv = disk(rp);
	const struct game *g = referee_game(rp->r);

	if (!sv || ply < 0 || ply >= sv->count || ply >= game_plies(g) ||
	    strcmp(sv->plies[ply].san, g->plies[ply].san))
		return -1;
	return sv->plies[ply].clk_ms;
}

/* Whether game.pgn is this game's up to ply: its moves that can be read are the game's but
 * for one at most (a byte flipped into another move). */
static bool disk_agrees(struct replay *rp, int upto)
{
	const struct salvage *sv = disk(rp);
	const struct game *g = referee_game(rp->r);
	int differ = 0;

	if (!sv)
		return false;
	for (int i = 0; i < upto && i < sv->count && i < game_plies(g); i++)
		if (sv->plies[i].san[0] && strcmp(sv->plies[i].san, g->plies[i].san))
			differ++;
	return differ <= 1;
}

/* ------------------------------------------------------------------ replaying */

/* A record into the game and the recovered journal (its line as read, or made from it). */
static int apply(struct replay *rp, const struct game_record *rec, const char *line)
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
	if (apply(rp, &rec, NULL))
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
		int64_t clk = disk_reading(rp, ply);

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
		chess_move m = disk_move(rp, ply);
		struct game_record rec = {.type = REC_MADE, .ms = ms};

		if (m == CHESS_MOVE_NONE || !disk_agrees(rp, ply))
			return;
		if (g->has_clock) {
			complete_waiting(rp, !game_position(g)->side, ms, false);
			complete_waiting(rp, game_position(g)->side, ms, true);
		}
		rec.u.made.ply = ply + 1;
		rec.u.made.move = m;
		chess_move_to_san(game_position(g), m, rec.u.made.san, sizeof(rec.u.made.san));
		if (apply(rp, &rec, NULL))
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
	if (apply(rp, rec, line))
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
static void game_from_scoresheet(struct replay *rp);

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
	    apply(rp, &rec, NULL)) {
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
	game_copy_path(rp->dir, path, sizeof(path));
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
	game_from_scoresheet(rp);
}

/* ------------------------------------------------------------------ game.pgn alone */

/* A regular file's text (a scoresheet under games/); NULL if it is none or cannot be read. */
static char *read_archived(const char *path, size_t *len)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	return state_read_file(path, len);
}

/* Whether games/ holds a file with game.pgn's text (its game's copy: it is kept). */
static bool archived_copy(struct replay *rp)
{
	char games[PATH_MAX], path[PATH_MAX + 256];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(games, sizeof(games), "%s/games", rp->dir);
	d = opendir(games);
	while (d && !found && (e = readdir(d))) {
		size_t l = strlen(e->d_name), len;
		char *text;

		if (l < 5 || strcmp(e->d_name + l - 4, ".pgn"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", games, e->d_name);
		text = read_archived(path, &len);
		found = text && len == rp->disk_len && !memcmp(text, rp->disk_text, len);
		free(text);
	}
	if (d)
		closedir(d);
	return found;
}

/* Whether an archived scoresheet is an earlier state of game.pgn's game (sv): unfinished,
 * the same tags (but its result and the journal's anchor), its moves the first of
 * game.pgn's; how many plies it holds (-1: it is not). */
static int earlier_state(const struct salvage *sv, const struct salvage *a)
{
	if (a->finished || a->count > sv->count)
		return -1;
	for (int i = 0; i < a->tag_count; i++) {
		const char *v = salvage_tag(sv, a->tags[i].name);

		if (strcmp(a->tags[i].name, "Result") && !sheet_anchor_tag(a->tags[i].name) &&
		    (!v || strcmp(v, a->tags[i].value)))
			return -1;
	}
	for (int i = 0; i < a->count; i++)
		if (!a->plies[i].san[0] || strcmp(a->plies[i].san, sv->plies[i].san))
			return -1;
	return a->count;
}

/* game.pgn's game's id: that of its copy under games/ (games/ID.pgn, written when the game
 * began, at each stop, and at its end) holding an earlier state of it, the longest, whose
 * journal is not kept there (a game whose journal went to games/ is another); or id as it
 * is. */
static void archived_id(struct replay *rp, const struct salvage *sv, const struct chess_pos *start,
			char *id, size_t size)
{
	char games[PATH_MAX], path[PATH_MAX + 256], best[GAME_ID_MAX] = "";
	int best_plies = -1;
	struct dirent *e;
	DIR *d;

	snprintf(games, sizeof(games), "%s/games", rp->dir);
	d = opendir(games);
	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name), len;
		struct salvage a;
		char *text;
		int plies;

		if (l < 5 || l - 4 >= sizeof(best) || strcmp(e->d_name + l - 4, ".pgn") ||
		    strstr(e->d_name, "-before-recovery-") || strstr(e->d_name, "-set-aside-"))
			continue;
		snprintf(path, sizeof(path), "%s/%.*s.journal", games, (int)(l - 4), e->d_name);
		if (!access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s", games, e->d_name);
		text = read_archived(path, &len);
		if (!text)
			continue;
		if (salvage_read(&a, text, len, start) == 0) {
			plies = earlier_state(sv, &a);
			if (plies > best_plies || (plies == best_plies && plies >= 0 &&
						   strncmp(e->d_name, best, sizeof(best)) > 0)) {
				best_plies = plies;
				snprintf(best, sizeof(best), "%.*s", (int)(l - 4), e->d_name);
			}
			salvage_free(&a);
		}
		free(text);
	}
	if (d)
		closedir(d);
	if (best[0])
		snprintf(id, size, "%s", best);
}

/*
 * The game from game.pgn alone, when neither the journal nor game.record holds its game
 * record: its start position, time control and tags, the rest (the player's colour, the
 * mode, the edition) the device's settings for a new game, its id its copy's under games/
 * when one is found (else the new game's); its moves and readings come back from game.pgn
 * as for any game.  An unfinished game only: a finished one is in games/ (or kept there).
 */
static void game_from_scoresheet(struct replay *rp)
{
	struct game_record rec = {.type = REC_GAME};
	struct chess_pos start;
	struct chess_error cerr;
	struct salvage sv;
	const char *fen, *tc;

	if (rp->sheet_tried || !rp->disk_text || !rp->params)
		return;
	rp->sheet_tried = true;
	chess_pos_init_start(&start);
	if (salvage_read(&sv, rp->disk_text, rp->disk_len, &start))
		return;
	fen = salvage_tag(&sv, "FEN");
	tc = salvage_tag(&sv, "TimeControl");
	if (sv.finished || !sv.has_result || (fen && chess_fen_parse(&start, fen, &cerr))) {
		if (!sv.finished)
			log_error(LOG_GAME, "game.pgn: no game to resume from it (%s)",
				  sv.has_result ? "its FEN cannot be read"
						: "its end cannot be read");
		salvage_free(&sv);
		return;
	}
	/* The plies placed from the game's own start. */
	if (fen) {
		salvage_free(&sv);
		if (salvage_read(&sv, rp->disk_text, rp->disk_len, &start))
			return;
	}
	rec.u.game = *rp->params;
	snprintf(rec.u.game.fen, sizeof(rec.u.game.fen), "%s", fen ? fen : CHESS_FEN_START);
	snprintf(rec.u.game.time_control, sizeof(rec.u.game.time_control), "%s", tc ? tc : "-");
	rec.u.game.tag_count = 0;
	for (int i = 0; i < sv.tag_count; i++)
		if (!game_tag_derived(sv.tags[i].name) &&
		    game_params_set_tag(&rec.u.game, sv.tags[i].name, sv.tags[i].value))
			log_warn(LOG_GAME, "game.pgn: tag %s left out (no room)", sv.tags[i].name);
	archived_id(rp, &sv, &start, rec.u.game.id, sizeof(rec.u.game.id));
	if (apply(rp, &rec, NULL)) {
		log_error(LOG_GAME, "game.pgn: its game cannot be resumed (time control %s)",
			  rec.u.game.time_control);
	} else {
		rp->rc->from_scoresheet = true;
		log_error(LOG_GAME,
			  "neither the journal nor game.record holds the game: game %s resumed "
			  "from game.pgn alone (%d plies; the player's colour, mode and edition "
			  "are this device's settings), for the arbiter to check",
			  rec.u.game.id, sv.count);
	}
	salvage_free(&sv);
}

/* ------------------------------------------------------------------ the clock */

/* Whether the journal's torn last line (a power cut in the middle of its write, or the file
 * cut short) may have been a press or a completion: its type is one of them, or the line is
 * too short to tell.  Read before the reading cuts it off. */
static bool torn_line_may_press(const char *path)
{
	size_t len;
	char *text = state_read_file(path, &len), *tail;
	int spaces = 0;
	bool may;

	if (!text || !len || text[len - 1] == '\n') {
		free(text);
		return false;
	}
	tail = memrchr(text, '\n', len);
	tail = tail ? tail + 1 : text;
	/* "CRC32 CHAIN MS TYPE ...": the type is whole once four spaces are there. */
	for (const char *p = tail; *p; p++)
		spaces += *p == ' ';
	may = spaces < 4 || strstr(tail, " press ") || strstr(tail, " complete ");
	free(text);
	return may;
}

/* Whether a reading came after the journal's last clock record and is not the clock's: the
 * press that gave it was lost, so the clock is older than the game (game.pgn is written
 * after every press, so a press it does not show is lost from both copies).  A game from
 * game.record or game.pgn alone has no clock record at all: its clock is not known once it
 * has moves. */
static bool clock_stale(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);

	if ((rp->rc->game_from_copy || rp->rc->from_scoresheet) && game_plies(g) > 0 &&
	    !rp->clock_seq)
		return true;
	/* A press torn off the journal's end switched the clocks the journal does not show:
	 * a move still waits for a press that may have come. */
	if (rp->torn_press && (completion_waiting(&g->completion, CHESS_WHITE) >= 0 ||
			       completion_waiting(&g->completion, CHESS_BLACK) >= 0))
		return true;
	for (int color = 0; color < 2; color++) {
		int last = -1;

		for (int i = game_plies(g) - 1; i >= 0 && last < 0; i--)
			if (game_ply_color(g, i) == color && g->plies[i].clk_ms >= 0)
				last = i;
		if (last >= 0 && rp->reading_seq[last] > rp->clock_seq &&
		    g->plies[last].clk_ms / 1000 !=
			clock_last_press_remaining(&g->clock, color) / 1000)
			return true;
	}
	return false;
}

/*
 * The clock could not be known (its records lost; moves and readings came back from
 * elsewhere): it resumes from the last reading known for each side, the side to move next
 * runs, stopped until the arbiter resumes or sets it.  A `checkpoint recovered` record
 * carries it (and marks it uncertain), so the next start comes back to the same clock.
 */
static void recover_clock(struct replay *rp, uint64_t ms)
{
	const struct game *g = referee_game(rp->r);
	struct game_record rec = {.type = REC_CHECKPOINT, .ms = ms};
	struct chess_clock c = g->clock;
	int64_t reading[2] = {clock_remaining(&c, CHESS_WHITE, ms),
			      clock_remaining(&c, CHESS_BLACK, ms)};
	int moves[2] = {c.moves[0], c.moves[1]}, counted[2] = {0, 0};
	int last = game_plies(g) - 1, running;

	if (!g->has_clock || game_over(g) || !clock_stale(rp))
		return;
	for (int i = 0; i <= last; i++) {
		int color = game_ply_color(g, i);

		if (g->plies[i].clk_ms < 0)
			continue;
		reading[color] = g->plies[i].clk_ms;
		counted[color]++;
	}
	for (int color = 0; color < 2; color++)
		if (counted[color] > moves[color])
			moves[color] = counted[color];
	/* The side whose move is not complete runs: the last mover before their press, else
	 * the side to move. */
	running = last >= 0 && !(g->plies[last].flags & GAME_PLY_COMPLETE) ? game_ply_color(g, last)
									   : game_position(g)->side;
	if (c.state == CLOCK_NOT_STARTED)
		clock_press(&c, !c.first_mover, ms);
	clock_set_running(&c, running, ms);
	clock_set(&c, reading[0], reading[1], -1, ms);
	clock_set_moves(&c, moves[0], moves[1]);
	clock_pause(&c, ms);
	rec.u.checkpoint_recovered = true;
	rec.clock = c;
	if (apply(rp, &rec, NULL))
		return;
	rp->rc->clock_uncertain = true;
	log_warn(LOG_GAME,
		 "the clock's records were lost: it stands at the last readings known (white "
		 "%lld ms, black %lld ms) until the arbiter resumes or sets it",
		 (long long)reading[0], (long long)reading[1]);
}

/* ------------------------------------------------------------------ a foreign journal */

struct survey {
	char game_args[GAME_RECORD_MAX];
	bool has_game;
	char (*san)[CHESS_SAN_MAX]; /* the last move journaled for each ply */
	int plies;
};

static int survey_record(void *user, const struct journal_record *jr, char *why, size_t why_size)
{
	struct survey *sv = user;
	struct game_record rec;

	(void)why;
	(void)why_size;
	if (!strcmp(jr->type, "game") && !sv->has_game) {
		snprintf(sv->game_args, sizeof(sv->game_args), "%s", jr->args);
		sv->has_game = true;
		return 0;
	}
	if (strcmp(jr->type, "made") && strcmp(jr->type, "relayed"))
		return 0;
	if (game_record_decode(&rec, jr->type, jr->args, jr->ms, why, why_size))
		return 0;
	{
		int ply = (rec.type == REC_MADE ? rec.u.made.ply : rec.u.relayed.ply) - 1;

		if (ply < 0 || ply >= GAME_MAX_PLIES)
			return 0;
		snprintf(sv->san[ply], CHESS_SAN_MAX, "%s",
			 rec.type == REC_MADE ? rec.u.made.san : rec.u.relayed.san);
		if (ply + 1 > sv->plies)
			sv->plies = ply + 1;
	}
	return 0;
}

/*
 * Whether the journal is another game's than the one game.record and game.pgn hold (the
 * same id: copied from another board, or a game restored from elsewhere): its game record
 * is not game.record's, or two or more of its moves are not game.pgn's.  Then it is set
 * aside under games/, and the game of game.record and game.pgn is resumed.
 */
static void set_aside_foreign(struct replay *rp, const char *path)
{
	struct survey jn = {0}, copy = {0};
	char cpath[PATH_MAX], err[256], why[160] = "";
	struct game_record rec;
	struct chess_pos start;
	struct chess_error cerr;
	int differ = 0;

	jn.san = calloc(GAME_MAX_PLIES, CHESS_SAN_MAX);
	if (!jn.san)
		return;
	if (journal_read(path, false, survey_record, &jn, NULL, err, sizeof(err)) <= 0 ||
	    !jn.has_game)
		goto done;
	game_copy_path(rp->dir, cpath, sizeof(cpath));
	copy.san = jn.san; /* unused: the copy is one line */
	if (journal_read(cpath, false, survey_record, &copy, NULL, err, sizeof(err)) > 0 &&
	    copy.has_game && strcmp(copy.game_args, jn.game_args)) {
		snprintf(why, sizeof(why), "its game record is not game.record's");
	} else if (rp->disk_text &&
		   !game_record_decode(&rec, "game", jn.game_args, 0, err, sizeof(err)) &&
		   !chess_fen_parse(&start, rec.u.game.fen, &cerr)) {
		struct salvage sv;

		if (salvage_read(&sv, rp->disk_text, rp->disk_len, &start) == 0) {
			for (int i = 0; i < jn.plies && i < sv.count; i++)
				if (jn.san[i][0] && sv.plies[i].san[0] &&
				    strcmp(jn.san[i], sv.plies[i].san))
					differ++;
			if (differ >= 2 && !sv.finished)
				snprintf(why, sizeof(why), "%d of its moves are not game.pgn's",
					 differ);
			salvage_free(&sv);
		}
	}
	if (!why[0] || game_record_decode(&rec, "game", jn.game_args, 0, err, sizeof(err)))
		goto done;
	if (state_kept_name(rp->dir, rec.u.game.id, "foreign", "journal", rp->rc->foreign_path,
			    sizeof(rp->rc->foreign_path)) ||
	    rename(path, rp->rc->foreign_path)) {
		log_error(LOG_GAME,
			  "the journal is another game's (%s), but cannot be set aside: %s", why,
			  strerror(errno));
		rp->rc->foreign_path[0] = '\0';
		goto done;
	}
	log_error(LOG_GAME,
		  "the journal is another game's with the id %s (%s): kept as %s; the game of "
		  "game.record and game.pgn resumes (the arbiter chooses: annabella fsck --use)",
		  rec.u.game.id, why, rp->rc->foreign_path);
done:
	free(jn.san);
}

/* ------------------------------------------------------------------ mending */

static int keep_scoresheet(struct recovery *rc)
{
	char path[PATH_MAX], kept[PATH_MAX];

	snprintf(path, sizeof(path), "%s/game.pgn", rc->dir);
	if (access(path, F_OK)) {
		rc->keep_scoresheet = false;
		return 0;
	}
	if (state_keep(rc->dir, path, rc->game_id, "before-recovery", "pgn", kept, sizeof(kept)))
		return -1;
	snprintf(rc->scoresheet_kept_path, sizeof(rc->scoresheet_kept_path), "%s", kept);
	rc->keep_scoresheet = false;
	log_warn(LOG_GAME,
		 "game.pgn (%d plies) kept as %s before it is written again; the "
		 "arbiter decides",
		 rc->scoresheet_kept, kept);
	return 0;
}

static int mend_journal(struct recovery *rc, char *const *lines, size_t nlines)
{
	char path[PATH_MAX];
	size_t total = 0;
	char *text;
	int rc_write;

	snprintf(path, sizeof(path), "%s/journal", rc->dir);
	if (!rc->damaged_path[0] && !access(path, F_OK)) {
		char kept[PATH_MAX];

		if (state_keep(rc->dir, path, rc->game_id, "damaged", "journal", kept,
			       sizeof(kept)))
			return -1;
		snprintf(rc->damaged_path, sizeof(rc->damaged_path), "%s", kept);
	}
	/* A new chain over the records kept; the recovery itself is noted in it (store.c). */
	text = journal_chain_text(lines, nlines, &total);
	if (!text)
		return -1;
	rc_write = state_write_atomic(path, text, total, rc->sync);
	free(text);
	if (rc_write)
		return -1;
	rc->mend_journal = false;
	log_warn(LOG_GAME, "journal mended (%zu records)%s%s", nlines,
		 rc->damaged_path[0] ? "; the damaged one is kept as " : "", rc->damaged_path);
	return 0;
}

/* game.record, the game record's copy, written again from the recovered first line. */
static int write_copy(struct recovery *rc, char *const *lines, size_t nlines)
{
	char path[PATH_MAX];

	game_copy_path(rc->dir, path, sizeof(path));
	if (nlines && state_write_atomic(path, lines[0], strlen(lines[0]), rc->sync))
		return -1;
	rc->write_copy = false;
	log_warn(LOG_GAME, "%s written again", path);
	return 0;
}

int recovery_mend(struct recovery *rc, char *const *lines, size_t nlines)
{
	if (rc->keep_scoresheet && keep_scoresheet(rc))
		return -1;
	if (rc->mend_journal && mend_journal(rc, lines, nlines))
		return -1;
	if (rc->write_copy && write_copy(rc, lines, nlines))
		return -1;
	return 0;
}

bool recovery_mend_due(const struct recovery *rc)
{
	return rc->keep_scoresheet || rc->mend_journal || rc->write_copy;
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

/* What game.pgn holds that the game recovered does not (more plies, other moves, readings),
 * or whether it could not be read whole: then it is kept before it is written again. */
/* The part of a comment after its reading ("[%clk H:MM:SS]" and a space), from p on n. */
static const char *after_reading(const char *c, size_t *n)
{
	const char *end;

	if (*n < 6 || memcmp(c, "[%clk ", 6) || !(end = memchr(c, ']', *n)))
		return c;
	*n -= (size_t)(end + 1 - c);
	c = end + 1;
	if (*n && *c == ' ') {
		c++;
		(*n)--;
	}
	return c;
}

/* Whether a ply's comment on disk is one the store wrote for it: the one it would write now
 * (want), or an earlier one (before the reading, the draw offer or a note came): a reading
 * that can be read, the rest the start of want's without its reading. */
static bool comment_written(const struct salvage_ply *p, const char *want)
{
	size_t n = p->comment_len, wn = want ? strlen(want) : 0;
	const char *c = p->comment;

	if (!c)
		return true;
	if (n >= 6 && !memcmp(c, "[%clk ", 6) && p->clk_ms < 0)
		return false;
	c = after_reading(c, &n);
	if (want)
		want = after_reading(want, &wn);
	return n <= wn && (!n || !memcmp(c, want, n));
}

/* Whether game.pgn's tags and comments are the store's for the game recovered, or an
 * earlier state of them (a tag or a comment not yet written); a tag or comment that is
 * neither (a flipped byte in a name, a value, a reading's text) is damage. */
static bool sheet_text_differs(struct replay *rp, const struct salvage *sv)
{
	const struct game *g = referee_game(rp->r);
	struct sheet *sh = sheet_new();
	char *text = sh ? sheet_text(sh, g, &(struct sheet_anchor){0}) : NULL;
	const struct pgn_game *pgn = sheet_pgn(sh);
	bool differs = !text || !pgn;

	for (int i = 0; i < sv->tag_count && !differs; i++) {
		const char *name = sv->tags[i].name, *v = sv->tags[i].value;
		const char *want = pgn_game_tag(pgn, name);

		if (sheet_anchor_tag(name) || (!strcmp(name, "Result") && !strcmp(v, "*")))
			continue;
		differs = !want || strcmp(want, v);
	}
	for (int i = 0; i < sv->count && i < pgn->game.count && !differs; i++)
		differs = !comment_written(&sv->plies[i], pgn->comments[i]);
	free(text);
	sheet_free(sh);
	return differs;
}

static bool scoresheet_differs(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);
	const struct salvage *sv = disk(rp);

	if (!rp->disk_text)
		return false;
	/* No game recovered: game.pgn's is written over by the next one unless it is kept
	 * under games/ already. */
	if (!g->open)
		return !archived_copy(rp);
	if (!sv)
		return rp->disk_read && !rp->disk.finished;
	if (sv->damaged || sv->count > game_plies(g))
		return true;
	for (int i = 0; i < sv->count; i++)
		if (strcmp(sv->plies[i].san, g->plies[i].san) ||
		    (sv->plies[i].clk_ms >= 0 &&
		     sv->plies[i].clk_ms / 1000 != g->plies[i].clk_ms / 1000))
			return true;
	return sheet_text_differs(rp, sv);
}

/* The plies of game.pgn read from the initial position (no game was recovered to place
 * them). */
static int sheet_plies(struct replay *rp)
{
	struct chess_pos start;
	struct salvage sv;
	int n;

	chess_pos_init_start(&start);
	if (salvage_read(&sv, rp->disk_text, rp->disk_len, &start))
		return 0;
	n = sv.count;
	salvage_free(&sv);
	return n;
}

/* The plies game.pgn held beyond the game recovered (moves the journal lost that could not
 * be put back: kept with game.pgn for the arbiter). */
static int plies_beyond(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);
	const struct salvage *sv = g->open ? disk(rp) : NULL;
	int last = -1;

	for (int i = 0; sv && i < sv->count; i++)
		if (sv->plies[i].san[0])
			last = i;
	return last + 1 > game_plies(g) ? last + 1 - game_plies(g) : 0;
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
	if (disk(rp))
		fill_from_scoresheet(rp, disk(rp)->count, rp->last_ms);
	if (g->has_clock) {
		complete_waiting(rp, CHESS_WHITE, rp->last_ms, false);
		complete_waiting(rp, CHESS_BLACK, rp->last_ms, false);
		for (int i = 0; i < game_plies(g); i++) {
			int64_t clk;

			if (g->plies[i].flags & GAME_PLY_COMPLETE || rp->journal_complete[i])
				continue;
			clk = disk_reading(rp, i);
			if (clk >= 0)
				put_complete(rp, i, clk, rp->last_ms, "game.pgn");
		}
		recover_clock(rp, rp->last_ms);
	}
}

/* Whether game.record holds the game record the journal begins with. */
static bool copy_whole(const struct recovery *rc)
{
	char path[PATH_MAX];
	size_t len;
	char *text;
	bool same;

	game_copy_path(rc->dir, path, sizeof(path));
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
	set_aside_foreign(&rp, path);
	rp.torn_press = torn_line_may_press(path);
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
	if (rc->from_scoresheet || scoresheet_differs(&rp)) {
		rc->keep_scoresheet = true;
		rc->scoresheet_kept = rp.disk_read ? rp.disk.count : sheet_plies(&rp);
	}
	rc->moves_lost = plies_beyond(&rp);
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
