/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Braille cells: the chess code for moves, uncontracted text, Unicode and BRF output.
 * The rules and their sources are in braille.h.
 */
#include "braille/braille.h"

#include <string.h>

#define D1 0x01u
#define D2 0x02u
#define D3 0x04u
#define D4 0x08u
#define D5 0x10u
#define D6 0x20u

#define ALL_DOTS ((braille_cell)(D1 | D2 | D3 | D4 | D5 | D6))

static const braille_cell letter_cells[26] = {
    D1,			    /* a */
    D1 | D2,		    /* b */
    D1 | D4,		    /* c */
    D1 | D4 | D5,	    /* d */
    D1 | D5,		    /* e */
    D1 | D2 | D4,	    /* f */
    D1 | D2 | D4 | D5,	    /* g */
    D1 | D2 | D5,	    /* h */
    D2 | D4,		    /* i */
    D2 | D4 | D5,	    /* j */
    D1 | D3,		    /* k */
    D1 | D2 | D3,	    /* l */
    D1 | D3 | D4,	    /* m */
    D1 | D3 | D4 | D5,	    /* n */
    D1 | D3 | D5,	    /* o */
    D1 | D2 | D3 | D4,	    /* p */
    D1 | D2 | D3 | D4 | D5, /* q */
    D1 | D2 | D3 | D5,	    /* r */
    D2 | D3 | D4,	    /* s */
    D2 | D3 | D4 | D5,	    /* t */
    D1 | D3 | D6,	    /* u */
    D1 | D2 | D3 | D6,	    /* v */
    D2 | D4 | D5 | D6,	    /* w */
    D1 | D3 | D4 | D6,	    /* x */
    D1 | D3 | D4 | D5 | D6, /* y */
    D1 | D3 | D5 | D6,	    /* z */
};

/* Digits 0-9 in the lower part of the cell. */
static const braille_cell lower_digit_cells[10] = {
    D3 | D5 | D6,      /* 0 */
    D2,		       /* 1 */
    D2 | D3,	       /* 2 */
    D2 | D5,	       /* 3 */
    D2 | D5 | D6,      /* 4 */
    D2 | D6,	       /* 5 */
    D2 | D3 | D5,      /* 6 */
    D2 | D3 | D5 | D6, /* 7 */
    D2 | D3 | D6,      /* 8 */
    D3 | D5,	       /* 9 */
};

/* Chess code signs (braille.h gives the section of the code for each). */
#define CELL_SIGN   ((braille_cell)(D3 | D4 | D5)) /* 1.4; begins the 2.2 abbreviations */
#define CELL_HYPHEN ((braille_cell)(D3 | D6))
#define CELL_SLASH  ((braille_cell)(D3 | D4))

/* UEB signs for text. */
#define CELL_CAPITAL ((braille_cell)D6)
#define CELL_NUMERIC ((braille_cell)(D3 | D4 | D5 | D6))
#define CELL_GRADE1  ((braille_cell)(D5 | D6))

/* North American ASCII braille, indexed by the six-dot pattern. */
static const char brf_chars[65] =
    " A1B'K2L@CIF/MSP\"E3H9O6R^DJG>NTQ,*5<-U8V.%[$+X!&;:4\\0Z7(_?W]#Y)=";

static braille_cell letter(char ch)
{
	if (ch >= 'a' && ch <= 'z')
		return letter_cells[ch - 'a'];
	if (ch >= 'A' && ch <= 'Z')
		return letter_cells[ch - 'A'];
	return ALL_DOTS;
}

/* The chess code's letter for a piece given by its English SAN letter; 0 if none. */
static braille_cell piece_cell(char san_letter)
{
	switch (san_letter) {
	case 'K':
		return letter('k');
	case 'Q':
		return letter('q');
	case 'R':
		return letter('r');
	case 'B':
		return letter('l');
	case 'N':
		return letter('s');
	default:
		return 0;
	}
}

static bool is_file(char ch)
{
	return ch >= 'a' && ch <= 'h';
}

