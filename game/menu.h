/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The button menu (README "The device", docs/arbiter.md "Behaviour the Laws ask for"): what a
 * tactile player without an assistant would say or sign.  Holding `select` opens it; each `select`
 * press steps to the next item, `repeat` chooses it.  Items are offered as the game allows them (a
 * draw offer while the game is on, approving once there is a result), never by whether they would
 * succeed: whether a claim is correct is the arbiter's to say (11.3.1).  Resigning asks for a
 * second `repeat`. After cancel: the spoken quick guide, and, with a braille display, the braille
 * scoresheet on it, where each `repeat` shows the next page and the menu stays open.
 * In casual play (docs/training.md "Training and study") the training items come first, as they
 * apply: a hint from the connected engine on the player's move, taking back the last move pair,
 * starting a training game (where the club enabled it); after the help items the last finished
 * games.  During a review the menu offers ending it, going to a move, leaving the variation
 * shown, saying the review on the speaker too (or no longer), cancel and the help items.  In an
 * online game (docs/online.md "Playing online") the items are what the server allows, each asked
 * of it: abort, a draw offered, accepted or declined, a takeback asked, accepted or declined, a
 * claim when the opponent left, resigning.  After the help, once a move is made, the last moves.
 *
 *   CLOSED ──hold select──▶ OPEN(item) ──select──▶ OPEN(next item)
 *   OPEN(resign) ──repeat──▶ CONFIRM ──repeat──▶ CLOSED (resigned)
 *   OPEN ──repeat──▶ CLOSED (item done); OPEN, CONFIRM ──menu-ms unused──▶ CLOSED
 */
#ifndef ANNABELLA_MENU_H
#define ANNABELLA_MENU_H

#include <stdbool.h>
#include <stdint.h>

#include "game/command.h"
#include "game/effect.h"
#include "game/game.h"

enum menu_item {
	MENU_OFFER_DRAW = 0,
	MENU_ACCEPT_DRAW,
	MENU_CLAIM_THREEFOLD,
	MENU_CLAIM_FIFTY,
	MENU_RESIGN,
	MENU_APPROVE,
	MENU_CANCEL,
	/* After cancel, so the items before keep their places: */
	MENU_QUICK_GUIDE,   /* the spoken quick guide: the buttons, the menu, what is said when */
	MENU_BRAILLE_SHEET, /* the braille scoresheet on the display; each repeat: the next page */
	/* Casual play (offered first, before the items above): */
	MENU_HINT,	   /* the engine's suggestion */
	MENU_TAKEBACK,	   /* the last move pair back */
	MENU_TRAIN,	   /* a training game against the engine */
	MENU_END_REVIEW,   /* during a review: end it */
	MENU_REVIEW_GOTO,  /* go to a move, chosen with the buttons */
	MENU_REVIEW_LEAVE, /* out of the variation shown */
	MENU_REVIEW_ALOUD, /* the review on the speaker too */
	MENU_REVIEW_QUIET, /* the review in the earphone only */
	MENU_GAMES,	   /* casual play, after the help: the last finished games, for a review */
	MENU_LAST_MOVES,   /* after the help, once a move is made: the last moves of both sides */
	MENU_EVAL,	   /* with an engine playing, after the hint: its evaluation */
	MENU_REVIEW_PLAY,  /* in a review: a new game from the position shown (the engine plays) */
	/* Online play (docs/online.md "Playing online"); each asks the server through the online
	 * process (MENU_OFFER_DRAW, MENU_ACCEPT_DRAW, MENU_RESIGN and MENU_TAKEBACK too): */
	MENU_ONLINE,	       /* casual play: start an online game */
	MENU_ABORT,	       /* abort the game, before both sides have moved */
	MENU_DECLINE_DRAW,     /* decline the opponent's draw offer */
	MENU_ACCEPT_TAKEBACK,  /* the opponent asks to take back a move */
	MENU_DECLINE_TAKEBACK, /* ... */
	MENU_CLAIM_VICTORY,    /* the opponent stayed away: claim the win */
	MENU_CLAIM_DRAW_GONE,  /* or a draw */
	MENU_ITEM_COUNT
};

enum menu_state { MENU_CLOSED = 0, MENU_OPEN, MENU_CONFIRM };

struct menu {
	enum menu_state state;
	int count;
	enum menu_item items[MENU_ITEM_COUNT];
	int at;
	uint64_t last_ms;
	bool braille_sheet; /* offer MENU_BRAILLE_SHEET: a braille display is configured */
	/* What the referee knows besides the game (set before menu_open()): */
	bool engine_playing;	/* a training process plays the opponent: offer MENU_HINT */
	bool train_entry;	/* the club enabled MENU_TRAIN and no engine plays */
	bool in_review;		/* a review is on: MENU_END_REVIEW */
	bool review_variation;	/* it shows a variation: MENU_REVIEW_LEAVE */
	bool review_aloud;	/* it is said on the speaker too: MENU_REVIEW_QUIET */
	bool online_entry;	/* the club enabled MENU_ONLINE */
	unsigned online_offers; /* online play: the offers standing on the server (online.h) */
	bool online_claimable;	/* online play: the opponent stayed away long enough */
	int sheet_page;		/* the page MENU_BRAILLE_SHEET showed last (0: none yet) */
};

/* Open at the first item the game allows for the tactile player. */
void menu_open(struct menu *m, const struct game *g, uint64_t now);
void menu_next(struct menu *m, uint64_t now);
enum menu_item menu_current(const struct menu *m);
/* The game command an item gives (CMD_KIND_COUNT: none; online play asks the server instead,
 * docs/online.md "Playing online"). */
enum game_command_kind menu_item_kind(enum menu_item item);
/* What an item needs of the game (command.h's GAME_NEED_ bits): its command's
 * (game_command_needs()), or, for an item that gives none, what it asks of the training
 * process or the server.  Checked when the menu opens and again when the item is chosen (the
 * game may have changed meanwhile). */
unsigned menu_item_needs(enum menu_item item);
/* The message that names an item. */
enum game_msg menu_item_msg(enum menu_item item);

#endif
