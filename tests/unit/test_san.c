/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Move notation: SAN, Appendix C local notation, UCI; the lenient SAN reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "chess/chess.h"

#define START CHESS_FEN_START
/* Knights on b1 and f3 both reach d2. */
#define TWO_KNIGHTS "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
/* Rooks on a1 and a5 both reach a3. */
#define TWO_ROOKS "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"
/* Queens on e4, h4 and h1 all reach e1: each needs a different disambiguation. */
#define THREE_QUEENS "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1"
/* The knight on d2 is pinned by the bishop on a5, so only Ng1 reaches f3. */
#define PINNED_KNIGHT "4k3/8/8/b7/8/8/3N4/4K1N1 w - - 0 1"
#define EN_PASSANT    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
#define PROMOTION     "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1"
#define CASTLING      "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
/* Pawns b2 and d2, bishop a5 and queen c1 can all take the knight on c3. */
#define FILE_OR_PIECE "4k3/8/8/B7/8/2n5/1P1P4/2Q3K1 w - - 0 1"
/* After 1. f3 e5 2. g4: Black mates with Qh4. */
#define FOOLS_MATE   "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2"
#define CASTLE_CHECK "5k2/8/8/8/8/8/8/4K2R w K - 0 1"

static void load(struct chess_pos *pos, const char *fen)
{
	struct chess_error err;
	int rc = chess_fen_parse(pos, fen, &err);
	if (rc != 0)
		fail_msg("bad test FEN %s: %s", fen, err.message);
}

static chess_move uci_move(const struct chess_pos *pos, const char *uci)
{
	chess_move m;
	if (chess_move_parse_uci(pos, uci, &m) != 0)
		fail_msg("not a legal UCI move here: %s", uci);
	return m;
}

static void expect_san(const char *fen, const char *uci, const char *san, const char *local)
{
	struct chess_pos pos;
	char buf[CHESS_SAN_MAX];

	load(&pos, fen);
	chess_move m = uci_move(&pos, uci);
	chess_move_to_san(&pos, m, buf, sizeof(buf));
	assert_string_equal(buf, san);
	chess_move_to_local(&pos, m, buf, sizeof(buf));
	assert_string_equal(buf, local);
}

/* The move text parses to, as UCI, or "error". */
static void expect_parse(const char *fen, const char *text, const char *uci)
{
	struct chess_pos pos;
	struct chess_error err = {0};
	chess_move m = 0;
	char buf[8];

	load(&pos, fen);
	int rc = chess_move_parse_san(&pos, text, &m, &err);
	if (rc != 0)
		fail_msg("\"%s\" did not parse (%s at %d), expected %s", text, err.message,
			 err.column, uci);
	chess_move_to_uci(m, buf, sizeof(buf));
	assert_string_equal(buf, uci);
}

static void expect_error(const char *fen, const char *text, int column, const char *message)
{
	struct chess_pos pos;
	struct chess_error err = {0};
	chess_move m = 1;

	load(&pos, fen);
	int rc = chess_move_parse_san(&pos, text, &m, &err);
	if (rc == 0) {
		char buf[8];
		chess_move_to_uci(m, buf, sizeof(buf));
		fail_msg("\"%s\" parsed as %s, expected an error", text, buf);
	}
	assert_int_equal(m, CHESS_MOVE_NONE);
	if (!strstr(err.message, message))
		fail_msg("\"%s\": message \"%s\" lacks \"%s\"", text, err.message, message);
	assert_int_equal(err.column, column);
	assert_int_equal(err.line, 1);
}

