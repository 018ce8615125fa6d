/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/salvage.h"

#include <stdlib.h>
#include <string.h>

#include "chess/pgn.h"

/* A ply's text as read: none yet, a move, something that could not be read there, or two
 * different moves (neither is taken). */
enum slot { SLOT_EMPTY = 0, SLOT_MOVE, SLOT_BAD, SLOT_CONFLICT };

struct reading {
	struct salvage *sv;
	enum slot *slots;
	int cap;
	int expect; /* the ply the next move token is, -1: unknown until a good move number */
	int last;   /* the ply of the last move token (its comment's), -1 if none */
	int first_number;
	int first_side; /* the start position's move number and side */
};

static int grow(struct reading *rd, int ply)
{
	struct salvage *sv = rd->sv;

	if (ply >= PGN_MAX_PLIES)
		return -1;
	if (ply >= rd->cap) {
		int cap = ply + 256;
		struct salvage_ply *p = realloc(sv->plies, sizeof(*p) * (size_t)cap);
		enum slot *s;

		if (!p)
			return -1;
		sv->plies = p;
		s = realloc(rd->slots, sizeof(*s) * (size_t)cap);
		if (!s)
			return -1;
		rd->slots = s;
		for (int i = rd->cap; i < cap; i++) {
			sv->plies[i].san[0] = '\0';
			sv->plies[i].clk_ms = -1;
			sv->plies[i].comment = NULL;
			sv->plies[i].comment_len = 0;
			s[i] = SLOT_EMPTY;
		}
		rd->cap = cap;
	}
	if (ply >= sv->count)
		sv->count = ply + 1;
	return 0;
}

/* A move token (or a bad one) at the ply expected; a ply read twice differently is
 * unreadable, a bad token never hides a good one read there. */
