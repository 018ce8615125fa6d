/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The voice thread and its queue: concurrent callers, priorities, preemption by a new move,
 * a full queue, draining on stop.  Built and run under ThreadSanitizer by `make tsan`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#include "tests/unit/voice_testutil.h"

/* About 17 seconds of speech: long enough to still be speaking when the next words come. */
#define LONG_TEXT                                                                                  \
	"Weiß: eine Stunde, neunundfünfzig Minuten, achtundfünfzig Sekunden. Schwarz: eine "    \
	"Stunde, siebenundfünfzig Minuten, dreiundvierzig Sekunden. Zug einunddreißig. Weiß: "  \
	"eine Stunde, neunundfünfzig Minuten, achtundfünfzig Sekunden. Schwarz: eine Stunde, "   \
	"siebenundfünfzig Minuten, dreiundvierzig Sekunden. Zug einunddreißig."

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* The warnings a test causes on purpose (utterances dropped) go to a file, not into make
 * check's log, and are counted. */
struct captured {
	int saved_fd;
	FILE *file;
};

static void capture_begin(struct captured *c)
{
	fflush(stderr);
	c->file = tmpfile();
	assert_non_null(c->file);
	c->saved_fd = dup(STDERR_FILENO);
	assert_true(c->saved_fd >= 0);
	assert_true(dup2(fileno(c->file), STDERR_FILENO) >= 0);
}

/* The number of captured lines that contain `needle`. */
static int capture_end(struct captured *c, const char *needle)
{
	char line[512];
	int n = 0;

	fflush(stderr);
	assert_true(dup2(c->saved_fd, STDERR_FILENO) >= 0);
	close(c->saved_fd);
	rewind(c->file);
	while (fgets(line, sizeof(line), c->file))
		if (strstr(line, needle))
			n++;
	fclose(c->file);
	return n;
}

/* Wait until the voice thread has started n utterances. */
static void wait_started(struct voice *v, uint64_t n)
{
	struct voice_stats st;

	for (int i = 0; i < 10000; i++) {
		voice_get_stats(v, &st);
		if (st.spoken >= n)
			return;
		sleep_ms(1);
	}
	fail_msg("the voice thread did not start utterance %llu", (unsigned long long)n);
}

/* The speech.log lines after the first `skip`, texts only, joined by '|'. */
static void spoken_texts(const char *dir, int skip, char *out, size_t size)
{
	char path[128];
	char *log, *line, *save = NULL;
	size_t len = 0;
	int n = 0;

	snprintf(path, sizeof(path), "%s/speech.log", dir);
	log = tu_read_file(path, NULL);
	assert_non_null(log);
	out[0] = '\0';
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *text = strchr(strchr(line, ' ') + 1, ' ') + 1;

		if (n++ < skip)
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s%s", len ? "|" : "", text);
	}
	free(log);
}

struct caller {
	struct voice *v;
	int id;
	int calls;
	int refused;
	uint64_t worst_ns;
};

static void *caller_main(void *arg)
{
	struct caller *c = arg;
	static const enum voice_kind kinds[] = {VOICE_KIND_MOVE, VOICE_KIND_TIME, VOICE_KIND_INFO,
						VOICE_KIND_PROMPT, VOICE_KIND_REPEAT};

	for (int i = 0; i < c->calls; i++) {
		char text[64];
		enum voice_kind kind = kinds[(i + c->id) % 5];
		uint64_t t0 = tu_now_ns(), dt;

		snprintf(text, sizeof(text), "%s %d", tu_moves[i % TU_MOVE_COUNT], c->id);
		if (voice_say(c->v, kind == VOICE_KIND_MOVE ? VOICE_PUBLIC : VOICE_PRIVATE, kind,
			      "de", text, (uint64_t)i) != 0)
			c->refused++;
		dt = tu_now_ns() - t0;
		c->worst_ns = dt > c->worst_ns ? dt : c->worst_ns;
		if (i % 16 == 0)
			sleep_ms(1);
	}
	return NULL;
}

