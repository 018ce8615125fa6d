/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella online`'s inside, shared by its files (docs/online.md "Playing online"):
 * cli_online.c (the daemon's connections, what a failed request means, the daemon's events,
 * the options, the token and the run), cli_online_game.c (the game's stream reconciled with
 * the device's game, the player's move sent) and cli_online_start.c (a seek, a challenge or
 * the friend's challenge, the event stream, the account).  Internal to cli/cli_online*.c.
 */
#ifndef ANNABELLA_CLI_ONLINE_INT_H
#define ANNABELLA_CLI_ONLINE_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "chess/chess.h"
#include "cli/lichess.h"
#include "cli/lichess_msg.h"
#include "config/config.h"
#include "game/game.h"
#include "game/online.h"

struct ctlclient;

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

/* The device's game: its plies' moves (UCI) and whether each is complete (its press came:
 * its [%clk] is there). */
struct device_game {
	int plies;
	char uci[GAME_MAX_PLIES][6];
	bool complete[GAME_MAX_PLIES];
};

/* SIGINT or SIGTERM came, or online play cannot go on: the run ends. */
extern volatile sig_atomic_t ol_stopping;

/* cli_online.c */

int64_t ol_now_ms(void);
/* A line for the person who started it (stdout, not a log line). */
void ol_tell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What the server says of its game, given to the daemon; a refusal logged.  0 when it was
 * taken, 1 when it was refused, -1 when the daemon is gone or silent. */
int ol_tell_daemon(struct online *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* News for the player (`online say`). */
void ol_news(struct online *o, enum game_online_news n);
/* A request on the second connection, its reply into o->reply: 0, or -1. */
int ol_ask(struct online *o, const char *request);
/* The device's game (`moves`): its number of plies, or -1. */
int ol_device_moves(struct online *o, struct device_game *d);
/* A request may be made now (not within lichess's minute after a 429). */
bool ol_may_request(const struct online *o);
/* What a failed transfer means for all of online play: the token refused (it ends), or
 * too many requests (a minute's pause).  True when it was one of them. */
bool ol_general_failure(struct online *o, const struct lichess_result *r);
/* The streams are lost: said once, and started again with a growing pause. */
void ol_connection_lost(struct online *o, const char *what, const struct lichess_result *r);
/* When a stream lost is started again: the pause, which grows (not within a 429's minute). */
int64_t ol_next_backoff(struct online *o);

/* cli_online_game.c */

/* The player's move goes out when their press completed it (see there). */
void ol_try_send(struct online *o);
void ol_start_game_stream(struct online *o);
/* A game to play (gameStart): its stream. */
void ol_play(struct online *o, const char *game_id);

/* cli_online_start.c */

/* Seek, challenge, or wait for the friend's challenge, as set. */
void ol_start(struct online *o);
void ol_start_events(struct online *o);
/* Who the token is: the account; then the event stream. */
void ol_ask_account(struct online *o);

#endif
