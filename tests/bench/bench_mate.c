/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Who can still checkmate (chess/mate.c) on real games: every position of the PGN files
 * given, both colours' questions.  Prints "bench NAME VALUE UNIT" lines: how many answers
 * are never, possible and unknown (left to the arbiter), and the time a question takes
 * (mean, and the slowest: a flag's or an illegal move's ruling waits for it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "chess/chess.h"
#include "chess/pgn.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long counts[3] = {0}, total = 0;
	double worst = 0, sum = 0;

	for (int a = 1; a < argc; a++) {
		FILE *f = fopen(argv[a], "r");
		static char buf[1 << 20];
		size_t n;
		struct pgn_reader *r;
		struct pgn_game g;
		struct chess_error err;

		if (!f) {
			perror(argv[a]);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		r = pgn_reader_new(buf, n);
		if (!r)
			return 1;
		while (pgn_reader_next(r, &g, &err) == 1) {
			for (int ply = 0; ply <= g.game.count; ply++) {
				struct chess_pos pos;

				chess_game_position_at(&g.game, ply, &pos);
				for (int c = 0; c < 2; c++) {
					double t0 = now_s(), dt;
					enum chess_mate m =
					    chess_pos_mate(&pos, (enum chess_color)c, NULL);

					dt = now_s() - t0;
					sum += dt;
					if (dt > worst)
						worst = dt;
					counts[m]++;
					total++;
				}
			}
			pgn_game_free(&g);
		}
		pgn_reader_free(r);
	}
	if (!total)
		return 1;
	printf("bench mate_questions %ld positions_x_colours\n", total);
	printf("bench mate_never %ld answers\n", counts[CHESS_MATE_NEVER]);
	printf("bench mate_possible %ld answers\n", counts[CHESS_MATE_POSSIBLE]);
	printf("bench mate_unknown %ld answers\n", counts[CHESS_MATE_UNKNOWN]);
	printf("bench mate_unknown_share %.1f %%\n",
	       100.0 * (double)counts[CHESS_MATE_UNKNOWN] / (double)total);
	printf("bench mate_question_mean_ms %.2f ms\n", sum / (double)total * 1e3);
	printf("bench mate_question_max_ms %.1f ms\n", worst * 1e3);
	return 0;
}
