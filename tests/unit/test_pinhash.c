/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PINs kept as salted hashes (base/pinhash.h): PBKDF2-HMAC-SHA256 against RFC 7914's test
 * vectors, the written form, the checks, and the daemon's digest once a PIN was right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The module itself: its file-local functions are tested here. */
#include "base/pinhash.c"

static void hex(const unsigned char *b, size_t n, char *out)
{
	sha256_hex(b, n, out);
}

/* RFC 7914, 11: PBKDF2-HMAC-SHA256, dkLen 64 (two blocks). */
static void test_pbkdf2_rfc7914(void **state)
{
	unsigned char dk[64];
	char h[129];

	(void)state;
	pbkdf2_sha256("passwd", 6, "salt", 4, 1, dk, sizeof(dk));
	hex(dk, sizeof(dk), h);
	assert_string_equal(h, "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
			       "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783");
	pbkdf2_sha256("Password", 8, "NaCl", 4, 80000, dk, sizeof(dk));
	hex(dk, sizeof(dk), h);
	assert_string_equal(h, "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
			       "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d");
}

static const unsigned char salt[PIN_HASH_SALT] = {0, 1, 2,  3,	4,  5,	6,  7,
						  8, 9, 10, 11, 12, 13, 14, 15};
/* Python's hashlib.pbkdf2_hmac("sha256", b"471108", bytes(range(16)), 10000, 32). */
static const char written[] = "pbkdf2-sha256$10000$6$000102030405060708090a0b0c0d0e0f$"
			      "5e41e9b9fdb185f60144baf44b2442186b383cdba035ca3e7cc31432dae26447";

static void test_written_form(void **state)
{
	struct pin_hash h, back;
	char text[PIN_HASH_TEXT];

	(void)state;
	pin_hash_make(&h, "471108", salt, PIN_HASH_ITERATIONS);
	pin_hash_format(&h, text, sizeof(text));
	assert_string_equal(text, written);
	assert_int_equal(pin_hash_parse(&back, text), 0);
	assert_true(back.set);
	assert_int_equal(back.iterations, PIN_HASH_ITERATIONS);
	assert_memory_equal(back.salt, h.salt, sizeof(h.salt));
	assert_memory_equal(back.hash, h.hash, sizeof(h.hash));
	assert_int_equal(pin_hash_parse(&back, "471108"), -1);
	assert_int_equal(pin_hash_parse(&back, "pbkdf2-sha256$0$00$00"), -1);
	assert_int_equal(pin_hash_parse(&back,
					"pbkdf2-sha256$10000$6$000102030405060708090a0b0c0d0e"
					"0f$5e41e9b9fdb185f60144baf44b2442186b383cdba035ca3e"
					"7cc31432dae2644"),
			 -1); /* a digit short */
	assert_int_equal(pin_hash_parse(&back,
					"pbkdf2-sha256$10000$6$000102030405060708090A0B0C0D0E"
					"0F$5e41e9b9fdb185f60144baf44b2442186b383cdba035ca3e"
					"7cc31432dae26447"),
			 -1); /* upper case: not as written */
	assert_false(back.set);
}

static void test_checks(void **state)
{
	struct pin_hash h;
	struct pin_secret s = {0};

	(void)state;
	assert_int_equal(pin_hash_parse(&h, written), 0);
	assert_true(pin_hash_check(&h, "471108"));
	assert_false(pin_hash_check(&h, "471109"));
	assert_false(pin_hash_check(&h, "4711080"));
	assert_false(pin_hash_check(&h, ""));
	assert_false(pin_hash_check(&h, NULL));
	/* None set: no PIN is right. */
	assert_false(pin_secret_check(&s, "471108"));
	assert_false(pin_secret_check(&s, ""));
	/* The daemon's: a wrong PIN learns nothing; the right one once, then its digest. */
	s.hash = h;
	assert_false(pin_secret_check(&s, "123456"));
	assert_false(s.known);
	assert_true(pin_secret_check(&s, "471108"));
	assert_true(s.known);
	assert_true(pin_secret_check(&s, "471108"));
	assert_false(pin_secret_check(&s, "471109"));
	assert_false(pin_secret_check(&s, "47110"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pbkdf2_rfc7914),
	    cmocka_unit_test(test_written_form),
	    cmocka_unit_test(test_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
