/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Braille chess code, BRF, and the braille and paper scoresheets: golden tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "braille/braille.h"

/* SAN -> Unicode braille, or "" if not coded. */
static const char *code_san(const char *san)
{
	static char out[BRAILLE_MOVE_MAX * 3 + 1];
	braille_cell cells[BRAILLE_MOVE_MAX];
	int n = braille_move_from_san(san, cells, BRAILLE_MOVE_MAX);
	if (n < 0)
		return "";
	braille_to_utf8(cells, (size_t)n, out, sizeof(out));
	return out;
}

static void test_san_moves(void **state)
{
	(void)state;
	static const struct {
		const char *san, *braille;
	} cases[] = {
	    /* Pawn and piece moves, the piece letters k q r l s. */
	    {"e4", "⠑⠲"},
	    {"d5", "⠙⠢"},
	    {"Nf3", "⠎⠋⠒"},
	    {"Bb5", "⠇⠃⠢"},
	    {"Rf4", "⠗⠋⠲"},
	    {"Qd1", "⠟⠙⠂"},
	    {"Kg8", "⠅⠛⠦"},
	    {"a6", "⠁⠖"},
	    {"h7", "⠓⠶"},
	    {"c3", "⠉⠒"},
	    {"g9", ""},
	    /* Disambiguation. */
	    {"Nce5", "⠎⠉⠑⠢"},
	    {"N1c3", "⠎⠂⠉⠒"},
	    {"Nb1c3", "⠎⠃⠂⠉⠒"},
	    /* Captures: no sign; a pawn capture keeps its file. */
	    {"cxd5", "⠉⠙⠢"},
	    {"Nxe5", "⠎⠑⠢"},
	    {"Rdxd8", "⠗⠙⠙⠦"},
	    {"Rd8", "⠗⠙⠦"},
	    /* En passant: no sign of its own. */
	    {"exd6", "⠑⠙⠖"},
	    {"exd6 e.p.", "⠑⠙⠖"},
	    /* Checks: dots 345 p after the move (BCA 2015 1.4, "6. e4+."). */
	    {"e4+", "⠑⠲⠜⠏"},
	    {"f5+", "⠋⠢⠜⠏"},
	    {"Qh5+", "⠟⠓⠢⠜⠏"},
	    {"Rxf4+", "⠗⠋⠲⠜⠏"},
	    {"Nf3++", "⠎⠋⠒⠜⠏"},
	    /* Mate: dots 345 m after the move, no check sign. */
	    {"Re8#", "⠗⠑⠦⠜⠍"},
	    {"Qxf7#", "⠟⠋⠶⠜⠍"},
	    /* Castling. */
	    {"O-O", "⠴⠤⠴"},
	    {"O-O-O", "⠴⠤⠴⠤⠴"},
	    {"0-0", "⠴⠤⠴"},
	    {"0-0-0", "⠴⠤⠴⠤⠴"},
	    {"O-O+", "⠴⠤⠴⠜⠏"},
	    {"O-O-O#", "⠴⠤⠴⠤⠴⠜⠍"},
	    /* Promotion. */
	    {"e8=Q", "⠑⠦⠟"},
	    {"a1=N", "⠁⠂⠎"},
	    {"e8Q", "⠑⠦⠟"},
	    {"bxa8=R+", "⠃⠁⠦⠗⠜⠏"},
	    {"g1=B#", "⠛⠂⠇⠜⠍"},
	    /* Annotation marks are dropped. */
	    {"Nf3!?", "⠎⠋⠒"},
	    /* Not SAN. */
	    {"", ""},
	    {"Zf3", ""},
	    {"xe4", ""},
	    {"e4x", ""},
	    {"xd5", ""},
	    {"O-O-O-O", ""},
	    {"O-O-", ""},
	    {"O-0", ""},
	    {"Qe4=Q", ""},
	    {"e8=K", ""},
	    {"e8=", ""},
	    {"Nb1xc3d", ""},
	    {"e4 junk", ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = code_san(cases[i].san);
		if (strcmp(got, cases[i].braille) != 0)
			fail_msg("\"%s\": got \"%s\", want \"%s\"", cases[i].san, got,
				 cases[i].braille);
	}
	braille_cell small[2];
	assert_int_equal(braille_move_from_san("Nf3", small, 2), -1);
	assert_int_equal(braille_move_from_san(NULL, small, 2), -1);
}

/* A move given by UCI in the position of fen, coded through the chess core. */
static const char *code_move(const char *fen, const char *uci)
{
	static char out[BRAILLE_MOVE_MAX * 3 + 1];
	struct chess_pos pos;
	struct chess_error err;
	chess_move m;
	assert_int_equal(chess_fen_parse(&pos, fen, &err), 0);
	assert_int_equal(chess_move_parse_uci(&pos, uci, &m), 0);
	braille_cell cells[BRAILLE_MOVE_MAX];
	int n = braille_move(&pos, m, cells, BRAILLE_MOVE_MAX);
	assert_true(n > 0);
	braille_to_utf8(cells, (size_t)n, out, sizeof(out));
	return out;
}

static void test_position_moves(void **state)
{
	(void)state;
	const char *castles = "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 12";
	assert_string_equal(code_move(CHESS_FEN_START, "e2e4"), "⠑⠲");
	assert_string_equal(code_move(CHESS_FEN_START, "g1f3"), "⠎⠋⠒");
	assert_string_equal(code_move(castles, "e1g1"), "⠴⠤⠴");
	assert_string_equal(code_move(castles, "e1c1"), "⠴⠤⠴⠤⠴");
	assert_string_equal(
	    code_move("r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R b KQkq - 0 12", "e8c8"), "⠴⠤⠴⠤⠴");
	/* En passant. */
	assert_string_equal(
	    code_move("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6"),
	    "⠑⠋⠖");
	/* Promotion, with capture and check. */
	assert_string_equal(code_move("3qk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7c8q"), "⠉⠦⠟");
	assert_string_equal(code_move("3qk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8q"), "⠉⠙⠦⠟⠜⠏");
	assert_string_equal(code_move("3qk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8n"), "⠉⠙⠦⠎");
	/* Check and mate. */
	assert_string_equal(
	    code_move("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
		      "h5f7"),
	    "⠟⠋⠶⠜⠍");
	assert_string_equal(code_move("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "⠗⠁⠦⠜⠏");
}

static void test_numbers_and_text(void **state)
{
	(void)state;
	braille_cell cells[64];
	char out[256];
	int n = braille_lower_number(1234567890, cells, sizeof(cells));
	braille_to_utf8(cells, (size_t)n, out, sizeof(out));
	assert_string_equal(out, "⠂⠆⠒⠲⠢⠖⠶⠦⠔⠴");
	assert_int_equal(braille_lower_number(100, cells, 2), -1);

	static const struct {
		const char *text, *braille;
	} cases[] = {
	    {"Anna", "⠠⠁⠝⠝⠁"},
	    {"FIDE Open", "⠠⠠⠋⠊⠙⠑⠀⠠⠕⠏⠑⠝"},
	    {"2024.03.15", "⠼⠃⠚⠃⠙⠲⠚⠉⠲⠁⠑"},
	    {"Round 3a", "⠠⠗⠕⠥⠝⠙⠀⠼⠉⠰⠁"},
	    {"Müller", "⠠⠍⠘⠒⠥⠇⠇⠑⠗"},
	    {"Édouard", "⠠⠘⠌⠑⠙⠕⠥⠁⠗⠙"},
	    {"Strauß", "⠠⠎⠞⠗⠁⠥⠎⠎"},
	    {"a-b, c.", "⠁⠤⠃⠂⠀⠉⠲"},
	    {"x€y", "⠭⠿⠽"},
	    /* The UEB dash and long dash (UEB 7.2), not a full cell. */
	    {"Anna \u2013 Bella", "⠠⠁⠝⠝⠁⠀⠠⠤⠀⠠⠃⠑⠇⠇⠁"},
	    {"1999\u20132000", "⠼⠁⠊⠊⠊⠠⠤⠼⠃⠚⠚⠚"},
	    {"a\u2014b", "⠁⠐⠠⠤⠃"},
	    /* Accents: the modifier before the letter, a capital sign before both. */
	    {"Kühn", "⠠⠅⠘⠒⠥⠓⠝"},
	    {"Görög", "⠠⠛⠘⠒⠕⠗⠘⠒⠕⠛"},
	    {"José", "⠠⠚⠕⠎⠘⠌⠑"},
	    {"Łukasz Wójcik", "⠠⠈⠡⠇⠥⠅⠁⠎⠵⠀⠠⠺⠘⠌⠕⠚⠉⠊⠅"},
	    {"Dvořák", "⠠⠙⠧⠕⠘⠬⠗⠘⠌⠁⠅"},
	    {"Çağlar", "⠠⠘⠯⠉⠁⠘⠜⠛⠇⠁⠗"},
	    {"Ærø", "⠠⠁⠘⠖⠑⠗⠈⠡⠕"},
	    {"Oleś Wąs", "⠠⠕⠇⠑⠘⠌⠎⠀⠠⠺⠁⠎"},
	    {"Ñúñez", "⠠⠘⠻⠝⠘⠌⠥⠘⠻⠝⠑⠵"},
	    /* A word in capitals keeps the capitalised word indicator over its accents. */
	    {"ÖZTÜRK", "⠠⠠⠘⠒⠕⠵⠞⠘⠒⠥⠗⠅"},
	    /* Quotes, apostrophes and a few signs a tag may hold. */
	    {"O\u2019Brien", "⠠⠕⠄⠠⠃⠗⠊⠑⠝"},
	    {"\u201cKO\u201d", "⠘⠦⠠⠠⠅⠕⠘⠴"},
	    {"#3 [B]", "⠸⠼⠼⠉⠀⠨⠣⠠⠃⠨⠜"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = braille_text(cases[i].text, cells, sizeof(cells));
		braille_to_utf8(cells, len, out, sizeof(out));
		if (strcmp(out, cases[i].braille) != 0)
			fail_msg("\"%s\": got \"%s\", want \"%s\"", cases[i].text, out,
				 cases[i].braille);
	}
}

static void test_brf_table(void **state)
{
	(void)state;
	assert_int_equal(braille_to_brf_char(0), ' ');
	assert_int_equal(braille_to_brf_char(BRAILLE_DOT(1)), 'A');
	assert_int_equal(braille_to_brf_char(BRAILLE_DOT(2)), '1');
	assert_int_equal(braille_to_brf_char(BRAILLE_DOT(3) | BRAILLE_DOT(5) | BRAILLE_DOT(6)),
			 '0');
	assert_int_equal(
	    braille_to_brf_char(BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5) | BRAILLE_DOT(6)),
	    '#');
	assert_int_equal(braille_to_brf_char(BRAILLE_DOT(6)), ',');
	assert_int_equal(braille_to_brf_char(BRAILLE_DOT(5) | BRAILLE_DOT(6)), ';');
	assert_int_equal(braille_to_brf_char(BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5)),
			 '>');
	assert_int_equal(braille_to_brf_char(0x3F), '=');
	/* Dots 7 and 8 are dropped. */
	assert_int_equal(braille_to_brf_char(BRAILLE_DOT(7) | BRAILLE_DOT(1)), 'A');
	/* A bijection between the 64 cells and the characters space to underscore. */
	bool seen[64] = {false};
	for (int cell = 0; cell < 64; cell++) {
		char ch = braille_to_brf_char((braille_cell)cell);
		assert_true(ch >= ' ' && ch <= '_');
		assert_false(seen[ch - ' ']);
		seen[ch - ' '] = true;
		assert_int_equal(braille_from_brf_char(ch), cell);
	}
	assert_int_equal(braille_from_brf_char('a'), 1);
	assert_int_equal(braille_from_brf_char('~'), -1);
	/* Letters match their print letters. */
	braille_cell cells[26];
	size_t n = braille_text("abcdefghijklmnopqrstuvwxyz", cells, 26);
	assert_int_equal(n, 26);
	for (int k = 0; k < 26; k++)
		assert_int_equal(braille_to_brf_char(cells[k]), 'A' + k);
}

/* Moves from SAN through the chess core. */
static int play(const char *fen, const char *const *san, int count, chess_move *moves)
{
	struct chess_pos pos;
	struct chess_error err;
	assert_int_equal(chess_fen_parse(&pos, fen ? fen : CHESS_FEN_START, &err), 0);
	for (int i = 0; i < count; i++) {
		if (chess_move_parse_san(&pos, san[i], &moves[i], &err) != 0)
			fail_msg("%s: %s", san[i], err.message);
		struct chess_undo undo;
		chess_pos_make(&pos, moves[i], &undo);
	}
	return count;
}

static const char *const short_game[] = {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};

static void short_game_sheet(struct scoresheet_game *g, chess_move *moves)
{
	play(NULL, short_game, 7, moves);
	memset(g, 0, sizeof(*g));
	g->moves = moves;
	g->count = 7;
	g->tags.white = "Anna Schmidt";
	g->tags.black = "Bella Meyer";
	g->tags.event = "Club Championship";
	g->tags.date = "2024.03.15";
	g->tags.result = "1-0";
}

static void test_game_unicode(void **state)
{
	(void)state;
	chess_move moves[8];
	struct scoresheet_game g;
	short_game_sheet(&g, moves);
	char *text = braille_scoresheet(&g, BRAILLE_UNICODE, NULL);
	assert_non_null(text);
	assert_string_equal(text, "⠠⠁⠝⠝⠁⠀⠠⠎⠉⠓⠍⠊⠙⠞⠀⠠⠤⠀⠠⠃⠑⠇⠇⠁⠀⠠⠍⠑⠽⠑⠗\n"
				  "⠠⠉⠇⠥⠃⠀⠠⠉⠓⠁⠍⠏⠊⠕⠝⠎⠓⠊⠏\n"
				  "⠼⠃⠚⠃⠙⠲⠚⠉⠲⠁⠑\n"
				  "\n"
				  "⠂⠀⠑⠲⠀⠑⠢\n"
				  "⠆⠀⠇⠉⠲⠀⠎⠉⠖\n"
				  "⠒⠀⠟⠓⠢⠀⠎⠋⠖\n"
				  "⠲⠀⠟⠋⠶⠜⠍\n"
				  "⠂⠤⠴\n");
	free(text);
}

static void test_game_brf(void **state)
{
	(void)state;
	chess_move moves[8];
	struct scoresheet_game g;
	short_game_sheet(&g, moves);
	/* One endless page when asked for. */
	struct braille_layout endless = {40, 0, BRAILLE_PAGE_NUMBER_BOTTOM, BRAILLE_SIGNS_AFTER};
	char *text = braille_scoresheet(&g, BRAILLE_BRF, &endless);
	assert_non_null(text);
	assert_string_equal(text, ",ANNA ,SCHMIDT ,- ,BELLA ,MEYER\r\n"
				  ",CLUB ,CHAMPIONSHIP\r\n"
				  "#BJBD4JC4AE\r\n"
				  "\r\n"
				  "1 E4 E5\r\n"
				  "2 LC4 SC6\r\n"
				  "3 QH5 SF6\r\n"
				  "4 QF7>M\r\n"
				  "1-0\r\n");
	free(text);

	/* Pages of six lines: five of the sheet and the page number at the right margin of
	 * the last, a form feed between pages, the last page filled to put its number at the
	 * bottom. */
	struct braille_layout layout = {40, 6, BRAILLE_PAGE_NUMBER_BOTTOM, BRAILLE_SIGNS_AFTER};
	text = braille_scoresheet(&g, BRAILLE_BRF, &layout);
	assert_non_null(text);
	assert_string_equal(text, ",ANNA ,SCHMIDT ,- ,BELLA ,MEYER\r\n"
				  ",CLUB ,CHAMPIONSHIP\r\n"
				  "#BJBD4JC4AE\r\n"
				  "\r\n"
				  "1 E4 E5\r\n"
				  "                                      #A\r\n"
				  "\f2 LC4 SC6\r\n"
				  "3 QH5 SF6\r\n"
				  "4 QF7>M\r\n"
				  "1-0\r\n"
				  "\r\n"
				  "                                      #B\r\n");
	free(text);

	/* The defaults: 25 lines a page, 40 cells, the number at the bottom. */
	text = braille_scoresheet(&g, BRAILLE_BRF, NULL);
	assert_non_null(text);
	int lines = 0;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, 25);
	assert_null(strchr(text, '\f'));
	assert_non_null(strstr(text, "1-0\r\n\r\n"));
	assert_string_equal(text + strlen(text) - 42,
			    "                                      #A\r\n");
	free(text);
}

/* A move pair that wraps is never split across pages; a blank line never opens one. */
static void test_pages_keep_move_pairs(void **state)
{
	(void)state;
	chess_move moves[8];
	struct scoresheet_game g;
	short_game_sheet(&g, moves);
	g.tags.event = "Schachgemeinschaft";
	g.tags.white = NULL;
	g.tags.black = NULL;
	g.tags.date = NULL;
	g.tags.result = "*";
	struct braille_layout bottom = {8, 5, BRAILLE_PAGE_NUMBER_BOTTOM, BRAILLE_SIGNS_AFTER};
	char *text = braille_scoresheet(&g, BRAILLE_BRF, &bottom);
	assert_non_null(text);
	assert_string_equal(text, ",SCHACH-\r\n"
				  "GEMEINS-\r\n"
				  "CHAFT\r\n"
				  "\r\n"
				  "      #A\r\n"
				  "\f1 E4 E5\r\n"
				  "2 LC4\r\n"
				  "SC6\r\n"
				  "\r\n"
				  "      #B\r\n"
				  "\f3 QH5\r\n"
				  "SF6\r\n"
				  "4 QF7>M\r\n"
				  "\r\n"
				  "      #C\r\n");
	free(text);

	/* The number on the first line (UK practice): the last page is not filled. */
	struct braille_layout top = {8, 5, BRAILLE_PAGE_NUMBER_TOP, BRAILLE_SIGNS_AFTER};
	text = braille_scoresheet(&g, BRAILLE_BRF, &top);
	assert_non_null(text);
	assert_string_equal(text, "      #A\r\n"
				  ",SCHACH-\r\n"
				  "GEMEINS-\r\n"
				  "CHAFT\r\n"
				  "\r\n"
				  "\f      #B\r\n"
				  "1 E4 E5\r\n"
				  "2 LC4\r\n"
				  "SC6\r\n"
				  "\f      #C\r\n"
				  "3 QH5\r\n"
				  "SF6\r\n"
				  "4 QF7>M\r\n");
	free(text);

	/* No numbers: every line is the sheet's. */
	struct braille_layout none = {8, 4, BRAILLE_PAGE_NUMBER_NONE, BRAILLE_SIGNS_AFTER};
	text = braille_scoresheet(&g, BRAILLE_BRF, &none);
	assert_non_null(text);
	assert_string_equal(text, ",SCHACH-\r\n"
				  "GEMEINS-\r\n"
				  "CHAFT\r\n"
				  "\r\n"
				  "\f1 E4 E5\r\n"
				  "2 LC4\r\n"
				  "SC6\r\n"
				  "\f3 QH5\r\n"
				  "SF6\r\n"
				  "4 QF7>M\r\n");
	free(text);
}

static void test_line_width_brf(void **state)
{
	(void)state;
	chess_move moves[8];
	struct scoresheet_game g;
	short_game_sheet(&g, moves);
	g.tags.event = "International Open Championship for Visually Impaired Players";
	g.tags.white = NULL;
	g.tags.black = NULL;
	g.tags.date = "????.??.??";
	g.tags.result = "*";
	struct braille_layout endless = {40, 0, BRAILLE_PAGE_NUMBER_BOTTOM, BRAILLE_SIGNS_AFTER};
	char *text = braille_scoresheet(&g, BRAILLE_BRF, &endless);
	assert_non_null(text);
	assert_string_equal(text, ",INTERNATIONAL ,OPEN ,CHAMPIONSHIP FOR\r\n"
				  ",VISUALLY ,IMPAIRED ,PLAYERS\r\n"
				  "\r\n"
				  "1 E4 E5\r\n"
				  "2 LC4 SC6\r\n"
				  "3 QH5 SF6\r\n"
				  "4 QF7>M\r\n");
	/* No line is longer than 40 cells. */
	for (const char *line = text; *line;) {
		const char *end = strstr(line, "\r\n");
		assert_non_null(end);
		assert_true(end - line <= 40);
		line = end + 2;
	}
	free(text);

	/* A word longer than the line is divided with a hyphen (UEB 10.13.1); move pairs wrap
	 * between the moves. */
	struct braille_layout narrow = {8, 0, BRAILLE_PAGE_NUMBER_BOTTOM, BRAILLE_SIGNS_AFTER};
	g.tags.event = "Schachgemeinschaft";
	text = braille_scoresheet(&g, BRAILLE_BRF, &narrow);
	assert_non_null(text);
	assert_string_equal(text, ",SCHACH-\r\n"
				  "GEMEINS-\r\n"
				  "CHAFT\r\n"
				  "\r\n"
				  "1 E4 E5\r\n"
				  "2 LC4\r\n"
				  "SC6\r\n"
				  "3 QH5\r\n"
				  "SF6\r\n"
				  "4 QF7>M\r\n");
	free(text);
}

/* Line division, at every width from 12 to 40 cells, of long hyphenated names with capitals
 * and accents: every line fits; no line ends with an indicator (the capital sign, the
 * numeric indicator, a prefix, the first cell of the dash: UEB 10.13); a line breaks at a
 * space, after a hyphen or after the dash where it can (BANA Braille Formats 1.10.1: words
 * are not divided), and a word is divided, with a hyphen, only when it is longer than a
 * whole line; read back with the divisions taken out, the lines are the text. */
#define HYPHEN_CELL (BRAILLE_DOT(3) | BRAILLE_DOT(6))
static bool binds_next_cell(braille_cell c)
{
	return c == (BRAILLE_DOT(3) | BRAILLE_DOT(4) | BRAILLE_DOT(5) | BRAILLE_DOT(6)) ||
	       (c && !(c & ~(BRAILLE_DOT(4) | BRAILLE_DOT(5) | BRAILLE_DOT(6))));
}

static void check_division(const char *text, int width)
{
	braille_cell want[512], got[64];
	size_t n = braille_text(text, want, sizeof(want)), at = 0;
	struct scoresheet_game g = {0};
	struct braille_layout layout = {width, 0, BRAILLE_PAGE_NUMBER_NONE, BRAILLE_SIGNS_AFTER};
	char *out, *line, *end;

	g.tags.event = text;
	out = braille_scoresheet(&g, BRAILLE_BRF, &layout);
	assert_non_null(out);
	for (line = out; (end = strstr(line, "\r\n")) && end > line; line = end + 2) {
		size_t len = (size_t)(end - line);
		bool inserted;

		if (len > (size_t)width)
			fail_msg("width %d: line of %zu cells for '%s'", width, len, text);
		for (size_t k = 0; k < len; k++)
			got[k] = (braille_cell)braille_from_brf_char(line[k]);
		if (binds_next_cell(got[len - 1]))
			fail_msg("width %d: a line of '%s' ends with an indicator: %.*s", width,
				 text, (int)len, line);
		/* A hyphen the text does not have there divides a word. */
		inserted = got[len - 1] == HYPHEN_CELL &&
			   (at + len > n || want[at + len - 1] != HYPHEN_CELL);
		if (memcmp(got, want + at, len - inserted))
			fail_msg("width %d: '%.*s' is not the text of '%s' at %zu", width, (int)len,
				 line, text, at);
		if (inserted) {
			/* The divided word (up to the next space or hyphen) would not have fitted
			 * on a line of its own. */
			size_t start = at, stop = at + len - 1;

			while (start > 0 && want[start - 1] && want[start - 1] != HYPHEN_CELL)
				start--;
			while (stop < n && want[stop] && want[stop] != HYPHEN_CELL)
				stop++;
			if (stop - start + 1 <= (size_t)width)
				fail_msg("width %d: '%.*s' divides a word of '%s' that fits a line",
					 width, (int)len, line, text);
		}
		at += len - inserted;
		while (at < n && want[at] == 0)
			at++;
	}
	assert_int_equal(at, n);
	free(out);
}

static void test_line_division(void **state)
{
	static const char *const texts[] = {
	    "Müller-Lüdenscheidt \xe2\x80\x93 Björk-Sigurðardóttir",
	    "Anna-Katharina Schwarzkopf-Lindenberg \xe2\x80\x93 Élodie Château-Renaud",
	    "Schachgemeinschaft Lüdenscheidt-Oberhausen 1923",
	    "Internationale Meisterschaft der Blinden und Sehbehinderten 2026",
	    "Ólafur Þórðarson-Kristjánsdóttirsdóttir",
	};

	(void)state;
	for (int width = 12; width <= 40; width++)
		for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++)
			check_division(texts[k], width);
}

