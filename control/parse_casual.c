/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The parsers of casual play's commands in the command table (protocol.c): training and study
 * (engine, hint, eval, new-game, takeback, review; docs/training.md "Training and study") and
 * online play (online; docs/online.md "Playing online").
 */
#include "control/parsers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/online.h"
#include "game/review.h"

/* A number of milliseconds, or of plies and seconds: 0..max. */
static int number_arg(const char *word, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(word, &end, 10);
	if (errno || *end || end == word || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A ply of the game being trained: 0..GAME_MAX_PLIES. */
static int ply_arg(const char *word, long *ply)
{
	char *end;

	*ply = strtol(word, &end, 10);
	return *end || end == word || *ply < 0 || *ply > GAME_MAX_PLIES ? -1 : 0;
}

/* engine on [white|black] [elo N [asked N] | level N] [NAME...] */
static int engine_on(const struct control_words *ws, struct game_command *g, struct game_reply *err)
{
	int at = 2;

	g->engine_op = ENGINE_OP_ON;
	if (at < ws->n && game_color_parse(ws->w[at]) >= 0)
		g->color = game_color_parse(ws->w[at++]);
	/* Its strength as set: elo N [asked N] | level N. */
	while (at + 1 < ws->n && (!strcmp(ws->w[at], "elo") || !strcmp(ws->w[at], "asked") ||
				  !strcmp(ws->w[at], "level"))) {
		long long v;
		int *into = ws->w[at][0] == 'e'	  ? &g->engine_elo
			    : ws->w[at][0] == 'a' ? &g->engine_asked
						  : &g->engine_level;

		if (number_arg(ws->w[at + 1], 10000, &v))
			return bad_word(err, REPLY_WANT_ENGINE_STRENGTH, ws->w[at + 1]);
		*into = (int)v;
		at += 2;
	}
	if (at < ws->n) {
		/* The engine's name, as the training process says it. */
		if (strlen(ws->rest[at]) >= sizeof(g->text))
			return fail(err, REPLY_ENGINE_NAME_TOO_LONG,
				    REPLY_ARGS(REPLY_N("max", sizeof(g->text) - 1)));
		copy(g->text, sizeof(g->text), ws->rest[at]);
	}
	return 0;
}

/* engine eval PLY cp N | mate N: the evaluation for White. */
static int engine_eval(const struct control_words *ws, struct game_command *g,
		       struct game_reply *err)
{
	char *end;
	long ply, v;

	if (ply_arg(ws->w[2], &ply))
		return bad_word(err, REPLY_WANT_HINT_PLY, ws->w[2]);
	errno = 0;
	v = strtol(ws->w[4], &end, 10);
	/* A mate in 0 is a game over: no evaluation. */
	if (errno || *end || end == ws->w[4] || v < -100000 || v > 100000 ||
	    (ws->w[3][0] == 'm' && (v == 0 || v < -500 || v > 500)))
		return bad_word(err, REPLY_WANT_EVAL, ws->w[4]);
	g->engine_op = ENGINE_OP_EVAL;
	g->ply = (int)ply;
	if (ws->w[3][0] == 'm') {
		g->engine_mate = (int)v;
		g->engine_cp = v > 0 ? 100000 : -100000;
	} else {
		g->engine_cp = (int)v;
	}
	return 0;
}

/* engine hint PLY MOVE: the move the engine hints at that ply. */
static int engine_hint(const struct control_words *ws, struct game_command *g,
		       struct game_reply *err)
{
	long ply;

	if (ply_arg(ws->w[2], &ply))
		return bad_word(err, REPLY_WANT_HINT_PLY, ws->w[2]);
	if (strlen(ws->w[3]) >= sizeof(g->move))
		return bad_word(err, REPLY_NOT_A_MOVE, ws->w[3]);
	g->engine_op = ENGINE_OP_HINT;
	g->ply = (int)ply;
	copy(g->move, sizeof(g->move), ws->w[3]);
	return 0;
}

/* engine on [white|black] [NAME...] | off [REASON] | wait | hint PLY MOVE (docs/training.md
 * "Training and study") */
int control_p_engine(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err)
{
	struct game_command *g = &req->game;
	const char *op = ws->n > 1 ? ws->w[1] : "";

	g->kind = CMD_ENGINE;
	g->engine_level = -1;
	if (!strcmp(op, "on"))
		return engine_on(ws, g, err);
	if (!strcmp(op, "off")) {
		int end = ws->n == 3 ? game_engine_end_parse(ws->w[2]) : ENGINE_END_NORMAL;

		if (ws->n > 3 || end < 0)
			return usage(ws, "engine off [normal|missing|died|hung|nonsense]", err);
		g->engine_op = ENGINE_OP_OFF;
		g->engine_end = (enum game_engine_end)end;
		return 0;
	}
	if (!strcmp(op, "wait") && ws->n == 2) {
		g->engine_op = ENGINE_OP_WAIT;
		return 0;
	}
	if (!strcmp(op, "draw") && ws->n == 3 &&
	    (!strcmp(ws->w[2], "accept") || !strcmp(ws->w[2], "decline"))) {
		g->engine_op = ENGINE_OP_DRAW;
		g->engine_accept = !strcmp(ws->w[2], "accept");
		return 0;
	}
	if (!strcmp(op, "eval") && ws->n == 5 &&
	    (!strcmp(ws->w[3], "cp") || !strcmp(ws->w[3], "mate")))
		return engine_eval(ws, g, err);
	if (!strcmp(op, "hint") && ws->n == 4)
		return engine_hint(ws, g, err);
	return usage(ws, req->command->usage, err);
}

int control_p_hint(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err)
{
	req->game.kind = CMD_HINT;
	return control_p_none(ws, req, err);
}

int control_p_eval(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err)
{
	req->game.kind = CMD_EVAL;
	return control_p_none(ws, req, err);
}

/* new-game [FEN]: a casual game from a position (the FEN's six fields). */
int control_p_new_game(const struct control_words *ws, struct control_request *req,
		       struct game_reply *err)
{
	(void)err;
	req->game.kind = CMD_NEW_GAME;
	if (ws->n > 1)
		copy(req->game.text, sizeof(req->game.text), ws->rest[1]);
	return 0;
}

int control_p_takeback(const struct control_words *ws, struct control_request *req,
		       struct game_reply *err)
{
	req->game.kind = CMD_TAKEBACK;
	return control_p_none(ws, req, err);
}

/* A number of the review's lines or plies: 0.. */
static int review_number(const char *word, int max, int *out, struct game_reply *err)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(word, &end, 10);
	if (errno || *end || end == word || v < 0 || v > max)
		return bad_word(err, REPLY_WANT_REVIEW_LINE, word);
	*out = (int)v;
	return 0;
}

/* review goto N|N.|N...|start|end: the move's number and colour (0: the start, -1: the
 * end). */
static int review_goto(const char *word, struct referee_review_cmd *c, struct game_reply *err)
{
	struct game_command cmd = {.color = CHESS_WHITE};
	size_t n;

	c->color = CHESS_WHITE;
	if (!strcmp(word, "start") || !strcmp(word, "end")) {
		c->move = word[0] == 's' ? 0 : -1;
		return 0;
	}
	n = control_relay_ply(word, &cmd);
	if (!n || word[n])
		return bad_word(err, REPLY_WANT_REVIEW_MOVE, word);
	/* "12" and "12." are White's move 12, "12..." Black's. */
	c->move = cmd.move_number ? cmd.move_number : cmd.ply;
	c->color = cmd.color < 0 ? CHESS_WHITE : cmd.color;
	return 0;
}

/* white|black, or - for neither (the server's clock not running). */
static int running_arg(const char *word, int *color)
{
	*color = !strcmp(word, "-") ? -1 : game_color_parse(word);
	return *color < 0 && strcmp(word, "-") ? -1 : 0;
}

/* `online begin`'s tags: NAME "VALUE" pairs, the value in double quotes (\" and \\
 * escaped); FEN gives the start position. */
static int online_tags(const char *p, struct game_command *g, struct game_reply *err)
{
	for (;;) {
		struct game_tag t = {{0}, {0}};
		size_t n = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return 0;
		n = strcspn(p, " \t");
		if (n >= sizeof(t.name) || p[n] == '\0')
			return bad_word(err, REPLY_WANT_ONLINE_WORD, p);
		memcpy(t.name, p, n);
		p += n;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p++ != '"')
			return bad_word(err, REPLY_WANT_ONLINE_WORD, t.name);
		for (n = 0; *p && *p != '"'; p++) {
			if (*p == '\\' && p[1])
				p++;
			if (n + 1 >= sizeof(t.value))
				return fail(err, REPLY_TAG_VALUE_TOO_LONG,
					    REPLY_ARGS(REPLY_N("max", sizeof(t.value) - 1)));
			t.value[n++] = *p;
		}
		if (*p++ != '"')
			return bad_word(err, REPLY_WANT_ONLINE_WORD, t.name);
		if (!strcmp(t.name, "FEN")) {
			copy(g->text, sizeof(g->text), t.value);
			continue;
		}
		if (g->tag_count == GAME_MAX_TAGS - 1) /* one left for the game's id */
			return fail(err, REPLY_TAG_VALUE_TOO_LONG,
				    REPLY_ARGS(REPLY_N("max", sizeof(t.value) - 1)));
		g->tags[g->tag_count++] = t;
	}
}

