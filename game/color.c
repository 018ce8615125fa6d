/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/color.h"

#include <string.h>

#include "chess/chess.h"

static const char *const names[2] = {"white", "black"};

const char *game_color_name(int color)
{
	return names[color ? CHESS_BLACK : CHESS_WHITE];
}

int game_color_parse(const char *text)
{
	for (int c = CHESS_WHITE; c <= CHESS_BLACK; c++)
		if (!strcmp(text, names[c]))
			return c;
	return -1;
}
