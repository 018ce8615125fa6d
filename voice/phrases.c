/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Words to speak: moves in Appendix D words, everything else in the interface language.
 *
 * Decisions (golden-tested in tests/unit/test_phrases.c):
 * - Long form (default): piece, from-square, to-square; captures put "schlägt" between the
 *   squares; en passant adds "en passant"; promotion adds ", Dame" (etc.) after the squares.
 * - Short form: piece and destination ("Springer Felix drei"); captures with "schlägt"
 *   ("Läufer schlägt Bella fünf"); pawn captures name the pawn's file as on a scoresheet
 *   ("Bauer Eva schlägt David fünf"); when two pieces of the same kind can reach the square,
 *   the origin is named as in algebraic notation, file first, then rank, then both
 *   ("Springer Bella David sieben").
 * - Check and mate (", Schach" / ", Matt") only when options.announce_check is set.
 * - National rank numerals: en one two ..., sv ett två ..., nl één twee ... ("één", not
 *   "een", so that eSpeak NG says the numeral and not the article); de is the default.
 * - Durations name each non-zero unit with the right number and gender ("eine Stunde,
 *   fünf Sekunden").  Under ten seconds the tenths are said ("vier Komma zwei Sekunden",
 *   "four point two seconds"), under one second "unter einer Sekunde" while time is left;
 *   "null Sekunden" / "zero seconds" / "noll sekunder" / "nul seconden" only at zero.
 * - Segments: Appendix D words are German, national rank numerals are in their language,
 *   the rest in the interface language (voice/utterance.h).
 * - Numbers: English uses "and" after hundreds ("one hundred and five"); German, Swedish and
 *   Dutch write numbers as one word ("einhunderteins", "etthundraett", "honderdeen").
 */
#include "voice/phrases.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- text in segments */

/* Text being built in one language; the utterance keeps each language's segment. */
struct text {
	struct utterance *u;
	enum phrase_lang lang;
};

static void text_add(struct text *t, const char *s)
{
	utterance_add(t->u, t->lang, s);
}

/* The plain text of u into buf; the length as snprintf. */
static size_t text_out(const struct utterance *u, char *buf, size_t size)
{
	if (size > 0)
		snprintf(buf, size, "%s", u->text);
	return u->want;
}

/* ---------------------------------------------------------------- numbers */

/* Cardinals per language.  bound_one: "one" inside a compound ("einundzwanzig"), NULL where
 * it is the same word; unit_first: units before tens ("einundzwanzig", not "twenty-one"). */
static const struct numerals {
	const char *units[20];
	const char *tens[10];
	const char *bound_one;
	bool unit_first;
	const char *joiner; /* between the two parts of 21..99 */
} numerals[PHRASE_LANG_COUNT] = {
    [PHRASE_DE] = {{"null",	"eins",	    "zwei",	"drei",	    "vier",
		    "fünf",	"sechs",    "sieben",	"acht",	    "neun",
		    "zehn",	"elf",	    "zwölf",	"dreizehn", "vierzehn",
		    "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"},
		   {"", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig",
		    "achtzig", "neunzig"},
		   "ein",
		   true,
		   "und"},
    [PHRASE_EN] = {{"zero",    "one",	  "two",       "three",	   "four",
		    "five",    "six",	  "seven",     "eight",	   "nine",
		    "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
		    "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"},
		   {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
		    "ninety"},
		   NULL,
		   false,
		   "-"},
    [PHRASE_SV] = {{"noll",    "ett",	 "två",	   "tre",     "fyra",  "fem",	"sex",
		    "sju",     "åtta",	 "nio",	   "tio",     "elva",  "tolv",	"tretton",
		    "fjorton", "femton", "sexton", "sjutton", "arton", "nitton"},
		   {"", "", "tjugo", "trettio", "fyrtio", "femtio", "sextio", "sjuttio", "åttio",
		    "nittio"},
		   NULL,
		   false,
		   ""},
    [PHRASE_NL] = {{"nul",	"één",	   "twee",	"drie",	    "vier",
		    "vijf",	"zes",	   "zeven",	"acht",	    "negen",
		    "tien",	"elf",	   "twaalf",	"dertien",  "veertien",
		    "vijftien", "zestien", "zeventien", "achttien", "negentien"},
		   {"", "", "twintig", "dertig", "veertig", "vijftig", "zestig", "zeventig",
		    "tachtig", "negentig"},
		   "een",
		   true,
		   "en"},
};

