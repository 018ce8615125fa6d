/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "daemon/state.h"

struct journal {
	int fd;
	bool sync;
	bool dirty;
	bool torn;    /* a cut-short record could not be cut off: start the next on a new line */
	off_t synced; /* what a power cut leaves: the size at open or at the last sync */
};

/* The journal open now, for journal_power_loss() (one at a time: the store's). */
static struct journal *open_journal;

uint32_t journal_crc32(const void *data, size_t len)
{
	static uint32_t table[256];
	static bool ready;
	const unsigned char *p = data;
	uint32_t crc = 0xffffffffu;

	/* Racing initialisations compute the same table; the journal has one writer. */
	if (!ready) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		ready = true;
	}
	for (size_t i = 0; i < len; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return crc ^ 0xffffffffu;
}

struct journal *journal_open(const char *path, bool sync, char *err, size_t err_size)
{
	struct journal *j = calloc(1, sizeof(*j));

	if (!j) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	j->fd = state_open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
	if (j->fd < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		free(j);
		return NULL;
	}
	j->sync = sync;
	j->synced = lseek(j->fd, 0, SEEK_END);
	open_journal = j;
	return j;
}

void journal_power_loss(void)
{
	if (open_journal && open_journal->synced >= 0 &&
	    ftruncate(open_journal->fd, open_journal->synced))
		log_error(LOG_GAME, "power loss: cannot cut the journal: %s", strerror(errno));
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	if (open_journal == j)
		open_journal = NULL;
	journal_sync(j);
	close(j->fd);
	free(j);
}

static int format_v(char *line, size_t size, uint64_t ms, const char *type, const char *fmt,
		    va_list ap) __attribute__((format(printf, 5, 0)));
static int format_v(char *line, size_t size, uint64_t ms, const char *type, const char *fmt,
		    va_list ap)
{
	char *body = line + 9; /* after "CRC32HEX " */
	size_t room;
	int n;

	if (size < JOURNAL_LINE_MAX)
		return -1;
	room = JOURNAL_LINE_MAX - 9 - 1;
	/* Only what journal_read() takes back: a type of one word that fits its record. */
	if (!type || !*type || strlen(type) >= sizeof(((struct journal_record *)0)->type) ||
	    strpbrk(type, " \t\r\n")) {
		log_error(LOG_GAME, "journal record type '%s' refused", type ? type : "(null)");
		return -1;
	}
	n = snprintf(body, room, "%" PRIu64 " %s", ms, type);
	if (n < 0 || (size_t)n >= room)
		return -1;
	if (fmt && *fmt) {
		int m;

		body[n++] = ' ';
		m = vsnprintf(body + n, room - (size_t)n, fmt, ap);
		if (m < 0 || (size_t)(n + m) >= room) {
			log_error(LOG_GAME, "journal record '%s' too long; not written", type);
			return -1;
		}
		n += m;
	}
	if (memchr(body, '\n', (size_t)n)) {
		log_error(LOG_GAME, "journal record '%s' contains a newline; not written", type);
		return -1;
	}
	snprintf(line, 10, "%08" PRIx32, journal_crc32(body, (size_t)n));
	line[8] = ' ';
	body[n++] = '\n';
	body[n] = '\0';
	return 9 + n;
}

int journal_format(char *line, size_t size, uint64_t ms, const char *type, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = format_v(line, size, ms, type, fmt, ap);
	va_end(ap);
	return n;
}

