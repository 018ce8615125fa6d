/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The journal read (docs/state.md "State directory"): every line in order, each checked by its
 * CRC and the chain followed (plain or keyed with the device key, as the key notes say); a
 * bad line, a duplicate of an earlier one of the same run or a torn last line skipped with a
 * log line naming it, a break in the chain counted; each good record handed to the reader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/sha256.h"
#include "store/journal.h"
#include "store/journal_int.h"

/* Parse one line (without its newline).  0 if good; *stored the chain value it carries
 * (rec->chained), *record and *record_len its record's text. */
int journal_parse_line(char *line, size_t len, int lineno, struct journal_record *rec,
		       struct journal_chain *stored, const char **record, size_t *record_len)
{
	char *body, *end, *type_end;
	unsigned char crc_bytes[4];
	unsigned long crc;
	size_t tlen;

	if (len < 11 || line[8] != ' ' || !sha256_unhex(line, crc_bytes, sizeof(crc_bytes)))
		return -1;
	crc = strtoul(line, NULL, 16);
	body = line + 9;
	if (journal_crc32(body, len - 9) != (uint32_t)crc)
		return -1;
	/* A chain value (32 hex digits) before the record, or the earlier format's record (a
	 * time has at most 20 digits). */
	rec->chained = len > 9 + CHAINED_EXTRA && body[CHAINED_EXTRA - 1] == ' ' &&
		       journal_chain_parse(body, stored);
	if (rec->chained)
		body += CHAINED_EXTRA;
	*record = body;
	*record_len = len - (size_t)(body - line);
	errno = 0;
	rec->ms = strtoull(body, &end, 10);
	if (errno || end == body || *end != ' ')
		return -1;
	end++;
	type_end = strchr(end, ' ');
	tlen = type_end ? (size_t)(type_end - end) : strlen(end);
	if (tlen == 0 || tlen >= sizeof(rec->type))
		return -1;
	memcpy(rec->type, end, tlen);
	rec->type[tlen] = '\0';
	rec->args = type_end ? type_end + 1 : "";
	rec->line = lineno;
	return 0;
}

/* The lines seen so far, by CRC and body length, for finding duplicates. */
struct seen {
	uint64_t *keys; /* 0: empty slot */
	size_t size, count;
};

/* true if key was seen before; else remembers it.  Without memory, nothing is a duplicate. */
static bool seen_before(struct seen *t, uint64_t key)
{
	if (t->count * 2 >= t->size) {
		size_t size = t->size ? t->size * 2 : 1024;
		uint64_t *keys = calloc(size, sizeof(*keys));

		if (!keys)
			return false;
		for (size_t i = 0; i < t->size; i++) {
			size_t h;

			if (!t->keys[i])
				continue;
			for (h = t->keys[i] % size; keys[h]; h = (h + 1) % size)
				;
			keys[h] = t->keys[i];
		}
		free(t->keys);
		t->keys = keys;
		t->size = size;
	}
	for (size_t h = key % t->size;; h = (h + 1) % t->size) {
		if (t->keys[h] == key)
			return true;
		if (!t->keys[h]) {
			t->keys[h] = key;
			t->count++;
			return false;
		}
	}
}

/* A good line's identity: the CRC it carries (checked: that of the rest of the line) and an
 * independent hash of the whole line (FNV-1a), never 0. */
static uint64_t line_key(const char *line, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)line[i]) * 16777619u;
	return (uint64_t)strtoul(line, NULL, 16) << 32 | h | 1u;
}

static void skipped(struct journal_stats *st, int lineno, int *count)
{
	(*count)++;
	if (!st->first_skipped)
		st->first_skipped = lineno;
}

/* The chain as the last key note set it: plain, keyed with the key given, or keyed with a key
 * not given (its values cannot be checked here). */
enum chain_mode { CHAIN_PLAIN, CHAIN_KEYED, CHAIN_OTHER };

/* A reading of the journal under way (journal_walk()). */
struct walker {
	const char *path;
	bool quiet; /* nothing logged (the lines were reported when the journal was read) */
	journal_record_fn fn;
	void *user;
	struct journal_stats *st;
	uint64_t run; /* the restart records so far */
	struct seen seen;
	struct journal_chain state;
	bool prev_good; /* the line before was read whole and is no duplicate */
	enum chain_mode mode;
};

/* A key note sets how the chain goes on from its own line (journal.h). */
static void walk_key_note(struct walker *w, const struct journal_record *rec, int lineno)
{
	struct journal_stats *st = w->st;
	const char *id;

	if (strcmp(rec->type, JOURNAL_NOTE_TYPE) ||
	    strncmp(rec->args, JOURNAL_KEY_NOTE, strlen(JOURNAL_KEY_NOTE)))
		return;
	id = rec->args + strlen(JOURNAL_KEY_NOTE);
	snprintf(st->key_id, sizeof(st->key_id), "%.*s", (int)strcspn(id, " "), id);
	w->mode = !strcmp(st->key_id, "-")     ? CHAIN_PLAIN
		  : journal_key_is(st->key_id) ? CHAIN_KEYED
					       : CHAIN_OTHER;
	if (w->mode != CHAIN_PLAIN && !st->first_keyed)
		st->first_keyed = lineno;
	if (w->mode == CHAIN_PLAIN && st->first_keyed)
		st->unkeyed_from = lineno;
	st->other_key |= w->mode == CHAIN_OTHER;
}

