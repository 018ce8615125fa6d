/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a refreshable braille display shows during a game, and how its keys move through it.
 * Pure: moves and clock readings in, the cells of the display's window out.  The BrlAPI side
 * (braille/display.c) owns one panel and feeds it.
 *
 * The panel is a short document of lines that the display's window moves over:
 *   line 0          the last move with its number: BCA code "12 ⠎⠋⠒", Black "12 ⠤⠎⠋⠒"
 *                   (BCA 2015 1.2), or computer braille "12. Nf3", "12... Nf3";
 *   line 1          the clocks, White's then Black's, H:MM:SS, only after show_clock and
 *                   until the next move (UEB numbers in the BCA notation);
 *   then            the scoresheet, one move pair a line, as on the braille scoresheet.
 * Panning right goes along a long line window by window, then to the start of the next line;
 * panning left goes back the same way.  A new move brings the window back to line 0, a
 * clock reading to the clock line.
 *
 * The page view (the braille scoresheet page by page, from the button menu): the lines of
 * one page of the embosser's BRF scoresheet (braille_scoresheet_san with pages), its page
 * number included.  Line and panning keys go on across pages; top and bottom go to the
 * page's first and last line; home, a new move or a clock reading leave the page view.  A
 * review's view (braille_review_brf()) is a page view of one page.
 *
 * A message (what the device says to the player, for one who cannot hear it: [braille]
 * messages) lies over whatever view is shown, from its first line: the line and panning keys
 * move through it, and panning on past its end (or a line down past its last line), a new move
 * or a clock reading take it away, the view under it as it was (home too, and goes home).
 * Another message takes its place.
 */
#ifndef ANNABELLA_BRAILLE_PANEL_H
#define ANNABELLA_BRAILLE_PANEL_H

#include <stdbool.h>
#include <stdint.h>

#include "braille/braille.h"
#include "chess/chess.h"

/* Plies a panel's scoresheet holds; later moves are still shown as the last move. */
#define BRAILLE_PANEL_MAX_PLIES 1024
/* Cells of one line (a move pair with two draw offers fits). */
#define BRAILLE_PANEL_LINE_MAX 64
/* Widest display served (BrlAPI displays are at most a few rows of 80). */
#define BRAILLE_PANEL_WIDTH_MAX 256
/* The page view's lines and cells in all (a 1024-ply sheet on 25-line pages fits). */
#define BRAILLE_PANEL_PAGE_LINES 1536
#define BRAILLE_PANEL_PAGE_CELLS (BRAILLE_PANEL_PAGE_LINES * 48)
/* A message's lines and cells in all (several utterances of one event). */
#define BRAILLE_PANEL_MESSAGE_LINES 32
#define BRAILLE_PANEL_MESSAGE_CELLS (BRAILLE_PANEL_MESSAGE_LINES * 48)

enum braille_notation {
	BRAILLE_NOTATION_BCA = 0, /* the chess code of braille.h */
	BRAILLE_NOTATION_COMPUTER /* the SAN in eight-dot computer braille */
};

/* What a key of the display asks of the game; the rest the panel does itself. */
enum braille_command { BRAILLE_COMMAND_NONE = 0, BRAILLE_COMMAND_INFO, BRAILLE_COMMAND_REPEAT };

enum braille_panel_key {
	BRAILLE_KEY_PAN_LEFT,
	BRAILLE_KEY_PAN_RIGHT,
	BRAILLE_KEY_LINE_UP,
	BRAILLE_KEY_LINE_DOWN,
	BRAILLE_KEY_TOP,
	BRAILLE_KEY_BOTTOM,
	BRAILLE_KEY_HOME
};

struct braille_panel_move {
	char san[CHESS_SAN_MAX];
	bool draw_offered;
};

struct braille_panel {
	enum braille_notation notation;
	enum braille_signs signs; /* where the BCA notation puts check and capture signs */
	int width;		  /* cells of the display's window, 1..BRAILLE_PANEL_WIDTH_MAX */
	/* The scoresheet. */
	int first_number;
	enum chess_color first_color;
	int plies;
	int ply_base; /* the caller's ply number of the sheet's first move, minus one */
	struct braille_panel_move moves[BRAILLE_PANEL_MAX_PLIES];
	/* The last move: its SAN, number and colour (also when the sheet is full). */
	bool have_last;
	char last_san[CHESS_SAN_MAX];
	int last_number;
	enum chess_color last_color;
	/* The clocks, when asked for. */
	bool clock_shown;
	int64_t white_ms, black_ms;
	/* The page view: 0, the game's view; else the page shown (1 the first). */
	int page;
	int page_count;
	int page_lines;				      /* lines of every page */
	int page_first[BRAILLE_PANEL_PAGE_LINES];     /* each page's first line */
	int line_start[BRAILLE_PANEL_PAGE_LINES + 1]; /* each line's first cell */
	braille_cell page_cells[BRAILLE_PANEL_PAGE_CELLS];
	/* The message over the view, and the view's window under it. */
	bool message_on;
	int message_lines;
	int message_start[BRAILLE_PANEL_MESSAGE_LINES + 1];
	braille_cell message_cells[BRAILLE_PANEL_MESSAGE_CELLS];
	int under_line, under_offset;
	/* The window. */
	int line;
	int offset;
};

void braille_panel_init(struct braille_panel *p, enum braille_notation notation, int width);
/* A new window width (another display); the window stays on its line. */
void braille_panel_set_width(struct braille_panel *p, int width);

/* The same from SAN, the move's number and colour. */
void braille_panel_move_san(struct braille_panel *p, int ply, const char *san, int number,
			    enum chess_color color);
void braille_panel_clock(struct braille_panel *p, int64_t white_ms, int64_t black_ms);
/* The whole scoresheet at once (after a resume, a rollback, a draw offer); the last move
 * becomes the sheet's last.  Plies beyond BRAILLE_PANEL_MAX_PLIES are left out. */
void braille_panel_sheet(struct braille_panel *p, const struct scoresheet_san *sheet);

/* The page view of a paged BRF scoresheet (form feeds between pages, CR LF lines): page
 * `page` (1 the first; past the last, the first again).  Returns the page shown, or 0 if
 * the text has no line (the view is left as it was).  *count: the number of pages. */
int braille_panel_pages(struct braille_panel *p, const char *brf, int page, int *count);

/* A message of BRF lines (CR LF) over the view: 0, or -1 when it has no line (nothing
 * changed). */
int braille_panel_message(struct braille_panel *p, const char *brf);

/* The number of lines. */
int braille_panel_lines(const struct braille_panel *p);

/* The window: exactly p->width cells, blank past the line's end. */
void braille_panel_window(const struct braille_panel *p, braille_cell *cells);
/* A navigation key; returns true if the window moved. */
bool braille_panel_key(struct braille_panel *p, enum braille_panel_key key);
/* A routing key over cell `cell` of the window (0 = leftmost): over the last move (number
 * and move) it is `repeat`; past it on that line, or on the clock line, `info`. */
enum braille_command braille_panel_route(const struct braille_panel *p, int cell);

#endif
