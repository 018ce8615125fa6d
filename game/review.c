/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/review.h"

#include <string.h>

void review_reset(struct review *v)
{
	v->state = REVIEW_OFF;
	v->count = v->at = 0;
	v->ready = false;
}

void review_load(struct review *v, const struct chess_pos *start)
{
	review_reset(v);
	v->state = REVIEW_LOADING;
	v->start = v->end = v->shown = *start;
}

int review_add(struct review *v, chess_move m)
{
	struct chess_undo undo;

	if (v->state != REVIEW_LOADING || v->count >= REVIEW_MAX_PLIES ||
	    !chess_pos_is_legal(&v->end, m))
		return -1;
	chess_pos_make(&v->end, m, &undo);
	v->moves[v->count++] = m;
	return 0;
}

void review_begin(struct review *v)
{
	v->state = REVIEW_ON;
	v->at = 0;
	v->shown = v->start;
	v->ready = false;
}

void review_position_before(const struct review *v, int ply, struct chess_pos *out)
{
	struct chess_undo undo;

	*out = v->start;
	for (int i = 0; i < ply && i < v->count; i++)
		chess_pos_make(out, v->moves[i], &undo);
}

bool review_step(struct review *v, int dir)
{
	if (dir > 0) {
		struct chess_undo undo;

		if (v->at >= v->count)
			return false;
		chess_pos_make(&v->shown, v->moves[v->at++], &undo);
		return true;
	}
	if (v->at <= 0)
		return false;
	v->at--;
	review_position_before(v, v->at, &v->shown);
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
