/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Timing trace for measurements (make bench): when ANNABELLA_TRACE names a file, the daemon
 * appends one line per traced moment, "NS WHAT DETAIL", NS on CLOCK_MONOTONIC in
 * nanoseconds.  Traced: each board edge as it happened (`edge` for a square, `button` for a
 * button such as a clock's), each utterance asked for (`say CHANNEL KIND behind=KIND|-
 * queued=N utterance=N`: every move's KIND is `move`, an echo's or a correction's with that
 * word after it; what was being said when it came, and how many waited before it), the first
 * sample of each handed to the sound sink (`first-sample CHANNEL KIND utterance=N`), a
 * report of an announcement heard given to the referee (`said N`), in `annabella train` the
 * engine asked and answering, and in `annabella relay` each game received (`relay-pgn BOARD
 * PLIES CLOCKS`, CLOCKS the moves with their [%clk]).  Off (one branch) when not set.  Any
 * thread may trace: a line is one write(2) on an O_APPEND descriptor.
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
