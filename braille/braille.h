/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The scoresheet in braille (D.2.7) and on paper (Appendix C).  Pure: data in, strings out.
 *
 * Cells are ISO 11548-1 bit patterns: dot n is bit n - 1 (dot 1 = 0x01 ... dot 8 = 0x80),
 * the Unicode character is U+2800 + pattern.  Only six-dot cells are produced.
 *
 * The chess code
 * --------------
 * Moves follow the Braille Chess Association's "Braille Chess Code and Layout" (UKAAF
 * 2015, braillechess.org.uk/resources/braille.php).  The move numbers, lower-cell digits and
 * piece letters below are as the code's own examples show them; the capture, check and mate
 * signs come from a published reading of its sections 2.2 and 3 that we could not check
 * against the full text:
 *   - pieces by letters: king k (dots 13), queen q (12345), rook r (1235), bishop l (123),
 *     knight s (234); pawns have no letter;
 *   - files are the letters a-h; ranks and move numbers are lower-cell digits without a
 *     numeric indicator: 1 dots 2, 2 dots 23, 3 dots 25, 4 dots 256, 5 dots 26, 6 dots 235,
 *     7 dots 2356, 8 dots 236, 9 dots 35, 0 dots 356 (e.g. "2. Nf3" = ⠆ ⠎⠋⠒);
 *   - a capture is dots 56 before the target square, a check dots 45 before it, a capturing
 *     check dots 456 ("cxd5" = ⠉⠰⠙⠢, "f5+" = ⠘⠋⠢, "Rxf4+" = ⠗⠸⠋⠲);
 *   - disambiguation as in print ("Nce5" = ⠎⠉⠑⠢, "N1c3" = ⠎⠂⠉⠒);
 *   - mate is dots 345 followed by m after the move ("Re8#" = ⠗⠑⠦⠜⠍), without a check sign;
 *   - en passant needs no sign: the square shows it;
 *   - a move number is followed by a space; a first move that is Black's has dots 36 before
 *     it (print's "1...").
 * Assumptions, where no text of the code was at hand (revisit against the printed code):
 *   - castling is written with lower zeros joined by dots 36: "0-0" = ⠴⠤⠴,
 *     "0-0-0" = ⠴⠤⠴⠤⠴; a check sign goes before it, mate after it, as for other moves;
 *   - a promotion is the target square followed by the new piece's letter ("e8=Q" =
 *     ⠑⠦⠟, as "e8D" on paper);
 *   - results use lower digits: "1-0" = ⠂⠤⠴, "0-1" = ⠴⠤⠂, "1/2-1/2" = ⠂⠌⠆⠤⠂⠌⠆;
 *   - a draw offer (Art. 8.1.5) is "(=)" in Unified English Braille after the move:
 *     ⠐⠣⠐⠶⠐⠜;
 *   - names and other tag text are uncontracted (grade 1) UEB: capital sign dots 6 (dots 6,6
 *     for a word in capitals), numbers with the numeric indicator dots 3456.
 *
 * Layout: the tag lines (White - Black, Event, Date), a blank line, one move pair per line
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

/* One move from its SAN ("Nbd7", "exd6", "e8=Q+", "O-O-O#"; also 0-0, "e8Q", a trailing
 * "e.p."); returns the number of cells, or -1 if the text is not SAN or max is too small. */
int braille_move_from_san(const char *san, braille_cell *cells, size_t max);
/* One legal move in pos (through chess_move_to_san). */
int braille_move(const struct chess_pos *pos, chess_move m, braille_cell *cells, size_t max);
/* A number in lower cells (move numbers); returns the count, or -1. */
int braille_lower_number(unsigned number, braille_cell *cells, size_t max);
/* UTF-8 text in uncontracted UEB (see above); characters without a rule become dots
 * 123456.  Returns the count (at most max: the rest is dropped). */
size_t braille_text(const char *utf8, braille_cell *cells, size_t max);

/* Unicode braille (3 bytes per cell); returns the length without the NUL. */
size_t braille_to_utf8(const braille_cell *cells, size_t count, char *buf, size_t size);
/* North American ASCII braille; dots 7 and 8 are dropped. */
char braille_to_brf_char(braille_cell cell);
/* The cell for a BRF character (lower case taken as upper); -1 if none. */
int braille_from_brf_char(char ch);

struct scoresheet_tags {
	const char *white, *black, *event, *date;
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

struct braille_layout {
	int cells_per_line; /* 0: 40 */
	int lines_per_page; /* BRF form feeds after so many lines; 0: no pages */
};

/* The braille scoresheet as a malloc'd string (UTF-8 lines ending in "\n", or BRF); NULL
 * with errno EINVAL (a move that is not legal / not SAN) or ENOMEM.  layout may be NULL. */
char *braille_scoresheet(const struct scoresheet_game *game, enum braille_format format,
			 const struct braille_layout *layout);
char *braille_scoresheet_san(const struct scoresheet_san *sheet, enum braille_format format,
			     const struct braille_layout *layout);

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
