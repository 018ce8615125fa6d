/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/strbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for extra more bytes and the NUL. */
static bool reserve(struct strbuf *b, size_t extra)
{
	size_t cap;
	char *p;

	if (b->failed)
		return false;
	if (b->len + extra + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 1024;
	while (cap < b->len + extra + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void strbuf_append(struct strbuf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if (!reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *strbuf_finish(struct strbuf *b)
{
	if (!b->failed && !b->p)
		reserve(b, 0);
	if (b->failed) {
		free(b->p);
		b->p = NULL;
		errno = ENOMEM;
		return NULL;
	}
	b->p[b->len] = '\0';
	return b->p;
}

int strv_append(char ***v, size_t *n, size_t *cap, const char *s)
{
	char *copy = strdup(s);

	if (!copy)
		return -1;
	if (*n == *cap) {
		size_t grown = *cap ? *cap * 2 : 256;
		char **l = realloc(*v, grown * sizeof(*l));

		if (!l) {
			free(copy);
			errno = ENOMEM;
			return -1;
		}
		*v = l;
		*cap = grown;
	}
	(*v)[(*n)++] = copy;
	return 0;
}
