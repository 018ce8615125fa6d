/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella train --engine PATH [--side white|black] [--level 0..20 | --elo N]
 *                 [--movetime MS] [--hint-movetime MS] [--fen FEN | --wait] [--socket PATH]
 *                 [--config FILE]
 *
 * The training process (docs/training.md "Training and study"): a client of the control socket,
 * like the web page, that plays one side of a casual game with a UCI engine run as its own child
 * (daemon/uci.h); the daemon never runs one.  On its one connection it follows `watch`, says
 * `engine on`, gives the engine's move as a relayed `move` (the daemon announces it, presses the
 * engine's clock once the announcement has been heard, and guides the player square by square
 * to make it on the board) and answers the player's hints (`engine hint`).  A second
 * connection asks `status` and `moves`.
 *
 * It also answers the player's draw offer (`engine draw`, accepted when its evaluation at full
 * strength is level or worse for it) and evaluation (`engine eval`), and with --fen begins the
 * game at a position (`new-game`).  An engine that is missing, dies, hangs past its time or
 * answers what is no legal move is said to the player privately (`engine off REASON`; the
 * daemon stops the clocks); the game stays as it was and train exits 1 with the reason.  It
 * exits 0 when the game it played is over and its result approved, or on SIGINT/SIGTERM; with
 * --wait it waits for the button menu's training entry instead, after a game waits again,
 * and after its engine failed starts it again at the next request.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/trace.h"
#include "base/log.h"
#include "chess/chess.h"
#include "control/json.h"
#include "control/protocol.h"
#include "cli/cli.h"
#include "config/config.h"
#include "net/ctlclient.h"
#include "cli/uci.h"

#define REPLY_TIMEOUT_MS 5000
#define QUEUE_MAX	 512
#define STATUS_MAX	 (256 * 1024)
/* An engine that takes this much longer than its move time (plus a fifth) has hung. */
#define GRACE_MS 1000

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