/* W_MS B_MS RUN from the word at `at`: the server's clock. */
static int online_clock(const struct control_words *ws, int at, struct game_command *g)
{
	long long v, w;

	if (number_arg(ws->w[at], TC_MAX_SECONDS * 1000LL * 4, &v) ||
	    number_arg(ws->w[at + 1], TC_MAX_SECONDS * 1000LL * 4, &w) ||
	    running_arg(ws->w[at + 2], &g->color))
		return -1;
	g->white_ms = v;
	g->black_ms = w;
	return 0;
}

/* The arguments of `online OP`, `args` of them, as many as the op takes. */
static int online_args(const struct control_words *ws, struct control_request *req, int args,
		       struct game_reply *err)
{
	struct game_command *g = &req->game;
	long long v;

	switch (g->online_op) {
	case ONLINE_OP_BEGIN:
		if (color_arg(ws->w[2], &g->color, err))
			return -1;
		copy(g->time_control, sizeof(g->time_control), ws->w[3]);
		if (strlen(ws->w[4]) >= sizeof(g->online_id))
			return bad_word(err, REPLY_WANT_GAME_ID, ws->w[4]);
		copy(g->online_id, sizeof(g->online_id), ws->w[4]);
		return ws->n > 5 ? online_tags(ws->rest[5], g, err) : 0;
	case ONLINE_OP_MOVE:
		if (number_arg(ws->w[2], GAME_MAX_PLIES, &v))
			return bad_word(err, REPLY_WANT_PLY, ws->w[2]);
		g->ply = (int)v;
		copy(g->move, sizeof(g->move), ws->w[3]);
		if (args == 2)
			return 0;
		return online_clock(ws, 4, g) ? usage(ws, req->command->usage, err) : 0;
	case ONLINE_OP_CLOCK:
		return online_clock(ws, 2, g) ? usage(ws, req->command->usage, err) : 0;
	case ONLINE_OP_BACK:
		if (number_arg(ws->w[2], GAME_MAX_PLIES, &v))
			return bad_word(err, REPLY_WANT_PLY, ws->w[2]);
		g->ply = (int)v;
		g->online_news = game_online_back_parse(ws->w[3]);
		return g->online_news < 0 ? bad_word(err, REPLY_WANT_ONLINE_WORD, ws->w[3]) : 0;
	case ONLINE_OP_RESULT:
		if (strlen(ws->w[2]) >= sizeof(g->text))
			return bad_word(err, REPLY_WANT_ONLINE_WORD, ws->w[2]);
		copy(g->text, sizeof(g->text), ws->w[2]);
		return args == 2 ? color_arg(ws->w[3], &g->color, err) : 0;
	case ONLINE_OP_SAY:
		g->online_news = game_online_news_parse(ws->w[2]);
		return g->online_news < 0 ? bad_word(err, REPLY_WANT_ONLINE_WORD, ws->w[2]) : 0;
	case ONLINE_OP_OFFERS:
		for (int i = 2; i < ws->n; i++) {
			unsigned bit = game_online_offer_parse(ws->w[i]);

			if (!bit)
				return bad_word(err, REPLY_WANT_ONLINE_WORD, ws->w[i]);
			g->online_news |= (int)bit;
		}
		return 0;
	case ONLINE_OP_GONE:
		if (!strcmp(ws->w[2], "back")) {
			g->ply = -1;
			return 0;
		}
		if (number_arg(ws->w[2], 3600, &v))
			return bad_word(err, REPLY_WANT_ONLINE_WORD, ws->w[2]);
		g->ply = (int)v;
		return 0;
	default:
		return 0;
	}
}

