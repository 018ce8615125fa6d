/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "voice/oggopus.h"

#include <errno.h>
#include <ogg/ogg.h>
#include <opus/opus.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/log.h"
#include "voice/resample.h"
#include "voice/wav.h"

#define FRAME_48K  960 /* 20 ms */
#define FRAME_MAX  960 /* samples of a 20 ms frame at 48 kHz, the highest rate */
#define PACKET_MAX 1500
#define READ_CHUNK 4096

static unsigned le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* More of the file given to the sync: 1 read (or interrupted: read again), 0 its end, -1 an
 * error. */
static int read_more(ogg_sync_state *oy, int fd, off_t *readpos)
{
	char *buf = ogg_sync_buffer(oy, READ_CHUNK);
	ssize_t k = buf ? pread(fd, buf, READ_CHUNK, *readpos) : -1;

	if (k < 0 && errno == EINTR)
		return 1;
	if (k <= 0)
		return k < 0 ? -1 : 0;
	ogg_sync_wrote(oy, (long)k);
	*readpos += k;
	return 1;
}

/* A link's end: its length (past its pre-skip) added to the file's. */
static void link_end(struct ogg_opus_info *info, ogg_stream_state *os)
{
	if (info->granule > (int64_t)info->pre_skip)
		info->duration48 += (uint64_t)(info->granule - (int64_t)info->pre_skip);
	ogg_stream_clear(os);
}

int ogg_opus_scan(int fd, struct ogg_opus_info *info,
		  void (*packet)(void *ctx, const unsigned char *data, long len, long serial),
		  void *ctx)
{
	ogg_sync_state oy;
	ogg_stream_state os;
	bool stream = false, first_packet = false;
	off_t readpos = 0;
	int rc = 0;

	memset(info, 0, sizeof(*info));
	info->opus = true;
	ogg_sync_init(&oy);
	for (;;) {
		ogg_page og;
		ogg_packet op;
		long n = ogg_sync_pageseek(&oy, &og);

		if (n == 0) {
			int more = read_more(&oy, fd, &readpos);

			if (more < 0)
				rc = -1;
			if (more <= 0)
				break;
			continue;
		}
		if (n < 0)
			break; /* not a page: the whole pages end here */
		if (ogg_page_bos(&og)) {
			if (stream)
				link_end(info, &os);
			ogg_stream_init(&os, ogg_page_serialno(&og));
			stream = true;
			first_packet = true;
			info->links++;
			info->serial = ogg_page_serialno(&og);
			info->granule = 0;
			info->channels = 0;
			info->pre_skip = 0;
		} else if (!stream || ogg_page_serialno(&og) != info->serial) {
			break; /* a page of no stream begun here: not ours */
		}
		ogg_stream_pagein(&os, &og);
		while (ogg_stream_packetout(&os, &op) == 1) {
			if (first_packet) {
				first_packet = false;
				if (op.bytes >= 19 && !memcmp(op.packet, "OpusHead", 8)) {
					info->channels = op.packet[9];
					info->pre_skip = le16(op.packet + 10);
				} else {
					info->opus = false;
				}
			}
			if (packet)
				packet(ctx, op.packet, op.bytes, info->serial);
		}
		info->valid_end += n;
		info->pages++;
		info->last_pageno = ogg_page_pageno(&og);
		info->eos = ogg_page_eos(&og);
		if (ogg_page_granulepos(&og) >= 0)
			info->granule = ogg_page_granulepos(&og);
	}
	if (stream)
		link_end(info, &os);
	if (!info->links)
		info->opus = false;
	ogg_sync_clear(&oy);
	return rc;
}

struct ogg_opus_writer {
	int fd;
	bool failed;
	OpusEncoder *enc;
	unsigned enc_rate;
	bool resample;
	struct resampler rs;
	ogg_stream_state os;
	int64_t granule;
	ogg_int64_t packetno;
	int16_t frame[FRAME_MAX];
	size_t have, frame_size;
	bool dirty; /* samples since the last commit */
	off_t size; /* bytes of whole pages on disk */
	/* Pages not yet on disk (a write failed): written again by ogg_opus_resume(). */
	unsigned char *pending;
	size_t pending_len, pending_cap;
};

