/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Speaking: one voice thread owns eSpeak NG (synchronous mode, in process) and the
 * audio sinks.  The main loop only enqueues; it never blocks on audio.
 */
#ifndef ANNABELLA_VOICE_H
#define ANNABELLA_VOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "voice/pronounce.h"
#include "voice/utterance.h"

/* Longest utterance text in bytes (longer text is cut), and how many utterances may wait. */
#define VOICE_TEXT_MAX	 UTTERANCE_TEXT_MAX
#define VOICE_QUEUE_SIZE 32

/* The silence left where one segment's voice hands over to the next (eSpeak NG leaves up
 * to ~130 ms at the end of a text and more before the next): at most VOICE_JOINT_TAIL_MS
 * after the last word, and all of it at most VOICE_JOINT_MAX_MS. */
#define VOICE_JOINT_TAIL_MS 15
#define VOICE_JOINT_MAX_MS  45

enum voice_channel { VOICE_PUBLIC = 0, VOICE_PRIVATE = 1, VOICE_CHANNEL_COUNT };
enum voice_sink_type { VOICE_SINK_NONE = 0, VOICE_SINK_WAV, VOICE_SINK_ALSA };

/* What an utterance is, for its place in the queue and for what no longer matters once it
 * comes (voice.c has the table).  PROMPT, GUIDE and MENU (private, urgent) go first; the
 * rest in the order said.  What a newer utterance makes stale is dropped while it waits and
 * cut short (mid-word, within a sink's buffer) while it is being said:
 *  - any move: a REPEAT, TIME, INFO or GUIDE (dropped or cut), an ECHO being said (cut:
 *    never dropped, so every move is at least begun);
 *  - CORRECTION: besides, the move being said, whatever its kind (the move it corrects);
 *  - PROMPT, GUIDE, MENU: a REPEAT, TIME, MENU or INFO of their channel being said (cut); a
 *    MENU also the menu item waiting (dropped);
 *  - REPEAT, TIME: the one of their kind being said or waiting.
 * A MOVE is never dropped, and cut short only by its correction: a newer move waits for it. */
enum voice_kind {
	VOICE_KIND_MOVE = 0,   /* a move the Laws need heard whole */
	VOICE_KIND_REPEAT,     /* the last move again, on request */
	VOICE_KIND_TIME,       /* the clocks, on request, and warnings */
	VOICE_KIND_PROMPT,     /* guidance and what the player must know now */
	VOICE_KIND_INFO,       /* information a move makes stale */
	VOICE_KIND_ECHO,       /* a move its listener has heard already: the next move cuts it */
	VOICE_KIND_CORRECTION, /* a move that replaces the one announced before (D.2.8) */
	VOICE_KIND_MENU,       /* a menu item: the next one, or a prompt, cuts it */
	VOICE_KIND_GUIDE,      /* the board's guidance square by square: a move makes it stale */
	VOICE_KIND_COUNT
};

/* How a channel's voice sounds. */
struct voice_params {
	int rate;	  /* words per minute (eSpeak NG, default 160) */
	int pitch;	  /* 0..100 (default 50) */
	int volume;	  /* 0..200 (default 100) */
	char variant[32]; /* eSpeak NG voice variant ("f2", "klatt"), "" for the default */
};

/* An eSpeak NG voice name ("mb-de6", "de"), as [voice] voice-de gives it. */
#define VOICE_NAME_MAX 40

struct voice_config {
	enum voice_sink_type sink;
	/* Each language's eSpeak NG voice ("" its own: de, en, sv, nl), e.g. an MBROLA voice
	 * ([voice] voice-de = mb-de6).  Tried when the voice starts: one that does not load as
	 * named, or says nothing, is logged and said privately once, and the language's own
	 * voice speaks instead (docs/speech.md "Voices"). */
	char voice_name[PHRASE_LANG_COUNT][VOICE_NAME_MAX];
	/* The language of the voice's own notices (a voice that fell back). */
	enum phrase_lang notice_lang;
	char device[VOICE_CHANNEL_COUNT][64]; /* ALSA PCM names, e.g. "default", "null" */
	char state_dir[256];		      /* speech.log and audio/ go here */
	struct voice_params params[VOICE_CHANNEL_COUNT];
	struct pronounce_table pronounce; /* the user's pronunciation overrides */
	bool record;			  /* keep each game's public audio record */
	/* How speech is made: eSpeak NG's library in the voice thread (the default), or, for
	 * comparison in measurements, an espeak-ng process spawned per segment whose --stdout
	 * WAV is read (`[voice] engine = library|process`). */
	enum voice_engine { VOICE_ENGINE_LIBRARY = 0, VOICE_ENGINE_PROCESS } engine;
	/* speech.log's writes (NULL: write(2)); the daemon passes its storage-fault hook.
	 * A line that cannot be written is kept in memory, in order, and written with the
	 * next line once storage works again (at most VOICE_LOG_PENDING_MAX bytes). */
	ssize_t (*log_write)(int fd, const void *data, size_t len);
	/* speech.log begins with the start line (voice_log_line()): what is said before it is
	 * held and written after it (the daemon; at most VOICE_LOG_PENDING_MAX bytes). */
	bool log_after_start;
};
#define VOICE_LOG_PENDING_MAX (1 << 20)
void voice_config_defaults(struct voice_config *cfg);

