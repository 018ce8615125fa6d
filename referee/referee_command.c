/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's commands (docs/control.md "Control interface"), from the control interface and the
 * button menu.  Who may give a command and what it needs of the game (the game on, a clock) are
 * checked before it comes here, by the command table (control/protocol.h) or the menu; here, what
 * only the game can tell: a command that does not fit the position or the flows changes nothing and
 * gets an error reply.
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

void ref_answer(struct referee *r, const struct game_command *cmd, uint64_t now,
		enum reply_code code, const struct reply_value *args)
{
	struct game_reply *reply = r->reply;

	if (!reply)
		return;
	/* One reply per command: the first decides. */
	r->reply = NULL;
	game_reply_set(reply, code, args);
	/* The tactile player hears when a choice from the menu cannot be done now. */
	if (!reply->ok && cmd->role == ROLE_PLAYER)
		ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
}

void ref_answer_not_legal(struct referee *r, const struct game_command *cmd, uint64_t now, int side,
			  const struct chess_error *err)
{
	static const char *const why[] = {
	    [CHESS_ERROR_SYNTAX] = "syntax",
	    [CHESS_ERROR_NO_SUCH_MOVE] = "no-such-move",
	    [CHESS_ERROR_AMBIGUOUS] = "ambiguous",
	    [CHESS_ERROR_PROMOTION] = "promotion-piece",
	};

	ref_answer(r, cmd, now, REPLY_NOT_LEGAL,
		   REPLY_ARGS(REPLY_S("move", cmd->move), REPLY_S("color", game_color_name(side)),
			      REPLY_S("why", (unsigned)err->kind < 4 ? why[err->kind] : "syntax"),
			      REPLY_S("detail", err->message)));
}

struct game_record ref_command_record(enum game_record_type type, const struct game_command *cmd,
				      uint64_t now)
{
	struct game_record rec = ref_record(type, now);

	snprintf(rec.author, sizeof(rec.author), "%s", cmd->author[0] ? cmd->author : "-");
	return rec;
}

/* The side a command's colour defaults to: the side that moved last. */
static int last_mover(const struct game *g)
{
	int n = game_plies(g);

	return n ? game_ply_color(g, n - 1) : -1;
}

/* ------------------------------------------------------------------ tags */

/* A PGN tag name: a letter, then letters, digits and underscores. */
static bool tag_name_ok(const char *name)
{
	if (!((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z')))
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

static void cmd_tag(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game_record rec = ref_command_record(REC_TAG, cmd, now);

	if (!tag_name_ok(cmd->tag.name)) {
		ref_answer(r, cmd, now, REPLY_TAG_NAME_BAD,
			   REPLY_ARGS(REPLY_S("tag", cmd->tag.name)));
		return;
	}
	if (game_tag_derived(cmd->tag.name)) {
		ref_answer(r, cmd, now, REPLY_TAG_RESERVED,
			   REPLY_ARGS(REPLY_S("tag", cmd->tag.name)));
		return;
	}
	rec.u.tag = cmd->tag;
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_TAG_NO_ROOM,
			   REPLY_ARGS(REPLY_S("tag", cmd->tag.name)));
		return;
	}
	ref_answer(r, cmd, now, REPLY_TAG_SET, REPLY_ARGS(REPLY_S("tag", cmd->tag.name)));
}

/* ------------------------------------------------------------------ draws */

int ref_draw_offer(struct referee *r, int color, const char *author, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_record(REC_DRAW_OFFER, now);
	int ply = game_last_ply_of(g, color);

	if (ply < 0)
		return -1;
	snprintf(rec.author, sizeof(rec.author), "%s", author);
	rec.u.offer.color = color;
	rec.u.offer.ply = ply + 1;
	if (ref_emit(r, &rec))
		return -2;
	/* The tactile player's offer must reach the sighted opponent; an offer to the tactile
	 * player is said to them alone. */
	ref_say(r, color == g->params.player ? GAME_PUBLIC : GAME_PRIVATE,
		color ? GAME_MSG_BLACK_OFFERS_DRAW : GAME_MSG_WHITE_OFFERS_DRAW, now);
	/* Training: the engine answers it. */
	if (color == g->params.player)
		ref_engine_draw_offered(r, now);
	return ply;
}

static void cmd_draw_offer(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	int color = cmd->color >= 0 ? cmd->color : last_mover(g);
	int ply = color >= 0 ? ref_draw_offer(r, color, cmd->author, now) : -1;

	if (ply == -1 && color >= 0)
		ref_answer(r, cmd, now, REPLY_DRAW_OFFER_NO_MOVE,
			   REPLY_ARGS(REPLY_S("color", game_color_name(color))));
	else if (ply == -1)
		ref_answer(r, cmd, now, REPLY_DRAW_OFFER_NO_MOVES, NULL);
	else if (ply < 0)
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "offer")));
	else
		ref_answer(r, cmd, now, REPLY_DRAW_OFFERED,
			   REPLY_ARGS(REPLY_S("color", game_color_name(color)),
				      REPLY_N("move_number", game_move_number(g, ply))));
}