static bool is_rank(char ch)
{
	return ch >= '1' && ch <= '8';
}

struct cell_out {
	braille_cell *cells;
	size_t max;
	size_t n;
	bool overflow;
};

static void put(struct cell_out *o, braille_cell cell)
{
	if (o->n < o->max)
		o->cells[o->n++] = cell;
	else
		o->overflow = true;
}

static void put_square_char(struct cell_out *o, char ch)
{
	put(o, is_file(ch) ? letter(ch) : lower_digit_cells[ch - '0']);
}

/* Suffixes after the move proper: check, mate, "e.p.", annotation marks.  Returns false if
 * something else follows. */
static bool parse_suffix(const char *s, bool *check, bool *mate)
{
	*check = false;
	*mate = false;
	if (*s == '+') {
		*check = true;
		s++;
		if (*s == '+') /* "++" as mate is not SAN; a double check is still a check */
			s++;
	} else if (*s == '#') {
		*mate = true;
		s++;
	}
	if (*s == ' ')
		s++;
	if (strncmp(s, "e.p.", 4) == 0)
		s += 4;
	while (*s == '!' || *s == '?')
		s++;
	return *s == '\0';
}

/* "+" and "#" after the move: dots 345 and a letter, as the code's example "6. e4+." shows. */
static void put_check_or_mate(struct cell_out *o, bool check, bool mate)
{
	if (check || mate) {
		put(o, CELL_SIGN);
		put(o, letter(mate ? 'm' : 'p'));
	}
}

static int castling(const char *san, struct cell_out *o)
{
	char zero = san[0];
	size_t i = 0;
	int rooks = 0;
	while (san[i] == zero && (rooks == 0 || san[i - 1] == '-')) {
		rooks++;
		i++;
		if (san[i] != '-')
			break;
		i++;
	}
	if (rooks < 2 || rooks > 3 || san[i - 1] == '-')
		return -1;
	bool check, mate;
	if (!parse_suffix(san + i, &check, &mate))
		return -1;
	for (int k = 0; k < rooks; k++) {
		if (k)
			put(o, CELL_HYPHEN);
		put(o, lower_digit_cells[0]);
	}
	put_check_or_mate(o, check, mate);
	return o->overflow ? -1 : (int)o->n;
}

int braille_move_from_san(const char *san, braille_cell *cells, size_t max)
{
	struct cell_out o = {cells, max, 0, false};
	if (!san)
		return -1;
	if (san[0] == 'O' || san[0] == '0')
		return castling(san, &o);

	size_t i = 0;
	char piece = 0;
	if (piece_cell(san[0])) {
		piece = san[0];
		i++;
	}
	/* The body: origin hints, 'x', target square. */
	char body[8];
	size_t len = 0;
	while ((is_file(san[i]) || is_rank(san[i]) || san[i] == 'x' || san[i] == '-') &&
	       len < sizeof(body)) {
		if (san[i] != '-') /* long notation "e2-e4" */
			body[len++] = san[i];
		i++;
	}
	if (len < 2 || !is_file(body[len - 2]) || !is_rank(body[len - 1]))
		return -1;
	bool capture = false;
	size_t hint = len - 2; /* origin characters before the target */
	if (hint > 0 && body[hint - 1] == 'x') {
		capture = true;
		hint--;
	}
	if (hint > 2)
		return -1;
	for (size_t k = 0; k < hint; k++)
		if (body[k] == 'x')
			return -1;
	if (!piece && hint == 0 && capture)
		return -1; /* a pawn capture names its file */

	char promotion = 0;
	if (!piece && (body[len - 1] == '8' || body[len - 1] == '1')) {
		if (san[i] == '=')
			i++;
		if (san[i] == 'Q' || san[i] == 'R' || san[i] == 'B' || san[i] == 'N')
			promotion = san[i++];
		else if (san[i - 1] == '=')
			return -1;
	}
	bool check, mate;
	if (!parse_suffix(san + i, &check, &mate))
		return -1;

	/* No capture sign: see braille.h. */
	if (piece)
		put(&o, piece_cell(piece));
	for (size_t k = 0; k < hint; k++)
		put_square_char(&o, body[k]);
	put_square_char(&o, body[len - 2]);
	put_square_char(&o, body[len - 1]);
	if (promotion)
		put(&o, piece_cell(promotion));
	put_check_or_mate(&o, check, mate);
	return o.overflow ? -1 : (int)o.n;
}

