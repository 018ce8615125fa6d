/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The searches of "who can still checkmate" (mate_int.h).
 *
 * The helpmate search looks for a series of legal moves that ends in the colour's mate, both
 * sides cooperating.  Searching every series of n moves is hopeless beyond a few plies, so
 * the search is guided by a plan (struct mate_plan): a move that makes progress towards the
 * plan's mate costs nothing, one that neither helps nor harms one unit of the search's
 * budget, one that undoes progress or spends what the plan needs more; the budget grows one
 * by one (iterative deepening) up to a limit on the positions looked at.  Progress is what
 * a helpmate is made of: the mating side captures (fewer men to get past) and pushes its
 * pawns (a queen to come); the mated king walks to the plan's target square; the mating
 * king walks to its square (or near the target), its knights towards the target; for a
 * mate by a lone minor piece, the mated side's men walk to the flights that need blocking
 * and its pawns push and promote to knights and bishops (a queen or rook there could step
 * into the checking line).  The move answering a progress move is a pass: where the side
 * to move has no progress to make, its moves that neither help nor harm cost nothing, so a
 * series of progress moves with the other side waiting costs nothing.  Of the mating side's
 * progress its king's comes last: it walks up once the others are in place, not into their
 * way.  Past the budget the mating move itself is still tried.  A table of the positions
 * already searched with as large a budget keeps transpositions from being searched again; a
 * position already on the way here is not entered again.  The search answers only "found",
 * with its line (which the tests replay): what it does not find proves nothing.
 *
 * The plans: the generic one leads the mated king to a target, a square where the static
 * analysis says a mate may be, near the king with few flights (a corner, an edge); the
 * patterns of a lone minor piece name the square of the mating king too (two from the
 * target, covering some flights) and the flights left for the mated side's men.
 *
 * The refutation and the closure prove "never" (see below).
 */
#include <pthread.h>
#include <string.h>

#include "chess/mate_int.h"

#define TT_BITS 16
#define TT_SIZE (1 << TT_BITS)
/* The search's largest budget: series of more non-progress moves are not looked for. */
#define MAX_BUDGET 40
#define MAX_COST   4

/* A position searched: its key's high bits, and below them the budget it was searched with
 * (twice, plus one when its move was free). */
#define TT_WORTH 0xFFFFULL

struct helpmate {
	enum chess_color color; /* who mates */
	const struct mate_plan *plan;
	uint64_t zone; /* the flights the mated side's blockers go to */
	long nodes, limit;
	bool found;
	chess_move *line;
	int *len;
	chess_move path_moves[CHESS_MATE_LINE_MAX];
	uint64_t path[CHESS_MATE_LINE_MAX + 1];
	uint64_t tt[TT_SIZE];
};

static int distance(int a, int b)
{
	int df = CHESS_FILE(a) - CHESS_FILE(b), dr = CHESS_RANK(a) - CHESS_RANK(b);

	df = df < 0 ? -df : df;
	dr = dr < 0 ? -dr : dr;
	return df > dr ? df : dr;
}

/* How far the mating side's king or knight is from where it helps: `near` squares from the
 * target. */
static int helper_distance(int sq, int target, int near)
{
	int d = distance(sq, target) - near;

	return d > 0 ? d : 0;
}

/* Knight moves between squares on an empty board, worked out once. */
static uint8_t knight_moves[64][64];

static void knight_init(void)
{
	for (int from = 0; from < 64; from++) {
		uint64_t seen = BB(from), ring = BB(from);

		for (int d = 0; ring; d++) {
			uint64_t next = 0;

			while (ring) {
				int sq = chess_bb_pop(&ring);

				knight_moves[from][sq] = (uint8_t)d;
				next |= chess_bb_knight[sq];
			}
			ring = next & ~seen;
			seen |= next;
		}
	}
}

static bool light(int sq)
{
	return (BB(sq) & MATE_LIGHT_SQUARES) != 0;
}

/* Moves a man of type t needs from a to b on an empty board (a bishop: 3 to the other
 * colour, where it never arrives: "far"). */