static void cmd_accept_draw(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	int color = cmd->color >= 0 ? cmd->color : g->params.player;

	if (g->offer_color < 0 || g->offer_color == color) {
		ref_answer(r, cmd, now, REPLY_NO_DRAW_OFFER, NULL);
		return;
	}
	ref_end_game(r, "1/2-1/2", TERMINATION_NORMAL, "draw agreed", cmd->author, now);
	ref_say(r, GAME_PUBLIC, GAME_MSG_RESULT_DRAW, now);
	ref_answer(r, cmd, now, REPLY_DRAW_AGREED, NULL);
}

/* The claimant (docs/control.md "Control interface", `claim`): the side the command names; for an
 * assistant and the button menu, the tactile player when it names none; the arbiter names it.  -1:
 * none. */
static int claimant_of(const struct game *g, const struct game_command *cmd)
{
	if (cmd->color >= 0)
		return cmd->color;
	return cmd->role == ROLE_ARBITER ? -1 : g->params.player;
}

/* Whether the claimant is on move (9.2, 9.3), `made` set when it is their move made and not
 * yet completed by their press; refused with the reason (false) otherwise. */
static bool claim_on_move(struct referee *r, const struct game_command *cmd, int claimant,
			  bool *made, uint64_t now)
{
	struct game *g = &r->g;
	int on_move = game_claim_on_move(g, made);

	if (*made && cmd->move[0]) {
		if (claimant == on_move) {
			ref_answer(r, cmd, now, REPLY_CLAIM_MOVE_MADE,
				   REPLY_ARGS(REPLY_S("color", game_color_name(claimant))));
			return false;
		}
		/* An intended move is the side to move's in the position on the board. */
		on_move = game_position(g)->side;
		*made = false;
	}
	if (claimant != on_move) {
		ref_answer(r, cmd, now, REPLY_CLAIM_NOT_ON_MOVE,
			   REPLY_ARGS(REPLY_S("color", game_color_name(claimant)),
				      REPLY_S("on_move_color", game_color_name(on_move))));
		return false;
	}
	return true;
}

/* Whether the claim is correct: of the intended move m, of the position after the claimant's
 * move `made`, or of the position on the board. */
static bool claim_correct(const struct game *g, enum claim_kind kind, chess_move m, bool made)
{
	if (kind == CLAIM_THREEFOLD)
		return m != CHESS_MOVE_NONE ? chess_game_move_claims_threefold(&g->chess, m)
		       : made		    ? chess_game_repetitions(&g->chess) >= 3
					    : chess_game_can_claim_threefold(&g->chess);
	return m != CHESS_MOVE_NONE ? chess_game_move_claims_fifty(&g->chess, m)
	       : made		    ? game_position(g)->halfmove_clock >= 100
				    : chess_game_can_claim_fifty(&g->chess);
}

