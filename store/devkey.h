/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The device key (README "Security model"): the key of the journal's chain (store/journal.h),
 * 32 bytes written as 64 hex digits in DIR-key/device-key beside the state directory DIR
 * (/var/lib/annabella-key/device-key), never inside it, so a backup or a copy of the state
 * directory never holds it.  The file is 0600 and its directory 0700: only the daemon's user
 * (and root) reads it.  The daemon makes it at its first start from the kernel's random
 * source, where the package's install has not made it (on a Raspberry Pi 4 or 5 whose OTP
 * private key the club has set, the install derives it from that key).  A key that exists
 * but cannot be read is never made again: the game is then journaled with a plain chain and
 * the daemon says why.
 */
#ifndef ANNABELLA_DEVKEY_H
#define ANNABELLA_DEVKEY_H

#include <stdbool.h>
#include <stddef.h>

#define DEVKEY_BYTES 32
#define DEVKEY_FILE  "device-key"

/* The state directory a journal file belongs to, into out: its directory, or the one above
 * for a finished game's journal under games/ ("." for a bare file name). */
void devkey_state_dir(const char *journal, char *out, size_t size);
/* The key's path for the state directory dir into out; -1 when it does not fit. */
int devkey_path(const char *dir, char *out, size_t size);
/* The key at path into key; with make, a missing one is made first.  0, or -1 with why in
 * err. */
int devkey_load(const char *path, bool make, unsigned char key[DEVKEY_BYTES], char *err,
		size_t err_size);
/* The key of the state directory dir given to the journal (journal_use_key()), when it can be
 * read (or, with make, made): 0, or -1 with why in err and the chain not keyed. */
int devkey_use(const char *dir, bool make, char *err, size_t err_size);

#endif
