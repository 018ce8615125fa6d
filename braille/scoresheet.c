/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The braille scoresheet: tags, one move pair per line, the result; Unicode or BRF lines
 * of at most 40 (or the layout's) cells.  The lines are gathered first, in blocks that
 * must not be split (a wrapped move pair), and then written: BRF on numbered pages.
 */
#include "braille/braille.h"
#include "base/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_CELLS 512

/* A physical line: its cells in `cells` at `off`, and the block it belongs to (the lines of
 * one block stay on one page). */
struct pline {
	size_t off, n;
	int block;
	bool blank; /* the blank line after the tags: left out at the top of a page */
};

struct sheet {
	struct strbuf text;  /* the output */
	struct strbuf cells; /* every physical line's cells, one byte a cell */
	struct pline *lines;
	size_t count, cap;
	bool failed;
	enum braille_format format;
	int width;
	int lines_per_page;
	enum braille_page_number page_number;
	enum braille_signs signs;
	int block;
};

void braille_layout_defaults(struct braille_layout *layout)
{
	layout->cells_per_line = BRAILLE_LINE_CELLS_DEFAULT;
	layout->lines_per_page = BRAILLE_PAGE_LINES_DEFAULT;
	layout->page_number = BRAILLE_PAGE_NUMBER_BOTTOM;
	layout->signs = BRAILLE_SIGNS_AFTER;
}

static void append(struct sheet *s, const char *text, size_t n)
{
	strbuf_append(&s->text, text, n);
}

static void physical_line(struct sheet *s, const braille_cell *cells, size_t n)
{
	if (s->count == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct pline *grown = realloc(s->lines, cap * sizeof(*grown));

		if (!grown) {
			s->failed = true;
			return;
		}
		s->lines = grown;
		s->cap = cap;
	}
	s->lines[s->count] = (struct pline){.off = s->cells.len, .n = n, .block = s->block};
	s->count++;
	if (n)
		strbuf_append(&s->cells, (const char *)cells, n);
}

#define HYPHEN	   (BRAILLE_DOT(3) | BRAILLE_DOT(6))
#define NUMERIC	   (BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5) | BRAILLE_DOT(6))
#define CAPITAL	   BRAILLE_DOT(6)
#define RIGHT_ONLY (BRAILLE_DOT(4) | BRAILLE_DOT(5) | BRAILLE_DOT(6))

/* An indicator or prefix that applies to the cell after it: a UEB prefix is a cell of dots
 * 4, 5 and 6 alone (the capital sign, the letter sign, the first cell of a dash or of an
 * accent's sign); the numeric indicator applies to the digits after it.  Never the last cell
 * of a line (UEB 10.13: an indicator is not separated from what it applies to). */
static bool binds_next(braille_cell c)
{
	return c == NUMERIC || (c && !(c & ~RIGHT_ONLY));
}

/* Where the first physical line of cells[0..n) ends, for n over the width: *take cells
 * shown, *skip cells dropped after them (the space at the break), *hyphen when a word is
 * divided and its line ends with a hyphen.
 *
 * The rules followed: the line ends at the last space that lets it fit (BANA Braille Formats
 * 2016, 1.10.1: words are not divided); in text (`words`), also right after a hyphen of a
 * hyphenated word ("Müller-" / "Lüdenscheidt") or after a dash (UEB 7.2.2: a spaced or
 * unspaced dash may end a line), with nothing added; a word longer than a whole line is
 * divided with a hyphen at the line's end (UEB 10.13.1); and no line ends with an indicator
 * (the capital sign, the numeric indicator, the first cell of the two-cell dash). */
static void line_break(const braille_cell *cells, size_t n, size_t width, bool words, size_t *take,
		       size_t *skip, bool *hyphen)
{
	*skip = 0;
	*hyphen = false;
	for (size_t k = width; k > 0; k--) {
		if (cells[k] == 0) { /* the space at k: the line is cells[0..k) */
			*take = k;
			*skip = 1;
			return;
		}
		if (words && k < n && cells[k - 1] == HYPHEN && cells[k] != 0 && k >= 2 &&
		    cells[k - 2] != 0) {
			*take = k; /* after a hyphen, or after a dash (its second cell) */
			return;
		}
	}
	/* One word longer than the line: divided, a hyphen ending the line (and never right
	 * after an indicator, nor leaving fewer than two cells before it). */
	*take = width - 1;
	while (*take > 2 && binds_next(cells[*take - 1]))
		(*take)--;
	*hyphen = true;
}

/* A logical line, divided to the line width (line_break()): one block.  `words` for text (a
 * tag's value), whose words may be divided; move pairs break at spaces only. */
static void wrap(struct sheet *s, const braille_cell *cells, size_t n, bool words)
{
	size_t width = (size_t)s->width;

	s->block++;
	if (n == 0) {
		physical_line(s, cells, 0);
		return;
	}
	do {
		size_t take = n, skip = 0;
		bool hyphen = false;

		if (n > width)
			line_break(cells, n, width, words, &take, &skip, &hyphen);
		size_t shown = take;
		while (shown > 0 && cells[shown - 1] == 0)
			shown--;
		if (hyphen) {
			braille_cell divided[LINE_MAX_CELLS];

			memcpy(divided, cells, shown);
			divided[shown] = HYPHEN;
			physical_line(s, divided, shown + 1);
		} else {
			physical_line(s, cells, shown);
		}
		cells += take + skip;
		n -= take + skip;
		/* The next line does not begin with the space after a break. */
		while (n > 0 && cells[0] == 0)
			cells++, n--;
	} while (n > 0);
}

static void line(struct sheet *s, const braille_cell *cells, size_t n)
{
	wrap(s, cells, n, false);
}

static void blank_line(struct sheet *s)
{
	line(s, NULL, 0);
	if (s->count)
		s->lines[s->count - 1].blank = true;
}

static void emit(struct sheet *s, const braille_cell *cells, size_t n)
{
	if (s->format == BRAILLE_BRF) {
		char text[LINE_MAX_CELLS];
		for (size_t k = 0; k < n; k++)
			text[k] = braille_to_brf_char(cells[k]);
		append(s, text, n);
		append(s, "\r\n", 2);
	} else {
		char text[LINE_MAX_CELLS * 3 + 1];
		size_t len = braille_to_utf8(cells, n, text, sizeof(text));
		append(s, text, len);
		append(s, "\n", 1);
	}
}

static const braille_cell *line_cells(const struct sheet *s, const struct pline *l)
{
	return (const braille_cell *)s->cells.p + l->off;
}

/* The page number alone at the right margin: "#A" for 1 (UEB numeric indicator). */
static void page_number_line(struct sheet *s, int page)
{
	braille_cell cells[LINE_MAX_CELLS];
	char digits[16];
	int d = snprintf(digits, sizeof(digits), "%d", page);
	size_t width = (size_t)s->width, n = (size_t)d + 1;

	memset(cells, 0, width);
	cells[width - n] = BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5) | BRAILLE_DOT(6);
	for (int k = 0; k < d; k++)
		cells[width - n + 1 + (size_t)k] = (braille_cell)braille_from_brf_char(
		    digits[k] == '0' ? 'J' : 'A' + digits[k] - '1');
	emit(s, cells, width);
}

