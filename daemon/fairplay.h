/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The watch on the machine for the fair-play state (game/fairplay.h, host/probe.h;
 * docs/fairplay.md "Fair play"), while a tournament game is on: interfaces and radios as the
 * kernel reports their changes (a netlink socket for links and addresses, /dev/rfkill for
 * the radios), processes and logins read every [fairplay] interval seconds, the package's
 * files checked once at each game's start.  No game on: nothing is read, no timer runs.  With
 * a simulated board ([fairplay] watch = auto) nothing is watched: the machine the tests run
 * on is no tournament device.
 * changed() gets every state that differs from the last one it got.
 */
#ifndef ANNABELLA_DAEMON_FAIRPLAY_H
#define ANNABELLA_DAEMON_FAIRPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "config/fairplay_config.h"
#include "daemon/loop.h"
#include "game/fairplay.h"

struct fairplay_watch;
typedef void (*fairplay_changed_fn)(void *user, const struct fairplay_state *s, uint64_t now);
/* Whether a game the state is watched for is on (a tournament game, not over). */
typedef bool (*fairplay_active_fn)(void *user);

/* NULL when [fairplay] watch = no (or auto with a simulated board), or out of memory.
 * `engine` is the configuration's training engine ("" none), `version` and `config_digest` go
 * into the state.  The readings run on a thread of their own, never on the loop's. */
struct fairplay_watch *fairplay_watch_open(const struct fairplay_config *cfg, bool real_board,
					   const char *engine, const char *version,
					   const char *config_digest, struct loop *loop,
					   fairplay_active_fn active, fairplay_changed_fn changed,
					   void *user);
/* Virtual time: a reading asked for takes no virtual time.  Waits until the reader has it
 * (the loop then takes it from its descriptor before time moves on); whether one was asked
 * for. */
bool fairplay_watch_wait(struct fairplay_watch *w);
void fairplay_watch_free(struct fairplay_watch *w);

#endif
