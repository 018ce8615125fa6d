/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The scoresheet in braille (D.2.7) and on paper (Appendix C).  Pure: data in, strings out.
 *
 * Cells are ISO 11548-1 bit patterns: dot n is bit n - 1 (dot 1 = 0x01 ... dot 8 = 0x80),
 * the Unicode character is U+2800 + pattern.  Only six-dot cells are produced.
 *
 * The chess code
 * --------------
 * Moves follow the Braille Chess Association's "Braille Chess Code and Layout" (UKAAF/BCA,
 * 2015 edition; braillechess.org.uk/resources/braille.php), cited below as "BCA 2015 n.n".
 * Of that text only the introduction and sections 1.1-1.4 with their examples could be
 * read; the list of signs itself (2.1 pieces, 2.2 move abbreviations, 2.3 miscellaneous,
 * 3 algebraic notation) could not.  Every sign below says where it comes from; the README
 * has the same table and lists what stays unverified.
 *   - knight s (dots 234): BCA 2015 1.3, example "2. Nf3" = ⠆ ⠎⠋⠒;
 *   - queen q (dots 12345): BCA 2015 1.4, example "queen," = ⠰⠟⠜⠂;
 *   - king k (dots 13), rook r (dots 1235), bishop l (dots 123): the starting position of
 *     BCA 2015 5.1 (diagrams: the same letters, dot 6 added for Black) as a third party
 *     quotes it; the 2.1 list was not seen.  UNVERIFIED.  Pawns have no letter (1.3);
 *   - files are the letters a-h: BCA 2015 1.3 and 1.4 (f, e, a);
 *   - ranks and move numbers are lower-cell digits without a numeric indicator:
 *     BCA 2015 1.3.  Seen in its examples: 1 dots 2, 2 dots 23, 3 dots 25, 4 dots 256,
 *     6 dots 235, 8 dots 236.  5 dots 26, 7 dots 2356, 9 dots 35, 0 dots 356 complete the
 *     lower-digit series (not in an example);
 *   - a move number is followed by a space; a first move that is Black's has dots 36 before
 *     it (print's "1..."): BCA 2015 1.2.  A single move shown alone (the live display) has
 *     dots 36 before Black's move and nothing before White's: 1.2;
 *   - check: dots 345 then p after the move, with no space: BCA 2015 1.4, example
 *     "6. e4+." = ⠖ ⠑⠲⠜⠏⠲ ("f5+" = ⠋⠢⠜⠏).  2.2 abbreviations need no dots 345 before
 *     following punctuation (1.4);
 *   - mate: dots 345 then m after the move ("Re8#" = ⠗⠑⠦⠜⠍), in place of the check sign:
 *     the form of 1.4's check sign; the 2.2 entry was not seen.  UNVERIFIED;
 *   - capture: no sign by default.  Print may leave out "x" (FIDE Appendix C) and the code
 *     asks for "the minimum amount of coding" (introduction), so a capture is written as its
 *     move: "cxd5" = ⠉⠙⠢ (the pawn's file stays), "Nxe5" = ⠎⠑⠢.  A third party quotes 3.4
 *     with capture dots 56, check dots 45, both dots 456 before the square: the sources
 *     disagree, so that form is a setting (enum braille_signs below; docs/braille.md "Braille");
 *   - disambiguation as in print ("Nce5" = ⠎⠉⠑⠢, "N1c3" = ⠎⠂⠉⠒): UNVERIFIED (3);
 *   - en passant needs no sign: the BCA's page on algebraic notation
 *     (braillechess.org.uk/resources/algebraic-notation.php): "obvious from the square";
 * Not seen in any text of the code (UNVERIFIED, kept until the printed code is at hand):
 *   - castling: lower zeros joined by dots 36: "0-0" = ⠴⠤⠴, "0-0-0" = ⠴⠤⠴⠤⠴; a check or
 *     mate sign after it as for other moves;
 *   - promotion: the target square followed by the new piece's letter ("e8=Q" = ⠑⠦⠟, as
 *     "e8D" on paper, Appendix C);
 *   - results in lower digits: "1-0" = ⠂⠤⠴, "0-1" = ⠴⠤⠂, "1/2-1/2" = ⠂⠌⠆⠤⠂⠌⠆;
 *   - a draw offer (Art. 8.1.5) is "(=)" in Unified English Braille after the move and a
 *     space: ⠐⠣⠐⠶⠐⠜ (1.4: no dots 345 before a bracket);
 *   - names and other tag text are uncontracted (grade 1) UEB: capital sign dots 6 (dots 6,6
 *     for a word in capitals), numbers with the numeric indicator dots 3456, the en dash as
 *     the UEB dash dots 6, 36, accented letters with their UEB modifier (docs/braille.md "Braille"
 *     lists what each character becomes).
 *
 * Layout: the tag lines (White – Black, Event, Date), a blank line, one move pair per line
 * "number white black", then the result.  Lines hold at most `cells_per_line` cells (40 for
 * an embosser); longer lines wrap at a blank cell (or are cut when a word is longer).
 *
 * BRF is North American ASCII braille: each six-dot cell is one of the 64 characters from
 * space to underscore (dots 1 'A', dots 2 '1', dots 3456 '#', ...), lines end with CR LF
 * and, when pages are asked for, a form feed starts each new page.
 */
#ifndef ANNABELLA_BRAILLE_H
#define ANNABELLA_BRAILLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"

typedef uint8_t braille_cell;
#define BRAILLE_DOT(n) ((braille_cell)(1u << ((n)-1)))

/* Enough cells for any one move. */
#define BRAILLE_MOVE_MAX 16

/*
 * Where the check and capture signs go (docs/braille.md "Braille": the sources disagree).
 *   BRAILLE_SIGNS_AFTER (the default): check dots 345 p after the move, mate dots 345 m, no
 *     capture sign: the BCA's published code as it prints it, BCA 2015 1.4, example
 *     "6. e4+." = ⠖ ⠑⠲⠜⠏⠲;
 *   BRAILLE_SIGNS_BEFORE_SQUARE: capture dots 56, check dots 45, a checking capture dots 456
 *     before the target square ("cxd5" ⠉⠰⠙⠢, "f5+" ⠘⠋⠢, "Rxf4+" ⠗⠸⠋⠲); mate dots 345 m
 *     after the move: BCA 2015 3.4 and 2.2 as a third party quotes them (not seen in the
 *     code's own text).  Castling has no square: its check or mate goes after it as above.
 */
enum braille_signs { BRAILLE_SIGNS_AFTER = 0, BRAILLE_SIGNS_BEFORE_SQUARE };

/* One move from its SAN ("Nbd7", "exd6", "e8=Q+", "O-O-O#"; also 0-0, "e8Q", a trailing
 * "e.p."); returns the number of cells, or -1 if the text is not SAN or max is too small.
 * Signs as BRAILLE_SIGNS_AFTER. */
int braille_move_from_san(const char *san, braille_cell *cells, size_t max);
/* The same with the signs where `signs` puts them. */
int braille_move_from_san_signs(const char *san, enum braille_signs signs, braille_cell *cells,
				size_t max);
/* One legal move in pos (through chess_move_to_san). */
int braille_move(const struct chess_pos *pos, chess_move m, braille_cell *cells, size_t max);
/* A number in lower cells (move numbers); returns the count, or -1. */
int braille_lower_number(unsigned number, braille_cell *cells, size_t max);
/* UTF-8 text in uncontracted UEB (see above); characters without a rule become dots
 * 123456.  Returns the count (at most max: the rest is dropped). */
size_t braille_text(const char *utf8, braille_cell *cells, size_t max);

/* ASCII text (a move's SAN, a clock) in computer braille: the North American Braille
 * Computer Code with eight dots, as BRLTTY's "en-nabcc" text table has it: the BRF cells for
 * space to '?', the same cells with dot 7 for '@' to '^' (upper-case letters among them),
 * '_' dots 456, and '`' to '~' as '@' to '^' without dot 7.  Other bytes become dots
 * 12345678.  Returns the count (at most max). */
size_t braille_computer_text(const char *ascii, braille_cell *cells, size_t max);

/* Unicode braille (3 bytes per cell); returns the length without the NUL. */
size_t braille_to_utf8(const braille_cell *cells, size_t count, char *buf, size_t size);
/* North American ASCII braille; dots 7 and 8 are dropped. */
char braille_to_brf_char(braille_cell cell);
/* The cell for a BRF character (lower case taken as upper); -1 if none. */
int braille_from_brf_char(char ch);

/* The header of a scoresheet, as on FIDE's paper scoresheet: the players, the event, its site,
 * date, round and board, and the device's fair-play state over the game (the PGN tags White,
 * Black, Event, Site, Date, Round, Board, FairPlay); NULL, "" or "?" leave one out. */
struct scoresheet_tags {
	const char *white, *black, *event, *date;
	const char *site, *round, *board, *fairplay;
	const char *result; /* "1-0", "0-1", "1/2-1/2", "*" or NULL */
};

/* A game as the device recorded it. */
struct scoresheet_game {
	const struct chess_pos *start; /* NULL: the initial position */
	const chess_move *moves;
	int count;
	const bool *draw_offered; /* draw_offered[i]: a draw was offered with move i; or NULL */
	struct scoresheet_tags tags;
};

/* The same from SAN, for games the chess core has already written out. */
struct scoresheet_san {
	const char *const *san;
	int count;
	int first_number;	      /* number of the first move (1 unless set up) */
	enum chess_color first_color; /* colour of the first move */
	const bool *draw_offered;
	struct scoresheet_tags tags;
};

enum braille_format { BRAILLE_UNICODE = 0, BRAILLE_BRF };

/* Where a BRF page's number goes: the right margin of its last line (North American
 * practice, BANA Braille Formats: BRF is North American ASCII braille), of its first line
 * (UK practice), or nowhere. */
enum braille_page_number {
	BRAILLE_PAGE_NUMBER_BOTTOM = 0,
	BRAILLE_PAGE_NUMBER_TOP,
	BRAILLE_PAGE_NUMBER_NONE
};

#define BRAILLE_PAGE_LINES_DEFAULT 25 /* an embosser's 11-inch page */
#define BRAILLE_LINE_CELLS_DEFAULT 40
#define BRAILLE_PAGE_LINES_MIN	   4
#define BRAILLE_PAGE_LINES_MAX	   200
#define BRAILLE_LINE_CELLS_MIN	   12
#define BRAILLE_LINE_CELLS_MAX	   200

struct braille_layout {
	int cells_per_line; /* 0: 40 */
	/* BRF only: pages of so many lines, each with its braille page number, a form feed
	 * between them, a move pair never split; 0: one endless page. */
	int lines_per_page;
	enum braille_page_number page_number;
	enum braille_signs signs;
};
/* 40 cells, 25 lines, the number at the bottom, the signs after the move. */
void braille_layout_defaults(struct braille_layout *layout);

/* The braille scoresheet as a malloc'd string (UTF-8 lines ending in "\n", or BRF); NULL
 * with errno EINVAL (a move that is not legal / not SAN) or ENOMEM.  layout NULL: the
 * defaults.  Only BRF is paged: the Unicode sheet is one page for screens and displays.
 *
 * BRF pages: each holds lines_per_page lines (CR LF each); a form feed goes between pages;
 * the page number ("#A" for 1: UEB numeric indicator and digits) stands alone at the right
 * margin of the page's last (or first) line, so the last page is filled with blank lines
 * when the number is at the bottom.  The tag lines, a move pair's line (wrapped or not) and
 * the result are never split across pages; the blank line after the tags is left out at
 * the top of a page. */
char *braille_scoresheet(const struct scoresheet_game *game, enum braille_format format,
			 const struct braille_layout *layout);
char *braille_scoresheet_san(const struct scoresheet_san *sheet, enum braille_format format,
			     const struct braille_layout *layout);
/* Text (UTF-8: paragraphs of lines, a blank line between them) in braille on the same pages
 * and with the same line division as the scoresheet's header, each paragraph from a new line
 * with a blank line after it: a guide, a manual. */
char *braille_text_pages(const char *text, enum braille_format format,
			 const struct braille_layout *layout);

/* What a review shows on the live display (docs/braille.md "Live braille display (BrlAPI)"), in BRF
 * lines of at most `width` cells: the move shown (its number, dots 36 before Black's, the chess
 * code) after the words `before` (a variation's), or the words `none` at the start; its comment
 * divided as the header's text; then each side's pieces after its word (`white`, `black`):
 * the king, queens, rooks, bishops, knights, pawns, each as its letter (none for a pawn) and
 * its square ("Kg1" ⠅⠛⠂, "e4" ⠑⠲).  Malloc'd; NULL when out of memory. */
struct braille_review {
	const char *before; /* or NULL */
	int number;
	enum chess_color color;
	const char *san; /* NULL: no move shown */
	const char *none;
	const char *comment; /* or NULL */
	const struct chess_pos *pos;
	const char *white, *black;
	enum braille_signs signs;
};
char *braille_review_brf(const struct braille_review *rv, int width);

/*
 * The paper scoresheet of Appendix C (export "text"): German letters K D T L S through
 * chess_move_to_local ("Sf3", "0-0", "d8D"), a draw offer marked "(=)" after the move, the
 * tags above and the result below:
 *
 *   White: Anna
 *   Black: Bella
 *   Event: Club
 *   Date: 2024.03.15
 *
 *     1. e4         e5
 *     2. Sf3 (=)    Sc6
 *
 *   Result: 1-0
 *
 * Malloc'd; NULL with errno EINVAL (an illegal move) or ENOMEM.
 */
char *scoresheet_text(const struct scoresheet_game *game);

#endif
