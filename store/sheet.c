/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/sheet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sheet {
	struct pgn_game pgn;
	bool pgn_ready;
	char pgn_game_id[GAME_ID_MAX];
	/* What each ply's comment was made from, so only changed comments are made again. */
	struct game_ply *marks;
	int marks_count, marks_capacity;
	struct game_params tagged; /* the tags last given to the scoresheet */
	int notes_seen;		   /* the game's notes when the comments were last made */
};

struct sheet *sheet_new(void)
{
	return calloc(1, sizeof(struct sheet));
}

void sheet_free(struct sheet *sh)
{
	if (!sh)
		return;
	if (sh->pgn_ready)
		pgn_game_free(&sh->pgn);
	free(sh->marks);
	free(sh);
}

const struct pgn_game *sheet_pgn(const struct sheet *sh)
{
	return sh && sh->pgn_ready ? &sh->pgn : NULL;
}

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

/* A ply's comment: its [%clk] reading (docs/state.md "State directory": truncated to whole
 * seconds), the draw offer made with it (8.1.5), whether it was made after a flag fell that
 * the arbiter had not ruled on, and the notes after it. */
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
	if (p->flags & GAME_PLY_AFTER_FLAG)
		n +=
		    snprintf(buf + n, size - (size_t)n, "%smade after the flag fell", n ? " " : "");
	if (notes[0] && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "%s%s", n ? " " : "", notes);
	return buf[0] ? buf : NULL;
}

/* Bring the kept scoresheet up to the game: new moves pushed, readings and marks set. */
static int sync_pgn(struct sheet *s, const struct game *g)
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
	/* The device's fair-play state over the game so far (docs/fairplay.md "Fair play"). */
	if (g->fairplay.measured) {
		char summary[FAIRPLAY_SUMMARY_MAX];

		fairplay_summary(&g->fairplay.first, g->fairplay.breach, g->fairplay.breach_move,
				 g->fairplay.breach_what, &g->fairplay.policy, summary,
				 sizeof(summary));
		pgn_game_set_tag(pgn, "FairPlay", summary);
	}
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

bool sheet_anchor_tag(const char *name)
{
	return !strcmp(name, "DeviceSerial") || !strcmp(name, "GameId") ||
	       !strcmp(name, "JournalLine") || !strcmp(name, "JournalChain");
}

char *sheet_text(struct sheet *sh, const struct game *g, const struct sheet_anchor *anchor)
{
	if (sync_pgn(sh, g))
		return NULL;
	/* Which device records the game, and the journal's chain as it stands when this
	 * scoresheet is written: `annabella verify` finds it at that line of the journal. */
	if (anchor->serial && anchor->serial[0])
		pgn_game_set_tag(&sh->pgn, "DeviceSerial", anchor->serial);
	if (anchor->chain && anchor->chain[0]) {
		char line[24];

		snprintf(line, sizeof(line), "%ld", anchor->line);
		pgn_game_set_tag(&sh->pgn, "GameId", g->params.id);
		pgn_game_set_tag(&sh->pgn, "JournalLine", line);
		pgn_game_set_tag(&sh->pgn, "JournalChain", anchor->chain);
	}
	return pgn_format(&sh->pgn);
}
