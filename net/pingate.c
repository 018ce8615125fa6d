/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/pingate.h"

#include <stdio.h>
#include <string.h>

void pin_gate_init(struct pin_gate *g, const struct pin_hash *arbiter_pin,
		   const struct pin_hash *assistant_pin)
{
	memset(g, 0, sizeof(*g));
	pin_guard_init(&g->guard);
	g->pins[PIN_GATE_ARBITER] = *arbiter_pin;
	g->pins[PIN_GATE_ASSISTANT] = *assistant_pin;
}

static bool trusted(const struct pin_gate *g, enum pin_gate_role role, const char *key)
{
	for (int i = 0; i < PIN_GATE_TRUSTED; i++)
		if (g->trusted[role][i].key[0] && !strcmp(g->trusted[role][i].key, key))
			return true;
	return false;
}

/* A right PIN of role from key: kept among that role's addresses, in place of the one whose
 * last right PIN is the oldest.  One role's logins never push out the other's. */
static void trust(struct pin_gate *g, enum pin_gate_role role, const char *key, uint64_t now)
{
	int pick = 0;

	for (int i = 0; i < PIN_GATE_TRUSTED; i++) {
		if (!strcmp(g->trusted[role][i].key, key)) {
			pick = i;
			break;
		}
		if (g->trusted[role][i].at < g->trusted[role][pick].at)
			pick = i;
	}
	snprintf(g->trusted[role][pick].key, sizeof(g->trusted[0][0].key), "%s", key);
	g->trusted[role][pick].at = now ? now : 1;
}

/* The ms until a new address's PIN may be checked against the assistant's (0: now). */
static uint64_t pin_gate_total_wait(const struct pin_gate *g, uint64_t now)
{
	uint64_t oldest = g->wrong_at[g->wrong_next]; /* the PIN_GATE_TOTAL-th last */

	return oldest && now < oldest + PIN_GATE_WINDOW ? oldest + PIN_GATE_WINDOW - now : 0;
}

static enum pin_gate_verdict wrong(struct pin_gate *g, const char *key, uint64_t now, bool in_total,
				   struct pin_gate_outcome *out)
{
	out->wait = pin_guard_wrong(&g->guard, key, now);
	out->wrong = pin_guard_count(&g->guard, key, now);
	if (in_total) {
		g->wrong_at[g->wrong_next] = now ? now : 1;
		g->wrong_next = (g->wrong_next + 1) % PIN_GATE_TOTAL;
	}
	return PIN_GATE_WRONG;
}

static enum pin_gate_verdict wait(enum pin_gate_why why, uint64_t ms, struct pin_gate_outcome *out)
{
	out->why = why;
	out->wait = ms;
	return PIN_GATE_WAIT;
}

static bool is(const struct pin_gate *g, enum pin_gate_role role, const char *pin)
{
	return pin_hash_check(&g->pins[role], pin);
}

/* No PINs configured: the daemon checks them, one at a time per address. */
static enum pin_gate_verdict pass_on(struct pin_gate *g, const char *key,
				     struct pin_gate_outcome *out)
{
	int free_place = -1;

	for (int i = 0; i < PIN_GATE_ASKING; i++) {
		if (!strcmp(g->asking[i], key))
			return wait(PIN_GATE_ONE_AT_ONCE, 1000, out);
		if (!g->asking[i][0] && free_place < 0)
			free_place = i;
	}
	if (free_place < 0)
		return wait(PIN_GATE_DAEMON_FULL, 1000, out);
	snprintf(g->asking[free_place], sizeof(g->asking[0]), "%s", key);
	return PIN_GATE_ASK;
}

enum pin_gate_verdict pin_gate_check(struct pin_gate *g, const char *key, const char *pin,
				     uint64_t now, struct pin_gate_outcome *out)
{
	bool arbiter_known = trusted(g, PIN_GATE_ARBITER, key);
	bool assistant_known = trusted(g, PIN_GATE_ASSISTANT, key);
	uint64_t room = pin_guard_room(&g->guard, key, now);

	memset(out, 0, sizeof(*out));
	out->wrong = pin_guard_count(&g->guard, key, now);
	if (room) {
		/* No place for a new address: one that gave its role's PIN here before is
		 * checked against that PIN alone (nothing counted: it learns nothing new). */
		if (arbiter_known && is(g, PIN_GATE_ARBITER, pin)) {
			out->role = PIN_GATE_ARBITER;
			return PIN_GATE_RIGHT;
		}
		if (assistant_known && is(g, PIN_GATE_ASSISTANT, pin)) {
			out->role = PIN_GATE_ASSISTANT;
			return PIN_GATE_RIGHT;
		}
		return wait(PIN_GATE_ADDRESSES, room, out);
	}
	out->wait = pin_guard_ask(&g->guard, key, now, &out->first_refusal);
	if (out->wait)
		return wait(PIN_GATE_ADDRESS, out->wait, out);
	if (!g->pins[PIN_GATE_ARBITER].set && !g->pins[PIN_GATE_ASSISTANT].set)
		return pass_on(g, key, out);
	/* The arbiter's PIN: this address's own budget, nothing else. */
	if (is(g, PIN_GATE_ARBITER, pin)) {
		trust(g, PIN_GATE_ARBITER, key, now);
		out->role = PIN_GATE_ARBITER;
		return PIN_GATE_RIGHT;
	}
	/* The assistant's: for an address that never gave a right PIN here, within the total. */
	if (!arbiter_known && !assistant_known && pin_gate_total_wait(g, now)) {
		uint64_t total = pin_gate_total_wait(g, now);

		wrong(g, key, now, false, out);
		out->total_filled = !g->total_said || now >= g->total_said + PIN_GATE_WINDOW;
		if (out->total_filled)
			g->total_said = now ? now : 1;
		return wait(PIN_GATE_FULL_TOTAL, out->wait > total ? out->wait : total, out);
	}
	if (is(g, PIN_GATE_ASSISTANT, pin)) {
		trust(g, PIN_GATE_ASSISTANT, key, now);
		out->role = PIN_GATE_ASSISTANT;
		return PIN_GATE_RIGHT;
	}
	return wrong(g, key, now, !arbiter_known && !assistant_known, out);
}

uint64_t pin_gate_answered(struct pin_gate *g, const char *key, bool answered, bool right,
			   enum pin_gate_role role, uint64_t now)
{
	struct pin_gate_outcome out = {0};

	for (int i = 0; i < PIN_GATE_ASKING; i++)
		if (!strcmp(g->asking[i], key))
			g->asking[i][0] = '\0';
	if (right)
		trust(g, role, key, now);
	else if (answered)
		wrong(g, key, now, false, &out);
	return out.wait;
}
