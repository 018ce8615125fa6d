/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Move detection from hole sensors (see detect.h).
 *
 * The events since the last committed move are kept with the occupancy before
 * them (base).  When the board is still, the sequence is explained as a chain
 * of legal moves: the first move's events end where the running occupancy
 * equals the position after it, the next move's start there, and so on, the
 * last one ending with the sensed board.  The shortest chain wins, so a single
 * move is preferred over a fast reply, and a fast reply is found even without
 * a still moment between its two moves.
 *
 * Occupancy alone cannot tell a capture from the capturing piece merely lifted:
 * a capture also needs the captured piece's hole to have been emptied and then
 * filled again after the capturing piece left its own hole.
 */
#include <string.h>

#include "chess/detect.h"

#define MAX_CHAIN 8 /* moves explained by one still board: a fast reply is two */

static uint64_t bit(int sq)
{
	return (uint64_t)1 << sq;
}

void detect_config_defaults(struct detect_config *cfg)
{
	cfg->settle_ms = 150;
	cfg->mismatch_ms = 3000;
	cfg->in_hand_ms = 20000;
	cfg->castle_wait_ms = 1500;
}

static void clear_events(struct detect *d)
{
	d->event_count = 0;
	d->base = d->sensed;
	d->dropped_emptied = 0;
	d->overflow = false;
	d->reported = CHESS_MOVE_NONE;
	d->reported_events = 0;
}

void detect_init(struct detect *d, const struct detect_config *cfg, const struct chess_pos *pos,
		 uint64_t sensed)
{
	memset(d, 0, sizeof(*d));
	if (cfg)
		d->cfg = *cfg;
	else
		detect_config_defaults(&d->cfg);
	d->pos = *pos;
	d->sensed = sensed;
	clear_events(d);
	/* A board that does not show the position yet must be set up before moves count. */
	d->dirty = sensed != chess_pos_occupancy(pos);
	d->setting_up = d->dirty;
}

void detect_set_position(struct detect *d, const struct chess_pos *pos)
{
	d->pos = *pos;
	clear_events(d);
	d->lifted = 0;
	d->unexplained = false;
	d->wait = DETECT_WAIT_NONE;
	/* The player needs time from now to set the board up. */
	d->last_change_ms = d->now_ms;
	d->dirty = d->sensed != chess_pos_occupancy(pos);
	d->setting_up = d->dirty;
}

uint64_t detect_differences(const struct detect *d)
{
	return d->sensed ^ chess_pos_occupancy(&d->pos);
}

static void drop_oldest(struct detect *d)
{
	const struct detect_event *e = &d->events[0];
	if (e->occupied) {
		d->base |= bit(e->square);
	} else {
		d->base &= ~bit(e->square);
		d->dropped_emptied |= bit(e->square);
	}
	memmove(&d->events[0], &d->events[1], (size_t)(d->event_count - 1) * sizeof(d->events[0]));
	d->event_count--;
	d->overflow = true;
	if (d->reported_events > 0)
		d->reported_events--;
}

enum detect_kind detect_square(struct detect *d, int square, bool occupied, uint64_t time_ms,
			       struct detect_result *out)
{
	enum detect_kind kind = DETECT_NONE;

	if (out)
		memset(out, 0, sizeof(*out));
	if (square < 0 || square > 63)
		return DETECT_NONE;
	if (time_ms > d->now_ms)
		d->now_ms = time_ms;
	/* Debounced edges alternate; a repeated state carries no information. */
	if (((d->sensed & bit(square)) != 0) == occupied)
		return DETECT_NONE;

	if (occupied)
		d->sensed |= bit(square);
	else
		d->sensed &= ~bit(square);
	if (d->event_count == DETECT_MAX_EVENTS)
		drop_oldest(d);
	d->events[d->event_count++] = (struct detect_event){
	    .time_ms = time_ms, .square = (uint8_t)square, .occupied = occupied};
	d->last_change_ms = time_ms;
	d->dirty = true;

	if (!occupied && d->pos.board[square] && !(d->lifted & bit(square))) {
		d->lifted |= bit(square);
		kind = DETECT_TOUCH;
		if (out) {
			out->kind = DETECT_TOUCH;
			out->time_ms = time_ms;
			out->square = square;
			out->piece = d->pos.board[square];
		}
	}
	return kind;
}

