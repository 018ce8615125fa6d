/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella control [--socket PATH] [COMMAND ARGS...]   one request, its JSON reply
 * annabella control [--socket PATH]                     requests line by line
 * annabella status [--socket PATH]                      the game for a person to read
 *
 * docs/control.md "Control interface": exit 0 when the reply is ok, 1 when it is an error, 2 when
 * the socket cannot be reached or the usage is wrong.  `watch` keeps printing events until the
 * daemon closes the connection or the user interrupts.  `--help` lists the commands and line
 * editing completes them from the command table the daemon dispatches through (control/protocol.h).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "base/log.h"
#include "control/json.h"
#include "control/protocol.h"
#include "cli/cli.h"
#include "config/config.h"
#include "net/ctlclient.h"
#include "host/probe.h"
#include "net/tlscert.h"

#define REPLY_TIMEOUT_MS 15000

/* One request; its reply printed by print(); the exit status. */
static int one(struct ctlclient *c, const char *request, void (*print)(const char *reply))
{
	const char *line;
	int rc;

	if (ctlclient_send(c, request)) {
		log_error(LOG_MAIN, "the daemon went away: %s", strerror(errno));
		return 2;
	}
	if (ctlclient_read(c, &line, REPLY_TIMEOUT_MS) <= 0) {
		log_error(LOG_MAIN, "no reply from the daemon");
		return 2;
	}
	print(line);
	rc = ctlclient_reply_ok(line) ? 0 : 1;
	if (rc == 0 && !strncmp(request, "watch", 5) && (!request[5] || request[5] == ' ')) {
		/* Events until the daemon closes the connection or the user interrupts. */
		while (ctlclient_read(c, &line, -1) > 0) {
			puts(line);
			fflush(stdout);
		}
	}
	return rc;
}

static void print_raw(const char *reply)
{
	puts(reply);
	fflush(stdout);
}

/* ------------------------------------------------------------------ the table */

void cli_control_usage(FILE *f)
{
	fprintf(f, "usage: annabella control [--socket PATH] [COMMAND ARGS...]\n");
}

void cli_status_usage(FILE *f)
{
	fprintf(f, "usage: annabella status [--socket PATH] [--config FILE]\n");
}

/* The commands, for a person: usage, who may give them, what they need of the game. */
static void print_commands(FILE *f)
{
	const struct control_command *c;

	fprintf(f, "commands:\n");
	for (int i = 0; (c = control_command_at(i)); i++) {
		const struct game_command_needs *need = game_command_needs(c->kind);
		bool first = true;

		fprintf(f, "  %-52s %s", c->usage, c->roles == CONTROL_ARBITER ? "arbiter" : "any");
		for (int n = 0; n < GAME_NEED_COUNT; n++) {
			static const char *const needs[GAME_NEED_COUNT] = {
			    "the game on", "the game not over", "a clock",
			    "the result not approved"};

			if (!(need->needs & (1u << n)))
				continue;
			fprintf(f, "%s%s", first ? "; needs " : ", ", needs[n]);
			first = false;
		}
		if (need->modes != GAME_MODES_ALL) {
			bool any = false;

			fprintf(f, "; ");
			for (int m = 0; m < GAME_MODE_COUNT; m++) {
				if (!(need->modes & GAME_MODE_BIT(m)))
					continue;
				fprintf(f, "%s%s", any ? " and " : "",
					game_mode_name((enum game_mode)m));
				any = true;
			}
			fprintf(f, " mode only");
		}
		fprintf(f, "\n");
	}
}

/* Completion: the first word from the table's names, the second from the words its rows
 * take first (their `sub` and `words`). */
static char completion_name[64];

static char *complete_word(const char *text, int state)
{
	static int row, at;
	static const char *list;
	size_t len = strlen(text);
	const struct control_command *c;

	if (!state) {
		row = 0;
		at = 0;
		list = NULL;
	}
	for (;;) {
		if (!completion_name[0]) {
			/* Command names, each once. */
			while ((c = control_command_at(row++))) {
				const struct control_command *prev = control_command_at(row - 2);

				if (prev && !strcmp(prev->name, c->name))
					continue;
				if (!strncmp(c->name, text, len))
					return strdup(c->name);
			}
			return NULL;
		}
		while (list && *list) {
			size_t n = strcspn(list, " |");
			const char *word = list;

			list += n;
			while (*list == ' ' || *list == '|')
				list++;
			if (n >= len && !strncmp(word, text, len))
				return strndup(word, n);
		}
		/* The next list: a row's `sub`, then its `words`. */
		c = control_command_at(row);
		if (!c)
			return NULL;
		if (strcmp(c->name, completion_name)) {
			row++;
			at = 0;
			continue;
		}
		list = at == 0 ? c->sub : c->words;
		if (++at == 2) {
			at = 0;
			row++;
		}
	}
}

