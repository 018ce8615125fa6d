/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella relay --mqtt HOST:PORT --listen ADDR:PORT [--config FILE]
 *                 [--boards NAME,NAME... | --round ROUND.csv]
 *                 [--user U --password-file F] [--tls-ca FILE]
 * annabella relay tags ROUND.csv --mqtt HOST:PORT [--config FILE] [auth, TLS]
 *
 * docs/broadcast.md "Live broadcast and the room relay": the room.  The relay subscribes to every
 * board's retained pgn and status and serves, read-only, GET /round.pgn (every board's game in
 * board order, in the shape a tournament broadcast polls), GET /api/boards (JSON) and a page
 * (web/relay.*). Anything but GET and HEAD gets 405: nothing here reaches a game.
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

#include "base/log.h"
#include "base/strbuf.h"
#include "base/timeutil.h"
#include "base/trace.h"
#include "control/json.h"
#include "net/assets.h"
#include "config/config.h"
#include "net/httpd.h"
#include "net/mqttlink.h"
#include "net/room.h"
#include "net/net.h"

#define CSV_SIZE_MAX (1 << 20)
#define TAGS_WAIT_MS 10000

/* What a board published, topic by topic, over the time a view may look back. */
struct board {
	char name[ROOM_NAME_MAX];
	struct room_history pgn, status, link;
};

/* round.pgn, or /api/boards, as last built for one view: rebuilt only when what it was
 * built from changed. */
struct round_cache {
	uint64_t key; /* the versions it was built from */
	bool built;
	char *body, *gz;
	size_t len, gz_len;
	char etag[24];
	int64_t modified_ms; /* round.pgn: the last change (wall clock) */
	int64_t built_ms;    /* /api/boards: when (monotonic), its times being as of then */
};

#define IGNORED_SAID_MAX 64

struct relay {
	pthread_mutex_t lock; /* everything here: the broker's messages and the HTTP threads */
	int count;
	struct board *boards; /* ROOM_BOARDS_MAX */
	bool said_full;
	uint64_t seq;
	int64_t delay_ms;   /* the public view's */
	int64_t started_ms; /* wall clock */
	bool broker_up;
	int64_t broker_since_ms;	   /* wall clock of the broker's last change of state */
	struct round_cache round[2];	   /* the public view, the arbiter's */
	struct round_cache boards_json[2]; /* the same for /api/boards */
	/* The round's boards (round_count 0: every board that publishes), and the other
	 * names seen and logged. */
	char (*round_boards)[ROOM_NAME_MAX];
	int round_count;
	char ignored[IGNORED_SAID_MAX][ROOM_NAME_MAX];
	int ignored_count;
	bool ignored_more;
};

/* One listening address: the public view (delayed) or the arbiter's (as it happens). */
struct site {
	struct relay *r;
	bool arbiter;
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
			log_warn(LOG_MAIN, "more than %d boards: '%s' and later ones left out",
				 ROOM_BOARDS_MAX, name);
		r->said_full = true;
		return NULL;
	}
	b = &r->boards[r->count++];
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	return b;
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
		if (!strcmp(r->round_boards[i], name))
			return true;
	for (int i = 0; i < r->ignored_count; i++)
		if (!strcmp(r->ignored[i], name))
			return false;
	if (r->ignored_count < IGNORED_SAID_MAX) {
		snprintf(r->ignored[r->ignored_count++], ROOM_NAME_MAX, "%s", name);
		log_warn(LOG_MAIN,
			 "'%s' is not a board of the round: %s ignored (and whatever it "
			 "publishes later)",
			 name, topic);
	} else if (!r->ignored_more) {
		r->ignored_more = true;
		log_warn(LOG_MAIN,
			 "more than %d names that are no board of the round: the others are "
			 "ignored without a word",
			 IGNORED_SAID_MAX);
	}
	return false;
}

