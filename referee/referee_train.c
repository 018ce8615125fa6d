/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's side of training and study (docs/training.md "Training and study"), casual play
 * only: the training process that plays one side with an engine (what it says of itself, the hint
 * it is asked for, its move guided square by square on the board) and taking back the last move
 * pair; the review of a finished game is referee_review.c's, with the board's guidance of this
 * file.  A tournament game never reaches any of it: the command table refuses these commands
 * outside casual mode, the menu does not offer them, and each is checked here again against
 * the same modes (game_command_needs()).
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

bool ref_mode_allows(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	if (r->g.open && (game_command_needs(cmd->kind)->modes & GAME_MODE_BIT(r->g.params.mode)))
		return true;
	if (!r->g.open)
		ref_answer(r, cmd, now, REPLY_NO_GAME, NULL);
	else
		ref_answer(r, cmd, now, REPLY_NOT_IN_MODE,
			   REPLY_ARGS(REPLY_S("mode", game_mode_name(r->g.params.mode))));
	return false;
}

bool ref_engine_asked(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	if (!ref_mode_allows(r, cmd, now))
		return false;
	if (r->engine.state != REFEREE_ENGINE_PLAYING) {
		ref_answer(r, cmd, now, REPLY_NO_ENGINE, NULL);
		return false;
	}
	return true;
}

bool ref_casual(const struct referee *r)
{
	return r->g.open && r->g.params.mode == GAME_CASUAL;
}

/* ------------------------------------------------------------------ board guidance */

void ref_guide_square(struct referee *r, const struct chess_pos *pos, int sq, bool confirmed,
		      enum game_channel ch, uint64_t now)
{
	struct game_effect fx = {.kind = GAME_FX_GUIDE, .ms = now, .channel = ch};

	fx.square = sq;
	fx.occupied = (chess_pos_occupancy(pos) >> sq & 1) != 0;
	fx.piece = CHESS_PIECE_TYPE(chess_pos_piece_at(pos, sq));
	fx.confirmed = confirmed;
	ref_effect(r, &fx);
}

int ref_first_wrong(uint64_t diff, uint64_t target)
{
	if (diff & ~target)
		return __builtin_ctzll(diff & ~target);
	return diff ? __builtin_ctzll(diff) : -1;
}

/* After square `sq` changed (the board showed `before` until then): if it became right for
 * `pos`, it is confirmed and the next wrong square named.  True when the board now shows
 * `pos`. */
static bool guide_change(struct referee *r, const struct chess_pos *pos, int sq, uint64_t before,
			 uint64_t now)
{
	uint64_t occ = chess_pos_occupancy(pos), diff = (r->det.sensed ^ occ) | r->relay_swap;
	int next;

	if (!(((before ^ occ) >> sq) & 1) || (diff >> sq & 1))
		return diff == 0; /* it was right, or it is still wrong */
	ref_guide_square(r, pos, sq, true, GAME_PRIVATE, now);
	next = ref_first_wrong(diff, occ);
	if (next >= 0)
		ref_guide_square(r, pos, next, false, GAME_PRIVATE, now);
	return diff == 0;
}

void ref_relay_guide_begin(struct referee *r, uint64_t now)
{
	const struct chess_pos *pos = game_position(&r->g);
	uint64_t occ = chess_pos_occupancy(pos);
	struct game_effect fx = {.kind = GAME_FX_GUIDE, .ms = now, .channel = GAME_PRIVATE};
	int last = game_plies(&r->g) - 1, sq;
	chess_move m = last >= 0 ? r->g.plies[last].move : CHESS_MOVE_NONE;
	struct chess_pos before;

	if (!r->board_ready)
		return;
	/* A promotion that captures: the captured piece's peg stays where the new piece goes,
	 * so that square is named too ("a1 should be occupied: queen"). */
	r->relay_swap = 0;
	if (m != CHESS_MOVE_NONE && chess_move_promotion(m) != CHESS_NO_PIECE) {
		game_position_before(&r->g, last, &before);
		if (chess_pos_piece_at(&before, chess_move_to(m)) != CHESS_NO_PIECE)
			r->relay_swap = 1ULL << chess_move_to(m);
	}
	sq = ref_first_wrong((r->det.sensed ^ occ) | r->relay_swap, occ);
	r->relay_guide = sq >= 0;
	if (sq < 0)
		return;
	/* Said after the move's announcement, never before it. */
	fx.square = sq;
	fx.occupied = (occ >> sq & 1) != 0;
	fx.piece = CHESS_PIECE_TYPE(chess_pos_piece_at(pos, sq));
	fx.after_move = true;
	ref_effect(r, &fx);
}

