/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Timing trace for measurements (make bench): when ANNABELLA_TRACE names a file, the daemon
 * appends one line per traced moment, "NS WHAT DETAIL", NS on CLOCK_MONOTONIC in
 * nanoseconds.  Traced: each board edge as it happened (`edge` for a square, `button` for a
 * button such as a clock's), each move announced (`move`), the first sample of each
 * utterance handed to the sound sink (`first-sample`), and in `annabella relay` each game
 * received (`relay-pgn BOARD PLIES CLOCKS`, CLOCKS the moves with their [%clk]).  Off (one branch)
 * when not set.  Any thread may trace: a line is one write(2) on an O_APPEND descriptor.
 */
#ifndef ANNABELLA_TRACE_H
#define ANNABELLA_TRACE_H

#include <stdbool.h>
#include <stdint.h>

/* Opens the file ANNABELLA_TRACE names, if it does; false if it names one that cannot be
 * opened (logged). */
bool trace_open_from_env(void);
void trace_close(void);
bool trace_on(void);
/* A line at monotonic time `ns` (0: now). */
void trace_at(uint64_t ns, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
