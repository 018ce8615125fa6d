/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A request through the command table (protocol.h): its row's roles, parser, modes and
 * needs, then its handler, whose reply goes back to the caller.  The handlers of the rows.
 */
#include "control/handlers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reply into the outcome: its line, and what control.log says. */
static void answer(struct control_outcome *out, const struct game_reply *reply)
{
	out->ok = reply->ok;
	out->code = reply->code;
	out->quotes = false;
	for (int i = 0; i < reply->argc; i++)
		out->quotes |= !reply->args[i].number;
	control_reply(&out->reply, reply);
	snprintf(out->said, sizeof(out->said), "%s", reply->text);
}

static void answer_code(struct control_outcome *out, enum reply_code code,
			const struct reply_value *args)
{
	struct game_reply reply;

	game_reply_set(&reply, code, args);
	answer(out, &reply);
}

void control_dispatch(const struct control_env *env, const char *line, size_t len,
		      struct control_outcome *out)
{
	struct control_request *req = malloc(sizeof(*req));
	struct game_reply *why = malloc(sizeof(*why));
	const struct control_command *row;
	const struct game_command_needs *need;

	memset(out, 0, sizeof(*out));
	if (!req || !why) {
		answer_code(out, REPLY_OUT_OF_MEMORY, NULL);
		goto done;
	}
	if (control_parse(line, len, req, why)) {
		out->command = req->command;
		answer(out, why);
		goto done;
	}
	row = out->command = req->command;
	if (!(row->roles & CONTROL_ROLE(env->role))) {
		answer_code(out, REPLY_NOT_ALLOWED_ROLE,
			    REPLY_ARGS(REPLY_S("command", row->name),
				       REPLY_S("role", control_role_name(env->role))));
		goto done;
	}
	/* The command the request gives (`clock add` is the `clock` row's, and needs more). */
	need = game_command_needs(row->kind == CONTROL_NO_KIND ? CONTROL_NO_KIND : req->game.kind);
	if ((need->modes != GAME_MODES_ALL || need->needs) &&
	    game_command_unmet_reply(referee_game(env->referee), need->modes, need->needs, why)) {
		answer(out, why);
		goto done;
	}
	out->ok = true;
	row->handle(env, req, out);
done:
	free(why);
	free(req);
}

void control_outcome_free(struct control_outcome *out)
{
	free(out->reply.p);
	out->reply = (struct strbuf){0};
}

/* ------------------------------------------------------------------ handlers */

void control_h_game(const struct control_env *env, struct control_request *req,
		    struct control_outcome *out)
{
	struct game_reply reply;

	req->game.role = env->role;
	/* The training process's move is the engine's (docs/training.md "Training and study"). */
	req->game.engine = env->engine_self;
	/* The online process's commands are the server's (docs/online.md "Playing online"). */
	req->game.online = env->online_self;
	snprintf(req->game.author, sizeof(req->game.author), "%s", env->author);
	snprintf(req->game.lang, sizeof(req->game.lang), "%s", env->notation ? env->notation : "");
	referee_command(env->referee, &req->game, env->now, &reply);
	answer(out, &reply);
}

void control_h_status(const struct control_env *env, struct control_request *req,
		      struct control_outcome *out)
{
	struct control_status_extra x = {0};

	if (env->status_extra)
		env->status_extra(env->shell, &x);
	x.now = env->now;
	referee_engine_info(env->referee, &x.engine);
	referee_review_info(env->referee, &x.review);
	referee_online_info(env->referee, env->now, &x.online);
	x.audience = game_audience_level(req->public_view, env->role == ROLE_ARBITER);
	control_reply_status(&out->reply, referee_game(env->referee), &x);
}

void control_h_moves(const struct control_env *env, struct control_request *req,
		     struct control_outcome *out)
{
	(void)req;
	control_reply_moves(&out->reply, referee_game(env->referee));
}

void control_h_export(const struct control_env *env, struct control_request *req,
		      struct control_outcome *out)
{
	enum reply_code why = REPLY_RENDER_FAILED;
	char *text =
	    env->render ? env->render(env->shell, req->export_format, req->game_id, &why) : NULL;

	if (!text) {
		if (why == REPLY_RENDER_FAILED)
			answer_code(
			    out, why,
			    REPLY_ARGS(REPLY_S("format", control_export_name(req->export_format))));
		else if (why == REPLY_NO_SUCH_GAME || why == REPLY_GAME_UNREADABLE)
			answer_code(out, why, REPLY_ARGS(REPLY_S("game", req->game_id)));
		else
			answer_code(out, why, NULL);
		return;
	}
	control_reply_export(&out->reply, control_export_name(req->export_format), text);
	free(text);
}

void control_h_games(const struct control_env *env, struct control_request *req,
		     struct control_outcome *out)
{
	struct game_summary *games = malloc(GAME_SUMMARY_MAX * sizeof(*games));
	int n = games && env->list_games ? env->list_games(env->shell, games, req->count) : -1;

	if (n < 0)
		answer_code(out, REPLY_GAMES_UNREADABLE, NULL);
	else
		control_reply_games(&out->reply, games, n);
	free(games);
}

void control_h_compare(const struct control_env *env, struct control_request *req,
		       struct control_outcome *out)
{
	struct game_comparison cmp;
	char err[256];

