/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The speech corpus (corpus.h): every phrase of every language, moves in each language's
 * settings, durations and numbers, as the daemon would say them.
 */
#include "voice/corpus.h"

#include <stdio.h>
#include <string.h>

#include "chess/chess.h"

static const struct {
	const char *fen, *uci;
} corpus_moves[] = {
    {CHESS_FEN_START, "g1f3"},
    {CHESS_FEN_START, "e2e4"},
    {"4k3/8/8/1p6/8/8/8/4KB2 w - - 0 1", "f1b5"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"},
    {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"},
    {"3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q"},
    {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"},
    {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"},
    {"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2"},
};
#define CORPUS_MOVES	 (int)(sizeof(corpus_moves) / sizeof(corpus_moves[0]))
#define CORPUS_MOVE_SETS 2 /* long form; short form with national numerals */
static const uint64_t corpus_durations[] = {0, 400, 4200, 59000, 3723000};
#define CORPUS_DURATIONS (int)(sizeof(corpus_durations) / sizeof(corpus_durations[0]))
static const int corpus_counts[] = {1, 21, 101, 1001};
#define CORPUS_COUNTS (int)(sizeof(corpus_counts) / sizeof(corpus_counts[0]))
#define CORPUS_PER_LANG                                                                            \
	(PHRASE_ID_COUNT + CORPUS_MOVES * CORPUS_MOVE_SETS + CORPUS_DURATIONS + CORPUS_COUNTS)

int speech_corpus_item(int i, char *name, size_t size, struct utterance *u)
{
	enum phrase_lang lang = (enum phrase_lang)(i / CORPUS_PER_LANG);
	int k = i % CORPUS_PER_LANG;
	struct phrase_options o;
	struct phrase_args a = {.square = CHESS_SQ(6, 0),
				.piece = CHESS_KNIGHT,
				.time_ms = 4200,
				.white_ms = 3720000,
				.black_ms = 185000,
				.count = 101};

	if (i < 0 || lang >= PHRASE_LANG_COUNT)
		return -1;
	phrase_options_defaults(&o);
	o.lang = lang;
	o.announce_check = true;
	utterance_clear(u);
	if (k < PHRASE_ID_COUNT) {
		snprintf(name, size, "%s-phrase-%02d", phrase_lang_code(lang), k);
		phrase_add(u, &o, (enum phrase_id)k, &a);
		return 0;
	}
	k -= PHRASE_ID_COUNT;
	if (k < CORPUS_MOVES * CORPUS_MOVE_SETS) {
		struct chess_pos pos;
		struct chess_error err;
		chess_move m;
		int set = k / CORPUS_MOVES;

		k %= CORPUS_MOVES;
		o.short_form = set == 1;
		o.national_ranks = set == 1;
		snprintf(name, size, "%s-move-%s-%02d", phrase_lang_code(lang),
			 set ? "short-national" : "long", k);
		if (chess_fen_parse(&pos, corpus_moves[k].fen, &err) ||
		    chess_move_parse_uci(&pos, corpus_moves[k].uci, &m))
			return -1;
		phrase_add_move(u, &o, &pos, m);
		return 0;
	}
	k -= CORPUS_MOVES * CORPUS_MOVE_SETS;
	if (k < CORPUS_DURATIONS) {
		snprintf(name, size, "%s-time-%llu", phrase_lang_code(lang),
			 (unsigned long long)corpus_durations[k]);
		a.time_ms = corpus_durations[k];
		phrase_add(u, &o, PHRASE_TIME_LEFT, &a);
		return 0;
	}
	k -= CORPUS_DURATIONS;
	snprintf(name, size, "%s-count-%d", phrase_lang_code(lang), corpus_counts[k]);
	a.count = corpus_counts[k];
	phrase_add(u, &o, PHRASE_MOVES_PLAYED, &a);
	return 0;
}

/* Whether `word` stands in `text` as a whole word, letters compared without case (ASCII; the
 * bytes of other letters as they are). */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strcasestr(p, word)); p++) {
		unsigned char before = p > text ? (unsigned char)p[-1] : ' ';
		unsigned char after = (unsigned char)p[n];
		bool letter_before = before >= 0x80 || (unsigned)((before | 0x20) - 'a') < 26u;
		bool letter_after = after >= 0x80 || (unsigned)((after | 0x20) - 'a') < 26u;

		if (!letter_before && !letter_after)
			return true;
	}
	return false;
}

int speech_corpus_says(enum phrase_lang lang, const char *word, enum phrase_lang *other)
{
	struct utterance u;
	char name[64], text[UTTERANCE_TEXT_MAX];
	int found = -1;

	for (int i = 0; speech_corpus_item(i, name, sizeof(name), &u) == 0; i++)
		for (int s = 0; s < u.count; s++) {
			utterance_segment_text(&u, s, text, sizeof(text));
			if (!has_word(text, word))
				continue;
			if (u.seg[s].lang == lang)
				return 1;
			found = 0;
			if (other)
				*other = u.seg[s].lang;
		}
	return found;
}
