/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The web page's PINs (net/pingate.h): the arbiter's PIN from any address checked against
 * that address's budget only; the total for new addresses; trust per role; the table of
 * addresses never churned; the daemon asked one PIN at a time per address when the page
 * has no PINs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The module itself: its file-local functions are tested here. */
#include "net/pingate.c"

#define ARBITER	  "471108"
#define ASSISTANT "123456"

static struct pin_gate g;

/* The gate with the PINs' hashes (base/pinhash.h), of one round: the gate's logic does not
 * depend on the hash's cost. */
static void gate_init(const char *arbiter, const char *assistant)
{
	static const unsigned char salt[PIN_HASH_SALT] = "salt of the test";
	struct pin_hash a = {0}, b = {0};

	if (arbiter[0])
		pin_hash_make(&a, arbiter, salt, 1);
	if (assistant[0])
		pin_hash_make(&b, assistant, salt, 1);
	pin_gate_init(&g, &a, &b);
}

static enum pin_gate_verdict try_pin(const char *key, const char *pin, uint64_t now,
				     struct pin_gate_outcome *out)
{
	return pin_gate_check(&g, key, pin, now, out);
}

static void address(int i, char *key, size_t size)
{
	snprintf(key, size, "10.%d.%d.%d", (i >> 16) & 255, (i >> 8) & 255, i & 255);
}

/* 30 wrong PINs from 30 new addresses in a minute: a 31st new address's PIN is checked
 * against the arbiter's alone (and counted); the arbiter's right PIN comes through from a
 * new address and from one that erred before. */
static void test_total_never_refuses_the_arbiter(void **state)
{
	struct pin_gate_outcome out;
	char key[32];

	(void)state;
	gate_init(ARBITER, ASSISTANT);
	for (int i = 0; i < PIN_GATE_TOTAL; i++) {
		address(i, key, sizeof(key));
		assert_int_equal(try_pin(key, "555555", 1000, &out), PIN_GATE_WRONG);
	}
	assert_int_equal(try_pin("10.9.9.9", "555555", 2000, &out), PIN_GATE_WAIT);
	assert_int_equal(out.why, PIN_GATE_FULL_TOTAL);
	assert_int_equal(out.wait, PIN_GATE_WINDOW - 1000);
	assert_true(out.total_filled);
	assert_int_equal(out.wrong, 1);
	/* The assistant's right PIN from a new address waits for the total too. */
	assert_int_equal(try_pin("10.9.9.8", ASSISTANT, 2000, &out), PIN_GATE_WAIT);
	assert_false(out.total_filled); /* said once a minute */
	/* The arbiter's: from a new address, and from one with a wrong PIN counted. */
	assert_int_equal(try_pin("10.9.9.7", ARBITER, 2000, &out), PIN_GATE_RIGHT);
	assert_int_equal(out.role, PIN_GATE_ARBITER);
	assert_int_equal(try_pin("10.0.0.3", ARBITER, 2000, &out), PIN_GATE_RIGHT);
	/* Once the minute is over, new addresses are checked against both again. */
	assert_int_equal(try_pin("10.9.9.8", ASSISTANT, 61000, &out), PIN_GATE_RIGHT);
	assert_int_equal(out.role, PIN_GATE_ASSISTANT);
}

/* An address that gave the assistant's PIN is checked against it while the total is full;
 * its wrong PINs are counted for it as for any address: after five it waits. */
static void test_assistant_not_exempt(void **state)
{
	struct pin_gate_outcome out;
	char key[32];
	uint64_t now = 1000;
	int wrong = 0;

	(void)state;
	gate_init(ARBITER, ASSISTANT);
	assert_int_equal(try_pin("10.1.1.1", ASSISTANT, now, &out), PIN_GATE_RIGHT);
	for (int i = 0; i < PIN_GATE_TOTAL; i++) {
		address(i, key, sizeof(key));
		try_pin(key, "555555", now, &out);
	}
	assert_int_equal(try_pin("10.1.1.1", ASSISTANT, now, &out), PIN_GATE_RIGHT);
	for (int i = 0; i < 10; i++)
		if (try_pin("10.1.1.1", "555555", now, &out) == PIN_GATE_WRONG)
			wrong++;
	assert_int_equal(wrong, PIN_FREE_TRIES);
	assert_int_equal(try_pin("10.1.1.1", ASSISTANT, now, &out), PIN_GATE_WAIT);
	assert_int_equal(out.why, PIN_GATE_ADDRESS);
	/* Its wrong PINs were not in the total: it knows the assistant's PIN. */
	assert_int_equal(pin_gate_total_wait(&g, now + PIN_GATE_WINDOW), 0);
}

/* Trust per role: sixty assistant logins do not push the arbiter's address out.  With the
 * table full of guessing addresses, that address's arbiter PIN still comes through, a new
 * address waits, and an assistant's address is checked against the assistant's PIN alone. */
