/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * game_apply()'s records of the clock (game.h; docs/arbiter.md "The clock and the rulings,
 * for the arbiter"): presses and the moves they complete, flags, pauses and resumptions, the
 * arbiter's clocks and time control, checkpoints and restarts, and who stopped the clocks.
 * Every check that can fail comes before the first change.
 */
#include "game/game_int.h"

#include <stdio.h>
#include <string.h>

static int adopt_clock(struct game *g, const struct game_record *rec)
{
	if (!g->has_clock || clock_adopt(&g->clock, &rec->clock))
		return -1;
	g->last_clock_ms = rec->ms;
	return 0;
}

/* What a restart left uncharged is settled: by the arbiter, or by the next restart, which
 * finds its own gap or none (a gap belongs to the restart that found it). */
static void settle_uncharged(struct game *g)
{
	g->uncharged_ms = 0;
	g->uncharged_up_to_ms = 0;
}

int game_apply_clock_set(struct game *g, const struct game_record *rec)
{
	if (adopt_clock(g, rec))
		return -1;
	/* The counters the arbiter gave settle every move made before them: one still waiting
	 * for its press is not counted again when the press comes. */
	if (rec->u.counters_set)
		for (int i = 0; i < game_plies(g); i++)
			if (!(g->plies[i].flags & GAME_PLY_COMPLETE))
				g->plies[i].flags |= GAME_PLY_COUNTED;
	/* The arbiter set the clocks: a pending flag is his decision now, and the time the
	 * restart left uncharged is settled. */
	if (g->result.state == RESULT_FLAG_PENDING)
		result_reset(&g->result);
	settle_uncharged(g);
	g->clock_uncertain = false;
	g->paused_completed = -1;
	g->recount_from = game_plies(g);
	g->ignored_presses[0] = g->ignored_presses[1] = 0;
	return 0;
}

/* The arbiter corrects the time control (6.10.2): from now on, the readings and counters as
 * the record's clock has them; the scoresheet's TimeControl tag follows. */
int game_apply_clock_control(struct game *g, const struct game_record *rec)
{
	struct time_control tc, before = g->tc;

	if (!g->has_clock || game_over(g) ||
	    time_control_parse(rec->u.time_control, &tc, NULL, 0) || tc.count == 0)
		return -1;
	g->tc = tc;
	g->clock.tc = tc;
	if (adopt_clock(g, rec)) {
		g->tc = before;
		g->clock.tc = before;
		return -1;
	}
	snprintf(g->params.time_control, sizeof(g->params.time_control), "%s", rec->u.time_control);
	return 0;
}

int game_apply_restart(struct game *g, const struct game_record *rec)
{
	g->restarts++;
	settle_uncharged(g);
	if (!g->has_clock)
		return 0;
	/* The clock ran at least until the journal's last record before the power went, and
	 * at most until the next checkpoint was due, and on storage: the checkpoints and
	 * records written then may still have waited for their sync when the power went
	 * (the storage's lag, as the journal noted it). */
	if (g->clock.state == CLOCK_RUNNING && !g->clock_uncertain) {
		int64_t known = g->last_record_ms > g->last_clock_ms
				    ? (int64_t)(g->last_record_ms - g->last_clock_ms)
				    : 0;
		int64_t most = GAME_CHECKPOINT_MS + (int64_t)rec->u.restart.lag_ms;

		g->uncharged_ms = known;
		g->uncharged_up_to_ms = known > most ? known : most;
		g->uncharged_color = g->clock.running;
	}
	if (g->clock.state == CLOCK_RUNNING) {
		g->stopped_by = STOP_RESTART;
		snprintf(g->stopped_author, sizeof(g->stopped_author), "-");
	}
	clock_rebase(&g->clock, rec->ms);
	g->last_clock_ms = rec->ms;
	return 0;
}

