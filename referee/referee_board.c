/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's board side (referee.h): what the sensors show becomes moves, touches, the
 * promotion and mismatch flows, and the game's end by the rules of Art. 5 and 9.6.
 */
#include "referee/referee_int.h"

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
	/* Online play (docs/online.md "Playing online"): the server decides the draws; mate and
	 * stalemate it decides as the device does. */
	if (r->g.params.mode == GAME_ONLINE && o != CHESS_CHECKMATE && o != CHESS_STALEMATE)
		return;
	/* Mate and stalemate end the game for everyone to hear (Art. 5.1.1, 5.2.1).  In a
	 * tournament a dead position is told to the tactile player alone, and a fivefold or
	 * 75-move draw goes to the arbiter (status), not the players (trap 1).  A dead position
	 * is said with its result: a draw (5.2.2; 2005 5.2 b) is not what every player knows it
	 * to mean. */
	if (r->g.params.mode != GAME_TOURNAMENT || o == CHESS_CHECKMATE || o == CHESS_STALEMATE)
		ref_say(r, GAME_PUBLIC, ends[o].msg, now);
	else if (o == CHESS_DEAD_POSITION)
		ref_say(r, GAME_PRIVATE, ends[o].msg, now);
	if (o == CHESS_DEAD_POSITION)
		ref_say(r, r->g.params.mode != GAME_TOURNAMENT ? GAME_PUBLIC : GAME_PRIVATE,
			GAME_MSG_RESULT_DRAW, now);
	ref_end_game(r, o == CHESS_CHECKMATE ? result_win(mover) : "1/2-1/2", TERMINATION_NORMAL,
		     ends[o].reason, "device", now);
}

/* ------------------------------------------------------------------ moves */

/* A move complete without a press of its own, at once: without a clock, or (counted by the
 * clock, which adds the time of a period it completes) when its mover's press came first. */
static void complete_now(struct referee *r, int ply, int64_t clk, bool count, uint64_t now)
{
	struct game_record rec = ref_record(REC_COMPLETE, now);
	struct chess_clock before = r->g.clock;

	rec.u.complete.ply = ply + 1;
	rec.u.complete.clk_ms = clk;
	/* A move the arbiter's counters already settled is not counted again. */
	if (r->g.plies[ply].flags & GAME_PLY_COUNTED)
		count = false;
	if (count && r->g.has_clock) {
		rec.u.complete.counted = true;
		rec.clock = r->g.clock;
		clock_count_move(&rec.clock, game_ply_color(&r->g, ply), now);
	}
	if (!ref_emit(r, &rec) && rec.u.complete.counted)
		ref_say_period_change(r, &before, now);
}

/* Art. 6.2.1.2: a move is also completed when its mover makes their next move, and the clock
 * counts it then (a forgotten press does not bring the next period late).  A move whose press
 * did not count (the clocks not started, an empty or illegal press, a forgotten press) so
 * gets no reading rather than a later move's. */
static void complete_waiting(struct referee *r, int mover, uint64_t now)
{
	int ply;

	while ((ply = completion_waiting(&r->g.completion, mover)) >= 0) {
		int before = r->g.completion.uncompleted[mover & 1].count;

		complete_now(r, ply, -1, true, now);
		if (r->g.completion.uncompleted[mover & 1].count == before)
			break;
	}
}

/* How many of the game's board events the move consumes: all but those the detector keeps
 * after it (a fast reply's).  The detector drops events only from the front (a move, a
 * board that matches again, an overflow), so what it keeps is the journal's last events. */
static int events_of(const struct referee *r, chess_move m)
{
	struct detect after;
	int n = r->g.board_event_count;

	if (!r->board_ready)
		return n;
	after = r->det;
	detect_commit(&after, m);
	return n > after.event_count ? n - after.event_count : 0;
}

