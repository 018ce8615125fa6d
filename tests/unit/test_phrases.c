/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Golden tests for voice/phrases: moves in Appendix D words, times, numbers, fixed phrases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "chess/chess.h"
#include "voice/phrases.h"

static struct phrase_options opts(enum phrase_lang lang, bool short_form, bool national, bool check)
{
	struct phrase_options o;

	phrase_options_defaults(&o);
	o.lang = lang;
	o.short_form = short_form;
	o.national_ranks = national;
	o.announce_check = check;
	return o;
}

static bool has_digit(const char *s)
{
	for (; *s; s++)
		if (isdigit((unsigned char)*s))
			return true;
	return false;
}

/* The move uci from fen, spoken with o. */
static void check_move(const struct phrase_options *o, const char *fen, const char *uci,
		       const char *expected)
{
	struct chess_pos pos;
	struct chess_error err;
	chess_move m;
	char buf[160];
	size_t n;

	assert_int_equal(chess_fen_parse(&pos, fen, &err), 0);
	assert_int_equal(chess_move_parse_uci(&pos, uci, &m), 0);
	n = phrase_move(o, &pos, m, buf, sizeof(buf));
	assert_string_equal(buf, expected);
	assert_int_equal(n, strlen(expected));
	assert_false(has_digit(buf));
}

#define START	     CHESS_FEN_START
#define CASTLE_FEN   "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define CASTLE_FEN_B "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
#define BISHOP_FEN   "4k3/8/8/1p6/8/8/8/4KB2 w - - 0 1"
#define EP_FEN	     "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
#define PROMO_FEN    "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1"
#define CHECK_FEN    "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
#define MATE_FEN     "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
#define KNIGHTS_FEN  "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
#define ROOKS_FEN    "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"
#define QUEENS_FEN   "k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1"

static void test_long_form(void **state)
{
	(void)state;
	struct phrase_options o = opts(PHRASE_DE, false, false, false);

	check_move(&o, START, "g1f3", "Springer Gustav eins Felix drei");
	check_move(&o, START, "e2e4", "Bauer Eva zwei Eva vier");
	check_move(&o, BISHOP_FEN, "f1b5", "Läufer Felix eins schlägt Bella fünf");
	check_move(&o, CASTLE_FEN, "e1g1", "Kurze Rochade");
	check_move(&o, CASTLE_FEN, "e1c1", "Lange Rochade");
	check_move(&o, CASTLE_FEN_B, "e8g8", "Kurze Rochade");
	check_move(&o, CASTLE_FEN_B, "e8c8", "Lange Rochade");
	check_move(&o, CASTLE_FEN, "a1a8", "Turm Anna eins schlägt Anna acht");
	check_move(&o, CASTLE_FEN, "e1f1", "König Eva eins Felix eins");
	check_move(&o, EP_FEN, "e5d6", "Bauer Eva fünf schlägt David sechs en passant");
	check_move(&o, PROMO_FEN, "e7e8q", "Bauer Eva sieben Eva acht, Dame");
	check_move(&o, PROMO_FEN, "e7e8r", "Bauer Eva sieben Eva acht, Turm");
	check_move(&o, PROMO_FEN, "e7d8n", "Bauer Eva sieben schlägt David acht, Springer");
	check_move(&o, PROMO_FEN, "e7d8b", "Bauer Eva sieben schlägt David acht, Läufer");
	check_move(&o, CHECK_FEN, "a1a8", "Turm Anna eins Anna acht");
	check_move(&o, MATE_FEN, "a1a8", "Turm Anna eins Anna acht");
}

static void test_check_and_mate(void **state)
{
	(void)state;
	struct phrase_options o = opts(PHRASE_DE, false, false, true);
	struct phrase_options s = opts(PHRASE_EN, true, false, true);

	check_move(&o, CHECK_FEN, "a1a8", "Turm Anna eins Anna acht, Schach");
	check_move(&o, MATE_FEN, "a1a8", "Turm Anna eins Anna acht, Matt");
	check_move(&o, START, "e2e4", "Bauer Eva zwei Eva vier");
	check_move(&o, "3r4/4P3/8/8/k7/8/8/4K3 w - - 0 1", "e7e8q",
		   "Bauer Eva sieben Eva acht, Dame, Schach");
	/* Schach and Matt stay German whatever the interface language (Appendix D words). */
	check_move(&s, MATE_FEN, "a1a8", "Turm Anna acht, Matt");
}