static int put(struct reading *rd, const char *san, size_t len)
{
	struct salvage *sv = rd->sv;
	int ply = rd->expect;

	if (ply < 0) {
		/* Not placed: nor is a comment after it. */
		rd->last = -1;
		if (!san)
			sv->damaged = true;
		return 0;
	}
	rd->expect++;
	rd->last = ply;
	if (grow(rd, ply))
		return -1;
	if (!san) {
		sv->damaged = true;
		if (rd->slots[ply] == SLOT_EMPTY)
			rd->slots[ply] = SLOT_BAD;
		return 0;
	}
	if (rd->slots[ply] == SLOT_CONFLICT)
		return 0;
	if (rd->slots[ply] == SLOT_MOVE &&
	    (strlen(sv->plies[ply].san) != len || memcmp(sv->plies[ply].san, san, len))) {
		sv->damaged = true;
		sv->plies[ply].san[0] = '\0';
		rd->slots[ply] = SLOT_CONFLICT;
		return 0;
	}
	rd->slots[ply] = SLOT_MOVE;
	memcpy(sv->plies[ply].san, san, len);
	sv->plies[ply].san[len] = '\0';
	return 0;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The shape of a SAN move as the store writes it: piece, squares, capture, promotion,
 * castling, check or mate. */
static bool san_shaped(const char *t, size_t n)
{
	if (n < 2 || n >= CHESS_SAN_MAX)
		return false;
	if (!strchr("KQRBNabcdefghO", t[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("KQRBNabcdefgh12345678xO-=+#", t[i]))
			return false;
	return true;
}

/* "12." (White's move 12) or "12..." (Black's): the ply; -1 if the token is no clean move
 * number. */
static int move_number_ply(const struct reading *rd, const char *t, size_t n)
{
	size_t i = 0, dots;
	long number = 0;

	while (i < n && is_digit(t[i]) && i < 6)
		number = number * 10 + (t[i++] - '0');
	if (i == 0 || i == n)
		return -1;
	for (dots = 0; i + dots < n; dots++)
		if (t[i + dots] != '.')
			return -1;
	if (dots != 1 && dots != 3)
		return -1;
	/* Ply 0 is the start position's side's move of first_number. */
	number = 2 * (number - rd->first_number) + (dots == 3 ? 1 : 0) - rd->first_side;
	return number >= 0 && number < PGN_MAX_PLIES ? (int)number : -1;
}

/* "[%clk H:MM:SS]" alone in a comment: its time in ms, -1 if there is none or it cannot be
 * read (also when it is there twice: a comment that swallowed the next one). */
static int64_t comment_clk(const char *c, size_t n, bool *bad)
{
	const char *tag = "[%clk ";
	const char *p = NULL;
	long h = 0, m, s;
	size_t i;

	for (i = 0; i + 6 <= n; i++) {
		if (memcmp(c + i, tag, 6))
			continue;
		if (p) {
			*bad = true;
			return -1;
		}
		p = c + i + 6;
	}
	if (!p)
		return -1;
	i = (size_t)(p - c);
	if (i >= n || !is_digit(c[i])) {
		*bad = true;
		return -1;
	}
	while (i < n && is_digit(c[i]) && h < 1000)
		h = h * 10 + (c[i++] - '0');
	if (i + 6 >= n || c[i] != ':' || !is_digit(c[i + 1]) || !is_digit(c[i + 2]) ||
	    c[i + 3] != ':' || !is_digit(c[i + 4]) || !is_digit(c[i + 5]) || c[i + 6] != ']') {
		*bad = true;
		return -1;
	}
	m = (c[i + 1] - '0') * 10 + (c[i + 2] - '0');
	s = (c[i + 4] - '0') * 10 + (c[i + 5] - '0');
	if (m > 59 || s > 59) {
		*bad = true;
		return -1;
	}
	return ((int64_t)h * 3600 + m * 60 + s) * 1000;
}

/* A tag line `[Name "Value"]` (without its newline) into t; false if it is not one. */
static bool tag_line(const char *l, size_t n, struct salvage_tag *t)
{
	size_t i = 1, k = 0;

	if (n < 5 || l[0] != '[' || l[n - 1] != ']')
		return false;
	while (i < n && (is_digit(l[i]) || l[i] == '_' || (l[i] >= 'A' && l[i] <= 'Z') ||
			 (l[i] >= 'a' && l[i] <= 'z'))) {
		if (k + 1 >= sizeof(t->name))
			return false;
		t->name[k++] = l[i++];
	}
	t->name[k] = '\0';
	if (!k || is_digit(t->name[0]) || i + 2 >= n || l[i] != ' ' || l[i + 1] != '"')
		return false;
	i += 2;
	k = 0;
	while (i < n - 2 && l[i] != '"') {
		if (l[i] == '\\')
			i++;
		if (k + 1 >= sizeof(t->value) || (unsigned char)l[i] < 0x20)
			return false;
		t->value[k++] = l[i++];
	}
	t->value[k] = '\0';
	return i == n - 2 && l[i] == '"';
}

const char *salvage_tag(const struct salvage *sv, const char *name)
{
	for (int i = 0; i < sv->tag_count; i++)
		if (!strcmp(sv->tags[i].name, name))
			return sv->tags[i].value;
	return NULL;
}

static bool is_result(const char *t, size_t n)
{
	static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};

	for (int i = 0; i < 4; i++)
		if (strlen(results[i]) == n && !memcmp(results[i], t, n))
			return true;
	return false;
}

/* A tag line at text + i (its '['): into the tags, or the tags are damaged.  Where the line
 * ends. */
static size_t read_tag(struct salvage *sv, const char *text, size_t len, size_t i)
{
	size_t j = i;

	while (j < len && text[j] != '\n')
		j++;
	if (j < len && sv->tag_count < SALVAGE_TAGS_MAX &&
	    tag_line(text + i, j - i, &sv->tags[sv->tag_count])) {
		sv->tag_count++;
	} else {
		sv->damaged = true;
		sv->tags_damaged = true;
	}
	return j;
}

/* A comment at text + i (its '{'): the last move's, with its reading.  Where it ends (past
 * its '}'), or 0 if the file was cut short inside it. */
static size_t read_comment(struct reading *rd, const char *text, size_t len, size_t i)
{
	struct salvage *sv = rd->sv;
	bool bad = false;
	int64_t clk;
	size_t j;

	for (j = i + 1; j < len && text[j] != '}'; j++)
		;
	if (j == len) {
		/* Cut short inside a comment: its reading is not whole. */
		sv->damaged = true;
		return 0;
	}
	clk = comment_clk(text + i + 1, j - i - 1, &bad);
	if (bad)
		sv->damaged = true;
	/* One comment a ply, as the store writes it. */
	if (rd->last >= 0 && grow(rd, rd->last) == 0) {
		if (sv->plies[rd->last].comment)
			sv->damaged = true;
		sv->plies[rd->last].comment = text + i + 1;
		sv->plies[rd->last].comment_len = j - i - 1;
	}
	if (rd->last >= 0 && clk >= 0 && grow(rd, rd->last) == 0) {
		if (sv->plies[rd->last].clk_ms >= 0 && sv->plies[rd->last].clk_ms != clk) {
			sv->damaged = true;
			clk = -1;
		}
		sv->plies[rd->last].clk_ms = clk;
	}
	return j + 1;
}

/* The end of the text: without a result it is damaged, and so is a ply read that is not a
 * move (its text dropped). */
static void read_end(struct reading *rd)
{
	struct salvage *sv = rd->sv;

	if (!sv->has_result)
		sv->damaged = true;
	for (int p = 0; p < sv->count; p++)
		if (rd->slots[p] != SLOT_MOVE) {
			sv->plies[p].san[0] = '\0';
			sv->damaged = true;
		}
	free(rd->slots);
}

int salvage_read(struct salvage *sv, const char *text, size_t len, const struct chess_pos *start)
{
	struct reading rd = {.sv = sv, .expect = -1, .last = -1};
	size_t i = 0;
	bool at_line_start = true, in_tags = true;

	memset(sv, 0, sizeof(*sv));
	rd.first_number = start->fullmove_number;
	rd.first_side = start->side == CHESS_BLACK ? 1 : 0;
	while (i < len) {
		char c = text[i];
		size_t j;

		/* The tag section: whole lines in brackets before the movetext. */
		if (in_tags && at_line_start && c == '[') {
			i = read_tag(sv, text, len, i);
			continue;
		}
		if (c == '\n') {
			at_line_start = true;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r') {
			i++;
			continue;
		}
		in_tags = false;
		at_line_start = false;
		if (c == '{') {
			i = read_comment(&rd, text, len, i);
			if (!i)
				break;
			continue;
		}
		if (c == ';') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		/* A token ends at a separator; a NUL (a flipped space) is a byte of it. */
		for (j = i; j < len && (!text[j] || !strchr(" \t\r\n{;", text[j])); j++)
			;
		if (j == len && (len == 0 || text[len - 1] != '\n')) {
			/* The file was cut inside its last token: it may be a part of a move. */
			sv->damaged = true;
			break;
		}
		if (is_result(text + i, j - i)) {
			sv->has_result = true;
			sv->finished = !(j - i == 1 && text[i] == '*');
			break;
		}
		if (text[i] == '$') {
			i = j; /* a NAG */
			continue;
		}
		if (is_digit(text[i])) {
			int ply = move_number_ply(&rd, text + i, j - i);

			/* A damaged move number: the next moves cannot be placed. */
			if (ply < 0)
				sv->damaged = true;
			rd.expect = ply;
			rd.last = -1;
			i = j;
			continue;
		}
		if (put(&rd, san_shaped(text + i, j - i) ? text + i : NULL, j - i)) {
			salvage_free(sv);
			free(rd.slots);
			return -1;
		}
		i = j;
	}
	read_end(&rd);
	return 0;
}

void salvage_free(struct salvage *sv)
{
	free(sv->plies);
	memset(sv, 0, sizeof(*sv));
}