static void test_san_simple(void **state)
{
	(void)state;
	expect_san(START, "e2e4", "e4", "e4");
	expect_san(START, "g1f3", "Nf3", "Sf3");
	expect_san(START, "b1c3", "Nc3", "Sc3");
	expect_san(CASTLING, "e1d1", "Kd1", "Kd1");
	expect_san(FILE_OR_PIECE, "a5c3", "Bxc3", "Lxc3");
	expect_san(FILE_OR_PIECE, "c1c3", "Qxc3", "Dxc3");
	expect_san(FILE_OR_PIECE, "b2c3", "bxc3", "bxc3");
	expect_san(FILE_OR_PIECE, "d2c3", "dxc3", "dxc3");
	expect_san(TWO_ROOKS, "a5a8", "Ra8+", "Ta8+");
}

static void test_san_disambiguation(void **state)
{
	(void)state;
	/* By file first. */
	expect_san(TWO_KNIGHTS, "b1d2", "Nbd2", "Sbd2");
	expect_san(TWO_KNIGHTS, "f3d2", "Nfd2", "Sfd2");
	/* Only when needed: the other knight move targets are unique. */
	expect_san(TWO_KNIGHTS, "b1c3", "Nc3", "Sc3");
	expect_san(TWO_KNIGHTS, "f3e5", "Ne5", "Se5");
	/* By rank when the files are the same. */
	expect_san(TWO_ROOKS, "a1a3", "R1a3", "T1a3");
	expect_san(TWO_ROOKS, "a5a3", "R5a3", "T5a3");
	expect_san(TWO_ROOKS, "a1b1", "Rb1", "Tb1");
	/* Both when neither alone tells them apart. */
	expect_san(THREE_QUEENS, "h4e1", "Qh4e1", "Dh4e1");
	expect_san(THREE_QUEENS, "e4e1", "Qee1", "Dee1");
	expect_san(THREE_QUEENS, "h1e1", "Q1e1", "D1e1");
	expect_san("k7/8/8/2Q1Q3/8/2Q1Q3/8/K7 w - - 0 1", "c5d4", "Qc5d4", "Dc5d4");
	/* Only among legal moves: a pinned rival does not count. */
	expect_san(PINNED_KNIGHT, "g1f3", "Nf3", "Sf3");
}

static void test_san_special_moves(void **state)
{
	(void)state;
	expect_san(EN_PASSANT, "e5d6", "exd6", "exd6");
	expect_san(EN_PASSANT, "e5e6", "e6", "e6");
	expect_san(PROMOTION, "e7e8q", "e8=Q+", "e8D+");
	expect_san(PROMOTION, "e7e8r", "e8=R+", "e8T+");
	expect_san(PROMOTION, "e7e8b", "e8=B", "e8L");
	expect_san(PROMOTION, "e7e8n", "e8=N", "e8S");
	expect_san(PROMOTION, "e7d8q", "exd8=Q+", "exd8D+");
	expect_san(PROMOTION, "e7d8n", "exd8=N", "exd8S");
	expect_san(CASTLING, "e1g1", "O-O", "0-0");
	expect_san(CASTLING, "e1c1", "O-O-O", "0-0-0");
	expect_san(CASTLE_CHECK, "e1g1", "O-O+", "0-0+");
	expect_san(FOOLS_MATE, "d8h4", "Qh4#", "Dh4#");
	expect_san(START, "f2f3", "f3", "f3");
}

static void test_san_bad_input(void **state)
{
	struct chess_pos pos;
	char buf[CHESS_SAN_MAX];

	(void)state;
	load(&pos, START);
	chess_move_to_san(&pos, CHESS_MOVE_NONE, buf, sizeof(buf));
	assert_string_equal(buf, "--");
	/* e2e5 is no legal move. */
	chess_move_to_san(&pos, chess_move_make(12, 36, CHESS_MOVE_NORMAL, CHESS_NO_PIECE), buf,
			  sizeof(buf));
	assert_string_equal(buf, "--");
	/* Small buffers are cut, never overrun. */
	load(&pos, PROMOTION);
	chess_move m = uci_move(&pos, "e7d8q");
	memset(buf, 'Z', sizeof(buf));
	chess_move_to_san(&pos, m, buf, 4);
	assert_string_equal(buf, "exd");
	assert_int_equal(buf[4], 'Z');
	chess_move_to_san(&pos, m, buf, 0);
	assert_int_equal(buf[0], 'e');
}

