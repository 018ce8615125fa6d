/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A streaming sample-rate converter for speech (16-bit mono): band-limited interpolation
 * with a Kaiser-windowed sinc, its cut-off at the lower rate's Nyquist frequency, so that a
 * voice made at 16 kHz (MBROLA's de1, de2, de4) plays at the output's 22,050 Hz neither
 * faster nor higher, and one made at 22,050 Hz goes into a 16 kHz stream without aliasing.
 * Pure: samples in, samples out through a callback; no allocation.
 */
#ifndef ANNABELLA_RESAMPLE_H
#define ANNABELLA_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* Zero crossings of the sinc on either side at the full band (more taps when the cut-off is
 * lower), and the input kept between calls. */
#define RESAMPLE_ZEROS 12
#define RESAMPLE_KEEP  1024

typedef void (*resample_out_fn)(void *ctx, const int16_t *samples, size_t n);

struct resampler {
	unsigned in_rate, out_rate;
	double step;   /* input samples per output sample */
	double cutoff; /* of the input's band (1: its Nyquist frequency) */
	int half;      /* taps on either side */
	double pos;    /* the next output's place, in input samples from buf[0] */
	size_t have;   /* input samples in buf */
	float buf[RESAMPLE_KEEP];
};

/* Ready for a new stream from in_rate to out_rate (both 1000..192000). */
void resampler_init(struct resampler *r, unsigned in_rate, unsigned out_rate);
/* n input samples; what they complete goes to out. */
void resampler_push(struct resampler *r, const int16_t *in, size_t n, resample_out_fn out,
		    void *ctx);
/* The stream has ended: the rest goes to out (about n * out_rate / in_rate in all). */
void resampler_flush(struct resampler *r, resample_out_fn out, void *ctx);

#endif
