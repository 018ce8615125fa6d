/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's side of online play (docs/online.md "Playing online"): the online process, a client
 * of the control socket, plays the tactile player's game on a server (lichess's Board API);
 * the daemon opens no network socket.  What the server says of its game comes as CMD_ONLINE
 * commands on that process's connection: the game begun, each of the server's moves (the
 * opponent's, announced and guided square by square as the training engine's are), its
 * clocks, the game set back to the server's plies (a takeback both agreed to, a move the
 * server refused), the offers standing, the opponent gone and back, and the end.  What the
 * player asks of the server from the button menu goes out as GAME_FX_ONLINE_ASK to that
 * process alone and changes nothing here until the server's stream says so.
 *
 * The server's game wins: the device ends a game on its own only at mate and stalemate
 * (the server ends it there too), its clocks follow the server's and never flag, and a
 * move is the player's only once their press completes it, which is when it is sent.
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

#include "game/online.h"

static bool online_game(const struct referee *r)
{
	return r->g.open && r->g.params.mode == GAME_ONLINE;
}

/* ------------------------------------------------------------------ what is known */

bool ref_online_claimable(const struct referee *r, uint64_t now)
{
	return r->online.gone && now >= r->online.claim_at;
}

void referee_online_info(const struct referee *r, uint64_t now, struct referee_online_info *out)
{
	out->state = r->online.state;
	out->offers = r->online.offers;
	out->opponent_gone = r->online.gone;
	out->claimable = ref_online_claimable(r, now);
}

/* What the server's stream said last is gone with the process: a new one says it again. */
static void forget_server(struct referee *r)
{
	r->online.offers = 0;
	r->online.gone = false;
	r->online.claim_said = false;
}

void referee_online_gone(struct referee *r, uint64_t now)
{
	bool was = r->online.state == REFEREE_ONLINE_CONNECTED;

	r->online.state = REFEREE_ONLINE_NONE;
	forget_server(r);
	if (was && online_game(r) && !game_over(&r->g))
		ref_say(r, GAME_PRIVATE, GAME_MSG_ONLINE_GONE, now);
	referee_flush(r, now);
}

void ref_online_ask(struct referee *r, int request, uint64_t now)
{
	struct game_effect fx = {.kind = GAME_FX_ONLINE_ASK, .ms = now};

	if (r->online.state == REFEREE_ONLINE_NONE) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_ONLINE_NOT_READY, now);
		return;
	}
	fx.online_request = request;
	fx.color = r->g.params.player;
	fx.ply = game_plies(&r->g);
	ref_effect(r, &fx);
}

/* A game is on: moves made, or the clock started, and no result. */
static bool game_in_progress(const struct game *g)
{
	if (!g->open || game_over(g))
		return g->open && result_undecided(&g->result);
	return game_plies(g) > 0 || (g->has_clock && g->clock.state != CLOCK_NOT_STARTED);
}

void ref_online_request_play(struct referee *r, uint64_t now)
{
	if (game_in_progress(&r->g) || r->g.params.mode == GAME_TOURNAMENT) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
		return;
	}
	if (r->online.state != REFEREE_ONLINE_WAITING) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_ONLINE_NOT_READY, now);
		return;
	}
	ref_online_ask(r, ONLINE_ASK_PLAY, now);
	ref_say(r, GAME_PRIVATE, GAME_MSG_ONLINE_REQUESTED, now);
}

/* ------------------------------------------------------------------ presses */

/* `color` completes its waiting move `ply`: the clock as the server's takes it (the press's
 * increment, the other clock running), or, from `server` when it gives them, the server's
 * clocks after the move; stopped when the move ended the game. */
static void complete_move(struct referee *r, int color, int ply, const struct game_command *server,
			  uint64_t now)
{
	struct chess_clock c = r->g.clock;

	clock_press_follow(&c, color, now);
	if (server && server->white_ms >= 0) {
		clock_follow(&c, server->white_ms, server->black_ms, server->color, now);
		c.last_press_ms[color] = color == CHESS_WHITE ? server->white_ms : server->black_ms;
	}
	if (game_over(&r->g))
		clock_stop(&c, now);
	ref_press_record(r, color, PRESS_MOVE, &c, now);
	ref_complete(r, ply, c.last_press_ms[color], now);
}

/* The warnings said again once the player's time is above them again (the server's clock,
 * an increment). */
