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

#if !ANNABELLA_GPIOD_V2
#include <sys/epoll.h>
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

struct gpiod_ctx {
	struct gpiod_chip *chip;
	struct gpiod_line_request *request;
	struct gpiod_edge_event_buffer *events;
	bool requested[BOARD_MAX_LINE + 1];
	int n_event;
};

static void gpiod_close_ctx(void *ctx)
{
	struct gpiod_ctx *g = ctx;

	if (g->events)
		gpiod_edge_event_buffer_free(g->events);
	if (g->request)
		gpiod_line_request_release(g->request);
	if (g->chip)
		gpiod_chip_close(g->chip);
	free(g);
}

/* One group of lines with the same settings.  bias false: leave the bias as it is. */
static int add_group(struct gpiod_line_config *lc, const unsigned *offsets, size_t n,
		     enum gpiod_line_direction dir, bool edges, int pull_up, bool bias,
		     int output_value, unsigned long debounce_us)
{
	struct gpiod_line_settings *s;
	int ret = -1;

	if (!n)
		return 0;
	s = gpiod_line_settings_new();
	if (!s)
		return -1;
	if (gpiod_line_settings_set_direction(s, dir))
		goto out;
	if (dir == GPIOD_LINE_DIRECTION_OUTPUT) {
		if (gpiod_line_settings_set_output_value(
			s, output_value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE))
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

static struct gpiod_line_request *request_all(struct gpiod_ctx *g, const struct board_config *cfg,
					      const struct line_roles *r, bool bias)
{
	struct gpiod_request_config *rc = NULL;
	struct gpiod_line_config *lc = NULL;
	struct gpiod_line_request *req = NULL;
	unsigned out0[8], out1[8], plain[8], up[LINE_ROLES_MAX], down[LINE_ROLES_MAX];
	size_t n0 = 0, n1 = 0, nup = 0, ndown = 0;
	unsigned long debounce_us = (unsigned long)cfg->debounce_ms * 1000ul / 4ul;

	for (int i = 0; i < r->n_out; i++) {
		if (r->output_init[i])
			out1[n1++] = (unsigned)r->outputs[i];
		else
			out0[n0++] = (unsigned)r->outputs[i];
	}
	for (int i = 0; i < r->n_plain; i++)
		plain[i] = (unsigned)r->plain_inputs[i];
	for (int i = 0; i < r->n_edge; i++) {
		if (wants_pull_up(cfg, r->edge_is_button[i]))
			up[nup++] = (unsigned)r->edge_inputs[i];
		else
			down[ndown++] = (unsigned)r->edge_inputs[i];
	}
	rc = gpiod_request_config_new();
	lc = gpiod_line_config_new();
	if (!rc || !lc)
		goto out;
	gpiod_request_config_set_consumer(rc, CONSUMER);
	if (add_group(lc, out0, n0, GPIOD_LINE_DIRECTION_OUTPUT, false, 0, false, 0, 0) ||
	    add_group(lc, out1, n1, GPIOD_LINE_DIRECTION_OUTPUT, false, 0, false, 1, 0) ||
	    add_group(lc, plain, (size_t)r->n_plain, GPIOD_LINE_DIRECTION_INPUT, false,
		      cfg->active_low_squares, bias, 0, 0) ||
	    add_group(lc, up, nup, GPIOD_LINE_DIRECTION_INPUT, true, 1, bias, 0, debounce_us) ||
	    add_group(lc, down, ndown, GPIOD_LINE_DIRECTION_INPUT, true, 0, bias, 0, debounce_us))
		goto out;
	req = gpiod_chip_request_lines(g->chip, rc, lc);
out:
	if (lc)
		gpiod_line_config_free(lc);
	if (rc)
		gpiod_request_config_free(rc);
	return req;
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
	/* v2 opens chips by path: accept "gpiochip0", "0" and "/dev/gpiochip0". */
	if (strchr(cfg->chip, '/'))
		snprintf(path, sizeof(path), "%s", cfg->chip);
	else if (strspn(cfg->chip, "0123456789") == strlen(cfg->chip))
		snprintf(path, sizeof(path), "/dev/gpiochip%s", cfg->chip);
	else
		snprintf(path, sizeof(path), "/dev/%s", cfg->chip);
	g->chip = gpiod_chip_open(path);
	if (!g->chip) {
		snprintf(err, err_size, "gpiod: cannot open chip '%s': %s", path, strerror(errno));
		goto fail;
	}
	line_roles_get(cfg, &r);
	g->request = request_all(g, cfg, &r, true);
	if (!g->request) {
		log_warn(LOG_GPIO, "bias not accepted (%s), requesting the lines without it",
			 strerror(errno));
		g->request = request_all(g, cfg, &r, false);
	}
	if (!g->request) {
		snprintf(err, err_size, "gpiod: cannot request the lines on '%s': %s", path,
			 strerror(errno));
		goto fail;
	}
	g->events = gpiod_edge_event_buffer_new(READ_CHUNK);
	if (!g->events) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	for (int i = 0; i < r.n_out; i++)
		g->requested[r.outputs[i]] = true;
	for (int i = 0; i < r.n_plain; i++)
		g->requested[r.plain_inputs[i]] = true;
	for (int i = 0; i < r.n_edge; i++)
		g->requested[r.edge_inputs[i]] = true;
	g->n_event = r.n_edge;
	return g;
fail:
	gpiod_close_ctx(g);
	return NULL;
}

static int gpiod_fd(void *ctx)
{
	struct gpiod_ctx *g = ctx;

	return g->n_event ? gpiod_line_request_get_fd(g->request) : -1;
}

static int gpiod_read_edges(void *ctx, uint64_t now_ns, struct line_edge *out, int max, char *err,
			    size_t err_size)
{
	struct gpiod_ctx *g = ctx;
	uint64_t mono = monotonic_ns();
	int n = 0;

	if (!g->n_event)
		return 0;
	while (n < max) {
		int want = max - n < READ_CHUNK ? max - n : READ_CHUNK;
		int ready = gpiod_line_request_wait_edge_events(g->request, 0);
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
		m = gpiod_line_request_read_edge_events(g->request, g->events, (size_t)want);
		if (m < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			snprintf(err, err_size, "gpiod: %s", strerror(errno));
			return -1;
		}
		for (int j = 0; j < m; j++) {
			struct gpiod_edge_event *ev =
			    gpiod_edge_event_buffer_get_event(g->events, (unsigned long)j);

			out[n++] = (struct line_edge){
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
	/* One request gives its events in order already; sorting keeps the contract plain. */
	sort_edges(out, n);
	return n;
}

static int gpiod_get(void *ctx, int line)
{
	struct gpiod_ctx *g = ctx;
	enum gpiod_line_value v;

	if (line < 0 || line > BOARD_MAX_LINE || !g->requested[line]) {
		errno = EINVAL;
		return -1;
	}
	v = gpiod_line_request_get_value(g->request, (unsigned)line);
	if (v == GPIOD_LINE_VALUE_ERROR)
		return -1;
	return v == GPIOD_LINE_VALUE_ACTIVE;
}

static int gpiod_set(void *ctx, int line, int value)
{
	struct gpiod_ctx *g = ctx;

	if (line < 0 || line > BOARD_MAX_LINE || !g->requested[line]) {
		errno = EINVAL;
		return -1;
	}
	return gpiod_line_request_set_value(g->request, (unsigned)line,
					    value ? GPIOD_LINE_VALUE_ACTIVE
						  : GPIOD_LINE_VALUE_INACTIVE) < 0
		   ? -1
		   : 0;
}

#endif

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
    .deadline_ns = gpiod_deadline_ns,
    .finished = gpiod_finished,
};
