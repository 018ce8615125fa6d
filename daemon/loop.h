/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The daemon's loop: sources register file descriptors and deadlines; the loop knows none
 * of them by name.  Time is the daemon's own, in milliseconds since start: real (monotonic)
 * or virtual.  In virtual time the loop never sleeps: when nothing is due it jumps to the
 * earliest deadline, so a whole game replays in milliseconds with the code that runs on a Pi.
 *
 * Each round runs every source whose deadline has come, in the order they were added, again
 * and again until none is due at this time; then it polls the file descriptors (without
 * waiting in virtual time) and time moves on.
 */
#ifndef ANNABELLA_LOOP_H
#define ANNABELLA_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#define LOOP_MAX_SOURCES 20
#define LOOP_MAX_FDS	 40

struct loop;

/* When the source must run next (UINT64_MAX: not until something else happens). */
typedef uint64_t (*loop_deadline_fn)(void *user, uint64_t now);
typedef void (*loop_run_fn)(void *user, uint64_t now);
typedef void (*loop_fd_fn)(void *user, int fd, short revents, uint64_t now);

struct loop *loop_new(bool virtual_time);
void loop_free(struct loop *l);
bool loop_virtual(const struct loop *l);
/* The daemon time now (read from the clock in real time). */
uint64_t loop_now(struct loop *l);

/* 0, or -1 when the table is full. */
int loop_add_source(struct loop *l, loop_deadline_fn deadline, loop_run_fn run, void *user);
int loop_add_fd(struct loop *l, int fd, short events, loop_fd_fn fn, void *user);
void loop_set_fd_events(struct loop *l, int fd, short events);
void loop_remove_fd(struct loop *l, int fd);
/* Called before virtual time moves on (speech takes no virtual time: it finishes first); true
 * when that made something due now (the sources are run again before time moves on). */
void loop_set_idle(struct loop *l, bool (*fn)(void *user), void *user);

/* Run until loop_stop(); its status, or 1 on a poll failure. */
int loop_run(struct loop *l);
void loop_stop(struct loop *l, int status);

#endif
