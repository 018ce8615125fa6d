/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The PIN budget (base/pinguard.h): five free, then growing waits; never more than ten
 * PINs checked in any minute whatever an attacker does; tries during a wait refused and
 * reported once per wait; keys apart; a right PIN resets nothing; a quiet quarter of an hour
 * does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/pinguard.h"

static struct pin_guard g;

static void test_five_free_then_growing_waits(void **state)
{
	uint64_t now = 1000;
	bool first;

	(void)state;
	pin_guard_init(&g);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pin_guard_ask(&g, "mallory", now, NULL), 0);
		assert_int_equal(pin_guard_wrong(&g, "mallory", now), 0);
	}
	assert_int_equal(pin_guard_ask(&g, "mallory", now, NULL), 0);
	assert_int_equal(pin_guard_wrong(&g, "mallory", now), 2000);
	/* During the wait: refused, the time left said; the first refusal marked. */
	assert_int_equal(pin_guard_ask(&g, "mallory", now + 500, &first), 1500);
	assert_true(first);
	assert_int_equal(pin_guard_ask(&g, "mallory", now + 600, &first), 1400);
	assert_false(first);
	now += 2000;
	assert_int_equal(pin_guard_ask(&g, "mallory", now, NULL), 0);
	assert_int_equal(pin_guard_wrong(&g, "mallory", now), 4000);
	now += 4000;
	assert_int_equal(pin_guard_wrong(&g, "mallory", now), 8000);
	assert_int_equal(pin_guard_count(&g, "mallory", now), 7);
	/* Another user is not slowed. */
	assert_int_equal(pin_guard_ask(&g, "arbiter", now + 1, NULL), 0);
	assert_int_equal(pin_guard_count(&g, "arbiter", now), 0);
}

/* An attacker who tries every 10 ms for an hour, and one who tries exactly when each wait
 * ends: never more than ten PINs checked in any 60 s. */
static void test_at_most_ten_a_minute(void **state)
{
	static uint64_t checked[4096];

	(void)state;
	for (int strategy = 0; strategy < 2; strategy++) {
		int n = 0;
		uint64_t now = 0;

		pin_guard_init(&g);
		while (now < 3600u * 1000u && n < 4096) {
			uint64_t wait = pin_guard_ask(&g, "mallory", now, NULL);

			if (wait) {
				now += strategy ? wait : 10;
				continue;
			}
			checked[n++] = now;
			pin_guard_wrong(&g, "mallory", now);
			now += 10;
		}
		for (int i = 0; i < n; i++) {
			int in_minute = 0;

			for (int k = i; k < n && checked[k] < checked[i] + 60000; k++)
				in_minute++;
			assert_true(in_minute <= 10);
		}
		/* The waits grow to ten minutes: a handful an hour after the first minute. */
		assert_true(n < 20);
	}
}

/* Waits with refused tries are reported once each, with the count, when they end. */
static void test_refusals_reported_once_per_wait(void **state)
{
	struct pin_wait w;
	uint64_t now = 0, end;

	(void)state;
	pin_guard_init(&g);
	for (int i = 0; i < 5; i++)
		pin_guard_wrong(&g, "mallory", now);
	assert_int_equal(pin_guard_deadline(&g), UINT64_MAX); /* nothing refused yet */
	for (int i = 0; i < 37; i++)
		pin_guard_ask(&g, "mallory", now + 10 * (uint64_t)i, NULL);
	end = pin_guard_deadline(&g);
	assert_int_equal(end, 2000);
	assert_false(pin_guard_ended(&g, end - 1, false, &w));
	assert_true(pin_guard_ended(&g, end, false, &w));
	assert_string_equal(w.key, "mallory");
	assert_int_equal(w.refused, 37);
	assert_int_equal(w.wrong, 5);
	assert_int_equal(w.length, 2000);
	assert_false(pin_guard_ended(&g, end, false, &w));
	assert_int_equal(pin_guard_deadline(&g), UINT64_MAX);
	/* At a stop, the wait that still runs is reported too. */
	pin_guard_wrong(&g, "mallory", end);
	pin_guard_ask(&g, "mallory", end + 1, NULL);
	assert_false(pin_guard_ended(&g, end + 2, false, &w));
	assert_true(pin_guard_ended(&g, end + 2, true, &w));
	assert_int_equal(w.refused, 1);
}

