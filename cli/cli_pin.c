/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella pin [DIGITS]
 * annabella pin --set arbiter|assistant [DIGITS | --stdin] [--file FILE]
 * annabella pin --clear arbiter|assistant [--file FILE]
 *
 * A random PIN for [control] arbiter-pin or assistant-pin: DIGITS decimal digits (6 by
 * default, at most 16), each drawn uniformly from the kernel's random source.  Six digits
 * are a million PINs: at the daemon's ten wrong PINs a minute at most, guessing one takes
 * on the order of a month of trying, and every try is in control.log.
 *
 * --set makes one (or takes the first line of standard input, never shown) and writes its
 * salted hash (base/pinhash.h) into the PIN file, /etc/annabella/pins by default (README
 * "Security model"): only its owner reads it (0600; the services get it as a credential),
 * so neither the PIN nor its hash is ever in a file the control socket's group reads.  The
 * other role's line stays; --clear takes the role's line out (no PIN gives it).  The
 * daemon and the page take the file when they start.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/log.h"
#include "base/pinhash.h"
#include "cli/cli.h"
#include "config/config.h"

#define PIN_DIGITS_DEFAULT 6
#define PIN_RANDOM_MAX	   16
#define PIN_FILE_DEFAULT   "/etc/annabella/pins"

/* digits random digits into pin; -1 (said) without a random source. */
static int random_pin(char *pin, long digits)
{
	int n = 0;

	while (n < digits) {
		unsigned char b[32];
		ssize_t got = getrandom(b, sizeof(b), 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			log_error(LOG_MAIN, "no random bytes: %s", strerror(errno));
			return -1;
		}
		/* 250 of the 256 byte values, so each digit is as likely as the others. */
		for (ssize_t i = 0; i < got && n < digits; i++)
			if (b[i] < 250)
				pin[n++] = (char)('0' + b[i] % 10);
	}
	pin[n] = '\0';
	return 0;
}

/* The PIN file with the role's line replaced (line "" : taken out), written whole: a new
 * file of its owner alone (0600), synced, renamed over the old.  0, or -1 (said). */
