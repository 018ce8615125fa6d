/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella online`: the game (docs/online.md "Playing online").  The game's stream read,
 * its first line begun on the device (`online begin`), each state reconciled with the
 * device's game (the server's game wins: see cli/cli_online.c's top), and the player's move
 * sent once when their press completed it.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/log.h"
#include "base/trace.h"
#include "chess/chess.h"
#include "cli/cli_online_int.h"
#include "cli/lichess.h"
#include "cli/lichess_msg.h"
#include "control/protocol.h"
#include "game/online.h"

static void reconcile(struct online *o);

static void on_move_done(void *user, struct lichess_transfer *t, const struct lichess_result *r)
{
	struct online *o = user;
	int ply = o->sent_ply;

	(void)t;
	o->sent_ply = 0;
	trace_at(0, "online-move-answered", "%d %ld", ply, r->status);
	if (r->status == 200)
		return; /* the stream brings the state with it */
	if (ol_general_failure(o, r)) {
		/* A 429 took nothing: the move goes once the minute is over. */
		o->send_at = o->rate_until;
		return;
	}
	if (r->status == 400) {
		char why[256];

		/* The server's position wins: the player is guided back to it. */
		lichess_error_text(r->body, why, sizeof(why));
		log_warn(LOG_MAIN, "%s refused the move of ply %d: %s", o->cfg.server, ply, why);
		o->refused_ply = ply;
		reconcile(o);
		return;
	}
	/* Whether the server has it is not known: a fresh full state tells, before anything
	 * is sent again. */
	log_warn(LOG_MAIN, "the move of ply %d: %s (HTTP %ld); asking the game's whole state", ply,
		 r->error[0] ? r->error : "no answer", r->status);
	o->need_state = true;
	if (o->game)
		lichess_cancel(o->l, o->game);
	o->game = NULL;
	/* A moment first: a request still on its way when its connection broke has arrived
	 * or is gone by then. */
	o->game_at = r->sent ? ol_now_ms() + AMBIGUOUS_WAIT_MS : ol_next_backoff(o);
	if (o->game_at < o->rate_until)
		o->game_at = o->rate_until;
}

/* The player's move goes out when their press completed it, the server's game is one ply
 * behind the device's, and nothing about it is under way or unknown. */
void ol_try_send(struct online *o)
{
	static struct device_game d;
	char path[160];
	int ply;

	if (o->phase != PHASE_PLAYING || !o->have_state || o->over || o->need_state ||
	    o->sent_ply || !o->game || !ol_may_request(o))
		return;
	if (ol_device_moves(o, &d) < 0)
		return;
	ply = d.plies;
	if (ply != o->server_plies + 1 || ((o->start_side + ply - 1) & 1) != o->color ||
	    !d.complete[ply - 1] || ply == o->refused_ply)
		return;
	snprintf(path, sizeof(path), "/api/board/game/%s/move/%s", o->game_id, d.uci[ply - 1]);
	if (!lichess_post(o->l, path, NULL, NULL, on_move_done, o))
		return;
	o->sent_ply = ply;
	trace_at(0, "online-move-sent", "%d %s", ply, d.uci[ply - 1]);
}

/* The server's moves as UCI words, each checked legal from the start position (castling
 * written king to rook taken as castling). */
struct server_moves {
	int plies;
	char uci[GAME_MAX_PLIES][6];
};

static int server_moves_of(const struct online *o, const char *moves, struct server_moves *s)
{
	struct chess_pos pos;
	struct chess_error err;
	const char *at = moves;
	char word[6];

	s->plies = 0;
	if (chess_fen_parse(&pos, o->start_fen[0] ? o->start_fen : CHESS_FEN_START, &err))
		return -1;
	while (lichess_next_move(&at, &pos, word)) {
		chess_move m;
		struct chess_undo undo;

		if (s->plies == GAME_MAX_PLIES || chess_move_parse_uci(&pos, word, &m)) {
			log_error(LOG_MAIN, "the server's ply %d, '%s', is no legal move",
				  s->plies + 1, word);
			return -1;
		}
		chess_move_to_uci(m, s->uci[s->plies], sizeof(s->uci[0]));
		chess_pos_make(&pos, m, &undo);
		s->plies++;
	}
	return 0;
}

static const char *run_word(int side)
{
	return side < 0 ? "-" : game_color_name(side);
}

/* The side whose clock runs on the server: none before both first moves, nor after the end. */
static int running_side(const struct online *o, int plies)
{
	if (plies < 2 || o->over)
		return -1;
	return (o->start_side + plies) & 1;
}

/* The offers in the state, as the daemon's words. */
static unsigned offers_of(const struct lichess_state *s)
{
	return (s->wdraw ? ONLINE_OFFER_WHITE_DRAW : 0) | (s->bdraw ? ONLINE_OFFER_BLACK_DRAW : 0) |
	       (s->wtakeback ? ONLINE_OFFER_WHITE_TAKEBACK : 0) |
	       (s->btakeback ? ONLINE_OFFER_BLACK_TAKEBACK : 0);
}

static bool ended_status(const char *status)
{
	return strcmp(status, "created") && strcmp(status, "started");
}

/* The device's game made the server's (see cli/cli_online.c's top). */
static void reconcile(struct online *o)
{
	static struct device_game d;
	static struct server_moves s;
	const struct lichess_state *st = &o->state;
	unsigned offers = offers_of(st);
	int p = 0, shorter;
	bool times_given = false;

	if (!o->begun || !o->have_state)
		return;
	if (server_moves_of(o, st->moves, &s) || ol_device_moves(o, &d) < 0)
		return;
	shorter = s.plies < o->server_plies;
	while (p < s.plies && p < d.plies && !strcmp(s.uci[p], d.uci[p]))
		p++;
	if (d.plies > p) {
		/* The player's own next move, not yet on the server, stays (it goes out at its
		 * press), unless the server refused it. */
		bool own_next = d.plies == s.plies + 1 && p == s.plies &&
				((o->start_side + p) & 1) == o->color && o->refused_ply != p + 1;

		if (!own_next) {
			enum game_online_back why = o->refused_ply == p + 1 ? ONLINE_BACK_REFUSED
						    : shorter		    ? ONLINE_BACK_TAKEBACK
									    : ONLINE_BACK_SYNC;

			ol_tell_daemon(o, "online back %d %s", p, game_online_back_name(why));
			d.plies = p;
		}
	}
	o->refused_ply = 0;
	for (int i = d.plies; i < s.plies; i++) {
		bool last = i == s.plies - 1;

		if (last) {
			o->over = ended_status(st->status);
			ol_tell_daemon(o, "online move %d %s %lld %lld %s", i + 1, s.uci[i],
				       (long long)st->wtime, (long long)st->btime,
				       run_word(running_side(o, s.plies)));
			times_given = true;
		} else {
			ol_tell_daemon(o, "online move %d %s", i + 1, s.uci[i]);
		}
	}
	o->server_plies = s.plies;
	o->over = ended_status(st->status);
	if (!times_given && !o->over)
		ol_tell_daemon(o, "online clock %lld %lld %s", (long long)st->wtime,
			       (long long)st->btime, run_word(running_side(o, s.plies)));
	if (offers != o->offers) {
		char words[80];
		unsigned gone = o->offers & ~offers;

		game_online_offers_format(offers, words, sizeof(words));
		ol_tell_daemon(o, "online offers %s", words);
		/* The player's offer gone while no move was made: the opponent declined it. */
		if (!shorter && (gone & ONLINE_OFFER_DRAW(o->color)) && !times_given && !o->over)
			ol_news(o, ONLINE_NEWS_DRAW_DECLINED);
		if (!shorter && (gone & ONLINE_OFFER_TAKEBACK(o->color)) && !o->over)
			ol_news(o, ONLINE_NEWS_TAKEBACK_DECLINED);
		o->offers = offers;
	}
	if (o->over) {
		ol_tell_daemon(o, "online result %s%s%s", st->status, st->winner >= 0 ? " " : "",
			       st->winner >= 0 ? game_color_name(st->winner) : "");
		ol_tell("game %s over: %s", o->game_id, st->status);
		o->phase = PHASE_DONE;
		return;
	}
	ol_try_send(o);
}

/* A tag's value as `online begin` takes it: quotes and backslashes escaped, control
 * characters left out. */
static void quoted(const char *text, char *buf, size_t size)
{
	size_t n = 0;

	for (; *text && n + 3 < size; text++) {
		if ((unsigned char)*text < 0x20)
			continue;
		if (*text == '"' || *text == '\\')
			buf[n++] = '\\';
		buf[n++] = *text;
	}
	buf[n] = '\0';
}

/* The game's first line: the game begun on the device (or taken up again). */
static int begin(struct online *o)
{
	const struct lichess_game_full *f = &o->msg->u.full;
	char line[CONTROL_LINE_MAX], tc[48], perf[2 * LICHESS_WORD_MAX],
	    white[2 * LICHESS_NAME_MAX], black[2 * LICHESS_NAME_MAX];
	struct chess_pos pos;
	struct chess_error err;
	size_t n;
	int rc;

	if (strcmp(f->variant, "standard") && strcmp(f->variant, "fromPosition")) {
		log_error(LOG_MAIN, "game %s is %s chess: the tactile board plays standard chess",
			  f->id, f->variant);
		return -1;
	}
	if (f->initial_ms < 0 || f->initial_ms % 1000 || f->increment_ms % 1000) {
		log_error(
		    LOG_MAIN,
		    "game %s has no clock of whole seconds (correspondence or unlimited): the "
		    "device plays games with a clock",
		    f->id);
		ol_news(o, ONLINE_NEWS_TIME_CONTROL);
		return -1;
	}
	if (strcasecmp(f->white.id, o->me) && strcasecmp(f->black.id, o->me)) {
		log_error(LOG_MAIN, "game %s is not %s's", f->id, o->me);
		return -1;
	}
	o->color = !strcasecmp(f->white.id, o->me) ? CHESS_WHITE : CHESS_BLACK;
	o->start_fen[0] = '\0';
	if (strcmp(f->initial_fen, "startpos") && strcmp(f->initial_fen, CHESS_FEN_START)) {
		if (chess_fen_parse(&pos, f->initial_fen, &err)) {
			log_error(LOG_MAIN, "game %s begins from no FEN: %s", f->id,
				  f->initial_fen);
			return -1;
		}
		chess_fen_format(&pos, o->start_fen, sizeof(o->start_fen));
	}
	chess_fen_parse(&pos, o->start_fen[0] ? o->start_fen : CHESS_FEN_START, &err);
	o->start_side = pos.side;
	snprintf(tc, sizeof(tc), "%lld+%lld", (long long)(f->initial_ms / 1000),
		 (long long)(f->increment_ms / 1000));
	quoted(f->perf[0] ? f->perf : f->speed, perf, sizeof(perf));
	quoted(f->white.name, white, sizeof(white));
	quoted(f->black.name, black, sizeof(black));
	n = (size_t)snprintf(line, sizeof(line),
			     "online begin %s %s %s Event \"%s %s game\" Site \"%s/%s\" White "
			     "\"%s\" Black \"%s\"",
			     game_color_name(o->color), tc, f->id, f->rated ? "Rated" : "Casual",
			     perf, o->cfg.server, f->id, white, black);
	if (f->white.rating > 0 && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, " WhiteElo \"%d\"",
				      f->white.rating);
	if (f->black.rating > 0 && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, " BlackElo \"%d\"",
				      f->black.rating);
	if (o->start_fen[0] && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, " FEN \"%s\"", o->start_fen);
	if (n >= sizeof(line))
		return -1;
	rc = ol_tell_daemon(o, "%s", line);
	if (rc) {
		log_error(LOG_MAIN, "the device does not take game %s: %s", f->id, o->reply);
		return -1;
	}
	ol_tell("playing %s in game %s/%s (%s)", game_color_name(o->color), o->cfg.server, f->id,
		tc);
	o->begun = true;
	return 0;
}

static void on_game_line(void *user, struct lichess_transfer *t, const char *line)
{
	struct online *o = user;
	char err[256];

	(void)t;
	if (lichess_msg_parse(line, o->msg, err, sizeof(err))) {
		log_warn(LOG_MAIN, "the game's stream: %s", err);
		return;
	}
	switch (o->msg->type) {
	case LICHESS_GAME_FULL:
		trace_at(0, "online-state", "full");
		if (o->outage_said) {
			o->outage_said = false;
			ol_news(o, ONLINE_NEWS_CONNECTED);
		}
		o->backoff_ms = 1000;
		o->need_state = false;
		if (!o->begun && begin(o)) {
			/* Not a game the device can play: left alone. */
			lichess_cancel(o->l, o->game);
			o->game = NULL;
			o->phase = PHASE_DONE;
			o->status = 1;
			return;
		}
		o->state = o->msg->state;
		o->have_state = true;
		reconcile(o);
		break;
	case LICHESS_GAME_STATE:
		trace_at(0, "online-state", "%zu", strlen(o->msg->state.moves));
		o->state = o->msg->state;
		if (o->have_state)
			reconcile(o);
		break;
	case LICHESS_OPPONENT_GONE:
		if (!o->msg->u.gone.gone) {
			o->gone_claim_at = 0;
			ol_tell_daemon(o, "online gone back");
		} else {
			int s = o->msg->u.gone.claim_in_s > 0 ? o->msg->u.gone.claim_in_s : 0;

			ol_tell_daemon(o, "online gone %d", s);
			/* When the claim is possible the player hears it (the server need not
			 * say it again). */
			o->gone_claim_at = s ? ol_now_ms() + (int64_t)s * 1000 : 0;
		}
		break;
	default:
		break;
	}
}

static void on_game_done(void *user, struct lichess_transfer *t, const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	o->game = NULL;
	if (o->phase != PHASE_PLAYING)
		return;
	if (ol_general_failure(o, r)) {
		o->game_at = o->rate_until;
		return;
	}
	if (r->status == 404) {
		log_warn(LOG_MAIN, "game %s is no more on %s", o->game_id, o->cfg.server);
		o->phase = PHASE_DONE;
		return;
	}
	ol_connection_lost(o, "the game's stream", r);
	o->game_at = ol_next_backoff(o);
}

void ol_start_game_stream(struct online *o)
{
	char path[160];

	snprintf(path, sizeof(path), "/api/board/game/stream/%s", o->game_id);
	o->game_at = 0;
	o->have_state = false;
	o->game = lichess_stream(o->l, path, on_game_line, on_game_done, o);
	if (!o->game)
		o->game_at = ol_now_ms() + 1000;
}

/* A game to play (gameStart): its stream. */
void ol_play(struct online *o, const char *game_id)
{
	if (o->phase == PHASE_PLAYING || !lichess_path_word_ok(game_id))
		return;
	if (o->seek)
		lichess_cancel(o->l, o->seek);
	if (o->challenge)
		lichess_cancel(o->l, o->challenge);
	o->seek = o->challenge = NULL;
	snprintf(o->game_id, sizeof(o->game_id), "%s", game_id);
	o->phase = PHASE_PLAYING;
	o->no_game_at = 0;
	o->begun = o->over = o->need_state = false;
	o->server_plies = 0;
	o->offers = 0;
	o->sent_ply = o->refused_ply = 0;
	o->gone_claim_at = 0;
	ol_start_game_stream(o);
}
