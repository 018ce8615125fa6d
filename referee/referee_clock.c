/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's clock side: presses (Art. 6.2, 6.6, 7.5.1), pause and resume (6.11), the
 * flag (6.4, 6.9), the private warnings and `info` (D.2.6.1).  Every change of the clock is
 * worked out on a copy and goes into the game as a record carrying the clock after it.
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

void ref_press_record(struct referee *r, int color, enum press_kind kind,
		      const struct chess_clock *after, uint64_t now)
{
	struct game_record rec = ref_record(REC_PRESS, now);

	rec.u.press.color = color;
	rec.u.press.kind = kind;
	rec.clock = *after;
	ref_emit(r, &rec);
}

/* A move completed by a press: its reading, unless the move was waiting for its press when
 * the clock was put together after a restart (game.h: readings_lost_before). */
void ref_complete(struct referee *r, int ply, int64_t clk, uint64_t now)
{
	struct game_record rec = ref_record(REC_COMPLETE, now);

	rec.u.complete.ply = ply + 1;
	rec.u.complete.clk_ms = ply < r->g.readings_lost_before ? -1 : clk;
	ref_emit(r, &rec);
}

void ref_say_period_change(struct referee *r, const struct chess_clock *before, uint64_t now)
{
	const struct game *g = &r->g;
	const struct chess_clock *after = &g->clock;
	int color = g->params.player;
	const struct tc_period *ended = &before->tc.periods[before->period[color]];
	struct game_effect fx = {.kind = GAME_FX_SAY, .ms = now, .channel = GAME_PRIVATE};
	int64_t carried;

	if (!g->has_clock || after->moves[color] <= before->moves[color] ||
	    after->moves_in_period[color] != 0 || ended->moves == 0 ||
	    (ended->mode != TC_DELAY && ended->mode != TC_BRONSTEIN))
		return;
	carried = clock_remaining(after, color, now) -
		  (int64_t)after->tc.periods[after->period[color]].base_ms;
	fx.msg =
	    color == CHESS_WHITE ? GAME_MSG_PERIOD_CARRIED_WHITE : GAME_MSG_PERIOD_CARRIED_BLACK;
	fx.has_clock = true;
	fx.white_ms = carried > 0 ? carried : 0;
	ref_effect(r, &fx);
}

/* How a fallen flag is said: [clock] flag-announce, by default as the edition's rules for the
 * kind of game say (the 2005 rapid and blitz rules keep the arbiter from pointing it out, B7:
 * then the tactile player alone hears it, as a sighted player sees the display). */
static void say_flag(struct referee *r, int flagged, uint64_t now)
{
	const struct game *g = &r->g;
	enum game_msg msg = flagged == CHESS_WHITE ? GAME_MSG_FLAG_WHITE : GAME_MSG_FLAG_BLACK;
	enum flag_announce how = r->set.flag_announce;

	if (how == FLAG_ANNOUNCE_LAWS)
		how = g->rules->flag_pointed_out[rules_kind(g->rules, &g->tc)]
			  ? FLAG_ANNOUNCE_PUBLIC
			  : FLAG_ANNOUNCE_PRIVATE;
	if (how == FLAG_ANNOUNCE_PUBLIC)
		ref_say(r, GAME_PUBLIC, msg, now);
	else if (how == FLAG_ANNOUNCE_PRIVATE)
		ref_say(r, GAME_PRIVATE, msg, now);
}

/* Art. 6.9 (2005: 6.10): a flag fell; a draw if the opponent cannot checkmate by any legal
 * series ("*" where that is not proven either way: the arbiter decides).  The result waits
 * for the arbiter and the players (6.8, 8.7).  A flag whose period's moves were made but not
 * all completed (6.4: the device cannot tell) waits for the arbiter alone ("*" too), said to
 * no one but as stopped clocks to the player. */
static void flag_fell(struct referee *r, const struct chess_clock *after, bool doubt, uint64_t now)
{
	struct game_record rec = ref_record(REC_FLAG, now);
	int flagged = after->flagged, winner = !flagged;

	rec.u.flag.color = flagged;
	snprintf(rec.u.flag.result, sizeof(rec.u.flag.result), "%s",
		 doubt ? "*" : ref_mate_result(r, winner));
	rec.clock = *after;
	if (ref_emit(r, &rec) != 0)
		return;
	if (doubt)
		ref_say(r, GAME_PRIVATE, GAME_MSG_PAUSED, now);
	else
		say_flag(r, flagged, now);
}

