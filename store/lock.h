/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The state directory's lock (docs/state.md "State directory": `lock`): one writer at a time.  A
 * daemon holds an exclusive advisory lock (flock(2)) on STATE/lock for its life, and
 * `annabella fsck` one for its run (shared for a dry run, which only reads), so a second
 * daemon on the same directory (one started by hand beside the service, a unit started
 * twice) or a repair while the daemon writes is refused instead of interleaving the journal
 * and racing on the atomic writes' temporary files.  The holder of an exclusive lock writes
 * its pid into the file; whoever is refused is told the holder's pid (the kernel's list of
 * locks, else the file's).  The lock goes with the descriptor (close-on-exec, not
 * inherited by the programs the daemon starts).
 */
#ifndef ANNABELLA_LOCK_H
#define ANNABELLA_LOCK_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The lock on dir/lock (made 0640 if missing; a file that cannot be made, on read-only
 * storage, is opened as it is, and only if it is there).  The descriptor that holds it, or
 * -1 with errno: EWOULDBLOCK when another process holds it (*holder: its pid, 0 if unknown),
 * else why the file cannot be opened (ENOENT, EROFS: there is nothing to lock yet).
 */
int state_lock(const char *dir, bool exclusive, pid_t *holder);
/* Whether the lock held through fd is still on dir/lock (the file, or the directory, was
 * removed or replaced since: a lock on a file nobody else can open locks out nobody). */
bool state_lock_holds(int fd, const char *dir);

#endif
