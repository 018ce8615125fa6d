/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/tlscert.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

#include "base/log.h"

#define PEM_MAX (64 * 1024)

/* A PEM file read whole (NUL-terminated, malloc'd): 0, or -1 with the reason in err. */
static int read_pem(const char *path, char **text, char *err, size_t errsize)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	*text = NULL;
	if (!f) {
		snprintf(err, errsize, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	*text = malloc(PEM_MAX + 1);
	n = *text ? fread(*text, 1, PEM_MAX + 1, f) : 0;
	fclose(f);
	if (!*text || n == 0 || n > PEM_MAX) {
		snprintf(err, errsize, "%s: not a PEM file of at most %d bytes", path, PEM_MAX);
		free(*text);
		*text = NULL;
		return -1;
	}
	(*text)[n] = '\0';
	return 0;
}

static void hex_colons(const unsigned char *d, size_t n, char *out, size_t size)
{
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && at + 4 <= size; i++)
		at += (size_t)snprintf(out + at, size - at, i ? ":%02X" : "%02X", d[i]);
}

/* The certificate in pem imported and fingerprinted: 0, or -1 with the reason. */
static int import_cert(const char *path, const char *pem, gnutls_x509_crt_t *crt, char *fp,
		       size_t fpsize, char *err, size_t errsize)
{
	gnutls_datum_t d = {(unsigned char *)(uintptr_t)pem, (unsigned)strlen(pem)};
	unsigned char digest[32];
	size_t dn = sizeof(digest);
	int rc;

	if ((rc = gnutls_x509_crt_init(crt)) < 0 ||
	    (rc = gnutls_x509_crt_import(*crt, &d, GNUTLS_X509_FMT_PEM)) < 0 ||
	    (rc = gnutls_x509_crt_get_fingerprint(*crt, GNUTLS_DIG_SHA256, digest, &dn)) < 0) {
		snprintf(err, errsize, "%s: not a certificate: %s", path, gnutls_strerror(rc));
		gnutls_x509_crt_deinit(*crt);
		return -1;
	}
	hex_colons(digest, dn, fp, fpsize);
	return 0;
}

int tls_cert_fingerprint(const char *cert_path, char *out, size_t size, char *err, size_t errsize)
{
	gnutls_x509_crt_t crt;
	char *pem;

	if (read_pem(cert_path, &pem, err, errsize))
		return -1;
	if (import_cert(cert_path, pem, &crt, out, size, err, errsize)) {
		free(pem);
		return -1;
	}
	gnutls_x509_crt_deinit(crt);
	free(pem);
	return 0;
}

int tls_files_read(struct tls_files *t, const char *cert_path, const char *key_path, char *err,
		   size_t errsize)
{
	gnutls_x509_crt_t crt;
	gnutls_x509_privkey_t key;
	gnutls_datum_t kd;
	unsigned char cid[64], kid[64];
	size_t cn = sizeof(cid), kn = sizeof(kid);
	int rc;

	memset(t, 0, sizeof(*t));
	if (read_pem(cert_path, &t->cert, err, errsize) ||
	    read_pem(key_path, &t->key, err, errsize))
		goto fail;
	if (import_cert(cert_path, t->cert, &crt, t->fingerprint, sizeof(t->fingerprint), err,
			errsize))
		goto fail;
	kd.data = (unsigned char *)t->key;
	kd.size = (unsigned)strlen(t->key);
	if ((rc = gnutls_x509_privkey_init(&key)) < 0 ||
	    (rc = gnutls_x509_privkey_import(key, &kd, GNUTLS_X509_FMT_PEM)) < 0) {
		snprintf(err, errsize, "%s: not a private key: %s", key_path, gnutls_strerror(rc));
		gnutls_x509_crt_deinit(crt);
		goto fail;
	}
	rc = gnutls_x509_crt_get_key_id(crt, 0, cid, &cn) < 0 ||
	     gnutls_x509_privkey_get_key_id(key, 0, kid, &kn) < 0 || cn != kn ||
	     memcmp(cid, kid, cn);
	gnutls_x509_privkey_deinit(key);
	gnutls_x509_crt_deinit(crt);
	if (rc) {
		snprintf(err, errsize, "%s is not the key of %s", key_path, cert_path);
		goto fail;
	}
	return 0;
fail:
	tls_files_free(t);
	return -1;
}

void tls_files_free(struct tls_files *t)
{
	if (t->key)
		explicit_bzero(t->key, strlen(t->key));
	free(t->key);
	free(t->cert);
	t->key = t->cert = NULL;
}

