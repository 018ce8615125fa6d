/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella broadcast --mqtt HOST:PORT --board NAME [--socket PATH] [--config FILE]
 *                     [--user U --password-file F] [--tls-ca FILE] [--accept-tags]
 *
 * docs/broadcast.md "Live broadcast and the room relay": the game of one board, live, to an MQTT
 * broker.  A client of the control socket (`watch public` on one connection, `status public` and
 * `export pgn` on another: what anyone may know, whatever the role of this process's user) and of
 * the broker: retained annabella/NAME/pgn (the whole PGN) and annabella/NAME/status (the status
 * reply), annabella/NAME/event for each event, retained annabella/NAME/link (whether the broadcast
 * is connected, the broker's last will saying when it is not, and whether it reaches its daemon),
 * all QoS 1.  A daemon quiet for 5 s is asked for its status (a frozen one says nothing); a lost
 * broker or daemon is retried with back-off; after either comes back the PGN and status are
 * published again, so the retained PGN is whole.  The game never waits for us: the daemon drops a
 * watcher that does not read.
 *
 * Nothing here changes a game unless the club says so: only with --accept-tags (or
 * accept-tags = yes) are the tags of annabella/NAME/tags passed on, as `tags NAME VALUE`,
 * for the tags of room_tag_allowed() only, each payload once.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/log.h"
#include "base/strbuf.h"
#include "base/timeutil.h"
#include "control/json.h"
#include "config/config.h"
#include "net/ctlclient.h"
#include "net/mqttlink.h"
#include "net/room.h"
#include "net/net.h"

#define REPLY_TIMEOUT_MS     5000
#define DAEMON_QUIET_MS	     5000 /* a daemon quiet this long is asked for its status */
#define DAEMON_BACKOFF_FIRST 500
#define DAEMON_BACKOFF_MAX   10000

struct broadcast {
	struct mqttlink *mqtt;
	const char *socket;
	char board[ROOM_NAME_MAX];
	char topic_pgn[128], topic_status[128], topic_event[128], topic_tags[128];
	char topic_link[128];
	struct ctlclient *watch, *req;
	uint64_t daemon_retry_at;
	uint64_t daemon_heard_at; /* its last event or reply */
	unsigned daemon_backoff;
	bool daemon_said_down;
	char *pgn, *status; /* as last read from the daemon (NULL: not yet) */
	bool pgn_sent;	    /* the broker has the current pgn (since its last connect) */
	char *pgn_buf;	    /* CTLCLIENT_LINE_MAX: an export's text */
	bool accept_tags;
	char *tags_pending; /* a payload not yet applied (the daemon was away) */
	char *tags_applied; /* the last payload applied */
};

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static void replace(char **dst, const char *src)
{
	char *copy = src ? strdup(src) : NULL;

	free(*dst);
	*dst = copy;
}

/* ------------------------------------------------------------------ the daemon */

#define LINK_GONE "{\"broadcast\":false,\"daemon\":null}"

/* Whether this broadcast is on and reaches its daemon, for the room (retained). */
static void publish_link(struct broadcast *b)
{
	const char *link = b->req ? "{\"broadcast\":true,\"daemon\":true}"
				  : "{\"broadcast\":true,\"daemon\":false}";

	mqttlink_publish(b->mqtt, b->topic_link, link, strlen(link), true);
}

static void daemon_lost(struct broadcast *b, const char *why)
{
	bool was = b->req != NULL;

	ctlclient_close(b->watch);
	ctlclient_close(b->req);
	b->watch = b->req = NULL;
	if (was || !b->daemon_said_down)
		publish_link(b);
	if (!b->daemon_said_down)
		log_warn(LOG_MAIN, "the daemon at %s: %s; retrying", b->socket, why);
	b->daemon_said_down = true;
	b->daemon_retry_at = monotonic_ms() + b->daemon_backoff;
	b->daemon_backoff =
	    b->daemon_backoff * 2 > DAEMON_BACKOFF_MAX ? DAEMON_BACKOFF_MAX : b->daemon_backoff * 2;
}

/* A request on the second connection; its reply (malloc'd), or NULL (the daemon is then
 * dropped). */
static char *request(struct broadcast *b, const char *line)
{
	char *reply = NULL;

	if (!b->req)
		return NULL;
	if (ctlclient_request(b->req, line, &reply, REPLY_TIMEOUT_MS)) {
		free(reply);
		daemon_lost(b, errno == ETIMEDOUT ? "no reply" : "connection lost");
		return NULL;
	}
	b->daemon_heard_at = monotonic_ms();
	return reply;
}

static void publish_pgn(struct broadcast *b)
{
	if (b->pgn && mqttlink_publish(b->mqtt, b->topic_pgn, b->pgn, strlen(b->pgn), true) > 0)
		b->pgn_sent = true;
}

static void publish_status(struct broadcast *b)
{
	if (b->status)
		mqttlink_publish(b->mqtt, b->topic_status, b->status, strlen(b->status), true);
}

/* The status and the PGN from the daemon, published: the status each time (its clocks
 * move), the PGN when it changed or the broker has not got it yet. */
static void refresh(struct broadcast *b)
{
	char *reply = request(b, "status public");

	if (!reply)
		return;
	if (ctlclient_reply_ok(reply)) {
		free(b->status);
		b->status = reply;
		publish_status(b);
	} else {
		free(reply);
	}
	reply = request(b, "export pgn");
	if (!reply)
		return;
	if (ctlclient_reply_ok(reply) &&
	    json_get(reply, "text", b->pgn_buf, CTLCLIENT_LINE_MAX) >= 0) {
		if (!b->pgn || strcmp(b->pgn, b->pgn_buf)) {
			replace(&b->pgn, b->pgn_buf);
			b->pgn_sent = false;
		}
		if (!b->pgn_sent)
			publish_pgn(b);
	}
	free(reply);
}

static void apply_tags(struct broadcast *b);

static void daemon_connect(struct broadcast *b)
{
	char err[256];
	const char *line;

	b->watch = ctlclient_connect(b->socket, err, sizeof(err));
	if (!b->watch) {
		b->req = NULL;
		daemon_lost(b, err);
		return;
	}
	if (ctlclient_send(b->watch, "watch public") ||
	    ctlclient_read(b->watch, &line, REPLY_TIMEOUT_MS) <= 0) {
		daemon_lost(b, "no reply to watch");
		return;
	}
	if (!ctlclient_reply_ok(line)) {
		log_error(LOG_MAIN, "the daemon at %s refuses watch: %s", b->socket, line);
		daemon_lost(b, "watch refused");
		return;
	}
	b->req = ctlclient_connect(b->socket, err, sizeof(err));
	if (!b->req) {
		daemon_lost(b, err);
		return;
	}
	if (b->daemon_said_down)
		log_info(LOG_MAIN, "the daemon at %s: connected", b->socket);
	b->daemon_said_down = false;
	b->daemon_backoff = DAEMON_BACKOFF_FIRST;
	publish_link(b);
	/* Whatever happened while we were away: the whole game again. */
	b->pgn_sent = false;
	refresh(b);
	if (b->tags_pending)
		apply_tags(b);
}

/* Events as they come; one refresh after a burst of them. */
static void daemon_events(struct broadcast *b)
{
	bool changed = false;

	for (;;) {
		const char *line;
		char event[32];
		int rc = ctlclient_read(b->watch, &line, 0);

		if (rc < 0 && errno == ETIMEDOUT)
			break;
		if (rc <= 0) {
			daemon_lost(b, rc == 0 ? "it closed the connection" : strerror(errno));
			return;
		}
		b->daemon_heard_at = monotonic_ms();
		mqttlink_publish(b->mqtt, b->topic_event, line, strlen(line), false);
		if (json_get(line, "event", event, sizeof(event)) < 0 || strcmp(event, "say"))
			changed = true;
	}
	if (changed)
		refresh(b);
}

/*
 * A daemon that has said nothing for a while is asked for its status: a frozen one keeps its
 * socket open and says nothing, and the room must not show it as live.  No reply within
 * REPLY_TIMEOUT_MS: it is lost (the link says so) and tried again.  The status goes out, so
 * the room also sees how old the clocks are.
 */
static void heartbeat(struct broadcast *b)
{
	char *reply = request(b, "status public");

	if (!reply)
		return;
	if (ctlclient_reply_ok(reply) && (!b->status || strcmp(b->status, reply))) {
		free(b->status);
		b->status = reply;
		publish_status(b);
	} else {
		free(reply);
	}
}

/* ------------------------------------------------------------------ tags */

/* The game's current value of a tag, from the last status, into buf ("" if none). */
static void current_tag(const struct broadcast *b, const char *name, char *buf, size_t size)
{
	static char tags[16384];

	buf[0] = '\0';
	if (b->status && json_get(b->status, "tags", tags, sizeof(tags)) > 0 &&
	    json_get(tags, name, buf, size) < 0)
		buf[0] = '\0';
}

static void apply_tags(struct broadcast *b)
{
	char *copy, *cursor;
	const char *name, *value;
	int rc, set = 0;

	if (!b->req)
		return; /* when the daemon is back */
	copy = strdup(b->tags_pending);
	if (!copy)
		return;
	cursor = copy;
	while ((rc = room_payload_next(&cursor, &name, &value)) != 0) {
		char now[ROOM_TAG_VALUE_MAX], line[ROOM_TAG_NAME_MAX + ROOM_TAG_VALUE_MAX + 16];
		char *reply;

		if (rc < 0) {
			log_warn(LOG_MAIN, "%s: a line that is not 'NAME VALUE': ignored",
				 b->topic_tags);
			continue;
		}
		if (!room_tag_allowed(name)) {
			log_warn(LOG_MAIN, "%s: tag '%s' is not one a broadcast may set: ignored",
				 b->topic_tags, name);
			continue;
		}
		if (strlen(value) >= ROOM_TAG_VALUE_MAX || strpbrk(value, "\r\n\t")) {
			log_warn(LOG_MAIN, "%s: tag '%s': value too long or not one line: ignored",
				 b->topic_tags, name);
			continue;
		}
		current_tag(b, name, now, sizeof(now));
		if (!strcmp(now, value))
			continue;
		/* In quotes, so the value is taken whole, as it is. */
		snprintf(line, sizeof(line), "tags %s \"%s\"", name, value);
		reply = request(b, line);
		if (!reply) {
			free(copy);
			return; /* again when the daemon is back */
		}
		if (ctlclient_reply_ok(reply)) {
			set++;
		} else {
			char msg[200];

			json_get(reply, "error", msg, sizeof(msg));
			log_warn(LOG_MAIN, "tag %s: the daemon refused it: %s", name, msg);
		}
		free(reply);
	}
	free(copy);
	if (set)
		log_info(LOG_MAIN, "%d tag%s set from %s", set, set == 1 ? "" : "s", b->topic_tags);
	free(b->tags_applied);
	b->tags_applied = b->tags_pending;
	b->tags_pending = NULL;
	refresh(b);
}

/* ------------------------------------------------------------------ the broker */

static void on_broker_connected(void *user)
{
	struct broadcast *b = user;

	/* The retained PGN whole again, as the broker may have lost it. */
	b->pgn_sent = false;
	publish_link(b);
	if (b->req) {
		refresh(b);
	} else {
		publish_pgn(b);
		publish_status(b);
	}
}

static void on_broker_message(void *user, const char *topic, const char *payload, size_t len)
{
	struct broadcast *b = user;
	char *p;

	if (!b->accept_tags || strcmp(topic, b->topic_tags) || !len)
		return;
	p = strndup(payload, len);
	if (!p || strlen(p) != len) {
		free(p);
		log_warn(LOG_MAIN, "%s: not text: ignored", topic);
		return;
	}
	if ((b->tags_applied && !strcmp(p, b->tags_applied)) ||
	    (b->tags_pending && !strcmp(p, b->tags_pending))) {
		free(p);
		return; /* once per distinct payload: a retained one comes on every connect */
	}
	free(b->tags_pending);
	b->tags_pending = p;
	apply_tags(b);
}

/* ------------------------------------------------------------------ main */

void cli_broadcast_usage(FILE *f)
{
	fprintf(f, "usage: annabella broadcast --mqtt HOST:PORT --board NAME [--socket PATH]\n"
		   "           [--config FILE] [--user U --password-file F] [--tls-ca FILE]\n"
		   "           [--accept-tags]\n");
}

/* The command line, as given. */
struct broadcast_args {
	const char *mqtt, *board, *sock, *config, *user, *password_file, *tls_ca;
	bool accept_tags;
};

/* 0, or 2 after the usage. */
static int parse_args(int argc, char **argv, struct broadcast_args *a)
{
	static const struct option longopts[] = {
	    {"mqtt", required_argument, NULL, 'm'},
	    {"board", required_argument, NULL, 'b'},
	    {"socket", required_argument, NULL, 's'},
	    {"config", required_argument, NULL, 'c'},
	    {"user", required_argument, NULL, 'u'},
	    {"password-file", required_argument, NULL, 'p'},
	    {"tls-ca", required_argument, NULL, 't'},
	    {"accept-tags", no_argument, NULL, 'a'},
	    {NULL, 0, NULL, 0},
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc + 1, argv - 1, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			a->mqtt = optarg;
			break;
		case 'b':
			a->board = optarg;
			break;
		case 's':
			a->sock = optarg;
			break;
		case 'c':
			a->config = optarg;
			break;
		case 'u':
			a->user = optarg;
			break;
		case 'p':
			a->password_file = optarg;
			break;
		case 't':
			a->tls_ca = optarg;
			break;
		case 'a':
			a->accept_tags = true;
			break;
		default:
			cli_broadcast_usage(stderr);
			return 2;
		}
	}
	if (optind < argc + 1) {
		cli_broadcast_usage(stderr);
		return 2;
	}
	return 0;
}

/* The arguments with the configuration under them, checked; 0, or 2 after the error. */
static int settle_args(struct broadcast_args *a, struct config *cfg, struct mqtt_options *mo)
{
	char err[400];

	if (a->config && config_load(cfg, a->config, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (!a->board && cfg->broadcast_board[0])
		a->board = cfg->broadcast_board;
	if (!a->sock)
		a->sock = cfg->control_socket;
	a->accept_tags |= cfg->broadcast_accept_tags;
	if (!a->board || !room_board_name_ok(a->board)) {
		if (a->board)
			log_error(LOG_MAIN,
				  "--board '%s': a name of letters, digits, '.', '_' and '-' (at "
				  "most 63)",
				  a->board);
		else
			log_error(LOG_MAIN,
				  "no board: give --board NAME (or board = in [broadcast])");
		return 2;
	}
	if (!a->sock[0] || !strcmp(a->sock, "none")) {
		log_error(LOG_MAIN, "no control socket: give --socket PATH");
		return 2;
	}
	if (mqtt_options_from(mo, &cfg->broadcast_mqtt, a->mqtt, a->user, a->password_file,
			      a->tls_ca, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	return 0;
}

static void set_topics(struct broadcast *b, const char *board)
{
	snprintf(b->board, sizeof(b->board), "%s", board);
	snprintf(b->topic_pgn, sizeof(b->topic_pgn), "annabella/%s/pgn", board);
	snprintf(b->topic_status, sizeof(b->topic_status), "annabella/%s/status", board);
	snprintf(b->topic_event, sizeof(b->topic_event), "annabella/%s/event", board);
	snprintf(b->topic_tags, sizeof(b->topic_tags), "annabella/%s/tags", board);
	snprintf(b->topic_link, sizeof(b->topic_link), "annabella/%s/link", board);
}

/* A client id nobody can guess: a broker drops the client whose id another takes, so a fixed one
 * let anyone on the network push the board off.  The session is clean, so a new id each run
 * loses nothing. */
static void client_id_new(char *out, size_t size, const char *board)
{
	unsigned char r[8] = {0};
	unsigned long long id = 0;

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		log_warn(LOG_MAIN, "no random client id: %s", strerror(errno));
		id = monotonic_ms() ^ (unsigned long long)getpid() << 40;
	}
	for (size_t i = 0; i < sizeof(r); i++)
		id = id << 8 ^ r[i];
	snprintf(out, size, "annabella-%s-%016llx", board, id);
}

/* How long poll() may wait: the broker's own timeout, or less for the daemon's retry or its
 * quiet limit. */
static int poll_timeout(const struct broadcast *b, int timeout, uint64_t now)
{
	if (!b->watch) {
		int until = b->daemon_retry_at > now ? (int)(b->daemon_retry_at - now) : 0;

		timeout = until < timeout ? until : timeout;
	} else if (b->req) {
		uint64_t due = b->daemon_heard_at + DAEMON_QUIET_MS;
		int until = due > now ? (int)(due - now) : 0;

		timeout = until < timeout ? until : timeout;
	}
	return timeout;
}

/* Until a signal: 0, or 1 when poll() fails. */
static int run(struct broadcast *b)
{
	while (!stopping) {
		struct pollfd pfd[2];
		int timeout = mqttlink_timeout(b->mqtt);
		uint64_t now = monotonic_ms();

		if (!b->watch && now >= b->daemon_retry_at)
			daemon_connect(b);
		else if (b->req && now - b->daemon_heard_at >= DAEMON_QUIET_MS)
			heartbeat(b);
		now = monotonic_ms();
		mqttlink_pollfd(b->mqtt, &pfd[0]);
		pfd[1].fd = b->watch ? ctlclient_fd(b->watch) : -1;
		pfd[1].events = POLLIN;
		pfd[1].revents = 0;
		timeout = poll_timeout(b, timeout, now);
		if (poll(pfd, 2, timeout) < 0 && errno != EINTR) {
			log_error(LOG_MAIN, "poll: %s", strerror(errno));
			return 1;
		}
		if (b->watch && pfd[1].revents)
			daemon_events(b);
		mqttlink_run(b->mqtt, pfd[0].revents);
	}
	return 0;
}

/* A clean goodbye sends no last will: the room hears it from us. */
static void goodbye(struct broadcast *b)
{
	mqttlink_publish(b->mqtt, b->topic_link, LINK_GONE, strlen(LINK_GONE), true);
	mqttlink_disconnect(b->mqtt, 1000);
	mqttlink_free(b->mqtt);
	ctlclient_close(b->watch);
	ctlclient_close(b->req);
	free(b->pgn);
	free(b->status);
	free(b->pgn_buf);
	free(b->tags_pending);
	free(b->tags_applied);
}

int cli_broadcast(int argc, char **argv)
{
	struct broadcast_args a = {0};
	struct config *cfg = calloc(1, sizeof(*cfg));
	struct broadcast b = {.daemon_backoff = DAEMON_BACKOFF_FIRST};
	struct mqttlink_callbacks cb = {.connected = on_broker_connected,
					.message = on_broker_message};
	struct mqtt_options mo;
	struct sigaction sa = {.sa_handler = on_signal};
	char err[400], client_id[96];
	int status;

	if (!cfg)
		return 1;
	config_defaults(cfg);
	if (parse_args(argc, argv, &a) || settle_args(&a, cfg, &mo)) {
		free(cfg);
		return 2;
	}
	set_topics(&b, a.board);
	b.socket = a.sock;
	b.accept_tags = a.accept_tags;
	client_id_new(client_id, sizeof(client_id), a.board);
	b.pgn_buf = malloc(CTLCLIENT_LINE_MAX);
	b.mqtt = b.pgn_buf ? mqttlink_new(&mo, client_id, &cb, &b, err, sizeof(err)) : NULL;
	if (!b.mqtt) {
		log_error(LOG_MAIN, "%s", b.pgn_buf ? err : "out of memory");
		free(b.pgn_buf);
		free(cfg);
		return 1;
	}
	if (mqttlink_will(b.mqtt, b.topic_link, LINK_GONE))
		log_warn(LOG_MAIN, "%s: no last will: a lost broadcast will not show in the room",
			 b.topic_link);
	if (a.accept_tags)
		mqttlink_subscribe(b.mqtt, b.topic_tags);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	log_info(LOG_MAIN, "board %s: from %s to %s:%d%s%s", a.board, a.sock, mo.host, mo.port,
		 mo.tls_ca[0] ? " (TLS)" : "", a.accept_tags ? ", accepting tags" : "");
	status = run(&b);
	goodbye(&b);
	free(cfg);
	return status;
}
