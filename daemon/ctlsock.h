/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control socket (DESIGN 8): a Unix stream socket for the assistant, the arbiter, the
 * web page and the broadcast.  The peer's Unix user is the author of its commands; users
 * named as arbiters have the arbiter's role, others the assistant's (or what `auth PIN`
 * gives).  Every request gets one reply line and a line in control.log; commands that
 * change the game go to the referee (and so into the journal).  Clients are non-blocking
 * with bounded buffers: a slow, silent or vanished client never holds up the loop.
 * Board scripts' `control` lines go through the same code.
 */
#ifndef ANNABELLA_CTLSOCK_H
#define ANNABELLA_CTLSOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/config.h"
#include "daemon/loop.h"
#include "daemon/present.h"
#include "daemon/store.h"
#include "game/referee.h"

#define CTLSOCK_MAX_CLIENTS 16

struct ctlsock;

/* The dispatcher, and the socket at cfg->control_socket unless it is "" or "none" (or the
 * socket cannot be made: that is logged, and the game goes on without it).  The audit goes
 * to control.log in the state directory.  NULL only when out of memory. */
struct ctlsock *ctlsock_open(const struct config *cfg, struct loop *loop);
void ctlsock_attach(struct ctlsock *c, struct referee *r, struct presenter *p, struct store *s);
void ctlsock_close(struct ctlsock *c);
/* Whether the socket is listening (for tests and the log). */
bool ctlsock_listening(const struct ctlsock *c);

/* A board script's `control ROLE COMMAND` (author "script"). */
void ctlsock_script(struct ctlsock *c, const char *role, const char *command, uint64_t now);
/* The referee's reply to request `id` (a GAME_FX_REPLY effect). */
void ctlsock_reply(struct ctlsock *c, uint32_t id, bool ok, const char *text, uint64_t now);
/* A line of control.log for what was done without the socket: the arbiter's menu on the
 * board's buttons (its commands, and the PINs tried: "auth ****"). */
void ctlsock_audit(struct ctlsock *c, uint64_t now, const char *author, enum game_role role,
		   const char *line, bool ok, const char *text);
/* One event line (JSON, without newline) for every watcher. */
void ctlsock_event(struct ctlsock *c, const char *json);
bool ctlsock_watched(const struct ctlsock *c);

#endif
