/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The game model's table of apply steps (game/game.c): every record type the journal can hold
 * has its step, so no record of a game is refused on replay for want of one.  Where a switch
 * had the compiler warn of a type without its case, this test does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* The module itself: its file-local table is tested here. */
#include "game/game.c"

static void test_every_record_type_has_its_step(void **state)
{
	(void)state;
	for (int type = 0; type < REC_TYPE_COUNT; type++)
		if (!appliers[type])
			fail_msg("record type %d has no step in game.c's table", type);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_record_type_has_its_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