static void test_short_form(void **state)
{
	(void)state;
	struct phrase_options o = opts(PHRASE_DE, true, false, false);

	check_move(&o, START, "g1f3", "Springer Felix drei");
	check_move(&o, START, "e2e4", "Bauer Eva vier");
	check_move(&o, BISHOP_FEN, "f1b5", "Läufer schlägt Bella fünf");
	check_move(&o, CASTLE_FEN, "e1g1", "Kurze Rochade");
	check_move(&o, CASTLE_FEN, "e1c1", "Lange Rochade");
	check_move(&o, EP_FEN, "e5d6", "Bauer Eva schlägt David sechs en passant");
	check_move(&o, PROMO_FEN, "e7e8q", "Bauer Eva acht, Dame");
	check_move(&o, PROMO_FEN, "e7d8n", "Bauer Eva schlägt David acht, Springer");
	/* Two pieces of a kind can reach the square: file first, then rank, then both. */
	check_move(&o, KNIGHTS_FEN, "b1d2", "Springer Bella David zwei");
	check_move(&o, KNIGHTS_FEN, "f3d2", "Springer Felix David zwei");
	check_move(&o, KNIGHTS_FEN, "f3g5", "Springer Gustav fünf");
	check_move(&o, ROOKS_FEN, "a1a3", "Turm eins Anna drei");
	check_move(&o, ROOKS_FEN, "a5a3", "Turm fünf Anna drei");
	check_move(&o, QUEENS_FEN, "c3d2", "Dame Cesar drei David zwei");
	check_move(&o, QUEENS_FEN, "e3d2", "Dame Eva David zwei");
}

static void test_national_ranks(void **state)
{
	(void)state;
	struct phrase_options de = opts(PHRASE_DE, false, true, false);
	struct phrase_options en = opts(PHRASE_EN, false, true, false);
	struct phrase_options sv = opts(PHRASE_SV, false, true, false);
	struct phrase_options nl = opts(PHRASE_NL, false, true, false);
	struct phrase_options en_default = opts(PHRASE_EN, false, false, false);
	struct phrase_options sv_short = opts(PHRASE_SV, true, true, false);

	check_move(&de, START, "g1f3", "Springer Gustav eins Felix drei");
	check_move(&en, START, "g1f3", "Springer Gustav one Felix three");
	check_move(&sv, START, "g1f3", "Springer Gustav ett Felix tre");
	check_move(&nl, START, "g1f3", "Springer Gustav één Felix drie");
	check_move(&en, PROMO_FEN, "e7e8q", "Bauer Eva seven Eva eight, Dame");
	check_move(&sv, EP_FEN, "e5d6", "Bauer Eva fem schlägt David sex en passant");
	check_move(&nl, BISHOP_FEN, "f1b5", "Läufer Felix één schlägt Bella vijf");
	/* Without the arbiter's choice the interface language does not change the numerals. */
	check_move(&en_default, START, "g1f3", "Springer Gustav eins Felix drei");
	check_move(&sv_short, ROOKS_FEN, "a1a3", "Turm ett Anna tre");
}

/* Every legal move in a few positions, every option: words only, no notation. */
static void test_all_moves_words_only(void **state)
{
	(void)state;
	static const char *const fens[] = {
	    START,	  CASTLE_FEN,
	    CASTLE_FEN_B, BISHOP_FEN,
	    EP_FEN,	  PROMO_FEN,
	    CHECK_FEN,	  MATE_FEN,
	    KNIGHTS_FEN,  ROOKS_FEN,
	    QUEENS_FEN,	  "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
	};
	for (size_t f = 0; f < sizeof(fens) / sizeof(fens[0]); f++) {
		struct chess_pos pos;
		struct chess_error err;
		struct chess_move_list list;

		assert_int_equal(chess_fen_parse(&pos, fens[f], &err), 0);
		chess_pos_legal_moves(&pos, &list);
		for (int i = 0; i < list.count; i++) {
			for (int bits = 0; bits < 8; bits++) {
				for (int lang = 0; lang < PHRASE_LANG_COUNT; lang++) {
					struct phrase_options o = opts(
					    (enum phrase_lang)lang, bits & 1, bits & 2, bits & 4);
					char buf[160];

					phrase_move(&o, &pos, list.moves[i], buf, sizeof(buf));
					assert_true(strlen(buf) > 5);
					assert_false(has_digit(buf));
					assert_null(strchr(buf, '='));
					assert_null(strchr(buf, '+'));
					assert_null(strchr(buf, '#'));
				}
			}
		}
	}
}

