/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The vibration motor: patterns played on its output line by a loop source (haptic.h). */
#include "daemon/haptic.h"

#include <stdlib.h>

#include "base/log.h"
#include "base/trace.h"

#define HAPTIC_QUEUE	4
#define HAPTIC_PAUSE_MS 500 /* off between two patterns, so they are felt apart */

struct haptic {
	struct board *board;
	struct loop *loop;
	struct haptic_config cfg;
	enum haptic_event queue[HAPTIC_QUEUE];
	int queued;
	/* The pattern being felt: its event, the step (an index into its times; the count:
	 * the pause after it), and when the step ends. */
	bool playing;
	enum haptic_event event;
	int step;
	uint64_t step_end;
	bool failing;
};

static void drive(struct haptic *h, bool on, uint64_t now)
{
	if (board_set_haptic(h->board, on) < 0) {
		if (!h->failing)
			log_warn(LOG_MAIN, "vibration motor: cannot drive its line");
		h->failing = true;
		return;
	}
	if (trace_on())
		trace_at(0, "haptic", "%llu %d %s", (unsigned long long)now, on,
			 haptic_event_name(h->event));
}

/* The next pattern waiting, from its first step. */
static void next_pattern(struct haptic *h, uint64_t now)
{
	h->playing = h->queued > 0;
	if (!h->playing)
		return;
	h->event = h->queue[0];
	for (int i = 1; i < h->queued; i++)
		h->queue[i - 1] = h->queue[i];
	h->queued--;
	h->step = 0;
	h->step_end = now + h->cfg.pattern[h->event].ms[0];
	drive(h, true, now);
}

static uint64_t haptic_deadline(void *user, uint64_t now)
{
	struct haptic *h = user;

	(void)now;
	return h->playing ? h->step_end : UINT64_MAX;
}

static void haptic_run(void *user, uint64_t now)
{
	struct haptic *h = user;
	const struct haptic_pattern *p = &h->cfg.pattern[h->event];

	if (!h->playing || now < h->step_end)
		return;
	h->step++;
	if (h->step < p->count) {
		/* Even steps on, odd ones off. */
		drive(h, h->step % 2 == 0, now);
		h->step_end = now + p->ms[h->step];
	} else if (h->step == p->count) {
		/* Its last step was on: off, and the pause before the next. */
		drive(h, false, now);
		h->step_end = now + HAPTIC_PAUSE_MS;
	} else {
		next_pattern(h, now);
	}
}

struct haptic *haptic_open(const struct config *cfg, struct board *board, struct loop *loop)
{
	struct haptic *h;

	if (cfg->board.haptic_line == BOARD_NO_LINE)
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h || loop_add_source(loop, haptic_deadline, haptic_run, h)) {
		log_error(LOG_MAIN, "vibration motor: %s; going on without it",
			  h ? "no room in the loop" : "out of memory");
		free(h);
		return NULL;
	}
	h->board = board;
	h->loop = loop;
	h->cfg = cfg->haptic;
	log_info(LOG_MAIN, "vibration motor on line %d", cfg->board.haptic_line);
	return h;
}

void haptic_signal(struct haptic *h, enum haptic_event e)
{
	if (!h || (unsigned)e >= HAPTIC_EVENT_COUNT)
		return;
	if (h->queued == HAPTIC_QUEUE) {
		log_info(LOG_MAIN, "vibration motor: %s not felt (four patterns wait)",
			 haptic_event_name(e));
		return;
	}
	h->queue[h->queued++] = e;
	/* From now, not from the event's time: each step felt as long as its pattern says. */
	if (!h->playing)
		next_pattern(h, loop_now(h->loop));
}

void haptic_close(struct haptic *h)
{
	if (!h)
		return;
	/* Still, as the daemon stops. */
	if (h->playing)
		board_set_haptic(h->board, false);
	free(h);
}
