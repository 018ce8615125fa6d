/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lichess's Board API messages as `annabella online` reads them (cli/lichess_msg.h): the
 * description's own examples, what a message without its required fields is, castling
 * written king to rook, and the Board API's limits on time controls at their edges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The module itself: its file-local functions are tested here. */
#include "cli/lichess_msg.c"

static struct lichess_msg msg;
static char err[256];

static void test_game_full_and_state(void **state)
{
	(void)state;
	assert_int_equal(
	    lichess_msg_parse(
		"{\"id\":\"BEOucQJo\",\"variant\":{\"key\":\"standard\",\"name\":\"Standard\","
		"\"short\":\"Std\"},\"speed\":\"rapid\",\"perf\":{\"name\":\"Rapid\"},\"rated\":"
		"false,"
		"\"createdAt\":1745112707998,\"white\":{\"id\":\"bobby\",\"name\":\"Bobby\","
		"\"title\":"
		"null,\"rating\":1751},\"black\":{\"id\":\"mary\",\"name\":\"Mary\",\"title\":null,"
		"\"rating\":1021},\"initialFen\":\"startpos\",\"clock\":{\"initial\":900000,"
		"\"increment\":0},\"type\":\"gameFull\",\"state\":{\"type\":\"gameState\","
		"\"moves\":"
		"\"d2d3\",\"wtime\":900000,\"btime\":900000,\"winc\":0,\"binc\":0,\"status\":"
		"\"started\"}}",
		&msg, err, sizeof(err)),
	    0);
	assert_int_equal(msg.type, LICHESS_GAME_FULL);
	assert_string_equal(msg.u.full.id, "BEOucQJo");
	assert_string_equal(msg.u.full.variant, "standard");
	assert_string_equal(msg.u.full.white.name, "Bobby");
	assert_int_equal(msg.u.full.black.rating, 1021);
	assert_int_equal(msg.u.full.initial_ms, 900000);
	assert_int_equal(msg.u.full.increment_ms, 0);
	assert_string_equal(msg.u.full.initial_fen, "startpos");
	assert_string_equal(msg.state.moves, "d2d3");
	assert_string_equal(msg.state.status, "started");
	assert_int_equal(msg.state.winner, -1);

	/* Spaces after the separators, as a pretty-printed server sends them. */
	assert_int_equal(lichess_msg_parse("{\"type\": \"gameState\", \"moves\": \"e2e4 c7c5\", "
					   "\"wtime\": 7598040, \"btime\": 8395220, \"winc\": "
					   "10000, \"binc\": 10000, \"bdraw\": true, \"status\": "
					   "\"mate\", \"winner\": \"white\"}",
					   &msg, err, sizeof(err)),
			 0);
	assert_int_equal(msg.type, LICHESS_GAME_STATE);
	assert_int_equal(msg.state.btime, 8395220);
	assert_true(msg.state.bdraw);
	assert_false(msg.state.wdraw);
	assert_int_equal(msg.state.winner, CHESS_WHITE);

	/* A state without what the description requires is refused with what is missing. */
	assert_int_equal(lichess_msg_parse("{\"type\":\"gameState\",\"moves\":\"\",\"wtime\":1,"
					   "\"btime\":2,\"status\":\"started\"}",
					   &msg, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "winc"));
	assert_int_equal(lichess_msg_parse("[1,2]", &msg, err, sizeof(err)), -1);
	assert_int_equal(lichess_msg_parse("{\"type\":\"gameFull\",\"variant\":{\"key\":"
					   "\"standard\"}}",
					   &msg, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "id"));
	/* An empty line keeps the connection; an unknown type is passed over. */
	assert_int_equal(lichess_msg_parse("", &msg, err, sizeof(err)), 0);
	assert_int_equal(msg.type, LICHESS_KEEP_ALIVE);
	assert_int_equal(lichess_msg_parse("{\"type\":\"newThing\"}", &msg, err, sizeof(err)), 0);
	assert_int_equal(msg.type, LICHESS_OTHER);
}

