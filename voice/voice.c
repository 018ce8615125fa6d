/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The voice thread.  eSpeak NG is not thread-safe, and ALSA writes block, so one thread owns
 * both: it takes utterances from a fixed-size queue, writes speech.log when an utterance
 * starts, synthesizes it in process (synchronous mode: samples arrive in a callback on this
 * thread) and hands the samples to the sink and, for public announcements, to the game's
 * audio record.  voice_say() only copies the text under a mutex and signals.
 *
 * Order: PROMPT first (private, urgent), then everything else in the order it was said.
 * A new MOVE makes queued REPEAT / TIME / INFO utterances stale (they are dropped, with a
 * warning) and stops one being spoken (the synth callback returns 1; ALSA drops its buffer).
 * A new TIME or REPEAT replaces a queued one of its kind.
 *
 * eSpeak NG keeps global state, so there is one voice per process at a time.
 */
#include "voice/voice.h"

#include <errno.h>
#include <espeak-ng/speak_lib.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "base/timeutil.h"
#include "voice/sink.h"
#include "voice/wav.h"

/* eSpeak NG hands over samples every this many ms of audio: small, so that the first samples
 * of a move reach the device early. */
#define VOICE_ESPEAK_BUFFER_MS 20

enum item_type { ITEM_UTTERANCE = 0, ITEM_RECORD };

struct item {
	enum item_type type;
	enum voice_channel ch;
	enum voice_kind kind;
	uint64_t time_ms;
	uint64_t said_ns; /* monotonic, when voice_say() took it */
	uint64_t seq;
	int record_fd; /* ITEM_RECORD: the new record file, or -1 to end the record */
	char lang[16];
	char text[VOICE_TEXT_MAX];
};

/* Room for record commands beyond VOICE_QUEUE_SIZE utterances, so they are never refused. */
#define QUEUE_SLOTS (VOICE_QUEUE_SIZE + 4)

struct voice {
	struct voice_config cfg;
	const struct voice_sink_ops *sink_ops;
	struct voice_sink *sink;
	struct voice_sink_env sink_env;
	int speech_log_fd;

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

	/* The utterance to stop now (its seq), read by the synth callback. */
	atomic_uint_fast64_t abort_seq;

	/* Voice thread only. */
	struct item current;
	bool current_to_sink;
	bool current_to_record;
	bool first_sample_seen;
	bool espeak_ok;
	int sample_rate;
	struct wav_writer record;
};

static const char *const channel_names[VOICE_CHANNEL_COUNT] = {"public", "private"};
static const char *const kind_names[] = {"move", "repeat", "time", "prompt", "info"};

void voice_config_defaults(struct voice_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->sink = VOICE_SINK_NONE;
	snprintf(cfg->device[VOICE_PUBLIC], sizeof(cfg->device[0]), "default");
	snprintf(cfg->device[VOICE_PRIVATE], sizeof(cfg->device[0]), "default");
	snprintf(cfg->state_dir, sizeof(cfg->state_dir), ".");
	cfg->rate = 160;
	cfg->pitch = 50;
	cfg->volume = 100;
	cfg->record = true;
}

/* ---------------------------------------------------------------- the queue (under lock) */

