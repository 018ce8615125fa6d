/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How many PINs an attacker gets checked in an hour (README "Security model"), measured by
 * running the best schedules against the product's own budgets (base/pinguard.h for the
 * control socket's users and the board's buttons, net/pingate.h for the web page) on a
 * virtual clock for a day:
 *
 * - per key (a Unix user on the socket, the board, one address on the page): every schedule
 *   of n PINs as early as the waits allow and then a quiet quarter of an hour, the best n;
 * - the page from ADDRESSES addresses at once, each on that best schedule (the arbiter's PIN
 *   and, separately, the assistant's, which the page's total holds back for new addresses);
 * - every door at once: the page, the board and USERS Unix users of the socket's group.
 *
 * Usage: bench_pins [ADDRESSES [USERS]] (default 66 and 2).  Prints "bench NAME VALUE UNIT".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pinguard.h"
#include "net/pingate.h"

#define DAY_MS	 (24ull * 3600u * 1000u)
#define ARBITER	 "471108"
#define ASSIST	 "123456"
#define MAX_KEYS 1024

/* An attacker on one key: the time of its next PIN, and how many it has made this cycle. */
struct guesser {
	char key[64];
	uint64_t next;
	int made;
};

/* The best n for one key, and its PINs an hour. */
static double per_key(int *best_n)
{
	static struct pin_guard g;
	double best = 0;

	for (int n = 1; n <= 30; n++) {
		uint64_t now = 0;
		int checked = 0;

		pin_guard_init(&g);
		while (now < DAY_MS) {
			for (int i = 0; i < n && now < DAY_MS; i++) {
				if (pin_guard_ask(&g, "k", now, NULL))
					abort(); /* the schedule never tries during a wait */
				checked++;
				now += pin_guard_wrong(&g, "k", now);
			}
			while (pin_guard_count(&g, "k", now))
				now += 1000;
		}
		if (checked / 24.0 > best) {
			best = checked / 24.0;
			*best_n = n;
		}
	}
	return best;
}

/*
 * The page from `addresses` addresses, each making n PINs a cycle as the page's answers let
 * it (a wrong PIN's wait, a refusal's wait, the quarter of an hour to be forgotten), for a
 * day: the PINs checked against the arbiter's PIN an hour, and (*assistant) those checked
 * against the assistant's too.  Addresses that know the assistant's PIN gave it first.
 */
static double page(int addresses, int n, bool know_assistant, double *assistant)
{
	static struct pin_gate g;
	static struct guesser a[MAX_KEYS];
	uint64_t now = 0;
	int checked = 0, both = 0;

	pin_gate_init(&g, ARBITER, ASSIST);
	for (int i = 0; i < addresses; i++) {
		snprintf(a[i].key, sizeof(a[i].key), "10.%d.%d.%d", i >> 16 & 255, i >> 8 & 255,
			 i & 255);
		a[i].next = (uint64_t)i; /* not all in the same ms */
		a[i].made = 0;
		if (know_assistant) {
			struct pin_gate_outcome o;

			pin_gate_check(&g, a[i].key, ASSIST, 0, &o);
		}
	}
	while (now < DAY_MS) {
		struct guesser *x = &a[0];
		struct pin_gate_outcome o;
		enum pin_gate_verdict v;

		for (int i = 1; i < addresses; i++)
			if (a[i].next < x->next)
				x = &a[i];
		now = x->next;
		if (now >= DAY_MS)
			break;
		v = pin_gate_check(&g, x->key, "000000", now, &o);
		if (v == PIN_GATE_WRONG || (v == PIN_GATE_WAIT && o.why == PIN_GATE_FULL_TOTAL)) {
			/* Checked: against both PINs (wrong), or the arbiter's alone (a full
			 * total). */
			checked++;
			both += v == PIN_GATE_WRONG;
			x->made++;
		}
		if (v == PIN_GATE_WAIT) {
			x->next = now + (o.wait ? o.wait : 1);
		} else if (x->made >= n) {
			/* Quiet until its count is forgotten. */
			x->made = 0;
			x->next = now + (o.wait > PIN_FORGET_MS ? o.wait : PIN_FORGET_MS);
		} else {
			x->next = now + (o.wait ? o.wait : 1);
		}
	}
	*assistant = both / 24.0;
	return checked / 24.0;
}

int main(int argc, char **argv)
{
	int addresses = argc > 1 ? atoi(argv[1]) : 66, users = argc > 2 ? atoi(argv[2]) : 2;
	int n = 0;
	double key, arbiter, new_arbiter, assistant, ignored, all;

	if (addresses < 1 || addresses > MAX_KEYS || users < 0) {
		fprintf(stderr, "usage: bench_pins [ADDRESSES [USERS]]\n");
		return 2;
	}
	key = per_key(&n);
	arbiter = page(addresses, n, true, &ignored);
	new_arbiter = page(addresses, n, false, &assistant);
	all = (arbiter > new_arbiter ? arbiter : new_arbiter) + key * (1 + users);
	printf("bench pins_per_hour_per_key %.1f PINs an hour (a Unix user on the socket, the "
	       "board's buttons, one address of the page; best schedule: %d PINs, then a quiet "
	       "quarter of an hour)\n",
	       key, n);
	printf("bench pins_per_hour_page %.0f PINs an hour (the arbiter's, from %d addresses "
	       "that know the assistant's PIN; the table holds %d)\n",
	       arbiter, addresses, PIN_KEYS);
	printf("bench pins_per_hour_page_assistant %.0f PINs an hour (the assistant's, from %d "
	       "new addresses: the total holds it to %d a minute; the arbiter's %.0f)\n",
	       assistant, addresses, PIN_GATE_TOTAL, new_arbiter);
	printf("bench pins_per_hour_every_door %.0f PINs an hour (the page from %d addresses, "
	       "the board, %d users of the socket)\n",
	       all, addresses, users);
	printf("bench pin_six_digits_days %.1f days (every one of a million PINs through every "
	       "door at once; half that on average)\n",
	       1e6 / all / 24);
	printf("bench pin_four_digits_hours %.1f hours (every one of 10,000 PINs through every "
	       "door at once)\n",
	       1e4 / all);
	return 0;
}
