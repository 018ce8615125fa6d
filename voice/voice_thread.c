/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The voice thread (voice.c says how it works; docs/speech.md "When one announcement meets
 * another"): its loop takes the queue's items one after another, says an utterance segment
 * by segment (voice_synth.c) and passes its samples on to the sink and the game's record,
 * the joints' silence between segments cut; when an utterance has been heard is reported to
 * the loop.
 */
#include "voice/voice_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/timeutil.h"
#include "base/trace.h"

bool voice_current_aborted(void *ctx)
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

		trace_at(0, "first-sample", "%s %s utterance=%llu",
			 voice_channel_names[v->current.ch], voice_trace_kinds[v->current.kind],
			 (unsigned long long)v->current.seq);
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

void voice_resampled(void *ctx, const int16_t *samples, size_t n)
{
	joint_filter(ctx, samples, n);
}

/* A chunk of the segment's voice: its gain, its rate made the output's, its joints cut. */
void voice_seg_chunk(struct voice *v, const short *wav, size_t n)
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
			resampler_push(&v->resampler, part, k, voice_resampled, v);
		else
			joint_filter(v, part, k);
		wav += k;
		n -= k;
	}
}

/* Say the current utterance; whether it was cut short. */
static bool speak(struct voice *v)
{
	struct item *it = &v->current;
	bool aborted = false;

	voice_speech_log_write(v, it);
	/* A cut of the utterance before is no cut of this one. */
	if (v->cut_fd >= 0 && read(v->cut_fd, &(uint64_t){0}, sizeof(uint64_t)) < 0 &&
	    errno != EAGAIN)
		log_warn(LOG_VOICE, "cut: %s", strerror(errno));
	v->current_to_sink = v->sink_ops->wants_audio;
	v->current_to_record = it->ch == VOICE_PUBLIC && voice_record_ready(v);
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
		voice_say_segment(v, lang, i);
		aborted = voice_current_aborted(v);
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
			 voice_kind_names[it->kind], voice_channel_names[it->ch], it->u.text);
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

/* The next item made the current one (under lock), the new voice parameters taken first. */
static void take_next(struct voice *v)
{
	int slot;

	if (v->params_changed) {
		memcpy(v->cfg.params, v->new_params, sizeof(v->cfg.params));
		v->params_changed = false;
		voice_synth_params_taken(v);
	}
	slot = v->order[0];
	v->current = v->slots[slot];
	voice_queue_remove_at(v, 0);
	v->busy = true;
	v->current_kind = v->current.kind;
	v->current_seq = v->current.seq;
	if (v->current.type == ITEM_UTTERANCE) {
		v->stats.spoken++;
		/* A newer utterance waiting behind it would have cut it: begun (a move is
		 * never dropped) and cut at once. */
		if (voice_stale_behind(v, &v->current))
			atomic_store(&v->abort_seq, v->current_seq);
	}
}

/* The current item done (without the lock): the record switched, or the utterance said and
 * reported. */
static void do_current(struct voice *v)
{
	if (v->current.type == ITEM_RECORD) {
		voice_record_switch(v, v->current.record_fd, v->current.record_path,
				    v->current.record_opus);
	} else {
		uint64_t heard = heard_at(v, speak(v));

		pthread_mutex_lock(&v->lock);
		voice_said_post(v, v->current.token, heard);
		pthread_mutex_unlock(&v->lock);
	}
}

/* The items, one after another until the voice stops with none left; called and returning
 * with the lock held. */
static void serve(struct voice *v)
{
	for (;;) {
		if (v->queued == 0 && v->espeak_ok && !voice_moves_voice_loaded(v)) {
			/* Idle: have the moves' voice ready, so the next move starts at once. */
			pthread_mutex_unlock(&v->lock);
			voice_espeak_use(v, PHRASE_DE, VOICE_PUBLIC, 100);
			pthread_mutex_lock(&v->lock);
		}
		while (v->queued == 0 && !v->stopping)
			pthread_cond_wait(&v->work, &v->lock);
		if (v->queued == 0)
			break;
		take_next(v);
		pthread_mutex_unlock(&v->lock);

		do_current(v);

		pthread_mutex_lock(&v->lock);
		v->busy = false;
		if (v->queued == 0)
			pthread_cond_broadcast(&v->idle);
	}
}

void *voice_thread_main(void *arg)
{
	struct voice *v = arg;
	char err[200] = "";

	voice_synth_setup(v);
	v->sink_env.cfg = &v->cfg;
	v->sink_env.sample_rate = (unsigned)v->sample_rate;
	v->sink_env.should_abort = voice_current_aborted;
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
	serve(v);
	pthread_mutex_unlock(&v->lock);
	v->sink_ops->close(v->sink);
	v->sink = NULL;
out:
	for (int l = 0; l < PHRASE_LANG_COUNT; l++)
		voice_worker_stop(&v->workers[l]);
	audio_record_close(&v->record);
	voice_log_end(v);
	return NULL;
}
