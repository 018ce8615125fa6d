/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella web --listen ADDR:PORT [--socket PATH] [--config FILE]
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
 * this process's user.  The daemon sees one watcher and one requester however many
 * phones are open, and a browser that stops reading only stalls its own stream.
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
 *                                      X-Page: the page's own word, passed on with `auth`.
 *
 * PINs: the page checks them itself when its configuration has them (the daemon's file,
 * --config, and its PIN file: their salted hashes, base/pinhash.h; the page never holds a
 * PIN but the one a request brings), under one lock, before anything goes to the daemon:
 * wrong PINs are counted
 * per client address (an IPv6 address's /64; base/pinguard.h: five free, then growing
 * waits) and in total (at
 * most WEB_PIN_TOTAL a minute from addresses that never gave a right PIN), and only a
 * right PIN is passed on with `auth`.  So the daemon, which counts wrong PINs per Unix
 * user, never slows the page's user for one address's guesses, and a locked address does
 * not lock the arbiter out at another.  Without the PINs in its configuration the page
 * passes each PIN on, one at a time per address.
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

#include "base/log.h"
#include "base/timeutil.h"
#include "chess/chess.h"
#include "control/json.h"
#include "control/protocol.h"
#include "net/assets.h"
#include "config/config.h"
#include "net/ctlclient.h"
#include "net/httpd.h"
#include "base/pinguard.h"
#include "net/net.h"

#define RING		  512  /* events kept for streams that fall behind or reconnect */
#define KEEPALIVE_MS	  2000 /* an `alive` event on an idle stream */
#define HEARTBEAT_MS	  2000 /* a quiet daemon is asked for its status this often */
#define HEARTBEAT_WAIT_MS 2500 /* and is taken as lost without a reply within this */
#define REQUEST_MS	  5000 /* a reply from the daemon */
/* Wrong PINs a minute from all addresses that never gave a right one. */
#define WEB_PIN_TOTAL  30
#define WEB_PIN_WINDOW 60000
/* Addresses that gave a right PIN: not held back by the total. */
#define WEB_TRUSTED	 16
#define BACKOFF_FIRST_MS 250
#define BACKOFF_MAX_MS	 5000