static void rearm_warnings(struct referee *r, uint64_t now)
{
	int player = r->g.params.player;

	for (int i = 0; i < r->set.warning_count; i++)
		if (clock_remaining(&r->g.clock, player, now) >
		    (int64_t)r->set.warnings_s[i] * 1000)
			r->warned[i] = false;
}

void ref_online_press(struct referee *r, int color, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player, ply;
	uint64_t diff;

	/* The opponent's clock is the server's: nothing to press here. */
	if (color != player) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
		return;
	}
	if (game_over(g))
		return;
	ref_settle_now(r, now);
	if (promotion_is_pending(&g->promotion)) {
		if (game_position(g)->side == player && g->promotion.choice == CHESS_NO_PIECE) {
			/* Trap 2: never a silent queen. */
			ref_say(r, GAME_PRIVATE, GAME_MSG_PROMOTION_NEEDED, now);
			return;
		}
		ref_promotion_final(r, now);
	}
	diff = referee_board_differences(r);
	if (diff) {
		chess_move changed = ref_changed_move(r);

		if (changed != CHESS_MOVE_NONE &&
		    completion_waiting(&g->completion, player) == game_plies(g) - 1) {
			/* The move was changed after it was announced (e2-e3, then on to e4):
			 * the correction is said, and the move sent is the one on the board. */
			ref_withdraw_last(r, "device", now);
			ref_make_move(r, changed, true, NULL, now);
			diff = referee_board_differences(r);
		}
	}
	if (diff) {
		/* No legal move explains the board: nothing can be sent.  The player is told
		 * and guided (the mismatch flow). */
		uint64_t occ = chess_pos_occupancy(game_position(g));

		if (!mismatch_active(&g->mismatch))
			ref_mismatch_raise(r, diff & ~occ, diff & occ, now);
		else
			ref_say(r, GAME_PRIVATE, GAME_MSG_MISMATCH, now);
		return;
	}
	ply = completion_waiting(&g->completion, player);
	if (ply < 0) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_PRESS_NO_MOVE, now);
		return;
	}
	complete_move(r, player, ply, NULL, now);
	rearm_warnings(r, now);
}

void ref_online_final_move(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;
	int player = g->params.player;
	int ply = completion_waiting(&g->completion, player);

	if (online_game(r) && game_over(g) && ply == game_plies(g) - 1)
		complete_move(r, player, ply, NULL, now);
}

/* ------------------------------------------------------------------ the server's game */

static void ply_name(const struct game *g, int ply, char *buf, size_t size)
{
	snprintf(buf, size, "%d.%s %s", game_move_number(g, ply),
		 game_ply_color(g, ply) == CHESS_WHITE ? "" : "..", g->plies[ply].san);
}

/* The server's plies are the game's from ply `keep` on: later ones are taken back (as in
 * casual play's takeback, journaled the same way) and the player is guided square by
 * square to set the position up, said with `msg`.  The clocks keep their readings; the
 * side to move runs (the server's clock follows). */
static int set_back(struct referee *r, int keep, enum game_msg msg, const char *author,
		    uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_record(REC_TAKEBACK, now);

	snprintf(rec.author, sizeof(rec.author), "%s", author);
	rec.u.rollback_ply = keep;
	rec.clock = g->clock;
	if (g->has_clock && g->clock.state != CLOCK_NOT_STARTED) {
		struct chess_pos pos;

		game_position_before(g, keep, &pos);
		clock_follow(&rec.clock, clock_remaining(&g->clock, CHESS_WHITE, now),
			     clock_remaining(&g->clock, CHESS_BLACK, now),
			     keep >= 2 ? pos.side : -1, now);
	}
	if (ref_emit(r, &rec))
		return -1;
	r->relay_guide = false;
	ref_setup_begin_with(r, msg, now);
	if (r->board_ready && !referee_board_differences(r)) {
		ref_restored(r, false, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_SETUP_DONE, now);
	}
	return 0;
}

