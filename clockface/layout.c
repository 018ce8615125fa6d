/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the clock display shows: both times, the side to move, a flag, the clocks standing. */
#include <stdio.h>
#include <string.h>

#include "clockface/face.h"

void face_names(const char *lang, const char *names[2])
{
	static const struct {
		const char *lang, *white, *black;
	} table[] = {
	    {"de", "WEISS", "SCHWARZ"},
	    {"sv", "VIT", "SVART"},
	    {"nl", "WIT", "ZWART"},
	    {"en", "WHITE", "BLACK"},
	};
	size_t i;

	for (i = 0; i + 1 < sizeof(table) / sizeof(table[0]); i++)
		if (lang && !strcmp(lang, table[i].lang))
			break;
	names[0] = table[i].white;
	names[1] = table[i].black;
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

void face_layout(const struct face_view *v, const char *const names[2], bool tenths,
		 struct face_text *out)
{
	for (int side = 0; side < 2; side++) {
		char *row = out->row[side];
		char time[16] = "-";
		char mark = ' ';

		if (v->has_clock) {
			face_format_time(v->ms[side], tenths, time, sizeof(time));
			if (v->flagged == side)
				mark = FACE_GLYPH_FLAG;
			else if (v->running == side)
				mark = v->paused ? FACE_GLYPH_PAUSE : FACE_GLYPH_MOVE;
		}
		snprintf(row, FACE_COLS + 1, "%c%-7.7s%8.8s", mark, names[side], time);
		if (side == 0 && v->power && row[8] == ' ')
			row[8] = v->power;
	}
}

uint64_t face_next_change_ms(const struct face_view *v, bool tenths)
{
	int64_t ms, step;

	if (!v->has_clock || v->running < 0 || v->paused || v->flagged >= 0)
		return UINT64_MAX;
	ms = v->ms[v->running];
	if (ms <= 0)
		return UINT64_MAX; /* it shows zero until the flag falls */
	step = tenths && ms < 10000 ? 100 : 1000;
	/* The reading is truncated: it changes as ms falls below the multiple of step. */
	return (uint64_t)(ms % step + 1);
}
