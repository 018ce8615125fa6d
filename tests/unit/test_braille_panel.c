/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The live display's panel: lines, window, panning, routing keys; computer braille. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "braille/braille.h"
/* The module itself: its file-local functions are tested here. */
#include "braille/panel.c"

/* Move `ply` (1 for the game's first move) was made in pos: it becomes the last move and
 * the sheet's move `ply`; later moves of the sheet are dropped (a correction or a
 * rollback).  A ply that does not follow the sheet (the sheet was never set after a
 * resume) starts the sheet anew at this move, and later plies follow it.  Returns 0, or -1
 * if the move is not legal in pos. */
static int braille_panel_move(struct braille_panel *p, int ply, const struct chess_pos *pos,
			      chess_move m)
{
	if (!chess_pos_is_legal(pos, m))
		return -1;
	char san[CHESS_SAN_MAX];
	chess_move_to_san(pos, m, san, sizeof(san));
	braille_panel_move_san(p, ply, san, pos->fullmove_number, (enum chess_color)pos->side);
	return 0;
}

static struct braille_panel panel;

/* The window as Unicode braille without trailing blanks. */
static const char *window(const struct braille_panel *p)
{
	static char out[BRAILLE_PANEL_WIDTH_MAX * 3 + 1];
	braille_cell cells[BRAILLE_PANEL_WIDTH_MAX];
	braille_panel_window(p, cells);
	int n = p->width;
	while (n > 0 && cells[n - 1] == 0)
		n--;
	braille_to_utf8(cells, (size_t)n, out, sizeof(out));
	return out;
}

static const char *line(const struct braille_panel *p, int k)
{
	static char out[BRAILLE_PANEL_LINE_MAX * 3 + 1];
	braille_cell cells[BRAILLE_PANEL_LINE_MAX];
	int n = braille_panel_line(p, k, cells, BRAILLE_PANEL_LINE_MAX);
	braille_to_utf8(cells, (size_t)n, out, sizeof(out));
	return out;
}

static const char *computer(const char *text)
{
	static char out[64 * 3 + 1];
	braille_cell cells[64];
	size_t n = braille_computer_text(text, cells, 64);
	braille_to_utf8(cells, n, out, sizeof(out));
	return out;
}

/* Plays SAN moves from the start (or fen) into the panel, as the presenter would. */
static void play(struct braille_panel *p, const char *fen, const char *const *san, int count,
		 int first_ply)
{
	struct chess_pos pos;
	struct chess_error err;
	assert_int_equal(chess_fen_parse(&pos, fen ? fen : CHESS_FEN_START, &err), 0);
	for (int i = 0; i < count; i++) {
		chess_move m;
		if (chess_move_parse_san(&pos, san[i], &m, &err) != 0)
			fail_msg("%s: %s", san[i], err.message);
		assert_int_equal(braille_panel_move(p, first_ply + i, &pos, m), 0);
		struct chess_undo undo;
		chess_pos_make(&pos, m, &undo);
	}
}

static const char *const opening[] = {"e4",   "e5",   "Nf3", "Nc6",  "Bb5", "a6",
				      "Bxc6", "dxc6", "O-O", "f6",   "d4",  "exd4",
				      "Nxd4", "c5",   "Nb3", "Qxd1", "Rxd1"};

static void test_move_line(void **state)
{
	(void)state;
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 40);
	assert_string_equal(window(&panel), "");
	assert_int_equal(braille_panel_lines(&panel), 1);
	play(&panel, NULL, opening, 3, 1);
	/* "2. Nf3" as in BCA 2015 1.3. */
	assert_string_equal(window(&panel), "⠆⠀⠎⠋⠒");
	play(&panel, NULL, opening, 4, 1);
	assert_string_equal(window(&panel), "⠆⠀⠤⠎⠉⠖"); /* Black: dots 36 (1.2) */
	play(&panel, NULL, opening, 17, 1);
	assert_string_equal(window(&panel), "⠔⠀⠗⠙⠂"); /* 9. Rxd1 */
	assert_int_equal(braille_panel_lines(&panel), 1 + 9);
	assert_string_equal(line(&panel, 1), "⠂⠀⠑⠲⠀⠑⠢");
	assert_string_equal(line(&panel, 5), "⠢⠀⠴⠤⠴⠀⠋⠖");
	assert_string_equal(line(&panel, 9), "⠔⠀⠗⠙⠂");
	assert_string_equal(line(&panel, 10), "");

	braille_panel_init(&panel, BRAILLE_NOTATION_COMPUTER, 40);
	play(&panel, NULL, opening, 17, 1);
	assert_string_equal(window(&panel), computer("9. Rxd1"));
	assert_string_equal(line(&panel, 8), computer("8. Nb3 Qxd1"));
	play(&panel, NULL, opening, 16, 1);
	assert_string_equal(window(&panel), computer("8... Qxd1"));
}

