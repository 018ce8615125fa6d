/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Tournament mode, proven (Art. 11.3.1, 12.6): the list of every utterance with its condition
 * (utterances.h) covers every message of the game, and docs/arbiter.md's table for arbiters is that
 * list, row by row.  That each utterance of a real tournament game is in the list, on its
 * channel, is checked by test_property and test_irregular through the same list.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/referee_testutil.h"

#define DOC_MAX (256 * 1024)

static char *arbiter_doc(void)
{
	static char text[DOC_MAX];
	FILE *f = fopen("docs/arbiter.md", "rb");
	size_t n;

	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

static void test_every_message_is_listed(void **state)
{
	(void)state;
	for (int m = 0; m < GAME_MSG_COUNT; m++) {
		const char *name = game_msg_name((enum game_msg)m);

		assert_string_not_equal(name, "?");
		if (!utterance_find(name))
			fail_msg("message %s is not in utterances.h", name);
	}
	/* And every effect that speaks. */
	assert_non_null(utterance_find("move"));
	assert_non_null(utterance_find("repeat"));
	assert_non_null(utterance_find("piece"));
	assert_non_null(utterance_find("guide"));
	assert_non_null(utterance_find("times"));
	assert_non_null(utterance_find("warning"));
	assert_non_null(utterance_find("braille-page"));
	for (size_t i = 0; i < UTTERANCE_COUNT; i++) {
		assert_true(strlen(utterances[i].when) > 10);
		assert_true(!strcmp(utterances[i].channel, "public") ||
			    !strcmp(utterances[i].channel, "private") ||
			    !strcmp(utterances[i].channel, "public or private"));
	}
}

/* docs/arbiter.md's table, between its markers, is the list's tournament rows in order, and its
 * "Casual mode only" line names the rest. */
static void test_doc_table_is_the_list(void **state)
{
	char *text = arbiter_doc(), *begin, *end, *line;
	char want[512];
	size_t row = 0;

	(void)state;
	begin = strstr(text, "<!-- utterances -->");
	end = strstr(text, "<!-- /utterances -->");
	assert_non_null(begin);
	assert_non_null(end);
	*end = '\0';
	line = strstr(begin, "| --- | --- | --- |\n");
	assert_non_null(line);
	line += strlen("| --- | --- | --- |\n");
	for (size_t i = 0; i < UTTERANCE_COUNT; i++) {
		char *nl;

		if (!utterances[i].tournament)
			continue;
		snprintf(want, sizeof(want), "| `%s` | %s | %s |", utterances[i].name,
			 utterances[i].channel, utterances[i].when);
		nl = strchr(line, '\n');
		assert_non_null(nl);
		*nl = '\0';
		if (strcmp(line, want))
			fail_msg("docs/arbiter.md row %zu is\n%s\nbut the list says\n%s", row + 1,
				 line, want);
		line = nl + 1;
		row++;
	}
	assert_true(line[0] != '|'); /* no rows beyond the list */
	line = strstr(line, "Casual mode only:");
	assert_non_null(line);
	for (size_t i = 0; i < UTTERANCE_COUNT; i++) {
		if (utterances[i].tournament)
			continue;
		snprintf(want, sizeof(want), "`%s`", utterances[i].name);
		if (!strstr(line, want))
			fail_msg("docs/arbiter.md's casual-only line does not name %s", want);
	}
}

/* The check itself finds what it should. */
static void test_check_finds_faults(void **state)
{
	(void)state;
	assert_null(utterance_tournament_fault("mismatch", "private"));
	assert_null(utterance_tournament_fault("white-offers-draw", "public"));
	assert_non_null(utterance_tournament_fault("mismatch", "public"));
	assert_non_null(utterance_tournament_fault("illegal-move", "private"));
	assert_non_null(utterance_tournament_fault("claim-correct", "private"));
	assert_non_null(utterance_tournament_fault("opponent-moved", "private"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_message_is_listed),
	    cmocka_unit_test(test_doc_table_is_the_list),
	    cmocka_unit_test(test_check_finds_faults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
