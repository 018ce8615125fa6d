/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The UCI engine driver against Debian's real Stockfish and against engines that misbehave
 * (shell scripts): every failure is an error with its reason, in bounded time. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The module itself: its file-local functions are tested here (before cmocka.h, whose fail()
 * macro would take the module's own fail()). */
#include "cli/uci.c"

#include <cmocka.h>

#include "chess/chess.h"

#define STOCKFISH "/usr/games/stockfish"

static char dir[] = "/tmp/test_uci.XXXXXX";

/* The engine's rating range (0: not announced). */
static void uci_elo_range(const struct uci_engine *e, int *min, int *max)
{
	*min = e->elo_min;
	*max = e->elo_max;
}

/* The child's process id (for tests that kill it). */
static int uci_pid(const struct uci_engine *e)
{
	return e->pid;
}

/* A fake engine: a shell script with the body given. */
static const char *fake(const char *name, const char *body)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
	return path;
}

static void test_stockfish_plays_legal_moves(void **state)
{
	char err[256], move[UCI_MOVE_MAX];
	struct uci_engine *e;
	struct chess_pos pos;
	struct chess_undo undo;
	struct uci_score score = {0};
	int set = 0, min, max;
	chess_move m;

	(void)state;
	if (access(STOCKFISH, X_OK)) {
		fail_msg("%s is not installed (make deps installs it)", STOCKFISH);
		return;
	}
	e = uci_start(STOCKFISH, 5000, NULL, err, sizeof(err));
	assert_non_null(e);
	assert_non_null(strstr(uci_name(e), "Stockfish"));
	assert_true(uci_has_option(e, "Skill Level"));
	assert_int_equal(uci_set_level(e, 0, err, sizeof(err)), 0);
	assert_int_equal(uci_new_game(e, err, sizeof(err)), 0);
	assert_int_equal(uci_best_move(e, NULL, "e2e4 e7e5", 50, 2000, move, err, sizeof(err)), 0);
	chess_pos_init_start(&pos);
	assert_int_equal(chess_move_parse_uci(&pos, "e2e4", &m), 0);
	chess_pos_make(&pos, m, &undo);
	assert_int_equal(chess_move_parse_uci(&pos, "e7e5", &m), 0);
	chess_pos_make(&pos, m, &undo);
	assert_int_equal(chess_move_parse_uci(&pos, move, &m), 0);

	/* A rating held to its range, reported as set. */
	assert_int_equal(uci_set_elo(e, 100, &set, err, sizeof(err)), 0);
	uci_elo_range(e, &min, &max);
	assert_true(min > 100 && max > min);
	assert_int_equal(set, min);
	assert_int_equal(uci_set_elo(e, 9000, &set, err, sizeof(err)), 0);
	assert_int_equal(set, max);
	/* At full strength, a mate in one from a FEN, scored as one. */
	assert_int_equal(uci_set_level(e, 20, err, sizeof(err)), 0);
	assert_int_equal(uci_set_full_strength(e, err, sizeof(err)), 0);
	assert_int_equal(uci_best_move(e, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", NULL, 100, 2000,
				       move, err, sizeof(err)),
			 0);
	assert_string_equal(move, "a1a8");
	assert_true(uci_last_score(e, &score));
	assert_int_equal(score.mate, 1);
	/* A rook up: well over a pawn for the side to move. */
	assert_int_equal(uci_best_move(e, "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", NULL, 100, 2000,
				       move, err, sizeof(err)),
			 0);
	assert_true(uci_last_score(e, &score));
	assert_true(score.cp < -300 && score.mate == 0);

	/* Mated: no move, said as an error. */
	assert_int_equal(uci_best_move(e, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", NULL, 50, 2000, move,
				       err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "no move"));
	uci_stop(e);
}

static void test_missing_engine(void **state)
{
	char err[256];
	enum uci_failure why = UCI_OK;

	(void)state;
	assert_null(uci_start("/nonexistent/engine", 1000, &why, err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/engine"));
	assert_int_equal(why, UCI_MISSING);
	assert_string_equal(uci_failure_name(why), "missing");
}

static void test_engine_that_never_answers(void **state)
{
	char err[256];
	enum uci_failure why = UCI_OK;
	int64_t t0 = now_ms();

	(void)state;
	assert_null(uci_start(fake("mute", "exec sleep 60"), 300, &why, err, sizeof(err)));
	assert_non_null(strstr(err, "in time"));
	assert_int_equal(why, UCI_HUNG);
	assert_true(now_ms() - t0 < 5000);
}

static void test_engine_that_hangs_in_search(void **state)
{
	char err[256], move[UCI_MOVE_MAX];
	struct uci_engine *e;
	int64_t t0;

	(void)state;
	e = uci_start(fake("hangs", "while read l; do case \"$l\" in uci) echo uciok;; "
				    "isready) echo readyok;; quit) exit 0;; esac; done"),
		      2000, NULL, err, sizeof(err));
	assert_non_null(e);
	t0 = now_ms();
	assert_int_equal(uci_best_move(e, NULL, NULL, 100, 200, move, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "in time"));
	assert_int_equal(uci_last_failure(e), UCI_HUNG);
	assert_true(now_ms() - t0 >= 300);
	uci_stop(e);
}

static void test_engine_that_answers_nonsense(void **state)
{
	char err[256], move[UCI_MOVE_MAX];
	struct uci_engine *e;

	(void)state;
	e = uci_start(fake("nonsense", "while read l; do case \"$l\" in uci) echo 'id name Liar'; "
				       "echo uciok;; isready) echo readyok;; go*) echo 'bestmove "
				       "z9z9';; quit) exit 0;; esac; done"),
		      2000, NULL, err, sizeof(err));
	assert_non_null(e);
	assert_string_equal(uci_name(e), "Liar");
	assert_int_equal(uci_set_level(e, 3, err, sizeof(err)), -1); /* no Skill Level */
	assert_non_null(strstr(err, "Skill Level"));
	assert_int_equal(uci_best_move(e, NULL, NULL, 10, 1000, move, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "z9z9"));
	assert_int_equal(uci_last_failure(e), UCI_NONSENSE);
	uci_stop(e);
}

static void test_engine_that_dies(void **state)
{
	char err[256], move[UCI_MOVE_MAX];
	struct uci_engine *e;

	(void)state;
	e = uci_start(fake("dies", "while read l; do case \"$l\" in uci) echo uciok;; "
				   "isready) echo readyok;; go*) exit 3;; esac; done"),
		      2000, NULL, err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(uci_best_move(e, NULL, NULL, 10, 5000, move, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "stopped"));
	assert_int_equal(uci_last_failure(e), UCI_DIED);
	uci_stop(e);

	/* Killed from outside in the middle of a search: the same. */
	if (access(STOCKFISH, X_OK))
		return;
	e = uci_start(STOCKFISH, 5000, NULL, err, sizeof(err));
	assert_non_null(e);
	kill(uci_pid(e), SIGKILL);
	assert_int_equal(uci_best_move(e, NULL, NULL, 1000, 5000, move, err, sizeof(err)), -1);
	assert_int_equal(uci_last_failure(e), UCI_DIED);
	uci_stop(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stockfish_plays_legal_moves),
	    cmocka_unit_test(test_missing_engine),
	    cmocka_unit_test(test_engine_that_never_answers),
	    cmocka_unit_test(test_engine_that_hangs_in_search),
	    cmocka_unit_test(test_engine_that_answers_nonsense),
	    cmocka_unit_test(test_engine_that_dies),
	};
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			rc = rc ? rc : 1;
	}
	return rc;
}
