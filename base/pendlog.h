/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * An append-only log file (speech.log, control.log) that loses nothing to a storage fault:
 * a line that cannot be written now (read-only or full storage, the file not yet openable,
 * its directory removed) is kept, in order, and written with the next line or flush once
 * storage works again.  At most `max` bytes are kept; lines beyond that are counted, said
 * once, and noted in the file where they were (`MS dropped N lines ...`, MS the first's
 * time: each line begins with its time).
 *
 * The file is the one at its path: before each write the log looks whether its file is
 * still there (not removed, no other file or directory in its place: the storage unmounted
 * and mounted again).  If not, it opens the path again (making its directory): a file made
 * again begins with the start line (pendlog_start()), and what was written into a file the
 * log had made again goes on into the one that takes its place (storage put back with its
 * contents: the lines written while it was out are not lost with the empty directory they
 * went to).  Not thread-safe: one owner, or the owner's lock.
 */
#ifndef ANNABELLA_PENDLOG_H
#define ANNABELLA_PENDLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/log.h"
#include "base/strbuf.h"

typedef ssize_t (*pendlog_write_fn)(int fd, const void *data, size_t len);

struct pendlog {
	int fd; /* -1 while it could not be opened */
	char path[512];
	const char *name; /* as messages name it: its file name */
	enum log_category cat;
	pendlog_write_fn write; /* NULL: write(2); the daemon's injects storage faults */
	size_t max;
	struct strbuf pending; /* not yet written, from off on */
	size_t off;
	bool failing;
	/* Lines beyond max: how many, their bytes, the first's and the last's time. */
	unsigned long lost;
	size_t lost_bytes;
	char lost_first[24], lost_last[24];
	char start[256]; /* the start line, "" until pendlog_start() */
	/* The file it wrote is gone: the next one opened is made again or put back. */
	bool gone;
	/* The file open now was made again here, and what went into it after its start
	 * line: carried into a file that takes its place. */
	bool made_again;
	struct strbuf carried;
	size_t carry_skip; /* bytes at the start of pending not to carry (its start line) */
};

/* Opens PATH for appending (0640), made if missing; a file that cannot be opened now is
 * tried again at each line.  -1 with errno when it could not be opened (kept usable). */
int pendlog_open(struct pendlog *l, const char *path, enum log_category cat, size_t max,
		 pendlog_write_fn write);
/* LEN bytes (whole lines) appended: kept, then everything kept is written if it can be. */
void pendlog_add(struct pendlog *l, const char *line, size_t len);
/* The start line (the audit's: docs/state.md "State directory", control.log): appended as
 * pendlog_add() does, and remembered as the first line of a file made again. */
void pendlog_start(struct pendlog *l, const char *line, size_t len);
/* Writes what is kept; false while storage fails (or the file cannot be opened). */
bool pendlog_flush(struct pendlog *l);
bool pendlog_waiting(const struct pendlog *l);
void pendlog_close(struct pendlog *l);

#endif
