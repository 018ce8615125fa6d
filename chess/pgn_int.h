/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the PGN files share: the characters of a tag name and PGN's white space, as the
 * writer (chess/pgn.c) and the reader (chess/pgn_read.c) both read them.  Internal to
 * chess/pgn*.c.
 */
#ifndef ANNABELLA_PGN_INT_H
#define ANNABELLA_PGN_INT_H

#include <stdbool.h>

static inline bool is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static inline bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

#endif
