/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The voice's inside, shared by its files: voice.c (the queue, the main loop's side, start
 * and stop), voice_thread.c (the voice thread: its loop, an utterance said, its samples on
 * their way out and the joints between segments), voice_synth.c (eSpeak NG, each language's
 * voice and its falling back, the process engine and the workers), voice_log.c (speech.log)
 * and voice_record.c (the game's audio record, opened again when storage works again).
 * Internal to voice/.
 */
#ifndef ANNABELLA_VOICE_INT_H
#define ANNABELLA_VOICE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>

#include "base/pendlog.h"
#include "base/strbuf.h"
#include "voice/langvoice.h"
#include "voice/phrases.h"
#include "voice/record.h"
#include "voice/resample.h"
#include "voice/sink.h"
#include "voice/voice.h"
#include "voice/worker.h"

enum item_type { ITEM_UTTERANCE = 0, ITEM_RECORD };

struct item {
	enum item_type type;
	enum voice_channel ch;
	enum voice_kind kind;
	uint64_t time_ms;
	uint64_t said_ns; /* monotonic, when voice_say() took it */
	uint64_t seq;
	uint64_t token;	  /* reported when said (voice_say_reported()), or 0 */
	int record_fd;	  /* ITEM_RECORD: the new record file, or -1 to end the record */
	bool record_opus; /* ITEM_RECORD: its format is Ogg Opus (its name ends in .opus) */
	/* ITEM_RECORD: its path ("": the record ends, or the path is too long to keep) */
	char record_path[256];
	int rate_percent;
	struct utterance u;
};

/* A sample quieter than this (of 32767) counts as silence at a joint (about -54 dB). */
#define JOINT_SILENCE_LEVEL 64
/* Quiet samples held back at most (longer quiet passages are let through as they are). */
#define JOINT_HOLD_MAX 8192

/* Room for record commands beyond VOICE_QUEUE_SIZE utterances, so they are never refused. */
#define QUEUE_SLOTS (VOICE_QUEUE_SIZE + 4)

struct voice {
	struct voice_config cfg;
	const struct voice_sink_ops *sink_ops;
	struct voice_sink *sink;
	struct voice_sink_env sink_env;
	/* speech.log, its lines kept through storage faults; under log_lock (the voice thread
	 * writes what is said, the daemon's thread its start lines). */
	struct pendlog slog;
	pthread_mutex_t log_lock;
	/* Until the start line (cfg.log_after_start): what is said is held here, so that the
	 * start line comes first whichever thread gets there first. */
	bool holding;
	struct strbuf held_lines;

	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work; /* something queued, or stopping */
	pthread_cond_t idle; /* the queue ran empty and nothing is spoken; or started */

	/* Under lock. */
	struct item slots[QUEUE_SLOTS];
	int order[QUEUE_SLOTS]; /* slot indices, in speaking order */
	int free_slots[QUEUE_SLOTS];
	int queued; /* entries in order[] */
	int queued_utterances;
	int free_count;
	bool busy; /* the thread is working on an item */
	bool stopping;
	bool started; /* the thread finished its set-up */
	char start_error[200];
	uint64_t next_seq;
	enum voice_kind current_kind;
	uint64_t current_seq;
	struct voice_stats stats;

	/* New voice parameters (SIGHUP), taken by the voice thread before its next item. */
	struct voice_params new_params[VOICE_CHANNEL_COUNT];
	bool params_changed;

	/* The utterance to stop now (its seq), read by the synth callback. */
	atomic_uint_fast64_t abort_seq;
	/* Reports of utterances said (under lock), and the eventfd that tells of them. */
	struct voice_said said[VOICE_SAID_MAX];
	int said_count;
	int said_fd;
	int cut_fd; /* an eventfd, readable once the utterance being said is cut short */

	/* Voice thread only. */
	struct item current;
	bool current_to_sink;
	bool current_to_record;
	bool first_sample_seen;
	bool espeak_ok;
	int sample_rate; /* of the sinks and the record: the moves' (German) voice's */
	/* Each language's voice (voice/langvoice.h), and whether its falling back was said. */
	struct lang_voice langs[PHRASE_LANG_COUNT];
	bool lang_noticed[PHRASE_LANG_COUNT];
	struct voice_worker workers[PHRASE_LANG_COUNT]; /* of the languages said apart */
	uint64_t joint_end_ns; /* when the segment before the joint ended (0: none) */
	/* The segment being said: its voice's samples so far, resampled when its rate is not
	 * sample_rate; an MBROLA voice's last segment has its trailing silence cut as a
	 * joint's is. */
	const struct lang_voice *seg_voice;
	uint64_t seg_samples;
	bool seg_resample;
	bool seg_trim_end;
	struct resampler resampler;
	int16_t gain_buf[512];
	struct audio_record record;
	char record_path[256]; /* the record's file ("": none), tried again when it fails */
	bool record_known;     /* its device and inode, as opened */
	dev_t record_dev;
	ino_t record_ino;
	/* The joint between segments: quiet samples held back at a segment's end, and the
	 * quiet samples before the next segment's first sound. */
	bool seg_goes_on;  /* the segment being synthesised is not the last */
	bool seg_leading;  /* no sound yet in this segment (and it is not the first) */
	size_t held;	   /* quiet samples held back */
	size_t lead_quiet; /* quiet samples skipped before the first sound */
	size_t tail_kept;  /* of the previous segment's held samples, kept */
	size_t joint_raw;  /* the joint's silence as eSpeak NG made it */
	short hold[JOINT_HOLD_MAX];
	/* Each channel's stream as a sink that plays in real time plays it: when what it was
	 * given so far ends (monotonic ns), and where the current utterance starts in it. */
	uint64_t stream_end_ns[VOICE_CHANNEL_COUNT];
	uint64_t play_from_ns;
	uint64_t samples_played; /* of the current utterance, taken by the sink */
};

extern const char *const voice_channel_names[VOICE_CHANNEL_COUNT];
extern const char *const voice_kind_names[VOICE_KIND_COUNT];
extern const char *const voice_trace_kinds[VOICE_KIND_COUNT];

/* voice.c: the queue (under lock). */
void voice_said_post(struct voice *v, uint64_t token, uint64_t heard_ns);
void voice_queue_remove_at(struct voice *v, int pos);
bool voice_stale_behind(const struct voice *v, const struct item *it);

/* voice_thread.c */
void *voice_thread_main(void *arg);
bool voice_current_aborted(void *ctx);
void voice_seg_chunk(struct voice *v, const short *wav, size_t n);
void voice_resampled(void *ctx, const int16_t *samples, size_t n);

/* voice_synth.c */
void voice_synth_setup(struct voice *v);
void voice_synth_params_taken(struct voice *v);
bool voice_moves_voice_loaded(const struct voice *v);
bool voice_espeak_use(struct voice *v, enum phrase_lang lang, enum voice_channel ch,
		      int rate_percent);
void voice_say_segment(struct voice *v, enum phrase_lang lang, int i);

/* voice_log.c */
void voice_speech_log_write(struct voice *v, const struct item *it);
void voice_log_end(struct voice *v);

/* voice_record.c */
void voice_record_switch(struct voice *v, int fd, const char *path, bool opus);
bool voice_record_ready(struct voice *v);

#endif
