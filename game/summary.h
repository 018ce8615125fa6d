/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A finished game as a list of them names it (`games`, the button menu's finished games,
 * docs/training.md "Going over a game"): what a player needs to pick one for a review.
 */
#ifndef ANNABELLA_SUMMARY_H
#define ANNABELLA_SUMMARY_H

#include "game/game.h"

#define GAME_SUMMARY_MAX 100 /* the most one list gives */

struct game_summary {
	char id[GAME_ID_MAX];
	int number; /* the id's number: game-0042... is 42 */
	char white[64], black[64];
	char result[8]; /* "1-0", "0-1", "1/2-1/2", "*" */
	char date[16];	/* the Date tag: "2024.05.01" or "????.??.??" */
	int plies;
};

#endif
