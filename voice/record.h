/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game's audio record, in the format its file name says: NAME.opus as Ogg Opus (the
 * daemon's games/ID.opus: voice/oggopus.h), anything else as PCM WAV (voice/wav.h: the
 * listening kit, the tests).  Internal to voice/: the voice thread's.
 */
#ifndef ANNABELLA_RECORD_H
#define ANNABELLA_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voice/oggopus.h"
#include "voice/wav.h"

struct audio_record {
	struct wav_writer wav;	      /* fd -1 unless a WAV record is open */
	struct ogg_opus_writer *opus; /* NULL unless an Ogg Opus record is open */
};

/* Whether path names an Ogg Opus record (".opus"). */
bool audio_record_is_opus(const char *path);
void audio_record_init(struct audio_record *r);
/* Take over fd (read-write) as the record at path: 0, or -1 with errno set (fd closed). */
int audio_record_open_fd(struct audio_record *r, int fd, const char *path, unsigned rate);
int audio_record_open(struct audio_record *r, const char *path, unsigned rate);
bool audio_record_is_open(const struct audio_record *r);
bool audio_record_failed(const struct audio_record *r);
int audio_record_write(struct audio_record *r, const int16_t *samples, size_t n);
/* What was said so far is in the file (an utterance's end). */
int audio_record_commit(struct audio_record *r);
/* After a failed write: 0 once it writes again. */
int audio_record_resume(struct audio_record *r);
void audio_record_close(struct audio_record *r);

#endif
