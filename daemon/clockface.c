/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The clock display's loop source: the referee's clocks as text for the display thread. */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "daemon/clockface.h"
#include "game/game.h"

/* Refreshed at least this often, whatever else happens. */
#define CLOCKFACE_PERIOD_MS 1000

struct clockface {
	struct face_config cfg;
	struct face_writer *writer;
	struct referee *referee;
	const char *names[2];
	bool dirty;
	uint64_t next_ms;
	struct face_text shown; /* handed to the writer last */
	bool have_shown;
};

static void view_at(const struct clockface *f, uint64_t now, struct face_view *v)
{
	const struct game *g = referee_game(f->referee);
	const struct chess_clock *c = &g->clock;

	memset(v, 0, sizeof(*v));
	v->running = v->flagged = -1;
	if (!g->open || !g->has_clock)
		return;
	v->has_clock = true;
	v->started = c->state != CLOCK_NOT_STARTED;
	v->delay_ms = -1;
	for (int side = 0; side < 2; side++) {
		v->ms[side] = clock_remaining(c, side, now);
		v->moves[side] = c->moves[side];
		v->control[side] = clock_period_end(c, side);
	}
	if (c->state == CLOCK_RUNNING || c->state == CLOCK_PAUSED) {
		v->running = c->running;
		v->delay_ms = clock_delay_left(c, c->running, now);
	}
	v->paused = c->state == CLOCK_PAUSED;
	v->flagged = c->flagged;
}

static uint64_t clockface_deadline(void *user, uint64_t now)
{
	struct clockface *f = user;

	return f->dirty ? now : f->next_ms;
}

static void clockface_run(void *user, uint64_t now)
{
	struct clockface *f = user;
	struct face_view v;
	struct face_text text;
	uint64_t next;

	view_at(f, now, &v);
	/* Big digits: the HD44780's own layout; the SSD1306 draws the same rows bigger. */
	if (f->cfg.big && f->cfg.type == FACE_HD44780)
		face_layout_big(&v, f->names, f->cfg.tenths, &text);
	else
		face_layout(&v, f->names, f->cfg.tenths, &text);
	if (!f->have_shown || memcmp(&text, &f->shown, sizeof(text))) {
		face_writer_show(f->writer, &text);
		f->shown = text;
		f->have_shown = true;
	}
	next = face_next_change_ms(&v, f->cfg.tenths);
	f->next_ms = now + (next < CLOCKFACE_PERIOD_MS ? next : CLOCKFACE_PERIOD_MS);
	f->dirty = false;
}

struct clockface *clockface_open(const struct face_config *cfg, const char *lang, struct loop *loop,
				 struct referee *referee)
{
	struct clockface *f;
	char err[200];

	if (cfg->type == FACE_NONE)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f) {
		log_error(LOG_CLOCK, "clock display: out of memory; going on without it");
		return NULL;
	}
	f->cfg = *cfg;
	f->referee = referee;
	f->dirty = true;
	face_names(lang, f->names);
	f->writer = face_writer_start(cfg, err, sizeof(err));
	if (!f->writer || loop_add_source(loop, clockface_deadline, clockface_run, f)) {
		log_error(LOG_CLOCK, "%s; going on without the clock display",
			  f->writer ? "clock display: no room in the loop" : err);
		face_writer_stop(f->writer);
		free(f);
		return NULL;
	}
	log_info(LOG_CLOCK, "clock display: %s at %s 0x%02x", face_type_name(cfg->type), cfg->bus,
		 face_config_address(cfg));
	return f;
}

void clockface_touch(struct clockface *f)
{
	if (f)
		f->dirty = true;
}

void clockface_close(struct clockface *f)
{
	if (!f)
		return;
	face_writer_stop(f->writer);
	free(f);
}
