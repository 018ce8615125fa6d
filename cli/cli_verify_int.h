/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella verify`'s inside, shared by its files (README "Security model"):
 * cli_verify.c (where the record is, the report and the verdict), cli_verify_read.c (the
 * journal's records and notes taken, the scoresheet read and compared with the game) and
 * cli_verify_anchors.c (the logs against the digests the journal noted, the anchors
 * published off the device against the journal's lines).  Internal to cli/cli_verify*.c.
 */
#ifndef ANNABELLA_CLI_VERIFY_INT_H
#define ANNABELLA_CLI_VERIFY_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/sha256.h"
#include "chess/pgn.h"
#include "game/game.h"
#include "store/journal.h"

#define MAX_ANCHORS   4096
#define MAX_NOTES     32
#define MAX_PUBLISHED 256
#define MAX_RESTARTS  64
#define MAX_UNCHECKED 8

struct anchor {
	int line;
	long long bytes;
	char hex[2 * SHA256_SIZE + 1];
};

/* An anchor published off the device: the chain's value after a line of the journal. */
struct published {
	char source[80];
	long line;
	char chain[JOURNAL_CHAIN_HEX];
};

struct verify {
	/* The scoresheet, read before the journal. */
	struct pgn_game pgn;
	bool have_pgn;
	const char *pgn_chain; /* its JournalChain, or NULL */
	long pgn_line;	       /* its JournalLine, or 0 */
	/* The chain's value after each line read (index: line - 1; "" for a line skipped). */
	char (*chains)[JOURNAL_CHAIN_HEX];
	int chains_cap;
	int restarts[MAX_RESTARTS]; /* the lines of the restart records */
	int nrestarts;
	struct published pub[MAX_PUBLISHED];
	int npub, other_games;		    /* anchors of this game; of other games, left aside */
	char unchecked[MAX_UNCHECKED][200]; /* what could not be checked */
	int nunchecked;
	/* The journal. */
	struct game g;
	int records, not_fitting, first_not_fitting, last_line;
	bool compared;	   /* the scoresheet was compared at its chain's line */
	int compared_line; /* that line */
	char differs[512]; /* the first difference, "" if none */
	char device[64], version[32];
	int devices;	   /* device notes */
	bool other_device; /* a note named another serial than the first */
	char recovered[MAX_NOTES][256];
	int recoveries;
	bool mended;			       /* a recovery lost or put back records */
	struct anchor anchors[2][MAX_ANCHORS]; /* control.log, speech.log */
	int anchor_count[2];
};

/* The logs the journal notes digests of: control.log, speech.log. */
extern const char *const vf_log_names[2];

/* cli_verify.c */

/* Something that could not be checked, for the verdict. */
void vf_not_checked(struct verify *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cli_verify_read.c */

/* A line of the journal taken (journal_read()'s callback): its chain kept, a note's facts,
 * a record applied to the game, the scoresheet compared at its chain's line. */
int vf_take(void *user, const struct journal_record *rec, char *why, size_t why_size);
/* The scoresheet against the game as the journal gives it up to here: the first
 * difference into v->differs. */
void vf_compare(struct verify *v);
/* The scoresheet at path, its JournalChain and JournalLine (none read: v->have_pgn false). */
void vf_read_scoresheet(struct verify *v, const char *path);
/* A line number as a tag or JSON gives it; 0 if it is none. */
long vf_line_number(const char *text);

/* cli_verify_anchors.c */

/* Each log against the digests the journal noted of it: false if one does not match. */
bool vf_check_log(struct verify *v, int which, const char *path, bool current);
/* The anchors of this game in a file kept off the device: 0, or -1 when it cannot be read. */
int vf_read_anchors(struct verify *v, const char *path);
/* One published anchor against the journal: false (said) when cut or edited. */
bool vf_check_published(const struct verify *v, const struct journal_stats *st,
			const struct published *p);

#endif
