/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The web page's parts (`annabella web`, net/web.c): the state its threads share, the thread
 * that follows the daemon (web_daemon.c), the event streams (web_events.c) and the workers
 * that take the page's commands to the daemon (web_workers.c).  Inside net/ only.
 */
#ifndef ANNABELLA_WEB_H
#define ANNABELLA_WEB_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/httpd.h"
#include "net/pingate.h"

#define RING		  512  /* events kept for streams that fall behind or reconnect */
#define KEEPALIVE_MS	  2000 /* an `alive` event on an idle stream */
#define HEARTBEAT_MS	  2000 /* a quiet daemon is asked for its status this often */
#define HEARTBEAT_WAIT_MS 2500 /* and is taken as lost without a reply within this */
#define REQUEST_MS	  5000 /* a reply from the daemon */
#define BACKOFF_FIRST_MS  250
#define BACKOFF_MAX_MS	  5000
/* The daemon gives one user six connections; the page keeps two (watch, requests). */
#define WEB_WORKERS	3
#define WEB_QUEUE	32 /* commands waiting for a worker */
#define WEB_PER_ADDRESS 4  /* of them, from one address (queued or being answered) */
/* Reads without a PIN that the cache does not hold (an older game's export): per address. */
#define WEB_READS_BURST 5
#define WEB_READS_MS	3000
#define WEB_READERS	64
/* Event streams per address: a new one beyond ends the oldest (a page reloaded, or one whose
 * phone went away: a waiting stream cannot tell until it sends). */
#define WEB_STREAMS_PER_ADDRESS 4

/* A command for the daemon, from the request that waits for it to the worker and back. */
struct job {
	struct job *next;
	struct MHD_Connection *conn;
	char line[4097];
	char pin[32], page[17], key[64];
	char lang[3];	 /* the page's language (X-Lang): its piece letters in the moves typed */
	bool arbiter;	 /* its PIN is the arbiter's: it goes first */
	bool ask;	 /* the page does not know the PINs: the daemon's answer goes to the gate */
	unsigned status; /* the answer: HTTP status ... */
	char *body;	 /* ... and JSON (malloc'd) */
	uint64_t retry_ms; /* a 429's or 503's wait */
};

struct reader {
	char key[64];
	double tokens;
	uint64_t at;
};

/* An event stream; while it waits for data it is suspended, in the list web.waiting. */
struct stream {
	struct web *w;
	struct MHD_Connection *conn;
	struct stream *prev, *next;	    /* in web.waiting, while suspended */
	struct stream *all_prev, *all_next; /* in web.all */
	char key[64];			    /* its address (req->key) */
	bool suspended, ended;
	uint64_t next_seq; /* the seq to send next */
	uint64_t sent_at;  /* when it was last sent something */
	char *out;	   /* formatted, not yet sent */
	size_t off, len;
};

struct web;

struct web_worker {
	struct web *w;
	int me;
	pthread_t thread;
	bool started;
};

struct web {
	char socket[108];
	pthread_mutex_t mu;
	/* The ring: event seq is at ring[seq % RING]; seq counts from 1. */
	char *ring[RING];
	uint64_t seq;
	bool stopping;
	/* The cache, refreshed after each batch of events (NULL: not known). */
	char *status, *moves, *pgn, *commands, *export_pgn;
	uint64_t status_at; /* monotonic ms of the status request */
	uint64_t heard_at;  /* monotonic ms of the daemon's last word (an event or a reply) */
	int streams;	    /* event streams open: pages that show the data live */
	struct stream *all, *waiting;
	bool daemon_up;
	/* PINs, and the reads per address the cache cannot answer. */
	struct pin_gate gate;
	struct reader readers[WEB_READERS];
	/* The commands for the daemon. */
	pthread_cond_t jobs_cv;
	struct job *queue;
	int queued;
	struct job *working[WEB_WORKERS];
	struct web_worker workers[WEB_WORKERS];
	bool workers_stop;
};

/*
 * The page's own refusal as JSON: {"ok":false,"error":WORDS} with, where they apply, the
 * reply code of the daemon's table that says the same (the page words it in its language),
 * its arguments, the page's own reason (busy, total, addresses) and the seconds to wait
 * (also as Retry-After).
 */
struct refusal {
	unsigned status;
	const char *error, *code, *reason;
	uint64_t wait_ms; /* 0: none */
};

/* Whether a signal asked the page to stop. */
bool web_stop_requested(void);
/* The page's refusal f as its JSON answer (web.c). */
enum MHD_Result web_refuse(const struct httpd_request *req, const struct refusal *f);
/* A job answered with the refusal f instead of the daemon's reply (web.c). */
void web_job_refused(struct job *j, const struct refusal *f);

/* web_daemon.c: the thread that follows the daemon (arg: the struct web). */
void *web_daemon_thread(void *arg);

/* web_events.c: GET /api/events, and the streams that wait resumed (mu held): all of them
 * (quiet_since UINT64_MAX), or those that have sent nothing since quiet_since. */
enum MHD_Result web_events(struct web *w, const struct httpd_request *req);
void web_wake_streams(struct web *w, uint64_t quiet_since);

/* web_workers.c: the refusal of a full queue or a daemon that refuses the connection, the
 * daemon's interface language ("" before its first status), a worker's thread (arg: its
 * struct web_worker) and a job queued for the workers (or refused). */
extern const struct refusal web_busy;
void web_daemon_lang(struct web *w, char lang[8]);
void *web_worker(void *arg);
enum MHD_Result web_enqueue(struct web *w, const struct httpd_request *req, struct job *j);

#endif