static void test_uci(void **state)
{
	struct chess_pos pos;
	char buf[8];
	chess_move m;

	(void)state;
	load(&pos, PROMOTION);
	chess_move_to_uci(uci_move(&pos, "e7d8n"), buf, sizeof(buf));
	assert_string_equal(buf, "e7d8n");
	chess_move_to_uci(CHESS_MOVE_NONE, buf, sizeof(buf));
	assert_string_equal(buf, "0000");
	assert_int_equal(chess_move_parse_uci(&pos, "e7e8", &m), -1);
	assert_int_equal(chess_move_parse_uci(&pos, "e7e8k", &m), -1);
	assert_int_equal(chess_move_parse_uci(&pos, "e7e8qq", &m), -1);
	assert_int_equal(chess_move_parse_uci(&pos, "a1a9", &m), -1);
	assert_int_equal(chess_move_parse_uci(&pos, "", &m), -1);
	assert_int_equal(chess_move_parse_uci(&pos, "E7E8Q", &m), -1);
	assert_int_equal(chess_move_parse_uci(&pos, "e7e8Q", &m), 0);
	load(&pos, CASTLING);
	chess_move_to_uci(uci_move(&pos, "e1c1"), buf, sizeof(buf));
	assert_string_equal(buf, "e1c1");
	assert_int_equal(chess_move_kind(uci_move(&pos, "e1c1")), CHESS_MOVE_CASTLING);
}

static void test_parse_plain(void **state)
{
	(void)state;
	expect_parse(START, "e4", "e2e4");
	expect_parse(START, "Nf3", "g1f3");
	expect_parse(START, "  Nf3  ", "g1f3");
	expect_parse(TWO_KNIGHTS, "Nbd2", "b1d2");
	expect_parse(TWO_KNIGHTS, "Nfd2", "f3d2");
	expect_parse(TWO_KNIGHTS, "N1d2", "b1d2");
	expect_parse(TWO_KNIGHTS, "N3d2", "f3d2");
	expect_parse(TWO_ROOKS, "R1a3", "a1a3");
	expect_parse(TWO_ROOKS, "R5a3", "a5a3");
	expect_parse(THREE_QUEENS, "Qh4e1", "h4e1");
	expect_parse(THREE_QUEENS, "Qee1", "e4e1");
	expect_parse(THREE_QUEENS, "Q1e1", "h1e1");
	expect_parse(PINNED_KNIGHT, "Nf3", "g1f3");
	expect_parse(FILE_OR_PIECE, "bxc3", "b2c3");
	expect_parse(FILE_OR_PIECE, "Bxc3", "a5c3");
	expect_parse(FILE_OR_PIECE, "dxc3", "d2c3");
	expect_parse(FILE_OR_PIECE, "Qxc3", "c1c3");
	expect_parse(FOOLS_MATE, "Qh4#", "d8h4");
}

