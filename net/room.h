/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The room of a live broadcast (docs/broadcast.md "Live broadcast and the room relay"), the pure
 * part: board names as MQTT topics have them, the tags a broadcast may pass on to its daemon, the
 * round's tags CSV, a board's PGN put into the round's shape (the seven-tag roster with Board, then
 * the other tags, then the movetext as the daemon wrote it) and the order of the boards.  No I/O.
 */
#ifndef ANNABELLA_ROOM_H
#define ANNABELLA_ROOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

#define ROOM_NAME_MAX	   64 /* a board's name, with its NUL */
#define ROOM_TAG_NAME_MAX  32 /* as the daemon's tags */
#define ROOM_TAG_VALUE_MAX 128
#define ROOM_CSV_TAGS_MAX  24
#define ROOM_BOARDS_MAX	   256
#define ROOM_GAME_TAGS_MAX 48

/* Whether name can be a board's name in a topic: letters, digits, '.', '_', '-'. */
bool room_board_name_ok(const char *name);
/* Whether a broadcast may set this tag on its board's game (the allow-list). */
bool room_tag_allowed(const char *name);

/*
 * The tags CSV of a round: a header row "name,TAG,TAG...", then one row per board: the
 * board's name, then the values ("" : that tag is not sent).  Fields may be quoted ("" is
 * a quote inside); CRLF or LF line ends; blank lines and a UTF-8 byte order mark are
 * skipped.
 */
struct room_csv_row {
	char name[ROOM_NAME_MAX];
	char values[ROOM_CSV_TAGS_MAX][ROOM_TAG_VALUE_MAX];
	int line;
};

struct room_csv {
	int tag_count, row_count;
	char tags[ROOM_CSV_TAGS_MAX][ROOM_TAG_NAME_MAX];
	struct room_csv_row rows[ROOM_BOARDS_MAX];
};

/* 0, or -1 with "LINE: message" in err (the caller adds the file's name). */
int room_csv_parse(const char *text, size_t len, struct room_csv *csv, char *err, size_t err_size);
/* A row's tags as the payload of annabella/NAME/tags: one "NAME VALUE" line per tag. */
void room_csv_payload(const struct room_csv *csv, int row, struct strbuf *out);

/*
 * One line of a tags payload: its name and value (pointers into a copy the caller owns).
 * Returns 1 with a line, 0 at the end, -1 for a malformed line (skipped).
 */
int room_payload_next(char **cursor, const char **name, const char **value);

/* A game's PGN as a broadcast publishes it (the daemon's export). */
struct room_game {
	int tag_count;
	struct {
		char name[ROOM_TAG_NAME_MAX];
		char value[ROOM_TAG_VALUE_MAX];
	} tags[ROOM_GAME_TAGS_MAX];
	const char *movetext; /* into the parsed text */
	int plies;
	int clocks; /* [%clk] readings: the moves completed by a clock press */
};

/* Reads the tag pairs and counts the plies of the movetext: 0, or -1 if it is no PGN. */
int room_game_parse(const char *pgn, struct room_game *g);
/* A tag's value, or NULL. */
const char *room_game_tag(const struct room_game *g, const char *name);
/*
 * The game for the round's PGN: Event, Site, Date, Round, Board, White, Black, Result
 * (missing ones as the PGN standard fills them: "?", "????.??.??", "*"), the other tags
 * after them in their order, a blank line, the movetext, a blank line.  A board whose
 * players are not named (no White or Black tag, or "?") gets its board's name there,
 * "NAME (White)" and "NAME (Black)", so a broadcast tells its boards apart; board_name
 * NULL leaves "?".
 */
void room_game_write(const struct room_game *g, const char *board_name, struct strbuf *out);
/* The next move of a movetext from *cursor (the main line's SAN moves; comments, variations,
 * numbers and NAGs skipped): 1 with the move at *move (len bytes) and *cursor past it, 0 at
 * the end. */
int room_movetext_next(const char **cursor, const char **move, size_t *len);

/*
 * What a board published on one topic, as it changed over time, for a view of the room
 * as it was some time ago (a broadcast delay, anti-cheating): each version with the time
 * it arrived (the caller's clock; the relay's is monotonic).  Only the versions a view may still
 * show are kept: the newest one at or before (now - keep_ms) and all after it.  When full, the
 * second oldest goes, so a delayed view may show an older version for a while but never a newer one
 * than its time.
 */
#define ROOM_HISTORY_MAX 256

struct room_version {
	int64_t at_ms;
	uint64_t seq; /* the order of arrival over every topic */
	char *text;   /* NULL: the topic was cleared */
};

struct room_history {
	int count;
	struct room_version v[ROOM_HISTORY_MAX];
};

/* Adds text (taken over, malloc'd; NULL: cleared) received at at_ms: 1, or 0 when it is
 * the same as the newest version (then text is freed and nothing changes). */
int room_history_add(struct room_history *h, int64_t at_ms, uint64_t seq, char *text,
		     int64_t keep_ms);
/* The version a view at time t shows: the newest with at_ms <= t, or NULL. */
const struct room_version *room_history_at(const struct room_history *h, int64_t t);
void room_history_free(struct room_history *h);

/* Board order: by the Board tag as a number (a missing or odd one after the numbered
 * boards), then by name, its runs of digits as numbers (b2 before b10).  <0, 0, >0 as
 * strcmp. */
int room_board_compare(const char *name_a, const char *board_tag_a, const char *name_b,
		       const char *board_tag_b);

#endif
