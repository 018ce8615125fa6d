/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * [fairplay]: the arbiter's fair-play policy (game/fairplay.h) and how the daemon watches
 * the machine for it (daemon/fairplay.h; docs/fairplay.md "Fair play").
 *
 *	watch = auto | yes | no	   measured in tournament games: auto (the default) with the
 *				   real board, not with a simulated one; yes always
 *	network = none | club	   none: no interface but loopback up; club: those of `club`
 *	club = eth0 [wlan0 ...]	   the interfaces allowed on the club's network
 *	engine = absent | idle	   absent: no chess engine installed; idle: none running
 *	logins = local | none | any  remote logins are a breach (local); any login; none is
 *	files = verify | skip	   the package's files checked against its checksums
 *	interval = 10		   seconds between readings of processes and logins
 *	engine-dirs = /usr/games:/usr/local/games:/usr/bin:/usr/local/bin  where engines are sought
 *	sysfs, proc, utmp, dpkg-info, root   where they are (the tests give trees of their own)
 */
#ifndef ANNABELLA_FAIRPLAY_CONFIG_H
#define ANNABELLA_FAIRPLAY_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "game/fairplay.h"

enum fairplay_watch_mode { FAIRPLAY_WATCH_AUTO = 0, FAIRPLAY_WATCH_YES, FAIRPLAY_WATCH_NO };

struct fairplay_config {
	enum fairplay_watch_mode watch;
	struct fairplay_policy policy;
	int interval_s;
	char sysfs[128], proc[128], utmp[128], dpkg_info[128], root[128];
	char engine_dirs[256]; /* where engines are looked for, ':' between */
};

void fairplay_config_defaults(struct fairplay_config *cfg);
/* One [fairplay] key.  0, or -1 with a message in err. */
int fairplay_config_set(struct fairplay_config *cfg, const char *key, const char *value, char *err,
			size_t err_size);

#endif