/* The record's place in the chain: the value it carries (stored) checked against the one
 * its record makes, and the chain going on from it. */
static void walk_chain(struct walker *w, struct journal_record *rec,
		       const struct journal_chain *stored, const char *record, size_t record_len)
{
	struct journal_stats *st = w->st;
	struct journal_chain expected;

	rec->keyed = w->mode != CHAIN_PLAIN;
	rec->chain_checked = rec->chained && w->mode != CHAIN_OTHER;
	expected = w->state;
	journal_chain_step(&expected, w->mode == CHAIN_KEYED, record, record_len);
	rec->chain_ok = rec->chain_checked && !memcmp(stored->v, expected.v, sizeof(stored->v));
	w->state = rec->chained ? *stored : expected;
	if (rec->chained && rec->keyed) {
		st->keyed++;
		st->unchecked += !rec->chain_checked;
	}
	journal_chain_hex(&w->state, rec->chain);
	if (rec->chained)
		st->chained++;
	else
		st->unchained++;
}

/* A whole line (its newline cut off) read: skipped if bad or a duplicate, else its chain
 * checked and its record handed to fn. */
static void walk_line(struct walker *w, char *line, size_t len, int lineno)
{
	struct journal_stats *st = w->st;
	struct journal_record rec;
	struct journal_chain stored;
	const char *record = NULL;
	size_t record_len = 0;
	char why[160] = "";

	if (len > JOURNAL_LINE_MAX || memchr(line, '\0', len) ||
	    journal_parse_line(line, len, lineno, &rec, &stored, &record, &record_len)) {
		journal_chain_next(&w->state, line, len);
		w->prev_good = false;
		skipped(st, lineno, &st->bad);
		if (!w->quiet)
			log_warn(LOG_GAME, "%s:%d: bad record skipped", w->path, lineno);
		return;
	}
	walk_key_note(w, &rec, lineno);
	walk_chain(w, &rec, &stored, record, record_len);
	/* Each restart begins a run whose times count from 0 again: a line identical to one of
	 * an earlier run is no block written twice. */
	if (!strcmp(rec.type, "restart"))
		w->run++;
	if (seen_before(&w->seen, (line_key(line, len) ^ w->run * 0x9e3779b97f4a7c15ull) | 1u)) {
		w->prev_good = false;
		skipped(st, lineno, &st->duplicates);
		if (!w->quiet)
			log_warn(LOG_GAME, "%s:%d: duplicate of an earlier record skipped", w->path,
				 lineno);
		return;
	}
	if (rec.chain_checked && !rec.chain_ok && w->prev_good) {
		st->chain_breaks++;
		if (!st->first_chain_break)
			st->first_chain_break = lineno;
		if (!w->quiet)
			log_warn(LOG_GAME,
				 "%s:%d: the chain breaks here: this line or one before it "
				 "was edited",
				 w->path, lineno);
	}
	w->prev_good = true;
	if (w->fn && w->fn(w->user, &rec, why, sizeof(why))) {
		skipped(st, lineno, &st->refused);
		log_warn(LOG_GAME, "%s:%d: %s record skipped: %s", w->path, lineno, rec.type,
			 why[0] ? why : "refused");
		return;
	}
	st->taken++;
}

/* Read the journal at path: every line in order, the chain followed (see journal.h); quiet:
 * nothing logged (the lines were reported when the journal was read). */
int journal_walk(const char *path, bool repair, bool quiet, journal_record_fn fn, void *user,
		 struct journal_stats *st, char *err, size_t err_size)
{
	FILE *f = fopen(path, "r");
	struct walker w = {.path = path,
			   .quiet = quiet,
			   .fn = fn,
			   .user = user,
			   .st = st,
			   .prev_good = true,
			   .mode = CHAIN_PLAIN};
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	long good_end = 0;
	int lineno = 0;

	memset(st, 0, sizeof(*st));
	journal_chain_start(&w.state);
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((got = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)got;

		lineno++;
		if (line[len - 1] != '\n') {
			st->torn_tail = true;
			if (!quiet)
				log_warn(LOG_GAME, "%s:%d: torn last line dropped", path, lineno);
			break;
		}
		st->lines++;
		good_end = ftell(f);
		line[--len] = '\0';
		walk_line(&w, line, len, lineno);
	}
	if (lineno > (st->torn_tail ? 1 : 0))
		journal_chain_hex(&w.state, st->chain);
	free(line);
	fclose(f);
	free(w.seen.keys);
	if (st->torn_tail && repair && truncate(path, good_end)) {
		snprintf(err, err_size, "%s: cannot cut the torn last line: %s", path,
			 strerror(errno));
		return -1;
	}
	return st->taken;
}

int journal_read(const char *path, bool repair, journal_record_fn fn, void *user,
		 struct journal_stats *stats, char *err, size_t err_size)
{
	struct journal_stats local;

	return journal_walk(path, repair, false, fn, user, stats ? stats : &local, err, err_size);
}
