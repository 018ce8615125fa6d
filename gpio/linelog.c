/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "gpio/linelog.h"

#include <stdarg.h>
#include <string.h>

__attribute__((format(printf, 4, 5))) static int fail(struct linelog_reader *r, char *err,
						      size_t err_size, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (err && err_size)
		snprintf(err, err_size, "%s:%d: %s", r->name, r->lineno, msg);
	return -1;
}

void linelog_reader_init(struct linelog_reader *r, FILE *f, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->name = name ? name : "line log";
}

/* One line into r->text without its newline: 1, 0 at the end, -1 too long or NUL. */
static int read_text(struct linelog_reader *r, char *err, size_t err_size)
{
	size_t n = 0;
	int c;

	c = getc(r->f);
	if (c == EOF)
		return ferror(r->f) ? fail(r, err, err_size, "read error") : 0;
	r->lineno++;
	while (c != EOF && c != '\n') {
		if (c == 0)
			return fail(r, err, err_size, "NUL character");
		if (n == LINELOG_MAX_TEXT)
			return fail(r, err, err_size, "line too long (at most %d characters)",
				    LINELOG_MAX_TEXT);
		r->text[n++] = (char)c;
		c = getc(r->f);
	}
	if (ferror(r->f))
		return fail(r, err, err_size, "read error");
	if (n && r->text[n - 1] == '\r')
		n--;
	r->text[n] = 0;
	return 1;
}

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Decimal digits up to a space or the end; 0 or -1. */
static int parse_dec(const char **s, uint64_t max, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (*p && *p != ' ' && *p != '\t')
		return -1;
	*s = p;
	*out = v;
	return 0;
}

static int parse_hex(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int digits = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	for (s += 2; *s && *s != ' ' && *s != '\t'; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		if (++digits > 16)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (!digits || *skip_space(s))
		return -1;
	*out = v;
	return 0;
}

static int header_line(struct linelog_reader *r, char *err, size_t err_size)
{
	const char *s = r->text + 1, *colon, *value;
	size_t klen;
	uint64_t v;

	if (r->in_body)
		return 0; /* a comment */
	s = skip_space(s);
	colon = strchr(s, ':');
	if (!colon)
		return 0; /* a comment */
	klen = (size_t)(colon - s);
	value = skip_space(colon + 1);
	if (klen == 8 && !strncmp(s, "start-ns", klen)) {
		if (parse_dec(&value, UINT64_MAX, &v) || *skip_space(value))
			return fail(r, err, err_size, "bad start-ns '%s'", value);
		r->header.has_start = true;
		r->header.start_ns = v;
	} else if (klen == 9 && !strncmp(s, "occupancy", klen)) {
		if (parse_hex(value, &v))
			return fail(r, err, err_size, "bad occupancy '%s' (0x and hex digits)",
				    value);
		r->header.has_occupancy = true;
		r->header.occupancy = v;
	} else if (klen == 7 && !strncmp(s, "buttons", klen)) {
		if (parse_hex(value, &v) || v > 0xffff)
			return fail(r, err, err_size, "bad buttons '%s' (0x and hex digits)",
				    value);
		r->header.has_buttons = true;
		r->header.buttons = (uint32_t)v;
	}
	return 0;
}

int linelog_read(struct linelog_reader *r, struct linelog_edge *e, char *err, size_t err_size)
{
	for (;;) {
		const char *s;
		uint64_t ns, line;
		int got = read_text(r, err, err_size);

		if (got <= 0)
			return got;
		s = skip_space(r->text);
		if (!*s)
			continue;
		if (*s == '#') {
			if (header_line(r, err, err_size))
				return -1;
			continue;
		}
		if (parse_dec(&s, UINT64_MAX, &ns))
			return fail(r, err, err_size, "bad time '%.40s' (NS LINE rising|falling)",
				    s);
		s = skip_space(s);
		if (parse_dec(&s, LINELOG_MAX_LINE, &line))
			return fail(r, err, err_size, "bad line number '%.40s'", s);
		s = skip_space(s);
		if (!strncmp(s, "rising", 6)) {
			e->rising = true;
			s += 6;
		} else if (!strncmp(s, "falling", 7)) {
			e->rising = false;
			s += 7;
		} else {
			return fail(r, err, err_size, "bad edge '%.40s' (rising or falling)", s);
		}
		if (*skip_space(s))
			return fail(r, err, err_size, "unexpected '%.40s'", skip_space(s));
		if (r->in_body && ns < r->last_ns)
			return fail(r, err, err_size, "time goes backwards (%llu after %llu)",
				    (unsigned long long)ns, (unsigned long long)r->last_ns);
		if (r->header.has_start && ns < r->header.start_ns)
			return fail(r, err, err_size, "time %llu before start-ns %llu",
				    (unsigned long long)ns, (unsigned long long)r->header.start_ns);
		r->in_body = true;
		r->last_ns = ns;
		e->ns = ns;
		e->line = (int)line;
		return 1;
	}
}
