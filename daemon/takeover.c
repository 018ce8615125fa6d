/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/takeover.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"

#define TAKEOVER_CHECK_MS 2000
#define DELETED_SUFFIX	  " (deleted)"

struct takeover {
	struct loop *loop;
	const struct referee *referee;
	char path[PATH_MAX]; /* the program file this process was started from */
	uint64_t next_ms;
	bool waiting_said; /* the new version's wait was logged (it waits from then on) */
	bool due;	   /* the loop stopped for the new version */
};

bool takeover_waiting(const struct takeover *t)
{
	return t && t->waiting_said;
}

bool takeover_game_idle(const struct game *g)
{
	if (!g->open || g->result.state == RESULT_APPROVED)
		return true;
	return g->result.state == RESULT_ON && game_plies(g) == 0 &&
	       (!g->has_clock || g->clock.state == CLOCK_NOT_STARTED);
}

/* The program file's path as the kernel has it, with " (deleted)" once another file took
 * its name.  0, or -1. */
static int read_exe(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	if (n < 0 || (size_t)n >= size - 1)
		return -1;
	buf[n] = '\0';
	return 0;
}

static bool replaced(const char *now)
{
	size_t n = strlen(now), k = strlen(DELETED_SUFFIX);

	return n > k && !strcmp(now + n - k, DELETED_SUFFIX);
}

static uint64_t takeover_deadline(void *user, uint64_t now)
{
	struct takeover *t = user;

	(void)now;
	return t->due ? UINT64_MAX : t->next_ms;
}

static void takeover_run(void *user, uint64_t now)
{
	struct takeover *t = user;
	char exe[PATH_MAX + sizeof(DELETED_SUFFIX)];

	t->next_ms = now + TAKEOVER_CHECK_MS;
	if (read_exe(exe, sizeof(exe)) || !replaced(exe))
		return;
	/* Removed rather than replaced (the package is being removed): nothing to run. */
	if (access(t->path, X_OK))
		return;
	if (!takeover_game_idle(referee_game(t->referee))) {
		if (!t->waiting_said) {
			log_warn(LOG_MAIN,
				 "a new version of %s was installed; it takes over once this "
				 "game's result is approved, or at the next start",
				 t->path);
			t->waiting_said = true;
		}
		return;
	}
	log_warn(LOG_MAIN,
		 "a new version of %s was installed and no game is in progress: "
		 "starting it",
		 t->path);
	t->due = true;
	loop_stop(t->loop, 0);
}

struct takeover *takeover_open(struct loop *loop, const struct referee *referee)
{
	struct takeover *t;

	if (loop_virtual(loop))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	if (read_exe(t->path, sizeof(t->path)) || replaced(t->path)) {
		log_warn(LOG_MAIN,
			 "cannot read the program's own path (%s): a new version "
			 "installed while it runs takes over at the next start",
			 errno ? strerror(errno) : "replaced already");
		free(t);
		return NULL;
	}
	t->loop = loop;
	t->referee = referee;
	t->next_ms = loop_now(loop) + TAKEOVER_CHECK_MS;
	if (loop_add_source(loop, takeover_deadline, takeover_run, t)) {
		free(t);
		return NULL;
	}
	return t;
}

const char *takeover_program(const struct takeover *t)
{
	return t && t->due ? t->path : NULL;
}

void takeover_free(struct takeover *t)
{
	free(t);
}
