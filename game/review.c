/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/review.h"

#include <string.h>

void review_reset(struct review *v)
{
	v->state = REVIEW_OFF;
	v->lines = v->count = v->text_len = v->lead_comment = 0;
	v->cur = v->at = v->left = 0;
	v->ready = false;
	v->choosing = false;
	v->swap = 0;
}

void review_load(struct review *v, const struct chess_pos *start)
{
	bool aloud = v->aloud;

	review_reset(v);
	v->aloud = aloud;
	v->state = REVIEW_LOADING;
	v->start = v->end = v->shown = *start;
	v->lines = 1;
	v->line[REVIEW_MAIN] = (struct review_line){.parent = -1};
}

int review_add(struct review *v, chess_move m)
{
	struct review_line *l = &v->line[v->lines - 1];
	struct chess_undo undo;

	if (v->state != REVIEW_LOADING || v->count >= REVIEW_MAX_PLIES ||
	    !chess_pos_is_legal(&v->end, m))
		return -1;
	chess_pos_make(&v->end, m, &undo);
	v->comment[v->count] = 0;
	v->moves[v->count++] = m;
	l->count++;
	return 0;
}

int review_add_line(struct review *v, int parent, int base)
{
	struct review_line *l;

	if (v->state != REVIEW_LOADING || v->lines >= REVIEW_MAX_LINES || parent < 0 ||
	    parent >= v->lines || base < v->line[parent].base ||
	    base >= v->line[parent].base + v->line[parent].count)
		return -1;
	l = &v->line[v->lines];
	*l = (struct review_line){.parent = parent, .base = base, .first = v->count};
	review_position(v, parent, base, &v->end);
	return v->lines++;
}

int review_annotate(struct review *v, int line, int ply, const char *text)
{
	size_t n = strlen(text);
	int *slot;

	if (v->state != REVIEW_LOADING || line < 0 || line >= v->lines ||
	    ply < v->line[line].base + (line != REVIEW_MAIN) || ply > review_line_end(v, line))
		return -1;
	slot = ply == 0 ? &v->lead_comment
			: &v->comment[v->line[line].first + ply - 1 - v->line[line].base];
	if (n > REVIEW_COMMENT_MAX)
		n = REVIEW_COMMENT_MAX;
	/* Not in the middle of a character. */
	while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
		n--;
	if (!n)
		return 0;
	if ((size_t)v->text_len + n + 1 > sizeof(v->text))
		return -2;
	memcpy(v->text + v->text_len, text, n);
	v->text[v->text_len + n] = '\0';
	*slot = v->text_len + 1;
	v->text_len += (int)n + 1;
	return 0;
}

void review_begin(struct review *v)
{
	v->state = REVIEW_ON;
	v->cur = REVIEW_MAIN;
	v->at = v->left = 0;
	v->shown = v->start;
	v->ready = false;
	v->swap = 0;
}

int review_line_end(const struct review *v, int line)
{
	return v->line[line].base + v->line[line].count;
}

/* The line that holds ply `ply` seen from `line` (a variation's moves before its base are its
 * parent's); with `comment`, the one whose comment after ply `ply` it is (at its base: the
 * parent's). */
static int line_of(const struct review *v, int line, int ply, bool comment)
{
	if (line < REVIEW_MAIN || line >= v->lines)
		return REVIEW_MAIN;
	while (line > REVIEW_MAIN && line < REVIEW_MAX_LINES &&
	       (ply < v->line[line].base || (comment && ply == v->line[line].base))) {
		int parent = v->line[line].parent;

		/* A parent comes before its variation: the walk ends at the game's line. */
		line = parent > REVIEW_MAIN && parent < line ? parent : REVIEW_MAIN;
	}
	return line;
}

chess_move review_move_at(const struct review *v, int line, int ply)
{
	line = line_of(v, line, ply, false);
	if (ply < v->line[line].base || ply >= review_line_end(v, line))
		return CHESS_MOVE_NONE;
	return v->moves[v->line[line].first + ply - v->line[line].base];
}

void review_position(const struct review *v, int line, int ply, struct chess_pos *out)
{
	struct chess_undo undo;

	*out = v->start;
	for (int i = 0; i < ply; i++) {
		chess_move m = review_move_at(v, line, i);

		if (m == CHESS_MOVE_NONE)
			break;
		chess_pos_make(out, m, &undo);
	}
}

const char *review_comment(const struct review *v, int line, int ply)
{
	int at;

	line = line_of(v, line, ply, true);
	if (ply < 0 || ply > review_line_end(v, line))
		return NULL;
	at = ply == 0 ? v->lead_comment
		      : v->comment[v->line[line].first + ply - 1 - v->line[line].base];
	return at ? v->text + at - 1 : NULL;
}

int review_variations(const struct review *v, int line, int ply, int after, int *first)
{
	int n = 0;

	*first = -1;
	for (int i = line + 1; i < v->lines; i++) {
		if (v->line[i].parent != line || v->line[i].base != ply)
			continue;
		n++;
		if (*first < 0 && i > after)
			*first = i;
	}
	return n;
}

void review_show(struct review *v, int line, int ply)
{
	v->left = 0;
	line = line_of(v, line, ply, false);
	if (ply > review_line_end(v, line))
		ply = review_line_end(v, line);
	if (ply < 0)
		ply = 0;
	v->cur = line;
	v->at = ply;
	review_position(v, line, ply, &v->shown);
}

bool review_step(struct review *v, int dir)
{
	struct chess_undo undo;

	if (dir > 0) {
		if (v->at >= review_line_end(v, v->cur))
			return false;
		v->left = 0;
		chess_pos_make(&v->shown, review_move_at(v, v->cur, v->at), &undo);
		v->at++;
		return true;
	}
	if (v->at <= 0)
		return false;
	review_show(v, v->cur, v->at - 1);
	return true;
}

int review_move_number(const struct review *v, int ply)
{
	return v->start.fullmove_number + (ply + (int)v->start.side) / 2;
}

bool review_active(const struct review *v)
{
	return v->state == REVIEW_ON || v->state == REVIEW_RETURN;
}

const char *review_state_name(enum review_state s)
{
	static const char *const names[] = {"off", "loading", "on", "return"};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}
