/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Who may know of each event the referee hands out (docs/control.md "Control interface", `watch`):
 * the referee decides it once, here, for every record and every effect, and each sink passes on
 * only what its audience may know:
 *
 *   public   both players, spectators, the web page without a PIN, the broadcast: moves,
 *            presses, announcements on the speaker, draw offers, that a claim was made,
 *            rulings, results;
 *   player   the tactile player (and the assistant who serves them): what is said in the
 *            earphone (times, guidance, prompts, the promotion choice);
 *   arbiter  the arbiter alone: whether a claim is correct (11.3.1), a mismatch kept from
 *            the player during their own move (11.3.1), refused PINs, the referee's faults.
 *
 * The levels are ordered: a sink at a level receives the events of that level and below
 * (an assistant's `watch`: public and player; an arbiter's: all; `watch public`: public).
 * The classification is a switch without a default, so a new record type or effect kind
 * does not compile (-Wswitch, -Werror) until someone decides who may know of it.
 */
#ifndef ANNABELLA_AUDIENCE_H
#define ANNABELLA_AUDIENCE_H

#include <stdbool.h>

enum game_audience {
	GAME_AUDIENCE_PUBLIC = 0,
	GAME_AUDIENCE_PLAYER,
	GAME_AUDIENCE_ARBITER,
	GAME_AUDIENCE_COUNT
};

struct game_record;
struct game_effect;

/* "public", "player", "arbiter". */
const char *game_audience_name(enum game_audience a);
/* -1 if the word is none of them. */
int game_audience_parse(const char *word);
/* Whether an event of audience `event` may reach a sink at `level`. */
static inline bool game_audience_reaches(enum game_audience event, enum game_audience level)
{
	return event <= level;
}

/* The level a reader is at: what it asked to see as the public (a public view, a public
 * watch) whatever its role, else the arbiter's for the arbiter and the player's for everyone
 * else (the player, the assistant).  The one rule for replies and watched events alike. */
static inline enum game_audience game_audience_level(bool public_view, bool arbiter)
{
	return public_view ? GAME_AUDIENCE_PUBLIC
	       : arbiter   ? GAME_AUDIENCE_ARBITER
			   : GAME_AUDIENCE_PLAYER;
}

/* The referee's decision for a record it hands out, and for an effect. */
enum game_audience game_record_audience(const struct game_record *rec);
enum game_audience game_effect_audience(const struct game_effect *fx);

#endif
