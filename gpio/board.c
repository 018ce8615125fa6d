/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The board above the line backends: wirings (direct edges, matrix and shift-register
 * scans), software debounce, buttons, the line log recorder.
 *
 * Debounce: every hole and button has a raw level (the last one seen on its line or by a
 * scan) and a stable level (the last one reported).  A raw change starts a period; when the
 * raw level has stayed different from the stable one for debounce-ms, the change is reported,
 * time-stamped at the end of that period.  Expiries are worked out in time order between
 * edges, so the events do not depend on how often board_service() is called: a replay that
 * feeds the same raw edges gives the same events.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "gpio/board.h"
#include "gpio/line.h"

#define INPUTS	      (64 + BOARD_BUTTON_COUNT)
#define QUEUE_SIZE    512
#define EDGE_CHUNK    32
#define LINE_MAP_SIZE (BOARD_VIRTUAL_LINE + 64)

struct input {
	bool raw, stable, pending;
	uint64_t since_ns;
};

struct board {
	struct board_config cfg;
	const struct line_backend *be;
	void *ctx;
	bool scanned; /* matrix or shift wiring, scanned here */
	uint64_t start_ns, last_ns, debounce_ns;
	uint64_t scan_period_ns, next_scan_ns, last_scan_ns;
	struct input in[INPUTS];
	int pending;
	uint64_t occupancy;
	int16_t line_input[LINE_MAP_SIZE]; /* line -> input, -1 if none */
	struct board_event queue[QUEUE_SIZE];
	int q_head, q_len;
	bool behind; /* edges may be waiting that did not fit the queue */
	bool done_seen;
	uint64_t done_ns;
	unsigned scan_errors;
	char error[256];
	/* recording */
	int record_fd;
	bool header_written;
	char spec[160];
};

static uint64_t ceil_ms(uint64_t ns)
{
	return ns / NS_PER_MS + (ns % NS_PER_MS != 0);
}

static void push(struct board *b, const struct board_event *ev)
{
	/* Callers keep room: see the free-space checks in board_service(). */
	if (b->q_len == QUEUE_SIZE) {
		log_warn(LOG_GPIO, "event queue full, event dropped");
		return;
	}
	b->queue[(b->q_head + b->q_len++) % QUEUE_SIZE] = *ev;
}

static void fire(struct board *b, int i)
{
	struct input *in = &b->in[i];
	uint64_t t = in->since_ns + b->debounce_ns;
	struct board_event ev = {
	    .time_ms = ceil_ms(t),
	    .type = i < 64 ? BOARD_EVENT_SQUARE : BOARD_EVENT_BUTTON,
	    .index = i < 64 ? i : i - 64,
	    .active = in->raw,
	    .change_ms = ceil_ms(in->since_ns),
	};

	in->stable = in->raw;
	in->pending = false;
	b->pending--;
	if (i < 64) {
		if (in->raw)
			b->occupancy |= 1ull << i;
		else
			b->occupancy &= ~(1ull << i);
	}
	push(b, &ev);
}

/* Report every change that has been stable for debounce-ms by time t, in time order. */
static void fire_expiries(struct board *b, uint64_t t)
{
	while (b->pending) {
		int best = -1;
		uint64_t best_t = 0;

		for (int i = 0; i < INPUTS; i++) {
			uint64_t e;

			if (!b->in[i].pending)
				continue;
			e = b->in[i].since_ns + b->debounce_ns;
			if (e <= t && (best < 0 || e < best_t)) {
				best = i;
				best_t = e;
			}
		}
		if (best < 0)
			return;
		fire(b, best);
	}
}

static void set_raw(struct board *b, int i, bool level, uint64_t t)
{
	struct input *in = &b->in[i];

	if (in->raw == level)
		return;
	in->raw = level;
	if (level == in->stable) {
		if (in->pending) {
			in->pending = false;
			b->pending--;
		}
	} else {
		if (!in->pending)
			b->pending++;
		in->pending = true;
		in->since_ns = t;
	}
}

/* ------------------------------------------------------------------ recording */

static void record_write(struct board *b, const char *buf, int n)
{
	if (b->record_fd < 0 || n <= 0)
		return;
	/* One write per line and no buffering, so a crash loses nothing already seen. */
	if (write(b->record_fd, buf, (size_t)n) != n) {
		log_warn(LOG_GPIO, "line log: %s; recording stopped", strerror(errno));
		close(b->record_fd);
		b->record_fd = -1;
	}
}