static char **complete(const char *text, int start, int end)
{
	const char *p = rl_line_buffer, *stop = rl_line_buffer + start;
	int words = 0;

	(void)end;
	rl_attempted_completion_over = 1;
	completion_name[0] = '\0';
	/* The words before the one being completed: none (a command) or its name (its first
	 * argument); later arguments are not completed. */
	for (;;) {
		size_t n;

		while (p < stop && *p == ' ')
			p++;
		if (p >= stop)
			break;
		n = strcspn(p, " ");
		if (words++ == 0)
			snprintf(completion_name, sizeof(completion_name), "%.*s",
				 (int)(n < 63 ? n : 63), p);
		p += n;
	}
	if (words > 1)
		return NULL;
	return rl_completion_matches(text, complete_word);
}

/* ------------------------------------------------------------------ interactive */

static struct ctlclient *interactive_conn;
static const char *interactive_path;
static bool interactive_spoke; /* a line was sent on this connection */
static int interactive_status;

static void interactive_line(char *line)
{
	if (!line) {
		rl_callback_handler_remove();
		interactive_status = -1;
		return;
	}
	if (*line) {
		char err[256];

		add_history(line);
		/* The daemon closes a connection that says nothing for 10 s: the first line
		 * typed after that connects again. */
		if (!interactive_conn)
			interactive_conn = ctlclient_connect(interactive_path, err, sizeof(err));
		if (!interactive_conn) {
			log_error(LOG_MAIN, "%s", err);
			interactive_status = 2;
		} else if (ctlclient_send(interactive_conn, line)) {
			log_error(LOG_MAIN, "the daemon went away");
			interactive_status = 2;
		} else {
			interactive_spoke = true;
		}
	}
	free(line);
}

static int interactive_tty(struct ctlclient **cp, const char *path)
{
	interactive_conn = *cp;
	interactive_path = path;
	interactive_spoke = false;
	interactive_status = 0;
	rl_attempted_completion_function = complete;
	rl_callback_handler_install("annabella> ", interactive_line);
	while (interactive_status == 0) {
		struct pollfd pfd[2] = {
		    {.fd = 0, .events = POLLIN},
		    {.fd = interactive_conn ? ctlclient_fd(interactive_conn) : -1,
		     .events = POLLIN}};
		const char *line;
		int r;

		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & (POLLIN | POLLHUP))
			rl_callback_read_char();
		if (!interactive_conn || !(pfd[1].revents & (POLLIN | POLLHUP)))
			continue;
		/* Replies and events are printed above the prompt being typed. */
		while ((r = ctlclient_read(interactive_conn, &line, 0)) > 0) {
			int point = rl_point;
			char *saved = rl_copy_text(0, rl_end);

			rl_set_prompt("");
			rl_replace_line("", 0);
			rl_redisplay();
			printf("%s\n", line);
			rl_set_prompt("annabella> ");
			rl_replace_line(saved, 0);
			rl_point = point;
			rl_redisplay();
			free(saved);
		}
		if (r != 0 && errno == ETIMEDOUT)
			continue;
		if (!interactive_spoke) {
			/* Closed before anything was said (a silent connection): connected again
			 * when a line is typed. */
			ctlclient_close(interactive_conn);
			interactive_conn = NULL;
			continue;
		}
		fputc('\n', stderr); /* off the prompt's line */
		log_error(LOG_MAIN, "the daemon closed the connection");
		interactive_status = 2;
	}
	rl_callback_handler_remove();
	*cp = interactive_conn;
	return interactive_status > 0 ? interactive_status : 0;
}

/* Requests from a pipe: each reply printed; the status is 1 if any reply was an error. */
static int interactive_pipe(struct ctlclient *c)
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

/* The machine now, for the arbiter's check before a round (annabella seal judges it). */
static void network_print(void)
{
	struct fairplay_item items[FAIRPLAY_ITEM_COUNT];
	struct fairplay_policy policy;
	struct fairplay_state s;
	struct probe_config p;

	probe_config_defaults(&p);
	p.files = false;
	probe_measure(&p, &s);
	fairplay_policy_defaults(&policy);
	fairplay_judge(&policy, &s, items);
	printf("Network: %s\n", items[FAIRPLAY_ITEM_NETWORK].what);
	printf("Radios: %s\n", items[FAIRPLAY_ITEM_RADIOS].what);
}

static void print_ms(const char *label, const char *ms_text, bool running)
{
	long long ms = atoll(ms_text);
	long long s = ms > 0 ? ms / 1000 : 0;

	printf("%s %lld:%02lld:%02lld%s", label, s / 3600, s / 60 % 60, s % 60,
	       running ? " (running)" : "");
}