int game_apply_checkpoint(struct game *g, const struct game_record *rec)
{
	if (adopt_clock(g, rec))
		return -1;
	if (rec->u.checkpoint_recovered) {
		/* Put together from the last readings known: it stands until the arbiter
		 * decides, and what the power cut gave back is not known. */
		g->clock_uncertain = true;
		g->readings_lost_before = game_plies(g);
		if (g->clock.state == CLOCK_RUNNING)
			clock_pause(&g->clock, rec->ms);
		settle_uncharged(g);
	}
	return 0;
}

/* A press that switched the presser's clock: what it did to the clock belongs to the move it
 * completes (its complete record follows), or it stays open for a ruling. */
static void switching_press(struct game *g, const struct game_record *rec, bool waiting,
			    const struct game_press_memo *what)
{
	int color = rec->u.press.color & 1;
	enum press_kind kind = rec->u.press.kind;
	struct game_open_press *o = &g->open_press[color];

	o->open = false;
	if (waiting) {
		g->press_memo[color] = *what;
		g->press_memo[color].pending = true;
		if (kind != PRESS_ILLEGAL)
			return;
		/* The press completed the move made before the board became impossible: the
		 * impossible board is the illegal move; the press's gain is the move's. */
		*o = (struct game_open_press){.open = true, .kind = kind};
	} else {
		*o = (struct game_open_press){.open = true,
					      .kind = kind,
					      .counted = what->counted,
					      .earned_ms = what->earned_ms};
	}
	o->plies = game_plies(g);
	o->ms = rec->ms;
}

/* A press while the clocks stand (6.11): the presser's move is complete, without a reading;
 * their clock runs no more once the arbiter resumes. */
static void paused_press(struct game *g, const struct game_record *rec, bool turn, bool waiting,
			 const struct game_press_memo *what)
{
	int color = rec->u.press.color & 1;

	if (waiting) {
		g->press_memo[color] = *what;
		g->press_memo[color].pending = true;
		if (turn) {
			g->paused_completed = color;
			g->paused_ply = completion_waiting(&g->completion, color);
		}
	} else if (turn && color != g->params.player && what->counted) {
		/* The opponent's move is on their board only: it completes when it reaches the
		 * tactile board. */
		completion_early_press(&g->completion, -1);
		g->open_press[color] = (struct game_open_press){.open = true,
								.kind = PRESS_PAUSED,
								.counted = true,
								.plies = game_plies(g),
								.ms = rec->ms};
		g->paused_completed = color;
		g->paused_ply = -1;
	}
}

int game_apply_press(struct game *g, const struct game_record *rec)
{
	int color = rec->u.press.color & 1;
	enum press_kind kind = rec->u.press.kind;
	bool waiting = completion_waiting(&g->completion, color) >= 0;
	bool turn = g->clock.running == color;
	struct chess_clock before = g->clock;
	struct game_press_memo what = {0};

	if (adopt_clock(g, rec))
		return -1;
	if (kind == PRESS_IDLE && before.state == CLOCK_RUNNING && before.running != color)
		g->ignored_presses[color]++;
	what.counted = g->clock.moves[color] > before.moves[color];
	what.earned_ms =
	    clock_remaining(&g->clock, color, rec->ms) - clock_remaining(&before, color, rec->ms);
	if (kind == PRESS_EMPTY)
		g->empty_presses[color]++;
	if (kind == PRESS_MOVE || kind == PRESS_EMPTY || kind == PRESS_ILLEGAL)
		switching_press(g, rec, waiting, &what);
	else if (kind == PRESS_PAUSED)
		paused_press(g, rec, turn, waiting, &what);
	if (color == g->params.player && (kind == PRESS_EMPTY || kind == PRESS_ILLEGAL))
		g->player_pressed_first = true;
	else if (color != g->params.player && kind == PRESS_MOVE)
		g->player_pressed_first = false;
	/* An opponent's press before their move reached the tactile board waits for it. */
	if (kind == PRESS_MOVE && color != g->params.player && !waiting)
		completion_early_press(&g->completion, g->clock.last_press_ms[color]);
	return 0;
}

