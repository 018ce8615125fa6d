/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the control protocol.  Each input is split into request lines; each line
 * is parsed as the daemon parses it, given to a referee as the arbiter would give it (when it
 * changes the game), and answered with the status and moves replies.  Nothing may crash,
 * leak, or make a reply that is not one line.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/json.h"
#include "control/protocol.h"
#include "game/referee.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_line(const struct strbuf *b)
{
	if (b->failed || !b->p || memchr(b->p, '\n', b->len))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct referee_settings set;
	struct game_sink none = {0};
	struct referee *r;
	struct game_event ready = {.kind = GAME_EV_BOARD_READY};
	const char *p = (const char *)data, *end = p + size;
	uint64_t now = 1000;

	if (size > 65536)
		return 0;
	referee_settings_defaults(&set);
	snprintf(set.next.time_control, sizeof(set.next.time_control), "%s",
		 size & 1 ? "300+2" : "-");
	r = referee_new(&set, &none);
	if (!r)
		return 0;
	referee_start(r, now);
	ready.sensed = referee_expected_occupancy(r);
	referee_handle(r, &ready);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct control_request *req = malloc(sizeof(*req));
		struct strbuf out = {0};
		char err[256];
		char value[64];

		if (!req)
			break;
		if (control_parse(p, len, req, err, sizeof(err)) == 0) {
			if (req->changes_game) {
				struct game_event ev = {
				    .kind = GAME_EV_COMMAND, .ms = now, .command = &req->game};

				req->game.role = control_allowed(req, ROLE_ASSISTANT) && (len & 1)
						     ? ROLE_ASSISTANT
						     : ROLE_ARBITER;
				snprintf(req->game.author, sizeof(req->game.author), "fuzz");
				referee_handle(r, &ev);
			}
			control_reply_status(&out, referee_game(r),
					     &(struct control_status_extra){.now = now});
			one_line(&out);
			if (json_get(out.p, "ok", value, sizeof(value)) < 0 ||
			    strcmp(value, "true"))
				abort();
			free(out.p);
			out = (struct strbuf){0};
			control_reply_moves(&out, referee_game(r));
		} else {
			control_reply_error(&out, err);
			if (json_get(out.p, "error", value, sizeof(value)) < 0)
				abort();
		}
		one_line(&out);
		free(out.p);
		free(req);
		now += 700;
		p += len + (nl ? 1 : 0);
	}
	referee_stop(r, now);
	referee_free(r);
	return 0;
}
