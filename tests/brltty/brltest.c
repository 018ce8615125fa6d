/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The live braille display against a real BRLTTY.
 *
 * This program starts `brltty` in a private directory with BRLTTY's Virtual braille driver
 * ("vr", shipped in Debian's brltty package) and its own BrlAPI port and key.  The Virtual
 * driver connects to a Unix socket of this program, which plays the display: it reads the
 * cells BRLTTY shows ("Braille" lines) and presses the display's keys (panning, line keys,
 * routing keys).  The braille/display.h module is driven as the daemon's presenter drives
 * it: moves of a real game, clock readings, the scoresheet, commands read from its fd.
 * BRLTTY is killed and started again in the middle of the game.
 *
 *   brltest [--bench N] [--keep]
 *   brltest --daemon ANNABELLAD [--keep]
 *   brltest --messages ANNABELLAD [--keep]
 *
 * With --daemon it runs the daemon itself against the same BRLTTY ([braille] display = yes,
 * a board script in real time): the move appears on the display; the display's INFO key
 * gives the times, spoken (speech.log) and shown; a routing key over the move repeats it.
 * Keys are paced (each waits for its effect): BRLTTY's Virtual driver takes one input line
 * each time input arrives, so keys sent back to back can lag.
 *
 * With --messages it runs the daemon for a player who cannot hear it ([game] deafblind = yes)
 * through a game that makes it say many things privately (the start, the times, a repeat, a
 * board that does not match and its guidance, a time warning, the arbiter's clocks, a flag),
 * follows speech.log as the daemon writes it, and for each moment with something said
 * privately reads the display's message window by window, panning on as a reader does: every
 * private utterance's text must be there, line by line as braille.h's own text divides it.
 *
 * Prints "brltty: N passed, M failed"; with --bench also "bench NAME VALUE UNIT" lines for N
 * moves (the time from the show-move call to the cells on the display).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "braille/braille.h"
#include "braille/display.h"
#include "chess/chess.h"
#include "base/log.h"
#include "base/timeutil.h"

#define CELLS 40

static int passed, failed;
static char dir[256];
static int brlapi_port; /* BrlAPI host 127.0.0.1:N is TCP port 4101 + N */
static pid_t brltty_pid = -1;
static int listen_fd = -1, vr_fd = -1;
static braille_cell shown[CELLS]; /* what the display shows now */
static int64_t shown_ns;	  /* when it last changed */
static char vr_buf[8192];
static size_t vr_len;

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "FAIL: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

static void die(const char *what)
{
	fprintf(stderr, "brltest: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* ---------------------------------------------------------------- BRLTTY */

static void write_key_file(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/brlapi.key", dir);
	unsigned char key[32];
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0 || read(fd, key, sizeof(key)) != (ssize_t)sizeof(key))
		die("urandom");
	close(fd);
	FILE *f = fopen(path, "w");
	if (!f)
		die(path);
	for (size_t k = 0; k < sizeof(key); k++)
		fprintf(f, "%02x", key[k]);
	fclose(f);
	chmod(path, 0600);
}

/* A BrlAPI port number whose TCP port is free now. */
static int free_port(void)
{
	srand((unsigned)(getpid() ^ (int64_t)monotonic_ns()));
	for (int tries = 0; tries < 200; tries++) {
		int n = 2000 + rand() % 20000;
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_in a = {.sin_family = AF_INET,
					.sin_port = htons((uint16_t)(4101 + n)),
					.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		int ok = bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
		close(fd);
		if (ok)
			return n;
	}
	errno = EADDRINUSE;
	die("no free port");
	return -1;
}

static void start_brltty(void)
{
	char device[300], api[400], log[300], pidfile[300];
	snprintf(device, sizeof(device), "client:%s/vr.sock", dir);
	snprintf(api, sizeof(api), "host=127.0.0.1:%d,auth=keyfile:%s/brlapi.key", brlapi_port,
		 dir);
	snprintf(log, sizeof(log), "%s/brltty.log", dir);
	snprintf(pidfile, sizeof(pidfile), "%s/brltty.pid", dir);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execlp("brltty", "brltty", "-n", "-e", "-q", "-l", "notice", "-f", "/dev/null",
		       "-b", "vr", "-d", device, "-x", "no", "-s", "no", "-A", api, "-W", dir, "-U",
		       dir, "-P", pidfile, "-F", "/dev/null", (char *)NULL);
		perror("brltty");
		_exit(127);
	}
	brltty_pid = pid;
}

static void stop_brltty(int sig)
{
	if (brltty_pid < 0)
		return;
	kill(brltty_pid, sig);
	waitpid(brltty_pid, NULL, 0);
	brltty_pid = -1;
	if (vr_fd >= 0)
		close(vr_fd);
	vr_fd = -1;
	vr_len = 0;
}

/* ---------------------------------------------------------------- the virtual display */

static void listen_vr(void)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof(a.sun_path), "%.90s/vr.sock", dir);
	listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(listen_fd, 2) < 0)
		die("vr socket");
}

