/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella online [--seek | --accept FRIEND | --challenge FRIEND] [--time-control S+I]
 *                  [--rated | --casual] [--color white|black|random] [--wait]
 *                  [--socket PATH] [--config FILE]
 *
 * Online play (docs/online.md "Playing online"): the tactile player's game on lichess through its
 * Board API, as training is built (docs/training.md "Training and study"): a separate process and a
 * client of the control socket; the daemon opens no network socket.  It speaks HTTPS with
 * Debian's libcurl (cli/lichess.c) and reads the server's NDJSON streams (cli/lichess_msg.c):
 * the account's events (a game begun, a challenge), the game's state, a seek or a challenge
 * kept open.  On its own connection to the daemon it follows `watch` and says `online on`
 * (or `online wait`: the button menu's entry starts a game); a second connection asks
 * `moves` and `status`.
 *
 * The server's game wins.  Each state the game's stream brings is reconciled with the
 * device's game: the plies the device has beyond the server's are taken back (a takeback
 * both agreed to, a move the server refused: the player is guided back), the server's further
 * plies are given as `online move` (announced, pressed, guided square by square), its clocks
 * as `online clock`, its offers, the opponent gone and its end.  The player's move is sent
 * when their press completes it, once: a second request for a ply is made only after a fresh
 * full state shows the server does not have it and no request for it is under way.
 *
 * Failures are said privately and lose nothing: the connection lost (streams started again
 * with a growing pause; the game's first line, its whole state, sets the device right), the
 * token refused (the message names its file; online play ends), HTTP 429 (a full minute
 * without a request, as lichess asks), a move refused, the opponent aborting, the server
 * down at the start.  The token is read from its file (which only its owner may read) into
 * this process alone: it reaches no log, no status, no page, no broadcast, no scoresheet.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "base/trace.h"
#include "cli/cli.h"
#include "cli/cli_online_int.h"
#include "cli/lichess.h"
#include "cli/lichess_msg.h"
#include "config/config.h"
#include "control/json.h"
#include "control/protocol.h"
#include "game/online.h"
#include "net/ctlclient.h"

volatile sig_atomic_t ol_stopping;

static void on_signal(int sig)
{
	(void)sig;
	ol_stopping = 1;
}

int64_t ol_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A line for the person who started it (stdout, not a log line). */
void ol_tell(const char *fmt, ...)
{
	va_list ap;

	printf("online: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* ------------------------------------------------------------------ the daemon */

static bool is_reply(const char *line)
{
	char v[8];

	return json_get(line, "ok", v, sizeof(v)) >= 0;
}

/* A request on the online process's connection: its reply into o->reply; events that come
 * first wait in the queue.  0 when it was answered ok, 1 when it was refused, -1 when the
 * daemon is gone or silent. */
static int ev_request(struct online *o, const char *request)
{
	int64_t deadline = ol_now_ms() + REPLY_TIMEOUT_MS;
	const char *line;

	if (ctlclient_send(o->ev, request))
		return -1;
	for (;;) {
		int64_t left = deadline - ol_now_ms();

		if (left <= 0 || ctlclient_read(o->ev, &line, (int)left) <= 0)
			return -1;
		if (is_reply(line)) {
			snprintf(o->reply, sizeof(o->reply), "%s", line);
			return ctlclient_reply_ok(line) ? 0 : 1;
		}
		if (o->q_count < QUEUE_MAX)
			snprintf(o->queue[(o->q_head + o->q_count++) % QUEUE_MAX], QUEUE_LINE_MAX,
				 "%s", line);
	}
}

/* What the server says of its game, given to the daemon; a refusal logged. */
int ol_tell_daemon(struct online *o, const char *fmt, ...)
{
	char line[CONTROL_LINE_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	rc = ev_request(o, line);
	if (rc < 0) {
		log_error(LOG_MAIN, "the daemon did not answer '%.40s'", line);
		o->status = 1;
		o->daemon_gone = true;
		ol_stopping = 1;
	} else if (rc > 0) {
		char why[512];

		if (json_get(o->reply, "error", why, sizeof(why)) < 0)
			snprintf(why, sizeof(why), "%.200s", o->reply);
		log_warn(LOG_MAIN, "the daemon refuses '%.60s': %s", line, why);
	}
	return rc;
}

void ol_news(struct online *o, enum game_online_news n)
{
	ol_tell_daemon(o, "online say %s", game_online_news_name(n));
}

/* The next event: a queued one, or one that has come (never waiting). */
static const char *next_event(struct online *o, bool *closed)
{
	static char line[QUEUE_LINE_MAX];
	const char *got;
	int rc;

	if (o->q_count) {
		snprintf(line, sizeof(line), "%s", o->queue[o->q_head]);
		o->q_head = (o->q_head + 1) % QUEUE_MAX;
		o->q_count--;
		return line;
	}
	rc = ctlclient_read(o->ev, &got, 0);
	if (rc == 0 || (rc < 0 && errno != ETIMEDOUT))
		*closed = true;
	if (rc <= 0)
		return NULL;
	/* Copied: what handles it may read the connection again. */
	snprintf(line, sizeof(line), "%s", got);
	return line;
}

/* A request on the second connection, its reply into o->reply: 0, or -1. */
int ol_ask(struct online *o, const char *request)
{
	const char *line;

	if (ctlclient_send(o->req, request) || ctlclient_read(o->req, &line, REPLY_TIMEOUT_MS) <= 0)
		return -1;
	snprintf(o->reply, sizeof(o->reply), "%s", line);
	return 0;
}

int ol_device_moves(struct online *o, struct device_game *d)
{
	const char *at;

	d->plies = 0;
	if (ol_ask(o, "moves") || !ctlclient_reply_ok(o->reply))
		return -1;
	for (at = strstr(o->reply, "{\"ply\":"); at && d->plies < GAME_MAX_PLIES;
	     at = strstr(at + 1, "{\"ply\":")) {
		const char *end = strchr(at, '}'), *u = strstr(at, "\"uci\":\""),
			   *c = strstr(at, "\"clk_ms\":");

		if (!end || !u || u > end)
			return -1;
		snprintf(d->uci[d->plies], sizeof(d->uci[0]), "%.*s", (int)strcspn(u + 7, "\""),
			 u + 7);
		d->complete[d->plies] = c && c < end && c[9] != 'n';
		d->plies++;
	}
	return d->plies;
}

/* ------------------------------------------------------------------ requests */

/* A request may be made now (not within lichess's minute after a 429). */
bool ol_may_request(const struct online *o)
{
	return ol_now_ms() >= o->rate_until;
}

/* What a failed transfer means for all of online play: the token refused (it ends), or
 * too many requests (a minute's pause).  True when it was one of them. */
bool ol_general_failure(struct online *o, const struct lichess_result *r)
{
	if (r->status == 401) {
		char why[256];

		lichess_error_text(r->body, why, sizeof(why));
		log_error(LOG_MAIN,
			  "%s refused the token in %s (HTTP 401%s%s): it is invalid or expired; "
			  "make a new personal API token with the board:play scope at "
			  "%s/account/oauth/token and put it in that file",
			  o->cfg.server, o->token_file, why[0] ? ": " : "", why, o->cfg.server);
		ol_news(o, ONLINE_NEWS_TOKEN_INVALID);
		o->status = 1;
		ol_stopping = 1;
		return true;
	}
	if (r->status == 429) {
		log_warn(LOG_MAIN, "%s asks for a pause (HTTP 429): no request for a minute",
			 o->cfg.server);
		if (ol_now_ms() >= o->rate_until)
			ol_news(o, ONLINE_NEWS_RATE_LIMITED);
		o->rate_until = ol_now_ms() + RATE_WAIT_MS;
		return true;
	}
	return false;
}

/* The streams are lost: said once, and started again with a growing pause. */
void ol_connection_lost(struct online *o, const char *what, const struct lichess_result *r)
{
	log_warn(LOG_MAIN, "%s: %s%s (HTTP %ld); starting again in %d s", what, r->error,
		 r->error[0] ? "" : "closed", r->status, o->backoff_ms / 1000);
	if (!o->outage_said) {
		o->outage_said = true;
		ol_news(o, ONLINE_NEWS_CONNECTION_LOST);
	}
}

int64_t ol_next_backoff(struct online *o)
{
	int64_t at = ol_now_ms() + o->backoff_ms;

	o->backoff_ms = o->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : o->backoff_ms * 2;
	if (at < o->rate_until)
		at = o->rate_until;
	return at;
}

/* A request about the game (a draw, a resignation, ...): refused said to the player. */
static void on_game_request_done(void *user, struct lichess_transfer *t,
				 const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	if (r->status == 200 || ol_general_failure(o, r))
		return;
	if (r->status >= 400) {
		char why[256];

		lichess_error_text(r->body, why, sizeof(why));
		log_warn(LOG_MAIN, "%s refused a request (HTTP %ld): %s", o->cfg.server, r->status,
			 why);
		ol_news(o, ONLINE_NEWS_REFUSED);
	} else {
		log_warn(LOG_MAIN, "a request got no answer: %s", r->error);
		ol_news(o, ONLINE_NEWS_REFUSED);
	}
}

static void game_request(struct online *o, const char *what)
{
	char path[160];

	if (o->phase != PHASE_PLAYING || !ol_may_request(o)) {
		ol_news(o, ol_may_request(o) ? ONLINE_NEWS_REFUSED : ONLINE_NEWS_RATE_LIMITED);
		return;
	}
	snprintf(path, sizeof(path), "/api/board/game/%s/%s", o->game_id, what);
	if (!lichess_post(o->l, path, NULL, NULL, on_game_request_done, o))
		ol_news(o, ONLINE_NEWS_REFUSED);
}

/* ------------------------------------------------------------------ the daemon's events */

static void handle_request(struct online *o, const char *request)
{
	static const char *const what[ONLINE_ASK_COUNT] = {
	    [ONLINE_ASK_OFFER_DRAW] = "draw/yes",
	    [ONLINE_ASK_ACCEPT_DRAW] = "draw/yes",
	    [ONLINE_ASK_DECLINE_DRAW] = "draw/false",
	    [ONLINE_ASK_RESIGN] = "resign",
	    [ONLINE_ASK_ABORT] = "abort",
	    [ONLINE_ASK_TAKEBACK] = "takeback/yes",
	    [ONLINE_ASK_ACCEPT_TAKEBACK] = "takeback/yes",
	    [ONLINE_ASK_DECLINE_TAKEBACK] = "takeback/false",
	    [ONLINE_ASK_CLAIM_VICTORY] = "claim-victory",
	    [ONLINE_ASK_CLAIM_DRAW] = "claim-draw",
	};
	int r = game_online_request_parse(request);

	log_info(LOG_MAIN, "the player asks: %s", request);
	if (r == ONLINE_ASK_PLAY) {
		if (o->phase == PHASE_WAITING)
			ol_start(o);
		else
			ol_news(o, ONLINE_NEWS_REFUSED);
		return;
	}
	if (r > 0 && r < ONLINE_ASK_COUNT)
		game_request(o, what[r]);
}

static void handle_event(struct online *o, const char *line)
{
	char event[32], v[64];

	if (json_get(line, "event", event, sizeof(event)) < 0)
		return;
	if (!strcmp(event, "complete") || !strcmp(event, "result")) {
		if (!strcmp(event, "complete") && json_get(line, "ply", v, sizeof(v)) >= 0)
			trace_at(0, "online-complete", "%s", v);
		ol_try_send(o);
	} else if (!strcmp(event, "online-request")) {
		if (json_get(line, "request", v, sizeof(v)) >= 0)
			handle_request(o, v);
	}
}

/* ------------------------------------------------------------------ the run */

void cli_online_usage(FILE *f)
{
	fprintf(f,
		"usage: annabella online [--seek | --accept FRIEND | --challenge FRIEND]\n"
		"                        [--time-control SECONDS+INCREMENT] [--rated | --casual]\n"
		"                        [--color white|black|random] [--wait] [--socket PATH]\n"
		"                        [--config FILE]\n");
}

static int usage(void)
{
	cli_online_usage(stderr);
	return 2;
}

/* The options that take a value (the others are flags). */
static bool takes_value(const char *opt)
{
	static const char *const with_value[] = {"--accept", "--challenge", "--time-control",
						 "--color",  "--socket",    "--config"};

	for (size_t i = 0; i < sizeof(with_value) / sizeof(with_value[0]); i++)
		if (!strcmp(opt, with_value[i]))
			return true;
	return false;
}

static int options(struct online *o, int argc, char **argv, struct config *cfg)
{
	const char *config_path = NULL;
	char err[512];

	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config_path = argv[i + 1];
	config_defaults(cfg);
	if (config_path && config_load(cfg, config_path, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return -1;
	}
	o->cfg = cfg->online;
	o->socket = cfg->control_socket[0] ? cfg->control_socket : CTLCLIENT_DEFAULT_SOCKET;
	for (int i = 0; i < argc; i++) {
		const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;
		int rc = 0;

		if (!strcmp(opt, "--wait")) {
			o->wait = true;
		} else if (!strcmp(opt, "--seek")) {
			o->cfg.start = ONLINE_START_SEEK;
		} else if (!strcmp(opt, "--rated")) {
			o->cfg.rated = true;
		} else if (!strcmp(opt, "--casual")) {
			o->cfg.rated = false;
		} else if (!takes_value(opt)) {
			log_error(LOG_MAIN, "unknown option %s", opt);
			return -1;
		} else if (!arg) {
			log_error(LOG_MAIN, "%s needs a value", opt);
			return -1;
		} else {
			i++;
			if (!strcmp(opt, "--accept") || !strcmp(opt, "--challenge")) {
				o->cfg.start =
				    opt[2] == 'a' ? ONLINE_START_ACCEPT : ONLINE_START_CHALLENGE;
				rc = online_config_set(&o->cfg, "friend", arg, err, sizeof(err));
			} else if (!strcmp(opt, "--time-control")) {
				rc = online_config_set(&o->cfg, "time-control", arg, err,
						       sizeof(err));
			} else if (!strcmp(opt, "--color")) {
				rc = online_config_set(&o->cfg, "color", arg, err, sizeof(err));
			} else if (!strcmp(opt, "--socket")) {
				o->socket = arg;
			}
			if (rc) {
				log_error(LOG_MAIN, "%s: %s", opt, err);
				return -1;
			}
		}
	}
	if (o->cfg.start != ONLINE_START_SEEK && !o->cfg.friend_name[0]) {
		log_error(LOG_MAIN, "accepting or challenging needs the friend's name (--accept "
				    "FRIEND, --challenge FRIEND, or [online] friend)");
		return -1;
	}
	sscanf(o->cfg.time_control, "%d+%d", &o->seconds, &o->increment);
	o->token_file = o->cfg.token_file;
	return 0;
}

/* The server's address: https, or http to this machine alone (the token would cross the
 * network in clear). */
static int server_ok(const char *server)
{
	static const char *const local[] = {"http://localhost", "http://127.0.0.1", "http://[::1]"};

	if (!strncmp(server, "https://", 8))
		return 0;
	for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++) {
		size_t n = strlen(local[i]);

		if (!strncmp(server, local[i], n) &&
		    (server[n] == ':' || server[n] == '/' || !server[n]))
			return 0;
	}
	log_error(LOG_MAIN,
		  "[online] server %s: the token goes to a server over https only (http to this "
		  "machine alone, for tests)",
		  server);
	return -1;
}

/* The token from its file, which only its owner may read. */
static int read_token(struct online *o)
{
	struct stat st;
	FILE *f;
	size_t n;

	if (!o->token_file[0]) {
		log_error(LOG_MAIN, "[online] token-file is not set: the personal API token (scope "
				    "board:play) goes in a file only this user may read");
		return -1;
	}
	f = fopen(o->token_file, "r");
	if (!f || fstat(fileno(f), &st)) {
		log_error(LOG_MAIN, "the token file %s cannot be read: %s", o->token_file,
			  strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (st.st_mode & 077)) {
		log_error(LOG_MAIN,
			  "the token file %s may be read by others (mode %04o): only its owner may "
			  "(chmod 600 %s)",
			  o->token_file, (unsigned)(st.st_mode & 07777), o->token_file);
		fclose(f);
		return -1;
	}
	if (!fgets(o->token, sizeof(o->token), f))
		o->token[0] = '\0';
	fclose(f);
	n = strcspn(o->token, "\r\n");
	o->token[n] = '\0';
	if (!n ||
	    strspn(o->token, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
			     ".") != n) {
		log_error(LOG_MAIN,
			  "the token file %s holds no token (one line: letters, digits, "
			  "- and _)",
			  o->token_file);
		memset(o->token, 0, sizeof(o->token));
		return -1;
	}
	return 0;
}

static int connect_daemon(struct online *o)
{
	char err[256];
	int rc;

	o->ev = ctlclient_connect(o->socket, err, sizeof(err));
	o->req = o->ev ? ctlclient_connect(o->socket, err, sizeof(err)) : NULL;
	if (!o->req) {
		log_error(LOG_MAIN, "%s", err);
		return -1;
	}
	if (ev_request(o, "watch")) {
		log_error(LOG_MAIN, "the daemon refuses watch: %s", o->reply);
		return -1;
	}
	rc = ev_request(o, o->wait ? "online wait" : "online on");
	if (rc) {
		char why[256];

		if (rc < 0 || json_get(o->reply, "error", why, sizeof(why)) < 0)
			snprintf(why, sizeof(why), "no answer");
		log_error(LOG_MAIN, "the daemon refuses online play: %s", why);
		return -1;
	}
	return 0;
}

/* The timers due: streams started again, a start, the claim said, the seek's end. */
static void timers(struct online *o)
{
	int64_t now = ol_now_ms();

	if (o->account_at && now >= o->account_at && ol_may_request(o))
		ol_ask_account(o);
	if (o->events_at && now >= o->events_at && ol_may_request(o))
		ol_start_events(o);
	if (o->game_at && now >= o->game_at && o->phase == PHASE_PLAYING && ol_may_request(o))
		ol_start_game_stream(o);
	if (o->start_at && now >= o->start_at) {
		o->start_at = 0;
		if (o->phase == PHASE_IDLE ||
		    (o->phase == PHASE_STARTING && !o->seek && !o->challenge))
			ol_start(o);
	}
	if (o->no_game_at && now >= o->no_game_at) {
		o->no_game_at = 0;
		if (o->phase == PHASE_STARTING) {
			/* The seek or the challenge closed and no game came. */
			ol_news(o, o->cfg.start == ONLINE_START_SEEK
				       ? ONLINE_NEWS_NO_OPPONENT
				       : ONLINE_NEWS_CHALLENGE_DECLINED);
			o->phase = PHASE_DONE;
			o->status = 1;
		}
	}
	if (o->seek && o->seek_until && now >= o->seek_until) {
		lichess_cancel(o->l, o->seek);
		o->seek = NULL;
		ol_news(o, ONLINE_NEWS_NO_OPPONENT);
		o->phase = PHASE_DONE;
		o->status = 1;
	}
	if (o->send_at && now >= o->send_at) {
		o->send_at = 0;
		ol_try_send(o);
	}
	if (o->gone_claim_at && now >= o->gone_claim_at) {
		o->gone_claim_at = 0;
		ol_tell_daemon(o, "online gone 0");
	}
}

static int64_t next_timer(const struct online *o)
{
	int64_t t[] = {o->account_at,	 o->events_at,	o->game_at,
		       o->start_at,	 o->no_game_at, o->seek ? o->seek_until : 0,
		       o->gone_claim_at, o->send_at};
	int64_t best = ol_now_ms() + 500;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i] && t[i] < best)
			best = t[i];
	return best;
}

/* A game over: out, or (--wait) waiting for the menu again. */
static bool after_game(struct online *o)
{
	if (!o->wait)
		return true;
	if (o->game)
		lichess_cancel(o->l, o->game);
	o->game = NULL;
	o->game_id[0] = '\0';
	o->phase = PHASE_WAITING;
	o->status = 0;
	if (ev_request(o, "online wait"))
		return true;
	ol_tell("waiting for the button menu's online entry");
	return false;
}

static int run(struct online *o)
{
	ol_ask_account(o);
	while (!ol_stopping) {
		int64_t wait = next_timer(o) - ol_now_ms();
		bool closed = false;
		const char *line;
		int rc;

		while ((line = next_event(o, &closed)))
			handle_event(o, line);
		if (closed) {
			log_error(LOG_MAIN, "the daemon closed the connection");
			o->daemon_gone = true;
			return 1;
		}
		if (o->phase == PHASE_DONE && after_game(o))
			break;
		rc = lichess_run(o->l, ctlclient_fd(o->ev), wait < 0 ? 0 : (int)wait);
		if (rc < 0) {
			log_error(LOG_MAIN, "libcurl failed");
			return 1;
		}
		timers(o);
	}
	return o->status;
}

int cli_online(int argc, char **argv)
{
	struct online *o = calloc(1, sizeof(*o));
	struct config *cfg = malloc(sizeof(*cfg));
	struct lichess_config lc = {0};
	char err[256];
	int status = 1;

	if (!o || !cfg) {
		free(o);
		free(cfg);
		return 1;
	}
	o->backoff_ms = 1000;
	if (options(o, argc, argv, cfg)) {
		free(o);
		free(cfg);
		return usage();
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	trace_open_from_env();
	o->msg = malloc(sizeof(*o->msg));
	if (!o->msg || server_ok(o->cfg.server) || read_token(o) || connect_daemon(o))
		goto out;
	lc.server = o->cfg.server;
	lc.token = o->token;
	lc.ca_file = o->cfg.ca_file[0] ? o->cfg.ca_file : NULL;
	lc.idle_ms = IDLE_MS;
	o->l = lichess_new(&lc, err, sizeof(err));
	memset(o->token, 0, sizeof(o->token));
	if (!o->l) {
		log_error(LOG_MAIN, "%s", err);
		goto out;
	}
	status = run(o);
	if (!o->daemon_gone)
		ev_request(o, "online off");
	ol_tell("stopped");
out:
	memset(o->token, 0, sizeof(o->token));
	lichess_free(o->l);
	ctlclient_close(o->ev);
	ctlclient_close(o->req);
	free(o->msg);
	free(cfg);
	free(o);
	trace_close();
	return status;
}