static void test_square(void **state)
{
	(void)state;
	struct phrase_options o = opts(PHRASE_EN, false, false, false);
	char buf[64];

	assert_int_equal(phrase_square(&o, CHESS_SQ(4, 3), buf, sizeof(buf)), strlen("Eva vier"));
	assert_string_equal(buf, "Eva vier");
	phrase_square(&o, CHESS_SQ(0, 0), buf, sizeof(buf));
	assert_string_equal(buf, "Anna eins");
	phrase_square(&o, CHESS_SQ(7, 7), buf, sizeof(buf));
	assert_string_equal(buf, "Hector acht");
	o.national_ranks = true;
	phrase_square(&o, CHESS_SQ(2, 5), buf, sizeof(buf));
	assert_string_equal(buf, "Cesar six");
}

static void test_square_should(void **state)
{
	(void)state;
	/* Guidance names the piece that belongs on the square, in German. */
	static const char *const expected[PHRASE_LANG_COUNT][3] = {
	    {"Eva vier sollte leer sein", "Eva vier sollte besetzt sein",
	     "Eva vier sollte besetzt sein: Springer"},
	    {"Eva vier should be empty", "Eva vier should be occupied",
	     "Eva vier should be occupied: Springer"},
	    {"Eva vier ska vara tom", "Eva vier ska vara upptagen",
	     "Eva vier ska vara upptagen: Springer"},
	    {"Eva vier moet leeg zijn", "Eva vier moet bezet zijn",
	     "Eva vier moet bezet zijn: Springer"},
	};
	char buf[80];

	for (int lang = 0; lang < PHRASE_LANG_COUNT; lang++) {
		struct phrase_options o = opts((enum phrase_lang)lang, false, false, false);

		for (int k = 0; k < 3; k++) {
			size_t n = phrase_square_should(&o, CHESS_SQ(4, 3), k > 0,
							k == 2 ? CHESS_KNIGHT : CHESS_NO_PIECE, buf,
							sizeof(buf));

			assert_string_equal(buf, expected[lang][k]);
			assert_int_equal(n, strlen(buf));
		}
	}
	struct phrase_options nl = opts(PHRASE_NL, false, true, false);
	phrase_square_should(&nl, CHESS_SQ(6, 0), false, CHESS_NO_PIECE, buf, sizeof(buf));
	assert_string_equal(buf, "Gustav één moet leeg zijn");
}

static void check_duration(enum phrase_lang lang, uint64_t ms, const char *expected)
{
	char buf[160];
	size_t n = phrase_duration(lang, ms, buf, sizeof(buf));

	assert_string_equal(buf, expected);
	assert_int_equal(n, strlen(expected));
	assert_false(has_digit(buf));
}

#define HMS(h, m, s) ((((uint64_t)(h)*60 + (m)) * 60 + (s)) * 1000)

