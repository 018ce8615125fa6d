/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella web --listen ADDR:PORT [--socket PATH] [--config FILE]
 *               [--tls-cert FILE --tls-key FILE]
 * annabella web certificate DIR
 *
 * docs/web.md "The web page for the assistant and the arbiter".
 *
 * The assistant's and the arbiter's page, served on libmicrohttpd by a process of its own:
 * a client of the daemon's control socket like the CLI, so the daemon never opens a
 * network socket and the page can be stopped or firewalled without touching the game.
 *
 * One thread keeps a `watch public` connection to the daemon (reconnecting with back-off)
 * and, after each batch of events, a second connection refreshes the cached status (`status
 * public`), scoresheet and PGN; only then are the events put into a ring that every
 * server-sent event stream reads at its own pace.  The page is open to anyone on the
 * network, so it carries only what anyone may know (game/audience.h), whatever the role of
 * this process's user.  Requests without a PIN are answered from that cache (the other
 * reads, rarer, at most WEB_READS_BURST at once and one each WEB_READS_MS per address), so
 * visitors never reach the daemon.
 *
 *   GET  /, /app.js, /style.css        the page (web/, built in)
 *   GET  /api/status                   the daemon's status reply (header X-Age-Ms: its age)
 *   GET  /api/moves, /api/commands     the scoresheet reply; the command table (`help`)
 *   GET  /game.pgn                     the game's PGN
 *   GET  /api/legal                    the legal moves of the cached position (SAN, UCI and
 *                                      the local notation), offered as the assistant types
 *   GET  /api/events                   server-sent events: each `watch` line, with its id;
 *                                      Last-Event-ID catches up from the ring; an `alive`
 *                                      event every 2 s says how old the data is, so a page
 *                                      knows when it is not live (the daemon or this
 *                                      process frozen or gone)
 *   POST /api/command                  body: one section 8 line; header X-PIN: the PIN.
 *                                      Without a PIN only status, moves, export and help.
 *                                      X-Page: the page's own word, passed on with `auth`;
 *                                      X-Lang: the page's language, passed on with
 *                                      `notation` when it is not the daemon's (its piece
 *                                      letters in the moves typed).
 *
 * The HTTP side is one event loop (net/httpd.h): an event stream waits suspended, and a
 * command that needs the daemon is queued for WEB_WORKERS threads, each with one daemon
 * connection at a time, so the page never holds more of the daemon's connections for its
 * user than the daemon gives one user (the arbiter's commands go first).  A full queue is
 * 503 "busy", and so is the daemon's refusal of a connection: never "wrong PIN".
 *
 * PINs: net/pingate.h (each address's own budget; the arbiter's PIN never held back by
 * others' guesses), against the salted hashes of the PIN file (base/pinhash.h): the page
 * holds no PIN but the one a request brings.  Only a right PIN is passed on with `auth`,
 * so the daemon never counts the page's user as guessing.  Without the PINs in its
 * configuration the page passes each PIN on, one at a time per address.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/lang.h"
#include "base/log.h"
#include "base/pinguard.h"
#include "base/timeutil.h"
#include "chess/chess.h"
#include "config/config.h"
#include "control/json.h"
#include "control/protocol.h"
#include "game/color.h"
#include "net/assets.h"
#include "net/ctlclient.h"
#include "net/httpd.h"
#include "net/net.h"
#include "net/pingate.h"
#include "net/tlscert.h"

#define RING		  512  /* events kept for streams that fall behind or reconnect */
#define KEEPALIVE_MS	  2000 /* an `alive` event on an idle stream */
#define HEARTBEAT_MS	  2000 /* a quiet daemon is asked for its status this often */
#define HEARTBEAT_WAIT_MS 2500 /* and is taken as lost without a reply within this */
#define REQUEST_MS	  5000 /* a reply from the daemon */
#define BACKOFF_FIRST_MS  250
#define BACKOFF_MAX_MS	  5000
/* The daemon gives one user six connections; the page keeps two (watch, requests). */
#define WEB_WORKERS	3
#define WEB_QUEUE	32 /* commands waiting for a worker */
#define WEB_PER_ADDRESS 4  /* of them, from one address (queued or being answered) */
/* Reads without a PIN that the cache does not hold (an older game's export): per address. */
#define WEB_READS_BURST 5
#define WEB_READS_MS	3000
#define WEB_READERS	64
/* Event streams per address: a new one beyond ends the oldest (a page reloaded, or one whose
 * phone went away: a waiting stream cannot tell until it sends). */
#define WEB_STREAMS_PER_ADDRESS 4

/* A command for the daemon, from the request that waits for it to the worker and back. */
struct job {
	struct job *next;
	struct MHD_Connection *conn;
	char line[4097];
	char pin[32], page[17], key[64];
	char lang[3];	 /* the page's language (X-Lang): its piece letters in the moves typed */
	bool arbiter;	 /* its PIN is the arbiter's: it goes first */
	bool ask;	 /* the page does not know the PINs: the daemon's answer goes to the gate */
	unsigned status; /* the answer: HTTP status ... */
	char *body;	 /* ... and JSON (malloc'd) */
	uint64_t retry_ms; /* a 429's or 503's wait */
};

struct reader {
	char key[64];
	double tokens;
	uint64_t at;
};

/* An event stream; while it waits for data it is suspended, in the list web.waiting. */
struct stream {
	struct web *w;
	struct MHD_Connection *conn;
	struct stream *prev, *next;	    /* in web.waiting, while suspended */
	struct stream *all_prev, *all_next; /* in web.all */
	char key[64];			    /* its address (req->key) */
	bool suspended, ended;
	uint64_t next_seq; /* the seq to send next */
	uint64_t sent_at;  /* when it was last sent something */
	char *out;	   /* formatted, not yet sent */
	size_t off, len;
};

struct web;

struct web_worker {
	struct web *w;
	int me;
	pthread_t thread;
	bool started;
};

struct web {
	char socket[108];
	pthread_mutex_t mu;
	/* The ring: event seq is at ring[seq % RING]; seq counts from 1. */
	char *ring[RING];
	uint64_t seq;
	bool stopping;
	/* The cache, refreshed after each batch of events (NULL: not known). */
	char *status, *moves, *pgn, *commands, *export_pgn;
	uint64_t status_at; /* monotonic ms of the status request */
	uint64_t heard_at;  /* monotonic ms of the daemon's last word (an event or a reply) */
	int streams;	    /* event streams open: pages that show the data live */
	struct stream *all, *waiting;
	bool daemon_up;
	/* PINs, and the reads per address the cache cannot answer. */
	struct pin_gate gate;
	struct reader readers[WEB_READERS];
	/* The commands for the daemon. */
	pthread_cond_t jobs_cv;
	struct job *queue;
	int queued;
	struct job *working[WEB_WORKERS];
	struct web_worker workers[WEB_WORKERS];
	bool workers_stop;
};

/* Set by the signal handler, read by the daemon thread: an atomic, not only a volatile
 * sig_atomic_t, since another thread reads it (ThreadSanitizer found the race when the
 * page was stopped). */
static atomic_int stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop_requested, 1);
}

