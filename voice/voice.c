/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The voice thread.  eSpeak NG is not thread-safe, and ALSA writes block, so one thread owns
 * both: it takes utterances from a fixed-size queue, writes speech.log when an utterance
 * starts, synthesizes it in process (synchronous mode: samples arrive in a callback on this
 * thread) and hands the samples to the sink and, for public announcements, to the game's
 * audio record.  voice_say() only copies the text under a mutex and signals.
 *
 * Order: PROMPT, GUIDE and MENU first (private, urgent), then everything else in the order it was
 * said.  A new utterance makes stale what no longer matters once it comes (voice.h, the
 * table stale_on[] below): stale utterances waiting are dropped (with a warning), one being
 * spoken is stopped (the synth callback returns 1; the sink drops its buffer), so nothing
 * that matters waits behind what does not.  An utterance may ask to be reported when said
 * (voice_say_reported()): the loop hears of it through an eventfd, with the time its last
 * sample will have played on the sink's stream.
 *
 * An utterance is a list of segments, each in its language (voice/utterance.h).  They are
 * synthesised one after another into the one stream, each with its own language's voice
 * (consecutive texts: one SSML text with <voice xml:lang> switches left ~320 ms of silence at
 * its end and no joint we could find).  A segment that goes on ends with a comma, for the
 * intonation of a phrase that continues.  eSpeak NG ends a text with up to ~130 ms of
 * silence and starts the next with more; the thread holds back the quiet samples at each
 * joint and keeps at most VOICE_JOINT_TAIL_MS of the first and VOICE_JOINT_MAX_MS in all.
 *
 * eSpeak NG keeps global state, so there is one voice per process at a time.
 */
#include "voice/voice.h"

#include <errno.h>
#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/fileplace.h"
#include "base/log.h"
#include "base/pendlog.h"
#include "base/strbuf.h"
#include "base/timeutil.h"
#include "base/trace.h"
#include "voice/langvoice.h"
#include "voice/phonemes.h"
#include "voice/phrases.h"
#include "voice/record.h"
#include "voice/resample.h"
#include "voice/sink.h"
#include "voice/wav.h"
#include "voice/worker.h"

/* How long voice_start() waits for the audio output to open. */
#define VOICE_START_WAIT_S 3

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

static const char *const channel_names[VOICE_CHANNEL_COUNT] = {"public", "private"};
static const char *const kind_names[VOICE_KIND_COUNT] = {
    "move", "repeat", "time", "prompt", "info", "echo", "correction", "menu", "guide"};
/* In the timing trace every move is a "move" (its kind after it). */
static const char *const trace_kinds[VOICE_KIND_COUNT] = {
    "move", "repeat", "time", "prompt", "info", "move echo", "move correction", "menu", "guide"};

#define KIND(k) (1u << VOICE_KIND_##k)
/* What any move makes stale, waiting or being said; and what the player's newer prompts,
 * guidance and menu items cut short on their channel. */
#define STALE_ON_MOVE	(KIND(REPEAT) | KIND(TIME) | KIND(INFO) | KIND(GUIDE))
#define STALE_ON_PROMPT (KIND(REPEAT) | KIND(TIME) | KIND(INFO) | KIND(MENU))
/* What a newer utterance of each kind makes stale (voice.h): waiting utterances of the kinds
 * `drops` are dropped, the one being said is cut short when of the kinds `cuts`; on the
 * newer one's channel only, or on both. */
static const struct staleness {
	unsigned drops, cuts;
	bool same_channel;
} stale_on[VOICE_KIND_COUNT] = {
    [VOICE_KIND_MOVE] = {STALE_ON_MOVE, STALE_ON_MOVE | KIND(ECHO), false},
    [VOICE_KIND_ECHO] = {STALE_ON_MOVE, STALE_ON_MOVE | KIND(ECHO), false},
    [VOICE_KIND_CORRECTION] = {STALE_ON_MOVE,
			       STALE_ON_MOVE | KIND(ECHO) | KIND(MOVE) | KIND(CORRECTION), false},
    [VOICE_KIND_PROMPT] = {0, STALE_ON_PROMPT, true},
    [VOICE_KIND_GUIDE] = {0, STALE_ON_PROMPT, true},
    [VOICE_KIND_MENU] = {KIND(MENU), STALE_ON_PROMPT, true},
    [VOICE_KIND_REPEAT] = {KIND(REPEAT), KIND(REPEAT), true},
    [VOICE_KIND_TIME] = {KIND(TIME), KIND(TIME), true},
    [VOICE_KIND_INFO] = {0, 0, false},
};

static bool is_urgent(enum voice_kind k)
{
	return k == VOICE_KIND_PROMPT || k == VOICE_KIND_MENU || k == VOICE_KIND_GUIDE;
}

void voice_config_defaults(struct voice_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->sink = VOICE_SINK_NONE;
	snprintf(cfg->device[VOICE_PUBLIC], sizeof(cfg->device[0]), "default");
	snprintf(cfg->device[VOICE_PRIVATE], sizeof(cfg->device[0]), "default");
	snprintf(cfg->state_dir, sizeof(cfg->state_dir), ".");
	for (int ch = 0; ch < VOICE_CHANNEL_COUNT; ch++) {
		cfg->params[ch].rate = 160;
		cfg->params[ch].pitch = 50;
		cfg->params[ch].volume = 100;
	}
	cfg->record = true;
}

/* ---------------------------------------------------------------- the queue (under lock) */

/* An utterance of `kind` on `ch` that an utterance of `newer` on `newer_ch` makes stale
 * (one of the kinds `mask`: stale_on[newer].drops or .cuts). */
static bool stale(unsigned mask, enum voice_kind newer, enum voice_channel newer_ch,
		  enum voice_kind kind, enum voice_channel ch)
{
	return (mask & 1u << kind) && (!stale_on[newer].same_channel || ch == newer_ch);
}

