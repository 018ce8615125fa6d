/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The live display's document (last move, clocks, scoresheet) and its window.  See panel.h.
 */
#include "braille/panel.h"

#include <stdio.h>
#include <string.h>

#define CELL_BLACK_MOVE ((braille_cell)(BRAILLE_DOT(3) | BRAILLE_DOT(6))) /* BCA 2015 1.2 */

/* "(=)" in UEB, as on the braille scoresheet. */
static const braille_cell draw_offer_cells[] = {
    BRAILLE_DOT(5), BRAILLE_DOT(1) | BRAILLE_DOT(2) | BRAILLE_DOT(6),
    BRAILLE_DOT(5), BRAILLE_DOT(2) | BRAILLE_DOT(3) | BRAILLE_DOT(5) | BRAILLE_DOT(6),
    BRAILLE_DOT(5), BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5),
};

static int clamp_width(int width)
{
	if (width < 1)
		return 1;
	return width > BRAILLE_PANEL_WIDTH_MAX ? BRAILLE_PANEL_WIDTH_MAX : width;
}

void braille_panel_init(struct braille_panel *p, enum braille_notation notation, int width)
{
	memset(p, 0, sizeof(*p));
	p->notation = notation;
	p->width = clamp_width(width);
	p->first_number = 1;
	p->first_color = CHESS_WHITE;
}

/* Appends cells to a line, dropping what does not fit. */
struct line_out {
	braille_cell *cells;
	int max;
	int n;
};

static void put(struct line_out *o, braille_cell cell)
{
	if (o->n < o->max)
		o->cells[o->n++] = cell;
}

static void put_text(struct line_out *o, const char *text)
{
	braille_cell cells[BRAILLE_PANEL_LINE_MAX];
	size_t n = braille_computer_text(text, cells, sizeof(cells));
	for (size_t k = 0; k < n; k++)
		put(o, cells[k]);
}

static void put_number(struct line_out *o, int number)
{
	braille_cell cells[12];
	int n = braille_lower_number((unsigned)(number > 0 ? number : 0), cells, sizeof(cells));
	for (int k = 0; k < n; k++)
		put(o, cells[k]);
}

/* One move in the panel's notation; SAN that the chess code cannot write is shown as it is
 * in computer braille rather than not at all. */
static void put_move(struct line_out *o, enum braille_notation notation, enum braille_signs signs,
		     const char *san)
{
	if (notation == BRAILLE_NOTATION_BCA) {
		braille_cell cells[BRAILLE_MOVE_MAX];
		int n = braille_move_from_san_signs(san, signs, cells, BRAILLE_MOVE_MAX);
		if (n >= 0) {
			for (int k = 0; k < n; k++)
				put(o, cells[k]);
			return;
		}
	}
	put_text(o, san);
}

/* A move with its number: "12 ⠎⠋⠒" / "12 ⠤⠎⠋⠒", or "12. Nf3" / "12... Nf3". */
static void put_numbered(struct line_out *o, enum braille_notation notation,
			 enum braille_signs signs, int number, enum chess_color color,
			 const char *san)
{
	if (notation == BRAILLE_NOTATION_BCA) {
		put_number(o, number);
		put(o, 0);
		if (color == CHESS_BLACK)
			put(o, CELL_BLACK_MOVE);
	} else {
		char text[24];
		snprintf(text, sizeof(text), "%d%s ", number, color == CHESS_BLACK ? "..." : ".");
		put_text(o, text);
	}
	put_move(o, notation, signs, san);
}

static void put_draw_offer(struct line_out *o, enum braille_notation notation)
{
	put(o, 0);
	if (notation == BRAILLE_NOTATION_BCA) {
		for (size_t k = 0; k < sizeof(draw_offer_cells); k++)
			put(o, draw_offer_cells[k]);
	} else {
		put_text(o, "(=)");
	}
}

