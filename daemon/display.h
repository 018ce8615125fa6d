/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The live braille display in the daemon ([braille] display = yes): opens it through
 * braille/display.h, puts its fd in the loop, and turns the display's INFO and REPEAT keys
 * into a press and release of the board's info and repeat buttons, so they do what those
 * buttons do.  The presenter shows each move, the clocks on `info` and the scoresheet.
 */
#ifndef ANNABELLA_DAEMON_DISPLAY_H
#define ANNABELLA_DAEMON_DISPLAY_H

#include "braille/display.h"
#include "config/config.h"
#include "daemon/loop.h"
#include "game/game.h"
#include "referee/referee.h"

struct display;

/* NULL if the configuration has no display, or it cannot start (logged): the game goes on
 * without it. */
struct display *display_open(const struct config *cfg, struct loop *loop, struct referee *referee);
void display_close(struct display *d);

void display_show_move(struct display *d, int ply, const struct chess_pos *before, chess_move m);
void display_show_clock(struct display *d, int64_t white_ms, int64_t black_ms);
void display_show_scoresheet(struct display *d, const struct game *g);
/* A review's move, comment and position (braille_review_brf()) on the display, until the
 * review ends (display_show_game()) or the next move. */
void display_show_review(struct display *d, const struct braille_review *rv);
/* The game's view again (the last move, the scoresheet), as after the display's home key. */
void display_show_game(struct display *d, const struct game *g);
/* What is said to the player, as a message over the view ([braille] messages): utterances of
 * one moment (`ms`) go together, one paragraph each; a later one takes their place. */
void display_message(struct display *d, const char *text, uint64_t ms);
/* Page `page` of the paged BRF scoresheet brf on the display (past the last page: counted
 * on from the first again); the page shown, or 0 (no display, nothing to show). */
int display_show_pages(struct display *d, const char *brf, int page);

#endif
