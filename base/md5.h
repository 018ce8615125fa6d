/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * MD5 (RFC 1321), for one purpose only: a Debian package's own checksums of its files
 * (its md5sums, as dpkg-query --control-show gives them), which the fair-play check compares the
 * installed files against.  Not a security measure of its own: the package's checksums are MD5.
 */
#ifndef ANNABELLA_MD5_H
#define ANNABELLA_MD5_H

#include <stddef.h>
#include <stdint.h>

#define MD5_SIZE 16

struct md5 {
	uint32_t h[4];
	uint64_t length;
	unsigned char block[64];
	size_t used;
};

void md5_init(struct md5 *m);
void md5_update(struct md5 *m, const void *data, size_t len);
void md5_final(struct md5 *m, unsigned char digest[MD5_SIZE]);

#endif
