/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/ctlclient.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "control/json.h"

struct ctlclient {
	int fd;
	size_t len, consumed; /* bytes in buf; bytes of the line last returned */
	char buf[CTLCLIENT_LINE_MAX];
};

struct ctlclient *ctlclient_connect(const char *path, char *err, size_t errsize)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	struct ctlclient *c;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		/* Its start names it: all of it could overflow snprintf's int length on 32-bit. */
		snprintf(err, errsize, "%.64s...: path too long (at most %zu characters)", path,
			 sizeof(addr.sun_path) - 1);
		return NULL;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	c = malloc(sizeof(*c));
	if (!c) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	c->len = c->consumed = 0;
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&addr, sizeof(addr))) {
		snprintf(err, errsize, "cannot reach the daemon at %s: %s", path, strerror(errno));
		if (c->fd >= 0)
			close(c->fd);
		free(c);
		return NULL;
	}
	return c;
}

void ctlclient_close(struct ctlclient *c)
{
	if (!c)
		return;
	close(c->fd);
	free(c);
}

int ctlclient_fd(const struct ctlclient *c)
{
	return c->fd;
}

int ctlclient_send(struct ctlclient *c, const char *line)
{
	size_t len = strlen(line);
	struct iovec iov[2] = {{.iov_base = (void *)(uintptr_t)line, .iov_len = len},
			       {.iov_base = "\n", .iov_len = 1}};
	struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};

	if (memchr(line, '\n', len)) {
		errno = EINVAL;
		return -1;
	}
	while (iov[1].iov_len) {
		ssize_t w = sendmsg(c->fd, &msg, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (size_t i = 0; i < 2 && w > 0; i++) {
			size_t n = (size_t)w < iov[i].iov_len ? (size_t)w : iov[i].iov_len;

			iov[i].iov_base = (char *)iov[i].iov_base + n;
			iov[i].iov_len -= n;
			w -= (ssize_t)n;
		}
		if (!iov[0].iov_len) {
			msg.msg_iov = &iov[1];
			msg.msg_iovlen = 1;
		}
	}
	return 0;
}

int ctlclient_read(struct ctlclient *c, const char **line, int timeout_ms)
{
	if (c->consumed) {
		memmove(c->buf, c->buf + c->consumed, c->len - c->consumed);
		c->len -= c->consumed;
		c->consumed = 0;
	}
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
		ssize_t n;
		int r;

		if (nl) {
			*nl = '\0';
			*line = c->buf;
			c->consumed = (size_t)(nl - c->buf) + 1;
			return 1;
		}
		if (c->len == sizeof(c->buf)) {
			errno = EMSGSIZE;
			return -1;
		}
		r = poll(&pfd, 1, timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = ETIMEDOUT;
			return -1;
		}
		n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		c->len += (size_t)n;
	}
}

int ctlclient_request(struct ctlclient *c, const char *line, char **reply, int timeout_ms)
{
	const char *r;

	*reply = NULL;
	if (ctlclient_send(c, line) || ctlclient_read(c, &r, timeout_ms) <= 0)
		return -1;
	*reply = strdup(r);
	return *reply ? 0 : -1;
}

bool ctlclient_reply_ok(const char *reply)
{
	char v[8];

	return json_get(reply, "ok", v, sizeof(v)) > 0 && !strcmp(v, "true");
}
