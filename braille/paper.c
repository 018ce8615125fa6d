/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The paper scoresheet of Appendix C: local (German) letters, "0-0", "d8D", draw offers
 * marked "(=)".
 */
#include "braille/braille.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct text {
	char *buf;
	size_t len, cap;
	bool failed;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	if (t->failed)
		return;
	for (;;) {
		size_t room = t->cap - t->len;
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if (t->buf && (size_t)n < room) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap : 1024;
		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		char *grown = realloc(t->buf, cap);
		if (!grown) {
			t->failed = true;
			return;
		}
		t->buf = grown;
		t->cap = cap;
	}
}

static bool present(const char *value)
{
	return value && value[0] && strcmp(value, "?") != 0 && strcmp(value, "????.??.??") != 0;
}

/* Width of the white column: the longest local move is "Sb1xd2+" or "exd8D+", plus "(=)". */
#define MOVE_COLUMN 13

char *scoresheet_text(const struct scoresheet_game *game)
{
	struct text t = {0};
	const struct scoresheet_tags *tags = &game->tags;
	static const char *const labels[] = {"White", "Black", "Event", "Date"};
	const char *values[] = {tags->white, tags->black, tags->event, tags->date};
	bool any = false;
	for (size_t k = 0; k < 4; k++) {
		if (present(values[k])) {
			add(&t, "%s: %s\n", labels[k], values[k]);
			any = true;
		}
	}
	if (any)
		add(&t, "\n");

	struct chess_pos pos;
	if (game->start)
		pos = *game->start;
	else
		chess_pos_init_start(&pos);
	int number = pos.fullmove_number;
	for (int i = 0; i < game->count; i++) {
		if (!chess_pos_is_legal(&pos, game->moves[i])) {
			free(t.buf);
			errno = EINVAL;
			return NULL;
		}
		char move[CHESS_SAN_MAX + 8];
		chess_move_to_local(&pos, game->moves[i], move, CHESS_SAN_MAX);
		if (game->draw_offered && game->draw_offered[i])
			strcat(move, " (=)");
		if (pos.side == CHESS_WHITE) {
			bool last = i + 1 == game->count;
			add(&t, "%3d. %s", number, move);
			if (!last)
				add(&t, "%*s",
				    strlen(move) < MOVE_COLUMN
					? (int)(MOVE_COLUMN - strlen(move) + 1)
					: 1,
				    "");
		} else {
			if (i == 0)
				add(&t, "%3d. %-*s ", number, MOVE_COLUMN, "...");
			add(&t, "%s\n", move);
			number++;
		}
		struct chess_undo undo;
		chess_pos_make(&pos, game->moves[i], &undo);
	}
	if (game->count > 0 && pos.side == CHESS_BLACK)
		add(&t, "\n");
	if (tags->result && tags->result[0])
		add(&t, "%sResult: %s\n", game->count > 0 ? "\n" : "", tags->result);
	if (!t.buf)
		add(&t, "%s", "");
	if (t.failed) {
		free(t.buf);
		errno = ENOMEM;
		return NULL;
	}
	return t.buf;
}
