/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The service's status line, as `systemctl status annabellad` shows it ("Status: ..."): the
 * game as it goes on (the move and who is to move, whose flag fell, the result and whether
 * the players approved it), the clocks stopped for the arbiter, a storage fault, and a new
 * version waiting for the game's end (docs/commands.md "annabellad").
 *
 * Its text changes a few times a move: svcstatus_due() compares what it depends on with
 * what was last sent, without formatting, so the loop can ask it every round.
 */
#ifndef ANNABELLA_SVCSTATUS_H
#define ANNABELLA_SVCSTATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "game/game.h"

/* What the line says, in numbers (and the result, which an arbiter may replace). */
struct svcstatus_key {
	int open, plies, state, flag, stopped, claim, offer, saving_fails, version_waits;
	char result[8];
};

struct svcstatus {
	bool sent;
	struct svcstatus_key last;
};

/* Whether the line would say something else than it last did (or was never sent). */
bool svcstatus_due(const struct svcstatus *s, const struct game *g, bool saving_fails,
		   bool version_waits);
/* The line (without "STATUS="), remembered as sent; its length, as snprintf.  saving_error:
 * why saving fails, or NULL. */
int svcstatus_format(struct svcstatus *s, const struct game *g, const char *saving_error,
		     bool version_waits, char *buf, size_t size);

#endif