/* A stream that waits resumed (mu held). */
static void wake(struct web *w, struct stream *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		w->waiting = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->prev = s->next = NULL;
	s->suspended = false;
	httpd_resume(s->conn);
}

/* Resumes the streams that wait (mu held): all of them, or those that have sent nothing
 * since quiet_since (their `alive` is due). */
static void wake_streams(struct web *w, uint64_t quiet_since)
{
	struct stream *s = w->waiting, *next;

	for (; s; s = next) {
		next = s->next;
		if (quiet_since == UINT64_MAX || s->sent_at <= quiet_since)
			wake(w, s);
	}
}

/* ------------------------------------------------------------------ the daemon side */

/* Puts one event line into the ring and wakes the streams (mu held). */
static void ring_push_locked(struct web *w, const char *line)
{
	char *copy = strdup(line);
	uint64_t s;

	if (!copy)
		return;
	s = ++w->seq;
	free(w->ring[s % RING]);
	w->ring[s % RING] = copy;
}

static void replace(char **slot, char *value)
{
	free(*slot);
	*slot = value;
}

/* The "text" of an export reply as a malloc'd string, or NULL. */
static char *export_text(const char *reply)
{
	size_t n = strlen(reply) + 1;
	char *text = malloc(n);

	if (text && json_get(reply, "text", text, n) < 0) {
		free(text);
		text = NULL;
	}
	return text;
}

/* Status, scoresheet and PGN from the daemon into the cache. */
static int refresh(struct web *w, struct ctlclient *req, bool commands)
{
	char *status = NULL, *moves = NULL, *pgn = NULL, *help = NULL;
	uint64_t at = monotonic_ms();

	if (ctlclient_request(req, "status public", &status, REQUEST_MS) ||
	    ctlclient_request(req, "moves", &moves, REQUEST_MS) ||
	    ctlclient_request(req, "export pgn", &pgn, REQUEST_MS) ||
	    (commands && ctlclient_request(req, "help", &help, REQUEST_MS))) {
		free(status);
		free(moves);
		free(pgn);
		free(help);
		return -1;
	}
	pthread_mutex_lock(&w->mu);
	replace(&w->status, status);
	w->status_at = at;
	w->heard_at = monotonic_ms();
	replace(&w->moves, moves);
	replace(&w->pgn, ctlclient_reply_ok(pgn) ? export_text(pgn) : NULL);
	replace(&w->export_pgn, pgn);
	if (help)
		replace(&w->commands, help);
	pthread_mutex_unlock(&w->mu);
	return 0;
}

static void announce_link(struct web *w, bool up)
{
	pthread_mutex_lock(&w->mu);
	if (w->daemon_up != up) {
		w->daemon_up = up;
		ring_push_locked(w, up ? "{\"event\":\"daemon\",\"up\":true}"
				       : "{\"event\":\"daemon\",\"up\":false}");
		wake_streams(w, UINT64_MAX);
	}
	pthread_mutex_unlock(&w->mu);
}

/* Whether every event of a batch is an utterance (`say`). */
static bool only_said(char *const *batch, int n)
{
	for (int i = 0; i < n; i++) {
		char event[16];

		if (json_get(batch[i], "event", event, sizeof(event)) < 0 || strcmp(event, "say"))
			return false;
	}
	return true;
}

static void heard(struct web *w)
{
	pthread_mutex_lock(&w->mu);
	w->heard_at = monotonic_ms();
	pthread_mutex_unlock(&w->mu);
}

/*
 * A quiet daemon is asked for its status: a frozen one (stopped, wedged) keeps its sockets
 * open and says nothing, and the pages must not show its last clocks as live.  -1 when it
 * did not answer in time.
 */
static int heartbeat(struct web *w, struct ctlclient *req)
{
	char *status = NULL;
	uint64_t at = monotonic_ms();

	if (ctlclient_request(req, "status public", &status, HEARTBEAT_WAIT_MS)) {
		free(status);
		return -1;
	}
	pthread_mutex_lock(&w->mu);
	replace(&w->status, status);
	w->status_at = at;
	w->heard_at = monotonic_ms();
	pthread_mutex_unlock(&w->mu);
	return 0;
}

static bool streams_open(struct web *w)
{
	bool open;

	pthread_mutex_lock(&w->mu);
	open = w->streams > 0;
	pthread_mutex_unlock(&w->mu);
	return open;
}

/* One connection's life: watch, and after each batch of events refresh, then publish. */
static void follow(struct web *w, struct ctlclient *watch, struct ctlclient *req)
{
	const char *line;
	char *batch[64];
	int n = 0;
	uint64_t quiet_since = monotonic_ms();

	for (;;) {
		int r = ctlclient_read(watch, &line, n ? 0 : 500);

		if (r > 0) {
			quiet_since = monotonic_ms();
			heard(w);
			batch[n] = strdup(line);
			if (batch[n])
				n++;
			if (n < (int)(sizeof(batch) / sizeof(batch[0])))
				continue;
		} else if (r == 0 || errno != ETIMEDOUT) {
			break;
		}
		if (!n) {
			if (stop_requested)
				break;
			/* Only while a page follows: each request is a line of control.log. */
			if (monotonic_ms() - quiet_since >= HEARTBEAT_MS && streams_open(w)) {
				if (heartbeat(w, req)) {
					log_warn(LOG_MAIN, "the daemon does not answer");
					break;
				}
				quiet_since = monotonic_ms();
			}
			continue;
		}
		/* The cache first, then the events: a page that asks on an event sees it.  What
		 * is said changes nothing the cache holds. */
		if (!only_said(batch, n) && refresh(w, req, false))
			break;
		pthread_mutex_lock(&w->mu);
		for (int i = 0; i < n; i++)
			ring_push_locked(w, batch[i]);
		wake_streams(w, UINT64_MAX);
		pthread_mutex_unlock(&w->mu);
		for (int i = 0; i < n; i++)
			free(batch[i]);
		n = 0;
	}
	for (int i = 0; i < n; i++)
		free(batch[i]);
}