/* ---------------------------------------------------------------- explaining the sequence */

struct chain {
	int length;
	chess_move moves[MAX_CHAIN];
	int ends[MAX_CHAIN]; /* moves[i] was made by events [ends[i-1], ends[i]) */
};

struct search {
	const struct detect *d;
	int n;
	uint64_t running[DETECT_MAX_EVENTS + 1]; /* occupancy after the first i events */
	uint64_t emptied_before;		 /* holes empty before events[0] */
	/* The order of a quiet move's reports is not held against it: its source's sensor
	 * may report late (lag, a sticky contact, a sensor stuck for a while). */
	bool relaxed;
	/* The strict search refused a quiet move for its order: only then is the relaxed one
	 * worth running. */
	bool refused_quiet;
};

/*
 * Whether the events [s, e) make m's capture, and how convincingly: the time the
 * captured piece's hole stood empty before the capturing piece filled it (longer
 * is likelier a capture than chatter).  -1 if they do not.
 */
static int64_t capture_score(const struct search *sr, const struct chess_pos *pos, chess_move m,
			     int s, int e)
{
	int cap = chess_move_capture_square(pos, m);
	int from = chess_move_from(m), to = chess_move_to(m);
	int last_from_up = -1, last_to_down = -1, to_up_before = -1;

	if (cap == CHESS_NO_SQUARE || cap != to)
		return 0; /* quiet, castling, or e.p. (its pawn's hole ends empty) */
	for (int i = s; i < e; i++) {
		const struct detect_event *ev = &sr->d->events[i];
		if (ev->square == from && !ev->occupied)
			last_from_up = i;
		if (ev->square == to && ev->occupied)
			last_to_down = i;
	}
	if (last_to_down < 0) {
		/* Emptied and refilled before the kept events began (overflow). */
		return s == 0 && (sr->emptied_before & bit(to)) ? 0 : -1;
	}
	/* Refilled before the capturing piece left: not its placement.  Events with one
	 * time (replayed after a restart) are taken as unordered. */
	if (last_from_up >= 0 &&
	    sr->d->events[last_to_down].time_ms < sr->d->events[last_from_up].time_ms)
		return -1;
	for (int i = last_to_down - 1; i >= s; i--) {
		const struct detect_event *ev = &sr->d->events[i];
		if (ev->square == to && !ev->occupied) {
			to_up_before = i;
			break;
		}
	}
	if (to_up_before < 0)
		return s == 0 && (sr->emptied_before & bit(to)) ? 0 : -1;
	return (int64_t)(sr->d->events[last_to_down].time_ms - sr->d->events[to_up_before].time_ms);
}

/*
 * Whether the events [s, e) can be m physically: nothing stands on the destination, put
 * there by a report of these events, when the moving piece leaves its hole (a stray peg put
 * there and taken away again does not count).  (A promotion may be made either way round,
 * Art. 4.4.4: the new piece may go in before the pawn comes off.)  Events with one time are
 * unordered.  In the relaxed search a quiet move's order does not count.  A capture's
 * destination holds the victim, so a peg put there before the capturing piece leaves is the
 * victim put back after a touch (D.2.2), never a stray peg: a capture's order is
 * capture_score()'s to judge (the victim's hole refilled after the capturing piece left),
 * in both searches, or a victim touched and put back would become a phantom capture.
 */
static bool order_plausible(struct search *sr, const struct chess_pos *pos, chess_move m, int s,
			    int e)
{
	int from = chess_move_from(m), to = chess_move_to(m);
	uint64_t left = UINT64_MAX;
	bool placed = false;

	if (chess_move_kind(m) == CHESS_MOVE_PROMOTION)
		return true;
	if (sr->relaxed && chess_move_capture_square(pos, m) == CHESS_NO_SQUARE)
		return true;
	if (chess_move_capture_square(pos, m) == to)
		return true;
	for (int i = s; i < e; i++) {
		const struct detect_event *ev = &sr->d->events[i];

		if (ev->square == from && !ev->occupied) {
			left = ev->time_ms;
			break;
		}
	}
	if (left == UINT64_MAX)
		return true; /* it left before the kept events (overflow, restart) */
	for (int i = s; i < e; i++) {
		const struct detect_event *ev = &sr->d->events[i];

		if (ev->square == to && ev->time_ms < left)
			placed = ev->occupied;
	}
	if (placed && chess_move_capture_square(pos, m) == CHESS_NO_SQUARE)
		sr->refused_quiet = true;
	return !placed;
}