/* 0..99 as part of a larger word or alone; "one" inside compounds takes its bound form. */
static void number_below_hundred(struct text *t, enum phrase_lang lang, int n, bool alone)
{
	const struct numerals *w = &numerals[lang];
	int tens = n / 10, unit = n % 10;

	if (n < 20) {
		text_add(t, n == 1 && !alone && w->bound_one ? w->bound_one : w->units[n]);
	} else if (unit == 0) {
		text_add(t, w->tens[tens]);
	} else if (w->unit_first) {
		text_add(t, unit == 1 ? w->bound_one : w->units[unit]);
		/* Dutch "tweeëntwintig", "drieëntwintig": a trema where two e meet. */
		text_add(t, lang == PHRASE_NL && (unit == 2 || unit == 3) ? "ën" : w->joiner);
		text_add(t, w->tens[tens]);
	} else {
		text_add(t, w->tens[tens]);
		text_add(t, w->joiner);
		text_add(t, w->units[unit]);
	}
}

static void number_words(struct text *t, enum phrase_lang lang, int n)
{
	static const char *const hundred[PHRASE_LANG_COUNT] = {"hundert", " hundred", "hundra",
							       "honderd"};
	static const char *const thousand[PHRASE_LANG_COUNT] = {"tausend", " thousand", "tusen",
								"duizend"};
	int th, hu, rest;
	bool spaced = lang == PHRASE_EN;

	if ((unsigned)lang >= PHRASE_LANG_COUNT)
		lang = PHRASE_DE;
	if (n < 0) {
		static const char *const minus[PHRASE_LANG_COUNT] = {"minus ", "minus ", "minus ",
								     "min "};
		text_add(t, minus[lang]);
		n = n < -9999 ? 9999 : -n;
	}
	if (n > 9999)
		n = 9999;
	if (n == 0) {
		number_below_hundred(t, lang, 0, true);
		return;
	}
	th = n / 1000;
	hu = n / 100 % 10;
	rest = n % 100;
	if (th > 0) {
		/* "eintausend", "one thousand", "ettusen", "duizend" */
		if (lang == PHRASE_NL && th == 1)
			;
		else if (lang == PHRASE_SV && th == 1)
			text_add(t, "et");
		else
			number_below_hundred(t, lang, th, lang == PHRASE_EN);
		text_add(t, thousand[lang]);
	}
	if (hu > 0) {
		if (spaced && th > 0)
			text_add(t, " ");
		if (lang == PHRASE_NL && hu == 1)
			;
		else
			number_below_hundred(t, lang, hu, lang == PHRASE_EN);
		text_add(t, hundred[lang]);
	}
	if (rest > 0) {
		if (spaced && (th > 0 || hu > 0))
			text_add(t, " and ");
		number_below_hundred(t, lang, rest, lang != PHRASE_NL || (th == 0 && hu == 0));
	}
}

size_t phrase_number(enum phrase_lang lang, int n, char *buf, size_t size)
{
	struct utterance u;
	struct text t = {&u, (unsigned)lang < PHRASE_LANG_COUNT ? lang : PHRASE_DE};

	utterance_clear(&u);
	number_words(&t, t.lang, n);
	return text_out(&u, buf, size);
}

/* ---------------------------------------------------------------- languages, options */

void phrase_options_defaults(struct phrase_options *o)
{
	memset(o, 0, sizeof(*o));
	o->lang = PHRASE_DE;
	o->short_form = false;
	o->national_ranks = false;
	o->announce_check = false;
}

static enum phrase_lang lang_of(const struct phrase_options *o)
{
	return (unsigned)o->lang < PHRASE_LANG_COUNT ? o->lang : PHRASE_DE;
}

/* ---------------------------------------------------------------- squares and moves */

static const char *const file_names[8] = {"Anna", "Bella", "Cesar",  "David",
					  "Eva",  "Felix", "Gustav", "Hector"};
