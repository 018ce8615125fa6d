/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "base/log.h"
#include "base/timeutil.h"
#include "store/state.h"

/* At most one sync and one job per scoresheet path wait at a time (jobs not yet started are
 * replaced); these bounds are far above that. */
#define WRITER_JOBS    16
#define WRITER_RESULTS 64

struct job {
	enum writer_job_kind kind;
	int fd; /* SYNC: the writer's duplicate */
	off_t upto;
	uint64_t asked_ns; /* SYNC: when the first sync it stands for was asked */
	bool really;
	uint64_t tag;
	char path[PATH_MAX]; /* REPLACE */
	char *data;
	size_t len;
	bool sync;
};

struct writer {
	bool threaded;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work; /* a job queued, or stopping */
	pthread_cond_t done; /* a job finished */
	struct job jobs[WRITER_JOBS];
	int head, count; /* queued, the first one perhaps running */
	bool running;	 /* jobs[head] is being done */
	bool stopping;
	struct writer_result results[WRITER_RESULTS];
	int rhead, rcount;
	int efd;
};

static void run_job(struct job *j, struct writer_result *res)
{
	memset(res, 0, sizeof(*res));
	res->kind = j->kind;
	if (j->kind == WRITER_SYNC) {
		res->tag = j->tag;
		res->upto = j->upto;
		if (state_sync_fd(j->fd, j->really))
			res->err = errno ? errno : EIO;
		res->latency_ms = (uint32_t)((monotonic_ns() - j->asked_ns + 999999) / 1000000);
		close(j->fd);
		j->fd = -1;
		return;
	}
	snprintf(res->path, sizeof(res->path), "%s", j->path);
	if (state_write_atomic(j->path, j->data, j->len, j->sync))
		res->err = errno ? errno : EIO;
	free(j->data);
	j->data = NULL;
}

/* Under the lock: a result for the loop.  The loop takes them as they come and the queue
 * holds a few jobs at most, so the ring never fills; if it did, the oldest would go (logged)
 * rather than the writer wait. */