/* The value of key into buf when the reply gives one (there, not empty, not null). */
static bool given(const char *json, const char *key, char *buf, size_t size)
{
	return json_get(json, key, buf, size) > 0 && strcmp(buf, "null");
}

/* Game ID, plies, who moves, the tactile player's colour, mode and Laws. */
static void print_game(const char *reply, const char *id)
{
	char sub[1024];

	printf("Game %s", id);
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
}

static void print_clock(const char *reply)
{
	char v[4096], sub[1024], w[64], b[64], run[16];

	if (!given(reply, "clock", v, sizeof(v))) {
		printf("Clock: none\n");
		return;
	}
	json_get(v, "white_ms", w, sizeof(w));
	json_get(v, "black_ms", b, sizeof(b));
	if (json_get(v, "running", run, sizeof(run)) < 0)
		run[0] = '\0';
	print_ms("Clock: White", w, !strcmp(run, "white"));
	print_ms(", Black", b, !strcmp(run, "black"));
	json_get(v, "state", sub, sizeof(sub));
	printf("; %s", sub);
	/* Who stopped clocks that stand (6.11.3: in a tournament the arbiter starts them). */
	if (given(v, "stopped_by", run, sizeof(run))) {
		printf(", stopped by %s", run);
		if (json_get(v, "stopped_by_author", w, sizeof(w)) > 0 && strcmp(w, run) &&
		    strcmp(w, "-"))
			printf(" (%s)", w);
	}
	printf("\n");
}

/* The last move, the flows open, a draw offer and a claim. */
static void print_play(const char *reply)
{
	char v[4096], sub[1024];

	if (given(reply, "last_move", v, sizeof(v))) {
		json_get(v, "san", sub, sizeof(sub));
		printf("Last move: %s", sub);
		if (given(v, "words", sub, sizeof(sub)))
			printf(" (%s)", sub);
		printf("\n");
	}
	if (json_get(reply, "flows", v, sizeof(v)) > 0) {
		bool any = false;

		if (given(v, "promotion", sub, sizeof(sub))) {
			printf("Open: promotion %s\n", sub);
			any = true;
		}
		if (given(v, "mismatch", sub, sizeof(sub))) {
			printf("Open: the board does not match the game %s\n", sub);
			any = true;
		}
		if (!any)
			printf("Open: nothing\n");
	}
	if (given(reply, "draw_offer", sub, sizeof(sub)))
		printf("Draw offer by %s stands\n", sub);
	if (given(reply, "claim", v, sizeof(v)))
		printf("Claim: %s\n", v);
}

/* Training (docs/training.md "Training and study"): in a tournament, that no engine is
 * connected is what the arbiter checks.  Online play (docs/online.md "Playing online"): the
 * online process, and what the server shows. */
static void print_engine_online(const char *reply)
{
	char v[4096], sub[1024];

	if (given(reply, "engine", v, sizeof(v))) {
		json_get(v, "state", sub, sizeof(sub));
		if (!strcmp(sub, "playing")) {
			json_get(v, "name", sub, sizeof(sub));
			printf("Engine: %s", sub);
			json_get(v, "plays", sub, sizeof(sub));
			printf(" plays %s (annabella train)\n", sub);
		} else {
			printf("Engine: a training process waits for the button menu\n");
		}
	} else {
		printf("Engine: none connected\n");
	}
	if (given(reply, "online", v, sizeof(v))) {
		json_get(v, "state", sub, sizeof(sub));
		printf("Online: %s", !strcmp(sub, "waiting")
					 ? "annabella online waits for the button menu"
					 : "annabella online is connected");
		if (json_get(v, "offers", sub, sizeof(sub)) > 0 && sub[0])
			printf("; offers on the server: %s", sub);
		if (json_get(v, "opponent_gone", sub, sizeof(sub)) > 0 && !strcmp(sub, "true"))
			printf("; the opponent left");
		printf("\n");
	}
}

/* A review in progress and the game's result. */
static void print_review_result(const char *reply)
{
	char v[4096], sub[1024];

	if (given(reply, "review", v, sizeof(v))) {
		char at[16], plies[16];

		json_get(v, "state", sub, sizeof(sub));
		json_get(v, "at", at, sizeof(at));
		json_get(v, "plies", plies, sizeof(plies));
		printf("Review: %s, at ply %s of %s\n", sub, at, plies);
	}
	if (json_get(reply, "result", v, sizeof(v)) > 0) {
		json_get(v, "result", sub, sizeof(sub));
		printf("Result: %s", sub);
		json_get(v, "state", sub, sizeof(sub));
		printf(" (%s", sub);
		if (json_get(v, "reason", sub, sizeof(sub)) > 0 && sub[0])
			printf(": %s", sub);
		printf(")\n");
	}
}

