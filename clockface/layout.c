/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the clock display shows: both times, the side to move, a flag, the clocks standing. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/lang.h"
#include "clockface/face.h"

void face_names(const char *lang, const char *names[2])
{
	static const struct {
		const char *white, *black;
	} table[PHRASE_LANG_COUNT] = {
	    [PHRASE_DE] = {"WEISS", "SCHWARZ"},
	    [PHRASE_SV] = {"VIT", "SVART"},
	    [PHRASE_NL] = {"WIT", "ZWART"},
	    [PHRASE_EN] = {"WHITE", "BLACK"},
	};
	enum phrase_lang row = phrase_lang_or(lang, PHRASE_EN);

	names[0] = table[row].white;
	names[1] = table[row].black;
}

void face_format_time(int64_t ms, bool tenths, char *buf, size_t size)
{
	long long s;

	if (ms < 0)
		ms = 0;
	s = ms / 1000;
	if (s >= 3600)
		snprintf(buf, size, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
	else if (tenths && s < 10)
		snprintf(buf, size, "%lld:%02lld.%lld", s / 60, s % 60, (long long)(ms / 100 % 10));
	else
		snprintf(buf, size, "%lld:%02lld", s / 60, s % 60);
}

/* The moves at which a side's next time control is: its period's end, or none left. */
static int next_control(const struct face_view *v, int side)
{
	return v->control[side] > 0 ? v->control[side] : INT_MAX;
}

/* Cols 1-7 once the clock runs: the initial, then the delay left or the moves made.  A side
 * that has passed a time control the other has not yet passed has a '+' after its initial
 * (FIDE's standards for electronic clocks: a sign shows which player passed the time control
 * first). */
static void label(const struct face_view *v, const char *name, int side, char *out, size_t size)
{
	char field[16];
	bool first = next_control(v, side) > next_control(v, !side);

	if (v->delay_ms >= 0 && v->running == side && v->flagged < 0)
		snprintf(field, sizeof(field), "%c%d", FACE_GLYPH_DELAY,
			 (int)((v->delay_ms + 999) / 1000 % 10000));
	else if (v->control[side] > 0 && v->control[side] < 1000 && v->moves[side] < 100)
		snprintf(field, sizeof(field), "%d/%d", v->moves[side], v->control[side]);
	else
		snprintf(field, sizeof(field), "%d", v->moves[side] % 100000);
	snprintf(out, size, "%c%c%5.5s", name[0], first ? '+' : ' ', field);
}

void face_layout(const struct face_view *v, const char *const names[2], bool tenths,
		 struct face_text *out)
{
	out->plain = false;
	for (int side = 0; side < 2; side++) {
		char *row = out->row[side];
		char time[16] = "-", name[16];
		char mark = ' ';

		snprintf(name, sizeof(name), "%s", names[side]);
		if (v->has_clock) {
			face_format_time(v->ms[side], tenths, time, sizeof(time));
			if (v->flagged == side)
				mark = FACE_GLYPH_FLAG;
			else if (v->running == side)
				mark = v->paused ? FACE_GLYPH_PAUSE : FACE_GLYPH_MOVE;
			if (v->started)
				label(v, names[side], side, name, sizeof(name));
		}
		snprintf(row, FACE_COLS + 1, "%c%-7.7s%8.8s", mark, name, time);
		if (side == 0 && v->power && row[8] == ' ')
			row[8] = v->power;
	}
}

/* ------------------------------------------------------------------ big digits */

/*
 * A digit two characters wide and two rows high, 7-segment style: the eight CGRAM parts are
 * the strokes of a character cell (U: rows 0-1, D: rows 6-7, L: cols 0-1, R: cols 3-4),
 *	0 U+L	1 U+D	2 L+D	3 U+L+D	4 U+R	5 R	6 U+R+D	7 R+D
 * The middle bar is drawn twice, under the top half and over the bottom half (it is one bar
 * across the gap between the rows), but once only in 4, and the 7 has its top left stroke:
 * so ten digits need eight parts.  The parts of digit d (0..9) as FACE_BIG_PART codes or ' ':
 * top left, top right, bottom left, bottom right.
 */
static void face_big_digit(int d, char out[4])
{
	static const signed char parts[10][4] = {
	    {0, 4, 2, 7}, {-1, 5, -1, 5}, {1, 6, 3, 1},	 {1, 6, 1, 6}, {2, 7, -1, 5},
	    {3, 1, 1, 6}, {3, 1, 3, 6},	  {0, 4, -1, 5}, {3, 6, 3, 6}, {3, 6, 1, 6},
	};

	for (int i = 0; i < 4; i++) {
		int k = d >= 0 && d <= 9 ? parts[d][i] : -1;

		out[i] = k < 0 ? ' ' : FACE_BIG_PART(k);
	}
}

/* Put digit d at column c of a half (two rows). */
static void big_put(char *top, char *bottom, int c, int d)
{
	char p[4];

	face_big_digit(d, p);
	top[c] = p[0];
	top[c + 1] = p[1];
	bottom[c] = p[2];
	bottom[c + 1] = p[3];
}

/* One side's half: 8 columns of each row. */
static void big_half(const struct face_view *v, const char *name, int side, bool tenths, char *top,
		     char *bottom)
{
	int64_t ms = v->ms[side] < 0 ? 0 : v->ms[side];
	long long s = ms / 1000, m = s / 60;

	memset(top, ' ', 8);
	memset(bottom, ' ', 8);
	if (!v->has_clock) {
		top[0] = name[0];
		top[7] = '-';
		return;
	}
	top[0] = v->flagged == side ? 'F' : v->running == side ? (v->paused ? '=' : '>') : ' ';
	if (v->delay_ms >= 0 && v->running == side && v->flagged < 0)
		bottom[0] = (char)('0' + (int)((v->delay_ms + 999) / 1000 % 10));
	else
		bottom[0] = name[0];
	if (s >= 3600) {
		/* 1h29: hours and minutes */
		big_put(top, bottom, 1, (int)(s / 3600 % 10));
		bottom[3] = 'h';
		big_put(top, bottom, 4, (int)(m % 60 / 10));
		big_put(top, bottom, 6, (int)(m % 10));
	} else if (m >= 10) {
		/* 45 big, :30 small above the moves made */
		char small[8];

		big_put(top, bottom, 1, (int)(m / 10));
		big_put(top, bottom, 3, (int)(m % 10));
		snprintf(small, sizeof(small), ":%02lld", s % 60);
		memcpy(top + 5, small, 3);
		snprintf(small, sizeof(small), "%3d", v->moves[side] % 1000);
		memcpy(bottom + 5, small, 3);
	} else if (tenths && s < 10) {
		/* 9.5 */
		big_put(top, bottom, 3, (int)(s % 10));
		bottom[5] = '.';
		big_put(top, bottom, 6, (int)(ms / 100 % 10));
	} else {
		/* 4:53 */
		big_put(top, bottom, 1, (int)(m % 10));
		top[3] = '.';
		bottom[3] = '.';
		big_put(top, bottom, 4, (int)(s % 60 / 10));
		big_put(top, bottom, 6, (int)(s % 10));
	}
}

void face_layout_big(const struct face_view *v, const char *const names[2], bool tenths,
		     struct face_text *out)
{
	out->plain = false;
	for (int side = 0; side < 2; side++)
		big_half(v, names[side], side, tenths, out->row[0] + 8 * side,
			 out->row[1] + 8 * side);
	out->row[0][FACE_COLS] = out->row[1][FACE_COLS] = '\0';
}

uint64_t face_next_change_ms(const struct face_view *v, bool tenths)
{
	int64_t ms, step;

	if (!v->has_clock || v->running < 0 || v->paused || v->flagged >= 0)
		return UINT64_MAX;
	/* The delay shows its seconds rounded up: they change as it falls to a multiple of
	 * 1000; the main time stands meanwhile. */
	if (v->delay_ms > 0)
		return (uint64_t)((v->delay_ms - 1) % 1000 + 1);
	ms = v->ms[v->running];
	if (ms <= 0)
		return UINT64_MAX; /* it shows zero until the flag falls */
	step = tenths && ms < 10000 ? 100 : 1000;
	/* The reading is truncated: it changes as ms falls below the multiple of step. */
	return (uint64_t)(ms % step + 1);
}

/* ------------------------------------------------------------------ the arbiter's menu */

static const struct menu_words {
	const char *title, *resume, *set, *result, *close, *wait, *moves, *seal;
} menu_words[PHRASE_LANG_COUNT] = {
    [PHRASE_DE] = {"SCHIEDSRICHTER", "UHREN STARTEN", "UHREN STELLEN", "ERGEBNIS", "SCHLIESSEN",
		   "WARTEN", "Z", "SIEGEL"},
    [PHRASE_SV] = {"DOMARE", "STARTA KLOCKAN", "STALL KLOCKAN", "RESULTAT", "STANG", "VANTA", "D",
		   "SIGILL"},
    [PHRASE_NL] = {"ARBITER", "KLOK STARTEN", "KLOK ZETTEN", "UITSLAG", "SLUITEN", "WACHT", "Z",
		   "ZEGEL"},
    [PHRASE_EN] = {"ARBITER", "START CLOCKS", "SET CLOCKS", "RESULT", "CLOSE", "WAIT", "M", "SEAL"},
};

static const struct menu_words *words_of(const char *lang)
{
	return &menu_words[phrase_lang_or(lang, PHRASE_EN)];
}

/* "W 1:29:59  Z  23", the field being set blanked when blink_off. */
static void edit_row(const struct face_menu *m, const struct menu_words *w, char initial, int side,
		     char *row)
{
	long long s = (m->ms[side] < 0 ? 0 : m->ms[side]) / 1000;
	int field = m->field - 4 * side;
	/* The columns of hours, minutes, seconds and moves in the row. */
	static const int at[4] = {2, 4, 7, 13}, len[4] = {1, 2, 2, 3};

	snprintf(row, FACE_COLS + 1, "%c %lld:%02lld:%02lld  %s%4d", initial, s / 3600 % 10,
		 s / 60 % 60, s % 60, w->moves, m->moves[side] % 1000);
	if (m->blink_off && field >= 0 && field < 4)
		memset(row + at[field], ' ', (size_t)len[field]);
}

void face_layout_menu(const struct face_menu *m, const char *lang, const struct face_view *clocks,
		      bool tenths, struct face_text *out)
{
	const struct menu_words *w = words_of(lang);
	const char *names[2];
	char stars[FACE_COLS + 1];
	int n;

	memset(out, 0, sizeof(*out));
	out->plain = true;
	switch (m->screen) {
	case FACE_MENU_PIN:
		if (clocks && clocks->has_clock) {
			char wt[16], bt[16], mark = ' ';

			face_format_time(clocks->ms[0], tenths, wt, sizeof(wt));
			face_format_time(clocks->ms[1], tenths, bt, sizeof(bt));
			if (clocks->flagged >= 0)
				mark = 'F';
			else if (clocks->running >= 0)
				mark = clocks->paused ? '=' : clocks->running ? '>' : '<';
			snprintf(out->row[0], FACE_COLS + 1, "%7.7s%c%-7.7s", wt, mark, bt);
		} else {
			snprintf(out->row[0], FACE_COLS + 1, "%s", w->title);
		}
		if (m->wait_s > 0) {
			snprintf(out->row[1], FACE_COLS + 1, "PIN  %.6s %d", w->wait,
				 m->wait_s % 10000);
			break;
		}
		n = m->digits < 10 ? m->digits : 10;
		memset(stars, '*', (size_t)n);
		stars[n] = '\0';
		snprintf(out->row[1], FACE_COLS + 1, "PIN %.10s_", stars);
		break;
	case FACE_MENU_ITEM: {
		const char *label = m->item == FACE_ITEM_RESUME	      ? w->resume
				    : m->item == FACE_ITEM_SET_CLOCKS ? w->set
				    : m->item == FACE_ITEM_RESULT     ? w->result
				    : m->item == FACE_ITEM_SEAL	      ? w->seal
								      : w->close;
		char place[24];

		snprintf(place, sizeof(place), "%d/%d", m->at + 1, m->count);
		snprintf(out->row[0], FACE_COLS + 1, "%-*.*s%.6s", FACE_COLS - (int)strlen(place),
			 FACE_COLS - (int)strlen(place) - 1, w->title, place);
		if (m->item == FACE_ITEM_SEAL && m->result)
			snprintf(out->row[1], FACE_COLS + 1, "> %s %s", label,
				 strcmp(m->result, "ok") ? "BREACH" : "OK");
		else if (m->item == FACE_ITEM_RESULT && m->result)
			snprintf(out->row[1], FACE_COLS + 1, "> %s %s", label,
				 strcmp(m->result, "1/2-1/2") ? m->result : "1/2");
		else
			snprintf(out->row[1], FACE_COLS + 1, "> %s", label);
		break;
	}
	case FACE_MENU_EDIT:
		face_names(lang, names);
		edit_row(m, w, names[0][0], 0, out->row[0]);
		edit_row(m, w, names[1][0], 1, out->row[1]);
		break;
	}
	/* Blanks to the end of each row, as the other layouts have. */
	for (int r = 0; r < FACE_ROWS; r++) {
		size_t len = strlen(out->row[r]);

		memset(out->row[r] + len, ' ', FACE_COLS - len);
		out->row[r][FACE_COLS] = '\0';
	}
}
