/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game's audio record as Ogg Opus (RFC 7845; libopus and libogg): speech at 20 kbit/s
 * instead of PCM's 353, in a file every current player and browser plays.  Each utterance's
 * end is padded to whole 20 ms frames and its pages written at once (ogg_opus_commit), so
 * a crash loses nothing said before it; a restarted daemon continues the same stream (the
 * pages after the last whole one cut, their numbering and granule positions carried on), so
 * a resumed game is still one stream that plays through.  Internal to voice/.
 */
#ifndef ANNABELLA_OGGOPUS_H
#define ANNABELLA_OGGOPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define OGG_OPUS_BITRATE 20000

/* What the reader found in a file. */
struct ogg_opus_info {
	off_t valid_end;     /* bytes of whole, checked pages from the start */
	uint64_t pages;	     /* of those */
	uint64_t links;	     /* logical streams one after another (chained) */
	long serial;	     /* of the last one */
	long last_pageno;    /* its last page's number */
	int64_t granule;     /* its last granule position (48 kHz samples, pre-skip included) */
	bool eos;	     /* its last page ends the stream */
	bool opus;	     /* every stream begins with an OpusHead */
	unsigned channels;   /* of the last stream */
	unsigned pre_skip;   /* of the last stream (48 kHz samples) */
	uint64_t duration48; /* playable samples of every stream, 48 kHz */
};

/* Read fd's pages from the start: 0 with info, or -1 on a read error.  packet(ctx, data,
 * len, serial) gets every packet of the whole pages, if given. */
int ogg_opus_scan(int fd, struct ogg_opus_info *info,
		  void (*packet)(void *ctx, const unsigned char *data, long len, long serial),
		  void *ctx);

struct ogg_opus_writer;

/* Take over fd (read-write) for samples at rate: a file of whole Opus pages is continued,
 * one with a broken end cut back to its last whole page, an empty one begun.  NULL with
 * errno set. */
struct ogg_opus_writer *ogg_opus_open_fd(int fd, unsigned rate);
int ogg_opus_write(struct ogg_opus_writer *w, const int16_t *samples, size_t n);
/* The samples so far encoded and their pages written. */
int ogg_opus_commit(struct ogg_opus_writer *w);
/* After a failed write: the file cut back to its last whole page, the page that failed
 * written again.  0, or -1 while storage still fails. */
int ogg_opus_resume(struct ogg_opus_writer *w);
bool ogg_opus_failed(const struct ogg_opus_writer *w);
void ogg_opus_close(struct ogg_opus_writer *w);

#endif