static void *daemon_thread(void *arg)
{
	struct web *w = arg;
	int backoff = BACKOFF_FIRST_MS;
	bool said = false;

	while (!stop_requested) {
		char err[256], *reply = NULL;
		struct ctlclient *watch = ctlclient_connect(w->socket, err, sizeof(err));
		struct ctlclient *req =
		    watch ? ctlclient_connect(w->socket, err, sizeof(err)) : NULL;

		if (req && !ctlclient_request(watch, "watch public", &reply, REQUEST_MS) &&
		    ctlclient_reply_ok(reply) && !refresh(w, req, true)) {
			log_info(LOG_MAIN, "following the daemon at %s", w->socket);
			said = false;
			backoff = BACKOFF_FIRST_MS;
			announce_link(w, true);
			follow(w, watch, req);
			announce_link(w, false);
			if (!stop_requested)
				log_warn(LOG_MAIN, "lost the daemon; retrying");
		} else if (!said) {
			log_warn(LOG_MAIN, "%s; retrying", req ? "the daemon did not answer" : err);
			said = true;
		}
		free(reply);
		ctlclient_close(req);
		ctlclient_close(watch);
		for (int t = 0; t < backoff && !stop_requested; t += 50)
			usleep(50 * 1000);
		backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
	}
	return NULL;
}

/* ------------------------------------------------------------------ server-sent events */

static void stream_done(void *cls)
{
	struct stream *s = cls;
	struct web *w = s->w;

	pthread_mutex_lock(&w->mu);
	w->streams--;
	if (s->all_prev)
		s->all_prev->all_next = s->all_next;
	else
		w->all = s->all_next;
	if (s->all_next)
		s->all_next->all_prev = s->all_prev;
	pthread_mutex_unlock(&w->mu);
	free(s->out);
	free(s);
}

/* A new stream from s->key among the others (mu held); beyond WEB_STREAMS_PER_ADDRESS the
 * address's oldest ends. */
static void stream_add(struct web *w, struct stream *s)
{
	struct stream *oldest = NULL;
	int n = 0;

	for (struct stream *o = w->all; o; o = o->all_next)
		if (!o->ended && !strcmp(o->key, s->key)) {
			n++;
			oldest = o; /* the list is newest first */
		}
	if (n >= WEB_STREAMS_PER_ADDRESS) {
		oldest->ended = true;
		if (oldest->suspended)
			wake(w, oldest);
	}
	s->all_next = w->all;
	if (w->all)
		w->all->all_prev = s;
	w->all = s;
	w->streams++;
}

/* The next message for a stream into s->out (mu held): 1, 0 when there is none yet, -1 at
 * the end. */
static int stream_next(struct stream *s, uint64_t now)
{
	struct web *w = s->w;
	int n;

	free(s->out);
	s->out = NULL;
	if (w->stopping || s->ended)
		return -1;
	if (w->seq >= s->next_seq && w->seq - s->next_seq >= RING - 1) {
		/* Fallen behind the ring: the page starts again from the status. */
		s->next_seq = w->seq + 1;
		n = asprintf(&s->out, "event: reset\ndata: {}\n\n");
	} else if (w->seq >= s->next_seq) {
		n = asprintf(&s->out, "id: %llu\ndata: %s\n\n", (unsigned long long)s->next_seq,
			     w->ring[s->next_seq % RING]);
		s->next_seq++;
	} else if (now - s->sent_at >= KEEPALIVE_MS) {
		/* The page's sign of life: without it for a while, its data is not live. */
		n = asprintf(&s->out, "event: alive\ndata: {\"up\":%s,\"age_ms\":%llu}\n\n",
			     w->daemon_up ? "true" : "false",
			     (unsigned long long)(now - w->heard_at));
	} else {
		return 0;
	}
	if (n < 0) {
		s->out = NULL;
		return -1;
	}
	s->sent_at = now;
	s->off = 0;
	s->len = strlen(s->out);
	return 1;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct stream *s = cls;
	struct web *w = s->w;
	size_t n;

	(void)pos;
	if (s->off == s->len) {
		int r;

		pthread_mutex_lock(&w->mu);
		r = stream_next(s, monotonic_ms());
		if (r == 0) {
			/* Nothing to send: suspended until an event or its `alive` is due. */
			s->suspended = true;
			s->next = w->waiting;
			if (w->waiting)
				w->waiting->prev = s;
			w->waiting = s;
			httpd_stream_wait(s->conn);
		}
		pthread_mutex_unlock(&w->mu);
		if (r < 0)
			return MHD_CONTENT_READER_END_OF_STREAM;
		if (r == 0)
			return 0;
	}
	n = s->len - s->off < max ? s->len - s->off : max;
	memcpy(buf, s->out + s->off, n);
	s->off += n;
	return (ssize_t)n;
}

static enum MHD_Result events(struct web *w, const struct httpd_request *req)
{
	struct stream *s = calloc(1, sizeof(*s));
	const char *last = httpd_header(req, "Last-Event-ID");
	char *end;

	if (!s)
		return MHD_NO;
	s->w = w;
	s->conn = req->conn;
	snprintf(s->key, sizeof(s->key), "%s", req->key);
	pthread_mutex_lock(&w->mu);
	stream_add(w, s);
	s->next_seq = w->seq + 1;
	s->sent_at = monotonic_ms();
	if (last && *last) {
		unsigned long long id = strtoull(last, &end, 10);

		if (!*end && id <= w->seq)
			s->next_seq = id + 1; /* too old for the ring: stream_next() resets */
	}
	pthread_mutex_unlock(&w->mu);
	/* The first message says where the stream stands (and opens it at once). */
	if (asprintf(&s->out, "retry: 1000\nevent: hello\ndata: {}\n\n") < 0) {
		s->out = NULL;
		stream_done(s);
		return MHD_NO;
	}
	s->len = strlen(s->out);
	return httpd_respond_stream(req, "text/event-stream", stream_read, s, stream_done);
}

