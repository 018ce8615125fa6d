/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's commands for irregularities: the opponent's move relayed by an assistant
 * (D.2.10.1-2) and its correction (D.2.8), the game retraced to the last position both
 * scoresheets agree on (D.2.9), an illegal move and its penalty (7.5), the arbiter's clock
 * settings (6.10.2, 7.1), and the ruling on a draw claim (9.5).  The numbers and rules that
 * differ between editions of the Laws come from rules.h.
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ the relayed move */

/* The ply a relay names (1-based): its number, or its move number and colour; 0 when it
 * names none; -1 before the game's first move. */
static int named_ply(const struct game *g, const struct game_command *cmd)
{
	int index;

	if (cmd->ply > 0)
		return cmd->ply;
	if (cmd->move_number <= 0 || cmd->color < 0)
		return 0;
	index = (cmd->move_number - g->start.fullmove_number) * 2 + cmd->color - g->start.side;
	return index < 0 ? -1 : index + 1;
}

/* A reply's arguments for a ply in the game: its number and its name ("12... Nf6"). */
#define PLY_ARGS(ply, name) REPLY_N("ply", (ply)), REPLY_S("name", (name))

/* The opponent's move as an assistant relays it: announced publicly; the tactile board must
 * then show it.  The same move already there is taken without a second announcement; a
 * second relay before the opponent's press replaces the first and is said as a correction
 * (D.2.8).
 *
 * A relay that names its ply (`move 12 Nf3`, `move 6... Nf6`) is for that ply alone: the
 * next one, or the opponent's last one not yet completed by their press.  That last one it
 * corrects only for the one who relayed it (a move made on the tactile board has no
 * relayer): a second person relaying the same ply at the same time is refused and told
 * who relayed it, never taken as a correction.  Without a ply, the relay is for the
 * opponent's move as the game stands, as it always was. */
/* The ply (1-based) the relay is for, or 0 when it is refused with the reason: a ply before
 * the game or ahead of it, or the player's own. */
static int relay_target(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player, plies = game_plies(g);
	int named = named_ply(g, cmd), target;

	if (named < 0) {
		ref_answer(r, cmd, now, REPLY_RELAY_BEFORE_START,
			   REPLY_ARGS(REPLY_N("move_number", cmd->move_number),
				      REPLY_N("first", g->start.fullmove_number)));
		return 0;
	}
	if (named > plies + 1) {
		ref_answer(r, cmd, now, REPLY_RELAY_AHEAD,
			   REPLY_ARGS(REPLY_N("ply", named), REPLY_N("plies", plies),
				      REPLY_N("next", plies + 1)));
		return 0;
	}
	/* Without a ply: the opponent's next move, or their last before their press. */
	target = named ? named : game_position(g)->side == player ? plies : plies + 1;
	if (target < 1 || game_ply_color(g, target - 1) == player) {
		if (!named)
			ref_answer(
			    r, cmd, now, REPLY_NOT_OPPONENTS_TURN,
			    REPLY_ARGS(REPLY_S("color", game_color_name(game_position(g)->side))));
		else
			ref_answer(r, cmd, now, REPLY_RELAY_PLAYERS_PLY,
				   REPLY_ARGS(REPLY_N("ply", target),
					      REPLY_S("color", game_color_name(player))));
		return 0;
	}
	return target;
}

/* A relay of a ply in the game (`name` names it): true when it corrects the last one, before
 * the opponent's press, and that one is withdrawn for it; otherwise answered (the same move
 * once more, a ply past, another's relay, too late) and false. */
