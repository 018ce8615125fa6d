/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A game's scoresheet in each of its formats (D.2.7, Appendix C): PGN, the paper notation,
 * and braille (BRF for an embosser, Unicode).  Used by `annabella scoresheet` and by the
 * control protocol's `export`.
 */
#ifndef ANNABELLA_SCORESHEET_H
#define ANNABELLA_SCORESHEET_H

#include "braille/braille.h"
#include "chess/pgn.h"

/* format: "pgn", "text", "brf" or "unicode"; layout: the braille pages, lines and signs
 * ([braille]; NULL: the defaults).  Malloc'd; NULL with errno. */
char *scoresheet_render(const struct pgn_game *g, const char *format,
			const struct braille_layout *layout);

#endif
