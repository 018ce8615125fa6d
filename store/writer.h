/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The state directory's slow work, off the game loop: syncs of the journal and the atomic
 * replacement of the scoresheets (write, sync, rename, sync the directory).  On an SD card
 * one sync takes tens of milliseconds, sometimes hundreds; done in the loop it would hold up
 * announcements, the scan of a matrix or shift wiring (and so the time of a press or a
 * touch) and the control socket.  The loop appends the journal's records itself (a write to
 * the page cache: found at once when it fails) and hands the syncs and the scoresheets to
 * the writer, which does them in order on its own thread and reports each result back
 * through a file descriptor the loop polls.
 *
 * Without a thread (virtual time, `annabella fsck`) each job is done at once, in the
 * caller: the same order, and a replay stays deterministic.
 *
 * Bounded: a job not yet started is replaced by a newer one of the same kind and target (a
 * sync of the same file, a newer scoresheet for the same path), so the queue holds at most
 * a few jobs whatever the storage's speed.
 */
#ifndef ANNABELLA_WRITER_H
#define ANNABELLA_WRITER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum writer_job_kind { WRITER_SYNC = 0, WRITER_REPLACE };

struct writer_result {
	enum writer_job_kind kind;
	int err;	     /* 0, or the errno of the failure */
	uint64_t tag;	     /* SYNC: the caller's tag */
	off_t upto;	     /* SYNC: what is on storage now (the size when it was asked for) */
	uint32_t latency_ms; /* SYNC: from the first asking it stands for to its end (threaded) */
	char path[PATH_MAX]; /* REPLACE: the file */
};

struct writer;

/* NULL if out of memory or the thread cannot be started (errno). */
struct writer *writer_new(bool threaded);
/* Every job done first. */
void writer_free(struct writer *w);
/* Readable while results wait (threaded only; -1 without a thread). */
int writer_fd(const struct writer *w);

/* Sync fd's data up to `upto` (its size now; the writer keeps a duplicate of fd, so the
 * caller may close it).  really: fdatasync (else only the sync's place in the order and
 * its delay, [state] sync = no).  0, or -1 with errno (fd cannot be duplicated). */
int writer_sync(struct writer *w, int fd, off_t upto, bool really, uint64_t tag);
/* Replace path with data (taken: freed by the writer) atomically, synced if sync.  0, or -1
 * with errno (the data is freed). */
int writer_replace(struct writer *w, const char *path, char *data, size_t len, bool sync);
/* The results of finished jobs, oldest first, at most max; how many. */
int writer_results(struct writer *w, struct writer_result *out, int max);
/* Wait until every job queued so far is done. */
void writer_drain(struct writer *w);

#endif
