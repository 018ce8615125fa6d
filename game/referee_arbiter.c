/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's commands for irregularities: the opponent's move relayed by an assistant
 * (D.2.10.1-2) and its correction (D.2.8), the game retraced to the last position both
 * scoresheets agree on (D.2.9), an illegal move and its penalty (7.5), the arbiter's clock
 * settings (6.10.2, 7.1), and the ruling on a draw claim (9.5).  The numbers that differ
 * between editions of the Laws come from rules.h.
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

	if (game_over(g)) {
		ref_reply(r, cmd, false, now, "the game is over");
		return;
	}
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

	if (g->result.state == RESULT_APPROVED) {
		ref_reply(r, cmd, false, now, "the result is approved: the game is closed");
		return;
	}
	if (cmd->ply < 0 || cmd->ply >= plies) {
		ref_reply(r, cmd, false, now, "the game has %d plies: rollback takes 0..%d", plies,
			  plies - 1);
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

/* The running clock's kind of game (Appendix A/B) picks the edition's penalty. */
static int64_t penalty_ms(const struct game *g)
{
	return g->has_clock ? g->rules->illegal_penalty_ms[clock_kind(&g->tc)] : 0;
}

static void clock_text(int64_t ms, char *buf, size_t size)
{
	clock_format_hms(ms, buf, size);
}

/* Art. 7.5.1, 7.5.5: the last completed move of a side was illegal: retraced to the position
 * before it (the offender's clock runs), kept out of the movetext, the opponent given the
 * penalty time; the count that loses (the edition's) ends the game, lost, or drawn when the
 * opponent cannot checkmate by any series of legal moves. */
void ref_cmd_illegal(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_ILLEGAL, cmd, now);
	int color = cmd->color, ply = -1, count;
	int64_t penalty = penalty_ms(g);
	char name[40], time[16];

	if (game_over(g)) {
		ref_reply(r, cmd, false, now, "the game is over");
		return;
	}
	if (color < 0) {
		/* The side whose move was completed last. */
		for (int i = game_plies(g) - 1; i >= 0 && color < 0; i--)
			if (g->plies[i].flags & GAME_PLY_COMPLETE)
				color = game_ply_color(g, i);
	}
	for (int i = game_plies(g) - 1; i >= 0 && ply < 0 && color >= 0; i--)
		if (game_ply_color(g, i) == color && (g->plies[i].flags & GAME_PLY_COMPLETE))
			ply = i;
	if (ply < 0) {
		ref_reply(r, cmd, false, now, "no completed move of %s to rule on",
			  color >= 0 ? color_word(color) : "either side");
		return;
	}
	ply_name(g, ply, name, sizeof(name));
	count = g->illegal_count[color] + 1;
	rec.u.illegal.color = color;
	rec.u.illegal.ply = ply + 1;
	rec.u.illegal.penalty_ms = penalty;
	rec.u.illegal.count = count;
	rec.clock = g->clock;
	if (g->has_clock) {
		clock_give(&rec.clock, !color, penalty);
		clock_set_running(&rec.clock, color, now);
	}
	if (ref_emit(r, &rec)) {
		ref_reply(r, cmd, false, now, "the ruling does not fit the game");
		return;
	}
	clock_text(penalty, time, sizeof(time));
	if (count >= g->rules->illegal_losing_count) {
		int winner = !color;
		/* 2005 7.4 b: lost, whatever the opponent's men. */
		const char *result = g->rules->illegal_loss_draw_without_mate
					 ? ref_mate_result(r, winner)
					 : result_win(winner);
		char reason[120], question[GAME_REPLY_MAX];

		if (!strcmp(result, "*")) {
			/* Whether the opponent can still mate is not proven either way: the
			 * arbiter decides, with the position in the reply (no result is said). */
			snprintf(
			    reason, sizeof(reason),
			    "%s's illegal move number %d (7.5.5); whether %s can still mate is "
			    "the arbiter's decision",
			    color ? "Black" : "White", count, winner ? "Black" : "White");
			ref_end_game(r, result, TERMINATION_RULES_INFRACTION, reason, cmd->author,
				     now);
			ref_mate_question(r, winner, question, sizeof(question));
			ref_reply(r, cmd, true, now, "%s illegal: %s's number %d ends the game; %s",
				  name, color_word(color), count, question);
			return;
		}
		snprintf(reason, sizeof(reason), "%s's illegal move number %d (7.5.5)",
			 color ? "Black" : "White", count);
		ref_end_game(r, result, TERMINATION_RULES_INFRACTION, reason, cmd->author, now);
		ref_say(r, GAME_PUBLIC,
			!strcmp(result, "1-0")	 ? GAME_MSG_RESULT_WHITE_WINS
			: !strcmp(result, "0-1") ? GAME_MSG_RESULT_BLACK_WINS
						 : GAME_MSG_RESULT_DRAW,
			now);
		ref_reply(r, cmd, true, now,
			  "%s illegal: %s's illegal move number %d ends the game: %s", name,
			  color_word(color), count, result);
		return;
	}
	ref_setup_begin(r, now);
	ref_reply(r, cmd, true, now, "%s illegal: %s's illegal move number %d; +%s to %s", name,
		  color_word(color), count, time, color_word(!color));
}

/* ------------------------------------------------------------------ clocks and claims */

void ref_cmd_clock_set(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_CLOCK_SET, cmd, now);
	char w[16], b[16];

	if (!g->has_clock) {
		ref_reply(r, cmd, false, now, "the game has no clock");
		return;
	}
	if (game_over(g)) {
		ref_reply(r, cmd, false, now, "the game is over");
		return;
	}
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
	int claimant = g->claim.color;
	char time[16];

	if (!g->claim.open || game_over(g)) {
		ref_reply(r, cmd, false, now, "no claim to rule on");
		return;
	}
	rec.u.ruling.upheld = cmd->upheld;
	rec.u.ruling.penalty_ms = cmd->upheld ? 0 : penalty_ms(g);
	rec.clock = g->clock;
	if (!cmd->upheld && g->has_clock) {
		clock_give(&rec.clock, !claimant, rec.u.ruling.penalty_ms);
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
	ref_reply(r, cmd, true, now, "claim rejected: +%s to %s; the clocks run", time,
		  color_word(!claimant));
}
