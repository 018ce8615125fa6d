/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella relay --mqtt HOST:PORT --listen ADDR:PORT [--config FILE]
 *                 [--boards NAME,NAME... | --round ROUND.csv]
 *                 [--user U --password-file F] [--tls-ca FILE]
 * annabella relay tags ROUND.csv --mqtt HOST:PORT [--config FILE] [auth, TLS]
 *
 * DESIGN 9: the room.  The relay subscribes to every board's retained pgn and status and
 * serves, read-only, GET /round.pgn (every board's game in board order, in the shape a
 * tournament broadcast polls), GET /api/boards (JSON) and a page (web/relay.*).  Anything
 * but GET and HEAD gets 405: nothing here reaches a game.
 *
 * With --boards (or the round's tags CSV, --round) only the boards named there are the
 * room: anything else published under annabella/ is ignored and logged once per name, so
 * a stray or hostile publisher on the broker never puts a game into round.pgn.  Without
 * either, every board that publishes is shown (and the log says so at start).
 *
 * `relay tags` sends a round's tags (room.h's CSV) to every board through the broker,
 * retained on annabella/NAME/tags; a board's broadcast applies them only when the club
 * let it (--accept-tags).  The boards' control sockets are local to each Pi, so the broker
 * is the one way the relay has to them.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/strbuf.h"
#include "base/timeutil.h"
#include "base/trace.h"
#include "control/json.h"
#include "daemon/assets.h"
#include "daemon/cli.h"
#include "daemon/config.h"
#include "daemon/httpd.h"
#include "daemon/mqttlink.h"
#include "daemon/room.h"

#define CSV_SIZE_MAX (1 << 20)
#define TAGS_WAIT_MS 10000

struct board {
	char name[ROOM_NAME_MAX];
	char *pgn, *status;
	struct room_game game; /* parsed from pgn (movetext points into it) */
	bool game_ok;
	int64_t received_ms; /* wall clock, the last message of this board */
	uint64_t status_mono_ms;
};

#define IGNORED_SAID_MAX 64

struct relay {
	pthread_mutex_t lock; /* boards: the broker's messages and the HTTP threads */
	int count;
	struct board *boards; /* ROOM_BOARDS_MAX */
	bool said_full;
	/* The round's boards (round_count 0: every board that publishes), and the other
	 * names seen and logged. */
	char (*round)[ROOM_NAME_MAX];
	int round_count;
	char ignored[IGNORED_SAID_MAX][ROOM_NAME_MAX];
	int ignored_count;
	bool ignored_more;
};

/* Set by the signal handler, which may run in one of the HTTP threads: an atomic. */
static atomic_int stopping;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stopping, 1);
}

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------ the boards */

static struct board *board_find(struct relay *r, const char *name, bool add)
{
	struct board *b;

	for (int i = 0; i < r->count; i++)
		if (!strcmp(r->boards[i].name, name))
			return &r->boards[i];
	if (!add)
		return NULL;
	if (r->count == ROOM_BOARDS_MAX) {
		if (!r->said_full)
			net_log(4, "more than %d boards: '%s' and later ones left out",
				ROOM_BOARDS_MAX, name);
		r->said_full = true;
		return NULL;
	}
	b = &r->boards[r->count++];
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	return b;
}

static void board_remove(struct relay *r, struct board *b)
{
	free(b->pgn);
	free(b->status);
	*b = r->boards[--r->count];
}

/* "annabella/NAME/KIND": 0 with name and kind, or -1. */
static int split_topic(const char *topic, char *name, const char **kind)
{
	const char *p = topic + strlen("annabella/"), *slash;

	if (strncmp(topic, "annabella/", strlen("annabella/")))
		return -1;
	slash = strchr(p, '/');
	if (!slash || (size_t)(slash - p) >= ROOM_NAME_MAX)
		return -1;
	memcpy(name, p, (size_t)(slash - p));
	name[slash - p] = '\0';
	*kind = slash + 1;
	return room_board_name_ok(name) ? 0 : -1;
}

