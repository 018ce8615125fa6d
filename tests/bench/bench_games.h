/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmarks' master games (tests/games/): the first game of a PGN file. */
#ifndef ANNABELLA_BENCH_GAMES_H
#define ANNABELLA_BENCH_GAMES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/pgn.h"

/* 0 with g read from path (pgn_game_free() it), or -1. */
static inline int bench_read_game(const char *path, struct pgn_game *g)
{
	struct pgn_reader *rd;
	struct chess_error cerr;
	size_t len = 0;
	char *text = NULL;
	FILE *f = fopen(path, "rb");
	int rc;

	if (!f)
		return -1;
	if (getdelim(&text, &len, '\0', f) < 0) {
		fclose(f);
		free(text);
		return -1;
	}
	fclose(f);
	rd = pgn_reader_new(text, strlen(text));
	rc = rd && pgn_reader_next(rd, g, &cerr) == 1 ? 0 : -1;
	if (rd)
		pgn_reader_free(rd);
	free(text);
	return rc;
}

#endif