struct web {
	char socket[108];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* The ring: event seq is at ring[seq % RING]; seq counts from 1. */
	char *ring[RING];
	uint64_t seq;
	bool stopping;
	/* The cache, refreshed after each batch of events (NULL: not known). */
	char *status, *moves, *pgn, *commands;
	uint64_t status_at; /* monotonic ms of the status request */
	uint64_t heard_at;  /* monotonic ms of the daemon's last word (an event or a reply) */
	int streams;	    /* event streams open: pages that show the data live */
	bool daemon_up;
	/* PINs (mu held): the configuration's, when it has them; wrong ones per address; the
	 * times of the last WEB_PIN_TOTAL wrong ones; addresses that gave a right one; the
	 * addresses whose PIN the daemon is checking now. */
	struct pin_hash arbiter_pin, assistant_pin; /* the PIN file's (base/pinhash.h) */
	struct pin_guard pins;
	uint64_t wrong_at[WEB_PIN_TOTAL];
	int wrong_next;
	char trusted[WEB_TRUSTED][64];
	int trusted_next;
	char asking[WEB_TRUSTED][64];
	uint64_t total_said; /* when the total's refusal was last logged */
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
	free(pgn);
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
		pthread_cond_broadcast(&w->cv);
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
		pthread_cond_broadcast(&w->cv);
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
	pthread_mutex_lock(&w->mu);
	w->stopping = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* ------------------------------------------------------------------ server-sent events */

struct stream {
	struct web *w;
	uint64_t next; /* the seq to send next */
	char *out;     /* formatted, not yet sent */
	size_t off, len;
};

static void stream_done(void *cls)
{
	struct stream *s = cls;

	pthread_mutex_lock(&s->w->mu);
	s->w->streams--;
	pthread_mutex_unlock(&s->w->mu);
	free(s->out);
	free(s);
}

/* The next message for a stream into s->out; false at the end. */
static bool stream_next(struct stream *s)
{
	struct web *w = s->w;
	struct timespec deadline;
	bool ok = true;
	int n = 0;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += KEEPALIVE_MS / 1000;
	pthread_mutex_lock(&w->mu);
	while (!w->stopping && w->seq < s->next)
		if (pthread_cond_timedwait(&w->cv, &w->mu, &deadline) == ETIMEDOUT)
			break;
	free(s->out);
	s->out = NULL;
	if (w->stopping) {
		ok = false;
	} else if (w->seq < s->next) {
		/* The page's sign of life: without it for a while, its data is not live. */
		n = asprintf(&s->out, "event: alive\ndata: {\"up\":%s,\"age_ms\":%llu}\n\n",
			     w->daemon_up ? "true" : "false",
			     (unsigned long long)(monotonic_ms() - w->heard_at));
	} else if (w->seq - s->next >= RING - 1) {
		/* Fallen behind the ring: the page starts again from the status. */
		s->next = w->seq + 1;
		n = asprintf(&s->out, "event: reset\ndata: {}\n\n");
	} else {
		n = asprintf(&s->out, "id: %llu\ndata: %s\n\n", (unsigned long long)s->next,
			     w->ring[s->next % RING]);
		s->next++;
	}
	pthread_mutex_unlock(&w->mu);
	if (n < 0)
		s->out = NULL;
	s->off = 0;
	s->len = s->out ? strlen(s->out) : 0;
	return ok && s->out;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct stream *s = cls;
	size_t n;

	(void)pos;
	if (s->off == s->len && !stream_next(s))
		return MHD_CONTENT_READER_END_OF_STREAM;
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
	pthread_mutex_lock(&w->mu);
	w->streams++;
	s->next = w->seq + 1;
	if (last && *last) {
		unsigned long long id = strtoull(last, &end, 10);

		if (!*end && id <= w->seq)
			s->next = id + 1; /* too old for the ring: stream_next() resets */
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

/* ------------------------------------------------------------------ commands */

/* Commands a visitor without a PIN may give: the table's rows that only read. */
static bool read_only(const char *line)
{
	const struct control_command *c = control_command_find(line);

	return c && (c->flags & CONTROL_READS);
}

/* ------------------------------------------------------------------ PINs (mu held) */

static bool in_list(char list[][64], int n, const char *addr)
{
	for (int i = 0; i < n; i++)
		if (list[i][0] && !strcmp(list[i], addr))
			return true;
	return false;
}

static void trust(struct web *w, const char *addr)
{
	if (in_list(w->trusted, WEB_TRUSTED, addr))
		return;
	snprintf(w->trusted[w->trusted_next], sizeof(w->trusted[0]), "%s", addr);
	w->trusted_next = (w->trusted_next + 1) % WEB_TRUSTED;
}

/* A wrong PIN from addr: counted for it and in the total. */
static void pin_wrong(struct web *w, const char *addr, uint64_t now)
{
	uint64_t wait = pin_guard_wrong(&w->pins, addr, now);

	w->wrong_at[w->wrong_next] = now ? now : 1;
	w->wrong_next = (w->wrong_next + 1) % WEB_PIN_TOTAL;
	if (wait)
		log_warn(LOG_MAIN, "wrong PIN from %s (%d); its next is checked in %llu s", addr,
			 pin_guard_count(&w->pins, addr, now), (unsigned long long)(wait / 1000));
	else
		log_warn(LOG_MAIN, "wrong PIN from %s", addr);
}

/* How long until the total lets another wrong PIN in (0: now). */
static uint64_t total_wait(const struct web *w, uint64_t now)
{
	uint64_t oldest = w->wrong_at[w->wrong_next]; /* the WEB_PIN_TOTAL-th last */

	return oldest && now < oldest + WEB_PIN_WINDOW ? oldest + WEB_PIN_WINDOW - now : 0;
}

/* Waits that ended with PINs refused in them: one log line each. */
static void pin_waits(struct web *w, uint64_t now, bool all)
{
	struct pin_wait pw;

	while (pin_guard_ended(&w->pins, now, all, &pw))
		log_warn(LOG_MAIN,
			 "%d PINs from %s refused unchecked during a %llu s wait "
			 "after %d wrong ones",
			 pw.refused, pw.key, (unsigned long long)(pw.length / 1000), pw.wrong);
}

enum pin_gate { GATE_RIGHT, GATE_WRONG, GATE_WAIT, GATE_ASK };

/*
 * Whether the PIN from addr may be checked, and (when the page knows the PINs) whether it
 * is right: all under the lock, so parallel tries are counted one by one.  *wait: the
 * seconds to wait (GATE_WAIT, with its reason in why).
 */
static enum pin_gate pin_gate(struct web *w, const char *addr, const char *pin, uint64_t now,
			      uint64_t *wait, const char **why)
{
	bool first;

	pin_waits(w, now, false);
	*wait = pin_guard_ask(&w->pins, addr, now, &first);
	if (*wait) {
		if (first)
			log_info(LOG_MAIN, "%s waits %llu s for its next PIN", addr,
				 (unsigned long long)((*wait + 999) / 1000));
		*why = "too many wrong PINs from this address";
		return GATE_WAIT;
	}
	if (!in_list(w->trusted, WEB_TRUSTED, addr) && (*wait = total_wait(w, now))) {
		if (now >= w->total_said + WEB_PIN_WINDOW) {
			w->total_said = now;
			log_warn(LOG_MAIN, "%d wrong PINs in a minute: new addresses wait (%s)",
				 WEB_PIN_TOTAL, addr);
		}
		*why = "too many wrong PINs on this page";
		return GATE_WAIT;
	}
	if (w->arbiter_pin.set || w->assistant_pin.set) {
		if (pin_hash_check(&w->arbiter_pin, pin) ||
		    pin_hash_check(&w->assistant_pin, pin)) {
			trust(w, addr);
			return GATE_RIGHT;
		}
		pin_wrong(w, addr, now);
		return GATE_WRONG;
	}
	/* The daemon checks it: one at a time per address. */
	if (in_list(w->asking, WEB_TRUSTED, addr)) {
		*wait = 1000;
		*why = "one PIN at a time from this address";
		return GATE_WAIT;
	}
	for (int i = 0; i < WEB_TRUSTED; i++)
		if (!w->asking[i][0]) {
			snprintf(w->asking[i], sizeof(w->asking[0]), "%s", addr);
			return GATE_ASK;
		}
	*wait = 1000;
	*why = "too many PINs being checked";
	return GATE_WAIT;
}

/* The daemon's answer to a PIN the page passed on (GATE_ASK); answered false: it gave
 * none. */
static void pin_answered(struct web *w, const char *addr, bool answered, bool right, uint64_t now)
{
	for (int i = 0; i < WEB_TRUSTED; i++)
		if (!strcmp(w->asking[i], addr))
			w->asking[i][0] = '\0';
	if (right)
		trust(w, addr);
	else if (answered)
		pin_wrong(w, addr, now);
}

static enum MHD_Result json_error(const struct httpd_request *req, unsigned status,
				  const char *message)
{
	struct strbuf b = {0};
	struct json_writer jw;
	enum MHD_Result r;

	json_init(&jw, &b);
	json_object(&jw, NULL);
	json_bool(&jw, "ok", false);
	json_string(&jw, "error", message);
	json_end(&jw);
	r = httpd_respond_text(req, status, "application/json", b.p ? b.p : "{\"ok\":false}");
	free(b.p);
	return r;
}

static enum MHD_Result command(struct web *w, const struct httpd_request *req)
{
	const char *pin = httpd_header(req, "X-PIN");
	/* The page's own word (X-Page): the person at a phone, told apart from the others with
	 * the same PIN (a relay's author: `auth PIN NAME`, docs/control.md "Control interface"). */
	const char *page = httpd_header(req, "X-Page");
	char line[4097], err[256], key[64], *reply = NULL;
	struct ctlclient *c;
	size_t n = req->body_len;
	enum MHD_Result r;
	enum pin_gate gate = GATE_RIGHT;
	uint64_t now = monotonic_ms();

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
	if (pin && (strlen(pin) > 31 || strspn(pin, "0123456789") != strlen(pin)))
		return json_error(req, MHD_HTTP_FORBIDDEN, "wrong PIN");
	pin_guard_address_key(req->client, key, sizeof(key));
	if (pin) {
		uint64_t wait;
		const char *why = "";

		pthread_mutex_lock(&w->mu);
		/* The time once the lock is held: a request that waited for it (the PIN budget
		 * checks a hash under it) must not count its tries earlier than the last. */
		now = monotonic_ms();
		gate = pin_gate(w, key, pin, now, &wait, &why);
		pthread_mutex_unlock(&w->mu);
		if (gate == GATE_WAIT) {
			snprintf(err, sizeof(err), "%s: wait %llu s", why,
				 (unsigned long long)((wait + 999) / 1000));
			return json_error(req, MHD_HTTP_TOO_MANY_REQUESTS, err);
		}
		if (gate == GATE_WRONG)
			return json_error(req, MHD_HTTP_FORBIDDEN, "wrong PIN");
	}
	c = ctlclient_connect(w->socket, err, sizeof(err));
	if (!c) {
		if (gate == GATE_ASK) {
			pthread_mutex_lock(&w->mu);
			pin_answered(w, key, false, false, now);
			pthread_mutex_unlock(&w->mu);
		}
		return json_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, err);
	}
	if (page && (!*page || strlen(page) > 16 ||
		     strspn(page, "abcdefghijklmnopqrstuvwxyz0123456789") != strlen(page)))
		page = NULL;
	if (pin) {
		char auth[96];
		bool right;

		snprintf(auth, sizeof(auth), "auth %.40s%s%s", pin, page ? " " : "",
			 page ? page : "");
		if (ctlclient_request(c, auth, &reply, REQUEST_MS)) {
			ctlclient_close(c);
			reply = NULL;
		}
		right = reply && ctlclient_reply_ok(reply);
		if (gate == GATE_ASK) {
			pthread_mutex_lock(&w->mu);
			pin_answered(w, key, reply != NULL, right, monotonic_ms());
			pthread_mutex_unlock(&w->mu);
		}
		if (!reply)
			return json_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
					  "the daemon did not answer");
		if (!right) {
			/* The daemon's own refusal (its budget for this page's user, code
			 * pin-wait) as 429; a wrong PIN as 403. */
			char code[32];
			bool waiting = json_get(reply, "code", code, sizeof(code)) >= 0 &&
				       reply_code_parse(code) == REPLY_PIN_WAIT;

			free(reply);
			ctlclient_close(c);
			return json_error(req,
					  waiting ? MHD_HTTP_TOO_MANY_REQUESTS : MHD_HTTP_FORBIDDEN,
					  waiting ? "too many wrong PINs: wait" : "wrong PIN");
		}
		free(reply);
		reply = NULL;
	}
	/* Without a PIN, the status anyone may see, whatever this process's own role. */
	if (!pin && control_command_find(line) == control_command_find("status"))
		snprintf(line, sizeof(line), "status public");
	if (ctlclient_request(c, line, &reply, REQUEST_MS)) {
		ctlclient_close(c);
		return json_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "the daemon did not answer");
	}
	ctlclient_close(c);
	r = httpd_respond_text(req, MHD_HTTP_OK, "application/json", reply);
	free(reply);
	return r;
}