static bool relay_corrects(struct referee *r, const struct game_command *cmd,
			   const struct chess_pos *pos, chess_move m, int target, const char *name,
			   uint64_t now)
{
	struct game *g = &r->g;
	int plies = game_plies(g), last = plies - 1;

	if (m == g->plies[target - 1].move) {
		ref_answer(r, cmd, now, REPLY_RELAY_IN_GAME, REPLY_ARGS(PLY_ARGS(target, name)));
		return false;
	}
	if (target < plies) {
		ref_answer(r, cmd, now, REPLY_RELAY_PAST,
			   REPLY_ARGS(PLY_ARGS(target, name), REPLY_N("plies", plies)));
		return false;
	}
	if (named_ply(g, cmd) && (g->plies[last].flags & GAME_PLY_RELAYED) &&
	    g->relayed_ply == last && strcmp(g->relayed_by, cmd->author[0] ? cmd->author : "-")) {
		char san[CHESS_SAN_MAX];

		chess_move_to_san(pos, m, san, sizeof(san));
		ref_answer(r, cmd, now, REPLY_RELAY_TAKEN,
			   REPLY_ARGS(PLY_ARGS(target, name), REPLY_S("by", g->relayed_by),
				      REPLY_S("move", san)));
		return false;
	}
	if (g->plies[last].flags & GAME_PLY_COMPLETE) {
		ref_answer(r, cmd, now, REPLY_RELAY_TOO_LATE, REPLY_ARGS(PLY_ARGS(target, name)));
		return false;
	}
	if (ref_withdraw_last(r, cmd->author, now)) {
		ref_answer(r, cmd, now, REPLY_RELAY_NOT_WITHDRAWN,
			   REPLY_ARGS(PLY_ARGS(target, name)));
		return false;
	}
	return true;
}

/* The relayed move is in the game: said so, with the move it replaced for a correction. */
static void relay_answer_made(struct referee *r, const struct game_command *cmd, int target,
			      bool correction, const char *replaced, uint64_t now)
{
	char name[40];

	game_ply_name(&r->g, target - 1, name, sizeof(name));
	if (correction)
		ref_answer(r, cmd, now, REPLY_RELAYED_CORRECTION,
			   REPLY_ARGS(PLY_ARGS(target, name), REPLY_S("replaced", replaced)));
	else
		ref_answer(r, cmd, now, REPLY_RELAYED, REPLY_ARGS(PLY_ARGS(target, name)));
}

void ref_cmd_move(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	int target = relay_target(r, cmd, now);
	struct chess_pos pos;
	struct chess_error err;
	bool correction = false;
	chess_move m;
	char name[40] = "";

	if (target < 1)
		return;
	game_position_before(g, target - 1, &pos);
	if (chess_move_parse_lang(&pos, cmd->move, cmd->lang, &m, &err)) {
		ref_answer_not_legal(r, cmd, now, pos.side, &err);
		return;
	}
	if (target <= game_plies(g)) {
		/* A ply in the game: the same move once more, or a correction of the last one
		 * before the opponent's press. */
		game_ply_name(g, target - 1, name, sizeof(name));
		if (!relay_corrects(r, cmd, &pos, m, target, name, now))
			return;
		correction = true;
	}
	/* The opponent's reply: a mismatch kept from the tactile player opens now. */
	ref_mismatch_open_held(r, now);
	/* The training engine's move: the referee hears when its announcement has been said. */
	if (cmd->engine && r->engine.state == REFEREE_ENGINE_PLAYING)
		r->report_next = ++r->report_last;
	if (ref_make_move(r, m, correction, cmd->author, now)) {
		r->report_next = 0;
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "move")));
		return;
	}
	relay_answer_made(r, cmd, target, correction, name, now);
	/* The training engine's move (docs/training.md "Training and study"): its clock is pressed
	 * for it once the move has been announced (D.2.3-D.2.4), so the player's clock runs from
	 * when the player has heard it; the player is guided square by square to make it on the
	 * board. */
	if (cmd->engine && r->engine.state == REFEREE_ENGINE_PLAYING) {
		ref_engine_moved(r, now);
		ref_engine_press_when_said(r, now);
		ref_relay_guide_begin(r, now);
	}
}

/* ------------------------------------------------------------------ retraced games */