/* Whether a board is in the round; another is logged the first time it publishes. */
static bool in_round(struct relay *r, const char *name, const char *topic)
{
	if (!r->round_count)
		return true;
	for (int i = 0; i < r->round_count; i++)
		if (!strcmp(r->round[i], name))
			return true;
	for (int i = 0; i < r->ignored_count; i++)
		if (!strcmp(r->ignored[i], name))
			return false;
	if (r->ignored_count < IGNORED_SAID_MAX) {
		snprintf(r->ignored[r->ignored_count++], ROOM_NAME_MAX, "%s", name);
		net_log(4,
			"'%s' is not a board of the round: %s ignored (and whatever it "
			"publishes later)",
			name, topic);
	} else if (!r->ignored_more) {
		r->ignored_more = true;
		net_log(4,
			"more than %d names that are no board of the round: the others are "
			"ignored without a word",
			IGNORED_SAID_MAX);
	}
	return false;
}

static void on_message(void *user, const char *topic, const char *payload, size_t len)
{
	struct relay *r = user;
	char name[ROOM_NAME_MAX];
	const char *kind;
	char *text;
	struct board *b;
	int plies = -1, clocks = 0;
	bool ours;

	if (split_topic(topic, name, &kind) || (strcmp(kind, "pgn") && strcmp(kind, "status")))
		return;
	pthread_mutex_lock(&r->lock);
	ours = in_round(r, name, topic);
	pthread_mutex_unlock(&r->lock);
	if (!ours)
		return;
	text = len ? strndup(payload, len) : NULL;
	if (len && !text)
		return;
	pthread_mutex_lock(&r->lock);
	b = board_find(r, name, len > 0);
	if (!b) {
		pthread_mutex_unlock(&r->lock);
		free(text);
		return;
	}
	if (!strcmp(kind, "pgn")) {
		free(b->pgn);
		b->pgn = text;
		b->game_ok = text && room_game_parse(text, &b->game) == 0;
		plies = b->game_ok ? b->game.plies : -1;
		clocks = b->game_ok ? b->game.clocks : 0;
	} else {
		free(b->status);
		b->status = text;
		b->status_mono_ms = monotonic_ms();
	}
	b->received_ms = wall_ms();
	if (!b->pgn && !b->status)
		board_remove(r, b); /* both cleared: the board has left the room */
	pthread_mutex_unlock(&r->lock);
	if (plies >= 0 && trace_on())
		trace_at(0, "relay-pgn", "%s %d %d", name, plies, clocks);
}

/* The boards with a game, in board order (indexes into r->boards); r is locked. */
static const struct relay *sort_relay;

static int by_board(const void *a, const void *b)
{
	const struct board *x = &sort_relay->boards[*(const int *)a];
	const struct board *y = &sort_relay->boards[*(const int *)b];

	return room_board_compare(x->name, x->game_ok ? room_game_tag(&x->game, "Board") : NULL,
				  y->name, y->game_ok ? room_game_tag(&y->game, "Board") : NULL);
}

static int board_order(const struct relay *r, int *order)
{
	static pthread_mutex_t sort_lock = PTHREAD_MUTEX_INITIALIZER;
	int n = 0;

	for (int i = 0; i < r->count; i++)
		order[n++] = i;
	pthread_mutex_lock(&sort_lock);
	sort_relay = r;
	qsort(order, (size_t)n, sizeof(order[0]), by_board);
	pthread_mutex_unlock(&sort_lock);
	return n;
}

/* ------------------------------------------------------------------ HTTP */

static char *round_pgn(struct relay *r)
{
	struct strbuf out = {0};
	int order[ROOM_BOARDS_MAX], n;

	pthread_mutex_lock(&r->lock);
	n = board_order(r, order);
	for (int i = 0; i < n; i++) {
		const struct board *b = &r->boards[order[i]];

		if (b->game_ok)
			room_game_write(&b->game, &out);
	}
	pthread_mutex_unlock(&r->lock);
	return strbuf_finish(&out);
}

/* A key of the status's "clock" or "result" object (raw JSON text) into buf. */
static int status_field(const char *status, const char *object, const char *key, char *buf,
			size_t size)
{
	char obj[2048];

	if (!status || json_get(status, object, obj, sizeof(obj)) <= 0 || obj[0] != '{')
		return -1;
	return json_get(obj, key, buf, size);
}