static void vr_send(const char *line)
{
	size_t len = strlen(line);
	if (vr_fd < 0 || write(vr_fd, line, len) != (ssize_t)len)
		fprintf(stderr, "brltest: cannot send \"%s\" to BRLTTY\n", line);
}

/* Waits for the Virtual driver of a (re)started BRLTTY and tells it the display's size. */
static int accept_vr(int timeout_ms)
{
	struct pollfd p = {listen_fd, POLLIN, 0};
	if (poll(&p, 1, timeout_ms) <= 0)
		return -1;
	vr_fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (vr_fd < 0)
		return -1;
	vr_len = 0;
	char line[32];
	snprintf(line, sizeof(line), "cells %d\n", CELLS);
	vr_send(line);
	return 0;
}

/* "Braille "1|12| |..."": dots 1-8 per cell, cells split by '|'. */
static void parse_braille(const char *s)
{
	const char *q = strchr(s, '"');
	if (!q)
		return;
	braille_cell cells[CELLS] = {0};
	int k = 0;
	for (q++; *q && *q != '"' && k < CELLS; q++) {
		if (*q == '|')
			k++;
		else if (*q >= '1' && *q <= '8')
			cells[k] |= BRAILLE_DOT(*q - '0');
	}
	memcpy(shown, cells, sizeof(shown));
	shown_ns = (int64_t)monotonic_ns();
}

/* Reads what BRLTTY sends for up to timeout_ms; returns false on EOF. */
static int pump(int timeout_ms)
{
	if (vr_fd < 0)
		return 0;
	struct pollfd p = {vr_fd, POLLIN, 0};
	if (poll(&p, 1, timeout_ms) <= 0)
		return 1;
	ssize_t n = read(vr_fd, vr_buf + vr_len, sizeof(vr_buf) - 1 - vr_len);
	if (n <= 0)
		return 0;
	vr_len += (size_t)n;
	vr_buf[vr_len] = '\0';
	char *line = vr_buf, *end;
	while ((end = strchr(line, '\n'))) {
		*end = '\0';
		if (strncmp(line, "Braille ", 8) == 0)
			parse_braille(line);
		line = end + 1;
	}
	vr_len = strlen(line);
	memmove(vr_buf, line, vr_len + 1);
	return 1;
}

static void utf8(const braille_cell *cells, int n, char *buf, size_t size)
{
	while (n > 0 && cells[n - 1] == 0)
		n--;
	braille_to_utf8(cells, (size_t)n, buf, size);
}

/* Waits until the display shows `want` (Unicode braille, trailing blanks left out); the
 * time it became so, or -1. */
static int64_t wait_shown(const char *want, int timeout_ms)
{
	int64_t deadline = (int64_t)monotonic_ns() + (int64_t)timeout_ms * 1000000;
	char got[CELLS * 3 + 1];
	for (;;) {
		utf8(shown, CELLS, got, sizeof(got));
		if (strcmp(got, want) == 0)
			return shown_ns;
		int64_t left = (deadline - (int64_t)monotonic_ns()) / 1000000;
		if (left <= 0)
			return -1;
		if (!pump((int)left) && vr_fd < 0)
			return -1;
	}
}

static void expect_shown(const char *want, const char *what)
{
	int64_t t_start = (int64_t)monotonic_ns();
	int64_t t = wait_shown(want, 3000);
	if (getenv("BRLTEST_TRACE"))
		fprintf(stderr, "%s: %.1f ms\n", what, ((int64_t)monotonic_ns() - t_start) / 1e6);
	char got[CELLS * 3 + 1];
	utf8(shown, CELLS, got, sizeof(got));
	check(t >= 0, "%s: display shows \"%s\", want \"%s\"", what, got, want);
}

/* Presses a key of the display (a BRLTTY command through the Virtual driver). */
static void press(const char *command)
{
	char line[64];
	snprintf(line, sizeof(line), "%s\n", command);
	vr_send(line);
}

/* ---------------------------------------------------------------- the game */

/* Morphy - Duke Karl / Count Isouard, Paris 1858. */
static const char *const game[] = {
    "e4",    "e5",  "Nf3",  "d6",   "d4",  "Bg4", "dxe5",  "Bxf3", "Qxf3", "dxe5",  "Bc4",
    "Nf6",   "Qb3", "Qe7",  "Nc3",  "c6",  "Bg5", "b5",	   "Nxb5", "cxb5", "Bxb5+", "Nbd7",
    "O-O-O", "Rd8", "Rxd7", "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8",  "Rd8#"};
#define GAME_PLIES ((int)(sizeof(game) / sizeof(game[0])))

static struct chess_pos positions[GAME_PLIES + 1]; /* before each ply */
static chess_move moves[GAME_PLIES];

static void play_game(void)
{
	struct chess_error err;
	chess_fen_parse(&positions[0], CHESS_FEN_START, &err);
	for (int i = 0; i < GAME_PLIES; i++) {
		positions[i + 1] = positions[i];
		if (chess_move_parse_san(&positions[i + 1], game[i], &moves[i], &err) != 0) {
			fprintf(stderr, "brltest: %s: %s\n", game[i], err.message);
			exit(2);
		}
		struct chess_undo undo;
		chess_pos_make(&positions[i + 1], moves[i], &undo);
	}
}