static void begin(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_params p = r->set.next;
	struct time_control tc;
	struct chess_pos start;
	struct chess_error cerr;
	const char *id = online_game(r) ? game_params_tag(&g->params, "LichessId") : NULL;
	char err[96];

	if (id && !strcmp(id, cmd->online_id) && !game_over(g)) {
		/* The process came back to the game it plays. */
		ref_answer(r, cmd, now, REPLY_ONLINE_RESUMED,
			   REPLY_ARGS(REPLY_S("id", cmd->online_id)));
		return;
	}
	if (game_in_progress(g) || r->review.state != REVIEW_OFF) {
		ref_answer(r, cmd, now, REPLY_ONLINE_GAME_ON,
			   REPLY_ARGS(REPLY_N("plies", game_plies(g))));
		return;
	}
	if (time_control_parse(cmd->time_control, &tc, err, sizeof(err)) || tc.count == 0) {
		ref_answer(r, cmd, now, REPLY_ONLINE_BAD_GAME,
			   REPLY_ARGS(REPLY_S("value", cmd->time_control)));
		return;
	}
	if (cmd->text[0] && chess_fen_parse(&start, cmd->text, &cerr)) {
		ref_answer(r, cmd, now, REPLY_ONLINE_BAD_GAME,
			   REPLY_ARGS(REPLY_S("value", cmd->text)));
		return;
	}
	p.mode = GAME_ONLINE;
	p.player = cmd->color;
	snprintf(p.time_control, sizeof(p.time_control), "%s", cmd->time_control);
	if (cmd->text[0])
		chess_fen_format(&start, p.fen, sizeof(p.fen));
	else
		snprintf(p.fen, sizeof(p.fen), "%s", CHESS_FEN_START);
	/* The server's tags, not the club's: the event, its site and players. */
	p.tag_count = 0;
	for (int i = 0; i < cmd->tag_count; i++)
		game_params_set_tag(&p, cmd->tags[i].name, cmd->tags[i].value);
	game_params_set_tag(&p, "LichessId", cmd->online_id);
	ref_new_game(r, &p, now);
	if (!online_game(r))
		return;
	if (r->board_ready)
		detect_init(&r->det, &r->set.detect, game_position(g), r->det.sensed);
	forget_server(r);
	r->online.state = REFEREE_ONLINE_CONNECTED;
	ref_say(r, GAME_PRIVATE,
		cmd->color == CHESS_WHITE ? GAME_MSG_ONLINE_PLAYS_WHITE
					  : GAME_MSG_ONLINE_PLAYS_BLACK,
		now);
	/* The pegs as the game's start position has them. */
	if (referee_board_differences(r))
		set_back(r, 0, GAME_MSG_ONLINE_SETUP, "online", now);
	ref_answer(r, cmd, now, REPLY_ONLINE_BEGUN,
		   REPLY_ARGS(REPLY_S("id", cmd->online_id),
			      REPLY_S("color", game_color_name(cmd->color))));
}

/* The server's ply cmd->ply (1-based) is cmd->move: the next one is made (announced
 * publicly, pressed for its mover, guided square by square); one the game has already is
 * in step; another is the online process's to take back first. */
static void server_move(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	int plies = game_plies(g), ply = cmd->ply, mover;
	struct chess_pos pos;
	chess_move m;
	char name[40];

	if (ply < 1 || ply > plies + 1) {
		ref_answer(r, cmd, now, REPLY_ONLINE_PLY_AHEAD,
			   REPLY_ARGS(REPLY_N("ply", ply), REPLY_N("plies", plies)));
		return;
	}
	game_position_before(g, ply - 1, &pos);
	if (chess_move_parse_uci(&pos, cmd->move, &m)) {
		ref_answer(r, cmd, now, REPLY_ONLINE_NOT_LEGAL,
			   REPLY_ARGS(REPLY_N("ply", ply), REPLY_S("move", cmd->move)));
		return;
	}
	if (ply <= plies) {
		ply_name(g, ply - 1, name, sizeof(name));
		ref_answer(r, cmd, now,
			   g->plies[ply - 1].move == m ? REPLY_ONLINE_IN_STEP
						       : REPLY_ONLINE_PLY_DIFFERS,
			   REPLY_ARGS(REPLY_N("ply", ply), REPLY_S("name", name)));
		return;
	}
	if (game_over(g)) {
		ref_answer(r, cmd, now, REPLY_GAME_OVER,
			   REPLY_ARGS(REPLY_S("result", g->result.result)));
		return;
	}
	mover = pos.side;
	if (ref_make_move(r, m, false, cmd->author, now)) {
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "move")));
		return;
	}
	/* Its press, with the server's clocks after it when they came with it. */
	if (completion_waiting(&g->completion, mover) == ply - 1) {
		complete_move(r, mover, ply - 1, cmd, now);
		rearm_warnings(r, now);
	}
	ref_relay_guide_begin(r, now);
	ply_name(g, ply - 1, name, sizeof(name));
	ref_answer(r, cmd, now, REPLY_ONLINE_MOVE,
		   REPLY_ARGS(REPLY_N("ply", ply), REPLY_S("name", name)));
}

