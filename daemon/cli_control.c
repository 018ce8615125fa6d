/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella control [--socket PATH] [COMMAND ARGS...]   one request, its JSON reply
 * annabella control [--socket PATH]                     requests line by line
 * annabella status [--socket PATH]                      the game for a person to read
 *
 * DESIGN 8: exit 0 when the reply is ok, 1 when it is an error, 2 when the socket cannot be
 * reached or the usage is wrong.  `watch` keeps printing events until the daemon closes
 * the connection or the user interrupts.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "control/json.h"
#include "control/protocol.h"
#include "daemon/cli.h"
#include "daemon/netcheck.h"

#define DEFAULT_SOCKET	 "/run/annabella/control"
#define REPLY_TIMEOUT_MS 15000

struct conn {
	int fd;
	char buf[1 << 20];
	size_t len;
};

static int connect_to(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "annabella: %s: path too long\n", path);
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		fprintf(stderr, "annabella: cannot reach the daemon at %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int send_line(int fd, const char *line)
{
	size_t len = strlen(line), off = 0;

	while (off <= len) {
		const char *p = off < len ? line + off : "\n";
		size_t n = off < len ? len - off : 1;
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += (size_t)w;
		if (p[0] == '\n' && n == 1)
			break;
	}
	return 0;
}

/* The next line from the daemon into *line (NUL-terminated, in c->buf): 1, 0 at the end,
 * -1 on an error or after timeout_ms (-1: no limit). */
static int read_line(struct conn *c, char **line, size_t *consumed, int timeout_ms)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
		ssize_t n;

		if (nl) {
			*nl = '\0';
			*line = c->buf;
			*consumed = (size_t)(nl - c->buf) + 1;
			return 1;
		}
		if (c->len == sizeof(c->buf) - 1)
			return -1;
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return -1;
		n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		c->len += (size_t)n;
	}
}

static void consume(struct conn *c, size_t n)
{
	memmove(c->buf, c->buf + n, c->len - n);
	c->len -= n;
}

static bool reply_ok(const char *reply)
{
	char v[8];

	return json_get(reply, "ok", v, sizeof(v)) > 0 && !strcmp(v, "true");
}

/* One request; its reply printed by print(); the exit status. */
static int one(struct conn *c, const char *request, void (*print)(const char *reply))
{
	char *line;
	size_t used;
	int rc;

	if (send_line(c->fd, request)) {
		fprintf(stderr, "annabella: the daemon went away: %s\n", strerror(errno));
		return 2;
	}
	rc = read_line(c, &line, &used, REPLY_TIMEOUT_MS);
	if (rc <= 0) {
		fprintf(stderr, "annabella: no reply from the daemon\n");
		return 2;
	}
	print(line);
	rc = reply_ok(line) ? 0 : 1;
	consume(c, used);
	if (rc == 0 && !strncmp(request, "watch", 5) && (!request[5] || request[5] == ' ')) {
		/* Events until the daemon closes the connection or the user interrupts. */
		while (read_line(c, &line, &used, -1) > 0) {
			puts(line);
			fflush(stdout);
			consume(c, used);
		}
	}
	return rc;
}

static void print_raw(const char *reply)
{
	puts(reply);
	fflush(stdout);
}

/* ------------------------------------------------------------------ interactive */

static struct conn *interactive_conn;
static int interactive_status;

static void interactive_line(char *line)
{
	if (!line) {
		rl_callback_handler_remove();
		interactive_status = -1;
		return;
	}
	if (*line) {
		add_history(line);
		if (send_line(interactive_conn->fd, line)) {
			fprintf(stderr, "annabella: the daemon went away\n");
			interactive_status = 2;
		}
	}
	free(line);
}

static int interactive_tty(struct conn *c)
{
	interactive_conn = c;
	interactive_status = 0;
	rl_callback_handler_install("annabella> ", interactive_line);
	while (interactive_status == 0) {
		struct pollfd pfd[2] = {{.fd = 0, .events = POLLIN},
					{.fd = c->fd, .events = POLLIN}};
		char *line;
		size_t used;

		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & (POLLIN | POLLHUP))
			rl_callback_read_char();
		if (pfd[1].revents & (POLLIN | POLLHUP)) {
			ssize_t n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len, 0);

			if (n <= 0) {
				fprintf(stderr, "\nannabella: the daemon closed the connection\n");
				interactive_status = 2;
				break;
			}
			c->len += (size_t)n;
			/* Replies and events are printed above the prompt being typed. */
			while (read_line(c, &line, &used, 0) > 0) {
				int point = rl_point;
				char *saved = rl_copy_text(0, rl_end);

				rl_set_prompt("");
				rl_replace_line("", 0);
				rl_redisplay();
				printf("%s\n", line);
				consume(c, used);
				rl_set_prompt("annabella> ");
				rl_replace_line(saved, 0);
				rl_point = point;
				rl_redisplay();
				free(saved);
			}
		}
	}
	rl_callback_handler_remove();
	return interactive_status > 0 ? interactive_status : 0;
}

/* Requests from a pipe: each reply printed; the status is 1 if any reply was an error. */
static int interactive_pipe(struct conn *c)
{
	char line[CONTROL_LINE_MAX + 8];
	int status = 0;

	while (fgets(line, sizeof(line), stdin)) {
		size_t n = strcspn(line, "\r\n");
		int rc;

		line[n] = '\0';
		if (!n)
			continue;
		rc = one(c, line, print_raw);
		if (rc == 2)
			return 2;
		if (rc)
			status = 1;
	}
	return status;
}

