/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's clock side: presses (Art. 6.2, 6.6, 7.5.1), pause and resume (6.11.2), the
 * flag (6.9), the private warnings and `info` (D.2.6.1).  Every change of the clock is
 * worked out on a copy and goes into the game as a record carrying the clock after it.
 */
#include "game/referee_int.h"

#include <stdio.h>
#include <string.h>

static void press_record(struct referee *r, int color, enum press_kind kind,
			 const struct chess_clock *after, uint64_t now)
{
	struct game_record rec = ref_record(REC_PRESS, now);

	rec.u.press.color = color;
	rec.u.press.kind = kind;
	rec.clock = *after;
	ref_emit(r, &rec);
}

static void complete(struct referee *r, int ply, int64_t clk, uint64_t now)
{
	struct game_record rec = ref_record(REC_COMPLETE, now);

	rec.u.complete.ply = ply + 1;
	rec.u.complete.clk_ms = clk;
	ref_emit(r, &rec);
}

/* Art. 6.9: a flag fell; a draw if the opponent cannot checkmate by any legal series ("*"
 * where that is not proven either way: the arbiter decides).  The result waits for the
 * arbiter and the players (6.8, 8.7). */
static void flag_fell(struct referee *r, const struct chess_clock *after, uint64_t now)
{
	struct game_record rec = ref_record(REC_FLAG, now);
	int flagged = after->flagged, winner = !flagged;

	rec.u.flag.color = flagged;
	snprintf(rec.u.flag.result, sizeof(rec.u.flag.result), "%s", ref_mate_result(r, winner));
	rec.clock = *after;
	if (ref_emit(r, &rec) == 0)
		ref_say(r, GAME_PUBLIC,
			flagged == CHESS_WHITE ? GAME_MSG_FLAG_WHITE : GAME_MSG_FLAG_BLACK, now);
}

void ref_check_flag(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;
	struct chess_clock c;

	if (!g->has_clock || g->result.state != RESULT_ON || clock_flag_deadline(&g->clock) > now)
		return;
	c = g->clock;
	if (clock_check_flag(&c, now) >= 0)
		flag_fell(r, &c, now);
}

/* After the end only the press that completes the game's last move still counts; it also
 * stops the clocks. */
static void press_after_end(struct referee *r, int color, uint64_t now)
{
	struct game *g = &r->g;
	int ply = completion_waiting(&g->completion, color);
	struct chess_clock c = g->clock;

	if (ply < 0 || c.state != CLOCK_RUNNING || c.running != color ||
	    clock_press(&c, color, now) != CLOCK_PRESS_MOVE)
		return;
	clock_stop(&c, now);
	press_record(r, color, PRESS_MOVE, &c, now);
	complete(r, ply, c.last_press_ms[color], now);
}

void ref_press(struct referee *r, int color, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;
	enum clock_state before;
	enum clock_press_result rc;
	struct chess_clock c;
	int ply;

	if (!g->has_clock)
		return;
	if (game_over(g)) {
		press_after_end(r, color, now);
		return;
	}
	ref_settle_now(r, now);
	if (promotion_is_pending(&g->promotion)) {
		if (game_position(g)->side == player && color == player &&
		    g->promotion.choice == CHESS_NO_PIECE) {
			/* Trap 2: never a silent queen.  The press does not count. */
			press_record(r, color, PRESS_REFUSED, &g->clock, now);
			ref_say(r, GAME_PRIVATE, GAME_MSG_PROMOTION_NEEDED, now);
			return;
		}
		if (game_position(g)->side != player || color == player)
			ref_promotion_final(r, now);
	}
	before = g->clock.state;
	if (before == CLOCK_PAUSED) {
		/* The clocks stand (for the arbiter, or after a restart until `pause`): the press
		 * completes the mover's move, without a reading, and reminds the player. */
		press_record(r, color, PRESS_PAUSED, &g->clock, now);
		ply = completion_waiting(&g->completion, color);
		if (ply >= 0)
			complete(r, ply, -1, now);
		if (color == player)
			ref_say(r, GAME_PRIVATE, GAME_MSG_PAUSED, now);
		return;
	}
	c = g->clock;
	rc = clock_press(&c, color, now);
	if (before == CLOCK_NOT_STARTED) {
		press_record(r, color, rc == CLOCK_PRESS_STARTED ? PRESS_START : PRESS_IDLE, &c,
			     now);
		if (rc == CLOCK_PRESS_STARTED)
			ref_say(r, GAME_PRIVATE, GAME_MSG_GAME_START, now);
		return;
	}
	if (rc == CLOCK_PRESS_FLAGGED) {
		/* The press came after the flag fell and before any tick saw it (real time):
		 * the flag is what happened. */
		if (g->result.state == RESULT_ON)
			flag_fell(r, &c, now);
		return;
	}
	if (rc != CLOCK_PRESS_MOVE) {
		press_record(r, color, PRESS_IDLE, &c, now);
		return;
	}
	if (color == player && referee_board_differences(r)) {
		chess_move changed = ref_changed_move(r);

		if (changed != CHESS_MOVE_NONE &&
		    completion_waiting(&g->completion, player) == game_plies(g) - 1) {
			/* The move was changed after it was announced (e2-e3, then on to e4): the
			 * correction is said before the opponent's clock starts; the first move
			 * stays in the journal and a comment (4.7 gives the opponent a claim). */
			ref_withdraw_last(r, "device", now);
			ref_make_move(r, changed, true, NULL, now);
		}
	}
	if (color == player && referee_board_differences(r)) {
		/* Art. 7.5.1: a move is completed by the press, even an illegal one; the board
		 * no legal move explains opens the arbiter's flow now, whether or not its
		 * mismatch time has passed. */
		uint64_t diff = referee_board_differences(r);
		uint64_t occ = chess_pos_occupancy(game_position(g));

		press_record(r, color, PRESS_ILLEGAL, &c, now);
		/* The press completes the move the player made before it (7.5.1), without a
		 * reading: the reading is the impossible board's. */
		ply = completion_waiting(&g->completion, player);
		if (ply >= 0)
			complete(r, ply, -1, now);
		if (g->mismatch.state == MISMATCH_HELD)
			ref_mismatch_open_held(r, now);
		else if (!mismatch_active(&g->mismatch))
			ref_mismatch_raise(r, diff & ~occ, diff & occ, now);
		return;
	}
	if (color == player && completion_waiting(&g->completion, player) < 0) {
		/* Art. 7.5.3: a press with no move made is an illegal move.  The clocks switched;
		 * the player, who cannot see it, is told; the arbiter sees it in status. */
		press_record(r, color, PRESS_EMPTY, &c, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_PRESS_NO_MOVE, now);
		return;
	}
	/* The press that settled a game-ending move also stops the clocks. */
	if (game_over(g))
		clock_stop(&c, now);
	press_record(r, color, PRESS_MOVE, &c, now);
	ply = completion_waiting(&g->completion, color);
	if (ply >= 0)
		complete(r, ply, c.last_press_ms[color], now);
	for (int i = 0; i < r->set.warning_count; i++)
		if (clock_remaining(&g->clock, player, now) > (int64_t)r->set.warnings_s[i] * 1000)
			r->warned[i] = false;
}

