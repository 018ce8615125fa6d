/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/state.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/faults.h"

static struct store_faults faults = {.sync_delay_sleeps = true, .crash_budget = -1};

struct store_faults *store_faults(void)
{
	return &faults;
}

void state_set_fault(enum state_fault f)
{
	atomic_store(&faults.cut_short, false);
	atomic_store(&faults.storage, f);
}

int state_fault_parse(const char *word)
{
	static const char *const names[] = {"ok", "full", "eio", "readonly"};

	for (int i = 0; i < 4; i++)
		if (!strcmp(word, names[i]))
			return i;
	return -1;
}

ssize_t state_fault_allow(size_t len)
{
	switch ((enum state_fault)atomic_load(&faults.storage)) {
	case STATE_FAULT_NONE:
		return (ssize_t)len;
	case STATE_FAULT_FULL:
		if (len > 1 && !atomic_exchange(&faults.cut_short, true)) {
			return (ssize_t)(len / 2);
		}
		errno = ENOSPC;
		return -1;
	case STATE_FAULT_EIO:
		errno = EIO;
		return -1;
	case STATE_FAULT_READONLY:
		errno = EROFS;
		return -1;
	}
	return (ssize_t)len;
}

void state_set_sync_delay(uint32_t ms)
{
	atomic_store(&faults.sync_delay_ms, ms);
}

uint32_t state_sync_delay(void)
{
	return atomic_load(&faults.sync_delay_ms);
}

void state_set_sync_delay_sleeps(bool sleeps)
{
	atomic_store(&faults.sync_delay_sleeps, sleeps);
}

static void sync_delay(void)
{
	uint32_t ms = atomic_load(&faults.sync_delay_ms);
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};

	if (!ms || !atomic_load(&faults.sync_delay_sleeps))
		return;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int state_sync(int fd)
{
	sync_delay();
	return fdatasync(fd);
}

int state_sync_fd(int fd, bool really)
{
	if (really && state_fault_allow(1) < 0)
		return -1;
	sync_delay();
	return really ? fdatasync(fd) : 0;
}

void state_crash_after(unsigned long bytes)
{
	atomic_store(&faults.crash_budget, (long)bytes);
}

ssize_t state_write(int fd, const void *data, size_t len)
{
	ssize_t allowed = state_fault_allow(len);
	long budget = atomic_load(&faults.crash_budget);

	if (allowed <= 0)
		return allowed;
	if (budget >= 0) {
		if (allowed >= budget) {
			/* The power goes within this write: what reached the disk stays. */
			if (budget > 0 && write(fd, data, (size_t)budget) < 0)
				budget = 0;
			kill(getpid(), SIGKILL);
			for (;;)
				pause();
		}
		atomic_fetch_sub(&faults.crash_budget, (long)allowed);
	}
	return write(fd, data, (size_t)allowed);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int state_remove_tree(const char *path)
{
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool owner_set;
static uid_t owner_uid;
static gid_t owner_gid;

void state_set_owner(uid_t uid, gid_t gid)
{
	owner_set = true;
	owner_uid = uid;
	owner_gid = gid;
}

/* A file or directory just made gets the owner set (a failure is the caller's: errno). */
static int own_fd(int fd)
{
	return owner_set ? fchown(fd, owner_uid, owner_gid) : 0;
}

static int own_path(const char *path)
{
	return owner_set ? chown(path, owner_uid, owner_gid) : 0;
}

/* A write refused by the storage fault now (read-only, EIO): -1 with errno, else 0. */
static int fault_refuses(void)
{
	enum state_fault f = atomic_load(&faults.storage);

	if (f != STATE_FAULT_READONLY && f != STATE_FAULT_EIO)
		return 0;
	errno = f == STATE_FAULT_EIO ? EIO : EROFS;
	return -1;
}

int state_open(const char *path, int flags, mode_t mode)
{
	int fd;

	if ((flags & (O_WRONLY | O_RDWR | O_CREAT)) && fault_refuses())
		return -1;
	fd = open(path, flags, mode);
	if (fd >= 0 && (flags & O_CREAT) && own_fd(fd)) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int state_mkdir(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (fault_refuses())
		return -1;
	if (len == 0 || len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0750) == 0) {
			if (own_path(buf))
				return -1;
		} else if (errno != EEXIST) {
			return -1;
		}
		*p = '/';
	}
	if (mkdir(buf, 0750) == 0)
		return own_path(buf);
	if (errno != EEXIST)
		return -1;
	return 0;
}

static int sync_parent(const char *path)
{
	char buf[PATH_MAX];
	int fd, rc;

	snprintf(buf, sizeof(buf), "%s", path);
	fd = open(dirname(buf), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = state_sync(fd);
	close(fd);
	return rc;
}

int state_write_atomic(const char *path, const char *data, size_t len, bool sync)
{
	char tmp[PATH_MAX];
	int fd;
	size_t done = 0;
	enum state_fault f = atomic_load(&faults.storage);

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (f == STATE_FAULT_READONLY || f == STATE_FAULT_EIO) {
		errno = f == STATE_FAULT_EIO ? EIO : EROFS;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (fd < 0)
		return -1;
	if (own_fd(fd))
		goto fail;
	while (done < len) {
		ssize_t w = state_write(fd, data + done, len - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		done += (size_t)w;
	}
	if (sync && state_sync(fd))
		goto fail;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path))
		return -1;
	return sync ? sync_parent(path) : 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return -1;
}

int state_link(const char *from, const char *to)
{
	if (fault_refuses())
		return -1;
	return link(from, to);
}

/* dir/games/ID-WHAT-N.EXT into path; 0, or -1 (ENAMETOOLONG). */
static int kept_path(const char *dir, const char *id, const char *what, int n, const char *ext,
		     char *path, size_t size)
{
	if (snprintf(path, size, "%s/games/%s-%s-%d.%s", dir, id[0] ? id : "unknown", what, n,
		     ext) < (int)size)
		return 0;
	errno = ENAMETOOLONG;
	return -1;
}

int state_kept_name(const char *dir, const char *id, const char *what, const char *ext, char *path,
		    size_t size)
{
	for (int n = 1; n < 1000; n++) {
		if (kept_path(dir, id, what, n, ext, path, size))
			return -1;
		if (access(path, F_OK))
			return 0;
	}
	errno = EEXIST;
	return -1;
}

int state_keep(const char *dir, const char *path, const char *id, const char *what, const char *ext,
	       char *kept, size_t size)
{
	size_t len, klen;
	char *text = state_read_file(path, &len);
	int rc = -1;

	if (!text)
		return -1;
	for (int n = 1; n < 1000 && rc; n++) {
		char *other;

		if (kept_path(dir, id, what, n, ext, kept, size))
			break;
		if (access(kept, F_OK)) {
			rc = state_link(path, kept);
			break;
		}
		other = state_read_file(kept, &klen);
		if (other && klen == len && !memcmp(other, text, len))
			rc = 0;
		free(other);
	}
	free(text);
	return rc;
}

char *state_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t size = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (size + 4096 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 8192;
			char *n = realloc(buf, ncap);

			if (!n) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = n;
			cap = ncap;
		}
		size_t r = fread(buf + size, 1, 4096, f);

		size += r;
		if (r < 4096)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	buf[size] = '\0';
	if (len)
		*len = size;
	return buf;
}