/* In a casual game the device decides at once (no arbiter); a player in a rated game hears
 * that the arbiter will. */
static void claim_decided(struct referee *r, const struct game_command *cmd, bool correct,
			  uint64_t now)
{
	if (r->g.params.mode == GAME_CASUAL) {
		ref_say(r, GAME_PRIVATE,
			correct ? GAME_MSG_CLAIM_CORRECT : GAME_MSG_CLAIM_INCORRECT, now);
		if (correct)
			ref_end_game(r, "1/2-1/2", TERMINATION_NORMAL,
				     cmd->claim == CLAIM_THREEFOLD ? "threefold repetition claimed"
								   : "fifty-move rule claimed",
				     cmd->author, now);
		else
			ref_pause(r, false, "device", now);
	} else if (cmd->role == ROLE_PLAYER) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_CLAIM_TO_ARBITER, now);
	}
}

/* The answer to the claimant.  Whether it is correct is for the arbiter alone (11.3.1), with
 * the move it assumed when the claimant had made one. */
static void claim_answer(struct referee *r, const struct game_command *cmd, int claimant, bool made,
			 bool correct, uint64_t now)
{
	struct game *g = &r->g;
	struct reply_list args = {0};
	char made_name[48];

	reply_add(&args, REPLY_S("kind", game_claim_kind_name(cmd->claim)));
	reply_add(&args, REPLY_S("color", game_color_name(claimant)));
	if (cmd->role != ROLE_ARBITER && g->params.mode != GAME_CASUAL) {
		ref_answer(r, cmd, now, REPLY_CLAIM_MADE, args.v);
		return;
	}
	if (made) {
		game_ply_name(g, game_plies(g) - 1, made_name, sizeof(made_name));
		reply_add(&args, REPLY_S("made", made_name));
	}
	ref_answer(r, cmd, now, correct ? REPLY_CLAIM_CORRECT : REPLY_CLAIM_NOT_CORRECT, args.v);
}

/* 9.2 and 9.3: only the player on move may claim.  With a clock, a move made on the board
 * and not yet completed by its mover's press is the move the claim intends (D.2.3: it is
 * made, but the claimant has not finished it): its mover is on move.  A claim with an
 * intended MOVE is for the side to move in the position on the board.  A claim by the
 * other side is refused with the reason and changes nothing: it is never turned into the
 * opponent's claim, whose penalty (9.5) would then fall on the wrong player. */
static void cmd_claim(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	const struct chess_pos *pos = game_position(g);
	struct game_record rec = ref_command_record(REC_CLAIM, cmd, now);
	struct game_effect fx = {.kind = GAME_FX_CLAIM, .ms = now, .channel = GAME_PUBLIC};
	int claimant = claimant_of(g, cmd);
	bool made, correct;
	chess_move m = CHESS_MOVE_NONE;

	if (claimant < 0) {
		ref_answer(r, cmd, now, REPLY_CLAIM_WHOSE,
			   REPLY_ARGS(REPLY_S("kind", game_claim_kind_name(cmd->claim))));
		return;
	}
	if (!claim_on_move(r, cmd, claimant, &made, now))
		return;
	if (cmd->move[0]) {
		struct chess_error err;

		if (chess_move_parse_lang(pos, cmd->move, cmd->lang, &m, &err)) {
			ref_answer_not_legal(r, cmd, now, pos->side, &err);
			return;
		}
	}
	correct = claim_correct(g, cmd->claim, m, made);
	rec.u.claim.color = claimant;
	rec.u.claim.kind = cmd->claim;
	/* A claim after the claimant's move was made journals that move: the verdict is on
	 * the position after it (the arbiter hears so). */
	rec.u.claim.move = made ? g->plies[game_plies(g) - 1].move : m;
	rec.u.claim.correct = correct;
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "claim")));
		return;
	}
	/* That a claim was made is public (the clocks stand); whether it is correct is in the
	 * claim record, for the arbiter alone (11.3.1). */
	fx.color = claimant;
	fx.claim = cmd->claim;
	fx.move = m;
	ref_effect(r, &fx);
	claim_decided(r, cmd, correct, now);
	claim_answer(r, cmd, claimant, made, correct, now);
}

