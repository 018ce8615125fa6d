/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ALSA sink: one PCM per channel (public speaker, private earphone).  The PCMs are used in
 * non-blocking mode so that a stalled device cannot hold the voice thread; a missing or
 * vanished device is logged and opened again later, and its samples are lost meanwhile
 * (speech.log, WAV files and the game record do not depend on it).
 */
#include <alsa/asoundlib.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "base/timeutil.h"
#include "voice/sink.h"

#define ALSA_RETRY_MS	   3000 /* how often a missing device is tried again */
#define ALSA_STALL_MS	   2000 /* a device that takes no samples for this long is given up */
#define ALSA_LATENCY_US	   100000
#define ALSA_CLOSE_WAIT_MS 2000

struct alsa_channel {
	snd_pcm_t *pcm;
	uint64_t next_retry_ms;
	bool reported; /* the device's absence has been logged */
};

struct voice_sink {
	const struct voice_sink_env *env;
	struct alsa_channel chan[VOICE_CHANNEL_COUNT];
};

static const char *const channel_names[VOICE_CHANNEL_COUNT] = {"public", "private"};

/* ALSA reports its own errors on stderr by default; keep them in our log at debug level. */
static void alsa_error_handler(const char *file, int line, const char *function, int err,
			       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void alsa_error_handler(const char *file, int line, const char *function, int err,
			       const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (LOG_LEVEL_DEBUG > log_levels[LOG_VOICE])
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_debug(LOG_VOICE, "alsa: %s:%d (%s): %s%s%s", file, line, function, msg, err ? ": " : "",
		  err ? snd_strerror(err) : "");
}

static void channel_lost(struct voice_sink *s, enum voice_channel ch, const char *what, int err)
{
	struct alsa_channel *c = &s->chan[ch];

	if (!c->reported)
		log_warn(LOG_VOICE, "alsa: %s device \"%s\": %s: %s; trying again every %d s",
			 channel_names[ch], s->env->cfg->device[ch], what, snd_strerror(err),
			 ALSA_RETRY_MS / 1000);
	c->reported = true;
	if (c->pcm != NULL) {
		snd_pcm_close(c->pcm);
		c->pcm = NULL;
	}
	c->next_retry_ms = monotonic_ms() + ALSA_RETRY_MS;
}

static void channel_try_open(struct voice_sink *s, enum voice_channel ch)
{
	struct alsa_channel *c = &s->chan[ch];
	const char *name = s->env->cfg->device[ch];
	int err;

	if (c->pcm != NULL || monotonic_ms() < c->next_retry_ms)
		return;
	err = snd_pcm_open(&c->pcm, name[0] ? name : "default", SND_PCM_STREAM_PLAYBACK,
			   SND_PCM_NONBLOCK);
	if (err < 0) {
		c->pcm = NULL;
		channel_lost(s, ch, "cannot open", err);
		return;
	}
	err = snd_pcm_set_params(c->pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1,
				 s->env->sample_rate, 1, ALSA_LATENCY_US);
	if (err < 0) {
		channel_lost(s, ch, "cannot set S16_LE mono", err);
		return;
	}
	if (c->reported)
		log_info(LOG_VOICE, "alsa: %s device \"%s\" is back", channel_names[ch], name);
	c->reported = false;
}

static struct voice_sink *alsa_open(const struct voice_sink_env *env, char *err, size_t err_size)
{
	struct voice_sink *s = calloc(1, sizeof(*s));

	if (s == NULL) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	snd_lib_error_set_handler(alsa_error_handler);
	s->env = env;
	for (int ch = 0; ch < VOICE_CHANNEL_COUNT; ch++)
		channel_try_open(s, (enum voice_channel)ch);
	return s;
}

/* Until the device has room for a period, at most ms; at once when the utterance is cut
 * short (its samples no longer matter). */
static void alsa_wait(struct voice_sink *s, snd_pcm_t *pcm, int ms)
{
	struct pollfd pfd[9];
	unsigned short revents;
	int n = snd_pcm_poll_descriptors_count(pcm);

	if (s->env->abort_fd < 0 || n <= 0 || n > 8 ||
	    snd_pcm_poll_descriptors(pcm, pfd, (unsigned)n) != n) {
		snd_pcm_wait(pcm, ms);
		return;
	}
	pfd[n] = (struct pollfd){.fd = s->env->abort_fd, .events = POLLIN};
	if (poll(pfd, (nfds_t)n + 1, ms) > 0)
		/* What the device's descriptors say (a plugin takes its wake-up here). */
		snd_pcm_poll_descriptors_revents(pcm, pfd, (unsigned)n, &revents);
}

static void alsa_begin(struct voice_sink *s, enum voice_channel ch)
{
	channel_try_open(s, ch);
}

static int alsa_write(struct voice_sink *s, enum voice_channel ch, const int16_t *samples, size_t n)
{
	struct alsa_channel *c = &s->chan[ch];
	uint64_t last_progress = 0;

	while (n > 0) {
		snd_pcm_sframes_t k;

		if (c->pcm == NULL)
			return -1;
		k = snd_pcm_writei(c->pcm, samples, n);
		if (k > 0) {
			samples += k;
			n -= (size_t)k;
			last_progress = 0;
			continue;
		}
		if (k == -EAGAIN || k == 0) {
			uint64_t t = monotonic_ms();

			if (s->env->should_abort(s->env->abort_ctx))
				return 0;
			if (last_progress == 0) {
				last_progress = t;
			} else if (t - last_progress > ALSA_STALL_MS) {
				channel_lost(s, ch, "stalled", -ETIMEDOUT);
				return -1;
			}
			alsa_wait(s, c->pcm, 50);
			continue;
		}
		if (k == -EPIPE || k == -ESTRPIPE || k == -EINTR) {
			/* Underrun between utterances, or suspend: start again. */
			int err = snd_pcm_recover(c->pcm, (int)k, 1);

			if (err < 0) {
				channel_lost(s, ch, "cannot recover", err);
				return -1;
			}
			continue;
		}
		channel_lost(s, ch, "write failed", (int)k);
		return -1;
	}
	return 0;
}

static void alsa_end(struct voice_sink *s, enum voice_channel ch, bool aborted)
{
	struct alsa_channel *c = &s->chan[ch];

	if (!aborted || c->pcm == NULL)
		return;
	/* Stop what the device still holds of the stale utterance at once. */
	snd_pcm_drop(c->pcm);
	snd_pcm_prepare(c->pcm);
}

static void alsa_close(struct voice_sink *s)
{
	for (int ch = 0; ch < VOICE_CHANNEL_COUNT; ch++) {
		struct alsa_channel *c = &s->chan[ch];
		uint64_t deadline = monotonic_ms() + ALSA_CLOSE_WAIT_MS;

		if (c->pcm == NULL)
			continue;
		/* Let the last announcement play out, but never wait long for a device. */
		for (;;) {
			snd_pcm_sframes_t delay = 0;
			struct timespec ts = {0, 10 * 1000000L};

			if (snd_pcm_state(c->pcm) != SND_PCM_STATE_RUNNING ||
			    snd_pcm_delay(c->pcm, &delay) < 0 || delay <= 0 ||
			    monotonic_ms() > deadline)
				break;
			nanosleep(&ts, NULL);
		}
		snd_pcm_close(c->pcm);
		c->pcm = NULL;
	}
	free(s);
}

const struct voice_sink_ops voice_sink_alsa_ops = {
    .name = "alsa",
    .wants_audio = true,
    .open = alsa_open,
    .begin = alsa_begin,
    .write = alsa_write,
    .end = alsa_end,
    .close = alsa_close,
};
