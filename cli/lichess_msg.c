/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lichess's Board API messages (lichess_msg.h): each line's fields, read with the control
 * protocol's small JSON reader, each required one checked.
 */
#include "cli/lichess_msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/json.h"
#include "game/color.h"

/* A field as text ("" when it is not there); true when it is. */
static bool text(const char *json, const char *key, char *buf, size_t size)
{
	if (json_get(json, key, buf, size) < 0) {
		buf[0] = '\0';
		return false;
	}
	return true;
}

/* A number field; false when it is not there or no whole number. */
static bool number(const char *json, const char *key, int64_t *out)
{
	char v[32], *end;
	long long n;

	if (json_get(json, key, v, sizeof(v)) < 0 || !v[0])
		return false;
	n = strtoll(v, &end, 10);
	if (*end)
		return false;
	*out = n;
	return true;
}

static bool flag(const char *json, const char *key)
{
	char v[8];

	return json_get(json, key, v, sizeof(v)) >= 0 && !strcmp(v, "true");
}

#define NEED(cond, what)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			snprintf(err, size, "%s", what);                                           \
			return -1;                                                                 \
		}                                                                                  \
	} while (0)

static int state_of(const char *json, struct lichess_state *s, char *err, size_t size)
{
	char winner[16];

	memset(s, 0, sizeof(*s));
	NEED(json_get(json, "moves", s->moves, sizeof(s->moves)) >= 0 &&
		 strlen(s->moves) + 1 < sizeof(s->moves),
	     "a state without its moves (or too many)");
	NEED(number(json, "wtime", &s->wtime) && number(json, "btime", &s->btime),
	     "a state without wtime and btime");
	NEED(number(json, "winc", &s->winc) && number(json, "binc", &s->binc),
	     "a state without winc and binc");
	NEED(text(json, "status", s->status, sizeof(s->status)) && s->status[0],
	     "a state without its status");
	text(json, "winner", winner, sizeof(winner));
	s->winner = game_color_parse(winner);
	s->wdraw = flag(json, "wdraw");
	s->bdraw = flag(json, "bdraw");
	s->wtakeback = flag(json, "wtakeback");
	s->btakeback = flag(json, "btakeback");
	return 0;
}

static void player_of(const char *json, struct lichess_player *p)
{
	int64_t n;

	text(json, "id", p->id, sizeof(p->id));
	text(json, "name", p->name, sizeof(p->name));
	p->rating = number(json, "rating", &n) ? (int)n : -1;
	p->ai_level = number(json, "aiLevel", &n) ? (int)n : 0;
	if (!p->name[0] && p->ai_level)
		snprintf(p->name, sizeof(p->name), "lichess AI level %d", p->ai_level);
}

static int game_full(const char *json, struct lichess_msg *m, char *err, size_t size)
{
	struct lichess_game_full *f = &m->u.full;
	char *sub = malloc(LICHESS_LINE_MAX);
	int rc = -1;

	if (!sub) {
		snprintf(err, size, "out of memory");
		return -1;
	}
	if (!text(json, "id", f->id, sizeof(f->id)) || !f->id[0]) {
		snprintf(err, size, "gameFull without its id");
		goto out;
	}
	if (json_get(json, "variant", sub, LICHESS_LINE_MAX) < 0 ||
	    !text(sub, "key", f->variant, sizeof(f->variant))) {
		snprintf(err, size, "gameFull without its variant");
		goto out;
	}
	text(json, "speed", f->speed, sizeof(f->speed));
	if (json_get(json, "perf", sub, LICHESS_LINE_MAX) >= 0)
		text(sub, "name", f->perf, sizeof(f->perf));
	f->rated = flag(json, "rated");
	f->initial_ms = f->increment_ms = -1;
	if (json_get(json, "clock", sub, LICHESS_LINE_MAX) >= 0 && strcmp(sub, "null") &&
	    (!number(sub, "initial", &f->initial_ms) ||
	     !number(sub, "increment", &f->increment_ms))) {
		snprintf(err, size, "gameFull with a clock without initial and increment");
		goto out;
	}
	if (json_get(json, "white", sub, LICHESS_LINE_MAX) < 0) {
		snprintf(err, size, "gameFull without white");
		goto out;
	}
	player_of(sub, &f->white);
	if (json_get(json, "black", sub, LICHESS_LINE_MAX) < 0) {
		snprintf(err, size, "gameFull without black");
		goto out;
	}
	player_of(sub, &f->black);
	if (!text(json, "initialFen", f->initial_fen, sizeof(f->initial_fen)) || !f->initial_fen[0])
		snprintf(f->initial_fen, sizeof(f->initial_fen), "startpos");
	if (json_get(json, "state", sub, LICHESS_LINE_MAX) < 0) {
		snprintf(err, size, "gameFull without its state");
		goto out;
	}
	rc = state_of(sub, &m->state, err, size);
out:
	free(sub);
	return rc;
}