/* ------------------------------------------------------------------ the end */

void ref_say_result(struct referee *r, const char *result, uint64_t now)
{
	if (!strcmp(result, "*"))
		return;
	ref_say(r, GAME_PRIVATE,
		!strcmp(result, "1-0")	 ? GAME_MSG_RESULT_WHITE_WINS
		: !strcmp(result, "0-1") ? GAME_MSG_RESULT_BLACK_WINS
					 : GAME_MSG_RESULT_DRAW,
		now);
}

static void cmd_resign(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game_record rec = ref_command_record(REC_RESIGN, cmd, now);
	int color = cmd->color, winner;
	const char *result;
	char reason[RESULT_REASON_MAX];

	if (color < 0) {
		ref_answer(r, cmd, now, REPLY_RESIGN_NO_SIDE, NULL);
		return;
	}
	winner = !color;
	/* 2023 Art. 5.1.2: a draw when the opponent cannot checkmate by any legal series ("*"
	 * where that is not proven either way: the arbiter decides). */
	result = r->g.rules->resignation_draw_without_mate ? ref_mate_result(r, winner)
							   : result_win(winner);
	rec.u.resign_color = color;
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED,
			   REPLY_ARGS(REPLY_S("what", "resignation")));
		return;
	}
	if (!strcmp(result, "*"))
		snprintf(reason, sizeof(reason),
			 "%s resigns; whether %s can still mate is the "
			 "arbiter's decision (5.1.2)",
			 color ? "Black" : "White", winner ? "Black" : "White");
	else
		snprintf(reason, sizeof(reason), "%s resigns", color ? "Black" : "White");
	ref_end_game(r, result, TERMINATION_NORMAL, reason, cmd->author, now);
	/* Both players hear it: the resignation may have come from the menu or an assistant. */
	ref_say(r, GAME_PUBLIC, color ? GAME_MSG_BLACK_RESIGNS : GAME_MSG_WHITE_RESIGNS, now);
	if (!strcmp(result, "*")) {
		char fen[CHESS_FEN_MAX];

		ref_mate_fen(r, fen, sizeof(fen));
		ref_answer(r, cmd, now, REPLY_RESIGNED_UNDECIDED,
			   REPLY_ARGS(REPLY_S("color", game_color_name(color)),
				      REPLY_S("winner_color", game_color_name(winner)),
				      REPLY_S("fen", fen), REPLY_S("result", result_win(winner))));
		return;
	}
	ref_answer(r, cmd, now, REPLY_RESIGNED,
		   REPLY_ARGS(REPLY_S("color", game_color_name(color)), REPLY_S("result", result)));
}

/* The PGN Termination for an arbiter's reason: the standard value if the reason starts with
 * one, else by what the reason says. */
static enum result_termination termination_of(const char *reason)
{
	static const struct {
		const char *word;
		enum result_termination t;
	} words[] = {
	    /* A player who did not come (6.7.1) forfeits; that is no loss on the clock, though
	     * the reason may name the default time: these words come first. */
	    {"absent", TERMINATION_ABANDONED},
	    {"no show", TERMINATION_ABANDONED},
	    {"no-show", TERMINATION_ABANDONED},
	    {"did not appear", TERMINATION_ABANDONED},
	    {"abandon", TERMINATION_ABANDONED},
	    {"time", TERMINATION_TIME_FORFEIT},
	    {"flag", TERMINATION_TIME_FORFEIT},
	    {"illegal", TERMINATION_RULES_INFRACTION},
	    {"infraction", TERMINATION_RULES_INFRACTION},
	    {"device", TERMINATION_RULES_INFRACTION},
	    {"phone", TERMINATION_RULES_INFRACTION},
	    {"adjudicat", TERMINATION_ADJUDICATION},
	};
	char lower[RESULT_REASON_MAX];
	size_t i;

