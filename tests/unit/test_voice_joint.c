/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The joints between segments in different voices: the voice thread cuts the silence
 * eSpeak NG leaves at the end of one text and the start of the next, so that a joint is no
 * longer than the silence between words of one voice; and the segment after a joint is said
 * by its own language's voice (its loudness contour is that voice's, not the first one's).
 * Measured on the game's public audio record (a WAV file), no sound card needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "voice/voice.h"
#include "voice/wav.h"
#include "voice_testutil.h"

#define LEVEL	 64 /* as the voice thread's silence level */
#define FRAME_MS 10

struct pcm {
	int16_t *s;
	size_t n;
	unsigned rate;
};

static char dir[64];

/* Say u alone into a fresh record and read it back. */
static void render(const struct utterance *u, int n, struct pcm *out)
{
	struct voice_config cfg;
	char err[200], path[400];
	struct voice *v;
	struct wav_info info;
	uint8_t *buf;
	size_t len = 0;

	voice_config_defaults(&cfg);
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/joint-%d.wav", dir, n);
	unlink(path);
	v = voice_start(&cfg, err, sizeof(err));
	assert_non_null(v);
	assert_int_equal(voice_record_to(v, path), 0);
	assert_int_equal(voice_say_utterance(v, VOICE_PUBLIC, VOICE_KIND_MOVE, u, 100, 1), 0);
	voice_record_to(v, NULL);
	voice_wait_idle(v);
	voice_stop(v);
	buf = (uint8_t *)tu_read_file(path, &len);
	assert_non_null(buf);
	assert_int_equal(wav_parse_header(buf, len, &info), 0);
	out->rate = info.sample_rate;
	out->n = info.data_bytes / 2;
	out->s = malloc(out->n * sizeof(int16_t) + 1);
	memcpy(out->s, buf + info.data_offset, out->n * sizeof(int16_t));
	free(buf);
	assert_true(out->n > out->rate / 4);
}

/* Silences inside the sound (not before the first or after the last loud sample): the
 * longest, in ms, and where the last one ends (sample index). */
static double longest_inner_gap(const struct pcm *p, size_t *last_gap_end)
{
	size_t first = 0, last = p->n, run = 0, best = 0;

	while (first < p->n && abs(p->s[first]) <= LEVEL)
		first++;
	while (last > first && abs(p->s[last - 1]) <= LEVEL)
		last--;
	*last_gap_end = first;
	for (size_t i = first; i < last; i++) {
		if (abs(p->s[i]) <= LEVEL) {
			run++;
			continue;
		}
		/* Zero crossings are short quiet runs: a gap is at least 5 ms. */
		if (run > best)
			best = run;
		if (run * 1000 >= 5 * (size_t)p->rate)
			*last_gap_end = i;
		run = 0;
	}
	return (double)best * 1000.0 / p->rate;
}

/* RMS per frame from sample `from` to the last sound; with tail > 0, only the last `tail`
 * frames of the sound. */
static int envelope(const struct pcm *p, size_t from, int tail, double *env, int max)
{
	size_t frame = p->rate * FRAME_MS / 1000, last = p->n;
	int n = 0;

	while (from < p->n && abs(p->s[from]) <= LEVEL)
		from++;
	while (last > from && abs(p->s[last - 1]) <= LEVEL)
		last--;
	if (tail > 0 && last - from > (size_t)tail * frame)
		from = last - (size_t)tail * frame;
	for (size_t i = from; i + frame <= last && n < max; i += frame) {
		double sum = 0;

		for (size_t k = 0; k < frame; k++)
			sum += (double)p->s[i + k] * p->s[i + k];
		env[n++] = sqrt(sum / (double)frame);
	}
	return n;
}

/* RMS per frame of n frames from sample `from`. */
static int envelope_at(const struct pcm *p, size_t from, int n, double *env)
{
	size_t frame = p->rate * FRAME_MS / 1000;
	int k = 0;

	for (size_t i = from; i + frame <= p->n && k < n; i += frame) {
		double sum = 0;

		for (size_t j = 0; j < frame; j++)
			sum += (double)p->s[i + j] * p->s[i + j];
		env[k++] = sqrt(sum / (double)frame);
	}
	return k;
}

static double correlation(const double *a, int na, const double *b, int nb);

/* How well the end of the utterance u matches the envelope ref (n frames) at the best
 * alignment within the last 300 ms of its sound. */
static double best_tail_match(const struct pcm *u, const double *ref, int n)
{
	size_t frame = u->rate * FRAME_MS / 1000, last = u->n, span = (size_t)n * frame;
	size_t step = u->rate / 1000;
	double best = -1, env[400];

	while (last > 0 && abs(u->s[last - 1]) <= LEVEL)
		last--;
	for (size_t back = 0; back < u->rate * 3 / 10 && last >= span + back; back += step) {
		int k = envelope_at(u, last - span - back, n, env);
		double r = correlation(env, k, ref, n);

		if (r > best)
			best = r;
	}
	return best;
}

/* Correlation of two envelopes over the shorter length. */
static double correlation(const double *a, int na, const double *b, int nb)
{
	int n = na < nb ? na : nb;
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;

	for (int i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
	}
	ma /= n;
	mb /= n;
	for (int i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	return sab / sqrt(saa * sbb + 1e-9);
}

static void test_joint_silence_and_voice(void **state)
{
	(void)state;
	struct utterance one_voice, mixed, tail_en, tail_de;
	struct pcm a, b, c, d;
	double env_en[400], env_de[400];
	size_t unused;
	double gap_words, gap_joint, r_en, r_de;
	int n_en, n_de;

	tu_tempdir(dir, "joint");
	/* One voice, the silence between its words; then the same words with an English
	 * numeral after a German word (national ranks). */
	utterance_set(&one_voice, PHRASE_DE, "Springer Gustav eins Felix drei");
	utterance_clear(&mixed);
	utterance_add(&mixed, PHRASE_DE, "Springer Gustav eins Felix");
	utterance_add(&mixed, PHRASE_DE, " ");
	utterance_add(&mixed, PHRASE_EN, "seventeen");
	assert_int_equal(mixed.count, 2);
	utterance_set(&tail_en, PHRASE_EN, "seventeen");
	utterance_set(&tail_de, PHRASE_DE, "seventeen");
	render(&one_voice, 1, &a);
	render(&mixed, 2, &b);
	render(&tail_en, 3, &c);
	render(&tail_de, 4, &d);

	gap_words = longest_inner_gap(&a, &unused);
	gap_joint = longest_inner_gap(&b, &unused);
	print_message("silence between words of one voice: %.1f ms; longest in the mixed "
		      "utterance: %.1f ms\n",
		      gap_words, gap_joint);
	assert_true(gap_joint <= gap_words);

	/* The end of the mixed utterance against the numeral said alone by each voice. */
	n_en = envelope(&c, 0, 0, env_en, 400);
	n_de = envelope(&d, 0, 0, env_de, 400);
	r_en = best_tail_match(&b, env_en, n_en);
	r_de = best_tail_match(&b, env_de, n_de);
	print_message("second segment against the English voice alone (%d frames): r=%.2f; "
		      "against the German voice (%d frames): r=%.2f\n",
		      n_en, r_en, n_de, r_de);
	assert_true(r_en > 0.9);
	assert_true(r_en > r_de + 0.2);
	free(a.s);
	free(b.s);
	free(c.s);
	free(d.s);
	if (!getenv("KEEP"))
		tu_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_joint_silence_and_voice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
