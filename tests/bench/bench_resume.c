/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The time to resume a 300-ply game from its journal, as a restart does: the state
 * directory's journal read back into the referee through the daemon's store, and the game
 * started again (its files written).  The game is 300 legal plies chosen at random (seeded),
 * played with a clock through the referee, so the journal holds what a real one holds:
 * touches, moves, presses with the clock, completions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/timeutil.h"
#include "daemon/present.h"
#include "store/store.h"
#include "referee/referee.h"

#define PLIES  300
#define ROUNDS 20

static uint64_t rng = 20261124;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void event(struct referee *r, enum game_event_kind kind, int index, bool active, uint64_t ms)
{
	struct game_event ev = {.kind = kind, .ms = ms, .index = index, .active = active};

	referee_handle(r, &ev);
}

/* A move on the board: lifts and placings, still for the settle time, then the press. */
static void play(struct referee *r, chess_move m, uint64_t *now)
{
	const struct chess_pos *pos = game_position(referee_game(r));
	int from = chess_move_from(m), to = chess_move_to(m);
	int cap = chess_move_capture_square(pos, m);
	int mover = pos->side;

	if (cap != CHESS_NO_SQUARE)
		event(r, GAME_EV_SQUARE, cap, false, *now += 300);
	event(r, GAME_EV_SQUARE, from, false, *now += 300);
	event(r, GAME_EV_SQUARE, to, true, *now += 300);
	if (chess_move_kind(m) == CHESS_MOVE_CASTLING) {
		int rank = CHESS_RANK(to), kingside = to > from;

		event(r, GAME_EV_SQUARE, CHESS_SQ(kingside ? 7 : 0, rank), false, *now += 200);
		event(r, GAME_EV_SQUARE, kingside ? to - 1 : to + 1, true, *now += 200);
	}
	event(r, GAME_EV_TICK, 0, false, *now += 2000);
	if (chess_move_kind(m) == CHESS_MOVE_PROMOTION) {
		event(r, GAME_EV_BUTTON, GAME_BUTTON_SELECT, true, *now += 100);
		event(r, GAME_EV_BUTTON, GAME_BUTTON_SELECT, false, *now += 80);
	}
	event(r, GAME_EV_BUTTON,
	      mover == referee_game(r)->params.player ? GAME_BUTTON_PLAYER_CLOCK
						      : GAME_BUTTON_OPPONENT_CLOCK,
	      true, *now += 500);
	event(r, GAME_EV_BUTTON, GAME_BUTTON_PLAYER_CLOCK, false, *now += 80);
	event(r, GAME_EV_TICK, 0, false, *now += 200);
}

/* A legal move that does not end the game, queen promotions only. */
static chess_move pick(const struct game *g)
{
	struct chess_move_list list;
	int n = chess_pos_legal_moves(game_position(g), &list);

	for (int tries = 0; tries < 50; tries++) {
		chess_move m = list.moves[rnd((unsigned)n)];
		struct chess_game probe = g->chess;
		static chess_move moves[PLIES + 10];
		static uint64_t keys[PLIES + 11];

		if (chess_move_kind(m) == CHESS_MOVE_PROMOTION &&
		    chess_move_promotion(m) != CHESS_QUEEN)
			continue;
		memcpy(moves, g->chess.moves, sizeof(moves[0]) * (size_t)g->chess.count);
		memcpy(keys, g->chess.keys, sizeof(keys[0]) * (size_t)(g->chess.count + 1));
		probe.moves = moves;
		probe.keys = keys;
		probe.capacity = PLIES + 10;
		if (chess_game_push(&probe, m) == 0 && chess_game_outcome(&probe) == CHESS_ONGOING)
			return m;
	}
	return CHESS_MOVE_NONE;
}

static struct referee *open_referee(const char *dir, struct store **store,
				    struct presenter **presenter)
{
	struct store_config sc = {.dir = dir, .sync = false, .virtual_time = true};
	struct presenter_config pc;
	struct referee_settings set;
	struct game_sink sink;
	char err[256];

	phrase_options_defaults(&pc.phrases);
	pc.announce_check_set = false;
	*store = store_open(&sc, NULL, err, sizeof(err));
	if (!*store) {
		fprintf(stderr, "bench_resume: %s\n", err);
		exit(1);
	}
	*presenter = presenter_new(&pc, NULL, *store);
	sink = presenter_sink(*presenter);
	referee_settings_defaults(&set);
	snprintf(set.next.time_control, sizeof(set.next.time_control), "40/5400+30:1800+30");
	return referee_new(&set, &sink);
}

int main(void)
{
	char dir[] = "/tmp/annabella-bench-resume-XXXXXX";
	struct store *store;
	struct presenter *presenter;
	struct referee *r;
	struct game_event ready = {.kind = GAME_EV_BOARD_READY};
	uint64_t now = 1000, best = UINT64_MAX;
	int plies = 0;

	if (!mkdtemp(dir))
		return 1;
	/* The game, journaled as it is played. */
	for (int attempt = 0; attempt < 100 && plies < PLIES; attempt++) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'/*", dir);
		if (system(cmd))
			return 1;
		r = open_referee(dir, &store, &presenter);
		presenter_attach(presenter, r, NULL);
		referee_start(r, now);
		ready.sensed = referee_expected_occupancy(r);
		referee_handle(r, &ready);
		event(r, GAME_EV_BUTTON, GAME_BUTTON_OPPONENT_CLOCK, true, now += 500);
		for (plies = 0; plies < PLIES; plies++) {
			chess_move m = pick(referee_game(r));

			if (m == CHESS_MOVE_NONE)
				break;
			play(r, m, &now);
			if (game_plies(referee_game(r)) != plies + 1) {
				fprintf(stderr, "bench_resume: a move was not made\n");
				return 1;
			}
		}
		store_free(store); /* the power goes: nothing more written */
		presenter_free(presenter);
		referee_free(r);
	}
	if (plies < PLIES)
		return 1;
	/* Resuming it, best of ROUNDS (each on the same journal). */
	for (int i = 0; i < ROUNDS; i++) {
		char err[256];
		uint64_t t0 = monotonic_ns(), t;

		r = open_referee(dir, &store, &presenter);
		presenter_attach(presenter, r, NULL);
		if (store_replay(store, r, err, sizeof(err))) {
			fprintf(stderr, "bench_resume: %s\n", err);
			return 1;
		}
		referee_start(r, 0);
		t = monotonic_ns() - t0;
		if (game_plies(referee_game(r)) != PLIES || !referee_resumed(r))
			return 1;
		if (t < best)
			best = t;
		store_free(store);
		presenter_free(presenter);
		referee_free(r);
	}
	printf("bench resume_300_plies_ms %.2f ms\n", (double)best / 1e6);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			return 1;
	}
	return 0;
}
