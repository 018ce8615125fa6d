/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/driver.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "store/journal.h"
#include "store/state.h"

struct driver {
	struct script script;
	char name[256];
	struct board *board;
	uint64_t origin;
	int next;				 /* next action */
	int first;				 /* the first action driver_start() plays */
	uint64_t release_ms[BOARD_BUTTON_COUNT]; /* UINT64_MAX: not held */
	struct driver_hooks hooks;
	const struct board_config *cfg;
	/* A live script (a named pipe): read as it is written, until its writer closes it. */
	int fd; /* -1: none, or closed */
	int line;
	size_t len;
	char buf[SCRIPT_MAX_LINE + 2];
};

/* Whether the action's button has a line in the configuration; err names it if not. */
static int check_buttons(const struct driver *d, const struct script_action *a, char *err,
			 size_t err_size)
{
	if ((a->type == SCRIPT_PRESS || a->type == SCRIPT_HOLD) &&
	    d->cfg->button_lines[a->target] == BOARD_NO_LINE) {
		snprintf(err, err_size, "%s:%d: button '%s' has no line in the configuration",
			 d->name, a->line, board_button_name((enum board_button)a->target));
		return -1;
	}
	return 0;
}

/* One line of a live script: appended at script time at_ms, or logged and left out. */
static int live_line(struct driver *d, const char *line, uint64_t at_ms, char *err, size_t err_size)
{
	int count = d->script.count;

	if (script_append_line(&d->script, line, ++d->line, d->name, at_ms, err, err_size))
		return -1;
	for (int i = count; i < d->script.count; i++) {
		if (check_buttons(d, &d->script.actions[i], err, err_size)) {
			d->script.count = count;
			return -1;
		}
	}
	return 0;
}

/* A live script's header, read before the daemon starts: its lines up to the first action
 * or the first blank line (the writer is waited for). */
static int live_open(struct driver *d, char *err, size_t err_size)
{
	d->fd = open(d->name, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		snprintf(err, err_size, "%s: %s", d->name, strerror(errno));
		return -1;
	}
	d->script.header.player = -1;
	while (d->script.count == 0) {
		char *nl;
		ssize_t n;

		if ((nl = memchr(d->buf, '\n', d->len))) {
			bool blank;

			*nl = '\0';
			blank = d->buf[strspn(d->buf, " \t\r")] == '\0';
			if (live_line(d, d->buf, 0, err, err_size))
				return -1;
			d->len -= (size_t)(nl + 1 - d->buf);
			memmove(d->buf, nl + 1, d->len);
			/* A blank line ends the header: the daemon starts, the actions follow. */
			if (blank)
				break;
			continue;
		}
		if (d->len >= sizeof(d->buf) - 1) {
			snprintf(err, err_size, "%s:%d: line too long", d->name, d->line + 1);
			return -1;
		}
		n = read(d->fd, d->buf + d->len, sizeof(d->buf) - 1 - d->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* the writer went before any action: an empty script */
		d->len += (size_t)n;
	}
	if (fcntl(d->fd, F_SETFL, fcntl(d->fd, F_GETFL) | O_NONBLOCK)) {
		snprintf(err, err_size, "%s: %s", d->name, strerror(errno));
		return -1;
	}
	return 0;
}

struct driver *driver_open(const char *path, const struct board_config *cfg, char *err,
			   size_t err_size)
{
	struct driver *d = calloc(1, sizeof(*d));

	if (!d) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	struct stat st;

	snprintf(d->name, sizeof(d->name), "%s", path);
	d->cfg = cfg;
	d->fd = -1;
	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
		if (live_open(d, err, err_size)) {
			driver_free(d);
			return NULL;
		}
	} else if (script_load(path, &d->script, err, err_size)) {
		free(d);
		return NULL;
	}
	for (int i = 0; i < d->script.count; i++) {
		if (check_buttons(d, &d->script.actions[i], err, err_size)) {
			driver_free(d);
			return NULL;
		}
	}
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++)
		d->release_ms[i] = UINT64_MAX;
	d->next = d->script.count; /* nothing until driver_start() */
	return d;
}

void driver_free(struct driver *d)
{
	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	script_free(&d->script);
	free(d);
}

const struct script_header *driver_header(const struct driver *d)
{
	return &d->script.header;
}

void driver_start(struct driver *d, struct board *board, uint64_t origin_ms,
		  const struct driver_hooks *hooks)
{
	d->board = board;
	d->origin = origin_ms;
	d->next = d->first;
	d->hooks = *hooks;
}

void driver_faults_at_start(struct driver *d, const struct driver_hooks *hooks)
{
	while (d->first < d->script.count && d->script.actions[d->first].time_ms == 0 &&
	       d->script.actions[d->first].type == SCRIPT_DISK) {
		const struct script_action *a = &d->script.actions[d->first++];

		if (hooks->disk)
			hooks->disk(hooks->user, a->target, a->arg, 0);
	}
}

static uint64_t action_ms(const struct driver *d, int i)
{
	return d->origin + d->script.actions[i].time_ms;
}

