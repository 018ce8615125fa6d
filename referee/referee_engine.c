/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the training engine tells the player besides its moves (docs/training.md "Playing the
 * computer"), casual play only: its strength as set (and that a rating asked for was held to
 * its range), the clocks stopped and the way on when it is lost in a game, its answer to the
 * player's draw offer (by its evaluation, from the training process), the evaluation on request,
 * and a casual game begun from a position, its board guided.  The training process's side is
 * cli/cli_train.c; the engine's state is referee_train.c's.
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

static void say_count(struct referee *r, enum game_msg msg, int count, uint64_t now)
{
	struct game_effect fx = {
	    .kind = GAME_FX_SAY, .ms = now, .channel = GAME_PRIVATE, .msg = msg, .count = count};

	ref_effect(r, &fx);
}

static bool engine_plays(const struct referee *r)
{
	return ref_casual(r) && r->engine.state == REFEREE_ENGINE_PLAYING;
}

/* ------------------------------------------------------------------ its strength */

void ref_engine_strength_said(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	bool white = r->engine.side == CHESS_WHITE;

	if (cmd->engine_elo > 0)
		say_count(r,
			  white ? GAME_MSG_ENGINE_PLAYS_WHITE_ELO : GAME_MSG_ENGINE_PLAYS_BLACK_ELO,
			  cmd->engine_elo, now);
	else if (cmd->engine_level >= 0)
		say_count(r,
			  white ? GAME_MSG_ENGINE_PLAYS_WHITE_LEVEL
				: GAME_MSG_ENGINE_PLAYS_BLACK_LEVEL,
			  cmd->engine_level, now);
	else
		ref_say(r, GAME_PRIVATE,
			white ? GAME_MSG_ENGINE_PLAYS_WHITE : GAME_MSG_ENGINE_PLAYS_BLACK, now);
	/* A rating the engine cannot play: the player hears what it plays instead. */
	if (cmd->engine_elo > 0 && cmd->engine_asked > 0 && cmd->engine_asked != cmd->engine_elo)
		say_count(r,
			  cmd->engine_asked < cmd->engine_elo ? GAME_MSG_ENGINE_ELO_LOWEST
							      : GAME_MSG_ENGINE_ELO_HIGHEST,
			  cmd->engine_elo, now);
	/* Back after it was lost: the clocks it stopped run again. */
	if (r->engine.stopped_clocks) {
		r->engine.stopped_clocks = false;
		ref_pause(r, false, "engine", now);
	}
}

void ref_engine_lost(struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;

	r->engine.draw_asked = r->engine.eval_asked = false;
	/* Its last move's press, if it waits for the announcement, is made first: the move was
	 * made. */
	ref_engine_press_now(r, now);
	if (!g->open || game_over(g) || g->params.mode != GAME_CASUAL)
		return;
	/* Nobody would press the engine's clock: they stand until it is back (the menu's
	 * training entry starts it again), or the player plays on alone (pause starts them in
	 * casual play). */
	if (g->has_clock && g->clock.state == CLOCK_RUNNING) {
		ref_pause(r, true, "engine", now);
		r->engine.stopped_clocks = true;
	}
	if (g->has_clock && g->clock.state == CLOCK_PAUSED)
		ref_say(r, GAME_PRIVATE,
			r->set.train_menu ? GAME_MSG_ENGINE_LOST_HOW_ON
					  : GAME_MSG_ENGINE_LOST_PAUSE,
			now);
}

/* ------------------------------------------------------------------ a draw offered */

void ref_engine_draw_offered(struct referee *r, uint64_t now)
{
	struct game_effect fx = {
	    .kind = GAME_FX_ENGINE_ASK, .ms = now, .request = GAME_ENGINE_DRAW};

	if (!engine_plays(r))
		return;
	r->engine.draw_asked = true;
	r->engine.draw_ply = game_plies(&r->g);
	fx.ply = game_plies(&r->g);
	fx.color = r->engine.side;
	ref_effect(r, &fx);
}

static void draw_answer(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;

	/* The offer stands until the engine answers or moves (9.1.2.1); its answer to an older
	 * one, or after the game changed, is no answer. */
	if (!r->engine.draw_asked || game_plies(g) != r->engine.draw_ply ||
	    g->offer_color != g->params.player || game_over(g)) {
		r->engine.draw_asked = false;
		ref_answer(r, cmd, now, REPLY_NO_DRAW_ASKED, NULL);
		return;
	}
	r->engine.draw_asked = false;
	if (!cmd->engine_accept) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_ENGINE_DECLINES_DRAW, now);
		ref_answer(r, cmd, now, REPLY_ENGINE_DECLINES_DRAW,
			   REPLY_ARGS(REPLY_S("engine", r->engine.name)));
		return;
	}
	ref_say(r, GAME_PRIVATE, GAME_MSG_ENGINE_ACCEPTS_DRAW, now);
	ref_end_game(r, "1/2-1/2", TERMINATION_NORMAL, "draw agreed", cmd->author, now);
	ref_say(r, GAME_PUBLIC, GAME_MSG_RESULT_DRAW, now);
	ref_answer(r, cmd, now, REPLY_DRAW_AGREED, NULL);
}

