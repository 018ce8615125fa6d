/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The editions of the Laws of Chess the device can follow, and every number that differs
 * between them, in one table (LAWS.md; the texts are in shared/seeds).  Pure data.
 */
#ifndef ANNABELLA_RULES_H
#define ANNABELLA_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "game/clock.h"

enum rules_edition { RULES_2023 = 0, RULES_2018, RULES_2005, RULES_EDITION_COUNT };

struct rules {
	const char *name; /* "2023" */
	/* Art. 7.5.5 (2005: 7.4 b), A.4.2, B.2 / 2023 A.3, B.3: time given to the opponent for
	 * a completed illegal move, by kind of game (enum clock_game_kind: standard, rapid,
	 * blitz); 9.5.3 gives the same for a wrong claim. */
	int64_t illegal_penalty_ms[3];
	/* The completed illegal move of one player that loses the game (2023, 2018: the second;
	 * 2005: the third). */
	int illegal_losing_count;
	/* 2023 Art. 5.1.2: a resignation is a draw when the opponent cannot checkmate by any
	 * series of legal moves. */
	bool resignation_draw_without_mate;
	/* 2023, 2018 Art. 7.5.5: the illegal move that loses is a draw when the opponent cannot
	 * checkmate by any series of legal moves; 2005 Art. 7.4 b has no such proviso ("nach dem
	 * dritten regelwidrigen Zug ... erklärt der Schiedsrichter die Partie für diesen für
	 * verloren"). */
	bool illegal_loss_draw_without_mate;
	/* Art. 9.6: fivefold repetition and the 75-move rule end the game by themselves (not in
	 * the 2005 text). */
	bool automatic_fivefold_seventy_five;
	/* Art. 6.3.2 (2005: 6.2 b): time saved in a period is carried over to the next except
	 * in delay mode; all three texts say so (false: not carried over after a delay or
	 * Bronstein period). */
	bool delay_carries_saved_time;
};

const struct rules *rules_get(enum rules_edition edition);
/* "2023", "2018", "2005" <-> enum; -1 if unknown. */
int rules_edition_parse(const char *name);
const char *rules_edition_name(enum rules_edition edition);

#endif
