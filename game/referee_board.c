/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's board side (referee.h): what the sensors show becomes moves, touches, the
 * promotion and mismatch flows, and the game's end by the rules of Art. 5 and 9.6.
 */
#include "game/referee_int.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ the game's end */

void ref_end_game(struct referee *r, const char *result, enum result_termination term,
		  const char *reason, const char *author, uint64_t now)
{
	struct game_record rec = ref_record(REC_RESULT, now);
	struct game_effect fx = {.kind = GAME_FX_GAME_END, .ms = now};

	snprintf(rec.u.result.result, sizeof(rec.u.result.result), "%s", result);
	rec.u.result.termination = term;
	snprintf(rec.u.result.reason, sizeof(rec.u.result.reason), "%s", reason);
	snprintf(rec.author, sizeof(rec.author), "%s", author);
	if (ref_emit(r, &rec) == 0)
		ref_effect(r, &fx);
}

/* Art. 5 and 9.6: the game ends at once. */
static void check_outcome(struct referee *r, uint64_t now)
{
	static const struct {
		enum game_msg msg;
		const char *reason;
	} ends[] = {
	    [CHESS_CHECKMATE] = {GAME_MSG_CHECKMATE, "checkmate"},
	    [CHESS_STALEMATE] = {GAME_MSG_STALEMATE, "stalemate"},
	    [CHESS_DEAD_POSITION] = {GAME_MSG_DEAD_POSITION, "dead position"},
	    [CHESS_FIVEFOLD] = {GAME_MSG_FIVEFOLD, "fivefold repetition"},
	    [CHESS_SEVENTY_FIVE] = {GAME_MSG_SEVENTY_FIVE, "seventy-five moves"},
	};
	enum chess_outcome o = chess_game_outcome(&r->g.chess);
	int mover = !game_position(&r->g)->side;

	if (o == CHESS_ONGOING)
		return;
	if ((o == CHESS_FIVEFOLD || o == CHESS_SEVENTY_FIVE) &&
	    !r->g.rules->automatic_fivefold_seventy_five)
		return; /* a claim for the players, not an automatic end (2005) */
	/* Mate and stalemate end the game for everyone to hear (Art. 5.1.1, 5.2.1).  In a
	 * tournament a dead position is told to the tactile player alone, and a fivefold or
	 * 75-move draw goes to the arbiter (status), not the players (trap 1). */
	if (r->g.params.mode == GAME_CASUAL || o == CHESS_CHECKMATE || o == CHESS_STALEMATE)
		ref_say(r, GAME_PUBLIC, ends[o].msg, now);
	else if (o == CHESS_DEAD_POSITION)
		ref_say(r, GAME_PRIVATE, ends[o].msg, now);
	ref_end_game(r, o == CHESS_CHECKMATE ? result_win(mover) : "1/2-1/2", TERMINATION_NORMAL,
		     ends[o].reason, "device", now);
}

/* ------------------------------------------------------------------ moves */

int ref_make_move(struct referee *r, chess_move m, uint64_t now)
{
	struct game *g = &r->g;
	struct chess_pos before = *game_position(g);
	struct game_record rec = ref_record(REC_MADE, now);
	struct game_effect fx = {.kind = GAME_FX_MOVE, .ms = now, .channel = GAME_PUBLIC};
	int mover = before.side, ply = game_plies(g);
	bool early = false;
	int64_t early_clk = -1;

	if (!chess_pos_is_legal(&before, m))
		return -1;
	/* An opponent's press that came first completes the move at once. */
	if (g->has_clock && mover != g->params.player && completion_has_early(&g->completion)) {
		early = true;
		early_clk = g->completion.early_presses.items[0];
	}
	rec.u.made.ply = ply + 1;
	rec.u.made.move = m;
	fx.before = before;
	fx.move = m;
	fx.ply = ply;
	ref_effect(r, &fx);
	if (ref_emit(r, &rec))
		return -1;
	if (r->board_ready)
		detect_commit(&r->det, m);
	check_outcome(r, now);
	if (!g->has_clock || early) {
		struct game_record done = ref_record(REC_COMPLETE, now);

		done.u.complete.ply = ply + 1;
		done.u.complete.clk_ms = early ? early_clk : -1;
		ref_emit(r, &done);
	}
	return 0;
}

/* ------------------------------------------------------------------ promotion */