static bool is_stale_kind(enum voice_kind k)
{
	return k == VOICE_KIND_REPEAT || k == VOICE_KIND_TIME || k == VOICE_KIND_INFO;
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

static void queue_drop_where(struct voice *v, bool (*match)(const struct item *, enum voice_kind),
			     enum voice_kind kind, const char *why)
{
	for (int i = 0; i < v->queued;) {
		const struct item *it = &v->slots[v->order[i]];

		if (it->type == ITEM_UTTERANCE && match(it, kind)) {
			log_warn(LOG_VOICE, "not spoken (%s): %s %s \"%s\"", why,
				 kind_names[it->kind], channel_names[it->ch], it->text);
			v->stats.dropped++;
			queue_remove_at(v, i);
		} else {
			i++;
		}
	}
}

static bool match_stale(const struct item *it, enum voice_kind kind)
{
	(void)kind;
	return is_stale_kind(it->kind);
}

static bool match_same_kind(const struct item *it, enum voice_kind kind)
{
	return it->kind == kind;
}

/* Take a free slot; NULL if none (utterances are limited to VOICE_QUEUE_SIZE). */
static struct item *queue_reserve(struct voice *v, enum item_type type)
{
	if (v->free_count == 0 ||
	    (type == ITEM_UTTERANCE && v->queued_utterances >= VOICE_QUEUE_SIZE))
		return NULL;
	return &v->slots[v->free_slots[v->free_count - 1]];
}

static void queue_insert(struct voice *v, struct item *it)
{
	int slot = (int)(it - v->slots);
	int pos = v->queued;

	v->free_count--;
	if (it->type == ITEM_UTTERANCE && it->kind == VOICE_KIND_PROMPT) {
		/* After the prompts already waiting, before everything else. */
		pos = 0;
		while (pos < v->queued) {
			const struct item *o = &v->slots[v->order[pos]];

			if (o->type != ITEM_UTTERANCE || o->kind != VOICE_KIND_PROMPT)
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
}

/* ---------------------------------------------------------------- the main loop's side */

/* Copy and cut to size, never in the middle of a UTF-8 character. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size) {
		n = size - 1;
		while (n > 0 && ((unsigned char)src[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int voice_say(struct voice *v, enum voice_channel ch, enum voice_kind kind, const char *lang,
	      const char *text, uint64_t time_ms)
{
	uint64_t said = monotonic_ns();
	struct item *it;

	if ((unsigned)ch >= VOICE_CHANNEL_COUNT)
		ch = VOICE_PRIVATE;
	if ((unsigned)kind > VOICE_KIND_INFO)
		kind = VOICE_KIND_INFO;
	if (text == NULL)
		text = "";
	pthread_mutex_lock(&v->lock);
	if (kind == VOICE_KIND_MOVE) {
		queue_drop_where(v, match_stale, kind, "superseded by a move");
		if (v->busy && is_stale_kind(v->current_kind))
			atomic_store(&v->abort_seq, v->current_seq);
	} else if (kind == VOICE_KIND_TIME || kind == VOICE_KIND_REPEAT) {
		queue_drop_where(v, match_same_kind, kind, "said again");
	}
	it = queue_reserve(v, ITEM_UTTERANCE);
	if (it == NULL) {
		v->stats.dropped++;
		pthread_mutex_unlock(&v->lock);
		log_warn(LOG_VOICE, "queue full, not spoken: %s \"%s\"", channel_names[ch], text);
		return -1;
	}
	it->type = ITEM_UTTERANCE;
	it->ch = ch;
	it->kind = kind;
	it->time_ms = time_ms;
	it->said_ns = said;
	it->record_fd = -1;
	snprintf(it->lang, sizeof(it->lang), "%s", lang != NULL && lang[0] ? lang : "de");
	copy_text(it->text, sizeof(it->text), text);
	queue_insert(v, it);
	pthread_cond_signal(&v->work);
	pthread_mutex_unlock(&v->lock);
	return 0;
}

int voice_record_to(struct voice *v, const char *path)
{
	int fd = -1;
	struct item *it;

	if (path != NULL) {
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0) {
			log_warn(LOG_VOICE, "record %s: %s", path, strerror(errno));
			return -1;
		}
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
	memset(it, 0, offsetof(struct item, text));
	it->type = ITEM_RECORD;
	it->record_fd = fd;
	it->text[0] = '\0';
	queue_insert(v, it);
	pthread_cond_signal(&v->work);
	pthread_mutex_unlock(&v->lock);
	return 0;
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

static int synth_callback(short *wav, int numsamples, espeak_EVENT *events)
{
	struct voice *v = events != NULL ? events->user_data : NULL;

	if (v == NULL)
		return 0;
	if (current_aborted(v))
		return 1;
	if (wav == NULL || numsamples <= 0)
		return 0;
	bool lost = false, recorded = false;

	if (v->current_to_sink)
		lost = v->sink_ops->write(v->sink, v->current.ch, wav, (size_t)numsamples) != 0;
	if (!v->first_sample_seen) {
		uint64_t latency = monotonic_ns() - v->current.said_ns;

		v->first_sample_seen = true;
		pthread_mutex_lock(&v->lock);
		v->stats.last_first_sample_ns = latency;
		pthread_mutex_unlock(&v->lock);
	}
	if (v->current_to_record)
		recorded = wav_writer_write(&v->record, wav, (size_t)numsamples) == 0;
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
	return current_aborted(v) ? 1 : 0;
}

/* eSpeak NG is set up once per process and never terminated: espeak_Terminate() followed by
 * a second espeak_Initialize() can hang in eSpeak NG 1.51.  Voices come one after another
 * (pthread_join orders them), so plain statics suffice. */
static int espeak_rate;
static char espeak_loaded_voice[16];

static void espeak_start(struct voice *v)
{
	if (espeak_rate == 0)
		espeak_rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, VOICE_ESPEAK_BUFFER_MS,
						NULL, espeakINITIALIZE_DONT_EXIT);
	if (espeak_rate <= 0) {
		espeak_rate = -1;
		log_error(LOG_VOICE,
			  "eSpeak NG cannot start (data missing?): nothing will be heard");
		v->sample_rate = 22050;
		v->espeak_ok = false;
		return;
	}
	v->sample_rate = espeak_rate;
	v->espeak_ok = true;
	espeak_SetSynthCallback(synth_callback);
	/* Parameters are ours to set again for this voice. */
	espeak_loaded_voice[0] = '\0';
}

static bool espeak_use_voice(struct voice *v, const char *lang)
{
	if (strcmp(espeak_loaded_voice, lang) == 0)
		return true;
	if (espeak_SetVoiceByName(lang) != EE_OK) {
		log_warn(LOG_VOICE, "eSpeak NG has no voice \"%s\"", lang);
		if (strcmp(lang, "de") == 0 || espeak_SetVoiceByName("de") != EE_OK) {
			espeak_loaded_voice[0] = '\0';
			return false;
		}
		lang = "de";
	}
	/* A voice brings its own defaults; ours come after it. */
	espeak_SetParameter(espeakRATE, v->cfg.rate, 0);
	espeak_SetParameter(espeakPITCH, v->cfg.pitch, 0);
	espeak_SetParameter(espeakVOLUME, v->cfg.volume, 0);
	snprintf(espeak_loaded_voice, sizeof(espeak_loaded_voice), "%s", lang);
	return true;
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
	for (const char *p = it->text; *p && len + 2 < sizeof(line); p++)
		line[len++] = (*p == '\n' || *p == '\r') ? ' ' : *p;
	line[len++] = '\n';
	if (write(v->speech_log_fd, line, len) != (ssize_t)len)
		log_warn(LOG_VOICE, "speech.log: write failed: %s", strerror(errno));
}

static void switch_record(struct voice *v, int fd)
{
	wav_writer_close(&v->record);
	if (fd < 0)
		return;
	if (wav_writer_open_fd(&v->record, fd, (unsigned)v->sample_rate) != 0) {
		log_warn(LOG_VOICE, "record: cannot write: %s", strerror(errno));
		close(fd);
	}
}

static void speak(struct voice *v)
{
	struct item *it = &v->current;
	bool aborted;

	speech_log_write(v, it);
	v->current_to_sink = v->sink_ops->wants_audio;
	v->current_to_record = it->ch == VOICE_PUBLIC && v->record.fd >= 0;
	v->first_sample_seen = false;
	if (!v->espeak_ok || (!v->current_to_sink && !v->current_to_record) || !it->text[0])
		return;
	if (!espeak_use_voice(v, it->lang))
		return;
	if (v->current_to_sink)
		v->sink_ops->begin(v->sink, it->ch);
	espeak_Synth(it->text, strlen(it->text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL,
		     v);
	aborted = current_aborted(v);
	if (v->current_to_sink)
		v->sink_ops->end(v->sink, it->ch, aborted);
	if (v->current_to_record)
		wav_writer_commit(&v->record);
	if (aborted) {
		log_info(LOG_VOICE, "stopped (superseded by a move): %s \"%s\"",
			 channel_names[it->ch], it->text);
		pthread_mutex_lock(&v->lock);
		v->stats.aborted++;
		pthread_mutex_unlock(&v->lock);
	}
}

static void *voice_thread(void *arg)
{
	struct voice *v = arg;
	char err[200] = "";

	espeak_start(v);
	if (v->espeak_ok)
		espeak_use_voice(v, "de");
	v->sink_env.cfg = &v->cfg;
	v->sink_env.sample_rate = (unsigned)v->sample_rate;
	v->sink_env.should_abort = current_aborted;
	v->sink_env.abort_ctx = v;
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

		if (v->queued == 0 && v->espeak_ok && strcmp(espeak_loaded_voice, "de") != 0) {
			/* Idle: have the moves' voice ready, so the next move starts at once. */
			pthread_mutex_unlock(&v->lock);
			espeak_use_voice(v, "de");
			pthread_mutex_lock(&v->lock);
		}
		while (v->queued == 0 && !v->stopping)
			pthread_cond_wait(&v->work, &v->lock);
		if (v->queued == 0)
			break;
		slot = v->order[0];
		v->current = v->slots[slot];
		queue_remove_at(v, 0);
		v->busy = true;
		v->current_kind = v->current.kind;
		v->current_seq = v->current.seq;
		if (v->current.type == ITEM_UTTERANCE)
			v->stats.spoken++;
		pthread_mutex_unlock(&v->lock);

		if (v->current.type == ITEM_RECORD)
			switch_record(v, v->current.record_fd);
		else
			speak(v);

		pthread_mutex_lock(&v->lock);
		v->busy = false;
		if (v->queued == 0)
			pthread_cond_broadcast(&v->idle);
	}
	pthread_mutex_unlock(&v->lock);
	v->sink_ops->close(v->sink);
	v->sink = NULL;
out:
	wav_writer_close(&v->record);
	return NULL;
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
	v->record.fd = -1;
	snprintf(path, sizeof(path), "%s/speech.log", cfg->state_dir);
	v->speech_log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (v->speech_log_fd < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		goto fail;
	}
	for (int i = 0; i < QUEUE_SLOTS; i++)
		v->free_slots[i] = QUEUE_SLOTS - 1 - i;
	v->free_count = QUEUE_SLOTS;
	atomic_init(&v->abort_seq, 0);
	pthread_mutex_init(&v->lock, NULL);
	pthread_cond_init(&v->work, NULL);
	pthread_cond_init(&v->idle, NULL);
	if (pthread_create(&v->thread, NULL, voice_thread, v) != 0) {
		snprintf(err, err_size, "cannot start the voice thread");
		goto fail_thread;
	}
	/* Wait for the set-up (eSpeak NG, the German voice, the sink) to finish. */
	pthread_mutex_lock(&v->lock);
	while (!v->started)
		pthread_cond_wait(&v->idle, &v->lock);
	pthread_mutex_unlock(&v->lock);
	if (v->start_error[0]) {
		snprintf(err, err_size, "%s", v->start_error);
		pthread_join(v->thread, NULL);
		goto fail_thread;
	}
	return v;
fail_thread:
	pthread_cond_destroy(&v->idle);
	pthread_cond_destroy(&v->work);
	pthread_mutex_destroy(&v->lock);
	close(v->speech_log_fd);
fail:
	free(v);
	return NULL;
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
	close(v->speech_log_fd);
	pthread_cond_destroy(&v->idle);
	pthread_cond_destroy(&v->work);
	pthread_mutex_destroy(&v->lock);
	free(v);
}
