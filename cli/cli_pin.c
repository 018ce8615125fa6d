/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella pin [DIGITS]
 *
 * A random PIN for [control] arbiter-pin or assistant-pin: DIGITS decimal digits (6 by
 * default, at most 16), each drawn uniformly from the kernel's random source.  Six digits
 * are a million PINs: at the daemon's ten wrong PINs a minute at most, guessing one takes
 * on the order of a month of trying, and every try is in control.log.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/log.h"
#include "cli/cli.h"

#define PIN_DIGITS_DEFAULT 6
#define PIN_DIGITS_MAX	   16

void cli_pin_usage(FILE *f)
{
	fprintf(f, "usage: annabella pin [DIGITS]   (%d to %d digits; default %d)\n",
		PIN_DIGITS_DEFAULT, PIN_DIGITS_MAX, PIN_DIGITS_DEFAULT);
}

int cli_pin(int argc, char **argv)
{
	char pin[PIN_DIGITS_MAX + 1];
	long digits = PIN_DIGITS_DEFAULT;
	int n = 0;

	if (argc > 1)
		goto usage;
	if (argc == 1) {
		char *end;

		digits = strtol(argv[0], &end, 10);
		if (*end || digits < PIN_DIGITS_DEFAULT || digits > PIN_DIGITS_MAX)
			goto usage;
	}
	while (n < digits) {
		unsigned char b[32];
		ssize_t got = getrandom(b, sizeof(b), 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			log_error(LOG_MAIN, "no random bytes: %s", strerror(errno));
			return 1;
		}
		/* 250 of the 256 byte values, so each digit is as likely as the others. */
		for (ssize_t i = 0; i < got && n < digits; i++)
			if (b[i] < 250)
				pin[n++] = (char)('0' + b[i] % 10);
	}
	pin[n] = '\0';
	printf("%s\n", pin);
	return 0;
usage:
	cli_pin_usage(stderr);
	return 2;
}
