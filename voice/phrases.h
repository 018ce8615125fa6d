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
#include "voice/utterance.h"

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
 * Whole seconds (truncated); under ten seconds with tenths ("vier Komma zwei Sekunden"),
 * under one second "unter einer Sekunde"; "null Sekunden" only at zero. */
size_t phrase_duration(enum phrase_lang lang, uint64_t ms, char *buf, size_t size);
/* D.2.6.1: both remaining times and the number of moves made: "Weiß: ... Schwarz: ...
 * Gespielte Züge: dreißig." */
size_t phrase_clock_info(enum phrase_lang lang, uint64_t white_ms, uint64_t black_ms,
			 int moves_made, char *buf, size_t size);
/* The number of moves made alone, for `info` without a clock: "Gespielte Züge: dreißig." */
size_t phrase_move_number(enum phrase_lang lang, int moves_made, char *buf, size_t size);
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
	PHRASE_ILLEGAL_MOVE, /* casual mode only: "Regelwidriger Zug" */
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
	PHRASE_PRESS_NO_MOVE,	/* the clock pressed with no move made (7.5.3) */
	PHRASE_SETUP,		/* set up the position the arbiter retraced the game to */
	PHRASE_SETUP_DONE,	/* the board shows it: the game goes on */
	PHRASE_CLOCKS_SET,	/* the arbiter set the clocks */
	PHRASE_CLAIM_REJECTED,	/* the arbiter rejected the player's claim */
	PHRASE_CORRECTION,	/* before a move that corrects the one announced (D.2.8) */
	PHRASE_ARBITER_PIN,	/* the arbiter's menu on the buttons asks for the PIN */
	PHRASE_ARBITER_DONE,	/* it closed */
	PHRASE_SQUARE_OK,	/* "{square} stimmt": it is right now (set-up guidance) */
	PHRASE_ERROR,		/* "Fehler" */
	PHRASE_SQUARE_EMPTY,	/* "{square} sollte leer sein" */
	PHRASE_SQUARE_OCCUPIED, /* "{square} sollte besetzt sein: {piece}" */
	PHRASE_CLOCK_INFO,	/* "Weiß: {white}. Schwarz: {black}. Gespielte Züge: {count}." */
	PHRASE_MOVES_PLAYED,	/* "Gespielte Züge: {count}." (no clock) */
	PHRASE_CLOCK_USED,	/* "Verbraucht: Weiß {white}, Schwarz {black}." ([clock] info) */
	PHRASE_DELAY_WHITE, /* delay mode, after the times: "Verzögerung Weiß: noch {time}." */
	PHRASE_DELAY_BLACK,
	PHRASE_SAVE_FAILED,	    /* the scoresheet can no longer be saved (storage fault) */
	PHRASE_SAVE_WORKS,	    /* it is saved again */
	PHRASE_RECOVERY_INCOMPLETE, /* the journal gave back less than the scoresheet held */
	PHRASE_TIME_LEFT,	    /* a warning: "noch {time}" */
	PHRASE_SETTINGS,	    /* at start: "Sprache Deutsch, Sprechtempo {count}" */
	PHRASE_SETTINGS_LONG,	    /* the move form, after the settings: "lange Zugansage" */
	PHRASE_SETTINGS_SHORT,
	PHRASE_MENU_QUICK_GUIDE,    /* menu item: the spoken quick guide */
	PHRASE_MENU_BRAILLE_SHEET,  /* menu item: the braille scoresheet on the display */
	PHRASE_QUICK_GUIDE_BUTTONS, /* the quick guide: the buttons */
	PHRASE_QUICK_GUIDE_MENU,    /* the menu */
	PHRASE_QUICK_GUIDE_SPEECH,  /* what the device says when, and on which channel */
	PHRASE_BRAILLE_PAGE,	    /* the display shows page {count} of the braille sheet */
	PHRASE_CLOCK_GAP_WHITE, /* after a restart: "up to {time} of White's time not counted" */
	PHRASE_CLOCK_GAP_BLACK,
	PHRASE_CLOCK_UNCERTAIN, /* the clocks could not be recovered exactly */
	/* a period with a delay ended: "{time} of White's main time carried into the next
	 * period" */
	PHRASE_PERIOD_CARRIED_WHITE,
	PHRASE_PERIOD_CARRIED_BLACK,
	PHRASE_ARBITER_RESUMES,	   /* pause while the clocks stand (tournament): the arbiter starts
				      them */
	PHRASE_POWER_UNDERVOLTAGE, /* the Pi's supply is too weak ([power]) */
	PHRASE_POWER_ON_BATTERY,   /* the mains are gone: on the UPS's battery */
	PHRASE_POWER_BATTERY_LOW,  /* on a battery that is nearly empty */
	PHRASE_POWER_PERCENT,	   /* "{count} Prozent": the battery's charge */
	PHRASE_POWER_OK,	   /* the power is fine again */
	PHRASE_ENGINE_PLAYS_WHITE, /* training (docs/training.md "Training and study"): the computer
				      plays White */
	PHRASE_ENGINE_PLAYS_BLACK,
	PHRASE_ENGINE_OFF,     /* the training process stopped */
	PHRASE_ENGINE_MISSING, /* its engine could not be started */
	PHRASE_ENGINE_DIED,
	PHRASE_ENGINE_HUNG,
	PHRASE_ENGINE_NONSENSE,
	PHRASE_ENGINE_GONE,	 /* its connection closed without a word */
	PHRASE_ENGINE_NOT_READY, /* the menu's training chosen, no training process waiting */
	PHRASE_TRAIN_REQUESTED,
	PHRASE_TAKEBACK,  /* moves taken back: set the position up */
	PHRASE_MENU_HINT, /* the menu's items in casual play */
	PHRASE_MENU_TAKEBACK,
	PHRASE_MENU_TRAIN,
	PHRASE_MENU_END_REVIEW,
	PHRASE_REVIEW_SETUP, /* a review begins: set up its start position */
	PHRASE_REVIEW_READY, /* the board shows it; the buttons step */
	PHRASE_REVIEW_START_OF_GAME,
	PHRASE_REVIEW_END_OF_GAME,
	PHRASE_REVIEW_ENDED,
	PHRASE_REVIEW_RETURN,
	PHRASE_HINT,		  /* before the engine's suggested move */
	PHRASE_REVIEW_BACK,	  /* before the move taken back in a review */
	PHRASE_REVIEW_MOVE_WHITE, /* before a move in a review: its number and side */
	PHRASE_REVIEW_MOVE_BLACK,
	PHRASE_REVIEW_WHITE_TO_MOVE, /* where are we: the side to move */
	PHRASE_REVIEW_BLACK_TO_MOVE,
	PHRASE_REVIEW_LENGTH,	   /* where are we: the game's last move number */
	PHRASE_REVIEW_SETUP_FIRST, /* a step before the start position is on the board */
	PHRASE_REVIEW_END_OF_VARIATION,
	PHRASE_REVIEW_NO_VARIATION, /* no variation branches here (none to leave) */
	PHRASE_REVIEW_ALOUD,	    /* the review is said on the speaker too */
	PHRASE_REVIEW_QUIET,	    /* in the earphone only */
	PHRASE_MENU_REVIEW_GOTO,    /* the menu's items in a review */
	PHRASE_MENU_REVIEW_LEAVE,
	PHRASE_MENU_REVIEW_ALOUD,
	PHRASE_MENU_REVIEW_QUIET,
	PHRASE_REVIEW_VARIATION,   /* before a variation's move, and where we are in one */
	PHRASE_REVIEW_LEFT,	   /* out of a variation, before where we are */
	PHRASE_REVIEW_VARIATIONS,  /* the variations that branch here */
	PHRASE_REVIEW_COMMENT,	   /* before a move's comment */
	PHRASE_REVIEW_COMMENT_CUE, /* a move has a comment ([training] review-comments = request) */
	PHRASE_REVIEW_GOTO_PROMPT, /* a move to go to is chosen with the buttons */
	PHRASE_REVIEW_GOTO_MOVE,   /* the move chosen */
	PHRASE_MENU_GAMES,	   /* the menu's item in casual play: the finished games */
	PHRASE_GAMES_NONE,	   /* no finished game is kept */
	PHRASE_GAMES_ITEM,	   /* a finished game: "Partie {count}:", then its players */
	PHRASE_GAMES_AGAINST,	   /* between the players' names */
	PHRASE_GAMES_NO_RESULT,	   /* a game kept without a result */
	PHRASE_WHITE,		   /* a side's name alone (the braille display's lists of pieces) */
	PHRASE_BLACK,
	PHRASE_MENU_LAST_MOVES, /* the menu's item: the last moves of both sides */
	PHRASE_LAST_MOVES,	/* before the last moves (repeat held, the menu, last-moves) */
	/* Online play (docs/online.md "Playing online"): */
	PHRASE_ONLINE_CONNECTION_LOST,
	PHRASE_ONLINE_CONNECTED,
	PHRASE_ONLINE_TOKEN_INVALID,
	PHRASE_ONLINE_RATE_LIMITED,
	PHRASE_ONLINE_SERVER_DOWN,
	PHRASE_ONLINE_SEEKING,
	PHRASE_ONLINE_NO_OPPONENT,
	PHRASE_ONLINE_CHALLENGE_SENT,
	PHRASE_ONLINE_CHALLENGE_DECLINED,
	PHRASE_ONLINE_CHALLENGE_WAITING,
	PHRASE_ONLINE_CHALLENGE_HERE,
	PHRASE_ONLINE_CHALLENGE_UNPLAYABLE,
	PHRASE_ONLINE_TIME_CONTROL,
	PHRASE_ONLINE_REFUSED,
	PHRASE_ONLINE_TAKEBACK_DECLINED,
	PHRASE_ONLINE_DRAW_DECLINED,
	PHRASE_ONLINE_PLAYS_WHITE,
	PHRASE_ONLINE_PLAYS_BLACK,
	PHRASE_ONLINE_SETUP,
	PHRASE_ONLINE_MOVE_REFUSED,
	PHRASE_ONLINE_TAKEBACK_ASKED,
	PHRASE_ONLINE_TAKEBACK_SENT,
	PHRASE_ONLINE_OPPONENT_GONE,
	PHRASE_ONLINE_OPPONENT_BACK,
	PHRASE_ONLINE_CLAIM_POSSIBLE,
	PHRASE_ONLINE_ABORTED,
	PHRASE_ONLINE_NOT_READY,
	PHRASE_ONLINE_REQUESTED,
	PHRASE_ONLINE_GONE,
	PHRASE_MENU_ONLINE,
	PHRASE_MENU_ABORT,
	PHRASE_MENU_DECLINE_DRAW,
	PHRASE_MENU_ACCEPT_TAKEBACK,
	PHRASE_MENU_DECLINE_TAKEBACK,
	PHRASE_MENU_CLAIM_VICTORY,
	PHRASE_MENU_CLAIM_DRAW_GONE,
	PHRASE_VOICE_FALLBACK,	 /* the chosen voice cannot speak: eSpeak NG's own speaks */
	PHRASE_STORAGE_REPLACED, /* the state directory was removed or replaced: all written
				    again */
	/* What a recovery lost, after PHRASE_RECOVERY_INCOMPLETE: */
	PHRASE_RECOVERED_FROM_SCORESHEET, /* game.pgn was the only copy left */
	PHRASE_RECOVERY_MOVES_LOST,	  /* "Verlorene Züge: {count}" */
	PHRASE_RECOVERY_READINGS_LOST,	  /* moves recovered without their [%clk] reading */
	PHRASE_RECOVERY_OTHER_GAME,	  /* a journal of another game was set aside */
	PHRASE_ENGINE_PLAYS_WHITE_ELO,	  /* training: the computer plays White at Elo {count} */
	PHRASE_ENGINE_PLAYS_BLACK_ELO,
	PHRASE_ENGINE_PLAYS_WHITE_LEVEL, /* at level {count} */
	PHRASE_ENGINE_PLAYS_BLACK_LEVEL,
	PHRASE_ENGINE_ELO_LOWEST,  /* the rating asked was below the engine's lowest, {count} */
	PHRASE_ENGINE_ELO_HIGHEST, /* above its highest */
	PHRASE_ENGINE_LOST_HOW_ON, /* the engine is gone mid-game: the clocks stand, how to go on */
	PHRASE_ENGINE_LOST_PAUSE,  /* the same where the menu offers no training game */
	PHRASE_ENGINE_ACCEPTS_DRAW, /* the player's draw offer, answered by the engine */
	PHRASE_ENGINE_DECLINES_DRAW,
	PHRASE_MENU_EVAL,	 /* the menu's item with an engine playing: its evaluation */
	PHRASE_MENU_REVIEW_PLAY, /* in a review: a new game from the position shown */
	PHRASE_NEW_GAME_SETUP,	 /* a new game from a position: set it up */
	PHRASE_EVAL_LEVEL,	 /* the engine's evaluation in words */
	PHRASE_EVAL_WHITE_SLIGHTLY,
	PHRASE_EVAL_BLACK_SLIGHTLY,
	PHRASE_EVAL_WHITE_PAWN,
	PHRASE_EVAL_BLACK_PAWN,
	PHRASE_EVAL_WHITE_PAWNS,
	PHRASE_EVAL_BLACK_PAWNS,
	PHRASE_EVAL_WHITE_WINNING,
	PHRASE_EVAL_BLACK_WINNING,
	PHRASE_EVAL_WHITE_MATES,
	PHRASE_EVAL_BLACK_MATES,
	PHRASE_EVAL_WHITE_MATES_NEXT, /* mate with the next move */
	PHRASE_EVAL_BLACK_MATES_NEXT,
	PHRASE_ID_COUNT
};

