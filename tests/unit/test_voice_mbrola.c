/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A voice per language ([voice] voice-de): a voice eSpeak NG does not have, or loads
 * another for, falls back to the language's own, logged and said privately; an MBROLA voice
 * (Debian's contrib and non-free: skipped, and counted so, where none is installed) is heard
 * at its own sample rate, ends without a click, is as loud as the default voice within 2 dB
 * and never clips, is loaded again when its mbrola process dies (and falls back when it
 * cannot be), and a language said beside it keeps its own voice in a worker that is started
 * again when it dies.  Measured on the public audio record.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "voice/phrases.h"
#include "voice/voice.h"
#include "voice_testutil.h"

#define LEVEL 64

static char dir[64];

/* The first installed German MBROLA voice of names ("de2 de6 ..."), as "mb-de2"; NULL with
 * the test skipped if there is none (or no mbrola program). */
static const char *mbrola_voice(const char *names, char *buf, size_t size)
{
	char list[64], *save = NULL, path[128];

	snprintf(list, sizeof(list), "%s", names);
	if (system("command -v mbrola >/dev/null 2>&1") == 0)
		for (char *n = strtok_r(list, " ", &save); n; n = strtok_r(NULL, " ", &save)) {
			snprintf(path, sizeof(path), "/usr/share/mbrola/%s/%s", n, n);
			if (access(path, R_OK) == 0) {
				snprintf(buf, size, "mb-%s", n);
				return buf;
			}
		}
	fprintf(stderr,
		"no MBROLA voice of %s installed (mbrola and mbrola-deN, Debian's "
		"contrib and non-free): skipped\n",
		names);
	skip();
	return NULL;
}

static struct voice *start(const char *voice_de, const char *voice_en)
{
	struct voice_config cfg;
	char err[200];
	struct voice *v;

	voice_config_defaults(&cfg);
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
	snprintf(cfg.voice_name[PHRASE_DE], VOICE_NAME_MAX, "%s", voice_de);
	snprintf(cfg.voice_name[PHRASE_EN], VOICE_NAME_MAX, "%s", voice_en);
	cfg.notice_lang = PHRASE_EN;
	v = voice_start(&cfg, err, sizeof(err));
	assert_non_null(v);
	return v;
}

/* Say the moves into a fresh record at dir/NAME.wav and load it. */
static void say_moves(struct voice *v, const char *name, struct tu_wav *w)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s.wav", dir, name);
	unlink(path);
	assert_int_equal(voice_record_to(v, path), 0);
	for (size_t i = 0; i < TU_MOVE_COUNT; i++)
		assert_int_equal(voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[i], i),
				 0);
	voice_record_to(v, NULL);
	voice_wait_idle(v);
	assert_int_equal(tu_wav_load(path, w), 0);
}

static bool speech_log_has(const char *text)
{
	char path[128], *log;
	size_t len;
	bool has;

	snprintf(path, sizeof(path), "%s/speech.log", dir);
	log = tu_read_file(path, &len);
	has = log && strstr(log, text);
	free(log);
	return has;
}

/* The power of the sounding 20 ms frames (within 30 dB of the loudest), dB of full scale. */
static double active_db(const struct tu_wav *w)
{
	size_t frame = w->rate / 50, frames = w->count / frame, n = 0;
	double loudest = 0, sum = 0, *p = calloc(frames + 1, sizeof(double));

	for (size_t f = 0; f < frames; f++) {
		for (size_t i = 0; i < frame; i++)
			p[f] += (double)w->samples[f * frame + i] * w->samples[f * frame + i];
		p[f] /= (double)frame;
		if (p[f] > loudest)
			loudest = p[f];
	}
	for (size_t f = 0; f < frames; f++)
		if (p[f] * 1000 >= loudest) {
			sum += p[f];
			n++;
		}
	free(p);
	return 10 * log10(sum / (double)n / (32768.0 * 32768.0));
}

static size_t clipped(const struct tu_wav *w)
{
	size_t n = 0;

	for (size_t i = 0; i < w->count; i++)
		n += w->samples[i] >= 32767 || w->samples[i] <= -32768;
	return n;
}

/* A /proc file (its size says 0): up to size - 1 bytes, NUL-terminated. */
static size_t read_proc(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return n;
}

/* Whether one of the command line's words (NUL-separated) starts with name: the first, or
 * a later one where an emulator runs the program (qemu-user's binfmt keeps argv[0] after its
 * own name and the program's path). */
