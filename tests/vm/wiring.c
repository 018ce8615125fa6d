/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The VM test's board for the scanned wirings (tests/vm/init.sh): plays an 8x8 diode matrix
 * or a chain of eight 74HC165 on gpio-sim lines, so that the daemon's own scanning code reads
 * the pegs through libgpiod and the kernel's GPIO character device.
 *
 *   wiring matrix|shift LINES_DIR BASE ACTIVE_LOW OUTPUTS INPUTS OCCUPANCY FIFO
 *
 * LINES_DIR: the chip's sim_gpioN directory parent in sysfs; BASE: the chip's first GPIO
 * number (the trace events name lines by it); ACTIVE_LOW 0|1 as [board] active-low;
 * OUTPUTS: the rows 1..8 (matrix) or "load,clock" (shift), INPUTS: the columns a..h or the
 * data line, as comma-separated line offsets; OCCUPANCY: the pegs at the start (hex, a1 =
 * bit 0).  Lines "SQUARE 0|1" on FIFO (0..63: a peg leaves or enters) move pegs.
 *
 * It follows the daemon's output lines through the gpio_value trace event (tracefs, the top
 * buffer: every change in order, none missed however short) and answers on the input lines
 * through gpio-sim's `pull` attributes.  A real matrix or register answers within
 * nanoseconds; this answers within a millisecond or two, so the daemon runs with
 * [board] scan-settle-us long enough for that.  The same events show every value the daemon
 * read: a read that differs from what the wiring showed at that point is counted as stale.
 * On SIGTERM it prints "@@INFO harness-KEY VALUE" lines and exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRACE "/sys/kernel/tracing"

static volatile sig_atomic_t stopping;

static bool matrix;
static int act; /* the level of a sensed peg (and of a driven row) */
static int outputs[8], n_outputs, inputs[8], n_inputs;
static int out_level[8];
static int pull_fd[8];
static int want[8]; /* the level each input shows now */
static uint64_t pegs;
static unsigned base;
/* shift */
static int shift_index;
static unsigned long events, writes, reads, stale, loads, clocks;
static double scan_start, longest_scan; /* trace time stamps, s: a load to its last clock */

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