/* The panel's sheet lines are the embosser's scoresheet lines. */
static void test_sheet_matches_scoresheet(void **state)
{
	(void)state;
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 40);
	play(&panel, NULL, opening, 17, 1);
	struct scoresheet_san sheet = {.san = opening, .count = 17, .first_number = 1};
	char *text = braille_scoresheet_san(&sheet, BRAILLE_UNICODE, NULL);
	assert_non_null(text);
	char *save = NULL;
	int k = 1;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save), k++)
		assert_string_equal(line(&panel, k), l);
	assert_int_equal(k, braille_panel_lines(&panel));
	free(text);
}

static void test_panning(void **state)
{
	(void)state;
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 4);
	play(&panel, NULL, opening, 17, 1);
	/* A 4-cell display: "⠔⠀⠗⠙⠂" takes two windows. */
	assert_string_equal(window(&panel), "⠔⠀⠗⠙");
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT));
	assert_string_equal(window(&panel), "⠂");
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT));
	assert_string_equal(window(&panel), "⠂⠀⠑⠲"); /* the sheet's first line */
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT));
	assert_string_equal(window(&panel), "⠀⠑⠢");
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_PAN_LEFT));
	assert_string_equal(window(&panel), "⠂⠀⠑⠲");
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_PAN_LEFT));
	assert_string_equal(window(&panel), "⠂"); /* the last window of the line above */
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_PAN_LEFT));
	assert_false(braille_panel_key(&panel, BRAILLE_KEY_PAN_LEFT)); /* the very start */
	assert_false(braille_panel_key(&panel, BRAILLE_KEY_LINE_UP));
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_BOTTOM));
	assert_string_equal(window(&panel), "⠔⠀⠗⠙");
	assert_int_equal(panel.line, 9);
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT));
	assert_false(braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT)); /* the very end */
	assert_false(braille_panel_key(&panel, BRAILLE_KEY_LINE_DOWN));
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_TOP));
	assert_int_equal(panel.line, 1);
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_LINE_DOWN));
	assert_string_equal(window(&panel), "⠆⠀⠎⠋");
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_HOME));
	assert_int_equal(panel.line, 0);
	/* A new move brings the window back to it. */
	braille_panel_key(&panel, BRAILLE_KEY_BOTTOM);
	braille_panel_move_san(&panel, 18, "Bd6", 9, CHESS_BLACK);
	assert_int_equal(panel.line, 0);
	assert_string_equal(window(&panel), "⠔⠀⠤⠇");
	assert_int_equal(panel.plies, 18);
	/* A wider display: the window keeps its line. */
	braille_panel_key(&panel, BRAILLE_KEY_LINE_DOWN);
	braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT);
	braille_panel_set_width(&panel, 40);
	assert_int_equal(panel.line, 1);
	assert_int_equal(panel.offset, 0);
	assert_string_equal(window(&panel), "⠂⠀⠑⠲⠀⠑⠢");
}

