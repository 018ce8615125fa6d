/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/device.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The first line of a small file, only letters and digits kept; false if none. */
static bool read_word(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[128];
	size_t n = 0;

	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (const char *p = line; *p && n + 1 < size; p++)
		if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z'))
			out[n++] = *p;
	out[n] = '\0';
	return n > 0;
}

/* /proc/cpuinfo's "Serial : ..." (older Pi kernels; hidden in the daemon's sandbox). */
static bool cpuinfo_serial(char *out, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char value[64];

		if (sscanf(line, "Serial : %63s", value) == 1) {
			size_t n = 0;

			for (const char *p = value; *p && n + 1 < size; p++)
				if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
					out[n++] = *p;
			out[n] = '\0';
			found = n > 0 && strspn(out, "0") != n;
		}
	}
	fclose(f);
	return found;
}

void device_serial(char *buf, size_t size)
{
	char id[64];

	if (read_word("/sys/firmware/devicetree/base/serial-number", buf, size) &&
	    strspn(buf, "0") != strlen(buf))
		return;
	if (cpuinfo_serial(buf, size))
		return;
	if (read_word("/etc/machine-id", id, sizeof(id))) {
		snprintf(buf, size, "machine-id:%s", id);
		return;
	}
	snprintf(buf, size, "unknown");
}
