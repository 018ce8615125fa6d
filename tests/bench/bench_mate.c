/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The dead-position check the referee makes after every move (chess_pos_is_dead(), Art.
 * 5.2.2): on every position of the PGN games and of the FEN files given (one a line, or a
 * class and a FEN as in ../shared/data's classified sets), the time it takes the thread
 * (p50, p99, the slowest; a move's announcement is handed to the voice thread before it, so
 * it delays none, but the loop's next event waits for it) and how many positions it found
 * dead.  Prints "bench NAME VALUE UNIT" lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chess/chess.h"
#include "chess/pgn.h"

static double *us;
static long n_us, cap_us, dead;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void measure(const struct chess_pos *pos)
{
	double t0 = now_us();

	dead += chess_pos_is_dead(pos);
	if (n_us == cap_us) {
		cap_us = cap_us ? 2 * cap_us : 4096;
		us = realloc(us, (size_t)cap_us * sizeof(double));
		if (!us)
			exit(1);
	}
	us[n_us++] = now_us() - t0;
}

static int pgn_file(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[1 << 20];
	size_t n;
	struct pgn_reader *r;
	struct pgn_game g;
	struct chess_error err;

	if (!f) {
		perror(path);
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	r = pgn_reader_new(buf, n);
	if (!r)
		return -1;
	while (pgn_reader_next(r, &g, &err) == 1) {
		for (int ply = 0; ply <= g.game.count; ply++) {
			struct chess_pos pos;

			chess_game_position_at(&g.game, ply, &pos);
			measure(&pos);
		}
		pgn_game_free(&g);
	}
	pgn_reader_free(r);
	return 0;
}

static int fen_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct chess_pos pos;
		struct chess_error err;
		const char *fen = line;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (line[2] == ' ' && strchr("W-", line[0]))
			fen = line + 3;
		if (chess_fen_parse(&pos, fen, &err) == 0)
			measure(&pos);
	}
	fclose(f);
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		size_t len = strlen(argv[a]);

		if ((len > 4 && !strcmp(argv[a] + len - 4, ".pgn") ? pgn_file(argv[a])
								   : fen_file(argv[a])) < 0)
			return 1;
	}
	if (!n_us)
		return 1;
	qsort(us, (size_t)n_us, sizeof(double), by_value);
	printf("bench mate_dead_check_positions %ld positions\n", n_us);
	printf("bench mate_dead_check_dead %ld positions\n", dead);
	printf("bench mate_dead_check_p50_us %.1f us\n", us[n_us / 2]);
	printf("bench mate_dead_check_p99_us %.1f us\n", us[(long)(0.99 * (double)(n_us - 1))]);
	printf("bench mate_dead_check_max_us %.1f us\n", us[n_us - 1]);
	free(us);
	return 0;
}
