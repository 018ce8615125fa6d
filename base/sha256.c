/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/sha256.h"

#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void compress(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0];
	b = s->h[1];
	c = s->h[2];
	d = s->h[3];
	e = s->h[4];
	f = s->h[5];
	g = s->h[6];
	h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
			      k[i] + w[i];
		uint32_t t2 =
		    (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
	s->h[5] += f;
	s->h[6] += g;
	s->h[7] += h;
}

void sha256_init(struct sha256 *s)
{
	/* The first 32 bits of the fractional parts of the square roots of the first 8
	 * primes. */
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

	memcpy(s->h, h0, sizeof(h0));
	s->length = 0;
	s->used = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->length += len;
	if (s->used) {
		size_t take = 64 - s->used < len ? 64 - s->used : len;

		memcpy(s->block + s->used, p, take);
		s->used += take;
		p += take;
		len -= take;
		if (s->used < 64)
			return;
		compress(s, s->block);
		s->used = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		compress(s, p);
	memcpy(s->block, p, len);
	s->used = len;
}

void sha256_final(struct sha256 *s, unsigned char digest[SHA256_SIZE])
{
	uint64_t bits = s->length * 8;

	s->block[s->used++] = 0x80;
	if (s->used > 56) {
		memset(s->block + s->used, 0, 64 - s->used);
		compress(s, s->block);
		s->used = 0;
	}
	memset(s->block + s->used, 0, 56 - s->used);
	for (int i = 0; i < 8; i++)
		s->block[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
	compress(s, s->block);
	for (int i = 0; i < 8; i++) {
		digest[4 * i] = (unsigned char)(s->h[i] >> 24);
		digest[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		digest[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		digest[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void sha256(const void *data, size_t len, unsigned char digest[SHA256_SIZE])
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final(&s, digest);
}

void sha256_hex(const unsigned char *bytes, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * len] = '\0';
}

bool sha256_unhex(const char *hex, unsigned char *out, size_t len)
{
	for (size_t i = 0; i < 2 * len; i++) {
		char c = hex[i];
		int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (v < 0)
			return false;
		out[i / 2] = (unsigned char)(i % 2 ? out[i / 2] << 4 | v : v);
	}
	return true;
}

void hmac_sha256_init(struct hmac_sha256 *h, const void *key, size_t key_len)
{
	unsigned char block[64] = {0}, pad[64];

	/* A key longer than a block is its digest (RFC 2104, 2). */
	if (key_len > sizeof(block))
		sha256(key, key_len, block);
	else
		memcpy(block, key, key_len);
	for (int i = 0; i < 64; i++)
		pad[i] = block[i] ^ 0x36;
	sha256_init(&h->inner);
	sha256_update(&h->inner, pad, sizeof(pad));
	for (int i = 0; i < 64; i++)
		pad[i] = block[i] ^ 0x5c;
	sha256_init(&h->outer);
	sha256_update(&h->outer, pad, sizeof(pad));
	explicit_bzero(block, sizeof(block));
	explicit_bzero(pad, sizeof(pad));
}

void hmac_sha256_update(struct hmac_sha256 *h, const void *data, size_t len)
{
	sha256_update(&h->inner, data, len);
}

void hmac_sha256_final(struct hmac_sha256 *h, unsigned char mac[SHA256_SIZE])
{
	unsigned char inner[SHA256_SIZE];

	sha256_final(&h->inner, inner);
	sha256_update(&h->outer, inner, sizeof(inner));
	sha256_final(&h->outer, mac);
}

void hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
		 unsigned char mac[SHA256_SIZE])
{
	struct hmac_sha256 h;

	hmac_sha256_init(&h, key, key_len);
	hmac_sha256_update(&h, data, len);
	hmac_sha256_final(&h, mac);
}
