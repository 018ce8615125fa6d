/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/httpd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <pthread.h>
#include <unistd.h>
#include <zlib.h>

struct httpd {
	struct MHD_Daemon *mhd;
	int fd;
	httpd_handler handler;
	void *user;
	char address[80];
};

/* The body of one request as it arrives. */
struct upload {
	size_t len;
	bool too_large;
	char body[HTTPD_BODY_MAX + 1];
};

static const char *const common_headers[][2] = {
    {"X-Content-Type-Options", "nosniff"},
    {"Referrer-Policy", "no-referrer"},
    {"X-Frame-Options", "DENY"},
    {"Content-Security-Policy",
     "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     "connect-src 'self'; frame-ancestors 'none'; form-action 'self'"},
};

static enum MHD_Result queue(const struct httpd_request *req, unsigned status,
			     struct MHD_Response *r, const char *content_type)
{
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	/* A 304 carries no content to protect: a poll of an unchanged round stays small. */
	for (size_t i = 0; status != MHD_HTTP_NOT_MODIFIED &&
			   i < sizeof(common_headers) / sizeof(common_headers[0]);
	     i++)
		MHD_add_response_header(r, common_headers[i][0], common_headers[i][1]);
	if (content_type)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	if (MHD_get_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL)) {
		/* the caller's */
	} else if (!strncmp(req->url, "/api/", 5) ||
		   (content_type && strstr(content_type, "pgn"))) {
		MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	} else {
		MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
	}
	ret = MHD_queue_response(req->conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

enum MHD_Result httpd_respond(const struct httpd_request *req, unsigned status,
			      const char *content_type, const void *data, size_t len)
{
	return queue(
	    req, status,
	    MHD_create_response_from_buffer(len, (void *)(uintptr_t)data, MHD_RESPMEM_MUST_COPY),
	    content_type);
}

enum MHD_Result httpd_respond_text(const struct httpd_request *req, unsigned status,
				   const char *content_type, const char *text)
{
	return httpd_respond(req, status, content_type, text, strlen(text));
}

enum MHD_Result httpd_respond_with(const struct httpd_request *req, unsigned status,
				   const char *content_type, const char *text, const char *header,
				   const char *value)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
	    strlen(text), (void *)(uintptr_t)text, MHD_RESPMEM_MUST_COPY);

	if (r)
		MHD_add_response_header(r, header, value);
	return queue(req, status, r, content_type);
}

enum MHD_Result httpd_respond_headers(const struct httpd_request *req, unsigned status,
				      const char *content_type, const void *data, size_t len,
				      const struct httpd_header *headers, size_t count)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(len, (void *)(uintptr_t)data, MHD_RESPMEM_MUST_COPY);

	for (size_t i = 0; r && i < count; i++)
		MHD_add_response_header(r, headers[i].name, headers[i].value);
	return queue(req, status, r, content_type);
}

char *httpd_gzip(const char *data, size_t len, size_t *out_len)
{
	z_stream z = {0};
	size_t cap;
	char *out;

	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	cap = deflateBound(&z, (uLong)len) + 32; /* and the gzip header and trailer */
	out = malloc(cap);
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap;
	if (!out || deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		return NULL;
	}
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

bool httpd_wants_gzip(const char *accept)
{
	const char *p = accept ? strstr(accept, "gzip") : NULL;
	const char *q;

	if (!p)
		return false;
	q = p + 4;
	q += strspn(q, " \t");
	if (*q != ';')
		return true;
	q = strstr(q, "q=");
	return !q || strtod(q + 2, NULL) > 0;
}

#define STATIC_MAX 16

enum MHD_Result httpd_respond_static(const struct httpd_request *req, const char *content_type,
				     const void *data, size_t len)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct {
		const void *data;
		char *gz;
		size_t len;
	} cache[STATIC_MAX];
	const struct httpd_header vary = {"Vary", "Accept-Encoding"};
	const struct httpd_header h[] = {vary, {"Content-Encoding", "gzip"}};
	const char *gz = NULL;
	size_t gz_len = 0;

	if (httpd_wants_gzip(httpd_header(req, "Accept-Encoding"))) {
		pthread_mutex_lock(&lock);
		for (int i = 0; i < STATIC_MAX; i++) {
			if (!cache[i].data) {
				cache[i].gz = httpd_gzip(data, len, &cache[i].len);
				cache[i].data = data;
			}
			if (cache[i].data == data) {
				gz = cache[i].gz;
				gz_len = cache[i].len;
				break;
			}
		}
		pthread_mutex_unlock(&lock);
	}
	/* The cache keeps the compressed files for the life of the process. */
	if (gz)
		return httpd_respond_headers(req, MHD_HTTP_OK, content_type, gz, gz_len, h, 2);
	return httpd_respond_headers(req, MHD_HTTP_OK, content_type, data, len, &vary, 1);
}

