/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/fileplace.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

bool file_in_place(int fd, const char *path)
{
	struct stat held, now;

	if (fstat(fd, &held))
		return true;
	if (held.st_nlink == 0)
		return false;
	if (stat(path, &now))
		return errno != ENOENT;
	return held.st_dev == now.st_dev && held.st_ino == now.st_ino;
}

int file_make_dir(const char *path)
{
	char dir[PATH_MAX], *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0750) && errno != EEXIST)
		return -1;
	return 0;
}