/* The case the division was made for: at 40 cells the line breaks after "Müller-", not
 * after the capital sign of "Lüdenscheidt". */
static void test_divides_after_the_hyphen(void **state)
{
	struct scoresheet_game g = {0};
	struct braille_layout layout = {40, 0, BRAILLE_PAGE_NUMBER_NONE, BRAILLE_SIGNS_AFTER};
	char *out;

	(void)state;
	g.tags.event = "Bezirksmeisterschaft Anna Müller-Lüdenscheidt";
	out = braille_scoresheet(&g, BRAILLE_BRF, &layout);
	assert_non_null(out);
	assert_non_null(strstr(out, "-\r\n,L"));
	free(out);
}

/* A set-up game with castling both ways, a promotion, a draw offer and a draw. */
static const char *const endgame_fen = "r3k3/7P/8/8/8/8/8/R3K2R w KQq - 0 30";
static const char *const endgame[] = {"O-O", "O-O-O", "h8=Q", "Rxh8", "Kg2", "Rh2+", "Kxh2"};

static void endgame_sheet(struct scoresheet_game *g, struct chess_pos *start, chess_move *moves,
			  bool *draw)
{
	struct chess_error err;
	assert_int_equal(chess_fen_parse(start, endgame_fen, &err), 0);
	play(endgame_fen, endgame, 7, moves);
	memset(draw, 0, 7 * sizeof(*draw));
	draw[3] = true; /* Black offers a draw with 31...Rxh8 */
	memset(g, 0, sizeof(*g));
	g->start = start;
	g->moves = moves;
	g->count = 7;
	g->draw_offered = draw;
	g->tags.white = "Anna";
	g->tags.black = "Bella";
	g->tags.event = "?";
	g->tags.result = "1/2-1/2";
}

