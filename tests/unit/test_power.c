/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The power as read from sysfs (daemon/power.h), on trees made here: the Pi's under-voltage
 * flag found by its hwmon name or given as a file (also the firmware's get_throttled), a UPS
 * or battery found by its power_supply type or given as a directory, the low mark, and
 * files that are missing or unreadable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

/* The modules themselves: their file-local functions are tested here. */
#include "config/config.c"
#include "daemon/power.c"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], dir[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(s - path), path);
		mkdir(dir, 0755);
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/annabella-power-XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void config(struct power_config *cfg)
{
	power_config_defaults(cfg);
	snprintf(cfg->sysfs, sizeof(cfg->sysfs), "%s", root);
}

static void test_nothing_found(void **state)
{
	struct power_config cfg;
	struct power_status st;

	(void)state;
	config(&cfg);
	power_read(&cfg, &st);
	assert_true(st.monitored);
	assert_false(st.undervoltage_sensor);
	assert_false(st.battery);
	assert_int_equal(st.problems, 0);
	assert_int_equal(st.percent, -1);
	assert_string_equal(power_problem_name(st.problems), "ok");
}

/* The hwmon device named rpi_volt, whichever number it has; another hwmon's alarm is not
 * read. */
static void test_undervoltage_auto(void **state)
{
	struct power_config cfg;
	struct power_status st;

	(void)state;
	put("class/hwmon/hwmon0/name", "cpu_thermal\n");
	put("class/hwmon/hwmon0/in0_lcrit_alarm", "1\n");
	put("class/hwmon/hwmon2/name", "rpi_volt\n");
	put("class/hwmon/hwmon2/in0_lcrit_alarm", "0\n");
	config(&cfg);
	power_read(&cfg, &st);
	assert_true(st.undervoltage_sensor);
	assert_int_equal(st.problems, 0);

	put("class/hwmon/hwmon2/in0_lcrit_alarm", "1\n");
	power_read(&cfg, &st);
	assert_int_equal(st.problems, POWER_UNDERVOLTAGE);
	assert_string_equal(power_problem_name(st.problems), "undervoltage");

	snprintf(cfg.undervoltage, sizeof(cfg.undervoltage), "none");
	power_read(&cfg, &st);
	assert_false(st.undervoltage_sensor);
	assert_int_equal(st.problems, 0);
}

/* A file given by path: the firmware's get_throttled, hexadecimal, bit 0 now. */
static void test_undervoltage_file(void **state)
{
	struct power_config cfg;
	struct power_status st;

	(void)state;
	put("get_throttled", "0x50000\n"); /* under-voltage has occurred, not now */
	config(&cfg);
	snprintf(cfg.undervoltage, sizeof(cfg.undervoltage), "%s/get_throttled", root);
	power_read(&cfg, &st);
	assert_true(st.undervoltage_sensor);
	assert_int_equal(st.problems, 0);
	put("get_throttled", "0x50005\n");
	power_read(&cfg, &st);
	assert_int_equal(st.problems, POWER_UNDERVOLTAGE);
	put("get_throttled", "garbage\n");
	power_read(&cfg, &st);
	assert_false(st.undervoltage_sensor);
	assert_int_equal(st.problems, 0);
}

/* The first power_supply of type Battery or UPS in name order; the mains adapter is not one. */
static void test_battery_auto(void **state)
{
	struct power_config cfg;
	struct power_status st;

	(void)state;
	put("class/power_supply/AC/type", "Mains\n");
	put("class/power_supply/AC/status", "Discharging\n");
	put("class/power_supply/ups/type", "UPS\n");
	put("class/power_supply/ups/status", "Charging\n");
	put("class/power_supply/ups/capacity", "80\n");
	config(&cfg);
	power_read(&cfg, &st);
	assert_true(st.battery);
	assert_string_equal(st.supply_status, "Charging");
	assert_int_equal(st.percent, 80);
	assert_int_equal(st.problems, 0);

	put("class/power_supply/ups/status", "Discharging\n");
	put("class/power_supply/ups/capacity", "21\n");
	power_read(&cfg, &st);
	assert_int_equal(st.problems, POWER_ON_BATTERY);
	assert_string_equal(power_problem_name(st.problems), "on-battery");

	put("class/power_supply/ups/capacity", "20\n");
	power_read(&cfg, &st);
	assert_int_equal(st.problems, POWER_ON_BATTERY | POWER_BATTERY_LOW);
	assert_string_equal(power_problem_name(st.problems), "battery-low");

	/* Low while charging is no problem: the mains are there. */
	put("class/power_supply/ups/status", "Charging\n");
	power_read(&cfg, &st);
	assert_int_equal(st.problems, 0);

	cfg.low_percent = 10;
	put("class/power_supply/ups/status", "Discharging\n");
	power_read(&cfg, &st);
	assert_int_equal(st.problems, POWER_ON_BATTERY);
}

/* A directory given by path; without a capacity, the level says whether it is low. */
static void test_battery_path_and_level(void **state)
{
	struct power_config cfg;
	struct power_status st;

	(void)state;
	put("hat/status", "Discharging\n");
	put("hat/capacity_level", "Normal\n");
	config(&cfg);
	snprintf(cfg.supply, sizeof(cfg.supply), "%s/hat", root);
	power_read(&cfg, &st);
	assert_true(st.battery);
	assert_int_equal(st.percent, -1);
	assert_int_equal(st.problems, POWER_ON_BATTERY);
	put("hat/capacity_level", "Critical\n");
	power_read(&cfg, &st);
	assert_int_equal(st.problems, POWER_ON_BATTERY | POWER_BATTERY_LOW);
	snprintf(cfg.supply, sizeof(cfg.supply), "none");
	power_read(&cfg, &st);
	assert_false(st.battery);
	assert_int_equal(st.problems, 0);
	/* Under-voltage is named first when both hold. */
	assert_string_equal(power_problem_name(POWER_UNDERVOLTAGE | POWER_BATTERY_LOW),
			    "undervoltage");
}

static void test_config_keys(void **state)
{
	struct power_config cfg;
	char err[200];

	(void)state;
	power_config_defaults(&cfg);
	assert_int_equal(cfg.monitor, POWER_MONITOR_AUTO);
	assert_string_equal(cfg.sysfs, "/sys");
	assert_string_equal(cfg.undervoltage, "auto");
	assert_string_equal(cfg.supply, "auto");
	assert_int_equal(cfg.low_percent, 20);
	assert_int_equal(power_config_set(&cfg, "monitor", "yes", err, sizeof(err)), 0);
	assert_int_equal(cfg.monitor, POWER_MONITOR_YES);
	assert_int_equal(power_config_set(&cfg, "monitor", "maybe", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "monitor"));
	assert_int_equal(
	    power_config_set(&cfg, "supply", "/sys/class/power_supply/BAT0", err, sizeof(err)), 0);
	assert_int_equal(power_config_set(&cfg, "supply", "BAT0", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "absolute"));
	assert_int_equal(power_config_set(&cfg, "undervoltage", "none", err, sizeof(err)), 0);
	assert_int_equal(power_config_set(&cfg, "sysfs", "sys", err, sizeof(err)), -1);
	assert_int_equal(power_config_set(&cfg, "low-percent", "15", err, sizeof(err)), 0);
	assert_int_equal(cfg.low_percent, 15);
	assert_int_equal(power_config_set(&cfg, "low-percent", "100", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1..99"));
	assert_int_equal(cfg.low_hours, 10);
	assert_int_equal(power_config_set(&cfg, "low-hours", "12", err, sizeof(err)), 0);
	assert_int_equal(cfg.low_hours, 12);
	assert_int_equal(power_config_set(&cfg, "low-hours", "0", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1..48"));
	assert_int_equal(power_config_set(&cfg, "voltage", "5", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown key 'voltage' in [power]"));
}

/* The low battery by the time left at the measured discharge rate: ten hours at 20 % an hour
 * is low at 100 % already (FIDE: ten hours after the warning), a slow discharge is not low at
 * 30 %; before two percent are lost the fixed low-percent decides; charging begins again. */
static void test_discharge_rate(void **state)
{
	struct power_config cfg;
	struct power_discharge d = {0};
	struct power_status st = {.monitored = true, .battery = true, .percent = 100};
	const uint64_t hour = 3600000;

	(void)state;
	power_config_defaults(&cfg);
	st.problems = POWER_ON_BATTERY;
	power_discharge(&d, &cfg, &st, 0);
	assert_int_equal(st.minutes_left, -1);
	assert_false(st.problems & POWER_BATTERY_LOW);
	/* 20 % an hour: 98 % after six minutes, 4.9 hours left. */
	st.percent = 98;
	power_discharge(&d, &cfg, &st, hour / 10);
	assert_int_equal(st.minutes_left, 294);
	assert_true(st.problems & POWER_BATTERY_LOW);
	/* A slow discharge, 2 % an hour: 30 % is 15 hours, not low though under low-percent... */
	d = (struct power_discharge){0};
	st.percent = 34;
	st.problems = POWER_ON_BATTERY;
	power_discharge(&d, &cfg, &st, 0);
	st.percent = 30;
	st.problems = POWER_ON_BATTERY;
	power_discharge(&d, &cfg, &st, 2 * hour);
	assert_int_equal(st.minutes_left, 900);
	assert_false(st.problems & POWER_BATTERY_LOW);
	/* ... and 18 % (power_read() calls it low: under low-percent) is nine hours: low. */
	st.percent = 18;
	st.problems = POWER_ON_BATTERY | POWER_BATTERY_LOW;
	power_discharge(&d, &cfg, &st, 8 * hour);
	assert_int_equal(st.minutes_left, 540);
	assert_true(st.problems & POWER_BATTERY_LOW);
	/* Mains back: nothing measured; on battery again from a higher charge: begins again. */
	st.problems = 0;
	power_discharge(&d, &cfg, &st, 9 * hour);
	assert_int_equal(st.minutes_left, -1);
	st.percent = 60;
	st.problems = POWER_ON_BATTERY;
	power_discharge(&d, &cfg, &st, 10 * hour);
	assert_int_equal(st.minutes_left, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_discharge_rate),
	    cmocka_unit_test_setup_teardown(test_nothing_found, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_undervoltage_auto, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_undervoltage_file, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_battery_auto, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_battery_path_and_level, setup, teardown),
	    cmocka_unit_test(test_config_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
