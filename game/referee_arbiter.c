/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's commands for irregularities: the opponent's move relayed by an assistant
 * (D.2.10.1-2) and its correction (D.2.8), the game retraced to the last position both
 * scoresheets agree on (D.2.9), an illegal move and its penalty (7.5), the arbiter's clock
 * settings (6.10.2, 7.1), and the ruling on a draw claim (9.5).  The numbers and rules that
 * differ between editions of the Laws come from rules.h.
 */
#include "game/referee_int.h"

#include <stdio.h>
#include <string.h>

static const char *color_word(int color)
{
	return game_color_name(color);
}

/* "12. Nf3" or "12... Nf6" for ply `ply`. */
static void ply_name(const struct game *g, int ply, char *buf, size_t size)
{
	snprintf(buf, size, "%d.%s %s", game_move_number(g, ply),
		 game_ply_color(g, ply) == CHESS_WHITE ? "" : "..", g->plies[ply].san);
}

/* ------------------------------------------------------------------ the relayed move */

/* The opponent's move as an assistant relays it: announced publicly; the tactile board must
 * then show it.  The same move already there is taken without a second announcement; a
 * second relay before the opponent's press replaces the first and is said as a correction
 * (D.2.8). */
void ref_cmd_move(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player, last = game_plies(g) - 1;
	struct chess_pos pos = *game_position(g);
	struct chess_error err;
	bool correction = false;
	chess_move m;
	char name[40];

	if (pos.side == player) {
		/* The opponent's move is in the game already: the same once more, or a
		 * correction before their press. */
		if (last < 0 || game_ply_color(g, last) == player) {
			ref_reply(r, cmd, false, now, "it is not the opponent's turn");
			return;
		}
		game_position_before(g, last, &pos);
	}
	if (chess_move_parse_san(&pos, cmd->move, &m, &err)) {
		ref_reply(r, cmd, false, now, "'%s' is not a legal move for %s: %s", cmd->move,
			  color_word(pos.side), err.message);
		return;
	}
	if (pos.side != game_position(g)->side) {
		ply_name(g, last, name, sizeof(name));
		if (m == g->plies[last].move) {
			ref_reply(r, cmd, true, now, "%s is in the game already", name);
			return;
		}
		if (g->plies[last].flags & GAME_PLY_COMPLETE) {
			ref_reply(
			    r, cmd, false, now,
			    "%s was completed by the opponent's press: too late to correct it "
			    "(D.2.8); the arbiter may roll back",
			    name);
			return;
		}
		if (ref_withdraw_last(r, cmd->author, now)) {
			ref_reply(r, cmd, false, now, "%s cannot be withdrawn", name);
			return;
		}
		correction = true;
	}
	/* The opponent's reply: a mismatch kept from the tactile player opens now. */
	ref_mismatch_open_held(r, now);
	if (ref_make_move(r, m, correction, cmd->author, now)) {
		ref_reply(r, cmd, false, now, "the move does not fit the game");
		return;
	}
	ply_name(g, game_plies(g) - 1, name, sizeof(name));
	ref_reply(r, cmd, true, now, "%s %s", name,
		  correction ? "relayed as a correction" : "relayed");
}

/* ------------------------------------------------------------------ retraced games */

void ref_cmd_rollback(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_ROLLBACK, cmd, now);
	int plies = game_plies(g);
	char name[40] = "the start";

	if (!plies) {
		ref_reply(r, cmd, false, now,
			  "the game has no moves yet: there is nothing to roll back");
		return;
	}
	if (cmd->ply < 0 || cmd->ply >= plies) {
		ref_reply(r, cmd, false, now,
			  "the game has %d %s: rollback takes a ply from 0 (the start) to %d",
			  plies, plies == 1 ? "ply" : "plies", plies - 1);
		return;
	}
	if (cmd->ply > 0)
		ply_name(g, cmd->ply - 1, name, sizeof(name));
	rec.u.rollback_ply = cmd->ply;
	if (ref_emit(r, &rec)) {
		ref_reply(r, cmd, false, now, "the rollback does not fit the game");
		return;
	}
	ref_setup_begin(r, now);
	ref_reply(
	    r, cmd, true, now,
	    "retraced to ply %d (after %s); %d later plies kept as a comment; the clocks stay "
	    "until set",
	    cmd->ply, name, plies - cmd->ply);
}

/* The kind of game (Appendix A/B; 2005: B1, C1) picks the edition's rows. */
static enum clock_game_kind game_kind(const struct game *g)
{
	return rules_kind(g->rules, &g->tc);
}

