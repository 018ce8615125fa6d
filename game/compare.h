/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * D.2.9: the device's scoresheet against the opponent's.  The opponent's is movetext as a
 * person writes it: move numbers optional, English or German piece letters, 0-0 or O-O,
 * d8D or d8=Q, captures and checks marked or not, comments in braces and (=) ignored.
 * Pure.
 */
#ifndef ANNABELLA_COMPARE_H
#define ANNABELLA_COMPARE_H

#include <stddef.h>

#include "game/game.h"
#include "game/replies.h"

struct game_comparison {
	int device_plies; /* plies on the device's scoresheet */
	int their_plies;  /* plies read from theirs (up to the first that is not legal) */
	int agree;	  /* plies both agree on from the start */
	/* The first ply that differs (0-based: `agree`), if one does: the device's SAN and
	 * theirs as the device writes it ("" where a scoresheet ends); their word as written. */
	bool differ;
	char device[CHESS_SAN_MAX];
	char theirs[CHESS_SAN_MAX];
	char their_word[32];
	/* A word of theirs that is not a legal move where it stands (their_plies stops there). */
	bool unreadable;
	char unreadable_word[32];
	int move_number; /* of the first differing ply */
};

/* 0, or -1 with a message in err (nothing to compare).  Their moves may use the piece letters
 * of lang besides the English and German ones (chess_move_parse_lang(); NULL: none). */
int game_compare(const struct game *g, const char *movetext, const char *lang,
		 struct game_comparison *out, char *err, size_t err_size);

/* The comparison as a reply (compare-agree, compare-differ, compare-theirs-short,
 * compare-theirs-long), and in a sentence for the arbiter ("3 of 5 plies agree; ply 4
 * (move 2) differs: Nc6 on the device, Nf6 on theirs"): the reply's text. */
void game_compare_reply(const struct game_comparison *c, struct game_reply *reply);
void game_compare_describe(const struct game_comparison *c, char *out, size_t size);

#endif
