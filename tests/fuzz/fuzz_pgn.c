/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * PGN reader: arbitrary bytes.  It must never crash, must end, and every game it
 * reads must format (movetext under 80 columns) and read back as the same game.  Inputs
 * whose length is odd are read with their variations kept: every variation's moves are then
 * legal from where it branches, and it branches from a move its parent has.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chess/pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_lines(const char *text)
{
	bool tag_line = text[0] == '[';
	int col = 0;

	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			col = 0;
			tag_line = p[1] == '[';
			continue;
		}
		if (++col >= 80 && !tag_line)
			abort();
	}
}

static bool long_comments(const struct pgn_game *g)
{
	if (g->leading_comment && strlen(g->leading_comment) > PGN_MAX_COMMENT / 2)
		return true;
	for (int i = 0; i < g->comments_capacity; i++)
		if (g->comments[i] && strlen(g->comments[i]) > PGN_MAX_COMMENT / 2)
			return true;
	return false;
}

static void check_round_trip(const struct pgn_game *g)
{
	char *text = pgn_format(g);
	if (!text)
		abort();
	check_lines(text);

	struct pgn_reader *r = pgn_reader_new(text, strlen(text));
	struct pgn_game back;
	struct chess_error err;
	if (!r || pgn_reader_next(r, &back, &err) != 1)
		abort();
	if (back.game.count != g->game.count || strcmp(back.result, g->result) ||
	    memcmp(&back.game.start, &g->game.start, sizeof(back.game.start)))
		abort();
	for (int i = 0; i < g->game.count; i++)
		if (back.game.moves[i] != g->game.moves[i])
			abort();
	for (int i = 0; i < g->tag_count; i++) {
		const char *name = g->tags[i].name;
		/* SetUp and FEN are written only for a start other than the initial position. */
		if (strcmp(name, "SetUp") && strcmp(name, "FEN") && !pgn_game_tag(&back, name))
			abort();
	}
	/* A second pass is a fixed point: comments and tags are already normalised (unless a
	 * comment near the length bound grew when a long word was split for the line limit). */
	char *again = pgn_format(&back);
	if (!again || (!long_comments(g) && strcmp(again, text) != 0))
		abort();
	pgn_game_free(&back);
	if (pgn_reader_next(r, &back, &err) != 0)
		abort();
	pgn_reader_free(r);
	free(again);
	free(text);
}

static void check_variations(const struct pgn_game *g)
{
	for (int i = 0; i < g->variation_count; i++) {
		const struct pgn_variation *v = &g->variations[i];
		int parent_end =
		    v->parent < 0 ? g->game.count
				  : g->variations[v->parent].base + g->variations[v->parent].count;
		struct chess_pos pos = g->game.start;
		struct chess_undo undo;

		if (v->parent >= i || v->base >= parent_end ||
		    (v->parent >= 0 && v->base < g->variations[v->parent].base))
			abort();
		for (int k = 0; k < v->base + v->count; k++) {
			chess_move m = pgn_variation_move(g, i, k);

			if (!chess_pos_is_legal(&pos, m))
				abort();
			chess_pos_make(&pos, m, &undo);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pgn_reader *r = pgn_reader_new((const char *)data, size);
	struct pgn_game g;
	struct chess_error err;
	int rc;
	size_t rounds = 0;

	if (!r)
		abort();
	pgn_reader_keep_variations(r, size % 2 == 1);
	while ((rc = pgn_reader_next(r, &g, &err)) != 0) {
		/* Every call consumes input, so there are never more results than bytes. */
		if (++rounds > size + 1)
			abort();
		if (rc < 0) {
			if (err.line < 1 || err.column < 1 || !err.message[0])
				abort();
			continue;
		}
		check_variations(&g);
		check_round_trip(&g);
		pgn_game_free(&g);
	}
	pgn_reader_free(r);
	return 0;
}
