/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella codes: the replies' table (game/replies.h), one JSON object a line:
 *   {"code":"relay-taken","ok":false,"args":["ply","name","by","move"],"optional":[],
 *    "wording":"ply {ply} is {name}, relayed by {by}: ..."}
 * ("wording" null for a reply whose data is its answer), for a program or a page that
 * words the daemon's replies in its own language.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "control/json.h"
#include "cli/cli.h"
#include "game/replies.h"

/* The row's argument keys, all or the optional ones, as a JSON array. */
static void keys(struct json_writer *w, const char *name, const char *list, bool optional)
{
	json_array(w, name);
	while (*list) {
		char key[32];
		bool opt;
		size_t len;

		while (*list == ' ')
			list++;
		if (!*list)
			break;
		opt = *list == '[';
		list += opt;
		len = strcspn(list, " ]");
		snprintf(key, sizeof(key), "%.*s", (int)len, list);
		list += len + (list[len] == ']');
		if (!optional || opt)
			json_string(w, NULL, key);
	}
	json_end(w);
}

void cli_codes_usage(FILE *f)
{
	fprintf(f, "usage: annabella codes\n");
}

int cli_codes(int argc, char **argv)
{
	(void)argv;
	if (argc) {
		cli_codes_usage(stderr);
		return 2;
	}
	for (int i = 1; i < REPLY_CODE_COUNT; i++) {
		const struct reply_row *row = reply_row((enum reply_code)i);
		struct strbuf b = {0};
		struct json_writer w;

		json_init(&w, &b);
		json_object(&w, NULL);
		json_string(&w, "code", row->name);
		json_bool(&w, "ok", row->ok);
		keys(&w, "args", row->args, false);
		keys(&w, "optional", row->args, true);
		json_string(&w, "wording", row->wording);
		json_end(&w);
		if (!b.p) {
			log_error(LOG_MAIN, "out of memory");
			return 1;
		}
		puts(b.p);
		free(b.p);
	}
	return fflush(stdout) ? 1 : 0;
}