static void server_clock(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec = ref_record(REC_CLOCK_SET, now);
	char white[16], black[16];

	if (game_over(g)) {
		ref_answer(r, cmd, now, REPLY_GAME_OVER,
			   REPLY_ARGS(REPLY_S("result", g->result.result)));
		return;
	}
	snprintf(rec.author, sizeof(rec.author), "%s", cmd->author);
	rec.clock = g->clock;
	clock_follow(&rec.clock, cmd->white_ms, cmd->black_ms, cmd->color, now);
	if (ref_emit(r, &rec)) {
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "clock")));
		return;
	}
	rearm_warnings(r, now);
	clock_format_hms(cmd->white_ms, white, sizeof(white));
	clock_format_hms(cmd->black_ms, black, sizeof(black));
	ref_answer(r, cmd, now, REPLY_ONLINE_CLOCK,
		   REPLY_ARGS(REPLY_S("white", white), REPLY_S("black", black)));
}

static void server_back(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	static const enum game_msg said[ONLINE_BACK_COUNT] = {
	    [ONLINE_BACK_SYNC] = GAME_MSG_ONLINE_SETUP,
	    [ONLINE_BACK_REFUSED] = GAME_MSG_ONLINE_MOVE_REFUSED,
	    [ONLINE_BACK_TAKEBACK] = GAME_MSG_TAKEBACK,
	};
	struct game *g = &r->g;
	int plies = game_plies(g), keep = cmd->ply;

	if (keep < 0 || keep > plies) {
		ref_answer(r, cmd, now, REPLY_ONLINE_PLY_AHEAD,
			   REPLY_ARGS(REPLY_N("ply", keep), REPLY_N("plies", plies)));
		return;
	}
	if (keep == plies && !referee_board_differences(r)) {
		ref_answer(r, cmd, now, REPLY_ONLINE_BACK,
			   REPLY_ARGS(REPLY_N("ply", keep), REPLY_N("plies", 0)));
		return;
	}
	if (set_back(r, keep, said[(unsigned)cmd->online_news % ONLINE_BACK_COUNT], cmd->author,
		     now)) {
		ref_answer(r, cmd, now, REPLY_NOT_APPLIED, REPLY_ARGS(REPLY_S("what", "takeback")));
		return;
	}
	ref_answer(r, cmd, now, REPLY_ONLINE_BACK,
		   REPLY_ARGS(REPLY_N("ply", keep), REPLY_N("plies", plies - keep)));
}

/* The server ended the game: its result is the game's, approved at once (no arbiter and no
 * second signature: the server's word is final). */
static void server_result(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	struct game *g = &r->g;
	struct game_online_end end;
	struct game_record rec;

	if (game_online_end_of(cmd->text, cmd->color, &end)) {
		ref_answer(r, cmd, now, REPLY_ONLINE_NOT_AN_END,
			   REPLY_ARGS(REPLY_S("status", cmd->text)));
		return;
	}
	if (!game_over(g)) {
		if (end.resigned) {
			rec = ref_record(REC_RESIGN, now);
			snprintf(rec.author, sizeof(rec.author), "%s", cmd->author);
			rec.u.resign_color = !cmd->color;
			ref_emit(r, &rec);
			ref_say(r, GAME_PUBLIC,
				cmd->color == CHESS_WHITE ? GAME_MSG_BLACK_RESIGNS
							  : GAME_MSG_WHITE_RESIGNS,
				now);
		}
		ref_end_game(r, end.result, end.termination, end.reason, cmd->author, now);
		if (end.msg != GAME_MSG_COUNT)
			ref_say(r, end.channel, end.msg, now);
		ref_say_result(r, end.result, now);
	}
	if (g->result.state != RESULT_APPROVED) {
		rec = ref_record(REC_APPROVE, now);
		snprintf(rec.author, sizeof(rec.author), "%s", cmd->author);
		ref_emit(r, &rec);
	}
	forget_server(r);
	ref_answer(
	    r, cmd, now, REPLY_ONLINE_RESULT,
	    REPLY_ARGS(REPLY_S("result", g->result.result), REPLY_S("reason", g->result.reason)));
}