static int moves_between(int t, int a, int b)
{
	if (a == b)
		return 0;
	switch (t) {
	case CHESS_KNIGHT:
		return knight_moves[a][b];
	case CHESS_BISHOP:
		if (light(a) != light(b))
			return 3;
		return chess_bb_bishop_attacks(a, 0) & BB(b) ? 1 : 2;
	case CHESS_ROOK:
		return chess_bb_rook_attacks(a, 0) & BB(b) ? 1 : 2;
	case CHESS_QUEEN:
		return (chess_bb_rook_attacks(a, 0) | chess_bb_bishop_attacks(a, 0)) & BB(b) ? 1
											     : 2;
	default:
		return distance(a, b);
	}
}

/* How far a man of type t on sq is from the nearest square of `zone`. */
static int zone_distance(int t, int sq, uint64_t zone)
{
	int best = 8;

	while (zone) {
		int d = moves_between(t, sq, chess_bb_pop(&zone));

		if (d < best)
			best = d;
	}
	return best;
}

/* 0 for a walk that brings `before` to `after` nearer, the regress cost farther, 1 else. */
static int walk(const struct mate_plan *p, int before, int after)
{
	return after < before ? 0 : after > before ? p->regress : 1;
}

/* What a move costs the budget: 0 for progress, 1 for a move that neither helps nor harms,
 * more for one that undoes progress or spends what the plan needs (struct mate_plan). */
static int cost(const struct helpmate *s, const struct chess_pos *pos, chess_move m)
{
	const struct mate_plan *p = s->plan;
	int from = chess_move_from(m), to = chess_move_to(m);
	int type = CHESS_PIECE_TYPE(pos->board[from]);
	bool capture = chess_move_capture_square(pos, m) != CHESS_NO_SQUARE;

	if (pos->side == s->color) {
		if (capture)
			return 0;
		if (type == CHESS_PAWN)
			return chess_move_promotion(m) == CHESS_NO_PIECE ||
				       chess_move_promotion(m) == CHESS_QUEEN
				   ? 0
				   : 1;
		if (type == CHESS_KING && p->king_square >= 0)
			return walk(p, distance(from, p->king_square),
				    distance(to, p->king_square));
		if (type == CHESS_KING)
			return walk(p, helper_distance(from, p->target, p->king_near),
				    helper_distance(to, p->target, p->king_near));
		if (type == CHESS_KNIGHT)
			return walk(p, helper_distance(from, p->target, 2),
				    helper_distance(to, p->target, 2));
		return 1;
	}
	if (type == CHESS_KING)
		return walk(p, distance(from, p->target), distance(to, p->target));
	if (p->blockers) {
		if (chess_move_kind(m) == CHESS_MOVE_PROMOTION)
			return chess_move_promotion(m) == CHESS_KNIGHT ||
				       chess_move_promotion(m) == CHESS_BISHOP
				   ? 0
				   : 1;
		if (type == CHESS_PAWN && !capture)
			return 0;
		if (zone_distance(type, to, s->zone) < zone_distance(type, from, s->zone))
			return 0;
	}
	if (capture)
		return p->l_capture;
	if (type == CHESS_PAWN)
		return p->l_pawn;
	return 1;
}

/* Whether the colour's move m mates at once. */
static bool mates(const struct chess_pos *pos, chess_move m)
{
	struct chess_pos next = *pos;
	struct chess_undo undo;
	struct chess_move_list replies;

	chess_pos_make(&next, m, &undo);
	return chess_pos_in_check(&next) && chess_pos_legal_moves(&next, &replies) == 0;
}

/* Whether `next`, at `depth`, is a position already on the way here: only those since the
 * last capture or pawn move can be. */
static bool on_path(const struct helpmate *s, int depth, const struct chess_pos *next)
{
	int from = depth - next->halfmove_clock;

	for (int i = from > 0 ? from : 0; i < depth; i++)
		if (s->path[i] == next->key)
			return true;
	return false;
}

static void found(struct helpmate *s, int ply)
{
	s->found = true;
	*s->len = ply;
	memcpy(s->line, s->path_moves, (size_t)ply * sizeof(chess_move));
}