/* ------------------------------------------------------------------ answers */

/*
 * The page's own refusal as JSON: {"ok":false,"error":WORDS} with, where they apply, the
 * reply code of the daemon's table that says the same (the page words it in its language),
 * its arguments, the page's own reason (busy, total, addresses) and the seconds to wait
 * (also as Retry-After).
 */
struct refusal {
	unsigned status;
	const char *error, *code, *reason;
	uint64_t wait_ms; /* 0: none */
};

static char *refusal_json(const struct refusal *f)
{
	struct strbuf b = {0};
	struct json_writer jw;
	int64_t seconds = (int64_t)((f->wait_ms + 999) / 1000);

	json_init(&jw, &b);
	json_object(&jw, NULL);
	json_bool(&jw, "ok", false);
	json_string(&jw, "error", f->error);
	if (f->code) {
		json_string(&jw, "code", f->code);
		json_object(&jw, "args");
		if (f->wait_ms)
			json_int(&jw, "seconds", seconds);
		json_end(&jw);
	}
	if (f->reason)
		json_string(&jw, "reason", f->reason);
	if (f->wait_ms)
		json_int(&jw, "seconds", seconds);
	json_end(&jw);
	return strbuf_finish(&b);
}

static enum MHD_Result answer_json(const struct httpd_request *req, unsigned status,
				   const char *body, uint64_t retry_ms)
{
	char retry[24];

	if (!retry_ms)
		return httpd_respond_text(req, status, "application/json", body);
	snprintf(retry, sizeof(retry), "%llu", (unsigned long long)((retry_ms + 999) / 1000));
	return httpd_respond_with(req, status, "application/json", body, "Retry-After", retry);
}

static enum MHD_Result refuse(const struct httpd_request *req, const struct refusal *f)
{
	char *body = refusal_json(f);
	enum MHD_Result r;

	r = answer_json(req, f->status, body ? body : "{\"ok\":false}", f->wait_ms);
	free(body);
	return r;
}

static enum MHD_Result json_error(const struct httpd_request *req, unsigned status,
				  const char *message)
{
	const struct refusal f = {.status = status, .error = message};

	return refuse(req, &f);
}

/* A job's answer, set by the worker. */
static void job_refused(struct job *j, const struct refusal *f)
{
	j->status = f->status;
	j->retry_ms = f->wait_ms;
	free(j->body);
	j->body = refusal_json(f);
}

/* ------------------------------------------------------------------ the daemon's workers */

/* The daemon's interface language as its cached status says ("" before the first). */
static void daemon_lang(struct web *w, char lang[8])
{
	pthread_mutex_lock(&w->mu);
	if (!w->status || json_get(w->status, "lang", lang, 8) < 0)
		lang[0] = '\0';
	pthread_mutex_unlock(&w->mu);
}

/* Whether an answer of the daemon is its refusal of the connection itself (too many). */
static bool connection_refused(const char *reply)
{
	char code[40];

	if (json_get(reply, "code", code, sizeof(code)) < 0)
		return false;
	switch (reply_code_parse(code)) {
	case REPLY_TOO_MANY_CLIENTS:
	case REPLY_ARBITERS_PLACES:
	case REPLY_TOO_MANY_USER_CONNECTIONS:
	case REPLY_FDS_KEPT:
		return true;
	default:
		return false;
	}
}

static const struct refusal busy = {
    .status = MHD_HTTP_SERVICE_UNAVAILABLE,
    .error = "the device is busy: try again in a moment",
    .reason = "busy",
    .wait_ms = 1000,
};

/* One job with the daemon: a connection, `auth` when it has a PIN, the line. */
static void job_run(struct web *w, struct job *j)
{
	char err[256], *reply = NULL, line[4097];
	struct ctlclient *c = ctlclient_connect(w->socket, err, sizeof(err));
	bool right = false;
	uint64_t page_wait = 0;

	if (!c) {
		const struct refusal f = {
		    .status = MHD_HTTP_SERVICE_UNAVAILABLE, .error = err, .reason = "unreachable"};

		job_refused(j, &f);
		goto out;
	}
	if (j->pin[0]) {
		char auth[96], code[40], args[256];

		snprintf(auth, sizeof(auth), "auth %s%s%s", j->pin, j->page[0] ? " " : "", j->page);
		if (ctlclient_request(c, auth, &reply, REQUEST_MS)) {
			job_refused(j, &busy);
			goto out;
		}
		if (connection_refused(reply)) {
			job_refused(j, &busy);
			goto out;
		}
		right = ctlclient_reply_ok(reply);
		if (json_get(reply, "code", code, sizeof(code)) < 0)
			code[0] = '\0';
		if (j->ask) {
			/* The page counts the daemon's answer for this address too. */
			char role[16] = "";

			if (right && json_get(reply, "args", args, sizeof(args)) > 0 &&
			    json_get(args, "role", role, sizeof(role)) < 0)
				role[0] = '\0';
			pthread_mutex_lock(&w->mu);
			page_wait = pin_gate_answered(&w->gate, j->key, true, right,
						      strcmp(role, "arbiter") ? PIN_GATE_ASSISTANT
									      : PIN_GATE_ARBITER,
						      monotonic_ms());
			pthread_mutex_unlock(&w->mu);
			j->ask = false;
		}
		if (!right && reply_code_parse(code) == REPLY_PIN_WAIT) {
			/* The daemon's own wait (its budget for this page's user): 429, with its
			 * words and Retry-After. */
			char seconds[16];

			j->status = MHD_HTTP_TOO_MANY_REQUESTS;
			if (json_get(reply, "args", args, sizeof(args)) > 0 &&
			    json_get(args, "seconds", seconds, sizeof(seconds)) > 0)
				j->retry_ms = strtoull(seconds, NULL, 10) * 1000;
			j->body = reply;
			reply = NULL;
			goto out;
		}
		if (!right && page_wait) {
			/* A wrong PIN that starts the page's wait for this address: said. */
			const struct refusal f = {.status = MHD_HTTP_FORBIDDEN,
						  .error = "wrong PIN",
						  .code = "wrong-pin-wait",
						  .wait_ms = page_wait};

			job_refused(j, &f);
			goto out;
		}
		if (!right) {
			/* A wrong PIN (with or without the daemon's own wait): 403, its words. */
			j->status = MHD_HTTP_FORBIDDEN;
			j->body = reply;
			reply = NULL;
			goto out;
		}
		free(reply);
		reply = NULL;
		if (j->lang[0]) {
			/* A page in another language than the daemon's: its piece letters in the
			 * moves typed (docs/control.md "Control interface", `notation`). */
			char daemon[8], notation[16];

			daemon_lang(w, daemon);
			snprintf(notation, sizeof(notation), "notation %s", j->lang);
			if (strcmp(daemon, j->lang) &&
			    ctlclient_request(c, notation, &reply, REQUEST_MS)) {
				job_refused(j, &busy);
				goto out;
			}
			free(reply);
			reply = NULL;
		}
	}
	/* Without a PIN, the status anyone may see, whatever this process's own role. */
	snprintf(line, sizeof(line), "%s",
		 !j->pin[0] && control_command_find(j->line) == control_command_find("status")
		     ? "status public"
		     : j->line);
	if (ctlclient_request(c, line, &reply, REQUEST_MS)) {
		const struct refusal f = {.status = MHD_HTTP_SERVICE_UNAVAILABLE,
					  .error = "the daemon did not answer",
					  .reason = "unreachable"};

		job_refused(j, &f);
		goto out;
	}
	if (!j->pin[0] && connection_refused(reply)) {
		job_refused(j, &busy);
		goto out;
	}
	j->status = MHD_HTTP_OK;
	j->body = reply;
	reply = NULL;
out:
	free(reply);
	ctlclient_close(c);
	if (j->ask) {
		/* No answer of the daemon's to the PIN: nothing counted. */
		pthread_mutex_lock(&w->mu);
		pin_gate_answered(&w->gate, j->key, false, false, PIN_GATE_ASSISTANT, 0);
		pthread_mutex_unlock(&w->mu);
	}
}

