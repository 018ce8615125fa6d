/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella train --engine PATH [--side white|black] [--level 0..20 | --elo N]
 *                 [--movetime MS] [--hint-movetime MS] [--fen FEN | --wait] [--socket PATH]
 *                 [--config FILE]
 *
 * The training process (docs/training.md "Training and study"): a client of the control socket,
 * like the web page, that plays one side of a casual game with a UCI engine run as its own child
 * (daemon/uci.h); the daemon never runs one.  On its one connection it follows `watch`, says
 * `engine on`, gives the engine's move as a relayed `move` (the daemon announces it, presses the
 * engine's clock once the announcement has been heard, and guides the player square by square
 * to make it on the board) and answers the player's hints (`engine hint`).  A second
 * connection asks `status` and `moves`.
 *
 * It also answers the player's draw offer (`engine draw`, accepted when its evaluation at full
 * strength is level or worse for it) and evaluation (`engine eval`), and with --fen begins the
 * game at a position (`new-game`).  An engine that is missing, dies, hangs past its time or
 * answers what is no legal move is said to the player privately (`engine off REASON`; the
 * daemon stops the clocks); the game stays as it was and train exits 1 with the reason.  It
 * exits 0 when the game it played is over and its result approved, or on SIGINT/SIGTERM; with
 * --wait it waits for the button menu's training entry instead, after a game waits again,
 * and after its engine failed starts it again at the next request.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/trace.h"
#include "base/log.h"
#include "control/json.h"
#include "control/protocol.h"
#include "cli/cli.h"
#include "cli/cli_train_int.h"
#include "config/config.h"
#include "net/ctlclient.h"
#include "cli/uci.h"

#define REPLY_TIMEOUT_MS 5000

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

