/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Move notation: English SAN (PGN), Appendix C local paper notation with
 * German letters, UCI, and a lenient reader for what people actually write
 * on scoresheets and type at a keyboard.
 *
 * Everything is decided against the list of legal moves: disambiguation is
 * only added when another legal move of the same piece type reaches the same
 * square, and parsing accepts text exactly when one legal move fits it.
 */
#include "chess/chess.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/lang.h"

/* How a move is written: PGN SAN and the scoresheet form differ only in these. */
struct notation_style {
	const char *letters; /* piece letters indexed by enum chess_piece_type */
	char castle;	     /* 'O' in PGN, '0' on paper (Appendix C) */
	bool promo_equals;   /* "e8=Q" in PGN, "e8D" on paper */
};

static const struct notation_style san_style = {" PNBRQK", 'O', true};

/* Appendix C's national letters of the languages the device speaks, for K Q R B N, and the
 * same indexed by enum chess_piece_type (a pawn has no letter). */
static const struct national_letters {
	char letters[6];
	char by_type[8];
} national[PHRASE_LANG_COUNT] = {
    [PHRASE_EN] = {"KQRBN", "  NBRQK"},
    [PHRASE_DE] = {"KDTLS", "  SLTDK"},
    [PHRASE_SV] = {"KDTLS", "  SLTDK"},
    [PHRASE_NL] = {"KDTLP", "  PLTDK"},
};

/* The row of a language: English for NULL or one the device does not speak. */
static const struct national_letters *national_of(const char *lang)
{
	return &national[phrase_lang_or(lang, PHRASE_EN)];
}

const char *chess_piece_letters(const char *lang)
{
	return national_of(lang)->letters;
}

/* Appends to a bounded buffer; output is cut rather than overflowing. */
struct outbuf {
	char *buf;
	size_t size;
	size_t len;
};

static void out_char(struct outbuf *o, char c)
{
	if (o->size == 0)
		return;
	if (o->len + 1 < o->size)
		o->buf[o->len++] = c;
	o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
}

static void out_str(struct outbuf *o, const char *s)
{
	while (*s)
		out_char(o, *s++);
}

static void out_square(struct outbuf *o, int sq)
{
	out_char(o, (char)('a' + CHESS_FILE(sq)));
	out_char(o, (char)('1' + CHESS_RANK(sq)));
}

static bool list_contains(const struct chess_move_list *list, chess_move m)
{
	for (int i = 0; i < list->count; i++)
		if (list->moves[i] == m)
			return true;
	return false;
}

/* "+" or "#" after m, found by playing it on a copy. */
static void out_check_mark(struct outbuf *o, const struct chess_pos *pos, chess_move m)
{
	struct chess_pos after = *pos;
	struct chess_undo undo;
	struct chess_move_list replies;

	chess_pos_make(&after, m, &undo);
	if (!chess_pos_in_check(&after))
		return;
	out_char(o, chess_pos_legal_moves(&after, &replies) == 0 ? '#' : '+');
}

static void format_move(const struct chess_pos *pos, chess_move m, const struct notation_style *st,
			char *buf, size_t size)
{
	struct outbuf o = {buf, size, 0};
	struct chess_move_list legal;

	if (size == 0)
		return;
	buf[0] = '\0';
	chess_pos_legal_moves(pos, &legal);
	/* A move that cannot be played here has no SAN; "--" is PGN's usual null-move mark. */
	if (m == CHESS_MOVE_NONE || !list_contains(&legal, m)) {
		out_str(&o, "--");
		return;
	}

	int from = chess_move_from(m);
	int to = chess_move_to(m);
	enum chess_piece_type type = CHESS_PIECE_TYPE(chess_pos_moving_piece(pos, m));
	bool capture = chess_move_capture_square(pos, m) != CHESS_NO_SQUARE;

	if (chess_move_kind(m) == CHESS_MOVE_CASTLING) {
		out_char(&o, st->castle);
		out_char(&o, '-');
		out_char(&o, st->castle);
		if (CHESS_FILE(to) < CHESS_FILE(from)) {
			out_char(&o, '-');
			out_char(&o, st->castle);
		}
	} else if (type == CHESS_PAWN) {
		if (capture) {
			out_char(&o, (char)('a' + CHESS_FILE(from)));
			out_char(&o, 'x');
		}
		out_square(&o, to);
		enum chess_piece_type promo = chess_move_promotion(m);
		if (promo != CHESS_NO_PIECE) {
			if (st->promo_equals)
				out_char(&o, '=');
			out_char(&o, st->letters[promo]);
		}
	} else {
		/* Appendix C and the PGN standard agree: file first, then rank, then both. */
		bool rivals = false, same_file = false, same_rank = false;
		for (int i = 0; i < legal.count; i++) {
			chess_move other = legal.moves[i];
			int ofrom = chess_move_from(other);
			if (other == m || chess_move_to(other) != to || ofrom == from)
				continue;
			if (CHESS_PIECE_TYPE(chess_pos_moving_piece(pos, other)) != type)
				continue;
			rivals = true;
			if (CHESS_FILE(ofrom) == CHESS_FILE(from))
				same_file = true;
			if (CHESS_RANK(ofrom) == CHESS_RANK(from))
				same_rank = true;
		}
		out_char(&o, st->letters[type]);
		if (rivals) {
			if (!same_file)
				out_char(&o, (char)('a' + CHESS_FILE(from)));
			else if (!same_rank)
				out_char(&o, (char)('1' + CHESS_RANK(from)));
			else
				out_square(&o, from);
		}
		if (capture)
			out_char(&o, 'x');
		out_square(&o, to);
	}
	out_check_mark(&o, pos, m);
}

