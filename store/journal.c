/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/sha256.h"
#include "store/faults.h"
#include "store/journal_int.h"
#include "store/state.h"

struct journal {
	int fd;
	bool sync;
	bool dirty;
	bool torn;    /* a cut-short record could not be cut off: start the next on a new line */
	off_t synced; /* what a power cut leaves: the size at open or at the last sync */
	struct journal_chain chain; /* the state after the last line in the file */
	bool has_lines;
	bool noted;	/* this open wrote its key note (journal_append_line()) */
	bool keyed;	/* the chain is keyed from here on: that note names the device key */
	bool was_keyed; /* the file's chain was keyed where it ended when it was opened */
	long lines;	/* lines in the file (a torn one counted once its newline is written) */
	/* The bytes of a cut-short line left in the file (torn): the chain moves on by them
	 * once the newline that ends them is written, as a reader will. */
	char torn_text[JOURNAL_LINE_MAX + CHAINED_EXTRA];
	size_t torn_len;
	char chain_hex[JOURNAL_CHAIN_HEX];
};

static int journal_sync(struct journal *j);

/* The device key (journal_use_key()): its HMAC states, and its id as key notes name it. */
static struct {
	bool set;
	struct hmac_sha256 hmac;
	char id[JOURNAL_KEY_ID_HEX];
} device_key;

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

/* ------------------------------------------------------------------ the chain */

void journal_chain_start(struct journal_chain *c)
{
	memset(c->v, 0, sizeof(c->v));
}

void journal_chain_next(struct journal_chain *c, const char *record, size_t len)
{
	unsigned char d[SHA256_SIZE];
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, c->v, sizeof(c->v));
	sha256_update(&h, record, len);
	sha256_final(&h, d);
	memcpy(c->v, d, sizeof(c->v));
}

/* The keyed step: the first 16 bytes of HMAC-SHA256(key, state, record). */
static void chain_next_keyed(struct journal_chain *c, const char *record, size_t len)
{
	unsigned char d[SHA256_SIZE];
	struct hmac_sha256 h = device_key.hmac;

	hmac_sha256_update(&h, c->v, sizeof(c->v));
	hmac_sha256_update(&h, record, len);
	hmac_sha256_final(&h, d);
	memcpy(c->v, d, sizeof(c->v));
}

void journal_chain_step(struct journal_chain *c, bool keyed, const char *record, size_t len)
{
	if (keyed)
		chain_next_keyed(c, record, len);
	else
		journal_chain_next(c, record, len);
}

void journal_use_key(const unsigned char *key, size_t len)
{
	unsigned char id[SHA256_SIZE];

	memset(&device_key, 0, sizeof(device_key));
	if (!key)
		return;
	hmac_sha256_init(&device_key.hmac, key, len);
	hmac_sha256(key, len, JOURNAL_KEY_ID_LABEL, strlen(JOURNAL_KEY_ID_LABEL), id);
	sha256_hex(id, (JOURNAL_KEY_ID_HEX - 1) / 2, device_key.id);
	device_key.set = true;
}

const char *journal_key_id(void)
{
	return device_key.set ? device_key.id : "";
}

bool journal_key_is(const char *id)
{
	return device_key.set && !strcmp(id, device_key.id);
}

void journal_chain_hex(const struct journal_chain *c, char out[JOURNAL_CHAIN_HEX])
{
	sha256_hex(c->v, sizeof(c->v), out);
}

/* A chain value written as hex (lower case, exactly JOURNAL_CHAIN_HEX - 1 digits). */
bool journal_chain_parse(const char *hex, struct journal_chain *c)
{
	return sha256_unhex(hex, c->v, JOURNAL_CHAIN_BYTES);
}

/* The chained form of a line made by journal_format ("CRC32HEX RECORD\n", len bytes), the
 * chain moved on by its record: into out (at least JOURNAL_LINE_MAX + CHAINED_EXTRA + 1
 * bytes); its length, or -1 if line is no such line. */
static int chain_line(struct journal_chain *c, bool keyed, const char *line, size_t len, char *out)
{
	const char *record = line + 9;
	size_t rlen;
	char hex[JOURNAL_CHAIN_HEX];

	if (len < 11 || line[8] != ' ' || line[len - 1] != '\n' ||
	    len + CHAINED_EXTRA > JOURNAL_LINE_MAX + 1)
		return -1;
	rlen = len - 10;
	journal_chain_step(c, keyed, record, rlen);
	journal_chain_hex(c, hex);
	memcpy(out + 9, hex, JOURNAL_CHAIN_HEX - 1);
	out[9 + JOURNAL_CHAIN_HEX - 1] = ' ';
	memcpy(out + 9 + CHAINED_EXTRA, record, rlen);
	snprintf(out, 9, "%08" PRIx32, journal_crc32(out + 9, CHAINED_EXTRA + rlen));
	out[8] = ' ';
	out[9 + CHAINED_EXTRA + rlen] = '\n';
	out[10 + CHAINED_EXTRA + rlen] = '\0';
	return (int)(10 + CHAINED_EXTRA + rlen);
}

