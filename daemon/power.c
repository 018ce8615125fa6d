/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/power.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/firstline.h"
#include "base/log.h"

#define POWER_PERIOD_MS 2000

const char *power_problem_name(unsigned problems)
{
	if (problems & POWER_UNDERVOLTAGE)
		return "undervoltage";
	if (problems & POWER_BATTERY_LOW)
		return "battery-low";
	if (problems & POWER_ON_BATTERY)
		return "on-battery";
	return "ok";
}

static int read_in(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -1;
	return file_first_line(path, buf, size);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The first entry of SYSFS/class/CLASS (in name order) whose file `name` reads one of the
 * values (NULL-terminated): its directory into out.  0, or -1 when there is none. */
static int find_in_class(const char *sysfs, const char *cls, const char *name,
			 const char *const values[], char *out, size_t size)
{
	char dir[PATH_MAX], entry[PATH_MAX], value[64];
	struct dirent **names;
	int n, found = -1;

	if (snprintf(dir, sizeof(dir), "%s/class/%s", sysfs, cls) >= (int)sizeof(dir))
		return -1;
	n = scandir(dir, &names, NULL, by_name);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (found < 0 && names[i]->d_name[0] != '.' &&
		    snprintf(entry, sizeof(entry), "%s/%s", dir, names[i]->d_name) <
			(int)sizeof(entry) &&
		    read_in(entry, name, value, sizeof(value)) == 0) {
			for (int v = 0; values[v]; v++)
				if (!strcmp(value, values[v]) &&
				    snprintf(out, size, "%s", entry) < (int)size) {
					found = 0;
					break;
				}
		}
		free(names[i]);
	}
	free(names);
	return found;
}

static void read_undervoltage(const struct power_config *cfg, struct power_status *st)
{
	static const char *const rpi_volt[] = {"rpi_volt", NULL};
	char dir[PATH_MAX], path[PATH_MAX], value[64];
	unsigned long flags;
	char *end;

	if (!strcmp(cfg->undervoltage, "none"))
		return;
	if (!strcmp(cfg->undervoltage, "auto")) {
		if (find_in_class(cfg->sysfs, "hwmon", "name", rpi_volt, dir, sizeof(dir)) ||
		    snprintf(path, sizeof(path), "%s/in0_lcrit_alarm", dir) >= (int)sizeof(path))
			return;
	} else {
		snprintf(path, sizeof(path), "%s", cfg->undervoltage);
	}
	if (file_first_line(path, value, sizeof(value)))
		return;
	errno = 0;
	flags = strtoul(value, &end, 16);
	if (errno || end == value)
		return;
	st->undervoltage_sensor = true;
	if (flags & 1)
		st->problems |= POWER_UNDERVOLTAGE;
}

static void read_supply(const struct power_config *cfg, struct power_status *st)
{
	static const char *const batteries[] = {"Battery", "UPS", NULL};
	char dir[PATH_MAX], value[64];
	char *end;
	long percent;

	if (!strcmp(cfg->supply, "none"))
		return;
	if (!strcmp(cfg->supply, "auto")) {
		if (find_in_class(cfg->sysfs, "power_supply", "type", batteries, dir, sizeof(dir)))
			return;
	} else {
		snprintf(dir, sizeof(dir), "%s", cfg->supply);
	}
	if (read_in(dir, "status", st->supply_status, sizeof(st->supply_status)))
		return;
	st->battery = true;
	if (read_in(dir, "capacity", value, sizeof(value)) == 0) {
		errno = 0;
		percent = strtol(value, &end, 10);
		if (!errno && end != value && percent >= 0 && percent <= 100)
			st->percent = (int)percent;
	}
	if (strcmp(st->supply_status, "Discharging"))
		return;
	st->problems |= POWER_ON_BATTERY;
	if (st->percent >= 0 ? st->percent <= cfg->low_percent
			     : read_in(dir, "capacity_level", value, sizeof(value)) == 0 &&
				   (!strcmp(value, "Low") || !strcmp(value, "Critical")))
		st->problems |= POWER_BATTERY_LOW;
}