void ref_pause(struct referee *r, bool pause, const char *author, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_record(pause ? REC_PAUSE : REC_RESUME, now);

	if (!g->has_clock || game_over(g) ||
	    g->clock.state != (pause ? CLOCK_RUNNING : CLOCK_PAUSED))
		return;
	rec.clock = g->clock;
	if (pause)
		clock_pause(&rec.clock, now);
	else
		clock_resume(&rec.clock, now);
	snprintf(rec.author, sizeof(rec.author), "%s", author);
	if (ref_emit(r, &rec) == 0)
		ref_say(r, GAME_PRIVATE, pause ? GAME_MSG_PAUSED : GAME_MSG_RESUMED, now);
}

void ref_info(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;
	struct game_effect fx = {.kind = GAME_FX_TIMES, .ms = now, .channel = GAME_PRIVATE};

	fx.has_clock = g->has_clock;
	fx.move_number = game_position(g)->fullmove_number;
	/* D.2.6.1, D.2.10.4: the number of moves made, not the position's move number. */
	if (game_plies(g) > 0)
		fx.moves_made =
		    g->start.fullmove_number + (game_plies(g) - 1 + (int)g->start.side) / 2;
	if (g->has_clock) {
		fx.white_used_ms = (int64_t)clock_used(&g->clock, CHESS_WHITE, now);
		fx.black_used_ms = (int64_t)clock_used(&g->clock, CHESS_BLACK, now);
		fx.white_ms = clock_remaining(&g->clock, CHESS_WHITE, now);
		fx.black_ms = clock_remaining(&g->clock, CHESS_BLACK, now);
		if (fx.white_ms < 0)
			fx.white_ms = 0;
		if (fx.black_ms < 0)
			fx.black_ms = 0;
	}
	/* Delay mode: the delay still left of the side whose clock runs (the main time
	 * stands until it is spent). */
	fx.delay_ms = -1;
	if (g->has_clock && (g->clock.state == CLOCK_RUNNING || g->clock.state == CLOCK_PAUSED)) {
		fx.delay_color = g->clock.running;
		fx.delay_ms = clock_delay_left(&g->clock, g->clock.running, now);
	}
	ref_effect(r, &fx);
}

static bool player_clock_runs(const struct referee *r)
{
	const struct game *g = &r->g;

	return g->has_clock && g->clock.state == CLOCK_RUNNING &&
	       g->clock.running == g->params.player;
}

void ref_check_warnings(struct referee *r, uint64_t now)
{
	int player = r->g.params.player;
	int64_t left;

	if (!player_clock_runs(r))
		return;
	left = clock_remaining(&r->g.clock, player, now);
	for (int i = 0; i < r->set.warning_count; i++) {
		struct game_effect fx = {
		    .kind = GAME_FX_WARNING, .ms = now, .channel = GAME_PRIVATE, .has_clock = true};

		if (r->warned[i] || left > (int64_t)r->set.warnings_s[i] * 1000)
			continue;
		r->warned[i] = true;
		fx.white_ms = left > 0 ? left : 0;
		ref_effect(r, &fx);
	}
}

uint64_t ref_clock_deadline(const struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;
	uint64_t best = UINT64_MAX;
	int64_t left;

	if (!g->has_clock || g->result.state != RESULT_ON)
		return best;
	best = clock_flag_deadline(&g->clock);
	if (!player_clock_runs(r))
		return best;
	left = clock_remaining(&g->clock, g->params.player, now);
	for (int i = 0; i < r->set.warning_count; i++) {
		int64_t at = (int64_t)r->set.warnings_s[i] * 1000;

		/* Due when the reading reaches the threshold, so at it too. */
		if (!r->warned[i] && left >= at && now + (uint64_t)(left - at) < best)
			best = now + (uint64_t)(left - at);
	}
	return best;
}