/* The move line the display should show after ply i (0-based), BCA code. */
static void move_line(int i, char *buf, size_t size)
{
	braille_cell cells[64];
	int n = braille_lower_number(positions[i].fullmove_number, cells, 8);
	cells[n++] = 0;
	if (positions[i].side == CHESS_BLACK)
		cells[n++] = BRAILLE_DOT(3) | BRAILLE_DOT(6);
	n += braille_move(&positions[i], moves[i], cells + n, BRAILLE_MOVE_MAX);
	braille_to_utf8(cells, (size_t)n, buf, size);
}

/* Line `k` of the braille scoresheet of plies 0..plies-1, from braille_scoresheet_san (the
 * embosser's scoresheet, an independent rendering), without its newline. */
static int sheet_line(int plies, int k, char *buf, size_t size)
{
	struct scoresheet_san sheet = {.san = game, .count = plies, .first_number = 1};
	char *text = braille_scoresheet_san(&sheet, BRAILLE_UNICODE, NULL);
	const char *line = text;
	for (int j = 0; j < k && line; j++) {
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	int ok = line && *line;
	if (ok) {
		size_t len = strcspn(line, "\n");
		snprintf(buf, size, "%.*s", (int)len, line);
	}
	free(text);
	return ok;
}

/* Line `k` of page `page` (1 the first) of a paged BRF as Unicode braille, its trailing
 * blanks left out (the display shows them as blank cells). */
static int brf_page_line(const char *brf, int page, int k, char *buf, size_t size)
{
	const char *p = brf;
	braille_cell cells[CELLS];
	int n = 0;

	for (int pg = 1; pg < page && p; pg++) {
		p = strchr(p, '\f');
		if (p)
			p++;
	}
	for (int j = 0; j < k && p; j++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || !*p || *p == '\f')
		return 0;
	for (; *p && *p != '\r' && *p != '\f' && n < CELLS; p++)
		cells[n++] = (braille_cell)braille_from_brf_char(*p);
	while (n > 0 && cells[n - 1] == 0)
		n--;
	braille_to_utf8(cells, (size_t)n, buf, size);
	return 1;
}

static int read_commands(struct braille_display *d, enum braille_command *cmds, int max,
			 int timeout_ms)
{
	struct pollfd p = {braille_display_fd(d), POLLIN, 0};
	if (poll(&p, 1, timeout_ms) <= 0)
		return 0;
	return braille_display_service(d, cmds, max);
}

static int64_t show(struct braille_display *d, int i, int64_t *call_ns)
{
	int64_t t0 = (int64_t)monotonic_ns();
	braille_display_show_move(d, i + 1, &positions[i], moves[i]);
	int64_t t1 = (int64_t)monotonic_ns();
	if (call_ns)
		*call_ns = t1 - t0;
	char want[CELLS * 3 + 1];
	move_line(i, want, sizeof(want));
	int64_t t = wait_shown(want, 3000);
	check(t >= 0, "ply %d (%s): not shown", i + 1, game[i]);
	return t >= 0 ? t - t0 : -1;
}

static int wait_connected(struct braille_display *d, int timeout_ms)
{
	int64_t deadline = (int64_t)monotonic_ns() + (int64_t)timeout_ms * 1000000;
	struct braille_display_stats st;
	do {
		braille_display_stats(d, &st);
		if (st.connected)
			return 1;
		pump(10);
	} while ((int64_t)monotonic_ns() < deadline);
	return 0;
}

/* ---------------------------------------------------------------- checks */

/* The computer braille of braille.h against BRLTTY's own en-nabcc text table. */
static void check_nabcc_table(void)
{
	const char *paths[] = {"/etc/brltty/Text/en-nabcc.ttb",
			       "/usr/share/brltty/Text/en-nabcc.ttb"};
	FILE *f = NULL;
	for (size_t k = 0; k < 2 && !f; k++)
		f = fopen(paths[k], "r");
	check(f != NULL, "BRLTTY's en-nabcc text table not found");
	if (!f)
		return;
	char line[256];
	int compared = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned code;
		char dots[16];
		if (sscanf(line, "char \\X%2x (%8[ 0-9])", &code, dots) != 2 || code < 0x20 ||
		    code > 0x7E)
			continue;
		braille_cell want = 0;
		for (const char *q = dots; *q; q++)
			if (*q >= '1' && *q <= '8')
				want |= BRAILLE_DOT(*q - '0');
		char text[2] = {(char)code, 0};
		braille_cell got;
		braille_computer_text(text, &got, 1);
		check(got == want, "computer braille of '%c': 0x%02x, BRLTTY 0x%02x", code, got,
		      want);
		compared++;
	}
	fclose(f);
	check(compared == 95, "en-nabcc table: %d of 95 characters compared", compared);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "%s/annabella-brltest.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (strlen(dir) > 90) {
		fprintf(stderr, "brltest: TMPDIR is too long for a socket path\n");
		exit(2);
	}
	if (!mkdtemp(dir))
		die("mkdtemp");
	write_key_file();
	brlapi_port = free_port();
	listen_vr();
}

