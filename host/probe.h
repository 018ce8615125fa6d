/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The machine the device runs on, measured for the fair-play state (game/fairplay.h;
 * docs/fairplay.md "Fair play"): network interfaces from sysfs and getifaddrs(3), radios from
 * sysfs's rfkill class, chess engines installed (the executables Debian's engines install, in
 * the usual directories, and the engine the configuration names) and running (/proc), the
 * logins from utmp, the installed package's files against its own checksums (dpkg's
 * md5sums).  Every root is a setting, so the tests give made trees; the daemon and
 * `annabella seal` measure with the same code.
 */
#ifndef ANNABELLA_PROBE_H
#define ANNABELLA_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "game/fairplay.h"

struct probe_config {
	const char *sysfs;	 /* "/sys" */
	const char *proc;	 /* "/proc" */
	const char *utmp;	 /* "/run/utmp"; "" or NULL: no logins read */
	const char *dpkg_info;	 /* "": ask dpkg-query; or a directory with PACKAGE.md5sums */
	const char *root;	 /* "/": where the package's files are */
	const char *package;	 /* "annabella" */
	const char *engine_dirs; /* "/usr/games:/usr/bin:..." */
	const char *engine;	 /* the engine the configuration names ([training] engine), or "" */
	bool addresses; /* the interfaces' addresses (getifaddrs: only with the real sysfs) */
	bool files;	/* check the package's files (costly: done at a game's start) */
	const char *version;
	const char *config_digest; /* 16 hex digits */
};
/* The real machine's paths, the package "annabella". */
void probe_config_defaults(struct probe_config *c);

/* Measure into *s.  Never fails: what cannot be read is left out (files: -1 when the
 * package's checksums cannot be read, or when they are not checked). */
void probe_measure(const struct probe_config *c, struct fairplay_state *s);
/* The package's files against its checksums: how many differ (or are missing), the first
 * into first; -1 when the checksums cannot be read (not installed from the package). */
int probe_package_files(const struct probe_config *c, char *first, size_t size);

/* The first 16 hex digits of the SHA-256 of the files, in order (the configuration in force:
 * the main file and its drop-ins).  Files that cannot be read count as empty. */
void probe_files_digest(const char *const *paths, int count, char out[17]);

#endif
