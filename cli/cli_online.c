/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella online [--seek | --accept FRIEND | --challenge FRIEND] [--time-control S+I]
 *                  [--rated | --casual] [--color white|black|random] [--wait]
 *                  [--socket PATH] [--config FILE]
 *
 * Online play (docs/online.md "Playing online"): the tactile player's game on lichess through its
 * Board API, as training is built (docs/training.md "Training and study"): a separate process and a
 * client of the control socket; the daemon opens no network socket.  It speaks HTTPS with
 * Debian's libcurl (cli/lichess.c) and reads the server's NDJSON streams (cli/lichess_msg.c):
 * the account's events (a game begun, a challenge), the game's state, a seek or a challenge
 * kept open.  On its own connection to the daemon it follows `watch` and says `online on`
 * (or `online wait`: the button menu's entry starts a game); a second connection asks
 * `moves` and `status`.
 *
 * The server's game wins.  Each state the game's stream brings is reconciled with the
 * device's game: the plies the device has beyond the server's are taken back (a takeback
 * both agreed to, a move the server refused: the player is guided back), the server's further
 * plies are given as `online move` (announced, pressed, guided square by square), its clocks
 * as `online clock`, its offers, the opponent gone and its end.  The player's move is sent
 * when their press completes it, once: a second request for a ply is made only after a fresh
 * full state shows the server does not have it and no request for it is under way.
 *
 * Failures are said privately and lose nothing: the connection lost (streams started again
 * with a growing pause; the game's first line, its whole state, sets the device right), the
 * token refused (the message names its file; online play ends), HTTP 429 (a full minute
 * without a request, as lichess asks), a move refused, the opponent aborting, the server
 * down at the start.  The token is read from its file (which only its owner may read) into
 * this process alone: it reaches no log, no status, no page, no broadcast, no scoresheet.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "base/trace.h"
#include "chess/chess.h"
#include "cli/cli.h"
#include "cli/lichess.h"
#include "cli/lichess_msg.h"
#include "config/config.h"
#include "control/json.h"
#include "control/protocol.h"
#include "game/online.h"
#include "net/ctlclient.h"

#define REPLY_TIMEOUT_MS 5000
#define QUEUE_MAX	 128
#define QUEUE_LINE_MAX	 2048
#define STATUS_MAX	 (256 * 1024)
/* lichess asks a client that got HTTP 429 to wait a full minute. */
#define RATE_WAIT_MS 60000
/* Streams started again after 1, 2, 4 ... s, at most this. */
#define BACKOFF_MAX_MS 30000
/* The event stream says what is on when it opens; this long after it, a start goes ahead. */
#define SETTLE_MS 1500
/* A seek that found no opponent in this long ends. */
#define SEEK_MAX_MS (10 * 60 * 1000)
/* The server sends an empty line every few seconds; silence this long is a lost connection. */
#define IDLE_MS 25000
/* A move whose answer was lost: the game's whole state is asked this long after. */
#define AMBIGUOUS_WAIT_MS 2000

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

enum phase {
	PHASE_ACCOUNT = 0, /* who the token is */
	PHASE_IDLE,	   /* the event stream on, nothing asked yet */
	PHASE_WAITING,	   /* --wait: for the menu's entry */
	PHASE_STARTING,	   /* a seek, a challenge, or the friend's challenge awaited */
	PHASE_PLAYING,	   /* a game's stream */
	PHASE_DONE,	   /* the game is over: out, or waiting again */
};

struct online {
	/* What to do. */
	struct online_config cfg;
	const char *socket;
	const char *token_file;
	bool wait;
	int seconds, increment;
	/* The daemon. */
	struct ctlclient *ev, *req;
	char queue[QUEUE_MAX][QUEUE_LINE_MAX];
	int q_head, q_count;
	char reply[STATUS_MAX];
	/* The server. */
	char token[256];
	struct lichess *l;
	char me[LICHESS_NAME_MAX];
	struct lichess_transfer *game, *seek, *challenge; /* the transfers ended from here */
	struct lichess_msg *msg;			  /* the line being read */
	struct lichess_state state; /* the game's last state, as its stream gave it */
	enum phase phase;
	int64_t start_at;      /* PHASE_IDLE, PHASE_STARTING: when to start (0: not yet) */
	int64_t events_at;     /* the event stream starts again then (0: not) */
	int64_t game_at;       /* the game's stream starts again then (0: not) */
	int64_t account_at;    /* the account asked again then (0: not) */
	int64_t rate_until;    /* no request before (HTTP 429) */
	int64_t seek_until;    /* the seek gives up then */
	int64_t no_game_at;    /* the seek or challenge closed: no game by then is none */
	int64_t gone_claim_at; /* the opponent left: a claim is possible then (0: not gone) */
	int64_t send_at;       /* the player's move tried again then (after a 429; 0: not) */
	int backoff_ms;
	bool outage_said;		     /* "connection lost" was said, "connected" is due */
	char challenge_here[LICHESS_ID_MAX]; /* the friend's challenge, waiting for the menu */
	/* The game. */
	char game_id[LICHESS_ID_MAX];
	int color;		       /* the player's */
	int start_side;		       /* the side to move in the start position */
	char start_fen[CHESS_FEN_MAX]; /* "" for the initial position */
	bool begun;		       /* `online begin` taken for this game */
	bool have_state; /* a state of this stream came (the game's position is known) */
	int server_plies;
	unsigned offers;  /* the offers last given to the daemon */
	bool over;	  /* the server ended the game */
	bool need_state;  /* a request's fate is unknown: no move sent before a full state */
	int sent_ply;	  /* the player's ply whose request is under way (0: none) */
	int refused_ply;  /* the player's ply the server refused (0: none) */
	int status;	  /* the exit status */
	bool daemon_gone; /* the daemon closed the connection or went silent */
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A line for the person who started it (stdout, not a log line). */
static void tell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tell(const char *fmt, ...)
{
	va_list ap;

	printf("online: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* ------------------------------------------------------------------ the daemon */

static bool is_reply(const char *line)
{
	char v[8];

	return json_get(line, "ok", v, sizeof(v)) >= 0;
}

/* A request on the online process's connection: its reply into o->reply; events that come
 * first wait in the queue.  0 when it was answered ok, 1 when it was refused, -1 when the
 * daemon is gone or silent. */
static int ev_request(struct online *o, const char *request)
{
	int64_t deadline = now_ms() + REPLY_TIMEOUT_MS;
	const char *line;

	if (ctlclient_send(o->ev, request))
		return -1;
	for (;;) {
		int64_t left = deadline - now_ms();

		if (left <= 0 || ctlclient_read(o->ev, &line, (int)left) <= 0)
			return -1;
		if (is_reply(line)) {
			snprintf(o->reply, sizeof(o->reply), "%s", line);
			return ctlclient_reply_ok(line) ? 0 : 1;
		}
		if (o->q_count < QUEUE_MAX)
			snprintf(o->queue[(o->q_head + o->q_count++) % QUEUE_MAX], QUEUE_LINE_MAX,
				 "%s", line);
	}
}

/* What the server says of its game, given to the daemon; a refusal logged. */
static int tell_daemon(struct online *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int tell_daemon(struct online *o, const char *fmt, ...)
{
	char line[CONTROL_LINE_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	rc = ev_request(o, line);
	if (rc < 0) {
		log_error(LOG_MAIN, "the daemon did not answer '%.40s'", line);
		o->status = 1;
		o->daemon_gone = true;
		stopping = 1;
	} else if (rc > 0) {
		char why[512];

		if (json_get(o->reply, "error", why, sizeof(why)) < 0)
			snprintf(why, sizeof(why), "%.200s", o->reply);
		log_warn(LOG_MAIN, "the daemon refuses '%.60s': %s", line, why);
	}
	return rc;
}

static void news(struct online *o, enum game_online_news n)
{
	tell_daemon(o, "online say %s", game_online_news_name(n));
}

/* The next event: a queued one, or one that has come (never waiting). */
static const char *next_event(struct online *o, bool *closed)
{
	static char line[QUEUE_LINE_MAX];
	const char *got;
	int rc;

	if (o->q_count) {
		snprintf(line, sizeof(line), "%s", o->queue[o->q_head]);
		o->q_head = (o->q_head + 1) % QUEUE_MAX;
		o->q_count--;
		return line;
	}
	rc = ctlclient_read(o->ev, &got, 0);
	if (rc == 0 || (rc < 0 && errno != ETIMEDOUT))
		*closed = true;
	if (rc <= 0)
		return NULL;
	/* Copied: what handles it may read the connection again. */
	snprintf(line, sizeof(line), "%s", got);
	return line;
}

/* A request on the second connection, its reply into o->reply: 0, or -1. */
static int ask(struct online *o, const char *request)
{
	const char *line;

	if (ctlclient_send(o->req, request) || ctlclient_read(o->req, &line, REPLY_TIMEOUT_MS) <= 0)
		return -1;
	snprintf(o->reply, sizeof(o->reply), "%s", line);
	return 0;
}

/* The device's game: its plies' moves (UCI) and whether each is complete (its press came:
 * its [%clk] is there).  The number of plies, or -1. */
struct device_game {
	int plies;
	char uci[GAME_MAX_PLIES][6];
	bool complete[GAME_MAX_PLIES];
};

static int device_moves(struct online *o, struct device_game *d)
{
	const char *at;

	d->plies = 0;
	if (ask(o, "moves") || !ctlclient_reply_ok(o->reply))
		return -1;
	for (at = strstr(o->reply, "{\"ply\":"); at && d->plies < GAME_MAX_PLIES;
	     at = strstr(at + 1, "{\"ply\":")) {
		const char *end = strchr(at, '}'), *u = strstr(at, "\"uci\":\""),
			   *c = strstr(at, "\"clk_ms\":");

		if (!end || !u || u > end)
			return -1;
		snprintf(d->uci[d->plies], sizeof(d->uci[0]), "%.*s", (int)strcspn(u + 7, "\""),
			 u + 7);
		d->complete[d->plies] = c && c < end && c[9] != 'n';
		d->plies++;
	}
	return d->plies;
}

/* ------------------------------------------------------------------ requests */

/* A request may be made now (not within lichess's minute after a 429). */
static bool may_request(const struct online *o)
{
	return now_ms() >= o->rate_until;
}

/* What a failed transfer means for all of online play: the token refused (it ends), or
 * too many requests (a minute's pause).  True when it was one of them. */
static bool general_failure(struct online *o, const struct lichess_result *r)
{
	if (r->status == 401) {
		char why[256];

		lichess_error_text(r->body, why, sizeof(why));
		log_error(LOG_MAIN,
			  "%s refused the token in %s (HTTP 401%s%s): it is invalid or expired; "
			  "make a new personal API token with the board:play scope at "
			  "%s/account/oauth/token and put it in that file",
			  o->cfg.server, o->token_file, why[0] ? ": " : "", why, o->cfg.server);
		news(o, ONLINE_NEWS_TOKEN_INVALID);
		o->status = 1;
		stopping = 1;
		return true;
	}
	if (r->status == 429) {
		log_warn(LOG_MAIN, "%s asks for a pause (HTTP 429): no request for a minute",
			 o->cfg.server);
		if (now_ms() >= o->rate_until)
			news(o, ONLINE_NEWS_RATE_LIMITED);
		o->rate_until = now_ms() + RATE_WAIT_MS;
		return true;
	}
	return false;
}

/* The streams are lost: said once, and started again with a growing pause. */
static void connection_lost(struct online *o, const char *what, const struct lichess_result *r)
{
	log_warn(LOG_MAIN, "%s: %s%s (HTTP %ld); starting again in %d s", what, r->error,
		 r->error[0] ? "" : "closed", r->status, o->backoff_ms / 1000);
	if (!o->outage_said) {
		o->outage_said = true;
		news(o, ONLINE_NEWS_CONNECTION_LOST);
	}
}

static int64_t next_backoff(struct online *o)
{
	int64_t at = now_ms() + o->backoff_ms;

	o->backoff_ms = o->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : o->backoff_ms * 2;
	if (at < o->rate_until)
		at = o->rate_until;
	return at;
}

/* A request about the game (a draw, a resignation, ...): refused said to the player. */
static void on_game_request_done(void *user, struct lichess_transfer *t,
				 const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	if (r->status == 200 || general_failure(o, r))
		return;
	if (r->status >= 400) {
		char why[256];

		lichess_error_text(r->body, why, sizeof(why));
		log_warn(LOG_MAIN, "%s refused a request (HTTP %ld): %s", o->cfg.server, r->status,
			 why);
		news(o, ONLINE_NEWS_REFUSED);
	} else {
		log_warn(LOG_MAIN, "a request got no answer: %s", r->error);
		news(o, ONLINE_NEWS_REFUSED);
	}
}

static void game_request(struct online *o, const char *what)
{
	char path[160];

	if (o->phase != PHASE_PLAYING || !may_request(o)) {
		news(o, may_request(o) ? ONLINE_NEWS_REFUSED : ONLINE_NEWS_RATE_LIMITED);
		return;
	}
	snprintf(path, sizeof(path), "/api/board/game/%s/%s", o->game_id, what);
	if (!lichess_post(o->l, path, NULL, NULL, on_game_request_done, o))
		news(o, ONLINE_NEWS_REFUSED);
}

/* ------------------------------------------------------------------ the game */

static void reconcile(struct online *o);
static void try_send(struct online *o);
static void start_game_stream(struct online *o);

static void on_move_done(void *user, struct lichess_transfer *t, const struct lichess_result *r)
{
	struct online *o = user;
	int ply = o->sent_ply;

	(void)t;
	o->sent_ply = 0;
	trace_at(0, "online-move-answered", "%d %ld", ply, r->status);
	if (r->status == 200)
		return; /* the stream brings the state with it */
	if (general_failure(o, r)) {
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
	o->game_at = r->sent ? now_ms() + AMBIGUOUS_WAIT_MS : next_backoff(o);
	if (o->game_at < o->rate_until)
		o->game_at = o->rate_until;
}

/* The player's move goes out when their press completed it, the server's game is one ply
 * behind the device's, and nothing about it is under way or unknown. */
static void try_send(struct online *o)
{
	static struct device_game d;
	char path[160];
	int ply;

	if (o->phase != PHASE_PLAYING || !o->have_state || o->over || o->need_state ||
	    o->sent_ply || !o->game || !may_request(o))
		return;
	if (device_moves(o, &d) < 0)
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

/* The device's game made the server's (see the top). */
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
	if (server_moves_of(o, st->moves, &s) || device_moves(o, &d) < 0)
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

			tell_daemon(o, "online back %d %s", p, game_online_back_name(why));
			d.plies = p;
		}
	}
	o->refused_ply = 0;
	for (int i = d.plies; i < s.plies; i++) {
		bool last = i == s.plies - 1;

		if (last) {
			o->over = ended_status(st->status);
			tell_daemon(o, "online move %d %s %lld %lld %s", i + 1, s.uci[i],
				    (long long)st->wtime, (long long)st->btime,
				    run_word(running_side(o, s.plies)));
			times_given = true;
		} else {
			tell_daemon(o, "online move %d %s", i + 1, s.uci[i]);
		}
	}
	o->server_plies = s.plies;
	o->over = ended_status(st->status);
	if (!times_given && !o->over)
		tell_daemon(o, "online clock %lld %lld %s", (long long)st->wtime,
			    (long long)st->btime, run_word(running_side(o, s.plies)));
	if (offers != o->offers) {
		char words[80];
		unsigned gone = o->offers & ~offers;

		game_online_offers_format(offers, words, sizeof(words));
		tell_daemon(o, "online offers %s", words);
		/* The player's offer gone while no move was made: the opponent declined it. */
		if (!shorter && (gone & ONLINE_OFFER_DRAW(o->color)) && !times_given && !o->over)
			news(o, ONLINE_NEWS_DRAW_DECLINED);
		if (!shorter && (gone & ONLINE_OFFER_TAKEBACK(o->color)) && !o->over)
			news(o, ONLINE_NEWS_TAKEBACK_DECLINED);
		o->offers = offers;
	}
	if (o->over) {
		tell_daemon(o, "online result %s%s%s", st->status, st->winner >= 0 ? " " : "",
			    st->winner >= 0 ? game_color_name(st->winner) : "");
		tell("game %s over: %s", o->game_id, st->status);
		o->phase = PHASE_DONE;
		return;
	}
	try_send(o);
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
		news(o, ONLINE_NEWS_TIME_CONTROL);
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
	rc = tell_daemon(o, "%s", line);
	if (rc) {
		log_error(LOG_MAIN, "the device does not take game %s: %s", f->id, o->reply);
		return -1;
	}
	tell("playing %s in game %s/%s (%s)", game_color_name(o->color), o->cfg.server, f->id, tc);
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
			news(o, ONLINE_NEWS_CONNECTED);
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
			tell_daemon(o, "online gone back");
		} else {
			int s = o->msg->u.gone.claim_in_s > 0 ? o->msg->u.gone.claim_in_s : 0;

			tell_daemon(o, "online gone %d", s);
			/* When the claim is possible the player hears it (the server need not
			 * say it again). */
			o->gone_claim_at = s ? now_ms() + (int64_t)s * 1000 : 0;
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
	if (general_failure(o, r)) {
		o->game_at = o->rate_until;
		return;
	}
	if (r->status == 404) {
		log_warn(LOG_MAIN, "game %s is no more on %s", o->game_id, o->cfg.server);
		o->phase = PHASE_DONE;
		return;
	}
	connection_lost(o, "the game's stream", r);
	o->game_at = next_backoff(o);
}

static void start_game_stream(struct online *o)
{
	char path[160];

	snprintf(path, sizeof(path), "/api/board/game/stream/%s", o->game_id);
	o->game_at = 0;
	o->have_state = false;
	o->game = lichess_stream(o->l, path, on_game_line, on_game_done, o);
	if (!o->game)
		o->game_at = now_ms() + 1000;
}

/* A game to play (gameStart): its stream. */
static void play(struct online *o, const char *game_id)
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
	start_game_stream(o);
}

/* ------------------------------------------------------------------ starting a game */

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
	if (o->phase != PHASE_STARTING || general_failure(o, r))
		return;
	if (r->status == 400) {
		char why[256];

		lichess_error_text(r->body, why, sizeof(why));
		log_error(LOG_MAIN, "%s refused the seek: %s", o->cfg.server, why);
		news(o, ONLINE_NEWS_TIME_CONTROL);
		o->phase = PHASE_DONE;
		o->status = 1;
		return;
	}
	if (r->status == 200) {
		/* Taken, or expired: the event stream brings the game if there is one. */
		o->no_game_at = now_ms() + 5000;
		return;
	}
	connection_lost(o, "the seek", r);
	o->start_at = next_backoff(o);
}

static void on_challenge_line(void *user, struct lichess_transfer *t, const char *line)
{
	struct online *o = user;
	char v[64];

	(void)t;
	/* The challenge first, then empty lines, then how it ended. */
	if (json_get(line, "done", v, sizeof(v)) >= 0 && strcmp(v, "accepted")) {
		log_info(LOG_MAIN, "the challenge to %s: %s", o->cfg.friend_name, v);
		news(o, ONLINE_NEWS_CHALLENGE_DECLINED);
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
	if (o->phase != PHASE_STARTING || general_failure(o, r))
		return;
	if (r->status == 400 || r->status == 404) {
		char why[256];

		lichess_error_text(r->body, why, sizeof(why));
		log_error(LOG_MAIN, "%s refused the challenge to %s: %s", o->cfg.server,
			  o->cfg.friend_name, why);
		news(o, ONLINE_NEWS_REFUSED);
		o->phase = PHASE_DONE;
		o->status = 1;
		return;
	}
	if (r->status == 200) {
		o->no_game_at = now_ms() + 5000; /* the game, if accepted, comes as an event */
		return;
	}
	connection_lost(o, "the challenge", r);
	o->start_at = next_backoff(o);
}

static void on_accept_done(void *user, struct lichess_transfer *t, const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	if (r->status == 200 || general_failure(o, r))
		return;
	log_warn(LOG_MAIN, "accepting the challenge: %s (HTTP %ld)", r->error, r->status);
	news(o, ONLINE_NEWS_REFUSED);
}

/* The friend's challenge accepted, when it is one the device can play. */
static void accept_challenge(struct online *o, const char *id)
{
	char path[160];

	snprintf(path, sizeof(path), "/api/challenge/%s/accept", id);
	o->challenge_here[0] = '\0';
	if (!lichess_post(o->l, path, NULL, NULL, on_accept_done, o))
		news(o, ONLINE_NEWS_REFUSED);
}

/* Whether the device has a game of its own on (moves made or its clock started, no result):
 * an online game begun now would be lost on the server's clock.  Said in the log. */
static bool device_game_on(struct online *o)
{
	char mode[16], plies[16], result[256], state[16], clock[2048], cstate[24];

	if (ask(o, "status") || !ctlclient_reply_ok(o->reply))
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
static void start(struct online *o)
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
		news(o, ONLINE_NEWS_TIME_CONTROL);
		o->phase = PHASE_DONE;
		o->status = 2;
		return;
	}
	if (!may_request(o)) {
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
		o->seek_until = now_ms() + SEEK_MAX_MS;
		tell("seeking %d+%d", o->seconds, o->increment);
		news(o, ONLINE_NEWS_SEEKING);
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
		tell("challenging %s to %d+%d", o->cfg.friend_name, o->seconds, o->increment);
		news(o, ONLINE_NEWS_CHALLENGE_SENT);
		break;
	}
	case ONLINE_START_ACCEPT:
		if (o->challenge_here[0]) {
			accept_challenge(o, o->challenge_here);
		} else {
			tell("waiting for %s's challenge", o->cfg.friend_name);
			news(o, ONLINE_NEWS_CHALLENGE_WAITING);
		}
		break;
	}
	if (o->cfg.start != ONLINE_START_ACCEPT && !o->seek && !o->challenge)
		o->start_at = now_ms() + 1000;
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
		news(o, ONLINE_NEWS_CHALLENGE_UNPLAYABLE);
		return;
	}
	tell("%s challenges: %d+%d %s", c->challenger, c->limit_s, c->increment_s,
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
			news(o, ONLINE_NEWS_CHALLENGE_HERE);
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
		news(o, ONLINE_NEWS_CONNECTED);
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
		tell("game %s begins", m->u.game.game_id);
		play(o, m->u.game.game_id);
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
			news(o, ONLINE_NEWS_CHALLENGE_DECLINED);
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
	if (stopping || general_failure(o, r)) {
		o->events_at = o->rate_until;
		return;
	}
	if (o->phase != PHASE_PLAYING)
		connection_lost(o, "the event stream", r);
	else
		log_warn(LOG_MAIN, "the event stream: %s (HTTP %ld)", r->error, r->status);
	o->events_at = next_backoff(o);
}

static void start_events(struct online *o)
{
	o->events_at = 0;
	if (!lichess_stream(o->l, "/api/stream/event", on_event_line, on_events_done, o))
		o->events_at = now_ms() + 1000;
}

/* Who the token is: the account; then the event stream. */
static void on_account_done(void *user, struct lichess_transfer *t, const struct lichess_result *r)
{
	struct online *o = user;

	(void)t;
	if (general_failure(o, r)) {
		o->account_at = o->rate_until;
		return;
	}
	if (r->status != 200 || json_get(r->body, "id", o->me, sizeof(o->me)) < 0 || !o->me[0]) {
		log_error(LOG_MAIN, "%s cannot be reached: %s (HTTP %ld)", o->cfg.server,
			  r->error[0] ? r->error : "no account in the answer", r->status);
		news(o, ONLINE_NEWS_SERVER_DOWN);
		if (!o->wait) {
			o->status = 1;
			stopping = 1;
			return;
		}
		o->account_at = now_ms() + BACKOFF_MAX_MS;
		return;
	}
	for (char *c = o->me; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c + 32);
	tell("signed in to %s as %s", o->cfg.server, o->me);
	o->phase = o->wait ? PHASE_WAITING : PHASE_IDLE;
	o->start_at = o->wait ? 0 : now_ms() + SETTLE_MS;
	start_events(o);
}

static void ask_account(struct online *o)
{
	o->account_at = 0;
	if (!lichess_get(o->l, "/api/account", on_account_done, o))
		o->account_at = now_ms() + 1000;
}

/* ------------------------------------------------------------------ the daemon's events */

static void handle_request(struct online *o, const char *request)
{
	static const char *const what[ONLINE_ASK_COUNT] = {
	    [ONLINE_ASK_OFFER_DRAW] = "draw/yes",
	    [ONLINE_ASK_ACCEPT_DRAW] = "draw/yes",
	    [ONLINE_ASK_DECLINE_DRAW] = "draw/false",
	    [ONLINE_ASK_RESIGN] = "resign",
	    [ONLINE_ASK_ABORT] = "abort",
	    [ONLINE_ASK_TAKEBACK] = "takeback/yes",
	    [ONLINE_ASK_ACCEPT_TAKEBACK] = "takeback/yes",
	    [ONLINE_ASK_DECLINE_TAKEBACK] = "takeback/false",
	    [ONLINE_ASK_CLAIM_VICTORY] = "claim-victory",
	    [ONLINE_ASK_CLAIM_DRAW] = "claim-draw",
	};
	int r = game_online_request_parse(request);

	log_info(LOG_MAIN, "the player asks: %s", request);
	if (r == ONLINE_ASK_PLAY) {
		if (o->phase == PHASE_WAITING)
			start(o);
		else
			news(o, ONLINE_NEWS_REFUSED);
		return;
	}
	if (r > 0 && r < ONLINE_ASK_COUNT)
		game_request(o, what[r]);
}

static void handle_event(struct online *o, const char *line)
{
	char event[32], v[64];

	if (json_get(line, "event", event, sizeof(event)) < 0)
		return;
	if (!strcmp(event, "complete") || !strcmp(event, "result")) {
		if (!strcmp(event, "complete") && json_get(line, "ply", v, sizeof(v)) >= 0)
			trace_at(0, "online-complete", "%s", v);
		try_send(o);
	} else if (!strcmp(event, "online-request")) {
		if (json_get(line, "request", v, sizeof(v)) >= 0)
			handle_request(o, v);
	}
}

/* ------------------------------------------------------------------ the run */

static int usage(void)
{
	fprintf(stderr,
		"usage: annabella online [--seek | --accept FRIEND | --challenge FRIEND]\n"
		"                        [--time-control SECONDS+INCREMENT] [--rated | --casual]\n"
		"                        [--color white|black|random] [--wait] [--socket PATH]\n"
		"                        [--config FILE]\n");
	return 2;
}

static int options(struct online *o, int argc, char **argv, struct config *cfg)
{
	const char *config_path = NULL;
	char err[512];

	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config_path = argv[i + 1];
	config_defaults(cfg);
	if (config_path && config_load(cfg, config_path, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return -1;
	}
	o->cfg = cfg->online;
	o->socket = cfg->control_socket[0] ? cfg->control_socket : CTLCLIENT_DEFAULT_SOCKET;
	for (int i = 0; i < argc; i++) {
		const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;
		int rc = 0;

		if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
			return -1;
		} else if (!strcmp(opt, "--wait")) {
			o->wait = true;
		} else if (!strcmp(opt, "--seek")) {
			o->cfg.start = ONLINE_START_SEEK;
		} else if (!strcmp(opt, "--rated")) {
			o->cfg.rated = true;
		} else if (!strcmp(opt, "--casual")) {
			o->cfg.rated = false;
		} else if (!arg) {
			log_error(LOG_MAIN, "%s needs a value", opt);
			return -1;
		} else {
			i++;
			if (!strcmp(opt, "--accept") || !strcmp(opt, "--challenge")) {
				o->cfg.start =
				    opt[2] == 'a' ? ONLINE_START_ACCEPT : ONLINE_START_CHALLENGE;
				rc = online_config_set(&o->cfg, "friend", arg, err, sizeof(err));
			} else if (!strcmp(opt, "--time-control")) {
				rc = online_config_set(&o->cfg, "time-control", arg, err,
						       sizeof(err));
			} else if (!strcmp(opt, "--color")) {
				rc = online_config_set(&o->cfg, "color", arg, err, sizeof(err));
			} else if (!strcmp(opt, "--socket")) {
				o->socket = arg;
			} else if (strcmp(opt, "--config")) {
				log_error(LOG_MAIN, "unknown option %s", opt);
				return -1;
			}
			if (rc) {
				log_error(LOG_MAIN, "%s: %s", opt, err);
				return -1;
			}
		}
	}
	if (o->cfg.start != ONLINE_START_SEEK && !o->cfg.friend_name[0]) {
		log_error(LOG_MAIN, "accepting or challenging needs the friend's name (--accept "
				    "FRIEND, --challenge FRIEND, or [online] friend)");
		return -1;
	}
	sscanf(o->cfg.time_control, "%d+%d", &o->seconds, &o->increment);
	o->token_file = o->cfg.token_file;
	return 0;
}

/* The server's address: https, or http to this machine alone (the token would cross the
 * network in clear). */
static int server_ok(const char *server)
{
	static const char *const local[] = {"http://localhost", "http://127.0.0.1", "http://[::1]"};

	if (!strncmp(server, "https://", 8))
		return 0;
	for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++) {
		size_t n = strlen(local[i]);

		if (!strncmp(server, local[i], n) &&
		    (server[n] == ':' || server[n] == '/' || !server[n]))
			return 0;
	}
	log_error(LOG_MAIN,
		  "[online] server %s: the token goes to a server over https only (http to this "
		  "machine alone, for tests)",
		  server);
	return -1;
}

/* The token from its file, which only its owner may read. */
static int read_token(struct online *o)
{
	struct stat st;
	FILE *f;
	size_t n;

	if (!o->token_file[0]) {
		log_error(LOG_MAIN, "[online] token-file is not set: the personal API token (scope "
				    "board:play) goes in a file only this user may read");
		return -1;
	}
	f = fopen(o->token_file, "r");
	if (!f || fstat(fileno(f), &st)) {
		log_error(LOG_MAIN, "the token file %s cannot be read: %s", o->token_file,
			  strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (st.st_mode & 077)) {
		log_error(LOG_MAIN,
			  "the token file %s may be read by others (mode %04o): only its owner may "
			  "(chmod 600 %s)",
			  o->token_file, (unsigned)(st.st_mode & 07777), o->token_file);
		fclose(f);
		return -1;
	}
	if (!fgets(o->token, sizeof(o->token), f))
		o->token[0] = '\0';
	fclose(f);
	n = strcspn(o->token, "\r\n");
	o->token[n] = '\0';
	if (!n ||
	    strspn(o->token, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
			     ".") != n) {
		log_error(LOG_MAIN,
			  "the token file %s holds no token (one line: letters, digits, "
			  "- and _)",
			  o->token_file);
		memset(o->token, 0, sizeof(o->token));
		return -1;
	}
	return 0;
}

static int connect_daemon(struct online *o)
{
	char err[256];
	int rc;

	o->ev = ctlclient_connect(o->socket, err, sizeof(err));
	o->req = o->ev ? ctlclient_connect(o->socket, err, sizeof(err)) : NULL;
	if (!o->req) {
		log_error(LOG_MAIN, "%s", err);
		return -1;
	}
	if (ev_request(o, "watch")) {
		log_error(LOG_MAIN, "the daemon refuses watch: %s", o->reply);
		return -1;
	}
	rc = ev_request(o, o->wait ? "online wait" : "online on");
	if (rc) {
		char why[256];

		if (rc < 0 || json_get(o->reply, "error", why, sizeof(why)) < 0)
			snprintf(why, sizeof(why), "no answer");
		log_error(LOG_MAIN, "the daemon refuses online play: %s", why);
		return -1;
	}
	return 0;
}

/* The timers due: streams started again, a start, the claim said, the seek's end. */
static void timers(struct online *o)
{
	int64_t now = now_ms();

	if (o->account_at && now >= o->account_at && may_request(o))
		ask_account(o);
	if (o->events_at && now >= o->events_at && may_request(o))
		start_events(o);
	if (o->game_at && now >= o->game_at && o->phase == PHASE_PLAYING && may_request(o))
		start_game_stream(o);
	if (o->start_at && now >= o->start_at) {
		o->start_at = 0;
		if (o->phase == PHASE_IDLE ||
		    (o->phase == PHASE_STARTING && !o->seek && !o->challenge))
			start(o);
	}
	if (o->no_game_at && now >= o->no_game_at) {
		o->no_game_at = 0;
		if (o->phase == PHASE_STARTING) {
			/* The seek or the challenge closed and no game came. */
			news(o, o->cfg.start == ONLINE_START_SEEK ? ONLINE_NEWS_NO_OPPONENT
								  : ONLINE_NEWS_CHALLENGE_DECLINED);
			o->phase = PHASE_DONE;
			o->status = 1;
		}
	}
	if (o->seek && o->seek_until && now >= o->seek_until) {
		lichess_cancel(o->l, o->seek);
		o->seek = NULL;
		news(o, ONLINE_NEWS_NO_OPPONENT);
		o->phase = PHASE_DONE;
		o->status = 1;
	}
	if (o->send_at && now >= o->send_at) {
		o->send_at = 0;
		try_send(o);
	}
	if (o->gone_claim_at && now >= o->gone_claim_at) {
		o->gone_claim_at = 0;
		tell_daemon(o, "online gone 0");
	}
}

static int64_t next_timer(const struct online *o)
{
	int64_t t[] = {o->account_at,	 o->events_at,	o->game_at,
		       o->start_at,	 o->no_game_at, o->seek ? o->seek_until : 0,
		       o->gone_claim_at, o->send_at};
	int64_t best = now_ms() + 500;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i] && t[i] < best)
			best = t[i];
	return best;
}

/* A game over: out, or (--wait) waiting for the menu again. */
static bool after_game(struct online *o)
{
	if (!o->wait)
		return true;
	if (o->game)
		lichess_cancel(o->l, o->game);
	o->game = NULL;
	o->game_id[0] = '\0';
	o->phase = PHASE_WAITING;
	o->status = 0;
	if (ev_request(o, "online wait"))
		return true;
	tell("waiting for the button menu's online entry");
	return false;
}

static int run(struct online *o)
{
	ask_account(o);
	while (!stopping) {
		int64_t wait = next_timer(o) - now_ms();
		bool closed = false;
		const char *line;
		int rc;

		while ((line = next_event(o, &closed)))
			handle_event(o, line);
		if (closed) {
			log_error(LOG_MAIN, "the daemon closed the connection");
			o->daemon_gone = true;
			return 1;
		}
		if (o->phase == PHASE_DONE && after_game(o))
			break;
		rc = lichess_run(o->l, ctlclient_fd(o->ev), wait < 0 ? 0 : (int)wait);
		if (rc < 0) {
			log_error(LOG_MAIN, "libcurl failed");
			return 1;
		}
		timers(o);
	}
	return o->status;
}

int cli_online(int argc, char **argv)
{
	struct online *o = calloc(1, sizeof(*o));
	struct config *cfg = malloc(sizeof(*cfg));
	struct lichess_config lc = {0};
	char err[256];
	int status = 1;

	if (!o || !cfg) {
		free(o);
		free(cfg);
		return 1;
	}
	o->backoff_ms = 1000;
	if (options(o, argc, argv, cfg)) {
		free(o);
		free(cfg);
		return usage();
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	trace_open_from_env();
	o->msg = malloc(sizeof(*o->msg));
	if (!o->msg || server_ok(o->cfg.server) || read_token(o) || connect_daemon(o))
		goto out;
	lc.server = o->cfg.server;
	lc.token = o->token;
	lc.ca_file = o->cfg.ca_file[0] ? o->cfg.ca_file : NULL;
	lc.idle_ms = IDLE_MS;
	o->l = lichess_new(&lc, err, sizeof(err));
	memset(o->token, 0, sizeof(o->token));
	if (!o->l) {
		log_error(LOG_MAIN, "%s", err);
		goto out;
	}
	status = run(o);
	if (!o->daemon_gone)
		ev_request(o, "online off");
	tell("stopped");
out:
	memset(o->token, 0, sizeof(o->token));
	lichess_free(o->l);
	ctlclient_close(o->ev);
	ctlclient_close(o->req);
	free(o->msg);
	free(cfg);
	free(o);
	trace_close();
	return status;
}
