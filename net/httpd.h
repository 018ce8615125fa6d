/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The HTTP side of `annabella web` and `annabella relay` (docs/web.md "The web page for the
 * assistant and the arbiter"; docs/broadcast.md "Live broadcast and the room relay"), on
 * libmicrohttpd: a listening socket on ADDR:PORT served by one event loop (epoll; a connection
 * costs memory, not a thread), and a handler that sees each request once with its whole body.
 * Nothing here parses HTTP.
 *
 * What one client can hold is bounded (README "Security model"): at most
 * HTTPD_PER_ADDRESS connections per address (an IPv6 address's /64, as the PIN budget
 * counts them; more are closed at once), HTTPD_REQUEST_MS for a whole request (headers and
 * body) from the moment the connection waits for it, and HTTPD_IDLE_S without progress for
 * a response being sent.  An event stream waits for its data suspended; a handler whose
 * answer takes time (the daemon's) suspends its request the same way and is called again
 * when another thread resumes it.
 */
#ifndef ANNABELLA_HTTPD_H
#define ANNABELLA_HTTPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <microhttpd.h>

#define HTTPD_BODY_MAX	  8192 /* a POST body; larger ones get 413 */
#define HTTPD_CONNECTIONS 4000 /* in all, as the descriptors allow */
#define HTTPD_PER_ADDRESS 32
#define HTTPD_REQUEST_MS  10000
#define HTTPD_IDLE_S	  30

struct httpd;

struct httpd_options {
	const char *listen; /* ADDR:PORT ("127.0.0.1:8080", "[::]:8080", ":8080"; port 0: a free
			     * one) */
	/* TLS: the certificate and its key, PEM (NULL: plain HTTP). */
	const char *tls_cert, *tls_key;
	/*
	 * The page's own origin only (the web page, not the relay): a Host that names neither
	 * an IP address, localhost, this machine (its host name, and NAME.local) nor one of
	 * hosts (space-separated names) gets 421; a request other than GET and HEAD whose
	 * Origin is not this page's gets 403 (DNS rebinding, cross-site requests).
	 */
	bool same_origin;
	const char *hosts;
};

struct httpd_request {
	struct MHD_Connection *conn;
	const char *method, *url;
	const char *body; /* NUL-terminated */
	size_t body_len;
	char client[64]; /* the peer's address, for logs */
	char key[64];	 /* its key for budgets: pin_guard_address_key() of client */
	/* What the handler left with httpd_suspend(), when it is called again (else NULL). */
	void *pending;
	struct httpd *server;	     /* (httpd's own) */
	struct httpd_upload *upload; /* (httpd's own) */
};

/* Returns an MHD_Result from one of the httpd_respond* calls, or httpd_suspend(). */
typedef enum MHD_Result (*httpd_handler)(void *user, const struct httpd_request *req);

/* Starts serving; NULL with the reason in err. */
struct httpd *httpd_start(const struct httpd_options *o, httpd_handler handler, void *user,
			  char *err, size_t errsize);
/* The address as bound, "ADDR:PORT" (the port picked when 0 was asked). */
const char *httpd_address(const struct httpd *h);
/* Stops serving: every request suspended must have been resumed before. */
void httpd_stop(struct httpd *h);

/*
 * The request waits (no deadline runs for it) until httpd_resume() from any thread; the
 * handler is then called again with req->pending == pending, and must answer.  done frees
 * pending when the request is over, whatever became of it.
 */
enum MHD_Result httpd_suspend(const struct httpd_request *req, void *pending, void (*done)(void *));
void httpd_resume(struct MHD_Connection *conn);

/* Responses; the data is copied.  Each carries the headers every answer of ours has. */
enum MHD_Result httpd_respond(const struct httpd_request *req, unsigned status,
			      const char *content_type, const void *data, size_t len);
enum MHD_Result httpd_respond_text(const struct httpd_request *req, unsigned status,
				   const char *content_type, const char *text);
/* The same with one more header. */
enum MHD_Result httpd_respond_with(const struct httpd_request *req, unsigned status,
				   const char *content_type, const char *text, const char *header,
				   const char *value);
/* The same with headers of the caller's (a Cache-Control among them replaces ours);
 * content_type NULL for none (a 304 or 204 has no body). */
struct httpd_header {
	const char *name, *value;
};
enum MHD_Result httpd_respond_headers(const struct httpd_request *req, unsigned status,
				      const char *content_type, const void *data, size_t len,
				      const struct httpd_header *headers, size_t count);
/* A file of the page (static for the life of the process): gzipped when the client asks
 * (compressed once), with Vary: Accept-Encoding. */
enum MHD_Result httpd_respond_static(const struct httpd_request *req, const char *content_type,
				     const void *data, size_t len);
/* data gzipped (malloc'd, its length in out_len), or NULL. */
char *httpd_gzip(const char *data, size_t len, size_t *out_len);
/* Whether an Accept-Encoding (NULL: none) asks for gzip (and not at q=0). */
bool httpd_wants_gzip(const char *accept);
/* A streamed response (server-sent events): reader as libmicrohttpd calls it.  A reader with
 * nothing to send calls httpd_stream_wait() and returns 0; httpd_resume() wakes it. */
enum MHD_Result httpd_respond_stream(const struct httpd_request *req, const char *content_type,
				     MHD_ContentReaderCallback reader, void *cls,
				     MHD_ContentReaderFreeCallback done);
void httpd_stream_wait(struct MHD_Connection *conn);

/* A request header's value, or NULL. */
const char *httpd_header(const struct httpd_request *req, const char *name);
/* An argument of the request's query string ("?lang=nl"), or NULL. */
const char *httpd_query(const struct httpd_request *req, const char *name);

#endif
