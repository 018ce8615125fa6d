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
 * Other positions (six men or more, or pawns) are answered as the CHA-Solver algorithm
 * does (M. Ambrona, "A Practical Algorithm for Chess Unwinnability", FUN 2022), in our own
 * way: "never" where a rule on the material, the static analysis of the squares each man can
 * still reach (mate_reach.c: locked pawns, square colours, kings walled in), a search of
 * every line a few choices deep or the enumeration of every reachable position proves it;
 * "possible" with the line of a helpmate found by a guided search (mate_search.c); otherwise
 * "unknown", and the caller leaves the decision to the arbiter.  Every "possible" carries
 * its line, which the tests replay; a "possible" of five men comes from the exact answer,
 * its line from the same searches.
 */
#include "chess/mate_int.h"

#define LIGHT_SQUARES MATE_LIGHT_SQUARES

/* The forced positions of step 3 are a few plies deep; the test shows the deepest. */
#define EXACT_MAX_DEPTH 24

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

enum chess_mate mate_exact(const struct chess_pos *pos, enum chess_color color,
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

bool mate_small(const struct chess_pos *pos)
{
	return chess_bb_count(chess_pos_occupancy(pos)) <= 5 && !pos->by_type[CHESS_PAWN];
}

/* ------------------------------------------------------------------ larger positions */

/* Never, for any number of men: a bare king gives no check; bishops all on one square
 * colour attack only that colour, and a king in check on it has flights of the other
 * colour that only the opponent's own knights, rooks, queens, bishops of that colour or
 * pawns could take (the mating king cannot cover them all: it may not stand next to it). */
bool mate_never_by_rule(const struct chess_pos *pos, enum chess_color color)
{
	uint64_t mine = pos->by_color[color], theirs = pos->by_color[color ^ 1];
	uint64_t b = mine & pos->by_type[CHESS_BISHOP];
	uint64_t others = pos->by_type[CHESS_PAWN] | pos->by_type[CHESS_KNIGHT] |
			  pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN];

	if (!(mine & ~pos->by_type[CHESS_KING]))
		return true;
	if ((mine & others) || ((b & LIGHT_SQUARES) && (b & ~LIGHT_SQUARES)))
		return false;
	/* Bishops all on one colour: nothing of the opponent's on the other could block. */
	return !(theirs & others) && !(theirs & pos->by_type[CHESS_BISHOP] &
				       ((b & LIGHT_SQUARES) ? ~LIGHT_SQUARES : LIGHT_SQUARES));
}

/* ------------------------------------------------------------------ the answer */

/*
 * The steps, for a position of more than five men or with pawns: a rule on the material;
 * the static analysis (mate_reach.c), which proves "never" or names the squares where a
 * mate may be; a first helpmate search; the refutation of every line a few choices deep and
 * the closure of every reachable position (both prove "never"); more helpmate searches.  A
 * lone knight or bishop mates only against the other side's blockers: its patterns come
 * first.  Each search may look at so many positions: a Raspberry Pi answers almost every
 * question of a real game within milliseconds and any within a fraction of a second, and
 * the answer never depends on the time taken.  For five men without pawns the exact answer
 * comes first and the searches only find its line.
 */
static const struct attempt {
	int target; /* which of mate_targets(), best first */
	int l_pawn, l_capture, regress;
	long nodes;
} first = {0, 1, 4, 1, 3000}, more[] = {
				  {0, 2, 2, 2, 20000},
				  {1, 1, 4, 1, 20000},
};
#define PATTERNS      8
#define PATTERN_NODES 10000
#define SMALL_SCALE   10 /* the searches' share for a five-man line */
#define REFUTE_BRANCH 3	 /* choices the refutation follows besides forced moves */
#define REFUTE_NODES  2000

static enum chess_mate answer(enum chess_mate m, const char *reason, struct chess_mate_info *info)
{
	info->reason = reason;
	return m;
}

static bool try_plan(const struct chess_pos *pos, enum chess_color color,
		     const struct mate_plan *plan, long nodes, struct chess_mate_info *info)
{
	return mate_helpmate(pos, color, plan, nodes, info->line, &info->line_len, &info->nodes);
}

static bool try_attempt(const struct chess_pos *pos, enum chess_color color,
			const struct attempt *t, const int *targets, int n_targets, long scale,
			struct chess_mate_info *info)
{
	struct mate_plan plan = {
	    .king_near = 2,
	    .king_square = -1,
	    .l_pawn = t->l_pawn,
	    .l_capture = t->l_capture,
	    .regress = t->regress,
	};

	if (t->target >= n_targets)
		return false;
	plan.target = targets[t->target];
	return try_plan(pos, color, &plan, t->nodes * scale, info);
}

static bool try_patterns(const struct chess_pos *pos, enum chess_color color,
			 const struct mate_reach *a, uint64_t squares, long scale,
			 struct chess_mate_info *info)
{
	struct mate_plan plans[PATTERNS];
	int n = mate_patterns(pos, color, a, squares, plans, PATTERNS);

	for (int i = 0; i < n; i++)
		if (try_plan(pos, color, &plans[i], PATTERN_NODES * scale, info))
			return true;
	return false;
}