int braille_move(const struct chess_pos *pos, chess_move m, braille_cell *cells, size_t max)
{
	char san[CHESS_SAN_MAX];
	chess_move_to_san(pos, m, san, sizeof(san));
	return braille_move_from_san(san, cells, max);
}

int braille_lower_number(unsigned number, braille_cell *cells, size_t max)
{
	char digits[16];
	size_t n = 0;
	do {
		digits[n++] = (char)('0' + number % 10);
		number /= 10;
	} while (number);
	if (n > max)
		return -1;
	for (size_t k = 0; k < n; k++)
		cells[k] = lower_digit_cells[digits[n - 1 - k] - '0'];
	return (int)n;
}

/* ---------------------------------------------------------------- text (UEB grade 1) */

static void put_two(struct cell_out *o, braille_cell a, braille_cell b)
{
	put(o, a);
	put(o, b);
}

static bool put_punctuation(struct cell_out *o, char ch)
{
	switch (ch) {
	case ' ':
		put(o, 0);
		return true;
	case '.':
		put(o, D2 | D5 | D6);
		return true;
	case ',':
		put(o, D2);
		return true;
	case ';':
		put(o, D2 | D3);
		return true;
	case ':':
		put(o, D2 | D5);
		return true;
	case '?':
		put(o, D2 | D3 | D6);
		return true;
	case '!':
		put(o, D2 | D3 | D5);
		return true;
	case '-':
		put(o, CELL_HYPHEN);
		return true;
	case '\'':
		put(o, D3);
		return true;
	case '"':
		put_two(o, D6, D2 | D3 | D5 | D6);
		return true;
	case '(':
		put_two(o, D5, D1 | D2 | D6);
		return true;
	case ')':
		put_two(o, D5, D3 | D4 | D5);
		return true;
	case '/':
		put_two(o, D4 | D5 | D6, CELL_SLASH);
		return true;
	case '=':
		put_two(o, D5, D2 | D3 | D5 | D6);
		return true;
	case '+':
		put_two(o, D5, D2 | D3 | D5);
		return true;
	case '*':
		put_two(o, D5, D3 | D5);
		return true;
	case '&':
		put_two(o, D4, D1 | D2 | D3 | D4 | D6);
		return true;
	default:
		return false;
	}
}

/* Latin-1 letters with accents: base letter and the UEB modifier that goes, after dots 45,
 * before it. */
