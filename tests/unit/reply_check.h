/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Every reply line a test sees is checked against the replies' table (game/replies.h): it
 * carries a known code (never bad-args, which stands for a reply set with other arguments
 * than its row's) and the arguments its row names, and its English text (`text` or
 * `error`) is that code's wording built from those arguments alone, so a page that words
 * the code in another language says the same.
 */
#ifndef ANNABELLA_REPLY_CHECK_H
#define ANNABELLA_REPLY_CHECK_H

#include <stdio.h>
#include <string.h>

#include "control/json.h"
#include "control/protocol.h"
#include "game/replies.h"

/* The reply's code and arguments read back from its JSON line and set again through the
 * table: the text and the "code":...,"args":{...} it gives must be the line's own.  NULL
 * when they are, else what differs (in a static buffer). */
static inline const char *reply_check_line(const char *json)
{
	static char why[1024], keys[REPLY_ARGS_MAX][32];
	char name[64], args[4096], text[512], values[REPLY_ARGS_MAX][512];
	struct reply_value v[REPLY_ARGS_MAX + 1];
	const struct reply_row *row;
	struct game_reply again;
	struct strbuf line = {0};
	enum reply_code code;
	const char *p, *tail, *tail_again;
	int n = 0;

	if (json_get(json, "code", name, sizeof(name)) < 0)
		return snprintf(why, sizeof(why), "no code in %s", json), why;
	code = reply_code_parse(name);
	if (code == REPLY_NONE)
		return snprintf(why, sizeof(why), "unknown code %s in %s", name, json), why;
	/* A reply given other arguments than its row names: a bug where it was set. */
	if (code == REPLY_BAD_ARGS)
		return snprintf(why, sizeof(why), "a reply with the wrong arguments: %s", json),
		       why;
	row = reply_row(code);
	if (json_get(json, "args", args, sizeof(args)) < 0 || args[0] != '{')
		return snprintf(why, sizeof(why), "no args in %s", json), why;
	for (p = row->args; *p;) {
		char key[32], needle[40];
		const char *at;
		size_t len;

		while (*p == ' ' || *p == '[' || *p == ']')
			p++;
		len = strcspn(p, " []");
		if (!len)
			break;
		snprintf(key, sizeof(key), "%.*s", (int)len, p);
		p += len;
		snprintf(needle, sizeof(needle), "\"%s\":", key);
		at = strstr(args, needle);
		if (!at || n == REPLY_ARGS_MAX ||
		    json_get(args, key, values[n], sizeof(values[n])) < 0)
			continue;
		snprintf(keys[n], sizeof(keys[n]), "%s", key);
		v[n] = at[strlen(needle)] == '"' ? REPLY_S(keys[n], NULL) : REPLY_N(keys[n], 0);
		if (v[n].number)
			v[n].n = strtoll(values[n], NULL, 10);
		else
			v[n].s = values[n];
		n++;
	}
	v[n] = (struct reply_value){0};
	game_reply_set(&again, code, v);
	if (again.code != code)
		return snprintf(why, sizeof(why), "the args of %s are not its row's (%s)", json,
				row->args),
		       why;
	if (row->wording) {
		if (json_get(json, row->ok ? "text" : "error", text, sizeof(text)) < 0)
			return snprintf(why, sizeof(why), "no %s in %s", row->ok ? "text" : "error",
					json),
			       why;
		if (strcmp(text, again.text))
			return snprintf(why, sizeof(why),
					"the text '%s' is not the wording of %s: '%s'", text, name,
					again.text),
			       why;
	}
	control_reply(&line, &again);
	tail = strstr(json, ",\"code\":");
	tail_again = line.p ? strstr(line.p, ",\"code\":") : NULL;
	if (!tail || !tail_again || strcmp(tail, tail_again)) {
		snprintf(why, sizeof(why), "code and args %s, again %s", tail ? tail : "(none)",
			 tail_again ? tail_again : "(none)");
		free(line.p);
		return why;
	}
	free(line.p);
	return NULL;
}

#endif
