/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The web page's own origin (net/origin.h): the Host names it answers to (addresses,
 * localhost, this machine, the club's names; never another site's name, as DNS rebinding
 * gives it) and the requests that come from the page itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "net/origin.h"

static void test_host_names(void **state)
{
	const char *self = "annabella-pi", *hosts = "board1.club.lan, Board2";

	(void)state;
	assert_true(origin_host_ok("192.168.1.50:8080", self, hosts));
	assert_true(origin_host_ok("192.168.1.50", self, hosts));
	assert_true(origin_host_ok("[fe80::1]:8080", self, hosts));
	assert_true(origin_host_ok("[::1]", self, hosts));
	assert_true(origin_host_ok("localhost:8080", self, hosts));
	assert_true(origin_host_ok("LOCALHOST", self, hosts));
	assert_true(origin_host_ok("annabella-pi:8080", self, hosts));
	assert_true(origin_host_ok("annabella-pi.local:8080", self, hosts));
	assert_true(origin_host_ok("board1.club.lan:8080", self, hosts));
	assert_true(origin_host_ok("board2", self, hosts));
	/* Another site's names, and near misses. */
	assert_false(origin_host_ok("evil.example:8080", self, hosts));
	assert_false(origin_host_ok("evil.example", self, hosts));
	assert_false(origin_host_ok("annabella-pi.evil.example", self, hosts));
	assert_false(origin_host_ok("annabella-pix", self, hosts));
	assert_false(origin_host_ok("board1.club.lan.evil.example", self, hosts));
	assert_false(origin_host_ok("board1", self, hosts));
	assert_false(origin_host_ok("192.168.1.50.evil.example", self, hosts));
	assert_false(origin_host_ok("[evil.example]:80", self, hosts));
	assert_false(origin_host_ok("[::1", self, hosts));
	assert_false(origin_host_ok("", self, hosts));
	assert_false(origin_host_ok(":8080", self, hosts));
	/* Without a host name of its own, only addresses and the club's names. */
	assert_false(origin_host_ok(".local", "", ""));
	assert_true(origin_host_ok("10.0.0.1", "", ""));
}

static void test_same_origin(void **state)
{
	(void)state;
	assert_true(origin_same(false, "192.168.1.50:8080", NULL, NULL));
	assert_true(origin_same(false, "192.168.1.50:8080", "http://192.168.1.50:8080", NULL));
	assert_true(
	    origin_same(false, "192.168.1.50:8080", "http://192.168.1.50:8080", "same-origin"));
	assert_true(origin_same(true, "pi:8443", "https://PI:8443", "none"));
	assert_false(origin_same(false, "192.168.1.50:8080", "http://evil.example", NULL));
	assert_false(origin_same(false, "192.168.1.50:8080", "http://192.168.1.50:8081", NULL));
	assert_false(origin_same(false, "192.168.1.50:8080", "http://192.168.1.50", NULL));
	assert_false(origin_same(true, "pi:8443", "http://pi:8443", NULL));
	assert_false(origin_same(false, "pi:8080", "null", NULL));
	assert_false(origin_same(false, "pi:8080", NULL, "cross-site"));
	assert_false(origin_same(false, "pi:8080", NULL, "same-site"));
	assert_false(origin_same(false, NULL, "http://pi:8080", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_host_names),
	    cmocka_unit_test(test_same_origin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
