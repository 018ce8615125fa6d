/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The replay backend: feeds a line log (format in gpio/board.h) back as edges at their
 * times.  The whole log is checked when it is opened, so a malformed line fails at start
 * with "LOG:LINE: message"; then it is streamed one line at a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio/line.h"
#include "gpio/linelog.h"

struct replay {
	struct board_config cfg;
	FILE *f;
	char name[256];
	struct linelog_reader rd;
	struct linelog_header header;
	struct linelog_edge next;
	bool has_next;
	uint64_t origin_ns, base_ns;
};

static uint64_t edge_time(const struct replay *r, const struct linelog_edge *e)
{
	uint64_t d = e->ns - r->base_ns;

	return d > UINT64_MAX - 1 - r->origin_ns ? UINT64_MAX - 1 : r->origin_ns + d;
}

static void *replay_open(const struct board_config *cfg, const char *path, uint64_t now_ms,
			 char *err, size_t err_size)
{
	struct replay *r = calloc(1, sizeof(*r));
	struct linelog_edge e;
	bool first = true;
	int got;

	if (!r) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	r->cfg = *cfg;
	snprintf(r->name, sizeof(r->name), "%s", path);
	r->f = fopen(path, "r");
	if (!r->f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		goto fail_free;
	}
	linelog_reader_init(&r->rd, r->f, r->name);
	while ((got = linelog_read(&r->rd, &e, err, err_size)) > 0) {
		if (first)
			r->base_ns = e.ns;
		first = false;
	}
	if (got < 0)
		goto fail_close;
	r->header = r->rd.header;
	if (r->header.has_start)
		r->base_ns = r->header.start_ns;
	r->origin_ns = now_ms * NS_PER_MS;
	rewind(r->f);
	linelog_reader_init(&r->rd, r->f, r->name);
	got = linelog_read(&r->rd, &r->next, err, err_size);
	if (got < 0)
		goto fail_close;
	r->has_next = got > 0;
	return r;

fail_close:
	fclose(r->f);
fail_free:
	free(r);
	return NULL;
}

static void replay_close(void *ctx)
{
	struct replay *r = ctx;

	fclose(r->f);
	free(r);
}

static int replay_fd(void *ctx)
{
	(void)ctx;
	return -1;
}

static int replay_read_edges(void *ctx, uint64_t now_ns, struct line_edge *out, int max, char *err,
			     size_t err_size)
{
	struct replay *r = ctx;
	int n = 0;

	while (n < max && r->has_next && edge_time(r, &r->next) <= now_ns) {
		int got;

		out[n++] = (struct line_edge){.time_ns = edge_time(r, &r->next),
					      .line = r->next.line,
					      .kind = r->next.rising ? LINE_RISING : LINE_FALLING};
		/* Checked at open; an error here means the file changed under us. */
		got = linelog_read(&r->rd, &r->next, err, err_size);
		if (got < 0)
			return -1;
		r->has_next = got > 0;
	}
	return n;
}

/* The levels at the start of the log. */
static int replay_get(void *ctx, int line)
{
	struct replay *r = ctx;
	uint64_t occ = r->header.has_occupancy ? r->header.occupancy : BOARD_INITIAL_OCCUPANCY;

	if (line >= BOARD_VIRTUAL_LINE && line < BOARD_VIRTUAL_LINE + 64)
		return (int)(occ >> (line - BOARD_VIRTUAL_LINE) & 1);
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++)
		if (r->cfg.button_lines[i] == line)
			return !(r->header.buttons >> i & 1);
	for (int sq = 0; sq < 64; sq++)
		if (r->cfg.square_lines[sq] == line)
			return (int)(occ >> sq & 1) != r->cfg.active_low_squares;
	return 0;
}

static int replay_set(void *ctx, int line, int value)
{
	(void)ctx;
	(void)line;
	(void)value;
	return 0;
}

static uint64_t replay_deadline_ns(void *ctx)
{
	struct replay *r = ctx;

	return r->has_next ? edge_time(r, &r->next) : UINT64_MAX;
}

static bool replay_finished(void *ctx)
{
	return !((struct replay *)ctx)->has_next;
}

const struct line_backend line_backend_replay = {
    .name = "replay",
    .recorded = true,
    .open = replay_open,
    .close = replay_close,
    .fd = replay_fd,
    .read_edges = replay_read_edges,
    .get = replay_get,
    .set = replay_set,
    .deadline_ns = replay_deadline_ns,
    .finished = replay_finished,
};
