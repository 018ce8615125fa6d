/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Who can still checkmate "by any possible series of legal moves" (Art. 5.2.2 dead position,
 * 6.9 flag, 7.5.5 the illegal move that loses, 2023 5.1.2 resignation).  The series may be
 * as cooperative as the opponent likes, so the question is whether a helpmate exists.
 *
 * Positions of at most five men without pawns are answered exactly, in three steps:
 *
 *  1. The material, bishops by square colour (a "class", which no series of moves changes
 *     except by captures): material_can() says whether the colour can mate anywhere in the
 *     class or in what its captures lead to.  Where it cannot, no position of the class can.
 *  2. A position of a class that can is "free" when the side to move is not in check, the
 *     opponent has a legal quiet move (not a capture, not castling), and the side to move
 *     has one that gives no check after which both sides still have one: then it can.
 *  3. Any other position (in check, stalemated, or one side with captures alone) is decided
 *     by its legal moves: it can exactly when one of them leads to a mate or to a position
 *     that can.  Such positions are forced: the search is short.
 *
 * Steps 1 and 2 are claims about every position, and tests/mate proves them: an independent
 * retrograde analysis of every material of up to five men without pawns, compared with this
 * function position by position (tests/check-mate.sh; all five-man materials in make
 * torture).  Castling rights only add moves (rights forbid nothing), and step 2 does not
 * count castling, so the answer stays exact with them.
 *
 * Other positions (six men or more, or pawns): "never" only where a rule proves it for any
 * number of men (a bare king; bishops all on one square colour against nothing that could
 * stand on the other colour), "possible" only when a search finds a series of legal moves
 * that ends in mate or in a position of at most five men without pawns that can; otherwise
 * "unknown", and the caller leaves the decision to the arbiter.
 */
#include "chess/bitboard.h"

#define LIGHT_SQUARES 0x55AA55AA55AA55AAULL

/* The forced positions of step 3 are a few plies deep; the test shows the deepest. */
#define EXACT_MAX_DEPTH 24
/* The search for a series in larger positions: a helpmate of so many plies, then the
 * simplification; the positions each may look at. */
#define SEARCH_HELPMATE_PLIES 4
#define SEARCH_MAX_NODES      100000

/* ------------------------------------------------------------------ material */

struct side_material {
	int pawns, knights, rooks, queens;
	int bishops[2]; /* on dark squares, on light squares */
};

static void side_material(const struct chess_pos *pos, enum chess_color c, struct side_material *m)
{
	uint64_t mine = pos->by_color[c], b = mine & pos->by_type[CHESS_BISHOP];

	m->pawns = chess_bb_count(mine & pos->by_type[CHESS_PAWN]);
	m->knights = chess_bb_count(mine & pos->by_type[CHESS_KNIGHT]);
	m->rooks = chess_bb_count(mine & pos->by_type[CHESS_ROOK]);
	m->queens = chess_bb_count(mine & pos->by_type[CHESS_QUEEN]);
	m->bishops[0] = chess_bb_count(b & ~LIGHT_SQUARES);
	m->bishops[1] = chess_bb_count(b & LIGHT_SQUARES);
}

static int pieces(const struct side_material *m)
{
	return m->pawns + m->knights + m->rooks + m->queens + m->bishops[0] + m->bishops[1];
}

/*
 * Step 1, for at most five men without pawns: whether `me` can mate in some position of the
 * class (or of one its captures lead to) against `them`.  What mates:
 *  - a queen or a rook, against anything;
 *  - two minor pieces, unless both are bishops on one square colour;
 *  - a lone knight, when the opponent has a piece besides queens to take a flight square
 *    without covering the knight's square (a queen alone always does: K+N v K+Q cannot);
 *  - bishops all on one colour, when the opponent has a knight or a bishop of the other
 *    colour: a rook or queen of the opponent covers the checking diagonal (K+B v K+R
 *    cannot), and flights of the other colour can only be taken by those.
 */
