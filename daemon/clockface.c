/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The clock display's loop source: the referee's clocks as text for the display thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "daemon/clockface.h"
#include "daemon/power.h"
#include "game/game.h"

/* Refreshed at least this often, whatever else happens. */
#define CLOCKFACE_PERIOD_MS 1000

struct clockface {
	struct face_config cfg;
	struct face_writer *writer;
	struct referee *referee;
	const char *names[2];
	char lang[8];
	bool dirty;
	uint64_t next_ms;
	struct face_text shown; /* handed to the writer last */
	bool have_shown;
	char power; /* the power problem's mark, or 0 */
};

static void view_at(const struct clockface *f, uint64_t now, struct face_view *v)
{
	const struct game *g = referee_game(f->referee);
	const struct chess_clock *c = &g->clock;

	memset(v, 0, sizeof(*v));
	v->running = v->flagged = -1;
	v->power = f->power;
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

/* The arbiter's menu for the face. */
static void menu_at(const struct board_arbiter_view *av, uint64_t now, struct face_menu *m)
{
	memset(m, 0, sizeof(*m));
	m->screen = av->state == BOARD_ARBITER_PIN    ? FACE_MENU_PIN
		    : av->state == BOARD_ARBITER_MENU ? FACE_MENU_ITEM
						      : FACE_MENU_EDIT;
	m->digits = av->digits;
	m->wait_s = av->wait_s;
	m->item = av->item == BOARD_ITEM_RESUME	      ? FACE_ITEM_RESUME
		  : av->item == BOARD_ITEM_SET_CLOCKS ? FACE_ITEM_SET_CLOCKS
		  : av->item == BOARD_ITEM_RESULT     ? FACE_ITEM_RESULT
		  : av->item == BOARD_ITEM_SEAL	      ? FACE_ITEM_SEAL
						      : FACE_ITEM_CLOSE;
	m->result = av->result;
	m->at = av->at;
	m->count = av->count;
	for (int side = 0; side < 2; side++) {
		m->ms[side] = av->ms[side];
		m->moves[side] = av->moves[side];
	}
	m->field = (int)av->field;
	m->blink_off = now / 500 % 2 == 1;
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
	struct board_arbiter_view av;
	struct face_menu m;
	uint64_t next;

	view_at(f, now, &v);
	referee_arbiter_view(f->referee, now, &av);
	if (av.state != BOARD_ARBITER_CLOSED) {
		/* The arbiter's menu on the buttons: the field being set blinks, a PIN's wait
		 * counts down. */
		menu_at(&av, now, &m);
		face_layout_menu(&m, f->lang, &v, f->cfg.tenths, &text);
	} else if (f->cfg.big && f->cfg.type == FACE_HD44780) {
		/* Big digits: the HD44780's own layout; the SSD1306 draws the same rows bigger. */
		face_layout_big(&v, f->names, f->cfg.tenths, &text);
	} else {
		face_layout(&v, f->names, f->cfg.tenths, &text);
	}
	if (!f->have_shown || memcmp(&text, &f->shown, sizeof(text))) {
		face_writer_show(f->writer, &text);
		f->shown = text;
		f->have_shown = true;
	}
	next = face_next_change_ms(&v, f->cfg.tenths);
	if (av.state != BOARD_ARBITER_CLOSED && 500 - now % 500 < next)
		next = 500 - now % 500;
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
	snprintf(f->lang, sizeof(f->lang), "%s", lang ? lang : "en");
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

void clockface_set_power(struct clockface *f, unsigned problems)
{
	if (!f)
		return;
	f->power = problems & POWER_UNDERVOLTAGE ? FACE_GLYPH_LOW_VOLTAGE
		   : problems			 ? FACE_GLYPH_BATTERY
						 : 0;
	f->dirty = true;
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
