/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Braille cells: the chess code for moves, uncontracted text, Unicode and BRF output.
 * The rules and their sources are in braille.h.
 */
#include "braille/braille.h"

#include <stdint.h>
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
	return braille_move_from_san_signs(san, BRAILLE_SIGNS_AFTER, cells, max);
}

int braille_move_from_san_signs(const char *san, enum braille_signs signs, braille_cell *cells,
				size_t max)
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

	if (piece)
		put(&o, piece_cell(piece));
	for (size_t k = 0; k < hint; k++)
		put_square_char(&o, body[k]);
	if (signs == BRAILLE_SIGNS_BEFORE_SQUARE) {
		/* Capture dots 56, check dots 45, both dots 456 before the square; mate after. */
		if (capture || (check && !mate))
			put(&o, (braille_cell)((capture ? D5 | D6 : 0) |
					       (check && !mate ? D4 | D5 : 0)));
		check = false;
	}
	/* BRAILLE_SIGNS_AFTER has no capture sign: see braille.h. */
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

/* UEB grade 1 punctuation and signs by ASCII character: one cell or two; none where n is 0. */
static const struct punctuation_sign {
	uint8_t n;
	braille_cell cells[2];
} punctuation[128] = {
    [' '] = {1, {0}},
    ['.'] = {1, {D2 | D5 | D6}},
    [','] = {1, {D2}},
    [';'] = {1, {D2 | D3}},
    [':'] = {1, {D2 | D5}},
    ['?'] = {1, {D2 | D3 | D6}},
    ['!'] = {1, {D2 | D3 | D5}},
    ['-'] = {1, {CELL_HYPHEN}},
    ['\''] = {1, {D3}},
    ['"'] = {2, {D6, D2 | D3 | D5 | D6}},
    ['('] = {2, {D5, D1 | D2 | D6}},
    [')'] = {2, {D5, D3 | D4 | D5}},
    ['/'] = {2, {D4 | D5 | D6, CELL_SLASH}},
    ['='] = {2, {D5, D2 | D3 | D5 | D6}},
    ['+'] = {2, {D5, D2 | D3 | D5}},
    ['*'] = {2, {D5, D3 | D5}},
    ['&'] = {2, {D4, D1 | D2 | D3 | D4 | D6}},
    ['#'] = {2, {D4 | D5 | D6, D3 | D4 | D5 | D6}},
    ['%'] = {2, {D4 | D6, D3 | D5 | D6}},
    ['@'] = {2, {D4, D1}},
    ['$'] = {2, {D4, D2 | D3 | D4}},
    ['_'] = {2, {D4 | D6, CELL_HYPHEN}},
    ['['] = {2, {D4 | D6, D1 | D2 | D6}},
    [']'] = {2, {D4 | D6, D3 | D4 | D5}},
    ['<'] = {2, {D4, D1 | D2 | D6}},
    ['>'] = {2, {D4, D3 | D4 | D5}},
};

static bool put_punctuation(struct cell_out *o, char ch)
{
	unsigned char c = (unsigned char)ch;

	if (c >= sizeof(punctuation) / sizeof(punctuation[0]) || punctuation[c].n == 0)
		return false;
	for (int k = 0; k < punctuation[c].n; k++)
		put(o, punctuation[c].cells[k]);
	return true;
}

/*
 * Letters beyond ASCII, as UEB writes them (docs/braille.md "Braille" lists each): the base letter
 * after its modifier (UEB 4.2.1; a capital sign goes before the modifier, 4.2.2); a ligature
 * (æ, œ) with the ligature indicator (UEB 4.3); a letter whose UEB sign was not verified
 * spelt as its usual transliteration (ß ss, þ th, ð d, ŋ ng); and, for a mark UEB has no
 * modifier for (ogonek, dot above, double acute), the base letter alone.
 */