/* Art. 6.4 (2005: 6.3): right after a flag falls, the moves the period asks for are checked,
 * before anything is said or recorded.  The clock counts completed moves; a completed move of
 * the running side that it has not counted (a journal of a version that counted presses) is
 * counted now, with the time of a period it completes.  True, with the clock whose flag
 * fell in *out, if the flag still stands; *doubt then says whether the period's moves were
 * made on the board though not all completed as far as the device can tell: the opponent's
 * moves waiting for a press when a press of theirs was ignored (their board is not seen: the
 * move it was for took a later press), or, where the edition's check asks for moves made
 * (2005 6.2 a), the player's. */
static bool flag_stands(struct referee *r, uint64_t now, struct chess_clock *out, bool *doubt)
{
	struct game *g = &r->g;
	int color = g->clock.running;
	const struct tc_period *p;
	int waiting;

	for (int i = g->recount_from < 0 ? 0 : g->recount_from; i < game_plies(g); i++) {
		const struct game_ply *ply = &g->plies[i];
		struct game_record rec = ref_record(REC_COMPLETE, now);

		if (game_ply_color(g, i) != color ||
		    (ply->flags & (GAME_PLY_COMPLETE | GAME_PLY_COUNTED)) != GAME_PLY_COMPLETE)
			continue;
		rec.u.complete.ply = i + 1;
		rec.u.complete.clk_ms = ply->clk_ms;
		rec.u.complete.counted = true;
		rec.clock = g->clock;
		clock_count_move(&rec.clock, color, now);
		if (ref_emit(r, &rec))
			break;
	}
	*out = g->clock;
	if (clock_check_flag(out, now) < 0)
		return false;
	p = &out->tc.periods[out->period[color]];
	waiting = g->completion.uncompleted[color].count;
	*doubt = p->moves > 0 && waiting > 0 && out->moves_in_period[color] + waiting >= p->moves &&
		 (g->rules->moves_check_made ||
		  (color != g->params.player && g->ignored_presses[color] > 0));
	return true;
}

void ref_check_flag(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;
	struct chess_clock c;
	bool doubt = false;

	/* Online play: the server's clock is the clock, and the server decides a flag. */
	if (!g->has_clock || g->result.state != RESULT_ON || g->params.mode == GAME_ONLINE ||
	    clock_flag_deadline(&g->clock) > now)
		return;
	if (flag_stands(r, now, &c, &doubt))
		flag_fell(r, &c, doubt, now);
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
	ref_press_record(r, color, PRESS_MOVE, &c, now);
	ref_complete(r, ply, c.last_press_ms[color], now);
}

/* A press while the clocks stand (for the arbiter, a claim, or after a restart): the clock
 * does not switch and gives no reading; the move it completes is complete and counted, and
 * the arbiter's resumption starts the other clock.  The player is reminded. */
static void press_while_paused(struct referee *r, int color, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;
	int ply = completion_waiting(&g->completion, color);
	struct chess_clock c = g->clock;

	/* The opponent's move is on their own board: their press completes it, and it is
	 * complete once it reaches the tactile board. */
	if (ply >= 0 || (c.running == color && color != player))
		clock_count_move(&c, color, now);
	ref_press_record(r, color, PRESS_PAUSED, &c, now);
	if (ply >= 0)
		ref_complete(r, ply, -1, now);
	if (color == player)
		ref_say(r, GAME_PRIVATE, GAME_MSG_PAUSED, now);
}

/* A press while a promotion waits: the player's press before the piece is chosen is refused
 * (true: the press ends there); a press that completes the promotion makes it final. */
static bool press_on_promotion(struct referee *r, int color, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;

	if (!promotion_is_pending(&g->promotion))
		return false;
	if (game_position(g)->side == player && color == player &&
	    g->promotion.choice == CHESS_NO_PIECE) {
		/* Trap 2: never a silent queen.  The press does not count. */
		ref_press_record(r, color, PRESS_REFUSED, &g->clock, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_PROMOTION_NEEDED, now);
		return true;
	}
	if (game_position(g)->side != player || color == player)
		ref_promotion_final(r, now);
	return false;
}

/* The press as the clock alone takes it: a flag that fell, the clocks started, or a press
 * that moves nothing end the press there (true); false for a press that completes a move. */
