/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The voice thread and its queue: concurrent callers, priorities, preemption by a new move,
 * a full queue, draining on stop.  Built and run under ThreadSanitizer by `make tsan`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <poll.h>
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

/* Whether an utterance of kind `newer` on `newer_ch` cuts one of kind `older` on `older_ch`
 * short while it is being said (voice.h): the older one's report comes at once when cut. */
static bool cuts(enum voice_channel older_ch, enum voice_kind older, enum voice_channel newer_ch,
		 enum voice_kind newer)
{
	char dir[64], texts[1024];
	struct voice_stats st;
	struct voice_said said;
	struct voice *v;
	struct utterance u;

	tu_tempdir(dir, "cut");
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	utterance_set(&u, PHRASE_DE, LONG_TEXT);
	assert_int_equal(voice_say_reported(v, older_ch, older, &u, 100, 1, 7), 0);
	wait_started(v, 1);
	voice_say(v, newer_ch, newer, "de", "neu", 2);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	assert_int_equal(voice_said_take(v, &said, 1), 1);
	voice_stop(v);
	assert_int_equal(said.token, 7);
	/* Both begun and logged: a cut is no drop. */
	assert_int_equal(st.spoken, 2);
	assert_int_equal(st.dropped, 0);
	spoken_texts(dir, 0, texts, sizeof(texts));
	assert_string_equal(texts, LONG_TEXT "|neu");
	tu_rmdir(dir);
	assert_true(st.aborted <= 1);
	return st.aborted == 1;
}

/* What no longer matters once a newer utterance comes is cut short; what matters is not. */
static void test_what_cuts_what(void **state)
{
	(void)state;
	static const struct {
		enum voice_channel older_ch;
		enum voice_kind older;
		enum voice_channel newer_ch;
		enum voice_kind newer;
		bool cut;
	} cases[] = {
	    /* A move the Laws need heard whole waits for nothing but its correction. */
	    {VOICE_PUBLIC, VOICE_KIND_MOVE, VOICE_PUBLIC, VOICE_KIND_MOVE, false},
	    {VOICE_PUBLIC, VOICE_KIND_MOVE, VOICE_PUBLIC, VOICE_KIND_ECHO, false},
	    {VOICE_PUBLIC, VOICE_KIND_MOVE, VOICE_PRIVATE, VOICE_KIND_PROMPT, false},
	    {VOICE_PUBLIC, VOICE_KIND_MOVE, VOICE_PUBLIC, VOICE_KIND_CORRECTION, true},
	    /* A move its listener heard already: the next move cuts it. */
	    {VOICE_PUBLIC, VOICE_KIND_ECHO, VOICE_PUBLIC, VOICE_KIND_MOVE, true},
	    {VOICE_PUBLIC, VOICE_KIND_ECHO, VOICE_PUBLIC, VOICE_KIND_ECHO, true},
	    {VOICE_PUBLIC, VOICE_KIND_ECHO, VOICE_PRIVATE, VOICE_KIND_PROMPT, false},
	    {VOICE_PUBLIC, VOICE_KIND_ECHO, VOICE_PUBLIC, VOICE_KIND_INFO, false},
	    /* Guidance behind a repeat, a time report or a menu item: cut. */
	    {VOICE_PRIVATE, VOICE_KIND_REPEAT, VOICE_PRIVATE, VOICE_KIND_GUIDE, true},
	    {VOICE_PRIVATE, VOICE_KIND_MENU, VOICE_PRIVATE, VOICE_KIND_GUIDE, true},
	    {VOICE_PRIVATE, VOICE_KIND_REPEAT, VOICE_PRIVATE, VOICE_KIND_PROMPT, true},
	    {VOICE_PRIVATE, VOICE_KIND_TIME, VOICE_PRIVATE, VOICE_KIND_PROMPT, true},
	    {VOICE_PRIVATE, VOICE_KIND_MENU, VOICE_PRIVATE, VOICE_KIND_PROMPT, true},
	    {VOICE_PRIVATE, VOICE_KIND_INFO, VOICE_PRIVATE, VOICE_KIND_PROMPT, true},
	    /* ... but not the public words, nor other guidance. */
	    {VOICE_PUBLIC, VOICE_KIND_INFO, VOICE_PRIVATE, VOICE_KIND_PROMPT, false},
	    {VOICE_PRIVATE, VOICE_KIND_PROMPT, VOICE_PRIVATE, VOICE_KIND_PROMPT, false},
	    {VOICE_PRIVATE, VOICE_KIND_GUIDE, VOICE_PRIVATE, VOICE_KIND_GUIDE, false},
	    {VOICE_PRIVATE, VOICE_KIND_GUIDE, VOICE_PRIVATE, VOICE_KIND_MENU, false},
	    /* Guidance for a board a newer move has changed. */
	    {VOICE_PRIVATE, VOICE_KIND_GUIDE, VOICE_PUBLIC, VOICE_KIND_ECHO, true},
	    {VOICE_PRIVATE, VOICE_KIND_GUIDE, VOICE_PUBLIC, VOICE_KIND_MOVE, true},
	    /* The next menu item, a repeat or time report asked again. */
	    {VOICE_PRIVATE, VOICE_KIND_MENU, VOICE_PRIVATE, VOICE_KIND_MENU, true},
	    {VOICE_PRIVATE, VOICE_KIND_PROMPT, VOICE_PRIVATE, VOICE_KIND_MENU, false},
	    {VOICE_PRIVATE, VOICE_KIND_REPEAT, VOICE_PRIVATE, VOICE_KIND_REPEAT, true},
	    {VOICE_PRIVATE, VOICE_KIND_TIME, VOICE_PRIVATE, VOICE_KIND_TIME, true},
	    {VOICE_PRIVATE, VOICE_KIND_TIME, VOICE_PRIVATE, VOICE_KIND_REPEAT, false},
	    /* Information: what a move makes stale, nothing else. */
	    {VOICE_PRIVATE, VOICE_KIND_INFO, VOICE_PRIVATE, VOICE_KIND_INFO, false},
	    {VOICE_PRIVATE, VOICE_KIND_INFO, VOICE_PUBLIC, VOICE_KIND_MOVE, true},
	    {VOICE_PRIVATE, VOICE_KIND_REPEAT, VOICE_PUBLIC, VOICE_KIND_ECHO, true},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool cut =
		    cuts(cases[i].older_ch, cases[i].older, cases[i].newer_ch, cases[i].newer);

		if (cut != cases[i].cut)
			fail_msg("case %zu: kind %d (channel %d) then %d (channel %d): %s", i,
				 cases[i].older, cases[i].older_ch, cases[i].newer,
				 cases[i].newer_ch, cut ? "cut" : "not cut");
	}
}

