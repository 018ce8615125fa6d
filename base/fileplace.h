/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Whether a file the program writes is still where it opened it (docs/state.md "State directory"):
 * the state directory may be removed, or the storage under it unmounted and mounted again
 * (a card pulled and put back), and a descriptor open on the old file writes on into
 * nothing anyone will read.  The journal, the logs and the audio record look before they
 * write and open their path again.
 */
#ifndef ANNABELLA_FILEPLACE_H
#define ANNABELLA_FILEPLACE_H

#include <stdbool.h>
#include <sys/types.h>

/* Whether the file open as fd is the one at path: not removed, and no other file in its
 * place.  A path that cannot be looked at now (EIO) counts as in place: the writes tell. */
bool file_in_place(int fd, const char *path);
/* The same for a file known by its device and inode (one the caller does not hold open). */
bool file_id_in_place(dev_t dev, ino_t ino, const char *path);
/* The directory of path made again (one level, 0750) if it is missing.  0, or -1 with
 * errno. */
int file_make_dir(const char *path);

#endif
