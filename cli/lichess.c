/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lichess's Board API over HTTPS with libcurl's multi interface (lichess.h).  A fixed number
 * of transfers, each with its buffer made once: the streams of a game hold no allocation of
 * ours in their steady state.
 */
#include "cli/lichess.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/lichess_msg.h"

/* The event stream, a game's, a seek or a challenge kept alive, and requests. */
#define TRANSFERS_MAX 8
/* What a transfer keeps: a stream's lines not yet handed out, a request's body. */
#define BUF_MAX (4 * LICHESS_LINE_MAX)

struct lichess_transfer {
	bool used;
	CURL *easy;
	bool stream;
	lichess_line_fn on_line;
	lichess_done_fn on_done;
	void *user;
	char *buf; /* a stream's lines not yet handed out, or a request's body; BUF_MAX */
	size_t len;
	bool overflow;
	bool received; /* anything came back */
	uint64_t last_data_ms;
	char form[1024];
	char errbuf[CURL_ERROR_SIZE];
};

struct lichess {
	CURLM *multi;
	char base[256];
	char ca_file[256];
	struct curl_slist *headers;
	int idle_ms;
	struct lichess_transfer t[TRANSFERS_MAX];
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

bool lichess_path_word_ok(const char *word)
{
	size_t n = strlen(word);

	return n && n <= 64 &&
	       strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") ==
		   n;
}

struct lichess *lichess_new(const struct lichess_config *cfg, char *err, size_t size)
{
	struct lichess *l;
	char auth[512];

	if (strlen(cfg->token) + 32 > sizeof(auth)) {
		snprintf(err, size, "the token is too long");
		return NULL;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		snprintf(err, size, "libcurl cannot start");
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, size, "out of memory");
		return NULL;
	}
	snprintf(l->base, sizeof(l->base), "%s", cfg->server);
	snprintf(l->ca_file, sizeof(l->ca_file), "%s", cfg->ca_file ? cfg->ca_file : "");
	l->idle_ms = cfg->idle_ms > 0 ? cfg->idle_ms : 30000;
	snprintf(auth, sizeof(auth), "Authorization: Bearer %s", cfg->token);
	l->headers = curl_slist_append(NULL, auth);
	memset(auth, 0, sizeof(auth));
	if (l->headers)
		l->headers = curl_slist_append(l->headers, "Accept: application/x-ndjson, "
							   "application/json");
	l->multi = curl_multi_init();
	for (int i = 0; i < TRANSFERS_MAX; i++)
		l->t[i].buf = malloc(BUF_MAX);
	for (int i = 0; i < TRANSFERS_MAX; i++)
		if (!l->t[i].buf)
			l->multi = NULL;
	if (!l->headers || !l->multi) {
		snprintf(err, size, "out of memory");
		lichess_free(l);
		return NULL;
	}
	return l;
}

static void finish(struct lichess *l, struct lichess_transfer *t)
{
	curl_multi_remove_handle(l->multi, t->easy);
	curl_easy_cleanup(t->easy);
	t->easy = NULL;
	t->used = false;
}

void lichess_free(struct lichess *l)
{
	if (!l)
		return;
	for (int i = 0; i < TRANSFERS_MAX; i++) {
		if (l->t[i].used)
			finish(l, &l->t[i]);
		free(l->t[i].buf);
	}
	if (l->multi)
		curl_multi_cleanup(l->multi);
	/* The header list holds the token: cleared before it is freed. */
	for (struct curl_slist *h = l->headers; h; h = h->next)
		memset(h->data, 0, strlen(h->data));
	curl_slist_free_all(l->headers);
	free(l);
	curl_global_cleanup();
}

/* Data from the server, kept until the transfer is moved on (lichess_run() hands a stream's
 * lines out there, outside libcurl's callbacks).  More than the buffer holds ends the
 * transfer (a stream is started again and its first line gives the whole state). */
static size_t on_data(char *data, size_t one, size_t n, void *user)
{
	struct lichess_transfer *t = user;
	size_t size = one * n;

	t->received = true;
	t->last_data_ms = now_ms();
	if (t->len + size + 1 > BUF_MAX) {
		t->overflow = true;
		return 0;
	}
	memcpy(t->buf + t->len, data, size);
	t->len += size;
	return size;
}

/* A stream's whole lines handed out; false when a callback ended the transfer. */
static bool hand_out_lines(struct lichess_transfer *t)
{
	size_t at = 0;

	while (t->used && t->stream) {
		char *nl = memchr(t->buf + at, '\n', t->len - at);

		if (!nl)
			break;
		*nl = '\0';
		if (t->on_line)
			t->on_line(t->user, t, t->buf + at);
		at = (size_t)(nl - t->buf) + 1;
	}
	if (!t->used)
		return false;
	if (at) {
		memmove(t->buf, t->buf + at, t->len - at);
		t->len -= at;
	}
	return true;
}

