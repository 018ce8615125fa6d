/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/notify.h"

#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/log.h"

bool notify_wanted(void)
{
	const char *path = getenv("NOTIFY_SOCKET");

	return path && *path;
}

int notify_send(const char *msg)
{
	static bool warned;
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	socklen_t len;
	ssize_t n;
	int fd;

	if (!path || !*path)
		return 0;
	if ((path[0] != '/' && path[0] != '@') || strlen(path) >= sizeof(addr.sun_path))
		return -1;
	memcpy(addr.sun_path, path, strlen(path));
	if (path[0] == '@')
		addr.sun_path[0] = '\0'; /* an abstract socket */
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	n = sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&addr, len);
	close(fd);
	if (n == (ssize_t)strlen(msg))
		return 0;
fail:
	if (!warned)
		log_warn(LOG_MAIN, "NOTIFY_SOCKET %s: %s", path, strerror(errno));
	warned = true;
	return -1;
}

uint64_t notify_watchdog_ms(void)
{
	const char *usec = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");
	unsigned long long us;
	char *end;

	if (!usec || !getenv("NOTIFY_SOCKET"))
		return 0;
	if (pid && strtol(pid, NULL, 10) != (long)getpid())
		return 0;
	errno = 0;
	us = strtoull(usec, &end, 10);
	if (errno || *end || us < 2000)
		return 0;
	return us / 2000;
}
