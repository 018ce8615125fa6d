/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * PGN's reader: files with many games, their tags, movetext, comments and (when told to)
 * variations; the games it fills are built as chess/pgn.c builds them.
 *
 * The reader is meant for whatever lands on the device (tournament files,
 * hand-typed scoresheets, other programs' output), so it is lenient where the
 * meaning is clear, bounded everywhere, and reports the line and column of
 * anything it cannot read instead of guessing.
 */
#include "chess/pgn.h"
#include "chess/pgn_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest token taken as a move; real SAN is at most 7 characters plus annotations. */
#define TOKEN_MAX 64
/* Inputs beyond this are refused rather than risking int overflow in line numbers. */
#define INPUT_MAX ((size_t)1 << 30)

struct pgn_reader {
	char *text;
	size_t len;
	size_t off;
	bool keep_variations;
	/* Where line numbers were last counted up to, so locating errors stays linear. */
	size_t mark_off, mark_line_start;
	int mark_line;
};

struct pgn_reader *pgn_reader_new(const char *text, size_t len)
{
	if (len > INPUT_MAX || (!text && len))
		return NULL;
	struct pgn_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->text = malloc(len + 1);
	if (!r->text) {
		free(r);
		return NULL;
	}
	if (len)
		memcpy(r->text, text, len);
	r->text[len] = '\0';
	r->len = len;
	r->mark_line = 1;
	/* A UTF-8 byte order mark from Windows editors. */
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		r->off = 3;
	return r;
}

void pgn_reader_free(struct pgn_reader *r)
{
	if (!r)
		return;
	free(r->text);
	free(r);
}

static void locate(struct pgn_reader *r, size_t off, int *line, int *col)
{
	if (off < r->mark_off) {
		r->mark_off = 0;
		r->mark_line = 1;
		r->mark_line_start = 0;
	}
	for (size_t p = r->mark_off; p < off && p < r->len; p++) {
		if (r->text[p] == '\n') {
			r->mark_line++;
			r->mark_line_start = p + 1;
		}
	}
	r->mark_off = off;
	*line = r->mark_line;
	*col = (int)(off - r->mark_line_start) + 1;
}

static int reader_error(struct pgn_reader *r, struct chess_error *err, size_t off, const char *fmt,
			...) __attribute__((format(printf, 4, 5)));

static int reader_error(struct pgn_reader *r, struct chess_error *err, size_t off, const char *fmt,
			...)
{
	va_list ap;
	int line, col;

	locate(r, off, &line, &col);
	if (err) {
		err->line = line;
		err->column = col;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static bool at_line_start(const struct pgn_reader *r, size_t off)
{
	return off == 0 || r->text[off - 1] == '\n';
}

static void skip_line(struct pgn_reader *r)
{
	while (r->off < r->len && r->text[r->off] != '\n')
		r->off++;
}

/* A line that opens a tag pair: '[' then a name (not "[%clk", which is comment data). */
static bool tag_line_at(const struct pgn_reader *r, size_t off)
{
	if (!at_line_start(r, off) || off >= r->len || r->text[off] != '[')
		return false;
	off++;
	while (off < r->len && (r->text[off] == ' ' || r->text[off] == '\t'))
		off++;
	return off < r->len && is_name_char(r->text[off]);
}

/*
 * After an error, skip the rest of the broken game: to the end of its tag
 * section if the error was there, then to the next line that opens a tag pair.
 */
static void recover(struct pgn_reader *r, bool in_tags)
{
	skip_line(r);
	if (in_tags) {
		while (r->off < r->len) {
			r->off++;
			size_t p = r->off;
			while (p < r->len && r->text[p] != '\n' && is_space(r->text[p]))
				p++;
			if (p >= r->len || r->text[p] == '\n')
				break;
			skip_line(r);
		}
	}
	while (r->off < r->len) {
		if (r->text[r->off] == '\n' && tag_line_at(r, r->off + 1)) {
			r->off++;
			return;
		}
		r->off++;
	}
}

/* Appends a comment's words to *dst, single-spaced, bounded by PGN_MAX_COMMENT. */
static int append_comment(char **dst, const char *s, size_t n)
{
	size_t old = *dst ? strlen(*dst) : 0;
	size_t cap = old + n + 2;
	if (cap > PGN_MAX_COMMENT + 1)
		cap = PGN_MAX_COMMENT + 1;
	char *p = realloc(*dst, cap);
	if (!p)
		return -1;
	*dst = p;
	size_t len = old;
	bool pending_space = old > 0;
	for (size_t i = 0; i < n; i++) {
		if (is_space(s[i])) {
			pending_space = len > 0;
			continue;
		}
		if (len + (pending_space ? 2 : 1) >= cap)
			break;
		if (pending_space)
			p[len++] = ' ';
		pending_space = false;
		p[len++] = s[i];
	}
	p[len] = '\0';
	if (len == 0) {
		free(p);
		*dst = NULL;
	}
	return 0;
}

/* A comment, appended to *dst (NULL: passed over). */
static int read_comment(struct pgn_reader *r, char **dst, struct chess_error *err)
{
	size_t start = r->off;
	const char *end;

	if (r->text[start] == '{') {
		end = memchr(r->text + start + 1, '}', r->len - start - 1);
		if (!end)
			return reader_error(r, err, start, "unterminated comment");
		r->off = (size_t)(end - r->text) + 1;
	} else {
		/* ';' runs to the end of the line. */
		end = memchr(r->text + start + 1, '\n', r->len - start - 1);
		if (!end)
			end = r->text + r->len;
		r->off = (size_t)(end - r->text);
	}
	if (!dst)
		return 0;
	if (append_comment(dst, r->text + start + 1, (size_t)(end - r->text) - start - 1) < 0)
		return reader_error(r, err, start, "out of memory");
	return 0;
}

/* Where a comment of the game's moves goes now: after the last move, or before the first. */
static char **game_comment_slot(struct pgn_game *g)
{
	return g->game.count == 0 ? &g->leading_comment : &g->comments[g->game.count - 1];
}

/* Whitespace, escape lines and comments (appended to *dst; NULL: passed over). */
static int skip_between(struct pgn_reader *r, char **dst, struct chess_error *err)
{
	while (r->off < r->len) {
		char c = r->text[r->off];
		if (is_space(c)) {
			r->off++;
		} else if (c == '%' && at_line_start(r, r->off)) {
			skip_line(r);
		} else if (c == '{' || c == ';') {
			if (read_comment(r, dst, err) < 0)
				return -1;
		} else {
			break;
		}
	}
	return 0;
}

static int read_tag(struct pgn_reader *r, struct pgn_game *g, struct chess_error *err)
{
	const char *t = r->text;
	size_t p = r->off + 1, name_start, value_start;
	char name[PGN_MAX_TAG_NAME + 1];
	char *value;
	size_t vlen = 0;

	while (p < r->len && (t[p] == ' ' || t[p] == '\t'))
		p++;
	name_start = p;
	while (p < r->len && is_name_char(t[p]))
		p++;
	if (p == name_start)
		return reader_error(r, err, p, "bad tag: expected a tag name");
	if (p - name_start > PGN_MAX_TAG_NAME)
		return reader_error(r, err, name_start, "bad tag: name too long");
	memcpy(name, t + name_start, p - name_start);
	name[p - name_start] = '\0';
	while (p < r->len && (t[p] == ' ' || t[p] == '\t'))
		p++;
	if (p >= r->len || t[p] != '"')
		return reader_error(r, err, p, "bad tag: expected '\"' before the value");
	value_start = ++p;
	value = malloc(PGN_MAX_TAG_VALUE + 1);
	if (!value)
		return reader_error(r, err, p, "out of memory");
	for (;;) {
		if (p >= r->len || t[p] == '\n' || t[p] == '\r') {
			free(value);
			return reader_error(r, err, value_start - 1, "bad tag: unterminated value");
		}
		if (t[p] == '"')
			break;
		if (t[p] == '\\' && p + 1 < r->len && (t[p + 1] == '\\' || t[p + 1] == '"'))
			p++;
		if (vlen == PGN_MAX_TAG_VALUE) {
			free(value);
			return reader_error(r, err, value_start, "bad tag: value too long");
		}
		/* Control characters (and NUL) cannot be kept in a one-line tag. */
		value[vlen++] = (unsigned char)t[p] < 0x20 ? ' ' : t[p];
		p++;
	}
	value[vlen] = '\0';
	p++;
	while (p < r->len && (t[p] == ' ' || t[p] == '\t'))
		p++;
	if (p >= r->len || t[p] != ']') {
		free(value);
		return reader_error(r, err, p, "bad tag: expected ']'");
	}
	if (!pgn_game_tag(g, name) && g->tag_count >= PGN_MAX_TAGS) {
		free(value);
		return reader_error(r, err, r->off, "too many tags");
	}
	int rc = pgn_game_set_tag(g, name, value);
	free(value);
	if (rc < 0)
		return reader_error(r, err, r->off, "out of memory");
	r->off = p + 1;
	return 0;
}

/* Replaces the start position when the tags give one. */
static int apply_setup(struct pgn_reader *r, struct pgn_game *g, struct chess_error *err,
		       size_t fen_off)
{
	const char *fen = pgn_game_tag(g, "FEN");
	const char *setup = pgn_game_tag(g, "SetUp");
	struct chess_pos start;
	struct chess_error ferr = {0};

	if (!fen) {
		if (setup && !strcmp(setup, "1"))
			return reader_error(r, err, fen_off, "bad tag: SetUp \"1\" without FEN");
		return 0;
	}
	if (chess_fen_parse(&start, fen, &ferr) < 0)
		return reader_error(r, err, fen_off, "bad FEN tag (column %d): %s", ferr.column,
				    ferr.message);
	chess_game_free(&g->game);
	if (chess_game_init(&g->game, &start) < 0) {
		/* pgn_game_free must not free the game twice. */
		g->result[0] = '\0';
		return reader_error(r, err, fen_off, "out of memory");
	}
	return 0;
}

static int skip_variation(struct pgn_reader *r, struct chess_error *err)
{
	size_t start = r->off;
	int depth = 0;

	while (r->off < r->len) {
		char c = r->text[r->off];
		if (c == '(') {
			if (++depth > PGN_MAX_VARIATION_DEPTH)
				return reader_error(r, err, r->off, "variations nested too deeply");
			r->off++;
		} else if (c == ')') {
			r->off++;
			if (--depth == 0)
				return 0;
		} else if (c == '{') {
			const char *end = memchr(r->text + r->off, '}', r->len - r->off);
			if (!end)
				return reader_error(r, err, r->off, "unterminated comment");
			r->off = (size_t)(end - r->text) + 1;
		} else if (c == ';' || (c == '%' && at_line_start(r, r->off))) {
			skip_line(r);
		} else {
			r->off++;
		}
	}
	return reader_error(r, err, start, "unterminated variation");
}

static bool is_token_char(char c)
{
	return !is_space(c) && (unsigned char)c >= 0x20 && !strchr("{}()[];$\"", c);
}

static bool only_chars(const char *s, const char *set)
{
	for (; *s; s++)
		if (!strchr(set, *s))
			return false;
	return true;
}

static const char *token_result(const char *tok)
{
	static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
	for (int i = 0; i < 4; i++)
		if (!strcmp(tok, results[i]))
			return results[i];
	if (!strcmp(tok, "\xC2\xBD-\xC2\xBD") || !strcmp(tok, "1/2"))
		return "1/2-1/2";
	return NULL;
}

/* One movetext token read as a move of `pos`: 1 and *m, 2 and *result for a result, 0 for a
 * move number or an annotation, -1 on error. */
static int read_token(struct pgn_reader *r, const struct chess_pos *pos, chess_move *m,
		      const char **result, struct chess_error *err)
{
	size_t start = r->off, end = r->off;
	char tok[TOKEN_MAX + 1];

	while (end < r->len && is_token_char(r->text[end]))
		end++;
	r->off = end;
	if (end - start > TOKEN_MAX)
		return reader_error(r, err, start, "bad move: token too long");
	memcpy(tok, r->text + start, end - start);
	tok[end - start] = '\0';

	*result = token_result(tok);
	if (*result)
		return 2;
	/* Move numbers: "12.", "12...", and glued to the move as in "12.e4" or "12...Nf6". */
	char *move = tok;
	size_t move_off = start;
	/* Never from '0': "00" and "000" are castling, not a move number. */
	if (move[0] >= '1' && move[0] <= '9') {
		size_t k = 0;
		while (move[k] >= '0' && move[k] <= '9')
			k++;
		if (move[k] == '.' || move[k] == '\0') {
			while (move[k] == '.')
				k++;
			move += k;
			move_off += k;
		}
	}
	if (!*move || only_chars(move, ".") || only_chars(move, "!?+-=/~") ||
	    !strcmp(move, "e.p.") || !strcmp(move, "ep")) {
		/* "--" is a null move: skipping it would shift every later move to the other side.
		 */
		if (!strcmp(move, "--"))
			return reader_error(r, err, move_off, "null move \"--\" is not supported");
		return 0;
	}

	struct chess_error serr = {0};
	if (chess_move_parse_san(pos, move, m, &serr) < 0)
		return reader_error(r, err, move_off, "illegal move \"%.20s\": %.80s", move,
				    serr.message);
	return 1;
}

/* A NAG ("$14"), passed over. */
static int skip_nag(struct pgn_reader *r, struct chess_error *err)
{
	size_t p = r->off + 1;

	while (p < r->len && r->text[p] >= '0' && r->text[p] <= '9')
		p++;
	if (p == r->off + 1 || p - r->off > 4)
		return reader_error(r, err, r->off, "bad NAG");
	r->off = p;
	return 0;
}

chess_move pgn_variation_move(const struct pgn_game *g, int line, int ply)
{
	while (line >= 0 && ply < g->variations[line].base)
		line = g->variations[line].parent;
	if (line < 0)
		return ply >= 0 && ply < g->game.count ? g->game.moves[ply] : CHESS_MOVE_NONE;
	ply -= g->variations[line].base;
	return ply < g->variations[line].count ? g->variations[line].moves[ply] : CHESS_MOVE_NONE;
}

/* A move at the end of variation `line`: 0, or -1 (out of memory). */
static int variation_push(struct pgn_game *g, int line, chess_move m)
{
	struct pgn_variation *v = &g->variations[line];

	if (v->count == v->capacity) {
		int cap = v->capacity ? v->capacity * 2 : 16;
		chess_move *moves = realloc(v->moves, (size_t)cap * sizeof(*moves));
		char **comments;

		if (!moves)
			return -1;
		v->moves = moves;
		comments = realloc(v->comments, (size_t)cap * sizeof(*comments));
		if (!comments)
			return -1;
		v->comments = comments;
		v->capacity = cap;
	}
	v->comments[v->count] = NULL;
	v->moves[v->count++] = m;
	return 0;
}

/* A variation, '(' to ')', kept as an alternative to the move at ply `base` of `parent`
 * (-1: the game's moves); depth counts the variations it is in. */
/* A byte no movetext may hold at r->off: named as a character, or by its code when it is a
 * control byte. */
static int unexpected(struct pgn_reader *r, char c, struct chess_error *err)
{
	if ((unsigned char)c < 0x20 || c == 0x7f)
		return reader_error(r, err, r->off, "unexpected byte 0x%02x", (unsigned char)c);
	return reader_error(r, err, r->off, "unexpected '%c'", c);
}

static int read_variation(struct pgn_reader *r, struct pgn_game *g, int parent, int base, int depth,
			  struct chess_error *err)
{
	size_t start = r->off;
	struct chess_pos pos;
	struct chess_undo undo;
	int line;

	if (depth > PGN_MAX_VARIATION_DEPTH)
		return reader_error(r, err, r->off, "variations nested too deeply");
	if (g->variation_count >= PGN_MAX_VARIATIONS)
		return reader_error(r, err, r->off, "too many variations (over %d)",
				    PGN_MAX_VARIATIONS);
	if (g->variation_count % 16 == 0) {
		struct pgn_variation *more =
		    realloc(g->variations, (size_t)(g->variation_count + 16) * sizeof(*more));

		if (!more)
			return reader_error(r, err, r->off, "out of memory");
		g->variations = more;
	}
	line = g->variation_count++;
	g->variations[line] = (struct pgn_variation){.parent = parent, .base = base};
	pos = g->game.start;
	for (int i = 0; i < base; i++)
		chess_pos_make(&pos, pgn_variation_move(g, parent, i), &undo);
	r->off++;
	for (;;) {
		struct pgn_variation *v = &g->variations[line];
		chess_move m;
		const char *result;
		int rc;

		if (skip_between(r, v->count ? &v->comments[v->count - 1] : &v->leading_comment,
				 err) < 0)
			return -1;
		if (r->off >= r->len)
			return reader_error(r, err, start, "unterminated variation");
		char c = r->text[r->off];
		if (c == ')') {
			r->off++;
			return 0;
		} else if (c == '(') {
			if (!v->count)
				return reader_error(r, err, r->off, "a variation before any move");
			if (read_variation(r, g, line, v->base + v->count - 1, depth + 1, err) < 0)
				return -1;
		} else if (c == '$') {
			if (skip_nag(r, err) < 0)
				return -1;
		} else if (is_token_char(c)) {
			rc = read_token(r, &pos, &m, &result, err);
			if (rc < 0)
				return -1;
			/* A result inside a variation ends nothing: passed over. */
			if (rc != 1)
				continue;
			if (v->base + v->count >= PGN_MAX_PLIES)
				return reader_error(r, err, r->off,
						    "variation too long (over %d plies)",
						    PGN_MAX_PLIES);
			if (variation_push(g, line, m) < 0)
				return reader_error(r, err, r->off, "out of memory");
			chess_pos_make(&pos, m, &undo);
		} else if (c == '[' && at_line_start(r, r->off)) {
			return reader_error(r, err, start, "unterminated variation");
		} else {
			return unexpected(r, c, err);
		}
	}
}

static int read_movetext(struct pgn_reader *r, struct pgn_game *g, struct chess_error *err)
{
	for (;;) {
		if (skip_between(r, game_comment_slot(g), err) < 0)
			return -1;
		if (r->off >= r->len)
			return 0;
		char c = r->text[r->off];
		if (c == '(') {
			if (!r->keep_variations) {
				if (skip_variation(r, err) < 0)
					return -1;
			} else if (!g->game.count) {
				return reader_error(r, err, r->off, "a variation before any move");
			} else if (read_variation(r, g, -1, g->game.count - 1, 1, err) < 0) {
				return -1;
			}
		} else if (c == '[') {
			/* The next game's tags: this one ended without a result. */
			return 0;
		} else if (c == '$') {
			if (skip_nag(r, err) < 0)
				return -1;
		} else if (is_token_char(c)) {
			chess_move m;
			const char *result;
			size_t at = r->off;
			int rc = read_token(r, &g->game.pos, &m, &result, err);

			if (rc < 0)
				return -1;
			if (rc == 2) {
				pgn_game_set_result(g, result);
				return 0;
			}
			if (rc == 0)
				continue;
			if (g->game.count >= PGN_MAX_PLIES)
				return reader_error(r, err, at, "game too long (over %d plies)",
						    PGN_MAX_PLIES);
			if (pgn_game_push(g, m, NULL) < 0)
				return reader_error(r, err, at, "out of memory");
		} else {
			return unexpected(r, c, err);
		}
	}
}

void pgn_reader_keep_variations(struct pgn_reader *r, bool keep)
{
	r->keep_variations = keep;
}

int pgn_reader_next(struct pgn_reader *r, struct pgn_game *g, struct chess_error *err)
{
	bool in_tags = true;
	size_t fen_off = 0;

	memset(g, 0, sizeof(*g));
	if (skip_between(r, NULL, err) < 0) {
		r->off = r->len;
		return -1;
	}
	if (r->off >= r->len)
		return 0;
	if (pgn_game_init(g, NULL) < 0)
		return reader_error(r, err, r->off, "out of memory");
	while (r->off < r->len && r->text[r->off] == '[') {
		if (!strncmp(r->text + r->off, "[FEN", 4) ||
		    !strncmp(r->text + r->off, "[SetUp", 6))
			fen_off = r->off;
		if (read_tag(r, g, err) < 0)
			goto fail;
		if (skip_between(r, game_comment_slot(g), err) < 0)
			goto fail;
	}
	in_tags = false;
	if (apply_setup(r, g, err, fen_off) < 0)
		goto fail;
	if (read_movetext(r, g, err) < 0)
		goto fail;
	return 1;
fail:
	pgn_game_free(g);
	recover(r, in_tags);
	return -1;
}
