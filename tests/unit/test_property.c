/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The property of the one mutator: the records of any live run, read back from their
 * journal text into a fresh game, give the same game (position, moves with their readings
 * and marks, the clock, every flow, the result).  Runs are real games played on the board
 * in a seeded, human order with think times, presses (or none), touches, wrong placements
 * put right, button presses, draw offers, claims, tags, pauses, and the menu, and the clock's
 * irregularities (a forgotten press, a press with no move, the arbiter's pause with the move
 * and its press made meanwhile); the check is made often along the way and at the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chess/pgn.h"
#include "tests/unit/referee_testutil.h"

static struct rt *t;
static int said;	    /* utterances checked against the tournament list */
static bool arbiter_paused; /* the arbiter stopped the clocks; resumed after the next press */
/* Records seen of the clock's irregularities: presses while the clocks stood, presses with
 * no move, moves counted without a press (6.2.1.2). */
static int seen_paused, seen_empty, seen_counted;
static uint64_t rng = 88172645463325252ull;

/* A second stream for the clock's irregularities, so that the first one's distractions and
 * orders stay as they were. */
static uint64_t rng2 = 0x2545f4914f6cdd1dull;

static unsigned rnd2(unsigned n)
{
	rng2 ^= rng2 << 13;
	rng2 ^= rng2 >> 7;
	rng2 ^= rng2 << 17;
	return (unsigned)(rng2 % n);
}

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void check_replay(void)
{
	struct game_sink none = {0};
	struct referee *fresh = referee_new(&t->set, &none);
	static char a[32768], b[32768];

	assert_non_null(fresh);
	if (rt_replay(t, rt_game_start(t), t->nrec, fresh))
		fail_msg("the records do not read back (%d records)", t->nrec);
	game_describe(rt_game(t), t->now, a, sizeof(a));
	game_describe(referee_game(fresh), t->now, b, sizeof(b));
	if (strcmp(a, b))
		fail_msg("live:\n%s\nread back:\n%s", a, b);
	referee_free(fresh);
}

static void square(const char *sq, bool occupied)
{
	rt_event(t, GAME_EV_SQUARE, rt_sq(sq), occupied);
	rt_wait(t, 20 + rnd(300));
}

/* A request through the command table, as the socket gives it. */
static void command(enum game_role role, const char *line)
{
	rt_control(t, role, line);
}

/* Something a player, an assistant or the arbiter might do between moves. */
static void distraction(void)
{
	static const char *const squares[] = {"a1", "d4", "h8", "e2", "c6", "f7", "g1"};
	const char *sq = squares[rnd(7)];
	bool occ = (chess_pos_occupancy(game_position(rt_game(t))) >> rt_sq(sq)) & 1;

	switch (rnd(12)) {
	case 0: /* a touch: lifted and put back */
		if (occ) {
			square(sq, false);
			square(sq, true);
		}
		break;
	case 1: /* a peg put in the wrong hole, then taken away again */
		if (!occ) {
			square(sq, true);
			rt_wait(t, rnd(5000));
			square(sq, false);
			rt_wait(t, 600); /* still: the board matches again */
		}
		break;
	case 2:
		rt_press(t, GAME_BUTTON_INFO);
		break;
	case 3:
		rt_press(t, GAME_BUTTON_REPEAT);
		break;
	case 4:
		rt_press(t, GAME_BUTTON_SELECT);
		break;
	case 5: /* the player calls the arbiter (6.11.2), who starts the clocks (6.11.3) */
		rt_press(t, GAME_BUTTON_PAUSE);
		rt_wait(t, rnd(3000));
		rt_press(t, GAME_BUTTON_PAUSE);
		rt_wait(t, rnd(3000));
		command(ROLE_ARBITER, "resume");
		break;
	case 6:
		command(ROLE_ASSISTANT, "draw-offer");
		break;
	case 7: {
		const char *kind = rnd(2) ? "fifty" : "threefold";
		bool arbiter = rnd(2);
		char line[64];

		/* The assistant's claim is the tactile player's; the arbiter names the side,
		 * which may not be on move (refused). */
		if (arbiter)
			snprintf(line, sizeof(line), "claim %s %s", kind,
				 rnd(2) ? "white" : "black");
		else
			snprintf(line, sizeof(line), "claim %s", kind);
		command(arbiter ? ROLE_ARBITER : ROLE_ASSISTANT, line);
		command(ROLE_ARBITER, "resume");
		break;
	}
	case 8: {
		char line[32];

		snprintf(line, sizeof(line), "tags Round %u", rnd(9));
		command(ROLE_ASSISTANT, line);
		break;
	}
	case 9: /* the menu opened and closed unused */
		rt_hold(t, GAME_BUTTON_SELECT, 1200);
		rt_press(t, GAME_BUTTON_SELECT);
		rt_wait(t, 16000);
		break;

	default:
		break;
	}
}

