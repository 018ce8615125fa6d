/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/takeover.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "base/log.h"
#include "daemon/notify.h"

#define TAKEOVER_CHECK_MS 2000
#define DELETED_SUFFIX	  " (deleted)"

struct takeover {
	struct loop *loop;
	const struct referee *referee;
	char path[PATH_MAX]; /* the program file this process was started from */
	const char *name;    /* its name in its folder (into path) */
	int watch_fd;	     /* inotify on that folder, or -1: checked every TAKEOVER_CHECK_MS */
	uint64_t next_ms;    /* the next check, UINT64_MAX: none until the folder changes */
	bool waiting_said;   /* the new version's wait was logged */
	bool due;	     /* the loop stopped for the new version */
};

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

	/* Watched: nothing to do until the folder changes (an idle daemon never wakes). */
	t->next_ms = t->watch_fd >= 0 ? UINT64_MAX : now + TAKEOVER_CHECK_MS;
	if (read_exe(exe, sizeof(exe)) || !replaced(exe))
		return;
	/* Removed rather than replaced (the package is being removed): nothing to run. */
	if (access(t->path, X_OK))
		return;
	if (!takeover_game_idle(referee_game(t->referee))) {
		/* Looked at again until the game is over. */
		t->next_ms = now + TAKEOVER_CHECK_MS;
		if (!t->waiting_said) {
			log_warn(LOG_MAIN,
				 "a new version of %s was installed; it takes over once this "
				 "game's result is approved, or at the next start",
				 t->path);
			notify_send("STATUS=a new version waits for the end of the game");
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

/* The program's folder changed: a file of the program's name came, went or was renamed
 * over it (dpkg renames the new version over the old one).  Checked at once. */
static void folder_changed(void *user, int fd, short revents, uint64_t now)
{
	struct takeover *t = user;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	(void)revents;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)(void *)p;

			if ((ev->mask & IN_Q_OVERFLOW) || (ev->len && !strcmp(ev->name, t->name)))
				t->next_ms = now;
			p += sizeof(*ev) + ev->len;
		}
	}
}

/* The program's folder watched; -1 when it cannot be (then it is checked every
 * TAKEOVER_CHECK_MS). */
static int watch_folder(struct takeover *t)
{
	char dir[PATH_MAX];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", t->path);
	slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	t->name = t->path + (slash + 1 - dir);
	fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd < 0)
		return -1;
	if (inotify_add_watch(fd, dir[0] ? dir : "/",
			      IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) < 0 ||
	    loop_add_fd(t->loop, fd, POLLIN, folder_changed, t)) {
		close(fd);
		return -1;
	}
	return fd;
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
	t->watch_fd = watch_folder(t);
	if (t->watch_fd < 0)
		log_info(LOG_MAIN, "cannot watch %s's folder (%s): looked at every %d s", t->path,
			 strerror(errno), TAKEOVER_CHECK_MS / 1000);
	t->next_ms = t->watch_fd >= 0 ? UINT64_MAX : loop_now(loop) + TAKEOVER_CHECK_MS;
	if (loop_add_source(loop, takeover_deadline, takeover_run, t)) {
		if (t->watch_fd >= 0) {
			loop_remove_fd(loop, t->watch_fd);
			close(t->watch_fd);
		}
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
	if (t && t->watch_fd >= 0)
		close(t->watch_fd);
	free(t);
}
