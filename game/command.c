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

const char *game_command_unmet(const struct game *g, unsigned modes, unsigned needs, char *buf,
			       size_t size)
{
	if (!g->open) {
		snprintf(buf, size, "no game yet");
		return buf;
	}
	if (!(modes & GAME_MODE_BIT(g->params.mode))) {
		snprintf(buf, size, "not allowed in %s mode", game_mode_name(g->params.mode));
		return buf;
	}
	if ((needs & GAME_NEED_CLOCK) && !g->has_clock) {
		snprintf(buf, size, "the game has no clock");
		return buf;
	}
	if ((needs & GAME_NEED_NOT_CLOSED) && g->result.state == RESULT_APPROVED) {
		snprintf(buf, size, "the result is approved: the game is closed");
		return buf;
	}
	if ((needs & (GAME_NEED_PLAY | GAME_NEED_NOT_OVER)) && game_over(g)) {
		snprintf(buf, size, "the game is over: %s", g->result.result);
		return buf;
	}
	if ((needs & GAME_NEED_PLAY) && g->result.state == RESULT_FLAG_PENDING) {
		snprintf(buf, size, "%s's flag has fallen: the arbiter rules on it first",
			 game_color_name(g->result.flag_color));
		return buf;
	}
	return NULL;
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
