/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Line log reader (format in gpio/board.h; docs/scripts.md "Board scripts, line logs, time
 * controls"). Reads one line at a time into a fixed buffer: no allocation.  Internal to gpio/.
 */
#ifndef ANNABELLA_GPIO_LINELOG_H
#define ANNABELLA_GPIO_LINELOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LINELOG_MAX_TEXT 256   /* longest line */
#define LINELOG_MAX_LINE 99999 /* largest line number */

struct linelog_header {
	bool has_start;
	uint64_t start_ns;
	bool has_occupancy;
	uint64_t occupancy;
	bool has_buttons;
	uint32_t buttons;
};

struct linelog_edge {
	uint64_t ns;
	int line;
	bool rising;
};

struct linelog_reader {
	FILE *f;
	const char *name;
	int lineno;
	bool in_body; /* an edge has been read */
	uint64_t last_ns;
	struct linelog_header header;
	char text[LINELOG_MAX_TEXT + 2];
};

void linelog_reader_init(struct linelog_reader *r, FILE *f, const char *name);
/* The next edge: 1, 0 at the end, or -1 with "NAME:LINE: message".  Header lines before the
 * first edge fill r->header. */
int linelog_read(struct linelog_reader *r, struct linelog_edge *e, char *err, size_t err_size);

#endif
