/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The web page's certificate (docs/web.md "The web page for the assistant and the arbiter"): a
 * self-signed one made on the device (at install, `annabella web certificate DIR`), its key
 * readable by root alone (the unit hands it to the page as a credential).  Nobody vouches
 * for it: the arbiter compares its SHA-256 fingerprint, which the page's first use in a
 * browser shows, once with the one `annabella status` prints on the device.
 */
#ifndef ANNABELLA_TLSCERT_H
#define ANNABELLA_TLSCERT_H

#include <stddef.h>

#define TLS_CERT_DIR	    "/etc/annabella"
#define TLS_CERT_FILE	    "web.crt"
#define TLS_KEY_FILE	    "web.key"
#define TLS_FINGERPRINT_MAX 100 /* "AB:CD:...", 32 bytes */

struct tls_files {
	char *cert, *key; /* PEM, NUL-terminated (malloc'd) */
	char fingerprint[TLS_FINGERPRINT_MAX];
};

/* The certificate and its key read (and checked to belong together): 0, or -1 with the
 * reason in err. */
int tls_files_read(struct tls_files *t, const char *cert_path, const char *key_path, char *err,
		   size_t errsize);
void tls_files_free(struct tls_files *t);
/* The SHA-256 fingerprint of the certificate in the file: 0, or -1 with the reason. */
int tls_cert_fingerprint(const char *cert_path, char *out, size_t size, char *err, size_t errsize);
/* DIR/web.crt (0644) and DIR/web.key (0600) made when either is missing (a new key, ECDSA
 * P-256, and a certificate for this host's names for ten years): 0, or -1 with the reason. */
int tls_cert_make(const char *dir, char *err, size_t errsize);
/* `annabella web certificate DIR`: made when missing, its fingerprint printed; an exit
 * status. */
int tls_cert_make_cli(const char *dir);

#endif
