/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The board-script driver (docs/scripts.md "Board scripts, line logs, time controls"): plays a
 * script's actions on the sim backend's board at their times (pegs, buttons, chatter), gives its
 * `control` lines to the control dispatcher, and carries out its `crash`.  A loop source.
 */
#ifndef ANNABELLA_DRIVER_H
#define ANNABELLA_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/script.h"
#include "gpio/board.h"

struct driver;

/* What the driver needs from the daemon: `control` gives COMMAND as ROLE by AUTHOR ("script",
 * or "script:NAME" for `control ROLE:NAME`);
 * `crash` is called first, so what the board confirmed before the power went is taken. */
struct driver_hooks {
	void *user;
	void (*control)(void *user, const char *role, const char *author, const char *command,
			uint64_t now);
	void (*before_crash)(void *user, uint64_t now);
	/* `disk`: a storage fault (enum state_fault), SCRIPT_DISK_REMOVED, or SCRIPT_DISK_SLOW
	 * with the extra time of each sync in arg. */
	void (*disk)(void *user, int what, uint32_t arg, uint64_t now);
};

/* Load and check a script (every button it presses must have a line in cfg).  NULL with
 * "FILE:LINE: message" in err. */
struct driver *driver_open(const char *path, const struct board_config *cfg, char *err,
			   size_t err_size);
void driver_free(struct driver *d);
const struct script_header *driver_header(const struct driver *d);
/* The `disk` actions the script begins with at time 0, done now (before the daemon opens
 * its state directory: a fault present at start) through hooks->disk; driver_start() then
 * goes on after them. */
void driver_faults_at_start(struct driver *d, const struct driver_hooks *hooks);
/* Start playing on board: script time 0 is daemon time origin_ms. */
void driver_start(struct driver *d, struct board *board, uint64_t origin_ms,
		  const struct driver_hooks *hooks);
/* The loop source. */
uint64_t driver_deadline(void *d, uint64_t now);
void driver_run(void *d, uint64_t now);
/* Every action has been played and every button released. */
bool driver_done(const struct driver *d);
/*
 * A live script: SCRIPT a named pipe (docs/scripts.md "Board scripts, line logs, time controls").
 * Its header is read before the daemon starts, up to the first action or the first blank line; its
 * actions as they are written, each at the time it arrives plus its wait.  It ends when its writer
 * closes it.  driver_fd() is the pipe
 * (-1 for a file, or once it has ended); driver_read() takes what has arrived, true when the pipe
 * has ended (the fd is closed: the caller takes it out of its loop first).
 */
int driver_fd(const struct driver *d);
bool driver_read(struct driver *d, uint64_t now);

#endif