void ref_cmd_rollback(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_ROLLBACK, cmd, now);
	int plies = game_plies(g);
	char name[40] = "the start";

	if (!plies) {
		ref_answer(r, cmd, now, REPLY_ROLLBACK_NO_MOVES, NULL);
		return;
	}
	if (cmd->ply < 0 || cmd->ply >= plies) {
		ref_answer(r, cmd, now, REPLY_ROLLBACK_RANGE,
			   REPLY_ARGS(REPLY_N("plies", plies), REPLY_N("last", plies - 1)));
		return;
	}
	if (cmd->ply > 0)
		game_ply_name(g, cmd->ply - 1, name, sizeof(name));
	rec.u.rollback_ply = cmd->ply;
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "rollback")));
		return;
	}
	ref_setup_begin(r, now);
	if (cmd->ply > 0)
		ref_answer(
		    r, cmd, now, REPLY_RETRACED,
		    REPLY_ARGS(PLY_ARGS(cmd->ply, name), REPLY_N("later", plies - cmd->ply)));
	else
		ref_answer(r, cmd, now, REPLY_RETRACED_START,
			   REPLY_ARGS(REPLY_N("ply", 0), REPLY_N("later", plies)));
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
	enum press_kind kind; /* a press's */
	int ply;	      /* the move (0-based), or the plies there were at the press */
	char name[40];	      /* a move's, as the scoresheet writes it */
	const char *detail;   /* a press's kind in English ("with no move made") */
};

static bool illegal_target(const struct game *g, int color, struct illegal_target *t)
{
	const struct game_open_press *o = &g->open_press[color];

	memset(t, 0, sizeof(*t));
	if (o->open) {
		t->press = true;
		t->kind = o->kind;
		t->ply = o->plies;
		t->detail = o->kind == PRESS_EMPTY     ? "with no move made"
			    : o->kind == PRESS_ILLEGAL ? "of a board no legal move explains"
						       : "whose move is not on the tactile board";
		return true;
	}
	for (int i = game_plies(g) - 1; i >= 0; i--)
		if (game_ply_color(g, i) == color && (g->plies[i].flags & GAME_PLY_COMPLETE)) {
			t->ply = i;
			game_ply_name(g, i, t->name, sizeof(t->name));
			return true;
		}
	return false;
}

/* Whether the offender's opponent has made a move since (2005 B6, C3: too late then): on the
 * tactile board, or known only by their press (while the tactile board is wrong their reply
 * cannot reach it, nor be relayed; the press that completed it is the move made). */
static bool opponent_moved_since(const struct game *g, int color, const struct illegal_target *t)
{
	const struct game_open_press *o = &g->open_press[!color];

	for (int i = t->press ? t->ply : t->ply + 1; i < game_plies(g); i++)
		if (game_ply_color(g, i) != color)
			return true;
	if (!o->open)
		return false;
	return t->press ? o->ms > g->open_press[color].ms : o->plies > t->ply;
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
	int winner = !color;
	const char *article = law->article;
	/* 7.5.5 (2005 C3): a draw where the opponent cannot mate; "*" where that is not
	 * proven either way: the arbiter decides, with the position in the reply (no result is
	 * said).  2005 7.4 b: lost, whatever the opponent's men. */
	const char *result =
	    law->draw_without_mate ? ref_mate_result(r, winner) : result_win(winner);
	char reason[120], fen[CHESS_FEN_MAX];

	if (!strcmp(result, "*")) {
		snprintf(reason, sizeof(reason),
			 "%s's illegal move number %d (%s); whether %s can still mate is the "
			 "arbiter's decision",
			 color ? "Black" : "White", count, article, winner ? "Black" : "White");
		ref_end_game(r, result, TERMINATION_RULES_INFRACTION, reason, cmd->author, now);
		ref_mate_fen(r, fen, sizeof(fen));
		if (t->press)
			ref_answer(r, cmd, now, REPLY_ILLEGAL_PRESS_ENDS_UNDECIDED,
				   REPLY_ARGS(REPLY_S("color", game_color_name(color)),
					      REPLY_S("press", game_press_kind_name(t->kind)),
					      REPLY_S("detail", t->detail), REPLY_N("count", count),
					      REPLY_S("winner_color", game_color_name(winner)),
					      REPLY_S("fen", fen),
					      REPLY_S("result", result_win(winner)),
					      REPLY_S("article", article)));
		else
			ref_answer(r, cmd, now, REPLY_ILLEGAL_ENDS_UNDECIDED,
				   REPLY_ARGS(PLY_ARGS(t->ply + 1, t->name),
					      REPLY_S("color", game_color_name(color)),
					      REPLY_N("count", count),
					      REPLY_S("winner_color", game_color_name(winner)),
					      REPLY_S("fen", fen),
					      REPLY_S("result", result_win(winner)),
					      REPLY_S("article", article)));
		return;
	}
	snprintf(reason, sizeof(reason), "%s's illegal move number %d (%s)",
		 color ? "Black" : "White", count, article);
	ref_end_game(r, result, TERMINATION_RULES_INFRACTION, reason, cmd->author, now);
	ref_say(r, GAME_PUBLIC,
		!strcmp(result, "1-0")	 ? GAME_MSG_RESULT_WHITE_WINS
		: !strcmp(result, "0-1") ? GAME_MSG_RESULT_BLACK_WINS
					 : GAME_MSG_RESULT_DRAW,
		now);
	if (t->press)
		ref_answer(r, cmd, now, REPLY_ILLEGAL_PRESS_ENDS,
			   REPLY_ARGS(REPLY_S("color", game_color_name(color)),
				      REPLY_S("press", game_press_kind_name(t->kind)),
				      REPLY_S("detail", t->detail), REPLY_N("count", count),
				      REPLY_S("result", result), REPLY_S("article", article)));
	else
		ref_answer(r, cmd, now, REPLY_ILLEGAL_ENDS,
			   REPLY_ARGS(PLY_ARGS(t->ply + 1, t->name),
				      REPLY_S("color", game_color_name(color)),
				      REPLY_N("count", count), REPLY_S("result", result),
				      REPLY_S("article", article)));
}

