/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/audience.h"

#include <string.h>

#include "game/effect.h"
#include "game/record.h"

static const char *const names[GAME_AUDIENCE_COUNT] = {
    [GAME_AUDIENCE_PUBLIC] = "public",
    [GAME_AUDIENCE_PLAYER] = "player",
    [GAME_AUDIENCE_ARBITER] = "arbiter",
};

const char *game_audience_name(enum game_audience a)
{
	return (unsigned)a < GAME_AUDIENCE_COUNT ? names[a] : "arbiter";
}

int game_audience_parse(const char *word)
{
	for (int i = 0; i < GAME_AUDIENCE_COUNT; i++)
		if (!strcmp(word, names[i]))
			return i;
	return -1;
}

enum game_audience game_record_audience(const struct game_record *rec)
{
	switch (rec->type) {
	/* What happens at the board and on the clocks, seen or heard by both players. */
	case REC_GAME:
	case REC_LIFT:
	case REC_PLACE:
	case REC_PROMOTION:
	case REC_MADE:
	case REC_PRESS:
	case REC_COMPLETE:
	case REC_PAUSE:
	case REC_RESUME:
	case REC_MISMATCH:
	case REC_RESTORED:
	case REC_FLAG:
	case REC_RESULT:
	case REC_RESTART:
	/* The running clock journaled (and a clock put together after a restart): what the
	 * clock display shows both players. */
	case REC_CHECKPOINT:
		return GAME_AUDIENCE_PUBLIC;
	/* What players say or sign, and the arbiter's rulings: made openly. */
	case REC_DRAW_OFFER:
	case REC_RESIGN:
	case REC_APPROVE:
	case REC_TAG:
	case REC_RELAYED:
	case REC_WITHDRAWN:
	case REC_ROLLBACK:
	case REC_ILLEGAL:
	case REC_CLOCK_SET:
	case REC_CLOCK_CONTROL:
	case REC_RULING:
	case REC_TAKEBACK:
		return GAME_AUDIENCE_PUBLIC;
	/* The promotion piece being chosen, step by step, in the earphone: final only with the
	 * press (D.2.1), announced then. */
	case REC_SELECT:
		return GAME_AUDIENCE_PLAYER;
	/* The claim record holds whether the claim is correct (11.3.1); that a claim was made
	 * goes out as its own public effect (GAME_FX_CLAIM). */
	case REC_CLAIM:
	/* The device's fair-play state: the arbiter's, never the players' channels (an
	 * opponent learns of a breach from the arbiter). */
	case REC_FAIRPLAY:
	/* A board kept from the player during their own move: pointing it out would be
	 * advice (11.3.1). */
	case REC_HELD:
		return GAME_AUDIENCE_ARBITER;
	case REC_TYPE_COUNT:
		break;
	}
	return GAME_AUDIENCE_ARBITER;
}

enum game_audience game_effect_audience(const struct game_effect *fx)
{
	switch (fx->kind) {
	case GAME_FX_SAY:
	case GAME_FX_MOVE:
		return fx->channel == GAME_PUBLIC ? GAME_AUDIENCE_PUBLIC : GAME_AUDIENCE_PLAYER;
	/* A review and its board's guidance are the player's, or said on the speaker too where
	 * the player asked for it (docs/training.md "Going over a game": casual play; the referee
	 * guides nothing else on the public channel). */
	case GAME_FX_GUIDE:
	case GAME_FX_REVIEW:
		return fx->channel == GAME_PUBLIC ? GAME_AUDIENCE_PUBLIC : GAME_AUDIENCE_PLAYER;
	/* The earphone's, whatever channel they name (D.2.6.1, D.2.1). */
	case GAME_FX_REPEAT:
	case GAME_FX_PIECE:
	case GAME_FX_TIMES:
	case GAME_FX_WARNING:
	case GAME_FX_BRAILLE_PAGE:
	/* Training and study, in the earphone (docs/training.md "Training and study"): the hint is
	 * the player's alone. */
	case GAME_FX_HINT:
	/* The finished games kept, for a review (the player's menu). */
	case GAME_FX_GAMES:
	/* The game's last moves, on request (as repeat). */
	case GAME_FX_LAST_MOVES:
	/* The engine's evaluation: the player's alone (casual play). */
	case GAME_FX_EVAL:
	/* The player's request to the training process (the shell gives it to that process
	 * alone). */
	case GAME_FX_ENGINE_ASK:
	/* The same to the online process (docs/online.md "Playing online"). */
	case GAME_FX_ONLINE_ASK:
		return GAME_AUDIENCE_PLAYER;
	case GAME_FX_SCORESHEET:
	case GAME_FX_GAME_START:
	case GAME_FX_GAME_END:
	case GAME_FX_CLAIM:
		return GAME_AUDIENCE_PUBLIC;
	/* What the arbiter did at the board, for control.log: the arbiter's (a PIN tried is
	 * "auth ****", never its digits). */
	case GAME_FX_AUDIT:
	case GAME_FX_FAULT:
	case GAME_FX_KIND_COUNT:
		break;
	}
	return GAME_AUDIENCE_ARBITER;
}
