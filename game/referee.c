/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee (referee.h): events in; records and effects out.  This file: the events'
 * dispatch, the board (detection, promotion and mismatch flows), moves and the game's end,
 * and the start and stop of games.  Presses and time are in referee_clock.c, commands and
 * the button menu in referee_command.c.
 */
#include "game/referee_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void referee_settings_defaults(struct referee_settings *s)
{
	memset(s, 0, sizeof(*s));
	s->next.player = CHESS_WHITE;
	s->next.mode = GAME_TOURNAMENT;
	s->next.edition = RULES_2023;
	snprintf(s->next.time_control, sizeof(s->next.time_control), "-");
	snprintf(s->next.fen, sizeof(s->next.fen), "%s", CHESS_FEN_START);
	detect_config_defaults(&s->detect);
	s->promotion_ms = 3000;
	s->hold_ms = 1000;
	s->menu_ms = 15000;
}

/* ------------------------------------------------------------------ output */

struct game_record ref_record(enum game_record_type type, uint64_t ms)
{
	struct game_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = type;
	rec.ms = ms;
	return rec;
}

void ref_effect(struct referee *r, const struct game_effect *fx)
{
	if (r->sink.effect)
		r->sink.effect(r->sink.user, fx);
}

static void fault(struct referee *r, uint64_t ms, const char *what)
{
	struct game_effect fx = {.kind = GAME_FX_REPLY, .ms = ms, .ok = false, .request = 0};

	/* A reply to no request: the daemon logs it as the referee's fault. */
	snprintf(fx.text, sizeof(fx.text), "%s", what);
	ref_effect(r, &fx);
}

int ref_emit(struct referee *r, struct game_record *rec)
{
	if (game_apply(&r->g, rec)) {
		char what[80];

		snprintf(what, sizeof(what), "%s record refused by the game",
			 game_record_name(rec->type));
		fault(r, rec->ms, what);
		return -1;
	}
	/* The move's SAN as the game wrote it when the move was applied. */
	if (rec->type == REC_MADE)
		memcpy(rec->u.made.san, r->g.plies[rec->u.made.ply - 1].san,
		       sizeof(rec->u.made.san));
	if (r->sink.record)
		r->sink.record(r->sink.user, rec);
	if (game_record_changes_scoresheet(rec->type))
		r->scoresheet_dirty = true;
	return 0;
}

void ref_say(struct referee *r, enum game_channel ch, enum game_msg msg, uint64_t ms)
{
	struct game_effect fx = {.kind = GAME_FX_SAY, .ms = ms, .channel = ch, .msg = msg};

	ref_effect(r, &fx);
}

static void flush(struct referee *r, uint64_t ms)
{
	struct game_effect fx = {.kind = GAME_FX_SCORESHEET, .ms = ms};

	if (!r->scoresheet_dirty)
		return;
	r->scoresheet_dirty = false;
	ref_effect(r, &fx);
}

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
		fault(r, now, "promotion move refused by the rules core");
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
			fault(r, now, "detected move refused by the rules core");
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

static bool detecting(const struct referee *r)
{
	return r->board_ready && !promotion_is_pending(&r->g.promotion) && !game_over(&r->g);
}