void chess_move_to_san(const struct chess_pos *pos, chess_move m, char *buf, size_t size)
{
	format_move(pos, m, &san_style, buf, size);
}

void chess_move_to_local(const struct chess_pos *pos, chess_move m, char *buf, size_t size)
{
	chess_move_to_local_lang(pos, m, "de", buf, size);
}

void chess_move_to_local_lang(const struct chess_pos *pos, chess_move m, const char *lang,
			      char *buf, size_t size)
{
	const struct notation_style style = {national_of(lang)->by_type, '0', false};

	format_move(pos, m, &style, buf, size);
}

void chess_move_to_uci(chess_move m, char *buf, size_t size)
{
	struct outbuf o = {buf, size, 0};

	if (size == 0)
		return;
	buf[0] = '\0';
	if (m == CHESS_MOVE_NONE) {
		out_str(&o, "0000");
		return;
	}
	out_square(&o, chess_move_from(m));
	out_square(&o, chess_move_to(m));
	enum chess_piece_type promo = chess_move_promotion(m);
	if (promo != CHESS_NO_PIECE)
		out_char(&o, " pnbrqk"[promo]);
}

/* ---------------------------------------------------------------- parsing */

static void set_error(struct chess_error *err, int column, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_error(struct chess_error *err, int column, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	err->line = 1;
	err->column = column;
	err->kind = CHESS_ERROR_SYNTAX;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

static void set_error_kind(struct chess_error *err, enum chess_error_kind kind)
{
	if (err)
		err->kind = kind;
}

/* English and German piece letters (Appendix C), and those of `extra` (a language's, by type;
 * NULL: none); only capitals, so that the files b and d are never read as a bishop or a
 * queen. */
static enum chess_piece_type piece_letter(char c, const char *extra)
{
	for (int t = CHESS_KNIGHT; extra && t <= CHESS_KING; t++)
		if (c == extra[t])
			return (enum chess_piece_type)t;
	switch (c) {
	case 'K':
		return CHESS_KING;
	case 'Q':
	case 'D':
		return CHESS_QUEEN;
	case 'R':
	case 'T':
		return CHESS_ROOK;
	case 'B':
	case 'L':
		return CHESS_BISHOP;
	case 'N':
	case 'S':
		return CHESS_KNIGHT;
	default:
		return CHESS_NO_PIECE;
	}
}

/* Promotion letters also come in lower case from UCI ("e7e8q"). */
static enum chess_piece_type promo_letter(char c, const char *extra)
{
	switch (c) {
	case 'q':
		return CHESS_QUEEN;
	case 'r':
		return CHESS_ROOK;
	case 'b':
		return CHESS_BISHOP;
	case 'n':
		return CHESS_KNIGHT;
	default: {
		enum chess_piece_type t = piece_letter(c, extra);
		return t == CHESS_KING ? CHESS_NO_PIECE : t;
	}
	}
}

/* Unicode figurines U+2654..U+265F (UTF-8 E2 99 94..9F), white and black alike. */
static enum chess_piece_type figurine(const unsigned char *s)
{
	static const enum chess_piece_type order[6] = {CHESS_KING,   CHESS_QUEEN,  CHESS_ROOK,
						       CHESS_BISHOP, CHESS_KNIGHT, CHESS_PAWN};
	if (s[0] != 0xE2 || s[1] != 0x99 || s[2] < 0x94 || s[2] > 0x9F)
		return CHESS_NO_PIECE;
	return order[(s[2] - 0x94) % 6];
}

static bool is_file(char c)
{
	return c >= 'a' && c <= 'h';
}
static bool is_rank(char c)
{
	return c >= '1' && c <= '8';
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/*
 * Length of text without what annotates rather than names the move: check
 * and mate marks, !? glyphs, "e.p." and "ep", and surrounding blanks.
 */
static size_t strip_suffixes(const char *s, size_t len)
{
	for (;;) {
		size_t before = len;
		while (len > 0 && strchr(" \t\r\n!?+#", s[len - 1]))
			len--;
		if (ends_with(s, len, "e.p."))
			len -= 4;
		else if (ends_with(s, len, "e.p"))
			len -= 3;
		else if (len > 2 && ends_with(s, len, "ep") &&
			 (is_rank(s[len - 3]) || s[len - 3] == ' ' || s[len - 3] == '.'))
			len -= 2;
		if (len == before)
			return len;
	}
}

/* "O-O", "0-0", "o-o", with or without hyphens: 2 for short, 3 for long, 0 if not castling. */
static int castle_count(const char *s, size_t len)
{
	int n = 0;
	bool want_letter = true;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == 'O' || c == '0' || c == 'o') {
			n++;
			want_letter = false;
		} else if (c == '-' && !want_letter) {
			want_letter = true;
		} else {
			return 0;
		}
	}
	return (n == 2 || n == 3) && !want_letter ? n : 0;
}

static int parse_castling(const struct chess_pos *pos, int n, chess_move *out,
			  struct chess_error *err, int column)
{
	struct chess_move_list legal;

	chess_pos_legal_moves(pos, &legal);
	for (int i = 0; i < legal.count; i++) {
		chess_move m = legal.moves[i];
		if (chess_move_kind(m) != CHESS_MOVE_CASTLING)
			continue;
		bool kingside = CHESS_FILE(chess_move_to(m)) > CHESS_FILE(chess_move_from(m));
		if (kingside == (n == 2)) {
			*out = m;
			return 0;
		}
	}
	set_error(err, column, "no such legal move: %s castling is not possible",
		  n == 2 ? "short" : "long");
	set_error_kind(err, CHESS_ERROR_NO_SUCH_MOVE);
	return -1;
}

int chess_move_parse_san(const struct chess_pos *pos, const char *text, chess_move *out,
			 struct chess_error *err)
{
	return chess_move_parse_lang(pos, text, NULL, out, err);
}

/* The text of a move between its leading blanks and its annotations. */
struct move_text {
	const char *s;
	size_t start, len;
	const char *extra; /* the national letters by piece type, or NULL */
};

/* What the text says of the move: its piece, its target, what it names of its origin. */
struct move_spec {
	enum chess_piece_type piece, promo;
	bool any_piece; /* long notation and UCI name the origin square, not the piece */
	int to, from_file, from_rank;
};

/* Coordinates in the order written: files 'a'..'h' and ranks '1'..'8', with their columns. */
struct move_coords {
	char coord[4];
	int col[4];
	int n;
};

/* The error for the byte at i, which no part of a move accepts. */
static int syntax_error(const struct move_text *t, size_t i, struct chess_error *err)
{
	const char *s = t->s;

	if (s[i] >= 'A' && s[i] <= 'Z' && piece_letter(s[i], t->extra) == CHESS_NO_PIECE)
		set_error(err, (int)i + 1, "unknown piece '%c'", s[i]);
	else if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f)
		set_error(err, (int)i + 1, "syntax: unexpected '%c'", s[i]);
	else
		set_error(err, (int)i + 1, "syntax: unexpected byte 0x%02x", (unsigned char)s[i]);
	return -1;
}