/* The reply to a ruling that does not end the game: the target, the penalty and its
 * article; with a clock, the clocks after it and what it took back of each side's (a time
 * and moves on the counter; `taken_back` says it in English). */
static void illegal_ruled(struct referee *r, const struct game_command *cmd, int color, int count,
			  const struct illegal_target *t, const struct rules_illegal *law,
			  int64_t penalty, const int moves[2], const int64_t earned[2],
			  uint64_t now)
{
	struct game *g = &r->g;
	struct reply_list args = {0};
	char time[16], w[16], b[16], back_time[2][16], back[96] = "";

	clock_text(penalty, time, sizeof(time));
	if (t->press) {
		reply_add(&args, REPLY_S("color", game_color_name(color)));
		reply_add(&args, REPLY_S("press", game_press_kind_name(t->kind)));
		reply_add(&args, REPLY_S("detail", t->detail));
	} else {
		reply_add(&args, REPLY_N("ply", t->ply + 1));
		reply_add(&args, REPLY_S("name", t->name));
		reply_add(&args, REPLY_S("color", game_color_name(color)));
	}
	reply_add(&args, REPLY_N("count", count));
	reply_add(&args, REPLY_S("penalty", time));
	reply_add(&args, REPLY_N("penalty_ms", penalty));
	reply_add(&args, REPLY_S("other_color", game_color_name(!color)));
	reply_add(&args, REPLY_S("article", law->article));
	if (g->has_clock) {
		size_t len = 0;

		clock_text(clock_remaining(&g->clock, CHESS_WHITE, now), w, sizeof(w));
		clock_text(clock_remaining(&g->clock, CHESS_BLACK, now), b, sizeof(b));
		reply_add(&args, REPLY_S("white", w));
		reply_add(&args, REPLY_S("black", b));
		reply_add(&args, REPLY_N("white_moves", g->clock.moves[0]));
		reply_add(&args, REPLY_N("black_moves", g->clock.moves[1]));
		for (int c = 0; c < 2; c++) {
			back_time[c][0] = '\0';
			if (earned[c]) {
				clock_text(earned[c], back_time[c], sizeof(back_time[c]));
				reply_add(&args,
					  REPLY_S(c ? "black_back" : "white_back", back_time[c]));
			}
			if (moves[c])
				reply_add(
				    &args,
				    REPLY_N(c ? "black_back_moves" : "white_back_moves", moves[c]));
			if ((!moves[c] && !earned[c]) || len >= sizeof(back))
				continue;
			len += (size_t)snprintf(back + len, sizeof(back) - len, "%s%s %s%s",
						len ? ", " : "", c ? "Black" : "White",
						back_time[c], moves[c] && earned[c] ? " and " : "");
			if (moves[c] && len < sizeof(back))
				len += (size_t)snprintf(back + len, sizeof(back) - len, "%d move%s",
							moves[c], moves[c] == 1 ? "" : "s");
		}
		if (back[0])
			reply_add(&args, REPLY_S("taken_back", back));
	}
	ref_answer(r, cmd, now, t->press ? REPLY_ILLEGAL_PRESS_RULED : REPLY_ILLEGAL_RULED, args.v);
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

	/* The game is on: the table's needs (game/command.c) checked that. */
	if (color < 0 || !illegal_target(g, color, &t)) {
		if (color >= 0)
			ref_answer(r, cmd, now, REPLY_ILLEGAL_NO_MOVE,
				   REPLY_ARGS(REPLY_S("color", game_color_name(color))));
		else
			ref_answer(r, cmd, now, REPLY_ILLEGAL_NO_MOVE_ANY, NULL);
		return;
	}
	if (t.press && g->open_press[color].kind == PRESS_EMPTY && !g->rules->empty_press_illegal) {
		ref_answer(r, cmd, now, REPLY_EMPTY_PRESS_NOT_ILLEGAL,
			   REPLY_ARGS(REPLY_S("color", game_color_name(color)),
				      REPLY_S("edition", g->rules->name),
				      REPLY_S("article", g->rules->empty_press_article)));
		return;
	}
	if (law->before_opponent_moves && opponent_moved_since(g, color, &t)) {
		if (t.press)
			ref_answer(r, cmd, now, REPLY_ILLEGAL_PRESS_TOO_LATE,
				   REPLY_ARGS(REPLY_S("color", game_color_name(color)),
					      REPLY_S("press", game_press_kind_name(t.kind)),
					      REPLY_S("detail", t.detail),
					      REPLY_S("other_color", game_color_name(!color)),
					      REPLY_S("edition", g->rules->name),
					      REPLY_S("article", law->article)));
		else
			ref_answer(r, cmd, now, REPLY_ILLEGAL_TOO_LATE,
				   REPLY_ARGS(PLY_ARGS(t.ply + 1, t.name),
					      REPLY_S("color", game_color_name(color)),
					      REPLY_S("other_color", game_color_name(!color)),
					      REPLY_S("edition", g->rules->name),
					      REPLY_S("article", law->article)));
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
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "ruling")));
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
	illegal_ruled(r, cmd, color, count, &t, law, rec.u.illegal.penalty_ms, moves, earned, now);
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
	rec.u.counters_set = cmd->white_moves >= 0;
	/* The clock that runs is the side to move's (after a retraction it may not be). */
	clock_set_running(&rec.clock, game_position(g)->side, now);
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_CLOCK_NOT_APPLIED, NULL);
		return;
	}
	ref_say(r, GAME_PRIVATE, GAME_MSG_CLOCKS_SET, now);
	clock_text(cmd->white_ms, w, sizeof(w));
	clock_text(cmd->black_ms, b, sizeof(b));
	ref_answer(r, cmd, now, REPLY_CLOCKS_SET,
		   REPLY_ARGS(REPLY_S("white", w), REPLY_S("black", b),
			      REPLY_N("white_ms", cmd->white_ms),
			      REPLY_N("black_ms", cmd->black_ms)));
}