static void record_header(struct board *b)
{
	char buf[1024], date[32];
	time_t now = time(NULL);
	struct tm tm;
	uint32_t buttons = 0;
	int n;

	b->header_written = true;
	if (b->record_fd < 0)
		return;
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++)
		if (b->in[64 + i].stable)
			buttons |= 1u << i;
	n = snprintf(buf, sizeof(buf),
		     "# format: annabella line log 1\n"
		     "# board: %s\n"
		     "# wiring: %s\n"
		     "# date: %s\n"
		     "# start-ns: %llu\n"
		     "# occupancy: 0x%016llx\n"
		     "# buttons: 0x%x\n"
		     "# active-low: %s\n"
		     "# debounce-ms: %u\n"
		     "# scan-hz: %u\n",
		     b->spec, board_wiring_name(b->cfg.wiring), date,
		     (unsigned long long)b->start_ns, (unsigned long long)b->occupancy, buttons,
		     b->cfg.active_low_squares ? "yes" : "no", b->cfg.debounce_ms, b->cfg.scan_hz);
	if (n > 0 && (size_t)n < sizeof(buf))
		record_write(b, buf, n);
}

static void record_edge(struct board *b, uint64_t t, int line, bool rising)
{
	char buf[64];

	if (b->record_fd < 0)
		return;
	record_write(b, buf,
		     snprintf(buf, sizeof(buf), "%llu %d %s\n", (unsigned long long)t, line,
			      rising ? "rising" : "falling"));
}

/* ------------------------------------------------------------------ wirings */

/* Level of an input line as the logical state of its input (peg present, button pressed). */
static bool input_level(const struct board *b, int line, int i, bool high)
{
	if (i >= 64)
		return !high; /* buttons are active low */
	if (line >= BOARD_VIRTUAL_LINE)
		return high;
	return high != b->cfg.active_low_squares;
}

static void apply_edge(struct board *b, const struct line_edge *e, uint64_t t)
{
	int i;

	record_edge(b, t, e->line, e->kind == LINE_RISING);
	if (e->line < 0 || e->line >= LINE_MAP_SIZE || (i = b->line_input[e->line]) < 0) {
		log_debug(LOG_GPIO, "edge on unused line %d", e->line);
		return;
	}
	set_raw(b, i, input_level(b, e->line, i, e->kind == LINE_RISING), t);
}

/* The scan's outputs have been driven: give the lines scan-settle-us before reading. */
static void settle(struct board *b)
{
	if (b->cfg.scan_settle_us && b->be->settle)
		b->be->settle(b->ctx, b->cfg.scan_settle_us);
}

/* One scan: the sensed level of every hole, or -1 on a line error. */
static int scan_levels(struct board *b, uint64_t *levels)
{
	const struct board_config *c = &b->cfg;
	int act = c->active_low_squares ? 0 : 1;
	uint64_t occ = 0;

	if (c->wiring == BOARD_WIRING_MATRIX) {
		for (int r = 0; r < 8; r++) {
			if (b->be->set(b->ctx, c->row_lines[r], act))
				return -1;
			settle(b);
			for (int f = 0; f < 8; f++) {
				int v = b->be->get(b->ctx, c->column_lines[f]);

				if (v < 0) {
					b->be->set(b->ctx, c->row_lines[r], !act);
					return -1;
				}
				if (v == act)
					occ |= 1ull << (r * 8 + f);
			}
			if (b->be->set(b->ctx, c->row_lines[r], !act))
				return -1;
		}
	} else {
		/* 74HC165: SH/LD low latches the inputs; QH then shows a1; each CLK rising edge
		 * shifts the next one out. */
		if (b->be->set(b->ctx, c->shift_load, 0) || b->be->set(b->ctx, c->shift_load, 1))
			return -1;
		for (int i = 0; i < 64; i++) {
			int v;

			settle(b);
			v = b->be->get(b->ctx, c->shift_data);

			if (v < 0)
				return -1;
			if (v == act)
				occ |= 1ull << i;
			if (i < 63 && (b->be->set(b->ctx, c->shift_clock, 1) ||
				       b->be->set(b->ctx, c->shift_clock, 0)))
				return -1;
		}
	}
	*levels = occ;
	return 0;
}

