/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The referee's table of command steps (referee/referee_command.c): every command kind the
 * control table or the menus can give has its step, so no command goes unanswered; the
 * review's is referee_review()'s, never the table's.  Where a switch had the compiler warn
 * of a kind without its case, this test does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* The module itself: its file-local table is tested here. */
#include "referee/referee_command.c"

static void test_every_kind_has_its_step(void **state)
{
	(void)state;
	for (int kind = 0; kind < CMD_KIND_COUNT; kind++) {
		if (kind == CMD_REVIEW)
			assert_null(commands[kind]);
		else if (!commands[kind])
			fail_msg("command kind %d has no step in referee_command.c's table", kind);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_kind_has_its_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
