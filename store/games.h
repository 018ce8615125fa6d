/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The finished games the state directory keeps under games/ (docs/state.md "State directory"):
 * listed newest first with what a player needs to pick one (its id and number, the players,
 * the result, the date, its length), a game named by its number found, and a finished game's
 * scoresheet in a format.  Read by the daemon for `games`, `export` and the button menu, and by
 * `annabella games` through it.
 */
#ifndef ANNABELLA_STORE_GAMES_H
#define ANNABELLA_STORE_GAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "braille/braille.h"
#include "game/replies.h"
#include "game/summary.h"

/* The finished games under dir/games/, newest first, at most max (the game `current`, being
 * played, left out; NULL: none): the number listed, or -1 (errno) when games/ cannot be read
 * (none yet: 0). */
int store_games_list(const char *dir, const char *current, struct game_summary *out, int max);
/* The id of the game `what` names (its id, or its number: "42", "game-0042") into id: 0, or
 * -1 when there is none (or the number is the start of several). */
int store_game_find(const char *dir, const char *what, char *id, size_t size);
/* The scoresheet of the finished game `what` names (as store_game_find()), as games/ID.pgn
 * keeps it, in a format (store/scoresheet.h's scoresheet_render()), malloc'd; NULL with *why:
 * REPLY_NO_SUCH_GAME (none named so, or its file cannot be opened) or REPLY_GAME_UNREADABLE. */
char *store_game_render(const char *dir, const char *what, const char *format,
			const struct braille_layout *layout, enum reply_code *why);

#endif