static struct lichess_transfer *start(struct lichess *l, const char *path, const char *form,
				      bool post, lichess_line_fn line, lichess_done_fn done,
				      void *user)
{
	struct lichess_transfer *t = NULL;
	char url[512];

	for (int i = 0; i < TRANSFERS_MAX && !t; i++)
		if (!l->t[i].used)
			t = &l->t[i];
	if (!t || snprintf(url, sizeof(url), "%s%s", l->base, path) >= (int)sizeof(url))
		return NULL;
	t->easy = curl_easy_init();
	if (!t->easy)
		return NULL;
	t->used = true;
	t->stream = line != NULL;
	t->on_line = line;
	t->on_done = done;
	t->user = user;
	t->len = 0;
	t->overflow = false;
	t->received = false;
	t->last_data_ms = now_ms();
	t->errbuf[0] = '\0';
	snprintf(t->form, sizeof(t->form), "%s", form ? form : "");
	curl_easy_setopt(t->easy, CURLOPT_URL, url);
	curl_easy_setopt(t->easy, CURLOPT_HTTPHEADER, l->headers);
	curl_easy_setopt(t->easy, CURLOPT_USERAGENT, "annabella/" ANNABELLA_VERSION);
	curl_easy_setopt(t->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(t->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(t->easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
	curl_easy_setopt(t->easy, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(t->easy, CURLOPT_ERRORBUFFER, t->errbuf);
	curl_easy_setopt(t->easy, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(t->easy, CURLOPT_WRITEDATA, t);
	if (!t->stream)
		curl_easy_setopt(t->easy, CURLOPT_TIMEOUT_MS, 30000L);
	if (l->ca_file[0])
		curl_easy_setopt(t->easy, CURLOPT_CAINFO, l->ca_file);
	if (post) {
		curl_easy_setopt(t->easy, CURLOPT_POST, 1L);
		curl_easy_setopt(t->easy, CURLOPT_POSTFIELDS, t->form);
		/* A request that changes the game goes once: libcurl sends a request again by
		 * itself when a connection it reused dies before the answer (the server may have
		 * taken the first: a move made twice), so a POST never reuses one. */
		curl_easy_setopt(t->easy, CURLOPT_FRESH_CONNECT, 1L);
		curl_easy_setopt(t->easy, CURLOPT_FORBID_REUSE, 1L);
	}
	if (curl_multi_add_handle(l->multi, t->easy)) {
		curl_easy_cleanup(t->easy);
		t->easy = NULL;
		t->used = false;
		return NULL;
	}
	return t;
}

struct lichess_transfer *lichess_get(struct lichess *l, const char *path, lichess_done_fn done,
				     void *user)
{
	return start(l, path, NULL, false, NULL, done, user);
}

struct lichess_transfer *lichess_stream(struct lichess *l, const char *path, lichess_line_fn line,
					lichess_done_fn done, void *user)
{
	return start(l, path, NULL, false, line, done, user);
}

struct lichess_transfer *lichess_post(struct lichess *l, const char *path, const char *form,
				      lichess_line_fn line, lichess_done_fn done, void *user)
{
	return start(l, path, form, true, line, done, user);
}

void lichess_cancel(struct lichess *l, struct lichess_transfer *t)
{
	if (t && t->used)
		finish(l, t);
}

/* A transfer ended: its result handed out (the slot free again first, so the callback may
 * start the next one; its buffer is read before that). */
static void ended(struct lichess *l, struct lichess_transfer *t, CURLcode code, const char *why)
{
	struct lichess_result r = {0};
	long status = 0;
	char error[CURL_ERROR_SIZE + 64];

	if (t->stream && !hand_out_lines(t))
		return;
	if (t->overflow)
		why = "more came than can be kept";
	if (code == CURLE_OK)
		curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
	r.status = status;
	/* A request whose answer did not come may still have been taken (the connection was
	 * made and the request sent before it broke). */
	{
		curl_off_t up = 0;

		curl_easy_getinfo(t->easy, CURLINFO_SIZE_UPLOAD_T, &up);
		r.sent = code == CURLE_OK || t->received || up > 0 ||
			 code == CURLE_OPERATION_TIMEDOUT || code == CURLE_RECV_ERROR ||
			 code == CURLE_GOT_NOTHING || code == CURLE_PARTIAL_FILE;
		if (code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
		    code == CURLE_SSL_CONNECT_ERROR || code == CURLE_PEER_FAILED_VERIFICATION)
			r.sent = false;
	}
	if (why)
		snprintf(error, sizeof(error), "%s", why);
	else if (code != CURLE_OK)
		snprintf(error, sizeof(error), "%s",
			 t->errbuf[0] ? t->errbuf : curl_easy_strerror(code));
	else
		error[0] = '\0';
	r.error = error;
	t->buf[t->stream ? 0 : t->len] = '\0';
	r.body = t->buf;
	curl_multi_remove_handle(l->multi, t->easy);
	curl_easy_cleanup(t->easy);
	t->easy = NULL;
	t->used = false;
	if (t->on_done)
		t->on_done(t->user, t, &r);
}

int lichess_run(struct lichess *l, int fd, int timeout_ms)
{
	struct curl_waitfd wfd = {.fd = fd, .events = CURL_WAIT_POLLIN};
	int numfds = 0, running = 0, left;
	CURLMsg *msg;
	uint64_t now;

	if (curl_multi_poll(l->multi, fd >= 0 ? &wfd : NULL, fd >= 0 ? 1 : 0, timeout_ms,
			    &numfds) != CURLM_OK)
		return -1;
	if (curl_multi_perform(l->multi, &running) != CURLM_OK)
		return -1;
	for (int i = 0; i < TRANSFERS_MAX; i++)
		if (l->t[i].used && l->t[i].stream)
			hand_out_lines(&l->t[i]);
	while ((msg = curl_multi_info_read(l->multi, &left))) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		for (int i = 0; i < TRANSFERS_MAX; i++) {
			if (l->t[i].used && l->t[i].easy == msg->easy_handle) {
				ended(l, &l->t[i], msg->data.result, NULL);
				break;
			}
		}
	}
	/* A stream that went silent: the connection is gone without a word. */
	now = now_ms();
	for (int i = 0; i < TRANSFERS_MAX; i++) {
		struct lichess_transfer *t = &l->t[i];

		if (t->used && t->stream && now - t->last_data_ms > (uint64_t)l->idle_ms)
			ended(l, t, CURLE_OPERATION_TIMEDOUT,
			      "the stream brought nothing for too long");
	}
	return fd >= 0 && (wfd.revents & CURL_WAIT_POLLIN) ? 1 : 0;
}
