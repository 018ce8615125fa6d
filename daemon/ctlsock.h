/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control socket (docs/control.md "Control interface"): a Unix stream socket for the assistant,
 * the arbiter, the web page and the broadcast.  The peer's Unix user is the author of its commands;
 * users named as arbiters have the arbiter's role, others the assistant's (or what `auth PIN`
 * gives).  Every request goes through the command table (control/protocol.h), which returns
 * its reply; it gets one reply line and a line in control.log; commands that change the
 * game go to the referee (and so into the journal).  Clients are non-blocking
 * with bounded buffers: a slow, silent or vanished client never holds up the loop.
 * Board scripts' `control` lines go through the same code.
 */
#ifndef ANNABELLA_CTLSOCK_H
#define ANNABELLA_CTLSOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/sha256.h"
#include "config/config.h"
#include "control/protocol.h"
#include "daemon/loop.h"
#include "referee/referee.h"

/* At most this many clients; the last CTLSOCK_ARBITER_SLOTS places only for the users named
 * in [control] arbiters; any other user at most CTLSOCK_PER_USER at once. */
#define CTLSOCK_MAX_CLIENTS   16
#define CTLSOCK_ARBITER_SLOTS 2
#define CTLSOCK_PER_USER      6

struct ctlsock;

/* The dispatcher, and the socket at cfg->control_socket unless it is "" or "none" (or the
 * socket cannot be made: that is logged, and the game goes on without it).  The audit goes
 * to control.log in the state directory.  NULL only when out of memory. */
struct ctlsock *ctlsock_open(const struct config *cfg, struct loop *loop);
/* The referee the commands go to, and what the daemon adds to every request besides the
 * socket's own parts: a control_env with its shell, status_extra, render, list_games and
 * notation (the interface language) set (daemon/ctlshell.h makes it). */
void ctlsock_attach(struct ctlsock *c, struct referee *r, const struct control_env *shell);
void ctlsock_close(struct ctlsock *c);

/* A board script's `control ROLE COMMAND` (author "script"), through the same command table
 * as the socket's requests. */
void ctlsock_script(struct ctlsock *c, const char *role, const char *author, const char *command,
		    uint64_t now);
/* The audit's start line of control.log: written now, or kept through a storage fault and
 * written when storage works again; a control.log made again begins with it. */
void ctlsock_log_line(struct ctlsock *c, const char *line);
/* The reads counted and not yet written (docs/state.md "State directory", control.log): written
 * now, so a digest taken next covers them. */
void ctlsock_log_reads(struct ctlsock *c, uint64_t now);
/* The digest of control.log as written (base/pendlog.h): 0, or -1 when it is not known. */
int ctlsock_log_digest(const struct ctlsock *c, off_t *bytes, char hex[2 * SHA256_SIZE + 1]);
/* A line of control.log for what was done without the socket: the arbiter's menu on the
 * board's buttons (its commands, and the PINs tried: "auth ****"); a PIN refused there is
 * an event for the arbiters' watch as one refused on the socket. */
void ctlsock_audit(struct ctlsock *c, uint64_t now, const char *author, enum game_role role,
		   const char *line, bool ok, const char *text);
/* The PIN budget (docs/control.md "Control interface"): the board's PINs go through it too
 * (PIN_KEY_BOARD).
 */
struct pin_guard *ctlsock_pins(struct ctlsock *c);
/* One event line (JSON, without newline) for the watchers its audience reaches: an
 * assistant's watch public and player events, an arbiter's all, `watch public` public
 * ones. */
void ctlsock_event(struct ctlsock *c, const char *json, enum game_audience audience);
bool ctlsock_watched(const struct ctlsock *c);
/* A request of the referee's to the training process (docs/training.md "Training and study"): to
 * its connection alone. */
void ctlsock_engine_event(struct ctlsock *c, const char *json);
/* The same for the online process's connection (docs/online.md "Playing online"). */
void ctlsock_online_event(struct ctlsock *c, const char *json);

#endif
