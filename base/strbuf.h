/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A growable NUL-terminated string for the writers (PGN, scoresheets).  Out of memory is
 * remembered in `failed`; every later call does nothing, and strbuf_finish() gives NULL.
 */
#ifndef ANNABELLA_STRBUF_H
#define ANNABELLA_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *p;
	size_t len, cap;
	bool failed;
};

void strbuf_append(struct strbuf *b, const char *s, size_t n);
void strbuf_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string (malloc'd; "" if nothing was added), or NULL with errno ENOMEM. */
char *strbuf_finish(struct strbuf *b);

/* A copy of s appended to a growable array of strings: (*v)[*n], grown by doubling from 256
 * (*cap).  0, or -1 with errno ENOMEM and nothing appended. */
int strv_append(char ***v, size_t *n, size_t *cap, const char *s);

#endif