static void test_parse_lenient(void **state)
{
	(void)state;
	/* Missing or extra x, + and #, annotation glyphs. */
	expect_parse(FILE_OR_PIECE, "bc3", "b2c3");
	expect_parse(FILE_OR_PIECE, "Bc3", "a5c3");
	expect_parse(FILE_OR_PIECE, "b:c3", "b2c3");
	expect_parse(START, "Nxf3", "g1f3");
	expect_parse(START, "Nf3+", "g1f3");
	expect_parse(START, "Nf3#", "g1f3");
	expect_parse(START, "Nf3!?", "g1f3");
	expect_parse(START, "e4!!", "e2e4");
	expect_parse(START, "e4?", "e2e4");
	expect_parse(FOOLS_MATE, "Qh4", "d8h4");
	expect_parse(FOOLS_MATE, "Qh4+", "d8h4");
	expect_parse(FOOLS_MATE, "Qh4#!", "d8h4");
	/* Long algebraic and over-disambiguation. */
	expect_parse(START, "e2-e4", "e2e4");
	expect_parse(START, "Ng1f3", "g1f3");
	expect_parse(START, "Ng1-f3", "g1f3");
	expect_parse(START, "g1-f3", "g1f3");
	expect_parse(FILE_OR_PIECE, "d2xc3", "d2c3");
	expect_parse(FILE_OR_PIECE, "Ba5xc3", "a5c3");
	/* UCI. */
	expect_parse(START, "e2e4", "e2e4");
	expect_parse(START, "g1f3", "g1f3");
	expect_parse(PROMOTION, "e7e8q", "e7e8q");
	expect_parse(PROMOTION, "e7d8b", "e7d8b");
	expect_parse(PROMOTION, "e7e8n", "e7e8n");
	/* Figurines. */
	expect_parse(START,
		     "\xE2\x99\x98"
		     "f3",
		     "g1f3");
	expect_parse(FOOLS_MATE,
		     "\xE2\x99\x9B"
		     "h4#",
		     "d8h4");
}

static void test_parse_german(void **state)
{
	(void)state;
	expect_parse(START, "Sf3", "g1f3");
	expect_parse(TWO_KNIGHTS, "Sbd2", "b1d2");
	expect_parse(FILE_OR_PIECE, "Lxc3", "a5c3");
	expect_parse(FILE_OR_PIECE, "Dxc3", "c1c3");
	expect_parse(FILE_OR_PIECE, "Dc2", "c1c2");
	/* A lower-case d is the file, never the Dame. */
	expect_parse(FILE_OR_PIECE, "dxc3", "d2c3");
	expect_parse(FILE_OR_PIECE, "dc3", "d2c3");
	expect_parse(TWO_ROOKS, "T1a3", "a1a3");
	expect_parse(TWO_ROOKS, "Tb1", "a1b1");
	expect_parse(CASTLING, "Kd1", "e1d1");
	expect_parse(FOOLS_MATE, "Dh4#", "d8h4");
	expect_parse(THREE_QUEENS, "Dh4e1", "h4e1");
	expect_parse(THREE_QUEENS, "Dh4-e1", "h4e1");
}

/* Appendix C's national letters: each language's local notation, read back in that language;
 * the Dutch P (Paard) is a knight for nl alone, and no piece elsewhere. */
static void expect_lang(const char *fen, const char *lang, const char *text, const char *uci)
{
	struct chess_pos pos;
	struct chess_error err = {0};
	chess_move m = 0;
	char buf[8];

	load(&pos, fen);
	if (chess_move_parse_lang(&pos, text, lang, &m, &err) != 0)
		fail_msg("%s: \"%s\" did not parse (%s)", lang, text, err.message);
	chess_move_to_uci(m, buf, sizeof(buf));
	assert_string_equal(buf, uci);
}