static void *worker(void *arg)
{
	struct web_worker *self = arg;
	struct web *w = self->w;
	const int me = self->me;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		struct job *j;

		while (!w->queue && !w->workers_stop)
			pthread_cond_wait(&w->jobs_cv, &w->mu);
		if (!w->queue)
			break;
		j = w->queue;
		w->queue = j->next;
		w->queued--;
		w->working[me] = j;
		pthread_mutex_unlock(&w->mu);
		if (w->workers_stop)
			job_refused(j, &busy);
		else
			job_run(w, j);
		pthread_mutex_lock(&w->mu);
		w->working[me] = NULL;
		httpd_resume(j->conn);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Jobs from key queued or being answered (mu held). */
static int jobs_of(const struct web *w, const char *key)
{
	int n = 0;

	for (const struct job *j = w->queue; j; j = j->next)
		n += !strcmp(j->key, key);
	for (int i = 0; i < WEB_WORKERS; i++)
		n += w->working[i] && !strcmp(w->working[i]->key, key);
	return n;
}

static void job_free(void *cls)
{
	struct job *j = cls;

	free(j->body);
	explicit_bzero(j->pin, sizeof(j->pin));
	free(j);
}

/* The job queued (the arbiter's before the others) and its request suspended until a
 * worker has the answer; a full queue, or an address with WEB_PER_ADDRESS jobs, is busy. */
static enum MHD_Result enqueue(struct web *w, const struct httpd_request *req, struct job *j)
{
	struct job **at;

	pthread_mutex_lock(&w->mu);
	if (w->queued >= WEB_QUEUE || jobs_of(w, j->key) >= WEB_PER_ADDRESS || w->workers_stop) {
		pthread_mutex_unlock(&w->mu);
		if (j->ask) {
			pthread_mutex_lock(&w->mu);
			pin_gate_answered(&w->gate, j->key, false, false, PIN_GATE_ASSISTANT, 0);
			pthread_mutex_unlock(&w->mu);
		}
		job_free(j);
		return refuse(req, &busy);
	}
	for (at = &w->queue; *at && (!j->arbiter || (*at)->arbiter); at = &(*at)->next)
		;
	j->conn = req->conn;
	/* Suspended before a worker can take it: the worker's resume finds it suspended. */
	httpd_suspend(req, j, job_free);
	j->next = *at;
	*at = j;
	w->queued++;
	pthread_cond_signal(&w->jobs_cv);
	pthread_mutex_unlock(&w->mu);
	return MHD_YES;
}

/* ------------------------------------------------------------------ commands */

/* Commands a visitor without a PIN may give: the table's rows that only read. */
static bool read_only(const char *line)
{
	const struct control_command *c = control_command_find(line);

	return c && (c->flags & CONTROL_READS);
}

static enum MHD_Result cached(struct web *w, const struct httpd_request *req, char *const *slot,
			      const char *type, bool age)
{
	enum MHD_Result r;

	pthread_mutex_lock(&w->mu);
	if (!*slot) {
		bool up = w->daemon_up;

		pthread_mutex_unlock(&w->mu);
		return json_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
				  up ? "no game yet" : "the daemon is not reachable");
	}
	if (age) {
		char ms[32];

		snprintf(ms, sizeof(ms), "%llu",
			 (unsigned long long)(monotonic_ms() - w->status_at));
		r = httpd_respond_with(req, MHD_HTTP_OK, type, *slot, "X-Age-Ms", ms);
	} else {
		r = httpd_respond_text(req, MHD_HTTP_OK, type, *slot);
	}
	pthread_mutex_unlock(&w->mu);
	return r;
}

/* The cache's reply to a read without a PIN (status, moves, help, the game's PGN), or NULL
 * when it holds none. */
static char *const *cached_reply(struct web *w, const char *line)
{
	const struct control_command *c = control_command_find(line);
	char words[4][16];
	int n = sscanf(line, "%15s %15s %15s %15s", words[0], words[1], words[2], words[3]);

	if (c == control_command_find("status") &&
	    (n == 1 || (n == 2 && !strcmp(words[1], "public"))))
		return &w->status;
	if (c == control_command_find("moves") && n == 1)
		return &w->moves;
	if (c == control_command_find("help") && n == 1)
		return &w->commands;
	if (c == control_command_find("export") && n == 2 && !strcmp(words[1], "pgn"))
		return &w->export_pgn;
	return NULL;
}

/* Whether key may make one more read the cache cannot answer (mu held): a bucket of
 * WEB_READS_BURST refilled one each WEB_READS_MS; *wait when not. */
