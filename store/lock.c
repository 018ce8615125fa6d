/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "store/state.h"

static void lock_path(const char *dir, char *path, size_t size)
{
	snprintf(path, size, "%s/lock", dir);
}

/* The pid the kernel lists as holding a flock on the file (/proc/locks), 0 if none is
 * listed (or the list cannot be read). */
static pid_t kernel_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256];
	pid_t found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char kind[16];
		unsigned maj, min;
		unsigned long ino;
		int pid;

		/* "1: FLOCK  ADVISORY  WRITE 1234 08:02:1311153 0 EOF"; a waiter's line has
		 * "->" after the number. */
		if (strstr(line, "->") ||
		    sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%lu", kind, &pid, &maj, &min, &ino) !=
			5 ||
		    strcmp(kind, "FLOCK"))
			continue;
		if (ino == st->st_ino && maj == major(st->st_dev) && min == minor(st->st_dev))
			found = pid;
	}
	fclose(f);
	return found;
}

/* The pid the holder wrote into the file, 0 if none. */
static pid_t written_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, NULL, 10);
	return pid > 0 && pid < INT_MAX ? (pid_t)pid : 0;
}

int state_lock(const char *dir, bool exclusive, pid_t *holder)
{
	char path[PATH_MAX], pid[32];
	struct stat st;
	int fd, n;

	*holder = 0;
	lock_path(dir, path, sizeof(path));
	fd = exclusive ? state_open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640) : -1;
	if (fd < 0)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB)) {
		int e = errno;

		if (e == EWOULDBLOCK) {
			*holder = fstat(fd, &st) == 0 ? kernel_holder(&st) : 0;
			if (!*holder)
				*holder = written_holder(fd);
		}
		close(fd);
		errno = e;
		return -1;
	}
	/* Who holds it, for whoever is refused (a file opened read-only keeps the last). */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (exclusive && ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) != n)
		errno = 0; /* the pid is a courtesy; the lock is what counts */
	return fd;
}

bool state_lock_holds(int fd, const char *dir)
{
	char path[PATH_MAX];
	struct stat held, now;

	lock_path(dir, path, sizeof(path));
	return fd >= 0 && fstat(fd, &held) == 0 && held.st_nlink > 0 && stat(path, &now) == 0 &&
	       now.st_dev == held.st_dev && now.st_ino == held.st_ino;
}
