/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Appending PCM WAV writer (16-bit mono).  The header is brought up to date by
 * wav_writer_commit(), after every utterance, so a crash leaves a playable file; an existing
 * file with the same format is continued, anything else is started afresh.
 */
#ifndef ANNABELLA_VOICE_WAV_H
#define ANNABELLA_VOICE_WAV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WAV_HEADER_SIZE 44

struct wav_writer {
	int fd; /* -1 when closed */
	unsigned sample_rate;
	uint64_t data_bytes;
	bool failed; /* a write failed: logged once, later samples are dropped */
};

/* Take over fd (opened read-write); 0, or -1 with errno set. */
int wav_writer_open_fd(struct wav_writer *w, int fd, unsigned sample_rate);
/* open(path) and wav_writer_open_fd(); 0 or -1 with errno set. */
int wav_writer_open(struct wav_writer *w, const char *path, unsigned sample_rate);
int wav_writer_write(struct wav_writer *w, const int16_t *samples, size_t n);
/* After a failed write (storage full or read-only): the file cut back to the samples counted
 * and writing taken up again.  0, or -1 while storage still fails. */
int wav_writer_resume(struct wav_writer *w);
/* Make the header describe every sample written so far. */
int wav_writer_commit(struct wav_writer *w);
void wav_writer_close(struct wav_writer *w);

/* Write all n bytes (EINTR retried; a write of nothing is EIO): 0, or -1 with errno. */
int voice_write_all(int fd, const void *buf, size_t n);

/* A parsed header (for tests and for continuing a file). */
struct wav_info {
	unsigned sample_rate;
	unsigned channels;
	unsigned bits;
	uint32_t data_bytes;  /* as the header says */
	uint32_t data_offset; /* where the samples start */
};
/* Parse the first bytes of a WAV file; 0, or -1 if it is not PCM WAV. */
int wav_parse_header(const uint8_t *buf, size_t len, struct wav_info *info);

#endif
