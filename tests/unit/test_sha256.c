/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SHA-256 against the examples of FIPS 180-4 (NIST's "SHA256.pdf", "SHA2_Additional.pdf"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/sha256.h"

static void hex_of(const void *data, size_t len, char out[2 * SHA256_SIZE + 1])
{
	unsigned char d[SHA256_SIZE];

	sha256(data, len, d);
	sha256_hex(d, sizeof(d), out);
}

static void test_nist_examples(void **state)
{
	char hex[2 * SHA256_SIZE + 1];

	(void)state;
	hex_of("", 0, hex);
	assert_string_equal(hex,
			    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, hex);
	assert_string_equal(hex,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	assert_string_equal(hex,
			    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* One million 'a' (FIPS 180-4's long example), fed in uneven pieces across block edges. */
static void test_million_a_in_pieces(void **state)
{
	static char buf[1000];
	unsigned char d[SHA256_SIZE];
	char hex[2 * SHA256_SIZE + 1];
	struct sha256 s;
	size_t fed = 0, piece = 1;

	(void)state;
	memset(buf, 'a', sizeof(buf));
	sha256_init(&s);
	while (fed < 1000000) {
		size_t n = piece < 1000000 - fed ? piece : 1000000 - fed;

		sha256_update(&s, buf, n);
		fed += n;
		piece = piece % 931 + 63; /* 63 .. 993 bytes */
	}
	sha256_final(&s, d);
	sha256_hex(d, sizeof(d), hex);
	assert_string_equal(hex,
			    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Lengths around the padding's edge (55, 56, 63, 64 bytes) give the same digest whole or
 * byte by byte. */
static void test_padding_edges(void **state)
{
	unsigned char whole[SHA256_SIZE], bytewise[SHA256_SIZE];
	char data[130];

	(void)state;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)('A' + i % 26);
	for (size_t len = 50; len <= sizeof(data); len++) {
		struct sha256 s;

		sha256(data, len, whole);
		sha256_init(&s);
		for (size_t i = 0; i < len; i++)
			sha256_update(&s, data + i, 1);
		sha256_final(&s, bytewise);
		assert_memory_equal(whole, bytewise, SHA256_SIZE);
	}
	/* The 896-bit message of FIPS 180-4's SHA-512 examples (digest as coreutils' sha256sum). */
	{
		char hex[2 * SHA256_SIZE + 1];

		hex_of("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjkl"
		       "mnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		       112, hex);
		assert_string_equal(
		    hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nist_examples),
	    cmocka_unit_test(test_million_a_in_pieces),
	    cmocka_unit_test(test_padding_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