static void scan(struct board *b, uint64_t t)
{
	uint64_t levels;

	b->last_scan_ns = t;
	if (scan_levels(b, &levels)) {
		if (b->scan_errors++ % 1000 == 0)
			log_warn(LOG_GPIO, "scan failed (%u times): %s", b->scan_errors,
				 strerror(errno));
		return;
	}
	for (int sq = 0; sq < 64; sq++) {
		bool level = levels >> sq & 1;

		if (b->in[sq].raw != level) {
			record_edge(b, t, BOARD_VIRTUAL_LINE + sq, level);
			set_raw(b, sq, level, t);
		}
	}
}

/* Read every hole and button as it is now, as the stable state: no events. */
static int read_initial(struct board *b, bool holes, bool buttons)
{
	uint64_t levels = 0;

	if (holes) {
		if (b->be->recorded || b->cfg.wiring == BOARD_WIRING_DIRECT) {
			for (int sq = 0; sq < 64; sq++) {
				int line = b->be->recorded ? BOARD_VIRTUAL_LINE + sq
							   : b->cfg.square_lines[sq];
				int v = b->be->get(b->ctx, line);

				if (v < 0)
					return -1;
				if (input_level(b, line, sq, v))
					levels |= 1ull << sq;
			}
		} else if (scan_levels(b, &levels)) {
			return -1;
		}
		for (int sq = 0; sq < 64; sq++) {
			struct input *in = &b->in[sq];

			in->raw = in->stable = levels >> sq & 1;
			if (in->pending)
				b->pending--;
			in->pending = false;
		}
		b->occupancy = levels;
	}
	for (int i = 0; buttons && i < BOARD_BUTTON_COUNT; i++) {
		int line = b->cfg.button_lines[i];
		int v;

		if (line == BOARD_NO_LINE)
			continue;
		v = b->be->get(b->ctx, line);
		if (v < 0)
			return -1;
		b->in[64 + i].raw = b->in[64 + i].stable = v == 0;
	}
	return 0;
}

/* ------------------------------------------------------------------ API */

/* The backends a board spec names, by enum board_kind (gpsd's driver table): "NAME", or
 * "NAME:ARG" for a backend that takes an argument. */
static const struct {
	const struct line_backend *be;
	bool takes_arg; /* "NAME:ARG" */
	bool needs_arg; /* not "NAME" alone */
} backends[BOARD_KIND_COUNT] = {
    [BOARD_GPIOD] = {&line_backend_gpiod, false, false},
    [BOARD_SIM] = {&line_backend_sim, true, false},
    [BOARD_REPLAY] = {&line_backend_replay, true, true},
};

int board_spec_parse(const char *spec, enum board_kind *kind, const char **arg, char *err,
		     size_t err_size)
{
	for (int k = 0; k < BOARD_KIND_COUNT; k++) {
		size_t len = strlen(backends[k].be->name);
		const char *rest = spec + len;

		if (strncmp(spec, backends[k].be->name, len) ||
		    (*rest ? *rest != ':' || !backends[k].takes_arg : backends[k].needs_arg))
			continue;
		if (*rest && !rest[1]) {
			snprintf(err, err_size, "board '%s' needs a file name", spec);
			errno = EINVAL;
			return -1;
		}
		*kind = (enum board_kind)k;
		*arg = *rest ? rest + 1 : NULL;
		return 0;
	}
	snprintf(err, err_size, "unknown board '%s' (gpiod, sim:SCRIPT or replay:LOG)", spec);
	errno = EINVAL;
	return -1;
}