static void cleanup(int keep)
{
	stop_brltty(SIGTERM);
	if (listen_fd >= 0)
		close(listen_fd);
	if (keep) {
		fprintf(stderr, "brltest: kept %s\n", dir);
		return;
	}
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "brltest: cannot remove %s\n", dir);
}

/* ---------------------------------------------------------------- the daemon */

static void print_log_tail(void);

/* Whether the daemon's speech.log has a line containing `want` (after `after` lines). */
static int speech_has(const char *want, int after, int timeout_ms)
{
	int64_t deadline = (int64_t)monotonic_ns() + (int64_t)timeout_ms * 1000000;
	char path[300], line[600];

	snprintf(path, sizeof(path), "%s/state/speech.log", dir);
	do {
		FILE *f = fopen(path, "r");
		int n = 0, found = 0;

		while (f && fgets(line, sizeof(line), f))
			if (n++ >= after && strstr(line, want))
				found = 1;
		if (f)
			fclose(f);
		if (found)
			return n;
		pump(20);
	} while ((int64_t)monotonic_ns() < deadline);
	return 0;
}

static int speech_lines(void)
{
	char path[300], line[600];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/state/speech.log", dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		n++;
	if (f)
		fclose(f);
	return n;
}

/* BRLTTY started and the daemon after it, in real time with no audio and no socket: its pid, or
 * -1 when BRLTTY did not come up (said). */
static pid_t start_daemon(const char *daemon, const char *conf, const char *board,
			  const char *state)
{
	pid_t pid;

	start_brltty();
	if (accept_vr(10000) < 0) {
		check(0, "BRLTTY did not come up");
		print_log_tail();
		return -1;
	}
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execl(daemon, daemon, "--config", conf, "--board", board, "--time", "real",
		      "--audio", "none", "--control", "none", "--state", state, (char *)NULL);
		perror(daemon);
		_exit(127);
	}
	return pid;
}

static int daemon_test(const char *daemon)
{
	char conf[300], script[300], state[300], board[320];
	FILE *f;
	pid_t pid;
	int status = 0, lines;

	snprintf(conf, sizeof(conf), "%s/annabella.conf", dir);
	snprintf(script, sizeof(script), "%s/game.script", dir);
	snprintf(state, sizeof(state), "%s/state", dir);
	snprintf(board, sizeof(board), "sim:%s", script);
	f = fopen(conf, "w");
	if (!f)
		die(conf);
	fprintf(f, "[braille]\ndisplay = yes\nhost = 127.0.0.1:%d\nauth = keyfile:%s/brlapi.key\n",
		brlapi_port, dir);
	fclose(f);
	f = fopen(script, "w");
	if (!f)
		die(script);
	fprintf(f, "player white\ntime-control 300+0\n+500 press opponent-clock\n"
		   "+1000 lift e2\n+300 place e4\n+60000 press pause\n");
	fclose(f);
	pid = start_daemon(daemon, conf, board, state);
	if (pid < 0)
		return 1;
	/* 1. e4 on the display, as soon as it is announced. */
	expect_shown("⠂⠀⠑⠲", "the daemon's first move on the display");
	check(speech_has("public Bauer Eva zwei Eva vier", 0, 3000) > 0,
	      "the move announced in speech.log");

	/* The display's INFO key: the times, spoken privately and shown (the clock line). */
	lines = speech_lines();
	press("Info");
	check(speech_has("private Weiß: ", lines, 3000) > 0, "INFO key: the times spoken");
	{
		int64_t deadline = (int64_t)monotonic_ns() + 3000000000;

		while (shown[0] !=
			   (BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5) | BRAILLE_DOT(6)) &&
		       (int64_t)monotonic_ns() < deadline)
			pump(20);
		check(shown[0] ==
			  (BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5) | BRAILLE_DOT(6)),
		      "INFO key: the clocks shown");
	}

	/* A routing key over the move repeats it, privately. */
	press("Home");
	expect_shown("⠂⠀⠑⠲", "home: the move again");
	lines = speech_lines();
	press("Route 2");
	check(speech_has("private Bauer Eva zwei Eva vier", lines, 3000) > 0,
	      "routing key over the move: repeated");

	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the daemon stopped: status %d",
	      status);
	return failed ? 1 : 0;
}

/* ---------------------------------------------------------------- messages */

/* The text of a speech.log line "MS CHANNEL TEXT": its MS and channel; NULL if none. */
static const char *speech_text(const char *line, long long *ms, char *channel, size_t size)
{
	const char *p = line;
	char *end;

	*ms = strtoll(p, &end, 10);
	if (end == p || *end != ' ')
		return NULL;
	p = end + 1;
	snprintf(channel, size, "%.*s", (int)strcspn(p, " "), p);
	p += strcspn(p, " ");
	return *p == ' ' ? p + 1 : NULL;
}

/* An utterance's lines on the display as the daemon divides them (braille_text_pages, 40
 * cells, no pages), each as Unicode braille without trailing blanks: how many (at most max). */