int ref_make_move(struct referee *r, chess_move m, bool correction, const char *relayed_by,
		  uint64_t now)
{
	struct game *g = &r->g;
	struct chess_pos before = *game_position(g);
	struct game_record rec = ref_record(relayed_by ? REC_RELAYED : REC_MADE, now);
	struct game_effect fx = {.kind = GAME_FX_MOVE, .ms = now, .channel = GAME_PUBLIC};
	int mover = before.side, ply = game_plies(g);
	bool early = false;
	bool pressed_first = g->has_clock && mover == g->params.player && g->player_pressed_first;
	int64_t early_clk = -1;

	if (!chess_pos_is_legal(&before, m) || game_over(g))
		return -1;
	/* A move made before the engine's announcement was heard: its press comes first. */
	ref_engine_press_now(r, now);
	r->relay_guide = false;
	complete_waiting(r, mover, now);
	/* An opponent's press that came first completes the move at once. */
	if (g->has_clock && mover != g->params.player && completion_has_early(&g->completion)) {
		early = true;
		early_clk = g->completion.early_presses.items[0];
	}
	rec.u.made.ply = ply + 1;
	rec.u.made.move = m;
	rec.u.made.events = relayed_by ? 0 : events_of(r, m);
	if (relayed_by)
		snprintf(rec.author, sizeof(rec.author), "%s", relayed_by);
	fx.before = before;
	fx.move = m;
	fx.ply = ply;
	fx.correction = correction;
	fx.relayed = relayed_by != NULL;
	fx.echo = mover != g->params.player || r->engine.state == REFEREE_ENGINE_PLAYING;
	fx.report = r->report_next;
	r->report_next = 0;
	ref_effect(r, &fx);
	if (ref_emit(r, &rec))
		return -1;
	/* A relayed move the tactile board must then show: no moves are read from it until it
	 * does; a different move there opens the mismatch flow. */
	if (r->board_ready && relayed_by)
		detect_set_position(&r->det, game_position(g));
	else if (r->board_ready)
		detect_commit(&r->det, m);
	check_outcome(r, now);
	/* Online play: the player's move that ended the game goes to the server at once. */
	if (!relayed_by && g->params.mode == GAME_ONLINE)
		ref_online_final_move(r, now);
	/* The player's press came first (a press of an impossible board, or one with no move,
	 * switched the clocks, 7.5.1, 7.5.3): the move made after it is complete, without a
	 * reading of its own, and counted now (that press counted none).  An opponent's press
	 * that came first counted it already. */
	if (pressed_first)
		complete_now(r, ply, -1, true, now);
	else if (!g->has_clock || early)
		complete_now(r, ply, early ? early_clk : -1, false, now);
	return 0;
}

/* D.2.8: the move announced last leaves the game before its press; the board must then show
 * what comes instead (the detector follows from the position before it). */
int ref_withdraw_last(struct referee *r, const char *author, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_record(REC_WITHDRAWN, now);
	int last = game_plies(g) - 1;

	if (last < 0)
		return -1;
	rec.u.withdrawn.ply = last + 1;
	rec.u.withdrawn.move = g->plies[last].move;
	snprintf(rec.author, sizeof(rec.author), "%s", author);
	if (ref_emit(r, &rec))
		return -1;
	r->relay_guide = false;
	if (r->board_ready)
		detect_set_position(&r->det, game_position(g));
	return 0;
}

/* The legal move from the position before the tactile player's last move, other than that
 * move, whose board the sensors show now: the move the player changed theirs into after
 * announcing it.  CHESS_MOVE_NONE if there is none (or only a promotion, whose piece the
 * sensors cannot tell). */
chess_move ref_changed_move(const struct referee *r)
{
	const struct game *g = &r->g;
	int last = game_plies(g) - 1;
	struct chess_pos before;
	struct chess_move_list list;
	int n;

	if (!r->board_ready || last < 0 || game_ply_color(g, last) != g->params.player)
		return CHESS_MOVE_NONE;
	game_position_before(g, last, &before);
	n = chess_pos_legal_moves(&before, &list);
	for (int i = 0; i < n; i++) {
		struct chess_pos after = before;
		struct chess_undo undo;
		chess_move m = list.moves[i];

		if (m == g->plies[last].move || chess_move_kind(m) == CHESS_MOVE_PROMOTION)
			continue;
		chess_pos_make(&after, m, &undo);
		if (chess_pos_occupancy(&after) == r->det.sensed)
			return m;
	}
	return CHESS_MOVE_NONE;
}

/* ------------------------------------------------------------------ promotion */

bool ref_promotion_final(struct referee *r, uint64_t now)
{
	chess_move m = promotion_final_move(&r->g.promotion);

	if (m == CHESS_MOVE_NONE)
		return false;
	if (ref_make_move(r, m, false, NULL, now))
		ref_fault(r, now, "promotion move refused by the rules core");
	return true;
}

