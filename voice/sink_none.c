/* SPDX-License-Identifier: GPL-3.0-or-later */
/* No audio: nothing is synthesized unless a game record is being kept. */
#include <stdlib.h>

#include "voice/sink.h"

struct voice_sink {
	int unused;
};

static struct voice_sink *none_open(const struct voice_sink_env *env, char *err, size_t err_size)
{
	static struct voice_sink the_none_sink;

	(void)env;
	(void)err;
	(void)err_size;
	return &the_none_sink;
}

static void none_begin(struct voice_sink *s, enum voice_channel ch)
{
	(void)s;
	(void)ch;
}

static int none_write(struct voice_sink *s, enum voice_channel ch, const int16_t *samples, size_t n)
{
	(void)s;
	(void)ch;
	(void)samples;
	(void)n;
	return 0;
}

static void none_end(struct voice_sink *s, enum voice_channel ch, bool aborted)
{
	(void)s;
	(void)ch;
	(void)aborted;
}

static void none_close(struct voice_sink *s)
{
	(void)s;
}

const struct voice_sink_ops voice_sink_none_ops = {
    .name = "none",
    .wants_audio = false,
    .open = none_open,
    .begin = none_begin,
    .write = none_write,
    .end = none_end,
    .close = none_close,
};
