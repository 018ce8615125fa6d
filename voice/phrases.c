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
 *   fünf Sekunden"); a zero duration is "null Sekunden" / "zero seconds" / "noll sekunder" /
 *   "nul seconden".  Only whole seconds are spoken.
 * - Numbers: English uses "and" after hundreds ("one hundred and five"); German, Swedish and
 *   Dutch write numbers as one word ("einhunderteins", "etthundraett", "honderdeen").
 */
#include "voice/phrases.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- a bounded string builder */

struct text {
	char *buf;
	size_t size;
	size_t len; /* as snprintf: the length the full text would have */
};

static void text_init(struct text *t, char *buf, size_t size)
{
	t->buf = buf;
	t->size = size;
	t->len = 0;
	if (size > 0)
		buf[0] = '\0';
}

static void text_add(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + 1 < t->size) {
		size_t room = t->size - 1 - t->len;
		size_t k = n < room ? n : room;

		memcpy(t->buf + t->len, s, k);
		t->buf[t->len + k] = '\0';
	}
	t->len += n;
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
	struct text t;

	text_init(&t, buf, size);
	number_words(&t, lang, n);
	return t.len;
}

/* ---------------------------------------------------------------- languages, options */

static const char *const lang_codes[PHRASE_LANG_COUNT] = {"de", "en", "sv", "nl"};

int phrase_lang_parse(const char *code)
{
	if (code == NULL)
		return -1;
	for (int i = 0; i < PHRASE_LANG_COUNT; i++)
		if (strcmp(code, lang_codes[i]) == 0)
			return i;
	return -1;
}

const char *phrase_lang_code(enum phrase_lang lang)
{
	return (unsigned)lang < PHRASE_LANG_COUNT ? lang_codes[lang] : "de";
}

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
/* Rank numerals are the cardinals one to eight. */
static const char *rank_word(const struct phrase_options *o, int rank)
{
	return numerals[o->national_ranks ? lang_of(o) : PHRASE_DE].units[(rank & 7) + 1];
}

static void add_square(struct text *t, const struct phrase_options *o, int sq)
{
	text_add(t, file_names[CHESS_FILE(sq) & 7]);
	text_add(t, " ");
	text_add(t, rank_word(o, CHESS_RANK(sq)));
}

