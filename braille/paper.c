/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The paper scoresheet of Appendix C: local (German) letters, "0-0", "d8D", draw offers
 * marked "(=)".
 */
#include "braille/braille.h"
#include "base/strbuf.h"
#include "base/utf8.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool present(const char *value)
{
	return value && value[0] && strcmp(value, "?") != 0 && strcmp(value, "????.??.??") != 0;
}

/* Width of the white column: the longest local move is "Sb1xd2+" or "exd8D+", plus "(=)". */
#define MOVE_COLUMN 13

char *scoresheet_text(const struct scoresheet_game *game)
{
	struct strbuf t = {0};
	const struct scoresheet_tags *tags = &game->tags;
	static const char *const labels[] = {"White", "Black", "Event", "Site",
					     "Date",  "Round", "Board", "Fair play"};
	const char *values[] = {tags->white, tags->black, tags->event, tags->site,
				tags->date,  tags->round, tags->board, tags->fairplay};
	bool any = false;
	for (size_t k = 0; k < sizeof(labels) / sizeof(labels[0]); k++) {
		if (present(values[k])) {
			/* A name cannot break its line or turn the text (base/utf8.h). */
			strbuf_printf(&t, "%s: ", labels[k]);
			utf8_append_safe(&t, values[k], strlen(values[k]), false);
			strbuf_append(&t, "\n", 1);
			any = true;
		}
	}
	if (any)
		strbuf_printf(&t, "\n");

	struct chess_pos pos;
	if (game->start)
		pos = *game->start;
	else
		chess_pos_init_start(&pos);
	int number = pos.fullmove_number;
	for (int i = 0; i < game->count; i++) {
		if (!chess_pos_is_legal(&pos, game->moves[i])) {
			free(t.p);
			errno = EINVAL;
			return NULL;
		}
		char move[CHESS_SAN_MAX + 8];
		chess_move_to_local(&pos, game->moves[i], move, CHESS_SAN_MAX);
		if (game->draw_offered && game->draw_offered[i])
			strcat(move, " (=)");
		if (pos.side == CHESS_WHITE) {
			bool last = i + 1 == game->count;
			strbuf_printf(&t, "%3d. %s", number, move);
			if (!last)
				strbuf_printf(&t, "%*s",
					      strlen(move) < MOVE_COLUMN
						  ? (int)(MOVE_COLUMN - strlen(move) + 1)
						  : 1,
					      "");
		} else {
			if (i == 0)
				strbuf_printf(&t, "%3d. %-*s ", number, MOVE_COLUMN, "...");
			strbuf_printf(&t, "%s\n", move);
			number++;
		}
		struct chess_undo undo;
		chess_pos_make(&pos, game->moves[i], &undo);
	}
	if (game->count > 0 && pos.side == CHESS_BLACK)
		strbuf_printf(&t, "\n");
	if (tags->result && tags->result[0])
		strbuf_printf(&t, "%sResult: %s\n", game->count > 0 ? "\n" : "", tags->result);
	return strbuf_finish(&t);
}