static bool latin1_letter(unsigned code, char *base, braille_cell *accent)
{
	enum {
		GRAVE = D1 | D6,
		ACUTE = D3 | D4,
		CIRCUMFLEX = D1 | D4 | D6,
		TILDE = D1 | D2 | D4 | D5 | D6,
		DIAERESIS = D2 | D5,
		CEDILLA = D1 | D2 | D3 | D4 | D6,
		RING = D1 | D2 | D4 | D6
	};
	static const struct {
		char base;
		braille_cell accent;
	} table[] = {
	    {'A', GRAVE},      /* U+00C0 */
	    {'A', ACUTE},      /* U+00C1 */
	    {'A', CIRCUMFLEX}, /* U+00C2 */
	    {'A', TILDE},      /* U+00C3 */
	    {'A', DIAERESIS},  /* U+00C4 */
	    {'A', RING},       /* U+00C5 */
	    {0, 0},	       /* U+00C6 */
	    {'C', CEDILLA},    /* U+00C7 */
	    {'E', GRAVE},      /* U+00C8 */
	    {'E', ACUTE},      /* U+00C9 */
	    {'E', CIRCUMFLEX}, /* U+00CA */
	    {'E', DIAERESIS},  /* U+00CB */
	    {'I', GRAVE},      /* U+00CC */
	    {'I', ACUTE},      /* U+00CD */
	    {'I', CIRCUMFLEX}, /* U+00CE */
	    {'I', DIAERESIS},  /* U+00CF */
	    {0, 0},	       /* U+00D0 */
	    {'N', TILDE},      /* U+00D1 */
	    {'O', GRAVE},      /* U+00D2 */
	    {'O', ACUTE},      /* U+00D3 */
	    {'O', CIRCUMFLEX}, /* U+00D4 */
	    {'O', TILDE},      /* U+00D5 */
	    {'O', DIAERESIS},  /* U+00D6 */
	    {0, 0},	       /* U+00D7 */
	    {0, 0},	       /* U+00D8 */
	    {'U', GRAVE},      /* U+00D9 */
	    {'U', ACUTE},      /* U+00DA */
	    {'U', CIRCUMFLEX}, /* U+00DB */
	    {'U', DIAERESIS},  /* U+00DC */
	    {'Y', ACUTE},      /* U+00DD */
	    {0, 0},	       /* U+00DE */
	    {0, 0},	       /* U+00DF */
	    {'a', GRAVE},      /* U+00E0 */
	    {'a', ACUTE},      /* U+00E1 */
	    {'a', CIRCUMFLEX}, /* U+00E2 */
	    {'a', TILDE},      /* U+00E3 */
	    {'a', DIAERESIS},  /* U+00E4 */
	    {'a', RING},       /* U+00E5 */
	    {0, 0},	       /* U+00E6 */
	    {'c', CEDILLA},    /* U+00E7 */
	    {'e', GRAVE},      /* U+00E8 */
	    {'e', ACUTE},      /* U+00E9 */
	    {'e', CIRCUMFLEX}, /* U+00EA */
	    {'e', DIAERESIS},  /* U+00EB */
	    {'i', GRAVE},      /* U+00EC */
	    {'i', ACUTE},      /* U+00ED */
	    {'i', CIRCUMFLEX}, /* U+00EE */
	    {'i', DIAERESIS},  /* U+00EF */
	    {0, 0},	       /* U+00F0 */
	    {'n', TILDE},      /* U+00F1 */
	    {'o', GRAVE},      /* U+00F2 */
	    {'o', ACUTE},      /* U+00F3 */
	    {'o', CIRCUMFLEX}, /* U+00F4 */
	    {'o', TILDE},      /* U+00F5 */
	    {'o', DIAERESIS},  /* U+00F6 */
	    {0, 0},	       /* U+00F7 */
	    {0, 0},	       /* U+00F8 */
	    {'u', GRAVE},      /* U+00F9 */
	    {'u', ACUTE},      /* U+00FA */
	    {'u', CIRCUMFLEX}, /* U+00FB */
	    {'u', DIAERESIS},  /* U+00FC */
	    {'y', ACUTE},      /* U+00FD */
	    {0, 0},	       /* U+00FE */
	    {'y', DIAERESIS},  /* U+00FF */
	};
	if (code < 0xC0 || code > 0xFF || !table[code - 0xC0].base)
		return false;
	*base = table[code - 0xC0].base;
	*accent = table[code - 0xC0].accent;
	return true;
}

static bool is_upper(char ch)
{
	return ch >= 'A' && ch <= 'Z';
}

