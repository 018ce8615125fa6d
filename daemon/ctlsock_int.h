/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control socket's inside, shared by its files: ctlsock.c (the clients' queues, the
 * requests through the command table, the PINs, the events for watchers), ctlsock_log.c
 * (control.log: the audit's lines, reads counted per author, a request as the log shows it)
 * and ctlsock_accept.c (the listening socket, who may connect, silent clients closed).
 * Internal to daemon/ctlsock*.c.
 */
#ifndef ANNABELLA_CTLSOCK_INT_H
#define ANNABELLA_CTLSOCK_INT_H

#include "base/pendlog.h"
#include "base/pinguard.h"
#include "daemon/ctlsock.h"

/* A request as control.log shows it: its first 200 bytes, escaped (at most 4 bytes each). */
#define LOGGABLE_MAX (4 * 200 + 4)
/* Reads (the table's rows that only read what anyone may know) are counted per author and
 * written as one line once the first of them is this old (docs/state.md "State directory"). */
#define READS_MS      60000u
#define READS_AUTHORS 16
#define READS_KINDS   8

struct client {
	int fd;
	unsigned gen; /* tells a reused slot from the client a reply was for */
	uid_t uid;
	bool arbiter_user;  /* the peer's user is one of [control] arbiters */
	bool spoke;	    /* it has sent a whole line */
	uint64_t since;	    /* connected at */
	uint64_t line_from; /* the line it is sending was begun at (0: none begun) */
	char user[40];
	char author[GAME_AUTHOR_MAX];
	enum game_role role;
	bool watching;
	bool watch_public; /* `watch public`: public events only */
	bool engine; /* the training process (docs/training.md "Training and study"): `engine on` or
			`engine wait` */
	bool online; /* the online process (docs/online.md "Playing online"): `online on` or `online
			wait` */
	char notation[3]; /* `notation LANG`: its moves' piece letters ("": the interface
			     language's) */
	int auth_failures;
	char in[CONTROL_LINE_MAX + 2];
	size_t in_len;
	bool discarding; /* the current line is too long: skipped to its end */
	struct strbuf out;
	size_t out_sent;
};

/* An author's reads not yet written to control.log: how many of each row, how many refused,
 * since when (0: a free place). */
struct reads {
	char author[GAME_AUTHOR_MAX];
	enum game_role role;
	uint64_t since;
	const struct control_command *kind[READS_KINDS];
	unsigned long count[READS_KINDS], refused;
};

struct ctlsock {
	struct loop *loop;
	struct referee *referee;
	struct control_env shell; /* what the daemon adds to every request (ctlsock_attach()) */
	int listen_fd;
	char path[108];
	struct pendlog clog; /* control.log, its lines kept through storage faults */
	int arbiter_count;
	char arbiters[CONFIG_MAX_ARBITERS][32];
	struct pin_secret arbiter_pin, assistant_pin;
	struct client clients[CTLSOCK_MAX_CLIENTS];
	unsigned next_gen;
	int watchers;
	bool script_engine;	/* a board script's `control` lines said `engine on` */
	bool script_online;	/* ... `online on` */
	bool closing;		/* ctlsock_close(): the game is no longer told of clients */
	int spare_fd;		/* /dev/null, given up for a moment to refuse a client at EMFILE */
	bool timeouts;		/* real time: silent and half-line clients are closed */
	struct pin_guard pins;	/* wrong PINs per Unix user (docs/control.md "Control interface") */
	uint64_t refusals_said; /* the last refused client logged, and those since not */
	int refusals_quiet;
	uint64_t log_retry_at; /* control.log's kept lines tried again then (0: not set) */
	struct reads reads[READS_AUTHORS];
};

/* ctlsock_log.c */

/* control.log (and its kept lines tried again, and the reads written when due): opened, its
 * sources on the loop. */
void ctl_log_open(struct ctlsock *c, const struct config *cfg);
/* One line of control.log: MS AUTHOR ROLE COMMAND => ok|error TEXT. */
void ctl_audit(struct ctlsock *c, uint64_t now, const char *author, enum game_role role,
	       const char *line, bool ok, const char *text);
/* A read counted for its author, or the reads of `author` (NULL: all) written. */
void ctl_reads_count(struct ctlsock *c, const char *author, enum game_role role,
		     const struct control_command *row, bool ok, uint64_t now);
void ctl_reads_flush(struct ctlsock *c, const char *author, uint64_t now);
/* The request and its reply as control.log shows them (never a PIN); shown: at least
 * LOGGABLE_MAX bytes. */
void ctl_shown_request(struct control_outcome *out, const char *line, size_t len, char *shown,
		       size_t size);

/* ctlsock.c */

void ctl_drop(struct ctlsock *c, struct client *cl, const char *why);
/* A client's socket readable or writable (the loop's callback). */
void ctl_client_ready(void *user, int fd, short revents, uint64_t now);

/* ctlsock_accept.c */

/* The socket at cfg->control_socket, its clients accepted and timed out through the loop: 0,
 * or -1 (logged) when there is none. */
int ctl_listen(struct ctlsock *c, const struct config *cfg);

#endif
