/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella online`: starting a game (docs/online.md "Playing online").  Who the token is
 * (the account), the account's event stream (a game begun, a challenge), and the start as
 * set: a seek, a challenge to the friend, or the friend's challenge accepted when the device
 * can play it; never while a game of the device's own is on.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/log.h"
#include "cli/cli_online_int.h"
#include "cli/lichess.h"
#include "cli/lichess_msg.h"
#include "control/json.h"
#include "game/online.h"
#include "net/ctlclient.h"

static void on_seek_line(void *user, struct lichess_transfer *t, const char *line)
{
	(void)user;
	(void)t;
	(void)line; /* empty lines while the seek stands */
}

static void on_seek_done(void *user, struct lichess_transfer *t, const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	o->seek = NULL;
	if (o->phase != PHASE_STARTING || ol_general_failure(o, r))
		return;
	if (r->status == 400) {
		char why[256];

		lichess_error_text(r->body, why, sizeof(why));
		log_error(LOG_MAIN, "%s refused the seek: %s", o->cfg.server, why);
		ol_news(o, ONLINE_NEWS_TIME_CONTROL);
		o->phase = PHASE_DONE;
		o->status = 1;
		return;
	}
	if (r->status == 200) {
		/* Taken, or expired: the event stream brings the game if there is one. */
		o->no_game_at = ol_now_ms() + 5000;
		return;
	}
	ol_connection_lost(o, "the seek", r);
	o->start_at = ol_next_backoff(o);
}

static void on_challenge_line(void *user, struct lichess_transfer *t, const char *line)
{
	struct online *o = user;
	char v[64];

	(void)t;
	/* The challenge first, then empty lines, then how it ended. */
	if (json_get(line, "done", v, sizeof(v)) >= 0 && strcmp(v, "accepted")) {
		log_info(LOG_MAIN, "the challenge to %s: %s", o->cfg.friend_name, v);
		ol_news(o, ONLINE_NEWS_CHALLENGE_DECLINED);
		o->phase = PHASE_DONE;
		o->status = 1;
	}
}

static void on_challenge_done(void *user, struct lichess_transfer *t,
			      const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	o->challenge = NULL;
	if (o->phase != PHASE_STARTING || ol_general_failure(o, r))
		return;
	if (r->status == 400 || r->status == 404) {
		char why[256];

		lichess_error_text(r->body, why, sizeof(why));
		log_error(LOG_MAIN, "%s refused the challenge to %s: %s", o->cfg.server,
			  o->cfg.friend_name, why);
		ol_news(o, ONLINE_NEWS_REFUSED);
		o->phase = PHASE_DONE;
		o->status = 1;
		return;
	}
	if (r->status == 200) {
		o->no_game_at = ol_now_ms() + 5000; /* the game, if accepted, comes as an event */
		return;
	}
	ol_connection_lost(o, "the challenge", r);
	o->start_at = ol_next_backoff(o);
}

static void on_accept_done(void *user, struct lichess_transfer *t, const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	if (r->status == 200 || ol_general_failure(o, r))
		return;
	log_warn(LOG_MAIN, "accepting the challenge: %s (HTTP %ld)", r->error, r->status);
	ol_news(o, ONLINE_NEWS_REFUSED);
}

/* The friend's challenge accepted, when it is one the device can play. */
static void accept_challenge(struct online *o, const char *id)
{
	char path[160];

	snprintf(path, sizeof(path), "/api/challenge/%s/accept", id);
	o->challenge_here[0] = '\0';
	if (!lichess_post(o->l, path, NULL, NULL, on_accept_done, o))
		ol_news(o, ONLINE_NEWS_REFUSED);
}

/* Whether the device has a game of its own on (moves made or its clock started, no result):
 * an online game begun now would be lost on the server's clock.  Said in the log. */
static bool device_game_on(struct online *o)
{
	char mode[16], plies[16], result[256], state[16], clock[2048], cstate[24];

	if (ol_ask(o, "status") || !ctlclient_reply_ok(o->reply))
		return false;
	if (json_get(o->reply, "mode", mode, sizeof(mode)) < 0 || !strcmp(mode, "online") ||
	    json_get(o->reply, "plies", plies, sizeof(plies)) < 0 ||
	    json_get(o->reply, "result", result, sizeof(result)) < 0 ||
	    json_get(result, "state", state, sizeof(state)) < 0 || strcmp(state, "on"))
		return false;
	if (json_get(o->reply, "clock", clock, sizeof(clock)) < 0 ||
	    json_get(clock, "state", cstate, sizeof(cstate)) < 0)
		cstate[0] = '\0';
	if (!strcmp(plies, "0") && (!cstate[0] || !strcmp(cstate, "not-started")))
		return false;
	log_error(LOG_MAIN,
		  "a game is on the board (%s plies): finish it, or approve its result, "
		  "before an online game",
		  plies);
	return true;
}

/* Seek, challenge, or wait for the friend's challenge, as set. */
void ol_start(struct online *o)
{
	char form[256], why[256];
	enum lichess_start how =
	    o->cfg.start == ONLINE_START_SEEK ? LICHESS_BY_SEEK : LICHESS_BY_CHALLENGE;
	const char *color = o->cfg.color < 0 ? "random" : game_color_name(o->cfg.color);

	o->start_at = 0;
	if (device_game_on(o)) {
		o->phase = PHASE_DONE;
		o->status = 1;
		return;
	}
	o->phase = PHASE_STARTING;
	if (o->cfg.start != ONLINE_START_ACCEPT &&
	    !lichess_time_control_allowed(how, o->seconds, o->increment, why, sizeof(why))) {
		log_error(LOG_MAIN, "%s", why);
		ol_news(o, ONLINE_NEWS_TIME_CONTROL);
		o->phase = PHASE_DONE;
		o->status = 2;
		return;
	}
	if (!ol_may_request(o)) {
		o->start_at = o->rate_until;
		return;
	}
	switch (o->cfg.start) {
	case ONLINE_START_SEEK:
		snprintf(form, sizeof(form), "rated=%s&time=%g&increment=%d&variant=standard%s%s",
			 o->cfg.rated ? "true" : "false", o->seconds / 60.0, o->increment,
			 o->cfg.color < 0 ? "" : "&color=", o->cfg.color < 0 ? "" : color);
		o->seek =
		    lichess_post(o->l, "/api/board/seek", form, on_seek_line, on_seek_done, o);
		o->seek_until = ol_now_ms() + SEEK_MAX_MS;
		ol_tell("seeking %d+%d", o->seconds, o->increment);
		ol_news(o, ONLINE_NEWS_SEEKING);
		break;
	case ONLINE_START_CHALLENGE: {
		char path[96];

		snprintf(path, sizeof(path), "/api/challenge/%s", o->cfg.friend_name);
		snprintf(form, sizeof(form),
			 "rated=%s&clock.limit=%d&clock.increment=%d&color=%s&variant=standard&"
			 "keepAliveStream=true",
			 o->cfg.rated ? "true" : "false", o->seconds, o->increment, color);
		o->challenge =
		    lichess_post(o->l, path, form, on_challenge_line, on_challenge_done, o);
		ol_tell("challenging %s to %d+%d", o->cfg.friend_name, o->seconds, o->increment);
		ol_news(o, ONLINE_NEWS_CHALLENGE_SENT);
		break;
	}
	case ONLINE_START_ACCEPT:
		if (o->challenge_here[0]) {
			accept_challenge(o, o->challenge_here);
		} else {
			ol_tell("waiting for %s's challenge", o->cfg.friend_name);
			ol_news(o, ONLINE_NEWS_CHALLENGE_WAITING);
		}
		break;
	}
	if (o->cfg.start != ONLINE_START_ACCEPT && !o->seek && !o->challenge)
		o->start_at = ol_now_ms() + 1000;
}

/* A challenge on the event stream: the friend's, to be accepted when it can be played. */
static void challenge_came(struct online *o, const struct lichess_challenge *c)
{
	char why[256];

	if (strcmp(c->direction, "out") == 0 || !strcmp(c->challenger, o->me) ||
	    o->cfg.start != ONLINE_START_ACCEPT || strcasecmp(c->challenger, o->cfg.friend_name) ||
	    !lichess_path_word_ok(c->id) || o->phase == PHASE_PLAYING)
		return;
	if ((strcmp(c->variant, "standard") && strcmp(c->variant, "fromPosition")) ||
	    strcmp(c->tc_type, "clock") ||
	    !lichess_time_control_allowed(LICHESS_BY_CHALLENGE, c->limit_s, c->increment_s, why,
					  sizeof(why))) {
		char path[160];

		log_warn(LOG_MAIN, "%s's challenge cannot be played here (%s %s %d+%d): declined",
			 c->challenger, c->variant, c->tc_type, c->limit_s, c->increment_s);
		snprintf(path, sizeof(path), "/api/challenge/%s/decline", c->id);
		lichess_post(o->l, path,
			     strcmp(c->variant, "standard") && strcmp(c->variant, "fromPosition")
				 ? "reason=standard"
				 : "reason=timeControl",
			     NULL, NULL, NULL);
		ol_news(o, ONLINE_NEWS_CHALLENGE_UNPLAYABLE);
		return;
	}
	ol_tell("%s challenges: %d+%d %s", c->challenger, c->limit_s, c->increment_s,
		c->rated ? "rated" : "casual");
	if (o->phase == PHASE_STARTING) {
		accept_challenge(o, c->id);
		return;
	}
	/* Kept for the start (without --wait, in a moment); waiting for the menu, the player
	 * hears it has come. */
	if (strcmp(o->challenge_here, c->id)) {
		snprintf(o->challenge_here, sizeof(o->challenge_here), "%s", c->id);
		if (o->wait)
			ol_news(o, ONLINE_NEWS_CHALLENGE_HERE);
	}
}

static void on_event_line(void *user, struct lichess_transfer *t, const char *line)
{
	struct online *o = user;
	struct lichess_msg *m = o->msg;
	char err[256];

	(void)t;
	if (o->outage_said && o->phase != PHASE_PLAYING) {
		o->outage_said = false;
		ol_news(o, ONLINE_NEWS_CONNECTED);
	}
	o->backoff_ms = 1000;
	if (lichess_msg_parse(line, m, err, sizeof(err))) {
		log_warn(LOG_MAIN, "the event stream: %s", err);
		return;
	}
	switch (m->type) {
	case LICHESS_GAME_START:
		if (!m->u.game.board || !strcmp(m->u.game.speed, "correspondence")) {
			log_info(LOG_MAIN, "game %s is not one for the board (%s)",
				 m->u.game.game_id, m->u.game.speed);
			break;
		}
		ol_tell("game %s begins", m->u.game.game_id);
		ol_play(o, m->u.game.game_id);
		break;
	case LICHESS_GAME_FINISH:
		log_info(LOG_MAIN, "game %s finished", m->u.game.game_id);
		break;
	case LICHESS_CHALLENGE:
		challenge_came(o, &m->u.challenge);
		break;
	case LICHESS_CHALLENGE_DECLINED:
		if (o->phase == PHASE_STARTING && o->cfg.start == ONLINE_START_CHALLENGE) {
			log_info(LOG_MAIN, "%s declined the challenge (%s)", o->cfg.friend_name,
				 m->u.challenge.decline_reason);
			ol_news(o, ONLINE_NEWS_CHALLENGE_DECLINED);
			if (o->challenge)
				lichess_cancel(o->l, o->challenge);
			o->challenge = NULL;
			o->phase = PHASE_DONE;
			o->status = 1;
		}
		break;
	case LICHESS_CHALLENGE_CANCELED:
		if (!strcmp(o->challenge_here, m->u.challenge.id))
			o->challenge_here[0] = '\0';
		break;
	default:
		break;
	}
}

static void on_events_done(void *user, struct lichess_transfer *t, const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	if (ol_stopping || ol_general_failure(o, r)) {
		o->events_at = o->rate_until;
		return;
	}
	if (o->phase != PHASE_PLAYING)
		ol_connection_lost(o, "the event stream", r);
	else
		log_warn(LOG_MAIN, "the event stream: %s (HTTP %ld)", r->error, r->status);
	o->events_at = ol_next_backoff(o);
}

void ol_start_events(struct online *o)
{
	o->events_at = 0;
	if (!lichess_stream(o->l, "/api/stream/event", on_event_line, on_events_done, o))
		o->events_at = ol_now_ms() + 1000;
}

/* Who the token is: the account; then the event stream. */
static void on_account_done(void *user, struct lichess_transfer *t, const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	if (ol_general_failure(o, r)) {
		o->account_at = o->rate_until;
		return;
	}
	if (r->status != 200 || json_get(r->body, "id", o->me, sizeof(o->me)) < 0 || !o->me[0]) {
		log_error(LOG_MAIN, "%s cannot be reached: %s (HTTP %ld)", o->cfg.server,
			  r->error[0] ? r->error : "no account in the answer", r->status);
		ol_news(o, ONLINE_NEWS_SERVER_DOWN);
		if (!o->wait) {
			o->status = 1;
			ol_stopping = 1;
			return;
		}
		o->account_at = ol_now_ms() + BACKOFF_MAX_MS;
		return;
	}
	for (char *c = o->me; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c + 32);
	ol_tell("signed in to %s as %s", o->cfg.server, o->me);
	o->phase = o->wait ? PHASE_WAITING : PHASE_IDLE;
	o->start_at = o->wait ? 0 : ol_now_ms() + SETTLE_MS;
	ol_start_events(o);
}

void ol_ask_account(struct online *o)
{
	o->account_at = 0;
	if (!lichess_get(o->l, "/api/account", on_account_done, o))
		o->account_at = ol_now_ms() + 1000;
}
