/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella train`: the engine (docs/training.md "Training and study").  The UCI engine
 * started at its strength (cli/uci.h), the game's position as the daemon has it given to it,
 * its move checked legal and relayed as `move`, and its answers to the player's hint, draw
 * offer and evaluation at its full strength; an engine that fails is said to the player.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/trace.h"
#include "chess/chess.h"
#include "cli/cli_train_int.h"
#include "cli/uci.h"
#include "net/ctlclient.h"

/* An engine that takes this much longer than its move time (plus a fifth) has hung. */
#define GRACE_MS 1000

/* ------------------------------------------------------------------ the engine */

/* The engine failed: the player hears it, and train ends. */
static int engine_failed(struct train *t, const char *why, const char *reason)
{
	char reply[512];

	log_error(LOG_MAIN, "%s", why);
	t->engine_lost = true;
	if (t->ev) {
		char line[64];

		snprintf(line, sizeof(line), "engine off %s", reason);
		if (tr_ev_request(t, line, reply, sizeof(reply)) == 0 && !ctlclient_reply_ok(reply))
			log_error(LOG_MAIN, "the daemon: %s", reply);
	}
	return 1;
}

/* The engine's strength as asked (level or rating), or its full strength. */
static int set_strength(struct train *t, char *err, size_t size)
{
	if (t->elo > 0)
		return uci_set_elo(t->e, t->elo, &t->elo_set, err, size);
	if (t->level >= 0)
		return uci_set_level(t->e, t->level, err, size);
	return 0;
}

/* The position of the game as the engine takes it: FEN (NULL for the initial position) and
 * the moves since, and the same as a position to check the engine's answer against. */
struct position {
	char fen[CHESS_FEN_MAX];
	bool startpos;
	char moves[STATUS_MAX / 4];
	struct chess_pos pos;
	int plies;
};

static int game_position_of(struct train *t, struct position *p, char *err, size_t size)
{
	struct chess_error cerr;
	const char *at;
	size_t n = 0;

	tr_field(t->status, "start_fen", p->fen, sizeof(p->fen));
	if (chess_fen_parse(&p->pos, p->fen, &cerr)) {
		snprintf(err, size, "the game's start position is no FEN: %s", p->fen);
		return -1;
	}
	p->startpos = !strcmp(p->fen, CHESS_FEN_START);
	p->plies = 0;
	p->moves[0] = '\0';
	if (tr_ask(t, "moves", t->moves, sizeof(t->moves)) || !ctlclient_reply_ok(t->moves)) {
		snprintf(err, size, "the daemon gave no moves");
		return -1;
	}
	/* Each move's "uci", in order (a move's words hold no quotes). */
	for (at = strstr(t->moves, "\"uci\":\""); at; at = strstr(at, "\"uci\":\"")) {
		char word[8];
		size_t len;
		chess_move m;
		struct chess_undo undo;

		at += 7;
		len = strcspn(at, "\"");
		if (len >= sizeof(word) || n + len + 2 >= sizeof(p->moves)) {
			snprintf(err, size, "the game's moves are too long");
			return -1;
		}
		memcpy(word, at, len);
		word[len] = '\0';
		if (chess_move_parse_uci(&p->pos, word, &m)) {
			snprintf(err, size, "the daemon's move %s does not follow", word);
			return -1;
		}
		chess_pos_make(&p->pos, m, &undo);
		n += (size_t)snprintf(p->moves + n, sizeof(p->moves) - n, "%s%s", n ? " " : "",
				      word);
		p->plies++;
	}
	return 0;
}

/* The engine's move in the position p: checked to be legal there.  0, or the exit status
 * after the failure was said. */
static int think(struct train *t, const struct position *p, int movetime, char move[UCI_MOVE_MAX],
		 int *status)
{
	char err[512];
	chess_move m;

	/* make bench's breakdown (ANNABELLA_TRACE): the engine's own time. */
	trace_at(0, "engine-go", "%d", p->plies);
	if (uci_best_move(t->e, p->startpos ? NULL : p->fen, p->moves, movetime,
			  GRACE_MS + movetime / 5, move, err, sizeof(err))) {
		*status = engine_failed(t, err, uci_failure_name(uci_last_failure(t->e)));
		return -1;
	}
	trace_at(0, "engine-move", "%s", move);
	if (chess_move_parse_uci(&p->pos, move, &m)) {
		snprintf(err, sizeof(err), "the engine %s answered %s, no legal move there",
			 uci_name(t->e), move);
		*status = engine_failed(t, err, "nonsense");
		return -1;
	}
	return 0;
}

/* The engine started at its strength: 0, or -1 with the exit status (the failure said). */
int tr_start_engine(struct train *t, int *status)
{
	enum uci_failure why;
	char err[512];

	t->e = uci_start(t->engine_path, 10000, &why, err, sizeof(err));
	if (!t->e) {
		*status = engine_failed(t, err, uci_failure_name(why));
		return -1;
	}
	if (set_strength(t, err, sizeof(err))) {
		*status = engine_failed(t, err, uci_failure_name(uci_last_failure(t->e)));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ playing */

/* engine on SIDE NAME: the daemon takes it as the opponent's player. */
int tr_engine_on(struct train *t, int side, int *status)
{
	char line[256], reply[1024], err[512], msg[512];
	char level[48] = "", strength[48] = "";

	/* The strength as set, not as asked: the engine holds a rating to its range. */
	if (t->elo > 0) {
		snprintf(level, sizeof(level), " (Elo %d)", t->elo_set);
		snprintf(strength, sizeof(strength), " elo %d asked %d", t->elo_set, t->elo);
	} else if (t->level >= 0) {
		snprintf(level, sizeof(level), " (level %d)", t->level);
		snprintf(strength, sizeof(strength), " level %d", t->level);
	}
	snprintf(line, sizeof(line), "engine on%s%s%s %s", side >= 0 ? " " : "",
		 side >= 0 ? game_color_name(side) : "", strength, uci_name(t->e));
	/* Said before the daemon is told, so it is in train's output by the time the player
	 * hears the strength. */
	if (t->elo > 0 && t->elo_set != t->elo)
		tr_say("Elo %d asked: the engine plays at %d, the nearest it can", t->elo,
		       t->elo_set);
	if (tr_ev_request(t, line, reply, sizeof(reply))) {
		log_error(LOG_MAIN, "the daemon did not answer engine on");
		*status = 1;
		return -1;
	}
	if (!ctlclient_reply_ok(reply)) {
		tr_field(reply, "error", msg, sizeof(msg));
		log_error(LOG_MAIN, "the daemon refuses: %s", msg);
		*status = 1;
		return -1;
	}
	if (tr_ask(t, "status", t->status, sizeof(t->status))) {
		*status = 1;
		return -1;
	}
	tr_field(t->status, "engine", msg, sizeof(msg));
	tr_field(msg, "plays", err, sizeof(err));
	t->plays = game_color_parse(err);
	tr_field(t->status, "game", t->game_id, sizeof(t->game_id));
	t->saw_game_on = false;
	if (uci_new_game(t->e, err, sizeof(err))) {
		*status = engine_failed(t, err, uci_failure_name(uci_last_failure(t->e)));
		return -1;
	}
	/* The scoresheet names the engine on its side. */
	snprintf(line, sizeof(line), "tags %s \"%s%s\"", t->plays ? "Black" : "White",
		 uci_name(t->e), level);
	if (tr_ev_request(t, line, reply, sizeof(reply)) == 0 && !ctlclient_reply_ok(reply))
		log_error(LOG_MAIN, "tags: %s", reply);
	tr_say("%s plays %s in game %s", uci_name(t->e), game_color_name(t->plays), t->game_id);
	return 0;
}

/* The milliseconds the engine thinks: its move time, less when its clock runs low. */
static int movetime_for(const struct train *t)
{
	char clock[2048], v[32];
	long long left;

	tr_field(t->status, "clock", clock, sizeof(clock));
	if (!clock[0] || !strcmp(clock, "null"))
		return t->movetime;
	tr_field(clock, t->plays ? "black_ms" : "white_ms", v, sizeof(v));
	left = atoll(v);
	if (left / 30 < t->movetime)
		return left / 30 > 50 ? (int)(left / 30) : 50;
	return t->movetime;
}

/* Whether it is the engine's move: its side to move and, with a clock, its clock running
 * (the player's press completed the player's move). */
static bool engines_move(const struct train *t)
{
	char v[2048], state[24], running[16];

	tr_field(t->status, "to_move", v, sizeof(v));
	if (game_color_parse(v) != t->plays)
		return false;
	tr_field(t->status, "clock", v, sizeof(v));
	if (!v[0] || !strcmp(v, "null"))
		return true;
	tr_field(v, "state", state, sizeof(state));
	tr_field(v, "running", running, sizeof(running));
	return !strcmp(state, "running") && game_color_parse(running) == t->plays;
}

/* The engine's move in the game as it is now, relayed as `move` (the daemon announces it and
 * guides it on the board): 0, or -1 with the exit status in *status. */
static int move_now(struct train *t, int *status)
{
	char reply[1024], line[64], move[UCI_MOVE_MAX], msg[512];
	struct position *p = malloc(sizeof(*p));
	int64_t t0;
	int ms;

	if (!p) {
		*status = 1;
		return -1;
	}
	if (game_position_of(t, p, msg, sizeof(msg))) {
		log_error(LOG_MAIN, "%s", msg);
		free(p);
		*status = 1;
		return -1;
	}
	t0 = tr_now_ms();
	ms = movetime_for(t);
	if (think(t, p, ms, move, status)) {
		free(p);
		return -1;
	}
	snprintf(line, sizeof(line), "move %s", move);
	if (tr_ev_request(t, line, reply, sizeof(reply))) {
		log_error(LOG_MAIN, "the daemon did not answer the move");
		free(p);
		*status = 1;
		return -1;
	}
	if (!ctlclient_reply_ok(reply)) {
		/* The game changed meanwhile (a takeback, a review): looked at again. */
		tr_field(reply, "error", msg, sizeof(msg));
		tr_say("the move %s was not taken: %s", move, msg);
	} else {
		tr_field(reply, "text", msg, sizeof(msg));
		tr_say("%s (%lld ms)", msg, (long long)(tr_now_ms() - t0));
	}
	free(p);
	return 0;
}

/* What the game is now, and the engine's move if it is its turn.  0 to go on, 1 when the
 * game it played is over for good (its result approved, or another game began), or -1 with
 * the exit status in *status. */
int tr_play(struct train *t, int *status)
{
	char result[1024], state[32], id[GAME_ID_MAX], v[256], flows[4096];

	if (tr_ask(t, "status", t->status, sizeof(t->status)) || !ctlclient_reply_ok(t->status)) {
		log_error(LOG_MAIN, "the daemon gives no status");
		*status = 1;
		return -1;
	}
	tr_field(t->status, "game", id, sizeof(id));
	if (!strcmp(id, "null") || !id[0])
		return 0;
	if (strcmp(id, t->game_id)) {
		char err[512];

		/* Another game began: the last one is over, or (train came when it was) this one
		 * is the engine's game, new to the engine too. */
		if (t->saw_game_on)
			return 1;
		snprintf(t->game_id, sizeof(t->game_id), "%s", id);
		if (uci_new_game(t->e, err, sizeof(err))) {
			*status = engine_failed(t, err, uci_failure_name(uci_last_failure(t->e)));
			return -1;
		}
	}
	tr_field(t->status, "result", result, sizeof(result));
	tr_field(result, "state", state, sizeof(state));
	if (!strcmp(state, "approved"))
		return t->saw_game_on ? 1 : 0;
	if (strcmp(state, "on"))
		return 0; /* over, its result waiting: a takeback may bring it back */
	tr_field(t->status, "review", v, sizeof(v));
	if (v[0] && strcmp(v, "null"))
		return 0; /* a review has the board */
	t->saw_game_on = true;
	/* A new game's position being set up on the board (--fen, the review's "play on from
	 * here"): the engine moves once the board shows it. */
	tr_field(t->status, "flows", flows, sizeof(flows));
	tr_field(flows, "setup", v, sizeof(v));
	if (v[0] && strcmp(v, "null"))
		return 0;
	if (!engines_move(t))
		return 0;
	return move_now(t, status);
}

/* The engine's move at its full strength (a hint, an evaluation), its strength then as set
 * again: 0, or -1 with the exit status in *status. */
static int think_full(struct train *t, const struct position *p, char move[UCI_MOVE_MAX],
		      int *status)
{
	char err[512];

	if (uci_set_full_strength(t->e, err, sizeof(err)) ||
	    think(t, p, t->hint_movetime, move, status) || set_strength(t, err, sizeof(err))) {
		if (*status == 0)
			*status = engine_failed(t, err, uci_failure_name(uci_last_failure(t->e)));
		return -1;
	}
	return 0;
}

/* An engine that is not worse by more than this (centipawns, its own view) accepts a draw. */
#define DRAW_ACCEPT_CP 30

/* What the player asked of the engine for ply `ply` (event: hint-request, draw-request,
 * eval-request): its best move, its answer to the draw offer by its evaluation, or the
 * evaluation, each at its full strength. */
int tr_answer(struct train *t, const char *event, const char *kind, int *status)
{
	char v[32], reply[1024], line[96], move[UCI_MOVE_MAX], err[512];
	struct position *p;
	struct uci_score score = {0};
	bool scored;
	int ply;

	tr_field(event, "ply", v, sizeof(v));
	ply = atoi(v);
	if (tr_ask(t, "status", t->status, sizeof(t->status)))
		return 0;
	p = malloc(sizeof(*p));
	if (!p) {
		*status = 1;
		return -1;
	}
	if (game_position_of(t, p, err, sizeof(err)) || p->plies != ply) {
		free(p);
		return 0; /* the game moved on: that is not needed now */
	}
	if (think_full(t, p, move, status)) {
		free(p);
		return -1;
	}
	/* The engine's score is the side to move's; the daemon takes White's.  An engine that
	 * gave none declines a draw and has no evaluation to say. */
	scored = uci_last_score(t->e, &score);
	if (p->pos.side == CHESS_BLACK) {
		score.cp = -score.cp;
		score.mate = -score.mate;
	}
	free(p);
	if (!strcmp(kind, "hint-request")) {
		snprintf(line, sizeof(line), "engine hint %d %s", ply, move);
	} else if (!strcmp(kind, "draw-request")) {
		int own = t->plays == CHESS_WHITE ? score.cp : -score.cp;

		snprintf(line, sizeof(line), "engine draw %s",
			 scored && own <= DRAW_ACCEPT_CP ? "accept" : "decline");
	} else if (!scored) {
		tr_say("%s for ply %d: the engine gave no score", kind, ply);
		return 0;
	} else if (score.mate) {
		snprintf(line, sizeof(line), "engine eval %d mate %d", ply, score.mate);
	} else {
		snprintf(line, sizeof(line), "engine eval %d cp %d", ply, score.cp);
	}
	if (tr_ev_request(t, line, reply, sizeof(reply))) {
		*status = 1;
		return -1;
	}
	tr_field(reply, ctlclient_reply_ok(reply) ? "text" : "error", err, sizeof(err));
	tr_say("%s for ply %d: %s", kind, ply, err);
	return 0;
}
