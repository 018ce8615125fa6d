/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The journal's inside, shared by its files (docs/state.md "State directory"): journal.c (the
 * chain, plain and keyed; the file opened, appended to and synced) and journal_read.c (the
 * journal read line by line, each checked).  Internal to store/journal*.c.
 */
#ifndef ANNABELLA_JOURNAL_INT_H
#define ANNABELLA_JOURNAL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/journal.h"

/* A chained line: "CRC32HEX CHAIN RECORD\n". */
#define CHAINED_EXTRA (2 * JOURNAL_CHAIN_BYTES + 1)

/* The chain's state: start (16 zero bytes), moved on by one record's text. */
struct journal_chain {
	unsigned char v[JOURNAL_CHAIN_BYTES];
};

/* journal.c: CRC-32 (IEEE) of data, as each line carries it. */
uint32_t journal_crc32(const void *data, size_t len);
void journal_chain_start(struct journal_chain *c);
/* The plain step: the chain moved on by one record's text. */
void journal_chain_next(struct journal_chain *c, const char *record, size_t len);
/* The plain or the keyed step (keyed: with the device key). */
void journal_chain_step(struct journal_chain *c, bool keyed, const char *record, size_t len);
void journal_chain_hex(const struct journal_chain *c, char out[JOURNAL_CHAIN_HEX]);
/* A chain value written as hex (lower case, exactly JOURNAL_CHAIN_HEX - 1 digits). */
bool journal_chain_parse(const char *hex, struct journal_chain *c);
/* Whether the device key is given and id is its id, as key notes name it. */
bool journal_key_is(const char *id);

/* journal_read.c: one line (without its newline) parsed.  0 if good; *stored the chain value
 * it carries (rec->chained), *record and *record_len its record's text. */
int journal_parse_line(char *line, size_t len, int lineno, struct journal_record *rec,
		       struct journal_chain *stored, const char **record, size_t *record_len);
/* The journal at path read (journal_read(); quiet: nothing logged). */
int journal_walk(const char *path, bool repair, bool quiet, journal_record_fn fn, void *user,
		 struct journal_stats *st, char *err, size_t err_size);

#endif
