/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A control client that measures: `status` requests one after another over the socket,
 * each request -> its reply line, while the daemon plays a game; prints p50 and p99.
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

int main(int argc, char **argv)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	static char buf[1 << 16];
	uint64_t *rtt;
	int fd = -1, n;
	long interval;

	if (argc != 4 || strlen(argv[1]) >= sizeof(addr.sun_path))
		return 2;
	n = atoi(argv[2]);
	interval = atol(argv[3]);
	rtt = calloc((size_t)n, sizeof(*rtt));
	if (!rtt || n <= 0)
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
		uint64_t t0 = monotonic_ns();
		size_t len = 0;

		if (write(fd, "status\n", 7) != 7)
			return 1;
		for (;;) {
			ssize_t r = read(fd, buf + len, sizeof(buf) - len);

			if (r <= 0)
				return 1;
			len += (size_t)r;
			if (memchr(buf, '\n', len))
				break;
		}
		rtt[i] = monotonic_ns() - t0;
		usleep((useconds_t)interval);
	}
	qsort(rtt, (size_t)n, sizeof(*rtt), cmp_u64);
	printf("bench control_status_rtt_p50_us %.1f us\n", percentile_us(rtt, (size_t)n, 50));
	printf("bench control_status_rtt_p99_us %.1f us\n", percentile_us(rtt, (size_t)n, 99));
	close(fd);
	free(rtt);
	return 0;
}
