/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SHA-256 against the examples of FIPS 180-4 (NIST's "SHA256.pdf", "SHA2_Additional.pdf"),
 * HMAC-SHA256 against the test cases of RFC 4231. */
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

static void hmac_hex(const void *key, size_t key_len, const char *data, size_t len,
		     char out[2 * SHA256_SIZE + 1])
{
	unsigned char mac[SHA256_SIZE];

	hmac_sha256(key, key_len, data, len, mac);
	sha256_hex(mac, sizeof(mac), out);
}

/* RFC 4231, 4.2 to 4.8 (test case 5 truncates, not a case of ours): keys shorter than a
 * block, of a block's size and longer (hashed first), data across block edges. */
static void test_hmac_rfc4231(void **state)
{
	static const char long_data[] =
	    "This is a test using a larger than block-size key and a larger than block-size "
	    "data. The key needs to be hashed before being used by the HMAC algorithm.";
	unsigned char k0b[20], kaa[131], ddd[50];
	char hex[2 * SHA256_SIZE + 1];
	struct hmac_sha256 base, h;
	unsigned char mac[SHA256_SIZE];

	(void)state;
	memset(k0b, 0x0b, sizeof(k0b));
	memset(kaa, 0xaa, sizeof(kaa));
	memset(ddd, 0xdd, sizeof(ddd));
	hmac_hex(k0b, 20, "Hi There", 8, hex);
	assert_string_equal(hex,
			    "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	hmac_hex("Jefe", 4, "what do ya want for nothing?", 28, hex);
	assert_string_equal(hex,
			    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	hmac_hex(kaa, 20, (const char *)ddd, sizeof(ddd), hex);
	assert_string_equal(hex,
			    "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
	hmac_hex(kaa, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54, hex);
	assert_string_equal(hex,
			    "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	hmac_hex(kaa, 131, long_data, strlen(long_data), hex);
	assert_string_equal(hex,
			    "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
	/* The key's states made once and copied for each message, fed in pieces. */
	hmac_sha256_init(&base, "Jefe", 4);
	for (int i = 0; i < 2; i++) {
		h = base;
		hmac_sha256_update(&h, "what do ya ", 11);
		hmac_sha256_update(&h, "want for nothing?", 17);
		hmac_sha256_final(&h, mac);
		sha256_hex(mac, sizeof(mac), hex);
		assert_string_equal(
		    hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	}
}

/* Hex both ways: lower case only, exactly as many digits as bytes asked for. */
static void test_hex_both_ways(void **state)
{
	unsigned char bytes[4] = {0x00, 0x9f, 0xa0, 0xff}, back[4];
	char hex[9];

	(void)state;
	sha256_hex(bytes, sizeof(bytes), hex);
	assert_string_equal(hex, "009fa0ff");
	assert_true(sha256_unhex(hex, back, sizeof(back)));
	assert_memory_equal(back, bytes, sizeof(bytes));
	assert_true(sha256_unhex("009fa0ffzz", back, sizeof(back))); /* what follows: not read */
	assert_false(sha256_unhex("009FA0FF", back, sizeof(back)));
	assert_false(sha256_unhex("009fa0f", back, sizeof(back)));
	assert_false(sha256_unhex("0x9fa0ff", back, sizeof(back)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nist_examples), cmocka_unit_test(test_million_a_in_pieces),
	    cmocka_unit_test(test_padding_edges), cmocka_unit_test(test_hmac_rfc4231),
	    cmocka_unit_test(test_hex_both_ways),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
