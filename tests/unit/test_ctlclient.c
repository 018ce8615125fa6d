/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control socket's client: the reasons it gives when it cannot connect.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "net/ctlclient.h"

/* A path longer than a socket address holds names its start, however long it is (the
 * message once printed all of it, which gcc refuses on 32-bit ARM: -Wformat-truncation). */
static void test_path_too_long(void **state)
{
	(void)state;
	char path[5000], err[256];

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	assert_null(ctlclient_connect(path, err, sizeof(err)));
	assert_int_equal(strncmp(err, path, 64), 0);
	assert_string_equal(err + 64, "...: path too long (at most 107 characters)");

	path[108] = '\0';
	assert_null(ctlclient_connect(path, err, sizeof(err)));
	assert_non_null(strstr(err, "path too long"));
	/* A small buffer gets a cut message, never an overrun. */
	assert_null(ctlclient_connect(path, err, 8));
	assert_int_equal(strlen(err), 7);
}

static void test_nobody_listening(void **state)
{
	(void)state;
	char err[256];

	assert_null(ctlclient_connect("/nonexistent/annabella/control", err, sizeof(err)));
	assert_string_equal(err, "cannot reach the daemon at /nonexistent/annabella/control: "
				 "No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_path_too_long),
	    cmocka_unit_test(test_nobody_listening),
	};
	return cmocka_run_group_tests_name("ctlclient", tests, NULL, NULL);
}