static bool read_allowed(struct web *w, const char *key, uint64_t now, uint64_t *wait)
{
	struct reader *r = NULL, *oldest = &w->readers[0];

	for (int i = 0; i < WEB_READERS && !r; i++) {
		if (!strcmp(w->readers[i].key, key))
			r = &w->readers[i];
		else if (w->readers[i].at < oldest->at)
			oldest = &w->readers[i];
	}
	if (!r) {
		r = oldest;
		snprintf(r->key, sizeof(r->key), "%s", key);
		r->tokens = WEB_READS_BURST;
		r->at = now;
	}
	r->tokens += (double)(now - r->at) / WEB_READS_MS;
	if (r->tokens > WEB_READS_BURST)
		r->tokens = WEB_READS_BURST;
	r->at = now;
	if (r->tokens >= 1) {
		r->tokens -= 1;
		return true;
	}
	*wait = (uint64_t)((1 - r->tokens) * WEB_READS_MS) + 1;
	return false;
}

/* Waits that ended with PINs refused in them: one log line each (mu held). */
static void pin_waits(struct web *w, uint64_t now, bool all)
{
	struct pin_wait pw;

	while (pin_guard_ended(&w->gate.guard, now, all, &pw))
		log_warn(LOG_MAIN,
			 "%d PINs from %s refused unchecked during a %llu s wait "
			 "after %d wrong ones",
			 pw.refused, pw.key, (unsigned long long)(pw.length / 1000), pw.wrong);
}

/* The gate's refusal of a PIN, logged as the page's log has always said it. */
static enum MHD_Result pin_refused(const struct httpd_request *req,
				   const struct pin_gate_outcome *o)
{
	struct refusal f = {.status = MHD_HTTP_TOO_MANY_REQUESTS, .wait_ms = o->wait};

	switch (o->why) {
	case PIN_GATE_ADDRESS:
		if (o->first_refusal)
			log_info(LOG_MAIN, "%s waits %llu s for its next PIN", req->key,
				 (unsigned long long)((o->wait + 999) / 1000));
		f.error = "too many wrong PINs from this address";
		f.code = "pin-wait";
		break;
	case PIN_GATE_ADDRESSES:
		f.error = "too many addresses are trying PINs on this page";
		f.reason = "addresses";
		break;
	case PIN_GATE_FULL_TOTAL:
		log_warn(LOG_MAIN,
			 "wrong PIN from %s (%d); not the arbiter's, and new addresses wait for "
			 "the assistant's",
			 req->key, o->wrong);
		if (o->total_filled)
			log_warn(LOG_MAIN, "%d wrong PINs in a minute: new addresses wait (%s)",
				 PIN_GATE_TOTAL, req->key);
		f.error = "too many wrong PINs on this page";
		f.reason = "total";
		break;
	case PIN_GATE_ONE_AT_ONCE:
		f.error = "one PIN at a time from this address";
		f.code = "pin-wait";
		break;
	case PIN_GATE_DAEMON_FULL:
		f = busy;
		break;
	}
	return refuse(req, &f);
}

static enum MHD_Result command(struct web *w, const struct httpd_request *req)
{
	const char *pin = httpd_header(req, "X-PIN");
	/* The page's own word (X-Page): the person at a phone, told apart from the others with
	 * the same PIN (a relay's author: `auth PIN NAME`, docs/control.md "Control interface"). */
	const char *page = httpd_header(req, "X-Page");
	const char *lang = httpd_header(req, "X-Lang");
	char line[4097];
	size_t n = req->body_len;
	struct job *j;
	uint64_t now = monotonic_ms(), wait = 0;

	if (req->pending) {
		j = req->pending;
		return answer_json(req, j->status, j->body ? j->body : "{\"ok\":false}",
				   j->retry_ms);
	}
	while (n && (req->body[n - 1] == '\n' || req->body[n - 1] == '\r'))
		n--;
	if (!n || n >= sizeof(line) || memchr(req->body, '\n', n) || memchr(req->body, '\0', n))
		return json_error(req, MHD_HTTP_BAD_REQUEST,
				  "give one command line of at most 4096 bytes");
	memcpy(line, req->body, n);
	line[n] = '\0';
	if (control_command_find(line) && (control_command_find(line)->flags & CONTROL_SESSION))
		return json_error(req, MHD_HTTP_BAD_REQUEST,
				  "watch and auth are not commands of the page (use the PIN field "
				  "and /api/events)");
	if (pin && !*pin)
		pin = NULL;
	if (!pin && !read_only(line))
		return json_error(req, MHD_HTTP_UNAUTHORIZED, "this command needs a PIN");
	if (pin && (strlen(pin) > 31 || strspn(pin, "0123456789") != strlen(pin))) {
		const struct refusal f = {
		    .status = MHD_HTTP_FORBIDDEN, .error = "wrong PIN", .code = "wrong-pin"};

		return refuse(req, &f);
	}
	if (!pin) {
		char *const *slot = cached_reply(w, line);
		bool allowed;

		if (slot)
			return cached(w, req, slot, "application/json", false);
		pthread_mutex_lock(&w->mu);
		allowed = read_allowed(w, req->key, now, &wait);
		pthread_mutex_unlock(&w->mu);
		if (!allowed) {
			const struct refusal f = {.status = MHD_HTTP_TOO_MANY_REQUESTS,
						  .error = "too many reads from this address",
						  .reason = "reads",
						  .wait_ms = wait};

			return refuse(req, &f);
		}
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return MHD_NO;
	snprintf(j->line, sizeof(j->line), "%s", line);
	snprintf(j->key, sizeof(j->key), "%s", req->key);
	if (page && *page && strlen(page) <= 16 &&
	    strspn(page, "abcdefghijklmnopqrstuvwxyz0123456789") == strlen(page))
		snprintf(j->page, sizeof(j->page), "%s", page);
	if (phrase_lang_parse(lang) >= 0)
		snprintf(j->lang, sizeof(j->lang), "%s", lang);
	if (pin) {
		struct pin_gate_outcome o;
		enum pin_gate_verdict v;

		pthread_mutex_lock(&w->mu);
		pin_waits(w, now, false);
		v = pin_gate_check(&w->gate, req->key, pin, now, &o);
		pthread_mutex_unlock(&w->mu);
		if (v == PIN_GATE_WAIT) {
			free(j);
			return pin_refused(req, &o);
		}
		if (v == PIN_GATE_WRONG) {
			struct refusal f = {.status = MHD_HTTP_FORBIDDEN,
					    .error = "wrong PIN",
					    .code = "wrong-pin"};

			if (o.wait) {
				log_warn(LOG_MAIN,
					 "wrong PIN from %s (%d); its next is checked in %llu s",
					 req->key, o.wrong, (unsigned long long)(o.wait / 1000));
				f.code = "wrong-pin-wait";
				f.wait_ms = o.wait;
			} else {
				log_warn(LOG_MAIN, "wrong PIN from %s", req->key);
			}
			free(j);
			return refuse(req, &f);
		}
		snprintf(j->pin, sizeof(j->pin), "%s", pin);
		j->ask = v == PIN_GATE_ASK;
		j->arbiter = v == PIN_GATE_RIGHT && o.role == PIN_GATE_ARBITER;
	}
	return enqueue(w, req, j);
}
/* ------------------------------------------------------------------ routes */

/*
 * The legal moves of the cached position: what the assistant may relay is offered as they
 * type.  {"ok":true,"fen":...,"to_move":"white","moves":[{"san":"Nf3","uci":"g1f3",
 * "local":"Sf3"},...]} (local: the paper notation, Appendix C, with the piece letters of
 * ?lang=, else of the daemon's language).
 */
static enum MHD_Result legal(struct web *w, const struct httpd_request *req)
{
	const char *asked = httpd_query(req, "lang");
	char fen[CHESS_FEN_MAX + 8] = "", lang[8];
	struct chess_pos pos;
	struct chess_error err;
	struct chess_move_list list;
	struct strbuf b = {0};
	struct json_writer jw;
	enum MHD_Result r;