static void test_national_letters(void **state)
{
	static const char *const langs[] = {"en", "de", "sv", "nl"};
	static const char *const knight[] = {"Nf3", "Sf3", "Sf3", "Pf3"};
	struct chess_pos pos;
	struct chess_error err = {0};
	char buf[CHESS_SAN_MAX];
	chess_move m = 0;

	(void)state;
	assert_string_equal(chess_piece_letters("en"), "KQRBN");
	assert_string_equal(chess_piece_letters("de"), "KDTLS");
	assert_string_equal(chess_piece_letters("sv"), "KDTLS");
	assert_string_equal(chess_piece_letters("nl"), "KDTLP");
	assert_string_equal(chess_piece_letters(NULL), "KQRBN");
	assert_string_equal(chess_piece_letters("fr"), "KQRBN");
	load(&pos, START);
	for (int i = 0; i < 4; i++) {
		chess_move_to_local_lang(&pos, uci_move(&pos, "g1f3"), langs[i], buf, sizeof(buf));
		assert_string_equal(buf, knight[i]);
		expect_lang(START, langs[i], knight[i], "g1f3");
		/* English and German are read in every language. */
		expect_lang(START, langs[i], "Nf3", "g1f3");
		expect_lang(START, langs[i], "Sf3", "g1f3");
	}
	expect_lang(FILE_OR_PIECE, "nl", "Lxc3", "a5c3");
	expect_lang(FILE_OR_PIECE, "nl", "Dxc3", "c1c3");
	expect_lang(TWO_ROOKS, "nl", "T1a3", "a1a3");
	expect_lang(TWO_KNIGHTS, "nl", "Pbd2", "b1d2");
	load(&pos, PROMOTION);
	chess_move_to_local_lang(&pos, uci_move(&pos, "e7e8n"), "nl", buf, sizeof(buf));
	assert_string_equal(buf, "e8P");
	expect_lang(PROMOTION, "nl", "e8P", "e7e8n");
	expect_lang(PROMOTION, "nl", "e8=P", "e7e8n");
	/* P is no piece outside Dutch: never read as a knight (an English "Pe4" is a pawn's). */
	load(&pos, START);
	assert_int_equal(chess_move_parse_lang(&pos, "Pf3", "de", &m, &err), -1);
	assert_non_null(strstr(err.message, "unknown piece 'P'"));
	assert_int_equal(chess_move_parse_lang(&pos, "Pf3", "en", &m, &err), -1);
	assert_int_equal(chess_move_parse_san(&pos, "Pf3", &m, &err), -1);
	assert_int_equal(chess_move_parse_lang(&pos, "Pf3", NULL, &m, &err), -1);
}

static void test_parse_castling(void **state)
{
	static const char *const shorts[] = {"O-O", "0-0",  "o-o",  "OO",
					     "00",  "O-O+", "0-0!", "O-O#"};
	static const char *const longs[] = {"O-O-O", "0-0-0", "o-o-o", "OOO", "000", "0-0-0+"};

	(void)state;
	for (size_t i = 0; i < sizeof(shorts) / sizeof(shorts[0]); i++)
		expect_parse(CASTLING, shorts[i], "e1g1");
	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++)
		expect_parse(CASTLING, longs[i], "e1c1");
	expect_parse(CASTLING, "e1g1", "e1g1");
	expect_parse(CASTLING, "Ke1g1", "e1g1");
	expect_parse(CASTLE_CHECK, "0-0+", "e1g1");
	expect_error(CASTLE_CHECK, "0-0-0", 1, "no such legal move");
	expect_error(START, "O-O", 1, "no such legal move");
	expect_error(CASTLING, "O-O-O-O", 1, "unknown piece 'O'");
	expect_error(CASTLING, "O-", 1, "unknown piece 'O'");
}

static void test_parse_en_passant(void **state)
{
	(void)state;
	expect_parse(EN_PASSANT, "exd6", "e5d6");
	expect_parse(EN_PASSANT, "exd6 e.p.", "e5d6");
	expect_parse(EN_PASSANT, "exd6e.p.", "e5d6");
	expect_parse(EN_PASSANT, "exd6 ep", "e5d6");
	expect_parse(EN_PASSANT, "exd6ep", "e5d6");
	expect_parse(EN_PASSANT, "exd6 e.p", "e5d6");
	expect_parse(EN_PASSANT, "ed6", "e5d6");
	expect_parse(EN_PASSANT, "e5d6", "e5d6");
	expect_parse(EN_PASSANT, "e5:d6 e.p.", "e5d6");
	expect_parse(EN_PASSANT, "exd6+", "e5d6");
}