/* ------------------------------------------------------------------ status for a person */

static void print_ms(const char *label, const char *ms_text, bool running)
{
	long long ms = atoll(ms_text);
	long long s = ms > 0 ? ms / 1000 : 0;

	printf("%s %lld:%02lld:%02lld%s", label, s / 3600, s / 60 % 60, s % 60,
	       running ? " (running)" : "");
}

static void print_status(const char *reply)
{
	char v[4096], sub[1024], w[64], b[64], run[16];

	if (!reply_ok(reply)) {
		json_get(reply, "error", v, sizeof(v));
		printf("error: %s\n", v);
		return;
	}
	if (json_get(reply, "game", v, sizeof(v)) < 0 || !strcmp(v, "null")) {
		printf("No game.\n");
		return;
	}
	printf("Game %s", v);
	json_get(reply, "plies", sub, sizeof(sub));
	printf(", %s plies", sub);
	json_get(reply, "to_move", sub, sizeof(sub));
	printf(", %s to move", sub);
	json_get(reply, "player", sub, sizeof(sub));
	printf(" (the tactile player has %s", sub);
	json_get(reply, "mode", sub, sizeof(sub));
	printf("; %s mode", sub);
	json_get(reply, "rules", sub, sizeof(sub));
	printf(", Laws of %s)\n", sub);
	if (json_get(reply, "clock", v, sizeof(v)) > 0 && strcmp(v, "null")) {
		json_get(v, "white_ms", w, sizeof(w));
		json_get(v, "black_ms", b, sizeof(b));
		if (json_get(v, "running", run, sizeof(run)) < 0)
			run[0] = '\0';
		print_ms("Clock: White", w, !strcmp(run, "white"));
		print_ms(", Black", b, !strcmp(run, "black"));
		json_get(v, "state", sub, sizeof(sub));
		printf("; %s\n", sub);
	} else {
		printf("Clock: none\n");
	}
	if (json_get(reply, "last_move", v, sizeof(v)) > 0 && strcmp(v, "null")) {
		json_get(v, "san", sub, sizeof(sub));
		printf("Last move: %s", sub);
		if (json_get(v, "words", sub, sizeof(sub)) > 0 && strcmp(sub, "null"))
			printf(" (%s)", sub);
		printf("\n");
	}
	if (json_get(reply, "flows", v, sizeof(v)) > 0) {
		bool any = false;

		if (json_get(v, "promotion", sub, sizeof(sub)) > 0 && strcmp(sub, "null")) {
			printf("Open: promotion %s\n", sub);
			any = true;
		}
		if (json_get(v, "mismatch", sub, sizeof(sub)) > 0 && strcmp(sub, "null")) {
			printf("Open: the board does not match the game %s\n", sub);
			any = true;
		}
		if (!any)
			printf("Open: nothing\n");
	}
	if (json_get(reply, "draw_offer", sub, sizeof(sub)) > 0 && strcmp(sub, "null"))
		printf("Draw offer by %s stands\n", sub);
	if (json_get(reply, "claim", v, sizeof(v)) > 0 && strcmp(v, "null"))
		printf("Claim: %s\n", v);
	if (json_get(reply, "result", v, sizeof(v)) > 0) {
		json_get(v, "result", sub, sizeof(sub));
		printf("Result: %s", sub);
		json_get(v, "state", sub, sizeof(sub));
		printf(" (%s", sub);
		if (json_get(v, "reason", sub, sizeof(sub)) > 0 && sub[0])
			printf(": %s", sub);
		printf(")\n");
	}
	netcheck_print(stdout);
}

/* ------------------------------------------------------------------ entry points */

static int run(int argc, char **argv, bool status)
{
	const char *path = DEFAULT_SOCKET;
	char request[CONTROL_LINE_MAX + 1] = "";
	size_t len = 0;
	struct conn *c;
	int i = 0, rc;

	if (argc >= 2 && !strcmp(argv[0], "--socket")) {
		path = argv[1];
		i = 2;
	} else if (argc >= 1 && !strncmp(argv[0], "--socket=", 9)) {
		path = argv[0] + 9;
		i = 1;
	}
	if (status && i < argc) {
		fprintf(stderr, "usage: annabella status [--socket PATH]\n");
		return 2;
	}
	for (; i < argc; i++) {
		int n =
		    snprintf(request + len, sizeof(request) - len, "%s%s", len ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= sizeof(request) - len) {
			fprintf(stderr, "annabella: request longer than %d bytes\n",
				CONTROL_LINE_MAX);
			return 2;
		}
		len += (size_t)n;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return 2;
	c->fd = connect_to(path);
	if (c->fd < 0) {
		free(c);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (status)
		rc = one(c, "status", print_status);
	else if (len)
		rc = one(c, request, print_raw);
	else if (isatty(0))
		rc = interactive_tty(c);
	else
		rc = interactive_pipe(c);
	close(c->fd);
	free(c);
	return rc;
}

int cli_control(int argc, char **argv)
{
	return run(argc, argv, false);
}

int cli_status(int argc, char **argv)
{
	return run(argc, argv, true);
}
