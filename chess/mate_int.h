/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Private to chess/mate*.c: who can still checkmate, in three parts.
 *
 *  - mate.c: the question and its answer, exact for at most five men without pawns;
 *  - mate_reach.c: a static analysis of every man's future (which squares each may still
 *    stand on, which never move nor are taken, which squares stay attacked for good), and
 *    from it whether the colour could ever give mate anywhere: a proof of "never";
 *  - mate_search.c: the searches: a guided helpmate search (a proof of "possible", with
 *    the line), and a full-width search whose every line ends where a rule or the static
 *    analysis proves "never" (a proof of "never" after forced or few moves).
 */
#ifndef ANNABELLA_CHESS_MATE_INT_H
#define ANNABELLA_CHESS_MATE_INT_H

#include "chess/bitboard.h"

#define MATE_LIGHT_SQUARES 0x55AA55AA55AA55AAULL
#define MATE_MAX_MEN	   32

/* ------------------------------------------------------------------ mate.c */

/* Whether the position has at most five men and no pawns (answered exactly). */
bool mate_small(const struct chess_pos *pos);
/* The exact answer for such a position (never or possible; unknown only where its forced
 * line is deeper than the bound, which the five-man proof shows never happens). */
enum chess_mate mate_exact(const struct chess_pos *pos, enum chess_color color,
			   struct chess_mate_info *info);
/* Never, for any number of men, by a rule on the material alone. */
bool mate_never_by_rule(const struct chess_pos *pos, enum chess_color color);

/* ------------------------------------------------------------------ mate_reach.c */

/*
 * Over-approximations ("may") and under-approximations ("for good") of every man's future
 * in any series of legal moves from the position; men are numbered in the order of their
 * squares.  See mate_reach.c for why each holds.
 */
struct mate_reach {
	int n;
	bool overflow;			/* more men than it numbers: it proves nothing */
	int king[2];			/* each colour's king's number */
	uint8_t sq[MATE_MAX_MEN];	/* where each man stands now */
	uint8_t type[MATE_MAX_MEN];	/* enum chess_piece_type */
	uint8_t color[MATE_MAX_MEN];	/* enum chess_color */
	uint64_t reach[MATE_MAX_MEN];	/* the squares it may stand on, now or later */
	uint64_t pawn[MATE_MAX_MEN];	/* for a pawn: those it may stand on as a pawn ... */
	uint64_t crowned[MATE_MAX_MEN]; /* ... and promoted (reach is the two together) */
	uint64_t hits[MATE_MAX_MEN];	/* the squares it may arrive on by a capture */
	uint32_t capturable;		/* the men that may be captured */
	uint64_t steady;		/* the squares of the men that never move nor are taken */
	uint64_t guard[2];		/* the squares colour c attacks for good */
	uint64_t ever;			/* the squares that may ever be occupied */
	int n_walls;			/* the men never taken with few squares to stand on */
	uint8_t wall[MATE_MAX_MEN];	/* (who may always be in some move's way) */
	uint64_t walls;			/* their squares */
};

/* The analysis of pos, to its fixed point. */
void mate_reach_run(struct mate_reach *a, const struct chess_pos *pos);
/* The squares on which `color` may ever mate the opponent's king, as far as the analysis
 * sees (empty: it never can). */
uint64_t mate_reach_mating_squares(const struct mate_reach *a, enum chess_color color);
/* Whether each square of `need` may hold a different man of colour c (not its king), of the
 * men numbered in the mask `men`. */
bool mate_reach_blockable(const struct mate_reach *a, int c, uint64_t need, uint32_t men);

/* ------------------------------------------------------------------ mate_search.c */

/* How a helpmate search is guided (mate_search.c): where the mated king is led, what the
 * moves that make no progress cost. */
struct mate_plan {
	int target;	 /* the square the mated king is to be mated on */
	int king_near;	 /* the mating king walks to this distance from it ... */
	int king_square; /* ... or to this square (if not -1) */
	uint64_t zone;	 /* blockers: the flights they go to (0: all the target's) */
	int l_pawn;	 /* the cost of a pawn move of the mated side */
	int l_capture;	 /* ... and of its captures */
	int regress;	 /* the cost of a king walking away */
	bool blockers;	 /* the mated side's pawn moves and its men walking to the zone
			  * are progress (a mate by a lone minor piece) */
};
/* Squares to lead the mated king to, best first: of `squares` (where the static analysis
 * says a mate may be), those near the king, with few flights; returns how many. */
int mate_targets(const struct chess_pos *pos, enum chess_color color, uint64_t squares,
		 int *targets, int max);
/* Mates by a lone minor piece: plans that lead the mated king to one of `squares` (where the
 * static analysis says a mate may be), the mating king to a square two away that covers
 * some flights, and the mated side's men to the rest; the nearest first, returns how many
 * (at most max). */
#define MATE_MAX_PATTERNS 16
int mate_patterns(const struct chess_pos *pos, enum chess_color color, const struct mate_reach *a,
		  uint64_t squares, struct mate_plan *plans, int max);
/* A helpmate of `color` from pos within `limit` positions: true with its line (at most
 * CHESS_MATE_LINE_MAX moves); the positions looked at are added to *nodes. */
bool mate_helpmate(const struct chess_pos *pos, enum chess_color color,
		   const struct mate_plan *plan, long limit, chess_move *line, int *len,
		   long *nodes);
/* Whether every series of legal moves from pos within the bounds reaches, after the forced
 * moves and at most `branch` choices, a position where `color` can never mate by a rule, the
 * exact answer or the static analysis: true proves "never". */
bool mate_refute(const struct chess_pos *pos, enum chess_color color, int branch, long limit,
		 long *nodes);

/* Whether every position reachable from pos is enumerated within a few thousand, none the
 * colour's mate (positions where a rule says it cannot mate are not followed): true proves
 * "never". */
bool mate_closure(const struct chess_pos *pos, enum chess_color color, long *nodes);

#endif