/* The lines as they are (Unicode, or BRF without pages). */
static void write_unpaged(struct sheet *s)
{
	for (size_t i = 0; i < s->count; i++)
		emit(s, line_cells(s, &s->lines[i]), s->lines[i].n);
}

/* BRF pages: the blocks laid out on pages of lines_per_page lines with their numbers. */
static void write_paged(struct sheet *s)
{
	int numbered = s->page_number != BRAILLE_PAGE_NUMBER_NONE;
	int body = s->lines_per_page - numbered;
	int page = 1, used = 0;

	if (s->page_number == BRAILLE_PAGE_NUMBER_TOP)
		page_number_line(s, page);
	for (size_t i = 0; i < s->count;) {
		size_t end = i;
		int need;

		while (end < s->count && s->lines[end].block == s->lines[i].block)
			end++;
		need = (int)(end - i);
		if (s->lines[i].blank && used == 0) { /* no blank line opens a page */
			i = end;
			continue;
		}
		if (used > 0 && used + need > body) {
			/* The block goes whole onto the next page. */
			for (; used < body && s->page_number == BRAILLE_PAGE_NUMBER_BOTTOM; used++)
				emit(s, NULL, 0);
			if (s->page_number == BRAILLE_PAGE_NUMBER_BOTTOM)
				page_number_line(s, page);
			append(s, "\f", 1);
			page++;
			used = 0;
			if (s->page_number == BRAILLE_PAGE_NUMBER_TOP)
				page_number_line(s, page);
			if (s->lines[i].blank) {
				i = end;
				continue;
			}
		}
		/* A block longer than a page (a very narrow line) is split where it must be. */
		for (; i < end; i++) {
			if (used == body) {
				if (s->page_number == BRAILLE_PAGE_NUMBER_BOTTOM)
					page_number_line(s, page);
				append(s, "\f", 1);
				page++;
				used = 0;
				if (s->page_number == BRAILLE_PAGE_NUMBER_TOP)
					page_number_line(s, page);
			}
			emit(s, line_cells(s, &s->lines[i]), s->lines[i].n);
			used++;
		}
	}
	if (s->page_number == BRAILLE_PAGE_NUMBER_BOTTOM) {
		for (; used < body; used++)
			emit(s, NULL, 0);
		page_number_line(s, page);
	}
}

