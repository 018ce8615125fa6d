/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Private to chess/: bitboard tables shared by position.c, movegen.c and
 * fen.c.  Filled once by chess_init(); read-only afterwards, so any number of
 * threads may use them without locks.
 */
#ifndef ANNABELLA_CHESS_BITBOARD_H
#define ANNABELLA_CHESS_BITBOARD_H

#include <stdint.h>

#include "chess/chess.h"

#define BB(sq) ((uint64_t)1 << (sq))

struct chess_magic {
	uint64_t mask;	   /* relevant occupancy: the rays without their last square */
	uint64_t magic;	   /* multiplier that maps every subset of mask to a distinct index */
	uint64_t *attacks; /* this square's slice of the shared attack table */
	unsigned shift;	   /* 64 - popcount(mask) */
};

extern uint64_t chess_bb_knight[64];
extern uint64_t chess_bb_king[64];
extern uint64_t chess_bb_pawn[2][64];	  /* squares a pawn of that colour on sq attacks */
extern uint64_t chess_bb_between[64][64]; /* strictly between two aligned squares, else 0 */
extern uint64_t chess_bb_line[64][64];	  /* the whole line through two aligned squares, else 0 */
extern struct chess_magic chess_magic_rook[64];
extern struct chess_magic chess_magic_bishop[64];

extern uint64_t chess_zobrist_piece[16][64];
extern uint64_t chess_zobrist_castling[16];
extern uint64_t chess_zobrist_ep[8];
extern uint64_t chess_zobrist_side;

static inline uint64_t chess_bb_rook_attacks(int sq, uint64_t occ)
{
	const struct chess_magic *m = &chess_magic_rook[sq];
	return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

static inline uint64_t chess_bb_bishop_attacks(int sq, uint64_t occ)
{
	const struct chess_magic *m = &chess_magic_bishop[sq];
	return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

static inline int chess_bb_lsb(uint64_t b)
{
	return __builtin_ctzll(b);
}
static inline int chess_bb_count(uint64_t b)
{
	return __builtin_popcountll(b);
}

static inline int chess_bb_pop(uint64_t *b)
{
	int sq = __builtin_ctzll(*b);
	*b &= *b - 1;
	return sq;
}

/* Pieces of colour `by` attacking sq, given occupancy occ (which may differ from the board's). */
static inline uint64_t chess_bb_attackers(const struct chess_pos *pos, int sq, uint64_t occ,
					  enum chess_color by)
{
	uint64_t them = pos->by_color[by];
	uint64_t rq = (pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN]) & them;
	uint64_t bq = (pos->by_type[CHESS_BISHOP] | pos->by_type[CHESS_QUEEN]) & them;
	return (chess_bb_knight[sq] & pos->by_type[CHESS_KNIGHT] & them) |
	       (chess_bb_king[sq] & pos->by_type[CHESS_KING] & them) |
	       (chess_bb_pawn[by ^ 1][sq] & pos->by_type[CHESS_PAWN] & them) |
	       (chess_bb_rook_attacks(sq, occ) & rq) | (chess_bb_bishop_attacks(sq, occ) & bq);
}

/* Whether the side to move could capture en passant on ep legally (position.c). */
bool chess_ep_square_usable(const struct chess_pos *pos, int ep);

#endif