static int utterance_lines(const char *text, char lines[][CELLS * 3 + 1], int max)
{
	struct braille_layout layout = {.cells_per_line = CELLS,
					.page_number = BRAILLE_PAGE_NUMBER_NONE};
	char *brf = braille_text_pages(text, BRAILLE_BRF, &layout);
	int n = 0;

	while (brf && n < max && brf_page_line(brf, 1, n, lines[n], sizeof(lines[0])))
		n++;
	free(brf);
	return n;
}

/* Whether the windows read hold the utterance's lines one after the other. */
static int windows_hold(char windows[][CELLS * 3 + 1], int nwin, const char *text)
{
	char lines[16][CELLS * 3 + 1];
	int n = utterance_lines(text, lines, 16);

	for (int start = 0; n && start + n <= nwin; start++) {
		int k = 0;

		while (k < n && !strcmp(windows[start + k], lines[k]))
			k++;
		if (k == n)
			return 1;
	}
	return 0;
}

/* The message of one moment read from the display, panning on window by window until every
 * utterance of it was found (or 24 windows were read); then one more pan, which takes the
 * message away. */
static void read_message(char texts[][600], int ntexts, long long ms)
{
	static char windows[24][CELLS * 3 + 1];
	int nwin = 0, found = 0, still = 0;

	/* The display has it a moment after the voice took it: a line of one of its utterances
	 * (at the start, once the daemon's display has connected to BRLTTY). */
	for (int t = 0; t < 150; t++) {
		int shows = 0;

		pump(20);
		utf8(shown, CELLS, windows[0], sizeof(windows[0]));
		for (int i = 0; i < ntexts && !shows; i++) {
			char lines[16][CELLS * 3 + 1];
			int n = utterance_lines(texts[i], lines, 16);

			for (int k = 0; k < n && !shows; k++)
				shows = !strcmp(lines[k], windows[0]);
		}
		if (shows)
			break;
	}
	while (nwin < 24) {
		char before[CELLS * 3 + 1];

		utf8(shown, CELLS, windows[nwin], sizeof(windows[0]));
		memcpy(before, windows[nwin], sizeof(before));
		nwin++;
		found = 0;
		for (int i = 0; i < ntexts; i++)
			found += windows_hold(windows, nwin, texts[i]);
		press("FWinRt");
		if (found == ntexts || still == 2)
			break;
		/* Paced: the next window; the same one twice is the end of what there is to read
		 * (no more keys that would lag behind). */
		still++;
		for (int t = 0; t < 15; t++) {
			char now[CELLS * 3 + 1];

			pump(20);
			utf8(shown, CELLS, now, sizeof(now));
			if (strcmp(now, before)) {
				still = 0;
				break;
			}
		}
	}
	if (getenv("BRLTEST_TRACE"))
		for (int w = 0; w < nwin; w++)
			fprintf(stderr, "%lld window %d: %s\n", ms, w, windows[w]);
	for (int i = 0; i < ntexts; i++)
		check(windows_hold(windows, nwin, texts[i]),
		      "at %lld ms, \"%s\" said privately is not on the display (%d windows read)",
		      ms, texts[i], nwin);
}

