/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's side of training and study (docs/training.md "Training and study"), casual play
 * only: the training process that plays one side with an engine (what it says of itself, the hint
 * it is asked for, its move guided square by square on the board), taking back the last move pair,
 * and the review of a finished game on the tactile board.  A tournament game never reaches any of
 * it: the command table refuses these commands outside casual mode, the menu does not offer them,
 * and each is checked here again.
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

static const char *color_word(int color)
{
	return game_color_name(color);
}

/* Not in casual play: the game's mode named, or that there is no game. */
static void not_casual(const struct referee *r, struct game_reply *reply)
{
	if (!r->g.open)
		game_reply_set(reply, REPLY_NO_GAME, NULL);
	else
		game_reply_set(reply, REPLY_NOT_IN_MODE,
			       REPLY_ARGS(REPLY_S("mode", game_mode_name(r->g.params.mode))));
}

static void answer_not_casual(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	if (!r->g.open)
		ref_answer(r, cmd, now, REPLY_NO_GAME, NULL);
	else
		ref_answer(r, cmd, now, REPLY_NOT_IN_MODE,
			   REPLY_ARGS(REPLY_S("mode", game_mode_name(r->g.params.mode))));
}

static bool casual(const struct referee *r)
{
	return r->g.open && r->g.params.mode == GAME_CASUAL;
}

/* ------------------------------------------------------------------ board guidance */

/* The square `sq` of `pos` named to the player: what belongs there, or that it is right. */
static void guide_square(struct referee *r, const struct chess_pos *pos, int sq, bool confirmed,
			 uint64_t now)
{
	struct game_effect fx = {.kind = GAME_FX_GUIDE, .ms = now, .channel = GAME_PRIVATE};

	fx.square = sq;
	fx.occupied = (chess_pos_occupancy(pos) >> sq & 1) != 0;
	fx.piece = CHESS_PIECE_TYPE(chess_pos_piece_at(pos, sq));
	fx.confirmed = confirmed;
	ref_effect(r, &fx);
}

/* The square to put right first: a peg to take away before one to put in (a move's
 * from-square before its to-square), each from a1 on.  -1 if none differs. */
static int first_wrong(uint64_t diff, uint64_t target)
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
	uint64_t occ = chess_pos_occupancy(pos), diff = r->det.sensed ^ occ;
	int next;

	if (!(((before ^ occ) >> sq) & 1) || (diff >> sq & 1))
		return diff == 0; /* it was right, or it is still wrong */
	guide_square(r, pos, sq, true, now);
	next = first_wrong(diff, occ);
	if (next >= 0)
		guide_square(r, pos, next, false, now);
	return diff == 0;
}

/* The first wrong square for `pos`, if any: true when there was one. */
static bool guide_first(struct referee *r, const struct chess_pos *pos, uint64_t now)
{
	uint64_t occ = chess_pos_occupancy(pos);
	int sq = first_wrong(r->det.sensed ^ occ, occ);

	if (sq < 0)
		return false;
	guide_square(r, pos, sq, false, now);
	return true;
}

void ref_relay_guide_begin(struct referee *r, uint64_t now)
{
	const struct chess_pos *pos = game_position(&r->g);
	uint64_t occ = chess_pos_occupancy(pos);
	struct game_effect fx = {.kind = GAME_FX_GUIDE, .ms = now, .channel = GAME_PRIVATE};
	int sq;

	if (!r->board_ready)
		return;
	sq = first_wrong(r->det.sensed ^ occ, occ);
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
	if (playing && r->g.open)
		ref_say(r, GAME_PRIVATE, GAME_MSG_ENGINE_GONE, now);
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
			   REPLY_ARGS(REPLY_S("color", color_word(player)),
				      REPLY_S("engine_color", color_word(!player))));
		return;
	}
	r->engine.state = REFEREE_ENGINE_PLAYING;
	r->engine.side = side;
	snprintf(r->engine.name, sizeof(r->engine.name), "%.*s", (int)sizeof(r->engine.name) - 1,
		 cmd->text[0] ? cmd->text : "an engine");
	if (news)
		ref_say(r, GAME_PRIVATE,
			side == CHESS_WHITE ? GAME_MSG_ENGINE_PLAYS_WHITE
					    : GAME_MSG_ENGINE_PLAYS_BLACK,
			now);
	ref_answer(
	    r, cmd, now, REPLY_ENGINE_PLAYS,
	    REPLY_ARGS(REPLY_S("engine", r->engine.name), REPLY_S("color", color_word(side))));
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
	if (!casual(r)) {
		answer_not_casual(r, cmd, now);
		return;
	}
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
	}
}