/* A line for the person who started it (stdout, not a log line). */
void tr_say(const char *fmt, ...)
{
	va_list ap;

	printf("train: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int64_t tr_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------ the daemon */

static bool is_reply(const char *line)
{
	char v[8];

	return json_get(line, "ok", v, sizeof(v)) >= 0;
}

/* A request on the training process's connection: its reply into reply[size]; events that
 * come first wait in the queue.  0, or -1 when the daemon is gone or silent. */
int tr_ev_request(struct train *t, const char *request, char *reply, size_t size)
{
	int64_t deadline = tr_now_ms() + REPLY_TIMEOUT_MS;
	const char *line;

	if (ctlclient_send(t->ev, request))
		return -1;
	for (;;) {
		int64_t left = deadline - tr_now_ms();

		if (left <= 0 || ctlclient_read(t->ev, &line, (int)left) <= 0)
			return -1;
		if (is_reply(line)) {
			snprintf(reply, size, "%s", line);
			return 0;
		}
		if (t->q_count < QUEUE_MAX) {
			char *copy = strdup(line);

			if (copy)
				t->queue[(t->q_head + t->q_count++) % QUEUE_MAX] = copy;
		}
	}
}

/* The next event: a queued one, or what arrives within timeout_ms.  1 with *line (malloc'd),
 * 0 on timeout, -1 when the daemon closed the connection. */
static int next_event(struct train *t, char **line, int timeout_ms)
{
	const char *got;
	int rc;

	if (t->q_count) {
		*line = t->queue[t->q_head];
		t->q_head = (t->q_head + 1) % QUEUE_MAX;
		t->q_count--;
		return 1;
	}
	rc = ctlclient_read(t->ev, &got, timeout_ms);
	if (rc < 0 && errno == ETIMEDOUT)
		return 0;
	if (rc <= 0)
		return -1;
	*line = strdup(got);
	return *line ? 1 : -1;
}

/* A request on the second connection, into buf. */
int tr_ask(struct train *t, const char *request, char *buf, size_t size)
{
	const char *line;

	if (ctlclient_send(t->req, request) || ctlclient_read(t->req, &line, REPLY_TIMEOUT_MS) <= 0)
		return -1;
	snprintf(buf, size, "%s", line);
	return 0;
}

void tr_field(const char *json, const char *key, char *buf, size_t size)
{
	if (json_get(json, key, buf, size) < 0)
		buf[0] = '\0';
}

/* ------------------------------------------------------------------ the run */

void cli_train_usage(FILE *f)
{
	fprintf(f,
		"usage: annabella train --engine PATH [--side white|black] "
		"[--level 0..20 | --elo N]\n"
		"                       [--movetime MS] [--hint-movetime MS] [--fen FEN | --wait] "
		"[--socket PATH] [--config FILE]\n");
}

static int usage(void)
{
	cli_train_usage(stderr);
	return 2;
}

static int number(const char *opt, const char *text, long min, long max, int *out)
{
	char *end;
	long v = strtol(text, &end, 10);

	if (!*text || *end || v < min || v > max) {
		log_error(LOG_MAIN, "%s takes %ld..%ld, not '%s'", opt, min, max, text);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* The configuration's settings (its file, --config, read before the options that change
 * them): 0, or -1. */
static int settings(struct train *t, int argc, char **argv, struct config *cfg)
{
	const char *config_path = NULL;

	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config_path = argv[i + 1];
	config_defaults(cfg);
	if (config_path) {
		char err[512];

		if (config_load(cfg, config_path, err, sizeof(err))) {
			log_error(LOG_MAIN, "%s", err);
			return -1;
		}
	}
	t->socket = cfg->control_socket[0] ? cfg->control_socket : CTLCLIENT_DEFAULT_SOCKET;
	t->engine_path = cfg->train_engine[0] ? cfg->train_engine : NULL;
	t->level = cfg->train_level;
	t->elo = cfg->train_elo;
	t->movetime = cfg->train_movetime_ms;
	t->hint_movetime = 1000;
	t->side = -1;
	return 0;
}

static int options(struct train *t, int argc, char **argv, struct config *cfg)
{
	bool level_given = false, elo_given = false, movetime_given = false;

	if (settings(t, argc, argv, cfg))
		return -1;
	for (int i = 0; i < argc; i++) {
		const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--wait")) {
			t->wait = true;
			continue;
		}
		if (!arg)
			return -1;
		i++;
		if (!strcmp(opt, "--engine")) {
			t->engine_path = arg;
		} else if (!strcmp(opt, "--side")) {
			t->side = game_color_parse(arg);
			if (t->side < 0) {
				log_error(LOG_MAIN, "--side white or black");
				return -1;
			}
		} else if (!strcmp(opt, "--level")) {
			if (number(opt, arg, 0, 20, &t->level))
				return -1;
			level_given = true;
		} else if (!strcmp(opt, "--elo")) {
			if (number(opt, arg, 100, 4000, &t->elo))
				return -1;
			elo_given = true;
		} else if (!strcmp(opt, "--movetime")) {
			if (number(opt, arg, 10, 600000, &t->movetime))
				return -1;
			movetime_given = true;
		} else if (!strcmp(opt, "--hint-movetime")) {
			if (number(opt, arg, 10, 600000, &t->hint_movetime))
				return -1;
		} else if (!strcmp(opt, "--socket")) {
			t->socket = arg;
		} else if (!strcmp(opt, "--fen")) {
			t->fen = arg;
		} else if (!strcmp(opt, "--config")) {
			/* read above */
		} else {
			log_error(LOG_MAIN, "unknown option %s", opt);
			return -1;
		}
	}
	(void)movetime_given;
	if (level_given && elo_given) {
		log_error(LOG_MAIN, "--level or --elo, not both");
		return -1;
	}
	if (level_given)
		t->elo = 0;
	if (elo_given)
		t->level = -1;
	if (!t->engine_path) {
		log_error(LOG_MAIN, "--engine PATH (or [training] engine) is needed");
		return -1;
	}
	if (t->fen && t->wait) {
		log_error(LOG_MAIN, "--fen begins one game: not with --wait");
		return -1;
	}
	return 0;
}

/* One connection watching: the training process's. */
static int connect_daemon(struct train *t)
{
	char err[256], reply[512];

	t->ev = ctlclient_connect(t->socket, err, sizeof(err));
	t->req = t->ev ? ctlclient_connect(t->socket, err, sizeof(err)) : NULL;
	if (!t->req) {
		log_error(LOG_MAIN, "%s", err);
		return -1;
	}
	if (tr_ev_request(t, "watch", reply, sizeof(reply)) || !ctlclient_reply_ok(reply)) {
		log_error(LOG_MAIN, "the daemon refuses watch: %s", reply);
		return -1;
	}
	return 0;
}

/* The events until the game it plays is over; 0 at its end, else the exit status. */
static int follow(struct train *t)
{
	int status = 0, rc;

	if ((rc = tr_play(t, &status)) != 0)
		return rc < 0 ? status : 0;
	while (!stopping) {
		char *line = NULL, event[32];
		bool look = false;

		rc = next_event(t, &line, 500);
		if (rc < 0) {
			log_error(LOG_MAIN, "the daemon closed the connection");
			return 1;
		}
		/* Every event of a burst first, then one look at the game. */
		while (rc > 0) {
			tr_field(line, "event", event, sizeof(event));
			if (!strcmp(event, "press"))
				trace_at(0, "train-press", "%s", event);
			if (!strcmp(event, "hint-request") || !strcmp(event, "draw-request") ||
			    !strcmp(event, "eval-request")) {
				if (tr_answer(t, line, event, &status)) {
					free(line);
					return status ? status : 1;
				}
			} else if (strcmp(event, "say")) {
				look = true;
			}
			if (!strcmp(event, "result")) {
				char res[16], reason[128];

				tr_field(line, "result", res, sizeof(res));
				tr_field(line, "reason", reason, sizeof(reason));
				tr_say("game over: %s (%s)", res, reason);
			}
			free(line);
			line = NULL;
			rc = next_event(t, &line, 0);
			if (rc < 0) {
				log_error(LOG_MAIN, "the daemon closed the connection");
				return 1;
			}
		}
		if (look && (rc = tr_play(t, &status)) != 0)
			return rc < 0 ? status : 0;
	}
	return 0;
}

/* --fen: the game the engine plays begins there (new-game; its board guided). */
static int begin_at(struct train *t)
{
	char line[CONTROL_LINE_MAX], reply[1024], msg[512];

	snprintf(line, sizeof(line), "new-game %s", t->fen);
	if (tr_ev_request(t, line, reply, sizeof(reply))) {
		log_error(LOG_MAIN, "the daemon did not answer new-game");
		return -1;
	}
	tr_field(reply, ctlclient_reply_ok(reply) ? "text" : "error", msg, sizeof(msg));
	if (!ctlclient_reply_ok(reply)) {
		log_error(LOG_MAIN, "the daemon refuses the position: %s", msg);
		return -1;
	}
	tr_say("%s", msg);
	return 0;
}

/* --wait: the button menu's training entry asks it to play. */
static int wait_for_request(struct train *t, int *side)
{
	char reply[512];

	if (tr_ev_request(t, "engine wait", reply, sizeof(reply))) {
		log_error(LOG_MAIN, "the daemon did not answer engine wait");
		return -1;
	}
	if (!ctlclient_reply_ok(reply)) {
		char msg[512];

		tr_field(reply, "error", msg, sizeof(msg));
		log_error(LOG_MAIN, "the daemon refuses: %s", msg[0] ? msg : reply);
		return -1;
	}
	tr_say("waiting for the button menu's training entry");
	while (!stopping) {
		char *line = NULL, event[32], v[16];
		int rc = next_event(t, &line, 500);

		if (rc < 0) {
			log_error(LOG_MAIN, "the daemon closed the connection");
			return -1;
		}
		if (rc == 0)
			continue;
		tr_field(line, "event", event, sizeof(event));
		tr_field(line, "side", v, sizeof(v));
		free(line);
		if (!strcmp(event, "train-request")) {
			*side = game_color_parse(v);
			return 0;
		}
	}
	return -1;
}

int cli_train(int argc, char **argv)
{
	struct train *t = calloc(1, sizeof(*t));
	struct config cfg;
	char reply[512];
	int status = 0;

	if (!t)
		return 1;
	t->plays = -1;
	if (options(t, argc, argv, &cfg)) {
		free(t);
		return usage();
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	trace_open_from_env();
	if (connect_daemon(t)) {
		status = 1;
		goto out;
	}
	if (t->fen && begin_at(t)) {
		status = 1;
		goto out;
	}
	do {
		int side = t->side;

		if (t->wait && wait_for_request(t, &side)) {
			status = stopping ? 0 : 1;
			break;
		}
		/* Started when it is wanted, and again after it failed (the player heard it). */
		if (!t->e && tr_start_engine(t, &status))
			goto lost;
		if (tr_engine_on(t, side, &status))
			goto lost;
		status = follow(t);
		if (!status && !stopping)
			tr_say("the game is over");
	lost:
		if (!t->engine_lost || !t->wait)
			break;
		/* --wait: the engine is started again for the menu's next request. */
		tr_say("the engine failed; waiting again for the button menu");
		uci_stop(t->e);
		t->e = NULL;
		t->engine_lost = false;
		status = 0;
	} while (t->wait && !stopping);
	if (status == 0 && t->ev && tr_ev_request(t, "engine off", reply, sizeof(reply)) == 0)
		tr_say(stopping ? "stopped by a signal: the game goes on without the engine"
				: "stopped");
out:
	uci_stop(t->e);
	ctlclient_close(t->ev);
	ctlclient_close(t->req);
	while (t->q_count) {
		free(t->queue[t->q_head]);
		t->q_head = (t->q_head + 1) % QUEUE_MAX;
		t->q_count--;
	}
	free(t);
	trace_close();
	return status;
}