static void clock_text(int64_t ms, char *buf, size_t size)
{
	clock_format_hms(ms, buf, size);
}

/* The side `illegal` rules on without a colour: the last one that completed a move or made
 * a press that completed none (7.5.3; the opponent's press whose move is not on the board). */
static int illegal_default_color(const struct game *g)
{
	uint64_t at = g->last_complete_ms;
	int color = -1;

	for (int i = game_plies(g) - 1; i >= 0 && color < 0; i--)
		if (g->plies[i].flags & GAME_PLY_COMPLETE)
			color = game_ply_color(g, i);
	for (int c = 0; c < 2; c++)
		if (g->open_press[c].open && (color < 0 || g->open_press[c].ms >= at)) {
			color = c;
			at = g->open_press[c].ms;
		}
	return color;
}

/* What `illegal` rules: the colour's open press, or its last completed move. */
struct illegal_target {
	bool press;
	int ply; /* the move (0-based), or the plies there were at the press */
	char name[64];
};

static bool illegal_target(const struct game *g, int color, struct illegal_target *t)
{
	const struct game_open_press *o = &g->open_press[color];

	memset(t, 0, sizeof(*t));
	if (o->open) {
		t->press = true;
		t->ply = o->plies;
		snprintf(t->name, sizeof(t->name), "%s's press %s", color_word(color),
			 o->kind == PRESS_EMPTY	    ? "with no move made"
			 : o->kind == PRESS_ILLEGAL ? "of a board no legal move explains"
						    : "whose move is not on the tactile board");
		return true;
	}
	for (int i = game_plies(g) - 1; i >= 0; i--)
		if (game_ply_color(g, i) == color && (g->plies[i].flags & GAME_PLY_COMPLETE)) {
			t->ply = i;
			ply_name(g, i, t->name, sizeof(t->name));
			return true;
		}
	return false;
}

/* Whether the offender's opponent has made a move since (2005 B6, C3: too late then). */
static bool opponent_moved_since(const struct game *g, int color, const struct illegal_target *t)
{
	for (int i = t->press ? t->ply : t->ply + 1; i < game_plies(g); i++)
		if (game_ply_color(g, i) != color)
			return true;
	return false;
}

/* Art. 7.1 (2005: 6.14): the arbiter sets the clocks after an irregularity.  The device keeps
 * each side's thinking time as used (it was spent), and takes back what the retracted presses
 * gave: their moves on the counter (else the next period would come early) and their
 * increments, Bronstein credits and periods' time.  The other readings stand; `clock set`
 * corrects anything else.  Sums per colour into moves[] and earned[]. */
static void retracted_gains(const struct game *g, const struct illegal_target *t, int color,
			    int moves[2], int64_t earned[2])
{
	const struct game_open_press *o;

	moves[0] = moves[1] = 0;
	earned[0] = earned[1] = 0;
	if (t->press) {
		o = &g->open_press[color];
		moves[color] = o->counted;
		earned[color] = o->earned_ms;
		return;
	}
	for (int i = t->ply; i < game_plies(g); i++) {
		int c = game_ply_color(g, i);

		if (!(g->plies[i].flags & GAME_PLY_COMPLETE))
			continue;
		moves[c] += (g->plies[i].flags & GAME_PLY_COUNTED) != 0;
		earned[c] += g->plies[i].earned_ms;
	}
	for (int c = 0; c < 2; c++) {
		o = &g->open_press[c];
		if (o->open && o->plies > t->ply) {
			moves[c] += o->counted;
			earned[c] += o->earned_ms;
		}
	}
}

/* The game ends on the count that loses (7.5.5; 2005 7.4 b, and C3 at the first in blitz):
 * lost, or, where the edition says so, drawn when the opponent cannot checkmate by any
 * series of legal moves. */
static void illegal_ends_game(struct referee *r, const struct game_command *cmd, int color,
			      int count, const struct illegal_target *t,
			      const struct rules_illegal *law, uint64_t now)
{
	struct game *g = &r->g;
	int winner = !color;
	const char *article = law->article;
	const char *result =
	    !law->draw_without_mate ||
		    chess_pos_can_checkmate(game_position(g), (enum chess_color)winner)
		? result_win(winner)
		: "1/2-1/2";
	char reason[96];

	snprintf(reason, sizeof(reason), "%s's illegal move number %d (%s)",
		 color ? "Black" : "White", count, article);
	ref_end_game(r, result, TERMINATION_RULES_INFRACTION, reason, cmd->author, now);
	ref_say(r, GAME_PUBLIC,
		!strcmp(result, "1-0")	 ? GAME_MSG_RESULT_WHITE_WINS
		: !strcmp(result, "0-1") ? GAME_MSG_RESULT_BLACK_WINS
					 : GAME_MSG_RESULT_DRAW,
		now);
	ref_reply(r, cmd, true, now,
		  "%s illegal: %s's illegal move number %d ends the game: %s (%s)", t->name,
		  color_word(color), count, result, article);
}

