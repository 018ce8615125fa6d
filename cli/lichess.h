/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lichess's Board API over HTTPS (docs/online.md "Playing online"), for `annabella online`:
 * Debian's libcurl, its multi interface, so the streams (NDJSON, one message a line), the requests
 * and the daemon's socket are waited on together and nothing blocks.  The token goes in the
 * Authorization header alone: never into a URL, a log line or an error text.
 *
 * A transfer is a request (its body handed over when it is done) or a stream (each line
 * handed over as it comes, then its end).  A stream that brings nothing for `idle_ms` (the
 * server sends an empty line every few seconds) is ended as lost.
 */
#ifndef ANNABELLA_LICHESS_H
#define ANNABELLA_LICHESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lichess;
struct lichess_transfer;

struct lichess_config {
	const char *server;  /* base URL, no slash at its end */
	const char *token;   /* the personal API token */
	const char *ca_file; /* the CA that signs the server's certificate, or NULL: the system's */
	int idle_ms;	     /* a stream silent this long is lost */
};

/* How a transfer ended. */
struct lichess_result {
	long status;	   /* the HTTP status; 0: no response came (connection refused, lost) */
	bool sent;	   /* the request may have reached the server (an answer may be lost) */
	const char *body;  /* a request's body ("" for a stream's) */
	const char *error; /* what went wrong, without the token: a transfer's error, or "" */
};

typedef void (*lichess_line_fn)(void *user, struct lichess_transfer *t, const char *line);
typedef void (*lichess_done_fn)(void *user, struct lichess_transfer *t,
				const struct lichess_result *r);

/* NULL with the reason in err. */
struct lichess *lichess_new(const struct lichess_config *cfg, char *err, size_t size);
void lichess_free(struct lichess *l);

/* A GET request of `path` (appended to the server).  NULL when no transfer can start. */
struct lichess_transfer *lichess_get(struct lichess *l, const char *path, lichess_done_fn done,
				     void *user);
/* A GET stream of `path` (appended to the server).  NULL when no transfer can start. */
struct lichess_transfer *lichess_stream(struct lichess *l, const char *path, lichess_line_fn line,
					lichess_done_fn done, void *user);
/* A POST of `path` with a form body (NULL: none); as a stream when `line` is given. */
struct lichess_transfer *lichess_post(struct lichess *l, const char *path, const char *form,
				      lichess_line_fn line, lichess_done_fn done, void *user);
/* Ends a transfer without its done callback. */
void lichess_cancel(struct lichess *l, struct lichess_transfer *t);

/* Waits at most timeout_ms for the transfers and for `fd` (-1: none) to be readable, then
 * moves the transfers on, handing out lines and ends.  1 when fd is readable, 0 when not, -1
 * on an error of libcurl's. */
int lichess_run(struct lichess *l, int fd, int timeout_ms);

/* Whether `word` may go into a path as it is (a game's or challenge's id, a user name, a
 * move): letters, digits, - and _, at most 64 bytes. */
bool lichess_path_word_ok(const char *word);

#endif