/* Periods with a delay or Bronstein time that another period follows: at their end the main
 * time left is carried into the next (docs/arbiter.md "The clock and the rulings, for the
 * arbiter"), which the arbiter is told when such a control is set. */
static int delay_periods(const struct time_control *tc)
{
	int n = 0;

	for (int i = 0; i < tc->count; i++)
		n += (tc->periods[i].mode == TC_DELAY || tc->periods[i].mode == TC_BRONSTEIN) &&
		     tc->periods[i].moves > 0;
	return n;
}

/* Art. 6.10.2: a time control set wrongly is corrected from now on: periods, increment,
 * delay; the readings and counters stand (`clock set` corrects the time already used), the
 * periods are placed from the counters. */
void ref_cmd_clock_control(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_CLOCK_CONTROL, cmd, now);
	struct time_control tc;
	struct reply_list args = {0};

	if (time_control_parse(cmd->text, &tc, NULL, 0) || tc.count == 0) {
		ref_answer(r, cmd, now, REPLY_CLOCK_NOT_APPLIED, NULL);
		return;
	}
	time_control_format(&tc, rec.u.time_control, sizeof(rec.u.time_control));
	rec.clock = g->clock;
	clock_set_control(&rec.clock, &tc, now);
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_CLOCK_NOT_APPLIED, NULL);
		return;
	}
	ref_say(r, GAME_PRIVATE, GAME_MSG_CLOCKS_SET, now);
	reply_add(&args, REPLY_S("time_control", rec.u.time_control));
	if (delay_periods(&tc))
		reply_add(&args, REPLY_N("delay_periods", delay_periods(&tc)));
	ref_answer(r, cmd, now, REPLY_TIME_CONTROL_SET, args.v);
}

