/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * games/ keeps the finished games' audio records by count and by size: at a game's start
 * the oldest go until the newest keep-audio of them, together with room for the game in
 * progress (as large as the largest record, at least 2 MB), fit keep-audio-mb; the records
 * of earlier versions (.wav) count too; the game in progress's own record is never removed.
 * keep-games bounds the finished games' scoresheets and journals by count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/game.h"
#include "store/store.h"
#include "voice_testutil.h"

static char dir[64];

/* games/NAME of size bytes (sparse). */
static void make_file(const char *name, off_t bytes)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/games/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, bytes), 0);
	close(fd);
}

static bool exists(const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/games/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void start_game(int keep, uint64_t bytes, int keep_games, const char *id)
{
	struct store_config sc = {
	    .dir = dir, .keep_audio = keep, .keep_audio_bytes = bytes, .keep_games = keep_games};
	struct game g;
	char err[200];
	struct store *s = store_open(&sc, NULL, err, sizeof(err));

	assert_non_null(s);
	game_init(&g);
	snprintf(g.params.id, sizeof(g.params.id), "%s", id);
	store_game_start(s, &g);
	store_free(s);
}

static int setup(void **state)
{
	char games[96];

	(void)state;
	tu_tempdir(dir, "store-audio");
	snprintf(games, sizeof(games), "%s/games", dir);
	return mkdir(games, 0750);
}

static int teardown(void **state)
{
	(void)state;
	tu_rmdir(dir);
	return 0;
}

static void test_bound_by_size(void **state)
{
	char name[32];

	(void)state;
	make_file("game-0001.wav", 3000000); /* an earlier version's record */
	for (int i = 2; i <= 10; i++) {
		snprintf(name, sizeof(name), "game-%04d.opus", i);
		make_file(name, 1000000);
	}
	make_file("game-0011.opus", 4000000); /* the game in progress, resumed */
	/* 5 MB: room for the game in progress (the largest finished record is 3 MB), and the
	 * two newest of 1 MB. */
	start_game(50, 5000000, 0, "game-0011");
	assert_true(exists("game-0011.opus"));
	assert_true(exists("game-0010.opus"));
	assert_true(exists("game-0009.opus"));
	assert_false(exists("game-0008.opus"));
	assert_false(exists("game-0002.opus"));
	assert_false(exists("game-0001.wav"));
}

static void test_bound_by_count(void **state)
{
	char name[32];

	(void)state;
	for (int i = 1; i <= 6; i++) {
		snprintf(name, sizeof(name), "game-%04d.opus", i);
		make_file(name, 1000);
	}
	start_game(3, 0, 0, "game-0007");
	assert_true(exists("game-0006.opus"));
	assert_true(exists("game-0004.opus"));
	assert_false(exists("game-0003.opus"));
}

/* keep-games: the newest N finished games' scoresheets and journals stay, each kind counted
 * apart; the game in progress and files that are no game's are never removed. */
static void test_games_kept_by_count(void **state)
{
	char name[32];

	(void)state;
	for (int i = 1; i <= 5; i++) {
		snprintf(name, sizeof(name), "game-%04d.pgn", i);
		make_file(name, 100);
		snprintf(name, sizeof(name), "game-%04d.journal", i);
		make_file(name, 100);
	}
	make_file("game-0006.journal", 100); /* the game in progress, resumed */
	make_file("notes.pgn", 100);
	start_game(50, 0, 2, "game-0006");
	assert_true(exists("game-0006.journal"));
	assert_true(exists("game-0005.pgn") && exists("game-0005.journal"));
	assert_true(exists("game-0004.pgn") && exists("game-0004.journal"));
	assert_false(exists("game-0003.pgn") || exists("game-0003.journal"));
	assert_false(exists("game-0001.pgn") || exists("game-0001.journal"));
	assert_true(exists("notes.pgn"));
}

/* Without keep-games every finished game's scoresheet and journal stay. */
static void test_games_all_kept(void **state)
{
	char name[32];

	(void)state;
	for (int i = 1; i <= 5; i++) {
		snprintf(name, sizeof(name), "game-%04d.pgn", i);
		make_file(name, 100);
	}
	start_game(50, 0, 0, "game-0006");
	for (int i = 1; i <= 5; i++) {
		snprintf(name, sizeof(name), "game-%04d.pgn", i);
		assert_true(exists(name));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_bound_by_size, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bound_by_count, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_games_kept_by_count, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_games_all_kept, setup, teardown),
	};

	return cmocka_run_group_tests_name("store_audio", tests, NULL, NULL);
}