/* Rank numerals are the cardinals one to eight, German unless national. */
static enum phrase_lang rank_lang(const struct phrase_options *o)
{
	return o->national_ranks ? lang_of(o) : PHRASE_DE;
}

static void add_rank(struct utterance *u, const struct phrase_options *o, int rank)
{
	utterance_add(u, rank_lang(o), numerals[rank_lang(o)].units[(rank & 7) + 1]);
}

static void add_square(struct utterance *u, const struct phrase_options *o, int sq)
{
	utterance_add(u, PHRASE_DE, file_names[CHESS_FILE(sq) & 7]);
	utterance_add(u, PHRASE_DE, " ");
	add_rank(u, o, CHESS_RANK(sq));
}

size_t phrase_square(const struct phrase_options *o, int sq, char *buf, size_t size)
{
	struct utterance u;

	utterance_clear(&u);
	if (sq >= 0 && sq < 64)
		add_square(&u, o, sq);
	return text_out(&u, buf, size);
}

const char *phrase_piece(enum chess_piece_type type)
{
	switch (type) {
	case CHESS_PAWN:
		return "Bauer";
	case CHESS_KNIGHT:
		return "Springer";
	case CHESS_BISHOP:
		return "Läufer";
	case CHESS_ROOK:
		return "Turm";
	case CHESS_QUEEN:
		return "Dame";
	case CHESS_KING:
		return "König";
	case CHESS_NO_PIECE:
	default:
		return "";
	}
}

void phrase_add_german(struct utterance *u, const char *text)
{
	utterance_add(u, PHRASE_DE, text);
}

/* Short form: what distinguishes the mover from other pieces of its kind that could also
 * legally go to the same square (Appendix C: file first, then rank, then both). */
static void add_disambiguation(struct utterance *u, const struct phrase_options *o,
			       const struct chess_pos *before, chess_move m)
{
	struct chess_move_list list;
	int from = chess_move_from(m), to = chess_move_to(m);
	chess_piece piece = before->board[from];
	bool other = false, same_file = false, same_rank = false;

	chess_pos_legal_moves(before, &list);
	for (int i = 0; i < list.count; i++) {
		int f = chess_move_from(list.moves[i]);

		if (chess_move_to(list.moves[i]) != to || f == from || before->board[f] != piece)
			continue;
		other = true;
		if (CHESS_FILE(f) == CHESS_FILE(from))
			same_file = true;
		if (CHESS_RANK(f) == CHESS_RANK(from))
			same_rank = true;
	}
	if (!other)
		return;
	utterance_add(u, PHRASE_DE, " ");
	if (!same_file)
		utterance_add(u, PHRASE_DE, file_names[CHESS_FILE(from)]);
	else if (!same_rank)
		add_rank(u, o, CHESS_RANK(from));
	else
		add_square(u, o, from);
}

bool phrase_add_move(struct utterance *u, const struct phrase_options *o,
		     const struct chess_pos *before, chess_move m)
{
	int from = chess_move_from(m), to = chess_move_to(m);
	enum chess_move_kind kind = chess_move_kind(m);
	enum chess_piece_type type = CHESS_PIECE_TYPE(before->board[from]);
	bool capture = kind == CHESS_MOVE_EN_PASSANT ||
		       (kind != CHESS_MOVE_CASTLING && before->board[to] != 0);
	bool mate = false;

	if (kind == CHESS_MOVE_CASTLING) {
		utterance_add(u, PHRASE_DE,
			      CHESS_FILE(to) > CHESS_FILE(from) ? "Kurze Rochade"
								: "Lange Rochade");
	} else if (o->short_form) {
		utterance_add(u, PHRASE_DE, phrase_piece(type));
		if (type == CHESS_PAWN) {
			if (capture) {
				utterance_add(u, PHRASE_DE, " ");
				utterance_add(u, PHRASE_DE, file_names[CHESS_FILE(from)]);
			}
		} else {
			add_disambiguation(u, o, before, m);
		}
		utterance_add(u, PHRASE_DE, capture ? " schlägt " : " ");
		add_square(u, o, to);
	} else {
		utterance_add(u, PHRASE_DE, phrase_piece(type));
		utterance_add(u, PHRASE_DE, " ");
		add_square(u, o, from);
		utterance_add(u, PHRASE_DE, capture ? " schlägt " : " ");
		add_square(u, o, to);
	}
	if (kind == CHESS_MOVE_EN_PASSANT) {
		utterance_add(u, PHRASE_DE, " ");
		utterance_add(u, PHRASE_DE, "en passant");
	}
	if (kind == CHESS_MOVE_PROMOTION) {
		utterance_add(u, PHRASE_DE, ", ");
		utterance_add(u, PHRASE_DE, phrase_piece(chess_move_promotion(m)));
	}
	if (o->announce_check) {
		struct chess_pos after = *before;
		struct chess_undo undo;

		chess_pos_make(&after, m, &undo);
		if (chess_pos_in_check(&after)) {
			struct chess_move_list replies;

			mate = chess_pos_legal_moves(&after, &replies) == 0;
			utterance_add(u, PHRASE_DE, ", ");
			utterance_add(u, PHRASE_DE, mate ? "Matt" : "Schach");
		}
	}
	return mate;
}