enum MHD_Result httpd_respond_stream(const struct httpd_request *req, const char *content_type,
				     MHD_ContentReaderCallback reader, void *cls,
				     MHD_ContentReaderFreeCallback done)
{
	struct MHD_Response *r =
	    MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, reader, cls, done);

	if (!r) {
		done(cls);
		return MHD_NO;
	}
	MHD_add_response_header(r, "X-Accel-Buffering", "no");
	return queue(req, MHD_HTTP_OK, r, content_type);
}

static void client_address(struct MHD_Connection *conn, char *buf, size_t size)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;

	snprintf(buf, size, "?");
	if (sa && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, buf,
			  (socklen_t)size);
	else if (sa && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr,
			  buf, (socklen_t)size);
}

static enum MHD_Result access_cb(void *cls, struct MHD_Connection *conn, const char *url,
				 const char *method, const char *version, const char *data,
				 size_t *data_size, void **con_cls)
{
	struct httpd *h = cls;
	struct upload *up = *con_cls;
	struct httpd_request req = {.conn = conn, .method = method, .url = url};

	(void)version;
	if (!up) {
		up = calloc(1, sizeof(*up));
		if (!up)
			return MHD_NO;
		*con_cls = up;
		return MHD_YES;
	}
	if (*data_size) {
		if (up->len + *data_size > HTTPD_BODY_MAX)
			up->too_large = true;
		else {
			memcpy(up->body + up->len, data, *data_size);
			up->len += *data_size;
		}
		*data_size = 0;
		return MHD_YES;
	}
	up->body[up->len] = '\0';
	req.body = up->body;
	req.body_len = up->len;
	client_address(conn, req.client, sizeof(req.client));
	if (up->too_large)
		return httpd_respond_text(&req, MHD_HTTP_CONTENT_TOO_LARGE, "text/plain",
					  "request too large\n");
	return h->handler(h->user, &req);
}

static void completed_cb(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)conn;
	(void)toe;
	free(*con_cls);
	*con_cls = NULL;
}

/* "ADDR:PORT", "[V6]:PORT" or ":PORT" into a bound, listening socket. */
static int listen_on(const char *listen_spec, char *bound, size_t boundsize, char *err,
		     size_t errsize)
{
	char host[256] = "", port[16];
	const char *colon = strrchr(listen_spec, ':');
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *ai = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char *end;
	int fd = -1, one = 1, rc;
	size_t hl;

	if (!colon || !colon[1] || strlen(colon + 1) >= sizeof(port) ||
	    (strtol(colon + 1, &end, 10), *end) || strtol(colon + 1, NULL, 10) > 65535) {
		snprintf(err, errsize, "'%s': give ADDR:PORT (like 127.0.0.1:8080 or [::]:8080)",
			 listen_spec);
		return -1;
	}
	snprintf(port, sizeof(port), "%s", colon + 1);
	hl = (size_t)(colon - listen_spec);
	if (hl >= 2 && listen_spec[0] == '[' && listen_spec[hl - 1] == ']') {
		listen_spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host)) {
		snprintf(err, errsize, "'%s': address too long", listen_spec);
		return -1;
	}
	memcpy(host, listen_spec, hl);
	host[hl] = '\0';
	rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &ai);
	if (rc) {
		snprintf(err, errsize, "'%s': %s", host, gai_strerror(rc));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 32) ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		snprintf(err, errsize, "cannot listen on %s: %s", listen_spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)&ss;
		char a[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
		snprintf(bound, boundsize, "[%s]:%u", a, ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const void *)&ss;
		char a[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
		snprintf(bound, boundsize, "%s:%u", a, ntohs(s4->sin_port));
	}
	return fd;
}

struct httpd *httpd_start(const char *listen_spec, httpd_handler handler, void *user, char *err,
			  size_t errsize)
{
	struct httpd *h = calloc(1, sizeof(*h));

	if (!h) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	h->handler = handler;
	h->user = user;
	h->fd = listen_on(listen_spec, h->address, sizeof(h->address), err, errsize);
	if (h->fd < 0) {
		free(h);
		return NULL;
	}
	h->mhd = MHD_start_daemon(
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG, 0,
	    NULL, NULL, access_cb, h, MHD_OPTION_LISTEN_SOCKET, h->fd, MHD_OPTION_NOTIFY_COMPLETED,
	    completed_cb, NULL, MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTPD_CONNECTIONS,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120, MHD_OPTION_END);
	if (!h->mhd) {
		snprintf(err, errsize, "the HTTP server did not start on %s", h->address);
		close(h->fd);
		free(h);
		return NULL;
	}
	return h;
}

const char *httpd_address(const struct httpd *h)
{
	return h->address;
}

void httpd_stop(struct httpd *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->mhd);
	close(h->fd);
	free(h);
}

const char *httpd_header(const struct httpd_request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}