static void test_clock_and_routing(void **state)
{
	(void)state;
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 20);
	/* Before any move, any routing key asks for the times. */
	assert_int_equal(braille_panel_route(&panel, 0), BRAILLE_COMMAND_INFO);
	play(&panel, NULL, opening, 3, 1);
	assert_int_equal(braille_panel_route(&panel, 0), BRAILLE_COMMAND_REPEAT);
	assert_int_equal(braille_panel_route(&panel, 4), BRAILLE_COMMAND_REPEAT);
	assert_int_equal(braille_panel_route(&panel, 5), BRAILLE_COMMAND_INFO);
	assert_int_equal(braille_panel_route(&panel, 19), BRAILLE_COMMAND_INFO);
	assert_int_equal(braille_panel_route(&panel, 20), BRAILLE_COMMAND_NONE);
	assert_int_equal(braille_panel_route(&panel, -1), BRAILLE_COMMAND_NONE);

	braille_panel_clock(&panel, 5025999, -5);
	assert_int_equal(panel.line, 1);
	assert_string_equal(window(&panel), "⠼⠁⠒⠼⠃⠉⠒⠼⠙⠑⠀⠤⠀⠼⠚⠒⠼⠚⠚⠒");
	assert_int_equal(braille_panel_lines(&panel), 4);
	assert_int_equal(braille_panel_route(&panel, 3), BRAILLE_COMMAND_INFO);
	braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT);
	assert_string_equal(window(&panel), "⠼⠚⠚");
	braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT);
	assert_string_equal(window(&panel), "⠂⠀⠑⠲⠀⠑⠢");
	assert_int_equal(braille_panel_route(&panel, 0), BRAILLE_COMMAND_NONE);
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_HOME));
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_TOP));
	assert_int_equal(panel.line, 2); /* the sheet's top, past the clocks */

	/* The clocks before any move: "top" has no sheet to go to (found by fuzz_braille). */
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 20);
	braille_panel_clock(&panel, 1000, 2000);
	braille_panel_key(&panel, BRAILLE_KEY_TOP);
	assert_int_equal(panel.line, 0);
	assert_int_equal(braille_panel_lines(&panel), 2);

	braille_panel_init(&panel, BRAILLE_NOTATION_COMPUTER, 40);
	braille_panel_clock(&panel, 600000, 59000);
	assert_string_equal(window(&panel), computer("0:10:00 - 0:00:59"));
	/* The next move takes the clocks away. */
	play(&panel, NULL, opening, 1, 1);
	assert_int_equal(braille_panel_lines(&panel), 2);
	assert_int_equal(panel.line, 0);
}

static void test_sheet_changes(void **state)
{
	(void)state;
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 40);
	play(&panel, NULL, opening, 6, 1);
	/* A correction (D.2.8): ply 6 again, another move; a rollback: ply 3 again. */
	const char *corrected[] = {"e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6"};
	play(&panel, NULL, corrected, 6, 1);
	assert_int_equal(panel.plies, 6);
	assert_string_equal(line(&panel, 3), "⠒⠀⠇⠃⠢⠀⠎⠋⠖");
	play(&panel, NULL, corrected, 3, 1);
	assert_int_equal(panel.plies, 3);
	assert_int_equal(braille_panel_lines(&panel), 3);
	assert_string_equal(line(&panel, 2), "⠆⠀⠎⠋⠒");

	/* A ply past the sheet's end: the sheet starts anew at that move. */
	braille_panel_move_san(&panel, 40, "Kd7", 40, CHESS_BLACK);
	assert_int_equal(panel.plies, 1);
	assert_string_equal(line(&panel, 1), "⠲⠴⠀⠤⠅⠙⠶");
	braille_panel_move_san(&panel, 41, "e4", 41, CHESS_WHITE);
	assert_string_equal(line(&panel, 2), "⠲⠂⠀⠑⠲");
	assert_string_equal(window(&panel), "⠲⠂⠀⠑⠲");

	/* The whole sheet at once, with a draw offer, from a set-up position (Black first). */
	const char *san[] = {"Kd7", "e4", "Ke6", "e5"};
	bool draw[] = {false, true, false, false};
	struct scoresheet_san sheet = {.san = san,
				       .count = 4,
				       .first_number = 40,
				       .first_color = CHESS_BLACK,
				       .draw_offered = draw};
	braille_panel_key(&panel, BRAILLE_KEY_BOTTOM);
	braille_panel_sheet(&panel, &sheet);
	assert_string_equal(line(&panel, 0), "⠲⠆⠀⠑⠢");
	assert_string_equal(line(&panel, 1), "⠲⠴⠀⠤⠅⠙⠶");
	assert_string_equal(line(&panel, 2), "⠲⠂⠀⠑⠲⠀⠐⠣⠐⠶⠐⠜⠀⠅⠑⠖");
	assert_string_equal(line(&panel, 3), "⠲⠆⠀⠑⠢");
	assert_int_equal(panel.line, 2); /* clamped to the shorter sheet */
	/* The same sheet written out by the scoresheet module. */
	char *text = braille_scoresheet_san(&sheet, BRAILLE_UNICODE, NULL);
	assert_string_equal(text, "⠲⠴⠀⠤⠅⠙⠶\n⠲⠂⠀⠑⠲⠀⠐⠣⠐⠶⠐⠜⠀⠅⠑⠖\n⠲⠆⠀⠑⠢\n");
	free(text);
	braille_panel_init(&panel, BRAILLE_NOTATION_COMPUTER, 40);
	braille_panel_sheet(&panel, &sheet);
	assert_string_equal(line(&panel, 2), computer("41. e4 (=) Ke6"));
	assert_string_equal(line(&panel, 1), computer("40... Kd7"));

	/* An empty sheet. */
	struct scoresheet_san empty = {0};
	braille_panel_sheet(&panel, &empty);
	assert_int_equal(braille_panel_lines(&panel), 1);
	assert_string_equal(window(&panel), "");

	/* An illegal move is refused. */
	struct chess_pos pos;
	struct chess_error err;
	chess_fen_parse(&pos, CHESS_FEN_START, &err);
	assert_int_equal(braille_panel_move(&panel, 1, &pos, 0), -1);
}

