/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a command needs of the game (command.h): the one table of every door, and its check.
 */
#include "game/command.h"

#include <stdio.h>
#include <string.h>

#include "game/game.h"

#define ALL    GAME_MODES_ALL
#define CASUAL GAME_MODE_BIT(GAME_CASUAL)
#define PLAY   GAME_NEED_PLAY
#define ON     GAME_NEED_NOT_OVER
#define CLOCK  GAME_NEED_CLOCK
#define OPEN   GAME_NEED_NOT_CLOSED

/* modes, needs, in_review, server (command.h). */
static const struct game_command_needs needs_of[CMD_KIND_COUNT] = {
    [CMD_TAG] = {ALL, 0, true, false},
    [CMD_DRAW_OFFER] = {ALL, PLAY, false, true},
    [CMD_CLAIM] = {ALL, PLAY, false, true},
    [CMD_RESIGN] = {ALL, PLAY, false, true},
    [CMD_RESULT] = {ALL, OPEN, true, true},
    [CMD_APPROVE] = {ALL, 0, true, true},
    [CMD_PAUSE] = {ALL, CLOCK | ON, false, true},
    [CMD_RESUME] = {ALL, CLOCK | ON, false, true},
    [CMD_MOVE] = {ALL, ON, false, true},
    [CMD_ROLLBACK] = {ALL, OPEN, false, true},
    [CMD_ILLEGAL] = {ALL, ON, false, true},
    [CMD_CLOCK_SET] = {ALL, CLOCK | ON, false, true},
    [CMD_CLOCK_CONTROL] = {ALL, CLOCK | ON, false, true},
    [CMD_CLOCK_ADD] = {ALL, CLOCK | ON | PLAY, false, true}, /* a fallen flag is ruled on first */
    [CMD_ACCEPT_DRAW] = {ALL, PLAY, false, true},
    [CMD_RULING] = {ALL, 0, false, true},
    [CMD_HINT] = {CASUAL, PLAY, false, true},
    [CMD_TAKEBACK] = {CASUAL, OPEN, false, true},
    [CMD_ENGINE] = {CASUAL, 0, true, true},
    [CMD_LAST_MOVES] = {ALL, 0, false, false},
    [CMD_EVAL] = {CASUAL, PLAY, false, true},
    [CMD_NEW_GAME] = {CASUAL, 0, true, true},
    [CMD_ONLINE] = {CASUAL | GAME_MODE_BIT(GAME_ONLINE), 0, true, false},
    [CMD_REVIEW] = {CASUAL, 0, true, false},
};

#undef ALL
#undef CASUAL
#undef PLAY
#undef ON
#undef CLOCK
#undef OPEN

const struct game_command_needs *game_command_needs(enum game_command_kind kind)
{
	static const struct game_command_needs none = {GAME_MODES_ALL, 0, true, false};

	return (unsigned)kind < CMD_KIND_COUNT ? &needs_of[kind] : &none;
}

bool game_command_kind_unmet(const struct game *g, enum game_command_kind kind,
			     struct game_reply *reply)
{
	const struct game_command_needs *n = game_command_needs(kind);

	return game_command_unmet_reply(g, n->modes, n->needs, reply);
}

const char *game_need_name(unsigned need)
{
	switch (need) {
	case GAME_NEED_PLAY:
		return "play";
	case GAME_NEED_NOT_OVER:
		return "not-over";
	case GAME_NEED_CLOCK:
		return "clock";
	case GAME_NEED_NOT_CLOSED:
		return "not-closed";
	default:
		return "?";
	}
}

bool game_command_unmet_reply(const struct game *g, unsigned modes, unsigned needs,
			      struct game_reply *reply)
{
	if (!g->open)
		game_reply_set(reply, REPLY_NO_GAME, NULL);
	else if (!(modes & GAME_MODE_BIT(g->params.mode)))
		game_reply_set(reply, REPLY_NOT_IN_MODE,
			       REPLY_ARGS(REPLY_S("mode", game_mode_name(g->params.mode))));
	else if ((needs & GAME_NEED_CLOCK) && !g->has_clock)
		game_reply_set(reply, REPLY_NO_CLOCK, NULL);
	else if ((needs & GAME_NEED_NOT_CLOSED) && g->result.state == RESULT_APPROVED)
		game_reply_set(reply, REPLY_GAME_CLOSED,
			       REPLY_ARGS(REPLY_S("result", g->result.result)));
	else if ((needs & (GAME_NEED_PLAY | GAME_NEED_NOT_OVER)) && game_over(g))
		game_reply_set(reply, REPLY_GAME_OVER,
			       REPLY_ARGS(REPLY_S("result", g->result.result)));
	else if ((needs & GAME_NEED_PLAY) && g->result.state == RESULT_FLAG_PENDING)
		game_reply_set(reply, REPLY_FLAG_PENDING,
			       REPLY_ARGS(REPLY_S("color", game_color_name(g->result.flag_color))));
	else
		return false;
	return true;
}

const char *game_command_unmet(const struct game *g, unsigned modes, unsigned needs, char *buf,
			       size_t size)
{
	struct game_reply reply;

	if (!game_command_unmet_reply(g, modes, needs, &reply))
		return NULL;
	snprintf(buf, size, "%s", reply.text);
	return buf;
}

int game_claim_on_move(const struct game *g, bool *made)
{
	int last = game_plies(g) - 1;

	*made = false;
	if (g->has_clock && last >= 0 &&
	    completion_waiting(&g->completion, game_ply_color(g, last)) == last) {
		*made = true;
		return game_ply_color(g, last);
	}
	return game_position(g)->side;
}

static const char *const engine_ends[ENGINE_END_COUNT] = {"normal", "missing", "died", "hung",
							  "nonsense"};

const char *game_engine_end_name(enum game_engine_end end)
{
	return (unsigned)end < ENGINE_END_COUNT ? engine_ends[end] : "normal";
}

int game_engine_end_parse(const char *word)
{
	for (int i = 0; i < ENGINE_END_COUNT; i++)
		if (!strcmp(word, engine_ends[i]))
			return i;
	return -1;
}
