/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The WAV sink (state_dir/audio/public.wav, private.wav) and the game record: valid after
 * every utterance, non-silent, every utterance of a channel in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/voice_testutil.h"
#include "voice/wav.h"

static void test_wav_sink(void **state)
{
	(void)state;
	char dir[64], pub[128], priv[128];
	struct voice *v;
	struct tu_wav w;
	double before = 0;
	size_t public_samples;

	tu_tempdir(dir, "wav");
	snprintf(pub, sizeof(pub), "%s/audio/public.wav", dir);
	snprintf(priv, sizeof(priv), "%s/audio/private.wav", dir);
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	for (size_t i = 0; i < TU_MOVE_COUNT; i++) {
		voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[i], i);
		voice_wait_idle(v);
		/* The header is right after every utterance, while the voice still runs. */
		assert_int_equal(tu_wav_load(pub, &w), 0);
		assert_int_equal(w.rate, 22050);
		assert_true(w.seconds - before > 0.5);
		before = w.seconds;
		tu_wav_free(&w);
	}
	assert_int_equal(tu_wav_load(priv, &w), 0);
	assert_int_equal(w.count, 0);
	tu_wav_free(&w);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_TIME, "de",
		  "Weiß: eine Stunde. Schwarz: null Sekunden. Zug vierzig.", 100);
	/* Said whole before the prompt: a prompt cuts a time report still being said (as on a
	 * machine slow enough, under valgrind), and both are to be in the file here. */
	voice_wait_idle(v);
	voice_say(v, VOICE_PRIVATE, VOICE_KIND_PROMPT, "nl", "Promotie: kies een stuk", 101);
	voice_stop(v);

	assert_int_equal(tu_wav_load(pub, &w), 0);
	assert_true(w.rms > 300);
	assert_true(w.seconds > TU_MOVE_COUNT * 0.5);
	public_samples = w.count;
	tu_wav_free(&w);
	assert_int_equal(tu_wav_load(priv, &w), 0);
	assert_true(w.seconds > 2.0);
	assert_true(w.rms > 300);
	tu_wav_free(&w);

	/* A restarted daemon continues the files. */
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "Lange Rochade", 200);
	voice_stop(v);
	assert_int_equal(tu_wav_load(pub, &w), 0);
	assert_true(w.count > public_samples + 11025 / 2);
	/* What was there before is still there, unchanged in length. */
	tu_wav_free(&w);
	tu_rmdir(dir);
}

/* The process engine (an espeak-ng process per phrase, for measurements) says the same words
 * into the same sink: about as long and as loud as the library's. */
static void test_process_engine(void **state)
{
	struct voice_config cfg;
	struct voice *v;
	struct tu_wav lib, proc;
	char dir[64], pub[128], err[200];

	(void)state;
	for (int engine = VOICE_ENGINE_LIBRARY; engine <= VOICE_ENGINE_PROCESS; engine++) {
		tu_tempdir(dir, "engine");
		snprintf(pub, sizeof(pub), "%s/audio/public.wav", dir);
		voice_config_defaults(&cfg);
		cfg.sink = VOICE_SINK_WAV;
		cfg.engine = (enum voice_engine)engine;
		snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
		v = voice_start(&cfg, err, sizeof(err));
		assert_non_null(v);
		voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "Springer Gustav eins Felix drei",
			  1);
		voice_stop(v);
		assert_int_equal(tu_wav_load(pub, engine ? &proc : &lib), 0);
		tu_rmdir(dir);
	}
	assert_true(proc.rms > 300);
	assert_true(proc.seconds > 0.8 * lib.seconds && proc.seconds < 1.25 * lib.seconds);
	tu_wav_free(&lib);
	tu_wav_free(&proc);
}

/* A file that is not ours (or is damaged) is started afresh rather than appended to. */
static void test_wav_sink_replaces_foreign_file(void **state)
{
	(void)state;
	char dir[64], path[128];
	struct voice *v;
	struct tu_wav w;
	FILE *f;

	tu_tempdir(dir, "wav-foreign");
	snprintf(path, sizeof(path), "%s/audio", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/audio/public.wav", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("this is not a wav file, but it is long enough to have a header", f);
	fclose(f);
	v = tu_voice(dir, VOICE_SINK_WAV, "", "");
	assert_non_null(v);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "Kurze Rochade", 1);
	voice_stop(v);
	assert_int_equal(tu_wav_load(path, &w), 0);
	assert_true(w.seconds > 0.5);
	tu_wav_free(&w);
	tu_rmdir(dir);
}