/* A right PIN in between resets nothing; a quiet quarter of an hour does. */
static void test_forgotten_after_a_quiet_quarter_hour(void **state)
{
	uint64_t now = 0;

	(void)state;
	pin_guard_init(&g);
	for (int i = 0; i < 4; i++)
		pin_guard_wrong(&g, "assistant", now);
	/* (a right PIN: the caller counts nothing) */
	assert_int_equal(pin_guard_ask(&g, "assistant", now + 1000, NULL), 0);
	assert_int_equal(pin_guard_wrong(&g, "assistant", now + 1000), 2000);
	now += 1000 + PIN_FORGET_MS - 1;
	assert_int_equal(pin_guard_count(&g, "assistant", now), 5);
	now += 1;
	assert_int_equal(pin_guard_count(&g, "assistant", now), 0);
	assert_int_equal(pin_guard_ask(&g, "assistant", now, NULL), 0);
	assert_int_equal(pin_guard_wrong(&g, "assistant", now), 0);
}

/* More keys than slots (the web page's addresses): a key in a wait keeps it. */
static void test_many_keys_keep_the_waiting_one(void **state)
{
	char key[32];

	(void)state;
	pin_guard_init(&g);
	for (int i = 0; i < 5; i++)
		pin_guard_wrong(&g, "10.0.0.66", 0);
	for (int i = 0; i < 3 * PIN_KEYS; i++) {
		snprintf(key, sizeof(key), "10.0.1.%d", i);
		pin_guard_wrong(&g, key, 100 + (uint64_t)i);
	}
	assert_true(pin_guard_ask(&g, "10.0.0.66", 1000, NULL) > 0);
	assert_int_equal(pin_guard_count(&g, "10.0.0.66", 1000), 5);
}

/* The table full of keys with wrong PINs counted (the web page's addresses): none of them is
 * pushed out; a new key waits until the first of them is forgotten, and is then checked. */
static void test_full_table_keeps_every_count(void **state)
{
	char key[32];
	uint64_t wait;

	(void)state;
	pin_guard_init(&g);
	for (int i = 0; i < PIN_KEYS; i++) {
		snprintf(key, sizeof(key), "10.0.1.%d", i);
		assert_int_equal(pin_guard_ask(&g, key, 1000 + (uint64_t)i, NULL), 0);
		pin_guard_wrong(&g, key, 1000 + (uint64_t)i);
	}
	/* A new key: no slot is free and none may be taken. */
	wait = pin_guard_ask(&g, "10.0.2.1", 5000, NULL);
	assert_int_equal(wait, 1000 + PIN_FORGET_MS - 5000);
	assert_int_equal(pin_guard_room(&g, "10.0.2.1", 5000), wait);
	/* Its wrong PIN (a caller that did not ask) takes nobody's slot. */
	assert_int_equal(pin_guard_wrong(&g, "10.0.2.1", 5000), 0);
	for (int i = 0; i < PIN_KEYS; i++) {
		snprintf(key, sizeof(key), "10.0.1.%d", i);
		assert_int_equal(pin_guard_count(&g, key, 5000), 1);
	}
	assert_int_equal(pin_guard_count(&g, "10.0.2.1", 5000), 0);
	/* The first key forgotten: the new one gets its slot, the others keep theirs. */
	assert_int_equal(pin_guard_ask(&g, "10.0.2.1", 1000 + PIN_FORGET_MS, NULL), 0);
	pin_guard_wrong(&g, "10.0.2.1", 1000 + PIN_FORGET_MS);
	assert_int_equal(pin_guard_count(&g, "10.0.2.1", 1000 + PIN_FORGET_MS), 1);
	assert_int_equal(pin_guard_count(&g, "10.0.1.1", 1000 + PIN_FORGET_MS), 1);
	assert_true(pin_guard_ask(&g, "10.0.2.2", 1000 + PIN_FORGET_MS, NULL) > 0);
}

/* Of the keys that may go, the one quiet the longest goes (not the first in the table). */
static void test_least_recently_used_goes(void **state)
{
	char key[32];
	uint64_t now = 0;

	(void)state;
	pin_guard_init(&g);
	for (int i = 0; i < PIN_KEYS; i++) {
		snprintf(key, sizeof(key), "10.0.1.%d", i);
		pin_guard_wrong(&g, key, now);
	}
	/* All forgotten; every key but 10.0.1.40 seen again since. */
	now += PIN_FORGET_MS;
	for (int i = 0; i < PIN_KEYS; i++) {
		snprintf(key, sizeof(key), "10.0.1.%d", i);
		if (i != 40)
			assert_int_equal(pin_guard_ask(&g, key, now + 1 + (uint64_t)i, NULL), 0);
	}
	now += 1000;
	pin_guard_wrong(&g, "10.0.2.1", now);
	assert_int_equal(pin_guard_count(&g, "10.0.2.1", now), 1);
	/* 10.0.1.40 went; 10.0.1.0, first in the table, is still there when it errs again. */
	pin_guard_wrong(&g, "10.0.1.0", now);
	pin_guard_wrong(&g, "10.0.1.0", now);
	assert_int_equal(pin_guard_count(&g, "10.0.1.0", now), 2);
	for (int i = 1; i < PIN_KEYS; i++) {
		snprintf(key, sizeof(key), "10.0.1.%d", i);
		if (i != 40)
			assert_int_equal(pin_guard_wrong(&g, key, now), 0);
	}
	assert_true(pin_guard_ask(&g, "10.0.1.40", now, NULL) > 0);
}

