/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game session: owns the position, the clock, the scoresheet and its journal,
 * the promotion and mismatch flows, and decides what is said (DESIGN section 3).
 * Runs on the main loop's thread; every call takes the daemon time.
 */
#ifndef ANNABELLA_SESSION_H
#define ANNABELLA_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/config.h"
#include "gpio/board.h"
#include "voice/voice.h"

/* What the board script (or the configuration) says the game is. */
struct session_setup {
	int player;	       /* enum chess_color */
	char time_control[64]; /* DESIGN 4.6, "-" for none */
	char fen[100];	       /* start position */
	char fen_origin[300];  /* where the FEN comes from, for errors ("game.script:3") */
	bool virtual_time;     /* dates are unknown in virtual time */
};

struct session;

/*
 * Open the state directory: resume the unfinished game in its journal, or start a new
 * game from setup.  NULL with a message in err (naming the file and line of a bad
 * journal record).
 */
struct session *session_open(const struct config *cfg, const struct session_setup *setup,
			     struct voice *voice, uint64_t now, char *err, size_t err_size);
void session_close(struct session *s, uint64_t now);

/* Whether the game was resumed from the journal. */
bool session_resumed(const struct session *s);
/* Peg occupancy of the game's position (for a simulated board of a resumed game). */
uint64_t session_expected_occupancy(const struct session *s);
/* The sensors are ready: what they show now.  Call once, before the first event. */
void session_board_ready(struct session *s, uint64_t sensed, uint64_t now);

void session_board_event(struct session *s, const struct board_event *ev);
/* The next time session_tick() must run, or UINT64_MAX. */
uint64_t session_deadline(const struct session *s, uint64_t now);
void session_tick(struct session *s, uint64_t now);

/* For tests and the control interface. */
int session_move_count(const struct session *s);
bool session_game_over(const struct session *s);

#endif