static void test_durations(void **state)
{
	(void)state;
	check_duration(PHRASE_DE, HMS(1, 23, 5),
		       "eine Stunde, dreiundzwanzig Minuten, fünf Sekunden");
	check_duration(PHRASE_EN, HMS(1, 23, 0), "one hour, twenty-three minutes");
	check_duration(PHRASE_SV, HMS(1, 23, 5), "en timme, tjugotre minuter, fem sekunder");
	check_duration(PHRASE_NL, HMS(1, 23, 5), "één uur, drieëntwintig minuten, vijf seconden");

	check_duration(PHRASE_DE, HMS(1, 1, 1), "eine Stunde, eine Minute, eine Sekunde");
	check_duration(PHRASE_EN, HMS(1, 1, 1), "one hour, one minute, one second");
	check_duration(PHRASE_SV, HMS(1, 1, 1), "en timme, en minut, en sekund");
	check_duration(PHRASE_NL, HMS(1, 1, 1), "één uur, één minuut, één seconde");

	check_duration(PHRASE_DE, 0, "null Sekunden");
	check_duration(PHRASE_EN, 0, "zero seconds");
	check_duration(PHRASE_SV, 0, "noll sekunder");
	check_duration(PHRASE_NL, 0, "nul seconden");
	/* Time left is never "zero": under a second, and tenths under ten seconds. */
	check_duration(PHRASE_DE, 999, "unter einer Sekunde");
	check_duration(PHRASE_EN, 1, "under one second");
	check_duration(PHRASE_SV, 500, "under en sekund");
	check_duration(PHRASE_NL, 900, "minder dan een seconde");
	check_duration(PHRASE_DE, 4250, "vier Komma zwei Sekunden");
	check_duration(PHRASE_EN, 4250, "four point two seconds");
	check_duration(PHRASE_SV, 9999, "nio komma nio sekunder");
	check_duration(PHRASE_NL, 1100, "één komma één seconden");
	check_duration(PHRASE_DE, 1000, "eine Sekunde");
	check_duration(PHRASE_DE, 5000, "fünf Sekunden");
	check_duration(PHRASE_DE, 10900, "zehn Sekunden");

	check_duration(PHRASE_DE, HMS(0, 0, 59), "neunundfünfzig Sekunden");
	check_duration(PHRASE_EN, HMS(0, 0, 59), "fifty-nine seconds");
	check_duration(PHRASE_SV, HMS(0, 0, 59), "femtionio sekunder");
	check_duration(PHRASE_NL, HMS(0, 0, 59), "negenenvijftig seconden");
	check_duration(PHRASE_DE, HMS(0, 0, 59) + 999, "neunundfünfzig Sekunden");

	check_duration(PHRASE_DE, HMS(1, 0, 0), "eine Stunde");
	check_duration(PHRASE_EN, HMS(1, 0, 0), "one hour");
	check_duration(PHRASE_SV, HMS(1, 0, 0), "en timme");
	check_duration(PHRASE_NL, HMS(1, 0, 0), "één uur");

	check_duration(PHRASE_DE, HMS(2, 0, 0), "zwei Stunden");
	check_duration(PHRASE_EN, HMS(2, 0, 0), "two hours");
	check_duration(PHRASE_SV, HMS(2, 0, 0), "två timmar");
	check_duration(PHRASE_NL, HMS(2, 0, 0), "twee uur");

	check_duration(PHRASE_DE, HMS(0, 1, 0), "eine Minute");
	check_duration(PHRASE_DE, HMS(0, 21, 0), "einundzwanzig Minuten");
	check_duration(PHRASE_EN, HMS(0, 21, 0), "twenty-one minutes");
	check_duration(PHRASE_DE, HMS(1, 0, 1), "eine Stunde, eine Sekunde");
	check_duration(PHRASE_EN, HMS(0, 2, 30), "two minutes, thirty seconds");
}

static void check_number(enum phrase_lang lang, int n, const char *expected)
{
	char buf[120];
	size_t len = phrase_number(lang, n, buf, sizeof(buf));

	assert_string_equal(buf, expected);
	assert_int_equal(len, strlen(expected));
}