static void promotion_set(struct referee *r, chess_move m, uint64_t now)
{
	struct game_record rec = ref_record(REC_PROMOTION, now);

	rec.u.promotion = m;
	ref_emit(r, &rec);
}

/* The board no longer shows the promotion that waits for its piece (the pawn put back,
 * another move made instead): it is withdrawn, and the board is read again. */
static void promotion_recheck(struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;
	struct chess_pos after = *game_position(g);
	struct chess_undo undo;

	if (!promotion_is_pending(&g->promotion) || !r->board_ready || r->det.dirty)
		return;
	chess_pos_make(&after, g->promotion.move, &undo);
	if (chess_pos_occupancy(&after) != r->det.sensed)
		promotion_set(r, CHESS_MOVE_NONE, now);
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
	if (r->g.params.mode != GAME_TOURNAMENT && game_position(&r->g)->side == r->g.params.player)
		ref_say(r, GAME_PRIVATE, GAME_MSG_ILLEGAL_MOVE, now);
	ref_say(r, GAME_PRIVATE, GAME_MSG_MISMATCH, now);
}

/* A held mismatch opens now (the player's press, the pause button, the opponent's reply). */
void ref_mismatch_open_held(struct referee *r, uint64_t now)
{
	uint64_t diff = referee_board_differences(r);
	uint64_t occ = chess_pos_occupancy(game_position(&r->g));

	if (r->g.mismatch.state == MISMATCH_HELD)
		ref_mismatch_raise(r, diff & ~occ, diff & occ, now);
}

/* Whether a piece of the tactile player's opponent has left its square on the board: the
 * opponent's reply is being made there. */
static bool opponent_moved(const struct referee *r)
{
	const struct chess_pos *pos = game_position(&r->g);
	uint64_t gone = chess_pos_occupancy(pos) & ~r->det.sensed;

	return (gone & pos->by_color[!r->g.params.player]) != 0;
}

/* The tactile player's own move is in progress: their turn, or their move made and, with a
 * clock, not yet completed by their press; without a clock, until the opponent's reply
 * reaches the board.  Their board is theirs until then (Art. 11.3.1). */
static bool own_move_in_progress(const struct referee *r)
{
	const struct game *g = &r->g;
	int player = g->params.player, last = game_plies(g) - 1;

	if (game_position(g)->side == player)
		return true;
	if (last < 0 || game_ply_color(g, last) != player)
		return false;
	if (g->has_clock)
		return completion_waiting(&g->completion, player) == last;
	return !opponent_moved(r);
}

/* The board has not yet shown the opponent's move an assistant relayed (D.2.10): what it
 * shows is the replication of that move, not the player's own move, so a difference is
 * said at once; naming it is no advice on the player's move. */
static bool replicating_relayed(const struct referee *r)
{
	const struct game *g = &r->g;
	int last = game_plies(g) - 1;

	return r->det.setting_up && last >= 0 && (g->plies[last].flags & GAME_PLY_RELAYED) &&
	       game_ply_color(g, last) != g->params.player;
}

/* The relayed move is not begun on the board: it shows the position before it. */
static bool relay_untouched(const struct referee *r)
{
	const struct game *g = &r->g;
	struct chess_pos before;

	if (!replicating_relayed(r))
		return false;
	game_position_before(g, game_plies(g) - 1, &before);
	return r->det.sensed == chess_pos_occupancy(&before);
}

/* The next differing square, named with what belongs there (or confirmed). */
static void guide(struct referee *r, int sq, bool confirmed, uint64_t now)
{
	const struct chess_pos *pos = game_position(&r->g);
	struct game_effect fx = {.kind = GAME_FX_GUIDE, .ms = now, .channel = GAME_PRIVATE};

	fx.square = sq;
	fx.occupied = (chess_pos_occupancy(pos) >> sq & 1) != 0;
	fx.piece = CHESS_PIECE_TYPE(chess_pos_piece_at(pos, sq));
	fx.confirmed = confirmed;
	ref_effect(r, &fx);
}

static void mismatch_guide(struct referee *r, uint64_t now)
{
	uint64_t diff = detect_differences(&r->det);

	if (!diff) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_BOARD_RESTORED, now);
		return;
	}
	guide(r, ref_next_differing_square(r, diff), false, now);
}

