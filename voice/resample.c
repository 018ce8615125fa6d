/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "voice/resample.h"

#include <math.h>
#include <string.h>

/* The windowed sinc, tabulated once per RESAMPLE_TABLE_RES steps of a zero crossing. */
#define RESAMPLE_TABLE_RES   256
#define RESAMPLE_KAISER_BETA 8.0
#define RESAMPLE_OUT_CHUNK   256

static float table[RESAMPLE_ZEROS * RESAMPLE_TABLE_RES + 2];
static int table_ready;

static double bessel_i0(double x)
{
	double sum = 1, term = 1;

	for (int k = 1; k < 40; k++) {
		term *= (x / (2 * k)) * (x / (2 * k));
		sum += term;
		if (term < sum * 1e-12)
			break;
	}
	return sum;
}

static void table_init(void)
{
	const int n = RESAMPLE_ZEROS * RESAMPLE_TABLE_RES;

	for (int i = 0; i <= n + 1; i++) {
		double x = (double)i / RESAMPLE_TABLE_RES, r = x / RESAMPLE_ZEROS;
		double sinc = i == 0 ? 1.0 : sin(M_PI * x) / (M_PI * x);
		double w = r < 1 ? bessel_i0(RESAMPLE_KAISER_BETA * sqrt(1 - r * r)) /
				       bessel_i0(RESAMPLE_KAISER_BETA)
				 : 0;

		table[i] = (float)(sinc * w);
	}
	table_ready = 1;
}

/* The kernel at x zero crossings from its centre. */
static float kernel(double x)
{
	double t = fabs(x) * RESAMPLE_TABLE_RES;
	size_t i = (size_t)t;
	float f = (float)(t - (double)i);

	if (i >= RESAMPLE_ZEROS * RESAMPLE_TABLE_RES)
		return 0;
	return table[i] + (table[i + 1] - table[i]) * f;
}

void resampler_init(struct resampler *r, unsigned in_rate, unsigned out_rate)
{
	if (!table_ready)
		table_init();
	memset(r, 0, sizeof(*r));
	r->in_rate = in_rate;
	r->out_rate = out_rate;
	r->step = (double)in_rate / out_rate;
	r->cutoff = out_rate < in_rate ? (double)out_rate / in_rate : 1.0;
	r->half = (int)ceil(RESAMPLE_ZEROS / r->cutoff);
	/* Silence before the stream, so its first sample has its taps; the first output is
	 * at the first input sample. */
	r->have = (size_t)r->half;
	r->pos = r->half;
}

static int16_t clamp16(float x)
{
	if (x > 32767.0f)
		return 32767;
	if (x < -32768.0f)
		return -32768;
	return (int16_t)lrintf(x);
}

/* Outputs while their taps are in buf (up to `limit` input samples); the input no longer
 * needed goes: how many samples buf moved by. */
static size_t produce(struct resampler *r, double limit, resample_out_fn out, void *ctx)
{
	int16_t chunk[RESAMPLE_OUT_CHUNK];
	size_t k = 0, drop;

	while (r->pos < limit && r->pos + r->half < (double)r->have) {
		long centre = (long)floor(r->pos);
		float sum = 0;

		for (long j = centre - r->half + 1; j <= centre + r->half; j++)
			sum += r->buf[j] * kernel((r->pos - (double)j) * r->cutoff);
		chunk[k++] = clamp16(sum * (float)r->cutoff);
		if (k == RESAMPLE_OUT_CHUNK) {
			out(ctx, chunk, k);
			k = 0;
		}
		r->pos += r->step;
	}
	if (k)
		out(ctx, chunk, k);
	drop = (size_t)floor(r->pos) - (size_t)r->half;
	if (drop > r->have)
		drop = r->have;
	memmove(r->buf, r->buf + drop, (r->have - drop) * sizeof(r->buf[0]));
	r->have -= drop;
	r->pos -= (double)drop;
	return drop;
}

void resampler_push(struct resampler *r, const int16_t *in, size_t n, resample_out_fn out,
		    void *ctx)
{
	while (n > 0) {
		size_t k = RESAMPLE_KEEP - r->have;

		if (k > n)
			k = n;
		for (size_t i = 0; i < k; i++)
			r->buf[r->have + i] = in[i];
		r->have += k;
		in += k;
		n -= k;
		produce(r, 1e300, out, ctx);
	}
}

void resampler_flush(struct resampler *r, resample_out_fn out, void *ctx)
{
	/* The stream's last input sample is at have - 1; silence after it gives the last
	 * outputs their taps. */
	double end = (double)r->have;

	for (int pad = r->half; pad > 0;) {
		size_t k = RESAMPLE_KEEP - r->have;

		if (k > (size_t)pad)
			k = (size_t)pad;
		memset(r->buf + r->have, 0, k * sizeof(r->buf[0]));
		r->have += k;
		pad -= (int)k;
		end -= (double)produce(r, end, out, ctx);
	}
	produce(r, end, out, ctx);
}