/* ------------------------------------------------------------------ the engine */

/* The engine's press waits this long at most for its announcement's report (a voice that
 * never reports: its output stuck). */
#define ENGINE_PRESS_WAIT_MS 10000

void ref_engine_press_when_said(struct referee *r, uint64_t now)
{
	r->engine.press_report = r->report_last;
	r->engine.press_by = now + ENGINE_PRESS_WAIT_MS;
	r->engine.press_plies = game_plies(&r->g);
}

void ref_engine_press_now(struct referee *r, uint64_t now)
{
	if (!r->engine.press_report)
		return;
	r->engine.press_report = 0;
	/* Still the game its move was made in (not taken back, not another game). */
	if (r->g.open && game_plies(&r->g) == r->engine.press_plies)
		ref_press(r, !r->g.params.player, now);
}

void ref_engine_said(struct referee *r, int report, uint64_t now)
{
	if (report && report == r->engine.press_report)
		ref_engine_press_now(r, now);
}

uint64_t ref_engine_deadline(const struct referee *r)
{
	return r->engine.press_report ? r->engine.press_by : UINT64_MAX;
}

void referee_engine_info(const struct referee *r, struct referee_engine_info *out)
{
	out->state = r->engine.state;
	out->side = r->engine.side;
	out->name = r->engine.name;
	out->hint_asked = r->engine.hint_asked;
}

void referee_engine_gone(struct referee *r, uint64_t now)
{
	bool playing = r->engine.state == REFEREE_ENGINE_PLAYING;

	r->engine.state = REFEREE_ENGINE_NONE;
	r->engine.hint_asked = false;
	if (playing && r->g.open) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_ENGINE_GONE, now);
		ref_engine_lost(r, now);
	}
	referee_flush(r, now);
}

static void engine_on(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;
	int side = cmd->color >= 0 ? cmd->color : !player;
	bool news = r->engine.state != REFEREE_ENGINE_PLAYING || r->engine.side != side;

	if (side == player) {
		ref_answer(r, cmd, now, REPLY_ENGINE_SIDE_TAKEN,
			   REPLY_ARGS(REPLY_S("color", game_color_name(player)),
				      REPLY_S("engine_color", game_color_name(!player))));
		return;
	}
	r->engine.state = REFEREE_ENGINE_PLAYING;
	r->engine.side = side;
	snprintf(r->engine.name, sizeof(r->engine.name), "%.*s", (int)sizeof(r->engine.name) - 1,
		 cmd->text[0] ? cmd->text : "an engine");
	if (news || r->engine.stopped_clocks)
		ref_engine_strength_said(r, cmd, now);
	ref_answer(
	    r, cmd, now, REPLY_ENGINE_PLAYS,
	    REPLY_ARGS(REPLY_S("engine", r->engine.name), REPLY_S("color", game_color_name(side))));
}

