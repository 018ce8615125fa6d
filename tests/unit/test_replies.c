/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The replies' table (game/replies.h): every code has a row with a unique name and a
 * wording whose marks name only the row's arguments; the marks (values, plurals, optional
 * parts, brackets as text); arguments that are not the row's; the JSON of a reply and the
 * check every test applies to the replies it sees (reply_check.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "control/protocol.h"
/* The module itself: its file-local functions are tested here. */
#include "game/replies.c"
#include "tests/unit/reply_check.h"

/* control_reply() for a code without arguments. */
static void control_reply_code(struct strbuf *out, enum reply_code code)
{
	struct game_reply reply;

	game_reply_set(&reply, code, NULL);
	control_reply(out, &reply);
}

/* A row's arguments, every one given (optional ones too when `all`), as strings "v". */
static int row_args(const struct reply_row *row, bool all, struct reply_value *v, char keys[][32])
{
	const char *p = row->args;
	int n = 0;

	while (*p) {
		bool optional;
		size_t len;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		optional = *p == '[';
		p += optional;
		len = strcspn(p, " ]");
		snprintf(keys[n], 32, "%.*s", (int)len, p);
		p += len + (p[len] == ']');
		if (optional && !all)
			continue;
		v[n] = REPLY_S(keys[n], "v");
		n++;
	}
	v[n] = (struct reply_value){0};
	return n;
}

static void test_every_code_has_a_row(void **state)
{
	(void)state;
	for (int i = 1; i < REPLY_CODE_COUNT; i++) {
		const struct reply_row *row = reply_row((enum reply_code)i);

		if (row == reply_row(REPLY_NONE))
			fail_msg("code %d has no row", i);
		assert_int_equal(strspn(row->name, "abcdefghijklmnopqrstuvwxyz0123456789-"),
				 strlen(row->name));
		assert_int_equal(reply_code_parse(row->name), i);
		for (int k = 0; k < i; k++)
			if (!strcmp(reply_row((enum reply_code)k)->name, row->name))
				fail_msg("%s twice", row->name);
	}
	assert_int_equal(reply_code_parse("frobnicate"), REPLY_NONE);
}

/* Each wording worded with its row's arguments, with and without the optional ones: no
 * mark left, and never a key the row does not name. */
static void test_wordings(void **state)
{
	(void)state;
	for (int i = 1; i < REPLY_CODE_COUNT; i++) {
		const struct reply_row *row = reply_row((enum reply_code)i);
		struct reply_value v[REPLY_ARGS_MAX + 1];
		char keys[REPLY_ARGS_MAX + 1][32];

		for (int all = 0; all < 2; all++) {
			struct game_reply reply;

			row_args(row, all, v, keys);
			game_reply_set(&reply, (enum reply_code)i, v);
			if (reply.code != (enum reply_code)i)
				fail_msg("%s: %s", row->name, reply.text);
			assert_int_equal(reply.ok, row->ok);
			if (!row->wording) {
				assert_string_equal(reply.text, "");
				continue;
			}
			if (!reply.text[0] || strchr(reply.text, '{') || strchr(reply.text, '}'))
				fail_msg("%s worded as '%s'", row->name, reply.text);
		}
	}
}

static void test_marks(void **state)
{
	struct game_reply r;

	(void)state;
	/* {key|one|other} */
	game_reply_set(&r, REPLY_ROLLBACK_RANGE,
		       REPLY_ARGS(REPLY_N("plies", 1), REPLY_N("last", 0)));
	assert_string_equal(r.text,
			    "the game has 1 ply: rollback takes a ply from 0 (the start) to 0");
	game_reply_set(&r, REPLY_ROLLBACK_RANGE,
		       REPLY_ARGS(REPLY_N("plies", 3), REPLY_N("last", 2)));
	assert_string_equal(r.text,
			    "the game has 3 plies: rollback takes a ply from 0 (the start) to 2");
	/* [optional] */
	game_reply_set(
	    &r, REPLY_COMPARE_AGREE,
	    REPLY_ARGS(REPLY_N("agree", 2), REPLY_N("device_plies", 2), REPLY_N("their_plies", 2)));
	assert_string_equal(r.text, "2 of 2 plies agree; the scoresheets agree");
	game_reply_set(&r, REPLY_COMPARE_AGREE,
		       REPLY_ARGS(REPLY_N("agree", 2), REPLY_N("device_plies", 2),
				  REPLY_N("their_plies", 2), REPLY_S("unreadable", "Qz9")));
	assert_string_equal(r.text, "2 of 2 plies agree; the scoresheets agree; 'Qz9' after ply 2 "
				    "is not a legal move");
	/* Brackets without a mark are text. */
	game_reply_set(&r, REPLY_CLAIM_WHOSE, REPLY_ARGS(REPLY_S("kind", "fifty")));
	assert_string_equal(
	    r.text, "whose claim? claim fifty white|black [MOVE]: the arbiter names the claimant");
	/* A value is never read as marks. */
	game_reply_set(&r, REPLY_TAG_SET, REPLY_ARGS(REPLY_S("tag", "{tag}[x]")));
	assert_string_equal(r.text, "{tag}[x] set");
	assert_string_equal(game_reply_arg_text(&r, 0), "{tag}[x]");
	assert_null(game_reply_arg_text(&r, 1));
	assert_non_null(game_reply_find(&r, "tag"));
	assert_null(game_reply_find(&r, "move"));
	/* Malformed templates. */
	assert_int_equal(game_reply_word("{tag", &r, (char[8]){0}, 8), -1);
	assert_int_equal(game_reply_word("{move} set", &r, (char[8]){0}, 8), -1);
	assert_true(game_reply_word("[{tag}", &r, (char[16]){0}, 16) > 0); /* text, not a part */
	assert_int_equal(game_reply_word("a]b", &r, (char[8]){0}, 8), 3);
}

/* Rows whose English was a plain text before their codes, and which no test reaches through
 * the daemon: worded as that text was. */
static void test_former_texts(void **state)
{
	struct game_reply r;

	(void)state;
	game_reply_set(&r, REPLY_ILLEGAL_PRESS_TOO_LATE,
		       REPLY_ARGS(REPLY_S("color", "black"), REPLY_S("press", "illegal"),
				  REPLY_S("detail", "of a board no legal move explains"),
				  REPLY_S("other_color", "white"), REPLY_S("edition", "2005"),
				  REPLY_S("article", "7.4 b, B6")));
	assert_string_equal(r.text, "black's press of a board no legal move explains: white has "
				    "moved since; under 2005 the illegal move stands (7.4 b, B6)");
	game_reply_set(&r, REPLY_PIN_WAIT, REPLY_ARGS(REPLY_N("seconds", 32)));
	assert_string_equal(r.text, "too many wrong PINs: wait 32 s");
	game_reply_set(&r, REPLY_WRONG_PIN_WAIT, REPLY_ARGS(REPLY_N("seconds", 2)));
	assert_string_equal(r.text, "wrong PIN; the next is checked in 2 s");
	game_reply_set(&r, REPLY_TOO_MANY_CLIENTS, REPLY_ARGS(REPLY_N("max", 16)));
	assert_string_equal(r.text, "too many clients (16)");
	game_reply_set(&r, REPLY_FDS_KEPT, NULL);
	assert_string_equal(
	    r.text, "too many clients: the file descriptors left are kept for the game's files");
	game_reply_set(&r, REPLY_NO_FD_LEFT, NULL);
	assert_string_equal(r.text, "too many clients: no file descriptor left");
	/* Both sides' moves and times taken back, as the ruling words them. */
	game_reply_set(&r, REPLY_ILLEGAL_RULED,
		       REPLY_ARGS(REPLY_N("ply", 3), REPLY_S("name", "2. Nf3"),
				  REPLY_S("color", "white"), REPLY_N("count", 1),
				  REPLY_S("penalty", "0:01:00"), REPLY_N("penalty_ms", 60000),
				  REPLY_S("other_color", "black"), REPLY_S("article", "7.5.5, A.3"),
				  REPLY_S("white", "0:05:06"), REPLY_S("black", "0:06:07"),
				  REPLY_N("white_moves", 1), REPLY_N("black_moves", 0),
				  REPLY_N("white_back_moves", 1), REPLY_S("black_back", "0:00:10"),
				  REPLY_N("black_back_moves", 1),
				  REPLY_S("taken_back", "White 1 move, Black 0:00:10 and 1 move")));
	assert_int_equal(r.code, REPLY_ILLEGAL_RULED);
	assert_string_equal(r.text,
			    "2. Nf3 illegal: white's illegal move number 1; +0:01:00 to "
			    "black (7.5.5, A.3); clocks White 0:05:06, Black 0:06:07, "
			    "moves 1/0; taken back: White 1 move, Black 0:00:10 and 1 move");
}

/* Arguments that are not the row's: missing, unknown, out of order, too many. */
static void test_bad_args(void **state)
{
	struct game_reply r;

	(void)state;
	game_reply_set(&r, REPLY_TAG_SET, NULL);
	assert_int_equal(r.code, REPLY_BAD_ARGS);
	assert_string_equal(r.text,
			    "the reply tag-set was given other arguments than its table names");
	game_reply_set(&r, REPLY_TAG_SET, REPLY_ARGS(REPLY_S("name", "Event")));
	assert_int_equal(r.code, REPLY_BAD_ARGS);
	game_reply_set(&r, REPLY_RESIGNED,
		       REPLY_ARGS(REPLY_S("result", "1-0"), REPLY_S("color", "black")));
	assert_int_equal(r.code, REPLY_BAD_ARGS);
	game_reply_set(&r, REPLY_DRAW_AGREED, REPLY_ARGS(REPLY_S("color", "black")));
	assert_int_equal(r.code, REPLY_BAD_ARGS);
	assert_false(r.ok);
	game_reply_set(&r, REPLY_DRAW_AGREED, NULL);
	assert_int_equal(r.code, REPLY_DRAW_AGREED);
	assert_true(r.ok);
}

/* Long values are cut, never overflow; the text stays within GAME_REPLY_MAX. */
static void test_long_values(void **state)
{
	static char long_text[2000];
	struct game_reply r;

	(void)state;
	memset(long_text, 'x', sizeof(long_text) - 1);
	game_reply_set(&r, REPLY_RESULT_SET,
		       REPLY_ARGS(REPLY_S("result", long_text), REPLY_S("reason", long_text)));
	assert_int_equal(r.code, REPLY_RESULT_SET);
	assert_int_equal(strlen(game_reply_arg_text(&r, 0)), REPLY_POOL_MAX - 1);
	assert_string_equal(game_reply_arg_text(&r, 1), "");
	assert_int_equal(strlen(r.text), GAME_REPLY_MAX - 1);
}

/* The JSON of a reply, and the check of reply_check.h catching a line that differs. */
static void test_json_and_check(void **state)
{
	struct game_reply r;
	struct strbuf b = {0};

	(void)state;
	game_reply_set(&r, REPLY_RELAY_TAKEN,
		       REPLY_ARGS(REPLY_N("ply", 2), REPLY_S("name", "1... e5"),
				  REPLY_S("by", "anna"), REPLY_S("move", "c5")));
	control_reply(&b, &r);
	assert_string_equal(b.p, "{\"ok\":false,\"error\":\"ply 2 is 1... e5, relayed by anna: c5 "
				 "not taken (only the one who relayed a move corrects it, D.2.8; "
				 "or the arbiter)\",\"code\":\"relay-taken\",\"args\":{\"ply\":2,"
				 "\"name\":\"1... e5\",\"by\":\"anna\",\"move\":\"c5\"}}");
	assert_null(reply_check_line(b.p));
	assert_non_null(reply_check_line(
	    "{\"ok\":false,\"error\":\"ply 3 is 1... e5, relayed by anna: c5 not taken (only the "
	    "one who relayed a move corrects it, D.2.8; or the arbiter)\",\"code\":\"relay-taken"
	    "\",\"args\":{\"ply\":2,\"name\":\"1... e5\",\"by\":\"anna\",\"move\":\"c5\"}}"));
	assert_non_null(reply_check_line("{\"ok\":false,\"error\":\"wrong PIN\"}"));
	assert_non_null(
	    reply_check_line("{\"ok\":false,\"error\":\"wrong PIN\",\"code\":\"wrong-pins\","
			     "\"args\":{}}"));
	assert_null(reply_check_line("{\"ok\":false,\"error\":\"wrong PIN\",\"code\":\"wrong-pin\","
				     "\"args\":{}}"));
	assert_non_null(reply_check_line("{\"ok\":false,\"error\":\"wrong PIN\",\"code\":"
					 "\"wrong-pin\",\"args\":{\"role\":\"arbiter\"}}"));
	free(b.p);
	b = (struct strbuf){0};
	/* A code without arguments, a data reply's code. */
	control_reply_code(&b, REPLY_WATCHING);
	assert_string_equal(b.p, "{\"ok\":true,\"text\":\"watching\",\"code\":\"watching\","
				 "\"args\":{}}");
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_code_has_a_row),
	    cmocka_unit_test(test_wordings),
	    cmocka_unit_test(test_marks),
	    cmocka_unit_test(test_former_texts),
	    cmocka_unit_test(test_bad_args),
	    cmocka_unit_test(test_long_values),
	    cmocka_unit_test(test_json_and_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
