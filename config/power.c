/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * [power]: how the daemon watches the supply (under-voltage, a battery's charge) and when
 * it warns.
 */
#include "config/sections.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void power_config_defaults(struct power_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->monitor = POWER_MONITOR_AUTO;
	snprintf(cfg->sysfs, sizeof(cfg->sysfs), "/sys");
	snprintf(cfg->undervoltage, sizeof(cfg->undervoltage), "auto");
	snprintf(cfg->supply, sizeof(cfg->supply), "auto");
	cfg->low_percent = 20;
	cfg->low_hours = 10;
}

static int set_power_path(char *dst, size_t size, const char *key, const char *value, char *err,
			  size_t err_size)
{
	if (strcmp(value, "auto") && strcmp(value, "none") && value[0] != '/')
		BAD("%s must be auto, none or an absolute path, not '%s'", key, value);
	if (snprintf(dst, size, "%s", value) >= (int)size)
		BAD("%s too long", key);
	return 0;
}

int power_config_set(struct power_config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	if (!strcmp(key, "monitor")) {
		if (!strcmp(value, "auto"))
			cfg->monitor = POWER_MONITOR_AUTO;
		else if (!strcmp(value, "yes"))
			cfg->monitor = POWER_MONITOR_YES;
		else if (!strcmp(value, "no"))
			cfg->monitor = POWER_MONITOR_NO;
		else
			BAD("monitor must be auto, yes or no, not '%s'", value);
		return 0;
	}
	if (!strcmp(key, "sysfs")) {
		if (value[0] != '/')
			BAD("sysfs must be an absolute path, not '%s'", value);
		if (snprintf(cfg->sysfs, sizeof(cfg->sysfs), "%s", value) >=
		    (int)sizeof(cfg->sysfs))
			BAD("sysfs too long");
		return 0;
	}
	if (!strcmp(key, "undervoltage"))
		return set_power_path(cfg->undervoltage, sizeof(cfg->undervoltage), key, value, err,
				      err_size);
	if (!strcmp(key, "supply"))
		return set_power_path(cfg->supply, sizeof(cfg->supply), key, value, err, err_size);
	if (!strcmp(key, "low-percent")) {
		char *end;
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || *end || end == value || v < 1 || v > 99)
			BAD("low-percent must be 1..99, not '%s'", value);
		cfg->low_percent = (int)v;
		return 0;
	}
	if (!strcmp(key, "low-hours")) {
		char *end;
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || *end || end == value || v < 1 || v > 48)
			BAD("low-hours must be 1..48, not '%s'", value);
		cfg->low_hours = (int)v;
		return 0;
	}
	BAD("unknown key '%s' in [power]", key);
}
