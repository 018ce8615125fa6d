/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * PGN games: building them move by move and writing the export format.  Reading files
 * with many games is chess/pgn_read.c.
 */
#include "chess/pgn.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "chess/pgn_int.h"

#include <stdlib.h>
#include <string.h>

/* Export format: movetext lines stay under 80 columns. */
#define LINE_MAX_COLS 79
/* A comment word longer than this is split so that no line overflows. */
#define WORD_MAX 70

static const char *const roster[7] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
static const char *const roster_default[7] = {"?", "?", "????.??.??", "?", "?", "?", "*"};

static bool valid_result(const char *r)
{
	return r &&
	       (!strcmp(r, "1-0") || !strcmp(r, "0-1") || !strcmp(r, "1/2-1/2") || !strcmp(r, "*"));
}

static bool valid_tag_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0 || n > PGN_MAX_TAG_NAME)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_name_char(name[i]))
			return false;
	return true;
}

static char *copy_bounded(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *p = malloc(n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* ---------------------------------------------------------------- games */

int pgn_game_init(struct pgn_game *g, const struct chess_pos *start)
{
	struct chess_pos initial;

	memset(g, 0, sizeof(*g));
	if (!start) {
		chess_pos_init_start(&initial);
		start = &initial;
	}
	if (chess_game_init(&g->game, start) < 0) {
		memset(g, 0, sizeof(*g));
		return -1;
	}
	/* A non-empty result also marks the chess_game as live for pgn_game_free. */
	strcpy(g->result, "*");
	for (int i = 0; i < 7; i++) {
		if (pgn_game_set_tag(g, roster[i], roster_default[i]) < 0) {
			pgn_game_free(g);
			return -1;
		}
	}
	return 0;
}

void pgn_game_free(struct pgn_game *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->tag_count; i++) {
		free(g->tags[i].name);
		free(g->tags[i].value);
	}
	free(g->tags);
	for (int i = 0; i < g->comments_capacity; i++)
		free(g->comments[i]);
	free(g->comments);
	free(g->san);
	free(g->leading_comment);
	for (int i = 0; i < g->variation_count; i++) {
		struct pgn_variation *v = &g->variations[i];

		for (int k = 0; k < v->count; k++)
			free(v->comments[k]);
		free(v->comments);
		free(v->moves);
		free(v->leading_comment);
	}
	free(g->variations);
	if (g->result[0])
		chess_game_free(&g->game);
	memset(g, 0, sizeof(*g));
}

int pgn_game_set_tag(struct pgn_game *g, const char *name, const char *value)
{
	if (!valid_tag_name(name) || !value)
		return -1;
	char *v = copy_bounded(value, PGN_MAX_TAG_VALUE);
	if (!v)
		return -1;
	for (int i = 0; i < g->tag_count; i++) {
		if (!strcmp(g->tags[i].name, name)) {
			free(g->tags[i].value);
			g->tags[i].value = v;
			goto set;
		}
	}
	if (g->tag_count >= PGN_MAX_TAGS)
		goto fail;
	struct pgn_tag *tags = realloc(g->tags, (size_t)(g->tag_count + 1) * sizeof(*tags));
	if (!tags)
		goto fail;
	g->tags = tags;
	tags[g->tag_count].name = copy_bounded(name, PGN_MAX_TAG_NAME);
	if (!tags[g->tag_count].name)
		goto fail;
	tags[g->tag_count].value = v;
	g->tag_count++;
set:
	/* The Result tag and the movetext terminator must agree. */
	if (!strcmp(name, "Result") && valid_result(v))
		strcpy(g->result, v);
	return 0;
fail:
	free(v);
	return -1;
}

const char *pgn_game_tag(const struct pgn_game *g, const char *name)
{
	for (int i = 0; i < g->tag_count; i++)
		if (!strcmp(g->tags[i].name, name))
			return g->tags[i].value;
	return NULL;
}

int pgn_game_push(struct pgn_game *g, chess_move m, const char *comment)
{
	if (g->game.count >= PGN_MAX_PLIES)
		return -1;
	int idx = g->game.count;
	if (idx >= g->comments_capacity) {
		int cap = g->comments_capacity ? g->comments_capacity * 2 : 64;
		char **c = realloc(g->comments, (size_t)cap * sizeof(*c));
		if (!c)
			return -1;
		memset(c + g->comments_capacity, 0,
		       (size_t)(cap - g->comments_capacity) * sizeof(*c));
		g->comments = c;
		char(*san)[CHESS_SAN_MAX] = realloc(g->san, (size_t)cap * sizeof(*san));
		if (!san)
			return -1;
		g->san = san;
		g->comments_capacity = cap;
	}
	if (!chess_pos_is_legal(&g->game.pos, m))
		return -1;
	chess_move_to_san(&g->game.pos, m, g->san[idx], sizeof(g->san[idx]));
	char *copy = NULL;
	if (comment && !(copy = copy_bounded(comment, PGN_MAX_COMMENT)))
		return -1;
	if (chess_game_push(&g->game, m) < 0) {
		free(copy);
		return -1;
	}
	/* A slot can hold a stale comment when moves were taken back with chess_game_pop. */
	free(g->comments[idx]);
	g->comments[idx] = copy;
	return 0;
}

int pgn_game_set_leading_comment(struct pgn_game *g, const char *comment)
{
	char *copy = NULL;

	if (comment && !(copy = copy_bounded(comment, PGN_MAX_COMMENT)))
		return -1;
	free(g->leading_comment);
	g->leading_comment = copy;
	return 0;
}

int pgn_game_set_result(struct pgn_game *g, const char *result)
{
	if (!valid_result(result))
		return -1;
	return pgn_game_set_tag(g, "Result", result);
}

/* ---------------------------------------------------------------- writer */

struct sbuf {
	struct strbuf text;
	int col; /* length of the current movetext line */
};

static void sb_mem(struct sbuf *b, const char *s, size_t n)
{
	strbuf_append(&b->text, s, n);
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_mem(b, s, strlen(s));
}

static void sb_tag(struct sbuf *b, const char *name, const char *value)
{
	sb_str(b, "[");
	sb_str(b, name);
	sb_str(b, " \"");
	/* A tag pair is one line, read in its order: what breaks a line or turns the text
	 * cannot stay (base/utf8.h). */
	for (const char *v = value; *v;) {
		size_t n = strcspn(v, "\\\"");

		utf8_append_safe(&b->text, v, n, false);
		v += n;
		if (*v) {
			sb_mem(b, "\\", 1);
			sb_mem(b, v++, 1);
		}
	}
	sb_str(b, "\"]\n");
}

/* Adds a movetext word, wrapping before it when the line would reach 80 columns. */
static void sb_word(struct sbuf *b, const char *w, size_t n)
{
	if (b->col > 0 && b->col + 1 + (int)n > LINE_MAX_COLS) {
		sb_mem(b, "\n", 1);
		b->col = 0;
	}
	if (b->col > 0) {
		sb_mem(b, " ", 1);
		b->col++;
	} else if (w[0] == '%') {
		/* A '%' in column 1 would turn the line into an escape line. */
		sb_mem(b, " ", 1);
		b->col++;
	}
	sb_mem(b, w, n);
	b->col += (int)n;
}

/* A comment as brace-delimited words; '}' cannot appear inside one (it becomes ')'), and
 * runs of white space become single spaces so that it can be wrapped.  A comment that is
 * short once so normalised (such as "[%clk 1:23:45]") stays whole on one line, so readers
 * that look for clock commands line by line find them; the choice depends on the normalised
 * text alone, so a second export is the same as the first.  A word too long for a line is
 * cut into pieces: the line limit wins over the word. */
static void sb_comment_safe(struct sbuf *b, const char *text)
{
	char norm[WORD_MAX + 3], piece[WORD_MAX + 3];
	size_t len = 0, total = 0;
	bool have = false;
	const char *s = text;

	/* The normalised length, and the text itself when it is short. */
	for (const char *q = text; *q; q++) {
		if (is_space(*q) && (total == 0 || is_space(q[1]) || !q[1]))
			continue;
		if (total < WORD_MAX)
			norm[total + 1] = is_space(*q) ? ' ' : *q == '}' ? ')' : *q;
		total++;
	}
	if (total == 0)
		return;
	if (total <= WORD_MAX) {
		norm[0] = '{';
		norm[total + 1] = '}';
		sb_word(b, norm, total + 2);
		return;
	}

	for (;;) {
		while (*s && is_space(*s))
			s++;
		if (!*s)
			break;
		size_t n = 0;
		while (s[n] && !is_space(s[n]) && n < WORD_MAX)
			n++;
		/* A word cut at the limit is cut between characters, never inside one: the
		 * line break would leave its bytes no UTF-8 character. */
		if (n == WORD_MAX && s[n] && !is_space(s[n])) {
			size_t whole = n;

			while (whole > 0 && ((unsigned char)s[whole] & 0xC0) == 0x80)
				whole--;
			if (whole > 0)
				n = whole;
		}
		if (have)
			sb_word(b, piece, len);
		len = 0;
		if (!have)
			piece[len++] = '{';
		for (size_t i = 0; i < n; i++)
			piece[len++] = s[i] == '}' ? ')' : s[i];
		have = true;
		s += n;
	}
	if (!have)
		return;
	piece[len++] = '}';
	sb_word(b, piece, len);
}

/* What breaks a line or turns the text in a comment cannot stay either (base/utf8.h). */
static void sb_comment(struct sbuf *b, const char *text)
{
	struct strbuf safe = {0};

	if (utf8_unsafe_at(text, strlen(text), false) == strlen(text)) {
		sb_comment_safe(b, text);
		return;
	}
	utf8_append_safe(&safe, text, strlen(text), false);
	if (safe.p)
		sb_comment_safe(b, safe.p);
	b->text.failed |= safe.failed;
	free(safe.p);
}

/* A move number's digits into buf (at least 11 bytes); returns their count. */
static size_t move_number(char *buf, int number)
{
	char rev[12];
	size_t n = 0, len = 0;
	unsigned v = number > 0 ? (unsigned)number : 0u;

	do {
		rev[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && n < sizeof(rev));
	while (n)
		buf[len++] = rev[--n];
	return len;
}

char *pgn_format(const struct pgn_game *g)
{
	struct sbuf b = {0};
	char fen[CHESS_FEN_MAX];

	for (int i = 0; i < 7; i++) {
		const char *v = i == 6 ? g->result : pgn_game_tag(g, roster[i]);
		sb_tag(&b, roster[i], v ? v : roster_default[i]);
	}
	chess_fen_format(&g->game.start, fen, sizeof(fen));
	if (strcmp(fen, CHESS_FEN_START) != 0) {
		sb_tag(&b, "SetUp", "1");
		sb_tag(&b, "FEN", fen);
	}
	for (int i = 0; i < g->tag_count; i++) {
		const char *name = g->tags[i].name;
		bool skip = !strcmp(name, "SetUp") || !strcmp(name, "FEN");
		for (int k = 0; k < 7 && !skip; k++)
			skip = !strcmp(name, roster[k]);
		if (!skip)
			sb_tag(&b, name, g->tags[i].value);
	}
	sb_str(&b, "\n");

	bool need_number = true; /* Black's move needs "N..." at the start and after a comment */
	if (g->leading_comment && *g->leading_comment)
		sb_comment(&b, g->leading_comment);
	for (int i = 0; i < g->game.count; i++) {
		const char *san = g->san[i];
		char word[CHESS_SAN_MAX + 16];
		int number = (int)g->game.start.fullmove_number + (i + g->game.start.side) / 2;
		bool white = ((g->game.start.side + i) & 1) == 0;

		size_t n = 0;

		/* By hand, not snprintf: this runs for every move at every write. */
		if (white || need_number) {
			n = move_number(word, number);
			memcpy(word + n, white ? ". " : "... ", white ? 2 : 4);
			n += white ? 2 : 4;
		}
		for (const char *c = san; *c && n < sizeof(word) - 1; c++)
			word[n++] = *c;
		word[n] = '\0';
		sb_word(&b, word, n);
		need_number = false;
		if (i < g->comments_capacity && g->comments[i] && *g->comments[i]) {
			size_t before = b.text.len;
			sb_comment(&b, g->comments[i]);
			need_number = b.text.len != before;
		}
	}
	sb_word(&b, g->result, strlen(g->result));
	sb_str(&b, "\n");
	return strbuf_finish(&b.text);
}