static void board_json(struct json_writer *w, const struct board *b, int64_t now_wall,
		       uint64_t now_mono)
{
	char v[256];

	json_object(w, NULL);
	json_string(w, "name", b->name);
	json_object(w, "tags");
	for (int i = 0; b->game_ok && i < b->game.tag_count; i++) {
		/* The value as it reads, without PGN's escapes (\" and \\). */
		const char *p = b->game.tags[i].value;
		char value[ROOM_TAG_VALUE_MAX];
		size_t n = 0;

		for (; *p && n + 1 < sizeof(value); p++)
			value[n++] = *p == '\\' && p[1] ? *++p : *p;
		value[n] = '\0';
		json_string(w, b->game.tags[i].name, value);
	}
	json_end(w);
	json_int(w, "plies", b->game_ok ? b->game.plies : 0);
	json_string(w, "result", b->game_ok ? room_game_tag(&b->game, "Result") : NULL);
	if (status_field(b->status, "last_move", "san", v, sizeof(v)) > 0)
		json_string(w, "last_move", v);
	else
		json_null(w, "last_move");
	json_object(w, "clock");
	if (status_field(b->status, "clock", "white_ms", v, sizeof(v)) > 0)
		json_int(w, "white_ms", strtoll(v, NULL, 10));
	if (status_field(b->status, "clock", "black_ms", v, sizeof(v)) > 0)
		json_int(w, "black_ms", strtoll(v, NULL, 10));
	if (status_field(b->status, "clock", "running", v, sizeof(v)) > 0 && strcmp(v, "null"))
		json_string(w, "running", v);
	else
		json_null(w, "running");
	if (status_field(b->status, "clock", "state", v, sizeof(v)) > 0)
		json_string(w, "state", v);
	/* How old the readings are, so a page can run the clock on from them. */
	json_int(w, "age_ms", b->status ? (int64_t)(now_mono - b->status_mono_ms) : 0);
	json_end(w);
	json_int(w, "received_ms", b->received_ms);
	json_int(w, "age_ms", now_wall - b->received_ms);
	json_end(w);
}

static char *boards_json(struct relay *r)
{
	struct strbuf out = {0};
	struct json_writer w;
	int order[ROOM_BOARDS_MAX], n;
	int64_t now_wall = wall_ms();
	uint64_t now_mono = monotonic_ms();

	json_init(&w, &out);
	json_object(&w, NULL);
	json_int(&w, "now_ms", now_wall);
	json_array(&w, "boards");
	pthread_mutex_lock(&r->lock);
	n = board_order(r, order);
	for (int i = 0; i < n; i++)
		board_json(&w, &r->boards[order[i]], now_wall, now_mono);
	pthread_mutex_unlock(&r->lock);
	json_end(&w);
	json_end(&w);
	strbuf_append(&out, "\n", 1);
	return strbuf_finish(&out);
}

static enum MHD_Result handle(void *user, const struct httpd_request *req)
{
	struct relay *r = user;
	const struct asset *a = NULL;
	char *text = NULL;
	const char *type = NULL;
	enum MHD_Result ret;

	if (strcmp(req->method, "GET") && strcmp(req->method, "HEAD"))
		return httpd_respond_text(req, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
					  "read-only: GET and HEAD only\n");
	if (!strcmp(req->url, "/round.pgn")) {
		text = round_pgn(r);
		type = "application/x-chess-pgn; charset=utf-8";
	} else if (!strcmp(req->url, "/api/boards")) {
		text = boards_json(r);
		type = "application/json";
	} else if (!strcmp(req->url, "/") || !strncmp(req->url, "/relay.", 7)) {
		a = asset_find(strcmp(req->url, "/") ? req->url : "/relay.html");
		if (a)
			return httpd_respond(req, MHD_HTTP_OK, a->content_type, a->data, a->len);
	}
	if (!type)
		return httpd_respond_text(req, MHD_HTTP_NOT_FOUND, "text/plain", "not found\n");
	if (!text)
		return httpd_respond_text(req, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain",
					  "out of memory\n");
	ret = httpd_respond(req, MHD_HTTP_OK, type, text, strlen(text));
	free(text);
	return ret;
}

