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

struct journal {
	int fd;
	bool sync;
	bool dirty;
};

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
	j->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (j->fd < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		free(j);
		return NULL;
	}
	j->sync = sync;
	return j;
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	journal_sync(j);
	close(j->fd);
	free(j);
}

int journal_append(struct journal *j, uint64_t ms, const char *type, const char *fmt, ...)
{
	char line[JOURNAL_LINE_MAX];
	char *body = line + 9; /* after "CRC32HEX " */
	size_t room = sizeof(line) - 9 - 1;
	int n = snprintf(body, room, "%" PRIu64 " %s", ms, type);
	va_list ap;

	/* Only what journal_read() takes back: a type of one word that fits its record. */
	if (!type || !*type || strlen(type) >= sizeof(((struct journal_record *)0)->type) ||
	    strpbrk(type, " \t\r\n")) {
		log_error(LOG_GAME, "journal record type '%s' refused", type ? type : "(null)");
		return -1;
	}
	if (n < 0 || (size_t)n >= room)
		return -1;
	if (fmt && *fmt) {
		int m;

		body[n++] = ' ';
		va_start(ap, fmt);
		m = vsnprintf(body + n, room - (size_t)n, fmt, ap);
		va_end(ap);
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
	size_t len = 9 + (size_t)n;
	ssize_t w = write(j->fd, line, len);

	if (w != (ssize_t)len) {
		log_error(LOG_GAME, "journal write failed: %s", w < 0 ? strerror(errno) : "short");
		return -1;
	}
	j->dirty = true;
	return 0;
}

int journal_sync(struct journal *j)
{
	if (!j->dirty || !j->sync)
		return 0;
	j->dirty = false;
	if (fdatasync(j->fd)) {
		log_error(LOG_GAME, "journal sync failed: %s", strerror(errno));
		return -1;
	}
	return 0;
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

int journal_read(const char *path, bool repair, journal_record_fn fn, void *user, char *err,
		 size_t err_size)
{
	FILE *f = fopen(path, "r");
	char line[JOURNAL_LINE_MAX + 2];
	long good_end = 0;
	int lineno = 0, count = 0;
	bool torn = false;

	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		struct journal_record rec;

		lineno++;
		if (len == 0 || line[len - 1] != '\n') {
			torn = true;
			break;
		}
		line[len - 1] = '\0';
		if (parse_line(line, len - 1, lineno, &rec)) {
			torn = true;
			break;
		}
		if (fn && fn(user, &rec)) {
			snprintf(err, err_size, "%s:%d: bad record '%s'", path, lineno, rec.type);
			fclose(f);
			return -1;
		}
		count++;
		good_end = ftell(f);
	}
	fclose(f);
	if (torn) {
		log_warn(LOG_GAME, "%s:%d: torn or corrupt journal tail dropped", path, lineno);
		if (repair && truncate(path, good_end)) {
			snprintf(err, err_size, "%s: cannot cut the bad tail: %s", path,
				 strerror(errno));
			return -1;
		}
	}
	return count;
}
