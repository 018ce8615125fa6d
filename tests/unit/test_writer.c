/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The writer (store/writer.h): the state directory's syncs and scoresheets done off the
 * loop.  Jobs are done in order, on a thread or at once; a scoresheet not yet written is
 * replaced by a newer one for the same path (the queue stays bounded whatever the storage's
 * speed); a slow sync (`disk slow`) never holds up the caller; failures come back as
 * results with their errno; the descriptor is readable while results wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/log.h"
#include "store/state.h"
/* The module itself: its file-local functions are tested here. */
#include "store/writer.c"

/* Jobs queued or running. */
static bool writer_busy(struct writer *w)
{
	bool busy;

	pthread_mutex_lock(&w->lock);
	busy = w->count > 0;
	pthread_mutex_unlock(&w->lock);
	return busy;
}

struct fixture {
	char dir[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_writer_XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	log_set_level(LOG_LEVEL_ERROR);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	state_set_fault(STATE_FAULT_NONE);
	state_set_sync_delay(0);
	state_set_sync_delay_sleeps(true);
	state_remove_tree(f->dir);
	free(f);
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static char *text(const char *s)
{
	char *copy = strdup(s);

	assert_non_null(copy);
	return copy;
}

static char *file(const char *path)
{
	char *t = state_read_file(path, NULL);

	assert_non_null(t);
	return t;
}

/* Results until `want` have come, waiting on the descriptor when threaded. */
static int collect(struct writer *w, struct writer_result *out, int want)
{
	int got = 0;

	for (int tries = 0; got < want && tries < 500; tries++) {
		struct pollfd p = {.fd = writer_fd(w), .events = POLLIN};

		if (p.fd >= 0)
			poll(&p, 1, 20);
		got += writer_results(w, out + got, want - got);
	}
	return got;
}

static void test_inline_jobs_done_at_once(void **state)
{
	struct fixture *f = *state;
	struct writer *w = writer_new(false);
	struct writer_result r[4];
	char path[128];
	char *t;

	assert_non_null(w);
	assert_int_equal(writer_fd(w), -1);
	snprintf(path, sizeof(path), "%s/game.pgn", f->dir);
	assert_int_equal(writer_replace(w, path, text("one"), 3, true), 0);
	t = file(path);
	assert_string_equal(t, "one");
	free(t);
	assert_int_equal(writer_results(w, r, 4), 1);
	assert_int_equal(r[0].kind, WRITER_REPLACE);
	assert_int_equal(r[0].err, 0);
	assert_string_equal(r[0].path, path);
	assert_false(writer_busy(w));
	writer_free(w);
}

static void test_threaded_results_in_order(void **state)
{
	struct fixture *f = *state;
	struct writer *w = writer_new(true);
	struct writer_result r[8];
	char a[128], b[128], jpath[128];
	int fd;

	assert_non_null(w);
	assert_true(writer_fd(w) >= 0);
	snprintf(a, sizeof(a), "%s/a", f->dir);
	snprintf(b, sizeof(b), "%s/b", f->dir);
	snprintf(jpath, sizeof(jpath), "%s/journal", f->dir);
	fd = open(jpath, O_WRONLY | O_CREAT | O_APPEND, 0640);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x\n", 2), 2);
	assert_int_equal(writer_replace(w, a, text("A"), 1, true), 0);
	assert_int_equal(writer_sync(w, fd, 2, true, 7), 0);
	/* The writer keeps its own descriptor: the caller may close its own. */
	close(fd);
	assert_int_equal(writer_replace(w, b, text("B"), 1, true), 0);
	writer_drain(w);
	assert_int_equal(collect(w, r, 3), 3);
	assert_int_equal(r[0].kind, WRITER_REPLACE);
	assert_string_equal(r[0].path, a);
	assert_int_equal(r[1].kind, WRITER_SYNC);
	assert_int_equal(r[1].err, 0);
	assert_int_equal(r[1].tag, 7);
	assert_int_equal(r[1].upto, 2);
	assert_int_equal(r[2].kind, WRITER_REPLACE);
	assert_string_equal(r[2].path, b);
	writer_free(w);
}

/* A slow storage: the caller never waits for a sync, and the scoresheets queued behind a
 * slow one are merged into the newest. */
static void test_slow_sync_never_waits(void **state)
{
	struct fixture *f = *state;
	struct writer *w = writer_new(true);
	struct writer_result r[64];
	char path[128], jpath[128];
	uint64_t t0, spent;
	int fd, n;
	char *t;

	assert_non_null(w);
	snprintf(path, sizeof(path), "%s/game.pgn", f->dir);
	snprintf(jpath, sizeof(jpath), "%s/journal", f->dir);
	fd = open(jpath, O_WRONLY | O_CREAT | O_APPEND, 0640);
	assert_true(fd >= 0);
	state_set_sync_delay(200);
	t0 = now_ms();
	for (int i = 0; i < 40; i++) {
		char v[24];

		snprintf(v, sizeof(v), "move %d", i);
		assert_int_equal(write(fd, "x\n", 2), 2);
		assert_int_equal(writer_sync(w, fd, (off_t)(2 * (i + 1)), true, 1), 0);
		assert_int_equal(writer_replace(w, path, text(v), strlen(v), true), 0);
	}
	spent = now_ms() - t0;
	assert_true(spent < 100);
	writer_drain(w);
	n = writer_results(w, r, 64);
	/* Far fewer jobs than asked for: one sync and one scoresheet at most waited. */
	assert_true(n >= 2);
	assert_true(n <= 6);
	/* The newest scoresheet comes last, after the sync of everything written before it. */
	assert_int_equal(r[n - 1].kind, WRITER_REPLACE);
	assert_int_equal(r[n - 2].kind, WRITER_SYNC);
	assert_int_equal(r[n - 2].upto, 80);
	t = file(path);
	assert_string_equal(t, "move 39");
	free(t);
	close(fd);
	writer_free(w);
}

static void test_failures_come_back(void **state)
{
	struct fixture *f = *state;
	struct writer *w = writer_new(true);
	struct writer_result r[4];
	char path[128], jpath[128];
	int fd;

	assert_non_null(w);
	snprintf(path, sizeof(path), "%s/game.pgn", f->dir);
	snprintf(jpath, sizeof(jpath), "%s/journal", f->dir);
	fd = open(jpath, O_WRONLY | O_CREAT | O_APPEND, 0640);
	assert_true(fd >= 0);
	state_set_fault(STATE_FAULT_READONLY);
	assert_int_equal(writer_replace(w, path, text("x"), 1, true), 0);
	assert_int_equal(writer_sync(w, fd, 0, true, 3), 0);
	writer_drain(w);
	assert_int_equal(collect(w, r, 2), 2);
	assert_int_equal(r[0].err, EROFS);
	assert_int_equal(r[1].kind, WRITER_SYNC);
	assert_int_equal(r[1].err, EROFS);
	assert_int_equal(access(path, F_OK), -1);
	state_set_fault(STATE_FAULT_NONE);
	close(fd);
	writer_free(w);
}

/* In virtual time the delay is not slept: the store takes it in daemon time. */
static void test_delay_not_slept_when_told(void **state)
{
	struct fixture *f = *state;
	struct writer *w = writer_new(false);
	char jpath[128];
	uint64_t t0;
	int fd;

	assert_non_null(w);
	snprintf(jpath, sizeof(jpath), "%s/journal", f->dir);
	fd = open(jpath, O_WRONLY | O_CREAT | O_APPEND, 0640);
	assert_true(fd >= 0);
	state_set_sync_delay(500);
	state_set_sync_delay_sleeps(false);
	t0 = now_ms();
	assert_int_equal(writer_sync(w, fd, 0, true, 1), 0);
	assert_true(now_ms() - t0 < 200);
	close(fd);
	writer_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_inline_jobs_done_at_once, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_threaded_results_in_order, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_slow_sync_never_waits, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_failures_come_back, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_delay_not_slept_when_told, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
