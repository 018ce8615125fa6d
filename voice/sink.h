/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Audio sinks: where the voice thread puts samples (S16_LE mono at eSpeak NG's rate).
 * Internal to voice/: every call comes from the voice thread.
 */
#ifndef ANNABELLA_VOICE_SINK_H
#define ANNABELLA_VOICE_SINK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voice/voice.h"

struct voice_sink;

/* Everything a sink may look at while it works. */
struct voice_sink_env {
	const struct voice_config *cfg;
	unsigned sample_rate;
	/* Polled while a sink waits for its device: true when the current utterance is to stop. */
	bool (*should_abort)(void *ctx);
	void *abort_ctx;
	/* Readable when it is to stop: a sink waiting for its device waits on it too (or -1). */
	int abort_fd;
};

struct voice_sink_ops {
	const char *name;
	/* Whether the sink wants samples at all (none: no synthesis unless recording). */
	bool wants_audio;
	/* NULL with a message in err when the sink cannot work at all (e.g. the state directory
	 * cannot be written).  A missing audio device is not an error: the sink retries. */
	struct voice_sink *(*open)(const struct voice_sink_env *env, char *err, size_t err_size);
	/* An utterance for channel ch starts / ends.  end: aborted says it was cut short. */
	void (*begin)(struct voice_sink *s, enum voice_channel ch);
	/* Samples for the current utterance; 0, or -1 when they were lost (device gone). */
	int (*write)(struct voice_sink *s, enum voice_channel ch, const int16_t *samples, size_t n);
	void (*end)(struct voice_sink *s, enum voice_channel ch, bool aborted);
	/* Let queued audio play out (bounded) and release everything. */
	void (*close)(struct voice_sink *s);
};

extern const struct voice_sink_ops voice_sink_none_ops;
extern const struct voice_sink_ops voice_sink_wav_ops;
extern const struct voice_sink_ops voice_sink_alsa_ops;

#endif