/* online on | off | wait | begin COLOR TC ID [NAME "VALUE"]... | move PLY UCI [W_MS B_MS RUN]
 * | clock W_MS B_MS RUN | back PLIES sync|refused|takeback | result STATUS [WINNER] | say NEWS
 * | offers [OFFER...] | gone SECONDS|back (docs/online.md "Playing online") */
int control_p_online(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err)
{
	static const struct {
		const char *word;
		enum game_online_op op;
		int min, max; /* arguments after the word */
	} ops[] = {
	    {"on", ONLINE_OP_ON, 0, 0},	    {"off", ONLINE_OP_OFF, 0, 0},
	    {"wait", ONLINE_OP_WAIT, 0, 0}, {"begin", ONLINE_OP_BEGIN, 3, CONTROL_MAX_WORDS},
	    {"move", ONLINE_OP_MOVE, 2, 5}, {"clock", ONLINE_OP_CLOCK, 3, 3},
	    {"back", ONLINE_OP_BACK, 2, 2}, {"result", ONLINE_OP_RESULT, 1, 2},
	    {"say", ONLINE_OP_SAY, 1, 1},   {"offers", ONLINE_OP_OFFERS, 0, 4},
	    {"gone", ONLINE_OP_GONE, 1, 1},
	};
	struct game_command *g = &req->game;
	const char *op = ws->n > 1 ? ws->w[1] : "";
	int args = ws->n - 2, at = -1;

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i].word))
			at = (int)i;
	if (at < 0 || args < ops[at].min || args > ops[at].max ||
	    (ops[at].op == ONLINE_OP_MOVE && args != 2 && args != 5))
		return usage(ws, req->command->usage, err);
	g->kind = CMD_ONLINE;
	g->online_op = ops[at].op;
	g->white_ms = g->black_ms = -1;
	return online_args(ws, req, args, err);
}