/* What is pending to disk; on failure it stays pending (and later audio is dropped). */
static int flush_pending(struct ogg_opus_writer *w)
{
	if (w->pending_len == 0)
		return 0;
	if (voice_write_all(w->fd, w->pending, w->pending_len)) {
		if (!w->failed)
			log_warn(LOG_VOICE, "record: write failed: %s", strerror(errno));
		w->failed = true;
		return -1;
	}
	w->size += (off_t)w->pending_len;
	w->pending_len = 0;
	return 0;
}

static int queue_page(struct ogg_opus_writer *w, const ogg_page *og)
{
	size_t need = w->pending_len + (size_t)og->header_len + (size_t)og->body_len;

	if (need > w->pending_cap) {
		unsigned char *more = realloc(w->pending, need);

		if (!more)
			return -1;
		w->pending = more;
		w->pending_cap = need;
	}
	memcpy(w->pending + w->pending_len, og->header, (size_t)og->header_len);
	memcpy(w->pending + w->pending_len + og->header_len, og->body, (size_t)og->body_len);
	w->pending_len = need;
	return 0;
}

/* Pages complete so far (every packet when flush), to disk. */
static int put_pages(struct ogg_opus_writer *w, bool flush)
{
	ogg_page og;

	while (flush ? ogg_stream_flush(&w->os, &og) : ogg_stream_pageout(&w->os, &og))
		if (queue_page(w, &og))
			return -1;
	return flush_pending(w);
}

static int put_packet(struct ogg_opus_writer *w, unsigned char *data, long len, bool bos)
{
	ogg_packet op = {.packet = data,
			 .bytes = len,
			 .b_o_s = bos,
			 .granulepos = w->granule,
			 .packetno = w->packetno++};

	return ogg_stream_packetin(&w->os, &op);
}

static int encode_frame(struct ogg_opus_writer *w)
{
	unsigned char pkt[PACKET_MAX];
	opus_int32 len = opus_encode(w->enc, w->frame, (int)w->frame_size, pkt, sizeof(pkt));

	w->have = 0;
	if (len < 0)
		return -1;
	w->granule += FRAME_48K;
	if (put_packet(w, pkt, len, false))
		return -1;
	return put_pages(w, false);
}

static void frame_in(void *ctx, const int16_t *s, size_t n)
{
	struct ogg_opus_writer *w = ctx;

	while (n > 0 && !w->failed) {
		size_t k = w->frame_size - w->have < n ? w->frame_size - w->have : n;

		memcpy(w->frame + w->have, s, k * sizeof(*s));
		w->have += k;
		s += k;
		n -= k;
		if (w->have == w->frame_size && encode_frame(w))
			w->failed = true;
	}
}

static int begin_stream(struct ogg_opus_writer *w, long avoid_serial, unsigned rate)
{
	unsigned char head[19] = "OpusHead", tags[8 + 4 + 9 + 4] = "OpusTags";
	opus_int32 lookahead = 0;
	uint32_t serial = 0;
	unsigned pre_skip;

	do {
		if (getrandom(&serial, sizeof(serial), 0) != sizeof(serial))
			serial = (uint32_t)getpid();
	} while ((long)(serial & 0x7fffffff) == avoid_serial);
	ogg_stream_init(&w->os, (int)(serial & 0x7fffffff));
	opus_encoder_ctl(w->enc, OPUS_GET_LOOKAHEAD(&lookahead));
	pre_skip = (unsigned)lookahead * (48000 / w->enc_rate);
	head[8] = 1; /* version */
	head[9] = 1; /* mono */
	head[10] = (unsigned char)(pre_skip & 0xff);
	head[11] = (unsigned char)(pre_skip >> 8);
	for (int i = 0; i < 4; i++)
		head[12 + i] = (unsigned char)(rate >> (8 * i));
	/* output gain 0, channel mapping family 0 */
	tags[8] = 9; /* vendor string's length, then no comments */
	memcpy(tags + 12, "annabella", 9);
	w->granule = 0;
	if (put_packet(w, head, sizeof(head), true) || put_pages(w, true))
		return -1;
	if (put_packet(w, tags, sizeof(tags), false) || put_pages(w, true))
		return -1;
	return 0;
}

