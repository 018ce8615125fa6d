/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a review shows on the braille display (braille.h, docs/braille.md "Live braille display
 * (BrlAPI)"): the move shown in the chess code, its comment, and the position as two lists of
 * pieces.
 */
#include "braille/braille.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

#define CELL_BLACK_MOVE ((braille_cell)(BRAILLE_DOT(3) | BRAILLE_DOT(6))) /* BCA 2015 1.2 */
#define WORD_MAX	64

/* Lines of BRF being filled word by word, each at most `width` cells. */
struct lines {
	struct strbuf out;
	int width;
	int used; /* cells on the line being filled */
};

static void end_line(struct lines *l)
{
	if (l->used)
		strbuf_append(&l->out, "\r\n", 2);
	l->used = 0;
}

/* A word (no blank in it) after a blank, or on a new line when it does not fit; a word longer
 * than a line goes on lines of its own. */
static void word(struct lines *l, const braille_cell *cells, int n)
{
	char brf[WORD_MAX];

	if (n <= 0)
		return;
	if (l->used && l->used + 1 + n > l->width)
		end_line(l);
	if (l->used) {
		strbuf_append(&l->out, " ", 1);
		l->used++;
	}
	for (int i = 0; i < n; i++) {
		if (l->used == l->width)
			end_line(l);
		brf[0] = braille_to_brf_char(cells[i]);
		strbuf_append(&l->out, brf, 1);
		l->used++;
	}
}

/* UTF-8 text in uncontracted UEB, word by word. */
static void text(struct lines *l, const char *utf8)
{
	if (!utf8)
		return;
	while (*utf8) {
		char w[WORD_MAX];
		braille_cell cells[WORD_MAX];
		size_t n = strcspn(utf8, " ");

		if (n && n < sizeof(w)) {
			memcpy(w, utf8, n);
			w[n] = '\0';
			word(l, cells, (int)braille_text(w, cells, WORD_MAX));
		}
		utf8 += n;
		while (*utf8 == ' ')
			utf8++;
	}
}

/* A piece on its square in the chess code: its letter (none for a pawn), file, lower rank. */
static int piece_cells(int piece, int sq, braille_cell *cells)
{
	static const braille_cell letters[] = {
	    [CHESS_PAWN] = 0,
	    [CHESS_KNIGHT] = BRAILLE_DOT(2) | BRAILLE_DOT(3) | BRAILLE_DOT(4),
	    [CHESS_BISHOP] = BRAILLE_DOT(1) | BRAILLE_DOT(2) | BRAILLE_DOT(3),
	    [CHESS_ROOK] = BRAILLE_DOT(1) | BRAILLE_DOT(2) | BRAILLE_DOT(3) | BRAILLE_DOT(5),
	    [CHESS_QUEEN] =
		BRAILLE_DOT(1) | BRAILLE_DOT(2) | BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5),
	    [CHESS_KING] = BRAILLE_DOT(1) | BRAILLE_DOT(3),
	};
	char square[3] = {(char)('a' + sq % 8), 0, 0};
	int n = 0;

	if (letters[piece])
		cells[n++] = letters[piece];
	n += (int)braille_text(square, cells + n, 1);
	n += braille_lower_number((unsigned)(sq / 8 + 1), cells + n, 4);
	return n;
}

/* One side's pieces, the king first, then queens, rooks, bishops, knights and pawns, each
 * kind from a1 on. */
static void side(struct lines *l, const struct chess_pos *pos, int color, const char *label)
{
	static const int order[] = {CHESS_KING,	  CHESS_QUEEN,	CHESS_ROOK,
				    CHESS_BISHOP, CHESS_KNIGHT, CHESS_PAWN};

	text(l, label);
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		for (int sq = 0; sq < 64; sq++) {
			int p = chess_pos_piece_at(pos, sq);
			braille_cell cells[8];

			if (p == CHESS_NO_PIECE || (int)CHESS_PIECE_COLOR(p) != color ||
			    (int)CHESS_PIECE_TYPE(p) != order[k])
				continue;
			word(l, cells, piece_cells(order[k], sq, cells));
		}
	}
	end_line(l);
}

char *braille_review_brf(const struct braille_review *rv, int width)
{
	struct lines l = {.width = width > 0 ? width : BRAILLE_LINE_CELLS_DEFAULT};

	/* The move: its words before it, its number (dots 36 before Black's), its cells. */
	text(&l, rv->before);
	if (rv->san) {
		braille_cell cells[BRAILLE_MOVE_MAX + 16];
		int n = braille_lower_number((unsigned)rv->number, cells, 8);
		int m;

		word(&l, cells, n);
		n = 0;
		if (rv->color == CHESS_BLACK)
			cells[n++] = CELL_BLACK_MOVE;
		m = braille_move_from_san_signs(rv->san, rv->signs, cells + n, BRAILLE_MOVE_MAX);
		if (m > 0)
			word(&l, cells, n + m);
	} else {
		text(&l, rv->none);
	}
	end_line(&l);
	if (rv->comment && rv->comment[0]) {
		struct braille_layout layout = {.cells_per_line = l.width,
						.page_number = BRAILLE_PAGE_NUMBER_NONE,
						.signs = rv->signs};
		char *comment = braille_text_pages(rv->comment, BRAILLE_BRF, &layout);

		if (comment)
			strbuf_append(&l.out, comment, strlen(comment));
		free(comment);
	}
	side(&l, rv->pos, CHESS_WHITE, rv->white);
	side(&l, rv->pos, CHESS_BLACK, rv->black);
	return strbuf_finish(&l.out);
}
