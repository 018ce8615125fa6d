/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * [braille]: the live display through BRLTTY, its layout and the notation it writes.
 */
#include "config/sections.h"

#include <string.h>

/* [braille]: the live display through BRLTTY. */
int config_set_braille(struct config *cfg, const char *key, const char *value, char *err,
		       size_t err_size)
{
	long v;

	if (!strcmp(key, "display")) {
		if (config_parse_bool(value, &cfg->braille_display))
			BAD("display must be yes or no, not '%s'", value);
	} else if (!strcmp(key, "messages")) {
		if (config_parse_bool(value, &cfg->braille_messages))
			BAD("messages must be yes or no, not '%s'", value);
	} else if (!strcmp(key, "host")) {
		if (config_copy_string(cfg->braille_host, sizeof(cfg->braille_host), value))
			BAD("host too long");
	} else if (!strcmp(key, "auth")) {
		if (config_copy_string(cfg->braille_auth, sizeof(cfg->braille_auth), value))
			BAD("auth too long");
	} else if (!strcmp(key, "tty")) {
		if (!strcmp(value, "root"))
			cfg->braille_tty = -1;
		else if (config_parse_uint(value, 0, 63, &v))
			BAD("tty must be root or 0..63");
		else
			cfg->braille_tty = (int)v;
	} else if (!strcmp(key, "notation")) {
		if (!strcmp(value, "bca"))
			cfg->braille_notation = BRAILLE_NOTATION_BCA;
		else if (!strcmp(value, "computer"))
			cfg->braille_notation = BRAILLE_NOTATION_COMPUTER;
		else
			BAD("notation must be bca or computer, not '%s'", value);
	} else if (!strcmp(key, "page-lines")) {
		if (strcmp(value, "0") &&
		    config_parse_uint(value, BRAILLE_PAGE_LINES_MIN, BRAILLE_PAGE_LINES_MAX, &v))
			BAD("page-lines must be 0 (no pages) or %d..%d", BRAILLE_PAGE_LINES_MIN,
			    BRAILLE_PAGE_LINES_MAX);
		cfg->braille_layout.lines_per_page = strcmp(value, "0") ? (int)v : 0;
	} else if (!strcmp(key, "line-cells")) {
		if (config_parse_uint(value, BRAILLE_LINE_CELLS_MIN, BRAILLE_LINE_CELLS_MAX, &v))
			BAD("line-cells must be %d..%d", BRAILLE_LINE_CELLS_MIN,
			    BRAILLE_LINE_CELLS_MAX);
		cfg->braille_layout.cells_per_line = (int)v;
	} else if (!strcmp(key, "page-number")) {
		if (!strcmp(value, "bottom"))
			cfg->braille_layout.page_number = BRAILLE_PAGE_NUMBER_BOTTOM;
		else if (!strcmp(value, "top"))
			cfg->braille_layout.page_number = BRAILLE_PAGE_NUMBER_TOP;
		else if (!strcmp(value, "none"))
			cfg->braille_layout.page_number = BRAILLE_PAGE_NUMBER_NONE;
		else
			BAD("page-number must be bottom, top or none, not '%s'", value);
	} else if (!strcmp(key, "signs")) {
		if (!strcmp(value, "after"))
			cfg->braille_layout.signs = BRAILLE_SIGNS_AFTER;
		else if (!strcmp(value, "before-square"))
			cfg->braille_layout.signs = BRAILLE_SIGNS_BEFORE_SQUARE;
		else
			BAD("signs must be after or before-square, not '%s'", value);
	} else {
		BAD("unknown key '%s' in [braille]", key);
	}
	return 0;
}