/* A move complete: by its press (what the press did is in the memo), or, with the clock in
 * the record, counted without one (6.2.1.2; a flag's check, 6.4). */
int game_apply_complete(struct game *g, const struct game_record *rec)
{
	int ply = rec->u.complete.ply - 1, color;
	struct game_press_memo *memo;
	struct game_ply *p;

	if (ply < 0 || ply >= game_plies(g))
		return -1;
	color = game_ply_color(g, ply);
	p = &g->plies[ply];
	memo = &g->press_memo[color];
	if (rec->u.complete.counted) {
		struct chess_clock before = g->clock;

		if (adopt_clock(g, rec))
			return -1;
		if (g->clock.moves[color] > before.moves[color])
			p->flags |= GAME_PLY_COUNTED;
		p->earned_ms += (int32_t)(clock_remaining(&g->clock, color, rec->ms) -
					  clock_remaining(&before, color, rec->ms));
	} else if (memo->pending && !(p->flags & GAME_PLY_COMPLETE)) {
		memo->pending = false;
		if (memo->counted)
			p->flags |= GAME_PLY_COUNTED;
		p->earned_ms = (int32_t)memo->earned_ms;
	}
	p->clk_ms = rec->u.complete.clk_ms;
	p->flags |= GAME_PLY_COMPLETE;
	completion_done(&g->completion, color, ply);
	g->last_complete_ms = rec->ms;
	return 0;
}

int game_apply_flag(struct game *g, const struct game_record *rec)
{
	if (g->result.state != RESULT_ON || adopt_clock(g, rec))
		return -1;
	result_flag(&g->result, rec->u.flag.color, rec->u.flag.result);
	return 0;
}

/* The clocks stop with the game, unless the move that ended it still waits for its press:
 * that press completes it and gives its reading (Art. 6.2.1); until then the reading when it
 * was made stands for it. */
void game_stop_clock(struct game *g, uint64_t ms)
{
	int last = game_plies(g) - 1;
	int mover = last >= 0 ? game_ply_color(g, last) : 0;

	if (!g->has_clock)
		return;
	if (last >= 0 && completion_waiting(&g->completion, mover) == last &&
	    g->clock.state == CLOCK_RUNNING && g->clock.running == mover) {
		int64_t left = clock_remaining(&g->clock, mover, ms);

		g->completion.final_clk = left > 0 ? left : 0;
		return;
	}
	clock_stop(&g->clock, ms);
}

int game_apply_pause(struct game *g, const struct game_record *rec)
{
	if (adopt_clock(g, rec))
		return -1;
	g->stopped_by = !strcmp(rec->author, "player") ? STOP_PLAYER
			: g->params.mode == GAME_CASUAL && !strcmp(rec->author, "engine")
			    ? STOP_ENGINE
			    : STOP_ARBITER;
	snprintf(g->stopped_author, sizeof(g->stopped_author), "%s", rec->author);
	g->paused_completed = -1;
	return 0;
}

int game_apply_resume(struct game *g, const struct game_record *rec)
{
	if (adopt_clock(g, rec))
		return -1;
	/* The arbiter's resumption after a claim, or of a clock a restart left uncertain or
	 * with a gap: the game goes on, and what the restart left uncharged is settled. */
	g->claim.open = false;
	g->clock_uncertain = false;
	settle_uncharged(g);
	g->paused_completed = -1;
	return 0;
}

/* Who stopped the clocks: running (or ended) clocks have no one; clocks that a ruling of the
 * arbiter left standing (a flag's clock set or retraced) are the arbiter's. */
void game_note_stop(struct game *g, const struct game_record *rec)
{
	if (!g->has_clock || g->clock.state != CLOCK_PAUSED) {
		g->stopped_by = STOP_NONE;
		g->stopped_author[0] = '\0';
		g->paused_completed = -1;
	} else if (g->stopped_by == STOP_NONE) {
		g->stopped_by = STOP_ARBITER;
		snprintf(g->stopped_author, sizeof(g->stopped_author), "%s",
			 rec->author[0] ? rec->author : "-");
	}
}