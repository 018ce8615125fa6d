/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/pinhash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PBKDF2-HMAC-SHA256 of password and salt, `iterations` rounds, len bytes into out. */
static void pbkdf2_sha256(const void *password, size_t password_len, const void *salt,
			  size_t salt_len, uint32_t iterations, unsigned char *out, size_t len)
{
	struct hmac_sha256 key, h;
	unsigned char u[SHA256_SIZE], t[SHA256_SIZE];

	hmac_sha256_init(&key, password, password_len);
	for (uint32_t block = 1; len > 0; block++) {
		unsigned char be[4] = {(unsigned char)(block >> 24), (unsigned char)(block >> 16),
				       (unsigned char)(block >> 8), (unsigned char)block};
		size_t n = len < sizeof(t) ? len : sizeof(t);

		h = key;
		hmac_sha256_update(&h, salt, salt_len);
		hmac_sha256_update(&h, be, sizeof(be));
		hmac_sha256_final(&h, u);
		memcpy(t, u, sizeof(t));
		for (uint32_t i = 1; i < iterations; i++) {
			h = key;
			hmac_sha256_update(&h, u, sizeof(u));
			hmac_sha256_final(&h, u);
			for (size_t k = 0; k < sizeof(t); k++)
				t[k] ^= u[k];
		}
		memcpy(out, t, n);
		out += n;
		len -= n;
	}
	explicit_bzero(&key, sizeof(key));
	explicit_bzero(&h, sizeof(h));
	explicit_bzero(u, sizeof(u));
	explicit_bzero(t, sizeof(t));
}

void pin_hash_make(struct pin_hash *h, const char *pin, const unsigned char salt[PIN_HASH_SALT],
		   uint32_t iterations)
{
	h->set = true;
	h->digits = (int)strlen(pin);
	h->iterations = iterations;
	memcpy(h->salt, salt, PIN_HASH_SALT);
	pbkdf2_sha256(pin, strlen(pin), h->salt, sizeof(h->salt), iterations, h->hash,
		      sizeof(h->hash));
}

int pin_hash_parse(struct pin_hash *h, const char *text)
{
	const char *p = text;
	char *end;
	unsigned long rounds, digits;

	memset(h, 0, sizeof(*h));
	if (strncmp(p, PIN_HASH_PREFIX, strlen(PIN_HASH_PREFIX)))
		return -1;
	p += strlen(PIN_HASH_PREFIX);
	if (*p < '1' || *p > '9')
		return -1;
	rounds = strtoul(p, &end, 10);
	if (*end != '$' || rounds > 10000000 || end[1] < '1' || end[1] > '9')
		return -1;
	digits = strtoul(end + 1, &end, 10);
	if (*end != '$' || digits < PIN_DIGITS_MIN || digits > PIN_DIGITS_MAX)
		return -1;
	p = end + 1;
	if (!sha256_unhex(p, h->salt, sizeof(h->salt)) || p[2 * sizeof(h->salt)] != '$')
		return -1;
	p += 2 * sizeof(h->salt) + 1;
	if (!sha256_unhex(p, h->hash, sizeof(h->hash)) || p[2 * sizeof(h->hash)])
		return -1;
	h->iterations = (uint32_t)rounds;
	h->digits = (int)digits;
	h->set = true;
	return 0;
}

void pin_hash_format(const struct pin_hash *h, char *out, size_t size)
{
	char salt[2 * PIN_HASH_SALT + 1], hash[2 * SHA256_SIZE + 1];

	sha256_hex(h->salt, sizeof(h->salt), salt);
	sha256_hex(h->hash, sizeof(h->hash), hash);
	snprintf(out, size, PIN_HASH_PREFIX "%u$%d$%s$%s", (unsigned)h->iterations, h->digits, salt,
		 hash);
}

/* Whether a and b (n bytes) are equal, in a time that does not depend on where they differ. */
static bool same(const unsigned char *a, const unsigned char *b, size_t n)
{
	unsigned char d = 0;

	for (size_t i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

bool pin_hash_check(const struct pin_hash *h, const char *given)
{
	unsigned char d[SHA256_SIZE];
	bool right;

	if (!h->set || !given || !given[0])
		return false;
	pbkdf2_sha256(given, strlen(given), h->salt, sizeof(h->salt), h->iterations, d, sizeof(d));
	right = same(d, h->hash, sizeof(d));
	explicit_bzero(d, sizeof(d));
	return right;
}

/* SHA-256 of the salt and the PIN. */
static void seen_digest(const struct pin_hash *h, const char *pin, unsigned char out[SHA256_SIZE])
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, h->salt, sizeof(h->salt));
	sha256_update(&s, pin, strlen(pin));
	sha256_final(&s, out);
}

bool pin_secret_check(struct pin_secret *s, const char *given)
{
	unsigned char d[SHA256_SIZE];
	bool right;

	if (!s->hash.set || !given || !given[0])
		return false;
	if (s->known) {
		seen_digest(&s->hash, given, d);
		right = same(d, s->seen, sizeof(d));
		explicit_bzero(d, sizeof(d));
		if (right)
			return true;
	}
	right = pin_hash_check(&s->hash, given);
	if (right && !s->known) {
		seen_digest(&s->hash, given, s->seen);
		s->known = true;
	}
	return right;
}
