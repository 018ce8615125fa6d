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
/* The journal's anchor a scoresheet carries (README "Security model"): the device that
 * records the game, and the journal's chain value after its line `line` ("" or NULL: none). */
struct sheet_anchor {
	const char *serial, *chain;
	long line;
};
/* Whether a tag is one of the anchor's: the journal's as it stood when the scoresheet was
 * written, not the game's. */
bool sheet_anchor_tag(const char *name);
/* The scoresheet brought up to the game, as PGN text (malloc'd), or NULL (out of memory).
 * Every one carries the anchor as it stands (`[DeviceSerial]`, `[GameId]`, `[JournalLine]`,
 * `[JournalChain]`), for `annabella verify` and whoever keeps a copy off the device (the
 * broadcast's and the relay's round.pgn, the page's download). */
char *sheet_text(struct sheet *sh, const struct game *g, const struct sheet_anchor *anchor);
/* The scoresheet as last made (after sheet_text()), or NULL. */
const struct pgn_game *sheet_pgn(const struct sheet *sh);

#endif