static void poll_detect(struct referee *r, uint64_t now)
{
	struct detect_result res;

	/* Bounded: each round consumes a move or settles the board. */
	for (int i = 0; i < 8 && detecting(r); i++) {
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

	for (int i = 0; i < 8 && detecting(r); i++) {
		if (detect_flush(&r->det, now, &res) == DETECT_NONE)
			break;
		handle_detect(r, &res, now);
	}
}

/* ------------------------------------------------------------------ games */

static void board_ready(struct referee *r, uint64_t sensed, uint64_t now)
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

/* A game-ending move whose press never came: the reading when it was made. */
static void complete_ended_game(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;

	if (!g->open || !game_over(g))
		return;
	for (int c = 0; c < 2; c++) {
		int ply;

		while ((ply = completion_waiting(&g->completion, c)) >= 0) {
			struct game_record rec = ref_record(REC_COMPLETE, now);

			rec.u.complete.ply = ply + 1;
			rec.u.complete.clk_ms = g->completion.final_clk;
			if (ref_emit(r, &rec))
				break;
		}
	}
}

static void new_game(struct referee *r, uint64_t now)
{
	struct game_record rec = ref_record(REC_GAME, now);
	struct game_effect fx = {.kind = GAME_FX_GAME_START, .ms = now};

	complete_ended_game(r, now);
	flush(r, now);
	rec.u.game = r->set.next;
	if (r->sink.new_game)
		r->sink.new_game(r->sink.user, &rec.u.game);
	memset(r->warned, 0, sizeof(r->warned));
	r->guide_next = 0;
	r->cleared = false;
	r->menu.state = MENU_CLOSED;
	r->resumed = false;
	if (ref_emit(r, &rec))
		return;
	ref_effect(r, &fx);
}

void referee_start(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;

	/* A game on, or over and its result not yet approved (8.7), goes on. */
	if (g->open && g->result.state != RESULT_APPROVED) {
		struct game_record rec = ref_record(REC_RESTART, now);
		struct game_effect fx = {.kind = GAME_FX_GAME_START, .ms = now};

		r->resumed = true;
		rec.u.restart_plies = game_plies(g);
		ref_emit(r, &rec);
		ref_effect(r, &fx);
		if (!game_over(g))
			ref_say(r, GAME_PRIVATE,
				g->has_clock ? GAME_MSG_RESUMED_AFTER_RESTART
					     : GAME_MSG_RESUMED_NO_CLOCK,
				now);
		return;
	}
	new_game(r, now);
	flush(r, now);
}

/* After a game is over and its result approved (8.7), or the board cleared, the board set
 * up in the start position (and still for the settle time) begins the next game: the
 * finished one stays under games/ with its journal.  A game that ends with the start
 * position on the board (a fivefold repetition of it) does not begin the next by itself. */
static uint64_t next_game_due(const struct referee *r)
{
	struct chess_pos start;
	struct chess_error err;

	if (!game_over(&r->g) || !r->board_ready ||
	    (r->g.result.state != RESULT_APPROVED && !r->cleared) ||
	    chess_fen_parse(&start, r->set.next.fen, &err) ||
	    r->det.sensed != chess_pos_occupancy(&start))
		return UINT64_MAX;
	return r->det.last_change_ms + r->det.cfg.settle_ms;
}

static void maybe_next_game(struct referee *r, uint64_t now)
{
	uint64_t sensed = r->det.sensed;

	if (now < next_game_due(r))
		return;
	new_game(r, now);
	detect_init(&r->det, &r->set.detect, game_position(&r->g), sensed);
	ref_say(r, GAME_PRIVATE, GAME_MSG_NEW_GAME, now);
}

void referee_stop(struct referee *r, uint64_t now)
{
	complete_ended_game(r, now);
	r->scoresheet_dirty = true;
	flush(r, now);
}

/* ------------------------------------------------------------------ events */

static void button(struct referee *r, enum game_button b, bool down, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;

	if (b == GAME_BUTTON_SELECT) {
		r->select_down = down;
		if (down) {
			r->select_down_ms = now;
			r->select_hold_used = false;
		}
	}
	if (!down)
		return;
	if (r->menu.state != MENU_CLOSED && (b == GAME_BUTTON_SELECT || b == GAME_BUTTON_REPEAT)) {
		ref_menu_button(r, b, now);
		return;
	}
	switch (b) {
	case GAME_BUTTON_PLAYER_CLOCK:
		ref_press(r, player, now);
		break;
	case GAME_BUTTON_OPPONENT_CLOCK:
		ref_press(r, !player, now);
		break;
	case GAME_BUTTON_INFO:
		ref_info(r, now);
		break;
	case GAME_BUTTON_REPEAT: {
		struct game_effect fx = {
		    .kind = GAME_FX_REPEAT, .ms = now, .channel = GAME_PRIVATE};
		int last = game_plies(g) - 1;

		if (last < 0) {
			ref_say(r, GAME_PRIVATE, GAME_MSG_NOTHING_TO_REPEAT, now);
			break;
		}
		game_position_before(g, last, &fx.before);
		fx.move = g->plies[last].move;
		fx.ply = last;
		ref_effect(r, &fx);
		break;
	}
	case GAME_BUTTON_SELECT:
		/* A select press right after the new piece went in: the promotion is made now,
		 * so the press chooses its piece. */
		if (!promotion_is_pending(&g->promotion) && g->mismatch.state != MISMATCH_OPEN)
			ref_settle_now(r, now);
		if (promotion_is_pending(&g->promotion) || promotion_in_hand(r))
			promotion_select(r, now);
		else if (g->mismatch.state == MISMATCH_OPEN)
			mismatch_guide(r, now);
		break;
	case GAME_BUTTON_PAUSE:
		ref_pause(r, g->has_clock && g->clock.state == CLOCK_RUNNING, "player", now);
		break;
	case GAME_BUTTON_COUNT:
		break;
	}
}

static void square(struct referee *r, int sq, bool occupied, uint64_t now)
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

static void tick(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;

	maybe_next_game(r, now);
	ref_check_flag(r, now);
	if (promotion_is_pending(&g->promotion) && g->promotion.choice != CHESS_NO_PIECE &&
	    (!g->has_clock || game_position(g)->side != g->params.player) &&
	    now >= g->promotion.last_select_ms + r->set.promotion_ms)
		ref_promotion_final(r, now);
	poll_detect(r, now);
	ref_check_warnings(r, now);
	ref_menu_tick(r, now);
}

void referee_handle(struct referee *r, const struct game_event *ev)
{
	if (!r->g.open)
		return;
	switch (ev->kind) {
	case GAME_EV_BOARD_READY:
		board_ready(r, ev->sensed, ev->ms);
		break;
	case GAME_EV_SQUARE:
		square(r, ev->index, ev->active, ev->ms);
		break;
	case GAME_EV_BUTTON:
		if (ev->index >= 0 && ev->index < GAME_BUTTON_COUNT)
			button(r, (enum game_button)ev->index, ev->active, ev->ms);
		break;
	case GAME_EV_TICK:
		tick(r, ev->ms);
		break;
	case GAME_EV_COMMAND:
		if (ev->command)
			ref_command(r, ev->command, ev->ms);
		break;
	}
	flush(r, ev->ms);
}

uint64_t referee_deadline(const struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;
	uint64_t best = UINT64_MAX, t;

	if (!g->open)
		return best;
	if (detecting(r)) {
		t = detect_deadline(&r->det);
		if (t < best)
			best = t;
	}
	if (promotion_is_pending(&g->promotion) && g->promotion.choice != CHESS_NO_PIECE &&
	    (!g->has_clock || game_position(g)->side != g->params.player)) {
		t = g->promotion.last_select_ms + r->set.promotion_ms;
		if (t < best)
			best = t;
	}
	t = next_game_due(r);
	if (t < best)
		best = t;
	t = ref_clock_deadline(r, now);
	if (t < best)
		best = t;
	t = ref_menu_deadline(r);
	if (t < best)
		best = t;
	return best;
}

/* ------------------------------------------------------------------ the rest */

struct referee *referee_new(const struct referee_settings *settings, const struct game_sink *sink)
{
	struct referee *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->set = *settings;
	r->sink = *sink;
	game_init(&r->g);
	return r;
}

void referee_free(struct referee *r)
{
	free(r);
}

void referee_update_settings(struct referee *r, const struct referee_settings *settings)
{
	r->set = *settings;
	r->det.cfg = settings->detect;
}

int referee_replay(struct referee *r, const struct game_record *rec)
{
	return game_apply(&r->g, rec);
}

const struct game *referee_game(const struct referee *r)
{
	return &r->g;
}

bool referee_resumed(const struct referee *r)
{
	return r->resumed;
}

uint64_t referee_expected_occupancy(const struct referee *r)
{
	return chess_pos_occupancy(game_position(&r->g));
}

uint64_t referee_board_differences(const struct referee *r)
{
	return r->board_ready ? detect_differences(&r->det) : 0;
}