/* Whether the colour's men but its king are one knight, or bishops of one square colour. */
static bool lone_minor(const struct chess_pos *pos, enum chess_color color)
{
	uint64_t mine = pos->by_color[color] & ~pos->by_type[CHESS_KING];
	uint64_t b = mine & pos->by_type[CHESS_BISHOP], n = mine & pos->by_type[CHESS_KNIGHT];

	if (mine & ~(b | n))
		return false;
	return b ? !n && (!(b & LIGHT_SQUARES) || !(b & ~LIGHT_SQUARES)) : chess_bb_count(n) == 1;
}

enum chess_mate chess_pos_mate(const struct chess_pos *pos, enum chess_color color,
			       struct chess_mate_info *info)
{
	struct chess_mate_info local = {.answer_only = true};
	struct mate_reach a;
	uint64_t squares;
	int targets[2], n_targets;
	bool small, lone;
	long scale;

	chess_init();
	if (!info)
		info = &local;
	info->nodes = 0;
	info->depth = 0;
	info->line_len = 0;
	info->reason = "";
	small = mate_small(pos);
	if (small) {
		enum chess_mate m = mate_exact(pos, color, info);

		if (m == CHESS_MATE_NEVER)
			return answer(m,
				      "no mate in any position of this material and square colours "
				      "that this one leads to (exact for five men without pawns)",
				      info);
		if (m == CHESS_MATE_UNKNOWN)
			return answer(m, "a forced line longer than the exact analysis follows",
				      info);
		if (info->answer_only)
			return answer(m, "the exact analysis of five men", info);
	} else if (mate_never_by_rule(pos, color)) {
		return answer(CHESS_MATE_NEVER,
			      (pos->by_color[color] & ~pos->by_type[CHESS_KING])
				  ? "bishops of one square colour, nothing to block on the other"
				  : "a bare king",
			      info);
	}
	mate_reach_run(&a, pos);
	squares = mate_reach_mating_squares(&a, color);
	if (!squares)
		return answer(CHESS_MATE_NEVER,
			      "no square where its men could ever mate (locked pawns, square "
			      "colours, the squares each man can still reach)",
			      info);
	n_targets = mate_targets(pos, color, squares, targets, 2);
	lone = lone_minor(pos, color);
	scale = small ? SMALL_SCALE : 1;
	if (lone && try_patterns(pos, color, &a, squares, scale, info))
		return answer(CHESS_MATE_POSSIBLE, "helpmate", info);
	if (try_attempt(pos, color, &first, targets, n_targets, scale, info))
		return answer(CHESS_MATE_POSSIBLE, "helpmate", info);
	if (!small && mate_refute(pos, color, REFUTE_BRANCH, REFUTE_NODES, &info->nodes))
		return answer(CHESS_MATE_NEVER,
			      "every line leads to a position where it can never mate", info);
	if (!small && mate_closure(pos, color, &info->nodes))
		return answer(CHESS_MATE_NEVER,
			      "every position it can reach was looked at: none is its mate", info);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		if (try_attempt(pos, color, &more[i], targets, n_targets, scale, info))
			return answer(CHESS_MATE_POSSIBLE, "helpmate", info);
	/* Other material may mate against blockers too (its other men locked in). */
	if (!lone && try_patterns(pos, color, &a, squares, scale, info))
		return answer(CHESS_MATE_POSSIBLE, "helpmate", info);
	if (small)
		return answer(CHESS_MATE_POSSIBLE,
			      "possible by the exact analysis of five men; no line found", info);
	return answer(CHESS_MATE_UNKNOWN,
		      "neither a helpmate nor a proof within the search's bounds", info);
}

bool chess_pos_can_checkmate(const struct chess_pos *pos, enum chess_color color)
{
	return chess_pos_mate(pos, color, NULL) != CHESS_MATE_NEVER;
}

/*
 * Dead (5.2.2): neither colour can mate, proven by the quick means alone, as it is asked
 * after every move: the exact answer of five men; else the rules and one static analysis
 * for both colours, and where the side to move has a single legal move, the forced moves
 * that follow (mate_refute() without choices).  No helpmate search: a position not proven
 * dead here goes on, and the arbiter's questions (a flag, an illegal move, a resignation)
 * get the full answer of chess_pos_mate().
 */
bool chess_pos_is_dead(const struct chess_pos *pos)
{
	struct mate_reach a;
	struct chess_move_list list;
	bool never[2];

	chess_init();
	if (mate_small(pos))
		return mate_exact(pos, CHESS_WHITE, NULL) == CHESS_MATE_NEVER &&
		       mate_exact(pos, CHESS_BLACK, NULL) == CHESS_MATE_NEVER;
	never[0] = mate_never_by_rule(pos, CHESS_WHITE);
	never[1] = mate_never_by_rule(pos, CHESS_BLACK);
	if (!never[0] || !never[1]) {
		mate_reach_run(&a, pos);
		for (int c = 0; c < 2; c++)
			never[c] = never[c] || !mate_reach_mating_squares(&a, (enum chess_color)c);
	}
	for (int c = 0; c < 2; c++) {
		long nodes = 0;

		if (!never[c] && (chess_pos_legal_moves(pos, &list) != 1 ||
				  !mate_refute(pos, (enum chess_color)c, 0, 64, &nodes)))
			return false;
	}
	return true;
}

const char *chess_mate_name(enum chess_mate m)
{
	static const char *const names[] = {"never", "possible", "unknown"};

	return (unsigned)m < 3 ? names[m] : "unknown";
}