bool ref_promotion_final(struct referee *r, uint64_t now)
{
	chess_move m = promotion_final_move(&r->g.promotion);

	if (m == CHESS_MOVE_NONE)
		return false;
	if (ref_make_move(r, m, now))
		ref_fault(r, now, "promotion move refused by the rules core");
	return true;
}

static void promotion_select(struct referee *r, uint64_t now)
{
	struct game_record rec = ref_record(REC_SELECT, now);
	struct game_effect fx = {.kind = GAME_FX_PIECE, .ms = now, .channel = GAME_PRIVATE};

	rec.u.select = promotion_next_choice(&r->g.promotion);
	if (ref_emit(r, &rec))
		return;
	fx.piece = rec.u.select;
	ref_effect(r, &fx);
}

/* Whether a pawn about to promote is off its hole: `select` pressed then already chooses
 * the piece for the promotion being made. */
static bool promotion_in_hand(const struct referee *r)
{
	const struct chess_pos *pos = game_position(&r->g);
	uint64_t rank = pos->side == CHESS_WHITE ? 0x00ff000000000000ull : 0x000000000000ff00ull;
	uint64_t pawns = pos->by_type[CHESS_PAWN] & pos->by_color[pos->side] & rank;

	return r->board_ready && (pawns & r->g.touched & ~r->det.sensed) != 0;
}

/* ------------------------------------------------------------------ mismatch */

void ref_mismatch_raise(struct referee *r, uint64_t empty, uint64_t occupied, uint64_t now)
{
	struct game_record rec = ref_record(REC_MISMATCH, now);

	rec.u.mismatch.empty = empty;
	rec.u.mismatch.occupied = occupied;
	r->guide_next = 0;
	if (ref_emit(r, &rec))
		return;
	if (r->g.params.mode == GAME_CASUAL && game_position(&r->g)->side == r->g.params.player)
		ref_say(r, GAME_PRIVATE, GAME_MSG_ILLEGAL_MOVE, now);
	ref_say(r, GAME_PRIVATE, GAME_MSG_MISMATCH, now);
}

static void mismatch_guide(struct referee *r, uint64_t now)
{
	uint64_t diff = detect_differences(&r->det);
	uint64_t occupied = chess_pos_occupancy(game_position(&r->g));
	struct game_effect fx = {.kind = GAME_FX_GUIDE, .ms = now, .channel = GAME_PRIVATE};
	int n = 0;

	if (!diff) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_BOARD_RESTORED, now);
		return;
	}
	/* Step through the differing squares, one per select press. */
	fx.square = -1;
	for (int i = 0; i < 64; i++) {
		if (!(diff >> i & 1))
			continue;
		if (n == r->guide_next % __builtin_popcountll(diff))
			fx.square = i;
		n++;
	}
	r->guide_next++;
	fx.occupied = occupied >> fx.square & 1;
	fx.piece = CHESS_PIECE_TYPE(chess_pos_piece_at(game_position(&r->g), fx.square));
	ref_effect(r, &fx);
}

static void restored(struct referee *r, bool by_move, uint64_t now)
{
	struct game_record rec = ref_record(REC_RESTORED, now);

	rec.u.restored_by_move = by_move;
	ref_emit(r, &rec);
}

/* ------------------------------------------------------------------ detection */

