/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A control client that measures round trips over the socket while the daemon plays a game:
 * requests one after another, each request -> its reply line, taking turns between `status`
 * (answered from the game as it stands) and a command that changes the game (`tags
 * Annotator N`: checked by the command table, applied by the referee, journaled and
 * written to game.pgn).  Prints p50 and p99 of each.
 * Usage: bench_control SOCKET REQUESTS INTERVAL_US
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/timeutil.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double percentile_us(uint64_t *v, size_t n, double p)
{
	size_t rank = (size_t)(p / 100.0 * (double)n + 0.999999);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return (double)v[rank - 1] / 1000.0;
}

/* One request and its reply line: the round trip in ns, or 0 when the daemon went away or
 * the reply was not ok. */
static uint64_t round_trip(int fd, const char *line)
{
	static char buf[1 << 16];
	uint64_t t0 = monotonic_ns();
	size_t len = 0, n = strlen(line);

	if (write(fd, line, n) != (ssize_t)n)
		return 0;
	for (;;) {
		ssize_t r = read(fd, buf + len, sizeof(buf) - 1 - len);

		if (r <= 0)
			return 0;
		len += (size_t)r;
		if (memchr(buf, '\n', len))
			break;
		if (len == sizeof(buf) - 1)
			return 0;
	}
	buf[len] = '\0';
	if (!strstr(buf, "\"ok\":true"))
		return 0;
	return monotonic_ns() - t0;
}

static void report(const char *name, uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	printf("bench %s_rtt_p50_us %.1f us\n", name, percentile_us(v, n, 50));
	printf("bench %s_rtt_p99_us %.1f us\n", name, percentile_us(v, n, 99));
}

int main(int argc, char **argv)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	uint64_t *status, *command;
	size_t ns = 0, nc = 0;
	int fd = -1, n;
	long interval;

	if (argc != 4 || strlen(argv[1]) >= sizeof(addr.sun_path))
		return 2;
	n = atoi(argv[2]);
	interval = atol(argv[3]);
	status = calloc((size_t)n, sizeof(*status));
	command = calloc((size_t)n, sizeof(*command));
	if (!status || !command || n <= 0)
		return 2;
	strcpy(addr.sun_path, argv[1]);
	for (int i = 0; i < 500 && fd < 0; i++) {
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
			close(fd);
			fd = -1;
			usleep(10000);
		}
	}
	if (fd < 0) {
		fprintf(stderr, "bench_control: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char line[64];
		uint64_t t;

		if (i % 2)
			snprintf(line, sizeof(line), "tags Annotator bench-%d\n", i);
		else
			snprintf(line, sizeof(line), "status\n");
		t = round_trip(fd, line);
		if (!t) {
			fprintf(stderr, "bench_control: no ok reply to %s", line);
			return 1;
		}
		if (i % 2)
			command[nc++] = t;
		else
			status[ns++] = t;
		usleep((useconds_t)interval);
	}
	report("control_status", status, ns);
	report("control_command", command, nc);
	close(fd);
	free(status);
	free(command);
	return 0;
}
