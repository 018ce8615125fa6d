/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A sound card for the benchmarks, as an ALSA plugin (libasound_module_pcm_paced.so, an
 * "ioplug"): it plays what it is given in real time and throws it away.  The daemon's ALSA
 * sink meets it as it meets a card: its non-blocking writes are refused (EAGAIN) while the
 * buffer is full, snd_pcm_wait() wakes at each period, snd_pcm_drop() throws away what the
 * buffer holds, and the stream runs dry (an underrun) when nothing more comes.  ALSA's
 * `null` device, which takes any amount at once, hides that an announcement queued behind
 * another is heard only when the one before has played.
 *
 * A configuration file (ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:FILE) makes it a device:
 *
 *     pcm_type.paced { lib "BUILD/bench/libasound_module_pcm_paced.so" }
 *     pcm.speaker { type paced log "DIR/speaker.card" }
 *
 * `log`, if given, gets "NS start" and "NS stop" lines (CLOCK_MONOTONIC, the timing trace's
 * clock, base/trace.h): when sound began to play and when it stopped (played out, dropped or
 * run dry), so a benchmark can tell when an announcement was heard to its end.
 */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

struct paced {
	snd_pcm_ioplug_t io;
	int timer;		  /* a timerfd ticking at each period while the stream runs */
	FILE *log;		  /* "NS start|stop" lines, or NULL */
	uint64_t t0;		  /* when the stream started (ns) */
	snd_pcm_uframes_t played; /* frames played since (the hardware pointer, unwrapped) */
	snd_pcm_uframes_t written;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void note(struct paced *p, uint64_t ns, const char *what)
{
	if (p->log) {
		fprintf(p->log, "%llu %s\n", (unsigned long long)ns, what);
		fflush(p->log);
	}
}

static void arm(struct paced *p, bool on)
{
	uint64_t period_ns = (uint64_t)p->io.period_size * 1000000000u / p->io.rate;
	struct itimerspec it = {{0, 0}, {0, 0}};

	if (on) {
		it.it_interval.tv_sec = (time_t)(period_ns / 1000000000u);
		it.it_interval.tv_nsec = (long)(period_ns % 1000000000u);
		it.it_value = it.it_interval;
	}
	timerfd_settime(p->timer, 0, &it, NULL);
}

/* What has played by now: never more than was written (then it has run dry). */
static void advance(struct paced *p)
{
	uint64_t due;

	if (p->io.state != SND_PCM_STATE_RUNNING && p->io.state != SND_PCM_STATE_DRAINING)
		return;
	due = (now_ns() - p->t0) * p->io.rate / 1000000000u;
	p->played = due < p->written ? (snd_pcm_uframes_t)due : p->written;
}

static int paced_start(snd_pcm_ioplug_t *io)
{
	struct paced *p = io->private_data;

	p->t0 = now_ns();
	p->played = 0;
	note(p, p->t0, "start");
	arm(p, true);
	return 0;
}

static int paced_stop(snd_pcm_ioplug_t *io)
{
	struct paced *p = io->private_data;

	arm(p, false);
	advance(p);
	note(p, now_ns(), "stop");
	return 0;
}

static snd_pcm_sframes_t paced_pointer(snd_pcm_ioplug_t *io)
{
	struct paced *p = io->private_data;

	advance(p);
	/* Played out all it was given while running: an underrun, as a card's (drained: the
	 * end). */
	if (io->state == SND_PCM_STATE_RUNNING && p->played >= p->written && p->written) {
		arm(p, false);
		note(p, p->t0 + (uint64_t)p->written * 1000000000u / io->rate, "stop");
		return -EPIPE;
	}
	return (snd_pcm_sframes_t)(p->played % io->buffer_size);
}

static snd_pcm_sframes_t paced_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
					snd_pcm_uframes_t offset, snd_pcm_uframes_t size)
{
	struct paced *p = io->private_data;

	(void)areas;
	(void)offset;
	p->written += size;
	return (snd_pcm_sframes_t)size;
}