static void engine_off(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	static const enum game_msg said[ENGINE_END_COUNT] = {
	    [ENGINE_END_NORMAL] = GAME_MSG_ENGINE_OFF,
	    [ENGINE_END_MISSING] = GAME_MSG_ENGINE_MISSING,
	    [ENGINE_END_DIED] = GAME_MSG_ENGINE_DIED,
	    [ENGINE_END_HUNG] = GAME_MSG_ENGINE_HUNG,
	    [ENGINE_END_NONSENSE] = GAME_MSG_ENGINE_NONSENSE,
	};
	bool playing = r->engine.state == REFEREE_ENGINE_PLAYING;
	enum game_engine_end end =
	    (unsigned)cmd->engine_end < ENGINE_END_COUNT ? cmd->engine_end : ENGINE_END_NORMAL;

	r->engine.state = REFEREE_ENGINE_NONE;
	r->engine.hint_asked = false;
	/* A training that was on ends aloud; an engine that failed is always said (the player
	 * may be waiting for the training to begin). */
	if (playing || end != ENGINE_END_NORMAL)
		ref_say(r, GAME_PRIVATE, said[end], now);
	if (playing)
		ref_engine_lost(r, now);
	if (end != ENGINE_END_NORMAL)
		ref_answer(r, cmd, now, REPLY_ENGINE_OFF,
			   REPLY_ARGS(REPLY_S("end", game_engine_end_name(end))));
	else
		ref_answer(r, cmd, now, REPLY_ENGINE_OFF, NULL);
}

/* The engine's answer to the hint asked for ply `ply`: said privately with its move. */
static void engine_hint(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	const struct chess_pos *pos = game_position(g);
	struct game_effect fx = {.kind = GAME_FX_HINT, .ms = now, .channel = GAME_PRIVATE};
	struct chess_error err;
	char san[CHESS_SAN_MAX];
	chess_move m;

	if (!r->engine.hint_asked || cmd->ply != r->engine.hint_ply ||
	    game_plies(g) != r->engine.hint_ply) {
		ref_answer(r, cmd, now, REPLY_NO_HINT_ASKED, REPLY_ARGS(REPLY_N("ply", cmd->ply)));
		return;
	}
	if (chess_move_parse_san(pos, cmd->move, &m, &err)) {
		ref_answer_not_legal(r, cmd, now, pos->side, &err);
		return;
	}
	r->engine.hint_asked = false;
	fx.before = *pos;
	fx.move = m;
	fx.ply = game_plies(g);
	ref_effect(r, &fx);
	chess_move_to_san(pos, m, san, sizeof(san));
	ref_answer(r, cmd, now, REPLY_HINT_SAID, REPLY_ARGS(REPLY_S("move", san)));
}

void ref_cmd_engine(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	if (!ref_mode_allows(r, cmd, now))
		return;
	switch (cmd->engine_op) {
	case ENGINE_OP_ON:
		engine_on(r, cmd, now);
		break;
	case ENGINE_OP_OFF:
		engine_off(r, cmd, now);
		break;
	case ENGINE_OP_WAIT:
		if (r->engine.state == REFEREE_ENGINE_PLAYING)
			ref_say(r, GAME_PRIVATE, GAME_MSG_ENGINE_OFF, now);
		r->engine.state = REFEREE_ENGINE_WAITING;
		r->engine.hint_asked = false;
		ref_answer(r, cmd, now, REPLY_ENGINE_WAITING, NULL);
		break;
	case ENGINE_OP_HINT:
		engine_hint(r, cmd, now);
		break;
	case ENGINE_OP_DRAW:
	case ENGINE_OP_EVAL:
		ref_engine_answer(r, cmd, now);
		break;
	}
}

void ref_cmd_hint(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_effect fx = {
	    .kind = GAME_FX_ENGINE_ASK, .ms = now, .request = GAME_ENGINE_HINT};

	if (!ref_engine_asked(r, cmd, now))
		return;
	if (game_position(g)->side != g->params.player) {
		ref_answer(r, cmd, now, REPLY_HINT_NOT_ON_MOVE,
			   REPLY_ARGS(REPLY_S("color", game_color_name(game_position(g)->side))));
		return;
	}
	r->engine.hint_asked = true;
	r->engine.hint_ply = game_plies(g);
	fx.ply = game_plies(g);
	fx.color = g->params.player;
	ref_effect(r, &fx);
	ref_answer(r, cmd, now, REPLY_HINT_ASKED, REPLY_ARGS(REPLY_S("engine", r->engine.name)));
}

