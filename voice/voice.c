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
 *
 * This file holds the queue and the main loop's side (voice_say(), the reports, the record's
 * changes), start and stop; the thread itself is in voice_thread.c, eSpeak NG and the
 * languages' voices in voice_synth.c, speech.log in voice_log.c, the game's audio record in
 * voice_record.c (their shared state: voice_int.h).
 */
#include "voice/voice_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "base/timeutil.h"
#include "base/trace.h"

/* How long voice_start() waits for the audio output to open. */
#define VOICE_START_WAIT_S 3

const char *const voice_channel_names[VOICE_CHANNEL_COUNT] = {"public", "private"};
const char *const voice_kind_names[VOICE_KIND_COUNT] = {
    "move", "repeat", "time", "prompt", "info", "echo", "correction", "menu", "guide"};
/* In the timing trace every move is a "move" (its kind after it). */
const char *const voice_trace_kinds[VOICE_KIND_COUNT] = {
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
void voice_said_post(struct voice *v, uint64_t token, uint64_t heard_ns)
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

void voice_queue_remove_at(struct voice *v, int pos)
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
bool voice_stale_behind(const struct voice *v, const struct item *it)
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
				 voice_kind_names[kind], voice_kind_names[it->kind],
				 voice_channel_names[it->ch], it->u.text);
			v->stats.dropped++;
			voice_said_post(v, it->token, monotonic_ns());
			voice_queue_remove_at(v, i);
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
		behind = voice_kind_names[v->current_kind];
		if (stale(stale_on[kind].cuts, kind, ch, v->current_kind, v->current.ch))
			cut_current(v);
	}
	it = queue_reserve(v, ITEM_UTTERANCE);
	if (it == NULL) {
		v->stats.dropped++;
		voice_said_post(v, token, said);
		pthread_mutex_unlock(&v->lock);
		log_warn(LOG_VOICE, "queue full, not spoken: %s \"%s\"", voice_channel_names[ch],
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
	trace_at(said, "say", "%s %s behind=%s queued=%d utterance=%llu", voice_channel_names[ch],
		 voice_trace_kinds[kind], behind, ahead, (unsigned long long)it->seq);
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
	if (pthread_create(&v->thread, NULL, voice_thread_main, v) != 0) {
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
		voice_queue_remove_at(v, 0);
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
