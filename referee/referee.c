/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee (referee.h): events in; records and effects out.  This file: the output, the
 * events' dispatch, and the start and stop of games.  The board (moves, promotion, mismatch,
 * the game's end) is in referee_board.c, presses and time in referee_clock.c, commands in
 * referee_command.c and the button menu in referee_menu.c.
 */
#include "referee/referee_int.h"

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
	struct game_effect out = *fx;

	/* Who may know of it is decided here, once, for every sink (audience.h). */
	out.audience = game_effect_audience(fx);
	if (r->sink.effect)
		r->sink.effect(r->sink.user, &out);
}

void ref_fault(struct referee *r, uint64_t ms, const char *what)
{
	struct game_effect fx = {.kind = GAME_FX_FAULT, .ms = ms};

	/* The daemon logs it as the referee's fault. */
	snprintf(fx.text, sizeof(fx.text), "%s", what);
	ref_effect(r, &fx);
}

int ref_emit(struct referee *r, struct game_record *rec)
{
	if (game_apply(&r->g, rec)) {
		char what[80];

		snprintf(what, sizeof(what), "%s record refused by the game",
			 game_record_name(rec->type));
		ref_fault(r, rec->ms, what);
		return -1;
	}
	/* The move's SAN as the game wrote it when the move was applied. */
	if (rec->type == REC_MADE || rec->type == REC_RELAYED)
		memcpy(rec->u.made.san, r->g.plies[rec->u.made.ply - 1].san,
		       sizeof(rec->u.made.san));
	rec->audience = game_record_audience(rec);
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

/* ------------------------------------------------------------------ games */

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

void ref_new_game(struct referee *r, const struct game_params *params, uint64_t now)
{
	struct game_record rec = ref_record(REC_GAME, now);
	struct game_effect fx = {.kind = GAME_FX_GAME_START, .ms = now};

	complete_ended_game(r, now);
	flush(r, now);
	rec.u.game = *params;
	if (r->sink.new_game)
		r->sink.new_game(r->sink.user, &rec.u.game);
	memset(r->warned, 0, sizeof(r->warned));
	r->guide_next = 0;
	r->cleared = false;
	r->menu.state = MENU_CLOSED;
	r->resumed = false;
	r->relay_guide = false;
	if (ref_emit(r, &rec))
		return;
	ref_effect(r, &fx);
	ref_fairplay_check(r, now);
}

static void new_game(struct referee *r, uint64_t now)
{
	ref_new_game(r, &r->set.next, now);
}

void referee_set_storage_lag(struct referee *r, uint32_t lag_ms)
{
	r->storage_lag_ms = lag_ms;
}

void referee_start(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;

	/* A game on, or over and its result not yet approved (8.7), goes on. */
	if (g->open && g->result.state != RESULT_APPROVED) {
		struct game_record rec = ref_record(REC_RESTART, now);
		struct game_effect fx = {.kind = GAME_FX_GAME_START, .ms = now};

		r->resumed = true;
		rec.u.restart.plies = game_plies(g);
		rec.u.restart.run = g->restarts + 1;
		rec.u.restart.lag_ms = (int)r->storage_lag_ms;
		ref_emit(r, &rec);
		ref_effect(r, &fx);
		if (!game_over(g) && g->params.mode == GAME_ONLINE) {
			/* The server's clock is the clock: the online process brings it back. */
			ref_say(r, GAME_PRIVATE, GAME_MSG_RESUMED_NO_CLOCK, now);
		} else if (!game_over(g)) {
			ref_say(r, GAME_PRIVATE,
				g->has_clock ? GAME_MSG_RESUMED_AFTER_RESTART
					     : GAME_MSG_RESUMED_NO_CLOCK,
				now);
			ref_say_clock_gap(r, now);
		}
		return;
	}
	new_game(r, now);
	flush(r, now);
}

/* After a game is over and its result approved (8.7), or the board cleared, the board set
 * up in the start position (and still for the settle time) begins the next game: the
 * finished one stays under games/ with its journal.  Setting it up is the player's asking
 * for the next game: a board that already shows the start position when the result is
 * approved (a game that ends with it, a board put back before the approval) begins nothing
 * until it is changed and set up again.  A game whose result the arbiter still has to decide
 * ("*", result.h) begins nothing either. */
static uint64_t next_game_due(const struct referee *r)
{
	struct chess_pos start;
	struct chess_error err;
	bool asked = r->cleared || (r->g.result.state == RESULT_APPROVED &&
				    r->det.last_change_ms > r->g.approved_ms);

	if (!game_over(&r->g) || result_undecided(&r->g.result) || !r->board_ready || !asked ||
	    r->review.state != REVIEW_OFF || chess_fen_parse(&start, r->set.next.fen, &err) ||
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
	ref_engine_press_now(r, now);
	complete_ended_game(r, now);
	r->scoresheet_dirty = true;
	flush(r, now);
}

/* ------------------------------------------------------------------ events */

int ref_last_moves(struct referee *r, int moves, uint64_t now)
{
	struct game_effect fx = {.kind = GAME_FX_LAST_MOVES, .ms = now, .channel = GAME_PRIVATE};
	int plies = game_plies(&r->g);

	if (!plies) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_NOTHING_TO_REPEAT, now);
		return 0;
	}
	fx.total = plies < 2 * moves ? plies : 2 * moves;
	fx.ply = plies - fx.total;
	ref_effect(r, &fx);
	return fx.total;
}