static bool tag_present(const char *value)
{
	return value && value[0] && strcmp(value, "?") != 0 && strcmp(value, "????.??.??") != 0;
}

static void text_line(struct sheet *s, const char *text)
{
	braille_cell cells[LINE_MAX_CELLS];
	size_t n = braille_text(text, cells, sizeof(cells));
	wrap(s, cells, n, true);
}

static void tag_lines(struct sheet *s, const struct scoresheet_tags *tags)
{
	bool any = false;
	if (tag_present(tags->white) || tag_present(tags->black)) {
		char players[LINE_MAX_CELLS / 2];
		size_t room = sizeof(players);
		const char *white = tag_present(tags->white) ? tags->white : "?";
		const char *black = tag_present(tags->black) ? tags->black : "?";
		size_t w = strnlen(white, room / 2 - 6), b = strnlen(black, room / 2 - 6);
		memcpy(players, white, w);
		/* The UEB dash (an en dash) between the names. */
		memcpy(players + w, " \xe2\x80\x93 ", 5);
		memcpy(players + w + 5, black, b);
		players[w + 5 + b] = '\0';
		text_line(s, players);
		any = true;
	}
	if (tag_present(tags->event)) {
		text_line(s, tags->event);
		any = true;
	}
	if (tag_present(tags->site)) {
		text_line(s, tags->site);
		any = true;
	}
	/* Date, round and board on one line, as a FIDE scoresheet's head has them. */
	if (tag_present(tags->date) || tag_present(tags->round) || tag_present(tags->board)) {
		char when[LINE_MAX_CELLS / 2];
		size_t len = 0;

		when[0] = '\0';
		if (tag_present(tags->date))
			len +=
			    (size_t)snprintf(when + len, sizeof(when) - len, "%.60s", tags->date);
		if (tag_present(tags->round) && len < sizeof(when))
			len += (size_t)snprintf(when + len, sizeof(when) - len, "%sround %.20s",
						len ? ", " : "", tags->round);
		if (tag_present(tags->board) && len < sizeof(when))
			snprintf(when + len, sizeof(when) - len, "%sboard %.20s", len ? ", " : "",
				 tags->board);
		text_line(s, when);
		any = true;
	}
	if (tag_present(tags->fairplay)) {
		text_line(s, tags->fairplay);
		any = true;
	}
	if (any)
		blank_line(s);
}

