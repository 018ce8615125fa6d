/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/devkey.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sha256.h"
#include "store/journal.h"

void devkey_state_dir(const char *journal, char *out, size_t size)
{
	char *slash, *real;

	snprintf(out, size, "%s", journal);
	slash = strrchr(out, '/');
	if (slash)
		slash[slash == out] = '\0'; /* "/journal": "/" */
	else
		snprintf(out, size, ".");
	real = realpath(out, NULL);
	slash = real ? strrchr(real, '/') : NULL;
	if (slash && !strcmp(slash + 1, "games")) {
		slash[slash == real] = '\0';
		snprintf(out, size, "%s", real);
	}
	free(real);
}

int devkey_path(const char *dir, char *out, size_t size)
{
	char *real = realpath(dir, NULL); /* "." or "games/..": the directory's own name */
	const char *d = real ? real : dir;
	size_t n = strlen(d);
	int rc;

	/* "/var/lib/annabella/" is the directory "/var/lib/annabella". */
	while (n > 1 && d[n - 1] == '/')
		n--;
	rc = snprintf(out, size, "%.*s-key/%s", (int)n, d, DEVKEY_FILE) < (int)size ? 0 : -1;
	free(real);
	return rc;
}

/* A new key at path: its directory made (0700), the file written whole (0600, synced) or
 * not at all. */
static int make_key(const char *path, char *err, size_t err_size)
{
	unsigned char key[DEVKEY_BYTES];
	char dir[4096], tmp[4200], hex[2 * DEVKEY_BYTES + 2];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST) {
			snprintf(err, err_size, "%s: %s", dir, strerror(errno));
			return -1;
		}
	}
	if (getrandom(key, sizeof(key), 0) != (ssize_t)sizeof(key)) {
		snprintf(err, err_size, "no random source: %s", strerror(errno));
		return -1;
	}
	sha256_hex(key, sizeof(key), hex);
	explicit_bzero(key, sizeof(key));
	strcat(hex, "\n");
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || write(fd, hex, strlen(hex)) != (ssize_t)strlen(hex) || fsync(fd) ||
	    close(fd) || link(tmp, path)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		unlink(tmp);
		explicit_bzero(hex, sizeof(hex));
		/* Made meanwhile by another: that one is the key. */
		if (e == EEXIST)
			return 0;
		snprintf(err, err_size, "%s: %s", path, strerror(e));
		return -1;
	}
	unlink(tmp);
	explicit_bzero(hex, sizeof(hex));
	return 0;
}

int devkey_load(const char *path, bool make, unsigned char key[DEVKEY_BYTES], char *err,
		size_t err_size)
{
	char hex[2 * DEVKEY_BYTES + 2] = "";
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0 && errno == ENOENT && make) {
		if (make_key(path, err, err_size))
			return -1;
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	}
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, hex, sizeof(hex) - 1);
	close(fd);
	if (n >= 2 * DEVKEY_BYTES && !sha256_unhex(hex, key, DEVKEY_BYTES))
		n = -1;
	explicit_bzero(hex, sizeof(hex));
	if (n < 2 * DEVKEY_BYTES) {
		snprintf(err, err_size, "%s: not a device key (64 hex digits)", path);
		return -1;
	}
	return 0;
}

int devkey_use(const char *dir, bool make, char *err, size_t err_size)
{
	unsigned char key[DEVKEY_BYTES];
	char path[4096];

	journal_use_key(NULL, 0);
	if (devkey_path(dir, path, sizeof(path))) {
		snprintf(err, err_size, "%s: path too long for its device key", dir);
		return -1;
	}
	if (devkey_load(path, make, key, err, err_size))
		return -1;
	journal_use_key(key, sizeof(key));
	explicit_bzero(key, sizeof(key));
	return 0;
}