/* ------------------------------------------------------------------ options */

struct relay_options {
	const char *config, *mqtt, *user, *password_file, *tls_ca, *listen, *boards, *round;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: annabella relay --mqtt HOST:PORT --listen ADDR:PORT [--config FILE]\n"
		   "           [--boards NAME,NAME... | --round ROUND.csv]\n"
		   "           [--user U --password-file F] [--tls-ca FILE]\n"
		   "       annabella relay tags ROUND.csv --mqtt HOST:PORT [--config FILE]\n"
		   "           [--user U --password-file F] [--tls-ca FILE]\n");
}

/* The options into o, the broker's into mo (the config file's [relay] under them): 0,
 * 1 for --help, 2 on bad usage (said). */
static int parse_options(int argc, char **argv, bool tags, struct relay_options *o,
			 struct mqtt_options *mo, struct config *cfg)
{
	static const struct option longopts[] = {
	    {"mqtt", required_argument, NULL, 'm'},
	    {"listen", required_argument, NULL, 'l'},
	    {"config", required_argument, NULL, 'c'},
	    {"user", required_argument, NULL, 'u'},
	    {"password-file", required_argument, NULL, 'p'},
	    {"tls-ca", required_argument, NULL, 't'},
	    {"boards", required_argument, NULL, 'b'},
	    {"round", required_argument, NULL, 'r'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	char err[400];
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc + 1, argv - 1, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			o->mqtt = optarg;
			break;
		case 'l':
			o->listen = optarg;
			break;
		case 'c':
			o->config = optarg;
			break;
		case 'u':
			o->user = optarg;
			break;
		case 'p':
			o->password_file = optarg;
			break;
		case 't':
			o->tls_ca = optarg;
			break;
		case 'b':
			o->boards = optarg;
			break;
		case 'r':
			o->round = optarg;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc + 1 || (tags && (o->listen || o->boards || o->round))) {
		usage(stderr);
		return 2;
	}
	config_defaults(cfg);
	if (o->config && config_load(cfg, o->config, err, sizeof(err))) {
		net_log(3, "%s", err);
		return 2;
	}
	if (!o->listen && cfg->relay_listen[0])
		o->listen = cfg->relay_listen;
	if (!o->boards && !o->round) {
		o->boards = cfg->relay_boards[0] ? cfg->relay_boards : NULL;
		o->round = cfg->relay_round[0] ? cfg->relay_round : NULL;
	}
	if (!tags && !o->listen) {
		net_log(3, "no address: give --listen ADDR:PORT (or listen = in [relay])");
		return 2;
	}
	if (mqtt_options_from(mo, &cfg->relay_mqtt, o->mqtt, o->user, o->password_file, o->tls_ca,
			      err, sizeof(err))) {
		net_log(3, "%s", err);
		return 2;
	}
	return 0;
}

/* ------------------------------------------------------------------ relay tags */

struct tags_send {
	int outstanding;
};

static void on_tags_published(void *user, int mid)
{
	struct tags_send *t = user;

	(void)mid;
	t->outstanding--;
}

/* Runs the link until done() or timeout_ms; whether done. */
static bool run_until(struct mqttlink *l, bool (*done)(struct mqttlink *, void *), void *arg,
		      int timeout_ms)
{
	uint64_t end = monotonic_ms() + (uint64_t)timeout_ms;

	while (!done(l, arg) && !stopping) {
		struct pollfd pfd;
		int t = mqttlink_timeout(l);
		uint64_t now = monotonic_ms();

		if (now >= end || mqttlink_refused(l))
			return false;
		mqttlink_pollfd(l, &pfd);
		if ((uint64_t)t > end - now)
			t = (int)(end - now);
		if (poll(&pfd, 1, t) < 0 && errno != EINTR)
			return false;
		mqttlink_run(l, pfd.revents);
	}
	return done(l, arg);
}

static bool link_up(struct mqttlink *l, void *arg)
{
	(void)arg;
	return mqttlink_up(l);
}

static bool all_acknowledged(struct mqttlink *l, void *arg)
{
	const struct tags_send *t = arg;

	return mqttlink_up(l) && t->outstanding == 0;
}

static int read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	size_t n;