/* The loop is told that reports wait. */
static void said_signal(struct voice *v)
{
	static const uint64_t one = 1;

	if (v->said_fd >= 0 && write(v->said_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		log_warn(LOG_VOICE, "report: %s", strerror(errno));
}

/* A report of an utterance said (voice_said_take()); the oldest is given up when the loop
 * has not taken VOICE_SAID_MAX of them. */
static void said_post(struct voice *v, uint64_t token, uint64_t heard_ns)
{
	if (!token)
		return;
	if (v->said_count == VOICE_SAID_MAX) {
		log_warn(LOG_VOICE, "report of utterance %llu not taken; given up",
			 (unsigned long long)v->said[0].token);
		memmove(&v->said[0], &v->said[1], sizeof(v->said[0]) * (VOICE_SAID_MAX - 1));
		v->said_count--;
	}
	v->said[v->said_count++] = (struct voice_said){token, heard_ns};
	said_signal(v);
}

static void queue_remove_at(struct voice *v, int pos)
{
	int slot = v->order[pos];

	memmove(&v->order[pos], &v->order[pos + 1], sizeof(int) * (size_t)(v->queued - pos - 1));
	v->queued--;
	if (v->slots[slot].type == ITEM_UTTERANCE)
		v->queued_utterances--;
	v->free_slots[v->free_count++] = slot;
}

/* The utterance being said stops now: the synth callback and a sink waiting for its device
 * see it (the eventfd wakes the sink's wait at once). */
static void cut_current(struct voice *v)
{
	static const uint64_t one = 1;

	atomic_store(&v->abort_seq, v->current_seq);
	if (v->cut_fd >= 0 && write(v->cut_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		log_warn(LOG_VOICE, "cut: %s", strerror(errno));
}

/* Whether an utterance waiting after `it` makes it stale (it would have cut it short). */
static bool stale_behind(const struct voice *v, const struct item *it)
{
	for (int i = 0; i < v->queued; i++) {
		const struct item *o = &v->slots[v->order[i]];

		if (o->type == ITEM_UTTERANCE && o->seq > it->seq &&
		    stale(stale_on[o->kind].cuts, o->kind, o->ch, it->kind, it->ch))
			return true;
	}
	return false;
}

/* What an utterance of `kind` on `ch` makes stale among those waiting: dropped, each said
 * as never spoken (and reported). */
static void queue_drop_stale(struct voice *v, enum voice_kind kind, enum voice_channel ch)
{
	for (int i = 0; i < v->queued;) {
		const struct item *it = &v->slots[v->order[i]];

		if (it->type == ITEM_UTTERANCE &&
		    stale(stale_on[kind].drops, kind, ch, it->kind, it->ch)) {
			log_warn(LOG_VOICE, "not spoken (superseded by a newer %s): %s %s \"%s\"",
				 kind_names[kind], kind_names[it->kind], channel_names[it->ch],
				 it->u.text);
			v->stats.dropped++;
			said_post(v, it->token, monotonic_ns());
			queue_remove_at(v, i);
		} else {
			i++;
		}
	}
}

/* Take a free slot; NULL if none (utterances are limited to VOICE_QUEUE_SIZE). */
static struct item *queue_reserve(struct voice *v, enum item_type type)
{
	if (v->free_count == 0 ||
	    (type == ITEM_UTTERANCE && v->queued_utterances >= VOICE_QUEUE_SIZE))
		return NULL;
	return &v->slots[v->free_slots[v->free_count - 1]];
}

/* Queued in its place; how many items wait before it. */
static int queue_insert(struct voice *v, struct item *it)
{
	int slot = (int)(it - v->slots);
	int pos = v->queued;

	v->free_count--;
	if (it->type == ITEM_UTTERANCE && is_urgent(it->kind)) {
		/* After the prompts and menu items already waiting, before everything else. */
		pos = 0;
		while (pos < v->queued) {
			const struct item *o = &v->slots[v->order[pos]];

			if (o->type != ITEM_UTTERANCE || !is_urgent(o->kind))
				break;
			pos++;
		}
		memmove(&v->order[pos + 1], &v->order[pos],
			sizeof(int) * (size_t)(v->queued - pos));
	}
	v->order[pos] = slot;
	v->queued++;
	if (it->type == ITEM_UTTERANCE)
		v->queued_utterances++;
	it->seq = ++v->next_seq;
	return pos;
}

/* ---------------------------------------------------------------- the main loop's side */

int voice_say(struct voice *v, enum voice_channel ch, enum voice_kind kind, const char *lang,
	      const char *text, uint64_t time_ms)
{
	struct utterance u;

	utterance_set(&u, phrase_lang_or(lang, PHRASE_DE), text ? text : "");
	return voice_say_utterance(v, ch, kind, &u, 100, time_ms);
}

int voice_say_utterance(struct voice *v, enum voice_channel ch, enum voice_kind kind,
			const struct utterance *u, int rate_percent, uint64_t time_ms)
{
	return voice_say_reported(v, ch, kind, u, rate_percent, time_ms, 0);
}

int voice_say_reported(struct voice *v, enum voice_channel ch, enum voice_kind kind,
		       const struct utterance *u, int rate_percent, uint64_t time_ms,
		       uint64_t token)
{
	uint64_t said = monotonic_ns();
	const char *behind = "-"; /* what was being said when it came, for the trace */
	struct item *it;
	int ahead;

	if ((unsigned)ch >= VOICE_CHANNEL_COUNT)
		ch = VOICE_PRIVATE;
	if ((unsigned)kind >= VOICE_KIND_COUNT)
		kind = VOICE_KIND_INFO;
	pthread_mutex_lock(&v->lock);
	queue_drop_stale(v, kind, ch);
	if (v->busy && v->current.type == ITEM_UTTERANCE) {
		behind = kind_names[v->current_kind];
		if (stale(stale_on[kind].cuts, kind, ch, v->current_kind, v->current.ch))
			cut_current(v);
	}
	it = queue_reserve(v, ITEM_UTTERANCE);
	if (it == NULL) {
		v->stats.dropped++;
		said_post(v, token, said);
		pthread_mutex_unlock(&v->lock);
		log_warn(LOG_VOICE, "queue full, not spoken: %s \"%s\"", channel_names[ch],
			 u->text);
		return -1;
	}
	it->type = ITEM_UTTERANCE;
	it->ch = ch;
	it->kind = kind;
	it->time_ms = time_ms;
	it->said_ns = said;
	it->token = token;
	it->record_fd = -1;
	it->rate_percent = rate_percent > 0 ? rate_percent : 100;
	it->u = *u;
	ahead = queue_insert(v, it);
	/* make bench: what it waited behind (the kind being said, "-" for nothing; the
	 * utterances queued before it), and its number, which its first sample's line names
	 * too.  Traced before the thread can take it. */
	trace_at(said, "say", "%s %s behind=%s queued=%d utterance=%llu", channel_names[ch],
		 trace_kinds[kind], behind, ahead, (unsigned long long)it->seq);
	pthread_cond_signal(&v->work);
	pthread_mutex_unlock(&v->lock);
	return 0;
}

int voice_said_fd(const struct voice *v)
{
	return v->said_fd;
}

int voice_said_take(struct voice *v, struct voice_said *out, int max)
{
	uint64_t n;
	int k;

	if (v->said_fd >= 0 && read(v->said_fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		log_warn(LOG_VOICE, "report: %s", strerror(errno));
	pthread_mutex_lock(&v->lock);
	k = v->said_count < max ? v->said_count : max;
	memcpy(out, v->said, sizeof(out[0]) * (size_t)k);
	memmove(&v->said[0], &v->said[k], sizeof(v->said[0]) * (size_t)(v->said_count - k));
	v->said_count -= k;
	/* What is left still waits: readable again. */
	if (v->said_count)
		said_signal(v);
	pthread_mutex_unlock(&v->lock);
	return k;
}

int voice_record_to(struct voice *v, const char *path)
{
	int fd = -1;
	struct item *it;

	if (path != NULL) {
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640);
		if (fd < 0)
			log_warn(LOG_VOICE, "record %s: %s; tried again as the game is said", path,
				 strerror(errno));
	}
	pthread_mutex_lock(&v->lock);
	it = queue_reserve(v, ITEM_RECORD);
	if (it == NULL) {
		pthread_mutex_unlock(&v->lock);
		log_warn(LOG_VOICE, "record %s: queue full", path ? path : "(end)");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	memset(it, 0, offsetof(struct item, u));
	it->type = ITEM_RECORD;
	it->record_fd = fd;
	it->record_opus = path && audio_record_is_opus(path);
	/* A path too long to keep is not tried again (never a shortened one). */
	if (path && strlen(path) < sizeof(it->record_path))
		snprintf(it->record_path, sizeof(it->record_path), "%s", path);
	utterance_clear(&it->u);
	queue_insert(v, it);
	pthread_cond_signal(&v->work);
	pthread_mutex_unlock(&v->lock);
	return path != NULL && fd < 0 ? -1 : 0;
}

void voice_wait_idle(struct voice *v)
{
	pthread_mutex_lock(&v->lock);
	while (v->queued > 0 || v->busy)
		pthread_cond_wait(&v->idle, &v->lock);
	pthread_mutex_unlock(&v->lock);
}

void voice_get_stats(struct voice *v, struct voice_stats *out)
{
	pthread_mutex_lock(&v->lock);
	*out = v->stats;
	pthread_mutex_unlock(&v->lock);
}

/* ---------------------------------------------------------------- the voice thread */

static bool current_aborted(void *ctx)
{
	struct voice *v = ctx;

	return atomic_load(&v->abort_seq) == v->current.seq;
}

/* Samples on their way out: to the sink and the game's record. */
static void emit(struct voice *v, const short *wav, size_t numsamples)
{
	bool lost = false, recorded = false;

	if (numsamples == 0)
		return;
	if (v->current_to_sink) {
		/* It plays after what the stream holds already (a sink in real time). */
		if (!v->samples_played) {
			uint64_t now = monotonic_ns();
			uint64_t end = v->stream_end_ns[v->current.ch];

			v->play_from_ns = end > now ? end : now;
		}
		lost = v->sink_ops->write(v->sink, v->current.ch, wav, numsamples) != 0;
		if (!lost)
			v->samples_played += numsamples;
	}
	if (!v->first_sample_seen) {
		uint64_t latency = monotonic_ns() - v->current.said_ns;

		trace_at(0, "first-sample", "%s %s utterance=%llu", channel_names[v->current.ch],
			 trace_kinds[v->current.kind], (unsigned long long)v->current.seq);
		v->first_sample_seen = true;
		pthread_mutex_lock(&v->lock);
		v->stats.last_first_sample_ns = latency;
		v->stats.first_samples++;
		pthread_mutex_unlock(&v->lock);
	}
	if (v->current_to_record)
		recorded = audio_record_write(&v->record, wav, numsamples) == 0;
	pthread_mutex_lock(&v->lock);
	if (v->current_to_sink) {
		if (lost)
			v->stats.samples_lost += (uint64_t)numsamples;
		else
			v->stats.samples_to_sink += (uint64_t)numsamples;
	}
	if (recorded)
		v->stats.samples_recorded += (uint64_t)numsamples;
	pthread_mutex_unlock(&v->lock);
}

static void emit_silence(struct voice *v, size_t n)
{
	static const short zeros[256];

	while (n > 0) {
		size_t k = n < 256 ? n : 256;

		emit(v, zeros, k);
		n -= k;
	}
}

static size_t ms_samples(const struct voice *v, int ms)
{
	return (size_t)v->sample_rate * (size_t)ms / 1000;
}

/* The samples of a segment, with the joints' silence cut: quiet samples at the start of a
 * segment after the first are counted, not passed; quiet samples of a segment that goes on
 * are held until a sound follows (then passed) or the segment ends (then mostly dropped). */
static void joint_filter(struct voice *v, const short *wav, size_t n)
{
	size_t i = 0;

	while (i < n && v->seg_leading) {
		if (abs(wav[i]) > JOINT_SILENCE_LEVEL) {
			size_t allowed = ms_samples(v, VOICE_JOINT_MAX_MS) - v->tail_kept;
			size_t kept = v->lead_quiet < allowed ? v->lead_quiet : allowed;

			emit_silence(v, kept);
			v->joint_raw += v->lead_quiet;
			pthread_mutex_lock(&v->lock);
			v->stats.joints++;
			v->stats.last_joint_raw_ms =
			    (uint32_t)(v->joint_raw * 1000 / (size_t)v->sample_rate);
			v->stats.last_joint_ms =
			    (uint32_t)((v->tail_kept + kept) * 1000 / (size_t)v->sample_rate);
			if (v->stats.last_joint_raw_ms > v->stats.joint_raw_max_ms)
				v->stats.joint_raw_max_ms = v->stats.last_joint_raw_ms;
			if (v->stats.last_joint_ms > v->stats.joint_max_ms)
				v->stats.joint_max_ms = v->stats.last_joint_ms;
			pthread_mutex_unlock(&v->lock);
			v->seg_leading = false;
			break;
		}
		v->lead_quiet++;
		i++;
	}
	wav += i;
	n -= i;
	if (!v->seg_goes_on && !v->seg_trim_end) {
		emit(v, wav, n);
		return;
	}
	/* Up to the chunk's last sound everything goes out (what was held first); the quiet
	 * samples after it are held, a full hold let through as it is. */
	size_t last = n;

	while (last > 0 && abs(wav[last - 1]) <= JOINT_SILENCE_LEVEL)
		last--;
	if (last > 0) {
		emit(v, v->hold, v->held);
		v->held = 0;
		emit(v, wav, last);
	}
	while (last < n) {
		size_t k;

		if (v->held == JOINT_HOLD_MAX) {
			emit(v, v->hold, v->held);
			v->held = 0;
		}
		k = n - last < JOINT_HOLD_MAX - v->held ? n - last : JOINT_HOLD_MAX - v->held;
		memcpy(&v->hold[v->held], &wav[last], k * sizeof(*wav));
		v->held += k;
		last += k;
	}
}

/* A segment that goes on has ended: keep the start of its trailing silence. */
static void joint_segment_end(struct voice *v)
{
	size_t keep = ms_samples(v, VOICE_JOINT_TAIL_MS);

	if (keep > v->held)
		keep = v->held;
	emit(v, v->hold, keep);
	v->tail_kept = keep;
	v->joint_raw = v->held;
	v->held = 0;
	v->lead_quiet = 0;
	v->seg_leading = true;
}

static void resampled(void *ctx, const int16_t *samples, size_t n)
{
	joint_filter(ctx, samples, n);
}

/* A chunk of the segment's voice: its gain, its rate made the output's, its joints cut. */
static void seg_chunk(struct voice *v, const short *wav, size_t n)
{
	if (v->seg_samples == 0 && v->joint_end_ns) {
		uint64_t us = (monotonic_ns() - v->joint_end_ns) / 1000;

		v->joint_end_ns = 0;
		pthread_mutex_lock(&v->lock);
		if (us > v->stats.joint_wait_max_us)
			v->stats.joint_wait_max_us = (uint32_t)us;
		pthread_mutex_unlock(&v->lock);
	}
	v->seg_samples += n;
	while (n > 0) {
		size_t k = n;
		const short *part = wav;

		if (v->seg_voice->gain != 1.0f) {
			k = n < sizeof(v->gain_buf) / sizeof(v->gain_buf[0])
				? n
				: sizeof(v->gain_buf) / sizeof(v->gain_buf[0]);
			memcpy(v->gain_buf, wav, k * sizeof(*wav));
			lang_voice_gain(v->seg_voice, v->gain_buf, k);
			part = v->gain_buf;
		}
		if (v->seg_resample)
			resampler_push(&v->resampler, part, k, resampled, v);
		else
			joint_filter(v, part, k);
		wav += k;
		n -= k;
	}
}

static void worker_chunk(void *ctx, const short *wav, size_t n)
{
	seg_chunk(ctx, wav, n);
}

static bool worker_stop_asked(void *ctx)
{
	return current_aborted(ctx);
}

static int synth_callback(short *wav, int numsamples, espeak_EVENT *events)
{
	struct voice *v = events != NULL ? events->user_data : NULL;

	if (v == NULL)
		return 0;
	if (current_aborted(v))
		return 1;
	if (wav == NULL || numsamples <= 0)
		return 0;
	seg_chunk(v, wav, (size_t)numsamples);
	return current_aborted(v) ? 1 : 0;
}

/* eSpeak NG is set up once per process (voice/phonemes.c).  Voices come one after another
 * (pthread_join orders them), so plain statics suffice. */
static char espeak_loaded_voice[48];

static void espeak_start(struct voice *v)
{
	int espeak_rate = voice_espeak_init(VOICE_ESPEAK_BUFFER_MS);

	if (espeak_rate <= 0) {
		log_error(LOG_VOICE,
			  "eSpeak NG cannot start (data missing?): nothing will be heard");
		v->sample_rate = 22050;
		v->espeak_ok = false;
		return;
	}
	v->sample_rate = espeak_rate;
	v->espeak_ok = true;
	/* Parameters are ours to set again for this voice. */
	espeak_loaded_voice[0] = '\0';
}

/* Load lang's voice with the channel's variant, and set the channel's parameters. */
static bool espeak_use_voice(struct voice *v, enum phrase_lang lang, enum voice_channel ch,
			     int rate_percent)
{
	const struct voice_params *p = &v->cfg.params[ch];
	const struct lang_voice *lv = &v->langs[(unsigned)lang < PHRASE_LANG_COUNT ? lang : 0];
	char name[sizeof(espeak_loaded_voice)];
	int rate = p->rate * rate_percent / 100;

	/* A variant is a formant voice's; MBROLA's voices have their own sound. */
	if (p->variant[0] && !lv->mbrola)
		snprintf(name, sizeof(name), "%s+%s", lv->name, p->variant);
	else
		snprintf(name, sizeof(name), "%s", lv->name);
	if (strcmp(espeak_loaded_voice, name) != 0) {
		if (espeak_SetVoiceByName(name) != EE_OK) {
			log_warn(LOG_VOICE, "eSpeak NG has no voice \"%s\"", name);
			/* Never another voice for a chosen one (its rate may differ): the caller
			 * falls back to the language's own. */
			if (espeak_SetVoiceByName(lv->name) != EE_OK &&
			    (lv->named || espeak_SetVoiceByName("de") != EE_OK)) {
				espeak_loaded_voice[0] = '\0';
				return false;
			}
		}
		snprintf(espeak_loaded_voice, sizeof(espeak_loaded_voice), "%s", name);
	}
	/* A voice brings its own defaults; ours come after it. */
	espeak_SetParameter(espeakRATE, rate < 80 ? 80 : rate, 0);
	espeak_SetParameter(espeakPITCH, p->pitch, 0);
	espeak_SetParameter(espeakVOLUME, p->volume * lv->volume_percent / 100, 0);
	v->seg_voice = lv;
	return true;
}

/* The voice's own notice: lang's chosen voice cannot speak, the language's own does (said
 * privately once, logged once). */
static void voice_fell_back(struct voice *v, enum phrase_lang lang, const char *asked,
			    const char *why)
{
	struct phrase_options o;
	struct utterance u;

	if (v->lang_noticed[lang])
		return;
	v->lang_noticed[lang] = true;
	pthread_mutex_lock(&v->lock);
	v->stats.fell_back |= 1u << lang;
	pthread_mutex_unlock(&v->lock);
	log_warn(LOG_VOICE, "voice-%s = %s: %s; eSpeak NG's own voice %s speaks instead",
		 phrase_lang_code(lang), asked, why, phrase_lang_code(lang));
	phrase_options_defaults(&o);
	o.lang = v->cfg.notice_lang;
	utterance_clear(&u);
	phrase_add(&u, &o, PHRASE_VOICE_FALLBACK, &(struct phrase_args){0});
	voice_say_utterance(v, VOICE_PRIVATE, VOICE_KIND_PROMPT, &u, 100, v->current.time_ms);
}

/* A variant eSpeak NG does not have is no sound of its own: eSpeak NG would say the plain
 * voice without a word (variant = mb-de6 did).  Logged, and the plain voice used. */
static void variants_check(struct voice *v)
{
	for (int ch = 0; ch < VOICE_CHANNEL_COUNT; ch++) {
		char *variant = v->cfg.params[ch].variant;

		if (variant[0] && !lang_voice_variant_exists(variant)) {
			log_warn(LOG_VOICE,
				 "%s variant = %s: eSpeak NG has no such variant (a voice is "
				 "voice-de = ...); the voice's own sound is used",
				 channel_names[ch], variant);
			variant[0] = '\0';
			v->stats.variants_unknown |= 1u << ch;
		}
	}
}

/* Each language's voice tried before the first word; the sinks' and the record's rate is
 * then the German voice's, which says the moves. */
static void voices_check(struct voice *v)
{
	variants_check(v);
	for (int l = 0; l < PHRASE_LANG_COUNT; l++) {
		char why[160];

		if (lang_voice_try(&v->langs[l], (enum phrase_lang)l, v->cfg.voice_name[l],
				   v->cfg.params[VOICE_PUBLIC].volume, why, sizeof(why)))
			voice_fell_back(v, (enum phrase_lang)l, v->cfg.voice_name[l], why);
		else if (v->langs[l].named)
			log_info(LOG_VOICE,
				 "voice-%s = %s: %u Hz, gain %.1f dB at %d %% of the volume",
				 phrase_lang_code((enum phrase_lang)l), v->langs[l].name,
				 v->langs[l].rate, 20 * log10(v->langs[l].gain),
				 v->langs[l].volume_percent);
	}
	/* Loading an MBROLA voice starts mbrola again: beside one, every other language keeps
	 * its voice loaded in a process of its own; the moves' German stays here. */
	for (int l = PHRASE_EN; l < PHRASE_LANG_COUNT; l++)
		v->langs[l].apart = v->langs[PHRASE_DE].mbrola || v->langs[l].mbrola;
	v->sample_rate = (int)v->langs[PHRASE_DE].rate;
	pthread_mutex_lock(&v->lock);
	v->stats.sample_rate = (unsigned)v->sample_rate;
	pthread_mutex_unlock(&v->lock);
	espeak_loaded_voice[0] = '\0';
	espeak_SetSynthCallback(synth_callback);
}

size_t voice_segment_input(const struct pronounce_table *t, const struct utterance *u, int i,
			   char *buf, size_t size)
{
	char words[UTTERANCE_TEXT_MAX + 2];
	size_t n = utterance_segment_text(u, i, words, sizeof(words) - 1);

	if (n >= sizeof(words) - 1)
		n = strlen(words);
	if (i + 1 < u->count) {
		words[n++] = ',';
		words[n] = '\0';
	}
	return pronounce_apply(t, i >= 0 && i < u->count ? u->seg[i].lang : PHRASE_DE, words, buf,
			       size);
}

/* What was held for the start line goes to speech.log after it (or without it, at the end). */
static void release_held(struct voice *v)
{
	if (!v->holding)
		return;
	v->holding = false;
	if (v->held_lines.len && !v->held_lines.failed)
		pendlog_add(&v->slog, v->held_lines.p, v->held_lines.len);
	free(v->held_lines.p);
	v->held_lines = (struct strbuf){0};
}

static void speech_log_write(struct voice *v, const struct item *it)
{
	char line[VOICE_TEXT_MAX + 64];
	int n = snprintf(line, sizeof(line), "%llu %s ", (unsigned long long)it->time_ms,
			 channel_names[it->ch]);
	size_t len;

	if (n < 0)
		return;
	len = (size_t)n;
	for (const char *p = it->u.text; *p && len + 2 < sizeof(line); p++)
		line[len++] = (*p == '\n' || *p == '\r') ? ' ' : *p;
	line[len++] = '\n';
	pthread_mutex_lock(&v->log_lock);
	if (v->holding && v->held_lines.len + len <= VOICE_LOG_PENDING_MAX) {
		strbuf_append(&v->held_lines, line, len);
		if (v->held_lines.failed)
			release_held(v);
	} else {
		release_held(v);
		pendlog_add(&v->slog, line, len);
	}
	pthread_mutex_unlock(&v->log_lock);
}

int voice_log_digest(struct voice *v, off_t *bytes, char hex[2 * SHA256_SIZE + 1])
{
	int rc;

	pthread_mutex_lock(&v->log_lock);
	rc = pendlog_digest(&v->slog, bytes, hex);
	pthread_mutex_unlock(&v->log_lock);
	return rc;
}

void voice_log_line(struct voice *v, const char *line)
{
	pthread_mutex_lock(&v->log_lock);
	pendlog_start(&v->slog, line, strlen(line));
	release_held(v);
	pthread_mutex_unlock(&v->log_lock);
}

/* The record's file as opened (its device and inode), to see later whether it is still the
 * one at its path. */
static void record_found(struct voice *v)
{
	struct stat st;

	v->record_known = v->record_path[0] && stat(v->record_path, &st) == 0;
	if (v->record_known) {
		v->record_dev = st.st_dev;
		v->record_ino = st.st_ino;
	}
}

static void switch_record(struct voice *v, int fd, const char *path, bool opus)
{
	audio_record_close(&v->record);
	snprintf(v->record_path, sizeof(v->record_path), "%s", path);
	v->record_known = false;
	if (fd < 0)
		return;
	if (audio_record_open_fd(&v->record, fd, opus ? ".opus" : ".wav",
				 (unsigned)v->sample_rate) != 0)
		log_warn(LOG_VOICE, "record: cannot write: %s", strerror(errno));
	else
		record_found(v);
}

/* Whether the record takes what is said now.  One that could not be opened (read-only
 * storage at the game's start) or whose write failed (a full card) is tried again here, at
 * each public utterance, so the record goes on once storage works again (what was said
 * meanwhile is not in it). */
static bool record_ready(struct voice *v)
{
	/* Its file gone with the state directory, or another in its place (the storage
	 * mounted again): opened again there (what it held before is not in the new one). */
	if (audio_record_is_open(&v->record) && v->record_path[0] && v->record_known &&
	    !file_id_in_place(v->record_dev, v->record_ino, v->record_path)) {
		log_warn(LOG_VOICE, "record %s was removed or replaced: opened again",
			 v->record_path);
		audio_record_close(&v->record);
	}
	if (audio_record_is_open(&v->record) && !audio_record_failed(&v->record))
		return true;
	if (!v->record_path[0])
		return false; /* no record, or none to try again */
	if (!audio_record_is_open(&v->record)) {
		/* games/ made again: it could not be made at a read-only start, or went. */
		if (audio_record_open(&v->record, v->record_path, (unsigned)v->sample_rate) != 0 &&
		    (errno != ENOENT || file_make_dir(v->record_path) ||
		     audio_record_open(&v->record, v->record_path, (unsigned)v->sample_rate) != 0))
			return false;
		record_found(v);
		log_info(LOG_VOICE, "record %s: opened", v->record_path);
		return true;
	}
	if (audio_record_failed(&v->record)) {
		if (audio_record_resume(&v->record) != 0)
			return false;
		log_info(LOG_VOICE, "record %s: written again", v->record_path);
	}
	return true;
}

extern char **environ;

/* The process engine: `espeak-ng --stdout` spawned for one segment, its WAV read (the
 * 44-byte header skipped) and passed on as the library's samples are.  Stopped early when
 * the utterance is superseded. */
static void spawn_segment(struct voice *v, const char *voice, enum voice_channel ch,
			  int rate_percent, char *text)
{
	const struct voice_params *p = &v->cfg.params[ch];
	char voice_name[64], rate[16], pitch[16], amplitude[16];
	char *argv[] = {"espeak-ng", "-v",	voice_name, "-s", rate, "-p", pitch,
			"-a",	     amplitude, "--stdout", "--", text, NULL};
	int fds[2], status, rc, r = p->rate * rate_percent / 100;
	posix_spawn_file_actions_t fa;
	short buf[1024];
	size_t skip = 44, have = 0;
	pid_t pid;

	if (p->variant[0] && !v->seg_voice->mbrola)
		snprintf(voice_name, sizeof(voice_name), "%s+%s", voice, p->variant);
	else
		snprintf(voice_name, sizeof(voice_name), "%s", voice);
	snprintf(rate, sizeof(rate), "%d", r < 80 ? 80 : r);
	snprintf(pitch, sizeof(pitch), "%d", p->pitch);
	snprintf(amplitude, sizeof(amplitude), "%d",
		 p->volume * v->seg_voice->volume_percent / 100);
	if (pipe2(fds, O_CLOEXEC)) {
		log_warn(LOG_VOICE, "espeak-ng: pipe: %s", strerror(errno));
		return;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "espeak-ng", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		log_warn(LOG_VOICE, "espeak-ng: %s", strerror(rc));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	close(fds[1]);
	for (;;) {
		ssize_t n = read(fds[0], (char *)buf + have, sizeof(buf) - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || current_aborted(v))
			break;
		have += (size_t)n;
		if (skip) {
			size_t k = have < skip ? have : skip;

			memmove(buf, (char *)buf + k, have - k);
			have -= k;
			skip -= k;
		}
		if (have >= sizeof(short)) {
			size_t samples = have / sizeof(short);

			seg_chunk(v, buf, samples);
			memmove(buf, (char *)buf + samples * sizeof(short),
				have - samples * sizeof(short));
			have -= samples * sizeof(short);
		}
	}
	if (current_aborted(v))
		kill(pid, SIGTERM);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* The voice lang's worker loads for a channel of parameters p (a formant voice's variant). */
static void worker_voice_name(const struct voice *v, enum phrase_lang lang,
			      const struct voice_params *p, char *name, size_t size)
{
	const struct lang_voice *lv = &v->langs[lang];

	if (p->variant[0] && !lv->mbrola)
		snprintf(name, size, "%s+%s", lv->name, p->variant);
	else
		snprintf(name, size, "%s", lv->name);
}

/* input said by lang's worker, started first if it does not run (or runs another variant). */
static void say_apart(struct voice *v, enum phrase_lang lang, const char *input)
{
	const struct voice_params *p = &v->cfg.params[v->current.ch];
	struct voice_worker *w = &v->workers[lang];
	const struct lang_voice *lv = &v->langs[lang];
	int rate = p->rate * v->current.rate_percent / 100;
	char name[sizeof(w->name)], why[160];

	worker_voice_name(v, lang, p, name, sizeof(name));
	if (w->pid > 0 && strcmp(w->name, name))
		voice_worker_stop(w);
	if (w->pid <= 0 && voice_worker_start(w, name, why, sizeof(why))) {
		log_warn(LOG_VOICE, "voice %s: %s", name, why);
		return;
	}
	voice_worker_say(w, input, rate < 80 ? 80 : rate, p->pitch,
			 p->volume * lv->volume_percent / 100, worker_chunk, worker_stop_asked, v);
}

/* Segment i of the current utterance in lang's voice: its samples (0: it said nothing). */
static uint64_t say_segment(struct voice *v, enum phrase_lang lang, int i)
{
	struct item *it = &v->current;
	char input[2 * UTTERANCE_TEXT_MAX + 16];
	size_t n;

	if (v->langs[lang].apart)
		v->seg_voice = &v->langs[lang];
	else if (!espeak_use_voice(v, lang, it->ch, it->rate_percent))
		return 0;
	n = voice_segment_input(&v->cfg.pronounce, &it->u, i, input, sizeof(input));
	/* MBROLA stops where its last sound stops, mid-wave (a click): a pause after it lets the
	 * sound end, and its silence is cut as a joint's. */
	if (v->seg_voice->mbrola && n < sizeof(input))
		snprintf(input + n, sizeof(input) - n, " [[_:_:]]");
	v->seg_trim_end = !v->seg_goes_on && v->seg_voice->mbrola;
	v->seg_samples = 0;
	v->seg_resample = v->seg_voice->rate != (unsigned)v->sample_rate;
	if (v->seg_resample)
		resampler_init(&v->resampler, v->seg_voice->rate, (unsigned)v->sample_rate);
	if (v->cfg.engine == VOICE_ENGINE_PROCESS)
		spawn_segment(v, v->seg_voice->name, it->ch, it->rate_percent, input);
	else if (v->seg_voice->apart)
		say_apart(v, lang, input);
	else
		espeak_Synth(input, strlen(input) + 1, 0, POS_CHARACTER, 0,
			     espeakCHARS_UTF8 | espeakPHONEMES, NULL, v);
	if (v->seg_resample && !current_aborted(v))
		resampler_flush(&v->resampler, resampled, v);
	return v->seg_samples;
}

/* A chosen voice said nothing (its mbrola process died: eSpeak NG reports success with no
 * sound): loaded again, which starts mbrola again; if that says nothing either, the
 * language's own voice speaks from now on. */
static void say_segment_checked(struct voice *v, enum phrase_lang lang, int i)
{
	struct lang_voice *lv = &v->langs[lang];
	char asked[VOICE_NAME_MAX];

	if (say_segment(v, lang, i) > 0 || (!lv->named && !lv->apart) || current_aborted(v))
		return;
	espeak_loaded_voice[0] = '\0';
	voice_worker_stop(&v->workers[lang]);
	if (say_segment(v, lang, i) > 0 || current_aborted(v)) {
		log_warn(LOG_VOICE, "voice %s said nothing; loaded again, it speaks", lv->name);
		return;
	}
	if (lv->named) {
		snprintf(asked, sizeof(asked), "%s", lv->name);
		bool apart = lv->apart;

		lang_voice_default(lv, lang);
		lv->apart = apart;
		espeak_loaded_voice[0] = '\0';
		voice_fell_back(v, lang, asked, "it said nothing, also when loaded again");
		if (say_segment(v, lang, i) > 0 || current_aborted(v))
			return;
	}
	/* The language's own voice in a worker that cannot start: here, loaded each time. */
	if (lv->apart) {
		log_warn(LOG_VOICE, "voice %s: said here, loaded at each change of language",
			 lv->name);
		lv->apart = false;
		say_segment(v, lang, i);
	}
}

/* Say the current utterance; whether it was cut short. */
static bool speak(struct voice *v)
{
	struct item *it = &v->current;
	bool aborted = false;

	speech_log_write(v, it);
	/* A cut of the utterance before is no cut of this one. */
	if (v->cut_fd >= 0 && read(v->cut_fd, &(uint64_t){0}, sizeof(uint64_t)) < 0 &&
	    errno != EAGAIN)
		log_warn(LOG_VOICE, "cut: %s", strerror(errno));
	v->current_to_sink = v->sink_ops->wants_audio;
	v->current_to_record = it->ch == VOICE_PUBLIC && record_ready(v);
	v->first_sample_seen = false;
	v->samples_played = 0;
	if (!v->espeak_ok || (!v->current_to_sink && !v->current_to_record) || !it->u.count)
		return false;
	if (v->current_to_sink)
		v->sink_ops->begin(v->sink, it->ch);
	v->held = 0;
	v->tail_kept = 0;
	v->seg_leading = false;
	for (int i = 0; i < it->u.count && !aborted; i++) {
		enum phrase_lang lang = it->u.seg[i].lang;

		if ((unsigned)lang >= PHRASE_LANG_COUNT)
			lang = PHRASE_DE;
		v->seg_goes_on = i + 1 < it->u.count;
		say_segment_checked(v, lang, i);
		aborted = current_aborted(v);
		if (v->seg_goes_on && !aborted) {
			joint_segment_end(v);
			v->joint_end_ns = monotonic_ns();
		}
	}
	v->joint_end_ns = 0;
	if (v->seg_trim_end && !aborted) {
		size_t keep = ms_samples(v, VOICE_JOINT_TAIL_MS);

		emit(v, v->hold, keep < v->held ? keep : v->held);
	}
	v->held = 0;
	v->seg_trim_end = false;
	v->seg_goes_on = false;
	v->seg_leading = false;
	if (v->current_to_sink)
		v->sink_ops->end(v->sink, it->ch, aborted);
	if (v->current_to_record)
		audio_record_commit(&v->record);
	if (aborted) {
		log_info(LOG_VOICE, "stopped (no longer matters): %s %s \"%s\"",
			 kind_names[it->kind], channel_names[it->ch], it->u.text);
		pthread_mutex_lock(&v->lock);
		v->stats.aborted++;
		pthread_mutex_unlock(&v->lock);
	}
	return aborted;
}

/* When the current utterance will have been heard to its end on its channel's stream: at
 * once when it was cut short (the sink dropped what it held) or nothing reached a sink. */
static uint64_t heard_at(struct voice *v, bool aborted)
{
	uint64_t now = monotonic_ns();
	enum voice_channel ch = v->current.ch;

	if (aborted) {
		v->stream_end_ns[ch] = now;
		return now;
	}
	if (v->samples_played)
		v->stream_end_ns[ch] =
		    v->play_from_ns + v->samples_played * 1000000000u / (uint64_t)v->sample_rate;
	return v->stream_end_ns[ch] > now ? v->stream_end_ns[ch] : now;
}

static void *voice_thread(void *arg)
{
	struct voice *v = arg;
	char err[200] = "";

	espeak_start(v);
	if (v->espeak_ok) {
		voices_check(v);
		espeak_use_voice(v, PHRASE_DE, VOICE_PUBLIC, 100);
		/* The interface language's worker now, so that its first prompt waits for none. */
		if (v->langs[v->cfg.notice_lang].apart) {
			struct voice_params *p = &v->cfg.params[VOICE_PRIVATE];
			char name[sizeof(v->workers[0].name)], why[160];

			worker_voice_name(v, v->cfg.notice_lang, p, name, sizeof(name));
			if (voice_worker_start(&v->workers[v->cfg.notice_lang], name, why,
					       sizeof(why)))
				log_warn(LOG_VOICE, "voice %s: %s", name, why);
		}
	}
	v->sink_env.cfg = &v->cfg;
	v->sink_env.sample_rate = (unsigned)v->sample_rate;
	v->sink_env.should_abort = current_aborted;
	v->sink_env.abort_ctx = v;
	v->sink_env.abort_fd = v->cut_fd;
	v->sink = v->sink_ops->open(&v->sink_env, err, sizeof(err));

	pthread_mutex_lock(&v->lock);
	v->started = true;
	if (v->sink == NULL) {
		snprintf(v->start_error, sizeof(v->start_error), "%s", err);
		pthread_cond_broadcast(&v->idle);
		pthread_mutex_unlock(&v->lock);
		goto out;
	}
	pthread_cond_broadcast(&v->idle);
	for (;;) {
		int slot;

		if (v->queued == 0 && v->espeak_ok &&
		    strncmp(espeak_loaded_voice, v->langs[PHRASE_DE].name,
			    strlen(v->langs[PHRASE_DE].name)) != 0) {
			/* Idle: have the moves' voice ready, so the next move starts at once. */
			pthread_mutex_unlock(&v->lock);
			espeak_use_voice(v, PHRASE_DE, VOICE_PUBLIC, 100);
			pthread_mutex_lock(&v->lock);
		}
		while (v->queued == 0 && !v->stopping)
			pthread_cond_wait(&v->work, &v->lock);
		if (v->queued == 0)
			break;
		if (v->params_changed) {
			memcpy(v->cfg.params, v->new_params, sizeof(v->cfg.params));
			v->params_changed = false;
			variants_check(v);
			espeak_loaded_voice[0] = '\0'; /* the variant may have changed */
		}
		slot = v->order[0];
		v->current = v->slots[slot];
		queue_remove_at(v, 0);
		v->busy = true;
		v->current_kind = v->current.kind;
		v->current_seq = v->current.seq;
		if (v->current.type == ITEM_UTTERANCE) {
			v->stats.spoken++;
			/* A newer utterance waiting behind it would have cut it: begun (a move is
			 * never dropped) and cut at once. */
			if (stale_behind(v, &v->current))
				atomic_store(&v->abort_seq, v->current_seq);
		}
		pthread_mutex_unlock(&v->lock);

		if (v->current.type == ITEM_RECORD) {
			switch_record(v, v->current.record_fd, v->current.record_path,
				      v->current.record_opus);
		} else {
			uint64_t heard = heard_at(v, speak(v));

			pthread_mutex_lock(&v->lock);
			said_post(v, v->current.token, heard);
			pthread_mutex_unlock(&v->lock);
		}

		pthread_mutex_lock(&v->lock);
		v->busy = false;
		if (v->queued == 0)
			pthread_cond_broadcast(&v->idle);
	}
	pthread_mutex_unlock(&v->lock);
	v->sink_ops->close(v->sink);
	v->sink = NULL;
out:
	for (int l = 0; l < PHRASE_LANG_COUNT; l++)
		voice_worker_stop(&v->workers[l]);
	audio_record_close(&v->record);
	pthread_mutex_lock(&v->log_lock);
	release_held(v);
	if (pendlog_waiting(&v->slog))
		pendlog_flush(&v->slog); /* a last try at the end */
	pthread_mutex_unlock(&v->log_lock);
	return NULL;
}

/* Everything voice_start() made, once the thread has ended. */
static void voice_free(struct voice *v)
{
	free(v->held_lines.p);
	pendlog_close(&v->slog);
	if (v->said_fd >= 0)
		close(v->said_fd);
	if (v->cut_fd >= 0)
		close(v->cut_fd);
	pthread_mutex_destroy(&v->log_lock);
	pthread_cond_destroy(&v->idle);
	pthread_cond_destroy(&v->work);
	pthread_mutex_destroy(&v->lock);
	free(v);
}

struct voice *voice_start(const struct voice_config *cfg, char *err, size_t err_size)
{
	struct voice *v = calloc(1, sizeof(*v));
	char path[512];

	if (v == NULL) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	v->cfg = *cfg;
	switch (cfg->sink) {
	case VOICE_SINK_WAV:
		v->sink_ops = &voice_sink_wav_ops;
		break;
	case VOICE_SINK_ALSA:
		v->sink_ops = &voice_sink_alsa_ops;
		break;
	case VOICE_SINK_NONE:
	default:
		v->sink_ops = &voice_sink_none_ops;
		break;
	}
	audio_record_init(&v->record);
	for (int l = 0; l < PHRASE_LANG_COUNT; l++)
		v->workers[l].fd = -1;
	snprintf(path, sizeof(path), "%s/speech.log", cfg->state_dir);
	/* Storage that cannot be written now (read-only) is no reason not to speak: what is
	 * said is kept and written to speech.log when it can be. */
	pendlog_open(&v->slog, path, LOG_VOICE, VOICE_LOG_PENDING_MAX, cfg->log_write);
	pendlog_set_reserve(&v->slog, cfg->log_reserve);
	pthread_mutex_init(&v->log_lock, NULL);
	v->holding = cfg->log_after_start;
	for (int i = 0; i < QUEUE_SLOTS; i++)
		v->free_slots[i] = QUEUE_SLOTS - 1 - i;
	v->free_count = QUEUE_SLOTS;
	atomic_init(&v->abort_seq, 0);
	v->said_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	v->cut_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	pthread_mutex_init(&v->lock, NULL);
	pthread_cond_init(&v->work, NULL);
	pthread_cond_init(&v->idle, NULL);
	if (pthread_create(&v->thread, NULL, voice_thread, v) != 0) {
		snprintf(err, err_size, "cannot start the voice thread");
		goto fail_thread;
	}
	/* Wait for the set-up (eSpeak NG, the German voice, the sink) to finish; an audio
	 * output that does not open in time (it blocks) does not keep the game from starting:
	 * what is said waits for it. */
	{
		struct timespec until;
		int rc = 0;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += VOICE_START_WAIT_S;
		pthread_mutex_lock(&v->lock);
		while (!v->started && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&v->idle, &v->lock, &until);
		pthread_mutex_unlock(&v->lock);
		if (rc == ETIMEDOUT) {
			log_warn(LOG_VOICE,
				 "the audio output does not open within %d s; the game "
				 "goes on, speech waits for it",
				 VOICE_START_WAIT_S);
			return v;
		}
	}
	if (v->start_error[0]) {
		snprintf(err, err_size, "%s", v->start_error);
		pthread_join(v->thread, NULL);
		goto fail_thread;
	}
	return v;
fail_thread:
	voice_free(v);
	return NULL;
}

void voice_set_params(struct voice *v, const struct voice_params params[VOICE_CHANNEL_COUNT])
{
	pthread_mutex_lock(&v->lock);
	memcpy(v->new_params, params, sizeof(v->new_params));
	v->params_changed = true;
	pthread_mutex_unlock(&v->lock);
}

bool voice_stop_within(struct voice *v, unsigned ms)
{
	struct timespec until;

	if (v == NULL)
		return true;
	pthread_mutex_lock(&v->lock);
	v->stopping = true;
	while (v->queued > 0) {
		const struct item *it = &v->slots[v->order[0]];

		if (it->type == ITEM_RECORD && it->record_fd >= 0)
			close(it->record_fd);
		queue_remove_at(v, 0);
	}
	if (v->busy)
		cut_current(v);
	pthread_cond_signal(&v->work);
	pthread_mutex_unlock(&v->lock);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	if (pthread_timedjoin_np(v->thread, NULL, &until)) {
		/* An audio output that blocks: the process exits without it. */
		log_warn(LOG_VOICE, "the voice did not stop within %u ms; left behind", ms);
		return false;
	}
	voice_free(v);
	return true;
}

void voice_stop(struct voice *v)
{
	if (v == NULL)
		return;
	pthread_mutex_lock(&v->lock);
	v->stopping = true;
	pthread_cond_signal(&v->work);
	pthread_mutex_unlock(&v->lock);
	pthread_join(v->thread, NULL);
	/* Record commands left behind (none: the thread drains the queue) would hold fds. */
	voice_free(v);
}