static bool search(struct helpmate *s, const struct chess_pos *pos, int ply, int budget, bool free)
{
	struct chess_move_list list;
	uint8_t costs[CHESS_MAX_MOVES];
	bool progress = false;
	int n;
	uint64_t *e = &s->tt[pos->key & (TT_SIZE - 1)];
	uint64_t worth = (uint64_t)(budget * 2 + (free ? 1 : 0));

	s->nodes++;
	n = chess_pos_legal_moves(pos, &list);
	if (n == 0) {
		if (pos->side != s->color && chess_pos_in_check(pos)) {
			found(s, ply);
			return true;
		}
		return false;
	}
	if (ply >= CHESS_MATE_LINE_MAX - 1 || s->nodes > s->limit ||
	    mate_never_by_rule(pos, s->color))
		return false;
	if ((*e & ~TT_WORTH) == (pos->key & ~TT_WORTH) && (*e & TT_WORTH) >= worth)
		return false;
	*e = (pos->key & ~TT_WORTH) | worth;
	s->path[ply] = pos->key;
	for (int i = 0; i < n; i++) {
		costs[i] = (uint8_t)cost(s, pos, list.moves[i]);
		progress |= costs[i] == 0;
	}
	/* A free move is a pass: without progress to make, waiting costs nothing. */
	if (free && !progress)
		for (int i = 0; i < n; i++)
			if (costs[i] == 1)
				costs[i] = 0;
	/* Cheapest first; of the mating side's progress, its king's last. */
	for (int c = 0; c <= MAX_COST; c++) {
		for (int k = 0; k < 2 * n; k++) {
			int i = k < n ? k : k - n;
			chess_move m = list.moves[i];
			bool king = pos->side == s->color &&
				    CHESS_PIECE_TYPE(pos->board[chess_move_from(m)]) == CHESS_KING;
			struct chess_pos next;
			struct chess_undo undo;
			int own;

			if (costs[i] != c || king != (k >= n))
				continue;
			if (s->nodes > s->limit)
				return false;
			if (c > budget) {
				/* Past the budget, the mating move itself is still looked for. */
				if (pos->side == s->color && mates(pos, m)) {
					s->path_moves[ply] = m;
					found(s, ply + 1);
					return true;
				}
				continue;
			}
			next = *pos;
			chess_pos_make(&next, m, &undo);
			if (on_path(s, ply + 1, &next))
				continue;
			own = free && c == 0 ? cost(s, pos, m) : c;
			s->path_moves[ply] = m;
			if (search(s, &next, ply + 1, budget - c, own == 0))
				return true;
		}
	}
	return false;
}

int mate_targets(const struct chess_pos *pos, enum chess_color color, uint64_t squares,
		 int *targets, int max)
{
	int king = chess_pos_king_square(pos, (enum chess_color)(color ^ 1)), n = 0;
	int score[64];

	/* Near the king, few flights (a corner, an edge); the best `max`, best first. */
	while (squares) {
		int k = chess_bb_pop(&squares), at;
		int sc = distance(king, k) + 2 * chess_bb_count(chess_bb_king[k]);

		if (n == max && sc >= score[n - 1])
			continue;
		at = n < max ? n++ : n - 1;
		while (at > 0 && score[at - 1] > sc) {
			score[at] = score[at - 1];
			targets[at] = targets[at - 1];
			at--;
		}
		score[at] = sc;
		targets[at] = k;
	}
	return n;
}

/* The mated side's men (not its king) that may block for the colour's lone minor piece: a
 * knight's check cannot be blocked, so any; a bishop's can, so pawns (to be promoted to a
 * knight or a bishop), knights and bishops of the other square colour, which cannot step
 * into its line, unless `all`. */
static uint32_t blockers_of(const struct chess_pos *pos, enum chess_color color,
			    const struct mate_reach *a, bool all)
{
	uint64_t bishops = pos->by_color[color] & pos->by_type[CHESS_BISHOP];
	uint32_t men = 0;

	for (int i = 0; i < a->n; i++) {
		int t = a->type[i];

		if (a->color[i] == color || t == CHESS_KING)
			continue;
		if (all || !bishops || t == CHESS_PAWN || t == CHESS_KNIGHT ||
		    (t == CHESS_BISHOP && light(a->sq[i]) != ((bishops & MATE_LIGHT_SQUARES) != 0)))
			men |= 1u << i;
	}
	return men;
}

