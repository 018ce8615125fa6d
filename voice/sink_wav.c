/* SPDX-License-Identifier: GPL-3.0-or-later */
/* WAV sink: state_dir/audio/public.wav and private.wav, every utterance appended in order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/log.h"
#include "voice/sink.h"
#include "voice/wav.h"

struct voice_sink {
	struct wav_writer file[VOICE_CHANNEL_COUNT];
};

static const char *const channel_file[VOICE_CHANNEL_COUNT] = {"public.wav", "private.wav"};

static struct voice_sink *wav_open(const struct voice_sink_env *env, char *err, size_t err_size)
{
	struct voice_sink *s = calloc(1, sizeof(*s));
	char path[512];
	int ch;

	if (s == NULL) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/audio", env->cfg->state_dir);
	if (mkdir(path, 0750) != 0 && errno != EEXIST) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		goto fail;
	}
	for (ch = 0; ch < VOICE_CHANNEL_COUNT; ch++) {
		snprintf(path, sizeof(path), "%s/audio/%s", env->cfg->state_dir, channel_file[ch]);
		if (wav_writer_open(&s->file[ch], path, env->sample_rate) != 0) {
			snprintf(err, err_size, "%s: %s", path, strerror(errno));
			goto fail_files;
		}
	}
	return s;
fail_files:
	while (--ch >= 0)
		wav_writer_close(&s->file[ch]);
fail:
	free(s);
	return NULL;
}

static void wav_begin(struct voice_sink *s, enum voice_channel ch)
{
	(void)s;
	(void)ch;
}

static int wav_write(struct voice_sink *s, enum voice_channel ch, const int16_t *samples, size_t n)
{
	return wav_writer_write(&s->file[ch], samples, n);
}

static void wav_end(struct voice_sink *s, enum voice_channel ch, bool aborted)
{
	(void)aborted;
	if (wav_writer_commit(&s->file[ch]) != 0)
		log_warn(LOG_VOICE, "wav: cannot update the header of %s", channel_file[ch]);
}

static void wav_close(struct voice_sink *s)
{
	for (int ch = 0; ch < VOICE_CHANNEL_COUNT; ch++)
		wav_writer_close(&s->file[ch]);
	free(s);
}

const struct voice_sink_ops voice_sink_wav_ops = {
    .name = "wav",
    .wants_audio = true,
    .open = wav_open,
    .begin = wav_begin,
    .write = wav_write,
    .end = wav_end,
    .close = wav_close,
};