struct board *board_open(const struct board_config *cfg, const char *spec, const char *record_path,
			 uint64_t now_ms, char *err, size_t err_size)
{
	struct board *b;
	enum board_kind kind;
	const char *arg;
	char msg[256];

	if (board_config_check(cfg, msg, sizeof(msg))) {
		snprintf(err, err_size, "board configuration: %s", msg);
		errno = EINVAL;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	b->cfg = *cfg;
	b->record_fd = -1;
	snprintf(b->spec, sizeof(b->spec), "%s", spec);
	if (board_spec_parse(spec, &kind, &arg, err, err_size))
		goto fail_free;
	b->be = backends[kind].be;
	b->start_ns = b->last_ns = now_ms * NS_PER_MS;
	b->debounce_ns = (uint64_t)cfg->debounce_ms * NS_PER_MS;
	b->scanned = !b->be->recorded && cfg->wiring != BOARD_WIRING_DIRECT;
	b->scan_period_ns = 1000000000ull / cfg->scan_hz;
	b->next_scan_ns = b->start_ns + b->scan_period_ns;
	b->last_scan_ns = b->start_ns;
	for (int i = 0; i < LINE_MAP_SIZE; i++)
		b->line_input[i] = -1;
	if (cfg->wiring == BOARD_WIRING_DIRECT)
		for (int sq = 0; sq < 64; sq++)
			b->line_input[cfg->square_lines[sq]] = (int16_t)sq;
	if (b->be->recorded)
		for (int sq = 0; sq < 64; sq++)
			b->line_input[BOARD_VIRTUAL_LINE + sq] = (int16_t)sq;
	for (int i = 0; i < BOARD_BUTTON_COUNT; i++)
		if (cfg->button_lines[i] != BOARD_NO_LINE)
			b->line_input[cfg->button_lines[i]] = (int16_t)(64 + i);

	b->ctx = b->be->open(cfg, arg, now_ms, err, err_size);
	if (!b->ctx)
		goto fail_free;
	if (read_initial(b, true, true)) {
		snprintf(err, err_size, "%s: cannot read the sensors: %s", spec, strerror(errno));
		goto fail_close;
	}
	if (record_path) {
		b->record_fd = open(record_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (b->record_fd < 0) {
			snprintf(err, err_size, "%s: %s", record_path, strerror(errno));
			goto fail_close;
		}
	}
	return b;

fail_close:
	b->be->close(b->ctx);
fail_free:
	free(b);
	return NULL;
}

void board_record_start(struct board *b)
{
	if (b && !b->header_written)
		record_header(b);
}

void board_close(struct board *b)
{
	if (!b)
		return;
	if (!b->header_written)
		record_header(b);
	if (b->record_fd >= 0)
		close(b->record_fd);
	b->be->close(b->ctx);
	free(b);
}

void board_sim_place(struct board *b, uint64_t occupancy)
{
	if (!b->be->place)
		return;
	b->be->place(b->ctx, occupancy);
	if (read_initial(b, true, false))
		log_warn(LOG_GPIO, "cannot read the sensors after placing the pegs");
}

int board_fd(const struct board *b)
{
	return b->be->fd(b->ctx);
}

uint64_t board_deadline(const struct board *b)
{
	uint64_t d = UINT64_MAX, t;

	if (b->q_len > 0 || b->behind)
		return 0;
	if (b->pending) {
		for (int i = 0; i < INPUTS; i++) {
			if (!b->in[i].pending)
				continue;
			t = ceil_ms(b->in[i].since_ns + b->debounce_ns);
			if (t < d)
				d = t;
		}
	}
	if (b->scanned) {
		t = ceil_ms(b->next_scan_ns);
		if (t < d)
			d = t;
	}
	t = b->be->deadline_ns(b->ctx);
	if (t != UINT64_MAX && ceil_ms(t) < d)
		d = ceil_ms(t);
	return d;
}

/* Room in the queue for the events one more step can make. */
static bool room(const struct board *b, int extra)
{
	return QUEUE_SIZE - b->q_len >= extra + INPUTS;
}

/*
 * A press on a scanned board: the holes are scanned first, so that a piece placed since the
 * last periodic scan is seen before the press that completes its move.  Without it a player
 * who places and presses within one scan period would hear the board called wrong (unless a
 * scan ran after the press).  The scan's edges go to the line log before the press, at the
 * press's time, so a replay agrees.
 */
static bool press_needs_scan(const struct board *b, const struct line_edge *e)
{
	int i;

	if (!b->scanned || e->line < 0 || e->line >= LINE_MAP_SIZE || !room(b, EDGE_CHUNK + 64))
		return false;
	i = b->line_input[e->line];
	return i >= 64 && input_level(b, e->line, i, e->kind == LINE_RISING) && !b->in[i].raw;
}

static int read_backend(struct board *b, uint64_t now_ns, char *err, size_t err_size)
{
	struct line_edge edges[EDGE_CHUNK];

	for (;;) {
		int n;

		if (!room(b, EDGE_CHUNK)) {
			b->behind = true;
			return 0;
		}
		n = b->be->read_edges(b->ctx, now_ns, edges, EDGE_CHUNK, err, err_size);
		if (n < 0)
			return -1;
		for (int k = 0; k < n; k++) {
			uint64_t t = edges[k].time_ns;

			/* Kernel time stamps can trail what has been handled already. */
			if (t < b->last_ns)
				t = b->last_ns;
			if (t > now_ns)
				t = now_ns;
			fire_expiries(b, t);
			b->last_ns = t;
			if (press_needs_scan(b, &edges[k]) && b->last_scan_ns < edges[k].time_ns)
				scan(b, t);
			apply_edge(b, &edges[k], t);
		}
		if (n < EDGE_CHUNK)
			return 0;
	}
}

int board_service(struct board *b, uint64_t now_ms, struct board_event *out, int max)
{
	uint64_t now_ns = now_ms * NS_PER_MS;
	int n = 0;

	if (!b->header_written)
		record_header(b);
	if (now_ns < b->last_ns)
		now_ns = b->last_ns;
	b->behind = false;
	if (read_backend(b, now_ns, b->error, sizeof(b->error)))
		return -1;
	if (!b->behind) {
		if (!b->done_seen && b->be->finished(b->ctx)) {
			b->done_seen = true;
			b->done_ns = now_ns;
		}
		if (b->scanned && now_ns >= b->next_scan_ns) {
			if (!room(b, 64)) {
				b->behind = true;
			} else {
				fire_expiries(b, now_ns);
				scan(b, now_ns);
				b->next_scan_ns += b->scan_period_ns;
				if (b->next_scan_ns <= now_ns)
					b->next_scan_ns = now_ns + b->scan_period_ns;
			}
		}
		if (!b->behind) {
			fire_expiries(b, now_ns);
			b->last_ns = now_ns;
		}
	}
	while (n < max && b->q_len > 0) {
		out[n++] = b->queue[b->q_head];
		b->q_head = (b->q_head + 1) % QUEUE_SIZE;
		b->q_len--;
	}
	return n;
}

bool board_finished(const struct board *b)
{
	if (b->q_len > 0)
		return false;
	if (b->pending || b->behind || !b->be->finished(b->ctx))
		return false;
	/* A scan must have seen the last change. */
	return !b->scanned || (b->done_seen && b->last_scan_ns >= b->done_ns);
}

const char *board_error(const struct board *b)
{
	return b->error;
}

uint64_t board_occupancy(const struct board *b)
{
	return b->occupancy;
}

int board_set_led(struct board *b, int side, bool on)
{
	int line;

	if (side < 0 || side > 1 || b->cfg.led_lines[side] == BOARD_NO_LINE)
		return 1;
	line = b->cfg.led_lines[side];
	return b->be->set(b->ctx, line, on ? 1 : 0) ? -1 : 0;
}

int board_set_haptic(struct board *b, bool on)
{
	if (b->cfg.haptic_line == BOARD_NO_LINE)
		return 1;
	return b->be->set(b->ctx, b->cfg.haptic_line, on ? 1 : 0) ? -1 : 0;
}

int board_led_line(const struct board *b, int side)
{
	return side == 0 || side == 1 ? b->cfg.led_lines[side] : BOARD_NO_LINE;
}

int board_line_level(const struct board *b, int line)
{
	return b->be->get ? b->be->get(b->ctx, line) : -1;
}

static int inject(struct board *b, enum line_inject kind, int target, uint32_t arg, uint32_t arg2,
		  uint64_t now_ms)
{
	if (!b->be->inject)
		return -1;
	return b->be->inject(b->ctx, kind, target, arg, arg2, now_ms * NS_PER_MS);
}

int board_sim_peg(struct board *b, int square, bool present, uint64_t now_ms)
{
	return inject(b, LINE_INJECT_PEG, square, present, 0, now_ms);
}

int board_sim_button(struct board *b, int button, bool down, uint64_t now_ms)
{
	return inject(b, LINE_INJECT_BUTTON, button, down, 0, now_ms);
}

int board_sim_chatter(struct board *b, int square, unsigned bounces, uint64_t now_ms)
{
	return inject(b, LINE_INJECT_CHATTER, square, bounces, 0, now_ms);
}

int board_sim_stuck(struct board *b, int target, bool level, uint32_t ms, uint64_t now_ms)
{
	return inject(b, LINE_INJECT_STUCK, target, ms, level, now_ms);
}

int board_sim_bounce(struct board *b, int target, uint32_t ms, uint32_t seed, uint64_t now_ms)
{
	return inject(b, LINE_INJECT_BOUNCE, target, ms, seed, now_ms);
}
