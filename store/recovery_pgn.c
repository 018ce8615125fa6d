/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recovery's game.pgn (docs/state.md "State directory"): the scoresheet read as far as it can
 * be once the game's start is known, its moves and readings where it agrees with the game;
 * the game from game.pgn alone when neither the journal nor game.record holds its record (its
 * id its copy's under games/); and whether game.pgn holds what the game recovered does not,
 * so it is kept under games/ before it is written again.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "chess/pgn.h"
#include "store/recovery_int.h"
#include "store/salvage.h"
#include "store/sheet.h"
#include "store/state.h"

/* ------------------------------------------------------------------ game.pgn */

/* game.pgn read as far as it can be, once the game (its start) is known; used only if it is
 * this game's unfinished scoresheet, or the finished game's (its copy under games/ is the
 * same). */
const struct salvage *rcv_disk(struct replay *rp)
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
chess_move rcv_disk_move(struct replay *rp, int ply)
{
	const struct salvage *sv = rcv_disk(rp);
	const struct game *g = referee_game(rp->r);
	chess_move m = CHESS_MOVE_NONE;

	if (!sv || ply >= sv->count || ply != game_plies(g) || !sv->plies[ply].san[0])
		return CHESS_MOVE_NONE;
	if (chess_move_parse_san(game_position(g), sv->plies[ply].san, &m, NULL))
		return CHESS_MOVE_NONE;
	return m;
}

/* game.pgn's reading of ply (made already), if its move there is the game's. */
int64_t rcv_disk_reading(struct replay *rp, int ply)
{
	const struct salvage *sv = rcv_disk(rp);
	const struct game *g = referee_game(rp->r);

	if (!sv || ply < 0 || ply >= sv->count || ply >= game_plies(g) ||
	    strcmp(sv->plies[ply].san, g->plies[ply].san))
		return -1;
	return sv->plies[ply].clk_ms;
}

/* Whether game.pgn is this game's up to ply: its moves that can be read are the game's but
 * for one at most (a byte flipped into another move). */
bool rcv_disk_agrees(struct replay *rp, int upto)
{
	const struct salvage *sv = rcv_disk(rp);
	const struct game *g = referee_game(rp->r);
	int differ = 0;

	if (!sv)
		return false;
	for (int i = 0; i < upto && i < sv->count && i < game_plies(g); i++)
		if (sv->plies[i].san[0] && strcmp(sv->plies[i].san, g->plies[i].san))
			differ++;
	return differ <= 1;
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
void rcv_game_from_scoresheet(struct replay *rp)
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
	if (rcv_apply(rp, &rec, NULL)) {
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

bool rcv_scoresheet_differs(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);
	const struct salvage *sv = rcv_disk(rp);

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
int rcv_sheet_plies(struct replay *rp)
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
int rcv_plies_beyond(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);
	const struct salvage *sv = g->open ? rcv_disk(rp) : NULL;
	int last = -1;

	for (int i = 0; sv && i < sv->count; i++)
		if (sv->plies[i].san[0])
			last = i;
	return last + 1 > game_plies(g) ? last + 1 - game_plies(g) : 0;
}
