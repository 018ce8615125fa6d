/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A voice in a process of its own.  eSpeak NG keeps one voice per process, and loading an
 * MBROLA voice starts its mbrola program again (36 to 229 ms), so a German MBROLA voice
 * between two segments of another language would be loaded again at each joint.  A language
 * said beside an MBROLA voice therefore keeps its voice loaded in a worker: the same program
 * started again (/proc/self/exe) with ANNABELLA_VOICE_WORKER naming the voice, whose
 * constructor runs eSpeak NG on the socket it is given and never reaches main().
 * Internal to voice/: the voice thread's.
 */
#ifndef ANNABELLA_VOICE_WORKER_H
#define ANNABELLA_VOICE_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "voice/voice.h"

/* The worker's loading (an MBROLA database) and its silence while it speaks, at most. */
#define VOICE_WORKER_START_MS 5000
#define VOICE_WORKER_STALL_MS 2000

struct voice_worker {
	pid_t pid; /* 0: not running */
	int fd;
	unsigned rate;
	char name[VOICE_NAME_MAX + 34]; /* the voice it has loaded (with a variant) */
};

/* Start a worker with voice name loaded: 0, or -1 with why. */
int voice_worker_start(struct voice_worker *w, const char *name, char *why, size_t why_size);
/* Say text (eSpeak NG's input: UTF-8 with [[phonemes]]) at rate, pitch and volume; each
 * chunk of samples to chunk(ctx).  Stops early when stop(ctx) says so.  The samples said,
 * or -1 if the worker died or stalled (it is then stopped). */
int64_t voice_worker_say(struct voice_worker *w, const char *text, int rate, int pitch, int volume,
			 void (*chunk)(void *ctx, const short *s, size_t n),
			 bool (*stop)(void *ctx), void *ctx);
void voice_worker_stop(struct voice_worker *w);

#endif
