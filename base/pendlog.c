/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/pendlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static int open_append(const char *path)
{
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
}

/* The digest begun again from what the file holds now (it was just opened). */
static void digest_file(struct pendlog *l)
{
	unsigned char buf[65536];
	int fd = open(l->path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;

	sha256_init(&l->digest);
	l->digested = 0;
	l->digest_known = fd >= 0;
	while (fd >= 0 && ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))) {
		if (n < 0)
			continue;
		sha256_update(&l->digest, buf, (size_t)n);
		l->digested += n;
	}
	if (fd >= 0 && n < 0)
		l->digest_known = false;
	if (fd >= 0)
		close(fd);
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
	digest_file(l);
	return 0;
}

/* Not open yet (read-only storage at the start): opened as soon as it can be.  Its directory
 * removed (deleted, unmounted): made again there, so what comes from now on is logged (what
 * the removed file held is gone). */
static void reopen(struct pendlog *l)
{
	struct stat st;
	char dir[sizeof(l->path)];
	char *slash;
	int fd;

	if (l->fd < 0) {
		l->fd = open_append(l->path);
		if (l->fd >= 0) {
			digest_file(l);
			log_info(l->cat, "%s: opened, with the lines kept meanwhile", l->name);
		}
		return;
	}
	if (fstat(l->fd, &st) || st.st_nlink > 0)
		return;
	snprintf(dir, sizeof(dir), "%s", l->path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0750) && errno != EEXIST)
			return;
	}
	fd = open_append(l->path);
	if (fd < 0)
		return;
	close(l->fd);
	l->fd = fd;
	digest_file(l);
	log_warn(l->cat, "%s was removed: made again", l->name);
}

void pendlog_set_reserve(struct pendlog *l, unsigned long long bytes)
{
	l->reserve = bytes;
}

/* Whether the file system has room for what is kept and the reserve besides; said once when
 * it has not, and when it has again (a file system that cannot tell has room). */
static bool room(struct pendlog *l)
{
	struct statvfs fs;
	bool has;

	if (!l->reserve || fstatvfs(l->fd, &fs))
		return true;
	has =
	    (unsigned long long)fs.f_bavail * fs.f_frsize >= l->reserve + (l->pending.len - l->off);
	if (!has && !l->holding)
		log_warn(
		    l->cat,
		    "%s: stops here: the last %llu MiB of its storage are kept for the game's "
		    "record; its lines are kept (up to %zu KiB) and written when there is room",
		    l->name, l->reserve >> 20, l->max >> 10);
	else if (has && l->holding)
		log_warn(l->cat, "%s: room again: written on, with the lines kept meanwhile%s",
			 l->name, l->lost ? " (except the lines over the limit)" : "");
	l->holding = !has;
	return has;
}

bool pendlog_flush(struct pendlog *l)
{
	reopen(l);
	if (l->fd < 0 || !room(l))
		return false;
	while (l->off < l->pending.len) {
		size_t n = l->pending.len - l->off;
		ssize_t w = l->write ? l->write(l->fd, l->pending.p + l->off, n)
				     : write(l->fd, l->pending.p + l->off, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!l->failing)
				log_warn(l->cat,
					 "%s: cannot write (%s): its lines are kept and written "
					 "when storage works again",
					 l->name, w < 0 ? strerror(errno) : "nothing written");
			l->failing = true;
			return false;
		}
		sha256_update(&l->digest, l->pending.p + l->off, (size_t)w);
		l->digested += w;
		l->off += (size_t)w;
	}
	if (l->failing)
		log_warn(l->cat, "%s: written again, with the lines kept meanwhile%s", l->name,
			 l->lost ? " (except the lines over the limit)" : "");
	l->failing = false;
	l->pending.len = l->off = 0;
	return true;
}

void pendlog_add(struct pendlog *l, const char *line, size_t len)
{
	if (l->pending.len - l->off + len > l->max && pendlog_waiting(l))
		pendlog_flush(l); /* storage may work again: room then */
	if (l->pending.len - l->off + len > l->max) {
		if (!l->lost++)
			log_error(l->cat,
				  "%s: %zu bytes kept unwritten; further lines are not kept",
				  l->name, l->max);
		return;
	}
	strbuf_append(&l->pending, line, len);
	if (l->pending.failed) {
		free(l->pending.p);
		l->pending = (struct strbuf){0};
		l->off = 0;
		l->lost++;
		return;
	}
	pendlog_flush(l);
}

bool pendlog_waiting(const struct pendlog *l)
{
	return l->off < l->pending.len;
}

void pendlog_close(struct pendlog *l)
{
	if (pendlog_waiting(l))
		log_error(l->cat, "%s: %zu bytes of lines could not be written before the stop",
			  l->name, l->pending.len - l->off);
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->pending.p);
	l->pending = (struct strbuf){0};
	l->off = 0;
}

int pendlog_digest(const struct pendlog *l, off_t *bytes, char hex[2 * SHA256_SIZE + 1])
{
	struct sha256 copy = l->digest;
	unsigned char d[SHA256_SIZE];

	if (l->fd < 0 || !l->digest_known)
		return -1;
	sha256_final(&copy, d);
	sha256_hex(d, sizeof(d), hex);
	*bytes = l->digested;
	return 0;
}
