/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the control protocol.  Each input is split into request lines; each line
 * goes through the command table as the daemon dispatches it (as an assistant or the
 * arbiter, by the line's length), to a referee, and is followed by the status and moves
 * replies.  Nothing may crash, leak, or make a reply that is not one line or whose text is
 * not its code's wording (tests/unit/reply_check.h), and a refused request must change
 * nothing.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/json.h"
#include "control/protocol.h"
#include "referee/referee.h"
#include "tests/unit/reply_check.h"

static struct pin_secret arbiter, assistant;

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
	/* The PINs as the daemon holds them (base/pinhash.h), with one round: the fuzzer's
	 * time goes to the parser. */
	if (!arbiter.hash.set) {
		static const unsigned char salt[PIN_HASH_SALT] = "salt of the fuzz";

		pin_hash_make(&arbiter.hash, "4711", salt, 1);
		pin_hash_make(&assistant.hash, "1234", salt, 1);
	}
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
		struct control_env env = {.referee = r,
					  .now = now,
					  .role = len & 1 ? ROLE_ASSISTANT : ROLE_ARBITER,
					  .author = "fuzz",
					  .connection = true,
					  .arbiter_pin = &arbiter,
					  .assistant_pin = &assistant};
		struct control_outcome out;
		struct strbuf status = {0};
		char value[64];
		int plies = game_plies(referee_game(r)), claims = referee_game(r)->claims;

		control_dispatch(&env, p, len, &out);
		one_line(&out.reply);
		if (json_get(out.reply.p, out.ok ? "ok" : "error", value, sizeof(value)) < 0)
			abort();
		/* Its text is its code's wording from its arguments. */
		if (reply_check_line(out.reply.p))
			abort();
		if (!out.ok &&
		    (game_plies(referee_game(r)) != plies || referee_game(r)->claims != claims))
			abort();
		control_outcome_free(&out);
		referee_flush(r, now);
		control_reply_status(&status, referee_game(r),
				     &(struct control_status_extra){.now = now});
		one_line(&status);
		free(status.p);
		status = (struct strbuf){0};
		control_reply_moves(&status, referee_game(r));
		one_line(&status);
		free(status.p);
		now += 700;
		p += len + (nl ? 1 : 0);
	}
	referee_stop(r, now);
	referee_free(r);
	return 0;
}
