/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The device's power, from sysfs ([power]): the Raspberry Pi's under-voltage flag (the
 * firmware's, through the raspberrypi-hwmon driver: hwmon "rpi_volt", in0_lcrit_alarm) and a
 * UPS or battery HAT's power_supply (type Battery or UPS: status, capacity).  A warning of low
 * power before the game (FIDE's standards for electronic clocks; that text
 * was not at hand to check against): the presenter says a problem
 * privately when the game starts and when it changes, the clock display shows it, and
 * status reports it.  Read every two seconds; a file that cannot be read is no problem
 * found.
 */
#ifndef ANNABELLA_POWER_H
#define ANNABELLA_POWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "daemon/loop.h"

/* What was found, most severe first. */
enum power_problem {
	POWER_UNDERVOLTAGE = 1 << 0, /* the Pi's supply is too weak now */
	POWER_BATTERY_LOW = 1 << 1,  /* running on a battery that has under low-hours left at the
					discharge rate measured (at or below low-percent before
					a rate is known) */
	POWER_ON_BATTERY = 1 << 2,   /* running on the battery: the mains are gone */
};

struct power_status {
	bool monitored;		  /* power is watched at all */
	bool undervoltage_sensor; /* the under-voltage flag was found */
	bool battery;		  /* a battery or UPS was found */
	unsigned problems;	  /* enum power_problem bits */
	int percent;		  /* the battery's charge, -1: unknown */
	int minutes_left;	  /* on battery: at the discharge rate measured, -1: unknown */
	char supply_status[24];	  /* the battery's status as sysfs says ("Discharging"), or "" */
};

/* "ok", "undervoltage", "battery-low" or "on-battery": the most severe problem. */
const char *power_problem_name(unsigned problems);

struct power;
typedef void (*power_changed_fn)(void *user, const struct power_status *st, uint64_t now);

/* Watches the power from the loop (every two seconds, the first reading at once): changed()
 * is called with the first reading and after every change of the problems.  NULL when it is
 * off (monitor = no, or auto with a simulated board). */
struct power *power_open(const struct power_config *cfg, bool real_board, struct loop *loop,
			 power_changed_fn changed, void *user);
void power_free(struct power *p);

#endif