/* Sets start and len around the move; an empty or overlong move is an error. */
static int trim_move(const char *text, struct move_text *t, struct chess_error *err)
{
	if (!text) {
		set_error(err, 1, "empty move");
		return -1;
	}
	t->s = text;
	t->len = strlen(text);
	while (t->start < t->len && strchr(" \t\r\n", text[t->start]))
		t->start++;
	t->len = strip_suffixes(text, t->len);
	if (t->len <= t->start) {
		set_error(err, (int)t->start + 1, "empty move");
		return -1;
	}
	if (t->len - t->start > 64) {
		set_error(err, (int)t->start + 1, "syntax: move text too long");
		return -1;
	}
	return 0;
}

/* The piece letter or figurine at *i, if any, stepping over it. */
static int parse_piece(const struct move_text *t, size_t *i, enum chess_piece_type *piece,
		       struct chess_error *err)
{
	const char *s = t->s;

	if (figurine((const unsigned char *)s + *i) != CHESS_NO_PIECE) {
		*piece = figurine((const unsigned char *)s + *i);
		*i += 3;
	} else if (s[*i] >= 'A' && s[*i] <= 'Z') {
		*piece = piece_letter(s[*i], t->extra);
		if (*piece == CHESS_NO_PIECE) {
			set_error(err, (int)*i + 1, "unknown piece '%c'", s[*i]);
			return -1;
		}
		(*i)++;
	}
	return 0;
}