enum letter_mark {
	MARK_NONE = 0, /* the base letter alone */
	MARK_GRAVE,
	MARK_ACUTE,
	MARK_CIRCUMFLEX,
	MARK_TILDE,
	MARK_DIAERESIS,
	MARK_CEDILLA,
	MARK_RING,
	MARK_CARON,
	MARK_BREVE,
	MARK_MACRON,
	MARK_STROKE,
	MARK_COUNT
};

/* The modifier's two cells (UEB 4.2). */
static const braille_cell mark_cells[MARK_COUNT][2] = {
    [MARK_GRAVE] = {D4 | D5, D1 | D6},
    [MARK_ACUTE] = {D4 | D5, D3 | D4},
    [MARK_CIRCUMFLEX] = {D4 | D5, D1 | D4 | D6},
    [MARK_TILDE] = {D4 | D5, D1 | D2 | D4 | D5 | D6},
    [MARK_DIAERESIS] = {D4 | D5, D2 | D5},
    [MARK_CEDILLA] = {D4 | D5, D1 | D2 | D3 | D4 | D6},
    [MARK_RING] = {D4 | D5, D1 | D2 | D4 | D6},
    [MARK_CARON] = {D4 | D5, D3 | D4 | D6},
    [MARK_BREVE] = {D4 | D5, D3 | D4 | D5},
    [MARK_MACRON] = {D4 | D5, D3 | D6},
    [MARK_STROKE] = {D4, D1 | D6},
};

struct marked_letter {
	uint16_t code;
	char base; /* upper case for a capital */
	uint8_t mark;
};

