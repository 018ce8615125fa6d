/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The editions of the Laws of Chess the device can follow, and every number and rule that
 * differs between them, in one table (game/rules.c), each row with its article in that
 * edition's own text (shared/seeds: 2023 Dutch, 2018 Swedish, 2005 German).  Pure data.
 */
#ifndef ANNABELLA_RULES_H
#define ANNABELLA_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "game/clock.h"

enum rules_edition { RULES_2023 = 0, RULES_2018, RULES_2005, RULES_EDITION_COUNT };

/* A completed illegal move (or what the edition treats as one), by kind of game. */
struct rules_illegal {
	int64_t penalty_ms; /* given to the opponent (0: the ruling ends the game at once) */
	int losing_count;   /* the offender's completed illegal move that loses the game */
	/* Ruled only before the opponent made their next move (2005 B6, C3); otherwise the
	 * arbiter may rule it whenever it is found (7.5.1). */
	bool before_opponent_moves;
	const char *article;
	/* The losing one is a draw when the opponent cannot checkmate by any series of legal
	 * moves (7.5.5; 2005 C3); 2005's 7.4 b declares the game lost without that clause. */
	bool draw_without_mate;
};

/* A draw claim (9.2, 9.3) found incorrect, by kind of game. */
struct rules_claim {
	int64_t penalty_ms; /* given to the claimant's opponent */
	/* 2005 9.5 b: the claimant's own time is cut too (rules_claim_cut()). */
	bool cuts_claimant;
	const char *article;
};

struct rules {
	const char *name; /* "2023" */
	/* The kind of game (enum clock_game_kind) from the first period's time plus 60 times
	 * its extra seconds: blitz up to blitz_max_ms, rapid up to rapid_max_ms, else (and
	 * without a clock) standard play. */
	int64_t blitz_max_ms, rapid_max_ms;
	const char *kind_article;
	struct rules_illegal illegal[3];
	const char *retract_article; /* the position before an illegal move is restored */
	/* A press with no move made is an illegal move (2023, 2018: 7.5.3; the 2005 text has
	 * no such article). */
	bool empty_press_illegal;
	const char *empty_press_article;
	struct rules_claim claim[3];
	/* Whether a fallen flag is pointed out (the arbiter observes it, 6.8 / 2005 6.9); the
	 * 2005 rapid and blitz rules have the arbiter refrain from it (B7, C2): only the
	 * player's claim makes it fall.  The default of [clock] flag-announce. */
	bool flag_pointed_out[3];
	const char *flag_article;	 /* the flag loses, or draws without mating material */
	const char *moves_check_article; /* after a flag, the period's moves are checked */
	/* What that check asks of the moves: completed (2023 6.3.1 "voltooien", 2018 6.3.1
	 * "fullborda"), or made (2005 6.2 a "ausführen", while 6.10 says "vollständig
	 * abgeschlossen"): a move made and not completed then leaves the flag to the arbiter. */
	bool moves_check_made;
	const char *completion_article; /* the press completes a move */
	const char *pause_article;	/* the arbiter decides when play resumes */
	/* 2023 Art. 5.1.2: a resignation is a draw when the opponent cannot checkmate by any
	 * series of legal moves. */
	bool resignation_draw_without_mate;
	/* Art. 9.6: fivefold repetition and the 75-move rule end the game by themselves (not in
	 * the 2005 text). */
	bool automatic_fivefold_seventy_five;
	/* Art. 6.3.2 (2005: 6.2 b): "the time saved by a player during one period is added to
	 * his time available for the next period, except in the 'time delay' mode", followed by
	 * what delay mode is: the main time does not change, however much of the delay is used.
	 * Read with that definition, what delay mode does not save is the unused delay (the
	 * 2023 glossary calls it the non-accumulating time setting); the main time left at a
	 * period's end is carried over as in any other mode.  True in every edition (the three
	 * texts say the same); false would drop it (docs/arbiter.md "The clock and the rulings,
	 * for the arbiter" says why not). */
	bool delay_carries_saved_time;
};

const struct rules *rules_get(enum rules_edition edition);
/* "2023", "2018", "2005" <-> enum; -1 if unknown. */
int rules_edition_parse(const char *name);
const char *rules_edition_name(enum rules_edition edition);

/* The kind of game a time control makes under these rules (Appendix A/B; 2005: B1, C1). */
enum clock_game_kind rules_kind(const struct rules *rules, const struct time_control *tc);
/* 2005 9.5 b: the claimant's reading after a wrong claim, from their reading `left`: more
 * than two minutes lose half, at most three minutes; one to two minutes become one; less
 * than one minute stays.  Without cuts_claimant, `left`. */
int64_t rules_claim_cut(const struct rules_claim *claim, int64_t left);
/* "standard", "rapid", "blitz" */
const char *rules_kind_name(enum clock_game_kind kind);

#endif