static void test_full_sheet(void **state)
{
	(void)state;
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 40);
	/* Knights back and forth far beyond the sheet's room. */
	const char *dance[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
	for (int ply = 1; ply <= BRAILLE_PANEL_MAX_PLIES + 10; ply++) {
		int i = (ply - 1) % 4;
		braille_panel_move_san(&panel, ply, dance[i], (ply + 1) / 2,
				       ply % 2 ? CHESS_WHITE : CHESS_BLACK);
	}
	assert_int_equal(panel.plies, BRAILLE_PANEL_MAX_PLIES);
	/* The last move is still shown. */
	assert_string_equal(window(&panel), "⠢⠂⠶⠀⠤⠎⠋⠖"); /* 517... Nf6 */
	assert_int_equal(braille_panel_lines(&panel), 1 + BRAILLE_PANEL_MAX_PLIES / 2);
	/* Widths are clamped. */
	braille_panel_set_width(&panel, 0);
	assert_int_equal(panel.width, 1);
	braille_panel_set_width(&panel, 100000);
	assert_int_equal(panel.width, BRAILLE_PANEL_WIDTH_MAX);
}

static void test_computer_text(void **state)
{
	(void)state;
	/* North American computer braille, eight dots (BRLTTY's en-nabcc). */
	assert_string_equal(computer("Nf3"), "⡝⠋⠒");
	assert_string_equal(computer("O-O+"), "⡕⠤⡕⠬");
	assert_string_equal(computer("e8=Q#"), "⠑⠦⠿⡟⠼");
	assert_string_equal(computer("@[\\]^_`{|}~"), "⡈⡪⡳⡻⡘⠸⠈⠪⠳⠻⠘");
	assert_string_equal(computer("\t\xc3\xa4"), "⣿⣿⣿");
	braille_cell cells[2];
	assert_int_equal(braille_computer_text("abc", cells, 2), 2);
}

/* The page view: the embosser's pages of the scoresheet, one at a time, keys going on across
 * pages; home, a move or a clock reading go back to the game's view. */
