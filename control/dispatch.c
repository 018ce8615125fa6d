/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A request through the command table (protocol.h): its row's roles, parser, modes and
 * needs, then its handler, whose reply goes back to the caller.  The handlers of the rows.
 */
#include "control/handlers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void refuse(struct control_outcome *out, const char *why)
{
	out->ok = false;
	control_reply_error(&out->reply, why);
	snprintf(out->said, sizeof(out->said), "%s", why);
}

void control_dispatch(const struct control_env *env, const char *line, size_t len,
		      struct control_outcome *out)
{
	struct control_request *req = malloc(sizeof(*req));
	const struct control_command *row;
	char err[256], why[GAME_REPLY_MAX];

	memset(out, 0, sizeof(*out));
	if (!req) {
		refuse(out, "out of memory");
		return;
	}
	if (control_parse(line, len, req, err, sizeof(err))) {
		out->command = req->command;
		refuse(out, err);
		goto done;
	}
	row = out->command = req->command;
	if (!(row->roles & CONTROL_ROLE(env->role))) {
		refuse(out, "not allowed for this role");
		goto done;
	}
	if ((row->modes != GAME_MODES_ALL || row->needs) &&
	    game_command_unmet(referee_game(env->referee), row->modes, row->needs, why,
			       sizeof(why))) {
		refuse(out, why);
		goto done;
	}
	out->ok = true;
	row->handle(env, req, out);
done:
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
	snprintf(req->game.author, sizeof(req->game.author), "%s", env->author);
	referee_command(env->referee, &req->game, env->now, &reply);
	out->ok = reply.ok;
	if (reply.ok)
		control_reply_ok(&out->reply, reply.text);
	else
		control_reply_error(&out->reply, reply.text);
	snprintf(out->said, sizeof(out->said), "%s", reply.text);
}

void control_h_status(const struct control_env *env, struct control_request *req,
		      struct control_outcome *out)
{
	struct control_status_extra x = {0};

	if (env->status_extra)
		env->status_extra(env->shell, &x);
	x.now = env->now;
	x.audience = req->public_view		 ? GAME_AUDIENCE_PUBLIC
		     : env->role == ROLE_ARBITER ? GAME_AUDIENCE_ARBITER
						 : GAME_AUDIENCE_PLAYER;
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
	const char *why = "cannot render the scoresheet";
	char *text = env->render ? env->render(env->shell, req->export_format, &why) : NULL;

	if (!text) {
		refuse(out, why);
		return;
	}
	control_reply_export(&out->reply, control_export_name(req->export_format), text);
	free(text);
}

void control_h_compare(const struct control_env *env, struct control_request *req,
		       struct control_outcome *out)
{
	struct game_comparison cmp;
	char err[256];

	if (game_compare(referee_game(env->referee), req->movetext, &cmp, err, sizeof(err))) {
		refuse(out, err);
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
		refuse(out, "watch needs a connection");
		return;
	}
	out->action = CONTROL_ACT_WATCH;
	out->public_view = req->public_view;
	control_reply_ok(&out->reply, req->public_view ? "watching public events" : "watching");
}

/* A PIN gives the role whose PIN it is (README "Control interface"); a wrong one is refused, and
 * the connection counts it. */
void control_h_auth(const struct control_env *env, struct control_request *req,
		    struct control_outcome *out)
{
	const char *arbiter = env->arbiter_pin ? env->arbiter_pin : "";
	const char *assistant = env->assistant_pin ? env->assistant_pin : "";

	if (arbiter[0] && !strcmp(req->pin, arbiter))
		out->role = ROLE_ARBITER;
	else if (assistant[0] && !strcmp(req->pin, assistant))
		out->role = ROLE_ASSISTANT;
	else {
		out->action = CONTROL_ACT_PIN_REFUSED;
		refuse(out, "wrong PIN");
		return;
	}
	out->action = CONTROL_ACT_ROLE;
	control_reply_ok(&out->reply, control_role_name(out->role));
}