static void server_offers(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	unsigned was = r->online.offers, is = (unsigned)cmd->online_news, added = is & ~was;
	int player = r->g.params.player;
	char words[64];

	r->online.offers = is;
	for (int color = 0; color < 2; color++) {
		if ((added & ONLINE_OFFER_DRAW(color)) && !game_over(&r->g))
			ref_draw_offer(r, color, cmd->author, now);
		if (added & ONLINE_OFFER_TAKEBACK(color))
			ref_say(r, GAME_PRIVATE,
				color == player ? GAME_MSG_ONLINE_TAKEBACK_SENT
						: GAME_MSG_ONLINE_TAKEBACK_ASKED,
				now);
	}
	game_online_offers_format(is, words, sizeof(words));
	ref_answer(r, cmd, now, REPLY_ONLINE_OFFERS,
		   REPLY_ARGS(REPLY_S("offers", words[0] ? words : "none")));
}

/* The opponent left (cmd->ply: the seconds until the player may claim), or is back (-1). */
static void server_gone(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	if (cmd->ply < 0) {
		if (r->online.gone)
			ref_say(r, GAME_PRIVATE, GAME_MSG_ONLINE_OPPONENT_BACK, now);
		r->online.gone = false;
		r->online.claim_said = false;
		ref_answer(r, cmd, now, REPLY_ONLINE_OPPONENT_BACK, NULL);
	} else {
		if (!r->online.gone)
			ref_say(r, GAME_PRIVATE, GAME_MSG_ONLINE_OPPONENT_GONE, now);
		r->online.gone = true;
		r->online.claim_at = now + (uint64_t)cmd->ply * 1000;
		if (cmd->ply == 0 && !r->online.claim_said) {
			r->online.claim_said = true;
			ref_say(r, GAME_PRIVATE, GAME_MSG_ONLINE_CLAIM_POSSIBLE, now);
		}
		ref_answer(r, cmd, now, REPLY_ONLINE_OPPONENT_GONE,
			   REPLY_ARGS(REPLY_N("seconds", cmd->ply)));
	}
}

void ref_cmd_online(struct referee *r, const struct game_command *cmd, uint64_t now)
{
	enum game_online_op op = cmd->online_op;

	switch (op) {
	case ONLINE_OP_ON:
		r->online.state = REFEREE_ONLINE_CONNECTED;
		ref_answer(r, cmd, now, REPLY_ONLINE_ON, NULL);
		return;
	case ONLINE_OP_OFF:
		r->online.state = REFEREE_ONLINE_NONE;
		forget_server(r);
		ref_answer(r, cmd, now, REPLY_ONLINE_OFF, NULL);
		return;
	case ONLINE_OP_WAIT:
		r->online.state = REFEREE_ONLINE_WAITING;
		ref_answer(r, cmd, now, REPLY_ONLINE_WAITING, NULL);
		return;
	case ONLINE_OP_SAY:
		ref_say(r, GAME_PRIVATE, game_online_news_msg(cmd->online_news), now);
		ref_answer(r, cmd, now, REPLY_ONLINE_SAID,
			   REPLY_ARGS(REPLY_S("news", game_online_news_name(cmd->online_news))));
		return;
	case ONLINE_OP_BEGIN:
		begin(r, cmd, now);
		return;
	default:
		break;
	}
	/* The rest is about the server's game: an online game's. */
	if (!online_game(r)) {
		ref_answer(r, cmd, now, REPLY_NOT_IN_MODE,
			   REPLY_ARGS(REPLY_S("mode", game_mode_name(r->g.params.mode))));
		return;
	}
	switch (op) {
	case ONLINE_OP_MOVE:
		server_move(r, cmd, now);
		break;
	case ONLINE_OP_CLOCK:
		server_clock(r, cmd, now);
		break;
	case ONLINE_OP_BACK:
		server_back(r, cmd, now);
		break;
	case ONLINE_OP_RESULT:
		server_result(r, cmd, now);
		break;
	case ONLINE_OP_OFFERS:
		server_offers(r, cmd, now);
		break;
	case ONLINE_OP_GONE:
		server_gone(r, cmd, now);
		break;
	default:
		break;
	}
}
