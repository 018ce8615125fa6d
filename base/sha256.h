/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SHA-256 (FIPS 180-4), for the journal's chain and the audit's anchors: a digest nobody
 * can steer, unlike the CRC-32 that checks each journal line against damage.  Streaming:
 * init, update as often as needed, final.  HMAC-SHA256 (RFC 2104) on it, for what only
 * the holder of a key can make: the journal's keyed chain, the device's application-specific
 * id (machine-id(5)).
 */
#ifndef ANNABELLA_SHA256_H
#define ANNABELLA_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHA256_SIZE 32

struct sha256 {
	uint32_t h[8];
	uint64_t length; /* bytes hashed so far */
	unsigned char block[64];
	size_t used; /* bytes waiting in block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest; s must be initialised again before it is used once more. */
void sha256_final(struct sha256 *s, unsigned char digest[SHA256_SIZE]);
/* The digest of one buffer. */
void sha256(const void *data, size_t len, unsigned char digest[SHA256_SIZE]);
/* Bytes as lower-case hex into out (2 * len + 1 bytes). */
void sha256_hex(const unsigned char *bytes, size_t len, char *out);
/* The other way: len bytes from the 2 * len lower-case hex digits at hex (what follows them
 * is not looked at); false when they are no such digits (out partly written). */
bool sha256_unhex(const char *hex, unsigned char *out, size_t len);

/* HMAC-SHA256: a key's two hash states, made once; a copy of them for each message. */
struct hmac_sha256 {
	struct sha256 inner, outer;
};
void hmac_sha256_init(struct hmac_sha256 *h, const void *key, size_t key_len);
void hmac_sha256_update(struct hmac_sha256 *h, const void *data, size_t len);
/* The MAC; h must be made (or copied) again before it is used once more. */
void hmac_sha256_final(struct hmac_sha256 *h, unsigned char mac[SHA256_SIZE]);
void hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
		 unsigned char mac[SHA256_SIZE]);

#endif
