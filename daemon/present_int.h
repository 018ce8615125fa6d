/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The presenter's inside, shared by its files: present.c (the effects and records rendered,
 * speech, the settings, notices and power), present_msg.c (the referee's messages: their
 * phrases, how the voice takes them, which call for the arbiter) and present_study.c (what is
 * said and shown of a review, the last moves, the engine's evaluation and the games kept).
 * Internal to daemon/present*.c.
 */
#ifndef ANNABELLA_PRESENT_INT_H
#define ANNABELLA_PRESENT_INT_H

#include "daemon/present.h"

struct presenter {
	struct presenter_config cfg;
	struct voice *voice;
	struct store *store;
	struct referee *referee;
	struct ctlsock *ctl;
	struct display *display;
	struct clockface *clockface;
	struct leds *leds;
	struct haptic *haptic;
	bool mate_said;	    /* the last move was announced with ", Matt" */
	bool settings_said; /* the settings were said (once, at the first game) */
	bool repeated;	    /* a repeat was said, at last_repeat_ms */
	uint64_t last_repeat_ms;
	presenter_game_hook game_hook;
	void *game_hook_user;
	struct power_status power; /* the last reading ([power]) */
};

/* present.c */

/*
 * The presenter's own sinks, and whether an event of an audience (game/audience.h) may reach
 * each: the speaker and the clock display public events only, the earphone the player's,
 * the braille display (the tactile player's) both.  Watchers are filtered by the control
 * socket (ctlsock_event()).  An arbiter's event reaches none of them.
 */
enum present_sink {
	PRESENT_SPEAKER = 0,
	PRESENT_EARPHONE,
	PRESENT_BRAILLE,
	PRESENT_CLOCKFACE,
	PRESENT_SINK_COUNT
};
bool presenter_reaches(enum present_sink sink, enum game_audience audience);
/* The phrase options for the game being played (casual and online play announce check). */
struct phrase_options present_options(const struct presenter *p);
/* An utterance for its audience: on the speaker or in the earphone as the audience allows,
 * to the watchers it reaches, and on the braille display when [braille] messages says so. */
void present_say(struct presenter *p, enum game_audience audience, enum voice_kind kind,
		 const struct utterance *u, int rate_percent, uint64_t ms);

/* present_msg.c */

enum phrase_id present_msg_phrase(enum game_msg msg);
/* How the voice takes a private message: the quick guide as information, a menu item as
 * such, the rest as prompts. */
enum voice_kind present_msg_kind(enum game_msg msg);
/* What the arbiter says to the player, or the device's call for the arbiter: felt as the
 * arbiter's pattern. */
bool present_msg_arbiter(enum game_msg msg);

/* present_study.c */

/* A review's step (GAME_FX_REVIEW): said, shown on the braille display, its comment after. */
void present_review(struct presenter *p, const struct game_effect *fx);
/* The game's last moves (GAME_FX_LAST_MOVES). */
void present_last_moves(struct presenter *p, const struct game_effect *fx);
/* The engine's evaluation in words (GAME_FX_EVAL). */
void present_eval(struct presenter *p, const struct game_effect *fx);
/* The last finished games kept (GAME_FX_GAMES). */
void present_games(struct presenter *p, const struct game_effect *fx);

#endif
