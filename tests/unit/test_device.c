/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The device's serial off a Raspberry Pi: the application-specific id of /etc/machine-id
 * (store/device.h), never the machine id itself (machine-id(5)). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The module itself: its file-local functions are tested here. */
#include "store/device.c"

/* What `systemd-id128 machine-id --app-specific=af5ae885521a45248f8c736024d2fea8` printed
 * on a machine whose /etc/machine-id is 3d1219c7c4c5404aaa1f6d2a48adfda4 (systemd 252). */
static void test_as_systemd_makes_it(void **state)
{
	char out[33];

	(void)state;
	assert_string_equal(DEVICE_APP_ID, "af5ae885521a45248f8c736024d2fea8");
	assert_int_equal(device_app_specific("3d1219c7c4c5404aaa1f6d2a48adfda4", out), 0);
	assert_string_equal(out, "60fc65c9df894c9a921dcbd41be8533f");
	assert_int_equal(device_app_specific("3D1219C7C4C5404AAA1F6D2A48ADFDA4", out), 0);
	assert_string_equal(out, "60fc65c9df894c9a921dcbd41be8533f");
	assert_int_equal(device_app_specific("3d1219c7c4c5404aaa1f6d2a48adfda", out), -1);
	assert_int_equal(device_app_specific("3d1219c7c4c5404aaa1f6d2a48adfdag", out), -1);
}

static void test_serial_never_the_machine_id(void **state)
{
	char serial[64], id[64] = "";
	FILE *f = fopen("/etc/machine-id", "r");

	(void)state;
	device_serial(serial, sizeof(serial));
	if (f) {
		if (!fgets(id, sizeof(id), f))
			id[0] = '\0';
		fclose(f);
		id[strcspn(id, "\n")] = '\0';
	}
	if (id[0])
		assert_null(strstr(serial, id));
	assert_null(strstr(serial, "machine-id"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_as_systemd_makes_it),
	    cmocka_unit_test(test_serial_never_the_machine_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
