/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Online play's vocabulary (docs/online.md "Playing online"), pure: what the online process tells
 * the referee of the server's game (news for the player, offers standing, why the game went back,
 * how it ended) and what the referee asks of it.  The words are the control protocol's
 * (`online say NEWS`, `online offers ...`, `online result STATUS`), one table each.
 *
 * The server's game wins: its moves, its clock and its result are the game's, and what the
 * tactile player asks for (a draw, a resignation, a takeback) goes to the server first and
 * comes back through its stream before the game changes.
 */
#ifndef ANNABELLA_ONLINE_H
#define ANNABELLA_ONLINE_H

#include <stdbool.h>

#include "game/effect.h"
#include "game/result.h"

/* News for the player, said privately (`online say NEWS`). */
enum game_online_news {
	ONLINE_NEWS_CONNECTION_LOST = 0,  /* the server cannot be reached: trying again */
	ONLINE_NEWS_CONNECTED,		  /* it can again; the game is as the server has it */
	ONLINE_NEWS_TOKEN_INVALID,	  /* the token was refused: no online play */
	ONLINE_NEWS_RATE_LIMITED,	  /* the server asks for a minute's wait */
	ONLINE_NEWS_SERVER_DOWN,	  /* the server cannot be reached at the start */
	ONLINE_NEWS_SEEKING,		  /* a seek is out: waiting for an opponent */
	ONLINE_NEWS_NO_OPPONENT,	  /* the seek ended without a game */
	ONLINE_NEWS_CHALLENGE_SENT,	  /* the friend was challenged: waiting for them */
	ONLINE_NEWS_CHALLENGE_DECLINED,	  /* the friend declined, or did not answer */
	ONLINE_NEWS_CHALLENGE_WAITING,	  /* waiting for the friend's challenge */
	ONLINE_NEWS_CHALLENGE_HERE,	  /* the friend's challenge came: the menu takes it */
	ONLINE_NEWS_CHALLENGE_UNPLAYABLE, /* the friend's challenge, for a game the board cannot
					     play, was declined */
	ONLINE_NEWS_TIME_CONTROL,	  /* the server does not play that time control */
	ONLINE_NEWS_REFUSED,		  /* the server refused what the player asked for */
	ONLINE_NEWS_TAKEBACK_DECLINED,	  /* the opponent declined the takeback */
	ONLINE_NEWS_DRAW_DECLINED,	  /* the opponent declined the draw */
	ONLINE_NEWS_COUNT
};
/* "connection-lost", ...; -1 for another word. */
const char *game_online_news_name(enum game_online_news news);
int game_online_news_parse(const char *word);
enum game_msg game_online_news_msg(enum game_online_news news);

/* Why the game goes back to the server's plies (`online back PLIES WHY`). */
enum game_online_back {
	ONLINE_BACK_SYNC = 0, /* the board is set up as the server's game stands */
	ONLINE_BACK_REFUSED,  /* the server refused the player's move */
	ONLINE_BACK_TAKEBACK, /* a takeback both sides agreed to */
	ONLINE_BACK_COUNT
};
const char *game_online_back_name(enum game_online_back why);
int game_online_back_parse(const char *word);

/* The offers standing on the server (`online offers [white-draw] [black-draw]
 * [white-takeback] [black-takeback]`), as bits. */
enum {
	ONLINE_OFFER_WHITE_DRAW = 1,
	ONLINE_OFFER_BLACK_DRAW = 2,
	ONLINE_OFFER_WHITE_TAKEBACK = 4,
	ONLINE_OFFER_BLACK_TAKEBACK = 8,
};
#define ONLINE_OFFER_DRAW(color) ((color) ? ONLINE_OFFER_BLACK_DRAW : ONLINE_OFFER_WHITE_DRAW)
#define ONLINE_OFFER_TAKEBACK(color)                                                               \
	((color) ? ONLINE_OFFER_BLACK_TAKEBACK : ONLINE_OFFER_WHITE_TAKEBACK)
/* One word's bit ("black-draw"), or 0. */
unsigned game_online_offer_parse(const char *word);
/* The words of `offers`, space-separated ("" for none). */
void game_online_offers_format(unsigned offers, char *buf, size_t size);

/* What the tactile player asks of the server through the online process (GAME_FX_ONLINE_ASK:
 * the button menu's online items). */
enum game_online_request {
	ONLINE_ASK_PLAY = 0,	     /* the menu's online entry: start a game as configured */
	ONLINE_ASK_OFFER_DRAW,	     /* offer a draw */
	ONLINE_ASK_ACCEPT_DRAW,	     /* accept the opponent's */
	ONLINE_ASK_DECLINE_DRAW,     /* decline it */
	ONLINE_ASK_RESIGN,	     /* resign */
	ONLINE_ASK_ABORT,	     /* abort (before both have moved) */
	ONLINE_ASK_TAKEBACK,	     /* propose a takeback */
	ONLINE_ASK_ACCEPT_TAKEBACK,  /* accept the opponent's */
	ONLINE_ASK_DECLINE_TAKEBACK, /* decline it */
	ONLINE_ASK_CLAIM_VICTORY,    /* the opponent left: claim the win */
	ONLINE_ASK_CLAIM_DRAW,	     /* or the draw */
	ONLINE_ASK_COUNT
};
/* "play", "offer-draw", ...: the event's `request`. */
const char *game_online_request_name(enum game_online_request request);
int game_online_request_parse(const char *word);

/* How the server ended a game (its status, docs/online.md "Playing online"): the result for the
 * winner the server names (-1: none), the PGN Termination, the reason for the scoresheet's
 * comment and what the player hears.  0, or -1 for a status that ends nothing ("started")
 * or is unknown. */
struct game_online_end {
	char result[8];
	enum result_termination termination;
	char reason[RESULT_REASON_MAX];
	enum game_msg msg;	   /* said with the result (GAME_MSG_COUNT: nothing) */
	enum game_channel channel; /* where msg is said */
	bool resigned;		   /* the loser resigned: a resign record */
};
int game_online_end_of(const char *status, int winner, struct game_online_end *out);

#endif
