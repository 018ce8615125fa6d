/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the relay serves (docs/broadcast.md "Live broadcast and the room relay"): a view of
 * the room as it was at a time (the public view delayed, the arbiter's not), round.pgn and
 * /api/boards built from it into caches rebuilt only when what they show changed, and the
 * handler of a site's requests: GET and HEAD only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/strbuf.h"
#include "base/timeutil.h"
#include "control/json.h"
#include "net/assets.h"
#include "net/relay.h"

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
	return relay_wall_ms() - ((int64_t)monotonic_ms() - mono_ms);
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

/* Whether the answer goes gzipped: when the client takes it and the cache's body could be
 * compressed (once for the cache, on the first request that wants it). */
static bool cache_gzip(struct round_cache *c, bool wanted)
{
	if (wanted && !c->gz)
		c->gz = httpd_gzip(c->body, c->len, &c->gz_len);
	return wanted && c->gz;
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
	gz = cache_gzip(c, gz);
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
	json_int(&w, "now_ms", relay_wall_ms());
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
	gz = cache_gzip(c, gz);
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

enum MHD_Result relay_handle(void *user, const struct httpd_request *req)
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