static void test_concurrent_callers(void **state)
{
	(void)state;
	enum { THREADS = 4, CALLS = 150 };
	char dir[64], path[128];
	struct caller callers[THREADS];
	pthread_t threads[THREADS];
	struct voice_stats st;
	struct voice *v;
	uint64_t worst = 0;
	struct captured warnings;
	char *log;

	tu_tempdir(dir, "thread");
	capture_begin(&warnings);
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	for (int i = 0; i < THREADS; i++) {
		callers[i] = (struct caller){.v = v, .id = i, .calls = CALLS};
		assert_int_equal(pthread_create(&threads[i], NULL, caller_main, &callers[i]), 0);
	}
	/* Meanwhile the main thread waits for idleness now and then. */
	for (int i = 0; i < 5; i++) {
		voice_wait_idle(v);
		sleep_ms(2);
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(threads[i], NULL);
		worst = callers[i].worst_ns > worst ? callers[i].worst_ns : worst;
	}
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	voice_stop(v);

	/* Every call was either spoken (and logged) or dropped with a warning. */
	assert_int_equal(st.spoken + st.dropped, THREADS * CALLS);
	assert_int_equal(capture_end(&warnings, "not spoken"), st.dropped);
	snprintf(path, sizeof(path), "%s/speech.log", dir);
	log = tu_read_file(path, NULL);
	assert_int_equal(tu_count_lines(log), st.spoken);
	free(log);
	/* Never waits for audio: printed, not asserted (a loaded machine or valgrind is slow;
	 * that voice_say does not block on a sink is shown by check-signals' unread FIFO). */
	print_message("voice_say took %.3f ms at worst\n", (double)worst / 1e6);
	tu_rmdir(dir);
}

/* speech.log's storage: fails (short first, then ENOSPC) while `failing` is set. */
static atomic_int log_failing;
static atomic_int log_short_done;

static ssize_t failing_write(int fd, const void *data, size_t len)
{
	if (atomic_load(&log_failing)) {
		if (len > 1 && !atomic_exchange(&log_short_done, 1))
			return write(fd, data, len / 2);
		errno = ENOSPC;
		return -1;
	}
	return write(fd, data, len);
}

/* Lines said while speech.log cannot be written are kept and written, in order and with
 * the times they were said, once it can (docs/state.md "State directory": nothing said is lost). */
static void test_log_kept_while_storage_fails(void **state)
{
	(void)state;
	char dir[64], path[128], err[200];
	struct voice_config cfg;
	struct voice *v;
	char *log;

	tu_tempdir(dir, "logfault");
	voice_config_defaults(&cfg);
	cfg.sink = VOICE_SINK_NONE;
	cfg.log_write = failing_write;
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
	v = voice_start(&cfg, err, sizeof(err));
	assert_non_null(v);
	assert_int_equal(voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "eins", 100), 0);
	voice_wait_idle(v);
	atomic_store(&log_failing, 1);
	assert_int_equal(voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "zwei", 200), 0);
	voice_wait_idle(v);
	assert_int_equal(voice_say(v, VOICE_PRIVATE, VOICE_KIND_PROMPT, "de", "drei", 300), 0);
	voice_wait_idle(v);
	snprintf(path, sizeof(path), "%s/speech.log", dir);
	log = tu_read_file(path, NULL);
	assert_non_null(log);
	assert_null(strstr(log, "drei")); /* not on disk yet */
	free(log);
	atomic_store(&log_failing, 0);
	assert_int_equal(voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "vier", 400), 0);
	voice_wait_idle(v);
	voice_stop(v);
	log = tu_read_file(path, NULL);
	assert_non_null(log);
	assert_string_equal(log, "100 public eins\n200 public zwei\n300 private drei\n"
				 "400 public vier\n");
	free(log);
	tu_rmdir(dir);
}

static void test_move_stops_stale_report(void **state)
{
	(void)state;
	char dir[64], texts[1024], priv[128];
	struct voice_stats st;
	struct voice *v;
	struct tu_wav w;

	tu_tempdir(dir, "preempt");
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_TIME, "de", LONG_TEXT, 1);
	wait_started(v, 1);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "Springer Gustav eins Felix drei", 2);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	voice_stop(v);

	assert_int_equal(st.aborted, 1);
	assert_int_equal(st.spoken, 2);
	spoken_texts(dir, 0, texts, sizeof(texts));
	assert_string_equal(texts, LONG_TEXT "|Springer Gustav eins Felix drei");
	/* The report was cut short: far less than its 17 seconds are in the file. */
	snprintf(priv, sizeof(priv), "%s/audio/private.wav", dir);
	assert_int_equal(tu_wav_load(priv, &w), 0);
	assert_true(w.seconds < 8.0);
	tu_wav_free(&w);
	tu_rmdir(dir);
}