static void on_message(void *user, const char *topic, const char *payload, size_t len)
{
	static struct room_game traced; /* the main thread's only */
	struct relay *r = user;
	char name[ROOM_NAME_MAX];
	const char *kind;
	char *text;
	struct board *b;
	struct room_history *h;
	int added;
	bool ours;

	if (split_topic(topic, name, &kind) ||
	    (strcmp(kind, "pgn") && strcmp(kind, "status") && strcmp(kind, "link")))
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
	h = !strcmp(kind, "pgn") ? &b->pgn : !strcmp(kind, "status") ? &b->status : &b->link;
	/* A retained message comes again on every connect: the same text is no change. */
	/* Monotonic: a wall clock set back must never hide what arrived from any view. */
	added = room_history_add(h, (int64_t)monotonic_ms(), r->seq + 1, text, r->delay_ms);
	r->seq += (uint64_t)added;
	pthread_mutex_unlock(&r->lock);
	/* The trace for the benchmark: when the relay held a game of how many plies. */
	if (h == &b->pgn && trace_on() && len) {
		char *copy = strndup(payload, len);

		if (copy && room_game_parse(copy, &traced) == 0)
			trace_at(0, "relay-pgn", "%s %d %d", name, traced.plies, traced.clocks);
		free(copy);
	}
}

static void broker_state(struct relay *r, bool up)
{
	pthread_mutex_lock(&r->lock);
	if (r->broker_up != up) {
		r->broker_up = up;
		r->broker_since_ms = wall_ms();
	}
	pthread_mutex_unlock(&r->lock);
}

/* ------------------------------------------------------------------ a view of the room */

/* The room as a view shows it at time at_ms: each board's versions then, in board order. */
struct view_board {
	const struct board *b;
	const struct room_version *pgn, *status, *link;
	struct room_game *game; /* parsed from pgn, or NULL */
};

struct view {
	int64_t at_ms;
	int n;
	struct view_board e[ROOM_BOARDS_MAX];
};

static int view_compare(const void *a, const void *b)
{
	const struct view_board *x = a, *y = b;

	return room_board_compare(x->b->name, x->game ? room_game_tag(x->game, "Board") : NULL,
				  y->b->name, y->game ? room_game_tag(y->game, "Board") : NULL);
}

/* A view's time on the monotonic clock of the versions' arrival. */
static int64_t view_time(const struct relay *r, bool arbiter)
{
	return (int64_t)monotonic_ms() - (arbiter ? 0 : r->delay_ms);
}

/* A monotonic time of this process on the wall clock, for people and HTTP dates. */
static int64_t wall_of(int64_t mono_ms)
{
	return wall_ms() - ((int64_t)monotonic_ms() - mono_ms);
}

/* The versions only (r locked); a board with neither game nor status is not in the room. */
static void view_pick(const struct relay *r, int64_t at_ms, struct view *v)
{
	v->at_ms = at_ms;
	v->n = 0;
	for (int i = 0; i < r->count; i++) {
		struct view_board *e = &v->e[v->n];

		e->b = &r->boards[i];
		e->pgn = room_history_at(&e->b->pgn, at_ms);
		e->status = room_history_at(&e->b->status, at_ms);
		e->link = room_history_at(&e->b->link, at_ms);
		e->game = NULL;
		if ((e->pgn && e->pgn->text) || (e->status && e->status->text))
			v->n++;
	}
}

/* The games parsed and the boards sorted (r locked).  -1 when out of memory. */
static int view_order(struct view *v)
{
	for (int i = 0; i < v->n; i++) {
		struct view_board *e = &v->e[i];

		if (!e->pgn || !e->pgn->text)
			continue;
		e->game = malloc(sizeof(*e->game));
		if (!e->game)
			return -1;
		if (room_game_parse(e->pgn->text, e->game)) {
			free(e->game);
			e->game = NULL;
		}
	}
	qsort(v->e, (size_t)v->n, sizeof(v->e[0]), view_compare);
	return 0;
}

static void view_free(struct view *v)
{
	for (int i = 0; i < v->n; i++)
		free(v->e[i].game);
}

/* FNV-1a, 64 bits. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

#define FNV_START 0xcbf29ce484222325ULL

/* What a view was picked from: its boards' names and the versions of their games (and, for
 * every_topic, of their status and link too). */
static uint64_t view_key(const struct view *v, bool every_topic)
{
	uint64_t key = FNV_START;

	for (int i = 0; i < v->n; i++) {
		const struct view_board *e = &v->e[i];
		const uint64_t seq[3] = {e->pgn ? e->pgn->seq : 0, e->status ? e->status->seq : 0,
					 e->link ? e->link->seq : 0};

		key = fnv(key, e->b->name, strlen(e->b->name) + 1);
		key = fnv(key, seq, every_topic ? sizeof(seq) : sizeof(seq[0]));
	}
	return key;
}

