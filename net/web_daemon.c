/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The web page's side of the daemon (docs/web.md "The web page for the assistant and the
 * arbiter"): one thread keeps a `watch public` connection (reconnecting with back-off), puts
 * each batch of events into the ring after refreshing the cached status, scoresheet and PGN,
 * and asks a quiet daemon for its status, so a page knows when it is not live.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/timeutil.h"
#include "control/json.h"
#include "net/ctlclient.h"
#include "net/web.h"

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
		web_wake_streams(w, UINT64_MAX);
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
			if (web_stop_requested())
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
		web_wake_streams(w, UINT64_MAX);
		pthread_mutex_unlock(&w->mu);
		for (int i = 0; i < n; i++)
			free(batch[i]);
		n = 0;
	}
	for (int i = 0; i < n; i++)
		free(batch[i]);
}

void *web_daemon_thread(void *arg)
{
	struct web *w = arg;
	int backoff = BACKOFF_FIRST_MS;
	bool said = false;

	while (!web_stop_requested()) {
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
			if (!web_stop_requested())
				log_warn(LOG_MAIN, "lost the daemon; retrying");
		} else if (!said) {
			log_warn(LOG_MAIN, "%s; retrying", req ? "the daemon did not answer" : err);
			said = true;
		}
		free(reply);
		ctlclient_close(req);
		ctlclient_close(watch);
		for (int t = 0; t < backoff && !web_stop_requested(); t += 50)
			usleep(50 * 1000);
		backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
	}
	return NULL;
}