static bool material_can(const struct side_material *me, const struct side_material *them)
{
	int minors = me->knights + me->bishops[0] + me->bishops[1];

	if (me->queens || me->rooks)
		return true;
	if (me->knights >= 2 || (me->knights && (me->bishops[0] || me->bishops[1])) ||
	    (me->bishops[0] && me->bishops[1]))
		return true;
	if (me->knights == 1)
		return them->rooks || them->knights || them->bishops[0] || them->bishops[1];
	if (minors == 0)
		return false;
	/* Bishops all on colour `on`. */
	return them->knights || them->bishops[me->bishops[0] ? 1 : 0];
}

/* ------------------------------------------------------------------ freedom */

/* Whether `side`, not in check, has a legal move that captures nothing and is no castling
 * (positions without pawns). */
static bool has_quiet_move(const struct chess_pos *pos, enum chess_color side)
{
	uint64_t ours = pos->by_color[side], theirs = pos->by_color[side ^ 1];
	uint64_t occ = ours | theirs, kings = pos->by_type[CHESS_KING] & ours;
	uint64_t their_rq = (pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN]) & theirs;
	uint64_t their_bq = (pos->by_type[CHESS_BISHOP] | pos->by_type[CHESS_QUEEN]) & theirs;
	uint64_t pinned = 0, snipers, b;
	int ksq;

	if (!kings)
		return false;
	ksq = chess_bb_lsb(kings);
	/* Not in check: no ray reaches the king, so its squares are judged with it in place. */
	b = chess_bb_king[ksq] & ~occ;
	while (b) {
		int to = chess_bb_pop(&b);

		if (!chess_bb_attackers(pos, to, occ, (enum chess_color)(side ^ 1)))
			return true;
	}
	snipers = (chess_bb_rook_attacks(ksq, theirs) & their_rq) |
		  (chess_bb_bishop_attacks(ksq, theirs) & their_bq);
	while (snipers) {
		int s = chess_bb_pop(&snipers);
		uint64_t between = chess_bb_between[ksq][s] & occ;

		if (between && !(between & (between - 1)))
			pinned |= between & ours;
	}
	b = ours & ~kings;
	while (b) {
		int from = chess_bb_pop(&b);
		uint64_t to = 0;

		switch (CHESS_PIECE_TYPE(pos->board[from])) {
		case CHESS_KNIGHT:
			to = chess_bb_knight[from];
			break;
		case CHESS_BISHOP:
			to = chess_bb_bishop_attacks(from, occ);
			break;
		case CHESS_ROOK:
			to = chess_bb_rook_attacks(from, occ);
			break;
		case CHESS_QUEEN:
			to = chess_bb_bishop_attacks(from, occ) | chess_bb_rook_attacks(from, occ);
			break;
		default: /* no pawns here */
			break;
		}
		to &= ~occ;
		if (pinned & BB(from))
			to &= chess_bb_line[ksq][from];
		if (to)
			return true;
	}
	return false;
}

static bool in_check(const struct chess_pos *pos)
{
	return chess_pos_in_check(pos);
}

/* Step 2: the side to move is not in check, the opponent has a quiet move, and the side to
 * move has a quiet move that gives no check after which both still have one.  (Quiet moves
 * on both sides now are not enough: in 8/8/8/8/8/k7/rRB5/1K6 b Black's one quiet move,
 * Ra1+, forces Kxa1 and stalemate, and White can never mate.) */