/* Art. 7.5.1, 7.5.5 (2005: 7.4, B6, C3): a side's last completed move, or its press that
 * completed none (7.5.3), was illegal.  A move is retraced to the position before it (the
 * offender's clock runs), kept out of the movetext; a press is taken back.  The opponent gets
 * the penalty time; the count that loses (the edition's) ends the game, lost, or drawn when
 * the opponent cannot checkmate by any series of legal moves. */
void ref_cmd_illegal(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_ILLEGAL, cmd, now);
	const struct rules_illegal *law = &g->rules->illegal[game_kind(g)];
	int color = cmd->color >= 0 ? cmd->color : illegal_default_color(g);
	int count, moves[2], run;
	int64_t penalty = g->has_clock ? law->penalty_ms : 0, earned[2];
	struct illegal_target t;
	char time[16], w[16], b[16], back[96] = "";

	/* The game is on: the table's needs (game/command.c) checked that. */
	if (color < 0 || !illegal_target(g, color, &t)) {
		ref_reply(r, cmd, false, now, "no completed move or press of %s to rule on",
			  color >= 0 ? color_word(color) : "either side");
		return;
	}
	if (t.press && g->open_press[color].kind == PRESS_EMPTY && !g->rules->empty_press_illegal) {
		ref_reply(r, cmd, false, now,
			  "%s: not an illegal move in the %s Laws (no article like 7.5.3; %s); "
			  "set the clocks with clock set",
			  t.name, g->rules->name, g->rules->empty_press_article);
		return;
	}
	if (law->before_opponent_moves && opponent_moved_since(g, color, &t)) {
		ref_reply(r, cmd, false, now,
			  "%s: %s has moved since; under %s the illegal move stands (%s)", t.name,
			  color_word(!color), g->rules->name, law->article);
		return;
	}
	count = g->illegal_count[color] + 1;
	rec.u.illegal.color = color;
	rec.u.illegal.ply = t.press ? 0 : t.ply + 1;
	rec.u.illegal.penalty_ms = count >= law->losing_count ? 0 : penalty;
	rec.u.illegal.count = count;
	rec.clock = g->clock;
	retracted_gains(g, &t, color, moves, earned);
	/* The side to move's clock runs: the offender's after a retracted move or an empty
	 * press, the opponent's when the press completed a move before the board went wrong. */
	run = t.press ? game_position(g)->side : color;
	if (g->has_clock) {
		for (int c = 0; c < 2; c++)
			clock_take_back(&rec.clock, c, moves[c], earned[c], now);
		clock_give(&rec.clock, !color, rec.u.illegal.penalty_ms);
		clock_set_running(&rec.clock, run, now);
	}
	if (ref_emit(r, &rec)) {
		ref_reply(r, cmd, false, now, "the ruling does not fit the game");
		return;
	}
	if (count >= law->losing_count) {
		illegal_ends_game(r, cmd, color, count, &t, law, now);
		return;
	}
	if (!t.press || g->mismatch.state == MISMATCH_SETUP)
		ref_setup_begin(r, now);
	else
		ref_say(r, GAME_PRIVATE, GAME_MSG_CLOCKS_SET, now); /* the player's clock may run */
	clock_text(rec.u.illegal.penalty_ms, time, sizeof(time));
	if (g->has_clock) {
		size_t n = 0;

		clock_text(clock_remaining(&g->clock, CHESS_WHITE, now), w, sizeof(w));
		clock_text(clock_remaining(&g->clock, CHESS_BLACK, now), b, sizeof(b));
		for (int c = 0; c < 2 && n < sizeof(back); c++) {
			char e[16] = "";

			if (!moves[c] && !earned[c])
				continue;
			if (earned[c])
				clock_text(earned[c], e, sizeof(e));
			n += (size_t)snprintf(back + n, sizeof(back) - n, "%s%s %s%s",
					      n ? ", " : "; taken back: ", c ? "Black" : "White", e,
					      moves[c] && earned[c] ? " and " : "");
			if (moves[c] && n < sizeof(back))
				n += (size_t)snprintf(back + n, sizeof(back) - n, "%d move%s",
						      moves[c], moves[c] == 1 ? "" : "s");
		}
		ref_reply(r, cmd, true, now,
			  "%s illegal: %s's illegal move number %d; +%s to %s (%s); clocks "
			  "White %s, Black %s, moves %d/%d%s",
			  t.name, color_word(color), count, time, color_word(!color), law->article,
			  w, b, g->clock.moves[0], g->clock.moves[1], back);
		return;
	}
	ref_reply(r, cmd, true, now, "%s illegal: %s's illegal move number %d; +%s to %s (%s)",
		  t.name, color_word(color), count, time, color_word(!color), law->article);
}