static void format_clock(char *buf, size_t size, int64_t ms)
{
	if (ms < 0)
		ms = 0;
	int64_t s = ms / 1000;
	snprintf(buf, size, "%d:%02d:%02d", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
}

static int move_line(const struct braille_panel *p, struct line_out *o)
{
	if (p->have_last)
		put_numbered(o, p->notation, p->signs, p->last_number, p->last_color, p->last_san);
	return o->n;
}

static int clock_line(const struct braille_panel *p, struct line_out *o)
{
	char white[24], black[24], text[64];
	format_clock(white, sizeof(white), p->white_ms);
	format_clock(black, sizeof(black), p->black_ms);
	snprintf(text, sizeof(text), "%s - %s", white, black);
	if (p->notation == BRAILLE_NOTATION_BCA) {
		braille_cell cells[BRAILLE_PANEL_LINE_MAX];
		size_t n = braille_text(text, cells, sizeof(cells));
		for (size_t k = 0; k < n; k++)
			put(o, cells[k]);
	} else {
		put_text(o, text);
	}
	return o->n;
}

/* Scoresheet line `k` (0-based): the move pair, or Black's first move alone. */
static int sheet_line(const struct braille_panel *p, int k, struct line_out *o)
{
	int ply = k * 2; /* index of the line's first move */
	if (p->first_color == CHESS_BLACK)
		ply = k == 0 ? 0 : k * 2 - 1;
	int number = p->first_number + k;
	enum chess_color color = (k == 0) ? p->first_color : CHESS_WHITE;
	if (ply >= p->plies)
		return 0;
	put_numbered(o, p->notation, p->signs, number, color, p->moves[ply].san);
	if (p->moves[ply].draw_offered)
		put_draw_offer(o, p->notation);
	if (color == CHESS_WHITE && ply + 1 < p->plies) {
		put(o, 0);
		put_move(o, p->notation, p->signs, p->moves[ply + 1].san);
		if (p->moves[ply + 1].draw_offered)
			put_draw_offer(o, p->notation);
	}
	return o->n;
}

static int sheet_lines(const struct braille_panel *p)
{
	int moves = p->plies + (p->first_color == CHESS_BLACK ? 1 : 0);
	return (moves + 1) / 2;
}

static int first_sheet_line(const struct braille_panel *p)
{
	return p->clock_shown ? 2 : 1;
}

/* BRF lines into cells[] and line starts (starts[0] = 0, starts[k] the end of line k - 1):
 * the lines read (at most max_lines), and *pages the form feeds' lines when wanted. */
static int brf_lines(const char *brf, braille_cell *cells, int max_cells, int *starts,
		     int max_lines, int *page_first, int *pages)
{
	int lines = 0, n = 0;

	starts[0] = 0;
	for (const char *c = brf; *c && lines < max_lines; c++) {
		if (*c == '\f') {
			if (page_first && *pages < max_lines)
				page_first[(*pages)++] = lines;
		} else if (*c == '\n') {
			starts[++lines] = n;
		} else if (*c != '\r' && n < max_cells) {
			int cell = braille_from_brf_char(*c);

			cells[n++] = (braille_cell)(cell < 0 ? 0x3F : cell);
		}
	}
	return lines;
}

int braille_panel_message(struct braille_panel *p, const char *brf)
{
	int lines = brf_lines(brf, p->message_cells, BRAILLE_PANEL_MESSAGE_CELLS, p->message_start,
			      BRAILLE_PANEL_MESSAGE_LINES, NULL, NULL);

	if (!lines)
		return -1;
	if (!p->message_on) {
		p->under_line = p->line;
		p->under_offset = p->offset;
	}
	p->message_on = true;
	p->message_lines = lines;
	p->line = 0;
	p->offset = 0;
	return 0;
}

/* The message taken away: the view under it as it was. */
static void message_off(struct braille_panel *p)
{
	if (!p->message_on)
		return;
	p->message_on = false;
	p->line = p->under_line;
	p->offset = p->under_offset;
}

int braille_panel_pages(struct braille_panel *p, const char *brf, int page, int *count)
{
	int lines, pages = 1;

	p->page_first[0] = 0;
	lines = brf_lines(brf, p->page_cells, BRAILLE_PANEL_PAGE_CELLS, p->line_start,
			  BRAILLE_PANEL_PAGE_LINES, p->page_first, &pages);
	if (count)
		*count = lines ? pages : 0;
	if (lines == 0)
		return 0;
	p->message_on = false;
	p->page_lines = lines;
	p->page_count = pages;
	p->page = page >= 1 && page <= pages ? page : 1;
	p->line = 0;
	p->offset = 0;
	return p->page;
}

/* The page view's lines of the page shown. */
static int page_end(const struct braille_panel *p, int page)
{
	return page < p->page_count ? p->page_first[page] : p->page_lines;
}

int braille_panel_lines(const struct braille_panel *p)
{
	if (p->message_on)
		return p->message_lines;
	if (p->page > 0)
		return page_end(p, p->page) - p->page_first[p->page - 1];
	return first_sheet_line(p) + sheet_lines(p);
}

/* The cells of line `line` (count, at most max). */
static int braille_panel_line(const struct braille_panel *p, int line, braille_cell *cells, int max)
{
	struct line_out o = {cells, max, 0};
	if (p->message_on) {
		if (line < 0 || line >= p->message_lines)
			return 0;
		for (int c = p->message_start[line]; c < p->message_start[line + 1]; c++)
			put(&o, p->message_cells[c]);
		return o.n;
	}
	if (p->page > 0) {
		int k = p->page_first[p->page - 1] + line;

		if (line < 0 || k >= page_end(p, p->page))
			return 0;
		for (int c = p->line_start[k]; c < p->line_start[k + 1]; c++)
			put(&o, p->page_cells[c]);
		return o.n;
	}
	if (line == 0)
		return move_line(p, &o);
	if (line == 1 && p->clock_shown)
		return clock_line(p, &o);
	int k = line - first_sheet_line(p);
	if (k < 0 || k >= sheet_lines(p))
		return 0;
	return sheet_line(p, k, &o);
}

static int line_length(const struct braille_panel *p, int line)
{
	braille_cell cells[BRAILLE_PANEL_LINE_MAX];
	return braille_panel_line(p, line, cells, BRAILLE_PANEL_LINE_MAX);
}

static void clamp_view(struct braille_panel *p)
{
	int lines = braille_panel_lines(p);
	if (p->line >= lines)
		p->line = lines - 1;
	if (p->line < 0)
		p->line = 0;
	int len = line_length(p, p->line);
	if (p->offset >= len)
		p->offset = len > 0 ? (len - 1) / p->width * p->width : 0;
	if (p->offset < 0)
		p->offset = 0;
}

void braille_panel_set_width(struct braille_panel *p, int width)
{
	p->width = clamp_width(width);
	p->offset = p->offset / p->width * p->width;
	clamp_view(p);
}

static void set_last(struct braille_panel *p, const char *san, int number, enum chess_color color)
{
	p->message_on = false;
	p->have_last = true;
	snprintf(p->last_san, sizeof(p->last_san), "%s", san);
	p->last_number = number;
	p->last_color = color;
	p->clock_shown = false;
	p->page = 0;
	p->line = 0;
	p->offset = 0;
}

void braille_panel_move_san(struct braille_panel *p, int ply, const char *san, int number,
			    enum chess_color color)
{
	set_last(p, san, number, color);
	int index = ply - p->ply_base;
	bool full = p->plies == BRAILLE_PANEL_MAX_PLIES && index > BRAILLE_PANEL_MAX_PLIES;
	if (!full && (index < 1 || index > p->plies + 1)) {
		/* Earlier moves are unknown here: the sheet starts anew at this move. */
		p->ply_base = ply - 1;
		p->plies = 0;
		index = 1;
	}
	if (index == 1) {
		p->first_number = number;
		p->first_color = color;
	}
	if (index > BRAILLE_PANEL_MAX_PLIES) {
		p->plies = BRAILLE_PANEL_MAX_PLIES;
		return;
	}
	struct braille_panel_move *slot = &p->moves[index - 1];
	snprintf(slot->san, sizeof(slot->san), "%s", san);
	slot->draw_offered = false;
	p->plies = index;
}

void braille_panel_clock(struct braille_panel *p, int64_t white_ms, int64_t black_ms)
{
	p->message_on = false;
	p->clock_shown = true;
	p->white_ms = white_ms;
	p->black_ms = black_ms;
	p->page = 0;
	p->line = 1;
	p->offset = 0;
}

void braille_panel_sheet(struct braille_panel *p, const struct scoresheet_san *sheet)
{
	int count = sheet->count > 0 ? sheet->count : 0;
	if (count > BRAILLE_PANEL_MAX_PLIES)
		count = BRAILLE_PANEL_MAX_PLIES;
	p->first_number = sheet->first_number > 0 ? sheet->first_number : 1;
	p->first_color = sheet->first_color;
	for (int i = 0; i < count; i++) {
		snprintf(p->moves[i].san, sizeof(p->moves[i].san), "%s", sheet->san[i]);
		p->moves[i].draw_offered = sheet->draw_offered && sheet->draw_offered[i];
	}
	p->plies = count;
	p->ply_base = 0;
	if (sheet->count > 0) {
		int last = sheet->count - 1;
		int index = last + (p->first_color == CHESS_BLACK ? 1 : 0);
		p->have_last = true;
		snprintf(p->last_san, sizeof(p->last_san), "%s", sheet->san[last]);
		p->last_number = p->first_number + index / 2;
		p->last_color = index % 2 ? CHESS_BLACK : CHESS_WHITE;
	} else {
		p->have_last = false;
	}
	clamp_view(p);
}

void braille_panel_window(const struct braille_panel *p, braille_cell *cells)
{
	braille_cell line[BRAILLE_PANEL_LINE_MAX];
	int len = braille_panel_line(p, p->line, line, BRAILLE_PANEL_LINE_MAX);
	for (int k = 0; k < p->width; k++) {
		int at = p->offset + k;
		cells[k] = at < len ? line[at] : 0;
	}
}

static int last_window(const struct braille_panel *p, int line)
{
	int len = line_length(p, line);
	return len > 0 ? (len - 1) / p->width * p->width : 0;
}

/* A line or panning key at a page's edge goes on to the next or previous page. */
static bool page_key(struct braille_panel *p, enum braille_panel_key key)
{
	int lines = braille_panel_lines(p);
	bool down =
	    key == BRAILLE_KEY_LINE_DOWN ||
	    (key == BRAILLE_KEY_PAN_RIGHT && p->offset + p->width >= line_length(p, p->line));
	bool up = key == BRAILLE_KEY_LINE_UP || (key == BRAILLE_KEY_PAN_LEFT && p->offset == 0);

	if (key == BRAILLE_KEY_HOME) {
		p->page = 0;
		p->line = 0;
		p->offset = 0;
		return true;
	}
	if (down && p->line + 1 == lines && p->page < p->page_count) {
		p->page++;
		p->line = 0;
		p->offset = 0;
		return true;
	}
	if (up && p->line == 0 && p->page > 1) {
		p->page--;
		p->line = braille_panel_lines(p) - 1;
		p->offset = key == BRAILLE_KEY_PAN_LEFT ? last_window(p, p->line) : 0;
		return true;
	}
	if (key == BRAILLE_KEY_TOP) {
		bool moved = p->line != 0 || p->offset != 0;

		p->line = 0;
		p->offset = 0;
		return moved;
	}
	return false;
}

/* A key while a message is shown: panning on past its end or a line down past its last line
 * take it away, home too (and goes home); top and bottom go to its first and last line; the
 * rest move through it. */
static bool message_key(struct braille_panel *p, enum braille_panel_key key)
{
	bool last = p->line + 1 >= p->message_lines;

	if (key == BRAILLE_KEY_HOME) {
		message_off(p);
		braille_panel_key(p, BRAILLE_KEY_HOME);
		return true;
	}
	if (last &&
	    (key == BRAILLE_KEY_LINE_DOWN ||
	     (key == BRAILLE_KEY_PAN_RIGHT && p->offset + p->width >= line_length(p, p->line)))) {
		message_off(p);
		return true;
	}
	if (key == BRAILLE_KEY_TOP || key == BRAILLE_KEY_BOTTOM) {
		p->line = key == BRAILLE_KEY_TOP ? 0 : p->message_lines - 1;
		p->offset = 0;
		return true;
	}
	return false;
}

bool braille_panel_key(struct braille_panel *p, enum braille_panel_key key)
{
	int line = p->line, offset = p->offset;
	int lines = braille_panel_lines(p);

	if (p->message_on && message_key(p, key))
		return true;
	if (!p->message_on && p->page > 0 &&
	    (page_key(p, key) || key == BRAILLE_KEY_HOME || key == BRAILLE_KEY_TOP))
		return true;
	switch (key) {
	case BRAILLE_KEY_PAN_RIGHT:
		if (p->offset + p->width < line_length(p, p->line)) {
			p->offset += p->width;
		} else if (p->line + 1 < lines) {
			p->line++;
			p->offset = 0;
		}
		break;
	case BRAILLE_KEY_PAN_LEFT:
		if (p->offset > 0) {
			p->offset = p->offset > p->width ? p->offset - p->width : 0;
		} else if (p->line > 0) {
			p->line--;
			p->offset = last_window(p, p->line);
		}
		break;
	case BRAILLE_KEY_LINE_UP:
		if (p->line > 0) {
			p->line--;
			p->offset = 0;
		}
		break;
	case BRAILLE_KEY_LINE_DOWN:
		if (p->line + 1 < lines) {
			p->line++;
			p->offset = 0;
		}
		break;
	case BRAILLE_KEY_TOP: {
		int top = first_sheet_line(p);
		p->line = top < lines ? top : 0;
		p->offset = 0;
		break;
	}
	case BRAILLE_KEY_BOTTOM:
		p->line = lines - 1;
		p->offset = 0;
		break;
	case BRAILLE_KEY_HOME:
		p->line = 0;
		p->offset = 0;
		break;
	}
	return p->line != line || p->offset != offset;
}

enum braille_command braille_panel_route(const struct braille_panel *p, int cell)
{
	if (cell < 0 || cell >= p->width || p->page > 0 || p->message_on)
		return BRAILLE_COMMAND_NONE;
	if (p->line == 0) {
		int at = p->offset + cell;
		return at < line_length(p, 0) ? BRAILLE_COMMAND_REPEAT : BRAILLE_COMMAND_INFO;
	}
	if (p->line == 1 && p->clock_shown)
		return BRAILLE_COMMAND_INFO;
	return BRAILLE_COMMAND_NONE;
}
