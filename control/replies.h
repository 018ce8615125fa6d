/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the replies (reply.c) and the watch events (events.c) share: a set of squares and a
 * move as JSON.  Inside control/ only.
 */
#ifndef ANNABELLA_CONTROL_REPLIES_H
#define ANNABELLA_CONTROL_REPLIES_H

#include <stdint.h>

#include "chess/chess.h"
#include "control/json.h"

/* The squares of mask, as an array of names ("e4") under key. */
void control_json_squares(struct json_writer *w, const char *key, uint64_t mask);
/* A move in UCI under key, or null for CHESS_MOVE_NONE. */
void control_json_uci(struct json_writer *w, const char *key, chess_move m);

#endif
