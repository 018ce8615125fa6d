/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Fully legal move generation.
 *
 * Instead of generating pseudo-legal moves and testing each by making it, the
 * generator computes once per position what makes a move illegal: the pieces
 * giving check (a check mask that every non-king move must land on), the pieces
 * pinned to their king (each confined to the line through king and pinner),
 * and for the king the squares attacked with the king itself removed from the
 * board (so it cannot step back along a checking ray).  Only en passant, which
 * removes two pieces from one rank, is tested by trying it.  The result is
 * that perft can count leaves without making the last ply.
 */
#include "chess/bitboard.h"

#define RANK_1 0x00000000000000FFULL
#define RANK_8 0xFF00000000000000ULL

static inline chess_move *add_pawn_moves(chess_move *out, int from, uint64_t targets, bool promo)
{
	while (targets) {
		int to = chess_bb_pop(&targets);
		if (promo) {
			*out++ = chess_move_make(from, to, CHESS_MOVE_PROMOTION, CHESS_QUEEN);
			*out++ = chess_move_make(from, to, CHESS_MOVE_PROMOTION, CHESS_ROOK);
			*out++ = chess_move_make(from, to, CHESS_MOVE_PROMOTION, CHESS_BISHOP);
			*out++ = chess_move_make(from, to, CHESS_MOVE_PROMOTION, CHESS_KNIGHT);
		} else {
			*out++ = chess_move_make(from, to, CHESS_MOVE_NORMAL, CHESS_NO_PIECE);
		}
	}
	return out;
}

static inline chess_move *add_moves(chess_move *out, int from, uint64_t targets)
{
	while (targets) {
		int to = chess_bb_pop(&targets);
		*out++ = (chess_move)((unsigned)from | (unsigned)to << 6);
	}
	return out;
}

/* Castling on one side: the squares between king and rook empty, the king's path unattacked. */
static bool castle_ok(const struct chess_pos *pos, int ksq, int rsq, int kto, uint64_t occ,
		      enum chess_color them)
{
	int step = kto > ksq ? 1 : -1;

	if (pos->board[rsq] != CHESS_PIECE(them ^ 1, CHESS_ROOK))
		return false;
	if (chess_bb_between[ksq][rsq] & occ)
		return false;
	for (int sq = ksq + step;; sq += step) {
		if (chess_bb_attackers(pos, sq, occ, them))
			return false;
		if (sq == kto)
			break;
	}
	return true;
}

static int generate(const struct chess_pos *pos, chess_move *list)
{
	chess_move *out = list;
	enum chess_color us = (enum chess_color)pos->side, them = (enum chess_color)(us ^ 1);
	uint64_t ours = pos->by_color[us], theirs = pos->by_color[them];
	uint64_t occ = ours | theirs;
	uint64_t kings = pos->by_type[CHESS_KING] & ours;
	uint64_t their_rq = (pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN]) & theirs;
	uint64_t their_bq = (pos->by_type[CHESS_BISHOP] | pos->by_type[CHESS_QUEEN]) & theirs;
	uint64_t checkers, pinned = 0, target, b, snipers;
	int ksq;

	if (!kings)
		return 0;
	ksq = chess_bb_lsb(kings);
	checkers = chess_bb_attackers(pos, ksq, occ, them);

	/* King moves, with the king lifted so that checking rays pass through its square. */
	b = chess_bb_king[ksq] & ~ours;
	while (b) {
		int to = chess_bb_pop(&b);
		if (!chess_bb_attackers(pos, to, occ ^ kings, them))
			*out++ = (chess_move)((unsigned)ksq | (unsigned)to << 6);
	}
	if (checkers & (checkers - 1))
		return (int)(out - list); /* double check: only the king may move */

	if (checkers)
		target = chess_bb_between[ksq][chess_bb_lsb(checkers)] | checkers;
	else
		target = ~(uint64_t)0;

	/* Pinned pieces: ours alone between the king and an enemy slider on the same line. */
	snipers = (chess_bb_rook_attacks(ksq, theirs) & their_rq) |
		  (chess_bb_bishop_attacks(ksq, theirs) & their_bq);
	while (snipers) {
		int s = chess_bb_pop(&snipers);
		uint64_t between = chess_bb_between[ksq][s] & occ;
		if (between && !(between & (between - 1)))
			pinned |= between & ours;
	}

	uint64_t dest = target & ~ours;

	/* Knights: a pinned knight can never move. */
	b = pos->by_type[CHESS_KNIGHT] & ours & ~pinned;
	while (b) {
		int from = chess_bb_pop(&b);
		out = add_moves(out, from, chess_bb_knight[from] & dest);
	}

	b = (pos->by_type[CHESS_BISHOP] | pos->by_type[CHESS_QUEEN]) & ours;
	while (b) {
		int from = chess_bb_pop(&b);
		uint64_t att = chess_bb_bishop_attacks(from, occ) & dest;
		if (pinned & BB(from))
			att &= chess_bb_line[ksq][from];
		out = add_moves(out, from, att);
	}

	b = (pos->by_type[CHESS_ROOK] | pos->by_type[CHESS_QUEEN]) & ours;
	while (b) {
		int from = chess_bb_pop(&b);
		uint64_t att = chess_bb_rook_attacks(from, occ) & dest;
		if (pinned & BB(from))
			att &= chess_bb_line[ksq][from];
		out = add_moves(out, from, att);
	}

	/* Pawns. */
	uint64_t pawns = pos->by_type[CHESS_PAWN] & ours;
	uint64_t last = us == CHESS_WHITE ? RANK_8 : RANK_1;
	int fwd = us == CHESS_WHITE ? 8 : -8;
	int start_rank = us == CHESS_WHITE ? 1 : 6;
	while (pawns) {
		int from = chess_bb_pop(&pawns);
		uint64_t moves = chess_bb_pawn[us][from] & theirs;
		int one = from + fwd;
		if (!(occ & BB(one))) {
			moves |= BB(one);
			if (CHESS_RANK(from) == start_rank && !(occ & BB(one + fwd)))
				moves |= BB(one + fwd);
		}
		moves &= target;
		if (pinned & BB(from))
			moves &= chess_bb_line[ksq][from];
		out = add_pawn_moves(out, from, moves, (moves & last) != 0);
	}

	/* En passant: tested by trying it, since it can expose the king along the rank. */
	if (pos->ep_square != CHESS_NO_SQUARE) {
		int ep = pos->ep_square, cap = ep - fwd;
		b = chess_bb_pawn[them][ep] & pos->by_type[CHESS_PAWN] & ours;
		while (b) {
			int from = chess_bb_pop(&b);
			uint64_t o = (occ ^ BB(from) ^ BB(cap)) | BB(ep);
			if (!(chess_bb_attackers(pos, ksq, o, them) & ~BB(cap)))
				*out++ = chess_move_make(from, ep, CHESS_MOVE_EN_PASSANT,
							 CHESS_NO_PIECE);
		}
	}

	if (!checkers && pos->castling) {
		if (us == CHESS_WHITE) {
			if ((pos->castling & CHESS_CASTLE_WK) && ksq == 4 &&
			    castle_ok(pos, 4, 7, 6, occ, them))
				*out++ = chess_move_make(4, 6, CHESS_MOVE_CASTLING, CHESS_NO_PIECE);
			if ((pos->castling & CHESS_CASTLE_WQ) && ksq == 4 &&
			    castle_ok(pos, 4, 0, 2, occ, them))
				*out++ = chess_move_make(4, 2, CHESS_MOVE_CASTLING, CHESS_NO_PIECE);
		} else {
			if ((pos->castling & CHESS_CASTLE_BK) && ksq == 60 &&
			    castle_ok(pos, 60, 63, 62, occ, them))
				*out++ =
				    chess_move_make(60, 62, CHESS_MOVE_CASTLING, CHESS_NO_PIECE);
			if ((pos->castling & CHESS_CASTLE_BQ) && ksq == 60 &&
			    castle_ok(pos, 60, 56, 58, occ, them))
				*out++ =
				    chess_move_make(60, 58, CHESS_MOVE_CASTLING, CHESS_NO_PIECE);
		}
	}
	return (int)(out - list);
}