static void test_page_view(void **state)
{
	(void)state;
	static const char *const moves[] = {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"};
	struct scoresheet_san sheet = {.san = moves, .count = 8, .first_number = 1};
	struct braille_layout layout = {40, 4, BRAILLE_PAGE_NUMBER_BOTTOM, BRAILLE_SIGNS_AFTER};
	char *brf = braille_scoresheet_san(&sheet, BRAILLE_BRF, &layout);
	int count = 0;

	assert_non_null(brf);
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 40);
	braille_panel_move_san(&panel, 8, "Nf6", 4, CHESS_BLACK);
	assert_int_equal(braille_panel_pages(&panel, brf, 2, &count), 2);
	assert_int_equal(count, 2);
	/* Page 2: moves 4 and the page number, as on paper. */
	assert_int_equal(braille_panel_lines(&panel), 4);
	assert_string_equal(window(&panel), "⠲⠀⠇⠁⠲⠀⠎⠋⠖");
	assert_string_equal(line(&panel, 3), "⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠼⠃");
	/* Line up from the page's top goes to the previous page's last line. */
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_LINE_UP));
	assert_int_equal(panel.page, 1);
	assert_string_equal(window(&panel), "⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠼⠁");
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_TOP));
	assert_string_equal(window(&panel), "⠂⠀⠑⠲⠀⠑⠢");
	/* Line down goes on across the page's end. */
	for (int i = 0; i < 4; i++)
		assert_true(braille_panel_key(&panel, BRAILLE_KEY_LINE_DOWN));
	assert_int_equal(panel.page, 2);
	assert_int_equal(braille_panel_route(&panel, 0), BRAILLE_COMMAND_NONE);
	/* A page past the last is the first. */
	assert_int_equal(braille_panel_pages(&panel, brf, 3, &count), 1);
	/* Home: back to the last move. */
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_HOME));
	assert_int_equal(panel.page, 0);
	assert_string_equal(window(&panel), "⠲⠀⠤⠎⠋⠖");
	/* A new move leaves the page view too. */
	braille_panel_pages(&panel, brf, 1, NULL);
	braille_panel_move_san(&panel, 9, "O-O", 5, CHESS_WHITE);
	assert_int_equal(panel.page, 0);
	assert_string_equal(window(&panel), "⠢⠀⠴⠤⠴");
	/* The signs where the setting puts them, as on the scoresheet. */
	braille_panel_move_san(&panel, 10, "Bxf7+", 5, CHESS_BLACK);
	assert_string_equal(window(&panel), "⠢⠀⠤⠇⠋⠶⠜⠏");
	panel.signs = BRAILLE_SIGNS_BEFORE_SQUARE;
	assert_string_equal(window(&panel), "⠢⠀⠤⠇⠸⠋⠶");
	panel.signs = BRAILLE_SIGNS_AFTER;
	/* Nothing to show: the view stays. */
	assert_int_equal(braille_panel_pages(&panel, "", 1, &count), 0);
	assert_int_equal(count, 0);
	assert_int_equal(panel.page, 0);
	free(brf);
}

/* BRF text as Unicode braille, without its line ends. */
static const char *unicode(const char *brf)
{
	static char out[512 * 3 + 1];
	braille_cell cells[512];
	size_t n = 0;

	for (; *brf && n < 512; brf++)
		if (*brf != '\r' && *brf != '\n')
			cells[n++] = (braille_cell)braille_from_brf_char(*brf);
	braille_to_utf8(cells, n, out, sizeof(out));
	return out;
}

/* A message over the view: read line by line, panning on; past its end the view under it is
 * back as it was; a new move or a clock reading take it away too, another message replaces
 * it. */
static void test_message(void **state)
{
	struct braille_layout layout = {.cells_per_line = 20,
					.page_number = BRAILLE_PAGE_NUMBER_NONE};
	char *brf =
	    braille_text_pages("Eva zwei sollte leer sein, Eva vier besetzt", BRAILLE_BRF, &layout);
	char first[BRAILLE_PANEL_LINE_MAX * 3 + 1];

	(void)state;
	assert_non_null(brf);
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 14);
	braille_panel_move_san(&panel, 1, "e4", 1, CHESS_WHITE);
	braille_panel_clock(&panel, 300000, 299000);
	assert_int_equal(panel.line, 1);
	assert_int_equal(braille_panel_message(&panel, brf), 0);
	assert_int_equal(braille_panel_lines(&panel), 3);
	snprintf(first, sizeof(first), "%s", line(&panel, 0));
	assert_int_equal(strncmp(unicode(brf), first, strlen(first)), 0);
	/* 14 cells: lines of 16, 20 and 7 cells in two, two and one windows; no routing over a
	 * message. */
	assert_int_equal(braille_panel_route(&panel, 0), BRAILLE_COMMAND_NONE);
	for (int i = 0; i < 4; i++) {
		assert_true(braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT));
		assert_true(panel.message_on);
	}
	/* Past its end: the clock line, as the window was. */
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_PAN_RIGHT));
	assert_false(panel.message_on);
	assert_int_equal(panel.line, 1);
	assert_int_equal(braille_panel_route(&panel, 0), BRAILLE_COMMAND_INFO);
	/* Home takes it away, and goes home. */
	braille_panel_message(&panel, brf);
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_HOME));
	assert_false(panel.message_on);
	assert_int_equal(panel.line, 0);
	/* A line down from its last line, or the next move. */
	braille_panel_message(&panel, brf);
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_BOTTOM));
	assert_true(panel.message_on);
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_LINE_DOWN));
	assert_false(panel.message_on);
	braille_panel_message(&panel, brf);
	braille_panel_move_san(&panel, 2, "e5", 1, CHESS_BLACK);
	assert_false(panel.message_on);
	assert_string_equal(window(&panel), "⠂⠀⠤⠑⠢");
	/* Nothing in it: nothing shown. */
	assert_int_equal(braille_panel_message(&panel, ""), -1);
	assert_false(panel.message_on);
	free(brf);
}

