/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The web page's workers (docs/web.md "The web page for the assistant and the arbiter"): the
 * commands that need the daemon wait in a queue (the arbiter's first, a share per address)
 * for WEB_WORKERS threads, each with one daemon connection at a time, so the page never holds
 * more of the daemon's connections than the daemon gives one user.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timeutil.h"
#include "control/json.h"
#include "control/protocol.h"
#include "net/ctlclient.h"
#include "net/web.h"
#include "net/pingate.h"

/* The daemon's interface language as its cached status says ("" before the first). */
void web_daemon_lang(struct web *w, char lang[8])
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

const struct refusal web_busy = {
    .status = MHD_HTTP_SERVICE_UNAVAILABLE,
    .error = "the device is busy: try again in a moment",
    .reason = "busy",
    .wait_ms = 1000,
};

/* The daemon's answer to `auth` counted for this address as the page's own (j->ask): the
 * page's wait it starts (0: none). */
static uint64_t job_pin_counted(struct web *w, struct job *j, bool right, const char *reply)
{
	char args[256], role[16] = "";
	uint64_t page_wait;

	if (right && json_get(reply, "args", args, sizeof(args)) > 0 &&
	    json_get(args, "role", role, sizeof(role)) < 0)
		role[0] = '\0';
	pthread_mutex_lock(&w->mu);
	page_wait = pin_gate_answered(
	    &w->gate, j->key, true, right,
	    strcmp(role, "arbiter") ? PIN_GATE_ASSISTANT : PIN_GATE_ARBITER, monotonic_ms());
	pthread_mutex_unlock(&w->mu);
	j->ask = false;
	return page_wait;
}

/* A PIN the daemon did not take: the job answered with its reply (taken from *reply) or
 * refused with the page's own wait. */
static void job_pin_wrong(struct job *j, char **reply, const char *code, uint64_t page_wait)
{
	char args[256];

	if (reply_code_parse(code) == REPLY_PIN_WAIT) {
		/* The daemon's own wait (its budget for this page's user): 429, with its
		 * words and Retry-After. */
		char seconds[16];

		j->status = MHD_HTTP_TOO_MANY_REQUESTS;
		if (json_get(*reply, "args", args, sizeof(args)) > 0 &&
		    json_get(args, "seconds", seconds, sizeof(seconds)) > 0)
			j->retry_ms = strtoull(seconds, NULL, 10) * 1000;
		j->body = *reply;
		*reply = NULL;
		return;
	}
	if (page_wait) {
		/* A wrong PIN that starts the page's wait for this address: said. */
		const struct refusal f = {.status = MHD_HTTP_FORBIDDEN,
					  .error = "wrong PIN",
					  .code = "wrong-pin-wait",
					  .wait_ms = page_wait};

		web_job_refused(j, &f);
		return;
	}
	/* A wrong PIN (with or without the daemon's own wait): 403, its words. */
	j->status = MHD_HTTP_FORBIDDEN;
	j->body = *reply;
	*reply = NULL;
}

/* A page in another language than the daemon's: its piece letters in the moves typed
 * (docs/control.md "Control interface", `notation`).  False when the daemon did not answer. */
static bool job_notation(struct web *w, struct job *j, struct ctlclient *c)
{
	char daemon[8], notation[16], *reply = NULL;
	bool ok = true;

	web_daemon_lang(w, daemon);
	snprintf(notation, sizeof(notation), "notation %s", j->lang);
	if (strcmp(daemon, j->lang) && ctlclient_request(c, notation, &reply, REQUEST_MS))
		ok = false;
	free(reply);
	return ok;
}

/* `auth` with the job's PIN (and `notation`): true when that answered the job. */
static bool job_auth(struct web *w, struct job *j, struct ctlclient *c)
{
	char auth[96], code[40], *reply = NULL;
	uint64_t page_wait = 0;
	bool right;

	snprintf(auth, sizeof(auth), "auth %s%s%s", j->pin, j->page[0] ? " " : "", j->page);
	if (ctlclient_request(c, auth, &reply, REQUEST_MS) || connection_refused(reply)) {
		web_job_refused(j, &web_busy);
		free(reply);
		return true;
	}
	right = ctlclient_reply_ok(reply);
	if (json_get(reply, "code", code, sizeof(code)) < 0)
		code[0] = '\0';
	if (j->ask)
		page_wait = job_pin_counted(w, j, right, reply);
	if (!right) {
		job_pin_wrong(j, &reply, code, page_wait);
		free(reply);
		return true;
	}
	free(reply);
	if (j->lang[0] && !job_notation(w, j, c)) {
		web_job_refused(j, &web_busy);
		return true;
	}
	return false;
}

/* One job with the daemon: a connection, `auth` when it has a PIN, the line. */
static void job_run(struct web *w, struct job *j)
{
	char err[256], *reply = NULL, line[4097];
	struct ctlclient *c = ctlclient_connect(w->socket, err, sizeof(err));

	if (!c) {
		const struct refusal f = {
		    .status = MHD_HTTP_SERVICE_UNAVAILABLE, .error = err, .reason = "unreachable"};

		web_job_refused(j, &f);
		goto out;
	}
	if (j->pin[0] && job_auth(w, j, c))
		goto out;
	/* Without a PIN, the status anyone may see, whatever this process's own role. */
	snprintf(line, sizeof(line), "%s",
		 !j->pin[0] && control_command_find(j->line) == control_command_find("status")
		     ? "status public"
		     : j->line);
	if (ctlclient_request(c, line, &reply, REQUEST_MS)) {
		const struct refusal f = {.status = MHD_HTTP_SERVICE_UNAVAILABLE,
					  .error = "the daemon did not answer",
					  .reason = "unreachable"};

		web_job_refused(j, &f);
		goto out;
	}
	if (!j->pin[0] && connection_refused(reply)) {
		web_job_refused(j, &web_busy);
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

void *web_worker(void *arg)
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
			web_job_refused(j, &web_busy);
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
enum MHD_Result web_enqueue(struct web *w, const struct httpd_request *req, struct job *j)
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
		return web_refuse(req, &web_busy);
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
