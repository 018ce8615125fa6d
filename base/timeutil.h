/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The monotonic clock, read in one place.  Pure layers never call these: they are given the
 * time with every event.
 */
#ifndef ANNABELLA_TIMEUTIL_H
#define ANNABELLA_TIMEUTIL_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds / milliseconds. */
uint64_t monotonic_ns(void);
uint64_t monotonic_ms(void);

#endif
