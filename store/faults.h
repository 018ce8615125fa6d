/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The storage faults a board script plays (docs/scripts.md "Board scripts, line logs, time
 * controls": `disk full|eio|readonly|ok`, `disk slow MS`, `crash after BYTES`, `crash
 * unsynced`), gathered in one structure: the store's, read by every write to the state
 * directory (state.c) and by the journal.  For tests only: nothing but a board script and the
 * unit tests set them, through state.h's setters and journal_power_loss(); this header is the
 * store's own.
 */
#ifndef ANNABELLA_FAULTS_H
#define ANNABELLA_FAULTS_H

#include <stdatomic.h>

#include "store/state.h"

struct journal;

struct store_faults {
	/* disk full|eio|readonly|ok: set by the main thread, read by the writer's thread and
	 * the voice's (speech.log) too */
	_Atomic enum state_fault storage;
	atomic_bool cut_short;	       /* full: the first write after it has been cut short */
	atomic_uint sync_delay_ms;     /* disk slow MS: each sync takes that much longer */
	atomic_bool sync_delay_sleeps; /* the delay is slept (real time), or the store's to take */
	atomic_long crash_budget; /* crash after BYTES: bytes until the power goes (-1: never) */
	struct journal *journal;  /* crash unsynced: the journal open now (the store's) */
};

/* The one set of faults, the store's. */
struct store_faults *store_faults(void);

#endif