	for (i = 0; reason[i] && i + 1 < sizeof(lower); i++)
		lower[i] =
		    (char)(reason[i] >= 'A' && reason[i] <= 'Z' ? reason[i] + 32 : reason[i]);
	lower[i] = '\0';
	for (int t = TERMINATION_NORMAL; t < TERMINATION_COUNT; t++) {
		const char *name = result_termination_pgn((enum result_termination)t);

		if (!strncmp(lower, name, strlen(name)))
			return (enum result_termination)t;
	}
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(lower, words[i].word))
			return words[i].t;
	return TERMINATION_NORMAL;
}

static void cmd_result(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	if (!result_valid(cmd->result)) {
		ref_answer(r, cmd, now, REPLY_RESULT_BAD,
			   REPLY_ARGS(REPLY_S("result", cmd->result)));
		return;
	}
	if (!cmd->text[0]) {
		ref_answer(r, cmd, now, REPLY_RESULT_NO_REASON,
			   REPLY_ARGS(REPLY_S("result", cmd->result)));
		return;
	}
	if (game_over(&r->g) && !result_undecided(&r->g.result)) {
		/* A result the players have not approved: the arbiter's decision replaces it
		 * (8.7), both journaled. */
		struct game_record rec = ref_command_record(REC_RESULT, cmd, now);
		char before[8];

		snprintf(before, sizeof(before), "%s", r->g.result.result);
		snprintf(rec.u.result.result, sizeof(rec.u.result.result), "%s", cmd->result);
		rec.u.result.termination = termination_of(cmd->text);
		snprintf(rec.u.result.reason, sizeof(rec.u.result.reason), "%s", cmd->text);
		rec.u.result.replaces = true;
		if (ref_emit(r, &rec)) {
			ref_answer(r, cmd, now, REPLY_NOT_APPLIED,
				   REPLY_ARGS(REPLY_S("what", "ruling")));
			return;
		}
		ref_say_result(r, cmd->result, now);
		ref_answer(r, cmd, now, REPLY_RESULT_REPLACED,
			   REPLY_ARGS(REPLY_S("result", cmd->result), REPLY_S("reason", cmd->text),
				      REPLY_S("before", before)));
		return;
	}
	ref_end_game(r, cmd->result, termination_of(cmd->text), cmd->text, cmd->author, now);
	ref_say_result(r, cmd->result, now);
	ref_answer(r, cmd, now, REPLY_RESULT_SET,
		   REPLY_ARGS(REPLY_S("result", cmd->result), REPLY_S("reason", cmd->text)));
}

/* The last moves of both sides said to the player; the reply names them ("16. Nf3 Nc6 17. e4"). */
static void cmd_last_moves(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	const struct game *g = &r->g;
	int plies = ref_last_moves(r, cmd->ply > 0 ? cmd->ply : REFEREE_LAST_MOVES, now);
	int first = game_plies(g) - plies;
	char moves[GAME_REPLY_MAX] = "";
	size_t n = 0;

	if (!plies) {
		ref_answer(r, cmd, now, REPLY_NO_MOVE_YET, NULL);
		return;
	}
	for (int i = first; i < first + plies && n < sizeof(moves); i++) {
		bool white = game_ply_color(g, i) == CHESS_WHITE;

		if (white || i == first)
			n += (size_t)snprintf(moves + n, sizeof(moves) - n, "%s%d%s ", n ? " " : "",
					      game_move_number(g, i), white ? "." : "...");
		else
			n += (size_t)snprintf(moves + n, sizeof(moves) - n, " ");
		n += (size_t)snprintf(moves + n, n < sizeof(moves) ? sizeof(moves) - n : 0, "%s",
				      g->plies[i].san);
	}
	ref_answer(r, cmd, now, REPLY_LAST_MOVES_SAID,
		   REPLY_ARGS(REPLY_N("count", plies), REPLY_S("moves", moves)));
}

