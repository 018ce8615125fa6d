/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/pinguard.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

void pin_guard_init(struct pin_guard *g)
{
	memset(g, 0, sizeof(*g));
}

/* After a quarter of an hour without a wrong PIN (and no wait running) a key starts again. */
static void forget_if_old(struct pin_key *k, uint64_t now)
{
	if (k->key[0] && k->wrong && now >= k->wait_until && now - k->last_wrong >= PIN_FORGET_MS &&
	    !k->refused)
		k->wrong = 0;
}

static struct pin_key *find(struct pin_guard *g, const char *key)
{
	for (int i = 0; i < PIN_KEYS; i++)
		if (g->keys[i].key[0] && !strncmp(g->keys[i].key, key, PIN_KEY_MAX - 1))
			return &g->keys[i];
	return NULL;
}

/* Whether a slot may be given to another key: its count forgotten (or none), no wait running
 * and nothing owed to the audit.  A key with wrong PINs counted keeps its slot: were it
 * pushed out, its next PINs would start from five free ones again. */
static bool evictable(const struct pin_key *k, uint64_t now)
{
	return now >= k->wait_until && !k->refused &&
	       (!k->wrong || now - k->last_wrong >= PIN_FORGET_MS);
}

/* When k's slot may be given to another key (its wait over, its count forgotten). */
static uint64_t evictable_at(const struct pin_key *k)
{
	uint64_t forgotten = k->last_wrong + PIN_FORGET_MS;

	return k->wait_until > forgotten ? k->wait_until : forgotten;
}

/* The key's slot, made when it has none: a free slot, else the one quiet the longest of
 * those that may be given away; NULL when there is none (every slot counts wrong PINs). */
static struct pin_key *slot(struct pin_guard *g, const char *key, uint64_t now)
{
	struct pin_key *k = find(g, key), *pick = NULL;

	if (k)
		return k;
	for (int i = 0; i < PIN_KEYS; i++) {
		struct pin_key *c = &g->keys[i];

		if (!c->key[0]) {
			pick = c;
			break;
		}
		if (evictable(c, now) && (!pick || c->last_seen < pick->last_seen))
			pick = c;
	}
	if (!pick)
		return NULL;
	memset(pick, 0, sizeof(*pick));
	snprintf(pick->key, sizeof(pick->key), "%s", key);
	return pick;
}

uint64_t pin_guard_room(const struct pin_guard *g, const char *key, uint64_t now)
{
	uint64_t first = UINT64_MAX;

	for (int i = 0; i < PIN_KEYS; i++) {
		const struct pin_key *k = &g->keys[i];

		if (!k->key[0] || !strncmp(k->key, key, PIN_KEY_MAX - 1) || evictable(k, now))
			return 0;
		if (evictable_at(k) < first)
			first = evictable_at(k);
	}
	/* A slot that owes the audit is free once its wait has been reported (at its end). */
	return first > now ? first - now : 1;
}

uint64_t pin_guard_ask(struct pin_guard *g, const char *key, uint64_t now, bool *first_refusal)
{
	struct pin_key *k = find(g, key);

	if (first_refusal)
		*first_refusal = false;
	if (!k)
		return pin_guard_room(g, key, now);
	k->last_seen = now;
	forget_if_old(k, now);
	if (now >= k->wait_until)
		return 0;
	if (first_refusal)
		*first_refusal = k->refused == 0;
	k->refused++;
	return k->wait_until - now;
}

uint64_t pin_guard_wrong(struct pin_guard *g, const char *key, uint64_t now)
{
	struct pin_key *k = slot(g, key, now);
	uint64_t wait;
	int over;

	if (!k)
		return 0; /* no room: pin_guard_ask() refused it */
	forget_if_old(k, now);
	k->wrong++;
	k->last_wrong = k->last_seen = now;
	if (k->wrong < PIN_FREE_TRIES)
		return 0;
	/* 2 s after the fifth, doubling after each one more. */
	over = k->wrong - PIN_FREE_TRIES;
	wait = over >= 20 ? PIN_WAIT_MAX_MS : (uint64_t)PIN_WAIT_FIRST_MS << over;
	if (wait > PIN_WAIT_MAX_MS)
		wait = PIN_WAIT_MAX_MS;
	k->wait_from = now;
	k->wait_until = now + wait;
	return wait;
}

int pin_guard_count(const struct pin_guard *g, const char *key, uint64_t now)
{
	for (int i = 0; i < PIN_KEYS; i++) {
		const struct pin_key *k = &g->keys[i];

		if (k->key[0] && !strncmp(k->key, key, PIN_KEY_MAX - 1))
			return now >= k->wait_until && now - k->last_wrong >= PIN_FORGET_MS
				   ? 0
				   : k->wrong;
	}
	return 0;
}

uint64_t pin_guard_wait_left(const struct pin_guard *g, const char *key, uint64_t now)
{
	for (int i = 0; i < PIN_KEYS; i++) {
		const struct pin_key *k = &g->keys[i];

		if (k->key[0] && !strncmp(k->key, key, PIN_KEY_MAX - 1))
			return now < k->wait_until ? k->wait_until - now : 0;
	}
	return 0;
}

uint64_t pin_guard_deadline(const struct pin_guard *g)
{
	uint64_t at = UINT64_MAX;

	for (int i = 0; i < PIN_KEYS; i++)
		if (g->keys[i].key[0] && g->keys[i].refused && g->keys[i].wait_until < at)
			at = g->keys[i].wait_until;
	return at;
}

bool pin_guard_ended(struct pin_guard *g, uint64_t now, bool all, struct pin_wait *out)
{
	for (int i = 0; i < PIN_KEYS; i++) {
		struct pin_key *k = &g->keys[i];

		if (!k->key[0] || !k->refused || (!all && now < k->wait_until))
			continue;
		snprintf(out->key, sizeof(out->key), "%s", k->key);
		out->wrong = k->wrong;
		out->length = k->wait_until - k->wait_from;
		out->refused = k->refused;
		k->refused = 0;
		return true;
	}
	return false;
}

void pin_guard_address_key(const char *addr, char *key, size_t size)
{
	struct in6_addr a;

	snprintf(key, size, "%s", addr);
	if (!strchr(addr, ':') || inet_pton(AF_INET6, addr, &a) != 1)
		return;
	if (IN6_IS_ADDR_V4MAPPED(&a)) {
		inet_ntop(AF_INET, a.s6_addr + 12, key, (socklen_t)size);
		return;
	}
	memset(a.s6_addr + 8, 0, 8);
	if (inet_ntop(AF_INET6, &a, key, (socklen_t)size) && strlen(key) + 4 < size)
		strcat(key, "/64");
}