/* Collapse the four promotions of one pawn move into one (queen stands for the choice). */
static bool skip_underpromotion(chess_move m)
{
	return chess_move_kind(m) == CHESS_MOVE_PROMOTION && chess_move_promotion(m) != CHESS_QUEEN;
}

/*
 * Explain events [s, n) from pos by exactly `depth` moves.  Moves ending at an
 * earlier split are tried first, and at one split the likelier capture first.
 */
static bool explain(struct search *sr, const struct chess_pos *pos, int s, int depth,
		    struct chain *out)
{
	struct chess_move_list list;
	uint64_t after[CHESS_MAX_MOVES];
	int count = chess_pos_legal_moves(pos, &list);

	for (int i = 0; i < count; i++) {
		struct chess_pos tmp = *pos;
		struct chess_undo undo;
		after[i] = 0;
		if (skip_underpromotion(list.moves[i]))
			continue;
		chess_pos_make(&tmp, list.moves[i], &undo);
		after[i] = chess_pos_occupancy(&tmp);
	}

	int first_k = depth == 1 ? sr->n : s;
	int last_k = depth == 1 ? sr->n : sr->n - 1;
	for (int k = first_k; k <= last_k; k++) {
		bool tried[CHESS_MAX_MOVES] = {false};
		for (;;) {
			int best = -1;
			int64_t best_score = -1;
			for (int i = 0; i < count; i++) {
				if (tried[i] || skip_underpromotion(list.moves[i]) ||
				    after[i] != sr->running[k])
					continue;
				int64_t score = order_plausible(sr, pos, list.moves[i], s, k)
						    ? capture_score(sr, pos, list.moves[i], s, k)
						    : -1;
				if (score < 0) {
					tried[i] = true;
					continue;
				}
				if (score > best_score) {
					best_score = score;
					best = i;
				}
			}
			if (best < 0)
				break;
			tried[best] = true;
			chess_move m = list.moves[best];
			int at = out->length;
			out->moves[at] = m;
			out->ends[at] = k;
			out->length = at + 1;
			if (depth == 1)
				return true;
			struct chess_pos next = *pos;
			struct chess_undo undo;
			chess_pos_make(&next, m, &undo);
			if (explain(sr, &next, k, depth - 1, out))
				return true;
			out->length = at;
		}
	}
	return false;
}

static void search_init(struct search *sr, const struct detect *d, int n, bool relaxed)
{
	uint64_t occ = chess_pos_occupancy(&d->pos);

	sr->d = d;
	sr->n = n;
	sr->relaxed = relaxed;
	sr->refused_quiet = false;
	sr->running[0] = d->base;
	for (int i = 0; i < d->event_count; i++) {
		uint64_t b = bit(d->events[i].square);
		sr->running[i + 1] =
		    d->events[i].occupied ? sr->running[i] | b : sr->running[i] & ~b;
	}
	sr->emptied_before = d->dropped_emptied | (occ & ~d->base);
}

/* The events [0, n) as a chain of moves: the strict search first; only if it finds none,
 * the relaxed one (a quiet move whose source reported late). */
static bool explain_events(const struct detect *d, int n, int max_depth, struct chain *out)
{
	struct search sr;

	for (int relaxed = 0; relaxed < 2; relaxed++) {
		search_init(&sr, d, n, relaxed);
		for (int depth = 1; depth <= max_depth; depth++) {
			out->length = 0;
			if (explain(&sr, &d->pos, 0, depth, out))
				return true;
		}
		if (!sr.refused_quiet)
			break;
	}
	return false;
}

static bool explain_board(const struct detect *d, struct chain *out)
{
	return explain_events(d, d->event_count, MAX_CHAIN, out);
}

/*
 * A move, and after it only lifts of the next mover's pieces: the reply has begun (within
 * the settle time, or while a rook move waits to be castling).  The move is made now; the
 * lifts stay for the reply.
 */
