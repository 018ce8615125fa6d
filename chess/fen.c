/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * FEN parsing with full validation, FEN formatting, square names.
 *
 * A FEN reaches us from board scripts, PGN SetUp tags and the arbiter; a
 * mistake there must be reported where it is ("column 12: ...") rather than
 * produce a position the rules code cannot handle (two kings, a pawn on the
 * first rank, castling without a rook).  So every field is checked, and the
 * position as a whole must be one that could have arisen: the side that just
 * moved is not in check, the e.p. square sits behind a pawn that could just
 * have advanced two squares.  Four fields (EPD style, counters missing) are
 * accepted with counters 0 and 1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "chess/bitboard.h"

static int fen_fail(struct chess_error *err, int column, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fen_fail(struct chess_error *err, int column, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		err->line = 1;
		err->column = column;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static enum chess_piece_type piece_from_letter(char c)
{
	switch (c | 0x20) {
	case 'p':
		return CHESS_PAWN;
	case 'n':
		return CHESS_KNIGHT;
	case 'b':
		return CHESS_BISHOP;
	case 'r':
		return CHESS_ROOK;
	case 'q':
		return CHESS_QUEEN;
	case 'k':
		return CHESS_KING;
	default:
		return CHESS_NO_PIECE;
	}
}

int chess_square_parse(const char *s)
{
	if (!s || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
		return -1;
	return CHESS_SQ(s[0] - 'a', s[1] - '1');
}

void chess_square_format(int sq, char *buf)
{
	if (sq < 0 || sq > 63) {
		buf[0] = '-';
		buf[1] = 0;
		return;
	}
	buf[0] = (char)('a' + CHESS_FILE(sq));
	buf[1] = (char)('1' + CHESS_RANK(sq));
	buf[2] = 0;
}

/* One whitespace-separated field: where it starts (0-based) and its length. */
struct fen_field {
	int start;
	int len;
};

static int parse_placement(struct chess_pos *pos, const char *fen, struct fen_field f,
			   struct chess_error *err)
{
	int rank = 7, file = 0;

	for (int i = f.start; i < f.start + f.len; i++) {
		char c = fen[i];
		int col = i + 1;
		if (c == '/') {
			if (file != 8)
				return fen_fail(err, col, "rank %d has %d squares, not 8", rank + 1,
						file);
			if (rank == 0)
				return fen_fail(err, col, "more than 8 ranks");
			rank--;
			file = 0;
		} else if (c >= '1' && c <= '8') {
			if (i > f.start && fen[i - 1] >= '1' && fen[i - 1] <= '8')
				return fen_fail(err, col, "two digits in a row");
			file += c - '0';
			if (file > 8)
				return fen_fail(err, col, "rank %d has more than 8 squares",
						rank + 1);
		} else if (c == '0' || c == '9') {
			return fen_fail(err, col, "'%c': empty squares are counted 1 to 8", c);
		} else {
			enum chess_piece_type t = piece_from_letter(c);
			if (t == CHESS_NO_PIECE ||
			    !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
				return fen_fail(err, col, "'%c' is not a piece letter", c);
			if (file >= 8)
				return fen_fail(err, col, "rank %d has more than 8 squares",
						rank + 1);
			if (t == CHESS_PAWN && (rank == 0 || rank == 7))
				return fen_fail(err, col, "pawn on rank %d", rank + 1);
			enum chess_color color = c >= 'a' ? CHESS_BLACK : CHESS_WHITE;
			chess_pos_put(pos, CHESS_SQ(file, rank), CHESS_PIECE(color, t));
			file++;
		}
	}
	if (file != 8)
		return fen_fail(err, f.start + f.len, "rank %d has %d squares, not 8", rank + 1,
				file);
	if (rank != 0)
		return fen_fail(err, f.start + f.len, "%d ranks, not 8", 8 - rank);

	for (int c = 0; c < 2; c++) {
		static const char *const names[2] = {"White", "Black"};
		uint64_t mine = pos->by_color[c];
		int kings = chess_bb_count(mine & pos->by_type[CHESS_KING]);
		int pawns = chess_bb_count(mine & pos->by_type[CHESS_PAWN]);
		int extra = 0;
		/* Pieces beyond the initial set must have been promoted from pawns. */
		static const int initial[7] = {0, 8, 2, 2, 2, 1, 1};
		for (int t = CHESS_KNIGHT; t <= CHESS_QUEEN; t++) {
			int n = chess_bb_count(mine & pos->by_type[t]);
			if (n > initial[t])
				extra += n - initial[t];
		}
		if (kings != 1)
			return fen_fail(err, f.start + 1, "%s has %d kings, not 1", names[c],
					kings);
		if (pawns > 8)
			return fen_fail(err, f.start + 1, "%s has %d pawns", names[c], pawns);
		if (pawns + extra > 8)
			return fen_fail(err, f.start + 1,
					"%s has more promoted pieces than missing pawns", names[c]);
	}
	return 0;
}

static int parse_castling(struct chess_pos *pos, const char *fen, struct fen_field f,
			  struct chess_error *err)
{
	static const struct {
		char letter;
		int bit, king, rook;
		const char *what;
	} rights[4] = {
	    {'K', CHESS_CASTLE_WK, 4, 7, "White king on e1 and rook on h1"},
	    {'Q', CHESS_CASTLE_WQ, 4, 0, "White king on e1 and rook on a1"},
	    {'k', CHESS_CASTLE_BK, 60, 63, "Black king on e8 and rook on h8"},
	    {'q', CHESS_CASTLE_BQ, 60, 56, "Black king on e8 and rook on a8"},
	};

	pos->castling = 0;
	if (f.len == 1 && fen[f.start] == '-')
		return 0;
	for (int i = f.start; i < f.start + f.len; i++) {
		int r;
		for (r = 0; r < 4; r++) {
			if (fen[i] == rights[r].letter)
				break;
		}
		if (r == 4)
			return fen_fail(err, i + 1, "'%c' is not a castling right (KQkq or -)",
					fen[i]);
		if (pos->castling & rights[r].bit)
			return fen_fail(err, i + 1, "castling right '%c' given twice", fen[i]);
		enum chess_color c = r < 2 ? CHESS_WHITE : CHESS_BLACK;
		if (pos->board[rights[r].king] != CHESS_PIECE(c, CHESS_KING) ||
		    pos->board[rights[r].rook] != CHESS_PIECE(c, CHESS_ROOK))
			return fen_fail(err, i + 1, "castling right '%c' needs the %s", fen[i],
					rights[r].what);
		pos->castling |= (uint8_t)rights[r].bit;
	}
	return 0;
}

static int parse_ep(struct chess_pos *pos, const char *fen, struct fen_field f,
		    struct chess_error *err)
{
	int col = f.start + 1;
	char name[3] = {0};
	enum chess_color us = (enum chess_color)pos->side;

	pos->ep_square = CHESS_NO_SQUARE;
	if (f.len == 1 && fen[f.start] == '-')
		return 0;
	if (f.len != 2 || chess_square_parse(fen + f.start) < 0)
		return fen_fail(err, col, "en-passant square must be a square or -");
	int ep = chess_square_parse(fen + f.start);
	memcpy(name, fen + f.start, 2);
	int want = us == CHESS_WHITE ? 5 : 2;
	if (CHESS_RANK(ep) != want)
		return fen_fail(err, col, "en-passant square %s is not on rank %d", name, want + 1);
	int pawn = us == CHESS_WHITE ? ep - 8 : ep + 8;
	int origin = us == CHESS_WHITE ? ep + 8 : ep - 8;
	if (pos->board[pawn] != CHESS_PIECE(us ^ 1, CHESS_PAWN))
		return fen_fail(err, col, "en-passant square %s has no pawn in front of it", name);
	if (pos->board[ep] || pos->board[origin])
		return fen_fail(err, col,
				"en-passant square %s: the pawn cannot have just moved two", name);
	pos->ep_square = (uint8_t)ep;
	return 0;
}

static int parse_counter(const char *fen, struct fen_field f, long min, long max, long *out,
			 const char *what, struct chess_error *err)
{
	long v = 0;

	for (int i = f.start; i < f.start + f.len; i++) {
		if (fen[i] < '0' || fen[i] > '9')
			return fen_fail(err, i + 1, "%s must be a number", what);
		v = v * 10 + (fen[i] - '0');
		if (v > max)
			return fen_fail(err, f.start + 1, "%s is larger than %ld", what, max);
	}
	if (v < min)
		return fen_fail(err, f.start + 1, "%s must be at least %ld", what, min);
	*out = v;
	return 0;
}

int chess_fen_parse(struct chess_pos *pos, const char *fen, struct chess_error *err)
{
	struct fen_field fields[6];
	int nfields = 0, i = 0;
	struct chess_pos p;

	chess_pos_clear(&p);
	if (!fen)
		return fen_fail(err, 1, "no FEN");
	while (fen[i] == ' ' || fen[i] == '\t')
		i++;
	while (fen[i] && fen[i] != '\n' && fen[i] != '\r') {
		int start = i;
		while (fen[i] && fen[i] != ' ' && fen[i] != '\t' && fen[i] != '\n' &&
		       fen[i] != '\r')
			i++;
		if (nfields == 6)
			return fen_fail(err, start + 1, "more than 6 fields");
		fields[nfields].start = start;
		fields[nfields].len = i - start;
		nfields++;
		while (fen[i] == ' ' || fen[i] == '\t')
			i++;
	}
	if (fen[i] == '\r')
		i++;
	if (fen[i] == '\n')
		i++;
	if (fen[i])
		return fen_fail(err, i + 1, "text after the end of the line");
	if (nfields != 4 && nfields != 6)
		return fen_fail(err, i + 1, "%d fields, expected 6 (or 4 without the counters)",
				nfields);

	if (parse_placement(&p, fen, fields[0], err))
		return -1;

	if (fields[1].len != 1 || (fen[fields[1].start] != 'w' && fen[fields[1].start] != 'b'))
		return fen_fail(err, fields[1].start + 1, "side to move must be w or b");
	p.side = fen[fields[1].start] == 'w' ? CHESS_WHITE : CHESS_BLACK;
	enum chess_color them = (enum chess_color)(p.side ^ 1);
	if (chess_pos_square_attacked(&p, chess_pos_king_square(&p, them),
				      (enum chess_color)p.side))
		return fen_fail(err, fields[1].start + 1, "%s is in check but it is not its move",
				them == CHESS_WHITE ? "White" : "Black");

	if (parse_castling(&p, fen, fields[2], err))
		return -1;
	if (parse_ep(&p, fen, fields[3], err))
		return -1;
	if (nfields == 6) {
		long half, full;
		if (parse_counter(fen, fields[4], 0, 65535, &half, "halfmove clock", err))
			return -1;
		if (parse_counter(fen, fields[5], 1, 65535, &full, "fullmove number", err))
			return -1;
		p.halfmove_clock = (uint16_t)half;
		p.fullmove_number = (uint16_t)full;
	}
	chess_pos_refresh(&p);
	*pos = p;
	return 0;
}

void chess_fen_format(const struct chess_pos *pos, char *buf, size_t size)
{
	char tmp[CHESS_FEN_MAX + 16];
	char *o = tmp;
	static const char letters[] = " pnbrqk";

	for (int rank = 7; rank >= 0; rank--) {
		int empty = 0;
		for (int file = 0; file < 8; file++) {
			chess_piece p = pos->board[CHESS_SQ(file, rank)];
			if (!p) {
				empty++;
				continue;
			}
			if (empty)
				*o++ = (char)('0' + empty);
			empty = 0;
			char c = letters[CHESS_PIECE_TYPE(p) % 7];
			*o++ = CHESS_PIECE_COLOR(p) == CHESS_WHITE ? (char)(c - 32) : c;
		}
		if (empty)
			*o++ = (char)('0' + empty);
		if (rank)
			*o++ = '/';
	}
	*o++ = ' ';
	*o++ = pos->side == CHESS_WHITE ? 'w' : 'b';
	*o++ = ' ';
	if (!pos->castling)
		*o++ = '-';
	if (pos->castling & CHESS_CASTLE_WK)
		*o++ = 'K';
	if (pos->castling & CHESS_CASTLE_WQ)
		*o++ = 'Q';
	if (pos->castling & CHESS_CASTLE_BK)
		*o++ = 'k';
	if (pos->castling & CHESS_CASTLE_BQ)
		*o++ = 'q';
	*o++ = ' ';
	if (pos->ep_square < 64) {
		chess_square_format(pos->ep_square, o);
		o += 2;
	} else {
		*o++ = '-';
	}
	snprintf(o, sizeof(tmp) - (size_t)(o - tmp), " %u %u", (unsigned)pos->halfmove_clock,
		 (unsigned)pos->fullmove_number);
	if (size)
		snprintf(buf, size, "%s", tmp);
}