/* A review's view: the move shown, its comment, each side's pieces; a page view of one page
 * that home leaves. */
static void test_review_view(void **state)
{
	struct chess_pos pos;
	struct chess_error err;
	struct braille_review rv = {.before = "Variante:",
				    .number = 2,
				    .color = CHESS_BLACK,
				    .san = "Nf6",
				    .comment = "Better than 2... Nc6.",
				    .pos = &pos,
				    .white = "Weiß:",
				    .black = "Schwarz:"};
	char *brf, want[64];
	braille_cell cells[8];

	(void)state;
	assert_int_equal(chess_fen_parse(&pos, "4k3/4p3/5n2/8/4P3/8/3P4/R3K2R w KQ - 0 3", &err),
			 0);
	brf = braille_review_brf(&rv, 40);
	assert_non_null(brf);
	braille_panel_init(&panel, BRAILLE_NOTATION_BCA, 40);
	assert_int_equal(braille_panel_pages(&panel, brf, 1, NULL), 1);
	assert_int_equal(braille_panel_lines(&panel), 4);
	/* "Variante: 2 ⠤⠎⠋⠖": UEB words, the number in lower cells, Black's move. */
	assert_string_equal(line(&panel, 0), "⠠⠧⠁⠗⠊⠁⠝⠞⠑⠒⠀⠆⠀⠤⠎⠋⠖");
	assert_int_equal((int)braille_text("Better", cells, 8), 7);
	braille_to_utf8(cells, 7, want, sizeof(want));
	assert_int_equal(strncmp(line(&panel, 1), want, strlen(want)), 0);
	/* White: the king, the rooks, the pawns, each on its square. */
	assert_string_equal(line(&panel, 2), "⠠⠺⠑⠊⠎⠎⠒⠀⠅⠑⠂⠀⠗⠁⠂⠀⠗⠓⠂⠀⠙⠆⠀⠑⠲");
	assert_string_equal(line(&panel, 3), "⠠⠎⠉⠓⠺⠁⠗⠵⠒⠀⠅⠑⠦⠀⠎⠋⠖⠀⠑⠶");
	assert_true(braille_panel_key(&panel, BRAILLE_KEY_HOME));
	assert_int_equal(panel.page, 0);
	free(brf);
	/* At the start: its words instead of a move, no comment line. */
	rv.before = NULL;
	rv.san = NULL;
	rv.none = "Anfang der Partie";
	rv.comment = NULL;
	brf = braille_review_brf(&rv, 40);
	assert_int_equal(braille_panel_pages(&panel, brf, 1, NULL), 1);
	assert_int_equal(braille_panel_lines(&panel), 3);
	free(brf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_move_line),	  cmocka_unit_test(test_sheet_matches_scoresheet),
	    cmocka_unit_test(test_panning),	  cmocka_unit_test(test_clock_and_routing),
	    cmocka_unit_test(test_sheet_changes), cmocka_unit_test(test_full_sheet),
	    cmocka_unit_test(test_computer_text), cmocka_unit_test(test_page_view),
	    cmocka_unit_test(test_message),	  cmocka_unit_test(test_review_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
