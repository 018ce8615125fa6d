/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The finished games kept under games/ (store/games.h): which names are games' ids, the list
 * newest first with their players and results (the game being played and the copies kept
 * beside a game left out), a game found by its number, and a kept game's scoresheet in a
 * format (what `export FORMAT GAME` answers).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

/* The module itself: its file-local functions are tested here. */
#include "store/games.c"

static char dir[64];

static void put(const char *name, const char *white, const char *black, const char *result,
		const char *moves)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/games/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"[Event \"Club\"]\n[Site \"?\"]\n[Date \"2024.05.01\"]\n[Round \"?\"]\n[White "
		"\"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n\n%s %s\n",
		white, black, result, moves, result);
	fclose(f);
}

static int setup(void **state)
{
	char path[96];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/annabella-games.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/games", dir);
	return mkdir(path, 0700);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void test_ids(void **state)
{
	(void)state;
	assert_true(store_game_id_valid("game-0001"));
	assert_true(store_game_id_valid("game-0042-board-20240501T120000-ab12"));
	assert_false(store_game_id_valid("game-0042-before-recovery-1"));
	assert_false(store_game_id_valid("game-0042-board-20240501T120000-ab12-damaged-1"));
	assert_false(store_game_id_valid("game-"));
	assert_false(store_game_id_valid("game-12x"));
	assert_false(store_game_id_valid("notes"));
}

static void test_list_and_find(void **state)
{
	struct game_summary games[GAME_SUMMARY_MAX];
	char id[GAME_ID_MAX];

	(void)state;
	assert_int_equal(store_games_list(dir, NULL, games, 10), 0);
	put("game-0001.pgn", "Anna", "Computer", "1-0", "1. f3 e5 2. g4 Qh4#");
	put("game-0002-board-20240501T120000-ab12.pgn", "Bella", "Anna", "1/2-1/2", "1. e4 e5");
	put("game-0010.pgn", "Anna", "Carl", "*", "1. d4");
	put("game-0002-board-20240501T120000-ab12-before-recovery-1.pgn", "x", "y", "*", "");
	put("game-0003.pgn", "broken", "?", "*", "1. e5");
	/* The game being played (0010) is left out; a scoresheet that does not read too. */
	assert_int_equal(store_games_list(dir, "game-0010", games, 10), 2);
	assert_string_equal(games[0].id, "game-0002-board-20240501T120000-ab12");
	assert_int_equal(games[0].number, 2);
	assert_string_equal(games[0].white, "Bella");
	assert_string_equal(games[0].result, "1/2-1/2");
	assert_int_equal(games[0].plies, 2);
	assert_string_equal(games[1].id, "game-0001");
	assert_int_equal(games[1].plies, 4);
	assert_string_equal(games[1].date, "2024.05.01");
	/* Newest first, at most max. */
	assert_int_equal(store_games_list(dir, NULL, games, 1), 1);
	assert_int_equal(games[0].number, 10);
	/* Found by number, short id or id; the copy beside a game is none. */
	assert_int_equal(store_game_find(dir, "2", id, sizeof(id)), 0);
	assert_string_equal(id, "game-0002-board-20240501T120000-ab12");
	assert_int_equal(store_game_find(dir, "game-0002", id, sizeof(id)), 0);
	assert_int_equal(store_game_find(dir, "game-0001", id, sizeof(id)), 0);
	assert_string_equal(id, "game-0001");
	assert_int_equal(store_game_find(dir, "7", id, sizeof(id)), -1);
	assert_int_equal(store_game_find(dir, "2x", id, sizeof(id)), -1);
	/* Two games of one number (from two boards): the number alone names neither. */
	put("game-0001-other-20240502T090000-00ff.pgn", "Dora", "Emil", "0-1", "1. e4");
	assert_int_equal(store_game_find(dir, "1", id, sizeof(id)), -1);
	assert_int_equal(
	    store_game_find(dir, "game-0001-other-20240502T090000-00ff", id, sizeof(id)), 0);
}

static void test_render(void **state)
{
	enum reply_code why = REPLY_NONE;
	char path[160];
	char *text;
	FILE *f;

	(void)state;
	put("game-0003.pgn", "Anna", "Bella", "1-0", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#");
	text = store_game_render(dir, "3", "pgn", NULL, &why);
	assert_non_null(text);
	assert_non_null(strstr(text, "[White \"Anna\"]"));
	assert_non_null(strstr(text, "4. Qxf7# 1-0"));
	free(text);
	text = store_game_render(dir, "game-0003", "text", NULL, &why);
	assert_non_null(text);
	assert_non_null(strstr(text, "Anna"));
	free(text);
	/* No game of that number, and a file that holds no game. */
	assert_null(store_game_render(dir, "4", "pgn", NULL, &why));
	assert_int_equal(why, REPLY_NO_SUCH_GAME);
	snprintf(path, sizeof(path), "%s/games/game-0005.pgn", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("1. e4 e5 2. Kx9 *\n[Event \n", f);
	fclose(f);
	why = REPLY_NONE;
	assert_null(store_game_render(dir, "5", "pgn", NULL, &why));
	assert_int_equal(why, REPLY_GAME_UNREADABLE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ids),
	    cmocka_unit_test_setup_teardown(test_list_and_find, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_render, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