static void test_numbers(void **state)
{
	(void)state;
	static const struct {
		int n;
		const char *words[PHRASE_LANG_COUNT];
	} table[] = {
	    {0, {"null", "zero", "noll", "nul"}},
	    {1, {"eins", "one", "ett", "één"}},
	    {7, {"sieben", "seven", "sju", "zeven"}},
	    {11, {"elf", "eleven", "elva", "elf"}},
	    {12, {"zwölf", "twelve", "tolv", "twaalf"}},
	    {16, {"sechzehn", "sixteen", "sexton", "zestien"}},
	    {17, {"siebzehn", "seventeen", "sjutton", "zeventien"}},
	    {20, {"zwanzig", "twenty", "tjugo", "twintig"}},
	    {21, {"einundzwanzig", "twenty-one", "tjugoett", "eenentwintig"}},
	    {22, {"zweiundzwanzig", "twenty-two", "tjugotvå", "tweeëntwintig"}},
	    {23, {"dreiundzwanzig", "twenty-three", "tjugotre", "drieëntwintig"}},
	    {30, {"dreißig", "thirty", "trettio", "dertig"}},
	    {31, {"einunddreißig", "thirty-one", "trettioett", "eenendertig"}},
	    {44, {"vierundvierzig", "forty-four", "fyrtiofyra", "vierenveertig"}},
	    {58, {"achtundfünfzig", "fifty-eight", "femtioåtta", "achtenvijftig"}},
	    {67, {"siebenundsechzig", "sixty-seven", "sextiosju", "zevenenzestig"}},
	    {76, {"sechsundsiebzig", "seventy-six", "sjuttiosex", "zesenzeventig"}},
	    {80, {"achtzig", "eighty", "åttio", "tachtig"}},
	    {99, {"neunundneunzig", "ninety-nine", "nittionio", "negenennegentig"}},
	    {100, {"einhundert", "one hundred", "etthundra", "honderd"}},
	    {101, {"einhunderteins", "one hundred and one", "etthundraett", "honderdeen"}},
	    {121,
	     {"einhunderteinundzwanzig", "one hundred and twenty-one", "etthundratjugoett",
	      "honderdeenentwintig"}},
	    {200, {"zweihundert", "two hundred", "tvåhundra", "tweehonderd"}},
	    {1000, {"eintausend", "one thousand", "ettusen", "duizend"}},
	    {2024,
	     {"zweitausendvierundzwanzig", "two thousand and twenty-four", "tvåtusentjugofyra",
	      "tweeduizendvierentwintig"}},
	    {5400,
	     {"fünftausendvierhundert", "five thousand four hundred", "femtusenfyrahundra",
	      "vijfduizendvierhonderd"}},
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		for (int lang = 0; lang < PHRASE_LANG_COUNT; lang++)
			check_number((enum phrase_lang)lang, table[i].n, table[i].words[lang]);
	/* Every number up to 9999: words only, and never empty. */
	for (int lang = 0; lang < PHRASE_LANG_COUNT; lang++) {
		for (int n = 0; n <= 9999; n++) {
			char buf[120];

			assert_true(phrase_number((enum phrase_lang)lang, n, buf, sizeof(buf)) > 0);
			assert_false(has_digit(buf));
		}
	}
}

static void test_clock_info(void **state)
{
	(void)state;
	char buf[256];

	phrase_clock_info(PHRASE_DE, HMS(1, 2, 0), HMS(0, 3, 5), 31, buf, sizeof(buf));
	assert_string_equal(buf, "Weiß: eine Stunde, zwei Minuten. Schwarz: drei Minuten, fünf "
				 "Sekunden. Gespielte Züge: einunddreißig.");
	phrase_clock_info(PHRASE_EN, HMS(1, 2, 0), HMS(0, 0, 1), 1, buf, sizeof(buf));
	assert_string_equal(buf,
			    "White: one hour, two minutes. Black: one second. Moves played: one.");
	phrase_clock_info(PHRASE_SV, HMS(0, 10, 0), HMS(0, 0, 0), 40, buf, sizeof(buf));
	assert_string_equal(buf, "Vit: tio minuter. Svart: noll sekunder. Spelade drag: fyrtio.");
	phrase_clock_info(PHRASE_NL, HMS(1, 30, 0), HMS(1, 29, 59), 22, buf, sizeof(buf));
	assert_string_equal(buf, "Wit: één uur, dertig minuten. Zwart: één uur, negenentwintig "
				 "minuten, negenenvijftig seconden. Gespeelde zetten: "
				 "tweeëntwintig.");
	phrase_move_number(PHRASE_DE, 101, buf, sizeof(buf));
	assert_string_equal(buf, "Gespielte Züge: einhunderteins.");
	assert_false(has_digit(buf));
}

static void test_fixed_phrases(void **state)
{
	(void)state;
	for (int lang = 0; lang < PHRASE_LANG_COUNT; lang++) {
		for (int id = 0; id < PHRASE_ID_COUNT; id++) {
			const char *t = phrase_text((enum phrase_lang)lang, (enum phrase_id)id);

			assert_non_null(t);
			assert_true(strlen(t) > 2);
			assert_false(has_digit(t));
			/* A phrase is its language's own, not another's copy (except where the
			 * words really are the same, like "Patt"). */
		}
	}
	assert_string_equal(phrase_text(PHRASE_DE, PHRASE_GAME_START), "Partie beginnt");
	assert_string_equal(phrase_text(PHRASE_DE, PHRASE_PROMOTION_PROMPT),
			    "Umwandlung: Figur wählen");
	assert_string_equal(phrase_text(PHRASE_EN, PHRASE_FLAG_WHITE), "White's flag has fallen");
	assert_string_equal(phrase_text(PHRASE_EN, PHRASE_FLAG_BLACK), "Black's flag has fallen");
	assert_string_equal(phrase_text(PHRASE_DE, PHRASE_ILLEGAL_MOVE), "Regelwidriger Zug");
	assert_string_equal(phrase_text(PHRASE_SV, PHRASE_ILLEGAL_MOVE), "Regelstridigt drag");
	assert_string_equal(phrase_text(PHRASE_DE, PHRASE_ERROR), "Fehler");
	assert_string_equal(phrase_text(PHRASE_SV, PHRASE_RESULT_DRAW), "Remi");
	assert_string_equal(phrase_text(PHRASE_NL, PHRASE_MISMATCH),
			    "Het bord klopt niet met de partij");
	assert_string_equal(phrase_piece(CHESS_QUEEN), "Dame");
	assert_string_equal(phrase_piece(CHESS_ROOK), "Turm");
	assert_string_equal(phrase_piece(CHESS_BISHOP), "Läufer");
	assert_string_equal(phrase_piece(CHESS_KNIGHT), "Springer");
	assert_string_equal(phrase_piece(CHESS_KING), "König");
	assert_string_equal(phrase_piece(CHESS_PAWN), "Bauer");
}

/* The slots of a phrase, in order: "{square}{piece}". */
static void slots_of(const char *t, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (const char *p = strchr(t, '{'); p; p = strchr(p + 1, '{')) {
		const char *close = strchr(p, '}');

		assert_non_null(close);
		n += (size_t)snprintf(out + n, size - n, "%.*s", (int)(close - p + 1), p);
		assert_true(n < size);
	}
}

/* Every phrase id exists in every language's table with the same slots. */
static void test_tables_complete(void **state)
{
	(void)state;
	const char *const *tables[PHRASE_LANG_COUNT] = {phrases_de, phrases_en, phrases_sv,
							phrases_nl};

	for (int id = 0; id < PHRASE_ID_COUNT; id++) {
		char de_slots[80], slots[80];

		assert_non_null(tables[PHRASE_DE][id]);
		slots_of(tables[PHRASE_DE][id], de_slots, sizeof(de_slots));
		for (int lang = 1; lang < PHRASE_LANG_COUNT; lang++) {
			if (tables[lang][id] == NULL)
				fail_msg("phrase %d missing in language %d", id, lang);
			slots_of(tables[lang][id], slots, sizeof(slots));
			if (strcmp(slots, de_slots))
				fail_msg("phrase %d: slots '%s' in language %d, '%s' in de", id,
					 slots, lang, de_slots);
		}
	}
}

static void expect_segments(const struct utterance *u, const char *expected)
{
	char got[400], word[200];
	size_t n = 0;

	got[0] = '\0';
	for (int i = 0; i < u->count; i++) {
		utterance_segment_text(u, i, word, sizeof(word));
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s:%s", i ? " | " : "",
				      phrase_lang_code(u->seg[i].lang), word);
	}
	assert_string_equal(got, expected);
}

