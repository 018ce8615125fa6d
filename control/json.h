/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A small JSON writer over a string buffer (replies and events of the control protocol are
 * one line each), and a reader just large enough for the CLI to find a reply's fields.
 */
#ifndef ANNABELLA_JSON_H
#define ANNABELLA_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

#define JSON_DEPTH_MAX 16

struct json_writer {
	struct strbuf *out;
	int depth;
	bool first[JSON_DEPTH_MAX]; /* nothing written yet at this depth */
	char close[JSON_DEPTH_MAX]; /* the bracket that ends each open level */
};

void json_init(struct json_writer *w, struct strbuf *out);
/* Objects and arrays; key is NULL inside arrays. */
void json_object(struct json_writer *w, const char *key);
void json_array(struct json_writer *w, const char *key);
void json_end(struct json_writer *w);
void json_string(struct json_writer *w, const char *key, const char *value); /* NULL: null */
void json_int(struct json_writer *w, const char *key, int64_t value);
void json_bool(struct json_writer *w, const char *key, bool value);
void json_null(struct json_writer *w, const char *key);

/*
 * Reading: the value of a top-level key in a one-line JSON object (the text of a string
 * unescaped, or the raw text of a number, true, false, null, object or array).  Returns the
 * value's length, or -1 if the key is not there or the text is not such an object.
 */
int json_get(const char *json, const char *key, char *buf, size_t size);

#endif