static void cmd_approve(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_command_record(REC_APPROVE, cmd, now);
	bool was_pending = g->result.state == RESULT_FLAG_PENDING;

	if (g->result.state == RESULT_APPROVED) {
		ref_answer(r, cmd, now, REPLY_RESULT_APPROVED_ALREADY,
			   REPLY_ARGS(REPLY_S("result", g->result.result)));
		return;
	}
	if (!game_over(g) && !was_pending) {
		ref_answer(r, cmd, now, REPLY_NO_RESULT_YET, NULL);
		return;
	}
	if (was_pending && !strcmp(g->result.flag_result, "*")) {
		int winner = !g->result.flag_color;

		/* "*": the period's moves made and not all completed (6.4), or whether the
		 * other side can still mate is not proven either way (6.9). */
		if (!strcmp(ref_mate_result(r, winner), "*")) {
			char fen[CHESS_FEN_MAX];

			ref_mate_fen(r, fen, sizeof(fen));
			ref_answer(
			    r, cmd, now, REPLY_FLAG_MATE_UNDECIDED,
			    REPLY_ARGS(REPLY_S("color", game_color_name(g->result.flag_color)),
				       REPLY_S("winner_color", game_color_name(winner)),
				       REPLY_S("fen", fen)));
			return;
		}
		ref_answer(r, cmd, now, REPLY_FLAG_UNDECIDED,
			   REPLY_ARGS(REPLY_S("color", game_color_name(g->result.flag_color)),
				      REPLY_S("article", g->rules->moves_check_article)));
		return;
	}
	if (result_undecided(&g->result)) {
		/* A rule ended the game with "*" (7.5.5, 5.1.2): its reason says why. */
		ref_answer(r, cmd, now, REPLY_APPROVE_UNDECIDED,
			   REPLY_ARGS(REPLY_S("reason", g->result.reason)));
		return;
	}
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_NO_RESULT_TO_APPROVE, NULL);
		return;
	}
	if (was_pending) {
		struct game_effect fx = {.kind = GAME_FX_GAME_END, .ms = now};

		ref_effect(r, &fx);
	}
	ref_say(r, GAME_PRIVATE, GAME_MSG_RESULT_APPROVED, now);
	ref_answer(r, cmd, now, REPLY_RESULT_APPROVED,
		   REPLY_ARGS(REPLY_S("result", g->result.result)));
}

static void cmd_pause(struct referee *r, const struct game_command *cmd, bool pause, uint64_t now)
{
	struct game *g = &r->g;

	if (g->clock.state != (pause ? CLOCK_RUNNING : CLOCK_PAUSED)) {
		ref_answer(r, cmd, now, pause ? REPLY_CLOCKS_NOT_RUNNING : REPLY_CLOCKS_NOT_PAUSED,
			   NULL);
		return;
	}
	if (pause) {
		ref_pause(r, true, cmd->author, now);
		ref_answer(r, cmd, now, REPLY_CLOCKS_PAUSED, NULL);
		return;
	}
	/* What a press while the clocks stood did, for the arbiter: it completed the move
	 * without a reading, and the other clock starts. */
	if (g->paused_completed >= 0 && g->paused_completed == g->clock.running) {
		int color = g->paused_completed, ply = g->paused_ply;
		char name[48] = "";

		if (ply >= 0)
			snprintf(name, sizeof(name), "%d.%s %s", game_move_number(g, ply),
				 color == CHESS_WHITE ? "" : "..", g->plies[ply].san);
		ref_pause(r, false, cmd->author, now);
		if (ply >= 0) {
			ref_answer(r, cmd, now, REPLY_CLOCKS_RUNNING_PRESS,
				   REPLY_ARGS(REPLY_S("color", game_color_name(!color)),
					      REPLY_S("pressed_color", game_color_name(color)),
					      REPLY_N("ply", ply + 1), REPLY_S("name", name)));
		} else {
			ref_answer(r, cmd, now, REPLY_CLOCKS_RUNNING_PRESS_UNSEEN,
				   REPLY_ARGS(REPLY_S("color", game_color_name(!color)),
					      REPLY_S("pressed_color", game_color_name(color))));
		}
		return;
	}
	ref_pause(r, false, cmd->author, now);
	ref_answer(r, cmd, now, REPLY_CLOCKS_RUNNING,
		   REPLY_ARGS(REPLY_S("color", game_color_name(g->clock.running))));
}

