/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a command needs of the game (command.h): one check for the command table and the
 * button menu.
 */
#include "game/command.h"

#include <stdio.h>
#include <string.h>

#include "game/game.h"

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
