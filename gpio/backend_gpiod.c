/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The gpiod backend: real GPIO lines through libgpiod, v1 API (Debian 12) or v2 API
 * (Raspberry Pi OS trixie), chosen at build time by ANNABELLA_GPIOD_V2.
 *
 * Hole lines (direct wiring) and buttons are requested as inputs with edge events on both
 * edges; matrix columns and the shift data line as plain inputs; matrix rows and the shift
 * load and clock lines as outputs.  Inputs get a pull-up where they are active low (buttons,
 * active-low holes) and a pull-down otherwise; a chip that cannot set the bias gets the
 * request again without it.  With v2 the kernel also debounces the edge inputs by a quarter
 * of debounce-ms, so contact bounce does not wake the daemon; the full debounce is done above.
 *
 * Edge time stamps come from CLOCK_MONOTONIC in the kernel; an edge's daemon time is the
 * daemon time now less the edge's age.
 */
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/epoll.h>
#if ANNABELLA_GPIOD_V2
#include <glob.h>
#endif

#include "base/log.h"
#include "base/timeutil.h"
#include "gpio/line.h"

#define CONSUMER   "annabella"
#define READ_CHUNK 16
/* An edge older than this is taken as happening now: its time stamp is from another clock. */
#define MAX_EDGE_AGE_NS (10ull * 1000000000ull)

static uint64_t edge_daemon_ns(uint64_t now_ns, uint64_t mono_now, uint64_t stamp_ns)
{
	uint64_t age = mono_now >= stamp_ns ? mono_now - stamp_ns : 0;

	if (age > MAX_EDGE_AGE_NS || age > now_ns)
		age = 0;
	return now_ns - age;
}

/* Input bias: pull towards the inactive level. */
static bool wants_pull_up(const struct board_config *cfg, bool is_button)
{
	return is_button || cfg->active_low_squares;
}

