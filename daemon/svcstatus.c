/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/svcstatus.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const side_names[2] = {"White", "Black"};

static struct svcstatus_key key_of(const struct game *g, bool saving_fails, bool version_waits)
{
	struct svcstatus_key k = {
	    .open = g->open,
	    .saving_fails = saving_fails,
	    .version_waits = version_waits,
	};

	if (g->open) {
		k.plies = game_plies(g);
		k.state = (int)g->result.state;
		k.flag = g->result.flag_color;
		k.stopped = (int)g->stopped_by;
		k.claim = g->claim.open;
		k.offer = g->offer_color;
		memcpy(k.result, g->result.result, sizeof(k.result));
	}
	return k;
}

static bool same_key(const struct svcstatus_key *a, const struct svcstatus_key *b)
{
	return a->open == b->open && a->plies == b->plies && a->state == b->state &&
	       a->flag == b->flag && a->stopped == b->stopped && a->claim == b->claim &&
	       a->offer == b->offer && a->saving_fails == b->saving_fails &&
	       a->version_waits == b->version_waits &&
	       !strncmp(a->result, b->result, sizeof(a->result));
}

bool svcstatus_due(const struct svcstatus *s, const struct game *g, bool saving_fails,
		   bool version_waits)
{
	struct svcstatus_key k = key_of(g, saving_fails, version_waits);

	return !s->sent || !same_key(&s->last, &k);
}

/* Text added at *len, cut at the buffer's end; *len counts all of it, as snprintf. */
__attribute__((format(printf, 4, 5))) static void add(char *buf, size_t size, int *len,
						      const char *fmt, ...)
{
	size_t at = (size_t)*len < size ? (size_t)*len : size;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + at, size - at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += n;
}

/* The game's part: "move 12, Black to move", "1-0 (checkmate) after 31 moves, waiting for
 * the players' approval" ... */
static void add_game(char *buf, size_t size, int *len, const struct game *g)
{
	const struct result_flow *r = &g->result;
	int plies = game_plies(g);
	int moves = plies ? game_move_number(g, plies - 1) : 0;
	const char *open = r->reason[0] ? " (" : "", *close = r->reason[0] ? ")" : "";
	char after[32];

	snprintf(after, sizeof(after), "after %d move%s", moves, moves == 1 ? "" : "s");
	switch (r->state) {
	case RESULT_ON:
		add(buf, size, len, "move %d, %s to move", game_move_number(g, plies),
		    side_names[game_position(g)->side & 1]);
		if (g->stopped_by != STOP_NONE)
			add(buf, size, len, "; the clocks stand (%s)",
			    game_stop_name(g->stopped_by));
		if (g->claim.open)
			add(buf, size, len, "; %s's claim waits for the arbiter",
			    side_names[g->claim.color & 1]);
		else if (g->offer_color >= 0)
			add(buf, size, len, "; %s offers a draw", side_names[g->offer_color & 1]);
		return;
	case RESULT_FLAG_PENDING:
		add(buf, size, len, "%s's flag fell %s: ", side_names[r->flag_color & 1], after);
		if (result_undecided(r))
			add(buf, size, len, "the arbiter decides the result");
		else
			add(buf, size, len, "%s waits for the arbiter or the players' approval",
			    r->flag_result);
		return;
	case RESULT_ENDED:
		if (result_undecided(r))
			add(buf, size, len, "over %s%s%s%s: the arbiter decides the result", after,
			    open, r->reason, close);
		else
			add(buf, size, len, "%s%s%s%s %s, waiting for the players' approval",
			    r->result, open, r->reason, close, after);
		return;
	case RESULT_APPROVED:
		add(buf, size, len, "%s%s%s%s %s, approved", r->result, open, r->reason, close,
		    after);
		return;
	}
}

int svcstatus_format(struct svcstatus *s, const struct game *g, const char *saving_error,
		     bool version_waits, char *buf, size_t size)
{
	int len = 0;

	if (size)
		buf[0] = '\0';
	if (g->open) {
		add(buf, size, &len, "%s: ", g->params.id);
		add_game(buf, size, &len, g);
	} else {
		add(buf, size, &len, "no game open");
	}
	if (saving_error)
		add(buf, size, &len, "; saving fails (%s): the game is kept in memory",
		    saving_error);
	if (version_waits)
		add(buf, size, &len, "; a new version waits for the end of the game");
	s->last = key_of(g, saving_error != NULL, version_waits);
	s->sent = true;
	return len;
}
