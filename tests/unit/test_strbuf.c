/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The writers' growable string. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/strbuf.h"

static void test_empty_is_empty_string(void **state)
{
	struct strbuf b = {0};
	char *s;

	(void)state;
	s = strbuf_finish(&b);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
}

static void test_grows_past_first_block(void **state)
{
	struct strbuf b = {0};
	char *s;

	(void)state;
	for (int i = 0; i < 1000; i++)
		strbuf_printf(&b, "%d,", i % 10);
	strbuf_append(&b, "end", 3);
	s = strbuf_finish(&b);
	assert_non_null(s);
	assert_int_equal(strlen(s), 2003);
	assert_memory_equal(s, "0,1,2,", 6);
	assert_string_equal(s + 2000, "end");
	free(s);
}

static void test_failed_gives_null(void **state)
{
	struct strbuf b = {0};

	(void)state;
	strbuf_append(&b, "x", 1);
	b.failed = true; /* as after a failed realloc */
	strbuf_append(&b, "y", 1);
	assert_int_equal(b.len, 1);
	assert_null(strbuf_finish(&b));
	assert_null(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_empty_is_empty_string),
	    cmocka_unit_test(test_grows_past_first_block),
	    cmocka_unit_test(test_failed_gives_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