/* Squares and the marks between them, up to the promotion: *i stops at what follows. */
static int scan_squares(const struct move_text *t, size_t *i, struct move_coords *c,
			struct chess_error *err)
{
	for (; *i < t->len; (*i)++) {
		char ch = t->s[*i];
		if (is_file(ch) || is_rank(ch)) {
			bool have_target =
			    c->n >= 2 && is_file(c->coord[c->n - 2]) && is_rank(c->coord[c->n - 1]);
			/* A final "b" after the target square is UCI for a bishop ("e7e8b"). */
			if (have_target && ch == 'b' && *i + 1 == t->len)
				break;
			if (c->n == 4)
				return syntax_error(t, *i, err);
			c->coord[c->n] = ch;
			c->col[c->n] = (int)*i + 1;
			c->n++;
		} else if (ch == 'x' || ch == 'X' || ch == ':' || ch == '-' || ch == ' ') {
			continue;
		} else {
			break;
		}
	}
	return 0;
}

/* The promotion piece from i to the end: =Q, Q, (Q), /Q, or a UCI letter. */
static int parse_promotion(const struct move_text *t, size_t i, enum chess_piece_type *promo,
			   struct chess_error *err)
{
	const char *s = t->s;
	size_t p = i;
	bool promo_open = false;

	if (i >= t->len)
		return 0;
	if (s[p] == '=' || s[p] == '/' || s[p] == '(') {
		promo_open = s[p] == '(';
		p++;
	}
	if (p >= t->len) {
		set_error(err, (int)p + 1, "syntax: promotion piece missing");
		return -1;
	}
	*promo = promo_letter(s[p], t->extra);
	if (*promo == CHESS_NO_PIECE) {
		if (s[p] >= 'A' && s[p] <= 'Z') {
			set_error(err, (int)p + 1, "unknown promotion piece '%c'", s[p]);
			return -1;
		}
		return syntax_error(t, p, err);
	}
	p++;
	if (promo_open) {
		if (p >= t->len || s[p] != ')') {
			set_error(err, (int)p + 1, "syntax: expected ')'");
			return -1;
		}
		p++;
	}
	return p < t->len ? syntax_error(t, p, err) : 0;
}

/* The last two coordinates are the target square; any before it narrow the origin. */
static int read_squares(const struct move_coords *c, size_t i, struct move_spec *sp,
			struct chess_error *err)
{
	const char *coord = c->coord;

	if (c->n < 2 || !is_file(coord[c->n - 2]) || !is_rank(coord[c->n - 1])) {
		set_error(err, c->n ? c->col[c->n - 1] : (int)i + 1,
			  "syntax: expected a target square");
		return -1;
	}
	sp->to = CHESS_SQ(coord[c->n - 2] - 'a', coord[c->n - 1] - '1');
	if (c->n == 3) {
		if (is_file(coord[0]))
			sp->from_file = coord[0] - 'a';
		else
			sp->from_rank = coord[0] - '1';
	} else if (c->n == 4) {
		if (!is_file(coord[0]) || !is_rank(coord[1])) {
			set_error(err, c->col[0], "syntax: expected a square");
			return -1;
		}
		sp->from_file = coord[0] - 'a';
		sp->from_rank = coord[1] - '1';
	}
	if (sp->piece == CHESS_NO_PIECE) {
		if (sp->from_file >= 0 && sp->from_rank >= 0)
			sp->any_piece = true;
		else
			sp->piece = CHESS_PAWN;
	}
	return 0;
}

/* Whether legal move m fits the spec, but for its promotion piece. */
static bool fits_spec(const struct chess_pos *pos, chess_move m, const struct move_spec *sp)
{
	int from = chess_move_from(m);

	if (chess_move_to(m) != sp->to)
		return false;
	if (!sp->any_piece && CHESS_PIECE_TYPE(chess_pos_moving_piece(pos, m)) != sp->piece)
		return false;
	if (sp->from_file >= 0 && CHESS_FILE(from) != sp->from_file)
		return false;
	return sp->from_rank < 0 || CHESS_RANK(from) == sp->from_rank;
}