void ref_engine_moved(struct referee *r, uint64_t now)
{
	struct game_effect fx = {.kind = GAME_FX_SAY,
				 .ms = now,
				 .channel = GAME_PRIVATE,
				 .msg = GAME_MSG_ENGINE_DECLINES_DRAW,
				 .after_move = true};

	/* Its move before its answer rejects the offer (9.1.2.1): said after the move. */
	if (r->engine.draw_asked) {
		r->engine.draw_asked = false;
		ref_effect(r, &fx);
	}
}

/* ------------------------------------------------------------------ the evaluation */

void ref_cmd_eval(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game_effect fx = {
	    .kind = GAME_FX_ENGINE_ASK, .ms = now, .request = GAME_ENGINE_EVAL};

	if (!ref_engine_asked(r, cmd, now))
		return;
	r->engine.eval_asked = true;
	r->engine.eval_ply = game_plies(&r->g);
	fx.ply = game_plies(&r->g);
	fx.color = r->g.params.player;
	ref_effect(r, &fx);
	ref_answer(r, cmd, now, REPLY_EVAL_ASKED, REPLY_ARGS(REPLY_S("engine", r->engine.name)));
}

static void eval_answer(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game_effect fx = {.kind = GAME_FX_EVAL, .ms = now, .channel = GAME_PRIVATE};

	if (!r->engine.eval_asked || cmd->ply != r->engine.eval_ply ||
	    game_plies(&r->g) != r->engine.eval_ply) {
		ref_answer(r, cmd, now, REPLY_NO_EVAL_ASKED, REPLY_ARGS(REPLY_N("ply", cmd->ply)));
		return;
	}
	r->engine.eval_asked = false;
	fx.count = cmd->engine_cp;
	fx.mate = cmd->engine_mate;
	fx.ply = cmd->ply;
	ref_effect(r, &fx);
	if (cmd->engine_mate)
		ref_answer(r, cmd, now, REPLY_EVAL_SAID_MATE,
			   REPLY_ARGS(REPLY_S("color", game_color_name(cmd->engine_mate < 0)),
				      REPLY_N("moves", cmd->engine_mate < 0 ? -cmd->engine_mate
									    : cmd->engine_mate)));
	else
		ref_answer(r, cmd, now, REPLY_EVAL_SAID,
			   REPLY_ARGS(REPLY_N("centipawns", cmd->engine_cp)));
}

void ref_engine_answer(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	if (cmd->engine_op == ENGINE_OP_DRAW)
		draw_answer(r, cmd, now);
	else
		eval_answer(r, cmd, now);
}

/* ------------------------------------------------------------------ a new game */

/* The new game's start on the board: guided square by square (D.2.9's set-up, as after a
 * takeback to the start). */
static void setup_start(struct referee *r, uint64_t now)
{
	struct game_record rec = ref_record(REC_TAKEBACK, now);

	snprintf(rec.author, sizeof(rec.author), "player");
	rec.u.rollback_ply = 0;
	rec.clock = r->g.clock;
	if (ref_emit(r, &rec) == 0)
		ref_setup_begin_with(r, GAME_MSG_NEW_GAME_SETUP, now);
}

/* A game is on: moves made (or the clock started) and no result yet. */
static bool game_on(const struct game *g)
{
	return g->open && !game_over(g) &&
	       (game_plies(g) > 0 || (g->has_clock && g->clock.state != CLOCK_NOT_STARTED));
}

int ref_new_game_from(struct referee *r, const struct chess_pos *start, uint64_t now)
{
	struct game_params p = r->set.next;
	struct game *g = &r->g;

	if (game_on(g) || review_active(&r->review))
		return -1;
	p.mode = GAME_CASUAL;
	chess_fen_format(start, p.fen, sizeof(p.fen));
	ref_new_game(r, &p, now);
	if (!g->open || strcmp(g->params.fen, p.fen))
		return -1;
	if (r->board_ready)
		detect_init(&r->det, &r->set.detect, game_position(g), r->det.sensed);
	/* The pegs as the new game's start has them: guided square by square, as after a
	 * takeback. */
	if (r->board_ready && detect_differences(&r->det))
		setup_start(r, now);
	else
		ref_say(r, GAME_PRIVATE, GAME_MSG_NEW_GAME, now);
	return 0;
}

void ref_cmd_new_game(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct chess_pos start;
	struct chess_error err;

	if (!ref_mode_allows(r, cmd, now))
		return;
	if (!cmd->text[0])
		chess_pos_init_start(&start);
	else if (chess_fen_parse(&start, cmd->text, &err)) {
		ref_answer(
		    r, cmd, now, REPLY_NEW_GAME_BAD_FEN,
		    REPLY_ARGS(REPLY_N("column", err.column), REPLY_S("detail", err.message)));
		return;
	}
	if (review_active(&r->review)) {
		ref_answer(r, cmd, now, REPLY_REVIEW_ON, NULL);
		return;
	}
	if (ref_new_game_from(r, &start, now)) {
		ref_answer(r, cmd, now, REPLY_NEW_GAME_GAME_ON,
			   REPLY_ARGS(REPLY_N("plies", game_plies(&r->g))));
		return;
	}
	ref_answer(r, cmd, now, REPLY_NEW_GAME_BEGUN,
		   REPLY_ARGS(REPLY_S("game", r->g.params.id),
			      REPLY_N("differ", r->board_ready ? __builtin_popcountll(
								     detect_differences(&r->det))
							       : 0)));
}
