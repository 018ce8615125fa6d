/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The service manager's notification protocol (sd_notify(3), without libsystemd): datagrams
 * to $NOTIFY_SOCKET.  READY=1 once the game is open, STATUS= lines, WATCHDOG=1 at half the
 * $WATCHDOG_USEC period from the game loop (a wedged loop stops them and is restarted),
 * STOPPING=1 at exit.  Without $NOTIFY_SOCKET every call does nothing.
 */
#ifndef ANNABELLA_NOTIFY_H
#define ANNABELLA_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

/* Whether there is a service manager to tell ($NOTIFY_SOCKET). */
bool notify_wanted(void);
/* Send one message ("READY=1", "STATUS=..."); 0, or -1 (logged once). */
int notify_send(const char *msg);
/* The watchdog's keep-alive period in ms ($WATCHDOG_USEC / 2, for this process), or 0. */
uint64_t notify_watchdog_ms(void);

#endif