static bool is_alpha(char ch)
{
	return is_upper(ch) || (ch >= 'a' && ch <= 'z');
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

size_t braille_text(const char *utf8, braille_cell *cells, size_t max)
{
	struct cell_out o = {cells, max, 0, false};
	const unsigned char *s = (const unsigned char *)utf8;
	bool numeric = false;
	bool caps_word = false;
	while (*s) {
		char ch = (char)*s;
		if (is_digit(ch)) {
			if (!numeric)
				put(&o, CELL_NUMERIC);
			numeric = true;
			put(&o, letter_cells[ch == '0' ? 9 : ch - '1']);
			s++;
			continue;
		}
		if (numeric && (ch == '.' || ch == ',') && is_digit((char)s[1])) {
			put(&o, ch == '.' ? (D2 | D5 | D6) : D2);
			s++;
			continue;
		}
		if (is_alpha(ch)) {
			bool word_start =
			    s == (const unsigned char *)utf8 || !is_alpha((char)s[-1]);
			if (word_start) {
				size_t n = 0;
				bool all_caps = true;
				while (is_alpha((char)s[n])) {
					all_caps = all_caps && is_upper((char)s[n]);
					n++;
				}
				caps_word = all_caps && n >= 2;
				if (caps_word)
					put_two(&o, CELL_CAPITAL, CELL_CAPITAL);
			}
			if (numeric && ch >= 'a' && ch <= 'j')
				put(&o, CELL_GRADE1);
			numeric = false;
			if (is_upper(ch) && !caps_word)
				put(&o, CELL_CAPITAL);
			put(&o, letter(ch));
			s++;
			continue;
		}
		numeric = false;
		caps_word = false;
		if (*s < 0x80) {
			if (!put_punctuation(&o, ch))
				put(&o, ALL_DOTS);
			s++;
			continue;
		}
		/* UTF-8: Latin-1 letters get their accent, anything else a full cell. */
		unsigned code = 0;
		size_t len = 1;
		if ((*s & 0xE0) == 0xC0 && (s[1] & 0xC0) == 0x80) {
			code = ((unsigned)(*s & 0x1F) << 6) | (s[1] & 0x3F);
			len = 2;
		} else {
			while ((s[len] & 0xC0) == 0x80)
				len++;
		}
		char base;
		braille_cell accent;
		if (code == 0xDF) { /* sharp s */
			put_two(&o, letter('s'), letter('s'));
		} else if (latin1_letter(code, &base, &accent)) {
			if (is_upper(base))
				put(&o, CELL_CAPITAL);
			put_two(&o, D4 | D5, accent);
			put(&o, letter(base));
		} else {
			put(&o, ALL_DOTS);
		}
		s += len;
	}
	return o.n;
}

/* ---------------------------------------------------------------- output */

size_t braille_to_utf8(const braille_cell *cells, size_t count, char *buf, size_t size)
{
	size_t n = 0;
	for (size_t k = 0; k < count && n + 3 < size; k++) {
		unsigned code = 0x2800u + cells[k];
		buf[n++] = (char)(0xE0 | (code >> 12));
		buf[n++] = (char)(0x80 | ((code >> 6) & 0x3F));
		buf[n++] = (char)(0x80 | (code & 0x3F));
	}
	if (size)
		buf[n] = '\0';
	return n;
}

size_t braille_computer_text(const char *ascii, braille_cell *cells, size_t max)
{
	size_t n = 0;
	for (const unsigned char *s = (const unsigned char *)ascii; *s && n < max; s++) {
		unsigned ch = *s;
		braille_cell cell = 0xFF;
		if (ch >= 0x20 && ch <= 0x7E) {
			/* 0x60-0x7E share the cells of 0x40-0x5E; those have dot 7 (but '_'). */
			unsigned base = ch >= 0x60 ? ch - 0x20 : ch;
			cell = (braille_cell)braille_from_brf_char((char)base);
			if (ch >= 0x40 && ch <= 0x5E)
				cell |= BRAILLE_DOT(7);
		}
		cells[n++] = cell;
	}
	return n;
}

char braille_to_brf_char(braille_cell cell)
{
	return brf_chars[cell & 0x3F];
}

int braille_from_brf_char(char ch)
{
	if (ch >= 'a' && ch <= 'z')
		ch = (char)(ch - 'a' + 'A');
	for (int k = 0; k < 64; k++)
		if (brf_chars[k] == ch)
			return k;
	return -1;
}
