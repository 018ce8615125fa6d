/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/loop.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/timeutil.h"

/* A round that keeps finding due sources at one time is a bug; stop asking after this many. */
#define MAX_ROUNDS 10000

struct source {
	loop_deadline_fn deadline;
	loop_run_fn run;
	void *user;
};

struct fd_entry {
	loop_fd_fn fn;
	void *user;
};

struct loop {
	bool virtual_time;
	uint64_t origin, now;
	bool stopped;
	int status;
	int nsources;
	struct source sources[LOOP_MAX_SOURCES];
	int nfds;
	struct pollfd pfds[LOOP_MAX_FDS];
	struct fd_entry fds[LOOP_MAX_FDS];
	bool (*idle)(void *user);
	void *idle_user;
};

struct loop *loop_new(bool virtual_time)
{
	struct loop *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->virtual_time = virtual_time;
	l->origin = monotonic_ms();
	return l;
}

void loop_free(struct loop *l)
{
	free(l);
}

bool loop_virtual(const struct loop *l)
{
	return l->virtual_time;
}

uint64_t loop_now(struct loop *l)
{
	if (!l->virtual_time)
		l->now = monotonic_ms() - l->origin;
	return l->now;
}

int loop_add_source(struct loop *l, loop_deadline_fn deadline, loop_run_fn run, void *user)
{
	if (l->nsources == LOOP_MAX_SOURCES)
		return -1;
	l->sources[l->nsources++] = (struct source){deadline, run, user};
	return 0;
}

int loop_add_fd(struct loop *l, int fd, short events, loop_fd_fn fn, void *user)
{
	if (l->nfds == LOOP_MAX_FDS || fd < 0)
		return -1;
	l->pfds[l->nfds] = (struct pollfd){.fd = fd, .events = events};
	l->fds[l->nfds++] = (struct fd_entry){fn, user};
	return 0;
}

void loop_set_fd_events(struct loop *l, int fd, short events)
{
	for (int i = 0; i < l->nfds; i++)
		if (l->pfds[i].fd == fd)
			l->pfds[i].events = events;
}

void loop_remove_fd(struct loop *l, int fd)
{
	for (int i = 0; i < l->nfds; i++) {
		if (l->pfds[i].fd != fd)
			continue;
		/* Keep the order: descriptors added earlier are served first. */
		memmove(&l->pfds[i], &l->pfds[i + 1],
			sizeof(l->pfds[0]) * (size_t)(l->nfds - i - 1));
		memmove(&l->fds[i], &l->fds[i + 1], sizeof(l->fds[0]) * (size_t)(l->nfds - i - 1));
		l->nfds--;
		return;
	}
}

void loop_set_idle(struct loop *l, bool (*fn)(void *user), void *user)
{
	l->idle = fn;
	l->idle_user = user;
}

void loop_stop(struct loop *l, int status)
{
	if (!l->stopped)
		l->status = status;
	l->stopped = true;
}

/* Run what is due now; the earliest deadline after that. */
static uint64_t run_due(struct loop *l)
{
	uint64_t next = UINT64_MAX;

	for (int round = 0; round < MAX_ROUNDS && !l->stopped; round++) {
		bool ran = false;

		next = UINT64_MAX;
		/* A source that ran is asked again in the next round. */
		for (int i = 0; i < l->nsources && !l->stopped; i++) {
			struct source *s = &l->sources[i];
			uint64_t d = s->deadline(s->user, l->now);

			if (d <= l->now) {
				s->run(s->user, l->now);
				ran = true;
			} else if (d < next) {
				next = d;
			}
		}
		if (!ran)
			return next;
	}
	if (!l->stopped)
		log_error(LOG_MAIN, "sources still due after %d rounds at %llu ms", MAX_ROUNDS,
			  (unsigned long long)l->now);
	return next > l->now ? next : l->now + 1;
}

/* Serve the descriptors poll() found ready.  Handlers may add or remove descriptors. */
static void serve_fds(struct loop *l, int ready)
{
	struct pollfd seen[LOOP_MAX_FDS];
	int n = l->nfds;

	if (ready <= 0)
		return;
	memcpy(seen, l->pfds, sizeof(seen[0]) * (size_t)n);
	for (int i = 0; i < n && !l->stopped; i++) {
		if (!seen[i].revents)
			continue;
		for (int j = 0; j < l->nfds; j++) {
			if (l->pfds[j].fd == seen[i].fd) {
				l->fds[j].fn(l->fds[j].user, seen[i].fd, seen[i].revents,
					     loop_now(l));
				break;
			}
		}
	}
}

int loop_run(struct loop *l)
{
	loop_now(l);
	while (!l->stopped) {
		uint64_t next = run_due(l);
		int timeout, ready;

		if (l->stopped)
			break;
		if (l->virtual_time) {
			ready = l->nfds ? poll(l->pfds, (nfds_t)l->nfds, 0) : 0;
			if (ready > 0) {
				serve_fds(l, ready);
				continue;
			}
			/* Speech takes no virtual time: finish it before time moves on. */
			if (l->idle && l->idle(l->idle_user))
				continue;
			if (next == UINT64_MAX) {
				log_error(LOG_MAIN, "virtual time with nothing left to wait for");
				loop_stop(l, 0);
				break;
			}
			if (next > l->now)
				l->now = next;
			continue;
		}
		timeout = -1;
		if (next != UINT64_MAX)
			timeout = next > l->now
				      ? (int)(next - l->now < 60000 ? next - l->now : 60000)
				      : 0;
		ready = poll(l->pfds, (nfds_t)l->nfds, timeout);
		if (ready < 0 && errno != EINTR) {
			log_error(LOG_MAIN, "poll: %s", strerror(errno));
			loop_stop(l, 1);
			break;
		}
		loop_now(l);
		serve_fds(l, ready);
	}
	return l->status;
}