static int messages_test(const char *daemon)
{
	char conf[300], script[300], state[300], board[320], path[320];
	FILE *f, *log = NULL;
	pid_t pid;
	int status = 0, moments = 0, said = 0;
	int64_t deadline;

	snprintf(conf, sizeof(conf), "%s/annabella.conf", dir);
	snprintf(script, sizeof(script), "%s/game.script", dir);
	snprintf(state, sizeof(state), "%s/state", dir);
	snprintf(board, sizeof(board), "sim:%s", script);
	snprintf(path, sizeof(path), "%s/state/speech.log", dir);
	f = fopen(conf, "w");
	if (!f)
		die(conf);
	fprintf(f,
		"[game]\nmode = casual\ndeafblind = yes\n[haptic]\nline = 70\n[clock]\nwarnings = "
		"10\n[braille]\nhost = "
		"127.0.0.1:%d\nauth = keyfile:%s/brlapi.key\n",
		brlapi_port, dir);
	fclose(f);
	f = fopen(script, "w");
	if (!f)
		die(script);
	/* Three seconds or more between the moments, for the reader to pan through each: the
	 * start, the game's start, two moves (the opponent's replicated), the times, a repeat,
	 * an impossible board, its guidance, the board set right, the arbiter's clocks, the
	 * warning, the flag. */
	fprintf(f, "player white\ntime-control 40+0\n"
		   "+4000 press opponent-clock\n"
		   "+3000 lift e2\n+300 place e4\n+400 press player-clock\n"
		   "+3000 lift e7\n+300 place e5\n+400 press opponent-clock\n"
		   "+3000 press info\n"
		   "+3400 press repeat\n"
		   "+3400 lift d2\n+300 place d5\n"
		   "+3400 press select\n"
		   "+3400 lift d5\n+300 place d2\n"
		   "+3000 control arbiter clock set 0:00:16 0:00:30\n"
		   "+20000 press pause\n");
	fclose(f);
	pid = start_daemon(daemon, conf, board, state);
	if (pid < 0)
		return 1;
	/* speech.log followed as it grows; a moment's lines read once the next moment (or
	 * nothing for half a second) shows it is complete. */
	deadline = (int64_t)monotonic_ns() + 48000000000LL;
	{
		static char texts[16][600];
		char line[700], channel[16];
		int ntexts = 0;
		long long moment = -1;
		int64_t quiet_since = (int64_t)monotonic_ns();

		while ((int64_t)monotonic_ns() < deadline && waitpid(pid, &status, WNOHANG) == 0) {
			long long ms;
			const char *text;

			if (!log)
				log = fopen(path, "r");
			if (!log || !fgets(line, sizeof(line), log)) {
				if (log)
					clearerr(log);
				pump(50);
				if (ntexts && (int64_t)monotonic_ns() - quiet_since > 150000000) {
					read_message(texts, ntexts, moment);
					moments++;
					ntexts = 0;
				}
				continue;
			}
			line[strcspn(line, "\n")] = '\0';
			text = speech_text(line, &ms, channel, sizeof(channel));
			if (!text || strcmp(channel, "private"))
				continue;
			if (ntexts && ms != moment) {
				read_message(texts, ntexts, moment);
				moments++;
				ntexts = 0;
			}
			moment = ms;
			quiet_since = (int64_t)monotonic_ns();
			if (ntexts < 16)
				snprintf(texts[ntexts++], sizeof(texts[0]), "%s", text);
			said++;
		}
		if (ntexts) {
			read_message(texts, ntexts, moment);
			moments++;
		}
	}
	if (log)
		fclose(log);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	printf("brltty --messages: %d private utterances in %d moments read from the display\n",
	       said, moments);
	/* The start, info, repeat, the mismatch and its guidance, the warning, the clocks set,
	 * the flag: at least that many moments. */
	check(moments >= 7, "only %d moments with something said privately", moments);
	return failed ? 1 : 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static void print_log_tail(void)
{
	char path[300], cmd[400];
	snprintf(path, sizeof(path), "%s/brltty.log", dir);
	snprintf(cmd, sizeof(cmd), "tail -20 '%s' >&2", path);
	if (system(cmd) != 0)
		fprintf(stderr, "brltest: no log\n");
}

int main(int argc, char **argv)
{
	int bench = 0, keep = 0, messages = 0;
	const char *daemon = NULL;
	for (int k = 1; k < argc; k++) {
		if (strcmp(argv[k], "--bench") == 0 && k + 1 < argc)
			bench = atoi(argv[++k]);
		else if (strcmp(argv[k], "--daemon") == 0 && k + 1 < argc)
			daemon = argv[++k];
		else if (strcmp(argv[k], "--messages") == 0 && k + 1 < argc) {
			daemon = argv[++k];
			messages = 1;
		} else if (strcmp(argv[k], "--keep") == 0)
			keep = 1;
		else {
			fprintf(stderr, "usage: brltest [--bench N] [--keep]\n"
					"       brltest --daemon ANNABELLAD [--keep]\n"
					"       brltest --messages ANNABELLAD [--keep]\n");
			return 2;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	/* The module's warnings (BRLTTY lost, reconnecting) are what this test provokes. */
	log_set_level(LOG_LEVEL_ERROR);
	play_game();
	setup();
	if (daemon) {
		if (messages)
			messages_test(daemon);
		else
			daemon_test(daemon);
		if (failed)
			print_log_tail();
		cleanup(keep);
		printf("brltty %s: %d passed, %d failed\n", messages ? "--messages" : "--daemon",
		       passed, failed);
		return failed ? 1 : 0;
	}
	check_nabcc_table();

	/* The display module starts before BRLTTY: it must neither block nor give up. */
	char host[64], auth[320];
	snprintf(host, sizeof(host), "127.0.0.1:%d", brlapi_port);
	snprintf(auth, sizeof(auth), "keyfile:%s/brlapi.key", dir);
	struct braille_display_config config = {
	    .host = host, .auth = auth, .tty = -1, .notation = BRAILLE_NOTATION_BCA};
	int64_t t0 = (int64_t)monotonic_ns();
	struct braille_display *d = braille_display_open(&config);
	check(d != NULL, "braille_display_open");
	if (!d)
		return 1;
	int64_t max_call = 0, call;
	braille_display_show_move(d, 1, &positions[0], moves[0]); /* nobody shows it yet */
	check((int64_t)monotonic_ns() - t0 < 50000000,
	      "open and a move without BRLTTY took %" PRId64 " ms",
	      ((int64_t)monotonic_ns() - t0) / 1000000);

	start_brltty();
	if (accept_vr(10000) < 0 || !wait_connected(d, 10000)) {
		check(0, "BRLTTY did not come up");
		print_log_tail();
		braille_display_close(d);
		cleanup(keep);
		return 1;
	}
	struct braille_display_stats st;
	braille_display_stats(d, &st);
	check(st.width == CELLS, "display width %d, want %d", st.width, CELLS);

	/* The move made before BRLTTY was there is shown once it is. */
	expect_shown("⠂⠀⠑⠲", "the first move after connecting");

	/* The game, move by move: each move on the display (the code's own example "2. Nf3"). */
	int64_t lat[GAME_PLIES];
	int nlat = 0;
	int half = 20;
	for (int i = 1; i < half; i++) {
		int64_t l = show(d, i, &call);
		if (call > max_call)
			max_call = call;
		if (l >= 0)
			lat[nlat++] = l;
	}
	expect_shown("⠂⠴⠀⠤⠉⠃⠢", "10... cxb5");

	/* Panning: from the last move to the scoresheet and back. */
	char want[CELLS * 3 + 1];
	press("FWinRt");
	sheet_line(half, 0, want, sizeof(want));
	expect_shown(want, "pan right to the sheet's first line");
	check(strcmp(want, "⠂⠀⠑⠲⠀⠑⠢") == 0, "first sheet line \"%s\"", want);
	press("FWinRt");
	sheet_line(half, 1, want, sizeof(want));
	expect_shown(want, "pan right to the second line");
	check(strcmp(want, "⠆⠀⠎⠋⠒⠀⠙⠖") == 0, "second sheet line \"%s\" (BCA 2015 1.3)", want);
	press("LnDn");
	sheet_line(half, 2, want, sizeof(want));
	expect_shown(want, "line down");
	press("Bot");
	sheet_line(half, 9, want, sizeof(want));
	expect_shown(want, "bottom: the last move pair");
	press("FWinLt");
	sheet_line(half, 8, want, sizeof(want));
	expect_shown(want, "pan left");
	press("Top");
	sheet_line(half, 0, want, sizeof(want));
	expect_shown(want, "top");
	press("FWinLt");
	move_line(half - 1, want, sizeof(want));
	expect_shown(want, "pan left from the sheet's top to the last move");

	/* Routing keys: over the move, repeat; after it, info. */
	enum braille_command cmds[8];
	press("Route 2");
	int n = read_commands(d, cmds, 8, 3000);
	check(n == 1 && cmds[0] == BRAILLE_COMMAND_REPEAT, "routing key over the move: %d %d", n,
	      n ? (int)cmds[0] : -1);
	press("Route 30");
	n = read_commands(d, cmds, 8, 3000);
	check(n == 1 && cmds[0] == BRAILLE_COMMAND_INFO, "routing key after the move: %d %d", n,
	      n ? (int)cmds[0] : -1);

	/* BRLTTY's own INFO and TIME commands (a display's status or clock key). */
	press("Time");
	n = read_commands(d, cmds, 8, 3000);
	check(n == 1 && cmds[0] == BRAILLE_COMMAND_INFO, "TIME key: %d", n);
	press("Info");
	n = read_commands(d, cmds, 8, 3000);
	check(n == 1 && cmds[0] == BRAILLE_COMMAND_INFO, "INFO key: %d", n);

	/* The clocks on request. */
	braille_display_show_clock(d, 5025000, 3599999);
	expect_shown("⠼⠁⠒⠼⠃⠉⠒⠼⠙⠑⠀⠤⠀⠼⠚⠒⠼⠑⠊⠒⠼⠑⠊", "the clocks 1:23:45 - 0:59:59");
	press("Route 1");
	n = read_commands(d, cmds, 8, 3000);
	check(n == 1 && cmds[0] == BRAILLE_COMMAND_INFO, "routing key on the clocks: %d", n);
	press("Home");
	move_line(half - 1, want, sizeof(want));
	expect_shown(want, "home: back to the last move");

	/* The scoresheet page by page (the button menu's item): each line of each page as the
	 * embosser's BRF has it, the page number included; line keys go on across pages; a
	 * page past the last is the first; home goes back to the last move. */
	{
		struct scoresheet_san sheet = {.san = game, .count = half, .first_number = 1};
		struct braille_layout layout = {CELLS, 5, BRAILLE_PAGE_NUMBER_BOTTOM,
						BRAILLE_SIGNS_AFTER};
		char *brf = braille_scoresheet_san(&sheet, BRAILLE_BRF, &layout);
		int page = 0, pages = 0;

		braille_display_show_pages(d, brf, 2, &page, &pages);
		check(page == 2 && pages == 3, "page view: page %d of %d, want 2 of 3", page,
		      pages);
		brf_page_line(brf, 2, 0, want, sizeof(want));
		expect_shown(want, "page 2's first line");
		for (int k = 1; k < 5; k++) {
			press("LnDn");
			brf_page_line(brf, 2, k, want, sizeof(want));
			expect_shown(want, "page 2, line down");
		}
		check(strcmp(want, "⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠼⠃") == 0,
		      "page 2's number: \"%s\"", want);
		press("LnDn");
		brf_page_line(brf, 3, 0, want, sizeof(want));
		expect_shown(want, "line down across the page's end to page 3");
		press("LnUp");
		brf_page_line(brf, 2, 4, want, sizeof(want));
		expect_shown(want, "line up back to page 2's last line");
		braille_display_show_pages(d, brf, 4, &page, &pages);
		check(page == 1, "a page past the last shows page %d, want 1", page);
		brf_page_line(brf, 1, 0, want, sizeof(want));
		expect_shown(want, "page 1's first line");
		check(strcmp(want, "⠂⠀⠑⠲⠀⠑⠢") == 0, "page 1 begins \"%s\"", want);
		press("Home");
		move_line(half - 1, want, sizeof(want));
		expect_shown(want, "home: out of the page view to the last move");
		free(brf);
	}

	/* BRLTTY dies in the middle of the game; the game goes on without it. */
	stop_brltty(SIGKILL);
	int64_t worst_down = 0;
	for (int i = half; i < GAME_PLIES - 4; i++) {
		int64_t a = (int64_t)monotonic_ns();
		braille_display_show_move(d, i + 1, &positions[i], moves[i]);
		int64_t b = (int64_t)monotonic_ns() - a;
		if (b > worst_down)
			worst_down = b;
	}
	check(worst_down < 5000000, "a move while BRLTTY is down took %" PRId64 " us",
	      worst_down / 1000);
	int64_t gone = (int64_t)monotonic_ns() + 3000000000;
	do {
		braille_display_stats(d, &st);
		if (st.connected)
			usleep(10000);
	} while (st.connected && (int64_t)monotonic_ns() < gone);
	check(!st.connected, "still connected 3 s after BRLTTY died");
	unsigned connects = st.connects;

	/* It comes back: the display shows the last move, and the whole sheet is there. */
	start_brltty();
	if (accept_vr(10000) < 0 || !wait_connected(d, 10000)) {
		check(0, "BRLTTY did not come back");
		print_log_tail();
	} else {
		braille_display_stats(d, &st);
		check(st.connects == connects + 1, "reconnections: %u", st.connects - connects);
		move_line(GAME_PLIES - 5, want, sizeof(want));
		expect_shown(want, "the last move after BRLTTY's restart");
		for (int i = GAME_PLIES - 4; i < GAME_PLIES; i++) {
			int64_t l = show(d, i, &call);
			if (call > max_call)
				max_call = call;
			if (l >= 0)
				lat[nlat++] = l;
		}
		expect_shown("⠂⠶⠀⠗⠙⠦⠜⠍", "17. Rd8# (mate after the move)");
		/* Every line of the sheet, panned through, equals the embosser's scoresheet. */
		press("Top");
		int lines = (GAME_PLIES + 1) / 2;
		for (int k = 0; k < lines; k++) {
			sheet_line(GAME_PLIES, k, want, sizeof(want));
			expect_shown(want, "scoresheet line after the restart");
			press("FWinRt");
		}
		/* Computer braille of the SAN, as a setting. */
		braille_display_set_notation(d, BRAILLE_NOTATION_COMPUTER);
		press("Home");
		braille_cell cells[CELLS];
		size_t cn = braille_computer_text("17. Rd8#", cells, CELLS);
		braille_to_utf8(cells, cn, want, sizeof(want));
		expect_shown(want, "17. Rd8# in computer braille");
	}
	check(max_call < 5000000, "the slowest show-move call took %" PRId64 " us",
	      max_call / 1000);

	/* The bench: the time from the show-move call to the cells on the display. */
	if (bench > 0 && vr_fd >= 0) {
		braille_display_set_notation(d, BRAILLE_NOTATION_BCA);
		int64_t *b = calloc((size_t)bench, sizeof(*b));
		int nb = 0;
		for (int r = 0; r < bench; r++) {
			int i = r % GAME_PLIES;
			int prev = (i + GAME_PLIES - 1) % GAME_PLIES;
			/* Two different plies in turn, so every call changes the cells. */
			if (i == 0)
				show(d, prev, NULL);
			int64_t l = show(d, i, NULL);
			if (l >= 0)
				b[nb++] = l;
		}
		if (nb > 0) {
			qsort(b, (size_t)nb, sizeof(*b), cmp_i64);
			printf("bench braille_move_shown_median_ms %.2f ms\n", b[nb / 2] / 1e6);
			printf("bench braille_move_shown_p95_ms %.2f ms\n",
			       b[(nb * 95) / 100 < nb ? (nb * 95) / 100 : nb - 1] / 1e6);
			printf("bench braille_move_shown_max_ms %.2f ms\n", b[nb - 1] / 1e6);
		}
		check(nb == bench, "bench: %d of %d moves shown", nb, bench);
		free(b);
	}

	qsort(lat, (size_t)nlat, sizeof(*lat), cmp_i64);
	if (nlat > 0)
		fprintf(stderr,
			"brltest: move shown after %.1f ms (median), %.1f ms (max), %d moves\n",
			lat[nlat / 2] / 1e6, lat[nlat - 1] / 1e6, nlat);

	int64_t c0 = (int64_t)monotonic_ns();
	braille_display_close(d);
	check((int64_t)monotonic_ns() - c0 < 1000000000, "close took %" PRId64 " ms",
	      ((int64_t)monotonic_ns() - c0) / 1000000);
	if (failed)
		print_log_tail();
	cleanup(keep);
	printf("brltty: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