/* ------------------------------------------------------------------ clocks and claims */

void ref_cmd_clock_set(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_CLOCK_SET, cmd, now);
	char w[16], b[16];

	rec.clock = g->clock;
	clock_set(&rec.clock, cmd->white_ms, cmd->black_ms, -1, now);
	if (cmd->white_moves >= 0)
		clock_set_moves(&rec.clock, cmd->white_moves, cmd->black_moves);
	/* The clock that runs is the side to move's (after a retraction it may not be). */
	clock_set_running(&rec.clock, game_position(g)->side, now);
	if (ref_emit(r, &rec)) {
		ref_reply(r, cmd, false, now, "the setting does not fit the clock");
		return;
	}
	ref_say(r, GAME_PRIVATE, GAME_MSG_CLOCKS_SET, now);
	clock_text(cmd->white_ms, w, sizeof(w));
	clock_text(cmd->black_ms, b, sizeof(b));
	ref_reply(r, cmd, true, now, "clocks set: White %s, Black %s", w, b);
}

/* Art. 9.5: the arbiter upholds a claim (the game is drawn) or rejects it (the opponent
 * gets the edition's penalty, 9.5.3, and the clocks run again). */
void ref_cmd_ruling(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_RULING, cmd, now);
	const struct rules_claim *law = &g->rules->claim[game_kind(g)];
	int claimant = g->claim.color;
	int64_t before = 0, after = 0;
	char time[16], cut[80] = "";

	if (!g->claim.open || game_over(g)) {
		ref_reply(r, cmd, false, now, "no claim to rule on");
		return;
	}
	rec.u.ruling.upheld = cmd->upheld;
	rec.u.ruling.penalty_ms = cmd->upheld || !g->has_clock ? 0 : law->penalty_ms;
	rec.clock = g->clock;
	if (!cmd->upheld && g->has_clock) {
		clock_give(&rec.clock, !claimant, rec.u.ruling.penalty_ms);
		/* 2005 9.5 b: the claimant's own time is cut. */
		before = clock_remaining(&rec.clock, claimant, now);
		after = rules_claim_cut(law, before);
		clock_take_back(&rec.clock, claimant, 0, before - after, now);
		/* A press while the clocks stood completed the running side's move. */
		if (g->paused_completed >= 0 && g->paused_completed == rec.clock.running)
			clock_set_running(&rec.clock, !rec.clock.running, now);
		clock_resume(&rec.clock, now);
	}
	if (ref_emit(r, &rec)) {
		ref_reply(r, cmd, false, now, "the ruling does not fit the game");
		return;
	}
	if (cmd->upheld) {
		ref_end_game(r, "1/2-1/2", TERMINATION_NORMAL,
			     g->claim.kind == CLAIM_FIFTY ? "fifty-move rule claimed (9.3)"
							  : "threefold repetition claimed (9.2)",
			     cmd->author, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_RESULT_DRAW, now);
		ref_reply(r, cmd, true, now, "claim upheld: 1/2-1/2");
		return;
	}
	if (claimant == g->params.player)
		ref_say(r, GAME_PRIVATE, GAME_MSG_CLAIM_REJECTED, now);
	clock_text(rec.u.ruling.penalty_ms, time, sizeof(time));
	if (before != after) {
		char from[16], to[16];

		clock_text(before, from, sizeof(from));
		clock_text(after, to, sizeof(to));
		snprintf(cut, sizeof(cut), ", %s's time cut from %s to %s", color_word(claimant),
			 from, to);
	}
	ref_reply(r, cmd, true, now, "claim rejected: +%s to %s (%s)%s; the clocks run", time,
		  color_word(!claimant), law->article, cut);
}