struct voice;
/* Start the voice thread.  NULL with a message in err if the state directory cannot be
 * written; a missing audio device is not an error (logged, retried). */
struct voice *voice_start(const struct voice_config *cfg, char *err, size_t err_size);
/* The audit's start line of speech.log, written now, or kept with what is said through a
 * storage fault; a speech.log made again (its directory removed) begins with it.  From any
 * thread. */
void voice_log_line(struct voice *v, const char *line);
/* Drain the queue (wait for every queued utterance), stop the thread, close everything. */
void voice_stop(struct voice *v);
/* Stop now (SIGTERM in real time): queued utterances dropped, the current one cut off, the
 * thread given ms to end.  false if it did not (an audio output blocks): it is left behind
 * and v must not be used again. */
bool voice_stop_within(struct voice *v, unsigned ms);
/* New rate, pitch, volume and variant per channel (a configuration reload), from the next
 * utterance on. */
void voice_set_params(struct voice *v, const struct voice_params params[VOICE_CHANNEL_COUNT]);

/* Enqueue an utterance; never blocks.  lang: eSpeak NG voice ("de" for moves).  time_ms:
 * daemon time, written with the text to speech.log when the utterance starts.  Returns 0,
 * or -1 if the queue is full (the utterance is logged as dropped). */
int voice_say(struct voice *v, enum voice_channel ch, enum voice_kind kind, const char *lang,
	      const char *text, uint64_t time_ms);
/* The same for an utterance of segments, each said in its language's voice one after the
 * other in one stream (the joints cut to VOICE_JOINT_MAX_MS of silence).  rate_percent
 * scales the channel's rate (100: as set; a repeat asked again is said slower). */
int voice_say_utterance(struct voice *v, enum voice_channel ch, enum voice_kind kind,
			const struct utterance *u, int rate_percent, uint64_t time_ms);
/* The same, reported when it has been said (voice_said_take()) under `token` (not 0): when
 * its last sample will have played, or at once when it is cut short, dropped or refused. */
int voice_say_reported(struct voice *v, enum voice_channel ch, enum voice_kind kind,
		       const struct utterance *u, int rate_percent, uint64_t time_ms,
		       uint64_t token);

/* An utterance said: its token and when its last sample will have been heard (CLOCK_MONOTONIC
 * ns; in the past or now when it was cut short or never said).  The time is the sink's
 * stream: an utterance queued behind another on a sink that plays in real time ends that
 * much later, whatever the sink buffers. */
struct voice_said {
	uint64_t token;
	uint64_t heard_ns;
};
#define VOICE_SAID_MAX 8
/* Readable (an eventfd) when reports wait; -1 if there is none. */
int voice_said_fd(const struct voice *v);
/* The reports waiting, oldest first (at most max); the number taken.  From one thread. */
int voice_said_take(struct voice *v, struct voice_said *out, int max);
/* The text eSpeak NG gets for segment i of u (pronunciation overrides as [[phonemes]], a
 * comma after a segment that goes on); the length as snprintf. */
size_t voice_segment_input(const struct pronounce_table *t, const struct utterance *u, int i,
			   char *buf, size_t size);
/* Wait until the queue is empty and nothing is being spoken (virtual time: speech takes no
 * daemon time, so replays are deterministic). */
void voice_wait_idle(struct voice *v);
/* Start / finish a game's public audio record at path (a WAV file); NULL ends it.  Takes
 * effect in order with the utterances: those said before go to the previous record.  An
 * existing WAV file of the same format is continued (a game resumed after a restart); the
 * caller removes it for a fresh record.  0, or -1 if path cannot be opened now: it is then
 * tried again at each public utterance (as is a record whose write failed). */
int voice_record_to(struct voice *v, const char *path);

struct voice_stats {
	uint64_t spoken;	       /* utterances started (each has its speech.log line) */
	uint64_t dropped;	       /* never started: queue full or superseded */
	uint64_t aborted;	       /* stopped mid-way by a newer move */
	uint64_t last_first_sample_ns; /* voice_say() -> first samples handed to the sink */
	uint64_t first_samples;	       /* utterances whose first samples were handed on */
	uint64_t samples_to_sink;      /* samples the sink took */
	uint64_t samples_lost;	       /* samples the sink could not take (device missing) */
	uint64_t samples_recorded;     /* samples written to game records */
	uint64_t joints;	       /* segment joints spoken */
	uint32_t joint_raw_max_ms;     /* the longest silence eSpeak NG left at a joint */
	uint32_t joint_max_ms;	       /* the longest left after cutting */
	uint32_t last_joint_raw_ms, last_joint_ms; /* of the last joint */
	uint32_t fell_back;	   /* a bit per language (1 << PHRASE_DE ...) whose chosen voice
				    * could not speak: the language's own voice speaks */
	unsigned sample_rate;	   /* of the sinks and the record (the German voice's) */
	uint32_t variants_unknown; /* a bit per channel whose variant eSpeak NG lacks */
	/* From the end of a segment to the first sample of the next one in another voice, the
	 * longest (a voice loaded between them would show here). */
	uint32_t joint_wait_max_us;
};
void voice_get_stats(struct voice *v, struct voice_stats *out);

#endif