static void test_endgame_braille(void **state)
{
	(void)state;
	struct chess_pos start;
	chess_move moves[8];
	bool draw[8];
	struct scoresheet_game g;
	endgame_sheet(&g, &start, moves, draw);
	char *text = braille_scoresheet(&g, BRAILLE_UNICODE, NULL);
	assert_non_null(text);
	assert_string_equal(text, "⠠⠁⠝⠝⠁⠀⠠⠤⠀⠠⠃⠑⠇⠇⠁\n"
				  "\n"
				  "⠒⠴⠀⠴⠤⠴⠀⠴⠤⠴⠤⠴\n"
				  "⠒⠂⠀⠓⠦⠟⠀⠗⠓⠦⠀⠐⠣⠐⠶⠐⠜\n"
				  "⠒⠆⠀⠅⠛⠆⠀⠗⠓⠆⠜⠏\n"
				  "⠒⠒⠀⠅⠓⠆\n"
				  "⠂⠌⠆⠤⠂⠌⠆\n");
	free(text);
}

static void test_paper(void **state)
{
	(void)state;
	struct chess_pos start;
	chess_move moves[8];
	bool draw[8];
	struct scoresheet_game g;
	endgame_sheet(&g, &start, moves, draw);
	g.tags.event = "Club Championship";
	g.tags.date = "2024.03.15";
	char *text = scoresheet_text(&g);
	assert_non_null(text);
	assert_string_equal(text, "White: Anna\n"
				  "Black: Bella\n"
				  "Event: Club Championship\n"
				  "Date: 2024.03.15\n"
				  "\n"
				  " 30. 0-0           0-0-0\n"
				  " 31. h8D           Txh8 (=)\n"
				  " 32. Kg2           Th2+\n"
				  " 33. Kxh2\n"
				  "\n"
				  "Result: 1/2-1/2\n");
	free(text);

	chess_move short_moves[8];
	struct scoresheet_game s;
	short_game_sheet(&s, short_moves);
	text = scoresheet_text(&s);
	assert_non_null(text);
	assert_string_equal(text, "White: Anna Schmidt\n"
				  "Black: Bella Meyer\n"
				  "Event: Club Championship\n"
				  "Date: 2024.03.15\n"
				  "\n"
				  "  1. e4            e5\n"
				  "  2. Lc4           Sc6\n"
				  "  3. Dh5           Sf6\n"
				  "  4. Dxf7#\n"
				  "\n"
				  "Result: 1-0\n");
	free(text);
}

