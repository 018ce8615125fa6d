/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Reads PGN on stdin with the library's reader and writes it back: as export-format
 * PGN (default), or with --uci as one line per game of UCI moves and the result, the
 * form `pgn-extract -Wuci` gives, so that tests/check-pgn-extract.sh can compare the two.
 * Read errors go to stderr as "stdin:LINE:COL: message"; the exit status is 1 if any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/pgn.h"

static char *read_stdin(size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);

	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, stdin);
		n += got;
		if (got == 0)
			break;
		if (n == cap) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				free(buf);
				return NULL;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	*len = n;
	return buf;
}

static void print_uci(const struct pgn_game *g)
{
	char uci[8];

	for (int i = 0; i < g->game.count; i++) {
		chess_move_to_uci(g->game.moves[i], uci, sizeof(uci));
		printf("%s ", uci);
	}
	printf("%s\n", g->result);
}

int main(int argc, char **argv)
{
	bool uci = argc > 1 && !strcmp(argv[1], "--uci");
	size_t len;
	char *text;
	struct pgn_reader *r;
	struct pgn_game g;
	struct chess_error err;
	int rc, games = 0, errors = 0;

	if (argc > 2 || (argc == 2 && !uci)) {
		fprintf(stderr, "usage: %s [--uci] < in.pgn > out\n", argv[0]);
		return 2;
	}
	text = read_stdin(&len);
	if (!text || !(r = pgn_reader_new(text, len))) {
		fprintf(stderr, "out of memory\n");
		return 2;
	}
	while ((rc = pgn_reader_next(r, &g, &err)) != 0) {
		if (rc < 0) {
			fprintf(stderr, "stdin:%d:%d: %s\n", err.line, err.column, err.message);
			errors++;
			continue;
		}
		games++;
		if (uci) {
			print_uci(&g);
		} else {
			char *out = pgn_format(&g);
			if (!out) {
				fprintf(stderr, "out of memory\n");
				return 2;
			}
			printf("%s%s", games > 1 ? "\n" : "", out);
			free(out);
		}
		pgn_game_free(&g);
	}
	pgn_reader_free(r);
	free(text);
	return errors ? 1 : 0;
}
