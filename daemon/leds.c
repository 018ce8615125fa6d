/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The clock's LEDs: a loop source that drives them after every record that may change the
 * clock (presenter), and not otherwise (no periodic wake-up). */
#include "daemon/leds.h"

#include <stdlib.h>

#include "base/log.h"
#include "base/trace.h"
#include "game/game.h"

struct leds {
	struct board *board;
	struct referee *referee;
	bool dirty;
	int shown[2]; /* -1: never driven */
	bool failing;
};

static uint64_t leds_deadline(void *user, uint64_t now)
{
	struct leds *l = user;

	return l->dirty ? now : UINT64_MAX;
}

static void leds_run(void *user, uint64_t now)
{
	struct leds *l = user;
	const struct game *g = referee_game(l->referee);
	const struct chess_clock *c = &g->clock;

	l->dirty = false;
	for (int side = 0; side < 2; side++) {
		int on = g->open && g->has_clock && c->state == CLOCK_RUNNING && c->running == side;
		int rc;

		if (on == l->shown[side])
			continue;
		rc = board_set_led(l->board, side, on);
		if (rc < 0) {
			if (!l->failing)
				log_warn(LOG_CLOCK, "clock LED %s: cannot drive its line",
					 game_color_name(side));
			l->failing = true;
			continue;
		}
		l->shown[side] = on;
		if (rc == 0 && trace_on())
			trace_at(0, "led", "%llu %s %d", (unsigned long long)now,
				 game_color_name(side),
				 board_line_level(l->board, board_led_line(l->board, side)));
	}
}

struct leds *leds_open(const struct board_config *cfg, struct board *board, struct loop *loop,
		       struct referee *referee)
{
	struct leds *l;

	if (cfg->led_lines[0] == BOARD_NO_LINE && cfg->led_lines[1] == BOARD_NO_LINE)
		return NULL;
	l = calloc(1, sizeof(*l));
	if (!l || loop_add_source(loop, leds_deadline, leds_run, l)) {
		log_error(LOG_CLOCK, "clock LEDs: %s; going on without them",
			  l ? "no room in the loop" : "out of memory");
		free(l);
		return NULL;
	}
	l->board = board;
	l->referee = referee;
	l->dirty = true;
	l->shown[0] = l->shown[1] = -1;
	log_info(LOG_CLOCK, "clock LEDs: white on line %d, black on line %d", cfg->led_lines[0],
		 cfg->led_lines[1]);
	return l;
}

void leds_touch(struct leds *l)
{
	if (l)
		l->dirty = true;
}

void leds_close(struct leds *l)
{
	if (!l)
		return;
	/* Out, as the daemon stops. */
	for (int side = 0; side < 2; side++)
		if (l->shown[side] == 1)
			board_set_led(l->board, side, false);
	free(l);
}