/* ------------------------------------------------------------------ round.pgn */

/* The round's PGN of a view into the cache (r locked): rebuilt only if a game changed. */
static int round_build(struct relay *r, bool arbiter)
{
	struct round_cache *c = &r->round[arbiter];
	struct view *v = malloc(sizeof(*v));
	struct strbuf out = {0};
	uint64_t key;
	int64_t modified = 0;

	if (!v)
		return -1;
	view_pick(r, view_time(r, arbiter), v);
	key = view_key(v, false);
	for (int i = 0; i < v->n; i++)
		if (v->e[i].pgn && v->e[i].pgn->at_ms > modified)
			modified = v->e[i].pgn->at_ms;
	if (c->built && c->key == key) {
		free(v);
		return 0;
	}
	if (view_order(v)) {
		view_free(v);
		free(v);
		return -1;
	}
	for (int i = 0; i < v->n; i++)
		if (v->e[i].game)
			room_game_write(v->e[i].game, v->e[i].b->name, &out);
	view_free(v);
	free(v);
	free(c->body);
	free(c->gz);
	c->gz = NULL;
	c->body = strbuf_finish(&out);
	if (!c->body)
		c->body = strdup("");
	if (!c->body) {
		c->built = false;
		return -1;
	}
	c->len = strlen(c->body);
	/* The ETag names the text itself, so it is the same across restarts of the relay. */
	snprintf(c->etag, sizeof(c->etag), "\"%016llx\"",
		 (unsigned long long)fnv(FNV_START, c->body, c->len));
	/* A delayed view changed when the change became visible to it. */
	c->modified_ms = modified ? wall_of(modified + (arbiter ? 0 : r->delay_ms)) : r->started_ms;
	c->key = key;
	c->built = true;
	return 0;
}

/* Whether an If-None-Match list names etag ("*" names any; W/ is compared weakly). */
static bool etag_matches(const char *list, const char *etag)
{
	size_t n = strlen(etag);

	for (const char *p = list; *p;) {
		p += strspn(p, " \t,");
		if (!strncmp(p, "W/", 2))
			p += 2;
		if (*p == '*' || (!strncmp(p, etag, n) && (!p[n] || strchr(" \t,", p[n]))))
			return true;
		p += strcspn(p, ",");
	}
	return false;
}

static void http_date(int64_t ms, char *buf, size_t size)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

/* Cross-origin reads of round.pgn and the JSON (a broadcast's page may poll them). */
#define CORS_HEADERS                                                                               \
	{"Access-Control-Allow-Origin", "*"},                                                      \
	{                                                                                          \
		"Access-Control-Expose-Headers",                                                   \
		    "ETag, Last-Modified, Content-Length, X-Delay-S, X-Age-Ms"                     \
	}

static enum MHD_Result round_pgn(struct site *s, const struct httpd_request *req)
{
	struct relay *r = s->r;
	struct round_cache *c = &r->round[s->arbiter];
	const char *inm = httpd_header(req, "If-None-Match");
	const char *ims = httpd_header(req, "If-Modified-Since");
	bool gz = httpd_wants_gzip(httpd_header(req, "Accept-Encoding"));
	char modified[64], delay[24];
	enum MHD_Result ret;
	bool fresh = false;