static void test_parse_promotion(void **state)
{
	(void)state;
	expect_parse(PROMOTION, "e8=Q", "e7e8q");
	expect_parse(PROMOTION, "e8Q", "e7e8q");
	expect_parse(PROMOTION, "e8(Q)", "e7e8q");
	expect_parse(PROMOTION, "e8/Q", "e7e8q");
	expect_parse(PROMOTION, "e8=Q+", "e7e8q");
	expect_parse(PROMOTION, "e8D", "e7e8q");
	expect_parse(PROMOTION, "e8=D", "e7e8q");
	expect_parse(PROMOTION, "e8T", "e7e8r");
	expect_parse(PROMOTION, "e8L", "e7e8b");
	expect_parse(PROMOTION, "e8S", "e7e8n");
	expect_parse(PROMOTION, "e8=N", "e7e8n");
	expect_parse(PROMOTION, "e8=B", "e7e8b");
	expect_parse(PROMOTION, "e8=R", "e7e8r");
	expect_parse(PROMOTION, "exd8D", "e7d8q");
	expect_parse(PROMOTION, "exd8=N", "e7d8n");
	expect_parse(PROMOTION, "ed8(S)", "e7d8n");
	expect_parse(PROMOTION, "e7-e8=Q", "e7e8q");
	expect_parse(PROMOTION, "e7e8b", "e7e8b");
	expect_parse(PROMOTION, "e7e8B", "e7e8b");
	/* Never a silent queen (D.2.1). */
	expect_error(PROMOTION, "e8", 3, "promotion piece missing");
	expect_error(PROMOTION, "exd8+", 5, "promotion piece missing");
	expect_error(PROMOTION, "e8=K", 4, "unknown promotion piece 'K'");
	expect_error(PROMOTION, "e8=X", 4, "unknown promotion piece 'X'");
	expect_error(PROMOTION, "e8=", 4, "promotion piece missing");
	expect_error(PROMOTION, "e8(Q", 5, "expected ')'");
	expect_error(START, "e4=Q", 1, "no such legal move");
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_error(START, "", 1, "empty move");
	expect_error(START, "   ", 4, "empty move");
	expect_error(START, "+!", 1, "empty move");
	expect_error(START, "Xe4", 1, "unknown piece 'X'");
	expect_error(START, "  Pe4", 3, "unknown piece 'P'");
	expect_error(START, "Ne4", 1, "no such legal move");
	expect_error(START, "e5", 1, "no such legal move");
	expect_error(START, "Ke2", 1, "no such legal move");
	expect_error(TWO_KNIGHTS, "Nd2", 1, "ambiguous");
	expect_error(TWO_KNIGHTS, "Sd2", 1, "ambiguous");
	expect_error(TWO_ROOKS, "Ra3", 1, "ambiguous");
	expect_error(THREE_QUEENS, "Qe1", 1, "ambiguous");
	expect_error(THREE_QUEENS, "Qhe1", 1, "ambiguous");
	expect_error(THREE_QUEENS, "Q4e1", 1, "ambiguous");
	expect_error(START, "e9", 2, "syntax");
	expect_error(START, "Nf3junk", 4, "syntax");
	expect_error(START, "Nf3 Nc6", 6, "syntax");
	expect_error(START, "N", 2, "syntax");
	expect_error(START, "a1b2c3d4", 5, "syntax");
	expect_error(START, "e2e4e5", 5, "syntax");
	expect_error(START, "\x01", 1, "syntax");
	expect_error(START, "\xE2\x99", 1, "syntax");
	/* Ambiguity reports the candidates. */
	struct chess_pos pos;
	struct chess_error err;
	chess_move m;
	load(&pos, TWO_KNIGHTS);
	assert_int_equal(chess_move_parse_san(&pos, "Nd2", &m, &err), -1);
	assert_non_null(strstr(err.message, "Nbd2"));
	assert_non_null(strstr(err.message, "Nfd2"));
	/* The error is optional. */
	assert_int_equal(chess_move_parse_san(&pos, "Nd2", &m, NULL), -1);
	assert_int_equal(chess_move_parse_san(&pos, NULL, &m, NULL), -1);
	/* Overlong text is refused, not scanned. */
	char longtext[200];
	memset(longtext, 'a', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	assert_int_equal(chess_move_parse_san(&pos, longtext, &m, &err), -1);
}

/* Every legal move of positions along a few games survives format -> parse in every notation. */
static void round_trip_position(const struct chess_pos *pos)
{
	struct chess_move_list legal;
	char buf[CHESS_SAN_MAX];
	struct chess_error err;
	chess_move back;

	chess_pos_legal_moves(pos, &legal);
	for (int i = 0; i < legal.count; i++) {
		chess_move m = legal.moves[i];
		chess_move_to_san(pos, m, buf, sizeof(buf));
		if (chess_move_parse_san(pos, buf, &back, &err) != 0 || back != m)
			fail_msg("SAN %s does not read back: %s", buf, err.message);
		chess_move_to_local(pos, m, buf, sizeof(buf));
		if (chess_move_parse_san(pos, buf, &back, &err) != 0 || back != m)
			fail_msg("local %s does not read back: %s", buf, err.message);
		for (int l = 0; l < 4; l++) {
			static const char *const langs[] = {"en", "de", "sv", "nl"};

			chess_move_to_local_lang(pos, m, langs[l], buf, sizeof(buf));
			if (chess_move_parse_lang(pos, buf, langs[l], &back, &err) != 0 ||
			    back != m)
				fail_msg("%s %s does not read back: %s", langs[l], buf,
					 err.message);
		}
		chess_move_to_uci(m, buf, sizeof(buf));
		if (chess_move_parse_uci(pos, buf, &back) != 0 || back != m)
			fail_msg("UCI %s does not read back", buf);
		if (chess_move_parse_san(pos, buf, &back, &err) != 0 || back != m)
			fail_msg("UCI %s does not read back as SAN: %s", buf, err.message);
	}
}

static void test_round_trip(void **state)
{
	static const char *const fens[] = {
	    START,
	    TWO_KNIGHTS,
	    THREE_QUEENS,
	    PROMOTION,
	    CASTLING,
	    EN_PASSANT,
	    FILE_OR_PIECE,
	    /* "Kiwipete" and friends from the perft suites: every special move at once. */
	    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	    /* Promotions that need disambiguation among the new pieces' rivals. */
	    "1n1n3k/2P1P3/8/8/8/8/8/K7 w - - 0 1",
	    "k7/8/8/2Q1Q3/8/2Q1Q3/8/K7 w - - 0 1",
	};
	uint32_t seed = 12345;

	(void)state;
	for (size_t f = 0; f < sizeof(fens) / sizeof(fens[0]); f++) {
		struct chess_pos pos;
		load(&pos, fens[f]);
		/* A pseudo-random walk visits many more positions. */
		for (int ply = 0; ply < 60; ply++) {
			struct chess_move_list legal;
			struct chess_undo undo;
			round_trip_position(&pos);
			if (chess_pos_legal_moves(&pos, &legal) == 0)
				break;
			seed = seed * 1103515245u + 12345u;
			chess_pos_make(&pos, legal.moves[(seed >> 16) % (uint32_t)legal.count],
				       &undo);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_san_simple),
	    cmocka_unit_test(test_san_disambiguation),
	    cmocka_unit_test(test_san_special_moves),
	    cmocka_unit_test(test_san_bad_input),
	    cmocka_unit_test(test_uci),
	    cmocka_unit_test(test_parse_plain),
	    cmocka_unit_test(test_parse_lenient),
	    cmocka_unit_test(test_parse_german),
	    cmocka_unit_test(test_national_letters),
	    cmocka_unit_test(test_parse_castling),
	    cmocka_unit_test(test_parse_en_passant),
	    cmocka_unit_test(test_parse_promotion),
	    cmocka_unit_test(test_parse_errors),
	    cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
