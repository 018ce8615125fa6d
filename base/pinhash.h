/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * PINs kept as salted hashes (README "Security model"): PBKDF2-HMAC-SHA256 (RFC 8018) of the
 * PIN with a random salt of 16 bytes, PIN_HASH_ITERATIONS rounds, written
 *
 *	pbkdf2-sha256$ITERATIONS$DIGITS$SALT$HASH   (SALT and HASH in lower-case hex)
 *
 * so a file of PINs shows none of them.  DIGITS, the PIN's length, lets the board's PIN
 * prompt check only a whole PIN (a stray button press is no wrong PIN).  It keeps a PIN out
 * of sight, not out of reach: six digits are a million tries, which a PC makes against one
 * hash within hours; the file stays readable by the daemon and the page alone.  The web
 * page checks a PIN against the hash each time; the daemon (pin_secret) keeps, once a PIN
 * was right, a digest of it with the salt, so its later checks take microseconds and never
 * hold up the game.  Pure.
 */
#ifndef ANNABELLA_PINHASH_H
#define ANNABELLA_PINHASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/sha256.h"

#define PIN_HASH_SALT	    16
#define PIN_HASH_ITERATIONS 10000u
#define PIN_HASH_PREFIX	    "pbkdf2-sha256$"
/* The longest text of one: prefix, ten and two digits, three '$', the hex. */
#define PIN_HASH_TEXT (14 + 10 + 2 + 3 + 2 * PIN_HASH_SALT + 2 * SHA256_SIZE + 1)
/* A PIN's digits: 4 to 31. */
#define PIN_DIGITS_MIN 4
#define PIN_DIGITS_MAX 31

struct pin_hash {
	bool set; /* a PIN gives the role */
	int digits;
	uint32_t iterations;
	unsigned char salt[PIN_HASH_SALT];
	unsigned char hash[SHA256_SIZE];
};

/* The hash of pin (PIN_DIGITS_MIN to PIN_DIGITS_MAX digits) with salt. */
void pin_hash_make(struct pin_hash *h, const char *pin, const unsigned char salt[PIN_HASH_SALT],
		   uint32_t iterations);
/* A hash as written above into h: 0, or -1 when text is none (1 to 10,000,000 rounds). */
int pin_hash_parse(struct pin_hash *h, const char *text);
/* h as written above (at least PIN_HASH_TEXT bytes). */
void pin_hash_format(const struct pin_hash *h, char *out, size_t size);
/* Whether given is the PIN (h set), its hash compared in a time that does not depend on
 * where they differ. */
bool pin_hash_check(const struct pin_hash *h, const char *given);

/* The daemon's: a hash, and once a PIN was right, SHA-256 of the salt and it. */
struct pin_secret {
	struct pin_hash hash;
	bool known;
	unsigned char seen[SHA256_SIZE];
};
bool pin_secret_check(struct pin_secret *s, const char *given);

#endif
