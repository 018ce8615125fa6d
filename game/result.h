/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game's result (Art. 5, 6.9, 8.7, 9):
 *
 *   ON ──a flag falls (Art. 6.9)──▶ FLAG_PENDING ──the arbiter's result, or approve──▶ ENDED
 *   (a flag whose result is "*": the period's moves were made, not all completed (6.4); only
 *   the arbiter's result or clock set settles it)
 *   ON, FLAG_PENDING ──mate, stalemate, dead position, fivefold, 75 moves, resignation,
 *                      the arbiter's result──▶ ENDED ──both players approve (8.7)──▶ APPROVED
 *
 * A flag is considered fallen when the arbiter observes it or a player claims it (6.8): until
 * then the clocks stand and the result Art. 6.9 gives waits.
 *
 * A result of "*" where a rule ended the game (a flag, the illegal move that loses, a 2023
 * resignation) means the arbiter decides it: whether the opponent can still checkmate by
 * any series of legal moves was neither proven nor disproven (chess_pos_mate()).  Such a
 * game is over (ENDED, or FLAG_PENDING with a flag result of "*") but "undecided": the
 * arbiter's result decides it, and it cannot be approved or replaced by a new game before.
 * An online game the server aborted (docs/online.md "Playing online") ends "*" and abandoned:
 * decided.  A game that has ended records no more moves; a new game begins only once the result is
 * approved or the board has been cleared and set up again.
 */
#ifndef ANNABELLA_RESULT_H
#define ANNABELLA_RESULT_H

#include <stdbool.h>

#define RESULT_REASON_MAX 128

enum result_state { RESULT_ON = 0, RESULT_FLAG_PENDING, RESULT_ENDED, RESULT_APPROVED };

/* The PGN standard's Termination values. */
enum result_termination {
	TERMINATION_NONE = 0,
	TERMINATION_NORMAL,
	TERMINATION_TIME_FORFEIT,
	TERMINATION_RULES_INFRACTION,
	TERMINATION_ADJUDICATION,
	TERMINATION_ABANDONED,
	TERMINATION_COUNT
};

struct result_flow {
	enum result_state state;
	char result[8]; /* "1-0", "0-1", "1/2-1/2"; "*" while the game is on */
	enum result_termination termination;
	char reason[RESULT_REASON_MAX]; /* why, for the scoresheet's comment: "checkmate" */
	int flag_color;			/* FLAG_PENDING: whose flag fell */
	char flag_result[8];		/* FLAG_PENDING: what Art. 6.9 gives */
};

void result_reset(struct result_flow *r);
/* The arbiter decides: see above. */
bool result_undecided(const struct result_flow *r);
/* A flag fell (only while ON). */
void result_flag(struct result_flow *r, int color, const char *result);
/* The game ends (ON or FLAG_PENDING, or undecided). */
void result_end(struct result_flow *r, const char *result, enum result_termination term,
		const char *reason);
/* The arbiter's result in place of one the players have not approved (8.7): ENDED only. */
void result_replace(struct result_flow *r, const char *result, enum result_termination term,
		    const char *reason);
/* The players approve: ENDED -> APPROVED; FLAG_PENDING ends with the flag's result.  Nothing
 * while undecided (a flag's "*" too: the period's moves were made, 6.4, or whether the
 * opponent can still mate is not proven). */
void result_approve(struct result_flow *r);
bool result_over(const struct result_flow *r); /* ENDED or APPROVED */

/* "1-0", "0-1", "1/2-1/2": whether text is one of them. */
bool result_valid(const char *text);
/* The same, or "*" (the arbiter decides): what a rule's result may be. */
bool result_valid_or_open(const char *text);
/* The PGN Termination value ("time forfeit"), and the journal's one-word form
 * ("time-forfeit"), and back (-1 if unknown). */
const char *result_termination_pgn(enum result_termination t);
const char *result_termination_word(enum result_termination t);
int result_termination_parse(const char *word);
const char *result_state_name(enum result_state s);
/* "1-0" or "0-1" for a win by `color`. */
const char *result_win(int color);

#endif
