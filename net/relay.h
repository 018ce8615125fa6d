/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The room relay's parts (`annabella relay`, net/relay.c): the room as the broker's messages
 * left it, shared by the intake and the loop (relay.c), what it serves over HTTP
 * (relay_http.c), the round's boards from --boards and the tags CSV (relay_round.c) and
 * `relay tags` (relay_tags.c).  Inside net/ only.
 */
#ifndef ANNABELLA_RELAY_H
#define ANNABELLA_RELAY_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "net/httpd.h"
#include "net/mqttlink.h"
#include "net/room.h"

/* What a board published, topic by topic, over the time a view may look back. */
struct board {
	char name[ROOM_NAME_MAX];
	struct room_history pgn, status, link;
};

/* round.pgn, or /api/boards, as last built for one view: rebuilt only when what it was
 * built from changed. */
struct round_cache {
	uint64_t key; /* the versions it was built from */
	bool built;
	char *body, *gz;
	size_t len, gz_len;
	char etag[24];
	int64_t modified_ms; /* round.pgn: the last change (wall clock) */
	int64_t built_ms;    /* /api/boards: when (monotonic), its times being as of then */
};

#define IGNORED_SAID_MAX 64

struct relay {
	pthread_mutex_t lock; /* everything here: the broker's messages and the HTTP threads */
	int count;
	struct board *boards; /* ROOM_BOARDS_MAX */
	bool said_full;
	uint64_t seq;
	int64_t delay_ms;   /* the public view's */
	int64_t started_ms; /* wall clock */
	bool broker_up;
	int64_t broker_since_ms;	   /* wall clock of the broker's last change of state */
	struct round_cache round[2];	   /* the public view, the arbiter's */
	struct round_cache boards_json[2]; /* the same for /api/boards */
	/* The round's boards (round_count 0: every board that publishes), and the other
	 * names seen and logged. */
	char (*round_boards)[ROOM_NAME_MAX];
	int round_count;
	char ignored[IGNORED_SAID_MAX][ROOM_NAME_MAX];
	int ignored_count;
	bool ignored_more;
};

/* One listening address: the public view (delayed) or the arbiter's (as it happens). */
struct site {
	struct relay *r;
	bool arbiter;
};

struct relay_options {
	const char *config, *mqtt, *user, *password_file, *tls_ca, *listen, *arbiter_listen, *delay;
	const char *boards, *round;
	int delay_s;
};

/* The wall clock in milliseconds. */
int64_t relay_wall_ms(void);
/* Whether a signal asked the relay to stop. */
bool relay_stopping(void);
/* The options into o, the broker's into mo (the config file's [relay] under them): 0, or 2
 * on bad usage (said). */
int relay_parse_options(int argc, char **argv, bool tags, struct relay_options *o,
			struct mqtt_options *mo, struct config *cfg);

/* relay_http.c: one request to a site (GET and HEAD only). */
enum MHD_Result relay_handle(void *user, const struct httpd_request *req);

/* relay_round.c: a round's tags CSV read whole, NUL-terminated: 0, or -1 (logged). */
int relay_read_csv(const char *path, char **text, size_t *len);
/* The boards of --boards and of --round's rows into r (none given: every board is): 0, or
 * -1 (logged). */
int relay_round_boards(struct relay *r, const struct relay_options *o);

/* relay_tags.c: `annabella relay tags ROUND.csv ...`: the exit status. */
int relay_tags(int argc, char **argv);

#endif