static bool cmdline_has(const char *buf, size_t len, const char *name)
{
	for (size_t at = 0; at < len; at += strlen(buf + at) + 1)
		if (!strncmp(buf + at, name, strlen(name)))
			return true;
	return false;
}

/* Processes whose parent is us and whose command line names name, killed; their
 * count.  (A prompt goes before the record's start in the queue: the test says moves.) */
static int kill_children(const char *name)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int killed = 0;

	while (d && (e = readdir(d))) {
		char path[300], buf[512], *paren;
		int ppid = 0;

		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		read_proc(path, buf, sizeof(buf));
		paren = strrchr(buf, ')');
		if (paren)
			sscanf(paren + 2, "%*c %d", &ppid);
		if (ppid != getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		if (cmdline_has(buf, read_proc(path, buf, sizeof(buf)), name) &&
		    kill(atoi(e->d_name), SIGKILL) == 0)
			killed++;
	}
	if (d)
		closedir(d);
	usleep(100 * 1000);
	return killed;
}

static void test_missing_voice_falls_back(void **state)
{
	struct voice_stats st;
	struct tu_wav w;
	struct voice *v = start("mb-de9", "");

	(void)state;
	voice_get_stats(v, &st);
	assert_int_equal(st.fell_back, 1u << PHRASE_DE);
	say_moves(v, "missing", &w);
	assert_true(w.seconds > 2 && w.rate == 22050);
	voice_stop(v);
	assert_true(speech_log_has(phrase_text(PHRASE_EN, PHRASE_VOICE_FALLBACK)));
	tu_wav_free(&w);
}

/* eSpeak NG takes a name it does not know beside the language as the plain voice: that is
 * no voice loaded "as named". */
static void test_voice_loaded_as_named(void **state)
{
	struct voice_stats st;
	struct voice *v = start("de+mb-de6", "en-us");

	(void)state;
	voice_get_stats(v, &st);
	assert_int_equal(st.fell_back, 1u << PHRASE_DE);
	voice_stop(v);
	v = start("German", "en-us");
	voice_get_stats(v, &st);
	assert_int_equal(st.fell_back, 0);
	assert_int_equal(st.variants_unknown, 0);
	voice_stop(v);
}

/* variant = mb-de6 was taken, and eSpeak NG said plain German: a variant it lacks is
 * reported and not used; one it has is used. */
static void test_unknown_variant(void **state)
{
	struct voice_config cfg;
	struct voice_stats st;
	char err[200];
	struct voice *v;

	(void)state;
	voice_config_defaults(&cfg);
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
	snprintf(cfg.params[VOICE_PUBLIC].variant, sizeof(cfg.params[0].variant), "mb-de6");
	snprintf(cfg.params[VOICE_PRIVATE].variant, sizeof(cfg.params[0].variant), "f2");
	v = voice_start(&cfg, err, sizeof(err));
	assert_non_null(v);
	voice_get_stats(v, &st);
	assert_int_equal(st.variants_unknown, 1u << VOICE_PUBLIC);
	voice_stop(v);
}

/* de2 is made at 16 kHz: the record is at 16 kHz (played at 22,050 Hz it was 38 % too fast
 * and high), each announcement ends in silence, and nothing clips. */
static void test_mbrola_own_rate_clean_end(void **state)
{
	char name[16];
	struct tu_wav w, plain;
	struct voice *v;
	struct voice_stats st;
	const char *voice = mbrola_voice("de2 de1 de4", name, sizeof(name));

	(void)state;
	v = start("", "");
	say_moves(v, "plain", &plain);
	voice_stop(v);
	v = start(voice, "");
	voice_get_stats(v, &st);
	assert_int_equal(st.fell_back, 0);
	assert_int_equal(st.sample_rate, 16000);
	say_moves(v, "mbrola", &w);
	voice_stop(v);
	assert_int_equal(w.rate, 16000);
	/* As long as the default voice's within a quarter (not 38 % shorter). */
	assert_true(fabs(w.seconds / plain.seconds - 1) < 0.25);
	for (size_t i = w.count - w.rate / 1000; i < w.count; i++)
		assert_true(abs(w.samples[i]) <= LEVEL);
	assert_int_equal(clipped(&w), 0);
	tu_wav_free(&w);
	tu_wav_free(&plain);
}

/* Every German MBROLA voice installed: as loud as the default voice within 2 dB, no sample
 * clipped, every announcement's end in silence. */