/*
 * The churn of the table (issue: two addresses alternating evicted each other's counts): 66
 * keys, each taking its turn to try four PINs (never reaching a wait), for an hour.  Every
 * count is kept, so at most PIN_KEYS keys are checked at all and each of them at most at the
 * patient rate.
 */
static void test_churn_gains_nothing(void **state)
{
	char key[32];
	int checked = 0, refused_keys = 0;
	bool checked_key[66] = {false};

	(void)state;
	pin_guard_init(&g);
	for (uint64_t now = 0; now < 3600u * 1000u; now += 100) {
		int k = (int)((now / 100) % 66);

		snprintf(key, sizeof(key), "10.0.3.%d", k);
		for (int t = 0; t < 4; t++)
			if (!pin_guard_ask(&g, key, now, NULL)) {
				pin_guard_wrong(&g, key, now);
				checked++;
				checked_key[k] = true;
			}
	}
	for (int k = 0; k < 66; k++)
		refused_keys += !checked_key[k];
	assert_int_equal(refused_keys, 66 - PIN_KEYS);
	assert_true(checked <= PIN_KEYS * 40);
}

/* The best an attacker's schedule gets per key: n PINs as early as the waits allow, then a
 * quiet quarter of an hour for the count to be forgotten, again and again for a day.  The
 * best n is 11 (5 free, 6 after waits of 2 ... 64 s), 38.6 PINs an hour (README "Security
 * model"); no schedule gets 40. */
static double patient_rate(int n)
{
	uint64_t now = 0, day = 24u * 3600u * 1000u;
	int checked = 0;

	pin_guard_init(&g);
	while (now < day) {
		/* Each reply says the wait before the next PIN is checked: never a refused try. */
		for (int i = 0; i < n && now < day; i++) {
			assert_int_equal(pin_guard_ask(&g, "patient", now, NULL), 0);
			checked++;
			now += pin_guard_wrong(&g, "patient", now);
		}
		/* The count forgotten: a quarter of an hour after the last, and no wait running. */
		while (pin_guard_count(&g, "patient", now))
			now += 1000;
	}
	return checked / 24.0;
}

static void test_patient_schedule(void **state)
{
	double best = 0;
	int best_n = 0;

	(void)state;
	for (int n = 1; n <= 20; n++) {
		double rate = patient_rate(n);

		if (rate > best) {
			best = rate;
			best_n = n;
		}
	}
	assert_int_equal(best_n, 11);
	assert_true(best >= 38 && best < 40);
}

static void test_address_keys(void **state)
{
	char key[64];

	(void)state;
	pin_guard_address_key("192.0.2.7", key, sizeof(key));
	assert_string_equal(key, "192.0.2.7");
	/* Every address of one /64 is one key; another /64 another. */
	pin_guard_address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd", key, sizeof(key));
	assert_string_equal(key, "2001:db8:1:2::/64");
	pin_guard_address_key("2001:db8:1:2::1", key, sizeof(key));
	assert_string_equal(key, "2001:db8:1:2::/64");
	pin_guard_address_key("2001:db8:1:3::1", key, sizeof(key));
	assert_string_equal(key, "2001:db8:1:3::/64");
	pin_guard_address_key("::ffff:192.0.2.7", key, sizeof(key));
	assert_string_equal(key, "192.0.2.7");
	pin_guard_address_key("?", key, sizeof(key));
	assert_string_equal(key, "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_five_free_then_growing_waits),
	    cmocka_unit_test(test_at_most_ten_a_minute),
	    cmocka_unit_test(test_refusals_reported_once_per_wait),
	    cmocka_unit_test(test_forgotten_after_a_quiet_quarter_hour),
	    cmocka_unit_test(test_many_keys_keep_the_waiting_one),
	    cmocka_unit_test(test_full_table_keeps_every_count),
	    cmocka_unit_test(test_least_recently_used_goes),
	    cmocka_unit_test(test_churn_gains_nothing),
	    cmocka_unit_test(test_patient_schedule),
	    cmocka_unit_test(test_address_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
