/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli/netcheck.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static int read_word(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

void netcheck_print(FILE *out)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	int up = 0, radios = 0;

	fprintf(out, "Network:");
	while (d && (e = readdir(d))) {
		char path[PATH_MAX], state[32];

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo"))
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", e->d_name);
		if (read_word(path, state, sizeof(state)) || strcmp(state, "up"))
			continue;
		fprintf(out, " %s up", e->d_name);
		up++;
	}
	if (d)
		closedir(d);
	fprintf(out, "%s\n", up ? "" : " loopback only");
	fprintf(out, "Radios:");
	d = opendir("/sys/class/rfkill");
	while (d && (e = readdir(d))) {
		char path[PATH_MAX], type[32], soft[8], hard[8];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/rfkill/%s/type", e->d_name);
		if (read_word(path, type, sizeof(type)))
			continue;
		snprintf(path, sizeof(path), "/sys/class/rfkill/%s/soft", e->d_name);
		if (read_word(path, soft, sizeof(soft)))
			continue;
		snprintf(path, sizeof(path), "/sys/class/rfkill/%s/hard", e->d_name);
		if (read_word(path, hard, sizeof(hard)))
			continue;
		fprintf(out, " %s %s", type,
			strcmp(soft, "0") || strcmp(hard, "0") ? "blocked" : "UNBLOCKED");
		radios++;
	}
	if (d)
		closedir(d);
	fprintf(out, "%s\n", radios ? "" : " none");
}
