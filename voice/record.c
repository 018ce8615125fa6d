/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "voice/record.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

bool audio_record_is_opus(const char *path)
{
	size_t n = strlen(path);

	return n >= 5 && !strcmp(path + n - 5, ".opus");
}

void audio_record_init(struct audio_record *r)
{
	memset(r, 0, sizeof(*r));
	r->wav.fd = -1;
}

int audio_record_open_fd(struct audio_record *r, int fd, const char *path, unsigned rate)
{
	int e;

	audio_record_init(r);
	if (audio_record_is_opus(path)) {
		r->opus = ogg_opus_open_fd(fd, rate);
		if (r->opus)
			return 0;
	} else if (wav_writer_open_fd(&r->wav, fd, rate) == 0) {
		return 0;
	}
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

int audio_record_open(struct audio_record *r, const char *path, unsigned rate)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640);

	if (fd < 0) {
		audio_record_init(r);
		return -1;
	}
	return audio_record_open_fd(r, fd, path, rate);
}

bool audio_record_is_open(const struct audio_record *r)
{
	return r->opus || r->wav.fd >= 0;
}

bool audio_record_failed(const struct audio_record *r)
{
	return r->opus ? ogg_opus_failed(r->opus) : r->wav.failed;
}

int audio_record_write(struct audio_record *r, const int16_t *samples, size_t n)
{
	return r->opus ? ogg_opus_write(r->opus, samples, n)
		       : wav_writer_write(&r->wav, samples, n);
}

int audio_record_commit(struct audio_record *r)
{
	return r->opus ? ogg_opus_commit(r->opus) : wav_writer_commit(&r->wav);
}

int audio_record_resume(struct audio_record *r)
{
	return r->opus ? ogg_opus_resume(r->opus) : wav_writer_resume(&r->wav);
}

void audio_record_close(struct audio_record *r)
{
	if (r->opus)
		ogg_opus_close(r->opus);
	else
		wav_writer_close(&r->wav);
	audio_record_init(r);
}