size_t phrase_move(const struct phrase_options *o, const struct chess_pos *before, chess_move m,
		   char *buf, size_t size)
{
	struct utterance u;

	utterance_clear(&u);
	phrase_add_move(&u, o, before, m);
	return text_out(&u, buf, size);
}

/* ---------------------------------------------------------------- durations */

enum unit { UNIT_HOUR, UNIT_MINUTE, UNIT_SECOND };

/* [lang][unit][0 singular, 1 plural]; the word for "one" before each unit (gender). */
static const char *const unit_names[PHRASE_LANG_COUNT][3][2] = {
    {{"Stunde", "Stunden"}, {"Minute", "Minuten"}, {"Sekunde", "Sekunden"}},
    {{"hour", "hours"}, {"minute", "minutes"}, {"second", "seconds"}},
    {{"timme", "timmar"}, {"minut", "minuter"}, {"sekund", "sekunder"}},
    {{"uur", "uur"}, {"minuut", "minuten"}, {"seconde", "seconden"}},
};
static const char *const one_before_unit[PHRASE_LANG_COUNT] = {"eine", "one", "en", "één"};
/* The decimal mark as said ("vier Komma zwei"), and less than a second. */
static const char *const decimal_point[PHRASE_LANG_COUNT] = {" Komma ", " point ", " komma ",
							     " komma "};
static const char *const under_a_second[PHRASE_LANG_COUNT] = {
    "unter einer Sekunde", "under one second", "under en sekund", "minder dan een seconde"};

static void add_amount(struct text *t, uint64_t n, enum unit u)
{
	if (n == 1) {
		text_add(t, one_before_unit[t->lang]);
	} else {
		number_words(t, t->lang, n > 9999 ? 9999 : (int)n);
	}
	text_add(t, " ");
	text_add(t, unit_names[t->lang][u][n == 1 ? 0 : 1]);
}

static void add_duration(struct text *t, uint64_t ms)
{
	uint64_t s = ms / 1000, tenths = ms / 100 % 10;
	uint64_t parts[3] = {s / 3600, s / 60 % 60, s % 60};
	bool any = false;

	if (ms > 0 && ms < 1000) {
		text_add(t, under_a_second[t->lang]);
		return;
	}
	if (s < 10 && tenths > 0) {
		number_words(t, t->lang, (int)s);
		text_add(t, decimal_point[t->lang]);
		number_words(t, t->lang, (int)tenths);
		text_add(t, " ");
		text_add(t, unit_names[t->lang][UNIT_SECOND][1]);
		return;
	}
	for (int u = UNIT_HOUR; u <= UNIT_SECOND; u++) {
		if (parts[u] == 0)
			continue;
		if (any)
			text_add(t, ", ");
		add_amount(t, parts[u], (enum unit)u);
		any = true;
	}
	if (!any)
		add_amount(t, 0, UNIT_SECOND);
}

size_t phrase_duration(enum phrase_lang lang, uint64_t ms, char *buf, size_t size)
{
	struct utterance u;
	struct text t = {&u, (unsigned)lang < PHRASE_LANG_COUNT ? lang : PHRASE_DE};

	utterance_clear(&u);
	add_duration(&t, ms);
	return text_out(&u, buf, size);
}