/* Whether a line of journal_format is a key note (JOURNAL_KEY_NOTE). */
static bool is_key_note(const char *line, size_t len)
{
	const char *sp = len > 9 ? memchr(line + 9, ' ', len - 9) : NULL;
	size_t tl = strlen(JOURNAL_NOTE_TYPE), kl = strlen(JOURNAL_KEY_NOTE);

	return sp && (size_t)(line + len - sp) > tl + kl + 1 &&
	       !memcmp(sp + 1, JOURNAL_NOTE_TYPE " " JOURNAL_KEY_NOTE, tl + 1 + kl);
}

/* The key note that goes before a journal's first keyed line (JOURNAL_KEY_NOTE), at the
 * time of the line it precedes (a line of journal_format): into note; its length, or -1. */
static int key_note(char *note, size_t size, const char *before)
{
	uint64_t ms = strtoull(before + 9, NULL, 10);

	return journal_format(note, size, ms, JOURNAL_NOTE_TYPE, JOURNAL_KEY_NOTE "%s",
			      device_key.set ? device_key.id : "-");
}

char *journal_chain_text(char *const *lines, size_t n, size_t *len)
{
	struct journal_chain c;
	char note[JOURNAL_LINE_MAX + 1];
	char *text;
	size_t total = 0, at = 0, written = 0;
	bool keyed = false;

	journal_chain_start(&c);
	for (size_t i = 0; i < n; i++)
		total += strlen(lines[i]) + CHAINED_EXTRA;
	text = malloc(total + sizeof(note) + CHAINED_EXTRA + 1);
	if (!text)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char out[JOURNAL_LINE_MAX + CHAINED_EXTRA + 1];
		size_t l = strlen(lines[i]);
		int m;

		/* The key notes of the lines written again are left out: theirs was another
		 * chain.  With a key, this one's note goes before the second line: the first
		 * is the game record, chained plain (game.record is its copy), and the keyed
		 * lines after it cover it. */
		if (is_key_note(lines[i], l))
			continue;
		if (written++ == 1 && device_key.set) {
			m = key_note(note, sizeof(note), lines[i]);
			if (m > 0 && (m = chain_line(&c, true, note, (size_t)m, out)) > 0) {
				keyed = true;
				memcpy(text + at, out, (size_t)m);
				at += (size_t)m;
			}
		}
		m = chain_line(&c, keyed, lines[i], l, out);
		/* Not a line of journal_format (never, from the store): kept as it is. */
		if (m < 0) {
			memcpy(text + at, lines[i], l);
			at += l;
			continue;
		}
		memcpy(text + at, out, (size_t)m);
		at += (size_t)m;
	}
	text[at] = '\0';
	*len = at;
	return text;
}

const char *journal_chain_value(const struct journal *j)
{
	return j && j->has_lines ? j->chain_hex : "";
}

long journal_lines(const struct journal *j)
{
	return j ? j->lines : 0;
}

/* ------------------------------------------------------------------ writing */

/* The chain value of the file's last line (of size bytes), when that line is whole, good
 * and carries one: then it is the chain's state after the whole file. */
static bool last_line_chain(int fd, off_t size, struct journal_chain *out)
{
	char buf[JOURNAL_LINE_MAX + CHAINED_EXTRA + 2], *start;
	struct journal_record rec;
	const char *record;
	size_t record_len, len;
	off_t from = size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0;
	ssize_t got = pread(fd, buf, (size_t)(size - from), from);

	if (got != size - from || got < 2 || buf[got - 1] != '\n')
		return false;
	buf[got - 1] = '\0';
	start = memrchr(buf, '\n', (size_t)got - 1);
	if (!start && from > 0)
		return false; /* a line longer than any the writer writes */
	start = start ? start + 1 : buf;
	len = strlen(start);
	if (len != (size_t)(got - 1 - (start - buf)) || len > JOURNAL_LINE_MAX ||
	    journal_parse_line(start, len, 0, &rec, out, &record, &record_len) || !rec.chained)
		return false;
	return true;
}

/* The lines of the file at path (its newlines; 0 when it cannot be read), and whether a key
 * note of them names a key: the chain is keyed at its end unless a later note ends it. */
