/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Words to speak.  Pure: data in, text out, golden-tested.
 *
 * Moves are always in Appendix D words (German piece names, file names Anna ... Hector,
 * German rank numerals unless the arbiter chose national ones), whatever the interface
 * language.  Everything else is in the interface language.  The text is words only:
 * eSpeak NG never sees notation.
 */
#ifndef ANNABELLA_PHRASES_H
#define ANNABELLA_PHRASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"

enum phrase_lang { PHRASE_DE = 0, PHRASE_EN, PHRASE_SV, PHRASE_NL, PHRASE_LANG_COUNT };
/* "de", "en", "sv", "nl" <-> enum; -1 if unknown. */
int phrase_lang_parse(const char *code);
const char *phrase_lang_code(enum phrase_lang lang);

struct phrase_options {
	enum phrase_lang lang; /* interface language */
	bool short_form; /* "Springer Felix drei" instead of "Springer Gustav eins Felix drei" */
	bool national_ranks; /* rank numerals in the interface language (D.2.1, arbiter's choice) */
	bool announce_check; /* ", Schach" / ", Matt" after a move (arbiter's setting) */
};
void phrase_options_defaults(struct phrase_options *o);

/* Square in Appendix D words: "Eva vier". */
size_t phrase_square(const struct phrase_options *o, int sq, char *buf, size_t size);
/* A move, spoken as made from `before`: "Springer Gustav eins Felix drei",
 * "Läufer Felix eins schlägt Bella fünf", "Kurze Rochade", "Bauer Eva fünf schlägt David
 * sechs en passant", "Bauer Eva sieben Eva acht, Dame", with ", Schach"/", Matt" when allowed.
 * Returns the length (as snprintf). */
size_t phrase_move(const struct phrase_options *o, const struct chess_pos *before, chess_move m,
		   char *buf, size_t size);
/* A duration as a person says it: "eine Stunde, dreiundzwanzig Minuten, fünf Sekunden",
 * "one hour, twenty-three minutes", "fünf Minuten" (never a clock-face reading).
 * Whole seconds (truncated); under ten seconds also tenths are not spoken. */
size_t phrase_duration(enum phrase_lang lang, uint64_t ms, char *buf, size_t size);
/* D.2.6.1: both remaining times and the move number: "Weiß ... Schwarz ... Zug
 * einunddreißig". */
size_t phrase_clock_info(enum phrase_lang lang, uint64_t white_ms, uint64_t black_ms,
			 int move_number, char *buf, size_t size);
/* The move number alone, for `info` without a clock: "Zug einunddreißig." */
size_t phrase_move_number(enum phrase_lang lang, int move_number, char *buf, size_t size);
/* A number as words (cardinal, 0..9999): "einunddreißig". */
size_t phrase_number(enum phrase_lang lang, int n, char *buf, size_t size);

enum phrase_id {
	PHRASE_GAME_START, /* "Partie beginnt" */
	PHRASE_NEW_GAME,   /* the board is set up again after a game: "Neue Partie" */
	PHRASE_PAUSED,	   /* clocks stopped (Art. 6.11.2) */
	PHRASE_RESUMED,
	PHRASE_PROMOTION_PROMPT,  /* "Umwandlung: Figur wählen" */
	PHRASE_PROMOTION_NEEDED,  /* clock pressed before the piece was chosen */
	PHRASE_MISMATCH,	  /* "Brett stimmt nicht mit der Partie überein" */
	PHRASE_BOARD_RESTORED,	  /* "Brett wieder in Ordnung" */
	PHRASE_NOTHING_TO_REPEAT, /* no move yet */
	PHRASE_CLOCK_NOT_RUNNING,
	PHRASE_GAME_RESUMED_AFTER_RESTART, /* after a crash: "Partie fortgesetzt, Uhren angehalten"
					    */
	PHRASE_GAME_RESUMED_NO_CLOCK,	   /* the same, for a game without a clock */
	PHRASE_FLAG_WHITE,		   /* "Zeit überschritten: Weiß" */
	PHRASE_FLAG_BLACK,
	PHRASE_RESULT_WHITE_WINS,
	PHRASE_RESULT_BLACK_WINS,
	PHRASE_RESULT_DRAW,
	PHRASE_CHECKMATE, /* the game ended by checkmate */
	PHRASE_STALEMATE,
	PHRASE_DEAD_POSITION,
	PHRASE_FIVEFOLD,
	PHRASE_SEVENTY_FIVE,
	PHRASE_ILLEGAL_MOVE, /* casual mode only */
	PHRASE_WHITE_RESIGNS,
	PHRASE_BLACK_RESIGNS,
	PHRASE_WHITE_OFFERS_DRAW,
	PHRASE_BLACK_OFFERS_DRAW,
	PHRASE_CLAIM_TO_ARBITER, /* a claim: the clocks stand for the arbiter */
	PHRASE_CLAIM_CORRECT,	 /* casual mode */
	PHRASE_CLAIM_INCORRECT,
	PHRASE_RESULT_APPROVED,
	PHRASE_NO_RESULT,
	PHRASE_MENU_OFFER_DRAW, /* the button menu's items */
	PHRASE_MENU_ACCEPT_DRAW,
	PHRASE_MENU_CLAIM_THREEFOLD,
	PHRASE_MENU_CLAIM_FIFTY,
	PHRASE_MENU_RESIGN,
	PHRASE_MENU_APPROVE,
	PHRASE_MENU_CANCEL,
	PHRASE_MENU_CONFIRM_RESIGN,
	PHRASE_MENU_CLOSED,
	PHRASE_NOT_NOW,
	PHRASE_PRESS_NO_MOVE,  /* the clock pressed with no move made (7.5.3) */
	PHRASE_SETUP,	       /* set up the position the arbiter retraced the game to */
	PHRASE_SETUP_DONE,     /* the board shows it: the game goes on */
	PHRASE_CLOCKS_SET,     /* the arbiter set the clocks */
	PHRASE_CLAIM_REJECTED, /* the arbiter rejected the player's claim */
	PHRASE_CORRECTION,     /* before a move that corrects the one announced (D.2.8) */
	PHRASE_SQUARE_OK,      /* after a square's name: it is right now (set-up guidance) */
	PHRASE_ERROR,	       /* "Fehler" */
	PHRASE_ID_COUNT
};
/* A fixed phrase in the interface language. */
const char *phrase_text(enum phrase_lang lang, enum phrase_id id);
/* A promotion choice: "Dame", "Turm", "Läufer", "Springer" (Appendix D: German names,
 * since the announcement names the piece in German). */
const char *phrase_piece(enum chess_piece_type type);
/* Mismatch guidance for one square: "Eva vier sollte leer sein" / "... sollte besetzt sein"
 * (square in Appendix D words, the rest in the interface language). */
size_t phrase_square_should(const struct phrase_options *o, int sq, bool should_be_occupied,
			    char *buf, size_t size);

#endif