static void sort_edges(struct line_edge *e, int n)
{
	for (int i = 1; i < n; i++) {
		struct line_edge x = e[i];
		int j = i;

		for (; j > 0 && e[j - 1].time_ns > x.time_ns; j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

#if !ANNABELLA_GPIOD_V2
/* ------------------------------------------------------------------ libgpiod 1.x */

struct gpiod_ctx {
	struct gpiod_chip *chip;
	struct gpiod_line *lines[BOARD_MAX_LINE + 1]; /* requested lines by offset */
	int epfd;
	int n_event;
};

static int request_line(struct gpiod_ctx *g, int offset, int type, int flags, int value, char *err,
			size_t err_size)
{
	struct gpiod_line_request_config rc = {.consumer = CONSUMER, .request_type = type};
	struct gpiod_line *line = gpiod_chip_get_line(g->chip, (unsigned)offset);

	if (!line) {
		snprintf(err, err_size, "gpiod: line %d: %s", offset, strerror(errno));
		return -1;
	}
	rc.flags = flags;
	if (gpiod_line_request(line, &rc, value) < 0) {
		if (!flags) {
			snprintf(err, err_size, "gpiod: cannot request line %d: %s", offset,
				 strerror(errno));
			return -1;
		}
		log_warn(LOG_GPIO, "line %d: bias not accepted (%s), requesting without it", offset,
			 strerror(errno));
		rc.flags = 0;
		if (gpiod_line_request(line, &rc, value) < 0) {
			snprintf(err, err_size, "gpiod: cannot request line %d: %s", offset,
				 strerror(errno));
			return -1;
		}
	}
	g->lines[offset] = line;
	return 0;
}

static void gpiod_close_ctx(void *ctx)
{
	struct gpiod_ctx *g = ctx;

	if (g->epfd >= 0)
		close(g->epfd);
	for (int i = 0; i <= BOARD_MAX_LINE; i++)
		if (g->lines[i])
			gpiod_line_release(g->lines[i]);
	if (g->chip)
		gpiod_chip_close(g->chip);
	free(g);
}

static void *gpiod_open_ctx(const struct board_config *cfg, const char *arg, uint64_t now_ms,
			    char *err, size_t err_size)
{
	struct gpiod_ctx *g = calloc(1, sizeof(*g));
	struct line_roles r;

	(void)arg;
	(void)now_ms;
	if (!g) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	g->epfd = -1;
	g->chip = gpiod_chip_open_lookup(cfg->chip);
	if (!g->chip) {
		snprintf(err, err_size, "gpiod: cannot open chip '%s': %s", cfg->chip,
			 strerror(errno));
		goto fail;
	}
	g->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (g->epfd < 0) {
		snprintf(err, err_size, "epoll: %s", strerror(errno));
		goto fail;
	}
	line_roles_get(cfg, &r);
	for (int i = 0; i < r.n_out; i++)
		if (request_line(g, r.outputs[i], GPIOD_LINE_REQUEST_DIRECTION_OUTPUT, 0,
				 r.output_init[i], err, err_size))
			goto fail;
	for (int i = 0; i < r.n_plain; i++)
		if (request_line(g, r.plain_inputs[i], GPIOD_LINE_REQUEST_DIRECTION_INPUT,
				 cfg->active_low_squares ? GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP
							 : GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN,
				 0, err, err_size))
			goto fail;
	for (int i = 0; i < r.n_edge; i++) {
		int offset = r.edge_inputs[i];
		struct epoll_event ev = {.events = EPOLLIN};

		if (request_line(g, offset, GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES,
				 wants_pull_up(cfg, r.edge_is_button[i])
				     ? GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP
				     : GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN,
				 0, err, err_size))
			goto fail;
		/* v1 gives each event line its own descriptor: gather them in one epoll set. */
		ev.data.u32 = (uint32_t)offset;
		if (epoll_ctl(g->epfd, EPOLL_CTL_ADD, gpiod_line_event_get_fd(g->lines[offset]),
			      &ev) < 0) {
			snprintf(err, err_size, "epoll: %s", strerror(errno));
			goto fail;
		}
		g->n_event++;
	}
	return g;
fail:
	gpiod_close_ctx(g);
	return NULL;
}

static int gpiod_fd(void *ctx)
{
	struct gpiod_ctx *g = ctx;

	return g->n_event ? g->epfd : -1;
}

static int gpiod_read_edges(void *ctx, uint64_t now_ns, struct line_edge *out, int max, char *err,
			    size_t err_size)
{
	struct gpiod_ctx *g = ctx;
	struct epoll_event ready[READ_CHUNK];
	struct gpiod_line_event events[READ_CHUNK];
	uint64_t mono = monotonic_ns();
	int n = 0, k;

	if (!g->n_event)
		return 0;
	k = epoll_wait(g->epfd, ready, READ_CHUNK, 0);
	if (k < 0) {
		if (errno == EINTR)
			return 0;
		snprintf(err, err_size, "gpiod: epoll: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < k && n < max; i++) {
		int offset = (int)ready[i].data.u32;
		int want = max - n < READ_CHUNK ? max - n : READ_CHUNK;
		int m = gpiod_line_event_read_fd_multiple(gpiod_line_event_get_fd(g->lines[offset]),
							  events, (unsigned)want);

		if (m < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			snprintf(err, err_size, "gpiod: line %d: %s", offset, strerror(errno));
			return -1;
		}
		for (int j = 0; j < m; j++) {
			uint64_t stamp = (uint64_t)events[j].ts.tv_sec * 1000000000ull +
					 (uint64_t)events[j].ts.tv_nsec;

			out[n++] = (struct line_edge){
			    .time_ns = edge_daemon_ns(now_ns, mono, stamp),
			    .line = offset,
			    .kind = events[j].event_type == GPIOD_LINE_EVENT_RISING_EDGE
					? LINE_RISING
					: LINE_FALLING,
			};
		}
	}
	sort_edges(out, n);
	return n;
}

static int gpiod_get(void *ctx, int line)
{
	struct gpiod_ctx *g = ctx;

	if (line < 0 || line > BOARD_MAX_LINE || !g->lines[line]) {
		errno = EINVAL;
		return -1;
	}
	return gpiod_line_get_value(g->lines[line]);
}

static int gpiod_set(void *ctx, int line, int value)
{
	struct gpiod_ctx *g = ctx;

	if (line < 0 || line > BOARD_MAX_LINE || !g->lines[line]) {
		errno = EINVAL;
		return -1;
	}
	return gpiod_line_set_value(g->lines[line], value ? 1 : 0) < 0 ? -1 : 0;
}

#else
/* ------------------------------------------------------------------ libgpiod 2.x */

/* The kernel takes at most this many lines in one request (GPIO_V2_LINES_MAX); a board of
 * 64 holes and its buttons takes two. */
#define LINES_PER_REQUEST 64
#define MAX_REQUESTS	  ((LINE_ROLES_MAX + 16 + LINES_PER_REQUEST - 1) / LINES_PER_REQUEST)

/* What a line is asked for: the groups of settings. */
enum line_kind { KIND_OUT_LOW, KIND_OUT_HIGH, KIND_PLAIN, KIND_EDGE_UP, KIND_EDGE_DOWN };
#define KIND_COUNT	  5

struct gpiod_ctx {
	struct gpiod_chip *chip;
	struct gpiod_line_request *requests[MAX_REQUESTS];
	int n_requests;
	struct gpiod_edge_event_buffer *events;
	signed char request_of[BOARD_MAX_LINE + 1]; /* index in requests, -1: not requested */
	int n_event;
	int epfd; /* the requests with edge lines, when there is more than one */
	bool edge_request[MAX_REQUESTS];
};

static void gpiod_close_ctx(void *ctx)
{
	struct gpiod_ctx *g = ctx;

	if (g->epfd >= 0)
		close(g->epfd);
	if (g->events)
		gpiod_edge_event_buffer_free(g->events);
	for (int i = 0; i < g->n_requests; i++)
		gpiod_line_request_release(g->requests[i]);
	if (g->chip)
		gpiod_chip_close(g->chip);
	free(g);
}

/* One group of lines with the same settings.  bias false: leave the bias as it is. */
static int add_group(struct gpiod_line_config *lc, const unsigned *offsets, size_t n,
		     enum line_kind kind, bool bias, bool plain_pull_up, unsigned long debounce_us)
{
	struct gpiod_line_settings *s;
	bool output = kind == KIND_OUT_LOW || kind == KIND_OUT_HIGH;
	bool edges = kind == KIND_EDGE_UP || kind == KIND_EDGE_DOWN;
	bool pull_up = kind == KIND_EDGE_UP || (kind == KIND_PLAIN && plain_pull_up);
	int ret = -1;

	if (!n)
		return 0;
	s = gpiod_line_settings_new();
	if (!s)
		return -1;
	if (gpiod_line_settings_set_direction(s, output ? GPIOD_LINE_DIRECTION_OUTPUT
							: GPIOD_LINE_DIRECTION_INPUT))
		goto out;
	if (output) {
		if (gpiod_line_settings_set_output_value(s, kind == KIND_OUT_HIGH
								? GPIOD_LINE_VALUE_ACTIVE
								: GPIOD_LINE_VALUE_INACTIVE))
			goto out;
	} else {
		if (bias && gpiod_line_settings_set_bias(s, pull_up ? GPIOD_LINE_BIAS_PULL_UP
								    : GPIOD_LINE_BIAS_PULL_DOWN))
			goto out;
		if (edges) {
			if (gpiod_line_settings_set_edge_detection(s, GPIOD_LINE_EDGE_BOTH) ||
			    gpiod_line_settings_set_event_clock(s, GPIOD_LINE_CLOCK_MONOTONIC))
				goto out;
			gpiod_line_settings_set_debounce_period_us(s, debounce_us);
		}
	}
	/* The line config keeps its own copy of the settings. */
	ret = gpiod_line_config_add_line_settings(lc, offsets, n, s);
out:
	gpiod_line_settings_free(s);
	return ret;
}

/* One request for lines[0..n) (n <= LINES_PER_REQUEST), grouped by kind. */
static struct gpiod_line_request *request_some(struct gpiod_ctx *g, const struct board_config *cfg,
					       const unsigned *lines, const enum line_kind *kinds,
					       int n, bool bias)
{
	struct gpiod_request_config *rc = gpiod_request_config_new();
	struct gpiod_line_config *lc = gpiod_line_config_new();
	struct gpiod_line_request *req = NULL;
	unsigned long debounce_us = (unsigned long)cfg->debounce_ms * 1000ul / 4ul;

	if (!rc || !lc)
		goto out;
	gpiod_request_config_set_consumer(rc, CONSUMER);
	for (int k = 0; k < KIND_COUNT; k++) {
		unsigned group[LINES_PER_REQUEST];
		size_t m = 0;

		for (int i = 0; i < n; i++)
			if (kinds[i] == (enum line_kind)k)
				group[m++] = lines[i];
		if (add_group(lc, group, m, (enum line_kind)k, bias, cfg->active_low_squares,
			      debounce_us))
			goto out;
	}
	req = gpiod_chip_request_lines(g->chip, rc, lc);
out:
	if (lc)
		gpiod_line_config_free(lc);
	if (rc)
		gpiod_request_config_free(rc);
	return req;
}

/* Every line of the wiring, in requests of at most LINES_PER_REQUEST lines.  0, or -1 with
 * errno (the requests made are released). */
static int request_all(struct gpiod_ctx *g, const struct board_config *cfg,
		       const struct line_roles *r, bool bias)
{
	unsigned lines[LINE_ROLES_MAX + 16];
	enum line_kind kinds[LINE_ROLES_MAX + 16];
	int n = 0;

	for (int i = 0; i < r->n_out; i++) {
		lines[n] = (unsigned)r->outputs[i];
		kinds[n++] = r->output_init[i] ? KIND_OUT_HIGH : KIND_OUT_LOW;
	}
	for (int i = 0; i < r->n_plain; i++) {
		lines[n] = (unsigned)r->plain_inputs[i];
		kinds[n++] = KIND_PLAIN;
	}
	for (int i = 0; i < r->n_edge; i++) {
		lines[n] = (unsigned)r->edge_inputs[i];
		kinds[n++] =
		    wants_pull_up(cfg, r->edge_is_button[i]) ? KIND_EDGE_UP : KIND_EDGE_DOWN;
	}
	for (int first = 0; first < n; first += LINES_PER_REQUEST) {
		int m = n - first < LINES_PER_REQUEST ? n - first : LINES_PER_REQUEST;
		struct gpiod_line_request *req =
		    request_some(g, cfg, lines + first, kinds + first, m, bias);

		if (!req) {
			int saved = errno;

			for (int i = 0; i < g->n_requests; i++)
				gpiod_line_request_release(g->requests[i]);
			g->n_requests = 0;
			errno = saved;
			return -1;
		}
		g->edge_request[g->n_requests] = false;
		for (int i = first; i < first + m; i++) {
			g->request_of[lines[i]] = (signed char)g->n_requests;
			if (kinds[i] == KIND_EDGE_UP || kinds[i] == KIND_EDGE_DOWN)
				g->edge_request[g->n_requests] = true;
		}
		g->requests[g->n_requests++] = req;
	}
	return 0;
}

/* A chip by path ("/dev/gpiochip0"), name ("gpiochip0"), number ("0") or label
 * ("pinctrl-rp1"): the path of its device in path. */
static struct gpiod_chip *open_chip(const char *spec, char *path, size_t path_size)
{
	struct gpiod_chip *chip;
	glob_t gl;

	if (strchr(spec, '/'))
		snprintf(path, path_size, "%s", spec);
	else if (spec[0] && strspn(spec, "0123456789") == strlen(spec))
		snprintf(path, path_size, "/dev/gpiochip%s", spec);
	else
		snprintf(path, path_size, "/dev/%s", spec);
	chip = gpiod_chip_open(path);
	if (chip || strchr(spec, '/') || errno != ENOENT)
		return chip;
	/* Not a device name: a label. */
	if (glob("/dev/gpiochip*", 0, NULL, &gl) == 0) {
		for (size_t i = 0; i < gl.gl_pathc && !chip; i++) {
			struct gpiod_chip *c = gpiod_chip_open(gl.gl_pathv[i]);
			struct gpiod_chip_info *info = c ? gpiod_chip_get_info(c) : NULL;

			if (info && !strcmp(gpiod_chip_info_get_label(info), spec)) {
				chip = c;
				snprintf(path, path_size, "%s", gl.gl_pathv[i]);
			} else if (c) {
				gpiod_chip_close(c);
			}
			if (info)
				gpiod_chip_info_free(info);
		}
		globfree(&gl);
	}
	if (!chip)
		errno = ENOENT;
	return chip;
}

static void *gpiod_open_ctx(const struct board_config *cfg, const char *arg, uint64_t now_ms,
			    char *err, size_t err_size)
{
	struct gpiod_ctx *g = calloc(1, sizeof(*g));
	struct line_roles r;
	char path[96];

	(void)arg;
	(void)now_ms;
	if (!g) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	g->epfd = -1;
	memset(g->request_of, -1, sizeof(g->request_of));
	g->chip = open_chip(cfg->chip, path, sizeof(path));
	if (!g->chip) {
		snprintf(err, err_size, "gpiod: cannot open chip '%s': %s", cfg->chip,
			 strerror(errno));
		goto fail;
	}
	line_roles_get(cfg, &r);
	if (request_all(g, cfg, &r, true)) {
		log_warn(LOG_GPIO, "bias not accepted (%s), requesting the lines without it",
			 strerror(errno));
		if (request_all(g, cfg, &r, false)) {
			snprintf(err, err_size, "gpiod: cannot request the lines on '%s': %s", path,
				 strerror(errno));
			goto fail;
		}
	}
	g->events = gpiod_edge_event_buffer_new(READ_CHUNK);
	if (!g->events) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	g->n_event = r.n_edge;
	/* More than one request: the loop waits on one descriptor for all of them. */
	if (g->n_requests > 1) {
		g->epfd = epoll_create1(EPOLL_CLOEXEC);
		if (g->epfd < 0) {
			snprintf(err, err_size, "epoll: %s", strerror(errno));
			goto fail;
		}
		for (int i = 0; i < g->n_requests; i++) {
			struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};

			if (g->edge_request[i] &&
			    epoll_ctl(g->epfd, EPOLL_CTL_ADD,
				      gpiod_line_request_get_fd(g->requests[i]), &ev)) {
				snprintf(err, err_size, "epoll: %s", strerror(errno));
				goto fail;
			}
		}
	}
	return g;
fail:
	gpiod_close_ctx(g);
	return NULL;
}

static int gpiod_fd(void *ctx)
{
	struct gpiod_ctx *g = ctx;

	if (!g->n_event)
		return -1;
	if (g->epfd >= 0)
		return g->epfd;
	return gpiod_line_request_get_fd(g->requests[0]);
}

/* The pending edges of one request into out[*n..max).  0, or -1 with err set. */
static int read_request(struct gpiod_ctx *g, struct gpiod_line_request *req, uint64_t now_ns,
			uint64_t mono, struct line_edge *out, int *n, int max, char *err,
			size_t err_size)
{
	while (*n < max) {
		int want = max - *n < READ_CHUNK ? max - *n : READ_CHUNK;
		int ready = gpiod_line_request_wait_edge_events(req, 0);
		int m;

		if (ready == 0)
			break;
		if (ready < 0) {
			if (errno == EINTR)
				break;
			snprintf(err, err_size, "gpiod: %s", strerror(errno));
			return -1;
		}
		/* Events are pending, so this does not block. */
		m = gpiod_line_request_read_edge_events(req, g->events, (size_t)want);
		if (m < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			snprintf(err, err_size, "gpiod: %s", strerror(errno));
			return -1;
		}
		for (int j = 0; j < m; j++) {
			struct gpiod_edge_event *ev =
			    gpiod_edge_event_buffer_get_event(g->events, (unsigned long)j);

			out[(*n)++] = (struct line_edge){
			    .time_ns =
				edge_daemon_ns(now_ns, mono, gpiod_edge_event_get_timestamp_ns(ev)),
			    .line = (int)gpiod_edge_event_get_line_offset(ev),
			    .kind =
				gpiod_edge_event_get_event_type(ev) == GPIOD_EDGE_EVENT_RISING_EDGE
				    ? LINE_RISING
				    : LINE_FALLING,
			};
		}
		if (m < want)
			break;
	}
	return 0;
}

static int gpiod_read_edges(void *ctx, uint64_t now_ns, struct line_edge *out, int max, char *err,
			    size_t err_size)
{
	struct gpiod_ctx *g = ctx;
	uint64_t mono = monotonic_ns();
	int n = 0;

	if (!g->n_event)
		return 0;
	/* Each request is asked without waiting; reading its events clears the epoll
	 * descriptor's readiness (level-triggered). */
	for (int q = 0; q < g->n_requests; q++) {
		if (g->edge_request[q] &&
		    read_request(g, g->requests[q], now_ns, mono, out, &n, max, err, err_size))
			return -1;
	}
	/* Each request gives its events in order; the requests' events are merged here. */
	sort_edges(out, n);
	return n;
}

static int gpiod_get(void *ctx, int line)
{
	struct gpiod_ctx *g = ctx;
	enum gpiod_line_value v;

	if (line < 0 || line > BOARD_MAX_LINE || g->request_of[line] < 0) {
		errno = EINVAL;
		return -1;
	}
	v = gpiod_line_request_get_value(g->requests[g->request_of[line]], (unsigned)line);
	if (v == GPIOD_LINE_VALUE_ERROR)
		return -1;
	return v == GPIOD_LINE_VALUE_ACTIVE;
}

static int gpiod_set(void *ctx, int line, int value)
{
	struct gpiod_ctx *g = ctx;

	if (line < 0 || line > BOARD_MAX_LINE || g->request_of[line] < 0) {
		errno = EINVAL;
		return -1;
	}
	return gpiod_line_request_set_value(g->requests[g->request_of[line]], (unsigned)line,
					    value ? GPIOD_LINE_VALUE_ACTIVE
						  : GPIOD_LINE_VALUE_INACTIVE) < 0
		   ? -1
		   : 0;
}

#endif

/* A short wait in the middle of a scan: the loop's thread sleeps (bounded by the
 * configuration to a fraction of the scan period). */
static void gpiod_settle(void *ctx, uint32_t us)
{
	struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};

	(void)ctx;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t gpiod_deadline_ns(void *ctx)
{
	(void)ctx;
	return UINT64_MAX;
}

static bool gpiod_finished(void *ctx)
{
	(void)ctx;
	return false;
}

const struct line_backend line_backend_gpiod = {
    .name = "gpiod",
    .recorded = false,
    .open = gpiod_open_ctx,
    .close = gpiod_close_ctx,
    .fd = gpiod_fd,
    .read_edges = gpiod_read_edges,
    .get = gpiod_get,
    .set = gpiod_set,
    .settle = gpiod_settle,
    .deadline_ns = gpiod_deadline_ns,
    .finished = gpiod_finished,
};