static void post_result(struct writer *w, const struct writer_result *res)
{
	uint64_t one = 1;

	if (w->rcount == WRITER_RESULTS) {
		log_error(LOG_GAME, "writer: a result nobody took was dropped");
		w->rhead = (w->rhead + 1) % WRITER_RESULTS;
		w->rcount--;
	}
	w->results[(w->rhead + w->rcount) % WRITER_RESULTS] = *res;
	w->rcount++;
	if (w->efd >= 0 && write(w->efd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		log_error(LOG_GAME, "writer: cannot wake the loop: %s", strerror(errno));
}

static void *writer_thread(void *arg)
{
	struct writer *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct job job;
		struct writer_result res;

		while (!w->count && !w->stopping)
			pthread_cond_wait(&w->work, &w->lock);
		if (!w->count)
			break;
		job = w->jobs[w->head];
		w->running = true;
		pthread_mutex_unlock(&w->lock);
		run_job(&job, &res);
		pthread_mutex_lock(&w->lock);
		w->running = false;
		w->head = (w->head + 1) % WRITER_JOBS;
		w->count--;
		post_result(w, &res);
		pthread_cond_broadcast(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct writer *writer_new(bool threaded)
{
	struct writer *w = calloc(1, sizeof(*w));
	int e;

	if (!w)
		return NULL;
	w->threaded = threaded;
	w->efd = -1;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->done, NULL);
	if (!threaded)
		return w;
	w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->efd < 0)
		goto fail;
	e = pthread_create(&w->thread, NULL, writer_thread, w);
	if (e) {
		errno = e;
		goto fail;
	}
	return w;
fail:
	e = errno;
	if (w->efd >= 0)
		close(w->efd);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->work);
	pthread_mutex_destroy(&w->lock);
	free(w);
	errno = e;
	return NULL;
}

void writer_free(struct writer *w)
{
	if (!w)
		return;
	if (w->threaded) {
		pthread_mutex_lock(&w->lock);
		w->stopping = true;
		pthread_cond_broadcast(&w->work);
		pthread_cond_broadcast(&w->done);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
		close(w->efd);
	}
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->work);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

int writer_fd(const struct writer *w)
{
	return w->efd;
}

/* Under the lock: the queued job (not yet started) this one may replace, or NULL. */
static struct job *replaceable(struct writer *w, const struct job *j)
{
	for (int i = w->running ? 1 : 0; i < w->count; i++) {
		struct job *q = &w->jobs[(w->head + i) % WRITER_JOBS];

		if (q->kind != j->kind)
			continue;
		if (j->kind == WRITER_SYNC && q->tag == j->tag && q->really == j->really)
			return q;
		if (j->kind == WRITER_REPLACE && !strcmp(q->path, j->path))
			return q;
	}
	return NULL;
}

/* Under the lock: a queued job (not the running one) taken out, the order kept. */
static void drop(struct writer *w, struct job *q)
{
	int i = (int)(q - w->jobs), at = (i - w->head + WRITER_JOBS) % WRITER_JOBS;

	free(q->data);
	for (int k = at; k + 1 < w->count; k++)
		w->jobs[(w->head + k) % WRITER_JOBS] = w->jobs[(w->head + k + 1) % WRITER_JOBS];
	w->count--;
}

static int submit(struct writer *w, struct job *j)
{
	struct writer_result res;
	struct job *q;

	if (!w->threaded) {
		run_job(j, &res);
		post_result(w, &res);
		return 0;
	}
	pthread_mutex_lock(&w->lock);
	q = replaceable(w, j);
	if (q && j->kind == WRITER_SYNC) {
		/* A sync that covers more, sooner: the order stays. */
		close(j->fd);
		if (j->upto > q->upto)
			q->upto = j->upto;
	} else {
		/* An older scoresheet for the path goes; the newer one takes its place at the
		 * end, after the syncs asked for before it (a scoresheet never gets onto storage
		 * ahead of the journal records it shows). */
		if (q)
			drop(w, q);
		while (w->count == WRITER_JOBS)
			pthread_cond_wait(&w->done, &w->lock);
		w->jobs[(w->head + w->count) % WRITER_JOBS] = *j;
		w->count++;
		pthread_cond_signal(&w->work);
	}
	pthread_mutex_unlock(&w->lock);
	return 0;
}

int writer_sync(struct writer *w, int fd, off_t upto, bool really, uint64_t tag)
{
	struct job j = {.kind = WRITER_SYNC,
			.upto = upto,
			.really = really,
			.tag = tag,
			.asked_ns = monotonic_ns()};

	j.fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (j.fd < 0)
		return -1;
	return submit(w, &j);
}

int writer_replace(struct writer *w, const char *path, char *data, size_t len, bool sync)
{
	struct job j = {.kind = WRITER_REPLACE, .data = data, .len = len, .sync = sync};

	if (snprintf(j.path, sizeof(j.path), "%s", path) >= (int)sizeof(j.path)) {
		free(data);
		errno = ENAMETOOLONG;
		return -1;
	}
	return submit(w, &j);
}

int writer_results(struct writer *w, struct writer_result *out, int max)
{
	uint64_t n;
	int got = 0;

	if (w->efd >= 0 && read(w->efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		log_error(LOG_GAME, "writer: %s", strerror(errno));
	pthread_mutex_lock(&w->lock);
	while (got < max && w->rcount) {
		out[got++] = w->results[w->rhead];
		w->rhead = (w->rhead + 1) % WRITER_RESULTS;
		w->rcount--;
	}
	/* More than max wait: the descriptor stays readable. */
	if (w->rcount && w->efd >= 0) {
		n = 1;
		if (write(w->efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
			log_error(LOG_GAME, "writer: %s", strerror(errno));
	}
	pthread_mutex_unlock(&w->lock);
	return got;
}

void writer_drain(struct writer *w)
{
	if (!w->threaded)
		return;
	pthread_mutex_lock(&w->lock);
	while (w->count)
		pthread_cond_wait(&w->done, &w->lock);
	pthread_mutex_unlock(&w->lock);
}