static bool explain_with_reply_begun(const struct detect *d, struct chain *out)
{
	for (int k = d->event_count - 1; k >= 1 && !d->events[k].occupied; k--) {
		struct chess_pos after = d->pos;
		struct chess_undo undo;
		bool reply = true;

		if (!explain_events(d, k, 1, out))
			continue;
		chess_pos_make(&after, out->moves[0], &undo);
		for (int i = k; i < d->event_count && reply; i++) {
			chess_piece p = after.board[d->events[i].square];

			reply = p && CHESS_PIECE_COLOR(p) == after.side;
		}
		if (reply)
			return true;
	}
	return false;
}

/* A rook move that is also how castling with that rook begins (Art. 4.4 aside). */
static bool castling_prefix(const struct chess_pos *pos, chess_move m)
{
	if (chess_move_kind(m) != CHESS_MOVE_NORMAL ||
	    CHESS_PIECE_TYPE(pos->board[chess_move_from(m)]) != CHESS_ROOK)
		return false;
	struct chess_move_list list;
	int count = chess_pos_legal_moves(pos, &list);
	for (int i = 0; i < count; i++) {
		chess_move c = list.moves[i];
		if (chess_move_kind(c) != CHESS_MOVE_CASTLING)
			continue;
		int kf = chess_move_from(c), kt = chess_move_to(c);
		int rank = CHESS_RANK(kf);
		int rook_from = kt > kf ? CHESS_SQ(7, rank) : CHESS_SQ(0, rank);
		int rook_to = kt > kf ? kt - 1 : kt + 1;
		if (chess_move_from(m) == rook_from && chess_move_to(m) == rook_to)
			return true;
	}
	return false;
}

/* ---------------------------------------------------------------- classification */

static void fill_move(const struct detect *d, chess_move m, int end, uint64_t now,
		      struct detect_result *out)
{
	out->kind = DETECT_MOVE;
	out->time_ms = now;
	out->move = m;
	out->promotion_pending = chess_move_kind(m) == CHESS_MOVE_PROMOTION;
	out->square = chess_move_to(m);
	out->piece = d->pos.board[chess_move_from(m)];
	out->event_count = end;
	memcpy(out->events, d->events, (size_t)end * sizeof(out->events[0]));
}

static enum detect_kind report_unexplained(struct detect *d, uint64_t now,
					   struct detect_result *out)
{
	uint64_t occ = chess_pos_occupancy(&d->pos);
	d->unexplained = true;
	d->wait = DETECT_WAIT_NONE;
	out->kind = DETECT_UNEXPLAINED;
	out->time_ms = now;
	out->should_be_empty = d->sensed & ~occ;
	out->should_be_occupied = occ & ~d->sensed;
	return DETECT_UNEXPLAINED;
}

static uint64_t wait_deadline(const struct detect *d)
{
	switch (d->wait) {
	case DETECT_WAIT_MISMATCH:
		return d->last_change_ms + d->cfg.mismatch_ms;
	case DETECT_WAIT_IN_HAND:
		return d->last_change_ms + d->cfg.in_hand_ms;
	case DETECT_WAIT_CASTLE:
		return d->last_change_ms + d->cfg.castle_wait_ms;
	case DETECT_WAIT_NONE:
		break;
	}
	return DETECT_NO_DEADLINE;
}

uint64_t detect_deadline(const struct detect *d)
{
	if (d->dirty)
		return d->last_change_ms + d->cfg.settle_ms;
	return wait_deadline(d);
}

static enum detect_kind classify(struct detect *d, uint64_t now, bool force,
				 struct detect_result *out)
{
	struct chain chain;
	uint64_t occ = chess_pos_occupancy(&d->pos);

	if (now > d->now_ms)
		d->now_ms = now;
	if (!force && now < d->last_change_ms + d->cfg.settle_ms)
		return DETECT_NONE;

