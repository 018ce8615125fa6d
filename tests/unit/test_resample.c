/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sample-rate converter: pitch and length kept, loudness kept, nothing above the lower
 * rate's band let through, and the same output whatever the chunks it is given in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "voice/resample.h"

#define MAX_OUT 60000

struct sink {
	int16_t s[MAX_OUT];
	size_t n;
};

static void collect(void *ctx, const int16_t *samples, size_t n)
{
	struct sink *k = ctx;

	assert_true(k->n + n <= MAX_OUT);
	memcpy(k->s + k->n, samples, n * sizeof(*samples));
	k->n += n;
}

static int16_t *tone(unsigned rate, double hz, double amp, size_t n)
{
	int16_t *s = malloc(n * sizeof(*s));

	for (size_t i = 0; i < n; i++)
		s[i] = (int16_t)lrint(amp * sin(2 * M_PI * hz * (double)i / rate));
	return s;
}

/* Of the middle half (the edges left out): the RMS and the frequency by zero crossings. */
static void measure(const struct sink *k, unsigned rate, double *rms, double *hz)
{
	size_t a = k->n / 4, b = 3 * k->n / 4, crossings = 0;
	double sum = 0;

	for (size_t i = a; i < b; i++) {
		sum += (double)k->s[i] * k->s[i];
		if (i > a && (k->s[i - 1] < 0) != (k->s[i] < 0))
			crossings++;
	}
	*rms = sqrt(sum / (double)(b - a));
	*hz = (double)crossings / 2 / ((double)(b - a) / rate);
}

static void convert(unsigned from, unsigned to, const int16_t *in, size_t n, size_t chunk,
		    struct sink *k)
{
	struct resampler r;

	k->n = 0;
	resampler_init(&r, from, to);
	for (size_t i = 0; i < n; i += chunk)
		resampler_push(&r, in + i, n - i < chunk ? n - i : chunk, collect, k);
	resampler_flush(&r, collect, k);
}

static void test_up_keeps_pitch_length_and_level(void **state)
{
	static struct sink k;
	int16_t *in = tone(16000, 1000, 10000, 16000);
	double rms, hz;

	(void)state;
	convert(16000, 22050, in, 16000, 320, &k);
	assert_true(k.n >= 22049 && k.n <= 22051);
	measure(&k, 22050, &rms, &hz);
	assert_true(fabs(hz - 1000) < 2);
	assert_true(fabs(20 * log10(rms / (10000 / sqrt(2)))) < 0.1);
	free(in);
}

static void test_down_stops_what_the_lower_rate_cannot_hold(void **state)
{
	static struct sink k;
	int16_t *low = tone(22050, 1000, 10000, 22050), *high = tone(22050, 9500, 10000, 22050);
	double rms, hz;

	(void)state;
	convert(22050, 16000, low, 22050, 441, &k);
	assert_true(k.n >= 15999 && k.n <= 16001);
	measure(&k, 16000, &rms, &hz);
	assert_true(fabs(hz - 1000) < 2);
	assert_true(fabs(20 * log10(rms / (10000 / sqrt(2)))) < 0.1);
	/* 9.5 kHz is above 16 kHz's 8 kHz: gone (at least 40 dB down), not folded to 6.5 kHz. */
	convert(22050, 16000, high, 22050, 441, &k);
	measure(&k, 16000, &rms, &hz);
	assert_true(20 * log10(rms / (10000 / sqrt(2))) < -40);
	free(low);
	free(high);
}

static void test_chunks_do_not_matter(void **state)
{
	static struct sink a, b;
	int16_t *in = tone(16000, 440, 12000, 9000);

	(void)state;
	convert(16000, 22050, in, 9000, 9000, &a);
	convert(16000, 22050, in, 9000, 7, &b);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.s, b.s, a.n * sizeof(int16_t));
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_up_keeps_pitch_length_and_level),
	    cmocka_unit_test(test_down_stops_what_the_lower_rate_cannot_hold),
	    cmocka_unit_test(test_chunks_do_not_matter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
