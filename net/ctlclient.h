/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A client of the daemon's control socket (docs/control.md "Control interface"), for the processes
 * outside the daemon: the CLI, the web page and the broadcast.  One request line, one reply line;
 * after `watch` the connection only brings events.  Nothing here blocks longer than the timeout
 * given.
 */
#ifndef ANNABELLA_CTLCLIENT_H
#define ANNABELLA_CTLCLIENT_H

#include <stdbool.h>
#include <stddef.h>

#define CTLCLIENT_DEFAULT_SOCKET "/run/annabella/control"
#define CTLCLIENT_LINE_MAX	 (1 << 20) /* the longest reply (an export of a long game) */

struct ctlclient;

/* Connects to the socket at path; NULL with the reason in err. */
struct ctlclient *ctlclient_connect(const char *path, char *err, size_t errsize);
void ctlclient_close(struct ctlclient *c);
int ctlclient_fd(const struct ctlclient *c);

/* Sends one request line (no newline in it): 0, or -1 (errno set). */
int ctlclient_send(struct ctlclient *c, const char *line);
/*
 * The next line into *line (NUL-terminated, valid until the next call): 1; 0 when the
 * daemon closed the connection; -1 on an error or after timeout_ms (-1: wait for ever,
 * 0: only what has arrived).
 */
int ctlclient_read(struct ctlclient *c, const char **line, int timeout_ms);
/* A request and its reply, copied into a malloc'd string (*reply); 0, or -1. */
int ctlclient_request(struct ctlclient *c, const char *line, char **reply, int timeout_ms);

/* Whether a reply line says "ok":true. */
bool ctlclient_reply_ok(const char *reply);

#endif
