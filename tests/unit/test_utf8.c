/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Text from outside: strict UTF-8, and what breaks a line or turns the text (base/utf8.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/utf8.h"

#define RLO  "\xe2\x80\xae" /* U+202E RIGHT-TO-LEFT OVERRIDE */
#define LSEP "\xe2\x80\xa8" /* U+2028 LINE SEPARATOR */
#define PSEP "\xe2\x80\xa9" /* U+2029 PARAGRAPH SEPARATOR */
#define RLI  "\xe2\x81\xa7" /* U+2067 RIGHT-TO-LEFT ISOLATE */
#define NEL  "\xc2\x85"	    /* U+0085 NEXT LINE */
#define FFFD "\xef\xbf\xbd"

static void test_decode_strict(void **state)
{
	uint32_t cp = 0;

	(void)state;
	assert_int_equal(utf8_decode((const unsigned char *)"\xc5\x81", 2, &cp), 2);
	assert_int_equal(cp, 0x141); /* Ł */
	assert_int_equal(utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1f600);
	/* An overlong '/', a surrogate, beyond U+10FFFF, cut short, a stray continuation. */
	assert_int_equal(utf8_decode((const unsigned char *)"\xc0\xaf", 2, &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xed\xa0\x80", 3, &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xe2\x80", 2, &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\x80", 1, &cp), 0);
}

static void test_effects(void **state)
{
	(void)state;
	assert_int_equal(utf8_effect('a'), UTF8_PLAIN);
	assert_int_equal(utf8_effect(0x141), UTF8_PLAIN);
	assert_int_equal(utf8_effect(0x200c), UTF8_PLAIN); /* ZWNJ: Persian names need it */
	assert_int_equal(utf8_effect(0x200f), UTF8_PLAIN); /* RLM: a mark, no override */
	assert_int_equal(utf8_effect('\n'), UTF8_BREAKS);
	assert_int_equal(utf8_effect('\t'), UTF8_BREAKS);
	assert_int_equal(utf8_effect(0x85), UTF8_BREAKS);
	assert_int_equal(utf8_effect(0x2028), UTF8_BREAKS);
	assert_int_equal(utf8_effect(0x2029), UTF8_BREAKS);
	assert_int_equal(utf8_effect(0x7f), UTF8_TURNS);
	assert_int_equal(utf8_effect(0x9b), UTF8_TURNS); /* CSI */
	for (uint32_t c = 0x202a; c <= 0x202e; c++)
		assert_int_equal(utf8_effect(c), UTF8_TURNS);
	for (uint32_t c = 0x2066; c <= 0x2069; c++)
		assert_int_equal(utf8_effect(c), UTF8_TURNS);
	assert_int_equal(utf8_effect(0x202f), UTF8_PLAIN); /* narrow no-break space */
}

static void test_unsafe_at(void **state)
{
	const char *s = "Berg " RLO "annA";

	(void)state;
	assert_int_equal(utf8_unsafe_at("Kühn, Jonas", strlen("Kühn, Jonas"), false),
			 strlen("Kühn, Jonas"));
	assert_int_equal(utf8_unsafe_at(s, strlen(s), false), 5);
	assert_int_equal(utf8_unsafe_at("a\tb", 3, true), 3);
	assert_int_equal(utf8_unsafe_at("a\tb", 3, false), 1);
	assert_int_equal(utf8_unsafe_at("ab\xff", 3, true), 2);
	assert_int_equal(utf8_unsafe_at("x" LSEP, 4, true), 1);
}

static void test_append_safe(void **state)
{
	const char *in = "Berg " RLO "annA" LSEP "x" PSEP "y" NEL "z\n" RLI "w\xff!";
	struct strbuf b = {0};
	char *out;

	(void)state;
	utf8_append_safe(&b, in, strlen(in), false);
	out = strbuf_finish(&b);
	assert_string_equal(out, "Berg " FFFD "annA x y z " FFFD "w" FFFD "!");
	free(out);
	b = (struct strbuf){0};
	in = "1. e4 {a" RLO "}\n2. d4";
	utf8_append_safe(&b, in, strlen(in), true);
	out = strbuf_finish(&b);
	assert_string_equal(out, "1. e4 {a" FFFD "}\n2. d4");
	free(out);
}

static void test_copy_safe_fits(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(utf8_copy_safe(out, sizeof(out), "ab" RLO "cd", 7), 7);
	assert_string_equal(out, "ab" FFFD "cd");
	/* Cut at a character's edge, never inside U+FFFD. */
	assert_int_equal(utf8_copy_safe(out, 5, "ab" RLO "cd", 7), 2);
	assert_string_equal(out, "ab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_decode_strict),  cmocka_unit_test(test_effects),
	    cmocka_unit_test(test_unsafe_at),	   cmocka_unit_test(test_append_safe),
	    cmocka_unit_test(test_copy_safe_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