static void press(int color)
{
	rt_press(t, color == rt_game(t)->params.player ? GAME_BUTTON_PLAYER_CLOCK
						       : GAME_BUTTON_OPPONENT_CLOCK);
}

/* One move on the board, pegs in a human order. */
static void play(chess_move m)
{
	const struct chess_pos *pos = game_position(rt_game(t));
	char from[3], to[3], cap[3];
	int capsq = chess_move_capture_square(pos, m);

	chess_square_format(chess_move_from(m), from);
	chess_square_format(chess_move_to(m), to);
	if (capsq != CHESS_NO_SQUARE) {
		chess_square_format(capsq, cap);
		if (rnd(2)) {
			square(cap, false);
			square(from, false);
		} else {
			square(from, false);
			square(cap, false);
		}
		square(to, true);
	} else if (chess_move_kind(m) == CHESS_MOVE_CASTLING) {
		int kt = chess_move_to(m), rank = CHESS_RANK(kt);
		char rf[3], rt2[3];

		chess_square_format(kt > chess_move_from(m) ? CHESS_SQ(7, rank) : CHESS_SQ(0, rank),
				    rf);
		chess_square_format(kt > chess_move_from(m) ? kt - 1 : kt + 1, rt2);
		square(from, false);
		square(to, true);
		square(rf, false);
		square(rt2, true);
	} else {
		square(from, false);
		if (rnd(3) == 0)
			check_replay(); /* in the middle of a move */
		square(to, true);
	}
	if (chess_move_kind(m) == CHESS_MOVE_PROMOTION) {
		enum chess_piece_type want = chess_move_promotion(m);

		rt_wait(t, 400);
		/* Dame, Turm, Läufer, Springer: select until the piece comes up. */
		for (int i = 0, n = want == CHESS_QUEEN	   ? 1
				    : want == CHESS_ROOK   ? 2
				    : want == CHESS_BISHOP ? 3
							   : 4;
		     i < n; i++)
			rt_press(t, GAME_BUTTON_SELECT);
	}
	rt_wait(t, 200 + rnd(800));
}

