/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Detection alone: the board events of a long master game (its board script, as `annabella
 * script` writes it: touches, captures either piece first, castling any order) fed to the
 * detector, polled at its deadlines, each move committed; the time per move.  Then the same
 * game with every quiet move's source reporting 30 ms after its destination (sensor lag),
 * which only the relaxed search explains.  Prints "bench NAME VALUE UNIT" lines.
 * Usage: bench_detect SCRIPT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chess/chess.h"
#include "chess/detect.h"
#include "daemon/script.h"

#define ROUNDS 50

struct ev {
	uint64_t ms;
	int square;
	bool occupied;
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Plays the events; returns the number of moves made. */
static int play(const struct ev *evs, int n)
{
	struct detect d;
	struct chess_pos pos;
	struct detect_result r;
	struct chess_error cerr;
	int moves = 0;

	if (chess_fen_parse(&pos, CHESS_FEN_START, &cerr))
		return 0;
	detect_init(&d, NULL, &pos, chess_pos_occupancy(&pos));
	for (int i = 0; i <= n; i++) {
		uint64_t t = i < n ? evs[i].ms : evs[n - 1].ms + 100000;

		for (int guard = 0; guard < 16; guard++) {
			uint64_t dl = detect_deadline(&d);

			if (dl > t)
				break;
			if (detect_poll(&d, dl, &r) == DETECT_MOVE) {
				detect_commit(&d, r.move);
				moves++;
			}
		}
		if (i < n)
			detect_square(&d, evs[i].square, evs[i].occupied, evs[i].ms, NULL);
	}
	return moves;
}

static double per_move_us(const struct ev *evs, int n, int *moves)
{
	double t0 = now_us();

	for (int k = 0; k < ROUNDS; k++)
		*moves = play(evs, n);
	return (now_us() - t0) / ROUNDS / (*moves ? *moves : 1);
}

int main(int argc, char **argv)
{
	struct script s;
	char err[256];
	struct ev *evs, *late;
	int n = 0, moves = 0, late_moves = 0;
	uint64_t occ;

	if (argc != 2 || script_load(argv[1], &s, err, sizeof(err))) {
		fprintf(stderr, "bench_detect: %s\n",
			argc == 2 ? err : "usage: bench_detect SCRIPT");
		return 2;
	}
	chess_init();
	evs = calloc((size_t)s.count, sizeof(*evs));
	late = calloc((size_t)s.count, sizeof(*late));
	if (!evs || !late)
		return 1;
	for (int i = 0; i < s.count; i++)
		if (s.actions[i].type == SCRIPT_LIFT || s.actions[i].type == SCRIPT_PLACE)
			evs[n++] = (struct ev){s.actions[i].time_ms, s.actions[i].target,
					       s.actions[i].type == SCRIPT_PLACE};
	/* Late sources: a lift that begins a move (the board still before it), at once followed
	 * by a placing on an empty hole that ends it (a quiet move, or castling's first half),
	 * is reported 30 ms after that placing. */
	memcpy(late, evs, (size_t)n * sizeof(*evs));
	occ = 0xffff00000000ffffull;
	for (int i = 0; i < n; i++) {
		if (i + 1 < n &&
		    (i == 0 || (late[i - 1].occupied && late[i].ms > late[i - 1].ms + 400)) &&
		    !late[i].occupied && late[i + 1].occupied &&
		    (i + 2 >= n || late[i + 2].ms > late[i + 1].ms + 400) &&
		    !(occ >> late[i + 1].square & 1) && late[i + 1].square != late[i].square) {
			struct ev lift = late[i], place = late[i + 1];

			occ &= ~(1ull << lift.square);
			occ |= 1ull << place.square;
			late[i] = place;
			late[i + 1] = (struct ev){place.ms + 30, lift.square, false};
			i++;
			continue;
		}
		if (late[i].occupied)
			occ |= 1ull << late[i].square;
		else
			occ &= ~(1ull << late[i].square);
	}
	double us = per_move_us(evs, n, &moves);
	double late_us = per_move_us(late, n, &late_moves);

	printf("bench detect_moves %d moves\n", moves);
	printf("bench detect_move_us %.2f us\n", us);
	printf("bench detect_late_source_moves %d moves\n", late_moves);
	printf("bench detect_move_late_source_us %.2f us\n", late_us);
	free(evs);
	free(late);
	script_free(&s);
	return moves > 0 ? 0 : 1;
}