/* The time the arbiter adds to one clock (the usual two minutes, 7.5.5, 9.5, 12.9): the other
 * reading stands. */
void ref_cmd_clock_add(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_CLOCK_SET, cmd, now);
	char time[16], w[16], b[16];

	/* A fallen flag is the arbiter's ruling first (result, or clock set and resume): the
	 * command needs the game on (game_command_needs()), checked before it comes here. */
	rec.clock = g->clock;
	clock_give(&rec.clock, cmd->color, cmd->white_ms);
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_CLOCK_NOT_APPLIED, NULL);
		return;
	}
	ref_say(r, GAME_PRIVATE, GAME_MSG_CLOCKS_SET, now);
	clock_text(cmd->white_ms, time, sizeof(time));
	clock_text(clock_remaining(&g->clock, CHESS_WHITE, now), w, sizeof(w));
	clock_text(clock_remaining(&g->clock, CHESS_BLACK, now), b, sizeof(b));
	ref_answer(r, cmd, now, REPLY_CLOCK_ADDED,
		   REPLY_ARGS(REPLY_S("color", game_color_name(cmd->color)), REPLY_S("time", time),
			      REPLY_N("time_ms", cmd->white_ms), REPLY_S("white", w),
			      REPLY_S("black", b)));
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
	char time[16], from[16], to[16];

	if (!g->claim.open || game_over(g)) {
		ref_answer(r, cmd, now, REPLY_NO_CLAIM, NULL);
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
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "ruling")));
		return;
	}
	if (cmd->upheld) {
		ref_end_game(r, "1/2-1/2", TERMINATION_NORMAL,
			     g->claim.kind == CLAIM_FIFTY ? "fifty-move rule claimed (9.3)"
							  : "threefold repetition claimed (9.2)",
			     cmd->author, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_RESULT_DRAW, now);
		ref_answer(r, cmd, now, REPLY_CLAIM_UPHELD,
			   REPLY_ARGS(REPLY_S("result", "1/2-1/2")));
		return;
	}
	if (claimant == g->params.player)
		ref_say(r, GAME_PRIVATE, GAME_MSG_CLAIM_REJECTED, now);
	clock_text(rec.u.ruling.penalty_ms, time, sizeof(time));
	if (before != after) {
		clock_text(before, from, sizeof(from));
		clock_text(after, to, sizeof(to));
		ref_answer(r, cmd, now, REPLY_CLAIM_REJECTED,
			   REPLY_ARGS(REPLY_S("penalty", time),
				      REPLY_N("penalty_ms", rec.u.ruling.penalty_ms),
				      REPLY_S("color", game_color_name(!claimant)),
				      REPLY_S("article", law->article),
				      REPLY_S("claimant_color", game_color_name(claimant)),
				      REPLY_S("cut_from", from), REPLY_S("cut_to", to)));
		return;
	}
	ref_answer(r, cmd, now, REPLY_CLAIM_REJECTED,
		   REPLY_ARGS(REPLY_S("penalty", time),
			      REPLY_N("penalty_ms", rec.u.ruling.penalty_ms),
			      REPLY_S("color", game_color_name(!claimant)),
			      REPLY_S("article", law->article)));
}