/* data written to path.new with mode, synced, and renamed to path: 0, or -1. */
static int write_file(const char *path, const gnutls_datum_t *data, mode_t mode, char *err,
		      size_t errsize)
{
	char tmp[4096];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0 || fchmod(fd, mode) ||
	    write(fd, data->data, data->size) != (ssize_t)data->size || fsync(fd) || close(fd) ||
	    rename(tmp, path)) {
		snprintf(err, errsize, "%s: cannot write: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The certificate's names: this host's, NAME.local (mDNS) and localhost. */
static int set_names(gnutls_x509_crt_t crt)
{
	char host[256], local[272];
	int rc;

	if (gethostname(host, sizeof(host)) || !host[0])
		snprintf(host, sizeof(host), "annabella");
	host[sizeof(host) - 1] = '\0';
	snprintf(local, sizeof(local), "%s.local", host);
	if ((rc = gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, host,
						(unsigned)strlen(host))) < 0 ||
	    (rc = gnutls_x509_crt_set_subject_alt_name(
		 crt, GNUTLS_SAN_DNSNAME, host, (unsigned)strlen(host), GNUTLS_FSAN_SET)) < 0 ||
	    (rc = gnutls_x509_crt_set_subject_alt_name(
		 crt, GNUTLS_SAN_DNSNAME, local, (unsigned)strlen(local), GNUTLS_FSAN_APPEND)) < 0)
		return rc;
	return gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_DNSNAME, "localhost", 9,
						    GNUTLS_FSAN_APPEND);
}

int tls_cert_make(const char *dir, char *err, size_t errsize)
{
	char cert_path[4096], key_path[4096];
	gnutls_x509_privkey_t key = NULL;
	gnutls_x509_crt_t crt = NULL;
	gnutls_datum_t key_pem = {0}, cert_pem = {0};
	unsigned char serial[16];
	time_t now = time(NULL);
	int rc, status = -1;

	snprintf(cert_path, sizeof(cert_path), "%s/%s", dir, TLS_CERT_FILE);
	snprintf(key_path, sizeof(key_path), "%s/%s", dir, TLS_KEY_FILE);
	if (!access(cert_path, F_OK) && !access(key_path, F_OK))
		return 0;
	if ((rc = gnutls_x509_privkey_init(&key)) < 0 ||
	    (rc = gnutls_x509_privkey_generate(
		 key, GNUTLS_PK_ECDSA, GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0)) < 0 ||
	    (rc = gnutls_x509_crt_init(&crt)) < 0 ||
	    (rc = gnutls_x509_crt_set_version(crt, 3)) < 0 ||
	    (rc = gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof(serial))) < 0 ||
	    ((serial[0] &= 0x7f),
	     (rc = gnutls_x509_crt_set_serial(crt, serial, sizeof(serial))) < 0) ||
	    (rc = gnutls_x509_crt_set_activation_time(crt, now - 24 * 3600)) < 0 ||
	    (rc = gnutls_x509_crt_set_expiration_time(crt, now + 10L * 365 * 24 * 3600)) < 0 ||
	    (rc = set_names(crt)) < 0 || (rc = gnutls_x509_crt_set_key(crt, key)) < 0 ||
	    (rc = gnutls_x509_crt_set_basic_constraints(crt, 0, -1)) < 0 ||
	    (rc = gnutls_x509_crt_set_key_usage(crt, GNUTLS_KEY_DIGITAL_SIGNATURE)) < 0 ||
	    (rc = gnutls_x509_crt_set_key_purpose_oid(crt, GNUTLS_KP_TLS_WWW_SERVER, 0)) < 0 ||
	    (rc = gnutls_x509_crt_sign2(crt, crt, key, GNUTLS_DIG_SHA256, 0)) < 0 ||
	    (rc = gnutls_x509_privkey_export2(key, GNUTLS_X509_FMT_PEM, &key_pem)) < 0 ||
	    (rc = gnutls_x509_crt_export2(crt, GNUTLS_X509_FMT_PEM, &cert_pem)) < 0) {
		snprintf(err, errsize, "cannot make a certificate: %s", gnutls_strerror(rc));
		goto out;
	}
	/* The key first: a certificate never stands without its key. */
	if (write_file(key_path, &key_pem, 0600, err, errsize) ||
	    write_file(cert_path, &cert_pem, 0644, err, errsize))
		goto out;
	status = 0;
out:
	if (key_pem.data) {
		explicit_bzero(key_pem.data, key_pem.size);
		gnutls_free(key_pem.data);
	}
	gnutls_free(cert_pem.data);
	if (crt)
		gnutls_x509_crt_deinit(crt);
	if (key)
		gnutls_x509_privkey_deinit(key);
	return status;
}

int tls_cert_make_cli(const char *dir)
{
	char err[512], path[4096], fp[TLS_FINGERPRINT_MAX];

	if (tls_cert_make(dir, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, TLS_CERT_FILE);
	if (tls_cert_fingerprint(path, fp, sizeof(fp), err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 1;
	}
	printf("%s: SHA-256 %s\n", path, fp);
	return 0;
}
