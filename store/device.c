/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/device.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/sha256.h"

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

/* The application-specific id of a machine id (32 hex digits) as 32 hex digits into out;
 * -1 when machine_id is no machine id. */
static int device_app_specific(const char *machine_id, char out[33])
{
	unsigned char machine[16], app[16], mac[SHA256_SIZE];
	char lower[2 * sizeof(machine) + 1];
	size_t n = strlen(machine_id);

	/* machine-id(5) writes it in lower case; one in upper case is the same id. */
	for (size_t i = 0; i < n && i < sizeof(lower) - 1; i++)
		lower[i] = (char)tolower((unsigned char)machine_id[i]);
	lower[n < sizeof(lower) - 1 ? n : sizeof(lower) - 1] = '\0';
	if (n != 2 * sizeof(machine) || !sha256_unhex(lower, machine, sizeof(machine)) ||
	    !sha256_unhex(DEVICE_APP_ID, app, sizeof(app)))
		return -1;
	hmac_sha256(machine, sizeof(machine), app, sizeof(app), mac);
	/* A version 4 UUID of the first half, as systemd makes it. */
	mac[6] = (unsigned char)((mac[6] & 0x0f) | 0x40);
	mac[8] = (unsigned char)((mac[8] & 0x3f) | 0x80);
	sha256_hex(mac, 16, out);
	return 0;
}

void device_serial(char *buf, size_t size)
{
	char id[64], app[33];

	if (read_word("/sys/firmware/devicetree/base/serial-number", buf, size) &&
	    strspn(buf, "0") != strlen(buf))
		return;
	if (cpuinfo_serial(buf, size))
		return;
	if (read_word("/etc/machine-id", id, sizeof(id)) && device_app_specific(id, app) == 0) {
		snprintf(buf, size, "machine-app:%s", app);
		return;
	}
	snprintf(buf, size, "unknown");
}