static void test_record_with_sink_none(void **state)
{
	(void)state;
	char dir[64], rec1[128], rec2[128], path[128];
	struct voice *v;
	struct voice_stats st;
	struct tu_wav w1, w2;
	struct stat sb;
	char *log;

	tu_tempdir(dir, "record");
	snprintf(rec1, sizeof(rec1), "%s/game1.wav", dir);
	snprintf(rec2, sizeof(rec2), "%s/game2.wav", dir);
	v = tu_voice(dir, VOICE_SINK_NONE, "", "");
	assert_non_null(v);

	/* No record, no audio: nothing is synthesized, but speech.log has it. */
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "Bauer Eva zwei Eva vier", 5);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	assert_int_equal(st.last_first_sample_ns, 0);
	assert_int_equal(st.samples_recorded, 0);

	assert_int_equal(voice_record_to(v, rec1), 0);
	for (size_t i = 0; i < 4; i++) {
		voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[i], 10 + i);
		/* Private words are not part of the game record. */
		voice_say(v, VOICE_PRIVATE, VOICE_KIND_PROMPT, "de", "Umwandlung: Figur wählen",
			  10 + i);
		voice_wait_idle(v);
	}
	assert_int_equal(voice_record_to(v, rec2), 0);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[4], 20);
	assert_int_equal(voice_record_to(v, NULL), 0);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[5], 21);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	voice_stop(v);

	assert_int_equal(tu_wav_load(rec1, &w1), 0);
	assert_int_equal(tu_wav_load(rec2, &w2), 0);
	assert_true(w1.seconds > 4 * 0.5);
	assert_true(w1.seconds < 4 * 3.0);
	assert_true(w2.seconds > 0.5 && w2.seconds < 4.0);
	assert_true(w1.rms > 300 && w2.rms > 300);
	assert_int_equal(w1.count + w2.count, st.samples_recorded);
	tu_wav_free(&w1);
	tu_wav_free(&w2);
	/* Sink none writes no audio files. */
	snprintf(path, sizeof(path), "%s/audio", dir);
	assert_int_not_equal(stat(path, &sb), 0);
	snprintf(path, sizeof(path), "%s/speech.log", dir);
	log = tu_read_file(path, NULL);
	assert_int_equal(tu_count_lines(log), 1 + 8 + 2);
	assert_non_null(strstr(log, "5 public Bauer Eva zwei Eva vier\n"));
	assert_non_null(strstr(log, "10 public Bauer Eva zwei Eva vier\n"));
	assert_non_null(strstr(log, "13 private Umwandlung: Figur wählen\n"));
	assert_non_null(strstr(log, "21 public Kurze Rochade\n"));
	free(log);
	tu_rmdir(dir);
}

static void test_state_dir_not_writable(void **state)
{
	(void)state;
	struct voice_config cfg;
	char err[200] = "";

	voice_config_defaults(&cfg);
	cfg.sink = VOICE_SINK_WAV;
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "/nonexistent/annabella");
	assert_null(voice_start(&cfg, err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/annabella"));
}

/* A chunk whose size runs past the buffer ends the parse; it never moves the position back
 * (a size near 4 GiB wraps a 32-bit size_t). */
static void test_parse_header_huge_chunk(void **state)
{
	(void)state;
	uint8_t h[64] = "RIFF\0\0\0\0WAVE";
	struct wav_info info;

	memcpy(h + 12, "LIST", 4);
	h[16] = 0xf4; /* 0xfffffff4: 12 + 8 + size wraps to 8 on 32 bits */
	h[17] = h[18] = h[19] = 0xff;
	assert_int_equal(wav_parse_header(h, sizeof(h), &info), -1);
}

/* A file to continue whose header cannot be brought up to date: the writer is left closed,
 * not holding the descriptor the caller is about to close. */
static void test_open_fd_commit_fails(void **state)
{
	(void)state;
	struct wav_writer w;
	uint8_t h[44] = {0};
	int16_t samples[2] = {1, 2};
	int fd = memfd_create("wav", MFD_ALLOW_SEALING);

	assert_true(fd >= 0);
	memcpy(h, "RIFF", 4);
	memcpy(h + 8, "WAVEfmt ", 8);
	h[16] = 16;
	h[20] = 1;		    /* PCM */
	h[22] = 1;		    /* mono */
	h[24] = 0x22, h[25] = 0x56; /* 22050 */
	h[32] = 2;
	h[34] = 16;
	memcpy(h + 36, "data", 4);
	assert_int_equal(write(fd, h, sizeof(h)), (ssize_t)sizeof(h));
	assert_int_equal(write(fd, samples, sizeof(samples)), (ssize_t)sizeof(samples));
	assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), 0);

	assert_int_equal(wav_writer_open_fd(&w, fd, 22050), -1);
	assert_int_equal(w.fd, -1);
	close(fd);
	assert_int_equal(wav_writer_write(&w, samples, 2), -1);
	wav_writer_close(&w);
}