static void test_trust_per_role(void **state)
{
	struct pin_gate_outcome out;
	char key[32];
	uint64_t now = 1000;

	(void)state;
	gate_init(ARBITER, ASSISTANT);
	assert_int_equal(try_pin("192.0.2.1", ARBITER, now, &out), PIN_GATE_RIGHT);
	for (int i = 0; i < 60; i++) {
		address(1000 + i, key, sizeof(key));
		assert_int_equal(try_pin(key, ASSISTANT, now, &out), PIN_GATE_RIGHT);
	}
	/* Guessers fill every place (a minute apart, so the total is never full). */
	for (int i = 0; i < PIN_KEYS; i++) {
		address(i, key, sizeof(key));
		assert_int_equal(try_pin(key, "555555", now + (uint64_t)i * 3000, &out),
				 PIN_GATE_WRONG);
	}
	now += PIN_KEYS * 3000;
	assert_int_equal(try_pin("192.0.2.1", ARBITER, now, &out), PIN_GATE_RIGHT);
	assert_int_equal(out.role, PIN_GATE_ARBITER);
	assert_int_equal(try_pin("192.0.2.99", ARBITER, now, &out), PIN_GATE_WAIT);
	assert_int_equal(out.why, PIN_GATE_ADDRESSES);
	assert_int_equal(out.wait, 1000 + PIN_FORGET_MS - now);
	address(1059, key, sizeof(key));
	assert_int_equal(try_pin(key, ASSISTANT, now, &out), PIN_GATE_RIGHT);
	assert_int_equal(try_pin(key, ARBITER, now, &out), PIN_GATE_WAIT);
	assert_int_equal(try_pin(key, "555555", now, &out), PIN_GATE_WAIT);
	/* Nothing counted for it: it has no place. */
	assert_int_equal(out.wrong, 0);
}

/*
 * The attack: 66 addresses that know the assistant's PIN take turns guessing the
 * arbiter's, a few PINs each, for an hour.  Each address is held to its own budget (38.6
 * an hour at best) and at most PIN_KEYS of them are counted at once.
 */
static void test_many_assistants_guessing(void **state)
{
	struct pin_gate_outcome out;
	char key[32], guess[8];
	int checked = 0;

	(void)state;
	gate_init(ARBITER, ASSISTANT);
	for (int i = 0; i < 66; i++) {
		address(i, key, sizeof(key));
		assert_int_equal(try_pin(key, ASSISTANT, 0, &out), PIN_GATE_RIGHT);
	}
	for (uint64_t now = 0; now < 3600u * 1000u; now += 50) {
		address((int)((now / 50) % 66), key, sizeof(key));
		for (int t = 0; t < 4; t++) {
			snprintf(guess, sizeof(guess), "%06d", (int)(now % 999983));
			if (try_pin(key, guess, now, &out) == PIN_GATE_WRONG)
				checked++;
		}
	}
	assert_true(checked <= PIN_KEYS * 39);
}

/* Without PINs in the configuration: one PIN at a time per address to the daemon, whose
 * wrong answers are counted per address. */
static void test_daemon_asked_one_at_a_time(void **state)
{
	struct pin_gate_outcome out;

	(void)state;
	gate_init("", "");
	assert_int_equal(try_pin("10.0.0.1", "1", 0, &out), PIN_GATE_ASK);
	assert_int_equal(try_pin("10.0.0.1", "2", 0, &out), PIN_GATE_WAIT);
	assert_int_equal(out.why, PIN_GATE_ONE_AT_ONCE);
	assert_int_equal(try_pin("10.0.0.2", "3", 0, &out), PIN_GATE_ASK);
	pin_gate_answered(&g, "10.0.0.1", true, false, PIN_GATE_ASSISTANT, 0);
	for (int i = 0; i < PIN_FREE_TRIES - 1; i++) {
		assert_int_equal(try_pin("10.0.0.1", "2", 0, &out), PIN_GATE_ASK);
		pin_gate_answered(&g, "10.0.0.1", true, false, PIN_GATE_ASSISTANT, 0);
	}
	assert_int_equal(try_pin("10.0.0.1", "2", 0, &out), PIN_GATE_WAIT);
	assert_int_equal(out.why, PIN_GATE_ADDRESS);
	/* No answer (the daemon unreachable): nothing counted. */
	pin_gate_answered(&g, "10.0.0.2", false, false, PIN_GATE_ASSISTANT, 0);
	assert_int_equal(try_pin("10.0.0.2", "3", 0, &out), PIN_GATE_ASK);
	assert_int_equal(out.wrong, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_total_never_refuses_the_arbiter),
	    cmocka_unit_test(test_assistant_not_exempt),
	    cmocka_unit_test(test_trust_per_role),
	    cmocka_unit_test(test_many_assistants_guessing),
	    cmocka_unit_test(test_daemon_asked_one_at_a_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