int mate_patterns(const struct chess_pos *pos, enum chess_color color, const struct mate_reach *a,
		  uint64_t squares, struct mate_plan *plans, int max)
{
	enum chess_color mated = (enum chess_color)(color ^ 1);
	int wk = chess_pos_king_square(pos, color), lk = chess_pos_king_square(pos, mated);
	int score[MATE_MAX_PATTERNS], n = 0;
	uint32_t good = blockers_of(pos, color, a, false), any = blockers_of(pos, color, a, true);

	if (a->overflow)
		return 0;
	if (max > MATE_MAX_PATTERNS)
		max = MATE_MAX_PATTERNS;
	while (squares) {
		int k = chess_bb_pop(&squares);
		uint64_t kings = a->reach[a->king[color]];

		/* The mating king two squares away (next to the flights, not to the king); the
		 * rest of the flights for the mated side's men.  Fewer of those, a nearer target
		 * with fewer flights, a nearer king first; men that could step into a bishop's
		 * line as blockers last. */
		while (kings) {
			int w = chess_bb_pop(&kings), sc, at;
			uint64_t rest;

			if (distance(w, k) != 2)
				continue;
			rest = chess_bb_king[k] & ~chess_bb_king[w];
			sc = 4 * chess_bb_count(rest) + distance(lk, k) + distance(wk, w) +
			     2 * chess_bb_count(chess_bb_king[k]);
			if (n == max && sc >= score[n - 1])
				continue;
			if (!mate_reach_blockable(a, mated, rest, good)) {
				sc += 8;
				if ((n == max && sc >= score[n - 1]) ||
				    !mate_reach_blockable(a, mated, rest, any))
					continue;
			}
			at = n < max ? n++ : n - 1;
			while (at > 0 && score[at - 1] > sc) {
				score[at] = score[at - 1];
				plans[at] = plans[at - 1];
				at--;
			}
			score[at] = sc;
			plans[at] = (struct mate_plan){
			    .target = k,
			    .king_square = w,
			    .zone = rest,
			    .l_pawn = 1,
			    .l_capture = 4,
			    .regress = 1,
			    .blockers = true,
			};
		}
	}
	return n;
}

bool mate_helpmate(const struct chess_pos *pos, enum chess_color color,
		   const struct mate_plan *plan, long limit, chess_move *line, int *len,
		   long *nodes)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	/* Half a megabyte, the most of it the table: on the stack of the thread asking (the
	 * daemon's loop, a command), which has megabytes. */
	struct helpmate s;

	pthread_once(&once, knight_init);
	memset(s.tt, 0, sizeof(s.tt));
	s.color = color;
	s.plan = plan;
	s.zone = plan->zone ? plan->zone : chess_bb_king[plan->target];
	s.nodes = 0;
	s.limit = limit;
	s.found = false;
	s.line = line;
	s.len = len;
	*len = 0;
	for (int budget = 0; budget <= MAX_BUDGET && !s.found && s.nodes <= limit; budget++)
		search(&s, pos, 0, budget, false);
	*nodes += s.nodes;
	return s.found;
}

/* ------------------------------------------------------------------ refutation */

struct refute {
	enum chess_color color;
	long nodes, limit;
	uint64_t path[CHESS_MATE_LINE_MAX + 1];
};

static bool refute(struct refute *s, const struct chess_pos *pos, int ply, int branch)
{
	struct chess_move_list list;
	struct mate_reach a;
	int n;

	if (++s->nodes > s->limit || ply >= CHESS_MATE_LINE_MAX)
		return false;
	if (mate_never_by_rule(pos, s->color))
		return true;
	if (mate_small(pos))
		return mate_exact(pos, s->color, NULL) == CHESS_MATE_NEVER;
	n = chess_pos_legal_moves(pos, &list);
	if (n == 0)
		return !(pos->side != s->color && chess_pos_in_check(pos));
	if (n > 1) {
		mate_reach_run(&a, pos);
		if (!mate_reach_mating_squares(&a, s->color))
			return true;
		if (branch == 0)
			return false;
		branch--;
	}
	s->path[ply] = pos->key;
	for (int i = 0; i < n; i++) {
		struct chess_pos next = *pos;
		struct chess_undo undo;
		bool seen = false;

		chess_pos_make(&next, list.moves[i], &undo);
		for (int d = 0; d <= ply && !seen; d++)
			seen = s->path[d] == next.key;
		if (!seen && !refute(s, &next, ply + 1, branch))
			return false;
	}
	return true;
}

