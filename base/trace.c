/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/timeutil.h"

static atomic_int trace_fd = -1;

bool trace_open_from_env(void)
{
	const char *path = getenv("ANNABELLA_TRACE");
	int fd;

	if (!path || !*path)
		return true;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		log_warn(LOG_MAIN, "ANNABELLA_TRACE %s: %s", path, strerror(errno));
		return false;
	}
	atomic_store(&trace_fd, fd);
	return true;
}

void trace_close(void)
{
	int fd = atomic_exchange(&trace_fd, -1);

	if (fd >= 0)
		close(fd);
}

bool trace_on(void)
{
	return atomic_load(&trace_fd) >= 0;
}

void trace_at(uint64_t ns, const char *what, const char *fmt, ...)
{
	char line[256];
	int fd = atomic_load(&trace_fd), n, m;
	va_list ap;

	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%llu %s ", (unsigned long long)(ns ? ns : monotonic_ns()),
		     what);
	if (n < 0 || (size_t)n >= sizeof(line) - 1)
		return;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - 1 - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n += (size_t)m < sizeof(line) - 1 - (size_t)n ? m : (int)(sizeof(line) - 2 - (size_t)n);
	line[n++] = '\n';
	if (write(fd, line, (size_t)n) < 0)
		return; /* a measurement aid: never a reason to stop */
}
