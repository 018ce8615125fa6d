/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The state directory's files: atomic replacement and directory creation.
 */
#ifndef ANNABELLA_STATE_H
#define ANNABELLA_STATE_H

#include <stdbool.h>
#include <stddef.h>

/* mkdir -p; 0 or -1 with errno. */
int state_mkdir(const char *path);
/* Replace path with data atomically (temporary file, optional fsync, rename, optional
 * directory fsync).  0 or -1 with errno. */
int state_write_atomic(const char *path, const char *data, size_t len, bool sync);
/* Read a whole file (NUL-terminated, malloc'd); NULL with errno. */
char *state_read_file(const char *path, size_t *len);

#endif