/* The result in lower cells; 0 cells for an unfinished game. */
static size_t result_cells(const char *result, braille_cell *cells)
{
	static const struct {
		const char *text;
		const char *code; /* digits, '-' and '/' */
	} results[] = {{"1-0", "1-0"}, {"0-1", "0-1"}, {"1/2-1/2", "1/2-1/2"}};
	if (!result)
		return 0;
	for (size_t r = 0; r < sizeof(results) / sizeof(results[0]); r++) {
		if (strcmp(result, results[r].text) != 0)
			continue;
		size_t n = 0;
		for (const char *c = results[r].code; *c; c++) {
			if (*c == '-')
				cells[n++] = BRAILLE_DOT(3) | BRAILLE_DOT(6);
			else if (*c == '/')
				cells[n++] = BRAILLE_DOT(3) | BRAILLE_DOT(4);
			else
				braille_lower_number((unsigned)(*c - '0'), cells + n++, 1);
		}
		return n;
	}
	return 0;
}

/* "(=)" in UEB. */
static const braille_cell draw_offer_cells[] = {
    BRAILLE_DOT(5), BRAILLE_DOT(1) | BRAILLE_DOT(2) | BRAILLE_DOT(6),
    BRAILLE_DOT(5), BRAILLE_DOT(2) | BRAILLE_DOT(3) | BRAILLE_DOT(5) | BRAILLE_DOT(6),
    BRAILLE_DOT(5), BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5),
};

/* Appends one move (and its draw offer) to cells; false if it is not SAN. */
static bool move_cells(const struct scoresheet_san *sheet, int i, enum braille_signs signs,
		       braille_cell *cells, size_t *n)
{
	int len = braille_move_from_san_signs(sheet->san[i], signs, cells + *n, BRAILLE_MOVE_MAX);
	if (len < 0)
		return false;
	*n += (size_t)len;
	if (sheet->draw_offered && sheet->draw_offered[i]) {
		cells[(*n)++] = 0;
		memcpy(cells + *n, draw_offer_cells, sizeof(draw_offer_cells));
		*n += sizeof(draw_offer_cells);
	}
	return true;
}

/* The sheet's layout from `layout` (NULL: the defaults) for `format`. */
static void sheet_layout(struct sheet *s, enum braille_format format,
			 const struct braille_layout *layout)
{
	struct braille_layout defaults;

	if (!layout) {
		braille_layout_defaults(&defaults);
		layout = &defaults;
	}
	s->format = format;
	s->width = layout->cells_per_line > 0 ? layout->cells_per_line : BRAILLE_LINE_CELLS_DEFAULT;
	if (s->width > LINE_MAX_CELLS)
		s->width = LINE_MAX_CELLS;
	if (s->width < 8)
		s->width = 8;
	s->lines_per_page = format == BRAILLE_BRF ? layout->lines_per_page : 0;
	if (s->lines_per_page > 0 && s->lines_per_page < BRAILLE_PAGE_LINES_MIN)
		s->lines_per_page = BRAILLE_PAGE_LINES_MIN;
	s->page_number = layout->page_number;
	s->signs = layout->signs;
}

/* The lines gathered written out: BRF on pages, or as they are; NULL (errno) on failure. */
static char *sheet_finish(struct sheet *s)
{
	if (s->failed || s->cells.failed) {
		free(s->lines);
		free(s->cells.p);
		free(s->text.p);
		errno = ENOMEM;
		return NULL;
	}
	if (s->lines_per_page > 0)
		write_paged(s);
	else
		write_unpaged(s);
	free(s->lines);
	free(s->cells.p);
	return strbuf_finish(&s->text);
}