static bool press_on_clock(struct referee *r, int color, enum clock_state before, uint64_t now)
{
	struct game *g = &r->g;
	struct chess_clock c = g->clock;
	enum clock_press_result rc = clock_press_moves(&c, color, 0, now);

	if (rc == CLOCK_PRESS_FLAGGED) {
		if (g->result.state == RESULT_ON)
			flag_fell(r, &c, false, now);
		return true;
	}
	if (before == CLOCK_NOT_STARTED) {
		ref_press_record(r, color, rc == CLOCK_PRESS_STARTED ? PRESS_START : PRESS_IDLE, &c,
				 now);
		if (rc == CLOCK_PRESS_STARTED)
			ref_say(r, GAME_PRIVATE, GAME_MSG_GAME_START, now);
		return true;
	}
	if (rc != CLOCK_PRESS_MOVE) {
		ref_press_record(r, color, PRESS_IDLE, &c, now);
		return true;
	}
	return false;
}

/* The player's move changed on the board after it was announced (e2-e3, then on to e4): the
 * correction is said before the opponent's clock starts; the first move stays in the journal
 * and a comment (4.7 gives the opponent a claim). */
static void press_after_change(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;
	chess_move changed = ref_changed_move(r);

	if (changed != CHESS_MOVE_NONE &&
	    completion_waiting(&g->completion, g->params.player) == game_plies(g) - 1) {
		ref_withdraw_last(r, "device", now);
		ref_make_move(r, changed, true, NULL, now);
	}
}

/* A press on a board no legal move explains (Art. 7.5.1): a move is completed by the press,
 * even an illegal one; it opens the arbiter's flow now, whether or not its mismatch time has
 * passed. */
static void press_illegal(struct referee *r, int color, int ply, const struct chess_clock *c,
			  uint64_t now)
{
	struct game *g = &r->g;
	uint64_t diff = referee_board_differences(r);
	uint64_t occ = chess_pos_occupancy(game_position(g));

	ref_press_record(r, color, PRESS_ILLEGAL, c, now);
	/* The press completes the move the player made before it (7.5.1), without a reading:
	 * the reading is the impossible board's. */
	if (ply >= 0)
		ref_complete(r, ply, -1, now);
	if (g->mismatch.state == MISMATCH_HELD)
		ref_mismatch_open_held(r, now);
	else if (!mismatch_active(&g->mismatch))
		ref_mismatch_raise(r, diff & ~occ, diff & occ, now);
}

/* A press that completes a move: the clocks switched (stopped by a game-ending move), the
 * period's change said, the move completed and the time warnings armed again. */
static void press_move(struct referee *r, int color, int ply, struct chess_clock *c, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;
	struct chess_clock c0;

	if (game_over(g))
		clock_stop(c, now);
	c0 = g->clock;
	ref_press_record(r, color, PRESS_MOVE, c, now);
	ref_say_period_change(r, &c0, now);
	if (ply >= 0)
		ref_complete(r, ply, c->last_press_ms[color], now);
	for (int i = 0; i < r->set.warning_count; i++)
		if (clock_remaining(&g->clock, player, now) > (int64_t)r->set.warnings_s[i] * 1000)
			r->warned[i] = false;
}

/* A press after the move: it completes the move made (6.3.1), none (7.5.3: an illegal move),
 * or a board no legal move explains (7.5.1). */
static void press_completes(struct referee *r, int color, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;
	enum press_kind kind;
	struct chess_clock c;
	int ply;

	/* The clock counts the moves the press completes (6.3.1): the opponent's (made on
	 * their board, whether or not it has reached the tactile board yet), or the player's
	 * move made before it; none for a press with no move (7.5.3). */
	ply = completion_waiting(&g->completion, color);
	if (color == player && referee_board_differences(r))
		kind = PRESS_ILLEGAL; /* Art. 7.5.1: the board no legal move explains */
	else if (color == player && ply < 0)
		kind = PRESS_EMPTY;
	else
		kind = PRESS_MOVE;
	c = g->clock;
	/* A move the arbiter's counters settled (clock set with counters while it waited for
	 * this press) is not counted again. */
	clock_press_moves(
	    &c, color, ply >= 0 ? !(g->plies[ply].flags & GAME_PLY_COUNTED) : color != player, now);
	if (kind == PRESS_ILLEGAL) {
		press_illegal(r, color, ply, &c, now);
		return;
	}
	if (kind == PRESS_EMPTY) {
		/* Art. 7.5.3: a press with no move made is an illegal move.  The clocks switched;
		 * the player, who cannot see it, is told; the arbiter sees it in status. */
		ref_press_record(r, color, PRESS_EMPTY, &c, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_PRESS_NO_MOVE, now);
		return;
	}
	press_move(r, color, ply, &c, now);
}