/* A name that would break its line or turn the text after it (U+202E, U+2028, an isolate;
 * a journal of an earlier version could hold one): the paper notation writes a space or a
 * visible U+FFFD, braille the full cell (what a reader of either sees is there). */
static void test_text_that_turns(void **state)
{
	static const char *const marks[] = {"\xe2\x80\xae", "\xe2\x80\xa8", "\xe2\x81\xa6"};
	chess_move moves[8];
	struct scoresheet_game g;
	char *text;

	(void)state;
	short_game_sheet(&g, moves);
	g.tags.white = "Anna \xe2\x80\xae"
		       "tdimhcS";
	g.tags.black = "Bella\xe2\x80\xa8Meyer";
	g.tags.event = "Club\xe2\x81\xa6 Open";
	text = scoresheet_text(&g);
	assert_non_null(text);
	assert_non_null(strstr(text, "White: Anna \xef\xbf\xbdtdimhcS\nBlack: Bella Meyer\n"
				     "Event: Club\xef\xbf\xbd Open\n"));
	free(text);
	for (int f = 0; f < 2; f++) {
		text = braille_scoresheet(&g, f ? BRAILLE_BRF : BRAILLE_UNICODE, NULL);
		assert_non_null(text);
		for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
			assert_null(strstr(text, marks[i]));
		if (!f)
			assert_non_null(strstr(text, "⠠⠁⠝⠝⠁⠀⠿⠞⠙"));
		free(text);
	}
}

