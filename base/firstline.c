/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/firstline.h"

#include <stdio.h>
#include <string.h>

int file_first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

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
