/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The clock display in the daemon ([display], clockface/): shows the referee's clocks,
 * refreshed when the running side's time shows differently (each second; each tenth below
 * ten seconds), at least once a second, and at once after every journal record (presses,
 * pauses, the arbiter's clock settings, flags, results).  The bus is the display thread's:
 * the loop only hands it text.
 */
#ifndef ANNABELLA_DAEMON_CLOCKFACE_H
#define ANNABELLA_DAEMON_CLOCKFACE_H

#include "clockface/writer.h"
#include "daemon/loop.h"
#include "referee/referee.h"

struct clockface;

/* NULL when no display is configured, or its thread cannot start (logged). */
struct clockface *clockface_open(const struct face_config *cfg, const char *lang, struct loop *loop,
				 struct referee *referee);
/* Something may have changed: refresh at the loop's next round.  NULL: nothing. */
void clockface_touch(struct clockface *f);
/* The power's problems (enum power_problem bits, daemon/power.h), shown as a mark. */
void clockface_set_power(struct clockface *f, unsigned problems);
void clockface_close(struct clockface *f);

#endif