void ref_cmd_hint(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_effect fx = {
	    .kind = GAME_FX_ENGINE_ASK, .ms = now, .request = GAME_ENGINE_HINT};

	if (!casual(r)) {
		answer_not_casual(r, cmd, now);
		return;
	}
	if (r->engine.state != REFEREE_ENGINE_PLAYING) {
		ref_answer(r, cmd, now, REPLY_NO_ENGINE, NULL);
		return;
	}
	if (game_position(g)->side != g->params.player) {
		ref_answer(r, cmd, now, REPLY_HINT_NOT_ON_MOVE,
			   REPLY_ARGS(REPLY_S("color", color_word(game_position(g)->side))));
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

	if (!casual(r)) {
		answer_not_casual(r, cmd, now);
		return;
	}
	if (keep < 0) {
		ref_answer(r, cmd, now, REPLY_TAKEBACK_NOTHING,
			   REPLY_ARGS(REPLY_S("color", color_word(player))));
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

/* ------------------------------------------------------------------ review */

static void review_say(struct referee *r, enum game_review_say say, int ply, uint64_t now)
{
	struct review *v = &r->review;
	struct game_effect fx = {.kind = GAME_FX_REVIEW, .ms = now, .channel = GAME_PRIVATE};

	fx.review = say;
	fx.ply = say == GAME_REVIEW_WHERE ? v->at : ply;
	fx.total = v->count;
	fx.move = CHESS_MOVE_NONE;
	/* The move named: the step's, or (where are we) the last one shown. */
	if (say == GAME_REVIEW_WHERE)
		ply = v->at - 1;
	if (ply >= 0 && ply < v->count) {
		review_position_before(v, ply, &fx.before);
		fx.move = v->moves[ply];
		fx.move_number_at = review_move_number(v, ply);
	}
	/* Where: whose move it is in the position shown, and the game's last move number. */
	fx.color = v->shown.side;
	fx.move_number = v->shown.fullmove_number;
	fx.moves_made = v->count ? review_move_number(v, v->count - 1) : 0;
	ref_effect(r, &fx);
}

/* The position the board should show in a review: the game's shown, or, returning, the
 * game's own. */
static const struct chess_pos *review_target(const struct referee *r)
{
	return r->review.state == REVIEW_RETURN ? game_position(&r->g) : &r->review.shown;
}

void referee_review_info(const struct referee *r, struct referee_review_info *out)
{
	const struct review *v = &r->review;

	out->state = v->state;
	out->at = v->at;
	out->plies = v->count;
	out->differ = review_active(v) && r->board_ready
			  ? r->det.sensed ^ chess_pos_occupancy(review_target(r))
			  : 0;
}

void referee_review_load(struct referee *r, const char *fen, uint64_t now, struct game_reply *reply)
{
	struct game *g = &r->g;
	struct chess_pos start;
	struct chess_error err;

	(void)now;
	if (!casual(r)) {
		not_casual(r, reply);
		return;
	}
	if (review_active(&r->review)) {
		game_reply_set(reply, REPLY_REVIEW_ON, NULL);
		return;
	}
	if (r->engine.state == REFEREE_ENGINE_PLAYING) {
		game_reply_set(reply, REPLY_REVIEW_TRAINING_ON, NULL);
		return;
	}
	if (game_plies(g) > 0 && !game_over(g)) {
		game_reply_set(reply, REPLY_REVIEW_GAME_ON,
			       REPLY_ARGS(REPLY_N("plies", game_plies(g))));
		return;
	}
	if (!fen)
		chess_pos_init_start(&start);
	else if (chess_fen_parse(&start, fen, &err)) {
		game_reply_set(
		    reply, REPLY_REVIEW_BAD_FEN,
		    REPLY_ARGS(REPLY_N("column", err.column), REPLY_S("detail", err.message)));
		return;
	}
	review_load(&r->review, &start);
	game_reply_set(reply, REPLY_REVIEW_LOADING, NULL);
}

void referee_review_add(struct referee *r, const char *moves, uint64_t now,
			struct game_reply *reply)
{
	struct review *v = &r->review;
	const char *p = moves;
	int added = 0, count = v->count;
	struct chess_pos end = v->end;

	(void)now;
	if (v->state != REVIEW_LOADING) {
		game_reply_set(reply, REPLY_REVIEW_NOT_LOADING, NULL);
		return;
	}
	for (;;) {
		char word[16];
		size_t n;
		chess_move m = CHESS_MOVE_NONE;
		bool ok;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		n = strcspn(p, " \t");
		ok = n < sizeof(word);
		if (ok) {
			memcpy(word, p, n);
			word[n] = '\0';
			ok = !chess_move_parse_uci(&v->end, word, &m) && !review_add(v, m);
		}
		if (!ok) {
			char shown[17];

			snprintf(shown, sizeof(shown), "%.*s", (int)(n < 16 ? n : 16), p);
			if (v->count >= REVIEW_MAX_PLIES)
				game_reply_set(reply, REPLY_REVIEW_TOO_MANY_MOVES,
					       REPLY_ARGS(REPLY_N("number", v->count + 1),
							  REPLY_S("move", shown),
							  REPLY_N("max", REVIEW_MAX_PLIES)));
			else
				game_reply_set(reply, REPLY_REVIEW_MOVE_NOT_LEGAL,
					       REPLY_ARGS(REPLY_N("number", v->count + 1),
							  REPLY_S("move", shown)));
			/* A line is added whole or not at all. */
			v->count = count;
			v->end = end;
			return;
		}
		added++;
		p += n;
	}
	game_reply_set(reply, REPLY_REVIEW_ADDED,
		       REPLY_ARGS(REPLY_N("added", added), REPLY_N("count", v->count)));
}

void referee_review_begin(struct referee *r, uint64_t now, struct game_reply *reply)
{
	struct review *v = &r->review;

	if (v->state != REVIEW_LOADING) {
		game_reply_set(reply, REPLY_REVIEW_NOT_LOADING, NULL);
		return;
	}
	if (!casual(r) || (game_plies(&r->g) > 0 && !game_over(&r->g)) ||
	    r->engine.state == REFEREE_ENGINE_PLAYING) {
		review_reset(v);
		game_reply_set(reply, REPLY_REVIEW_NOT_ALLOWED, NULL);
		return;
	}
	review_begin(v);
	r->menu.state = MENU_CLOSED;
	r->guide_next = 0;
	ref_say(r, GAME_PRIVATE, GAME_MSG_REVIEW_SETUP, now);
	if (!r->board_ready || !guide_first(r, &v->shown, now)) {
		v->ready = true;
		ref_say(r, GAME_PRIVATE, GAME_MSG_REVIEW_READY, now);
	}
	game_reply_set(reply, REPLY_REVIEW_BEGUN, REPLY_ARGS(REPLY_N("plies", v->count)));
	referee_flush(r, now);
}

/* The review is over; the game's own position is set up again (the game being on), or the
 * board is followed as after the game's end. */
static void review_finish(struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;

	review_reset(&r->review);
	detect_init(&r->det, &r->set.detect, game_position(g), r->det.sensed);
	/* The board shows the game again: a mismatch raised before the review is over. */
	if (!game_over(g) && mismatch_active(&g->mismatch) && !detect_differences(&r->det))
		ref_restored(r, false, now);
}

static void review_end(struct referee *r, uint64_t now, struct game_reply *reply)
{
	struct review *v = &r->review;

	if (v->state == REVIEW_LOADING) {
		review_reset(v);
		game_reply_set(reply, REPLY_REVIEW_DROPPED, NULL);
		return;
	}
	if (game_over(&r->g)) {
		review_finish(r, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_REVIEW_ENDED, now);
		game_reply_set(reply, REPLY_REVIEW_ENDED, NULL);
		return;
	}
	v->state = REVIEW_RETURN;
	r->guide_next = 0;
	ref_say(r, GAME_PRIVATE, GAME_MSG_REVIEW_RETURN, now);
	if (r->board_ready && guide_first(r, game_position(&r->g), now)) {
		game_reply_set(reply, REPLY_REVIEW_ENDED_RETURN, NULL);
		return;
	}
	review_finish(r, now);
	ref_say(r, GAME_PRIVATE, GAME_MSG_SETUP_DONE, now);
	game_reply_set(reply, REPLY_REVIEW_ENDED, NULL);
}

/* `select` in a review: where we are, then the next square that differs. */
static void review_where(struct referee *r, uint64_t now)
{
	const struct chess_pos *target = review_target(r);
	uint64_t occ = chess_pos_occupancy(target), diff = r->board_ready ? r->det.sensed ^ occ : 0;

	if (r->review.state == REVIEW_ON)
		review_say(r, GAME_REVIEW_WHERE, -1, now);
	if (!diff)
		return;
	guide_square(r, target, ref_next_differing_square(r, diff), false, now);
}

void referee_review_step(struct referee *r, enum referee_review_step step, uint64_t now,
			 struct game_reply *reply)
{
	struct review *v = &r->review;

	if (step == REFEREE_REVIEW_END && v->state != REVIEW_OFF) {
		review_end(r, now, reply);
		referee_flush(r, now);
		return;
	}
	if (v->state != REVIEW_ON) {
		game_reply_set(
		    reply, v->state == REVIEW_RETURN ? REPLY_REVIEW_OVER : REPLY_NO_REVIEW, NULL);
		return;
	}
	r->guide_next = 0;
	switch (step) {
	case REFEREE_REVIEW_NEXT:
		if (!review_step(v, 1)) {
			ref_say(r, GAME_PRIVATE, GAME_MSG_REVIEW_END_OF_GAME, now);
			game_reply_set(reply, REPLY_REVIEW_AT_END,
				       REPLY_ARGS(REPLY_N("plies", v->count)));
			break;
		}
		review_say(r, GAME_REVIEW_NEXT, v->at - 1, now);
		guide_first(r, &v->shown, now);
		game_reply_set(reply, REPLY_REVIEW_AT,
			       REPLY_ARGS(REPLY_N("ply", v->at), REPLY_N("plies", v->count)));
		break;
	case REFEREE_REVIEW_BACK:
		if (!review_step(v, -1)) {
			ref_say(r, GAME_PRIVATE, GAME_MSG_REVIEW_START_OF_GAME, now);
			game_reply_set(reply, REPLY_REVIEW_AT_START, NULL);
			break;
		}
		review_say(r, GAME_REVIEW_BACK, v->at, now);
		guide_first(r, &v->shown, now);
		game_reply_set(reply, REPLY_REVIEW_AT,
			       REPLY_ARGS(REPLY_N("ply", v->at), REPLY_N("plies", v->count)));
		break;
	case REFEREE_REVIEW_WHERE:
		review_where(r, now);
		game_reply_set(reply, REPLY_REVIEW_AT,
			       REPLY_ARGS(REPLY_N("ply", v->at), REPLY_N("plies", v->count)));
		break;
	case REFEREE_REVIEW_END:
		break;
	}
	referee_flush(r, now);
}

bool ref_review_button(struct referee *r, enum game_button b, uint64_t now)
{
	struct review *v = &r->review;
	struct game_reply reply;

	if (!review_active(v))
		return false;
	switch (b) {
	case GAME_BUTTON_PLAYER_CLOCK:
	case GAME_BUTTON_OPPONENT_CLOCK:
		if (v->state == REVIEW_RETURN)
			ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
		else
			referee_review_step(r,
					    b == GAME_BUTTON_PLAYER_CLOCK ? REFEREE_REVIEW_NEXT
									  : REFEREE_REVIEW_BACK,
					    now, &reply);
		break;
	case GAME_BUTTON_SELECT:
	case GAME_BUTTON_INFO:
		review_where(r, now);
		break;
	case GAME_BUTTON_REPEAT:
		/* The last move shown, again. */
		if (v->state == REVIEW_ON && v->at > 0)
			review_say(r, GAME_REVIEW_NEXT, v->at - 1, now);
		else
			ref_say(r, GAME_PRIVATE, GAME_MSG_REVIEW_START_OF_GAME, now);
		break;
	case GAME_BUTTON_PAUSE:
	case GAME_BUTTON_COUNT:
		break;
	}
	return true;
}

/* ------------------------------------------------------------------ the board */

bool ref_train_square(struct referee *r, int sq, bool occupied, uint64_t before, uint64_t now)
{
	struct review *v = &r->review;

	(void)occupied;
	if (review_active(v)) {
		bool done = guide_change(r, review_target(r), sq, before, now);

		if (done && v->state == REVIEW_ON && !v->ready) {
			v->ready = true;
			ref_say(r, GAME_PRIVATE, GAME_MSG_REVIEW_READY, now);
		} else if (done && v->state == REVIEW_RETURN) {
			review_finish(r, now);
			ref_say(r, GAME_PRIVATE, GAME_MSG_SETUP_DONE, now);
		}
		return true;
	}
	if (r->relay_guide && guide_change(r, game_position(&r->g), sq, before, now))
		r->relay_guide = false;
	return false;
}
