/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The arbiter at the board, without a phone or a terminal: a menu on the board's buttons
 * and the clock display, opened by a chord and the arbiter PIN entered on the buttons.  It
 * gives what the arbiter does at a clock (FIDE: correct the time and the move counter
 * within a minute): start the clocks again, set both times and move counters, and rule on a
 * flag (or on a result a rule left to the arbiter).  Its choices are the control commands
 * (resume, clock set, result), given as the arbiter, author "board+pin", journaled and in
 * control.log like any other.
 *
 *   CLOSED ──info and repeat held together CHORD_MS──▶ PIN
 *   PIN ──the right PIN──▶ MENU (the clocks stop, as the arbiter stops them to intervene)
 *   PIN ──a wrong PIN──▶ PIN (counted by the control socket's PIN budget, docs/control.md "Control
 *interface", base/pinguard.h: five free, then a wait that doubles from 2 s, so at most ten a
 *minute) MENU ──set clocks──▶ EDIT ──a clock button: set──▶ MENU;  EDIT ──pause──▶ MENU MENU
 *──start the clocks, a result, close──▶ CLOSED;  any ──pause, or unused──▶ CLOSED
 *
 * Buttons while it is open (none of them does what it does in play; a clock press is no
 * press):
 *	PIN:  select  one more for the digit being entered (pressed as often as the digit,
 *		      not at all for 0)
 *	      repeat  the digit is entered
 *	      info    check the PIN entered
 *	MENU: select  the next item; info the one before; repeat  choose it
 *	EDIT: select  the next field (White's hours, minutes, seconds, moves, then Black's);
 *	      repeat  one up, info one down (held: ten a second after half a second);
 *	      either clock button: set the clocks so
 *	all:  pause   back (EDIT to MENU) or close
 * The PIN is never journaled, shown or spoken: the display shows a star per digit.
 */
#ifndef ANNABELLA_BOARD_ARBITER_H
#define ANNABELLA_BOARD_ARBITER_H

#include <stdbool.h>
#include <stdint.h>

#define BOARD_ARBITER_CHORD_MS 2000  /* info and repeat held together this long */
#define BOARD_ARBITER_PIN_MS   30000 /* the PIN prompt closes when unused this long */
#define BOARD_ARBITER_MENU_MS  60000 /* the menu too */
#define BOARD_ARBITER_PIN_MAX  32
#define BOARD_ARBITER_ITEMS    8

enum board_arbiter_state {
	BOARD_ARBITER_CLOSED = 0,
	BOARD_ARBITER_PIN,
	BOARD_ARBITER_MENU,
	BOARD_ARBITER_EDIT
};

enum board_arbiter_item {
	BOARD_ITEM_RESUME = 0, /* start the clocks again */
	BOARD_ITEM_SET_CLOCKS,
	BOARD_ITEM_RESULT, /* a result: the flag's, or one a rule left to the arbiter */
	BOARD_ITEM_CLOSE,
	BOARD_ITEM_SEAL, /* the fair-play verdict, to read (docs/fairplay.md "Fair play") */
};

/* The editor's fields. */
enum board_arbiter_field {
	BOARD_FIELD_WHITE_H = 0,
	BOARD_FIELD_WHITE_M,
	BOARD_FIELD_WHITE_S,
	BOARD_FIELD_WHITE_MOVES,
	BOARD_FIELD_BLACK_H,
	BOARD_FIELD_BLACK_M,
	BOARD_FIELD_BLACK_S,
	BOARD_FIELD_BLACK_MOVES,
	BOARD_FIELD_COUNT
};

/* What the clock display shows while the menu is open. */
struct board_arbiter_view {
	enum board_arbiter_state state;
	int digits;		      /* PIN: entered */
	int wait_s;		      /* PIN: seconds until a PIN is checked again (0: now) */
	int failures;		      /* PIN: wrong PINs counted (the PIN budget's) */
	enum board_arbiter_item item; /* MENU: the current item */
	char result[8];		      /* its result, for BOARD_ITEM_RESULT */
	int at, count;		      /* MENU: its place */
	int64_t ms[2];		      /* EDIT: the times being set */
	int moves[2];		      /* and the move counters */
	enum board_arbiter_field field;
};

/* The referee's part of it. */
struct board_arbiter {
	enum board_arbiter_state state;
	uint64_t last_ms; /* the last button: the prompt and menu close when unused */
	/* The chord: info and repeat down, since when. */
	bool info_down, repeat_down, chord_used;
	uint64_t info_ms, repeat_ms;
	/* PIN */
	char entered[BOARD_ARBITER_PIN_MAX];
	int n_entered, digit;
	/* MENU */
	int count, at;
	enum board_arbiter_item items[BOARD_ARBITER_ITEMS];
	char results[BOARD_ARBITER_ITEMS][8];
	/* EDIT */
	int64_t ms[2];
	int moves[2];
	enum board_arbiter_field field;
	int held; /* the button held for repeats (info or repeat), -1 none */
	uint64_t held_next_ms;
};

#endif