int journal_append(struct journal *j, uint64_t ms, const char *type, const char *fmt, ...)
{
	char line[JOURNAL_LINE_MAX + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = format_v(line, sizeof(line), ms, type, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (journal_append_line(j, line, (size_t)n)) {
		log_error(LOG_GAME, "journal write failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}

bool journal_removed(const struct journal *j)
{
	struct stat st;

	return fstat(j->fd, &st) == 0 && st.st_nlink == 0;
}

int journal_append_line(struct journal *j, const char *line, size_t len)
{
	off_t before;
	ssize_t w;

	if (j->torn) {
		if (state_write(j->fd, "\n", 1) != 1)
			return -1;
		j->torn = false;
	}
	before = lseek(j->fd, 0, SEEK_END);
	w = state_write(j->fd, line, len);

	if (w != (ssize_t)len) {
		int e = w < 0 ? errno : ENOSPC;

		/* A short write would leave a torn record in the middle of the journal, gluing
		 * the next one to it: cut it off again. */
		if (w > 0 && before >= 0 && ftruncate(j->fd, before))
			j->torn = true;
		errno = e;
		return -1;
	}
	j->dirty = true;
	return 0;
}

int journal_sync(struct journal *j)
{
	if (!j->dirty)
		return 0;
	/* Without syncing ([state] sync = no, for tests and benchmarks) this is still the
	 * point where the record would be on storage: journal_power_loss() keeps it. */
	if (!j->sync) {
		j->dirty = false;
		j->synced = lseek(j->fd, 0, SEEK_END);
		return 0;
	}
	if (state_fault_allow(1) < 0)
		return -1;
	j->dirty = false;
	if (state_sync(j->fd)) {
		log_error(LOG_GAME, "journal sync failed: %s", strerror(errno));
		return -1;
	}
	j->synced = lseek(j->fd, 0, SEEK_END);
	return 0;
}

int journal_fd(const struct journal *j)
{
	return j->fd;
}

off_t journal_size(const struct journal *j)
{
	return lseek(j->fd, 0, SEEK_END);
}

void journal_mark_synced(struct journal *j, off_t upto)
{
	if (upto > j->synced)
		j->synced = upto;
	if (upto >= journal_size(j))
		j->dirty = false;
}

/* Parse one line (without its newline).  0 if good. */
static int parse_line(char *line, size_t len, int lineno, struct journal_record *rec)
{
	char *body, *end, *type_end;
	unsigned long crc;
	size_t tlen;

	if (len < 11 || line[8] != ' ')
		return -1;
	for (int i = 0; i < 8; i++)
		if (!((line[i] >= '0' && line[i] <= '9') || (line[i] >= 'a' && line[i] <= 'f')))
			return -1;
	crc = strtoul(line, NULL, 16);
	body = line + 9;
	if (journal_crc32(body, len - 9) != (uint32_t)crc)
		return -1;
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

/* A line's identity: its CRC and an independent hash of it (FNV-1a), never 0. */
static uint64_t line_key(const char *line, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)line[i]) * 16777619u;
	return (uint64_t)journal_crc32(line, len) << 32 | h | 1u;
}

static void skipped(struct journal_stats *st, int lineno, int *count)
{
	(*count)++;
	if (!st->first_skipped)
		st->first_skipped = lineno;
}

int journal_read(const char *path, bool repair, journal_record_fn fn, void *user,
		 struct journal_stats *stats, char *err, size_t err_size)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	long good_end = 0;
	int lineno = 0;
	uint64_t run = 0;
	struct journal_stats local = {0}, *st = stats ? stats : &local;
	struct seen seen = {0};

	memset(st, 0, sizeof(*st));
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((got = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)got;
		struct journal_record rec;
		char why[160] = "";

		lineno++;
		if (line[len - 1] != '\n') {
			st->torn_tail = true;
			log_warn(LOG_GAME, "%s:%d: torn last line dropped", path, lineno);
			break;
		}
		good_end = ftell(f);
		line[--len] = '\0';
		if (len > JOURNAL_LINE_MAX || memchr(line, '\0', len) ||
		    parse_line(line, len, lineno, &rec)) {
			skipped(st, lineno, &st->bad);
			log_warn(LOG_GAME, "%s:%d: bad record skipped", path, lineno);
			continue;
		}
		/* Each restart begins a run whose times count from 0 again: a line identical to
		 * one of an earlier run is no block written twice. */
		if (!strcmp(rec.type, "restart"))
			run++;
		if (seen_before(&seen, (line_key(line, len) ^ run * 0x9e3779b97f4a7c15ull) | 1u)) {
			skipped(st, lineno, &st->duplicates);
			log_warn(LOG_GAME, "%s:%d: duplicate of an earlier record skipped", path,
				 lineno);
			continue;
		}
		if (fn && fn(user, &rec, why, sizeof(why))) {
			skipped(st, lineno, &st->refused);
			log_warn(LOG_GAME, "%s:%d: %s record skipped: %s", path, lineno, rec.type,
				 why[0] ? why : "refused");
			continue;
		}
		st->taken++;
	}
	free(line);
	fclose(f);
	free(seen.keys);
	if (st->torn_tail && repair && truncate(path, good_end)) {
		snprintf(err, err_size, "%s: cannot cut the torn last line: %s", path,
			 strerror(errno));
		return -1;
	}
	return st->taken;
}