int ref_next_differing_square(struct referee *r, uint64_t diff)
{
	int n = 0, sq = -1;

	/* Step through the differing squares, one per select press. */
	for (int i = 0; i < 64; i++) {
		if (!(diff >> i & 1))
			continue;
		if (n == r->guide_next % __builtin_popcountll(diff))
			sq = i;
		n++;
	}
	r->guide_next++;
	return sq;
}

static void restored(struct referee *r, bool by_move, uint64_t now)
{
	struct game_record rec = ref_record(REC_RESTORED, now);

	rec.u.restored_by_move = by_move;
	ref_emit(r, &rec);
}

void ref_restored(struct referee *r, bool by_move, uint64_t now)
{
	restored(r, by_move, now);
}

/* Set-up after the arbiter retraced the game: said privately, the first square named. */
void ref_setup_begin(struct referee *r, uint64_t now)
{
	ref_setup_begin_with(r, GAME_MSG_SETUP, now);
}

/* The same, said with `msg` (a takeback's). */
void ref_setup_begin_with(struct referee *r, enum game_msg msg, uint64_t now)
{
	uint64_t diff;

	if (!r->board_ready)
		return;
	detect_set_position(&r->det, game_position(&r->g));
	r->guide_next = 0;
	ref_say(r, GAME_PRIVATE, msg, now);
	diff = detect_differences(&r->det);
	if (diff)
		guide(r, __builtin_ctzll(diff), false, now);
}

/* A square of the set-up that became right is confirmed, and the next one named; once the
 * board is still and right, the game goes on. */
static void setup_square(struct referee *r, int sq, uint64_t before, uint64_t now)
{
	uint64_t occ = chess_pos_occupancy(game_position(&r->g));
	uint64_t diff = r->det.sensed ^ occ;

	if (!(((before ^ occ) >> sq) & 1) || (diff >> sq & 1))
		return; /* it was right, or it is still wrong */
	guide(r, sq, true, now);
	if (diff)
		guide(r, __builtin_ctzll(diff), false, now);
}

static void setup_check_done(struct referee *r, uint64_t now)
{
	if (r->g.mismatch.state != MISMATCH_SETUP || !r->board_ready || r->det.dirty ||
	    detect_differences(&r->det))
		return;
	restored(r, false, now);
	ref_say(r, GAME_PRIVATE, GAME_MSG_SETUP_DONE, now);
}

/* ------------------------------------------------------------------ detection */

static void handle_detect(struct referee *r, const struct detect_result *res, uint64_t now)
{
	struct game *g = &r->g;
	const struct chess_pos *pos = game_position(g);

	switch (res->kind) {
	case DETECT_NONE:
		break;
	case DETECT_TOUCH:
		/* The touch is in the lift's record.  A lift after a replicated promotion makes
		 * its choice final (docs/arbiter.md "Behaviour the Laws ask for"). */
		if (promotion_is_pending(&g->promotion) && pos->side != g->params.player)
			ref_promotion_final(r, now);
		break;
	case DETECT_MOVE:
		if (g->mismatch.state == MISMATCH_SETUP)
			break; /* the set-up is not done: no moves until the board matches */
		if (res->promotion_pending) {
			if (promotion_is_pending(&g->promotion) &&
			    chess_move_from(g->promotion.move) == chess_move_from(res->move) &&
			    chess_move_to(g->promotion.move) == chess_move_to(res->move))
				break;
			if (mismatch_active(&g->mismatch))
				restored(r, true, now);
			/* The choice is kept: select steps since the last move, restored from the
			 * journal after a restart. */
			promotion_set(r, res->move, now);
			if (g->promotion.choice == CHESS_NO_PIECE)
				ref_say(r, GAME_PRIVATE, GAME_MSG_PROMOTION_PROMPT, now);
			break;
		}
		if (promotion_is_pending(&g->promotion))
			promotion_set(r, CHESS_MOVE_NONE, now); /* another move made instead */
		if (mismatch_active(&g->mismatch))
			restored(r, true, now);
		if (ref_make_move(r, res->move, false, NULL, now)) {
			ref_fault(r, now, "detected move refused by the rules core");
			detect_set_position(&r->det, pos);
		}
		break;
	case DETECT_UNEXPLAINED:
		if (promotion_is_pending(&g->promotion))
			promotion_set(r, CHESS_MOVE_NONE, now);
		if (mismatch_active(&g->mismatch))
			break;
		if (relay_untouched(r)) {
			/* Nobody has begun to replicate the relayed move yet: nothing is wrong;
			 * the board is watched again from now. */
			detect_set_position(&r->det, pos);
			break;
		}
		if (g->params.mode == GAME_TOURNAMENT && own_move_in_progress(r) &&
		    !replicating_relayed(r)) {
			/* Warning the player before their move is complete would be advice
			 * (Art. 11.3.1, trap 1): kept for their press (or, without a clock, the
			 * opponent's reply or the pause button). */
			struct game_record rec = ref_record(REC_HELD, now);

			rec.u.mismatch.empty = res->should_be_empty;
			rec.u.mismatch.occupied = res->should_be_occupied;
			ref_emit(r, &rec);
			break;
		}
		ref_mismatch_raise(r, res->should_be_empty, res->should_be_occupied, now);
		break;
	case DETECT_RESTORED:
		if (promotion_is_pending(&g->promotion))
			promotion_set(r, CHESS_MOVE_NONE, now);
		if (g->mismatch.state == MISMATCH_OPEN)
			ref_say(r, GAME_PRIVATE, GAME_MSG_BOARD_RESTORED, now);
		if (g->mismatch.state == MISMATCH_SETUP)
			ref_say(r, GAME_PRIVATE, GAME_MSG_SETUP_DONE, now);
		if (mismatch_active(&g->mismatch))
			restored(r, false, now);
		break;
	}
}