static int game_event(const char *json, struct lichess_game_event *e, char *err, size_t size)
{
	char game[1024], sub[256], color[16];

	memset(e, 0, sizeof(*e));
	NEED(json_get(json, "game", game, sizeof(game)) >= 0, "a game event without its game");
	NEED(text(game, "gameId", e->game_id, sizeof(e->game_id)) && e->game_id[0],
	     "a game event without its gameId");
	text(game, "color", color, sizeof(color));
	e->color = game_color_parse(color);
	text(game, "speed", e->speed, sizeof(e->speed));
	if (json_get(game, "variant", sub, sizeof(sub)) >= 0)
		text(sub, "key", e->variant, sizeof(e->variant));
	e->board = true;
	if (json_get(game, "compat", sub, sizeof(sub)) >= 0 &&
	    json_get(sub, "board", color, sizeof(color)) >= 0)
		e->board = !strcmp(color, "true");
	if (json_get(game, "status", sub, sizeof(sub)) >= 0)
		text(sub, "name", e->status, sizeof(e->status));
	return 0;
}

static int challenge(const char *json, struct lichess_challenge *c, char *err, size_t size)
{
	char body[4096], sub[1024];
	int64_t n;

	memset(c, 0, sizeof(*c));
	NEED(json_get(json, "challenge", body, sizeof(body)) >= 0,
	     "a challenge event without its challenge");
	NEED(text(body, "id", c->id, sizeof(c->id)) && c->id[0], "a challenge without its id");
	text(body, "status", c->status, sizeof(c->status));
	NEED(json_get(body, "challenger", sub, sizeof(sub)) >= 0 &&
		 text(sub, "id", c->challenger, sizeof(c->challenger)),
	     "a challenge without its challenger");
	if (json_get(body, "destUser", sub, sizeof(sub)) >= 0 && strcmp(sub, "null"))
		text(sub, "id", c->dest, sizeof(c->dest));
	text(body, "direction", c->direction, sizeof(c->direction));
	if (json_get(body, "variant", sub, sizeof(sub)) >= 0)
		text(sub, "key", c->variant, sizeof(c->variant));
	text(body, "speed", c->speed, sizeof(c->speed));
	c->rated = flag(body, "rated");
	text(body, "color", c->color, sizeof(c->color));
	text(body, "declineReasonKey", c->decline_reason, sizeof(c->decline_reason));
	NEED(json_get(body, "timeControl", sub, sizeof(sub)) >= 0 &&
		 text(sub, "type", c->tc_type, sizeof(c->tc_type)),
	     "a challenge without its timeControl");
	if (number(sub, "limit", &n))
		c->limit_s = (int)n;
	if (number(sub, "increment", &n))
		c->increment_s = (int)n;
	return 0;
}

int lichess_msg_parse(const char *line, struct lichess_msg *m, char *err, size_t size)
{
	static const struct {
		const char *name;
		enum lichess_msg_type type;
	} types[] = {
	    {"gameFull", LICHESS_GAME_FULL},
	    {"gameState", LICHESS_GAME_STATE},
	    {"chatLine", LICHESS_CHAT_LINE},
	    {"opponentGone", LICHESS_OPPONENT_GONE},
	    {"gameStart", LICHESS_GAME_START},
	    {"gameFinish", LICHESS_GAME_FINISH},
	    {"challenge", LICHESS_CHALLENGE},
	    {"challengeCanceled", LICHESS_CHALLENGE_CANCELED},
	    {"challengeDeclined", LICHESS_CHALLENGE_DECLINED},
	};
	const char *p = line;
	int64_t n;

	m->type_name[0] = '\0';
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (!*p) {
		m->type = LICHESS_KEEP_ALIVE;
		return 0;
	}
	NEED(*p == '{', "not a JSON object");
	if (!text(p, "type", m->type_name, sizeof(m->type_name))) {
		/* A kept-alive challenge's end has no type, only its outcome. */
		NEED(text(p, "done", m->u.done, sizeof(m->u.done)), "a message without its type");
		m->type = LICHESS_CHALLENGE_DONE;
		return 0;
	}
	m->type = LICHESS_OTHER;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(m->type_name, types[i].name))
			m->type = types[i].type;
	switch (m->type) {
	case LICHESS_GAME_FULL:
		return game_full(p, m, err, size);
	case LICHESS_GAME_STATE:
		return state_of(p, &m->state, err, size);
	case LICHESS_OPPONENT_GONE:
		m->u.gone.gone = flag(p, "gone");
		m->u.gone.claim_in_s = number(p, "claimWinInSeconds", &n) ? (int)n : -1;
		return 0;
	case LICHESS_GAME_START:
	case LICHESS_GAME_FINISH:
		return game_event(p, &m->u.game, err, size);
	case LICHESS_CHALLENGE:
	case LICHESS_CHALLENGE_CANCELED:
	case LICHESS_CHALLENGE_DECLINED:
		return challenge(p, &m->u.challenge, err, size);
	default:
		return 0;
	}
}