static int write_pins(const char *path, const char *key, const char *line)
{
	char tmp[4200], buf[512];
	FILE *in = fopen(path, "r"), *out;
	bool replaced = false;
	int fd;

	if (!in && errno != ENOENT) {
		log_error(LOG_MAIN, "%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out) {
		log_error(LOG_MAIN, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		if (in)
			fclose(in);
		return -1;
	}
	if (!in)
		fprintf(out, "# The PINs' salted hashes (README \"Security model\"): annabella pin "
			     "--set arbiter|assistant\n");
	while (in && fgets(buf, sizeof(buf), in)) {
		const char *k = buf + strspn(buf, " \t");

		if (!strncmp(k, key, strlen(key)) && strchr(" \t=", k[strlen(key)])) {
			if (line[0] && !replaced)
				fprintf(out, "%s\n", line);
			replaced = true;
			continue;
		}
		fputs(buf, out);
	}
	if (line[0] && !replaced)
		fprintf(out, "%s\n", line);
	if (in)
		fclose(in);
	if (fflush(out) || fsync(fileno(out)) || fclose(out) || rename(tmp, path)) {
		log_error(LOG_MAIN, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

void cli_pin_usage(FILE *f)
{
	fprintf(f,
		"usage: annabella pin [DIGITS]   (%d to %d digits; default %d)\n"
		"       annabella pin --set arbiter|assistant [DIGITS | --stdin] [--file FILE]\n"
		"       annabella pin --clear arbiter|assistant [--file FILE]\n"
		"       (the PIN file: %s by default)\n",
		PIN_DIGITS_DEFAULT, PIN_RANDOM_MAX, PIN_DIGITS_DEFAULT, PIN_FILE_DEFAULT);
}

static int usage(void)
{
	cli_pin_usage(stderr);
	return 2;
}

struct pin_args {
	const char *role, *file;
	long digits;
	bool set, clear, from_stdin;
};

/* The options into a, checked together: 0, or -1 (a usage error). */
static int parse_args(int argc, char **argv, struct pin_args *a)
{
	for (int i = 0; i < argc; i++) {
		if ((!strcmp(argv[i], "--set") || !strcmp(argv[i], "--clear")) && i + 1 < argc &&
		    !a->role) {
			a->set = argv[i][2] == 's';
			a->clear = !a->set;
			a->role = argv[++i];
		} else if (!strcmp(argv[i], "--file") && i + 1 < argc) {
			a->file = argv[++i];
		} else if (!strcmp(argv[i], "--stdin")) {
			a->from_stdin = true;
		} else if (argv[i][0] != '-') {
			char *end;

			a->digits = strtol(argv[i], &end, 10);
			if (*end || a->digits < PIN_DIGITS_DEFAULT || a->digits > PIN_RANDOM_MAX)
				return -1;
		} else {
			return -1;
		}
	}
	if (a->role && strcmp(a->role, "arbiter") && strcmp(a->role, "assistant"))
		return -1;
	if ((a->from_stdin && !a->set) ||
	    (a->clear && (a->from_stdin || a->digits != PIN_DIGITS_DEFAULT)))
		return -1;
	return 0;
}

/* The first line of standard input as the PIN, never shown: 0, or 2 (said). */
static int read_pin(char *pin, size_t size)
{
	if (!fgets(pin, (int)size, stdin))
		pin[0] = '\0';
	pin[strcspn(pin, "\r\n")] = '\0';
	if (strlen(pin) < PIN_DIGITS_MIN || strlen(pin) > PIN_DIGITS_MAX ||
	    strspn(pin, "0123456789") != strlen(pin)) {
		log_error(LOG_MAIN, "the PIN must be %d to %d digits", PIN_DIGITS_MIN,
			  PIN_DIGITS_MAX);
		return 2;
	}
	if (strlen(pin) < CONFIG_PIN_DIGITS)
		log_warn(LOG_MAIN, "a PIN of %zu digits: give it at least %d", strlen(pin),
			 CONFIG_PIN_DIGITS);
	return 0;
}

/* The role's new PIN (read, or made), never the other role's (from the PIN file as it is):
 * 0, 1 (no random source or an unreadable file) or 2 (said). */
static int choose_pin(const struct pin_args *a, char *pin, size_t size)
{
	char err[300], warn[300];
	struct config cfg;
	int rc;

	config_defaults(&cfg);
	snprintf(cfg.pin_file, sizeof(cfg.pin_file), "%s", a->file);
	unsetenv("CREDENTIALS_DIRECTORY");
	if (config_load_pins(&cfg, warn, sizeof(warn), err, sizeof(err)) || warn[0]) {
		log_error(LOG_MAIN, "%s", warn[0] ? warn : err);
		return 1;
	}
	if (a->from_stdin) {
		rc = read_pin(pin, size);
		if (rc)
			return rc;
	} else if (random_pin(pin, a->digits)) {
		return 1;
	}
	while (pin_hash_check(
	    !strcmp(a->role, "arbiter") ? &cfg.assistant_pin.hash : &cfg.arbiter_pin.hash, pin)) {
		if (a->from_stdin) {
			log_error(LOG_MAIN, "that is the other role's PIN: the two must differ");
			return 2;
		}
		if (random_pin(pin, a->digits))
			return 1;
	}
	return 0;
}

/* --set: the PIN's salted hash written for the role. */
static int set_pin(const struct pin_args *a, const char *key)
{
	char pin[64], line[32 + 4 + PIN_HASH_TEXT], hash[PIN_HASH_TEXT];
	unsigned char salt[PIN_HASH_SALT];
	struct pin_hash h;
	int rc = choose_pin(a, pin, sizeof(pin));

	if (rc)
		return rc;
	if (getrandom(salt, sizeof(salt), 0) != (ssize_t)sizeof(salt)) {
		log_error(LOG_MAIN, "no random bytes: %s", strerror(errno));
		return 1;
	}
	pin_hash_make(&h, pin, salt, PIN_HASH_ITERATIONS);
	pin_hash_format(&h, hash, sizeof(hash));
	snprintf(line, sizeof(line), "%s = %s", key, hash);
	if (write_pins(a->file, key, line))
		return 1;
	if (!a->from_stdin)
		printf("%s\n", pin);
	explicit_bzero(pin, sizeof(pin));
	fprintf(stderr,
		"annabella pin: the %s's PIN is set in %s (its hash); annabellad and "
		"annabella-web take it when they start again, between games: sudo systemctl "
		"restart annabellad annabella-web\n",
		a->role, a->file);
	return 0;
}

int cli_pin(int argc, char **argv)
{
	struct pin_args a = {.file = PIN_FILE_DEFAULT, .digits = PIN_DIGITS_DEFAULT};
	char pin[64], key[32];

	if (parse_args(argc, argv, &a))
		return usage();
	if (!a.set && !a.clear) {
		if (random_pin(pin, a.digits))
			return 1;
		printf("%s\n", pin);
		return 0;
	}
	snprintf(key, sizeof(key), "%s-pin", a.role);
	if (a.set)
		return set_pin(&a, key);
	if (write_pins(a.file, key, ""))
		return 1;
	fprintf(stderr,
		"annabella pin: %s taken out of %s: no PIN gives that role once "
		"annabellad and annabella-web start again\n",
		key, a.file);
	return 0;
}