static void test_mbrola_levels(void **state)
{
	char name[32];
	struct tu_wav plain;
	struct voice *v;
	int tried = 0;

	(void)state;
	v = start("", "");
	say_moves(v, "plain", &plain);
	voice_stop(v);
	for (int n = 1; n <= 8; n++) {
		char voice[16], path[64];
		struct tu_wav w;

		snprintf(voice, sizeof(voice), "de%d", n);
		snprintf(path, sizeof(path), "/usr/share/mbrola/%s/%s", voice, voice);
		if (access(path, R_OK) || system("command -v mbrola >/dev/null 2>&1"))
			continue;
		snprintf(name, sizeof(name), "mb-%s", voice);
		v = start(name, "");
		say_moves(v, name, &w);
		voice_stop(v);
		fprintf(stderr, "%s: %+.1f dB against the default voice, %zu clipped\n", name,
			active_db(&w) - active_db(&plain), clipped(&w));
		assert_true(fabs(active_db(&w) - active_db(&plain)) <= 2.0);
		assert_int_equal(clipped(&w), 0);
		tu_wav_free(&w);
		tried++;
	}
	tu_wav_free(&plain);
	if (!tried)
		mbrola_voice("de1 de2 de3 de4 de5 de6 de7 de8", name, sizeof(name));
}

/* eSpeak NG says nothing, and reports success, once mbrola has died: the voice is loaded
 * again (mbrola started again) and speaks; where mbrola cannot start, the language's own
 * voice speaks, said privately. */
static void test_dead_mbrola(void **state)
{
	char name[16], *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	const char *voice = mbrola_voice("de6 de2 de7 de5", name, sizeof(name));
	struct voice_stats st;
	struct tu_wav w;
	struct voice *v;

	(void)state;
	v = start(voice, "");
	say_moves(v, "before", &w);
	tu_wav_free(&w);
	assert_true(kill_children("mbrola") >= 1);
	say_moves(v, "reloaded", &w);
	assert_true(w.seconds > 2);
	tu_wav_free(&w);
	voice_get_stats(v, &st);
	assert_int_equal(st.fell_back, 0);
	assert_false(speech_log_has(phrase_text(PHRASE_EN, PHRASE_VOICE_FALLBACK)));
	/* Now mbrola cannot be started again. */
	setenv("PATH", "/nonexistent", 1);
	assert_true(kill_children("mbrola") >= 1);
	say_moves(v, "fell-back", &w);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	assert_true(w.seconds > 2);
	voice_get_stats(v, &st);
	assert_int_equal(st.fell_back, 1u << PHRASE_DE);
	voice_stop(v);
	assert_true(speech_log_has(phrase_text(PHRASE_EN, PHRASE_VOICE_FALLBACK)));
	tu_wav_free(&w);
}

/* An English prompt between German MBROLA segments: English is said by its worker (German's
 * mbrola is not started again); a worker killed is started again at its next segment. */
static void test_other_language_apart(void **state)
{
	char name[16], path[128];
	const char *voice = mbrola_voice("de6 de2 de7 de5", name, sizeof(name));
	struct phrase_options o;
	struct voice_stats st;
	struct utterance u;
	struct tu_wav w;
	struct voice *v;

	(void)state;
	phrase_options_defaults(&o);
	o.lang = PHRASE_EN;
	utterance_clear(&u);
	phrase_add(&u, &o, PHRASE_SQUARE_OCCUPIED,
		   &(struct phrase_args){.square = 6, .piece = CHESS_KNIGHT});
	assert_true(u.count >= 2);
	v = start(voice, "");
	snprintf(path, sizeof(path), "%s/apart.wav", dir);
	unlink(path);
	assert_int_equal(voice_record_to(v, path), 0);
	assert_int_equal(voice_say_utterance(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, 1), 0);
	voice_wait_idle(v);
	assert_int_equal(kill_children("annabella-voice"), 1);
	assert_int_equal(voice_say_utterance(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, 2), 0);
	voice_record_to(v, NULL);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	assert_int_equal(st.fell_back, 0);
	assert_int_equal(st.joints, 2 * (uint64_t)(u.count - 1));
	voice_stop(v);
	assert_int_equal(tu_wav_load(path, &w), 0);
	assert_true(w.seconds > 1);
	tu_wav_free(&w);
}

static int setup(void **state)
{
	(void)state;
	tu_tempdir(dir, "mbrola");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_rmdir(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_missing_voice_falls_back, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_voice_loaded_as_named, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unknown_variant, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_mbrola_own_rate_clean_end, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_mbrola_levels, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dead_mbrola, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_other_language_apart, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