static void test_events(void **state)
{
	(void)state;
	assert_int_equal(
	    lichess_msg_parse(
		"{\"type\":\"gameStart\",\"game\":{\"fullId\":\"0FgNPGRzhDaW\",\"gameId\":"
		"\"0FgNPGRz\",\"color\":\"white\",\"speed\":\"blitz\",\"variant\":{\"key\":"
		"\"standard\",\"name\":\"Standard\"},\"compat\":{\"bot\":false,\"board\":true},"
		"\"status\":{\"id\":20,\"name\":\"started\"}}}",
		&msg, err, sizeof(err)),
	    0);
	assert_int_equal(msg.type, LICHESS_GAME_START);
	assert_string_equal(msg.u.game.game_id, "0FgNPGRz");
	assert_int_equal(msg.u.game.color, CHESS_WHITE);
	assert_true(msg.u.game.board);
	assert_string_equal(msg.u.game.status, "started");
	assert_int_equal(
	    lichess_msg_parse(
		"{\"type\":\"challenge\",\"challenge\":{\"id\":\"H9fIRZUk\",\"url\":"
		"\"https://lichess.org/H9fIRZUk\",\"status\":\"created\",\"challenger\":{\"id\":"
		"\"bot1\",\"name\":\"Bot1\"},\"destUser\":null,\"variant\":{\"key\":\"standard\"},"
		"\"rated\":true,\"speed\":\"rapid\",\"timeControl\":{\"type\":\"clock\",\"limit\":"
		"600,"
		"\"increment\":5,\"show\":\"10+5\"},\"color\":\"random\",\"perf\":{\"icon\":\"\","
		"\"name\":\"Rapid\"},\"direction\":\"in\"}}",
		&msg, err, sizeof(err)),
	    0);
	assert_int_equal(msg.type, LICHESS_CHALLENGE);
	assert_string_equal(msg.u.challenge.challenger, "bot1");
	assert_string_equal(msg.u.challenge.dest, "");
	assert_string_equal(msg.u.challenge.tc_type, "clock");
	assert_int_equal(msg.u.challenge.limit_s, 600);
	assert_int_equal(msg.u.challenge.increment_s, 5);
	assert_true(msg.u.challenge.rated);
	assert_int_equal(lichess_msg_parse("{\"type\":\"opponentGone\",\"gone\":true,"
					   "\"claimWinInSeconds\":8}",
					   &msg, err, sizeof(err)),
			 0);
	assert_true(msg.u.gone.gone);
	assert_int_equal(msg.u.gone.claim_in_s, 8);
	assert_int_equal(lichess_msg_parse("{\"done\":\"declined\"}", &msg, err, sizeof(err)), 0);
	assert_int_equal(msg.type, LICHESS_CHALLENGE_DONE);
	assert_string_equal(msg.u.done, "declined");
	lichess_error_text("{\"error\":\"No such token\"}", err, sizeof(err));
	assert_string_equal(err, "No such token");
	lichess_error_text("Bad gateway\n", err, sizeof(err));
	assert_string_equal(err, "Bad gateway ");
}

static void test_castling_king_to_rook(void **state)
{
	struct chess_pos pos;
	struct chess_error cerr;
	const char *at = "e1h1 e8a8";
	char word[6];

	(void)state;
	assert_int_equal(chess_fen_parse(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &cerr), 0);
	assert_true(lichess_next_move(&at, &pos, word));
	assert_string_equal(word, "e1g1");
	pos.side = CHESS_BLACK;
	assert_true(lichess_next_move(&at, &pos, word));
	assert_string_equal(word, "e8c8");
	assert_false(lichess_next_move(&at, &pos, word));
	/* A rook taking a rook stays as it is. */
	at = "a1a8";
	assert_true(lichess_next_move(&at, &pos, word));
	assert_string_equal(word, "a1a8");
}

static void test_time_controls(void **state)
{
	char why[256];

	(void)state;
	/* Seeks: rapid and classical only (the limit plus 40 increments at least 480 s). */
	assert_true(lichess_time_control_allowed(LICHESS_BY_SEEK, 900, 10, why, sizeof(why)));
	assert_true(lichess_time_control_allowed(LICHESS_BY_SEEK, 480, 0, why, sizeof(why)));
	assert_false(lichess_time_control_allowed(LICHESS_BY_SEEK, 479, 0, why, sizeof(why)));
	assert_non_null(strstr(why, "blitz"));
	assert_true(lichess_time_control_allowed(LICHESS_BY_SEEK, 0, 12, why, sizeof(why)));
	assert_false(lichess_time_control_allowed(LICHESS_BY_SEEK, 181 * 60, 0, why, sizeof(why)));
	assert_false(lichess_time_control_allowed(LICHESS_BY_SEEK, 600, 181, why, sizeof(why)));
	/* Challenges: blitz too; the limit's own values. */
	assert_true(lichess_time_control_allowed(LICHESS_BY_CHALLENGE, 180, 0, why, sizeof(why)));
	assert_false(lichess_time_control_allowed(LICHESS_BY_CHALLENGE, 120, 1, why, sizeof(why)));
	assert_non_null(strstr(why, "bullet"));
	assert_true(lichess_time_control_allowed(LICHESS_BY_CHALLENGE, 90, 3, why, sizeof(why)));
	assert_false(lichess_time_control_allowed(LICHESS_BY_CHALLENGE, 100, 3, why, sizeof(why)));
	assert_false(lichess_time_control_allowed(LICHESS_BY_CHALLENGE, 600, 61, why, sizeof(why)));
	assert_true(
	    lichess_time_control_allowed(LICHESS_BY_CHALLENGE, 10800, 60, why, sizeof(why)));
	assert_string_equal(lichess_speed(29, 0), "ultraBullet");
	assert_string_equal(lichess_speed(120, 1), "bullet");
	assert_string_equal(lichess_speed(300, 3), "blitz");
	assert_string_equal(lichess_speed(1499, 0), "rapid");
	assert_string_equal(lichess_speed(1500, 0), "classical");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_game_full_and_state),
	    cmocka_unit_test(test_events),
	    cmocka_unit_test(test_castling_king_to_rook),
	    cmocka_unit_test(test_time_controls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