struct train {
	const char *socket, *engine_path;
	int side;	  /* asked for: the engine's colour, or -1 (the opponent's) */
	int level, elo;	  /* -1, 0: not limited */
	int elo_set;	  /* the rating the engine plays at (elo held to its range) */
	const char *fen;  /* --fen: the game begins there */
	bool engine_lost; /* the engine failed (said to the player): --wait starts it again */
	int movetime, hint_movetime;
	bool wait;	       /* --wait: the button menu asks it to play */
	struct ctlclient *ev;  /* the training process's connection */
	struct ctlclient *req; /* status and moves */
	struct uci_engine *e;
	int plays;	  /* the colour it plays now, or -1 */
	bool saw_game_on; /* it played in a game that was on */
	char game_id[GAME_ID_MAX];
	char *queue[QUEUE_MAX]; /* events that came while waiting for a reply */
	int q_head, q_count;
	char status[STATUS_MAX];
	char moves[STATUS_MAX];
};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	printf("train: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------ the daemon */

static bool is_reply(const char *line)
{
	char v[8];

	return json_get(line, "ok", v, sizeof(v)) >= 0;
}

/* A request on the training process's connection: its reply into reply[size]; events that
 * come first wait in the queue.  0, or -1 when the daemon is gone or silent. */
static int ev_request(struct train *t, const char *request, char *reply, size_t size)
{
	int64_t deadline = now_ms() + REPLY_TIMEOUT_MS;
	const char *line;

	if (ctlclient_send(t->ev, request))
		return -1;
	for (;;) {
		int64_t left = deadline - now_ms();

		if (left <= 0 || ctlclient_read(t->ev, &line, (int)left) <= 0)
			return -1;
		if (is_reply(line)) {
			snprintf(reply, size, "%s", line);
			return 0;
		}
		if (t->q_count < QUEUE_MAX) {
			char *copy = strdup(line);

			if (copy)
				t->queue[(t->q_head + t->q_count++) % QUEUE_MAX] = copy;
		}
	}
}

/* The next event: a queued one, or what arrives within timeout_ms.  1 with *line (malloc'd),
 * 0 on timeout, -1 when the daemon closed the connection. */
static int next_event(struct train *t, char **line, int timeout_ms)
{
	const char *got;
	int rc;

	if (t->q_count) {
		*line = t->queue[t->q_head];
		t->q_head = (t->q_head + 1) % QUEUE_MAX;
		t->q_count--;
		return 1;
	}
	rc = ctlclient_read(t->ev, &got, timeout_ms);
	if (rc < 0 && errno == ETIMEDOUT)
		return 0;
	if (rc <= 0)
		return -1;
	*line = strdup(got);
	return *line ? 1 : -1;
}

/* A request on the second connection, into buf. */
static int ask(struct train *t, const char *request, char *buf, size_t size)
{
	const char *line;

	if (ctlclient_send(t->req, request) || ctlclient_read(t->req, &line, REPLY_TIMEOUT_MS) <= 0)
		return -1;
	snprintf(buf, size, "%s", line);
	return 0;
}

static void field(const char *json, const char *key, char *buf, size_t size)
{
	if (json_get(json, key, buf, size) < 0)
		buf[0] = '\0';
}

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
		if (ev_request(t, line, reply, sizeof(reply)) == 0 && !ctlclient_reply_ok(reply))
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

	field(t->status, "start_fen", p->fen, sizeof(p->fen));
	if (chess_fen_parse(&p->pos, p->fen, &cerr)) {
		snprintf(err, size, "the game's start position is no FEN: %s", p->fen);
		return -1;
	}
	p->startpos = !strcmp(p->fen, CHESS_FEN_START);
	p->plies = 0;
	p->moves[0] = '\0';
	if (ask(t, "moves", t->moves, sizeof(t->moves)) || !ctlclient_reply_ok(t->moves)) {
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

/* ------------------------------------------------------------------ playing */

/* engine on SIDE NAME: the daemon takes it as the opponent's player. */
static int engine_on(struct train *t, int side, int *status)
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
		say("Elo %d asked: the engine plays at %d, the nearest it can", t->elo, t->elo_set);
	if (ev_request(t, line, reply, sizeof(reply))) {
		log_error(LOG_MAIN, "the daemon did not answer engine on");
		*status = 1;
		return -1;
	}
	if (!ctlclient_reply_ok(reply)) {
		field(reply, "error", msg, sizeof(msg));
		log_error(LOG_MAIN, "the daemon refuses: %s", msg);
		*status = 1;
		return -1;
	}
	if (ask(t, "status", t->status, sizeof(t->status))) {
		*status = 1;
		return -1;
	}
	field(t->status, "engine", msg, sizeof(msg));
	field(msg, "plays", err, sizeof(err));
	t->plays = game_color_parse(err);
	field(t->status, "game", t->game_id, sizeof(t->game_id));
	t->saw_game_on = false;
	if (uci_new_game(t->e, err, sizeof(err))) {
		*status = engine_failed(t, err, uci_failure_name(uci_last_failure(t->e)));
		return -1;
	}
	/* The scoresheet names the engine on its side. */
	snprintf(line, sizeof(line), "tags %s \"%s%s\"", t->plays ? "Black" : "White",
		 uci_name(t->e), level);
	if (ev_request(t, line, reply, sizeof(reply)) == 0 && !ctlclient_reply_ok(reply))
		log_error(LOG_MAIN, "tags: %s", reply);
	say("%s plays %s in game %s", uci_name(t->e), game_color_name(t->plays), t->game_id);
	return 0;
}

/* The milliseconds the engine thinks: its move time, less when its clock runs low. */
static int movetime_for(const struct train *t)
{
	char clock[2048], v[32];
	long long left;

	field(t->status, "clock", clock, sizeof(clock));
	if (!clock[0] || !strcmp(clock, "null"))
		return t->movetime;
	field(clock, t->plays ? "black_ms" : "white_ms", v, sizeof(v));
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

	field(t->status, "to_move", v, sizeof(v));
	if (game_color_parse(v) != t->plays)
		return false;
	field(t->status, "clock", v, sizeof(v));
	if (!v[0] || !strcmp(v, "null"))
		return true;
	field(v, "state", state, sizeof(state));
	field(v, "running", running, sizeof(running));
	return !strcmp(state, "running") && game_color_parse(running) == t->plays;
}

/* What the game is now, and the engine's move if it is its turn.  0 to go on, 1 when the
 * game it played is over for good (its result approved, or another game began), or -1 with
 * the exit status in *status. */
static int play(struct train *t, int *status)
{
	char result[1024], state[32], id[GAME_ID_MAX], v[256], flows[4096];
	char reply[1024], line[64], move[UCI_MOVE_MAX], msg[512];
	struct position *p;

	if (ask(t, "status", t->status, sizeof(t->status)) || !ctlclient_reply_ok(t->status)) {
		log_error(LOG_MAIN, "the daemon gives no status");
		*status = 1;
		return -1;
	}
	field(t->status, "game", id, sizeof(id));
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
	field(t->status, "result", result, sizeof(result));
	field(result, "state", state, sizeof(state));
	if (!strcmp(state, "approved"))
		return t->saw_game_on ? 1 : 0;
	if (strcmp(state, "on"))
		return 0; /* over, its result waiting: a takeback may bring it back */
	field(t->status, "review", v, sizeof(v));
	if (v[0] && strcmp(v, "null"))
		return 0; /* a review has the board */
	t->saw_game_on = true;
	/* A new game's position being set up on the board (--fen, the review's "play on from
	 * here"): the engine moves once the board shows it. */
	field(t->status, "flows", flows, sizeof(flows));
	field(flows, "setup", v, sizeof(v));
	if (v[0] && strcmp(v, "null"))
		return 0;
	if (!engines_move(t))
		return 0;
	p = malloc(sizeof(*p));
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
	{
		int64_t t0 = now_ms();
		int ms = movetime_for(t);

		if (think(t, p, ms, move, status)) {
			free(p);
			return -1;
		}
		snprintf(line, sizeof(line), "move %s", move);
		if (ev_request(t, line, reply, sizeof(reply))) {
			log_error(LOG_MAIN, "the daemon did not answer the move");
			free(p);
			*status = 1;
			return -1;
		}
		if (!ctlclient_reply_ok(reply)) {
			/* The game changed meanwhile (a takeback, a review): looked at again. */
			field(reply, "error", msg, sizeof(msg));
			say("the move %s was not taken: %s", move, msg);
		} else {
			field(reply, "text", msg, sizeof(msg));
			say("%s (%lld ms)", msg, (long long)(now_ms() - t0));
		}
	}
	free(p);
	return 0;
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
static int answer(struct train *t, const char *event, const char *kind, int *status)
{
	char v[32], reply[1024], line[96], move[UCI_MOVE_MAX], err[512];
	struct position *p;
	struct uci_score score = {0};
	bool scored;
	int ply;

	field(event, "ply", v, sizeof(v));
	ply = atoi(v);
	if (ask(t, "status", t->status, sizeof(t->status)))
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
		say("%s for ply %d: the engine gave no score", kind, ply);
		return 0;
	} else if (score.mate) {
		snprintf(line, sizeof(line), "engine eval %d mate %d", ply, score.mate);
	} else {
		snprintf(line, sizeof(line), "engine eval %d cp %d", ply, score.cp);
	}
	if (ev_request(t, line, reply, sizeof(reply))) {
		*status = 1;
		return -1;
	}
	field(reply, ctlclient_reply_ok(reply) ? "text" : "error", err, sizeof(err));
	say("%s for ply %d: %s", kind, ply, err);
	return 0;
}

/* ------------------------------------------------------------------ the run */

void cli_train_usage(FILE *f)
{
	fprintf(f,
		"usage: annabella train --engine PATH [--side white|black] "
		"[--level 0..20 | --elo N]\n"
		"                       [--movetime MS] [--hint-movetime MS] [--fen FEN | --wait] "
		"[--socket PATH] [--config FILE]\n");
}

static int usage(void)
{
	cli_train_usage(stderr);
	return 2;
}

static int number(const char *opt, const char *text, long min, long max, int *out)
{
	char *end;
	long v = strtol(text, &end, 10);

	if (!*text || *end || v < min || v > max) {
		log_error(LOG_MAIN, "%s takes %ld..%ld, not '%s'", opt, min, max, text);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int options(struct train *t, int argc, char **argv, struct config *cfg)
{
	const char *config_path = NULL;
	bool level_given = false, elo_given = false, movetime_given = false;

	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config_path = argv[i + 1];
	config_defaults(cfg);
	if (config_path) {
		char err[512];

		if (config_load(cfg, config_path, err, sizeof(err))) {
			log_error(LOG_MAIN, "%s", err);
			return -1;
		}
	}
	t->socket = cfg->control_socket[0] ? cfg->control_socket : CTLCLIENT_DEFAULT_SOCKET;
	t->engine_path = cfg->train_engine[0] ? cfg->train_engine : NULL;
	t->level = cfg->train_level;
	t->elo = cfg->train_elo;
	t->movetime = cfg->train_movetime_ms;
	t->hint_movetime = 1000;
	t->side = -1;
	for (int i = 0; i < argc; i++) {
		const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--wait")) {
			t->wait = true;
			continue;
		}
		if (!arg)
			return -1;
		i++;
		if (!strcmp(opt, "--engine")) {
			t->engine_path = arg;
		} else if (!strcmp(opt, "--side")) {
			t->side = game_color_parse(arg);
			if (t->side < 0) {
				log_error(LOG_MAIN, "--side white or black");
				return -1;
			}
		} else if (!strcmp(opt, "--level")) {
			if (number(opt, arg, 0, 20, &t->level))
				return -1;
			level_given = true;
		} else if (!strcmp(opt, "--elo")) {
			if (number(opt, arg, 100, 4000, &t->elo))
				return -1;
			elo_given = true;
		} else if (!strcmp(opt, "--movetime")) {
			if (number(opt, arg, 10, 600000, &t->movetime))
				return -1;
			movetime_given = true;
		} else if (!strcmp(opt, "--hint-movetime")) {
			if (number(opt, arg, 10, 600000, &t->hint_movetime))
				return -1;
		} else if (!strcmp(opt, "--socket")) {
			t->socket = arg;
		} else if (!strcmp(opt, "--fen")) {
			t->fen = arg;
		} else if (!strcmp(opt, "--config")) {
			/* read above */
		} else {
			log_error(LOG_MAIN, "unknown option %s", opt);
			return -1;
		}
	}
	(void)movetime_given;
	if (level_given && elo_given) {
		log_error(LOG_MAIN, "--level or --elo, not both");
		return -1;
	}
	if (level_given)
		t->elo = 0;
	if (elo_given)
		t->level = -1;
	if (!t->engine_path) {
		log_error(LOG_MAIN, "--engine PATH (or [training] engine) is needed");
		return -1;
	}
	if (t->fen && t->wait) {
		log_error(LOG_MAIN, "--fen begins one game: not with --wait");
		return -1;
	}
	return 0;
}

/* One connection watching: the training process's. */
static int connect_daemon(struct train *t)
{
	char err[256], reply[512];

	t->ev = ctlclient_connect(t->socket, err, sizeof(err));
	t->req = t->ev ? ctlclient_connect(t->socket, err, sizeof(err)) : NULL;
	if (!t->req) {
		log_error(LOG_MAIN, "%s", err);
		return -1;
	}
	if (ev_request(t, "watch", reply, sizeof(reply)) || !ctlclient_reply_ok(reply)) {
		log_error(LOG_MAIN, "the daemon refuses watch: %s", reply);
		return -1;
	}
	return 0;
}

/* The events until the game it plays is over; 0 at its end, else the exit status. */
static int follow(struct train *t)
{
	int status = 0, rc;

	if ((rc = play(t, &status)) != 0)
		return rc < 0 ? status : 0;
	while (!stopping) {
		char *line = NULL, event[32];
		bool look = false;

		rc = next_event(t, &line, 500);
		if (rc < 0) {
			log_error(LOG_MAIN, "the daemon closed the connection");
			return 1;
		}
		/* Every event of a burst first, then one look at the game. */
		while (rc > 0) {
			field(line, "event", event, sizeof(event));
			if (!strcmp(event, "press"))
				trace_at(0, "train-press", "%s", event);
			if (!strcmp(event, "hint-request") || !strcmp(event, "draw-request") ||
			    !strcmp(event, "eval-request")) {
				if (answer(t, line, event, &status)) {
					free(line);
					return status ? status : 1;
				}
			} else if (strcmp(event, "say")) {
				look = true;
			}
			if (!strcmp(event, "result")) {
				char res[16], reason[128];

				field(line, "result", res, sizeof(res));
				field(line, "reason", reason, sizeof(reason));
				say("game over: %s (%s)", res, reason);
			}
			free(line);
			line = NULL;
			rc = next_event(t, &line, 0);
			if (rc < 0) {
				log_error(LOG_MAIN, "the daemon closed the connection");
				return 1;
			}
		}
		if (look && (rc = play(t, &status)) != 0)
			return rc < 0 ? status : 0;
	}
	return 0;
}

/* The engine started at its strength: 0, or -1 with the exit status (the failure said). */
static int start_engine(struct train *t, int *status)
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

/* --fen: the game the engine plays begins there (new-game; its board guided). */
static int begin_at(struct train *t)
{
	char line[CONTROL_LINE_MAX], reply[1024], msg[512];

	snprintf(line, sizeof(line), "new-game %s", t->fen);
	if (ev_request(t, line, reply, sizeof(reply))) {
		log_error(LOG_MAIN, "the daemon did not answer new-game");
		return -1;
	}
	field(reply, ctlclient_reply_ok(reply) ? "text" : "error", msg, sizeof(msg));
	if (!ctlclient_reply_ok(reply)) {
		log_error(LOG_MAIN, "the daemon refuses the position: %s", msg);
		return -1;
	}
	say("%s", msg);
	return 0;
}

/* --wait: the button menu's training entry asks it to play. */
static int wait_for_request(struct train *t, int *side)
{
	char reply[512];

	if (ev_request(t, "engine wait", reply, sizeof(reply))) {
		log_error(LOG_MAIN, "the daemon did not answer engine wait");
		return -1;
	}
	if (!ctlclient_reply_ok(reply)) {
		char msg[512];

		field(reply, "error", msg, sizeof(msg));
		log_error(LOG_MAIN, "the daemon refuses: %s", msg[0] ? msg : reply);
		return -1;
	}
	say("waiting for the button menu's training entry");
	while (!stopping) {
		char *line = NULL, event[32], v[16];
		int rc = next_event(t, &line, 500);

		if (rc < 0) {
			log_error(LOG_MAIN, "the daemon closed the connection");
			return -1;
		}
		if (rc == 0)
			continue;
		field(line, "event", event, sizeof(event));
		field(line, "side", v, sizeof(v));
		free(line);
		if (!strcmp(event, "train-request")) {
			*side = game_color_parse(v);
			return 0;
		}
	}
	return -1;
}

int cli_train(int argc, char **argv)
{
	struct train *t = calloc(1, sizeof(*t));
	struct config cfg;
	char reply[512];
	int status = 0;

	if (!t)
		return 1;
	t->plays = -1;
	if (options(t, argc, argv, &cfg)) {
		free(t);
		return usage();
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	trace_open_from_env();
	if (connect_daemon(t)) {
		status = 1;
		goto out;
	}
	if (t->fen && begin_at(t)) {
		status = 1;
		goto out;
	}
	do {
		int side = t->side;

		if (t->wait && wait_for_request(t, &side)) {
			status = stopping ? 0 : 1;
			break;
		}
		/* Started when it is wanted, and again after it failed (the player heard it). */
		if (!t->e && start_engine(t, &status))
			goto lost;
		if (engine_on(t, side, &status))
			goto lost;
		status = follow(t);
		if (!status && !stopping)
			say("the game is over");
	lost:
		if (!t->engine_lost || !t->wait)
			break;
		/* --wait: the engine is started again for the menu's next request. */
		say("the engine failed; waiting again for the button menu");
		uci_stop(t->e);
		t->e = NULL;
		t->engine_lost = false;
		status = 0;
	} while (t->wait && !stopping);
	if (status == 0 && t->ev && ev_request(t, "engine off", reply, sizeof(reply)) == 0)
		say(stopping ? "stopped by a signal: the game goes on without the engine"
			     : "stopped");
out:
	uci_stop(t->e);
	ctlclient_close(t->ev);
	ctlclient_close(t->req);
	while (t->q_count) {
		free(t->queue[t->q_head]);
		t->q_head = (t->q_head + 1) % QUEUE_MAX;
		t->q_count--;
	}
	free(t);
	trace_close();
	return status;
}
