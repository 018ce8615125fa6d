/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella train`'s inside, shared by its files (docs/training.md "Training and study"):
 * cli_train.c (the daemon's connections, the options, the events followed and the run) and
 * cli_train_engine.c (the engine started at its strength, the game's position given to it,
 * its move and its answers to the player).  Internal to cli/cli_train*.c.
 */
#ifndef ANNABELLA_CLI_TRAIN_INT_H
#define ANNABELLA_CLI_TRAIN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define QUEUE_MAX  512
#define STATUS_MAX (256 * 1024)

struct ctlclient;
struct uci_engine;

struct train {
	const char *socket, *engine_path;
	int side;	  /* asked for: the engine's colour, or -1 (the opponent's) */
	int level, elo;	  /* -1, 0: not limited */
	int elo_set;	  /* the rating the engine plays at (elo held to its range) */
	const char *fen;  /* --fen: the game begins there */
	bool engine_lost; /* the engine failed (said to the player): --wait starts it again */
	int movetime, hint_movetime;
	bool wait;	       /* --wait: the button menu asks it to play */
	struct ctlclient *ev;  /* the training process's connection */
	struct ctlclient *req; /* status and moves */
	struct uci_engine *e;
	int plays;	  /* the colour it plays now, or -1 */
	bool saw_game_on; /* it played in a game that was on */
	char game_id[GAME_ID_MAX];
	char *queue[QUEUE_MAX]; /* events that came while waiting for a reply */
	int q_head, q_count;
	char status[STATUS_MAX];
	char moves[STATUS_MAX];
};

/* cli_train.c */

/* A line for the person who started it (stdout, not a log line). */
void tr_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int64_t tr_now_ms(void);
/* A request on the training process's connection: its reply into reply[size]; events that
 * come first wait in the queue.  0, or -1 when the daemon is gone or silent. */
int tr_ev_request(struct train *t, const char *request, char *reply, size_t size);
/* A request on the second connection, into buf. */
int tr_ask(struct train *t, const char *request, char *buf, size_t size);
/* The value of key in json into buf ("" when it has none). */
void tr_field(const char *json, const char *key, char *buf, size_t size);

/* cli_train_engine.c */

/* The engine started at its strength: 0, or -1 with the exit status (the failure said). */
int tr_start_engine(struct train *t, int *status);
/* engine on SIDE NAME: the daemon takes it as the opponent's player. */
int tr_engine_on(struct train *t, int side, int *status);
/* What the game is now, and the engine's move if it is its turn.  0 to go on, 1 when the
 * game it played is over for good, or -1 with the exit status in *status. */
int tr_play(struct train *t, int *status);
/* What the player asked of the engine (hint-request, draw-request, eval-request): 0, or -1
 * with the exit status in *status. */
int tr_answer(struct train *t, const char *event, const char *kind, int *status);

#endif
