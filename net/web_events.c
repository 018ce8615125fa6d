/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The web page's server-sent events (GET /api/events, docs/web.md "The web page for the
 * assistant and the arbiter"): each stream reads the ring at its own pace, suspended while it
 * waits, with an `alive` event when idle; a new stream beyond an address's share ends its
 * oldest.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timeutil.h"
#include "net/web.h"

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
void web_wake_streams(struct web *w, uint64_t quiet_since)
{
	struct stream *s = w->waiting, *next;

	for (; s; s = next) {
		next = s->next;
		if (quiet_since == UINT64_MAX || s->sent_at <= quiet_since)
			wake(w, s);
	}
}

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

enum MHD_Result web_events(struct web *w, const struct httpd_request *req)
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