	pthread_mutex_lock(&w->mu);
	if (w->status && json_get(w->status, "fen", fen, sizeof(fen)) < 0)
		fen[0] = '\0';
	pthread_mutex_unlock(&w->mu);
	if (!fen[0] || chess_fen_parse(&pos, fen, &err))
		return json_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "no position yet");
	if (phrase_lang_parse(asked) >= 0)
		snprintf(lang, sizeof(lang), "%s", asked);
	else
		daemon_lang(w, lang);
	chess_pos_legal_moves(&pos, &list);
	json_init(&jw, &b);
	json_object(&jw, NULL);
	json_bool(&jw, "ok", true);
	json_string(&jw, "fen", fen);
	json_string(&jw, "to_move", game_color_name(pos.side));
	json_array(&jw, "moves");
	for (int i = 0; i < list.count; i++) {
		char san[CHESS_SAN_MAX], uci[8], local[CHESS_SAN_MAX];

		chess_move_to_san(&pos, list.moves[i], san, sizeof(san));
		chess_move_to_uci(list.moves[i], uci, sizeof(uci));
		chess_move_to_local_lang(&pos, list.moves[i], lang, local, sizeof(local));
		json_object(&jw, NULL);
		json_string(&jw, "san", san);
		json_string(&jw, "uci", uci);
		json_string(&jw, "local", local);
		json_end(&jw);
	}
	json_end(&jw);
	json_end(&jw);
	r = httpd_respond_text(req, MHD_HTTP_OK, "application/json", b.p ? b.p : "{\"ok\":false}");
	free(b.p);
	return r;
}

/* The page in the daemon's language from its first byte (the script takes it from there). */
static enum MHD_Result page(struct web *w, const struct httpd_request *req, const struct asset *a)
{
	static const char from[] = "<html lang=\"de\">";
	char lang[8], *copy;
	const char *at = memmem(a->data, a->len, from, sizeof(from) - 1);
	enum MHD_Result r;

	daemon_lang(w, lang);
	if (!at || strlen(lang) != 2 || !strcmp(lang, "de"))
		return httpd_respond_static(req, a->content_type, a->data, a->len);
	copy = malloc(a->len);
	if (!copy)
		return MHD_NO;
	memcpy(copy, a->data, a->len);
	memcpy(copy + (at - (const char *)a->data) + strlen("<html lang=\""), lang, 2);
	if (httpd_wants_gzip(httpd_header(req, "Accept-Encoding"))) {
		size_t gz_len;
		char *gz = httpd_gzip(copy, a->len, &gz_len);
		const struct httpd_header h[] = {{"Vary", "Accept-Encoding"},
						 {"Content-Encoding", "gzip"}};

		if (gz) {
			free(copy);
			r = httpd_respond_headers(req, MHD_HTTP_OK, a->content_type, gz, gz_len, h,
						  2);
			free(gz);
			return r;
		}
	}
	r = httpd_respond(req, MHD_HTTP_OK, a->content_type, copy, a->len);
	free(copy);
	return r;
}

static enum MHD_Result route(void *user, const struct httpd_request *req)
{
	struct web *w = user;
	bool get = !strcmp(req->method, "GET") || !strcmp(req->method, "HEAD");
	const struct asset *a;

	if (!strcmp(req->url, "/api/command")) {
		if (strcmp(req->method, "POST"))
			return json_error(req, MHD_HTTP_METHOD_NOT_ALLOWED, "use POST");
		return command(w, req);
	}
	if (!get)
		return json_error(req, MHD_HTTP_METHOD_NOT_ALLOWED, "this page only reads");
	if (!strcmp(req->url, "/api/status"))
		return cached(w, req, &w->status, "application/json", true);
	if (!strcmp(req->url, "/api/moves"))
		return cached(w, req, &w->moves, "application/json", false);
	if (!strcmp(req->url, "/api/commands"))
		return cached(w, req, &w->commands, "application/json", false);
	if (!strcmp(req->url, "/game.pgn"))
		return cached(w, req, &w->pgn, "application/x-chess-pgn; charset=utf-8", false);
	if (!strcmp(req->url, "/api/events"))
		return events(w, req);
	if (!strcmp(req->url, "/api/legal"))
		return legal(w, req);
	a = asset_find(req->url);
	if (a && !strcmp(a->path, "/index.html"))
		return page(w, req, a);
	if (a && strncmp(a->path, "/relay", 6))
		return httpd_respond_static(req, a->content_type, a->data, a->len);
	return httpd_respond_text(req, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
				  "not found\n");
}

/* ------------------------------------------------------------------ entry */