/* A record that cannot be opened when the game starts (its directory not there: read-only or
 * unmounted storage) is opened at a later public utterance, its games/ made then, and takes
 * what is said from then. */
static void test_record_opened_later(void **state)
{
	(void)state;
	char dir[64], sub[80], games[96], rec[128];
	struct voice *v;
	struct voice_stats st;
	struct tu_wav w;

	tu_tempdir(dir, "record-later");
	snprintf(sub, sizeof(sub), "%s/state", dir);
	snprintf(games, sizeof(games), "%s/games", sub);
	snprintf(rec, sizeof(rec), "%s/game1.wav", games);
	v = tu_voice(dir, VOICE_SINK_NONE, "", "");
	assert_non_null(v);
	assert_int_equal(voice_record_to(v, rec), -1);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[0], 10);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	assert_int_equal(st.samples_recorded, 0);
	assert_int_equal(mkdir(sub, 0750), 0); /* mounted: games/ is the voice's to make */
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[1], 11);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	voice_stop(v);
	assert_true(st.samples_recorded > 0);
	assert_int_equal(tu_wav_load(rec, &w), 0);
	assert_int_equal(w.count, st.samples_recorded);
	tu_wav_free(&w);
	unlink(rec);
	rmdir(games);
	rmdir(sub);
	tu_rmdir(dir);
}

/* A record whose file goes (its state directory removed, or the storage under it unmounted and
 * mounted again) is opened again at its path at the next public utterance, so what is said
 * from then is in the record that is there (not in the removed file). */
static void test_record_removed_opened_again(void **state)
{
	(void)state;
	char dir[64], games[96], rec[128];
	struct voice *v;
	struct tu_wav w;

	tu_tempdir(dir, "record-removed");
	snprintf(games, sizeof(games), "%s/games", dir);
	snprintf(rec, sizeof(rec), "%s/game1.wav", games);
	assert_int_equal(mkdir(games, 0750), 0);
	v = tu_voice(dir, VOICE_SINK_NONE, "", "");
	assert_non_null(v);
	assert_int_equal(voice_record_to(v, rec), 0);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[0], 10);
	voice_wait_idle(v);
	assert_int_equal(unlink(rec), 0);
	assert_int_equal(rmdir(games), 0);
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[1], 11);
	voice_wait_idle(v);
	voice_stop(v);
	assert_int_equal(tu_wav_load(rec, &w), 0);
	assert_true(w.count > 0);
	tu_wav_free(&w);
	unlink(rec);
	rmdir(games);
	tu_rmdir(dir);
}

/* After a failed write the writer takes up again: the part of a chunk the failure left is cut
 * off, and the header counts exactly the samples written. */
static void test_writer_resumes(void **state)
{
	(void)state;
	struct wav_writer w;
	struct wav_info info;
	uint8_t h[WAV_HEADER_SIZE];
	int16_t samples[100];
	int fd = memfd_create("wav", 0);
	struct stat sb;

	assert_true(fd >= 0);
	for (int i = 0; i < 100; i++)
		samples[i] = (int16_t)(i * 300);
	assert_int_equal(wav_writer_open_fd(&w, fd, 22050), 0);
	assert_int_equal(wav_writer_write(&w, samples, 100), 0);
	/* A write that failed half way: three stray bytes, the writer marked failed. */
	assert_int_equal(write(fd, "abc", 3), 3);
	w.failed = true;
	assert_int_equal(wav_writer_write(&w, samples, 10), -1);
	assert_int_equal(wav_writer_resume(&w), 0);
	assert_false(w.failed);
	assert_int_equal(wav_writer_write(&w, samples, 50), 0);
	assert_int_equal(wav_writer_commit(&w), 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_size, WAV_HEADER_SIZE + 2 * 150);
	assert_int_equal(pread(fd, h, sizeof(h), 0), (ssize_t)sizeof(h));
	assert_int_equal(wav_parse_header(h, sizeof(h), &info), 0);
	assert_int_equal(info.data_bytes, 2 * 150);
	wav_writer_close(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_wav_sink),
	    cmocka_unit_test(test_wav_sink_replaces_foreign_file),
	    cmocka_unit_test(test_process_engine),
	    cmocka_unit_test(test_record_with_sink_none),
	    cmocka_unit_test(test_state_dir_not_writable),
	    cmocka_unit_test(test_parse_header_huge_chunk),
	    cmocka_unit_test(test_open_fd_commit_fails),
	    cmocka_unit_test(test_record_opened_later),
	    cmocka_unit_test(test_record_removed_opened_again),
	    cmocka_unit_test(test_writer_resumes),
	};
	return cmocka_run_group_tests_name("voice_wav", tests, NULL, NULL);
}
