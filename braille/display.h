/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A refreshable braille display during the game, through BRLTTY's BrlAPI.
 *
 * One thread of its own owns the BrlAPI connection: it connects, writes the panel's window
 * (braille/panel.h) whenever it changes, reads the display's keys, and when BRLTTY is
 * missing or goes away it keeps retrying with a bounded back-off (retry_min_ms doubling to
 * retry_max_ms).  Calls from the daemon's loop only update the panel under a lock and wake
 * the thread: none of them waits for BRLTTY, and a display that is absent, unplugged or
 * restarting costs the game nothing.  After a reconnection the thread writes the current
 * panel, so nothing shown before is lost.
 *
 * Keys: panning and line keys move the window through the last move, the clocks and the
 * scoresheet inside this module; a routing key over the last move, or BRLTTY's INFO and
 * TIME commands, come back to the loop as BRAILLE_COMMAND_REPEAT / BRAILLE_COMMAND_INFO
 * (see braille_panel_route), readable on braille_display_fd().
 *
 * Presenter's use:
 *   d = braille_display_open(&config)         at start-up; poll braille_display_fd(d)
 *   braille_display_show_move(d, ply, pos, m) when a move is announced
 *   braille_display_show_clock(d, w, b)       when the player asked for the times
 *   braille_display_set_scoresheet(d, sheet)  after a resume, rollback or draw offer
 *   braille_display_show_pages(d, brf, page)  the paged scoresheet, from the button menu; a
 *                                             review's view (one page)
 *   braille_display_show_message(d, brf)      what the device says to the player (messages)
 *   braille_display_service(d, cmds, max)     when the fd is readable
 *   braille_display_close(d)                  at exit
 */
#ifndef ANNABELLA_BRAILLE_DISPLAY_H
#define ANNABELLA_BRAILLE_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "braille/panel.h"

struct braille_display_config {
	const char *host; /* BrlAPI host ("localhost:1", ":0"); NULL: $BRLAPI_HOST or ":0" */
	const char *auth; /* "keyfile:/etc/brlapi.key", "none"; NULL: $BRLAPI_AUTH or default */
	int tty;	  /* -1: the root of BrlAPI's tty tree (the whole display); N: tty N only */
	enum braille_notation notation;
	enum braille_signs signs; /* check and capture signs in the BCA notation */
	int retry_min_ms;	  /* 0: 100 */
	int retry_max_ms;	  /* 0: 2000 */
};

struct braille_display_stats {
	bool connected;
	unsigned connects;	/* successful connections so far */
	unsigned writes;	/* windows written */
	int width, height;	/* of the display last connected */
	int64_t last_write_ns;	/* CLOCK_MONOTONIC when the last window was handed to BrlAPI */
	uint64_t shown_version; /* the panel version in the last written window */
};

struct braille_display;

/* Starts the thread; it connects in the background.  NULL with errno on failure to start
 * (no memory, no thread), never because BRLTTY is absent. */
struct braille_display *braille_display_open(const struct braille_display_config *config);
void braille_display_close(struct braille_display *d);

/* Readable (POLLIN) when the player pressed a key that braille_display_service returns. */
int braille_display_fd(const struct braille_display *d);
/* The commands since the last call (at most max; the rest stay for the next call). */
int braille_display_service(struct braille_display *d, enum braille_command *cmds, int max);

/* Each returns the panel version that holds the change (see braille_display_stats). */
uint64_t braille_display_show_move(struct braille_display *d, int ply,
				   const struct chess_pos *before, chess_move m);
uint64_t braille_display_show_clock(struct braille_display *d, int64_t white_ms, int64_t black_ms);
uint64_t braille_display_set_scoresheet(struct braille_display *d,
					const struct scoresheet_san *sheet);
/* The page view (panel.h) of a paged BRF scoresheet at `page`; *shown: the page shown (0:
 * none), *count: the pages (either may be NULL). */
uint64_t braille_display_show_pages(struct braille_display *d, const char *brf, int page,
				    int *shown, int *count);
/* The game's view: the last move (the home key's). */
uint64_t braille_display_home(struct braille_display *d);
/* A message over the view (panel.h): BRF lines. */
uint64_t braille_display_show_message(struct braille_display *d, const char *brf);
void braille_display_set_notation(struct braille_display *d, enum braille_notation notation);

void braille_display_stats(struct braille_display *d, struct braille_display_stats *stats);

#endif