struct ogg_opus_writer *ogg_opus_open_fd(int fd, unsigned rate)
{
	struct ogg_opus_writer *w = calloc(1, sizeof(*w));
	struct ogg_opus_info info;
	int err;

	if (!w)
		return NULL;
	w->fd = fd;
	w->enc_rate =
	    rate == 8000 || rate == 12000 || rate == 16000 || rate == 24000 || rate == 48000 ? rate
	    : rate > 16000								     ? 24000
			   : 16000;
	w->frame_size = w->enc_rate / 50;
	w->resample = w->enc_rate != rate;
	if (w->resample)
		resampler_init(&w->rs, rate, w->enc_rate);
	w->enc = opus_encoder_create((opus_int32)w->enc_rate, 1, OPUS_APPLICATION_VOIP, &err);
	if (!w->enc || ogg_opus_scan(fd, &info, NULL, NULL) || ftruncate(fd, info.valid_end) ||
	    lseek(fd, 0, SEEK_END) != info.valid_end)
		goto fail;
	opus_encoder_ctl(w->enc, OPUS_SET_BITRATE(OGG_OPUS_BITRATE));
	opus_encoder_ctl(w->enc, OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE));
	opus_encoder_ctl(w->enc, OPUS_SET_COMPLEXITY(5));
	w->size = info.valid_end;
	if (info.pages && info.opus && !info.eos && info.channels == 1) {
		/* Carry the stream on: its next page, its granule position. */
		ogg_stream_init(&w->os, (int)info.serial);
		w->os.pageno = info.last_pageno + 1;
		w->os.b_o_s = 1;
		w->granule = info.granule;
		w->packetno = 2;
	} else if (begin_stream(w, info.pages ? info.serial : -1, rate)) {
		ogg_stream_clear(&w->os);
		goto fail;
	}
	return w;
fail:
	err = errno;
	if (w->enc)
		opus_encoder_destroy(w->enc);
	free(w->pending);
	free(w);
	errno = err ? err : EIO;
	return NULL;
}

int ogg_opus_write(struct ogg_opus_writer *w, const int16_t *samples, size_t n)
{
	if (w->failed)
		return -1;
	if (n)
		w->dirty = true;
	if (w->resample)
		resampler_push(&w->rs, samples, n, frame_in, w);
	else
		frame_in(w, samples, n);
	return w->failed ? -1 : 0;
}

int ogg_opus_commit(struct ogg_opus_writer *w)
{
	static const int16_t silence[FRAME_MAX];

	if (w->failed)
		return -1;
	if (!w->dirty)
		return 0;
	w->dirty = false;
	if (w->resample) {
		resampler_flush(&w->rs, frame_in, w);
		resampler_init(&w->rs, w->rs.in_rate, w->enc_rate);
	}
	/* The last frame filled with silence, and one more that carries the encoder's
	 * look-ahead: every sample said is in a packet. */
	if (w->have)
		frame_in(w, silence, w->frame_size - w->have);
	frame_in(w, silence, w->frame_size);
	if (w->failed || put_pages(w, true))
		return -1;
	return 0;
}

int ogg_opus_resume(struct ogg_opus_writer *w)
{
	if (!w->failed)
		return 0;
	if (ftruncate(w->fd, w->size) || lseek(w->fd, 0, SEEK_END) != w->size)
		return -1;
	w->failed = false;
	if (flush_pending(w))
		return -1;
	return 0;
}

bool ogg_opus_failed(const struct ogg_opus_writer *w)
{
	return w->failed;
}

void ogg_opus_close(struct ogg_opus_writer *w)
{
	if (!w)
		return;
	ogg_opus_commit(w);
	opus_encoder_destroy(w->enc);
	ogg_stream_clear(&w->os);
	close(w->fd);
	free(w->pending);
	free(w);
}