/* review load [FEN] | add UCI... | variation LINE PLY | annotate LINE PLY TEXT | begin |
 * next | back | where | end | goto MOVE | enter [N] | leave | comment | aloud on|off
 * (docs/training.md "Going over a game") */
int control_p_review(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err)
{
	static const struct {
		const char *word;
		enum referee_review_op op;
	} plain[] = {{"begin", REFEREE_REVIEW_BEGIN},	  {"next", REFEREE_REVIEW_NEXT},
		     {"back", REFEREE_REVIEW_BACK},	  {"where", REFEREE_REVIEW_WHERE},
		     {"end", REFEREE_REVIEW_END},	  {"leave", REFEREE_REVIEW_LEAVE},
		     {"comment", REFEREE_REVIEW_COMMENT}, {"enter", REFEREE_REVIEW_ENTER}};
	struct referee_review_cmd *c = &req->review;
	const char *op = ws->n > 1 ? ws->w[1] : "";

	req->game.kind = CMD_REVIEW;
	if (!strcmp(op, "load")) {
		c->op = REFEREE_REVIEW_LOAD;
		copy(req->movetext, sizeof(req->movetext),
		     ws->n > 2 && strcmp(ws->w[2], "start") ? ws->rest[2] : "");
		return 0;
	}
	if (!strcmp(op, "add") && ws->n > 2) {
		c->op = REFEREE_REVIEW_ADD;
		copy(req->movetext, sizeof(req->movetext), ws->rest[2]);
		return 0;
	}
	if ((!strcmp(op, "variation") && ws->n == 4) || (!strcmp(op, "annotate") && ws->n > 4)) {
		c->op = op[0] == 'v' ? REFEREE_REVIEW_VARIATION : REFEREE_REVIEW_ANNOTATE;
		if (review_number(ws->w[2], REVIEW_MAX_LINES, &c->line, err) ||
		    review_number(ws->w[3], GAME_MAX_PLIES, &c->ply, err))
			return -1;
		if (c->op == REFEREE_REVIEW_ANNOTATE)
			copy(req->movetext, sizeof(req->movetext), ws->rest[4]);
		return 0;
	}
	if (!strcmp(op, "goto") && ws->n == 3) {
		c->op = REFEREE_REVIEW_GOTO;
		return review_goto(ws->w[2], c, err);
	}
	if (!strcmp(op, "aloud") && ws->n == 3 &&
	    (!strcmp(ws->w[2], "on") || !strcmp(ws->w[2], "off"))) {
		c->op = REFEREE_REVIEW_ALOUD;
		c->on = !strcmp(ws->w[2], "on");
		return 0;
	}
	if (!strcmp(op, "enter") && ws->n == 3) {
		c->op = REFEREE_REVIEW_ENTER;
		if (review_number(ws->w[2], REVIEW_MAX_LINES, &c->n, err))
			return -1;
		return 0;
	}
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]) && ws->n == 2; i++) {
		if (!strcmp(op, plain[i].word)) {
			c->op = plain[i].op;
			return 0;
		}
	}
	return usage(ws, req->command->usage, err);
}

/* last-moves [N]: the last N moves of both sides (5; at most 10). */