static void run_game(const char *path, int player, const char *tc, int seed)
{
	struct pgn_reader *reader;
	struct pgn_game pgn;
	struct chess_error err;
	FILE *f = fopen(path, "rb");
	static char text[1 << 20];
	size_t len;
	bool clock = strcmp(tc, "-") != 0;

	assert_non_null(f);
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	reader = pgn_reader_new(text, len);
	assert_non_null(reader);
	assert_int_equal(pgn_reader_next(reader, &pgn, &err), 1);
	pgn_reader_free(reader);

	rng ^= (uint64_t)seed * 0x9e3779b97f4a7c15ull;
	rng2 ^= (uint64_t)seed * 0x9e3779b97f4a7c15ull;
	arbiter_paused = false;
	memset(t, 0, sizeof(*t));
	t->now = 1000;
	rt_open(t, player, tc, NULL);
	if (clock)
		rt_press(t, GAME_BUTTON_OPPONENT_CLOCK - (player == CHESS_BLACK));
	for (int i = 0; i < pgn.game.count && !game_over(rt_game(t)); i++) {
		int mover = game_position(rt_game(t))->side;

		if (rnd(4) == 0) {
			distraction();
			check_replay();
		}
		if (clock && rnd2(12) == 0) {
			/* The arbiter stops the clocks; the move and its press come meanwhile. */
			command(ROLE_ARBITER, "pause");
			arbiter_paused = true;
		} else if (clock && rnd2(12) == 0) {
			/* A press with no move made (7.5.3). */
			rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
		}
		play(pgn.game.moves[i]);
		/* A rook set beside its king while castling is legal waits (castle-wait-ms),
		 * unless the press decides it.  Now and then the press is forgotten: the next
		 * move completes it (6.2.1.2). */
		if (clock && rnd2(10) == 0)
			rt_wait(t, 2000);
		else if (clock)
			press(mover);
		if (arbiter_paused) {
			command(ROLE_ARBITER, "resume");
			arbiter_paused = false;
		} else if (game_plies(rt_game(t)) == i)
			rt_wait(t, 2000);
		if (game_plies(rt_game(t)) != i + 1) {
			fprintf(stderr, "%s\n",
				t->log + (t->log_len > 3000 ? t->log_len - 3000 : 0));
			for (int k = t->nrec > 12 ? t->nrec - 12 : 0; k < t->nrec; k++)
				fprintf(stderr, "%llu %s %s\n", (unsigned long long)t->ms[k],
					t->types[k], t->args[k]);
			fail_msg("%s: move %d not made (%d plies)", path, i + 1,
				 game_plies(rt_game(t)));
		}
		if (i % 7 == 0)
			check_replay();
	}
	check_replay();
	for (int k = rt_game_start(t); k < t->nrec; k++) {
		seen_paused += !strcmp(t->types[k], "press") && strstr(t->args[k], " paused ");
		seen_empty += !strcmp(t->types[k], "press") && strstr(t->args[k], " empty ");
		/* `complete PLY CLK CLOCK`: the clock in the record counted it. */
		seen_counted += !strcmp(t->types[k], "complete") && strchr(t->args[k], ' ') &&
				strchr(strchr(t->args[k], ' ') + 1, ' ');
	}
	referee_stop(t->r, t->now);
	check_replay(); /* with what stopping added */
	if (t->tournament_faults)
		fail_msg("%s: %d utterances not allowed in tournament mode; the first: %s", path,
			 t->tournament_faults, t->tournament_fault);
	if (t->audience_faults)
		fail_msg("%s: %d events handed out to the wrong audience; the first: %s", path,
			 t->audience_faults, t->audience_fault);
	said += t->tournament_said;
	referee_free(t->r);
	t->r = NULL;
	pgn_game_free(&pgn);
}

static void test_games_read_back(void **state)
{
	static const struct {
		const char *path;
		int player;
		const char *tc;
	} runs[] = {
	    {"tests/games/1858-morphy-duke-karl-isouard.pgn", CHESS_WHITE, "-"},
	    {"tests/games/1956-byrne-fischer.pgn", CHESS_BLACK, "5400+30"},
	    {"tests/games/1851-anderssen-kieseritzky.pgn", CHESS_WHITE, "300d5"},
	    {"tests/games/2013-anand-carlsen.pgn", CHESS_BLACK, "40/7200:1800+30"},
	    {"tests/games/1999-kasparov-topalov.pgn", CHESS_WHITE, "900+10"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		for (int seed = 1; seed <= 2; seed++)
			run_game(runs[i].path, runs[i].player, runs[i].tc, seed);
	/* The games are tournament games (the default mode): their utterances were checked. */
	assert_true(said > 100);
	if (!seen_paused || !seen_empty || !seen_counted)
		fail_msg("presses while paused %d, with no move %d, moves counted without a press "
			 "%d: each should have come",
			 seen_paused, seen_empty, seen_counted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_games_read_back),
	};

	t = calloc(1, sizeof(*t));
	if (!t)
		return 1;
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	free(t);
	return rc;
}
