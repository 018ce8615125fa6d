/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * game_apply()'s parts for the clock (game/game_clock.c), called from its table of record
 * types in game/game.c: each checks before its first change, so a record that does not fit
 * leaves the game as it was.  Internal to game/game*.c.
 */
#ifndef ANNABELLA_GAME_INT_H
#define ANNABELLA_GAME_INT_H

#include "game/game.h"

/* The records of the clock: 0, or -1 (the record does not fit the game). */
int game_apply_clock_set(struct game *g, const struct game_record *rec);
int game_apply_clock_control(struct game *g, const struct game_record *rec);
int game_apply_restart(struct game *g, const struct game_record *rec);
int game_apply_checkpoint(struct game *g, const struct game_record *rec);
int game_apply_press(struct game *g, const struct game_record *rec);
int game_apply_complete(struct game *g, const struct game_record *rec);
int game_apply_flag(struct game *g, const struct game_record *rec);
int game_apply_pause(struct game *g, const struct game_record *rec);
int game_apply_resume(struct game *g, const struct game_record *rec);

/* The clocks stop with the game (a result, a flag's result approved), unless the move that
 * ended it still waits for its press. */
void game_stop_clock(struct game *g, uint64_t ms);
/* Who stopped the clocks, after every record applied. */
void game_note_stop(struct game *g, const struct game_record *rec);

#endif