static void test_black_first(void **state)
{
	(void)state;
	const char *fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40";
	const char *const san[] = {"Kd7", "e4", "Ke6"};
	chess_move moves[3];
	struct chess_pos start;
	struct chess_error err;
	assert_int_equal(chess_fen_parse(&start, fen, &err), 0);
	play(fen, san, 3, moves);
	struct scoresheet_game g = {.start = &start, .moves = moves, .count = 3};
	char *text = braille_scoresheet(&g, BRAILLE_UNICODE, NULL);
	assert_non_null(text);
	assert_string_equal(text, "⠲⠴⠀⠤⠅⠙⠶\n"
				  "⠲⠂⠀⠑⠲⠀⠅⠑⠖\n");
	free(text);
	text = scoresheet_text(&g);
	assert_non_null(text);
	assert_string_equal(text, " 40. ...           Kd7\n"
				  " 41. e4            Ke6\n");
	free(text);
}

/* The examples printed in the code itself (BCA 2015 1.3 and 1.4), as scoresheet lines. */
static void test_code_examples(void **state)
{
	(void)state;
	static const struct {
		int number;
		const char *san, *line;
	} cases[] = {
	    {2, "Nf3", "⠆⠀⠎⠋⠒\n"},  /* 1.3: "2. Nf3" */
	    {6, "e4+", "⠖⠀⠑⠲⠜⠏\n"}, /* 1.4: "6. e4+." without the full stop */
	    {8, "Ne4", "⠦⠀⠎⠑⠲\n"},  /* 1.4: "8. Ne4)" without the bracket */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *list[] = {cases[i].san};
		struct scoresheet_san sheet = {
		    .san = list, .count = 1, .first_number = cases[i].number};
		char *text = braille_scoresheet_san(&sheet, BRAILLE_UNICODE, NULL);
		assert_non_null(text);
		assert_string_equal(text, cases[i].line);
		free(text);
	}
	/* 1.2: a first move that is Black's has dots 36 before it. */
	const char *black[] = {"e5"};
	struct scoresheet_san sheet = {
	    .san = black, .count = 1, .first_number = 1, .first_color = CHESS_BLACK};
	char *text = braille_scoresheet_san(&sheet, BRAILLE_UNICODE, NULL);
	assert_non_null(text);
	assert_string_equal(text, "⠂⠀⠤⠑⠢\n");
	free(text);
}