static int paced_prepare(snd_pcm_ioplug_t *io)
{
	struct paced *p = io->private_data;

	arm(p, false);
	p->played = p->written = 0;
	return 0;
}

static int paced_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int nfds,
			      unsigned short *revents)
{
	struct paced *p = io->private_data;
	uint64_t ticks;

	(void)nfds;
	if (pfd[0].revents & POLLIN) {
		ssize_t n = read(p->timer, &ticks, sizeof(ticks));

		(void)n;
	}
	/* Room for a period (the plugin's lock is held: no snd_pcm_* call here). */
	advance(p);
	*revents = io->state != SND_PCM_STATE_RUNNING ||
			   io->buffer_size - (p->written - p->played) >= io->period_size
		       ? POLLOUT
		       : 0;
	return 0;
}

static int paced_close(snd_pcm_ioplug_t *io)
{
	struct paced *p = io->private_data;

	if (io->state == SND_PCM_STATE_RUNNING || io->state == SND_PCM_STATE_DRAINING)
		note(p, now_ns(), "stop");
	close(p->timer);
	if (p->log)
		fclose(p->log);
	free(p);
	return 0;
}

static const snd_pcm_ioplug_callback_t paced_callback = {
    .start = paced_start,
    .stop = paced_stop,
    .pointer = paced_pointer,
    .transfer = paced_transfer,
    .prepare = paced_prepare,
    .poll_revents = paced_poll_revents,
    .close = paced_close,
};

static int constrain(snd_pcm_ioplug_t *io)
{
	static const unsigned int access[] = {SND_PCM_ACCESS_RW_INTERLEAVED};
	static const unsigned int formats[] = {SND_PCM_FORMAT_S16_LE};
	int err;

	if ((err = snd_pcm_ioplug_set_param_list(io, SND_PCM_IOPLUG_HW_ACCESS, 1, access)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_list(io, SND_PCM_IOPLUG_HW_FORMAT, 1, formats)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 2)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(io, SND_PCM_IOPLUG_HW_RATE, 8000, 48000)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 256,
						   64 * 1024)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(io, SND_PCM_IOPLUG_HW_PERIODS, 2, 64)) < 0)
		return err;
	return 0;
}

SND_PCM_PLUGIN_DEFINE_FUNC(paced)
{
	snd_config_iterator_t i, next;
	const char *log = NULL;
	struct paced *p;
	int err;

	(void)root;
	snd_config_for_each(i, next, conf)
	{
		snd_config_t *n = snd_config_iterator_entry(i);
		const char *id;

		if (snd_config_get_id(n, &id) < 0)
			continue;
		if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint"))
			continue;
		if (!strcmp(id, "log") && snd_config_get_string(n, &log) >= 0)
			continue;
		SNDERR("paced: unknown field %s", id);
		return -EINVAL;
	}
	if (stream != SND_PCM_STREAM_PLAYBACK)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (p->timer < 0 || (log && !(p->log = fopen(log, "a")))) {
		err = -errno;
		if (p->timer >= 0)
			close(p->timer);
		free(p);
		return err;
	}
	p->io.version = SND_PCM_IOPLUG_VERSION;
	p->io.name = "annabella's paced card";
	p->io.callback = &paced_callback;
	p->io.private_data = p;
	p->io.poll_fd = p->timer;
	p->io.poll_events = POLLIN;
	p->io.mmap_rw = 0;
	err = snd_pcm_ioplug_create(&p->io, name, stream, mode);
	if (err < 0) {
		close(p->timer);
		if (p->log)
			fclose(p->log);
		free(p);
		return err;
	}
	err = constrain(&p->io);
	if (err < 0) {
		snd_pcm_ioplug_delete(&p->io);
		return err;
	}
	*pcmp = p->io.pcm;
	return 0;
}

SND_PCM_PLUGIN_SYMBOL(paced);