void ref_train_request(struct referee *r, uint64_t now)
{
	struct game_effect fx = {
	    .kind = GAME_FX_ENGINE_ASK, .ms = now, .request = GAME_ENGINE_PLAY};

	if (r->engine.state != REFEREE_ENGINE_WAITING) {
		ref_say(r, GAME_PRIVATE,
			r->engine.state == REFEREE_ENGINE_PLAYING ? GAME_MSG_NOT_NOW
								  : GAME_MSG_ENGINE_NOT_READY,
			now);
		return;
	}
	fx.color = !r->g.params.player;
	fx.ply = game_plies(&r->g);
	ref_effect(r, &fx);
	ref_say(r, GAME_PRIVATE, GAME_MSG_TRAIN_REQUESTED, now);
}

/* ------------------------------------------------------------------ takeback */

/* Each side's clock reading before ply `keep`: the [%clk] of its last move before it (the
 * reading after that move's press, its increment included), or the first period's time
 * when it had made none.  *moves: the moves each side had completed. */
static void readings_before(const struct game *g, int keep, int64_t ms[2], int moves[2])
{
	for (int c = 0; c < 2; c++) {
		ms[c] = (int64_t)g->tc.periods[0].base_ms;
		moves[c] = 0;
	}
	for (int i = 0; i < keep; i++) {
		int c = game_ply_color(g, i);

		if (g->plies[i].clk_ms >= 0)
			ms[c] = g->plies[i].clk_ms;
		if (g->plies[i].flags & GAME_PLY_COMPLETE)
			moves[c]++;
	}
}

/* Casual play: the game goes back to before the tactile player's last move (their move and
 * the reply to it: the last move pair), the clocks to their readings then; the player is
 * guided square by square to set that position up, as after the arbiter's rollback. */
void ref_cmd_takeback(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_TAKEBACK, cmd, now);
	int player = g->params.player, keep = game_last_ply_of(g, player);
	int plies = game_plies(g);
	char name[48] = "the start";

	if (!ref_mode_allows(r, cmd, now))
		return;
	if (keep < 0) {
		ref_answer(r, cmd, now, REPLY_TAKEBACK_NOTHING,
			   REPLY_ARGS(REPLY_S("color", game_color_name(player))));
		return;
	}
	if (keep > 0)
		snprintf(name, sizeof(name), "%d.%s %s", game_move_number(g, keep - 1),
			 game_ply_color(g, keep - 1) == CHESS_WHITE ? "" : "..",
			 g->plies[keep - 1].san);
	rec.u.rollback_ply = keep;
	rec.clock = g->clock;
	if (g->has_clock && g->clock.state != CLOCK_NOT_STARTED) {
		int64_t ms[2];
		int moves[2];

		readings_before(g, keep, ms, moves);
		if (rec.clock.state == CLOCK_STOPPED || rec.clock.state == CLOCK_FLAGGED)
			clock_reopen(&rec.clock, player, now);
		else
			clock_set_running(&rec.clock, player, now);
		clock_set(&rec.clock, ms[CHESS_WHITE], ms[CHESS_BLACK], -1, now);
		clock_set_moves(&rec.clock, moves[CHESS_WHITE], moves[CHESS_BLACK]);
	}
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "takeback")));
		return;
	}
	r->relay_guide = false;
	r->engine.hint_asked = false;
	ref_setup_begin_with(r, GAME_MSG_TAKEBACK, now);
	if (keep > 0)
		ref_answer(r, cmd, now, REPLY_TAKEN_BACK,
			   REPLY_ARGS(REPLY_N("plies", plies - keep), REPLY_N("ply", keep),
				      REPLY_S("name", name)));
	else
		ref_answer(r, cmd, now, REPLY_TAKEN_BACK_START,
			   REPLY_ARGS(REPLY_N("plies", plies - keep)));
}

/* ------------------------------------------------------------------ the board */

void ref_train_square(struct referee *r, int sq, uint64_t before, uint64_t now)
{
	/* The new piece put in where the captured one was. */
	if (r->det.sensed >> sq & 1)
		r->relay_swap &= ~(1ULL << sq);
	if (r->relay_guide && guide_change(r, game_position(&r->g), sq, before, now))
		r->relay_guide = false;
}
