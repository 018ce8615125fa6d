/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the control commands read of the daemon besides the game and the socket (the shell of
 * control/protocol.h's control_env): the status's extra parts (the last move in words, the
 * record on disk, the journal's anchor, the power), the scoresheet in a format for `export`
 * (the current game's, or one kept under games/), the finished games for `games`, and the
 * interface language a connection's moves are read in until it says `notation`.  The control
 * socket (daemon/ctlsock.h) gives every request these parts; it knows nothing of the
 * presenter or the store itself.
 */
#ifndef ANNABELLA_CTLSHELL_H
#define ANNABELLA_CTLSHELL_H

#include "config/config.h"
#include "control/protocol.h"

struct ctlshell;
struct presenter;
struct store;

/* NULL only when out of memory. */
struct ctlshell *ctlshell_new(const struct config *cfg, struct referee *r, struct presenter *p,
			      struct store *s);
void ctlshell_free(struct ctlshell *s);
/* A request's environment with the shell's parts set (shell, status_extra, render, list_games
 * and notation); the socket sets the rest. */
struct control_env ctlshell_env(struct ctlshell *s);

#endif
