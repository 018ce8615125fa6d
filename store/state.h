/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The state directory's files: atomic replacement and directory creation.
 */
#ifndef ANNABELLA_STATE_H
#define ANNABELLA_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* mkdir -p; 0 or -1 with errno. */
int state_mkdir(const char *path);
/* Files and directories made from now on get this owner and group (`annabella fsck` run as
 * root on the service's state directory: its repairs stay the service's). */
void state_set_owner(uid_t uid, gid_t gid);
/* open(2) through the fault hook: a read-only or failing storage refuses to open a file for
 * writing (as a read-only mount does).  The descriptor, or -1 with errno. */
int state_open(const char *path, int flags, mode_t mode);
/* Replace path with data atomically (temporary file, optional fsync, rename, optional
 * directory fsync).  0 or -1 with errno. */
int state_write_atomic(const char *path, const char *data, size_t len, bool sync);
/* link(2) through the fault hook: a copy kept under another name (the same file, its owner
 * and mode).  0 or -1 with errno. */
int state_link(const char *from, const char *to);
/* A free name dir/games/ID-WHAT-N.EXT (N from 1; ID "unknown" if "") for a copy of a file
 * kept before it is written again.  0, or -1 with errno. */
int state_kept_name(const char *dir, const char *id, const char *what, const char *ext, char *path,
		    size_t size);
/* path kept under dir/games/ as ID-WHAT-N.EXT (state_kept_name(); a link: the same file)
 * before it is written again, its name into kept; one kept there already with the same
 * bytes is that one (a repair tried again keeps one copy).  0, or -1 with errno. */
int state_keep(const char *dir, const char *path, const char *id, const char *what, const char *ext,
	       char *kept, size_t size);
/* Read a whole file (NUL-terminated, malloc'd); NULL with errno. */
char *state_read_file(const char *path, size_t *len);

/*
 * A storage fault played from a board script (`+MS disk full|eio|readonly|ok`): from now on
 * every write to the state directory through this module and the journal fails that way
 * (full: the first write after the fault is cut short, as on a disk that fills up mid-write,
 * then ENOSPC; eio: EIO; readonly: EROFS), until `ok`.  For tests only: nothing else sets it.
 * This and the setters below act on the store's one set of faults (store/faults.h).
 */
enum state_fault { STATE_FAULT_NONE = 0, STATE_FAULT_FULL, STATE_FAULT_EIO, STATE_FAULT_READONLY };
void state_set_fault(enum state_fault f);
/* "full", "eio", "readonly", "ok" -> the fault (-1 if none of them). */
int state_fault_parse(const char *word);
/* Whether a write of len bytes may go ahead: len itself, fewer (a short write), or -1 with
 * errno set. */
ssize_t state_fault_allow(size_t len);
/* `+MS disk slow MS` (docs/scripts.md "Board scripts, line logs, time controls"): from now on each
 * sync of the state directory takes ms longer, as on an SD card (0: as fast as the storage is). For
 * tests and benchmarks. */
void state_set_sync_delay(uint32_t ms);
uint32_t state_sync_delay(void);
/* Whether the delay is slept (real time), or taken in daemon time by the caller (virtual
 * time: the store keeps a sync unfinished until its time has come). */
void state_set_sync_delay_sleeps(bool sleeps);
/* fdatasync(2) of fd as a sync of the state directory, the delay above included.  0, or -1
 * with errno. */
int state_sync(int fd);
/* A sync of the journal: with `really`, the storage fault hook and fdatasync; without
 * ([state] sync = no), only the delay.  0, or -1 with errno. */
int state_sync_fd(int fd, bool really);
/* Remove a directory and everything under it (a board script's `disk removed`).  0 or -1
 * with errno. */
int state_remove_tree(const char *path);
/* A power cut after `bytes` more bytes written through state_write() (any thread): the
 * write that reaches the count is cut there and the process is killed (SIGKILL, as the
 * board script's `crash`).  For tests only (`+MS crash after BYTES`). */
void state_crash_after(unsigned long bytes);
/* write(2) through the fault hook: as write, or short, or -1 with errno. */
ssize_t state_write(int fd, const void *data, size_t len);

#endif
