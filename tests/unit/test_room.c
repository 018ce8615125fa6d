/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The room of a live broadcast: the tags CSV, a board's PGN for the round, board order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The module itself: its file-local functions are tested here. */
#include "net/room.c"

static struct room_csv *parse_ok(const char *text)
{
	struct room_csv *csv = calloc(1, sizeof(*csv));
	char err[200] = "";

	assert_non_null(csv);
	if (room_csv_parse(text, strlen(text), csv, err, sizeof(err)))
		fail_msg("parse failed: %s", err);
	return csv;
}

static void parse_bad(const char *text, const char *want)
{
	struct room_csv *csv = calloc(1, sizeof(*csv));
	char err[200] = "";

	assert_non_null(csv);
	assert_int_equal(room_csv_parse(text, strlen(text), csv, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("error '%s' does not say '%s'", err, want);
	free(csv);
}

static char *payload(const struct room_csv *csv, int row)
{
	struct strbuf b = {0};

	room_csv_payload(csv, row, &b);
	return strbuf_finish(&b);
}

static void test_csv_quoted_fields(void **state)
{
	struct room_csv *csv;
	char *p;

	(void)state;
	csv = parse_ok("\xef\xbb\xbfname,Board,White,Black,Round\r\n"
		       "pi-01,1,\"Berg, Anna\",\"Kühn, \"\"Jo\"\"\",3\r\n"
		       "\r\n"
		       "pi-02 , 2 ,Smith,,3\n");
	assert_int_equal(csv->tag_count, 4);
	assert_int_equal(csv->row_count, 2);
	assert_string_equal(csv->tags[1], "White");
	assert_string_equal(csv->rows[0].values[1], "Berg, Anna");
	assert_string_equal(csv->rows[0].values[2], "Kühn, \"Jo\"");
	assert_string_equal(csv->rows[1].name, "pi-02");
	assert_int_equal(csv->rows[1].line, 4);
	p = payload(csv, 1);
	assert_string_equal(p, "Board 2\nWhite Smith\nRound 3\n"); /* empty Black: not sent */
	free(p);
	free(csv);
}

static void test_csv_errors_name_the_line(void **state)
{
	(void)state;
	parse_bad("", "1: empty");
	parse_bad("board,White\npi,x\n", "1: the first column must be 'name'");
	parse_bad("name,White,Result\n", "1: column 3: 'Result' is not a tag");
	parse_bad("name,White,White\n", "1: column 3: 'White' twice");
	parse_bad("name,White\n", "1: no boards");
	parse_bad("name,White\npi,a\npi2,b,c\n", "3: 3 fields, the header has 2");
	parse_bad("name,White\npi,\"open\n", "2: a value may not span lines");
	parse_bad("name,White\npi,\"a\"b\n", "2: text after a quoted field");
	parse_bad("name,White\npi/1,a\n", "2: 'pi/1' is no board name");
	parse_bad("name,White\npi,a\n\npi,b\n", "4: board 'pi' again (first on line 2)");
	parse_bad("name,White\npi,a\"b\n", "2: a quote inside an unquoted field");
	parse_bad("name,White\npi,Berg\xe2\x80\xae"
		  "annA\n",
		  "2: field 2: a character that breaks");
	parse_bad("name,White\npi,Berg\xe2\x80\xa8x\n", "2: field 2: a character that breaks");
	parse_bad("name,White\npi,K\xfchn\n", "2: field 2: a character that breaks");
}

/* A field holds at most 127 bytes (a PGN tag's value as the daemon keeps it): docs/broadcast.md
 * "Live broadcast and the room relay" says so. */
static void test_csv_field_limit(void **state)
{
	char text[400], value[130];
	struct room_csv *csv;

	(void)state;
	memset(value, 'x', 127);
	value[127] = '\0';
	snprintf(text, sizeof(text), "name,White\npi,%s\n", value);
	csv = parse_ok(text);
	assert_int_equal(strlen(csv->rows[0].values[0]), 127);
	free(csv);
	snprintf(text, sizeof(text), "name,White\npi,%sx\n", value);
	parse_bad(text, "2: field 2 longer than 127 bytes");
	/* Bytes, not letters: 64 two-byte letters are 128 bytes. */
	text[0] = '\0';
	strcat(text, "name,White\npi,");
	for (int i = 0; i < 64; i++)
		strcat(text, "\xc3\xa9");
	strcat(text, "\n");
	parse_bad(text, "2: field 2 longer than 127 bytes");
}

static void test_payload_lines(void **state)
{
	char text[] = "White Berg, Anna\r\n\nbad\nRound 3";
	char *cursor = text;
	const char *name, *value;

	(void)state;
	assert_int_equal(room_payload_next(&cursor, &name, &value), 1);
	assert_string_equal(name, "White");
	assert_string_equal(value, "Berg, Anna");
	assert_int_equal(room_payload_next(&cursor, &name, &value), -1);
	assert_int_equal(room_payload_next(&cursor, &name, &value), 1);
	assert_string_equal(name, "Round");
	assert_string_equal(value, "3");
	assert_int_equal(room_payload_next(&cursor, &name, &value), 0);
}

static void test_tag_allow_list(void **state)
{
	(void)state;
	assert_true(room_tag_allowed("White"));
	assert_true(room_tag_allowed("BlackFideId"));
	assert_false(room_tag_allowed("Result"));
	assert_false(room_tag_allowed("FEN"));
	assert_false(room_tag_allowed("white"));
	assert_true(room_board_name_ok("pi-01.b_2"));
	assert_false(room_board_name_ok("a+b"));
	assert_false(room_board_name_ok(""));
	assert_false(room_board_name_ok("a/#"));
}

static void test_pgn_normalised(void **state)
{
	static const char pgn[] =
	    "[White \"Berg, \\\"Anna\\\"\"]\n"
	    "[Black \"Kühn\"]\n"
	    "[TimeControl \"600+5\"]\n"
	    "[Event \"Club\"]\n"
	    "[Result \"1-0\"]\n"
	    "\n"
	    "1. e4 {[%clk 0:10:04]} 1... e5 {[%clk 0:10:04]} 2. Qh5 $1 (2. Nf3 Nc6)\n"
	    "2... Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
	struct room_game *g = calloc(1, sizeof(*g));
	struct strbuf b = {0};
	char *out;

	(void)state;
	assert_non_null(g);
	assert_int_equal(room_game_parse(pgn, g), 0);
	assert_int_equal(g->plies, 7);
	assert_int_equal(g->clocks, 2);
	assert_string_equal(room_game_tag(g, "White"), "Berg, \\\"Anna\\\"");
	room_game_write(g, "pi-01", &b);
	out = strbuf_finish(&b);
	assert_string_equal(out,
			    "[Event \"Club\"]\n"
			    "[Site \"?\"]\n"
			    "[Date \"????.??.??\"]\n"
			    "[Round \"?\"]\n"
			    "[Board \"?\"]\n"
			    "[White \"Berg, \\\"Anna\\\"\"]\n"
			    "[Black \"Kühn\"]\n"
			    "[Result \"1-0\"]\n"
			    "[TimeControl \"600+5\"]\n"
			    "\n"
			    "1. e4 {[%clk 0:10:04]} 1... e5 {[%clk 0:10:04]} 2. Qh5 $1 (2. Nf3 "
			    "Nc6)\n"
			    "2... Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n");
	free(out);
	assert_int_equal(room_game_parse("1. e4 *", g), -1);
	assert_int_equal(room_game_parse("[White \"x\n", g), -1);
	assert_int_equal(room_movetext_plies("1. O-O-O O-O 2. exd8=Q+ {x} *"), 3);
	free(g);
}

/* A game as a publisher on the broker sent it, with what breaks a line or turns the text in
 * its tags and comments: round.pgn gets a space or U+FFFD there, never the raw character. */
static void test_pgn_text_that_turns(void **state)
{
	static const char pgn[] = "[White \"Berg \xe2\x80\xae"
				  "annA\"]\n"
				  "[Black \"K\xe2\x80\xa8"
				  "[Result \\\"0-1\\\"]\"]\n"
				  "[Result \"*\"]\n"
				  "\n"
				  "1. e4 {left \xe2\x81\xa7"
				  "x} 1... e5\n2. Nf3 *\n";
	struct room_game *g = calloc(1, sizeof(*g));
	struct strbuf b = {0};
	char *out;

	(void)state;
	assert_non_null(g);
	assert_int_equal(room_game_parse(pgn, g), 0);
	assert_string_equal(room_game_tag(g, "White"), "Berg \xef\xbf\xbd"
						       "annA");
	room_game_write(g, "pi-01", &b);
	out = strbuf_finish(&b);
	assert_null(strstr(out, "\xe2\x80\xae"));
	assert_null(strstr(out, "\xe2\x80\xa8"));
	assert_null(strstr(out, "\xe2\x81\xa7"));
	assert_non_null(strstr(out, "[Black \"K [Result \\\"0-1\\\"]\"]\n"));
	assert_non_null(strstr(out, "\n1. e4 {left \xef\xbf\xbd"
				    "x} 1... e5\n2. Nf3 *\n"));
	free(out);
	free(g);
}

static void test_untagged_board_named(void **state)
{
	const char *pgn = "[Event \"?\"]\n[White \"?\"]\n[Black \"Haas\"]\n\n1. e4 *\n";
	struct room_game *g = calloc(1, sizeof(*g));
	struct strbuf b = {0};
	char *out;

	(void)state;
	assert_non_null(g);
	assert_int_equal(room_game_parse(pgn, g), 0);
	room_game_write(g, "pi-07", &b);
	out = strbuf_finish(&b);
	assert_non_null(strstr(out, "[White \"pi-07 (White)\"]\n[Black \"Haas\"]\n"));
	free(out);
	b = (struct strbuf){0};
	assert_int_equal(room_game_parse("[Event \"x\"]\n\n*\n", g), 0);
	room_game_write(g, "pi-08", &b);
	out = strbuf_finish(&b);
	assert_non_null(strstr(out, "[White \"pi-08 (White)\"]\n[Black \"pi-08 (Black)\"]\n"));
	free(out);
	b = (struct strbuf){0};
	room_game_write(g, NULL, &b);
	out = strbuf_finish(&b);
	assert_non_null(strstr(out, "[White \"?\"]\n[Black \"?\"]\n"));
	free(out);
	free(g);
}

static void test_movetext_moves(void **state)
{
	const char *m = "1. e4 {[%clk 0:10:04]} 1... e5 2. Nf3 $1 (2. Bc4 Nf6 (2... c6)) 2... Nc6 "
			"3.Bb5 a6 4. O-O 1/2-1/2";
	const char *want[] = {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"};
	const char *move;
	size_t len, n = 0;

	(void)state;
	while (room_movetext_next(&m, &move, &len)) {
		assert_true(n < sizeof(want) / sizeof(want[0]));
		assert_int_equal(len, strlen(want[n]));
		assert_memory_equal(move, want[n], len);
		n++;
	}
	assert_int_equal(n, 7);
	assert_int_equal(room_movetext_plies("1. e4 e5 2. Nf3 (2. Bc4) 0-1"), 3);
}

static void test_history_for_a_delayed_view(void **state)
{
	struct room_history *h = calloc(1, sizeof(*h));
	const int64_t keep = 60000;

	(void)state;
	assert_non_null(h);
	assert_null(room_history_at(h, 1000));
	assert_int_equal(room_history_add(h, 1000, 1, strdup("a"), keep), 1);
	/* The same text again (a retained message after a reconnect) is no change. */
	assert_int_equal(room_history_add(h, 2000, 2, strdup("a"), keep), 0);
	assert_int_equal(room_history_add(h, 5000, 3, strdup("b"), keep), 1);
	assert_null(room_history_at(h, 999));
	assert_string_equal(room_history_at(h, 4999)->text, "a");
	assert_string_equal(room_history_at(h, 5000)->text, "b");
	/* Much later: a delayed view at 70000 - 60000 = 10000 still needs "b". */
	assert_int_equal(room_history_add(h, 70000, 4, strdup("c"), keep), 1);
	assert_int_equal(h->count, 2);
	assert_string_equal(room_history_at(h, 10000)->text, "b");
	assert_string_equal(room_history_at(h, 70000)->text, "c");
	assert_int_equal(room_history_add(h, 71000, 5, NULL, keep), 1);
	assert_null(room_history_at(h, 71000)->text);
	/* Full: never a newer version than the view's time, only an older one for a while. */
	room_history_free(h);
	for (int i = 0; i < ROOM_HISTORY_MAX + 10; i++) {
		char v[16];

		snprintf(v, sizeof(v), "%d", i);
		room_history_add(h, 1000 * (int64_t)i, (uint64_t)i, strdup(v), 10000000);
	}
	assert_int_equal(h->count, ROOM_HISTORY_MAX);
	for (int64_t t = 0; t < 1000 * (ROOM_HISTORY_MAX + 10); t += 500)
		assert_true(atoi(room_history_at(h, t)->text) <= t / 1000);
	room_history_free(h);
	free(h);
}

static void test_board_order(void **state)
{
	(void)state;
	assert_true(room_board_compare("z", "2", "a", "10") < 0);
	assert_true(room_board_compare("a", "10", "z", "2") > 0);
	assert_true(room_board_compare("a", NULL, "z", "99") > 0);
	assert_true(room_board_compare("a", "?", "b", "?") < 0);
	assert_true(room_board_compare("pi-2", "3", "pi-1", "3") > 0);
	assert_int_equal(room_board_compare("x", "1", "x", "1"), 0);
	/* Untagged boards by their names as numbers: b1, b2 ... b10, b11, not b1, b10, b11, b2. */
	assert_true(room_board_compare("b2", NULL, "b10", NULL) < 0);
	assert_true(room_board_compare("b10", NULL, "b11", NULL) < 0);
	assert_true(room_board_compare("b11", NULL, "b2", NULL) > 0);
	assert_true(room_board_compare("pi-9", "?", "pi-10", "?") < 0);
	assert_true(room_board_compare("b2", NULL, "c1", NULL) < 0);
	assert_true(room_board_compare("b02", NULL, "b2", NULL) < 0);
	assert_true(room_board_compare("b2", NULL, "b2a", NULL) < 0);
	assert_true(room_board_compare("b2-10", NULL, "b2-9", NULL) > 0);
	assert_int_equal(room_board_compare("b10", NULL, "b10", NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_csv_quoted_fields),
	    cmocka_unit_test(test_csv_errors_name_the_line),
	    cmocka_unit_test(test_csv_field_limit),
	    cmocka_unit_test(test_payload_lines),
	    cmocka_unit_test(test_tag_allow_list),
	    cmocka_unit_test(test_pgn_normalised),
	    cmocka_unit_test(test_board_order),
	    cmocka_unit_test(test_untagged_board_named),
	    cmocka_unit_test(test_pgn_text_that_turns),
	    cmocka_unit_test(test_movetext_moves),
	    cmocka_unit_test(test_history_for_a_delayed_view),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
