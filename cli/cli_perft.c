/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella perft FEN DEPTH [--divide]`: counts the leaves of the legal move
 * tree, for comparing the move generator with other programs.  The count is
 * the last line so scripts can take it with `tail -1`.  The FEN may be one
 * argument or its fields as separate arguments; "startpos" is the initial
 * position.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "chess/chess.h"
#include "cli/cli.h"

void cli_perft_usage(FILE *f)
{
	fprintf(f, "usage: annabella perft FEN DEPTH [--divide]\n");
}

static int perft_usage(void)
{
	cli_perft_usage(stderr);
	return 2;
}

int cli_perft(int argc, char **argv)
{
	char fen[256] = "";
	const char *depth_arg = NULL;
	bool divide = false;
	struct chess_pos pos;
	struct chess_error err;
	char *end;
	int nargs = 0;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--divide") == 0) {
			divide = true;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1] == '-')
			return perft_usage();
		nargs++;
	}
	if (nargs < 2)
		return perft_usage();
	/* Everything before the last plain argument is the FEN. */
	int seen = 0;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--divide") == 0)
			continue;
		if (++seen == nargs) {
			depth_arg = argv[i];
			break;
		}
		if (fen[0] && strlen(fen) + 1 < sizeof(fen))
			strcat(fen, " ");
		if (strlen(fen) + strlen(argv[i]) >= sizeof(fen)) {
			log_error(LOG_MAIN, "FEN too long");
			return 2;
		}
		strcat(fen, argv[i]);
	}
	long depth = strtol(depth_arg, &end, 10);
	if (*end || end == depth_arg || depth < 0 || depth > 20) {
		log_error(LOG_MAIN, "depth '%s' is not a number from 0 to 20", depth_arg);
		return 2;
	}
	if (strcmp(fen, "startpos") == 0) {
		chess_pos_init_start(&pos);
	} else if (chess_fen_parse(&pos, fen, &err) < 0) {
		log_error(LOG_MAIN, "bad FEN, column %d: %s", err.column, err.message);
		return 2;
	}

	uint64_t total = 0;
	if (divide && depth > 0) {
		struct chess_move_list list;
		struct chess_undo undo;
		chess_pos_legal_moves(&pos, &list);
		for (int i = 0; i < list.count; i++) {
			char uci[8];
			chess_pos_make(&pos, list.moves[i], &undo);
			uint64_t n = chess_perft(&pos, (int)depth - 1);
			chess_pos_unmake(&pos, list.moves[i], &undo);
			chess_move_to_uci(list.moves[i], uci, sizeof(uci));
			printf("%s: %llu\n", uci, (unsigned long long)n);
			total += n;
		}
		printf("\n");
	} else {
		total = chess_perft(&pos, (int)depth);
	}
	printf("%llu\n", (unsigned long long)total);
	return 0;
}