/* The slots a phrase may hold, each filled from phrase_args: {square} in Appendix D words,
 * {piece} the German piece name, {time} {white} {black} durations and {count} a number in
 * the interface language. */
struct phrase_args {
	int square;
	enum chess_piece_type piece;
	uint64_t time_ms, white_ms, black_ms;
	int count;
};
/* A phrase of the interface language's table as written, slots and all ("{square} stimmt");
 * every id exists in every language with the same slots (tests/unit/test_phrases.c). */
const char *phrase_text(enum phrase_lang lang, enum phrase_id id);
/* A phrase with its slots filled, appended to u in segments. */
void phrase_add(struct utterance *u, const struct phrase_options *o, enum phrase_id id,
		const struct phrase_args *a);
/* A move (as phrase_move) appended to u: German words, national numerals in their
 * language.  Returns true if the move announces mate (", Matt"). */
bool phrase_add_move(struct utterance *u, const struct phrase_options *o,
		     const struct chess_pos *before, chess_move m);
/* German text (a piece name) appended to u. */
void phrase_add_german(struct utterance *u, const char *text);
/* A promotion choice: "Dame", "Turm", "Läufer", "Springer" (Appendix D: German names,
 * since the announcement names the piece in German). */
const char *phrase_piece(enum chess_piece_type type);
/* Mismatch guidance for one square: "Eva vier sollte leer sein" / "... sollte besetzt sein:
 * Springer" (square and piece in Appendix D words, the rest in the interface language);
 * piece CHESS_NO_PIECE: not named. */
size_t phrase_square_should(const struct phrase_options *o, int sq, bool should_be_occupied,
			    enum chess_piece_type piece, char *buf, size_t size);

/* The phrase tables, one per language (voice/phrases_de.c ...). */
extern const char *const phrases_de[PHRASE_ID_COUNT];
extern const char *const phrases_en[PHRASE_ID_COUNT];
extern const char *const phrases_sv[PHRASE_ID_COUNT];
extern const char *const phrases_nl[PHRASE_ID_COUNT];

#endif
