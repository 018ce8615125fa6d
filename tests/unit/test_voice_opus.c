/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game's audio record as Ogg Opus (games/ID.opus): one Opus stream whose pages the
 * product's reader finds whole, as long as what was said, as loud (decoded with libopus),
 * at a tenth of the PCM's size; continued as the same stream after a restart that tore its
 * last page; written again after a write that failed half way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <math.h>
#include <opus/opus.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "voice/oggopus.h"
#include "voice/voice.h"
#include "voice_testutil.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	tu_tempdir(dir, "opus");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_rmdir(dir);
	return 0;
}

/* Say moves first..last-1 into the record at path; the samples recorded. */
static uint64_t say_into(const char *path, size_t first, size_t last)
{
	struct voice *v = tu_voice(dir, VOICE_SINK_NONE, "", "");
	struct voice_stats st;

	assert_non_null(v);
	assert_int_equal(voice_record_to(v, path), 0);
	for (size_t i = first; i < last; i++)
		assert_int_equal(voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", tu_moves[i], i),
				 0);
	voice_record_to(v, NULL);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	voice_stop(v);
	return st.samples_recorded;
}

/* Decoded with libopus: every packet after the two headers. */
struct decoded {
	OpusDecoder *dec;
	int packets;
	double sum;
	uint64_t samples;
};

static void decode(void *ctx, const unsigned char *data, long len, long serial)
{
	struct decoded *d = ctx;
	opus_int16 pcm[5760];
	int n;

	(void)serial;
	if (d->packets++ < 2)
		return;
	n = opus_decode(d->dec, data, (opus_int32)len, pcm, 5760, 0);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		d->sum += (double)pcm[i] * pcm[i];
	d->samples += (uint64_t)n;
}

static void scan_file(const char *path, struct ogg_opus_info *info, struct decoded *d)
{
	int fd = open(path, O_RDONLY);
	struct stat st;

	assert_true(fd >= 0);
	assert_int_equal(ogg_opus_scan(fd, info, d ? decode : NULL, d), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(info->valid_end, st.st_size); /* whole pages to the end */
	close(fd);
}

static void test_record_is_opus(void **state)
{
	char wav[128], opus[128];
	struct ogg_opus_info info;
	struct decoded d = {0};
	struct tu_wav w;
	struct stat st;
	int err;
	uint64_t said;

	(void)state;
	snprintf(wav, sizeof(wav), "%s/game.wav", dir);
	snprintf(opus, sizeof(opus), "%s/game.opus", dir);
	say_into(wav, 0, TU_MOVE_COUNT);
	said = say_into(opus, 0, TU_MOVE_COUNT);
	assert_int_equal(tu_wav_load(wav, &w), 0);
	d.dec = opus_decoder_create(48000, 1, &err);
	assert_non_null(d.dec);
	scan_file(opus, &info, &d);
	assert_true(info.opus);
	assert_int_equal(info.links, 1);
	assert_int_equal(info.channels, 1);
	assert_false(info.eos);
	/* As long as what was said, each utterance padded to whole frames (and one). */
	assert_true((double)info.duration48 / 48000 >= (double)said / w.rate);
	assert_true((double)info.duration48 / 48000 <=
		    (double)said / w.rate + 0.041 * TU_MOVE_COUNT);
	/* As loud as the PCM within 1 dB. */
	assert_true(fabs(20 * log10(sqrt(d.sum / (double)d.samples) / w.rms)) < 1.0);
	/* A tenth of the PCM's size or less. */
	assert_int_equal(stat(opus, &st), 0);
	assert_true((double)st.st_size * 10 < (double)w.file_size);
	opus_decoder_destroy(d.dec);
	tu_wav_free(&w);
}

/* A crash tore the last page: the next start cuts it and goes on in the same stream. */
static void test_continued_after_torn_page(void **state)
{
	char opus[128];
	struct ogg_opus_info before, after;
	struct stat st;
	uint64_t first, second;

	(void)state;
	snprintf(opus, sizeof(opus), "%s/game.opus", dir);
	first = say_into(opus, 0, 4);
	scan_file(opus, &before, NULL);
	assert_int_equal(stat(opus, &st), 0);
	assert_int_equal(truncate(opus, st.st_size - 10), 0);
	second = say_into(opus, 4, TU_MOVE_COUNT);
	scan_file(opus, &after, NULL);
	assert_int_equal(after.links, 1);
	assert_int_equal(after.serial, before.serial);
	assert_true(after.pages > before.pages);
	/* All of the second part, and the first but for its torn page. */
	assert_true(after.duration48 > before.duration48);
	assert_true((double)after.duration48 / 48000 + 0.2 >= (double)(first + second) / 22050);
}

/* A write that failed half way (the file size limit) leaves part of a page: once storage
 * works, the part is cut off and the page written again. */
static void test_writer_resumes(void **state)
{
	char path[128];
	struct ogg_opus_writer *w;
	struct ogg_opus_info info;
	struct rlimit old, lim;
	struct stat st;
	int16_t tone[22050];
	int fd;

	(void)state;
	for (int i = 0; i < 22050; i++)
		tone[i] = (int16_t)(8000 * sin(2 * M_PI * 440 * i / 22050.0));
	snprintf(path, sizeof(path), "%s/resume.opus", dir);
	fd = open(path, O_RDWR | O_CREAT, 0640);
	assert_true(fd >= 0);
	w = ogg_opus_open_fd(fd, 22050);
	assert_non_null(w);
	assert_int_equal(ogg_opus_write(w, tone, 22050), 0);
	assert_int_equal(ogg_opus_commit(w), 0);
	assert_int_equal(fstat(fd, &st), 0);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = (rlim_t)st.st_size + 20;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	ogg_opus_write(w, tone, 22050);
	assert_int_equal(ogg_opus_commit(w), -1);
	assert_true(ogg_opus_failed(w));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(ogg_opus_resume(w), 0);
	assert_int_equal(ogg_opus_write(w, tone, 22050), 0);
	assert_int_equal(ogg_opus_commit(w), 0);
	ogg_opus_close(w);
	scan_file(path, &info, NULL);
	assert_int_equal(info.links, 1);
	/* The first second, the page that failed and what was said after. */
	assert_true(info.duration48 >= 2 * 48000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_record_is_opus, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_continued_after_torn_page, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_writer_resumes, setup, teardown),
	};

	return cmocka_run_group_tests_name("voice_opus", tests, NULL, NULL);
}
