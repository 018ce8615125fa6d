/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The vibration motor ([haptic]; docs/wiring.md "The vibration motor"): for a player who cannot
 * hear the device, the events that must not be missed are felt, each kind with its own pattern
 * (the opponent's move, a time warning, a flag, the arbiter).  A loop source drives the motor's
 * output line on and off as the pattern says; patterns that come while one is felt wait their
 * turn (four at most), with a pause between them, so none runs into the next.
 */
#ifndef ANNABELLA_DAEMON_HAPTIC_H
#define ANNABELLA_DAEMON_HAPTIC_H

#include "config/config.h"
#include "daemon/loop.h"
#include "gpio/board.h"

struct haptic;

/* NULL when the board has no motor line (or out of memory, logged). */
struct haptic *haptic_open(const struct config *cfg, struct board *board, struct loop *loop);
/* An event to feel, from now (NULL: nothing). */
void haptic_signal(struct haptic *h, enum haptic_event e);
void haptic_close(struct haptic *h);

#endif