/* Appendix D words German, national numerals in their language, the rest in the
 * interface language. */
static void test_segments(void **state)
{
	(void)state;
	struct phrase_options en = opts(PHRASE_EN, false, true, false);
	struct phrase_options sv = opts(PHRASE_SV, false, false, false);
	struct phrase_options de_check = opts(PHRASE_DE, false, false, true);
	struct phrase_args a = {.square = CHESS_SQ(6, 0), .piece = CHESS_KNIGHT};
	struct chess_pos pos;
	struct chess_error err;
	struct utterance u;
	chess_move m;

	assert_int_equal(chess_fen_parse(&pos, START, &err), 0);
	assert_int_equal(chess_move_parse_uci(&pos, "g1f3", &m), 0);
	utterance_clear(&u);
	assert_false(phrase_add_move(&u, &en, &pos, m));
	assert_string_equal(u.text, "Springer Gustav one Felix three");
	expect_segments(&u, "de:Springer Gustav | en:one | de:Felix | en:three");

	utterance_clear(&u);
	phrase_add(&u, &sv, PHRASE_SQUARE_OCCUPIED, &a);
	assert_string_equal(u.text, "Gustav eins ska vara upptagen: Springer");
	expect_segments(&u, "de:Gustav eins | sv:ska vara upptagen | de:Springer");

	utterance_clear(&u);
	a.time_ms = 4200;
	phrase_add(&u, &sv, PHRASE_TIME_LEFT, &a);
	expect_segments(&u, "sv:fyra komma två sekunder kvar");

	assert_int_equal(chess_fen_parse(&pos, MATE_FEN, &err), 0);
	assert_int_equal(chess_move_parse_uci(&pos, "a1a8", &m), 0);
	utterance_clear(&u);
	assert_true(phrase_add_move(&u, &de_check, &pos, m));
	assert_string_equal(u.text, "Turm Anna eins Anna acht, Matt");
	expect_segments(&u, "de:Turm Anna eins Anna acht, Matt");
}

