/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The clock's LEDs ([display] led-white, led-black: lines of the board's chip): the LED of the
 * side whose clock runs is lit, so the running clock is seen from across the table; both
 * are out while the clocks stand, before the start and after a flag or the end.
 */
#ifndef ANNABELLA_DAEMON_LEDS_H
#define ANNABELLA_DAEMON_LEDS_H

#include "daemon/loop.h"
#include "referee/referee.h"
#include "gpio/board.h"

struct leds;

/* NULL when the board has no LED lines (or out of memory, logged). */
struct leds *leds_open(const struct board_config *cfg, struct board *board, struct loop *loop,
		       struct referee *referee);
/* The clock may have changed: look at the loop's next round.  NULL: nothing. */
void leds_touch(struct leds *l);
void leds_close(struct leds *l);

#endif