static void button(struct referee *r, enum game_button b, bool down, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;

	/* repeat held alone is the last moves: another button, or letting go, is not. */
	if (b == GAME_BUTTON_REPEAT ? !down : down)
		r->repeat_held = false;
	/* The arbiter's menu on the buttons: its chord, and every button while it is open. */
	if (ref_arbiter_button(r, b, down, now))
		return;
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
	/* A review has the buttons: next, back, where are we (referee_train.c). */
	if (ref_review_button(r, b, now))
		return;
	switch (b) {
	case GAME_BUTTON_PLAYER_CLOCK:
		ref_engine_press_now(r, now);
		ref_press(r, player, now);
		break;
	case GAME_BUTTON_OPPONENT_CLOCK:
		ref_engine_press_now(r, now);
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
		r->repeat_held = true;
		r->repeat_down_ms = now;
		break;
	}
	case GAME_BUTTON_SELECT:
		ref_select(r, now);
		break;
	case GAME_BUTTON_PAUSE:
		/* The player calls the arbiter (6.11.2): a mismatch kept from them opens. */
		ref_mismatch_open_held(r, now);
		ref_pause_button(r, now);
		break;
	case GAME_BUTTON_COUNT:
		break;
	}
}

static void tick(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;

	maybe_next_game(r, now);
	ref_check_flag(r, now);
	ref_checkpoint(r, now);
	if (promotion_is_pending(&g->promotion) && g->promotion.choice != CHESS_NO_PIECE &&
	    (!g->has_clock || game_position(g)->side != g->params.player) &&
	    now >= g->promotion.last_select_ms + r->set.promotion_ms)
		ref_promotion_final(r, now);
	ref_poll_detect(r, now);
	ref_check_warnings(r, now);
	ref_menu_tick(r, now);
	ref_review_tick(r, now);
	if (r->repeat_held && now >= r->repeat_down_ms + r->set.hold_ms) {
		r->repeat_held = false;
		ref_last_moves(r, REFEREE_LAST_MOVES, now);
	}
	ref_arbiter_tick(r, now);
	if (now >= ref_engine_deadline(r))
		ref_engine_press_now(r, now);
}

void referee_handle(struct referee *r, const struct game_event *ev)
{
	if (!r->g.open)
		return;
	switch (ev->kind) {
	case GAME_EV_BOARD_READY:
		ref_board_ready(r, ev->sensed, ev->ms);
		break;
	case GAME_EV_SQUARE:
		ref_square(r, ev->index, ev->active, ev->ms);
		break;
	case GAME_EV_BUTTON:
		if (ev->index >= 0 && ev->index < GAME_BUTTON_COUNT)
			button(r, (enum game_button)ev->index, ev->active, ev->ms);
		break;
	case GAME_EV_TICK:
		tick(r, ev->ms);
		break;
	case GAME_EV_SAID:
		ref_engine_said(r, ev->index, ev->ms);
		break;
	}
	flush(r, ev->ms);
}

void referee_command(struct referee *r, const struct game_command *cmd, uint64_t now,
		     struct game_reply *reply)
{
	if (!r->g.open) {
		game_reply_set(reply, REPLY_NO_GAME, NULL);
		return;
	}
	ref_engine_press_now(r, now);
	ref_command(r, cmd, now, reply);
}

void referee_flush(struct referee *r, uint64_t now)
{
	flush(r, now);
}

uint64_t referee_deadline(const struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;
	uint64_t best = UINT64_MAX, t;

	if (!g->open)
		return best;
	if (ref_detecting(r)) {
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
	t = ref_arbiter_deadline(r);
	if (t < best)
		best = t;
	t = ref_menu_deadline(r);
	if (t < best)
		best = t;
	t = ref_review_deadline(r);
	if (t < best)
		best = t;
	if (r->repeat_held && r->repeat_down_ms + r->set.hold_ms < best)
		best = r->repeat_down_ms + r->set.hold_ms;
	t = ref_engine_deadline(r);
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
	r->arb.held = -1;
	r->review.aloud = settings->review_aloud;
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
