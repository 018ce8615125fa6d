/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers for the voice tests: temporary state directories, speech.log and WAV checks.
 * The WAV parser here is independent of voice/wav.c on purpose. */
#ifndef ANNABELLA_TEST_VOICE_TESTUTIL_H
#define ANNABELLA_TEST_VOICE_TESTUTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "voice/voice.h"

static inline uint64_t tu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A fresh directory under /tmp; path must hold 64 bytes. */
static inline void tu_tempdir(char *path, const char *name)
{
	snprintf(path, 64, "/tmp/annabella-%s-XXXXXX", name);
	if (mkdtemp(path) == NULL)
		abort();
}

static inline void tu_rmdir(const char *path)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", path);
}

/* The whole file, NUL-terminated, in a malloc'd buffer; *len its size.  NULL if missing. */
static inline char *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len != NULL)
		*len = (size_t)n;
	return buf;
}

static inline int tu_count_lines(const char *text)
{
	int n = 0;

	for (; text != NULL && *text; text++)
		if (*text == '\n')
			n++;
	return n;
}

struct tu_wav {
	unsigned rate, channels, bits;
	uint32_t riff_size, data_size;
	size_t file_size;
	const int16_t *samples; /* into the buffer, data_size / 2 of them */
	size_t count;
	double seconds;
	double rms;
	char *buf;
};

static inline uint32_t tu_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Load a WAV file written by the voice; 0 if it is a consistent 16-bit mono PCM file whose
 * header counts exactly the samples in the file. */
static inline int tu_wav_load(const char *path, struct tu_wav *w)
{
	const unsigned char *p;
	double sum = 0;

	memset(w, 0, sizeof(*w));
	w->buf = tu_read_file(path, &w->file_size);
	if (w->buf == NULL || w->file_size < 44)
		return -1;
	p = (const unsigned char *)w->buf;
	if (memcmp(p, "RIFF", 4) || memcmp(p + 8, "WAVE", 4) || memcmp(p + 12, "fmt ", 4) ||
	    tu_le32(p + 16) != 16 || (p[20] | p[21] << 8) != 1 || memcmp(p + 36, "data", 4))
		return -1;
	w->channels = p[22] | p[23] << 8;
	w->rate = tu_le32(p + 24);
	w->bits = p[34] | p[35] << 8;
	w->riff_size = tu_le32(p + 4);
	w->data_size = tu_le32(p + 40);
	if (w->channels != 1 || w->bits != 16 || w->rate < 8000 || tu_le32(p + 28) != w->rate * 2)
		return -1;
	if (w->riff_size != w->data_size + 36 || (size_t)w->data_size + 44 != w->file_size)
		return -1;
	w->samples = (const int16_t *)(const void *)(p + 44);
	w->count = w->data_size / 2;
	w->seconds = (double)w->count / w->rate;
	for (size_t i = 0; i < w->count; i++)
		sum += (double)w->samples[i] * w->samples[i];
	w->rms = w->count ? sqrt(sum / (double)w->count) : 0;
	return 0;
}

static inline void tu_wav_free(struct tu_wav *w)
{
	free(w->buf);
	w->buf = NULL;
}

static inline struct voice *tu_voice(const char *dir, enum voice_sink_type sink,
				     const char *public_dev, const char *private_dev)
{
	struct voice_config cfg;
	char err[200];
	struct voice *v;

	voice_config_defaults(&cfg);
	cfg.sink = sink;
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
	snprintf(cfg.device[VOICE_PUBLIC], sizeof(cfg.device[0]), "%s", public_dev);
	snprintf(cfg.device[VOICE_PRIVATE], sizeof(cfg.device[0]), "%s", private_dev);
	v = voice_start(&cfg, err, sizeof(err));
	if (v == NULL)
		fprintf(stderr, "voice_start: %s\n", err);
	return v;
}

/* Realistic move announcements. */
static const char *const tu_moves[] = {
    "Bauer Eva zwei Eva vier",
    "Bauer Cesar sieben Cesar fünf",
    "Springer Gustav eins Felix drei",
    "Bauer David sieben David sechs",
    "Läufer Felix eins schlägt Bella fünf",
    "Kurze Rochade",
    "Bauer Eva fünf schlägt David sechs en passant",
    "Bauer Eva sieben Eva acht, Dame",
};
#define TU_MOVE_COUNT (sizeof(tu_moves) / sizeof(tu_moves[0]))

#endif