static int parse_list(const char *s, int *out, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *end;

		out[n++] = (int)strtol(s, &end, 10);
		s = *end == ',' ? end + 1 : end;
		if (end == s && *s)
			return -1;
	}
	return n;
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		fprintf(stderr, "wiring: %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void show(int i, int level)
{
	want[i] = level;
}

/* The inputs as the wiring shows them after the events read so far: written once per batch
 * (a batch behind would only write states already past), and every input every time, since
 * the daemon's bias request may have replaced a pull. */
static void flush(void)
{
	static const char *pull[2] = {"pull-down", "pull-up"};

	for (int i = 0; i < n_inputs; i++) {
		if (pwrite(pull_fd[i], pull[want[i]], strlen(pull[want[i]]), 0) < 0)
			fprintf(stderr, "wiring: input %d: %s\n", inputs[i], strerror(errno));
		writes++;
	}
}

static int peg_level(int square)
{
	if (square < 0 || square > 63)
		return !act; /* the chain's serial input: nothing */
	return pegs >> square & 1 ? act : !act;
}

/* Every input as the wiring shows it now. */
static void answer(void)
{
	if (matrix) {
		for (int f = 0; f < 8; f++) {
			int level = !act;

			for (int r = 0; r < 8; r++)
				if (out_level[r] == act && (pegs >> (r * 8 + f) & 1))
					level = act;
			show(f, level);
		}
	} else {
		show(0, peg_level(shift_index));
	}
}

static void output_changed(int k, int level, double when)
{
	int old = out_level[k];

	out_level[k] = level;
	if (!matrix) {
		if (k == 0 && level == 0) { /* SH/LD low: the inputs are latched, QH shows a1 */
			shift_index = 0;
			loads++;
			scan_start = when;
		} else if (k == 1 && level == 1 && old == 0 && out_level[0] == 1) {
			shift_index++; /* CLK rising: the next bit */
			clocks++;
			if (shift_index == 63 && loads && when - scan_start > longest_scan)
				longest_scan = when - scan_start;
		} else if (k == 1 || k == 0) {
			return;
		}
	}
	answer();
}

static void trace_line(const char *line)
{
	const char *p = strstr(line, "gpio_value: ");
	unsigned gpio;
	char what[4];
	int value;

	const char *ts;
	double when = 0;

	if (!p || sscanf(p + 12, "%u %3s %d", &gpio, what, &value) != 3 || gpio < base)
		return;
	/* "... 123.456789: gpio_value: ...": the event's time stamp, before the event's name. */
	for (ts = p - 2; ts > line && ts[-1] != ' '; ts--)
		;
	if (ts < p - 2)
		when = strtod(ts, NULL);
	events++;
	for (int k = 0; k < n_outputs; k++)
		if (outputs[k] == (int)(gpio - base) && !strcmp(what, "set"))
			output_changed(k, value != 0, when);
	for (int i = 0; i < n_inputs; i++) {
		if (inputs[i] != (int)(gpio - base) || strcmp(what, "get"))
			continue;
		reads++;
		if ((value != 0) != want[i])
			stale++;
	}
}

static void fifo_line(const char *line)
{
	int square, present;

	if (sscanf(line, "%d %d", &square, &present) != 2 || square < 0 || square > 63)
		return;
	if (present)
		pegs |= 1ull << square;
	else
		pegs &= ~(1ull << square);
	if (matrix)
		answer();
}

/* Whole lines from fd; the rest is kept for the next read. */
static bool read_lines(int fd, char *buf, size_t size, size_t *len, void (*fn)(const char *))
{
	bool any = false;

	for (;;) {
		ssize_t n = read(fd, buf + *len, size - 1 - *len);
		char *start = buf, *nl;

		if (n <= 0)
			return any;
		any = true;
		*len += (size_t)n;
		buf[*len] = 0;
		while ((nl = strchr(start, '\n'))) {
			*nl = 0;
			fn(start);
			start = nl + 1;
		}
		*len -= (size_t)(start - buf);
		memmove(buf, start, *len);
		if (*len == size - 1)
			*len = 0; /* a line too long for us is nothing we know */
	}
}

int main(int argc, char **argv)
{
	static char tbuf[65536], fbuf[256];
	size_t tlen = 0, flen = 0;
	struct pollfd pfd[2];
	char path[512], filter[128];

	if (argc != 9 || (strcmp(argv[1], "matrix") && strcmp(argv[1], "shift"))) {
		fprintf(stderr, "usage: wiring matrix|shift LINES_DIR BASE ACTIVE_LOW OUTPUTS "
				"INPUTS OCCUPANCY FIFO\n");
		return 2;
	}
	matrix = !strcmp(argv[1], "matrix");
	base = (unsigned)strtoul(argv[3], NULL, 10);
	act = atoi(argv[4]) ? 0 : 1;
	n_outputs = parse_list(argv[5], outputs, 8);
	n_inputs = parse_list(argv[6], inputs, 8);
	pegs = strtoull(argv[7], NULL, 16);
	if (n_outputs != (matrix ? 8 : 2) || n_inputs != (matrix ? 8 : 1)) {
		fprintf(stderr, "wiring: %s needs %d outputs and %d inputs\n", argv[1],
			matrix ? 8 : 2, matrix ? 8 : 1);
		return 2;
	}
	for (int i = 0; i < n_inputs; i++) {
		snprintf(path, sizeof(path), "%s/sim_gpio%d/pull", argv[2], inputs[i]);
		pull_fd[i] = open(path, O_WRONLY);
		if (pull_fd[i] < 0) {
			fprintf(stderr, "wiring: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	/* The outputs as the daemon requests them: rows idle, SH/LD high, CLK low. */
	for (int k = 0; k < n_outputs; k++)
		out_level[k] = matrix ? !act : k == 0;
	answer();
	flush();

	/* Only this chip's lines, sets and reads. */
	snprintf(filter, sizeof(filter), "gpio >= %u && gpio < %u", base, base + 1000);
	write_file(TRACE "/events/gpio/gpio_value/filter", filter);
	write_file(TRACE "/events/gpio/gpio_value/enable", "1");
	write_file(TRACE "/tracing_on", "1");
	pfd[0].fd = open(TRACE "/trace_pipe", O_RDONLY | O_NONBLOCK);
	pfd[1].fd = open(argv[8], O_RDWR | O_NONBLOCK); /* RDWR: no end of file between writers */
	if (pfd[0].fd < 0 || pfd[1].fd < 0) {
		fprintf(stderr, "wiring: cannot open the trace pipe or %s: %s\n", argv[8],
			strerror(errno));
		return 1;
	}
	pfd[0].events = pfd[1].events = POLLIN;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	printf("@@INFO harness-ready %s\n", argv[1]);
	fflush(stdout);
	while (!stopping) {
		/* The trace's wake-up may wait for a timer tick: look every millisecond as well. */
		if (poll(pfd, 2, 1) < 0 && errno != EINTR)
			break;
		/* The daemon's reads so far saw the pegs as they were: take them before a move. */
		bool any = read_lines(pfd[0].fd, tbuf, sizeof(tbuf), &tlen, trace_line);

		if (read_lines(pfd[1].fd, fbuf, sizeof(fbuf), &flen, fifo_line) || any)
			flush();
	}
	printf("@@INFO harness-events %lu\n@@INFO harness-writes %lu\n@@INFO harness-reads %lu\n"
	       "@@INFO harness-stale-reads %lu\n@@INFO harness-loads %lu\n"
	       "@@INFO harness-clocks %lu\n@@INFO harness-longest-scan-ms %.0f\n",
	       events, writes, reads, stale, loads, clocks, longest_scan * 1000);
	return 0;
}