void ref_press(struct referee *r, int color, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;
	enum clock_state before;
	struct chess_clock c;
	bool doubt = false;

	if (!g->has_clock)
		return;
	if (g->params.mode == GAME_ONLINE) {
		ref_online_press(r, color, now);
		return;
	}
	if (game_over(g)) {
		press_after_end(r, color, now);
		return;
	}
	ref_settle_now(r, now);
	if (press_on_promotion(r, color, now))
		return;
	before = g->clock.state;
	if (before == CLOCK_PAUSED) {
		press_while_paused(r, color, now);
		return;
	}
	/* The press came after the flag fell and before any tick saw it (real time): the flag,
	 * if it stands once the moves are checked, is what happened. */
	if (before == CLOCK_RUNNING && g->clock.running == color && g->result.state == RESULT_ON &&
	    clock_flag_deadline(&g->clock) <= now && flag_stands(r, now, &c, &doubt)) {
		flag_fell(r, &c, doubt, now);
		return;
	}
	if (press_on_clock(r, color, before, now))
		return;
	if (color == player && referee_board_differences(r))
		press_after_change(r, now);
	press_completes(r, color, now);
}

/* The clocks stop (Art. 6.11.1, 6.11.2) or start again: a resumption starts the clock of the
 * side whose turn it is when a press while they stood completed the other's move. */
void ref_pause(struct referee *r, bool pause, const char *author, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_record(pause ? REC_PAUSE : REC_RESUME, now);

	if (!g->has_clock || game_over(g) ||
	    g->clock.state != (pause ? CLOCK_RUNNING : CLOCK_PAUSED))
		return;
	rec.clock = g->clock;
	if (pause) {
		clock_pause(&rec.clock, now);
	} else {
		if (g->paused_completed >= 0 && g->paused_completed == rec.clock.running)
			clock_set_running(&rec.clock, !rec.clock.running, now);
		clock_resume(&rec.clock, now);
	}
	snprintf(rec.author, sizeof(rec.author), "%s", author);
	if (ref_emit(r, &rec) == 0)
		ref_say(r, GAME_PRIVATE, pause ? GAME_MSG_PAUSED : GAME_MSG_RESUMED, now);
}

/* The player's pause button (6.11.2): it stops the clocks to call the arbiter.  In a
 * tournament only the arbiter starts them again (6.11.3), whoever stopped them; in casual
 * play the button toggles. */
void ref_pause_button(struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;

	if (!g->has_clock || game_over(g))
		return;
	if (g->params.mode == GAME_ONLINE) {
		/* The server's clock does not stop. */
		ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
		return;
	}
	if (g->clock.state == CLOCK_RUNNING)
		ref_pause(r, true, "player", now);
	else if (g->clock.state == CLOCK_PAUSED && g->params.mode == GAME_CASUAL)
		ref_pause(r, false, "player", now);
	else if (g->clock.state == CLOCK_PAUSED)
		ref_say(r, GAME_PRIVATE, GAME_MSG_ARBITER_RESUMES, now);
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

/* When the running clock's next checkpoint is due, or UINT64_MAX. */
static uint64_t checkpoint_due(const struct game *g)
{
	if (!g->has_clock || g->clock.state != CLOCK_RUNNING || game_over(g))
		return UINT64_MAX;
	return g->last_clock_ms + GAME_CHECKPOINT_MS;
}

void ref_checkpoint(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec;

	if (now < checkpoint_due(g))
		return;
	rec = ref_record(REC_CHECKPOINT, now);
	rec.clock = g->clock;
	ref_emit(r, &rec);
}

void ref_say_clock_gap(struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;
	struct game_effect fx = {.kind = GAME_FX_SAY, .ms = now, .channel = GAME_PRIVATE};

	if (!g->has_clock)
		return;
	if (g->clock_uncertain) {
		fx.msg = GAME_MSG_CLOCK_UNCERTAIN;
	} else if (g->uncharged_up_to_ms > 0 && g->restarts) {
		fx.msg = g->uncharged_color == CHESS_WHITE ? GAME_MSG_CLOCK_GAP_WHITE
							   : GAME_MSG_CLOCK_GAP_BLACK;
		fx.has_clock = true;
		fx.white_ms = g->uncharged_up_to_ms;
	} else {
		return;
	}
	ref_effect(r, &fx);
}

uint64_t ref_clock_deadline(const struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;
	uint64_t best = UINT64_MAX;
	int64_t left;

	if (!g->has_clock || g->result.state != RESULT_ON)
		return best;
	best = g->params.mode == GAME_ONLINE ? UINT64_MAX : clock_flag_deadline(&g->clock);
	if (checkpoint_due(g) < best)
		best = checkpoint_due(g);
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
