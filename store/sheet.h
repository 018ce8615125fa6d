/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The scoresheet as the store writes it (game.pgn and its copy under games/; docs/state.md "State
 * directory"): kept up to date from the game move by move, so a long game costs no more per move
 * than a short one.  Each ply carries its [%clk] reading, its draw offer "(=)" and the notes after
 * it (moves withdrawn, retracted or ruled illegal, and why the game ended).
 */
#ifndef ANNABELLA_SHEET_H
#define ANNABELLA_SHEET_H

#include "chess/pgn.h"
#include "game/game.h"

struct sheet;

/* NULL if out of memory. */
struct sheet *sheet_new(void);
void sheet_free(struct sheet *sh);
/* The scoresheet brought up to the game, as PGN text (malloc'd), or NULL (out of memory).
 * A finished game's carries the device's serial and the journal's chain value as it stands
 * (`[DeviceSerial]`, `[JournalChain]`; "" or NULL: none), for `annabella verify`. */
char *sheet_text(struct sheet *sh, const struct game *g, const char *serial, const char *chain);
/* The scoresheet as last made (after sheet_text()), or NULL. */
const struct pgn_game *sheet_pgn(const struct sheet *sh);

#endif
