/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SAN reader: arbitrary text in a few fixed positions.  The first byte picks the
 * position and the language whose piece letters are read besides (none, en, de, sv, nl).
 * Whatever parses must be a legal move, and that move written as SAN, as local notation
 * (German, and the language's) and as UCI must read back as the same move; errors must say
 * where.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fens[] = {
    CHESS_FEN_START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1",
    "4k3/8/8/B7/8/2n5/1P1P4/2Q3K1 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
};
#define NFENS (sizeof(fens) / sizeof(fens[0]))

static bool legal(const struct chess_pos *pos, chess_move m)
{
	struct chess_move_list list;
	chess_pos_legal_moves(pos, &list);
	for (int i = 0; i < list.count; i++)
		if (list.moves[i] == m)
			return true;
	return false;
}

static const char *const langs[] = {NULL, "en", "de", "sv", "nl"};
#define NLANGS (sizeof(langs) / sizeof(langs[0]))

static void expect_reads_back(const struct chess_pos *pos, const char *text, const char *lang,
			      chess_move m)
{
	struct chess_error err;
	chess_move back;

	if (chess_move_parse_lang(pos, text, lang, &back, &err) != 0 || back != m)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct chess_pos positions[NFENS];
	static bool ready;
	char text[128], buf[CHESS_SAN_MAX];
	struct chess_error err;
	chess_move m;

	if (!ready) {
		for (size_t i = 0; i < NFENS; i++)
			if (chess_fen_parse(&positions[i], fens[i], &err) != 0)
				abort();
		ready = true;
	}
	if (size == 0)
		return 0;
	const struct chess_pos *pos = &positions[data[0] % NFENS];
	const char *lang = langs[(data[0] / NFENS) % NLANGS];
	size--;
	data++;
	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';

	memset(&err, 0, sizeof(err));
	if (chess_move_parse_lang(pos, text, lang, &m, &err) != 0) {
		if (m != CHESS_MOVE_NONE || err.line != 1 || err.column < 1 ||
		    err.column > (int)strlen(text) + 1 || !err.message[0] ||
		    !memchr(err.message, '\0', sizeof(err.message)))
			abort();
		return 0;
	}
	if (!legal(pos, m))
		abort();
	chess_move_to_san(pos, m, buf, sizeof(buf));
	expect_reads_back(pos, buf, lang, m);
	chess_move_to_local(pos, m, buf, sizeof(buf));
	expect_reads_back(pos, buf, lang, m);
	chess_move_to_local_lang(pos, m, lang, buf, sizeof(buf));
	expect_reads_back(pos, buf, lang, m);
	chess_move_to_uci(m, buf, sizeof(buf));
	expect_reads_back(pos, buf, lang, m);
	chess_move back;
	if (chess_move_parse_uci(pos, buf, &back) != 0 || back != m)
		abort();
	return 0;
}
