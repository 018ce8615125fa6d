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
void ref_cmd_move(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player, plies = game_plies(g), last = plies - 1;
	int named = named_ply(g, cmd), target;
	struct chess_pos pos;
	struct chess_error err;
	bool correction = false;
	chess_move m;
	char name[40];

	if (named < 0) {
		ref_answer(r, cmd, now, REPLY_RELAY_BEFORE_START,
			   REPLY_ARGS(REPLY_N("move_number", cmd->move_number),
				      REPLY_N("first", g->start.fullmove_number)));
		return;
	}
	if (named > plies + 1) {
		ref_answer(r, cmd, now, REPLY_RELAY_AHEAD,
			   REPLY_ARGS(REPLY_N("ply", named), REPLY_N("plies", plies),
				      REPLY_N("next", plies + 1)));
		return;
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
		return;
	}
	game_position_before(g, target - 1, &pos);
	if (chess_move_parse_san(&pos, cmd->move, &m, &err)) {
		ref_answer_not_legal(r, cmd, now, pos.side, &err);
		return;
	}
	if (target <= plies) {
		/* A ply in the game: the same move once more, or a correction of the last one
		 * before the opponent's press. */
		ply_name(g, target - 1, name, sizeof(name));
		if (m == g->plies[target - 1].move) {
			ref_answer(r, cmd, now, REPLY_RELAY_IN_GAME,
				   REPLY_ARGS(PLY_ARGS(target, name)));
			return;
		}
		if (target < plies) {
			ref_answer(r, cmd, now, REPLY_RELAY_PAST,
				   REPLY_ARGS(PLY_ARGS(target, name), REPLY_N("plies", plies)));
			return;
		}
		if (named && (g->plies[last].flags & GAME_PLY_RELAYED) && g->relayed_ply == last &&
		    strcmp(g->relayed_by, cmd->author[0] ? cmd->author : "-")) {
			char san[CHESS_SAN_MAX];

			chess_move_to_san(&pos, m, san, sizeof(san));
			ref_answer(r, cmd, now, REPLY_RELAY_TAKEN,
				   REPLY_ARGS(PLY_ARGS(target, name), REPLY_S("by", g->relayed_by),
					      REPLY_S("move", san)));
			return;
		}
		if (g->plies[last].flags & GAME_PLY_COMPLETE) {
			ref_answer(r, cmd, now, REPLY_RELAY_TOO_LATE,
				   REPLY_ARGS(PLY_ARGS(target, name)));
			return;
		}
		if (ref_withdraw_last(r, cmd->author, now)) {
			ref_answer(r, cmd, now, REPLY_RELAY_NOT_WITHDRAWN,
				   REPLY_ARGS(PLY_ARGS(target, name)));
			return;
		}
		correction = true;
	}
	/* The opponent's reply: a mismatch kept from the tactile player opens now. */
	ref_mismatch_open_held(r, now);
	if (ref_make_move(r, m, correction, cmd->author, now)) {
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "move")));
		return;
	}
	if (correction) {
		char replaced[40];

		snprintf(replaced, sizeof(replaced), "%s", name);
		ply_name(g, target - 1, name, sizeof(name));
		ref_answer(r, cmd, now, REPLY_RELAYED_CORRECTION,
			   REPLY_ARGS(PLY_ARGS(target, name), REPLY_S("replaced", replaced)));
		return;
	}
	ply_name(g, target - 1, name, sizeof(name));
	ref_answer(r, cmd, now, REPLY_RELAYED, REPLY_ARGS(PLY_ARGS(target, name)));
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
		ply_name(g, cmd->ply - 1, name, sizeof(name));
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
		if (color >= 0)
			ref_answer(r, cmd, now, REPLY_ILLEGAL_NO_MOVE,
				   REPLY_ARGS(REPLY_S("color", color_word(color))));
		else
			ref_answer(r, cmd, now, REPLY_ILLEGAL_NO_MOVE_ANY, NULL);
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
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "ruling")));
		return;
	}
	clock_text(penalty, time, sizeof(time));
	if (count >= g->rules->illegal_losing_count) {
		int winner = !color;
		const char *result =
		    chess_pos_can_checkmate(game_position(g), (enum chess_color)winner)
			? result_win(winner)
			: "1/2-1/2";
		char reason[80];

		snprintf(reason, sizeof(reason), "%s's illegal move number %d (7.5.5)",
			 color ? "Black" : "White", count);
		ref_end_game(r, result, TERMINATION_RULES_INFRACTION, reason, cmd->author, now);
		ref_say(r, GAME_PUBLIC,
			!strcmp(result, "1-0")	 ? GAME_MSG_RESULT_WHITE_WINS
			: !strcmp(result, "0-1") ? GAME_MSG_RESULT_BLACK_WINS
						 : GAME_MSG_RESULT_DRAW,
			now);
		ref_answer(r, cmd, now, REPLY_ILLEGAL_ENDS,
			   REPLY_ARGS(PLY_ARGS(ply + 1, name), REPLY_S("color", color_word(color)),
				      REPLY_N("count", count), REPLY_S("result", result)));
		return;
	}
	ref_setup_begin(r, now);
	ref_answer(r, cmd, now, REPLY_ILLEGAL_RULED,
		   REPLY_ARGS(PLY_ARGS(ply + 1, name), REPLY_S("color", color_word(color)),
			      REPLY_N("count", count), REPLY_S("penalty", time),
			      REPLY_N("penalty_ms", penalty),
			      REPLY_S("other_color", color_word(!color))));
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

/* Art. 9.5: the arbiter upholds a claim (the game is drawn) or rejects it (the opponent
 * gets the edition's penalty, 9.5.3, and the clocks run again). */
void ref_cmd_ruling(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_RULING, cmd, now);
	int claimant = g->claim.color;
	char time[16];

	if (!g->claim.open || game_over(g)) {
		ref_answer(r, cmd, now, REPLY_NO_CLAIM, NULL);
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
	ref_answer(r, cmd, now, REPLY_CLAIM_REJECTED,
		   REPLY_ARGS(REPLY_S("penalty", time),
			      REPLY_N("penalty_ms", rec.u.ruling.penalty_ms),
			      REPLY_S("color", color_word(!claimant))));
}