/* Read the status from sysfs as configured (used by the monitor and the tests). */
static void power_read(const struct power_config *cfg, struct power_status *out)
{
	memset(out, 0, sizeof(*out));
	out->monitored = true;
	out->percent = -1;
	out->minutes_left = -1;
	read_undervoltage(cfg, out);
	read_supply(cfg, out);
}

/* The discharge measured since the battery began to discharge: its first reading. */
struct power_discharge {
	bool on;
	uint64_t since_ms;
	int since_percent;
};

struct power {
	struct power_config cfg;
	power_changed_fn changed;
	void *user;
	uint64_t next_ms;
	bool have;
	struct power_status last;
	struct power_discharge discharge;
};

/* A reading at `now` into the discharge: st->minutes_left, the time left at the rate measured
 * since the battery began to discharge (once it has lost two percent; -1 before), and whether
 * it is low by that: less than [power] low-hours left (FIDE's standards for electronic clocks:
 * the clock works at least ten hours after its low-battery warning), or, before a rate is
 * known, at or below low-percent as power_read() found.  A charge that rises begins again. */
static void power_discharge(struct power_discharge *d, const struct power_config *cfg,
			    struct power_status *st, uint64_t now)
{
	int lost;
	double per_ms;

	st->minutes_left = -1;
	if (!(st->problems & POWER_ON_BATTERY) || st->percent < 0) {
		d->on = false;
		return;
	}
	if (!d->on || st->percent > d->since_percent) {
		d->on = true;
		d->since_ms = now;
		d->since_percent = st->percent;
	}
	lost = d->since_percent - st->percent;
	if (lost < 2 || now <= d->since_ms)
		return;
	per_ms = (double)lost / (double)(now - d->since_ms);
	st->minutes_left = (int)((double)st->percent / per_ms / 60000.0);
	if (st->minutes_left < cfg->low_hours * 60)
		st->problems |= POWER_BATTERY_LOW;
	else
		st->problems &= ~(unsigned)POWER_BATTERY_LOW;
}

static uint64_t power_deadline(void *user, uint64_t now)
{
	struct power *p = user;

	(void)now;
	return p->next_ms;
}

static bool same(const struct power_status *a, const struct power_status *b)
{
	return a->problems == b->problems && a->percent == b->percent && a->battery == b->battery &&
	       a->minutes_left / 10 == b->minutes_left / 10 &&
	       a->undervoltage_sensor == b->undervoltage_sensor &&
	       !strcmp(a->supply_status, b->supply_status);
}

static void power_run(void *user, uint64_t now)
{
	struct power *p = user;
	struct power_status st;

	p->next_ms = now + POWER_PERIOD_MS;
	power_read(&p->cfg, &st);
	power_discharge(&p->discharge, &p->cfg, &st, now);
	if (p->have && same(&st, &p->last))
		return;
	if (st.problems && (!p->have || st.problems != p->last.problems))
		log_warn(LOG_MAIN, "power: %s%s%s", power_problem_name(st.problems),
			 st.battery ? ", battery " : "", st.battery ? st.supply_status : "");
	else if (!st.problems && p->have && p->last.problems)
		log_info(LOG_MAIN, "power: ok again");
	p->have = true;
	p->last = st;
	p->changed(p->user, &st, now);
}

struct power *power_open(const struct power_config *cfg, bool real_board, struct loop *loop,
			 power_changed_fn changed, void *user)
{
	struct power *p;

	if (cfg->monitor == POWER_MONITOR_NO || (cfg->monitor == POWER_MONITOR_AUTO && !real_board))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->cfg = *cfg;
	p->changed = changed;
	p->user = user;
	p->next_ms = loop_now(loop);
	if (loop_add_source(loop, power_deadline, power_run, p)) {
		free(p);
		return NULL;
	}
	return p;
}

void power_free(struct power *p)
{
	free(p);
}