bool ref_detecting(const struct referee *r)
{
	/* A review has the board: its pegs are no moves of the game. */
	return r->board_ready && !game_over(&r->g) && !review_active(&r->review);
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
	if (ref_detecting(r)) {
		promotion_recheck(r, now);
		setup_check_done(r, now);
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

/*
 * After a restart the board may show a move in progress whose touches the journal lost (a
 * power cut before they reached storage, or a journal cut short): when exactly one legal
 * move from the position explains the board, its events go to the detector in the order it
 * is made (an en-passant victim first, then the mover lifted and set down), so it is made
 * as on the board, not taken for a mismatch.  Promotions to different pieces are one move
 * (the piece is asked for).  A capture whose victim still stands in the journal is not
 * shown by the board: its holes look as when the capturing piece is held in the hand, so
 * it stays for the detector to follow.  Returns whether a move was found.
 */
static bool move_in_progress(struct referee *r, uint64_t sensed, uint64_t *t)
{
	const struct chess_pos *pos = game_position(&r->g);
	struct chess_move_list list;
	chess_move found = CHESS_MOVE_NONE;
	uint64_t before = r->det.sensed, lifts, places;
	int victim = -1;

	if (before == sensed)
		return false;
	chess_pos_legal_moves(pos, &list);
	for (int i = 0; i < list.count; i++) {
		struct chess_pos after = *pos;
		struct chess_undo undo;
		chess_move m = list.moves[i];

		if (chess_pos_captured_piece(pos, m) != CHESS_NO_PIECE &&
		    chess_move_capture_square(pos, m) == chess_move_to(m) &&
		    (before >> chess_move_to(m) & 1))
			continue;
		chess_pos_make(&after, m, &undo);
		if (chess_pos_occupancy(&after) != sensed)
			continue;
		if (found != CHESS_MOVE_NONE && (chess_move_from(found) != chess_move_from(m) ||
						 chess_move_to(found) != chess_move_to(m)))
			return false; /* two moves show the same board: the board cannot tell */
		found = m;
	}
	if (found == CHESS_MOVE_NONE)
		return false;
	if (chess_pos_captured_piece(pos, found) != CHESS_NO_PIECE) {
		int sq = chess_move_capture_square(pos, found);

		/* An en-passant victim, taken off the board first. */
		if (sq != chess_move_to(found) && (before >> sq & 1))
			victim = sq;
	}
	lifts = before & ~sensed;
	places = sensed & ~before;
	if (victim >= 0) {
		detect_square(&r->det, victim, false, (*t)++, NULL);
		lifts &= ~(1ull << victim);
	}
	/* The mover's own square first, then the rest (a castling rook). */
	if (lifts >> chess_move_from(found) & 1) {
		detect_square(&r->det, chess_move_from(found), false, (*t)++, NULL);
		lifts &= ~(1ull << chess_move_from(found));
	}
	if (places >> chess_move_to(found) & 1) {
		detect_square(&r->det, chess_move_to(found), true, (*t)++, NULL);
		places &= ~(1ull << chess_move_to(found));
	}
	for (int sq = 0; sq < 64; sq++)
		if (lifts >> sq & 1)
			detect_square(&r->det, sq, false, (*t)++, NULL);
	for (int sq = 0; sq < 64; sq++)
		if (places >> sq & 1)
			detect_square(&r->det, sq, true, (*t)++, NULL);
	return true;
}

void ref_board_ready(struct referee *r, uint64_t sensed, uint64_t now)
{
	const struct game *g = &r->g;
	const struct chess_pos *pos = game_position(g);
	int last = game_plies(g) - 1;
	uint64_t t = now;

	detect_init(&r->det, &r->set.detect, pos, chess_pos_occupancy(pos));
	r->board_ready = true;
	/* What happened on the board before a restart, in its order (a captured piece's hole
	 * emptied first), a millisecond apart; then the pegs as they stand now. */
	for (int i = 0; i < g->board_event_count; i++)
		detect_square(&r->det, g->board_events[i].square, g->board_events[i].occupied, t++,
			      NULL);
	if (!r->resumed || game_over(g) || mismatch_active(&g->mismatch) ||
	    !move_in_progress(r, sensed, &t))
		for (int sq = 0; sq < 64; sq++)
			if ((sensed ^ r->det.sensed) >> sq & 1)
				detect_square(&r->det, sq, sensed >> sq & 1, t, NULL);
	/* A position the board must still be set up to: after the arbiter retraced the game,
	 * or a relayed move the board does not show yet. */
	if (g->mismatch.state == MISMATCH_SETUP ||
	    (last >= 0 && (g->plies[last].flags & GAME_PLY_RELAYED) && !g->board_event_count))
		detect_set_position(&r->det, pos);
}

void ref_square(struct referee *r, int sq, bool occupied, uint64_t now)
{
	struct game *g = &r->g;
	struct detect_result res;
	uint64_t before = r->det.sensed;
	enum detect_kind kind;

	if (!r->board_ready || sq < 0 || sq > 63)
		return;
	if (review_active(&r->review)) {
		/* The sensed board is followed; the review guides it (referee_review.c). */
		detect_square(&r->det, sq, occupied, now, &res);
		ref_review_square(r, sq, occupied, before, now);
		return;
	}
	kind = detect_square(&r->det, sq, occupied, now, &res);
	/* After the end, pegs are taken away and put back: nothing to record, but the board
	 * is followed, so that clearing it and setting it up again starts the next game. */
	if (game_over(g)) {
		if (r->det.sensed == 0)
			r->cleared = true;
		/* The engine's last move (a mate) is still made on the board, guided. */
		if (r->relay_guide)
			ref_train_square(r, sq, before, now);
		return;
	}
	if (r->det.sensed != before) {
		struct game_record rec = ref_record(occupied ? REC_PLACE : REC_LIFT, now);

		rec.u.peg.square = sq;
		rec.u.peg.piece = kind == DETECT_TOUCH ? res.piece : 0;
		ref_emit(r, &rec);
	}
	if (kind != DETECT_NONE)
		handle_detect(r, &res, now);
	if (g->mismatch.state == MISMATCH_SETUP)
		setup_square(r, sq, before, now);
	else if (r->relay_guide)
		ref_train_square(r, sq, before, now);
	/* Without a clock, a held mismatch opens when the opponent's reply reaches the board. */
	if (g->mismatch.state == MISMATCH_HELD && !g->has_clock && opponent_moved(r))
		ref_mismatch_open_held(r, now);
}

/* `select`: a promotion's piece, or the next square that differs. */
void ref_select(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;
	enum mismatch_state m = g->mismatch.state;

	/* A select press right after the new piece went in: the promotion is made now, so the
	 * press chooses its piece. */
	if (!promotion_is_pending(&g->promotion) && m != MISMATCH_OPEN && m != MISMATCH_SETUP)
		ref_settle_now(r, now);
	if (promotion_is_pending(&g->promotion) || promotion_in_hand(r))
		promotion_select(r, now);
	else if (m == MISMATCH_OPEN || m == MISMATCH_SETUP)
		mismatch_guide(r, now);
}