void cli_web_usage(FILE *f)
{
	fprintf(f, "usage: annabella web --listen ADDR:PORT [--socket PATH] [--config FILE]\n"
		   "                     [--tls-cert FILE --tls-key FILE]\n"
		   "       annabella web certificate DIR\n");
}

static int usage(void)
{
	cli_web_usage(stderr);
	return 2;
}

/* The workers stopped: each job still queued is answered busy, and every request and
 * stream that waits is resumed (libmicrohttpd must stop with none suspended). */
static void stop_serving(struct web *w)
{
	pthread_mutex_lock(&w->mu);
	w->stopping = true;
	w->workers_stop = true;
	pthread_cond_broadcast(&w->jobs_cv);
	pthread_mutex_unlock(&w->mu);
	for (int i = 0; i < WEB_WORKERS; i++)
		if (w->workers[i].started)
			pthread_join(w->workers[i].thread, NULL);
	pthread_mutex_lock(&w->mu);
	wake_streams(w, UINT64_MAX);
	pthread_mutex_unlock(&w->mu);
}

static void web_free(struct web *w)
{
	for (int i = 0; i < RING; i++)
		free(w->ring[i]);
	free(w->status);
	free(w->moves);
	free(w->pgn);
	free(w->commands);
	free(w->export_pgn);
	pthread_cond_destroy(&w->jobs_cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

int cli_web(int argc, char **argv)
{
	const char *listen = NULL, *socket = NULL, *config = NULL, *cert = NULL, *key = NULL;
	struct config cfg;
	struct web *w;
	struct httpd *h;
	struct httpd_options ho = {.same_origin = true};
	struct tls_files tls = {0};
	pthread_t thread;
	char err[512], warn[512] = "";
	struct sigaction sa = {.sa_handler = on_signal};
	int rc = 1;

	if (argc >= 1 && !strcmp(argv[0], "certificate"))
		return argc == 2 ? tls_cert_make_cli(argv[1]) : usage();
	for (int i = 0; i < argc; i++) {
		const char **dst = !strcmp(argv[i], "--listen")	    ? &listen
				   : !strcmp(argv[i], "--socket")   ? &socket
				   : !strcmp(argv[i], "--config")   ? &config
				   : !strcmp(argv[i], "--tls-cert") ? &cert
				   : !strcmp(argv[i], "--tls-key")  ? &key
								    : NULL;

		if (!dst || i + 1 >= argc)
			return usage();
		*dst = argv[++i];
	}
	config_defaults(&cfg);
	/* The PINs' hashes from the PIN file, which the unit gives the page as a credential
	 * (README "Security model"): the page holds no PIN but the one a request brings. */
	if (config && (config_load(&cfg, config, err, sizeof(err)) ||
		       config_load_pins(&cfg, warn, sizeof(warn), err, sizeof(err)))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (config && warn[0])
		log_error(LOG_MAIN, "%s", warn);
	if (!listen)
		listen = cfg.web_listen[0] ? cfg.web_listen : NULL;
	if (!listen)
		return usage();
	if (!strrchr(listen, ':') || !strrchr(listen, ':')[1] ||
	    strspn(strrchr(listen, ':') + 1, "0123456789") != strlen(strrchr(listen, ':') + 1)) {
		log_error(LOG_MAIN,
			  "--listen '%s': give ADDR:PORT (like 127.0.0.1:8080 or "
			  "[::]:8080)",
			  listen);
		return 2;
	}
	if (!cert && cfg.web_certificate[0])
		cert = cfg.web_certificate;
	if (!key && cfg.web_key[0])
		key = cfg.web_key;
	if (!cert != !key) {
		log_error(LOG_MAIN, "TLS needs both the certificate and its key (--tls-cert and "
				    "--tls-key, or certificate and key in [web])");
		return 2;
	}
	if (cert && tls_files_read(&tls, cert, key, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (!socket)
		socket = cfg.control_socket[0] && strcmp(cfg.control_socket, "none")
			     ? cfg.control_socket
			     : CTLCLIENT_DEFAULT_SOCKET;
	w = calloc(1, sizeof(*w));
	if (!w) {
		tls_files_free(&tls);
		return 1;
	}
	snprintf(w->socket, sizeof(w->socket), "%s", socket);
	pin_gate_init(&w->gate, &cfg.arbiter_pin.hash, &cfg.assistant_pin.hash);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->jobs_cv, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	ho.listen = listen;
	ho.tls_cert = tls.cert;
	ho.tls_key = tls.key;
	ho.hosts = cfg.web_hosts;
	for (int i = 0; i < WEB_WORKERS; i++) {
		w->workers[i].me = i;
		w->workers[i].w = w;
		if (pthread_create(&w->workers[i].thread, NULL, worker, &w->workers[i]))
			goto out;
		w->workers[i].started = true;
	}
	h = httpd_start(&ho, route, w, err, sizeof(err));
	if (!h) {
		log_error(LOG_MAIN, "%s", err);
		goto out;
	}
	printf("annabella web: listening on %s://%s/\n", cert ? "https" : "http", httpd_address(h));
	if (cert)
		log_info(LOG_MAIN,
			 "its certificate %s: SHA-256 %s (the arbiter checks it once: "
			 "annabella status)",
			 cert, tls.fingerprint);
	fflush(stdout);
	if (pthread_create(&thread, NULL, daemon_thread, w)) {
		stop_serving(w);
		httpd_stop(h);
		goto out;
	}
	/* Every quarter of a second, the streams whose `alive` is due are woken. */
	while (!stop_requested) {
		usleep(250 * 1000);
		pthread_mutex_lock(&w->mu);
		wake_streams(w, monotonic_ms() - KEEPALIVE_MS);
		pthread_mutex_unlock(&w->mu);
	}
	pthread_join(thread, NULL);
	stop_serving(w);
	httpd_stop(h);
	pthread_mutex_lock(&w->mu);
	pin_waits(w, monotonic_ms(), true);
	pthread_mutex_unlock(&w->mu);
	rc = 0;
out:
	if (rc) {
		pthread_mutex_lock(&w->mu);
		w->workers_stop = true;
		pthread_cond_broadcast(&w->jobs_cv);
		pthread_mutex_unlock(&w->mu);
		for (int i = 0; i < WEB_WORKERS; i++)
			if (w->workers[i].w)
				pthread_join(w->workers[i].thread, NULL);
	}
	web_free(w);
	tls_files_free(&tls);
	return rc;
}
