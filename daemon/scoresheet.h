/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A game's scoresheet in each of its formats (D.2.7, Appendix C): PGN, the paper notation,
 * and braille (BRF for an embosser, Unicode).  Used by `annabella scoresheet` and by the
 * control protocol's `export`.
 */
#ifndef ANNABELLA_SCORESHEET_H
#define ANNABELLA_SCORESHEET_H

#include "chess/pgn.h"

/* format: "pgn", "text", "brf" or "unicode".  Malloc'd; NULL with errno. */
char *scoresheet_render(const struct pgn_game *g, const char *format);

#endif