/* A move waiting behind a move the Laws need heard whole is never dropped, not even an
 * echo with a newer move after it: every move is begun (and an echo a newer move waits
 * behind cut at once).  A newer menu item drops one
 * waiting, a newer move the guidance waiting. */
static void test_moves_never_dropped(void **state)
{
	(void)state;
	char dir[64], texts[2048];
	struct voice_stats st;
	struct voice *v;
	struct captured warnings;

	tu_tempdir(dir, "nodrop");
	capture_begin(&warnings);
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", LONG_TEXT, 1);
	wait_started(v, 1);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_ECHO, "de", "e", 2);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_MENU, "de", "m1", 3);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_GUIDE, "de", "g", 4);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "m", 5);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_MENU, "de", "m2", 6);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	voice_stop(v);
	spoken_texts(dir, 1, texts, sizeof(texts));
	assert_string_equal(texts, "m2|e|m");
	/* The echo with a newer move behind it: begun and cut at once. */
	assert_int_equal(st.aborted, 1);
	assert_int_equal(st.dropped, 2);
	assert_int_equal(capture_end(&warnings, "not spoken"), 2);
	tu_rmdir(dir);
}

/* The reports: when each utterance will have been heard on its channel's stream, as a sink
 * that plays in real time plays it (one after another), at once for one cut short, and for
 * one that was never said. */
static void test_said_reports(void **state)
{
	(void)state;
	char dir[64];
	struct voice_said said[VOICE_SAID_MAX];
	struct voice_stats st0, st1;
	struct pollfd pfd;
	struct voice *v;
	struct utterance u;
	uint64_t t0, first_ns, second_ns;

	struct captured warnings;
	struct tu_wav w;
	char path[128];

	tu_tempdir(dir, "said");
	capture_begin(&warnings);
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	pfd = (struct pollfd){.fd = voice_said_fd(v), .events = POLLIN};
	assert_true(pfd.fd >= 0);
	assert_int_equal(poll(&pfd, 1, 0), 0);

	/* Two moves one after the other: the second ends its own length after the first. */
	t0 = tu_now_ns();
	utterance_set(&u, PHRASE_DE, tu_moves[0]);
	voice_say_reported(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, 1, 11);
	voice_wait_idle(v);
	voice_get_stats(v, &st0);
	utterance_set(&u, PHRASE_DE, tu_moves[2]);
	voice_say_reported(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, 2, 12);
	voice_wait_idle(v);
	voice_get_stats(v, &st1);
	assert_int_equal(poll(&pfd, 1, 1000), 1);
	assert_int_equal(voice_said_take(v, said, VOICE_SAID_MAX), 2);
	assert_int_equal(said[0].token, 11);
	assert_int_equal(said[1].token, 12);
	snprintf(path, sizeof(path), "%s/audio/public.wav", dir);
	assert_int_equal(tu_wav_load(path, &w), 0);
	first_ns = st0.samples_to_sink * 1000000000ull / w.rate;
	second_ns = (st1.samples_to_sink - st0.samples_to_sink) * 1000000000ull / w.rate;
	tu_wav_free(&w);
	assert_true(said[0].heard_ns >= t0 + first_ns);
	assert_true(said[1].heard_ns - said[0].heard_ns + 1000 >= second_ns);
	assert_true(said[1].heard_ns - said[0].heard_ns <= second_ns + 1000);
	assert_int_equal(poll(&pfd, 1, 0), 0);

	/* Cut short by its correction: heard by the time it is reported. */
	utterance_set(&u, PHRASE_DE, LONG_TEXT);
	voice_say_reported(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, 3, 13);
	wait_started(v, 3);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_CORRECTION, "de", tu_moves[1], 4);
	voice_wait_idle(v);
	assert_int_equal(voice_said_take(v, said, VOICE_SAID_MAX), 1);
	assert_int_equal(said[0].token, 13);
	assert_true(said[0].heard_ns <= tu_now_ns());

	/* Never said (a newer time report replaced it): reported too. */
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", LONG_TEXT, 5);
	wait_started(v, 5);
	utterance_set(&u, PHRASE_DE, "t1");
	voice_say_reported(v, VOICE_PRIVATE, VOICE_KIND_TIME, &u, 100, 6, 14);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_TIME, "de", "t2", 7);
	assert_int_equal(voice_said_take(v, said, VOICE_SAID_MAX), 1);
	assert_int_equal(said[0].token, 14);
	voice_stop(v);
	assert_int_equal(capture_end(&warnings, "not spoken"), 1);
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
	    cmocka_unit_test(test_what_cuts_what),
	    cmocka_unit_test(test_moves_never_dropped),
	    cmocka_unit_test(test_said_reports),
	};
	return cmocka_run_group_tests_name("voice_thread", tests, NULL, NULL);
}
