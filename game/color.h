/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The colours' words, "white" and "black": as the journal, the clock's record, the control
 * replies, the configuration, board scripts and the logs write a side.  One pair, below
 * every layer that names a side in words.
 */
#ifndef ANNABELLA_GAME_COLOR_H
#define ANNABELLA_GAME_COLOR_H

const char *game_color_name(int color); /* "white" (0), "black" (anything else) */
int game_color_parse(const char *text); /* CHESS_WHITE, CHESS_BLACK, -1 if neither */

#endif