	if (!f) {
		net_log(3, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > CSV_SIZE_MAX) {
		net_log(3, "%s: not a CSV file of at most %d bytes", path, CSV_SIZE_MAX);
		fclose(f);
		return -1;
	}
	*text = malloc((size_t)st.st_size + 1);
	n = *text ? fread(*text, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!*text || n != (size_t)st.st_size) {
		net_log(3, "%s: cannot read: %s", path, *text ? "short read" : "out of memory");
		free(*text);
		return -1;
	}
	(*text)[n] = '\0';
	*len = n;
	return 0;
}

static int relay_tags(int argc, char **argv)
{
	struct relay_options o = {0};
	struct mqtt_options mo;
	struct config *cfg = calloc(1, sizeof(*cfg));
	struct room_csv *csv = calloc(1, sizeof(*csv));
	struct tags_send t = {0};
	struct mqttlink_callbacks cb = {.published = on_tags_published};
	struct mqttlink *l = NULL;
	char err[400], *text = NULL;
	const char *path;
	size_t len;
	int rc = 2;

	if (!cfg || !csv)
		goto out;
	if (argc < 1 || argv[0][0] == '-') {
		usage(stderr);
		goto out;
	}
	path = argv[0];
	rc = parse_options(argc - 1, argv + 1, true, &o, &mo, cfg);
	if (rc)
		goto out;
	rc = 2;
	if (read_file(path, &text, &len))
		goto out;
	if (room_csv_parse(text, len, csv, err, sizeof(err))) {
		net_log(3, "%s:%s", path, err);
		goto out;
	}
	rc = 1;
	l = mqttlink_new(&mo, NULL, &cb, &t, err, sizeof(err));
	if (!l) {
		net_log(3, "%s", err);
		goto out;
	}
	if (!run_until(l, link_up, NULL, TAGS_WAIT_MS)) {
		net_log(3, "broker %s:%d: %s; nothing sent", mo.host, mo.port,
			mqttlink_refused(l) ? "refused" : "not reached");
		goto out;
	}
	for (int i = 0; i < csv->row_count; i++) {
		struct strbuf payload = {0};
		char topic[128], *p;

		room_csv_payload(csv, i, &payload);
		p = strbuf_finish(&payload);
		snprintf(topic, sizeof(topic), "annabella/%s/tags", csv->rows[i].name);
		if (p && mqttlink_publish(l, topic, p, strlen(p), true) > 0)
			t.outstanding++;
		else
			net_log(3, "%s: not sent", topic);
		free(p);
	}
	if (!run_until(l, all_acknowledged, &t, TAGS_WAIT_MS) || t.outstanding != 0) {
		net_log(3, "broker %s:%d: %d of %d boards' tags not acknowledged", mo.host, mo.port,
			t.outstanding, csv->row_count);
		goto out;
	}
	mqttlink_disconnect(l, 1000);
	printf("relay tags: %d board%s, %d tag column%s, sent to %s:%d\n", csv->row_count,
	       csv->row_count == 1 ? "" : "s", csv->tag_count, csv->tag_count == 1 ? "" : "s",
	       mo.host, mo.port);
	rc = 0;
out:
	if (l)
		mqttlink_free(l);
	free(text);
	free(csv);
	free(cfg);
	return rc;
}

/* ------------------------------------------------------------------ the round */

static int add_round_board(struct relay *r, const char *name, const char *where)
{
	if (!room_board_name_ok(name)) {
		net_log(3, "%s: '%s' is not a board's name (letters, digits, '.', '_', '-')", where,
			name);
		return -1;
	}
	for (int i = 0; i < r->round_count; i++)
		if (!strcmp(r->round[i], name))
			return 0;
	if (r->round_count == ROOM_BOARDS_MAX) {
		net_log(3, "%s: more than %d boards", where, ROOM_BOARDS_MAX);
		return -1;
	}
	snprintf(r->round[r->round_count++], ROOM_NAME_MAX, "%s", name);
	return 0;
}

/* The boards of --boards (names, comma or space separated) and of --round's rows. */
static int round_boards(struct relay *r, const struct relay_options *o)
{
	if (!o->boards && !o->round)
		return 0;
	r->round = calloc(ROOM_BOARDS_MAX, sizeof(*r->round));
	if (!r->round)
		return -1;
	if (o->boards) {
		char *list = strdup(o->boards), *save = NULL;

		if (!list)
			return -1;
		for (char *t = strtok_r(list, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save))
			if (add_round_board(r, t, "--boards")) {
				free(list);
				return -1;
			}
		free(list);
	}
	if (o->round) {
		struct room_csv *csv = calloc(1, sizeof(*csv));
		char err[400], *text = NULL;
		size_t len;
		int rc = 0;

		if (!csv || read_file(o->round, &text, &len))
			rc = -1;
		else if (room_csv_parse(text, len, csv, err, sizeof(err))) {
			net_log(3, "%s:%s", o->round, err);
			rc = -1;
		}
		for (int i = 0; rc == 0 && csv && i < csv->row_count; i++)
			rc = add_round_board(r, csv->rows[i].name, o->round);
		free(text);
		free(csv);
		if (rc)
			return -1;
	}
	if (!r->round_count) {
		net_log(3, "the round names no board");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ the relay */

int cli_relay(int argc, char **argv)
{
	struct relay_options o = {0};
	struct mqtt_options mo;
	struct config *cfg;
	struct relay r = {.lock = PTHREAD_MUTEX_INITIALIZER};
	struct mqttlink_callbacks cb = {.message = on_message};
	struct mqttlink *l = NULL;
	struct httpd *h = NULL;
	struct sigaction sa = {.sa_handler = on_signal};
	char err[400];
	int rc;

	net_log_name("annabella relay");
	if (argc >= 1 && !strcmp(argv[0], "tags"))
		return relay_tags(argc - 1, argv + 1);
	cfg = calloc(1, sizeof(*cfg));
	r.boards = calloc(ROOM_BOARDS_MAX, sizeof(*r.boards));
	if (!cfg || !r.boards) {
		free(cfg);
		free(r.boards);
		return 1;
	}
	rc = parse_options(argc, argv, false, &o, &mo, cfg);
	if (!rc && round_boards(&r, &o))
		rc = 2;
	if (rc) {
		free(cfg);
		free(r.boards);
		free(r.round);
		return rc == 1 ? 0 : 2;
	}
	trace_open_from_env();
	rc = 1;
	l = mqttlink_new(&mo, NULL, &cb, &r, err, sizeof(err));
	if (!l) {
		net_log(3, "%s", err);
		goto out;
	}
	mqttlink_subscribe(l, "annabella/+/pgn");
	mqttlink_subscribe(l, "annabella/+/status");
	h = httpd_start(o.listen, handle, &r, err, sizeof(err));
	if (!h) {
		net_log(3, "--listen %s: %s", o.listen, err);
		rc = 2;
		goto out;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	net_log(6, "listening on http://%s/ for the boards of %s:%d%s", httpd_address(h), mo.host,
		mo.port, mo.tls_ca[0] ? " (TLS)" : "");
	if (r.round_count)
		net_log(6, "the round: %d boards; other publishers are ignored", r.round_count);
	else
		net_log(5, "no --boards or --round: every board that publishes on the broker is "
			   "shown");
	rc = 0;
	while (!stopping) {
		struct pollfd pfd;

		mqttlink_pollfd(l, &pfd);
		if (poll(&pfd, 1, mqttlink_timeout(l)) < 0 && errno != EINTR) {
			net_log(3, "poll: %s", strerror(errno));
			rc = 1;
			break;
		}
		mqttlink_run(l, pfd.revents);
	}
out:
	if (h)
		httpd_stop(h);
	if (l)
		mqttlink_disconnect(l, 500);
	mqttlink_free(l);
	for (int i = 0; i < r.count; i++) {
		free(r.boards[i].pgn);
		free(r.boards[i].status);
	}
	free(r.boards);
	free(r.round);
	free(cfg);
	trace_close();
	return rc;
}
