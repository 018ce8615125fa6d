/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli/uci.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define UCI_LINE_MAX	8192 /* an `info` line with a long principal variation */
#define UCI_OPTIONS_MAX 64
#define UCI_OPTION_MAX	48

struct uci_engine {
	pid_t pid;
	int fd; /* one end of a socket pair: the engine's stdin and stdout */
	char name[96];
	char options[UCI_OPTIONS_MAX][UCI_OPTION_MAX];
	int n_options;
	int elo_min, elo_max;
	enum uci_failure failure;
	/* The last search's score (its last `info ... score`), for the side to move. */
	bool scored;
	struct uci_score score;
	size_t len;
	char buf[UCI_LINE_MAX];
	char line[UCI_LINE_MAX];
};

static void fail(char *err, size_t errsize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(char *err, size_t errsize, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsize, fmt, ap);
	va_end(ap);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int send_line(struct uci_engine *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int send_line(struct uci_engine *e, const char *fmt, ...)
{
	char text[UCI_LINE_MAX];
	va_list ap;
	int n;
	size_t off = 0;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(text) - 1) {
		errno = EMSGSIZE;
		return -1;
	}
	text[n++] = '\n';
	while (off < (size_t)n) {
		ssize_t w = send(e->fd, text + off, (size_t)n - off, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += (size_t)w;
	}
	return 0;
}

/*
 * The next line from the engine, without its end of line, in e->line: 1; 0 when the engine
 * closed its output (it died); -1 when the deadline passed or reading failed.
 */
static int read_line(struct uci_engine *e, int64_t deadline)
{
	for (;;) {
		char *nl = memchr(e->buf, '\n', e->len);

		if (nl) {
			size_t n = (size_t)(nl - e->buf);

			memcpy(e->line, e->buf, n);
			e->line[n] = '\0';
			if (n && e->line[n - 1] == '\r')
				e->line[n - 1] = '\0';
			e->len -= n + 1;
			memmove(e->buf, nl + 1, e->len);
			return 1;
		}
		if (e->len == sizeof(e->buf)) /* a line longer than any UCI line: drop it */
			e->len = 0;

		int64_t left = deadline - now_ms();
		struct pollfd p = {.fd = e->fd, .events = POLLIN};

		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		int r = poll(&p, 1, left > INT32_MAX ? INT32_MAX : (int)left);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		ssize_t got = recv(e->fd, e->buf + e->len, sizeof(e->buf) - e->len, 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		e->len += (size_t)got;
	}
}

/* The first word of a line, and the rest after it. */
static bool starts_word(const char *line, const char *word, const char **rest)
{
	size_t n = strlen(word);

	while (*line == ' ' || *line == '\t')
		line++;
	if (strncmp(line, word, n) != 0 || (line[n] && line[n] != ' ' && line[n] != '\t'))
		return false;
	if (rest) {
		line += n;
		while (*line == ' ' || *line == '\t')
			line++;
		*rest = line;
	}
	return true;
}

/* Why a wait ended without the answer, for the caller's message. */
static void wait_failed(struct uci_engine *e, int r, const char *waiting_for, char *err,
			size_t errsize)
{
	e->failure = r == 0 || errno != ETIMEDOUT ? UCI_DIED : UCI_HUNG;
	if (r == 0)
		fail(err, errsize, "the engine %s stopped while waiting for %s", e->name,
		     waiting_for);
	else if (errno == ETIMEDOUT)
		fail(err, errsize, "the engine %s did not answer %s in time", e->name, waiting_for);
	else
		fail(err, errsize, "reading from the engine %s: %s", e->name, strerror(errno));
}

static void note_option(struct uci_engine *e, const char *rest)
{
	/* option name NAME WITH SPACES type spin default 1350 min 1320 max 3190 */
	const char *name, *type = strstr(rest, " type ");
	size_t n;

	if (!starts_word(rest, "name", &name) || !type || type < name)
		return;
	n = (size_t)(type - name);
	if (e->n_options < UCI_OPTIONS_MAX && n < UCI_OPTION_MAX) {
		memcpy(e->options[e->n_options], name, n);
		e->options[e->n_options][n] = '\0';
		e->n_options++;
	}
	if (n == 7 && strncasecmp(name, "UCI_Elo", 7) == 0) {
		const char *min = strstr(type, " min "), *max = strstr(type, " max ");

		if (min)
			e->elo_min = atoi(min + 5);
		if (max)
			e->elo_max = atoi(max + 5);
	}
}

static int wait_ready(struct uci_engine *e, int timeout_ms, char *err, size_t errsize)
{
	int64_t deadline = now_ms() + timeout_ms;
	int r;

	if (send_line(e, "isready")) {
		e->failure = UCI_DIED;
		fail(err, errsize, "the engine %s is gone: writing to it failed (%s)", e->name,
		     strerror(errno));
		return -1;
	}
	while ((r = read_line(e, deadline)) == 1)
		if (starts_word(e->line, "readyok", NULL))
			return 0;
	wait_failed(e, r, "isready", err, errsize);
	return -1;
}

struct uci_engine *uci_start(const char *path, int timeout_ms, enum uci_failure *failure, char *err,
			     size_t errsize)
{
	struct uci_engine *e;
	int sv[2] = {-1, -1};
	posix_spawn_file_actions_t fa;
	char *argv[] = {(char *)(uintptr_t)path, NULL};
	int64_t deadline;
	int r;
	enum uci_failure scratch;

	if (!failure)
		failure = &scratch;
	*failure = UCI_MISSING;
	if (access(path, X_OK)) {
		fail(err, errsize, "no engine at %s: %s", path, strerror(errno));
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		fail(err, errsize, "out of memory");
		return NULL;
	}
	e->pid = -1;
	e->fd = -1;
	snprintf(e->name, sizeof(e->name), "%s", path);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		fail(err, errsize, "socketpair: %s", strerror(errno));
		free(e);
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	r = posix_spawn(&e->pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	e->fd = sv[0];
	if (r) {
		fail(err, errsize, "cannot start the engine %s: %s", path, strerror(r));
		e->pid = -1;
		uci_stop(e);
		return NULL;
	}
	deadline = now_ms() + timeout_ms;
	if (send_line(e, "uci")) {
		*failure = UCI_DIED;
		fail(err, errsize, "the engine %s is gone: writing to it failed (%s)", path,
		     strerror(errno));
		uci_stop(e);
		return NULL;
	}
	while ((r = read_line(e, deadline)) == 1) {
		const char *rest;

		if (starts_word(e->line, "uciok", NULL))
			break;
		if (starts_word(e->line, "id", &rest) && starts_word(rest, "name", &rest) && *rest)
			snprintf(e->name, sizeof(e->name), "%s", rest);
		else if (starts_word(e->line, "option", &rest))
			note_option(e, rest);
	}
	if (r != 1) {
		wait_failed(e, r, "uci", err, errsize);
		*failure = e->failure;
		uci_stop(e);
		return NULL;
	}
	if (wait_ready(e, (int)(deadline - now_ms() > 0 ? deadline - now_ms() : 1), err, errsize)) {
		*failure = e->failure;
		uci_stop(e);
		return NULL;
	}
	*failure = UCI_OK;
	return e;
}

void uci_stop(struct uci_engine *e)
{
	if (!e)
		return;
	if (e->fd >= 0) {
		send_line(e, "quit");
		close(e->fd);
	}
	if (e->pid > 0) {
		/* A well-behaved engine quits at once; give it 500 ms, then make sure. */
		for (int i = 0; i < 50; i++) {
			pid_t w = waitpid(e->pid, NULL, WNOHANG);

			if (w == e->pid || (w < 0 && errno == ECHILD))
				goto reaped;
			usleep(10000);
		}
		kill(e->pid, SIGKILL);
		while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
reaped:
	free(e);
}

const char *uci_name(const struct uci_engine *e)
{
	return e->name;
}

enum uci_failure uci_last_failure(const struct uci_engine *e)
{
	return e->failure;
}

const char *uci_failure_name(enum uci_failure f)
{
	static const char *const names[] = {"ok", "missing", "died", "hung", "nonsense"};

	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "died";
}

/* Whether the engine announced an option of that name (case-insensitive). */
static bool uci_has_option(const struct uci_engine *e, const char *name)
{
	for (int i = 0; i < e->n_options; i++)
		if (strcasecmp(e->options[i], name) == 0)
			return true;
	return false;
}

static int set_option(struct uci_engine *e, const char *name, const char *value, char *err,
		      size_t errsize)
{
	if (send_line(e, "setoption name %s value %s", name, value)) {
		e->failure = UCI_DIED;
		fail(err, errsize, "the engine %s is gone: writing to it failed (%s)", e->name,
		     strerror(errno));
		return -1;
	}
	return 0;
}

int uci_set_level(struct uci_engine *e, int level, char *err, size_t errsize)
{
	char value[16];

	if (level < 0 || level > 20) {
		e->failure = UCI_NONSENSE;
		fail(err, errsize, "level %d: the levels are 0..20", level);
		return -1;
	}
	if (!uci_has_option(e, "Skill Level")) {
		e->failure = UCI_NONSENSE;
		fail(err, errsize, "the engine %s has no Skill Level option", e->name);
		return -1;
	}
	snprintf(value, sizeof(value), "%d", level);
	if (set_option(e, "Skill Level", value, err, errsize))
		return -1;
	return wait_ready(e, 5000, err, errsize);
}

int uci_set_elo(struct uci_engine *e, int elo, int *set, char *err, size_t errsize)
{
	char value[16];

	if (!uci_has_option(e, "UCI_LimitStrength") || !uci_has_option(e, "UCI_Elo")) {
		e->failure = UCI_NONSENSE;
		fail(err, errsize, "the engine %s cannot limit its strength to a rating", e->name);
		return -1;
	}
	if (e->elo_min && elo < e->elo_min)
		elo = e->elo_min;
	if (e->elo_max && elo > e->elo_max)
		elo = e->elo_max;
	*set = elo;
	snprintf(value, sizeof(value), "%d", elo);
	if (set_option(e, "UCI_LimitStrength", "true", err, errsize) ||
	    set_option(e, "UCI_Elo", value, err, errsize))
		return -1;
	return wait_ready(e, 5000, err, errsize);
}

int uci_set_full_strength(struct uci_engine *e, char *err, size_t errsize)
{
	if (uci_has_option(e, "UCI_LimitStrength") &&
	    set_option(e, "UCI_LimitStrength", "false", err, errsize))
		return -1;
	if (uci_has_option(e, "Skill Level") && set_option(e, "Skill Level", "20", err, errsize))
		return -1;
	return wait_ready(e, 5000, err, errsize);
}

int uci_new_game(struct uci_engine *e, char *err, size_t errsize)
{
	if (send_line(e, "ucinewgame")) {
		e->failure = UCI_DIED;
		fail(err, errsize, "the engine %s is gone: writing to it failed (%s)", e->name,
		     strerror(errno));
		return -1;
	}
	return wait_ready(e, 5000, err, errsize);
}

/* A move in UCI's form: from, to, and an optional promotion piece. */
static bool uci_move_form(const char *m)
{
	size_t n = strlen(m);

	if (n != 4 && n != 5)
		return false;
	for (int i = 0; i < 4; i += 2)
		if (m[i] < 'a' || m[i] > 'h' || m[i + 1] < '1' || m[i + 1] > '8')
			return false;
	return n == 4 || strchr("qrbn", m[4]);
}

/* "... score cp 34 ..." or "... score mate -3 ...": the search's score so far (a bound,
 * "lowerbound"/"upperbound", is as good as the engine knows it). */
static void read_score(struct uci_engine *e, const char *info)
{
	const char *s = strstr(info, " score ");
	char kind[8];
	int v;

	if (!s && !strncmp(info, "score ", 6))
		s = info - 1;
	if (!s || sscanf(s + 7, "%7s %d", kind, &v) != 2)
		return;
	if (!strcmp(kind, "cp")) {
		e->score = (struct uci_score){.cp = v};
	} else if (!strcmp(kind, "mate")) {
		e->score = (struct uci_score){.mate = v, .cp = v > 0 ? 100000 : -100000};
	} else {
		return;
	}
	e->scored = true;
}

bool uci_last_score(const struct uci_engine *e, struct uci_score *score)
{
	if (e->scored)
		*score = e->score;
	return e->scored;
}

int uci_best_move(struct uci_engine *e, const char *fen, const char *moves, int movetime_ms,
		  int grace_ms, char move[UCI_MOVE_MAX], char *err, size_t errsize)
{
	int64_t deadline;
	int r;
	bool have_moves = moves && *moves;

	if (send_line(e, "position %s%s%s%s", fen ? "fen " : "startpos", fen ? fen : "",
		      have_moves ? " moves " : "", have_moves ? moves : "") ||
	    send_line(e, "go movetime %d", movetime_ms)) {
		e->failure = UCI_DIED;
		fail(err, errsize, "the engine %s is gone: writing to it failed (%s)", e->name,
		     strerror(errno));
		return -1;
	}
	deadline = now_ms() + movetime_ms + grace_ms;
	e->scored = false;
	while ((r = read_line(e, deadline)) == 1) {
		const char *rest;
		char word[16];
		size_t n = 0;

		if (starts_word(e->line, "info", &rest)) {
			read_score(e, rest);
			continue;
		}
		if (!starts_word(e->line, "bestmove", &rest))
			continue;
		while (rest[n] && rest[n] != ' ' && rest[n] != '\t' && n < sizeof(word) - 1) {
			word[n] = rest[n];
			n++;
		}
		word[n] = '\0';
		if (strcmp(word, "(none)") == 0) {
			e->failure = UCI_NONSENSE;
			fail(err, errsize, "the engine %s has no move in this position", e->name);
			return -1;
		}
		if (!uci_move_form(word)) {
			e->failure = UCI_NONSENSE;
			fail(err, errsize, "the engine %s answered \"%.40s\", which is no move",
			     e->name, e->line);
			return -1;
		}
		memcpy(move, word, n + 1);
		return 0;
	}
	if (r == -1 && errno == ETIMEDOUT)
		send_line(e, "stop");
	wait_failed(e, r, "its move", err, errsize);
	return -1;
}