/* ------------------------------------------------------------------ routes */

/*
 * The legal moves of the cached position: what the assistant may relay is offered as they
 * type.  {"ok":true,"fen":...,"to_move":"white","moves":[{"san":"Nf3","uci":"g1f3",
 * "local":"Sf3"},...]} (local: the paper notation with German letters, Appendix C).
 */
static enum MHD_Result legal(struct web *w, const struct httpd_request *req)
{
	char fen[CHESS_FEN_MAX + 8] = "";
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
	chess_pos_legal_moves(&pos, &list);
	json_init(&jw, &b);
	json_object(&jw, NULL);
	json_bool(&jw, "ok", true);
	json_string(&jw, "fen", fen);
	json_string(&jw, "to_move", pos.side == CHESS_WHITE ? "white" : "black");
	json_array(&jw, "moves");
	for (int i = 0; i < list.count; i++) {
		char san[CHESS_SAN_MAX], uci[8], local[CHESS_SAN_MAX];

		chess_move_to_san(&pos, list.moves[i], san, sizeof(san));
		chess_move_to_uci(list.moves[i], uci, sizeof(uci));
		chess_move_to_local(&pos, list.moves[i], local, sizeof(local));
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
	char lang[8] = "", *copy;
	const char *at = memmem(a->data, a->len, from, sizeof(from) - 1);
	enum MHD_Result r;

	pthread_mutex_lock(&w->mu);
	if (w->status && json_get(w->status, "lang", lang, sizeof(lang)) < 0)
		lang[0] = '\0';
	pthread_mutex_unlock(&w->mu);
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

static enum MHD_Result cached(struct web *w, const struct httpd_request *req, char *const *slot,
			      const char *type, bool age)
{
	enum MHD_Result r;

	pthread_mutex_lock(&w->mu);
	if (!*slot) {
		pthread_mutex_unlock(&w->mu);
		return json_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
				  w->daemon_up ? "no game yet" : "the daemon is not reachable");
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

static int usage(void)
{
	fprintf(stderr,
		"usage: annabella web --listen ADDR:PORT [--socket PATH] [--config FILE]\n");
	return 2;
}

int cli_web(int argc, char **argv)
{
	const char *listen = NULL, *socket = NULL, *config = NULL;
	struct config cfg;
	struct web *w;
	struct httpd *h;
	pthread_t thread;
	char err[512], warn[512] = "";
	struct sigaction sa = {.sa_handler = on_signal};

	for (int i = 0; i < argc; i++) {
		const char **dst = !strcmp(argv[i], "--listen")	  ? &listen
				   : !strcmp(argv[i], "--socket") ? &socket
				   : !strcmp(argv[i], "--config") ? &config
								  : NULL;

		if (!dst || i + 1 >= argc)
			return usage();
		*dst = argv[++i];
	}
	config_defaults(&cfg);
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
	if (!socket)
		socket = cfg.control_socket[0] && strcmp(cfg.control_socket, "none")
			     ? cfg.control_socket
			     : CTLCLIENT_DEFAULT_SOCKET;
	w = calloc(1, sizeof(*w));
	if (!w)
		return 1;
	snprintf(w->socket, sizeof(w->socket), "%s", socket);
	w->arbiter_pin = cfg.arbiter_pin.hash;
	w->assistant_pin = cfg.assistant_pin.hash;
	pin_guard_init(&w->pins);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	h = httpd_start(listen, route, w, err, sizeof(err));
	if (!h) {
		log_error(LOG_MAIN, "%s", err);
		free(w);
		return 1;
	}
	printf("annabella web: listening on http://%s/\n", httpd_address(h));
	fflush(stdout);
	if (pthread_create(&thread, NULL, daemon_thread, w)) {
		httpd_stop(h);
		free(w);
		return 1;
	}
	pthread_join(thread, NULL);
	httpd_stop(h);
	pin_waits(w, monotonic_ms(), true);
	for (int i = 0; i < RING; i++)
		free(w->ring[i]);
	free(w->status);
	free(w->moves);
	free(w->pgn);
	free(w->commands);
	free(w);
	return 0;
}