size_t phrase_square(const struct phrase_options *o, int sq, char *buf, size_t size)
{
	struct text t;

	text_init(&t, buf, size);
	if (sq >= 0 && sq < 64)
		add_square(&t, o, sq);
	return t.len;
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

/* Short form: what distinguishes the mover from other pieces of its kind that could also
 * legally go to the same square (Appendix C: file first, then rank, then both). */
static void add_disambiguation(struct text *t, const struct phrase_options *o,
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
	if (!same_file) {
		text_add(t, " ");
		text_add(t, file_names[CHESS_FILE(from)]);
	} else if (!same_rank) {
		text_add(t, " ");
		text_add(t, rank_word(o, CHESS_RANK(from)));
	} else {
		text_add(t, " ");
		add_square(t, o, from);
	}
}

size_t phrase_move(const struct phrase_options *o, const struct chess_pos *before, chess_move m,
		   char *buf, size_t size)
{
	struct text t;
	int from = chess_move_from(m), to = chess_move_to(m);
	enum chess_move_kind kind = chess_move_kind(m);
	enum chess_piece_type type = CHESS_PIECE_TYPE(before->board[from]);
	bool capture = kind == CHESS_MOVE_EN_PASSANT ||
		       (kind != CHESS_MOVE_CASTLING && before->board[to] != 0);

	text_init(&t, buf, size);
	if (kind == CHESS_MOVE_CASTLING) {
		text_add(&t, CHESS_FILE(to) > CHESS_FILE(from) ? "Kurze Rochade" : "Lange Rochade");
	} else if (o->short_form) {
		text_add(&t, phrase_piece(type));
		if (type == CHESS_PAWN) {
			if (capture) {
				text_add(&t, " ");
				text_add(&t, file_names[CHESS_FILE(from)]);
			}
		} else {
			add_disambiguation(&t, o, before, m);
		}
		text_add(&t, capture ? " schlägt " : " ");
		add_square(&t, o, to);
	} else {
		text_add(&t, phrase_piece(type));
		text_add(&t, " ");
		add_square(&t, o, from);
		text_add(&t, capture ? " schlägt " : " ");
		add_square(&t, o, to);
	}
	if (kind == CHESS_MOVE_EN_PASSANT)
		text_add(&t, " en passant");
	if (kind == CHESS_MOVE_PROMOTION) {
		text_add(&t, ", ");
		text_add(&t, phrase_piece(chess_move_promotion(m)));
	}
	if (o->announce_check) {
		struct chess_pos after = *before;
		struct chess_undo undo;

		chess_pos_make(&after, m, &undo);
		if (chess_pos_in_check(&after)) {
			struct chess_move_list replies;

			text_add(&t, chess_pos_legal_moves(&after, &replies) == 0 ? ", Matt"
										  : ", Schach");
		}
	}
	return t.len;
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

static void add_amount(struct text *t, enum phrase_lang lang, uint64_t n, enum unit u)
{
	if (n == 1) {
		text_add(t, one_before_unit[lang]);
	} else {
		number_words(t, lang, n > 9999 ? 9999 : (int)n);
	}
	text_add(t, " ");
	text_add(t, unit_names[lang][u][n == 1 ? 0 : 1]);
}

static void add_duration(struct text *t, enum phrase_lang lang, uint64_t ms)
{
	uint64_t s = ms / 1000;
	uint64_t parts[3] = {s / 3600, s / 60 % 60, s % 60};
	bool any = false;

	for (int u = UNIT_HOUR; u <= UNIT_SECOND; u++) {
		if (parts[u] == 0)
			continue;
		if (any)
			text_add(t, ", ");
		add_amount(t, lang, parts[u], (enum unit)u);
		any = true;
	}
	if (!any)
		add_amount(t, lang, 0, UNIT_SECOND);
}

size_t phrase_duration(enum phrase_lang lang, uint64_t ms, char *buf, size_t size)
{
	struct text t;

	if ((unsigned)lang >= PHRASE_LANG_COUNT)
		lang = PHRASE_DE;
	text_init(&t, buf, size);
	add_duration(&t, lang, ms);
	return t.len;
}

static const char *const clock_words[PHRASE_LANG_COUNT][3] = {
    {"Weiß: ", "Schwarz: ", "Zug "},
    {"White: ", "Black: ", "Move "},
    {"Vit: ", "Svart: ", "Drag "},
    {"Wit: ", "Zwart: ", "Zet "},
};

size_t phrase_move_number(enum phrase_lang lang, int move_number, char *buf, size_t size)
{
	struct text t;

	if ((unsigned)lang >= PHRASE_LANG_COUNT)
		lang = PHRASE_DE;
	text_init(&t, buf, size);
	text_add(&t, clock_words[lang][2]);
	number_words(&t, lang, move_number);
	text_add(&t, ".");
	return t.len;
}

size_t phrase_clock_info(enum phrase_lang lang, uint64_t white_ms, uint64_t black_ms,
			 int move_number, char *buf, size_t size)
{
	const char *const *words;
	struct text t;

	if ((unsigned)lang >= PHRASE_LANG_COUNT)
		lang = PHRASE_DE;
	words = clock_words[lang];
	text_init(&t, buf, size);
	text_add(&t, words[0]);
	add_duration(&t, lang, white_ms);
	text_add(&t, ". ");
	text_add(&t, words[1]);
	add_duration(&t, lang, black_ms);
	text_add(&t, ". ");
	text_add(&t, words[2]);
	number_words(&t, lang, move_number);
	text_add(&t, ".");
	return t.len;
}

/* ---------------------------------------------------------------- fixed phrases */

static const char *const fixed[PHRASE_ID_COUNT][PHRASE_LANG_COUNT] = {
    [PHRASE_GAME_START] = {"Partie beginnt", "Game starts", "Partiet börjar", "De partij begint"},
    [PHRASE_NEW_GAME] = {"Neue Partie", "New game", "Nytt parti", "Nieuwe partij"},
    [PHRASE_PAUSED] = {"Uhren angehalten", "Clocks stopped", "Klockorna stoppade",
		       "Klokken gestopt"},
    [PHRASE_RESUMED] = {"Uhren laufen weiter", "Clocks running again", "Klockorna går igen",
			"Klokken lopen weer"},
    [PHRASE_PROMOTION_PROMPT] = {"Umwandlung: Figur wählen", "Promotion: choose a piece",
				 "Förvandling: välj en pjäs", "Promotie: kies een stuk"},
    [PHRASE_PROMOTION_NEEDED] = {"Erst die Umwandlungsfigur wählen",
				 "Choose the promotion piece first",
				 "Välj förvandlingspjäsen först", "Kies eerst het promotiestuk"},
    [PHRASE_MISMATCH] = {"Brett stimmt nicht mit der Partie überein",
			 "The board does not match the game", "Brädet stämmer inte med partiet",
			 "Het bord klopt niet met de partij"},
    [PHRASE_BOARD_RESTORED] = {"Brett wieder in Ordnung", "Board restored",
			       "Brädet är i ordning igen", "Het bord is weer in orde"},
    [PHRASE_NOTHING_TO_REPEAT] = {"Noch kein Zug", "No move yet", "Inget drag än", "Nog geen zet"},
    [PHRASE_CLOCK_NOT_RUNNING] = {"Die Uhr läuft nicht", "The clock is not running",
				  "Klockan går inte", "De klok loopt niet"},
    [PHRASE_GAME_RESUMED_AFTER_RESTART] = {"Partie fortgesetzt, Uhren angehalten",
					   "Game resumed, clocks stopped",
					   "Partiet återupptaget, klockorna stoppade",
					   "Partij hervat, klokken gestopt"},
    [PHRASE_GAME_RESUMED_NO_CLOCK] = {"Partie fortgesetzt", "Game resumed", "Partiet återupptaget",
				      "Partij hervat"},
    [PHRASE_FLAG_WHITE] = {"Zeit überschritten: Weiß", "Time exceeded: White",
			   "Tiden överskriden: Vit", "Tijd overschreden: Wit"},
    [PHRASE_FLAG_BLACK] = {"Zeit überschritten: Schwarz", "Time exceeded: Black",
			   "Tiden överskriden: Svart", "Tijd overschreden: Zwart"},
    [PHRASE_RESULT_WHITE_WINS] = {"Weiß gewinnt", "White wins", "Vit vinner", "Wit wint"},
    [PHRASE_RESULT_BLACK_WINS] = {"Schwarz gewinnt", "Black wins", "Svart vinner", "Zwart wint"},
    [PHRASE_RESULT_DRAW] = {"Remis", "Draw", "Remi", "Remise"},
    [PHRASE_CHECKMATE] = {"Schachmatt", "Checkmate", "Schackmatt", "Schaakmat"},
    [PHRASE_STALEMATE] = {"Patt", "Stalemate", "Patt", "Pat"},
    [PHRASE_DEAD_POSITION] = {"Tote Stellung", "Dead position", "Död ställning", "Dode stelling"},
    [PHRASE_FIVEFOLD] = {"Fünfmalige Stellungswiederholung", "Fivefold repetition",
			 "Femfaldig upprepning", "Vijfvoudige herhaling"},
    [PHRASE_SEVENTY_FIVE] = {"Fünfundsiebzig-Züge-Regel", "Seventy-five-move rule",
			     "Sjuttiofemdragsregeln", "Vijfenzeventig-zettenregel"},
    [PHRASE_ILLEGAL_MOVE] = {"Unzulässiger Zug", "Illegal move", "Otillåtet drag",
			     "Onreglementaire zet"},
    [PHRASE_WHITE_RESIGNS] = {"Weiß gibt auf", "White resigns", "Vit ger upp", "Wit geeft op"},
    [PHRASE_BLACK_RESIGNS] = {"Schwarz gibt auf", "Black resigns", "Svart ger upp",
			      "Zwart geeft op"},
    [PHRASE_WHITE_OFFERS_DRAW] = {"Weiß bietet Remis an", "White offers a draw",
				  "Vit erbjuder remi", "Wit biedt remise aan"},
    [PHRASE_BLACK_OFFERS_DRAW] = {"Schwarz bietet Remis an", "Black offers a draw",
				  "Svart erbjuder remi", "Zwart biedt remise aan"},
    [PHRASE_CLAIM_TO_ARBITER] = {"Reklamation an den Schiedsrichter, Uhren angehalten",
				 "Claim passed to the arbiter, clocks stopped",
				 "Reklamationen går till domaren, klockorna stoppade",
				 "Claim naar de arbiter, klokken stilgezet"},
    [PHRASE_CLAIM_CORRECT] = {"Reklamation berechtigt", "The claim is correct",
			      "Reklamationen är riktig", "De claim is terecht"},
    [PHRASE_CLAIM_INCORRECT] = {"Reklamation unberechtigt", "The claim is not correct",
				"Reklamationen är inte riktig", "De claim is onterecht"},
    [PHRASE_RESULT_APPROVED] = {"Ergebnis bestätigt", "Result approved", "Resultatet godkänt",
				"Uitslag bevestigd"},
    [PHRASE_NO_RESULT] = {"Noch kein Ergebnis", "No result yet", "Inget resultat än",
			  "Nog geen uitslag"},
    [PHRASE_MENU_OFFER_DRAW] = {"Remis anbieten", "Offer a draw", "Erbjud remi",
				"Remise aanbieden"},
    [PHRASE_MENU_ACCEPT_DRAW] = {"Remis annehmen", "Accept the draw", "Anta remi",
				 "Remise aannemen"},
    [PHRASE_MENU_CLAIM_THREEFOLD] = {"Remis reklamieren: dreimalige Stellungswiederholung",
				     "Claim a draw: threefold repetition",
				     "Reklamera remi: trefaldig upprepning",
				     "Remise claimen: drievoudige herhaling"},
    [PHRASE_MENU_CLAIM_FIFTY] = {"Remis reklamieren: fünfzig Züge", "Claim a draw: fifty moves",
				 "Reklamera remi: femtio drag", "Remise claimen: vijftig zetten"},
    [PHRASE_MENU_RESIGN] = {"Aufgeben", "Resign", "Ge upp", "Opgeven"},
    [PHRASE_MENU_APPROVE] = {"Ergebnis bestätigen", "Approve the result", "Godkänn resultatet",
			     "Uitslag bevestigen"},
    [PHRASE_MENU_CANCEL] = {"Abbrechen", "Cancel", "Avbryt", "Annuleren"},
    [PHRASE_MENU_CONFIRM_RESIGN] = {"Wirklich aufgeben? Zum Bestätigen noch einmal Wiederholen",
				    "Really resign? Press repeat again to confirm",
				    "Ge upp? Tryck upprepa igen för att bekräfta",
				    "Echt opgeven? Druk nog eens op herhalen om te bevestigen"},
    [PHRASE_MENU_CLOSED] = {"Menü geschlossen", "Menu closed", "Menyn stängd", "Menu gesloten"},
    [PHRASE_NOT_NOW] = {"Jetzt nicht möglich", "Not possible now", "Inte möjligt nu",
			"Nu niet mogelijk"},
    [PHRASE_PRESS_NO_MOVE] = {"Uhr gedrückt ohne Zug", "Clock pressed without a move",
			      "Klockan tryckt utan drag", "Klok ingedrukt zonder zet"},
    [PHRASE_SETUP] = {"Stellung aufbauen", "Set up the position", "Ställ upp ställningen",
		      "Stelling opzetten"},
    [PHRASE_SETUP_DONE] = {"Stellung stimmt, die Partie geht weiter",
			   "The position is set up, the game goes on",
			   "Ställningen stämmer, partiet fortsätter",
			   "De stelling klopt, de partij gaat verder"},
    [PHRASE_CLOCKS_SET] = {"Uhren gestellt", "Clocks set", "Klockorna ställda",
			   "Klokken ingesteld"},
    [PHRASE_CLAIM_REJECTED] = {"Reklamation abgelehnt", "Claim rejected", "Reklamationen avslogs",
			       "Claim afgewezen"},
    [PHRASE_CORRECTION] = {"Korrektur", "Correction", "Rättelse", "Correctie"},
    [PHRASE_SQUARE_OK] = {"stimmt", "is right", "stämmer", "klopt"},
    [PHRASE_ERROR] = {"Fehler", "Error", "Fel", "Fout"},
};

const char *phrase_text(enum phrase_lang lang, enum phrase_id id)
{
	if ((unsigned)id >= PHRASE_ID_COUNT)
		id = PHRASE_ERROR;
	if ((unsigned)lang >= PHRASE_LANG_COUNT)
		lang = PHRASE_DE;
	return fixed[id][lang];
}

size_t phrase_square_should(const struct phrase_options *o, int sq, bool should_be_occupied,
			    char *buf, size_t size)
{
	static const char *const rest[PHRASE_LANG_COUNT][2] = {
	    {" sollte leer sein", " sollte besetzt sein"},
	    {" should be empty", " should be occupied"},
	    {" ska vara tom", " ska vara besatt"},
	    {" moet leeg zijn", " moet bezet zijn"},
	};
	struct text t;

	text_init(&t, buf, size);
	if (sq >= 0 && sq < 64)
		add_square(&t, o, sq);
	text_add(&t, rest[lang_of(o)][should_be_occupied ? 1 : 0]);
	return t.len;
}
