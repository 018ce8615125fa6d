/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A new version of the daemon installed while it runs (a package upgrade renamed a new
 * program file over the one it was started from) takes over only when no game is in
 * progress: at once when no move was made and no clock started, else once the game's result
 * is approved (8.7), or at the next start of the service (a boot).  It never interrupts a
 * game: a restart mid-game would stop the clocks until the arbiter starts them again.
 *
 * Checked when the program's folder changes (inotify; every two seconds where it cannot be
 * watched), and then every two seconds while a game keeps the new version waiting: an idle
 * daemon never wakes for it.  A replay in virtual time is never taken over.
 * When it is time, the loop stops; main() closes everything as for a stop and executes the
 * new program in the same process with the same arguments, so the service manager sees
 * the same main process reload (RELOADING=1, then the new one's READY=1).
 */
#ifndef ANNABELLA_TAKEOVER_H
#define ANNABELLA_TAKEOVER_H

#include <stdbool.h>

#include "daemon/loop.h"
#include "game/game.h"
#include "referee/referee.h"

struct takeover;

/* NULL in virtual time, or when the program's own path cannot be read (logged). */
struct takeover *takeover_open(struct loop *loop, const struct referee *referee);
/* The new program's path once the loop stopped for it, else NULL. */
const char *takeover_program(const struct takeover *t);
void takeover_free(struct takeover *t);

/* Whether no game is in progress: none open, none begun (no move, the clock not started)
 * or its result approved. */
bool takeover_game_idle(const struct game *g);

#endif
