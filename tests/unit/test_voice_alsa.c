/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The ALSA sink through ALSA's "null" PCM (the real snd_pcm_* path, no sound card), and a
 * missing device: nothing is lost from speech.log or the game record, and voice_say never
 * waits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/voice_testutil.h"

static void test_null_pcm(void **state)
{
	(void)state;
	char dir[64], path[128], expected[2048] = "";
	struct voice *v;
	struct voice_stats st;
	size_t len = 0;
	char *log;

	tu_tempdir(dir, "alsa");
	v = tu_voice(dir, VOICE_SINK_ALSA, "null", "null");
	assert_non_null(v);
	for (size_t i = 0; i < TU_MOVE_COUNT; i++) {
		assert_int_equal(
		    voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[i], 1000 * (i + 1)),
		    0);
		len += (size_t)snprintf(expected + len, sizeof(expected) - len, "%zu public %s\n",
					1000 * (i + 1), tu_moves[i]);
		voice_wait_idle(v);
		voice_get_stats(v, &st);
		/* The first samples reached ALSA (how soon is measured by make bench, not
		 * asserted: a loaded machine or valgrind is slow). */
		assert_true(st.last_first_sample_ns > 0);
	}
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_TIME, "de",
		  "Weiß: eine Stunde, zwei Minuten. Schwarz: drei Minuten. Zug zwölf.", 20500);
	voice_wait_idle(v);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_PROMPT, "en", "Promotion: choose a piece", 20600);
	voice_wait_idle(v);
	len += (size_t)snprintf(expected + len, sizeof(expected) - len,
				"20500 private Weiß: eine Stunde, zwei Minuten. Schwarz: drei "
				"Minuten. Zug zwölf.\n20600 private Promotion: choose a piece\n");
	voice_get_stats(v, &st);
	assert_int_equal(st.spoken, TU_MOVE_COUNT + 2);
	assert_int_equal(st.dropped, 0);
	assert_int_equal(st.samples_lost, 0);
	/* Every move is longer than half a second at 22050 Hz. */
	assert_true(st.samples_to_sink > (TU_MOVE_COUNT + 2) * 11025);
	voice_stop(v);

	snprintf(path, sizeof(path), "%s/speech.log", dir);
	log = tu_read_file(path, NULL);
	assert_non_null(log);
	assert_string_equal(log, expected);
	free(log);

	/* A restarted daemon adds to speech.log, never truncates it. */
	v = tu_voice(dir, VOICE_SINK_ALSA, "null", "null");
	assert_non_null(v);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "Lange Rochade", 30000);
	voice_stop(v);
	log = tu_read_file(path, NULL);
	assert_int_equal(tu_count_lines(log), TU_MOVE_COUNT + 3);
	assert_non_null(strstr(log, "\n30000 public Lange Rochade\n"));
	free(log);
	tu_rmdir(dir);
}

/* The device does not exist (or was unplugged): logged and retried, everything else goes on. */
static void test_missing_device_loses_nothing(void **state)
{
	(void)state;
	char dir[64], path[128], record[128];
	struct voice *v;
	struct voice_stats st;
	struct tu_wav w;
	uint64_t worst = 0;
	char *log;

	tu_tempdir(dir, "alsa-missing");
	v = tu_voice(dir, VOICE_SINK_ALSA, "annabella_no_such_pcm", "annabella_no_such_pcm");
	assert_non_null(v);
	snprintf(record, sizeof(record), "%s/game-record.wav", dir);
	assert_int_equal(voice_record_to(v, record), 0);
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < TU_MOVE_COUNT; i++) {
			uint64_t t0 = tu_now_ns(), dt;

			assert_int_equal(voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de",
						   tu_moves[i], round * 100 + i),
					 0);
			dt = tu_now_ns() - t0;
			worst = dt > worst ? dt : worst;
			if (i == 3) {
				/* (A move would make guidance still queued stale.) */
				voice_say(v, VOICE_PRIVATE, VOICE_KIND_INFO, "de",
					  "Eva vier sollte leer sein", round * 100 + i);
				voice_wait_idle(v);
			}
		}
		voice_wait_idle(v);
	}
	assert_int_equal(voice_record_to(v, NULL), 0);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	voice_stop(v);

	/* voice_say only copies and signals: it never waits for the missing device (the
	 * figure is printed; timings are benchmarks, not assertions). */
	print_message("voice_say took %.3f ms at worst\n", (double)worst / 1e6);
	assert_int_equal(st.spoken, 3 * (TU_MOVE_COUNT + 1));
	assert_int_equal(st.dropped, 0);
	assert_int_equal(st.samples_to_sink, 0);
	assert_true(st.samples_lost > 0);

	snprintf(path, sizeof(path), "%s/speech.log", dir);
	log = tu_read_file(path, NULL);
	assert_int_equal(tu_count_lines(log), 3 * (TU_MOVE_COUNT + 1));
	assert_non_null(strstr(log, "0 public Bauer Eva zwei Eva vier\n"));
	assert_non_null(strstr(log, "203 private Eva vier sollte leer sein\n"));
	free(log);

	/* The game record has every public announcement (and only those). */
	assert_int_equal(tu_wav_load(record, &w), 0);
	assert_true(w.seconds > 3 * TU_MOVE_COUNT * 0.5);
	assert_int_equal(w.count, st.samples_recorded);
	assert_true(w.rms > 300);
	tu_wav_free(&w);
	tu_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_null_pcm),
	    cmocka_unit_test(test_missing_device_loses_nothing),
	};
	return cmocka_run_group_tests_name("voice_alsa", tests, NULL, NULL);
}