int chess_pos_legal_moves(const struct chess_pos *pos, struct chess_move_list *list)
{
	chess_init();
	list->count = generate(pos, list->moves);
	return list->count;
}

bool chess_pos_is_legal(const struct chess_pos *pos, chess_move m)
{
	struct chess_move_list list;

	if (m == CHESS_MOVE_NONE)
		return false;
	chess_pos_legal_moves(pos, &list);
	for (int i = 0; i < list.count; i++) {
		if (list.moves[i] == m)
			return true;
	}
	return false;
}

chess_move chess_pos_find_move(const struct chess_pos *pos, int from, int to,
			       enum chess_piece_type promo)
{
	struct chess_move_list list;

	if (from < 0 || from > 63 || to < 0 || to > 63)
		return CHESS_MOVE_NONE;
	chess_pos_legal_moves(pos, &list);
	for (int i = 0; i < list.count; i++) {
		chess_move m = list.moves[i];
		if (chess_move_from(m) != from || chess_move_to(m) != to)
			continue;
		if (chess_move_kind(m) == CHESS_MOVE_PROMOTION && chess_move_promotion(m) != promo)
			continue;
		return m;
	}
	return CHESS_MOVE_NONE;
}

chess_piece chess_pos_moving_piece(const struct chess_pos *pos, chess_move m)
{
	return pos->board[chess_move_from(m)];
}

int chess_move_capture_square(const struct chess_pos *pos, chess_move m)
{
	int to = chess_move_to(m);

	switch (chess_move_kind(m)) {
	case CHESS_MOVE_EN_PASSANT:
		return CHESS_RANK(to) == 5 ? to - 8 : to + 8;
	case CHESS_MOVE_CASTLING:
		return CHESS_NO_SQUARE;
	default:
		return pos->board[to] ? to : CHESS_NO_SQUARE;
	}
}

chess_piece chess_pos_captured_piece(const struct chess_pos *pos, chess_move m)
{
	int sq = chess_move_capture_square(pos, m);
	return sq == CHESS_NO_SQUARE ? 0 : pos->board[sq];
}

static uint64_t perft_rec(struct chess_pos *pos, int depth)
{
	chess_move moves[CHESS_MAX_MOVES];
	int n = generate(pos, moves);
	uint64_t nodes = 0;
	struct chess_undo undo;

	if (depth == 1)
		return (uint64_t)n; /* bulk counting: every generated move is legal */
	for (int i = 0; i < n; i++) {
		chess_pos_make(pos, moves[i], &undo);
		nodes += perft_rec(pos, depth - 1);
		chess_pos_unmake(pos, moves[i], &undo);
	}
	return nodes;
}

uint64_t chess_perft(struct chess_pos *pos, int depth)
{
	chess_init();
	if (depth <= 0)
		return 1;
	return perft_rec(pos, depth);
}