/* Latin-1 (U+00C0-U+00FF) and Latin Extended-A (U+0100-U+017F), sorted by code. */
static const struct marked_letter marked_letters[] = {
    {0xC0, 'A', MARK_GRAVE},	   {0xC1, 'A', MARK_ACUTE},	  {0xC2, 'A', MARK_CIRCUMFLEX},
    {0xC3, 'A', MARK_TILDE},	   {0xC4, 'A', MARK_DIAERESIS},	  {0xC5, 'A', MARK_RING},
    {0xC7, 'C', MARK_CEDILLA},	   {0xC8, 'E', MARK_GRAVE},	  {0xC9, 'E', MARK_ACUTE},
    {0xCA, 'E', MARK_CIRCUMFLEX},  {0xCB, 'E', MARK_DIAERESIS},	  {0xCC, 'I', MARK_GRAVE},
    {0xCD, 'I', MARK_ACUTE},	   {0xCE, 'I', MARK_CIRCUMFLEX},  {0xCF, 'I', MARK_DIAERESIS},
    {0xD1, 'N', MARK_TILDE},	   {0xD2, 'O', MARK_GRAVE},	  {0xD3, 'O', MARK_ACUTE},
    {0xD4, 'O', MARK_CIRCUMFLEX},  {0xD5, 'O', MARK_TILDE},	  {0xD6, 'O', MARK_DIAERESIS},
    {0xD8, 'O', MARK_STROKE},	   {0xD9, 'U', MARK_GRAVE},	  {0xDA, 'U', MARK_ACUTE},
    {0xDB, 'U', MARK_CIRCUMFLEX},  {0xDC, 'U', MARK_DIAERESIS},	  {0xDD, 'Y', MARK_ACUTE},
    {0xE0, 'a', MARK_GRAVE},	   {0xE1, 'a', MARK_ACUTE},	  {0xE2, 'a', MARK_CIRCUMFLEX},
    {0xE3, 'a', MARK_TILDE},	   {0xE4, 'a', MARK_DIAERESIS},	  {0xE5, 'a', MARK_RING},
    {0xE7, 'c', MARK_CEDILLA},	   {0xE8, 'e', MARK_GRAVE},	  {0xE9, 'e', MARK_ACUTE},
    {0xEA, 'e', MARK_CIRCUMFLEX},  {0xEB, 'e', MARK_DIAERESIS},	  {0xEC, 'i', MARK_GRAVE},
    {0xED, 'i', MARK_ACUTE},	   {0xEE, 'i', MARK_CIRCUMFLEX},  {0xEF, 'i', MARK_DIAERESIS},
    {0xF1, 'n', MARK_TILDE},	   {0xF2, 'o', MARK_GRAVE},	  {0xF3, 'o', MARK_ACUTE},
    {0xF4, 'o', MARK_CIRCUMFLEX},  {0xF5, 'o', MARK_TILDE},	  {0xF6, 'o', MARK_DIAERESIS},
    {0xF8, 'o', MARK_STROKE},	   {0xF9, 'u', MARK_GRAVE},	  {0xFA, 'u', MARK_ACUTE},
    {0xFB, 'u', MARK_CIRCUMFLEX},  {0xFC, 'u', MARK_DIAERESIS},	  {0xFD, 'y', MARK_ACUTE},
    {0xFF, 'y', MARK_DIAERESIS},   {0x100, 'A', MARK_MACRON},	  {0x101, 'a', MARK_MACRON},
    {0x102, 'A', MARK_BREVE},	   {0x103, 'a', MARK_BREVE},	  {0x104, 'A', MARK_NONE},
    {0x105, 'a', MARK_NONE},	   {0x106, 'C', MARK_ACUTE},	  {0x107, 'c', MARK_ACUTE},
    {0x108, 'C', MARK_CIRCUMFLEX}, {0x109, 'c', MARK_CIRCUMFLEX}, {0x10A, 'C', MARK_NONE},
    {0x10B, 'c', MARK_NONE},	   {0x10C, 'C', MARK_CARON},	  {0x10D, 'c', MARK_CARON},
    {0x10E, 'D', MARK_CARON},	   {0x10F, 'd', MARK_CARON},	  {0x110, 'D', MARK_STROKE},
    {0x111, 'd', MARK_STROKE},	   {0x112, 'E', MARK_MACRON},	  {0x113, 'e', MARK_MACRON},
    {0x114, 'E', MARK_BREVE},	   {0x115, 'e', MARK_BREVE},	  {0x116, 'E', MARK_NONE},
    {0x117, 'e', MARK_NONE},	   {0x118, 'E', MARK_NONE},	  {0x119, 'e', MARK_NONE},
    {0x11A, 'E', MARK_CARON},	   {0x11B, 'e', MARK_CARON},	  {0x11C, 'G', MARK_CIRCUMFLEX},
    {0x11D, 'g', MARK_CIRCUMFLEX}, {0x11E, 'G', MARK_BREVE},	  {0x11F, 'g', MARK_BREVE},
    {0x120, 'G', MARK_NONE},	   {0x121, 'g', MARK_NONE},	  {0x122, 'G', MARK_CEDILLA},
    {0x123, 'g', MARK_CEDILLA},	   {0x124, 'H', MARK_CIRCUMFLEX}, {0x125, 'h', MARK_CIRCUMFLEX},
    {0x126, 'H', MARK_STROKE},	   {0x127, 'h', MARK_STROKE},	  {0x128, 'I', MARK_TILDE},
    {0x129, 'i', MARK_TILDE},	   {0x12A, 'I', MARK_MACRON},	  {0x12B, 'i', MARK_MACRON},
    {0x12C, 'I', MARK_BREVE},	   {0x12D, 'i', MARK_BREVE},	  {0x12E, 'I', MARK_NONE},
    {0x12F, 'i', MARK_NONE},	   {0x130, 'I', MARK_NONE},	  {0x131, 'i', MARK_NONE},
    {0x134, 'J', MARK_CIRCUMFLEX}, {0x135, 'j', MARK_CIRCUMFLEX}, {0x136, 'K', MARK_CEDILLA},
    {0x137, 'k', MARK_CEDILLA},	   {0x139, 'L', MARK_ACUTE},	  {0x13A, 'l', MARK_ACUTE},
    {0x13B, 'L', MARK_CEDILLA},	   {0x13C, 'l', MARK_CEDILLA},	  {0x13D, 'L', MARK_CARON},
    {0x13E, 'l', MARK_CARON},	   {0x141, 'L', MARK_STROKE},	  {0x142, 'l', MARK_STROKE},
    {0x143, 'N', MARK_ACUTE},	   {0x144, 'n', MARK_ACUTE},	  {0x145, 'N', MARK_CEDILLA},
    {0x146, 'n', MARK_CEDILLA},	   {0x147, 'N', MARK_CARON},	  {0x148, 'n', MARK_CARON},
    {0x14C, 'O', MARK_MACRON},	   {0x14D, 'o', MARK_MACRON},	  {0x14E, 'O', MARK_BREVE},
    {0x14F, 'o', MARK_BREVE},	   {0x150, 'O', MARK_NONE},	  {0x151, 'o', MARK_NONE},
    {0x154, 'R', MARK_ACUTE},	   {0x155, 'r', MARK_ACUTE},	  {0x156, 'R', MARK_CEDILLA},
    {0x157, 'r', MARK_CEDILLA},	   {0x158, 'R', MARK_CARON},	  {0x159, 'r', MARK_CARON},
    {0x15A, 'S', MARK_ACUTE},	   {0x15B, 's', MARK_ACUTE},	  {0x15C, 'S', MARK_CIRCUMFLEX},
    {0x15D, 's', MARK_CIRCUMFLEX}, {0x15E, 'S', MARK_CEDILLA},	  {0x15F, 's', MARK_CEDILLA},
    {0x160, 'S', MARK_CARON},	   {0x161, 's', MARK_CARON},	  {0x162, 'T', MARK_CEDILLA},
    {0x163, 't', MARK_CEDILLA},	   {0x164, 'T', MARK_CARON},	  {0x165, 't', MARK_CARON},
    {0x166, 'T', MARK_STROKE},	   {0x167, 't', MARK_STROKE},	  {0x168, 'U', MARK_TILDE},
    {0x169, 'u', MARK_TILDE},	   {0x16A, 'U', MARK_MACRON},	  {0x16B, 'u', MARK_MACRON},
    {0x16C, 'U', MARK_BREVE},	   {0x16D, 'u', MARK_BREVE},	  {0x16E, 'U', MARK_RING},
    {0x16F, 'u', MARK_RING},	   {0x170, 'U', MARK_NONE},	  {0x171, 'u', MARK_NONE},
    {0x172, 'U', MARK_NONE},	   {0x173, 'u', MARK_NONE},	  {0x174, 'W', MARK_CIRCUMFLEX},
    {0x175, 'w', MARK_CIRCUMFLEX}, {0x176, 'Y', MARK_CIRCUMFLEX}, {0x177, 'y', MARK_CIRCUMFLEX},
    {0x178, 'Y', MARK_DIAERESIS},  {0x179, 'Z', MARK_ACUTE},	  {0x17A, 'z', MARK_ACUTE},
    {0x17B, 'Z', MARK_NONE},	   {0x17C, 'z', MARK_NONE},	  {0x17D, 'Z', MARK_CARON},
    {0x17E, 'z', MARK_CARON},
};

