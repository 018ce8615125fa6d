/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The PIN budget (docs/control.md "Control interface", `auth`): wrong PINs counted per key (a Unix
 * user on the control socket; a client address on the web page; the board's buttons, PIN_KEY_BOARD,
 * for the arbiter's menu at the board), across connections.
 *
 * Five wrong PINs are free.  From the fifth on, each wrong PIN makes the key wait before its
 * next PIN is checked: 2 s, then 4, 8, 16 ... seconds, at most PIN_WAIT_MAX_MS, so that no
 * key gets more than ten PINs checked in any minute (nine, in fact).  A PIN given during a
 * wait is refused without being checked, right or wrong: otherwise the wait would tell an
 * attacker nothing.  A right PIN does not reset the count (someone who knows the
 * assistant's PIN would otherwise get five more tries at the arbiter's after each use of
 * it); a quarter of an hour without a wrong PIN does.
 *
 * The refused tries are for the audit once per wait, not one line each: pin_guard_ended()
 * hands over each wait that has ended with the tries it refused.  Pure: times are given, in
 * ms of one clock.
 */
#ifndef ANNABELLA_PINGUARD_H
#define ANNABELLA_PINGUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PIN_FREE_TRIES	  5
#define PIN_WAIT_FIRST_MS 2000u
#define PIN_WAIT_MAX_MS	  (10u * 60u * 1000u)
#define PIN_FORGET_MS	  (15u * 60u * 1000u)
#define PIN_KEYS	  64
#define PIN_KEY_MAX	  64
/* The key of the PINs entered on the board's buttons (no Unix user name starts with @). */
#define PIN_KEY_BOARD "@board"

struct pin_key {
	char key[PIN_KEY_MAX]; /* "" : a free slot */
	int wrong;	       /* wrong PINs counted */
	uint64_t last_seen;    /* the last try, right, wrong or refused */
	uint64_t last_wrong;
	uint64_t wait_from, wait_until; /* the current (or last) wait */
	int refused;			/* tries refused unchecked in it */
};

struct pin_guard {
	struct pin_key keys[PIN_KEYS];
};

/* A wait that ended with tries refused in it. */
struct pin_wait {
	char key[PIN_KEY_MAX];
	int wrong;	 /* wrong PINs that led to it */
	uint64_t length; /* ms */
	int refused;	 /* tries refused unchecked during it */
};

void pin_guard_init(struct pin_guard *g);
/* May a PIN from key be checked now?  0: yes; else the ms still to wait, and the try is
 * counted as refused (*first_refusal: it is this wait's first).  A key without a slot while
 * every slot counts wrong PINs waits, uncounted, as pin_guard_room() says. */
uint64_t pin_guard_ask(struct pin_guard *g, const char *key, uint64_t now, bool *first_refusal);
/* The PIN key gave was wrong: counted.  The wait it starts (0: none yet).  Called after
 * pin_guard_ask() said 0, without letting go of the guard in between (else a key that found
 * no room is not counted). */
uint64_t pin_guard_wrong(struct pin_guard *g, const char *key, uint64_t now);
/* The key a network client's PINs are counted under (the web page): an IPv4 address as it
 * is, an IPv6 address's /64 (one host may have a whole /64 to itself) as "PREFIX::/64", an
 * IPv4 address written as IPv6 as the IPv4 address. */
void pin_guard_address_key(const char *addr, char *key, size_t size);
/* Whether key has a slot or may have one now: 0; else the ms until a slot may be given to
 * it.  A slot goes to a new key only when its own key has no wrong PIN counted (none, or
 * forgotten), no wait running and nothing owed to the audit; of those, to the one quiet the
 * longest.  So a table full of guessing keys keeps every count, and new keys wait. */
uint64_t pin_guard_room(const struct pin_guard *g, const char *key, uint64_t now);
/* The wrong PINs counted for key now (0 when unknown or forgotten). */
int pin_guard_count(const struct pin_guard *g, const char *key, uint64_t now);
/* The ms key still waits before its next PIN is checked (0: none), without counting a
 * try (for a display of the wait). */
uint64_t pin_guard_wait_left(const struct pin_guard *g, const char *key, uint64_t now);
/* When the next wait with refused tries ends (UINT64_MAX: none). */
uint64_t pin_guard_deadline(const struct pin_guard *g);
/* One wait that has ended by now with refused tries, into *out (its refusals then
 * forgotten): true, or false when there is none.  `all`: the waits not yet ended too (the
 * daemon stops). */
bool pin_guard_ended(struct pin_guard *g, uint64_t now, bool all, struct pin_wait *out);

#endif