/* ------------------------------------------------------------------ dispatch */

static void cmd_pause_or_resume(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	cmd_pause(r, cmd, cmd->kind == CMD_PAUSE, now);
}

/* The referee's step for each command kind; CMD_REVIEW is referee_review()'s. */
static void (*const commands[CMD_KIND_COUNT])(struct referee *r, const struct game_command *cmd,
					      uint64_t now) = {
    [CMD_TAG] = cmd_tag,
    [CMD_DRAW_OFFER] = cmd_draw_offer,
    [CMD_ACCEPT_DRAW] = cmd_accept_draw,
    [CMD_CLAIM] = cmd_claim,
    [CMD_RESIGN] = cmd_resign,
    [CMD_RESULT] = cmd_result,
    [CMD_APPROVE] = cmd_approve,
    [CMD_PAUSE] = cmd_pause_or_resume,
    [CMD_RESUME] = cmd_pause_or_resume,
    [CMD_MOVE] = ref_cmd_move,
    [CMD_ROLLBACK] = ref_cmd_rollback,
    [CMD_ILLEGAL] = ref_cmd_illegal,
    [CMD_CLOCK_SET] = ref_cmd_clock_set,
    [CMD_CLOCK_CONTROL] = ref_cmd_clock_control,
    [CMD_CLOCK_ADD] = ref_cmd_clock_add,
    [CMD_RULING] = ref_cmd_ruling,
    [CMD_HINT] = ref_cmd_hint,
    [CMD_TAKEBACK] = ref_cmd_takeback,
    [CMD_ENGINE] = ref_cmd_engine,
    [CMD_LAST_MOVES] = cmd_last_moves,
    [CMD_EVAL] = ref_cmd_eval,
    [CMD_NEW_GAME] = ref_cmd_new_game,
    [CMD_ONLINE] = ref_cmd_online,
};

void ref_command(struct referee *r, const struct game_command *cmd, uint64_t now,
		 struct game_reply *reply)
{
	game_reply_set(reply, REPLY_NO_REPLY, NULL);
	r->reply = reply;
	/* While a review has the board (docs/training.md "Going over a game") the game stands:
	 * only what changes nothing on the board may be given (game_command_needs()). */
	if (review_active(&r->review) && !game_command_needs(cmd->kind)->in_review)
		ref_answer(r, cmd, now, REPLY_REVIEW_HAS_BOARD, NULL);
	/* An online game's moves, offers, clocks and result are the server's (docs/online.md
	 * "Playing online"): they come from the online process alone. */
	else if (r->g.params.mode == GAME_ONLINE && game_command_needs(cmd->kind)->server)
		ref_answer(r, cmd, now, REPLY_ONLINE_SERVER_ONLY, NULL);
	else if ((unsigned)cmd->kind < CMD_KIND_COUNT && commands[cmd->kind])
		commands[cmd->kind](r, cmd, now);
	r->reply = NULL;
}
