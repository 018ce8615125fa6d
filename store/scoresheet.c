/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/scoresheet.h"

#include <stdlib.h>
#include <string.h>

#include "braille/braille.h"

char *scoresheet_render(const struct pgn_game *g, const char *format,
			const struct braille_layout *layout)
{
	struct scoresheet_game sheet = {0};
	bool *offers;
	char *out;

	if (!strcmp(format, "pgn"))
		return pgn_format(g);
	offers = calloc((size_t)g->game.count + 1, sizeof(*offers));
	if (!offers)
		return NULL;
	/* A draw offer (Art. 8.1.5) is kept as "(=)" in the move's comment. */
	for (int i = 0; i < g->game.count && i < g->comments_capacity; i++)
		offers[i] = g->comments[i] && strstr(g->comments[i], "(=)");
	sheet.start = &g->game.start;
	sheet.moves = g->game.moves;
	sheet.count = g->game.count;
	sheet.draw_offered = offers;
	sheet.tags.white = pgn_game_tag(g, "White");
	sheet.tags.black = pgn_game_tag(g, "Black");
	sheet.tags.event = pgn_game_tag(g, "Event");
	sheet.tags.date = pgn_game_tag(g, "Date");
	sheet.tags.site = pgn_game_tag(g, "Site");
	sheet.tags.round = pgn_game_tag(g, "Round");
	sheet.tags.board = pgn_game_tag(g, "Board");
	sheet.tags.fairplay = pgn_game_tag(g, "FairPlay");
	sheet.tags.result = g->result;
	if (!strcmp(format, "text"))
		out = scoresheet_text(&sheet);
	else
		out = braille_scoresheet(
		    &sheet, !strcmp(format, "brf") ? BRAILLE_BRF : BRAILLE_UNICODE, layout);
	free(offers);
	return out;
}
