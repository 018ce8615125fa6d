/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "control/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void json_init(struct json_writer *w, struct strbuf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->first[0] = true;
}

static void put(struct json_writer *w, const char *s, size_t n)
{
	strbuf_append(w->out, s, n);
}

static void put_str(struct json_writer *w, const char *s)
{
	put(w, s, strlen(s));
}

/* A JSON string: quotes, backslashes and control characters escaped; the bytes are UTF-8
 * already (the protocol refuses anything else). */
static void quoted(struct json_writer *w, const char *s)
{
	const char *run = s;

	put(w, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
			continue;
		put(w, run, (size_t)(s - run));
		if (c == '"' || c == '\\')
			snprintf(esc, sizeof(esc), "\\%c", c);
		else if (c == '\n')
			snprintf(esc, sizeof(esc), "\\n");
		else
			snprintf(esc, sizeof(esc), "\\u%04x", c);
		put_str(w, esc);
		run = s + 1;
	}
	put(w, run, (size_t)(s - run));
	put(w, "\"", 1);
}

static void member(struct json_writer *w, const char *key)
{
	if (!w->first[w->depth])
		put(w, ",", 1);
	w->first[w->depth] = false;
	if (key) {
		quoted(w, key);
		put(w, ":", 1);
	}
}

static void open_(struct json_writer *w, const char *key, const char *bracket)
{
	if (w->depth > 0 || !w->first[0])
		member(w, key);
	else
		w->first[0] = false;
	put_str(w, bracket);
	if (w->depth + 1 < JSON_DEPTH_MAX) {
		w->depth++;
		w->close[w->depth] = bracket[0] == '{' ? '}' : ']';
	}
	w->first[w->depth] = true;
}

void json_object(struct json_writer *w, const char *key)
{
	open_(w, key, "{");
}

void json_array(struct json_writer *w, const char *key)
{
	open_(w, key, "[");
}

void json_end(struct json_writer *w)
{
	if (w->depth == 0)
		return;
	put(w, &w->close[w->depth], 1);
	w->depth--;
}

void json_string(struct json_writer *w, const char *key, const char *value)
{
	member(w, key);
	if (value)
		quoted(w, value);
	else
		put_str(w, "null");
}

void json_int(struct json_writer *w, const char *key, int64_t value)
{
	char num[24];

	member(w, key);
	snprintf(num, sizeof(num), "%" PRId64, value);
	put_str(w, num);
}

void json_bool(struct json_writer *w, const char *key, bool value)
{
	member(w, key);
	put_str(w, value ? "true" : "false");
}

void json_null(struct json_writer *w, const char *key)
{
	member(w, key);
	put_str(w, "null");
}

/* ------------------------------------------------------------------ reading */

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

/* The end of the string starting at p (on its opening quote), or NULL. */
static const char *string_end(const char *p)
{
	for (p++; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* The end of the value at p, or NULL. */
static const char *value_end(const char *p)
{
	int depth = 0;

	if (*p == '"')
		return string_end(p);
	for (; *p; p++) {
		if (*p == '"') {
			p = string_end(p);
			if (!p)
				return NULL;
			p--;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (depth == 0)
				return p;
			if (--depth == 0)
				return p + 1;
		} else if (depth == 0 && (*p == ',' || *p == ' ')) {
			return p;
		}
	}
	return depth ? NULL : p;
}

static int unescape(const char *s, const char *end, char *buf, size_t size)
{
	size_t n = 0;

	for (s++, end--; s < end; s++) {
		char c = *s;

		if (c == '\\' && s + 1 < end) {
			s++;
			switch (*s) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'u': {
				unsigned v = 0;

				if (s + 4 >= end || sscanf(s + 1, "%4x", &v) != 1)
					return -1;
				s += 4;
				c = v < 0x80 ? (char)v : '?';
				break;
			}
			default:
				c = *s;
			}
		}
		if (n + 1 < size)
			buf[n++] = c;
	}
	if (size)
		buf[n < size ? n : size - 1] = '\0';
	return (int)n;
}

int json_get(const char *json, const char *key, char *buf, size_t size)
{
	const char *p = skip_ws(json);
	size_t klen = strlen(key);

	if (*p != '{')
		return -1;
	p = skip_ws(p + 1);
	while (*p == '"') {
		const char *key_start = p + 1, *kend = string_end(p), *vend;

		if (!kend)
			return -1;
		p = skip_ws(kend);
		if (*p != ':')
			return -1;
		p = skip_ws(p + 1);
		vend = value_end(p);
		if (!vend)
			return -1;
		if ((size_t)(kend - key_start - 1) == klen && !strncmp(key_start, key, klen)) {
			if (*p == '"')
				return unescape(p, vend, buf, size);
			snprintf(buf, size, "%.*s", (int)(vend - p), p);
			return (int)(vend - p);
		}
		p = skip_ws(vend);
		if (*p != ',')
			return -1;
		p = skip_ws(p + 1);
	}
	return -1;
}