static bool is_free(const struct chess_pos *pos)
{
	enum chess_color side = (enum chess_color)pos->side, other = (enum chess_color)(side ^ 1);
	struct chess_move_list list;

	if (in_check(pos) || !has_quiet_move(pos, other) || !has_quiet_move(pos, side))
		return false;
	chess_pos_legal_moves(pos, &list);
	for (int i = 0; i < list.count; i++) {
		chess_move m = list.moves[i];
		struct chess_pos next = *pos;
		struct chess_undo undo;

		if (chess_move_kind(m) == CHESS_MOVE_CASTLING || chess_pos_captured_piece(pos, m))
			continue;
		chess_pos_make(&next, m, &undo);
		if (!in_check(&next) && has_quiet_move(&next, other) && has_quiet_move(&next, side))
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------ exact: five men */

struct exact {
	enum chess_color color;
	long nodes;
	int deepest;
	bool cut;			    /* the depth bound was reached somewhere */
	uint64_t path[EXACT_MAX_DEPTH + 1]; /* the keys of the positions on the way here */
};

static bool class_can(const struct chess_pos *pos, enum chess_color color)
{
	struct side_material me, them;

	side_material(pos, color, &me);
	side_material(pos, (enum chess_color)(color ^ 1), &them);
	return material_can(&me, &them);
}

/* A position reached by a move: settled at once when it is the colour's mate, or free in a
 * class that can; 1 yes, 0 no (a dead end: another mate, a stalemate, a class that cannot),
 * -1 not yet known. */
static int settled(const struct exact *x, const struct chess_pos *pos, bool capture)
{
	if (capture && !class_can(pos, x->color))
		return 0;
	if (is_free(pos))
		return 1;
	return -1;
}

/* Step 3: the position is of a class that can; is it free, or has it a move that leads to a
 * mate or to a position that can?  Moves that settle it are looked for first, so the answer
 * comes from the shortest forced line; a position already on the way here is not entered
 * again (a series through it could skip the loop). */
static bool exact_search(struct exact *x, const struct chess_pos *pos, int depth)
{
	struct chess_move_list list;
	int n_open = 0;

	x->nodes++;
	if (depth > x->deepest)
		x->deepest = depth;
	if (is_free(pos))
		return true;
	if (chess_pos_legal_moves(pos, &list) == 0)
		/* Mate of the opponent (it is to move and in check), or a dead end. */
		return pos->side != x->color && in_check(pos);
	if (depth >= EXACT_MAX_DEPTH) {
		x->cut = true;
		return false;
	}
	x->path[depth] = pos->key;
	for (int i = 0; i < list.count; i++) {
		struct chess_pos p = *pos;
		struct chess_undo undo;
		struct chess_move_list replies;
		bool capture = chess_pos_captured_piece(pos, list.moves[i]) != 0, seen = false;
		int s;

		chess_pos_make(&p, list.moves[i], &undo);
		if (chess_pos_legal_moves(&p, &replies) == 0) {
			if (p.side != x->color && in_check(&p))
				return true;
			continue;
		}
		s = settled(x, &p, capture);
		if (s == 1)
			return true;
		if (s == 0)
			continue;
		for (int d = 0; d <= depth && !seen; d++)
			seen = x->path[d] == p.key;
		if (seen)
			continue;
		list.moves[n_open++] = list.moves[i]; /* for the second pass */
	}
	for (int k = 0; k < n_open; k++) {
		struct chess_pos p = *pos;
		struct chess_undo undo;

		chess_pos_make(&p, list.moves[k], &undo);
		if (exact_search(x, &p, depth + 1))
			return true;
	}
	return false;
}

static enum chess_mate exact(const struct chess_pos *pos, enum chess_color color,
			     struct chess_mate_info *info)
{
	struct exact x = {.color = color};
	bool can;

	if (!class_can(pos, color))
		return CHESS_MATE_NEVER;
	can = exact_search(&x, pos, 0);
	if (info) {
		info->nodes += x.nodes;
		if (x.deepest > info->depth)
			info->depth = x.deepest;
	}
	if (can)
		return CHESS_MATE_POSSIBLE;
	return x.cut ? CHESS_MATE_UNKNOWN : CHESS_MATE_NEVER;
}

static bool small(const struct chess_pos *pos)
{
	return chess_bb_count(chess_pos_occupancy(pos)) <= 5 && !pos->by_type[CHESS_PAWN];
}

/* ------------------------------------------------------------------ larger positions */

/* Never, for any number of men: a bare king gives no check; bishops all on one square
 * colour attack only that colour, and a king in check on it has flights of the other
 * colour that only the opponent's own knights, rooks, queens, bishops of that colour or
 * pawns could take (the mating king cannot cover them all: it may not stand next to it). */
static bool never_by_rule(const struct chess_pos *pos, enum chess_color color)
{
	struct side_material me, them;

	side_material(pos, color, &me);
	side_material(pos, (enum chess_color)(color ^ 1), &them);
	if (pieces(&me) == 0)
		return true;
	if (me.pawns || me.knights || me.rooks || me.queens || (me.bishops[0] && me.bishops[1]))
		return false;
	return !them.pawns && !them.knights && !them.rooks && !them.queens &&
	       !them.bishops[me.bishops[0] ? 1 : 0];
}

struct search {
	enum chess_color color;
	long nodes, budget;
	struct chess_mate_info *info;
};

static bool spent(const struct search *s)
{
	return s->nodes > s->budget;
}

/* A position reached on the way: decided when it is small (exact), or the colour's mate;
 * 1 possible, 0 never (or another dead end), -1 go on. */
static int reached(struct search *s, const struct chess_pos *pos)
{
	struct chess_move_list list;

	s->nodes++;
	if (small(pos)) {
		enum chess_mate m = exact(pos, s->color, s->info);

		return m == CHESS_MATE_POSSIBLE ? 1 : m == CHESS_MATE_NEVER ? 0 : -1;
	}
	if (chess_pos_legal_moves(pos, &list) == 0)
		return pos->side != s->color && in_check(pos) ? 1 : 0;
	return -1;
}

/* A helpmate in at most `plies` plies, the last the colour's check.  For short series: a king
 * already hemmed in by its own men. */
static bool helpmate(struct search *s, const struct chess_pos *pos, int plies)
{
	struct chess_move_list list;

	if (plies == 0 || spent(s) || (plies == 1 && pos->side != s->color))
		return false;
	chess_pos_legal_moves(pos, &list);
	for (int i = 0; i < list.count && !spent(s); i++) {
		struct chess_pos next = *pos;
		struct chess_undo undo;
		int r;

		chess_pos_make(&next, list.moves[i], &undo);
		if (plies <= 2 && next.side != s->color && !chess_pos_in_check(&next))
			continue; /* the colour's last move must give check */
		r = reached(s, &next);
		if (r == 1)
			return true;
		if (r == -1 && helpmate(s, &next, plies - 1))
			return true;
	}
	return false;
}

/* ---- simplification: a series of captures down to the colour's mating force */

/* The colour's men that stay (the force it mates with): its strongest piece, or two minor
 * pieces; none while it has pawns alone (one of them is promoted first).  Every other man
 * but the kings is to be captured: the opponent's by the colour, the colour's by the
 * opponent. */
static uint64_t keepers(const struct chess_pos *pos, enum chess_color c)
{
	uint64_t mine = pos->by_color[c];
	uint64_t q = mine & pos->by_type[CHESS_QUEEN], r = mine & pos->by_type[CHESS_ROOK];
	uint64_t n = mine & pos->by_type[CHESS_KNIGHT], b = mine & pos->by_type[CHESS_BISHOP];

	if (q)
		return q & -q;
	if (r)
		return r & -r;
	if (n && b)
		return (n & -n) | (b & -b);
	if (chess_bb_count(n) >= 2) {
		uint64_t rest = n & (n - 1);

		return (n & -n) | (rest & -rest);
	}
	if ((b & LIGHT_SQUARES) && (b & ~LIGHT_SQUARES))
		return ((b & LIGHT_SQUARES) & -(b & LIGHT_SQUARES)) |
		       ((b & ~LIGHT_SQUARES) & -(b & ~LIGHT_SQUARES));
	return 0;
}

/* Whether the move is a step of the simplification: a capture of a man to be captured (by
 * the right side), or, while the colour has no mating force, a move of one of its pawns
 * (forward, so the steps cannot go round in circles; at the end a queen). */
static bool step_done(const struct chess_pos *pos, chess_move m, enum chess_color c, uint64_t keep)
{
	int sq = chess_move_capture_square(pos, m);

	if (sq != CHESS_NO_SQUARE)
		return !(BB(sq) & keep) &&
		       (pos->side == c) == (CHESS_PIECE_COLOR(pos->board[sq]) != c);
	/* Without a mating force, a pawn of the colour's going forward (to a queen). */
	return !keep && pos->side == c &&
	       CHESS_PIECE_TYPE(pos->board[chess_move_from(m)]) == CHESS_PAWN &&
	       (chess_move_kind(m) != CHESS_MOVE_PROMOTION ||
		chess_move_promotion(m) == CHESS_QUEEN);
}

/* A move that undoes the plan: the colour's mating force captured. */
static bool spoils(const struct chess_pos *pos, chess_move m, uint64_t keep)
{
	int sq = chess_move_capture_square(pos, m);

	return sq != CHESS_NO_SQUARE && (BB(sq) & keep);
}

/* Whether the colour's move leaves its mating force where the opponent may take it. */
static bool hangs(const struct chess_pos *next, enum chess_color c, uint64_t keep)
{
	uint64_t occ = chess_pos_occupancy(next);

	while (keep) {
		int sq = chess_bb_pop(&keep);

		if (chess_bb_attackers(next, sq, occ, (enum chess_color)(c ^ 1)))
			return true;
	}
	return false;
}

static bool simplify(struct search *s, const struct chess_pos *pos, int steps);

/* Series of up to `plies` plies that end in a step, each followed by the rest of the
 * simplification; true once one leads to a mate or a small position that can. */
static bool step(struct search *s, const struct chess_pos *pos, uint64_t keep, int plies, int steps)
{
	struct chess_move_list list;

	if (plies == 0 || spent(s))
		return false;
	chess_pos_legal_moves(pos, &list);
	/* Steps first, then the moves that lead to one. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < list.count && !spent(s); i++) {
			chess_move m = list.moves[i];
			struct chess_pos next = *pos;
			struct chess_undo undo;
			uint64_t k = keep;
			bool done = step_done(pos, m, s->color, keep);
			int r;

			if (done != (pass == 0) || spoils(pos, m, keep))
				continue;
			if (BB(chess_move_from(m)) & keep)
				k = (keep & ~BB(chess_move_from(m))) | BB(chess_move_to(m));
			chess_pos_make(&next, m, &undo);
			if (pos->side == s->color && hangs(&next, s->color, k))
				continue;
			r = reached(s, &next);
			if (r >= 0) {
				if (r == 1)
					return true;
				continue;
			}
			if (done ? simplify(s, &next, steps + 1)
				 : pass == 1 && step(s, &next, k, plies - 1, steps))
				return true;
		}
	return false;
}

/* From pos, the captures down to the colour's mating force (and small positions, which are
 * answered exactly), one step after another, trying another step where one leads nowhere. */
static bool simplify(struct search *s, const struct chess_pos *pos, int steps)
{
	if (steps > 64)
		return false;
	for (int plies = 1; plies <= 3 && !spent(s); plies++)
		if (step(s, pos, keepers(pos, s->color), plies, steps))
			return true;
	return false;
}

enum chess_mate chess_pos_mate(const struct chess_pos *pos, enum chess_color color,
			       struct chess_mate_info *info)
{
	struct search s = {.color = color, .budget = SEARCH_MAX_NODES, .info = info};
	bool found = false;

	chess_init();
	if (info)
		*info = (struct chess_mate_info){0};
	if (small(pos))
		return exact(pos, color, info);
	if (never_by_rule(pos, color))
		return CHESS_MATE_NEVER;
	for (int plies = 1; plies <= SEARCH_HELPMATE_PLIES && !found && !spent(&s); plies++)
		found = helpmate(&s, pos, plies);
	if (!found) {
		s.budget = s.nodes + SEARCH_MAX_NODES;
		found = simplify(&s, pos, 0);
	}
	if (info)
		info->nodes += s.nodes;
	return found ? CHESS_MATE_POSSIBLE : CHESS_MATE_UNKNOWN;
}

bool chess_pos_can_checkmate(const struct chess_pos *pos, enum chess_color color)
{
	return chess_pos_mate(pos, color, NULL) != CHESS_MATE_NEVER;
}

bool chess_pos_is_dead(const struct chess_pos *pos)
{
	/* Only what is proven: the exact answer, or the rules (no search after every move). */
	for (int c = 0; c < 2; c++) {
		if (small(pos)) {
			if (exact(pos, (enum chess_color)c, NULL) != CHESS_MATE_NEVER)
				return false;
		} else if (!never_by_rule(pos, (enum chess_color)c)) {
			return false;
		}
	}
	return true;
}

const char *chess_mate_name(enum chess_mate m)
{
	static const char *const names[] = {"never", "possible", "unknown"};

	return (unsigned)m < 3 ? names[m] : "unknown";
}