bool mate_refute(const struct chess_pos *pos, enum chess_color color, int branch, long limit,
		 long *nodes)
{
	struct refute s = {.color = color, .limit = limit};
	bool proven = refute(&s, pos, 0, branch);

	*nodes += s.nodes;
	return proven;
}

/* ------------------------------------------------------------------ closure */

/* Every position reachable from pos, breadth first, each kept as the move from its parent
 * (so the queue is small: a position is replayed from the start when its turn comes); the
 * set of those seen is kept by two independent hashes of the whole position, 128 bits. */
#define CLOSURE_MAX   4096
#define CLOSURE_SLOTS (2 * CLOSURE_MAX)

struct closure {
	int n;
	int16_t parent[CLOSURE_MAX];
	chess_move move[CLOSURE_MAX];
	uint64_t seen[CLOSURE_SLOTS][2];
};

static void closure_hash(const struct chess_pos *pos, uint64_t *h)
{
	uint64_t x = 0x243F6A8885A308D3ULL ^ pos->side ^ (uint64_t)pos->castling << 8 ^
		     (uint64_t)pos->ep_square << 16;

	for (int sq = 0; sq < 64; sq += 8) {
		uint64_t w;

		memcpy(&w, &pos->board[sq], 8);
		x = (x ^ w) * 0x9E3779B97F4A7C15ULL;
		x ^= x >> 29;
	}
	h[0] = pos->key;
	h[1] = x;
}

/* 1 new, 0 seen already, -1 full. */
static int closure_add(struct closure *c, const struct chess_pos *pos)
{
	uint64_t h[2];
	size_t i;

	closure_hash(pos, h);
	i = (size_t)(h[1] % CLOSURE_SLOTS);
	while (c->seen[i][0] || c->seen[i][1]) {
		if (c->seen[i][0] == h[0] && c->seen[i][1] == h[1])
			return 0;
		i = (i + 1) % CLOSURE_SLOTS;
	}
	if (c->n == CLOSURE_MAX)
		return -1;
	c->seen[i][0] = h[0];
	c->seen[i][1] = h[1];
	return 1;
}

/* Position k of the closure, replayed from the start. */
static void closure_at(const struct closure *c, const struct chess_pos *start, int k,
		       struct chess_pos *pos)
{
	chess_move path[CLOSURE_MAX];
	int len = 0;

	for (; k > 0; k = c->parent[k])
		path[len++] = c->move[k];
	*pos = *start;
	while (len > 0) {
		struct chess_undo undo;

		chess_pos_make(pos, path[--len], &undo);
	}
}

bool mate_closure(const struct chess_pos *start, enum chess_color color, long *nodes)
{
	/* About 170 KB: on the stack of the thread asking, which has megabytes. */
	struct closure c;

	memset(c.seen, 0, sizeof(c.seen));
	c.n = 0;
	closure_add(&c, start);
	c.parent[0] = -1;
	c.n = 1;
	for (int k = 0; k < c.n; k++) {
		struct chess_pos pos;
		struct chess_move_list list;
		int n;

		closure_at(&c, start, k, &pos);
		++*nodes;
		n = chess_pos_legal_moves(&pos, &list);
		if (n == 0) {
			if (pos.side != color && chess_pos_in_check(&pos))
				return false;
			continue;
		}
		if (mate_never_by_rule(&pos, color))
			continue;
		for (int i = 0; i < n; i++) {
			struct chess_pos next = pos;
			struct chess_undo undo;
			int r;

			chess_pos_make(&next, list.moves[i], &undo);
			r = closure_add(&c, &next);
			if (r < 0)
				return false;
			if (r > 0) {
				c.parent[c.n] = (int16_t)k;
				c.move[c.n++] = list.moves[i];
			}
		}
	}
	return true;
}
