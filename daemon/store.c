/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/store.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "daemon/journal.h"
#include "daemon/state.h"

struct store {
	char dir[256];
	bool sync, record_audio, virtual_time;
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
	struct game_params tagged; /* the tags last given to the scoresheet */
	int notes_seen;		   /* the game's notes when the comments were last made */
};

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
	s->virtual_time = cfg->virtual_time;
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
	free(s);
}

static void journal_path(const struct store *s, char *path, size_t size)
{
	snprintf(path, size, "%s/journal", s->dir);
}

/* ------------------------------------------------------------------ replay */

struct replay {
	struct store *s;
	struct referee *r;
	char err[160];
};

static int replay_record(void *user, const struct journal_record *jr)
{
	struct replay *rp = user;
	struct game_record rec;

	if (game_record_decode(&rec, jr->type, jr->args, jr->ms, rp->err, sizeof(rp->err)))
		return -1;
	/* One game per journal: a finished game's records are kept under games/. */
	if (rec.type == REC_GAME && rp->s->journal_game[0]) {
		snprintf(rp->err, sizeof(rp->err), "a second game record");
		return -1;
	}
	if (referee_replay(rp->r, &rec)) {
		snprintf(rp->err, sizeof(rp->err), "%s record does not fit the game",
			 game_record_name(rec.type));
		return -1;
	}
	if (rec.type == REC_GAME)
		snprintf(rp->s->journal_game, sizeof(rp->s->journal_game), "%s", rec.u.game.id);
	return 0;
}

int store_replay(struct store *s, struct referee *r, char *err, size_t err_size)
{
	struct replay rp = {.s = s, .r = r};
	const struct game *g = referee_game(r);
	char path[PATH_MAX];
	int n;

	journal_path(s, path, sizeof(path));
	n = journal_read(path, true, replay_record, &rp, err, err_size);
	if (n < 0) {
		/* journal_read() names the line; say what was wrong with it. */
		if (rp.err[0]) {
			size_t len = strlen(err);

			snprintf(err + len, err_size > len ? err_size - len : 0, ": %s", rp.err);
		}
		return -1;
	}
	if (n > 0 && !g->open) {
		snprintf(err, err_size, "%s: no game record", path);
		return -1;
	}
	/* A finished game's journal stays open for what its end left (a last move's reading)
	 * until the next game's record keeps it under games/. */
	if (g->open) {
		s->journal = journal_open(path, s->sync, err, err_size);
		if (!s->journal)
			return -1;
	}
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
	if (!s->journal_game[0])
		return;
	journal_path(s, from, sizeof(from));
	snprintf(to, sizeof(to), "%s/games/%s.journal", s->dir, s->journal_game);
	if (rename(from, to) && errno != ENOENT)
		log_error(LOG_GAME, "cannot keep %s as %s: %s", from, to, strerror(errno));
	s->journal_game[0] = '\0';
}

void store_record(struct store *s, const struct game_record *rec)
{
	char args[GAME_RECORD_MAX], err[256];

	if (rec->type == REC_GAME) {
		char path[PATH_MAX];

		archive_journal(s);
		journal_path(s, path, sizeof(path));
		s->journal = journal_open(path, s->sync, err, sizeof(err));
		if (!s->journal) {
			log_error(LOG_GAME, "%s", err);
			return;
		}
		snprintf(s->journal_game, sizeof(s->journal_game), "%s", rec->u.game.id);
	}
	if (!s->journal)
		return;
	if (game_record_encode(rec, args, sizeof(args)) < 0) {
		log_error(LOG_GAME, "%s record too long for the journal",
			  game_record_name(rec->type));
		return;
	}
	journal_append(s->journal, rec->ms, game_record_name(rec->type), "%s", args);
	if (game_record_durable(rec->type))
		journal_sync(s->journal);
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
		char date[16];

		localtime_r(&t, &tm);
		strftime(date, sizeof(date), "%Y.%m.%d", &tm);
		game_params_set_tag(p, "Date", date);
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

static void write_pgn(struct store *s, const struct game *g, bool archive_copy)
{
	char path[PATH_MAX];
	char *text;

	if (!g->open)
		return;
	if (sync_pgn(s, g)) {
		log_error(LOG_GAME, "cannot update the scoresheet (out of memory)");
		return;
	}
	text = pgn_format(&s->pgn);
	if (!text) {
		log_error(LOG_GAME, "cannot format the scoresheet (out of memory)");
		return;
	}
	snprintf(path, sizeof(path), "%s/game.pgn", s->dir);
	if (state_write_atomic(path, text, strlen(text), s->sync))
		log_error(LOG_GAME, "%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/games/%s.pgn", s->dir, g->params.id);
	if (archive_copy && state_write_atomic(path, text, strlen(text), s->sync))
		log_error(LOG_GAME, "%s: %s", path, strerror(errno));
	free(text);
}

void store_scoresheet(struct store *s, const struct game *g)
{
	write_pgn(s, g, game_over(g));
}

void store_game_start(struct store *s, const struct game *g)
{
	if (s->voice && s->record_audio) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/games/%s.wav", s->dir, g->params.id);
		voice_record_to(s->voice, path);
	}
	write_pgn(s, g, true);
}

void store_close(struct store *s, const struct game *g)
{
	write_pgn(s, g, true);
	if (s->journal)
		journal_sync(s->journal);
	/* A game whose result is approved is done: its journal is kept under games/.  One
	 * still waiting for approval (8.7) is resumed at the next start. */
	if (g->open && g->result.state == RESULT_APPROVED)
		archive_journal(s);
}

const struct pgn_game *store_pgn(const struct store *s)
{
	return s->pgn_ready ? &s->pgn : NULL;
}