/* The one legal move that fits the spec; none or two are errors naming why. */
static int find_move(const struct chess_pos *pos, const struct move_spec *sp,
		     const struct move_text *t, chess_move *out, struct chess_error *err)
{
	struct chess_move_list legal;
	chess_move found = CHESS_MOVE_NONE, second = CHESS_MOVE_NONE;
	int matches = 0;
	bool promo_missing = false;

	chess_pos_legal_moves(pos, &legal);
	for (int k = 0; k < legal.count; k++) {
		chess_move m = legal.moves[k];
		if (!fits_spec(pos, m, sp))
			continue;
		if (chess_move_promotion(m) != sp->promo) {
			/* A pawn on the last rank needs its piece named (D.2.1); never assume a
			 * queen. */
			if (sp->promo == CHESS_NO_PIECE)
				promo_missing = true;
			continue;
		}
		if (matches++ == 0)
			found = m;
		else if (matches == 2)
			second = m;
	}
	if (matches == 1) {
		*out = found;
		return 0;
	}
	if (matches > 1) {
		char a[CHESS_SAN_MAX], b[CHESS_SAN_MAX];
		chess_move_to_san(pos, found, a, sizeof(a));
		chess_move_to_san(pos, second, b, sizeof(b));
		set_error(err, (int)t->start + 1, "ambiguous: could be %s or %s", a, b);
		set_error_kind(err, CHESS_ERROR_AMBIGUOUS);
		return -1;
	}
	if (promo_missing) {
		set_error(err, (int)t->len + 1, "promotion piece missing");
		set_error_kind(err, CHESS_ERROR_PROMOTION);
		return -1;
	}
	set_error(err, (int)t->start + 1, "no such legal move");
	set_error_kind(err, CHESS_ERROR_NO_SUCH_MOVE);
	return -1;
}

int chess_move_parse_lang(const struct chess_pos *pos, const char *text, const char *lang,
			  chess_move *out, struct chess_error *err)
{
	struct move_text t = {.extra = lang ? national_of(lang)->by_type : NULL};
	struct move_spec sp = {
	    .piece = CHESS_NO_PIECE, .promo = CHESS_NO_PIECE, .from_file = -1, .from_rank = -1};
	struct move_coords c = {.n = 0};

	*out = CHESS_MOVE_NONE;
	if (trim_move(text, &t, err) < 0)
		return -1;
	int n = castle_count(t.s + t.start, t.len - t.start);
	if (n)
		return parse_castling(pos, n, out, err, (int)t.start + 1);

	size_t i = t.start;
	if (parse_piece(&t, &i, &sp.piece, err) < 0 || scan_squares(&t, &i, &c, err) < 0 ||
	    parse_promotion(&t, i, &sp.promo, err) < 0 || read_squares(&c, i, &sp, err) < 0)
		return -1;
	return find_move(pos, &sp, &t, out, err);
}

int chess_move_parse_uci(const struct chess_pos *pos, const char *text, chess_move *out)
{
	struct chess_move_list legal;
	enum chess_piece_type promo = CHESS_NO_PIECE;
	size_t len = text ? strlen(text) : 0;

	*out = CHESS_MOVE_NONE;
	if (len != 4 && len != 5)
		return -1;
	if (!is_file(text[0]) || !is_rank(text[1]) || !is_file(text[2]) || !is_rank(text[3]))
		return -1;
	if (len == 5) {
		switch (text[4]) {
		case 'q':
		case 'Q':
			promo = CHESS_QUEEN;
			break;
		case 'r':
		case 'R':
			promo = CHESS_ROOK;
			break;
		case 'b':
		case 'B':
			promo = CHESS_BISHOP;
			break;
		case 'n':
		case 'N':
			promo = CHESS_KNIGHT;
			break;
		default:
			return -1;
		}
	}
	int from = CHESS_SQ(text[0] - 'a', text[1] - '1');
	int to = CHESS_SQ(text[2] - 'a', text[3] - '1');
	chess_pos_legal_moves(pos, &legal);
	for (int i = 0; i < legal.count; i++) {
		chess_move m = legal.moves[i];
		if (chess_move_from(m) == from && chess_move_to(m) == to &&
		    chess_move_promotion(m) == promo) {
			*out = m;
			return 0;
		}
	}
	return -1;
}