/* The two readings of the check and capture signs (docs/braille.md "Braille"): after the move as
 * BCA 2015 1.4 prints it (the default), or before the square as 3.4 is quoted. */
static void test_signs(void **state)
{
	(void)state;
	static const struct {
		const char *san, *after, *before;
	} cases[] = {
	    {"Rf4", "⠗⠋⠲", "⠗⠋⠲"},	    {"cxd5", "⠉⠙⠢", "⠉⠰⠙⠢"},
	    {"f5+", "⠋⠢⠜⠏", "⠘⠋⠢"},	    {"Rxf4+", "⠗⠋⠲⠜⠏", "⠗⠸⠋⠲"},
	    {"Nce5", "⠎⠉⠑⠢", "⠎⠉⠑⠢"},	    {"N1c3", "⠎⠂⠉⠒", "⠎⠂⠉⠒"},
	    {"Re8#", "⠗⠑⠦⠜⠍", "⠗⠑⠦⠜⠍"},	    {"Qxf7#", "⠟⠋⠶⠜⠍", "⠟⠰⠋⠶⠜⠍"},
	    {"exd8=Q+", "⠑⠙⠦⠟⠜⠏", "⠑⠸⠙⠦⠟"}, {"O-O+", "⠴⠤⠴⠜⠏", "⠴⠤⠴⠜⠏"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		braille_cell cells[BRAILLE_MOVE_MAX];
		char out[BRAILLE_MOVE_MAX * 3 + 1];
		int n = braille_move_from_san_signs(cases[i].san, BRAILLE_SIGNS_AFTER, cells,
						    BRAILLE_MOVE_MAX);
		assert_true(n > 0);
		braille_to_utf8(cells, (size_t)n, out, sizeof(out));
		if (strcmp(out, cases[i].after))
			fail_msg("%s after: got %s, want %s", cases[i].san, out, cases[i].after);
		n = braille_move_from_san_signs(cases[i].san, BRAILLE_SIGNS_BEFORE_SQUARE, cells,
						BRAILLE_MOVE_MAX);
		assert_true(n > 0);
		braille_to_utf8(cells, (size_t)n, out, sizeof(out));
		if (strcmp(out, cases[i].before))
			fail_msg("%s before: got %s, want %s", cases[i].san, out, cases[i].before);
	}
	/* The layout's setting reaches the scoresheet. */
	const char *list[] = {"e4", "d5", "exd5", "Qxd5"};
	struct scoresheet_san sheet = {.san = list, .count = 4, .first_number = 1};
	struct braille_layout layout;
	braille_layout_defaults(&layout);
	layout.signs = BRAILLE_SIGNS_BEFORE_SQUARE;
	char *text = braille_scoresheet_san(&sheet, BRAILLE_UNICODE, &layout);
	assert_non_null(text);
	assert_string_equal(text, "⠂⠀⠑⠲⠀⠙⠢\n⠆⠀⠑⠰⠙⠢⠀⠟⠰⠙⠢\n");
	free(text);
}

static void test_invalid(void **state)
{
	(void)state;
	/* An illegal move is refused. */
	chess_move bad = chess_move_make(12, 36, CHESS_MOVE_NORMAL, CHESS_NO_PIECE); /* e2e5 */
	struct scoresheet_game g = {.moves = &bad, .count = 1};
	assert_null(braille_scoresheet(&g, BRAILLE_UNICODE, NULL));
	assert_null(scoresheet_text(&g));
	const char *const san[] = {"e4", "nonsense"};
	struct scoresheet_san s = {.san = san, .count = 2, .first_number = 1};
	assert_null(braille_scoresheet_san(&s, BRAILLE_BRF, NULL));
	/* An empty game gives an empty sheet. */
	struct scoresheet_game empty = {0};
	char *text = braille_scoresheet(&empty, BRAILLE_UNICODE, NULL);
	assert_non_null(text);
	assert_string_equal(text, "");
	free(text);
	text = scoresheet_text(&empty);
	assert_non_null(text);
	assert_string_equal(text, "");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_san_moves),
	    cmocka_unit_test(test_position_moves),
	    cmocka_unit_test(test_numbers_and_text),
	    cmocka_unit_test(test_brf_table),
	    cmocka_unit_test(test_game_unicode),
	    cmocka_unit_test(test_game_brf),
	    cmocka_unit_test(test_line_width_brf),
	    cmocka_unit_test(test_line_division),
	    cmocka_unit_test(test_divides_after_the_hyphen),
	    cmocka_unit_test(test_pages_keep_move_pairs),
	    cmocka_unit_test(test_endgame_braille),
	    cmocka_unit_test(test_paper),
	    cmocka_unit_test(test_black_first),
	    cmocka_unit_test(test_text_that_turns),
	    cmocka_unit_test(test_invalid),
	    cmocka_unit_test(test_code_examples),
	    cmocka_unit_test(test_signs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
