/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The watch on the machine for the fair-play state (daemon/fairplay.h).  The loop decides
 * when to read (a game's start, the kernel's news, the interval); the reading itself (a scan
 * of /proc, sysfs, utmp, and at a game's start the package's files) runs on a thread of its
 * own, so that it never holds up the loop and what the board does: the loop hands it a
 * request and takes its result through an eventfd.
 */
#include "daemon/fairplay.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/log.h"
#include "host/probe.h"

struct fairplay_watch {
	struct fairplay_config cfg;
	struct probe_config probe;
	char engine[256], version[32], digest[17];
	struct loop *loop;
	fairplay_active_fn active;
	fairplay_changed_fn changed;
	void *user;
	int netlink, rfkill; /* the kernel's news, or -1 */
	int done;	     /* eventfd: the reader has a result */
	bool was_active;
	bool due;	  /* news came: read at once */
	bool busy;	  /* a reading is asked for and not taken yet */
	uint64_t next_ms; /* the next reading of processes and logins */
	bool have;
	struct fairplay_state last;
	/* Shared with the reader, under lock. */
	pthread_t thread;
	bool thread_started;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_cond_t taken; /* the reader has a result (for fairplay_watch_wait) */
	bool request, request_files, quit, ready;
	struct fairplay_state result;
	/* The reader's own: the package's files as checked at the game's start. */
	int files;
	char files_changed[FAIRPLAY_LIST_MAX];
};