static void test_priorities(void **state)
{
	(void)state;
	char dir[64], texts[2048];
	struct voice_stats st;
	struct voice *v;
	struct captured warnings;

	tu_tempdir(dir, "prio");
	capture_begin(&warnings);
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);

	/* A move is never cut; meanwhile prompts queue first, and a new move makes queued
	 * repeats and info stale. */
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", LONG_TEXT, 1);
	wait_started(v, 1);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_REPEAT, "de", "r", 2);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_PROMPT, "de", "p1", 3);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_INFO, "de", "i", 4);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_PROMPT, "de", "p2", 5);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "m", 6);
	voice_wait_idle(v);
	spoken_texts(dir, 1, texts, sizeof(texts));
	assert_string_equal(texts, "p1|p2|m");
	voice_get_stats(v, &st);
	assert_int_equal(st.aborted, 0);
	assert_int_equal(st.dropped, 2);

	/* Without a move: a newer time report replaces a queued one. */
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", LONG_TEXT, 7);
	wait_started(v, 5);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_TIME, "de", "t1", 8);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_INFO, "de", "i", 9);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_TIME, "de", "t2", 10);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_PROMPT, "de", "p", 11);
	voice_wait_idle(v);
	spoken_texts(dir, 5, texts, sizeof(texts));
	assert_string_equal(texts, "p|i|t2");
	voice_get_stats(v, &st);
	assert_int_equal(st.dropped, 3);
	voice_stop(v);
	assert_int_equal(capture_end(&warnings, "not spoken"), 3);
	tu_rmdir(dir);
}

static void test_queue_full(void **state)
{
	(void)state;
	char dir[64];
	struct voice_stats st;
	struct voice *v;
	struct captured warnings;
	int refused = 0;

	tu_tempdir(dir, "full");
	capture_begin(&warnings);
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", LONG_TEXT, 1);
	wait_started(v, 1);
	for (int i = 0; i < VOICE_QUEUE_SIZE + 8; i++) {
		uint64_t t0 = tu_now_ns();

		if (voice_say(v, VOICE_PRIVATE, VOICE_KIND_INFO, "de", "Fehler", 2) != 0)
			refused++;
		assert_true(tu_now_ns() - t0 < 50 * 1000000ull);
	}
	assert_int_equal(refused, 8);
	/* A record command still gets through a full queue. */
	assert_int_equal(voice_record_to(v, NULL), 0);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	assert_int_equal(st.spoken, 1 + VOICE_QUEUE_SIZE);
	assert_int_equal(st.dropped, 8);
	voice_stop(v);
	assert_int_equal(capture_end(&warnings, "queue full, not spoken"), 8);
	tu_rmdir(dir);
}

static void test_stop_drains(void **state)
{
	(void)state;
	char dir[64], texts[1024];
	struct voice *v;

	tu_tempdir(dir, "drain");
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	for (size_t i = 0; i < 5; i++)
		voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[i], i);
	voice_stop(v);
	spoken_texts(dir, 0, texts, sizeof(texts));
	assert_string_equal(texts, "Bauer Eva zwei Eva vier|Bauer Cesar sieben Cesar fünf|Springer "
				   "Gustav eins Felix drei|Bauer David sieben David sechs|Läufer "
				   "Felix eins schlägt Bella fünf");
	tu_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_concurrent_callers),
	    cmocka_unit_test(test_move_stops_stale_report),
	    cmocka_unit_test(test_log_kept_while_storage_fails),
	    cmocka_unit_test(test_priorities),
	    cmocka_unit_test(test_queue_full),
	    cmocka_unit_test(test_stop_drains),
	};
	return cmocka_run_group_tests_name("voice_thread", tests, NULL, NULL);
}