/* ---------------------------------------------------------------- the phrase tables */

static const char *const *const tables[PHRASE_LANG_COUNT] = {phrases_de, phrases_en, phrases_sv,
							     phrases_nl};

const char *phrase_text(enum phrase_lang lang, enum phrase_id id)
{
	const char *s;

	if ((unsigned)id >= PHRASE_ID_COUNT)
		id = PHRASE_ERROR;
	if ((unsigned)lang >= PHRASE_LANG_COUNT)
		lang = PHRASE_DE;
	s = tables[lang][id];
	return s ? s : "";
}

void phrase_add(struct utterance *u, const struct phrase_options *o, enum phrase_id id,
		const struct phrase_args *a)
{
	static const struct phrase_args none = {.square = -1};
	struct text t = {u, lang_of(o)};
	const char *s = phrase_text(t.lang, id);
	char piece[UTTERANCE_TEXT_MAX];

	if (!a)
		a = &none;
	while (*s) {
		const char *open = strchr(s, '{'), *close = open ? strchr(open, '}') : NULL;
		size_t n = open && close ? (size_t)(open - s) : strlen(s);

		if (n > 0) {
			snprintf(piece, sizeof(piece), "%.*s", (int)n, s);
			text_add(&t, piece);
		}
		if (!open || !close)
			break;
		snprintf(piece, sizeof(piece), "%.*s", (int)(close - open - 1), open + 1);
		if (!strcmp(piece, "square") && a->square >= 0 && a->square < 64)
			add_square(u, o, a->square);
		else if (!strcmp(piece, "piece"))
			utterance_add(u, PHRASE_DE, phrase_piece(a->piece));
		else if (!strcmp(piece, "time"))
			add_duration(&t, a->time_ms);
		else if (!strcmp(piece, "white"))
			add_duration(&t, a->white_ms);
		else if (!strcmp(piece, "black"))
			add_duration(&t, a->black_ms);
		else if (!strcmp(piece, "count"))
			number_words(&t, t.lang, a->count);
		s = close + 1;
	}
}

static size_t phrase_out(const struct phrase_options *o, enum phrase_id id,
			 const struct phrase_args *a, char *buf, size_t size)
{
	struct utterance u;

	utterance_clear(&u);
	phrase_add(&u, o, id, a);
	return text_out(&u, buf, size);
}

size_t phrase_move_number(enum phrase_lang lang, int moves_made, char *buf, size_t size)
{
	struct phrase_options o;
	struct phrase_args a = {.square = -1, .count = moves_made};

	phrase_options_defaults(&o);
	o.lang = lang;
	return phrase_out(&o, PHRASE_MOVES_PLAYED, &a, buf, size);
}

size_t phrase_clock_info(enum phrase_lang lang, uint64_t white_ms, uint64_t black_ms,
			 int moves_made, char *buf, size_t size)
{
	struct phrase_options o;
	struct phrase_args a = {
	    .square = -1, .white_ms = white_ms, .black_ms = black_ms, .count = moves_made};

	phrase_options_defaults(&o);
	o.lang = lang;
	return phrase_out(&o, PHRASE_CLOCK_INFO, &a, buf, size);
}

size_t phrase_square_should(const struct phrase_options *o, int sq, bool should_be_occupied,
			    enum chess_piece_type piece, char *buf, size_t size)
{
	struct phrase_args a = {.square = sq, .piece = piece};
	struct utterance u;

	utterance_clear(&u);
	if (!should_be_occupied) {
		phrase_add(&u, o, PHRASE_SQUARE_EMPTY, &a);
	} else if (piece != CHESS_NO_PIECE) {
		phrase_add(&u, o, PHRASE_SQUARE_OCCUPIED, &a);
	} else {
		/* The phrase without its piece: up to the colon. */
		phrase_add(&u, o, PHRASE_SQUARE_OCCUPIED, &a);
		const char *colon = strrchr(u.text, ':');

		if (colon)
			utterance_truncate(&u, (size_t)(colon - u.text));
	}
	return text_out(&u, buf, size);
}