static void test_warnings(void **state)
{
	(void)state;
	static const char *const expected[PHRASE_LANG_COUNT] = {
	    "noch fünf Minuten", "five minutes left", "fem minuter kvar", "nog vijf minuten"};
	struct phrase_args a = {.square = -1, .time_ms = HMS(0, 5, 0)};

	for (int lang = 0; lang < PHRASE_LANG_COUNT; lang++) {
		struct phrase_options o = opts((enum phrase_lang)lang, false, false, false);
		struct utterance u;

		utterance_clear(&u);
		phrase_add(&u, &o, PHRASE_TIME_LEFT, &a);
		assert_string_equal(u.text, expected[lang]);
	}
}

static void test_languages_and_truncation(void **state)
{
	(void)state;
	struct phrase_options o;
	char small[8];

	assert_int_equal(phrase_lang_parse("de"), PHRASE_DE);
	assert_int_equal(phrase_lang_parse("en"), PHRASE_EN);
	assert_int_equal(phrase_lang_parse("sv"), PHRASE_SV);
	assert_int_equal(phrase_lang_parse("nl"), PHRASE_NL);
	assert_int_equal(phrase_lang_parse("fr"), -1);
	assert_int_equal(phrase_lang_parse(NULL), -1);
	assert_string_equal(phrase_lang_code(PHRASE_SV), "sv");
	phrase_options_defaults(&o);
	assert_int_equal(o.lang, PHRASE_DE);
	assert_false(o.short_form);
	assert_false(o.national_ranks);
	assert_false(o.announce_check);
	/* As snprintf: the full length, the buffer cut and terminated. */
	assert_int_equal(phrase_duration(PHRASE_DE, HMS(1, 23, 5), small, sizeof(small)),
			 strlen("eine Stunde, dreiundzwanzig Minuten, fünf Sekunden"));
	assert_string_equal(small, "eine St");
	assert_int_equal(phrase_square(&o, 0, NULL, 0), strlen("Anna eins"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_long_form),
	    cmocka_unit_test(test_check_and_mate),
	    cmocka_unit_test(test_short_form),
	    cmocka_unit_test(test_national_ranks),
	    cmocka_unit_test(test_all_moves_words_only),
	    cmocka_unit_test(test_square),
	    cmocka_unit_test(test_square_should),
	    cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_numbers),
	    cmocka_unit_test(test_clock_info),
	    cmocka_unit_test(test_fixed_phrases),
	    cmocka_unit_test(test_languages_and_truncation),
	    cmocka_unit_test(test_tables_complete),
	    cmocka_unit_test(test_segments),
	    cmocka_unit_test(test_warnings),
	};
	return cmocka_run_group_tests_name("phrases", tests, NULL, NULL);
}
