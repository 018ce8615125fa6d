/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The audit's pieces (daemon/audit.h): what control.log escapes and what it keeps, the
 * start line, and a log's anchor: the digest of what the file holds, followed as it grows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/pendlog.h"
#include "base/sha256.h"
#include "daemon/audit.h"

static void escaped(const char *in, size_t len, const char *want)
{
	char out[256];

	audit_escape(in, len, out, sizeof(out));
	assert_string_equal(out, want);
}

static void test_printable_utf8_kept(void **state)
{
	(void)state;
	escaped("tags White \"Berg, Anna\"", 23, "tags White \"Berg, Anna\"");
	escaped("tags Black K\xc3\xbchn", 16, "tags Black K\xc3\xbchn");	      /* ü */
	escaped("\xe2\x99\x9e \xf0\x9f\x98\x80", 8, "\xe2\x99\x9e \xf0\x9f\x98\x80"); /* ♞ 😀 */
	escaped("", 0, "");
}

static void test_what_is_escaped(void **state)
{
	(void)state;
	/* A line of its own, a terminal's escape, a NUL, DEL. */
	escaped("status\n1 root arbiter result 1-0", 32, "status\\x0a1 root arbiter result 1-0");
	escaped("a\x1b[2Jb\x7f", 7, "a\\x1b[2Jb\\x7f");
	escaped("a\0b", 3, "a\\x00b");
	/* The backslash itself, so no escape can be forged. */
	escaped("a\\x0ab", 6, "a\\\\x0ab");
	/* Bytes that are no UTF-8: a stray continuation, a cut sequence, an overlong '/', a
	 * surrogate, beyond U+10FFFF. */
	escaped("\x80x", 2, "\\x80x");
	escaped("x\xc3", 2, "x\\xc3");
	escaped("\xc0\xaf", 2, "\\xc0\\xaf");
	escaped("\xed\xa0\x80", 3, "\\xed\\xa0\\x80");
	escaped("\xf4\x90\x80\x80", 4, "\\xf4\\x90\\x80\\x80");
	/* Valid, but they hide or turn text: RIGHT-TO-LEFT OVERRIDE, ZERO WIDTH SPACE, a C1
	 * control, LINE SEPARATOR, BOM, soft hyphen. */
	escaped("1-0\xe2\x80\xae", 6, "1-0\\xe2\\x80\\xae");
	escaped("a\xe2\x80\x8b"
		"b",
		5, "a\\xe2\\x80\\x8bb");
	escaped("\xc2\x85", 2, "\\xc2\\x85");
	escaped("\xe2\x80\xa8", 3, "\\xe2\\x80\\xa8");
	escaped("\xef\xbb\xbf", 3, "\\xef\\xbb\\xbf");
	escaped("\xc2\xad", 2, "\\xc2\\xad");
}

static void test_cut_at_an_escape_edge(void **state)
{
	char out[6];

	(void)state;
	/* Never half an escape or half a character. */
	assert_int_equal(audit_escape("ab\n", 3, out, sizeof(out)), 2);
	assert_string_equal(out, "ab");
	assert_int_equal(audit_escape("abcd\xc3\xbc", 6, out, sizeof(out)), 4);
	assert_string_equal(out, "abcd");
	assert_int_equal(audit_escape("abcdefgh", 8, out, sizeof(out)), 5);
	assert_string_equal(out, "abcde");
}

static void test_start_line(void **state)
{
	char line[128];

	(void)state;
	audit_start_line(line, sizeof(line), 1234, "2026-11-26T08:30:00Z", false,
			 "game-0007-pi4-20261126T083000-3fa1", 41);
	assert_string_equal(
	    line,
	    "1234 start 2026-11-26T08:30:00Z unsynced game-0007-pi4-20261126T083000-3fa1 41\n");
	audit_start_line(line, sizeof(line), 0, "2026-11-26T08:30:00Z", true, "game-0001", 0);
	assert_string_equal(line, "0 start 2026-11-26T08:30:00Z synced game-0001 0\n");
}

static void test_wallclock_form(void **state)
{
	char wall[32];

	(void)state;
	audit_wallclock(wall, sizeof(wall));
	assert_int_equal(strlen(wall), 20);
	assert_int_equal(wall[4], '-');
	assert_int_equal(wall[10], 'T');
	assert_int_equal(wall[19], 'Z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_printable_utf8_kept),	  cmocka_unit_test(test_what_is_escaped),
	    cmocka_unit_test(test_cut_at_an_escape_edge), cmocka_unit_test(test_start_line),
	    cmocka_unit_test(test_wallclock_form),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