char *braille_text_pages(const char *text, enum braille_format format,
			 const struct braille_layout *layout)
{
	struct sheet s = {0};
	char paragraph[LINE_MAX_CELLS];
	size_t len = 0;

	sheet_layout(&s, format, layout);
	/* A paragraph's lines are one line of braille, divided to the braille line; a blank
	 * line stays one. */
	for (;;) {
		size_t n = strcspn(text, "\n");

		if (n && len + n + 2 < sizeof(paragraph)) {
			if (len)
				paragraph[len++] = ' ';
			memcpy(paragraph + len, text, n);
			len += n;
		} else if (!n && len) {
			paragraph[len] = '\0';
			text_line(&s, paragraph);
			len = 0;
		}
		if (!n && *text == '\n')
			blank_line(&s);
		if (!text[n])
			break;
		text += n + 1;
	}
	if (len) {
		paragraph[len] = '\0';
		text_line(&s, paragraph);
	}
	return sheet_finish(&s);
}

char *braille_scoresheet_san(const struct scoresheet_san *sheet, enum braille_format format,
			     const struct braille_layout *layout)
{
	struct sheet s = {0};

	sheet_layout(&s, format, layout);
	tag_lines(&s, &sheet->tags);
	int number = sheet->first_number > 0 ? sheet->first_number : 1;
	int color = sheet->first_color == CHESS_BLACK ? 1 : 0;
	for (int i = 0; i < sheet->count;) {
		braille_cell cells[64];
		int len = braille_lower_number((unsigned)number, cells, 8);
		size_t n = len > 0 ? (size_t)len : 0;
		cells[n++] = 0;
		if (color == 1)
			cells[n++] = BRAILLE_DOT(3) | BRAILLE_DOT(6); /* Black's move first */
		if (!move_cells(sheet, i, s.signs, cells, &n))
			goto invalid;
		i++;
		if (color == 0 && i < sheet->count) {
			cells[n++] = 0;
			if (!move_cells(sheet, i, s.signs, cells, &n))
				goto invalid;
			i++;
		}
		line(&s, cells, n);
		color = 0;
		number++;
	}
	braille_cell result[8];
	size_t rn = result_cells(sheet->tags.result, result);
	if (rn)
		line(&s, result, rn);
	return sheet_finish(&s);
invalid:
	free(s.lines);
	free(s.cells.p);
	free(s.text.p);
	errno = EINVAL;
	return NULL;
}

char *braille_scoresheet(const struct scoresheet_game *game, enum braille_format format,
			 const struct braille_layout *layout)
{
	struct chess_pos pos;
	if (game->start)
		pos = *game->start;
	else
		chess_pos_init_start(&pos);
	int count = game->count > 0 ? game->count : 0;
	char(*san)[CHESS_SAN_MAX] = calloc((size_t)count + 1, sizeof(*san));
	const char **list = calloc((size_t)count + 1, sizeof(*list));
	char *out = NULL;
	if (!san || !list) {
		errno = ENOMEM;
		goto done;
	}
	struct scoresheet_san sheet = {
	    .san = list,
	    .count = count,
	    .first_number = pos.fullmove_number,
	    .first_color = (enum chess_color)pos.side,
	    .draw_offered = game->draw_offered,
	    .tags = game->tags,
	};
	for (int i = 0; i < count; i++) {
		if (!chess_pos_is_legal(&pos, game->moves[i])) {
			errno = EINVAL;
			goto done;
		}
		chess_move_to_san(&pos, game->moves[i], san[i], sizeof(san[i]));
		list[i] = san[i];
		struct chess_undo undo;
		chess_pos_make(&pos, game->moves[i], &undo);
	}
	out = braille_scoresheet_san(&sheet, format, layout);
done:
	free(list);
	free(san);
	return out;
}
