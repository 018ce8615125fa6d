/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The web page's PINs (docs/web.md "The web page for the assistant and the arbiter"; README
 * "Security model"): whether a PIN from a client address may be checked now, and against which of
 * the configured PINs.  Pure: the caller holds its lock and gives the times (ms of one clock).
 *
 * - Every address (an IPv6 address's /64) has its own budget (base/pinguard.h: five free,
 *   then growing waits).  The table keeps every address with wrong PINs counted, so at most
 *   PIN_KEYS addresses guess at once; a new address waits while it is full of them.
 * - The arbiter's PIN from any address is checked against that address's budget only: no
 *   other address's guesses can lock the arbiter out.
 * - The assistant's PIN is checked for a new address only while the page has counted fewer
 *   than PIN_GATE_TOTAL wrong PINs in a minute from such addresses; an address that gave a
 *   right PIN before (kept per role) is checked against its own role's PIN at any time,
 *   which tells it nothing it does not know.
 * - A right PIN resets no count: an assistant's address guessing the arbiter's PIN is
 *   counted as any other.
 *
 * Without PINs in the configuration the daemon checks them (its own budget for the page's
 * user): the gate then passes one PIN at a time per address on.
 */
#ifndef ANNABELLA_PINGATE_H
#define ANNABELLA_PINGATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/pinguard.h"
#include "base/pinhash.h"

#define PIN_GATE_TOTAL	 30    /* wrong PINs a minute from new addresses ... */
#define PIN_GATE_WINDOW	 60000 /* ... in this many ms */
#define PIN_GATE_TRUSTED 16    /* addresses kept per role */
#define PIN_GATE_ASKING	 16    /* PINs the daemon checks at once (no PINs configured) */

enum pin_gate_role { PIN_GATE_ASSISTANT, PIN_GATE_ARBITER, PIN_GATE_ROLES };

enum pin_gate_verdict {
	PIN_GATE_RIGHT, /* out->role */
	PIN_GATE_WRONG, /* counted; out->wait: the wait it started (0: none) */
	PIN_GATE_WAIT,	/* not checked (or, PIN_GATE_FULL_TOTAL, checked against the arbiter's
			 * PIN only and counted): out->wait, out->why */
	PIN_GATE_ASK,	/* no PINs configured: pass it on, then pin_gate_answered() */
};

enum pin_gate_why {
	PIN_GATE_ADDRESS,     /* this address waits after its wrong PINs */
	PIN_GATE_ADDRESSES,   /* every place of the table holds a guessing address */
	PIN_GATE_FULL_TOTAL,  /* the page's total for new addresses is full */
	PIN_GATE_ONE_AT_ONCE, /* the daemon checks this address's PIN already */
	PIN_GATE_DAEMON_FULL, /* the daemon checks PIN_GATE_ASKING PINs already */
};

struct pin_gate_outcome {
	enum pin_gate_role role;
	enum pin_gate_why why;
	uint64_t wait;	    /* ms */
	int wrong;	    /* the address's wrong PINs counted, after this one */
	bool first_refusal; /* PIN_GATE_ADDRESS: the first try refused in this wait */
	bool total_filled;  /* PIN_GATE_FULL_TOTAL: the first refusal of this minute */
};

struct pin_gate {
	struct pin_hash pins[PIN_GATE_ROLES]; /* the configuration's hashes (not set: none) */
	struct pin_guard guard;
	uint64_t wrong_at[PIN_GATE_TOTAL]; /* the last wrong PINs in the total, a ring */
	int wrong_next;
	uint64_t total_said; /* when a full total was last reported */
	struct {
		char key[PIN_KEY_MAX];
		uint64_t at; /* its last right PIN */
	} trusted[PIN_GATE_ROLES][PIN_GATE_TRUSTED];
	char asking[PIN_GATE_ASKING][PIN_KEY_MAX];
};

void pin_gate_init(struct pin_gate *g, const struct pin_hash *arbiter_pin,
		   const struct pin_hash *assistant_pin);
/* The PIN from the address key (pin_guard_address_key()) at now: checked, counted, or not. */
enum pin_gate_verdict pin_gate_check(struct pin_gate *g, const char *key, const char *pin,
				     uint64_t now, struct pin_gate_outcome *out);
/* The daemon's answer to a PIN passed on (PIN_GATE_ASK): answered false when it gave none
 * (no connection); right with the role it gave.  The wait a wrong one starts (0: none). */
uint64_t pin_gate_answered(struct pin_gate *g, const char *key, bool answered, bool right,
			   enum pin_gate_role role, uint64_t now);

#endif
