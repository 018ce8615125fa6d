/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game journal (DESIGN 4.4): append-only, one record per line, each line
 * checked by a CRC-32 of its body:
 *
 *	CRC32HEX SP BODY LF        BODY = MS SP TYPE [SP ARGS]
 *
 * A torn or corrupt tail (a crash mid-write, a power loss) is detected on
 * reading: everything from the first bad line on is dropped, with a log line,
 * and the file is cut back to its last good record.
 */
#ifndef ANNABELLA_JOURNAL_H
#define ANNABELLA_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOURNAL_LINE_MAX 4200

struct journal;

uint32_t journal_crc32(const void *data, size_t len);

/* Open (create) for appending.  NULL with a message in err. */
struct journal *journal_open(const char *path, bool sync, char *err, size_t err_size);
void journal_close(struct journal *j);
/* Append one record, written with a single write(2).  0 or -1 (logged). */
int journal_append(struct journal *j, uint64_t ms, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Make everything appended so far durable (fsync), if syncing is on. */
int journal_sync(struct journal *j);

/* A record as read back: body split into time, type and the rest. */
struct journal_record {
	int line;
	uint64_t ms;
	char type[24];
	const char *args; /* the rest of the body, "" if none */
};

typedef int (*journal_record_fn)(void *user, const struct journal_record *rec);

/*
 * Read every good record of the journal at path in order, calling fn for each (fn returns
 * 0 to go on, non-zero to stop with an error).  A bad tail is cut off the file (if
 * `repair`) and logged.  Returns the number of records, 0 if the file does not exist, or
 * -1 with a message in err.
 */
int journal_read(const char *path, bool repair, journal_record_fn fn, void *user, char *err,
		 size_t err_size);

#endif
