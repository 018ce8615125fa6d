/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The static files of the web page and the relay page (web/), built into the `annabella`
 * tool (Makefile: $(BUILD)/gen/assets.c), so nothing is fetched from anywhere at run time.
 */
#ifndef ANNABELLA_ASSETS_H
#define ANNABELLA_ASSETS_H

#include <stddef.h>

struct asset {
	const char *path; /* "/index.html" */
	const char *content_type;
	const unsigned char *data;
	size_t len;
};

extern const struct asset assets[];
extern const size_t asset_count;

/* The asset at an URL path ("/" is "/index.html"), or NULL. */
const struct asset *asset_find(const char *path);

#endif