static const struct marked_letter *marked_letter(unsigned code)
{
	size_t lo = 0, hi = sizeof(marked_letters) / sizeof(marked_letters[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (marked_letters[mid].code == code)
			return &marked_letters[mid];
		if (marked_letters[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool is_upper(char ch)
{
	return ch >= 'A' && ch <= 'Z';
}

static bool is_alpha(char ch)
{
	return is_upper(ch) || (ch >= 'a' && ch <= 'z');
}

static bool is_digit(unsigned cp)
{
	return cp >= '0' && cp <= '9';
}

/* One code point of UTF-8 at s; the bytes it takes (at least 1).  A byte that starts no
 * valid sequence is U+FFFD. */
static size_t utf8_next(const unsigned char *s, unsigned *cp)
{
	size_t len;
	unsigned c = s[0];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xE0) == 0xC0) {
		len = 2;
		c &= 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		len = 3;
		c &= 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		len = 4;
		c &= 0x07;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	for (size_t k = 1; k < len; k++) {
		if ((s[k] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return k;
		}
		c = (c << 6) | (s[k] & 0x3F);
	}
	*cp = c;
	return len;
}

/* A letter and how UEB writes it: cells (a modifier and the base letter, a special letter
 * of UEB 4.5, or two letters), and whether it is a capital.  false if cp is no letter. */
struct letter_cells {
	braille_cell cells[4];
	size_t n;
	bool upper;
	bool plain; /* a letter a-z alone: it may need a grade 1 indicator after a number */
};

static bool letter_of(unsigned cp, struct letter_cells *l)
{
	static const struct {
		uint16_t code;
		bool upper;
		braille_cell cells[4];
		uint8_t n;
	} special[] = {
	    {0xC6, true, {D1, D4 | D5, D2 | D3 | D5, D1 | D5}, 4},     /* Æ: a, ligature, e */
	    {0xD0, true, {D1 | D4 | D5}, 1},			       /* Ð: d */
	    {0xDE, true, {D2 | D3 | D4 | D5, D1 | D2 | D5}, 2},	       /* Þ: th */
	    {0xDF, false, {D2 | D3 | D4, D2 | D3 | D4}, 2},	       /* ß: ss */
	    {0xE6, false, {D1, D4 | D5, D2 | D3 | D5, D1 | D5}, 4},    /* æ */
	    {0xF0, false, {D1 | D4 | D5}, 1},			       /* ð: d */
	    {0xFE, false, {D2 | D3 | D4 | D5, D1 | D2 | D5}, 2},       /* þ: th */
	    {0x132, true, {D2 | D4, D2 | D4 | D5}, 2},		       /* Ĳ: i j */
	    {0x133, false, {D2 | D4, D2 | D4 | D5}, 2},		       /* ĳ */
	    {0x138, false, {D1 | D3}, 1},			       /* ĸ: k */
	    {0x13F, true, {D1 | D2 | D3}, 1},			       /* Ŀ: L */
	    {0x140, false, {D1 | D2 | D3}, 1},			       /* ŀ: l */
	    {0x149, false, {D3, D1 | D3 | D4 | D5}, 2},		       /* ŉ: 'n */
	    {0x14A, true, {D1 | D3 | D4 | D5, D1 | D2 | D4 | D5}, 2},  /* Ŋ: ng */
	    {0x14B, false, {D1 | D3 | D4 | D5, D1 | D2 | D4 | D5}, 2}, /* ŋ */
	    {0x152, true, {D1 | D3 | D5, D4 | D5, D2 | D3 | D5, D1 | D5}, 4},  /* Œ */
	    {0x153, false, {D1 | D3 | D5, D4 | D5, D2 | D3 | D5, D1 | D5}, 4}, /* œ */
	    {0x17F, false, {D2 | D3 | D4}, 1},				       /* ſ: s */
	};
	const struct marked_letter *m;

	l->plain = false;
	if (cp < 0x80 && is_alpha((char)cp)) {
		l->cells[0] = letter((char)cp);
		l->n = 1;
		l->upper = is_upper((char)cp);
		l->plain = true;
		return true;
	}
	for (size_t k = 0; k < sizeof(special) / sizeof(special[0]); k++) {
		if (special[k].code != cp)
			continue;
		memcpy(l->cells, special[k].cells, sizeof(l->cells));
		l->n = special[k].n;
		l->upper = special[k].upper;
		return true;
	}
	m = marked_letter(cp);
	if (!m)
		return false;
	l->n = 0;
	if (m->mark != MARK_NONE) {
		l->cells[l->n++] = mark_cells[m->mark][0];
		l->cells[l->n++] = mark_cells[m->mark][1];
	}
	l->cells[l->n++] = letter(m->base);
	l->upper = is_upper(m->base);
	return true;
}

/* Punctuation and signs beyond ASCII (UEB 7); false if cp has no rule. */
static bool put_unicode_punctuation(struct cell_out *o, unsigned cp)
{
	switch (cp) {
	case 0xA0: /* no-break space */
		put(o, 0);
		return true;
	case 0x2010: /* hyphen */
	case 0x2011: /* non-breaking hyphen */
		put(o, CELL_HYPHEN);
		return true;
	case 0x2012: /* figure dash */
	case 0x2013: /* en dash: the UEB dash (7.2) */
	case 0x2212: /* minus sign, in a name a dash */
		put_two(o, D6, CELL_HYPHEN);
		return true;
	case 0x2014: /* em dash: the UEB long dash */
	case 0x2015:
		put(o, D5);
		put_two(o, D6, CELL_HYPHEN);
		return true;
	case 0x2018: /* single quotes (UEB 7.6) */
		put_two(o, D6, D2 | D3 | D6);
		return true;
	case 0x2019: /* also the apostrophe of "O’Brien" */
		put(o, D3);
		return true;
	case 0x201C: /* double quotes */
	case 0x201E:
		put_two(o, D4 | D5, D2 | D3 | D6);
		return true;
	case 0x201D:
		put_two(o, D4 | D5, D3 | D5 | D6);
		return true;
	case 0x2026: /* ellipsis */
		put(o, D2 | D5 | D6);
		put_two(o, D2 | D5 | D6, D2 | D5 | D6);
		return true;
	case 0xB7: /* middle dot */
		put_two(o, D4 | D6, D1 | D6);
		return true;
	default:
		return false;
	}
}

size_t braille_text(const char *utf8, braille_cell *cells, size_t max)
{
	struct cell_out o = {cells, max, 0, false};
	const unsigned char *s = (const unsigned char *)utf8;
	bool numeric = false;
	bool caps_word = false;
	bool prev_letter = false;

	while (*s) {
		struct letter_cells l;
		unsigned cp;
		size_t len = utf8_next(s, &cp);

		if (is_digit(cp)) {
			if (!numeric)
				put(&o, CELL_NUMERIC);
			numeric = true;
			put(&o, letter_cells[cp == '0' ? 9 : cp - '1']);
			s += len;
			prev_letter = false;
			continue;
		}
		if (numeric && (cp == '.' || cp == ',') && is_digit(s[1])) {
			put(&o, cp == '.' ? (D2 | D5 | D6) : D2);
			s += len;
			continue;
		}
		if (letter_of(cp, &l)) {
			if (!prev_letter) {
				/* A word of two or more capitals takes the capitalised word
				 * indicator (UEB 8.4), accented letters included. */
				const unsigned char *t = s;
				struct letter_cells w;
				size_t n = 0;
				bool all_caps = true;
				unsigned c;

				for (size_t k = utf8_next(t, &c); letter_of(c, &w);
				     k = utf8_next(t, &c)) {
					all_caps = all_caps && w.upper;
					n++;
					t += k;
				}
				caps_word = all_caps && n >= 2;
				if (caps_word)
					put_two(&o, CELL_CAPITAL, CELL_CAPITAL);
			}
			if (numeric && l.plain && cp >= 'a' && cp <= 'j')
				put(&o, CELL_GRADE1);
			numeric = false;
			if (l.upper && !caps_word)
				put(&o, CELL_CAPITAL);
			for (size_t k = 0; k < l.n; k++)
				put(&o, l.cells[k]);
			s += len;
			prev_letter = true;
			continue;
		}
		numeric = false;
		caps_word = false;
		prev_letter = false;
		if (cp < 0x80) {
			if (!put_punctuation(&o, (char)cp))
				put(&o, ALL_DOTS);
		} else if (!put_unicode_punctuation(&o, cp)) {
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