void lichess_error_text(const char *body, char *buf, size_t size)
{
	if (body && text(body, "error", buf, size) && buf[0])
		return;
	snprintf(buf, size, "%.*s", 200, body ? body : "");
	for (char *c = buf; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
}

/* ------------------------------------------------------------------ time controls */

/* lichess's speed of a clock: "ultraBullet", "bullet", "blitz", "rapid", "classical" (by its
 * estimated duration, the limit plus 40 increments). */
static const char *lichess_speed(int seconds, int increment)
{
	long estimate = (long)seconds + 40L * increment;

	return estimate < 30	 ? "ultraBullet"
	       : estimate < 180	 ? "bullet"
	       : estimate < 480	 ? "blitz"
	       : estimate < 1500 ? "rapid"
				 : "classical";
}

bool lichess_time_control_allowed(enum lichess_start how, int seconds, int increment, char *why,
				  size_t size)
{
	const char *speed = lichess_speed(seconds, increment);

	if (how == LICHESS_BY_SEEK) {
		if (seconds < 0 || seconds > 180 * 60 || increment < 0 || increment > 180) {
			snprintf(
			    why, size,
			    "a seek's clock is 0 to 180 minutes with an increment of 0 to 180 s");
			return false;
		}
		if (strcmp(speed, "rapid") && strcmp(speed, "classical")) {
			snprintf(why, size,
				 "%d+%d is %s: the Board API seeks rapid and classical games only "
				 "(the time plus 40 increments at least 8 minutes)",
				 seconds, increment, speed);
			return false;
		}
		return true;
	}
	if (seconds < 0 || seconds > 10800 ||
	    (seconds % 60 && seconds != 15 && seconds != 30 && seconds != 45 && seconds != 90) ||
	    increment < 0 || increment > 60) {
		snprintf(why, size,
			 "a challenge's clock is 0, 15, 30, 45 or 90 s or whole minutes up to 180, "
			 "its increment 0 to 60 s");
		return false;
	}
	if (!strcmp(speed, "ultraBullet") || !strcmp(speed, "bullet")) {
		snprintf(why, size,
			 "%d+%d is %s: the Board API plays blitz, rapid and classical challenges "
			 "only (the time plus 40 increments at least 3 minutes)",
			 seconds, increment, speed);
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ moves */

bool lichess_next_move(const char **at, const struct chess_pos *pos, char word[6])
{
	const char *p = *at;
	size_t n;
	int from, to;

	while (*p == ' ')
		p++;
	n = strcspn(p, " ");
	if (!n) {
		*at = p;
		return false;
	}
	snprintf(word, 6, "%.*s", (int)(n < 5 ? n : 5), p);
	*at = p + n;
	if (n < 4)
		return true;
	from = chess_square_parse((char[]){word[0], word[1], '\0'});
	to = chess_square_parse((char[]){word[2], word[3], '\0'});
	/* The king onto its own rook: castling written king to rook. */
	if (from >= 0 && to >= 0 && CHESS_PIECE_TYPE(chess_pos_piece_at(pos, from)) == CHESS_KING &&
	    CHESS_PIECE_TYPE(chess_pos_piece_at(pos, to)) == CHESS_ROOK &&
	    CHESS_PIECE_COLOR(chess_pos_piece_at(pos, from)) ==
		CHESS_PIECE_COLOR(chess_pos_piece_at(pos, to)) &&
	    CHESS_RANK(from) == CHESS_RANK(to))
		word[2] = to > from ? 'g' : 'c';
	return true;
}
