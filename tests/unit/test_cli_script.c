/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella script`: PGN -> board script -> move detection -> the same moves.
 * The script is parsed with the sim backend's parser and replayed over a
 * simulated board into chess/detect, the way the daemon drives it: polls at
 * the deadlines, a flush at every clock press, promotion pieces counted from
 * `select` presses and made final by a press, the next lift, or 3 s of quiet.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "chess/detect.h"
#include "chess/pgn.h"
#include "cli/cli.h"
#include "gpio/board.h"
#include "daemon/script.h"

#define PROMOTION_QUIET_MS 3000

/* Castling both ways, en passant both ways, a knight promotion by capture. */
static const char game_a[] =
    "[Event \"Test\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n"
    "[TimeControl \"900+10\"]\n\n"
    "1. e4 d5 2. exd5 c5 3. dxc6 Nf6 4. cxb7 Bd7 5. bxa8=N e6 6. Nf3 Be7 7. Be2 O-O\n"
    "8. O-O Nc6 9. d4 Qxa8 10. Nc3 Rb8 11. a4 h5 12. a5 h4 13. g4 hxg3 14. hxg3 Rxb2\n"
    "15. Bxb2 *\n";

/* Long castling both sides, a rook promotion by capture, recaptures. */
static const char game_b[] =
    "[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n"
    "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O 6. e4 dxe4 7. d5 e3\n"
    "8. dxc6 exf2 9. cxd7+ Rxd7 10. Qxd7+ Bxd7 11. Be2 fxg1=R 12. Rhxg1 e5 *\n";

/* From a set-up position: quiet promotions on both sides. */
static const char game_c[] = "[White \"E\"]\n[Black \"F\"]\n[SetUp \"1\"]\n"
			     "[FEN \"8/P6k/8/8/8/8/6Kp/8 w - - 0 1\"]\n[Result \"*\"]\n\n"
			     "1. a8=Q h1=B+ 2. Kxh1 Kg6 3. Qg8+ Kf5 *\n";

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/annabella-test-XXXXXX.pgn");
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* Runs cli_script with stdout captured; returns the status and the output (malloc'd). */
static int run_script(int argc, const char **argv, char **output)
{
	char path[] = "/tmp/annabella-test-out-XXXXXX";
	int fd = mkstemp(path);
	int saved = dup(STDOUT_FILENO);
	assert_true(fd >= 0 && saved >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	char *args[16];
	assert_true(argc <= 16);
	for (int i = 0; i < argc; i++)
		args[i] = strdup(argv[i]);
	int rc = cli_script(argc, args);
	for (int i = 0; i < argc; i++)
		free(args[i]);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);

	off_t len = lseek(fd, 0, SEEK_END);
	char *buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)len, 0), len);
	buf[len] = 0;
	close(fd);
	unlink(path);
	*output = buf;
	return rc;
}

/* ---------------------------------------------------------------- replay into detect */

struct replay {
	struct detect det;
	struct chess_pos pos;
	chess_move moves[512];
	int count;
	bool promo_pending;
	struct detect_result promo;
	int selects;
	uint64_t last_select;
};

static void make(struct replay *r, chess_move m)
{
	struct chess_undo undo;
	assert_true(r->count < 512);
	assert_true(chess_pos_is_legal(&r->pos, m));
	detect_commit(&r->det, m);
	chess_pos_make(&r->pos, m, &undo);
	r->moves[r->count++] = m;
}

static void promotion_final(struct replay *r)
{
	static const enum chess_piece_type order[] = {CHESS_QUEEN, CHESS_ROOK, CHESS_BISHOP,
						      CHESS_KNIGHT};
	if (!r->promo_pending)
		return;
	assert_true(r->selects > 0); /* never a silent queen */
	r->promo_pending = false;
	make(r, chess_move_make(chess_move_from(r->promo.move), chess_move_to(r->promo.move),
				CHESS_MOVE_PROMOTION, order[(r->selects - 1) % 4]));
}

static void handle(struct replay *r, const struct detect_result *res, uint64_t now)
{
	switch (res->kind) {
	case DETECT_MOVE:
		if (res->promotion_pending) {
			r->promo_pending = true;
			r->promo = *res;
			r->selects = 0;
			r->last_select = now;
		} else {
			make(r, res->move);
		}
		break;
	case DETECT_UNEXPLAINED:
		fail_msg("unexplained board at %llu ms after %d moves", (unsigned long long)now,
			 r->count);
		break;
	default:
		break;
	}
}

/* Everything due before `until`: detection deadlines and the promotion's quiet time. */
static void advance(struct replay *r, uint64_t until)
{
	for (int guard = 0; guard < 100; guard++) {
		uint64_t t = r->promo_pending ? DETECT_NO_DEADLINE : detect_deadline(&r->det);
		uint64_t promo_t = r->promo_pending && r->selects
				       ? r->last_select + PROMOTION_QUIET_MS
				       : DETECT_NO_DEADLINE;
		if (promo_t < t) {
			if (promo_t >= until)
				return;
			promotion_final(r);
			continue;
		}
		if (t >= until)
			return;
		struct detect_result res;
		if (detect_poll(&r->det, t, &res) != DETECT_NONE)
			handle(r, &res, t);
	}
	fail_msg("detection does not settle");
}

static void replay_script(const struct script *s, struct replay *r)
{
	struct detect_result res;

	for (int i = 0; i < s->count; i++) {
		const struct script_action *a = &s->actions[i];
		advance(r, a->time_ms);
		switch (a->type) {
		case SCRIPT_LIFT:
		case SCRIPT_PLACE:
			assert_int_equal((r->det.sensed >> a->target & 1) != 0,
					 a->type == SCRIPT_LIFT);
			if (a->type == SCRIPT_LIFT)
				promotion_final(
				    r); /* the next lift makes a replicated choice final */
			detect_square(&r->det, a->target, a->type == SCRIPT_PLACE, a->time_ms,
				      &res);
			break;
		case SCRIPT_PRESS:
			if (a->target == BOARD_BUTTON_SELECT) {
				assert_true(r->promo_pending);
				r->selects++;
				r->last_select = a->time_ms;
			} else if (a->target == BOARD_BUTTON_PLAYER_CLOCK ||
				   a->target == BOARD_BUTTON_OPPONENT_CLOCK) {
				/* A press completes the move: decide at once. */
				if (!r->promo_pending &&
				    detect_flush(&r->det, a->time_ms, &res) != DETECT_NONE)
					handle(r, &res, a->time_ms);
				promotion_final(r);
			}
			break;
		case SCRIPT_CHATTER: /* bounces within 10 ms: debouncing removes them */
		default:
			break;
		}
	}
	advance(r, UINT64_MAX - 1);
	promotion_final(r);
}

static void check_roundtrip(const char *pgn_text, const char **extra, int extra_count)
{
	char *pgn_path = write_temp(pgn_text);
	const char *argv[16] = {pgn_path};
	char *out, err[200];
	struct script s;
	struct pgn_reader *reader = pgn_reader_new(pgn_text, strlen(pgn_text));
	struct pgn_game game;
	struct chess_error perr;
	static struct replay r;

	for (int i = 0; i < extra_count; i++)
		argv[1 + i] = extra[i];
	assert_int_equal(run_script(1 + extra_count, argv, &out), 0);
	if (script_parse(out, strlen(out), "generated", &s, err, sizeof(err)))
		fail_msg("%s\n%s", err, out);
	assert_int_equal(pgn_reader_next(reader, &game, &perr), 1);

	memset(&r, 0, sizeof(r));
	r.pos = game.game.start;
	detect_init(&r.det, NULL, &r.pos, chess_pos_occupancy(&r.pos));
	replay_script(&s, &r);

	if (r.count != game.game.count)
		fail_msg("%d moves detected, %d in the game; script:\n%s", r.count, game.game.count,
			 out);
	for (int i = 0; i < game.game.count; i++) {
		if (r.moves[i] != game.game.moves[i])
			fail_msg("move %d differs; script:\n%s", i + 1, out);
	}
	/* The board ends as the game. */
	assert_int_equal(r.det.sensed, chess_pos_occupancy(&game.game.pos));

	pgn_game_free(&game);
	pgn_reader_free(reader);
	script_free(&s);
	free(out);
	unlink(pgn_path);
	free(pgn_path);
}

static void roundtrip_seeds(const char *pgn, const char *player, const char *tc, bool chatter)
{
	char seed[16];
	for (int i = -1; i < 25; i++) {
		const char *extra[8];
		int n = 0;
		extra[n++] = "--player";
		extra[n++] = player;
		if (tc) {
			extra[n++] = "--time-control";
			extra[n++] = tc;
		}
		if (chatter)
			extra[n++] = "--chatter";
		if (i >= 0) { /* -1: the natural order, without --variants */
			snprintf(seed, sizeof(seed), "%d", i * 7919 + 1);
			extra[n++] = "--variants";
			extra[n++] = seed;
		}
		check_roundtrip(pgn, extra, n);
	}
}

static void test_roundtrip_with_clock(void **state)
{
	(void)state;
	roundtrip_seeds(game_a, "white", NULL, false); /* TimeControl from the tag */
	roundtrip_seeds(game_a, "black", NULL, true);
	roundtrip_seeds(game_b, "white", "300+3", true);
	roundtrip_seeds(game_b, "black", "40/5400+30:1800+30", false);
	roundtrip_seeds(game_c, "black", "60+1", false);
}

static void test_roundtrip_without_clock(void **state)
{
	(void)state;
	roundtrip_seeds(game_a, "white", "-", true);
	roundtrip_seeds(game_b, "black", "-", false);
	roundtrip_seeds(game_c, "white", NULL, true);
}

static void test_header_and_start(void **state)
{
	(void)state;
	char *path = write_temp(game_c);
	const char *argv[] = {path, "--player", "black", "--time-control", "900+10"};
	char *out;
	struct script s;
	char err[200];

	assert_int_equal(run_script(5, argv, &out), 0);
	assert_int_equal(script_parse(out, strlen(out), "generated", &s, err, sizeof(err)), 0);
	assert_int_equal(s.header.player, CHESS_BLACK);
	assert_string_equal(s.header.time_control, "900+10");
	assert_true(s.header.has_setup);
	assert_string_equal(s.header.setup_fen, "8/P6k/8/8/8/8/6Kp/8 w - - 0 1");
	/* White to move: Black's button (here the player's) starts the clock. */
	assert_int_equal(s.actions[0].type, SCRIPT_PRESS);
	assert_int_equal(s.actions[0].target, BOARD_BUTTON_PLAYER_CLOCK);
	script_free(&s);
	free(out);

	/* The TimeControl tag, and no setup from the initial position. */
	unlink(path);
	free(path);
	path = write_temp(game_a);
	const char *argv2[] = {path};
	assert_int_equal(run_script(1, argv2, &out), 0);
	assert_int_equal(script_parse(out, strlen(out), "generated", &s, err, sizeof(err)), 0);
	assert_int_equal(s.header.player, CHESS_WHITE);
	assert_string_equal(s.header.time_control, "900+10");
	assert_false(s.header.has_setup);
	assert_int_equal(s.actions[0].target, BOARD_BUTTON_OPPONENT_CLOCK);
	script_free(&s);
	free(out);
	unlink(path);
	free(path);
}

static void test_deterministic(void **state)
{
	(void)state;
	char *path = write_temp(game_b);
	const char *argv[] = {path, "--variants", "42", "--chatter"};
	const char *argv2[] = {path, "--variants", "43", "--chatter"};
	char *a, *b, *c;

	assert_int_equal(run_script(4, argv, &a), 0);
	assert_int_equal(run_script(4, argv, &b), 0);
	assert_int_equal(run_script(4, argv2, &c), 0);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	free(a);
	free(b);
	free(c);
	unlink(path);
	free(path);
}

/* Waits and stillness: every completed move is still long enough before a clock press. */
static void test_timing(void **state)
{
	(void)state;
	char *path = write_temp(game_a);
	char err[200];

	for (int seed = 1; seed < 30; seed++) {
		char seed_text[16], *out;
		struct script s;
		snprintf(seed_text, sizeof(seed_text), "%d", seed);
		const char *argv[] = {path, "--variants", seed_text, "--chatter"};
		assert_int_equal(run_script(4, argv, &out), 0);
		assert_int_equal(script_parse(out, strlen(out), "generated", &s, err, sizeof(err)),
				 0);
		uint64_t last_board = 0, last_select = 0;
		for (int i = 0; i < s.count; i++) {
			const struct script_action *a = &s.actions[i];
			if (a->type == SCRIPT_LIFT || a->type == SCRIPT_PLACE) {
				if (last_select)
					assert_true(a->time_ms >= last_select + 3200);
				last_select = 0;
				last_board = a->time_ms;
			} else if (a->type == SCRIPT_PRESS && a->target == BOARD_BUTTON_SELECT) {
				last_select = a->time_ms;
			} else if (a->type == SCRIPT_PRESS) {
				assert_true(a->time_ms >= last_board + 400 || last_board == 0);
				last_select = 0;
			}
		}
		script_free(&s);
		free(out);
	}
	unlink(path);
	free(path);
}

static void test_errors(void **state)
{
	(void)state;
	char *out;
	char *good = write_temp(game_a);
	char *bad = write_temp("[White \"x\"]\n\n1. e4 e5 2. Ke3 *\n");
	const char *missing[] = {"/nonexistent/game.pgn"};
	const char *none[] = {"--chatter"};
	const char *bad_player[] = {good, "--player", "green"};
	const char *bad_seed[] = {good, "--variants", "x1"};
	const char *bad_tc[] = {good, "--time-control", "fast"};
	const char *unknown[] = {good, "--colour"};
	const char *illegal[] = {bad};

	assert_int_equal(run_script(1, missing, &out), 2);
	free(out);
	assert_int_equal(run_script(1, none, &out), 2);
	free(out);
	assert_int_equal(run_script(3, bad_player, &out), 2);
	free(out);
	assert_int_equal(run_script(3, bad_seed, &out), 2);
	free(out);
	assert_int_equal(run_script(3, bad_tc, &out), 2);
	free(out);
	assert_int_equal(run_script(2, unknown, &out), 2);
	free(out);
	assert_int_equal(run_script(1, illegal, &out), 2);
	free(out);
	unlink(good);
	unlink(bad);
	free(good);
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roundtrip_with_clock),
	    cmocka_unit_test(test_roundtrip_without_clock),
	    cmocka_unit_test(test_header_and_start),
	    cmocka_unit_test(test_deterministic),
	    cmocka_unit_test(test_timing),
	    cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