	pthread_mutex_lock(&r->lock);
	if (round_build(r, s->arbiter)) {
		pthread_mutex_unlock(&r->lock);
		return httpd_respond_text(req, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain",
					  "out of memory\n");
	}
	if (gz && !c->gz)
		c->gz = httpd_gzip(c->body, c->len, &c->gz_len);
	gz = gz && c->gz;
	http_date(c->modified_ms, modified, sizeof(modified));
	snprintf(delay, sizeof(delay), "%lld", (long long)(s->arbiter ? 0 : r->delay_ms / 1000));
	if (inm) {
		fresh = etag_matches(inm, c->etag);
	} else if (ims) {
		struct tm tm = {0};
		const char *end = strptime(ims, "%a, %d %b %Y %H:%M:%S GMT", &tm);

		fresh = end && !*end && c->modified_ms / 1000 <= (int64_t)timegm(&tm);
	}
	{
		const struct httpd_header h[] = {
		    {"ETag", c->etag},
		    {"Last-Modified", modified},
		    {"Cache-Control", "no-cache"},
		    {"Vary", "Accept-Encoding"},
		    {"X-Delay-S", delay},
		    CORS_HEADERS,
		    {"Content-Encoding", "gzip"},
		};
		size_t count = sizeof(h) / sizeof(h[0]) - (gz && !fresh ? 0 : 1);

		if (fresh)
			ret = httpd_respond_headers(req, MHD_HTTP_NOT_MODIFIED, NULL, "", 0, h,
						    count);
		else
			ret = httpd_respond_headers(
			    req, MHD_HTTP_OK, "application/x-chess-pgn; charset=utf-8",
			    gz ? c->gz : c->body, gz ? c->gz_len : c->len, h, count);
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

/* ------------------------------------------------------------------ /api/boards */

/* A key of the status's "clock" or "result" object (raw JSON text) into buf. */
static int status_field(const char *status, const char *object, const char *key, char *buf,
			size_t size)
{
	char obj[2048];

	if (!status || json_get(status, object, obj, sizeof(obj)) <= 0 || obj[0] != '{')
		return -1;
	return json_get(obj, key, buf, size);
}

/* true/false of a key of the link's JSON as a JSON value, or null. */
static void link_flag(struct json_writer *w, const char *link, const char *key)
{
	char v[16];

	if (link && json_get(link, key, v, sizeof(v)) > 0 &&
	    (!strcmp(v, "true") || !strcmp(v, "false")))
		json_bool(w, key, !strcmp(v, "true"));
	else
		json_null(w, key);
}

static void board_json(struct json_writer *w, const struct view_board *e, int64_t at_ms)
{
	const char *status = e->status ? e->status->text : NULL;
	const struct room_game *g = e->game;
	int64_t received = 0;
	char v[256];

	if (e->pgn)
		received = e->pgn->at_ms;
	if (e->status && e->status->at_ms > received)
		received = e->status->at_ms;
	if (e->link && e->link->at_ms > received)
		received = e->link->at_ms;
	json_object(w, NULL);
	json_string(w, "name", e->b->name);
	json_object(w, "tags");
	for (int i = 0; g && i < g->tag_count; i++) {
		/* The value as it reads, without PGN's escapes (\" and \\). */
		const char *p = g->tags[i].value;
		char value[ROOM_TAG_VALUE_MAX];
		size_t n = 0;

		for (; *p && n + 1 < sizeof(value); p++)
			value[n++] = *p == '\\' && p[1] ? *++p : *p;
		value[n] = '\0';
		json_string(w, g->tags[i].name, value);
	}
	json_end(w);
	json_int(w, "plies", g ? g->plies : 0);
	json_string(w, "result", g ? room_game_tag(g, "Result") : NULL);
	if (status_field(status, "last_move", "san", v, sizeof(v)) > 0)
		json_string(w, "last_move", v);
	else
		json_null(w, "last_move");
	if (status && json_get(status, "fen", v, sizeof(v)) > 0)
		json_string(w, "fen", v);
	else
		json_null(w, "fen");
	json_array(w, "moves");
	if (g) {
		const char *cursor = g->movetext, *move;
		size_t len;

		while (room_movetext_next(&cursor, &move, &len)) {
			char san[16];

			if (len >= sizeof(san))
				len = sizeof(san) - 1;
			memcpy(san, move, len);
			san[len] = '\0';
			json_string(w, NULL, san);
		}
	}
	json_end(w);
	json_object(w, "clock");
	if (status_field(status, "clock", "white_ms", v, sizeof(v)) > 0)
		json_int(w, "white_ms", strtoll(v, NULL, 10));
	if (status_field(status, "clock", "black_ms", v, sizeof(v)) > 0)
		json_int(w, "black_ms", strtoll(v, NULL, 10));
	if (status_field(status, "clock", "running", v, sizeof(v)) > 0 && strcmp(v, "null"))
		json_string(w, "running", v);
	else
		json_null(w, "running");
	if (status_field(status, "clock", "state", v, sizeof(v)) > 0)
		json_string(w, "state", v);
	/* How old the readings are, so a page can run the clock on from them. */
	json_int(w, "age_ms", e->status ? at_ms - e->status->at_ms : 0);
	json_end(w);
	/* The board's link: its broadcast (gone: the broker's last will) and its daemon. */
	json_object(w, "link");
	link_flag(w, e->link ? e->link->text : NULL, "broadcast");
	link_flag(w, e->link ? e->link->text : NULL, "daemon");
	json_end(w);
	json_int(w, "received_ms", received ? wall_of(received) : 0);
	json_int(w, "age_ms", at_ms - received);
	json_end(w);
}
/*
 * /api/boards of a view into the cache (r locked): rebuilt only when a board's game, status
 * or link, or the broker's state, changed.  Its times are as of its building (built_ms); the
 * answer says how long ago that was (X-Age-Ms), so a page runs the clocks on from there.  So
 * a room of phones polling every second costs a copy each, not a build.
 */
static int boards_build(struct relay *r, bool arbiter)
{
	struct round_cache *c = &r->boards_json[arbiter];
	struct strbuf out = {0};
	struct json_writer w;
	struct view *v = malloc(sizeof(*v));
	uint64_t key;

	if (!v)
		return -1;
	view_pick(r, view_time(r, arbiter), v);
	key = view_key(v, true);
	key = fnv(key, &r->broker_up, sizeof(r->broker_up));
	key = fnv(key, &r->broker_since_ms, sizeof(r->broker_since_ms));
	if (c->built && c->key == key) {
		free(v);
		return 0;
	}
	json_init(&w, &out);
	json_object(&w, NULL);
	json_int(&w, "now_ms", wall_ms());
	/* The view's own time: a delayed view is the room as it was delay_ms ago. */
	json_int(&w, "delay_ms", arbiter ? 0 : r->delay_ms);
	json_bool(&w, "arbiter", arbiter);
	json_object(&w, "broker");
	json_bool(&w, "up", r->broker_up);
	json_int(&w, "since_ms", r->broker_since_ms);
	json_end(&w);
	if (view_order(v) == 0) {
		json_array(&w, "boards");
		for (int i = 0; i < v->n; i++)
			board_json(&w, &v->e[i], v->at_ms);
		json_end(&w);
	}
	view_free(v);
	free(v);
	json_end(&w);
	strbuf_append(&out, "\n", 1);
	free(c->body);
	free(c->gz);
	c->gz = NULL;
	c->body = strbuf_finish(&out);
	c->built = c->body != NULL;
	if (!c->built)
		return -1;
	c->len = strlen(c->body);
	c->key = key;
	c->built_ms = (int64_t)monotonic_ms();
	return 0;
}

static enum MHD_Result boards(struct site *s, const struct httpd_request *req)
{
	struct relay *r = s->r;
	struct round_cache *c = &r->boards_json[s->arbiter];
	bool gz = httpd_wants_gzip(httpd_header(req, "Accept-Encoding"));
	enum MHD_Result ret;
	char age[24];

	pthread_mutex_lock(&r->lock);
	if (boards_build(r, s->arbiter)) {
		pthread_mutex_unlock(&r->lock);
		return httpd_respond_text(req, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain",
					  "out of memory\n");
	}
	if (gz && !c->gz)
		c->gz = httpd_gzip(c->body, c->len, &c->gz_len);
	gz = gz && c->gz;
	snprintf(age, sizeof(age), "%lld", (long long)((int64_t)monotonic_ms() - c->built_ms));
	{
		const struct httpd_header h[] = {
		    {"Vary", "Accept-Encoding"},
		    {"X-Age-Ms", age},
		    CORS_HEADERS,
		    {"Content-Encoding", "gzip"},
		};

		ret = httpd_respond_headers(req, MHD_HTTP_OK, "application/json",
					    gz ? c->gz : c->body, gz ? c->gz_len : c->len, h,
					    sizeof(h) / sizeof(h[0]) - (gz ? 0 : 1));
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

static enum MHD_Result handle(void *user, const struct httpd_request *req)
{
	struct site *s = user;
	const struct asset *a = NULL;

	if (!strcmp(req->method, "OPTIONS")) {
		/* A cross-origin poll with If-None-Match asks first. */
		const struct httpd_header h[] = {
		    CORS_HEADERS,
		    {"Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"},
		    {"Access-Control-Allow-Headers", "If-None-Match, If-Modified-Since"},
		    {"Access-Control-Max-Age", "86400"},
		    {"Allow", "GET, HEAD, OPTIONS"},
		};

		return httpd_respond_headers(req, MHD_HTTP_NO_CONTENT, NULL, "", 0, h,
					     sizeof(h) / sizeof(h[0]));
	}
	if (strcmp(req->method, "GET") && strcmp(req->method, "HEAD"))
		return httpd_respond_text(req, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
					  "read-only: GET and HEAD only\n");
	if (!strcmp(req->url, "/round.pgn"))
		return round_pgn(s, req);
	if (!strcmp(req->url, "/") || !strncmp(req->url, "/relay.", 7) ||
	    !strcmp(req->url, "/board.js")) {
		a = asset_find(strcmp(req->url, "/") ? req->url : "/relay.html");
		if (a)
			return httpd_respond_static(req, a->content_type, a->data, a->len);
	}
	if (strcmp(req->url, "/api/boards"))
		return httpd_respond_text(req, MHD_HTTP_NOT_FOUND, "text/plain", "not found\n");
	return boards(s, req);
}

/* ------------------------------------------------------------------ options */

struct relay_options {
	const char *config, *mqtt, *user, *password_file, *tls_ca, *listen, *arbiter_listen, *delay;
	const char *boards, *round;
	int delay_s;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: annabella relay --mqtt HOST:PORT --listen ADDR:PORT [--config FILE]\n"
		   "           [--delay MINUTES] [--arbiter-listen ADDR:PORT]\n"
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
	    {"delay", required_argument, NULL, 'd'},
	    {"arbiter-listen", required_argument, NULL, 'a'},
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
		case 'd':
			o->delay = optarg;
			break;
		case 'a':
			o->arbiter_listen = optarg;
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
	if (optind < argc + 1 ||
	    (tags && (o->listen || o->delay || o->arbiter_listen || o->boards || o->round))) {
		usage(stderr);
		return 2;
	}
	config_defaults(cfg);
	if (o->config && config_load(cfg, o->config, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (!o->listen && cfg->relay_listen[0])
		o->listen = cfg->relay_listen;
	if (!o->boards && !o->round) {
		o->boards = cfg->relay_boards[0] ? cfg->relay_boards : NULL;
		o->round = cfg->relay_round[0] ? cfg->relay_round : NULL;
	}
	if (!tags && !o->listen) {
		log_error(LOG_MAIN, "no address: give --listen ADDR:PORT (or listen = in [relay])");
		return 2;
	}
	if (!o->arbiter_listen && cfg->relay_arbiter_listen[0])
		o->arbiter_listen = cfg->relay_arbiter_listen;
	o->delay_s = cfg->relay_delay_s;
	if (o->delay && (o->delay_s = config_minutes(o->delay)) < 0) {
		log_error(LOG_MAIN,
			  "--delay '%s': give minutes from 0 to 1440 (a fraction allowed: 0.5)",
			  o->delay);
		return 2;
	}
	if (mqtt_options_from(mo, &cfg->relay_mqtt, o->mqtt, o->user, o->password_file, o->tls_ca,
			      err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
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
		log_error(LOG_MAIN, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > CSV_SIZE_MAX) {
		log_error(LOG_MAIN, "%s: not a CSV file of at most %d bytes", path, CSV_SIZE_MAX);
		fclose(f);
		return -1;
	}
	*text = malloc((size_t)st.st_size + 1);
	n = *text ? fread(*text, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!*text || n != (size_t)st.st_size) {
		log_error(LOG_MAIN, "%s: cannot read: %s", path,
			  *text ? "short read" : "out of memory");
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
		log_error(LOG_MAIN, "%s:%s", path, err);
		goto out;
	}
	rc = 1;
	l = mqttlink_new(&mo, NULL, &cb, &t, err, sizeof(err));
	if (!l) {
		log_error(LOG_MAIN, "%s", err);
		goto out;
	}
	if (!run_until(l, link_up, NULL, TAGS_WAIT_MS)) {
		log_error(LOG_MAIN, "broker %s:%d: %s; nothing sent", mo.host, mo.port,
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
			log_error(LOG_MAIN, "%s: not sent", topic);
		free(p);
	}
	if (!run_until(l, all_acknowledged, &t, TAGS_WAIT_MS) || t.outstanding != 0) {
		log_error(LOG_MAIN, "broker %s:%d: %d of %d boards' tags not acknowledged", mo.host,
			  mo.port, t.outstanding, csv->row_count);
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
		log_error(LOG_MAIN,
			  "%s: '%s' is not a board's name (letters, digits, '.', '_', '-')", where,
			  name);
		return -1;
	}
	for (int i = 0; i < r->round_count; i++)
		if (!strcmp(r->round_boards[i], name))
			return 0;
	if (r->round_count == ROOM_BOARDS_MAX) {
		log_error(LOG_MAIN, "%s: more than %d boards", where, ROOM_BOARDS_MAX);
		return -1;
	}
	snprintf(r->round_boards[r->round_count++], ROOM_NAME_MAX, "%s", name);
	return 0;
}

/* The boards of --boards (names, comma or space separated) and of --round's rows. */
static int round_boards(struct relay *r, const struct relay_options *o)
{
	if (!o->boards && !o->round)
		return 0;
	r->round_boards = calloc(ROOM_BOARDS_MAX, sizeof(*r->round_boards));
	if (!r->round_boards)
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
			log_error(LOG_MAIN, "%s:%s", o->round, err);
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
		log_error(LOG_MAIN, "the round names no board");
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
	struct site public_site = {.r = &r}, arbiter_site = {.r = &r, .arbiter = true};
	struct mqttlink_callbacks cb = {.message = on_message};
	struct mqttlink *l = NULL;
	struct httpd *h = NULL, *ha = NULL;
	struct sigaction sa = {.sa_handler = on_signal};
	char err[400];
	int rc;

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
		free(r.round_boards);
		return rc == 1 ? 0 : 2;
	}
	r.delay_ms = (int64_t)o.delay_s * 1000;
	r.started_ms = r.broker_since_ms = wall_ms();
	trace_open_from_env();
	rc = 1;
	l = mqttlink_new(&mo, NULL, &cb, &r, err, sizeof(err));
	if (!l) {
		log_error(LOG_MAIN, "%s", err);
		goto out;
	}
	mqttlink_subscribe(l, "annabella/+/pgn");
	mqttlink_subscribe(l, "annabella/+/status");
	mqttlink_subscribe(l, "annabella/+/link");
	h = httpd_start(&(struct httpd_options){.listen = o.listen}, handle, &public_site, err,
			sizeof(err));
	if (!h) {
		log_error(LOG_MAIN, "--listen %s: %s", o.listen, err);
		rc = 2;
		goto out;
	}
	if (o.arbiter_listen) {
		ha = httpd_start(&(struct httpd_options){.listen = o.arbiter_listen}, handle,
				 &arbiter_site, err, sizeof(err));
		if (!ha) {
			log_error(LOG_MAIN, "--arbiter-listen %s: %s", o.arbiter_listen, err);
			rc = 2;
			goto out;
		}
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	log_info(LOG_MAIN, "listening on http://%s/ for the boards of %s:%d%s", httpd_address(h),
		 mo.host, mo.port, mo.tls_ca[0] ? " (TLS)" : "");
	if (r.delay_ms)
		log_info(LOG_MAIN, "the public view is %d min %d s behind the boards",
			 o.delay_s / 60, o.delay_s % 60);
	if (ha)
		log_info(LOG_MAIN, "the arbiter's view, undelayed, on http://%s/",
			 httpd_address(ha));
	if (r.round_count)
		log_info(LOG_MAIN, "the round: %d boards; other publishers are ignored",
			 r.round_count);
	else
		log_warn(LOG_MAIN,
			 "no --boards or --round: every board that publishes on the broker is "
			 "shown");
	rc = 0;
	while (!stopping) {
		struct pollfd pfd;

		mqttlink_pollfd(l, &pfd);
		if (poll(&pfd, 1, mqttlink_timeout(l)) < 0 && errno != EINTR) {
			log_error(LOG_MAIN, "poll: %s", strerror(errno));
			rc = 1;
			break;
		}
		mqttlink_run(l, pfd.revents);
		broker_state(&r, mqttlink_up(l));
	}
out:
	httpd_stop(ha);
	httpd_stop(h);
	if (l)
		mqttlink_disconnect(l, 500);
	mqttlink_free(l);
	for (int i = 0; i < r.count; i++) {
		room_history_free(&r.boards[i].pgn);
		room_history_free(&r.boards[i].status);
		room_history_free(&r.boards[i].link);
	}
	for (int i = 0; i < 2; i++) {
		free(r.round[i].body);
		free(r.round[i].gz);
		free(r.boards_json[i].body);
		free(r.boards_json[i].gz);
	}
	free(r.boards);
	free(r.round_boards);
	free(cfg);
	trace_close();
	return rc;
}
