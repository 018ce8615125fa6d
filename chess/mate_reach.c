/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Which squares each man can still reach, and from that whether a colour could ever mate:
 * the static half of "who can still checkmate" (mate_int.h).
 *
 * The analysis keeps, for every man on the board, the squares it may stand on in any series
 * of legal moves from the position (reach, an over-approximation), the squares it may arrive
 * on by a capture (hits), whether it may be captured at all (capturable), the men that never
 * move and are never taken (steady: their squares are walls for the rest of the game), and
 * the squares each colour attacks in every position to come (guard), into which the other
 * king can never step.  It starts from "nobody moves" and grows the reaches until nothing
 * changes: every man's moves from every square of its reach, with the steady men as the
 * only obstacles (any other man may have left), a pawn's captures only onto squares where
 * an opponent's man other than the king may stand, a king's steps never into the guard.
 *
 * Why the fixed point is sound.  Take any series of legal moves from the position and
 * suppose some move in it is the first to break one of these: every man stands in its reach
 * (or has been taken), no steady man has moved or been taken, no man arrives by a capture
 * outside its hits.  Before that move all of them held, so every steady man stands on its
 * square: the move's path crosses none of them, and the move is among those generated from
 * the mover's square (the real board has at least the steady men on it, so a slider reaches
 * no further than with them alone; a pawn's push finds no steady man in front; a capture's
 * victim stands in its own reach, so a pawn's capture square is among the opponent's reach;
 * a promoted pawn moves like a queen or a knight).  Its target is then in the mover's reach
 * and hits at the fixed point, so it moves no steady man (whose reach is its own square) and
 * takes none (a steady man is on no opponent's hits).  Two more rules narrow the moves
 * generated, each argued where it is made: pawns on one file do not pass each other
 * (file_wall()), and a man never taken that always stands between two squares blocks the
 * moves between them (past_blockers()); both lean only on what held before the move.  A
 * king's step into the guard cannot be legal: a square in colour c's guard is attacked, from
 * wherever in its reach, by a man of c that is never taken and never promoted, with every square
 * that may be occupied taken as an obstacle (so the real board, which has fewer, leaves the attack
 * standing).  So no first break exists.
 *
 * Mate: the king of the side that is to be mated must stand on a square of its reach that a
 * man of the mating side (not its king) may attack; each flight of its reach that no such
 * man may attack must hold one of the king's own men (each man on one square) or be
 * attacked by the mating king, which may not stand next to the mated one.  Where no square
 * passes, that colour can never mate.  Flights outside the king's reach need nothing: the
 * king can never stand there, so in a mate they are covered or blocked somehow.
 */
#include <string.h>

#include "chess/mate_int.h"

#define RANK_1 0x00000000000000FFULL
#define RANK_8 0xFF00000000000000ULL

/* A man's moves and attacks on an otherwise empty board but for `occ` (not a pawn's). */
static uint64_t piece_moves(int type, int sq, uint64_t occ)
{
	switch (type) {
	case CHESS_KNIGHT:
		return chess_bb_knight[sq];
	case CHESS_BISHOP:
		return chess_bb_bishop_attacks(sq, occ);
	case CHESS_ROOK:
		return chess_bb_rook_attacks(sq, occ);
	case CHESS_QUEEN:
		return chess_bb_bishop_attacks(sq, occ) | chess_bb_rook_attacks(sq, occ);
	case CHESS_KING:
		return chess_bb_king[sq];
	default:
		return 0;
	}
}

/* Whatever a promoted pawn becomes, it moves like a queen or a knight. */
static uint64_t crowned_moves(int sq, uint64_t occ)
{
	return piece_moves(CHESS_QUEEN, sq, occ) | chess_bb_knight[sq];
}

/* A pawn's pushes from sq, with only the steady men in the way. */
static uint64_t pushes(int color, int sq, uint64_t steady)
{
	int step = color == CHESS_WHITE ? 8 : -8, start = color == CHESS_WHITE ? 1 : 6;
	int one = sq + step;
	uint64_t t = 0;

	if (one < 0 || one > 63 || (steady & BB(one)))
		return 0;
	t = BB(one);
	if (CHESS_RANK(sq) == start && !(steady & BB(one + step)))
		t |= BB(one + step);
	return t;
}

/* The squares a pawn of colour c on sq can never push to while it and the opponent's pawns
 * ahead of it on its file keep to it: from the nearest such pawn on.  (A pawn leaves its
 * file only by a capture; one that never captures, facing one that never captures and is
 * never taken, stays behind it: pawns do not pass on a file.) */
static uint64_t file_wall(const struct mate_reach *a, int i)
{
	int c = a->color[i], file = CHESS_FILE(a->sq[i]), rank = CHESS_RANK(a->sq[i]);
	int wall = c == CHESS_WHITE ? 8 : -1;

	if (a->hits[i])
		return 0;
	for (int j = 0; j < a->n; j++) {
		int r = CHESS_RANK(a->sq[j]);

		if (a->type[j] != CHESS_PAWN || a->color[j] == c || CHESS_FILE(a->sq[j]) != file ||
		    a->hits[j] || (a->capturable >> j & 1))
			continue;
		if (c == CHESS_WHITE ? r > rank && r < wall : r < rank && r > wall)
			wall = r;
	}
	if (wall == 8 || wall == -1)
		return 0;
	return (0x0101010101010101ULL << file) &
	       (c == CHESS_WHITE ? ~0ULL << (8 * wall) : ~0ULL >> (8 * (7 - wall)));
}

/* Of the targets of a move from r, those no man in the way lets it reach: a man never taken
 * that always stands strictly between r and the target (its reach lies there, or on r where
 * the mover stands) is always in the way; one of the mover's own colour blocks the target
 * too, where it cannot be taken.  (An opponent's man on the target does not block: the move
 * may take it, and whether it can be taken is what the analysis is working out.) */
static uint64_t past_blockers(const struct mate_reach *a, int i, int r, uint64_t targets)
{
	uint64_t t = targets;

	if (!(t & a->walls))
		return targets;
	for (int k = 0; k < a->n_walls; k++) {
		int x = a->wall[k];
		uint64_t rx = a->reach[x], line;
		bool own = a->color[x] == a->color[i];

		if (x == i || !(t & rx))
			continue;
		line = chess_bb_line[r][a->sq[x]];
		if (rx & ~(line | BB(r)))
			continue;
		for (uint64_t b = t & line; b;) {
			int to = chess_bb_pop(&b);
			uint64_t way = chess_bb_between[r][to] | BB(r) | (own ? BB(to) : 0);

			if (!(rx & ~way))
				targets &= ~BB(to);
		}
	}
	return targets;
}

/* Grow man i's reach as far as the present state allows; true if it or its hits grew.
 * `theirs`: the squares the opponent's men but its king may stand on; `mine`: the colour's
 * steady men. */
static bool grow(struct mate_reach *a, int i, uint64_t theirs, uint64_t mine)
{
	uint64_t before = a->reach[i], hits = a->hits[i], todo;
	int c = a->color[i];

	if (a->type[i] == CHESS_PAWN) {
		uint64_t last = c == CHESS_WHITE ? RANK_8 : RANK_1;
		uint64_t pawn = a->pawn[i], crowned = a->crowned[i], wall = file_wall(a, i);

		todo = pawn;
		while (todo) {
			int r = chess_bb_pop(&todo);
			uint64_t take = chess_bb_pawn[c][r] & theirs & ~mine;
			uint64_t t = (pushes(c, r, a->steady) & ~mine & ~wall) | take;

			t = past_blockers(a, i, r, t);
			a->hits[i] |= t & take;
			todo |= t & ~last & ~pawn;
			pawn |= t & ~last;
			crowned |= t & last;
		}
		todo = crowned;
		while (todo) {
			int r = chess_bb_pop(&todo);
			uint64_t t = past_blockers(a, i, r, crowned_moves(r, a->steady) & ~mine);

			a->hits[i] |= t;
			todo |= t & ~crowned;
			crowned |= t;
		}
		a->pawn[i] = pawn;
		a->crowned[i] = crowned;
		a->reach[i] = pawn | crowned;
	} else {
		uint64_t reach = before, block = mine;

		if (a->type[i] == CHESS_KING)
			block |= a->guard[c ^ 1];
		/* Every square it may enter reached already, by a capture too: nothing to grow. */
		if (!(~(reach & a->hits[i]) & ~block))
			return false;
		todo = reach;
		while (todo) {
			int r = chess_bb_pop(&todo);
			uint64_t t =
			    past_blockers(a, i, r, piece_moves(a->type[i], r, a->steady) & ~block);

			a->hits[i] |= t;
			todo |= t & ~reach;
			reach |= t;
		}
		a->reach[i] = reach;
	}
	return a->reach[i] != before || a->hits[i] != hits;
}

/* What man i attacks for good, wherever in its reach it stands, with every square that may
 * be occupied in the way: only for a man never taken and never promoted. */
static uint64_t held(const struct mate_reach *a, int i)
{
	uint64_t att = ~(uint64_t)0, b = a->reach[i];

	if ((a->capturable >> i & 1) || a->crowned[i])
		return 0;
	while (b && att) {
		int r = chess_bb_pop(&b);

		att &= a->type[i] == CHESS_PAWN ? chess_bb_pawn[a->color[i]][r]
						: piece_moves(a->type[i], r, a->ever);
	}
	return att;
}

/* The sets derived from the reaches: capturable, steady, ever, guard; true if any changed. */
static bool settle(struct mate_reach *a)
{
	uint32_t capturable = 0;
	uint64_t steady = 0, ever = 0, guard[2] = {0, 0};
	bool changed;

	for (int i = 0; i < a->n; i++) {
		ever |= a->reach[i];
		if (a->type[i] == CHESS_KING)
			continue;
		for (int j = 0; j < a->n; j++)
			if (a->color[j] != a->color[i] && (a->reach[i] & a->hits[j])) {
				capturable |= 1u << i;
				break;
			}
	}
	for (int i = 0; i < a->n; i++)
		if (a->reach[i] == BB(a->sq[i]) && !(capturable >> i & 1))
			steady |= BB(a->sq[i]);
	changed = capturable != a->capturable || steady != a->steady || ever != a->ever;
	a->capturable = capturable;
	a->steady = steady;
	a->ever = ever;
	for (int i = 0; i < a->n; i++)
		guard[a->color[i]] |= held(a, i);
	changed |= guard[0] != a->guard[0] || guard[1] != a->guard[1];
	/* The men past_blockers() looks at: never taken, on a line of at most 7 squares. */
	a->n_walls = 0;
	a->walls = 0;
	for (int i = 0; i < a->n; i++) {
		uint64_t r = a->reach[i];

		if (!(capturable >> i & 1) && chess_bb_count(r) <= 7) {
			a->wall[a->n_walls++] = (uint8_t)i;
			a->walls |= r;
		}
	}
	a->guard[0] = guard[0];
	a->guard[1] = guard[1];
	return changed;
}

void mate_reach_run(struct mate_reach *a, const struct chess_pos *pos)
{
	uint64_t occ = chess_pos_occupancy(pos), b = occ;
	int ep = pos->ep_square;

	memset(a, 0, sizeof(*a));
	a->king[0] = a->king[1] = -1;
	/* The FEN reader allows 16 men a side; a position set up otherwise with more is not
	 * analysed (a man left out could be the blocker a mate needs). */
	a->overflow = chess_bb_count(occ) > MATE_MAX_MEN;
	while (b && a->n < MATE_MAX_MEN) {
		int sq = chess_bb_pop(&b), i = a->n++;
		chess_piece p = pos->board[sq];

		a->sq[i] = (uint8_t)sq;
		a->type[i] = (uint8_t)CHESS_PIECE_TYPE(p);
		a->color[i] = (uint8_t)CHESS_PIECE_COLOR(p);
		a->reach[i] = BB(sq);
		if (a->type[i] == CHESS_PAWN) {
			a->pawn[i] = BB(sq);
			/* A capture en passant now: its victim has passed the square already. */
			if (ep != CHESS_NO_SQUARE && a->color[i] == pos->side &&
			    (chess_bb_pawn[a->color[i]][sq] & BB(ep))) {
				a->pawn[i] |= BB(ep);
				a->reach[i] |= BB(ep);
				a->hits[i] |= BB(ep) | BB(ep + (pos->side == CHESS_WHITE ? -8 : 8));
			}
		}
		if (a->type[i] == CHESS_KING)
			a->king[a->color[i]] = i;
	}
	a->steady = occ;
	settle(a);
	for (;;) {
		uint64_t theirs[2] = {0, 0}, mine[2];
		bool changed = false;

		for (int i = 0; i < a->n; i++)
			if (a->type[i] != CHESS_KING)
				theirs[a->color[i] ^ 1] |= a->reach[i];
		mine[0] = a->steady & pos->by_color[0];
		mine[1] = a->steady & pos->by_color[1];
		for (int i = 0; i < a->n; i++)
			changed |= grow(a, i, theirs[a->color[i]], mine[a->color[i]]);
		changed |= settle(a);
		if (!changed)
			break;
	}
}

/* ------------------------------------------------------------------ mate */

/* Whether the squares of `need` can each hold a different man of colour c (not its king)
 * that may stand there: a matching, found by augmenting paths. */
struct matching {
	const struct mate_reach *a;
	int c;
	uint32_t men;		 /* the men that may be used */
	int owner[MATE_MAX_MEN]; /* the square a man holds, or -1 */
	uint32_t seen;
};

static bool augment(struct matching *m, int sq)
{
	for (int i = 0; i < m->a->n; i++) {
		if (!(m->men >> i & 1) || m->a->color[i] != m->c || m->a->type[i] == CHESS_KING ||
		    !(m->a->reach[i] & BB(sq)) || (m->seen >> i & 1))
			continue;
		m->seen |= 1u << i;
		if (m->owner[i] < 0 || augment(m, m->owner[i])) {
			m->owner[i] = sq;
			return true;
		}
	}
	return false;
}

bool mate_reach_blockable(const struct mate_reach *a, int c, uint64_t need, uint32_t men)
{
	struct matching m = {.a = a, .c = c, .men = men};

	for (int i = 0; i < MATE_MAX_MEN; i++)
		m.owner[i] = -1;
	while (need) {
		m.seen = 0;
		if (!augment(&m, chess_bb_pop(&need)))
			return false;
	}
	return true;
}

uint64_t mate_reach_mating_squares(const struct mate_reach *a, enum chess_color color)
{
	int lk = a->king[color ^ 1], wk = a->king[color];
	uint64_t region, checks = 0, cand, found = 0;

	if (a->overflow)
		return ~(uint64_t)0;
	if (lk < 0 || wk < 0)
		return 0;
	region = a->reach[lk];
	for (int i = 0; i < a->n; i++) {
		uint64_t b;

		if (a->color[i] != color || a->type[i] == CHESS_KING)
			continue;
		if (a->type[i] == CHESS_PAWN) {
			b = a->pawn[i];
			while (b)
				checks |= chess_bb_pawn[color][chess_bb_pop(&b)];
			b = a->crowned[i];
			while (b)
				checks |= crowned_moves(chess_bb_pop(&b), a->steady);
		} else {
			b = a->reach[i];
			while (b)
				checks |= piece_moves(a->type[i], chess_bb_pop(&b), a->steady);
		}
	}
	cand = region & checks;
	while (cand) {
		int k = chess_bb_pop(&cand);
		uint64_t flights = chess_bb_king[k] & region & ~checks;
		uint64_t kings = a->reach[wk] & ~(chess_bb_king[k] | BB(k));

		if (!flights && kings) {
			found |= BB(k);
			continue;
		}
		while (kings) {
			int w = chess_bb_pop(&kings);

			if (mate_reach_blockable(a, color ^ 1, flights & ~chess_bb_king[w], ~0u)) {
				found |= BB(k);
				break;
			}
		}
	}
	return found;
}
