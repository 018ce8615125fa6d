/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game journal (docs/state.md "State directory"): append-only, one record per line, each line
 * checked by a CRC-32 of what follows it, and chained to the line before it:
 *
 *	CRC32HEX SP CHAIN SP RECORD LF        RECORD = MS SP TYPE [SP ARGS]
 *
 * CHAIN (32 lower-case hex digits) is the first 16 bytes of SHA-256(previous CHAIN's 16
 * bytes, RECORD): the journal's state after this line, so each line's check covers every
 * line before it, and the last line's CHAIN (the chain's final value) stands for the whole
 * journal.  The first line's previous state is 16 zero bytes.  A journal of the earlier
 * format (`CRC32HEX SP RECORD LF`, an upgrade in the middle of a game) is read as before;
 * its lines move the state on as if they carried it, so the first chained line after them
 * covers them too.  A line that is no record moves it on by its raw bytes.
 *
 * Every line still stands alone for recovery: a bad line (a flipped byte, a torn write
 * followed by good writes, garbage) is skipped and reported, and the good records after it
 * are read as before it; a line identical to an earlier one of the same run of the daemon
 * (a block written twice; a `restart` record begins a run) is skipped as a duplicate.  Nothing good
 *is ever cut away: only a torn tail after the last newline (a crash mid-write) is cut, so that the
 *next record starts on a line of its own. A good line whose CHAIN is not what the lines before it
 *give was edited (or a line before it removed): it is read, and reported
 *(journal_stats.chain_breaks).
 *
 * Lines of the type JOURNAL_NOTE_TYPE are the record's own notes (the device, the audit's
 * anchors, a recovery), not the game's: the daemon writes them, `annabella verify` reads
 * them, the game never applies them.
 *
 * The chain is keyed with the device key (journal_use_key(); store/devkey.h) from a key note,
 * `journal key id=ID`, on: from that line on CHAIN is the first 16 bytes of HMAC-SHA256(key,
 * previous CHAIN's 16 bytes, RECORD) (RFC 2104), so only the key's holder can make the chain
 * again after an edit.  ID (16 hex digits) names the key without giving it away.  The writer
 * puts the note before the first line it appends after the file's first (the game record, so
 * game.record's copy of it stays the first line), each time it opens the journal; a writer
 * without the key notes `id=-` instead on a journal that had lines, and the chain goes on
 * plain.  A bad line moves the chain on plain, by its raw bytes.  A reader without the key
 * (or with another) cannot check the keyed values: it takes them as they are and counts them
 * (journal_stats.unchecked).
 */
#ifndef ANNABELLA_JOURNAL_H
#define ANNABELLA_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define JOURNAL_LINE_MAX 4200
/* The chain's value: bytes, and as text (hex, with its NUL). */
#define JOURNAL_CHAIN_BYTES 16
#define JOURNAL_CHAIN_HEX   (2 * JOURNAL_CHAIN_BYTES + 1)
#define JOURNAL_NOTE_TYPE   "journal"
/* A key note's words before the key's id, and the id: 16 hex digits, with its NUL. */
#define JOURNAL_KEY_NOTE     "key id="
#define JOURNAL_KEY_ID_HEX   17
#define JOURNAL_KEY_ID_LABEL "annabella journal key id"

struct journal;

/* The chain's value after the last line written (its hex); "" before the first. */
const char *journal_chain_value(const struct journal *j);
/* The lines in the journal's file after the last one written. */
long journal_lines(const struct journal *j);
/* The device key the chain is keyed with from now on, for every journal this process
 * writes and reads (NULL: none; the writer's chain goes on plain). */
void journal_use_key(const unsigned char *key, size_t len);
/* Its id as key notes give it (hex), or "" without a key. */
const char *journal_key_id(void);
/*
 * Lines as journal_format makes them (each with its newline), chained from the start as
 * journal_append_line would write them into an empty journal: one malloc'd text (its length
 * in *len), or NULL when out of memory.  For a journal written again whole.
 */
char *journal_chain_text(char *const *lines, size_t n, size_t *len);

/* Open (create) for appending; the chain goes on from the lines already there.  NULL with a
 * message in err. */
struct journal *journal_open(const char *path, bool sync, char *err, size_t err_size);
void journal_close(struct journal *j);
/* A record's line, `CRC32HEX SP RECORD LF`, into line (at least JOURNAL_LINE_MAX + 1
 * bytes): what journal_append_line() takes (it adds the chain as it writes); its length, or
 * -1 (logged) if it cannot be a record (the chained line must fit JOURNAL_LINE_MAX). */
int journal_format(char *line, size_t size, uint64_t ms, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Append one whole line (with its newline) as made by journal_format, chained to the line
 * before it; a short write is cut off again.  0, or -1 with errno. */
int journal_append_line(struct journal *j, const char *line, size_t len);
/* A real power cut, for tests (`+MS crash unsynced`): the open journal loses what was
 * written after its last sync, as the page cache would. */
void journal_power_loss(void);
/* For a sync done elsewhere (the writer's thread): the file, its size now, and what is on
 * storage once that sync finished (what journal_power_loss() keeps). */
int journal_fd(const struct journal *j);
off_t journal_size(const struct journal *j);
void journal_mark_synced(struct journal *j, off_t upto);

/* A record as read back: body split into time, type and the rest. */
struct journal_record {
	int line;
	uint64_t ms;
	char type[24];
	const char *args;   /* the rest of the body, "" if none */
	bool chained;	    /* the line carries its chain value (else: the earlier format) */
	bool keyed;	    /* a line of the keyed chain (after a key note naming a key) */
	bool chain_checked; /* chained, and its value can be checked here (no key: not) */
	bool chain_ok;	    /* checked, and the value is what the lines before it give */
	char chain[JOURNAL_CHAIN_HEX]; /* the chain's state after this line */
};

/* 0 to take the record; non-zero to refuse it (it is skipped and reported with `why`). */
typedef int (*journal_record_fn)(void *user, const struct journal_record *rec, char *why,
				 size_t why_size);

/* What a reading found besides the records taken. */
struct journal_stats {
	int lines;	   /* whole lines read */
	int taken;	   /* records fn took */
	int bad;	   /* lines that are no record (CRC, format, length), skipped */
	int duplicates;	   /* lines identical to an earlier one, skipped */
	int refused;	   /* records fn refused, skipped */
	int first_skipped; /* the line of the first skipped line, 0 if none */
	bool torn_tail;	   /* the file ended in a partial line */
	int chained;	   /* lines with their chain value */
	int unchained;	   /* good lines of the earlier format, without one */
	int chain_breaks;  /* good checked lines whose value the lines before them do not give */
	int keyed;	   /* good chained lines of the keyed chain */
	int unchecked;	   /* of them, those whose value could not be checked (no key, another) */
	int first_keyed;   /* the line of the first key note naming a key, 0 if none */
	int unkeyed_from;  /* the line of a note after it that ends the keyed chain, 0 if none */
	bool other_key;	   /* a key note named another key than the one given */
	char key_id[JOURNAL_KEY_ID_HEX]; /* the key the last key note names ("-": none) */
	int first_chain_break;		 /* the line of the first, 0 if none */
	char chain[JOURNAL_CHAIN_HEX]; /* the chain's state after the last whole line; "" if none */
};

/*
 * Read every good record of the journal at path in order, calling fn for each; bad,
 * duplicated and refused lines are skipped and logged (each with its line), and reading
 * goes on.  With `repair` a torn tail is cut off.  Returns the number of records taken, 0 if
 * the file does not exist, or -1 with a message in err (it cannot be read).  stats may be
 * NULL.
 */
int journal_read(const char *path, bool repair, journal_record_fn fn, void *user,
		 struct journal_stats *stats, char *err, size_t err_size);

#endif