	if (d->dirty) {
		d->dirty = false;
		d->wait = DETECT_WAIT_NONE;
		if (d->sensed == occ) {
			/* Lifted and put back (or restored): nothing to carry over. */
			bool was_unexplained = d->unexplained;
			clear_events(d);
			d->unexplained = false;
			d->setting_up = false;
			if (!was_unexplained)
				return DETECT_NONE;
			out->kind = DETECT_RESTORED;
			out->time_ms = now;
			return DETECT_RESTORED;
		}
		bool explained = !d->setting_up && explain_board(d, &chain), begun = false;

		if (!d->setting_up && !explained)
			begun = explain_with_reply_begun(d, &chain);
		if (!explained && !begun) {
			d->reported = CHESS_MOVE_NONE;
			if (!d->unexplained)
				d->wait =
				    d->sensed & ~occ ? DETECT_WAIT_MISMATCH : DETECT_WAIT_IN_HAND;
		} else {
			chess_move m = chain.moves[0];
			if (d->reported != CHESS_MOVE_NONE && d->reported == m) {
				d->reported_events = chain.ends[0];
				return DETECT_NONE; /* already reported, awaiting commit */
			}
			if (!begun && chain.length == 1 && castling_prefix(&d->pos, m) && !force &&
			    now < d->last_change_ms + d->cfg.castle_wait_ms) {
				d->wait = DETECT_WAIT_CASTLE;
				return DETECT_NONE;
			}
			d->reported = m;
			d->reported_events = chain.ends[0];
			d->unexplained = false;
			fill_move(d, m, chain.ends[0], now, out);
			return DETECT_MOVE;
		}
	}

	if (d->wait == DETECT_WAIT_NONE)
		return DETECT_NONE;
	/* A press decides a held rook move, but never hurries a mismatch. */
	if (!(force && d->wait == DETECT_WAIT_CASTLE) && now < wait_deadline(d))
		return DETECT_NONE;
	if (d->wait == DETECT_WAIT_CASTLE) {
		/* Still a lone rook move: it was not castling after all. */
		d->dirty = true;
		return classify(d, now, force, out);
	}
	return report_unexplained(d, now, out);
}

enum detect_kind detect_poll(struct detect *d, uint64_t now, struct detect_result *out)
{
	struct detect_result scratch;
	if (!out)
		out = &scratch;
	memset(out, 0, sizeof(*out));
	return classify(d, now, false, out);
}

enum detect_kind detect_flush(struct detect *d, uint64_t now, struct detect_result *out)
{
	struct detect_result scratch;
	if (!out)
		out = &scratch;
	memset(out, 0, sizeof(*out));
	if (d->wait == DETECT_WAIT_CASTLE)
		d->dirty = true; /* decide now the rook move that was waiting */
	return classify(d, now, true, out);
}

static bool same_move(chess_move a, chess_move b)
{
	return chess_move_from(a) == chess_move_from(b) && chess_move_to(a) == chess_move_to(b) &&
	       chess_move_kind(a) == chess_move_kind(b);
}

void detect_commit(struct detect *d, chess_move move)
{
	struct chess_undo undo;
	bool detected = d->reported != CHESS_MOVE_NONE && same_move(move, d->reported);

	if (!chess_pos_is_legal(&d->pos, move))
		return;
	chess_pos_make(&d->pos, move, &undo);
	d->wait = DETECT_WAIT_NONE;
	if (!detected) {
		/* A move the board did not show (entered by hand): it must follow from now. */
		clear_events(d);
		d->lifted = 0;
		d->last_change_ms = d->now_ms;
		d->dirty = d->sensed != chess_pos_occupancy(&d->pos);
		if (!d->dirty)
			d->setting_up = false; /* the board shows it already */
		return;
	}

	int k = d->reported_events;
	for (int i = 0; i < k; i++) {
		uint64_t b = bit(d->events[i].square);
		d->base = d->events[i].occupied ? d->base | b : d->base & ~b;
	}
	memmove(&d->events[0], &d->events[k], (size_t)(d->event_count - k) * sizeof(d->events[0]));
	d->event_count -= k;
	d->dropped_emptied = 0;
	d->overflow = false;
	d->reported = CHESS_MOVE_NONE;
	d->reported_events = 0;
	/* Touches already reported among the remaining events stay reported. */
	d->lifted = 0;
	for (int i = 0; i < d->event_count; i++)
		if (!d->events[i].occupied)
			d->lifted |= bit(d->events[i].square);
	/* What is left (a fast reply) is classified at the next poll. */
	d->dirty = d->event_count > 0 || d->sensed != chess_pos_occupancy(&d->pos);
}