static void *reader(void *arg)
{
	struct fairplay_watch *w = arg;
	uint64_t one = 1;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct fairplay_state s;
		bool files;

		while (!w->request && !w->quit)
			pthread_cond_wait(&w->wake, &w->lock);
		if (w->quit)
			break;
		files = w->request_files;
		w->request = false;
		pthread_mutex_unlock(&w->lock);

		w->probe.files = false;
		probe_measure(&w->probe, &s);
		if (files)
			w->files = w->cfg.policy.files == FAIRPLAY_FILES_SKIP
				       ? -1
				       : probe_package_files(&w->probe, w->files_changed,
							     sizeof(w->files_changed));
		s.files = w->files;
		snprintf(s.files_changed, sizeof(s.files_changed), "%s", w->files_changed);

		pthread_mutex_lock(&w->lock);
		w->result = s;
		w->ready = true;
		pthread_cond_broadcast(&w->taken);
		if (write(w->done, &one, sizeof(one)) < 0 && errno != EAGAIN)
			log_warn(LOG_MAIN, "fair play: cannot signal a reading: %s",
				 strerror(errno));
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void ask(struct fairplay_watch *w, bool files)
{
	pthread_mutex_lock(&w->lock);
	w->request = true;
	w->request_files |= files;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	w->busy = true;
}

/* A reading done: handed on when it differs from the last one. */
static void taken(void *user, int fd, short revents, uint64_t now)
{
	struct fairplay_watch *w = user;
	struct fairplay_state s;
	uint64_t n;
	bool ready;

	(void)revents;
	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		return;
	pthread_mutex_lock(&w->lock);
	ready = w->ready;
	s = w->result;
	w->ready = false;
	w->request_files = false;
	pthread_mutex_unlock(&w->lock);
	w->busy = false;
	if (!ready || !w->active(w->user) || (w->have && fairplay_equal(&s, &w->last)))
		return;
	w->have = true;
	w->last = s;
	w->changed(w->user, &s, now);
}

static uint64_t watch_deadline(void *user, uint64_t now)
{
	struct fairplay_watch *w = user;

	if (!w->active(w->user)) {
		w->was_active = false;
		return UINT64_MAX;
	}
	if (w->busy)
		return UINT64_MAX;
	if (!w->was_active || w->due)
		return now;
	return w->next_ms;
}

static void watch_run(void *user, uint64_t now)
{
	struct fairplay_watch *w = user;
	bool start = !w->was_active;

	if (!w->active(w->user) || w->busy)
		return;
	w->was_active = true;
	w->due = false;
	/* A game's start reads everything, the package's files too; the state is handed on
	 * for the new game even when it is the last game's. */
	if (start)
		w->have = false;
	ask(w, start);
	w->next_ms = now + (uint64_t)w->cfg.interval_s * 1000;
}

/* The kernel's news: read it all, then read the machine at once (while a game is on). */
static void news(void *user, int fd, short revents, uint64_t now)
{
	struct fairplay_watch *w = user;
	char buf[8192];

	(void)revents;
	(void)now;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	w->due = true;
}

static int open_netlink(void)
{
	struct sockaddr_nl addr = {.nl_family = AF_NETLINK,
				   .nl_groups =
				       RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		close(fd);
		return -1;
	}
	return fd;
}

struct fairplay_watch *fairplay_watch_open(const struct fairplay_config *cfg, bool real_board,
					   const char *engine, const char *version,
					   const char *config_digest, struct loop *loop,
					   fairplay_active_fn active, fairplay_changed_fn changed,
					   void *user)
{
	struct fairplay_watch *w;
	bool real = !strcmp(cfg->sysfs, "/sys");

	if (cfg->watch == FAIRPLAY_WATCH_NO || (cfg->watch == FAIRPLAY_WATCH_AUTO && !real_board))
		return NULL;
	if (!(w = calloc(1, sizeof(*w))))
		return NULL;
	w->cfg = *cfg;
	snprintf(w->engine, sizeof(w->engine), "%s", engine ? engine : "");
	snprintf(w->version, sizeof(w->version), "%s", version);
	snprintf(w->digest, sizeof(w->digest), "%s", config_digest);
	probe_config_defaults(&w->probe);
	w->probe.sysfs = w->cfg.sysfs;
	w->probe.proc = w->cfg.proc;
	w->probe.utmp = w->cfg.utmp;
	w->probe.dpkg_info = w->cfg.dpkg_info;
	w->probe.root = w->cfg.root;
	w->probe.engine_dirs = w->cfg.engine_dirs;
	w->probe.engine = w->engine;
	w->probe.version = w->version;
	w->probe.config_digest = w->digest;
	w->probe.addresses = real;
	w->loop = loop;
	w->active = active;
	w->changed = changed;
	w->user = user;
	w->files = -1;
	w->netlink = w->rfkill = -1;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->taken, NULL);
	w->done = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (w->done < 0 || pthread_create(&w->thread, NULL, reader, w)) {
		log_warn(LOG_MAIN, "fair play: cannot start the reader: %s", strerror(errno));
		fairplay_watch_free(w);
		return NULL;
	}
	w->thread_started = true;
	loop_add_fd(loop, w->done, POLLIN, taken, w);
	/* The kernel tells of changes on the real machine; a tree of the tests' own is read at
	 * the interval. */
	if (real) {
		w->netlink = open_netlink();
		w->rfkill = open("/dev/rfkill", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (w->netlink < 0)
			log_warn(
			    LOG_MAIN,
			    "fair play: no netlink socket (%s): interfaces are read every %d s",
			    strerror(errno), cfg->interval_s);
		else
			loop_add_fd(loop, w->netlink, POLLIN, news, w);
		if (w->rfkill >= 0)
			loop_add_fd(loop, w->rfkill, POLLIN, news, w);
	}
	if (loop_add_source(loop, watch_deadline, watch_run, w)) {
		fairplay_watch_free(w);
		return NULL;
	}
	return w;
}

bool fairplay_watch_wait(struct fairplay_watch *w)
{
	if (!w || !w->busy)
		return false;
	pthread_mutex_lock(&w->lock);
	while (!w->ready)
		pthread_cond_wait(&w->taken, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return true;
}

void fairplay_watch_free(struct fairplay_watch *w)
{
	if (!w)
		return;
	if (w->thread_started) {
		pthread_mutex_lock(&w->lock);
		w->quit = true;
		pthread_cond_signal(&w->wake);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	if (w->done >= 0) {
		loop_remove_fd(w->loop, w->done);
		close(w->done);
	}
	if (w->netlink >= 0) {
		loop_remove_fd(w->loop, w->netlink);
		close(w->netlink);
	}
	if (w->rfkill >= 0) {
		loop_remove_fd(w->loop, w->rfkill);
		close(w->rfkill);
	}
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->taken);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