/* The device's power, for the arbiter's check before the round. */
static void print_power(const char *reply)
{
	char v[4096], sub[1024], w[64], b[64], run[16];

	if (!given(reply, "power", v, sizeof(v)))
		return;
	json_get(v, "state", sub, sizeof(sub));
	printf("Power: %s", sub);
	if (given(v, "battery", w, sizeof(w))) {
		json_get(w, "status", b, sizeof(b));
		printf("; battery %s", b);
		if (given(w, "percent", run, sizeof(run)))
			printf(", %s %%", run);
		if (given(w, "minutes_left", run, sizeof(run)))
			printf(", %s min left", run);
	}
	printf("\n");
}

static void print_status(const char *reply)
{
	char v[4096];

	if (!ctlclient_reply_ok(reply)) {
		json_get(reply, "error", v, sizeof(v));
		printf("error: %s\n", v);
		return;
	}
	if (json_get(reply, "game", v, sizeof(v)) < 0 || !strcmp(v, "null")) {
		printf("No game.\n");
		return;
	}
	print_game(reply, v);
	print_clock(reply);
	print_play(reply);
	print_engine_online(reply);
	print_review_result(reply);
	print_power(reply);
	/* The device's fair-play state over the game, as the daemon journaled it (the
	 * arbiter's), then the machine as it is now (11.3.2). */
	if (given(reply, "fairplay", v, sizeof(v))) {
		char sub[1024];

		json_get(v, "summary", sub, sizeof(sub));
		printf("Fair play: %s\n", sub);
	}
	network_print();
}

/*
 * The web page's certificate, whose fingerprint the arbiter compares once with what the
 * browser shows (docs/web.md "The web page for the assistant and the arbiter"): from the
 * configuration's [web] certificate, else the one made at install; a page that is on without
 * TLS is said to be.
 */
static void print_web(const char *config)
{
	struct config *cfg = calloc(1, sizeof(*cfg));
	char err[512], fp[TLS_FINGERPRINT_MAX], path[300];

	if (!cfg)
		return;
	config_defaults(cfg);
	if (config_load(cfg, config, err, sizeof(err)))
		config_defaults(cfg); /* unreadable here: what the package makes */
	snprintf(path, sizeof(path), "%s",
		 cfg->web_certificate[0] ? cfg->web_certificate : TLS_CERT_DIR "/" TLS_CERT_FILE);
	if (!tls_cert_fingerprint(path, fp, sizeof(fp), err, sizeof(err)))
		printf("Web page: certificate SHA-256 %s (%s)\n", fp, path);
	else if (cfg->web_listen[0])
		printf("Web page: on %s without TLS: PINs cross the network in clear\n",
		       cfg->web_listen);
	free(cfg);
}

/* ------------------------------------------------------------------ entry points */

static int run(int argc, char **argv, bool status)
{
	const char *path = CTLCLIENT_DEFAULT_SOCKET, *config = CONFIG_DEFAULT_PATH;
	char request[CONTROL_LINE_MAX + 1] = "";
	size_t len = 0;
	struct ctlclient *c;
	char err[256];
	int i = 0, rc;

	if (argc >= 2 && !strcmp(argv[0], "--socket")) {
		path = argv[1];
		i = 2;
	} else if (argc >= 1 && !strncmp(argv[0], "--socket=", 9)) {
		path = argv[0] + 9;
		i = 1;
	}
	if (status && i + 2 == argc && !strcmp(argv[i], "--config")) {
		config = argv[i + 1];
		i += 2;
	}
	if (status && i < argc) {
		cli_status_usage(stderr);
		return 2;
	}
	/* Before the command only: what follows it is the protocol's. */
	if (!status && i < argc && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))) {
		cli_control_usage(stdout);
		print_commands(stdout);
		return 0;
	}
	for (; i < argc; i++) {
		int n =
		    snprintf(request + len, sizeof(request) - len, "%s%s", len ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= sizeof(request) - len) {
			log_error(LOG_MAIN, "request longer than %d bytes", CONTROL_LINE_MAX);
			return 2;
		}
		len += (size_t)n;
	}
	c = ctlclient_connect(path, err, sizeof(err));
	if (!c) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (status) {
		rc = one(c, "status", print_status);
		print_web(config);
	} else if (len)
		rc = one(c, request, print_raw);
	else if (isatty(0))
		rc = interactive_tty(&c, path);
	else
		rc = interactive_pipe(c);
	ctlclient_close(c);
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
