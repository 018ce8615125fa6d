/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/fileplace.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

bool file_id_in_place(dev_t dev, ino_t ino, const char *path)
{
	struct stat now;

	if (stat(path, &now))
		return errno != ENOENT;
	return now.st_dev == dev && now.st_ino == ino;
}

bool file_in_place(int fd, const char *path)
{
	struct stat held;

	if (fstat(fd, &held))
		return true;
	return held.st_nlink > 0 && file_id_in_place(held.st_dev, held.st_ino, path);
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