	if (game_compare(referee_game(env->referee), req->movetext, env->notation, &cmp, err,
			 sizeof(err))) {
		/* Its only failure: no game (the table's needs let none through). */
		answer_code(out, REPLY_NO_GAME, NULL);
		return;
	}
	control_reply_compare(&out->reply, &cmp);
	game_compare_describe(&cmp, out->said, sizeof(out->said));
}

void control_h_help(const struct control_env *env, struct control_request *req,
		    struct control_outcome *out)
{
	(void)env;
	(void)req;
	control_reply_help(&out->reply);
}

void control_h_watch(const struct control_env *env, struct control_request *req,
		     struct control_outcome *out)
{
	if (!env->connection) {
		answer_code(out, REPLY_WATCH_NEEDS_CONNECTION, NULL);
		return;
	}
	out->action = CONTROL_ACT_WATCH;
	out->public_view = req->public_view;
	answer_code(out, req->public_view ? REPLY_WATCHING_PUBLIC : REPLY_WATCHING, NULL);
}

/* A PIN gives the role whose PIN it is (docs/control.md "Control interface"); a wrong one is
 * refused, and the connection counts it. */
void control_h_auth(const struct control_env *env, struct control_request *req,
		    struct control_outcome *out)
{
	if (env->arbiter_pin && pin_secret_check(env->arbiter_pin, req->pin))
		out->role = ROLE_ARBITER;
	else if (env->assistant_pin && pin_secret_check(env->assistant_pin, req->pin))
		out->role = ROLE_ASSISTANT;
	else {
		out->action = CONTROL_ACT_PIN_REFUSED;
		answer_code(out, REPLY_WRONG_PIN, NULL);
		return;
	}
	out->action = CONTROL_ACT_ROLE;
	snprintf(out->name, sizeof(out->name), "%s", req->name);
	answer_code(out, REPLY_AUTH, REPLY_ARGS(REPLY_S("role", control_role_name(out->role))));
}

/* The piece letters of the connection's moves (docs/control.md "Control interface": `notation`):
 * the language's besides the English and German ones. */
void control_h_notation(const struct control_env *env, struct control_request *req,
			struct control_outcome *out)
{
	(void)env;
	out->action = CONTROL_ACT_NOTATION;
	snprintf(out->lang, sizeof(out->lang), "%s", req->game.lang);
	answer_code(out, REPLY_NOTATION,
		    REPLY_ARGS(REPLY_S("lang", req->game.lang),
			       REPLY_S("letters", chess_piece_letters(req->game.lang))));
}

/* ------------------------------------------------------------------ training and study */

/* The training process says what it is (docs/training.md "Training and study"): one connection at a
 * time; it must follow `watch`, where the referee's requests to it arrive. */
void control_h_engine(const struct control_env *env, struct control_request *req,
		      struct control_outcome *out)
{
	enum game_engine_op op = req->game.engine_op;

	if (env->engine_elsewhere && !env->engine_self) {
		answer_code(out, REPLY_ENGINE_ELSEWHERE, NULL);
		return;
	}
	if (op == ENGINE_OP_HINT && !env->engine_self) {
		answer_code(out, REPLY_HINT_NOT_ENGINE, NULL);
		return;
	}
	if ((op == ENGINE_OP_DRAW || op == ENGINE_OP_EVAL) && !env->engine_self) {
		answer_code(out, REPLY_ENGINE_NOT_SELF, NULL);
		return;
	}
	if ((op == ENGINE_OP_ON || op == ENGINE_OP_WAIT) && env->connection && !env->watching) {
		answer_code(out, REPLY_ENGINE_WATCH_FIRST, NULL);
		return;
	}
	control_h_game(env, req, out);
	if (!out->ok)
		return;
	if (op == ENGINE_OP_ON || op == ENGINE_OP_WAIT)
		out->action = CONTROL_ACT_ENGINE;
	else if (op == ENGINE_OP_OFF)
		out->action = CONTROL_ACT_ENGINE_OFF;
}

void control_h_review(const struct control_env *env, struct control_request *req,
		      struct control_outcome *out)
{
	struct game_reply reply;
	struct referee_review_cmd c = req->review;

	c.text = req->movetext[0] ? req->movetext : NULL;
	referee_review(env->referee, &c, env->now, &reply);
	answer(out, &reply);
}

/* ------------------------------------------------------------------ online play */

/* The online process says what it is and what the server's game does (docs/online.md
 * "Playing online"): one connection at a time, following `watch`, where the player's requests to it
 * arrive; what it says of the server's game only it may say. */
void control_h_online(const struct control_env *env, struct control_request *req,
		      struct control_outcome *out)
{
	enum game_online_op op = req->game.online_op;
	bool session = op == ONLINE_OP_ON || op == ONLINE_OP_WAIT || op == ONLINE_OP_OFF;

	if (env->online_elsewhere && !env->online_self) {
		answer_code(out, REPLY_ONLINE_ELSEWHERE, NULL);
		return;
	}
	if (!session && !env->online_self) {
		answer_code(out, REPLY_ONLINE_NOT_SELF, NULL);
		return;
	}
	if ((op == ONLINE_OP_ON || op == ONLINE_OP_WAIT) && env->connection && !env->watching) {
		answer_code(out, REPLY_ONLINE_WATCH_FIRST, NULL);
		return;
	}
	control_h_game(env, req, out);
	if (!out->ok)
		return;
	if (op == ONLINE_OP_ON || op == ONLINE_OP_WAIT)
		out->action = CONTROL_ACT_ONLINE;
	else if (op == ONLINE_OP_OFF)
		out->action = CONTROL_ACT_ONLINE_OFF;
}
