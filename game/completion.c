/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/completion.h"

#include <string.h>

/* More moves or presses in waiting than a game can have: the oldest is dropped, as the
 * newest is what the board and the clock show now. */
static void push(struct completion_fifo *f, int64_t v)
{
	if (f->count == COMPLETION_PENDING_MAX) {
		memmove(f->items, f->items + 1, sizeof(f->items[0]) * (COMPLETION_PENDING_MAX - 1));
		f->count--;
	}
	f->items[f->count++] = v;
}

static void remove_at(struct completion_fifo *f, int i)
{
	memmove(f->items + i, f->items + i + 1, sizeof(f->items[0]) * (size_t)(f->count - i - 1));
	f->count--;
}

void completion_reset(struct completion *c)
{
	memset(c, 0, sizeof(*c));
	c->final_clk = -1;
}

void completion_made(struct completion *c, int mover, int ply)
{
	push(&c->uncompleted[mover & 1], ply);
}

int completion_waiting(const struct completion *c, int color)
{
	const struct completion_fifo *f = &c->uncompleted[color & 1];

	return f->count ? (int)f->items[0] : -1;
}

bool completion_done(struct completion *c, int color, int ply)
{
	struct completion_fifo *f = &c->uncompleted[color & 1];

	for (int i = 0; i < f->count; i++) {
		if (f->items[i] == ply) {
			remove_at(f, i);
			return true;
		}
	}
	return false;
}

void completion_early_press(struct completion *c, int64_t clk_ms)
{
	push(&c->early_presses, clk_ms);
}

bool completion_take_early(struct completion *c, int64_t *clk_ms)
{
	if (!c->early_presses.count)
		return false;
	*clk_ms = c->early_presses.items[0];
	remove_at(&c->early_presses, 0);
	return true;
}

bool completion_has_early(const struct completion *c)
{
	return c->early_presses.count > 0;
}
