/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The HTTP side of `annabella web` and `annabella relay` (docs/web.md "The web page for the
 * assistant and the arbiter"; docs/broadcast.md "Live broadcast and the room relay"), on
 * libmicrohttpd: a listening socket on ADDR:PORT, one thread per connection (a server-sent event
 * stream may wait in its reader), and a handler that sees each request once with its whole body.
 * Nothing here parses HTTP.
 */
#ifndef ANNABELLA_HTTPD_H
#define ANNABELLA_HTTPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <microhttpd.h>

#define HTTPD_BODY_MAX	  8192 /* a POST body; larger ones get 413 */
#define HTTPD_CONNECTIONS 64

struct httpd;

struct httpd_request {
	struct MHD_Connection *conn;
	const char *method, *url;
	const char *body; /* NUL-terminated */
	size_t body_len;
	char client[64]; /* the peer's address, for logs and the PIN's failure count */
};

/* Returns an MHD_Result from one of the httpd_respond* calls. */
typedef enum MHD_Result (*httpd_handler)(void *user, const struct httpd_request *req);

/*
 * Listens on ADDR:PORT ("127.0.0.1:8080", "[::]:8080", ":8080" for every address; port 0
 * picks a free one).  NULL with the reason in err.
 */
struct httpd *httpd_start(const char *listen, httpd_handler handler, void *user, char *err,
			  size_t errsize);
/* The address as bound, "ADDR:PORT" (the port picked when 0 was asked). */
const char *httpd_address(const struct httpd *h);
void httpd_stop(struct httpd *h);

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
/* A streamed response (server-sent events): reader as libmicrohttpd calls it. */
enum MHD_Result httpd_respond_stream(const struct httpd_request *req, const char *content_type,
				     MHD_ContentReaderCallback reader, void *cls,
				     MHD_ContentReaderFreeCallback done);

/* A request header's value, or NULL. */
const char *httpd_header(const struct httpd_request *req, const char *name);

#endif