static void handle_detect(struct referee *r, const struct detect_result *res, uint64_t now)
{
	struct game *g = &r->g;
	const struct chess_pos *pos = game_position(g);

	switch (res->kind) {
	case DETECT_NONE:
		break;
	case DETECT_TOUCH: {
		struct game_record rec = ref_record(REC_TOUCH, now);

		rec.u.touch.square = res->square;
		rec.u.touch.piece = res->piece;
		ref_emit(r, &rec);
		/* A lift after a replicated promotion makes its choice final (DESIGN 3). */
		if (promotion_is_pending(&g->promotion) && pos->side != g->params.player)
			ref_promotion_final(r, now);
		break;
	}
	case DETECT_MOVE:
		if (mismatch_active(&g->mismatch))
			restored(r, true, now);
		if (res->promotion_pending) {
			/* The choice is kept: select steps since the last move, restored from the
			 * journal after a restart. */
			struct game_record rec = ref_record(REC_PROMOTION, now);

			rec.u.promotion = res->move;
			ref_emit(r, &rec);
			if (g->promotion.choice == CHESS_NO_PIECE)
				ref_say(r, GAME_PRIVATE, GAME_MSG_PROMOTION_PROMPT, now);
			break;
		}
		if (ref_make_move(r, res->move, now)) {
			ref_fault(r, now, "detected move refused by the rules core");
			detect_set_position(&r->det, pos);
		}
		break;
	case DETECT_UNEXPLAINED:
		if (mismatch_active(&g->mismatch))
			break;
		if (g->params.mode == GAME_TOURNAMENT && g->has_clock &&
		    pos->side == g->params.player) {
			/* The player's own move in progress: warning them before their press
			 * would be advice (Art. 11.3.1, trap 1).  Kept for the press. */
			struct game_record rec = ref_record(REC_HELD, now);

			rec.u.mismatch.empty = res->should_be_empty;
			rec.u.mismatch.occupied = res->should_be_occupied;
			ref_emit(r, &rec);
			break;
		}
		ref_mismatch_raise(r, res->should_be_empty, res->should_be_occupied, now);
		break;
	case DETECT_RESTORED:
		if (g->mismatch.state == MISMATCH_OPEN)
			ref_say(r, GAME_PRIVATE, GAME_MSG_BOARD_RESTORED, now);
		if (mismatch_active(&g->mismatch))
			restored(r, false, now);
		break;
	}
}

bool ref_detecting(const struct referee *r)
{
	return r->board_ready && !promotion_is_pending(&r->g.promotion) && !game_over(&r->g);
}

void ref_poll_detect(struct referee *r, uint64_t now)
{
	struct detect_result res;

	/* Bounded: each round consumes a move or settles the board. */
	for (int i = 0; i < 8 && ref_detecting(r); i++) {
		if (detect_deadline(&r->det) > now)
			break;
		if (detect_poll(&r->det, now, &res) == DETECT_NONE)
			break;
		handle_detect(r, &res, now);
	}
}

/* A clock press is a moment of stillness: a move whose last peg went in just before it
 * (or a rook set beside the king, which could still become castling) is made now, before
 * the press is taken, so it is announced before the opponent's clock starts (D.2.3). */
void ref_settle_now(struct referee *r, uint64_t now)
{
	struct detect_result res;

	for (int i = 0; i < 8 && ref_detecting(r); i++) {
		if (detect_flush(&r->det, now, &res) == DETECT_NONE)
			break;
		handle_detect(r, &res, now);
	}
}

void ref_board_ready(struct referee *r, uint64_t sensed, uint64_t now)
{
	const struct chess_pos *pos = game_position(&r->g);
	uint64_t expected = chess_pos_occupancy(pos);
	uint64_t touched = r->g.touched;

	detect_init(&r->det, &r->set.detect, pos, expected);
	r->board_ready = true;
	/* What happened on the board before a restart: the journaled touches (a captured
	 * piece's hole emptied) and the pegs as they stand now. */
	for (int sq = 0; sq < 64; sq++) {
		if (touched >> sq & 1) {
			detect_square(&r->det, sq, false, now, NULL);
			if (sensed >> sq & 1)
				detect_square(&r->det, sq, true, now, NULL);
		} else if ((sensed ^ expected) >> sq & 1) {
			detect_square(&r->det, sq, sensed >> sq & 1, now, NULL);
		}
	}
}

void ref_square(struct referee *r, int sq, bool occupied, uint64_t now)
{
	struct detect_result res;

	if (!r->board_ready || sq < 0 || sq > 63)
		return;
	/* After the end, pegs are taken away and put back: nothing to record, but the board
	 * is followed, so that clearing it and setting it up again starts the next game. */
	if (detect_square(&r->det, sq, occupied, now, &res) != DETECT_NONE && !game_over(&r->g))
		handle_detect(r, &res, now);
	if (game_over(&r->g) && r->det.sensed == 0)
		r->cleared = true;
}

/* `select`: a promotion's piece, or the next square that differs. */
void ref_select(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;

	/* A select press right after the new piece went in: the promotion is made now, so the
	 * press chooses its piece. */
	if (!promotion_is_pending(&g->promotion) && g->mismatch.state != MISMATCH_OPEN)
		ref_settle_now(r, now);
	if (promotion_is_pending(&g->promotion) || promotion_in_hand(r))
		promotion_select(r, now);
	else if (g->mismatch.state == MISMATCH_OPEN)
		mismatch_guide(r, now);
}