/* The next button release (its index into *button), or UINT64_MAX. */
static uint64_t next_release(const struct driver *d, int *button)
{
	uint64_t t = UINT64_MAX;

	for (int i = 0; i < BOARD_BUTTON_COUNT; i++) {
		if (d->release_ms[i] < t) {
			t = d->release_ms[i];
			*button = i;
		}
	}
	return t;
}

uint64_t driver_deadline(void *user, uint64_t now)
{
	struct driver *d = user;
	int button;
	uint64_t t = next_release(d, &button);

	(void)now;
	if (d->next < d->script.count && action_ms(d, d->next) < t)
		t = action_ms(d, d->next);
	return t;
}

static void warn_hole(const struct driver *d, const struct script_action *a)
{
	bool lift = a->type == SCRIPT_LIFT;

	log_warn(LOG_GPIO, "%s:%d: %s: hole already %s", d->name, a->line, lift ? "lift" : "place",
		 lift ? "empty" : "taken");
}

static void act(struct driver *d, const struct script_action *a, uint64_t t)
{
	switch (a->type) {
	case SCRIPT_LIFT:
	case SCRIPT_PLACE:
		if (board_sim_peg(d->board, a->target, a->type == SCRIPT_PLACE, t) == 1)
			warn_hole(d, a);
		break;
	case SCRIPT_PRESS:
	case SCRIPT_HOLD: {
		uint64_t until = t + a->arg;

		if (d->release_ms[a->target] != UINT64_MAX) {
			/* Pressed again while held: it stays down the longer of the two. */
			if (until > d->release_ms[a->target])
				d->release_ms[a->target] = until;
			break;
		}
		board_sim_button(d->board, a->target, true, t);
		d->release_ms[a->target] = until;
		break;
	}
	case SCRIPT_CHATTER:
		board_sim_chatter(d->board, a->target, a->arg, t);
		break;
	case SCRIPT_STUCK:
		if (board_sim_stuck(d->board, a->target, a->arg2 != 0, a->arg, t))
			log_warn(LOG_GPIO, "%s:%d: stuck: that line is not on this board", d->name,
				 a->line);
		break;
	case SCRIPT_BOUNCE:
		if (board_sim_bounce(d->board, a->target, a->arg, a->arg2, t))
			log_warn(LOG_GPIO, "%s:%d: bounce: that line is not on this board", d->name,
				 a->line);
		break;
	case SCRIPT_DISK:
		if (d->hooks.disk)
			d->hooks.disk(d->hooks.user, a->target, a->arg, t);
		break;
	case SCRIPT_CRASH:
		if (a->target == SCRIPT_CRASH_AFTER_BYTES) {
			state_crash_after(a->arg);
			break;
		}
		/* The power goes: nothing is flushed. */
		if (d->hooks.before_crash)
			d->hooks.before_crash(d->hooks.user, t);
		if (a->target == SCRIPT_CRASH_UNSYNCED)
			journal_power_loss();
		kill(getpid(), SIGKILL);
		break;
	case SCRIPT_CONTROL:
		if (d->hooks.control)
			d->hooks.control(d->hooks.user, script_control_role(a),
					 script_control_author(&d->script, a),
					 script_control_text(&d->script, a), t);
		break;
	}
}

void driver_run(void *user, uint64_t now)
{
	struct driver *d = user;

	for (;;) {
		int button = 0;
		uint64_t tr = next_release(d, &button);
		uint64_t ta = d->next < d->script.count ? action_ms(d, d->next) : UINT64_MAX;

		/* In time order; at one time a release comes before the next action. */
		if (tr <= ta && tr <= now) {
			d->release_ms[button] = UINT64_MAX;
			board_sim_button(d->board, button, false, tr);
		} else if (ta <= now) {
			act(d, &d->script.actions[d->next++], ta);
		} else {
			break;
		}
	}
}

bool driver_done(const struct driver *d)
{
	int button;

	return d->fd < 0 && d->next >= d->script.count && next_release(d, &button) == UINT64_MAX;
}

int driver_fd(const struct driver *d)
{
	return d->fd;
}

bool driver_read(struct driver *d, uint64_t now)
{
	char err[300];

	for (;;) {
		char *nl;
		ssize_t n;

		while ((nl = memchr(d->buf, '\n', d->len))) {
			*nl = '\0';
			if (live_line(d, d->buf, now > d->origin ? now - d->origin : 0, err,
				      sizeof(err)))
				log_warn(LOG_GPIO, "%s", err);
			d->len -= (size_t)(nl + 1 - d->buf);
			memmove(d->buf, nl + 1, d->len);
		}
		if (d->len >= sizeof(d->buf) - 1) {
			log_warn(LOG_GPIO, "%s:%d: line too long, skipped", d->name, d->line + 1);
			d->len = 0;
		}
		n = read(d->fd, d->buf + d->len, sizeof(d->buf) - 1 - d->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return false;
		if (n <= 0)
			break;
		d->len += (size_t)n;
	}
	/* The writer closed it: a last line without its newline, and the script's end. */
	if (d->len) {
		d->buf[d->len] = '\0';
		if (live_line(d, d->buf, now > d->origin ? now - d->origin : 0, err, sizeof(err)))
			log_warn(LOG_GPIO, "%s", err);
		d->len = 0;
	}
	close(d->fd);
	d->fd = -1;
	return true;
}