static long scan_lines(const char *path, bool *keyed)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long lines = 0;

	*keyed = false;
	if (!f)
		return 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		struct journal_record rec;
		struct journal_chain stored;
		const char *record;
		size_t record_len;

		if (line[n - 1] != '\n')
			break;
		lines++;
		line[--n] = '\0';
		if ((size_t)n <= JOURNAL_LINE_MAX &&
		    !journal_parse_line(line, (size_t)n, 0, &rec, &stored, &record, &record_len) &&
		    !strcmp(rec.type, JOURNAL_NOTE_TYPE) &&
		    !strncmp(rec.args, JOURNAL_KEY_NOTE, strlen(JOURNAL_KEY_NOTE)))
			*keyed = rec.args[strlen(JOURNAL_KEY_NOTE)] != '-';
	}
	free(line);
	fclose(f);
	return lines;
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
	/* The chain goes on from the lines there, as a reader ends: the last line's value
	 * when it carries one, else from reading them all. */
	journal_chain_start(&j->chain);
	if (j->synced > 0 && last_line_chain(j->fd, j->synced, &j->chain)) {
		j->has_lines = true;
		journal_chain_hex(&j->chain, j->chain_hex);
	} else if (j->synced > 0) {
		struct journal_stats st;

		if (journal_walk(path, false, true, NULL, NULL, &st, err, err_size) < 0) {
			close(j->fd);
			free(j);
			return NULL;
		}
		if (st.chain[0] && journal_chain_parse(st.chain, &j->chain)) {
			j->has_lines = true;
			snprintf(j->chain_hex, sizeof(j->chain_hex), "%s", st.chain);
		}
	}
	j->lines = scan_lines(path, &j->was_keyed);
	/* One open at a time, the store's: what journal_power_loss() cuts. */
	store_faults()->journal = j;
	return j;
}

void journal_power_loss(void)
{
	const struct journal *j = store_faults()->journal;

	if (j && j->synced >= 0 && ftruncate(j->fd, j->synced))
		log_error(LOG_GAME, "power loss: cannot cut the journal: %s", strerror(errno));
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	if (store_faults()->journal == j)
		store_faults()->journal = NULL;
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
	/* The chained line (written by journal_append_line) must fit JOURNAL_LINE_MAX. */
	room = JOURNAL_LINE_MAX - 9 - CHAINED_EXTRA - 1;
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

/* One line of journal_format appended, chained in the journal's mode. */
static int append_one(struct journal *j, const char *line, size_t len)
{
	char out[JOURNAL_LINE_MAX + CHAINED_EXTRA + 1];
	struct journal_chain next = j->chain;
	off_t before;
	ssize_t w;
	int n;

	if (j->torn) {
		if (state_write(j->fd, "\n", 1) != 1)
			return -1;
		j->torn = false;
		/* The reader sees a bad line there; the chain moves on by its bytes as well
		 * (plain: a bad line is no keyed one). */
		journal_chain_next(&j->chain, j->torn_text, j->torn_len);
		j->has_lines = true;
		j->lines++;
		journal_chain_hex(&j->chain, j->chain_hex);
		next = j->chain;
	}
	n = chain_line(&next, j->keyed, line, len, out);
	if (n < 0) {
		errno = EINVAL;
		return -1;
	}
	before = lseek(j->fd, 0, SEEK_END);
	w = state_write(j->fd, out, (size_t)n);

	if (w != (ssize_t)n) {
		int e = w < 0 ? errno : ENOSPC;

		/* A short write would leave a torn record in the middle of the journal, gluing
		 * the next one to it: cut it off again. */
		if (w > 0 && before >= 0 && ftruncate(j->fd, before)) {
			j->torn = true;
			j->torn_len = (size_t)w;
			memcpy(j->torn_text, out, (size_t)w);
		}
		errno = e;
		return -1;
	}
	j->chain = next;
	j->has_lines = true;
	j->lines++;
	journal_chain_hex(&j->chain, j->chain_hex);
	j->dirty = true;
	return 0;
}

int journal_append_line(struct journal *j, const char *line, size_t len)
{
	/* Key notes are the journal's own: one another copy of the record carried is left out
	 * (its chain is not this one's). */
	if (is_key_note(line, len))
		return 0;
	/* The chain keyed from here on, or (without the key) no longer keyed: said by a note,
	 * before this open's first line after the file's first. */
	if (!j->noted && j->has_lines && (device_key.set || j->was_keyed)) {
		char note[JOURNAL_LINE_MAX + 1];
		int n = key_note(note, sizeof(note), line);

		if (n < 0) {
			errno = EINVAL;
			return -1;
		}
		j->keyed = device_key.set;
		if (append_one(j, note, (size_t)n)) {
			j->keyed = false;
			return -1;
		}
		j->noted = true;
	}
	return append_one(j, line, len);
}

/* Sync everything appended so far to storage (fdatasync), if syncing is on. */
static int journal_sync(struct journal *j)
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
