/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runas UID GID GROUPS COMMAND ARGS...: COMMAND with that user and group id and exactly the
 * supplementary groups GROUPS (comma-separated ids, "-" for none), for the VM test, whose
 * busybox has no setpriv: the daemon runs there as the package's user with the package's
 * groups.
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	gid_t groups[32];
	size_t n = 0;
	char *save = NULL;

	if (argc < 5) {
		fprintf(stderr, "usage: runas UID GID GROUPS COMMAND ARGS...\n");
		return 2;
	}
	if (strcmp(argv[3], "-"))
		for (char *g = strtok_r(argv[3], ",", &save); g && n < 32;
		     g = strtok_r(NULL, ",", &save))
			groups[n++] = (gid_t)strtoul(g, NULL, 10);
	if (setgroups(n, groups) || setgid((gid_t)strtoul(argv[2], NULL, 10)) ||
	    setuid((uid_t)strtoul(argv[1], NULL, 10))) {
		perror("runas");
		return 1;
	}
	execv(argv[4], argv + 4);
	perror("runas: exec");
	return 127;
}
