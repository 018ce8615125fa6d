/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/pendlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileplace.h"

static int open_append(const char *path)
{
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
}

int pendlog_open(struct pendlog *l, const char *path, enum log_category cat, size_t max,
		 pendlog_write_fn write)
{
	const char *slash;

	memset(l, 0, sizeof(*l));
	snprintf(l->path, sizeof(l->path), "%s", path);
	slash = strrchr(l->path, '/');
	l->name = slash ? slash + 1 : l->path;
	l->cat = cat;
	l->max = max;
	l->write = write;
	l->fd = open_append(l->path);
	if (l->fd < 0) {
		int e = errno;

		log_warn(cat, "%s: %s; its lines are kept and written when it can be", l->path,
			 strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

/* Before what waits, in the file opened in place of one that went: the start line if it
 * is made again (empty), and what went into a file made again before it. */
static void put_first(struct pendlog *l, bool made_again)
{
	struct strbuf b = {0};
	size_t start = made_again ? strlen(l->start) : 0;

	strbuf_append(&b, l->start, start);
	if (l->carried.len)
		strbuf_append(&b, l->carried.p, l->carried.len);
	strbuf_append(&b, l->pending.p ? l->pending.p + l->off : "", l->pending.len - l->off);
	if (b.failed) {
		free(b.p);
		return; /* out of memory: what waits is written as it is */
	}
	free(l->pending.p);
	l->pending = b;
	l->off = 0;
	l->carry_skip = start;
	l->carried.len = 0;
}

/* Not open yet (read-only storage at the start): opened as soon as it can be.  Its file gone
 * (its directory removed, the storage unmounted) or another in its place (mounted again):
 * the path opened again, its directory made again. */
static void reopen(struct pendlog *l)
{
	struct stat st;
	int fd;

	if (l->fd >= 0) {
		if (file_in_place(l->fd, l->path))
			return;
		close(l->fd);
		l->fd = -1;
		l->gone = true;
		/* What went into the file the log found at its start went with it. */
		if (!l->made_again)
			l->carried.len = 0;
		log_warn(l->cat, "%s was removed or replaced (the storage unmounted?)", l->name);
	}
	if (l->gone && file_make_dir(l->path))
		return;
	fd = open_append(l->path);
	if (fd < 0)
		return;
	l->fd = fd;
	if (!l->gone) {
		log_info(l->cat, "%s: opened, with the lines kept meanwhile", l->name);
		return;
	}
	l->gone = false;
	l->made_again = fstat(fd, &st) == 0 && st.st_size == 0;
	put_first(l, l->made_again);
	log_warn(l->cat, "%s: %s", l->name,
		 l->made_again ? "made again"
			       : "found again, what was written meanwhile goes on in it");
}

/* Bytes written into the file: kept to be carried while it is one made again. */
static void carry(struct pendlog *l, const char *p, size_t n)
{
	size_t skip = n < l->carry_skip ? n : l->carry_skip;

	l->carry_skip -= skip;
	if (!l->made_again || l->carried.len + n - skip > l->max)
		return;
	strbuf_append(&l->carried, p + skip, n - skip);
}

/* The time a line begins with (its leading digits), for the note of lines dropped. */
static void line_time(const char *line, size_t len, char *out, size_t size)
{
	size_t n = 0;

	while (n < len && n + 1 < size && line[n] >= '0' && line[n] <= '9') {
		out[n] = line[n];
		n++;
	}
	if (!n && size > 1)
		out[n++] = '?';
	out[n] = '\0';
}

bool pendlog_flush(struct pendlog *l)
{
	reopen(l);
	if (l->fd < 0)
		return false;
	for (;;) {
		while (l->off < l->pending.len) {
			size_t n = l->pending.len - l->off;
			ssize_t w = l->write ? l->write(l->fd, l->pending.p + l->off, n)
					     : write(l->fd, l->pending.p + l->off, n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				if (!l->failing)
					log_warn(l->cat,
						 "%s: cannot write (%s): its lines are kept and "
						 "written when storage works again",
						 l->name,
						 w < 0 ? strerror(errno) : "nothing written");
				l->failing = true;
				return false;
			}
			carry(l, l->pending.p + l->off, (size_t)w);
			l->off += (size_t)w;
		}
		l->pending.len = l->off = 0;
		if (!l->lost)
			break;
		/* The lines dropped go where they were: after those kept, before the next. */
		strbuf_printf(&l->pending,
			      "%s dropped %lu lines (%zu bytes, the last at %s): storage failed "
			      "while the %zu bytes kept in memory were full\n",
			      l->lost_first, l->lost, l->lost_bytes, l->lost_last, l->max);
		l->lost = 0;
		l->lost_bytes = 0;
		if (l->pending.failed)
			break;
	}
	if (l->failing)
		log_warn(l->cat, "%s: written again, with the lines kept meanwhile", l->name);
	l->failing = false;
	return true;
}

void pendlog_add(struct pendlog *l, const char *line, size_t len)
{
	if (l->pending.len - l->off + len > l->max && pendlog_waiting(l))
		pendlog_flush(l); /* storage may work again: room then */
	if (l->pending.len - l->off + len > l->max) {
		if (!l->lost) {
			log_error(l->cat,
				  "%s: %zu bytes kept unwritten; further lines are dropped (noted "
				  "in the file)",
				  l->name, l->max);
			line_time(line, len, l->lost_first, sizeof(l->lost_first));
		}
		l->lost++;
		l->lost_bytes += len;
		line_time(line, len, l->lost_last, sizeof(l->lost_last));
		return;
	}
	strbuf_append(&l->pending, line, len);
	if (l->pending.failed) {
		/* Out of memory: what was kept is dropped, and noted. */
		free(l->pending.p);
		l->pending = (struct strbuf){0};
		l->off = 0;
		if (!l->lost)
			line_time(line, len, l->lost_first, sizeof(l->lost_first));
		l->lost++;
		l->lost_bytes += len;
		line_time(line, len, l->lost_last, sizeof(l->lost_last));
		return;
	}
	pendlog_flush(l);
}

void pendlog_start(struct pendlog *l, const char *line, size_t len)
{
	if (len < sizeof(l->start)) {
		memcpy(l->start, line, len);
		l->start[len] = '\0';
	}
	pendlog_add(l, line, len);
}

bool pendlog_waiting(const struct pendlog *l)
{
	return l->off < l->pending.len;
}

void pendlog_close(struct pendlog *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->pending.p);
	l->pending = (struct strbuf){0};
	l->off = 0;
	free(l->carried.p);
	l->carried = (struct strbuf){0};
}
