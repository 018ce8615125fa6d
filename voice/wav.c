/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "voice/wav.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"

static void put_le16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v & 0xff);
	p[1] = (uint8_t)(v >> 8 & 0xff);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i) & 0xff);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned get_le16(const uint8_t *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

int wav_parse_header(const uint8_t *buf, size_t len, struct wav_info *info)
{
	size_t pos = 12;
	bool have_fmt = false;

	memset(info, 0, sizeof(*info));
	if (len < 12 || memcmp(buf, "RIFF", 4) != 0 || memcmp(buf + 8, "WAVE", 4) != 0)
		return -1;
	while (pos + 8 <= len) {
		const uint8_t *chunk = buf + pos;
		uint32_t size = get_le32(chunk + 4);

		if (memcmp(chunk, "fmt ", 4) == 0) {
			if (size < 16 || pos + 8 + 16 > len || get_le16(chunk + 8) != 1)
				return -1;
			info->channels = get_le16(chunk + 10);
			info->sample_rate = get_le32(chunk + 12);
			info->bits = get_le16(chunk + 22);
			have_fmt = true;
		} else if (memcmp(chunk, "data", 4) == 0) {
			if (!have_fmt)
				return -1;
			info->data_bytes = size;
			info->data_offset = (uint32_t)(pos + 8);
			return 0;
		}
		/* A chunk to skip must lie within buf: on a 32-bit size_t a huge size would wrap.
		 */
		if ((size_t)size > len - pos - 8)
			return -1;
		pos += 8 + (size_t)size + (size & 1);
	}
	return -1;
}

static void make_header(uint8_t h[WAV_HEADER_SIZE], unsigned rate, uint64_t data_bytes)
{
	uint32_t data = data_bytes > 0xffffffffu - 36 ? 0xffffffffu - 36 : (uint32_t)data_bytes;

	memcpy(h, "RIFF", 4);
	put_le32(h + 4, 36 + data);
	memcpy(h + 8, "WAVEfmt ", 8);
	put_le32(h + 16, 16);
	put_le16(h + 20, 1); /* PCM */
	put_le16(h + 22, 1); /* mono */
	put_le32(h + 24, rate);
	put_le32(h + 28, rate * 2);
	put_le16(h + 32, 2);
	put_le16(h + 34, 16);
	memcpy(h + 36, "data", 4);
	put_le32(h + 40, data);
}

int voice_write_all(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;

	while (n > 0) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k == 0)
			errno = EIO; /* a write of nothing says nothing of its own */
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int wav_writer_open_fd(struct wav_writer *w, int fd, unsigned sample_rate)
{
	uint8_t h[WAV_HEADER_SIZE];
	struct stat st;
	struct wav_info info;

	w->fd = fd;
	w->sample_rate = sample_rate;
	w->data_bytes = 0;
	w->failed = false;
	if (fstat(fd, &st) != 0)
		goto fail;
	/* Continue a file we wrote before (a restarted daemon adds to it). */
	if (st.st_size >= WAV_HEADER_SIZE && pread(fd, h, sizeof(h), 0) == (ssize_t)sizeof(h) &&
	    wav_parse_header(h, sizeof(h), &info) == 0 && info.data_offset == WAV_HEADER_SIZE &&
	    info.channels == 1 && info.bits == 16 && info.sample_rate == sample_rate) {
		/* Samples past the header's count (a crash mid-utterance) are kept. */
		w->data_bytes = ((uint64_t)st.st_size - WAV_HEADER_SIZE) & ~(uint64_t)1;
		if (ftruncate(fd, (off_t)(WAV_HEADER_SIZE + w->data_bytes)) != 0 ||
		    lseek(fd, 0, SEEK_END) < 0 || wav_writer_commit(w) != 0)
			goto fail;
		return 0;
	}
	if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
		goto fail;
	make_header(h, sample_rate, 0);
	if (voice_write_all(fd, h, sizeof(h)) != 0)
		goto fail;
	return 0;
fail:
	w->fd = -1;
	return -1;
}

int wav_writer_open(struct wav_writer *w, const char *path, unsigned sample_rate)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640);

	if (fd < 0) {
		w->fd = -1;
		return -1;
	}
	if (wav_writer_open_fd(w, fd, sample_rate) != 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return 0;
}

int wav_writer_write(struct wav_writer *w, const int16_t *samples, size_t n)
{
	uint8_t buf[1024];

	if (w->fd < 0 || w->failed)
		return -1;
	while (n > 0) {
		size_t k = n < sizeof(buf) / 2 ? n : sizeof(buf) / 2;

		for (size_t i = 0; i < k; i++)
			put_le16(buf + 2 * i, (uint16_t)samples[i]);
		if (voice_write_all(w->fd, buf, 2 * k) != 0) {
			log_warn(LOG_VOICE, "wav: write failed: %s", strerror(errno));
			w->failed = true;
			return -1;
		}
		w->data_bytes += 2 * k;
		samples += k;
		n -= k;
	}
	return 0;
}

int wav_writer_resume(struct wav_writer *w)
{
	if (w->fd < 0)
		return -1;
	if (!w->failed)
		return 0;
	/* A write cut short left part of a chunk the count does not hold: it goes. */
	if (ftruncate(w->fd, (off_t)(WAV_HEADER_SIZE + w->data_bytes)) != 0 ||
	    lseek(w->fd, 0, SEEK_END) < 0 || wav_writer_commit(w) != 0)
		return -1;
	w->failed = false;
	return 0;
}

int wav_writer_commit(struct wav_writer *w)
{
	uint8_t h[WAV_HEADER_SIZE];

	if (w->fd < 0)
		return -1;
	make_header(h, w->sample_rate, w->data_bytes);
	if (pwrite(w->fd, h + 4, 4, 4) != 4 || pwrite(w->fd, h + 40, 4, 40) != 4)
		return -1;
	return 0;
}

void wav_writer_close(struct wav_writer *w)
{
	if (w->fd < 0)
		return;
	wav_writer_commit(w);
	close(w->fd);
	w->fd = -1;
}
