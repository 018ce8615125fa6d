/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/httpd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/log.h"
#include "base/pinguard.h"
#include "net/origin.h"

/* What we keep of each connection, from its accept to its close (h->lock). */
struct conn {
	struct conn *prev, *next;
	int fd;
	char client[64], key[64];
	uint64_t waiting_since; /* ms since it waits for a whole request (0: it has one) */
	bool cut;
};

struct httpd {
	struct MHD_Daemon *mhd;
	int fd;
	httpd_handler handler;
	void *user;
	char address[80];
	bool tls, same_origin;
	char hosts[512];      /* the club's names */
	char self[256];	      /* this machine's host name */
	pthread_mutex_t lock; /* what follows */
	pthread_cond_t wake;  /* the sweeper's */
	struct conn *conns;   /* every connection open */
	bool stopping;
	int refused;	       /* refusals since they were last said */
	uint64_t refused_said; /* when */
	pthread_t sweeper;
	bool sweeping;
};

/* One request as it arrives, and what its handler left when it suspended it. */
struct httpd_upload {
	size_t len;
	bool too_large;
	void *pending;
	void (*done)(void *);
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

/* ------------------------------------------------------------------ connections */

/* libmicrohttpd's own words (mostly a client gone in the middle of an answer): for a person
 * looking closely only. */
static void mhd_log(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char text[512];

	(void)cls;
	vsnprintf(text, sizeof(text), fmt, ap);
	text[strcspn(text, "\n")] = '\0';
	log_debug(LOG_MAIN, "libmicrohttpd: %s", text);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void address_text(const struct sockaddr *sa, char *buf, size_t size)
{
	snprintf(buf, size, "?");
	if (sa && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, buf,
			  (socklen_t)size);
	else if (sa && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr,
			  buf, (socklen_t)size);
}

static struct conn *conn_of(struct MHD_Connection *mc)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* Connections open from key (h->lock held). */
static int count_open(const struct httpd *h, const char *key)
{
	int n = 0;

	for (const struct conn *c = h->conns; c; c = c->next)
		n += !strcmp(c->key, key);
	return n;
}

/* A refusal, said at most once every 10 s with how many there were since (h->lock held):
 * a flood of them does not flood the log. */
static void refused(struct httpd *h, const char *what)
{
	uint64_t now = now_ms();

	h->refused++;
	if (h->refused_said && now < h->refused_said + 10000)
		return;
	log_warn(LOG_MAIN, "%s: %s refused (%d refusals in the last 10 s)", h->address, what,
		 h->refused);
	h->refused_said = now;
	h->refused = 0;
}

/* A new connection: refused when its address holds HTTPD_PER_ADDRESS already. */
static enum MHD_Result accept_cb(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	struct httpd *h = cls;
	char client[64], key[64], what[160];
	bool ok;

	(void)addrlen;
	address_text(addr, client, sizeof(client));
	pin_guard_address_key(client, key, sizeof(key));
	pthread_mutex_lock(&h->lock);
	ok = count_open(h, key) < HTTPD_PER_ADDRESS;
	if (!ok) {
		snprintf(what, sizeof(what), "a connection from %s beyond its %d", client,
			 HTTPD_PER_ADDRESS);
		refused(h, what);
	}
	pthread_mutex_unlock(&h->lock);
	return ok ? MHD_YES : MHD_NO;
}

static void notify_cb(void *cls, struct MHD_Connection *mc, void **socket_context,
		      enum MHD_ConnectionNotificationCode toe)
{
	struct httpd *h = cls;
	struct conn *c = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *fd =
		    MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *ci =
		    MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

		c = calloc(1, sizeof(*c));
		if (!c)
			return;
		c->fd = fd ? fd->connect_fd : -1;
		address_text(ci ? ci->client_addr : NULL, c->client, sizeof(c->client));
		pin_guard_address_key(c->client, c->key, sizeof(c->key));
		c->waiting_since = now_ms();
		pthread_mutex_lock(&h->lock);
		c->next = h->conns;
		if (h->conns)
			h->conns->prev = c;
		h->conns = c;
		pthread_mutex_unlock(&h->lock);
		*socket_context = c;
		return;
	}
	if (!c)
		return;
	/* Before libmicrohttpd closes the descriptor: the sweeper never shuts another's. */
	pthread_mutex_lock(&h->lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		h->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	pthread_mutex_unlock(&h->lock);
	free(c);
	*socket_context = NULL;
}

/*
 * Four times a second: a connection that has waited HTTPD_REQUEST_MS for a whole request (a
 * silent one, one sending a byte every few seconds, a TLS handshake that never ends, an idle
 * keep-alive) is shut down; libmicrohttpd then sees it end and closes it.
 */
static void *sweeper(void *arg)
{
	struct httpd *h = arg;

	pthread_mutex_lock(&h->lock);
	while (!h->stopping) {
		struct timespec at;
		uint64_t now = now_ms();

		for (struct conn *c = h->conns; c; c = c->next)
			if (c->waiting_since && !c->cut && c->fd >= 0 &&
			    now - c->waiting_since >= HTTPD_REQUEST_MS) {
				shutdown(c->fd, SHUT_RDWR);
				c->cut = true;
			}
		clock_gettime(CLOCK_REALTIME, &at);
		at.tv_nsec += 250 * 1000000L;
		if (at.tv_nsec >= 1000000000L) {
			at.tv_sec++;
			at.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&h->wake, &h->lock, &at);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* ------------------------------------------------------------------ the page's own origin */

/* The request's Host and Origin against the page's own (h->same_origin, net/origin.h): 0,
 * or the status of the refusal with its words in *why. */
static unsigned origin_refusal(const struct httpd *h, const struct httpd_request *req,
			       const char **why)
{
	const char *host = httpd_header(req, MHD_HTTP_HEADER_HOST);

	if (!h->same_origin)
		return 0;
	if (host && !origin_host_ok(host, h->self, h->hosts)) {
		*why = "this page does not answer to that host name (the club's names go into "
		       "[web] hosts)\n";
		return MHD_HTTP_MISDIRECTED_REQUEST;
	}
	if (strcmp(req->method, "GET") && strcmp(req->method, "HEAD") &&
	    !origin_same(h->tls, host, httpd_header(req, "Origin"),
			 httpd_header(req, "Sec-Fetch-Site"))) {
		*why = "a request from another site's page is refused\n";
		return MHD_HTTP_FORBIDDEN;
	}
	return 0;
}

/* ------------------------------------------------------------------ requests */

static enum MHD_Result access_cb(void *cls, struct MHD_Connection *mc, const char *url,
				 const char *method, const char *version, const char *data,
				 size_t *data_size, void **con_cls)
{
	struct httpd *h = cls;
	struct httpd_upload *up = *con_cls;
	struct conn *c = conn_of(mc);
	struct httpd_request req = {
	    .conn = mc, .method = method, .url = url, .server = h, .upload = up};
	const char *why = "";
	unsigned refusal;

	(void)version;
	if (!up) {
		up = malloc(sizeof(*up));
		if (!up)
			return MHD_NO;
		up->len = 0;
		up->too_large = false;
		up->pending = NULL;
		up->done = NULL;
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
	/* The request is whole: no deadline runs while it is answered. */
	if (c) {
		pthread_mutex_lock(&h->lock);
		c->waiting_since = 0;
		pthread_mutex_unlock(&h->lock);
		snprintf(req.client, sizeof(req.client), "%s", c->client);
		snprintf(req.key, sizeof(req.key), "%s", c->key);
	}
	up->body[up->len] = '\0';
	req.body = up->body;
	req.body_len = up->len;
	req.pending = up->pending;
	if (!up->pending) {
		if (up->too_large)
			return httpd_respond_text(&req, MHD_HTTP_CONTENT_TOO_LARGE, "text/plain",
						  "request too large\n");
		if ((refusal = origin_refusal(h, &req, &why)))
			return httpd_respond_text(&req, refusal, "text/plain; charset=utf-8", why);
	}
	return h->handler(h->user, &req);
}

enum MHD_Result httpd_suspend(const struct httpd_request *req, void *pending, void (*done)(void *))
{
	req->upload->pending = pending;
	req->upload->done = done;
	MHD_suspend_connection(req->conn);
	return MHD_YES;
}

void httpd_resume(struct MHD_Connection *conn)
{
	MHD_resume_connection(conn);
}

/* A request is over (answered, or its connection gone): the next one's deadline runs. */
static void completed_cb(void *cls, struct MHD_Connection *mc, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct httpd *h = cls;
	struct httpd_upload *up = *con_cls;
	struct conn *c = conn_of(mc);

	(void)toe;
	if (up && up->done)
		up->done(up->pending);
	free(up);
	*con_cls = NULL;
	if (c) {
		pthread_mutex_lock(&h->lock);
		c->waiting_since = now_ms();
		pthread_mutex_unlock(&h->lock);
	}
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
	/* A stream that ends (its address opened a newer one, the page stops) closes. */
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	return queue(req, MHD_HTTP_OK, r, content_type);
}

void httpd_stream_wait(struct MHD_Connection *conn)
{
	MHD_suspend_connection(conn);
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
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 512) ||
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

/* As many descriptors as the hard limit allows (a service starts with 1024), and the
 * connections they can carry besides what the process needs of them. */
static unsigned connection_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 256;
	if (rl.rlim_cur < rl.rlim_max && rl.rlim_cur < HTTPD_CONNECTIONS + 128) {
		rl.rlim_cur =
		    rl.rlim_max < HTTPD_CONNECTIONS + 128 ? rl.rlim_max : HTTPD_CONNECTIONS + 128;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= HTTPD_CONNECTIONS + 128)
		return HTTPD_CONNECTIONS;
	return rl.rlim_cur > 256 + 64 ? (unsigned)rl.rlim_cur - 64 : 256;
}

struct httpd *httpd_start(const struct httpd_options *o, httpd_handler handler, void *user,
			  char *err, size_t errsize)
{
	struct httpd *h = calloc(1, sizeof(*h));
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME |
			 MHD_USE_ERROR_LOG;

	if (!h) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	h->handler = handler;
	h->user = user;
	h->same_origin = o->same_origin;
	h->tls = o->tls_cert && o->tls_key;
	snprintf(h->hosts, sizeof(h->hosts), "%s", o->hosts ? o->hosts : "");
	if (gethostname(h->self, sizeof(h->self)))
		h->self[0] = '\0';
	h->fd = listen_on(o->listen, h->address, sizeof(h->address), err, errsize);
	if (h->fd < 0) {
		free(h);
		return NULL;
	}
	if (h->tls && !MHD_is_feature_supported(MHD_FEATURE_TLS)) {
		snprintf(err, errsize, "this libmicrohttpd has no TLS");
		close(h->fd);
		free(h);
		return NULL;
	}
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->wake, NULL);
	{
		struct MHD_OptionItem tls[] = {
		    {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)(uintptr_t)o->tls_key},
		    {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)(uintptr_t)o->tls_cert},
		    {MHD_OPTION_HTTPS_PRIORITIES, 0,
		     (void *)(uintptr_t) "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"},
		    {MHD_OPTION_END, 0, NULL},
		};

		h->mhd = MHD_start_daemon(
		    flags | (h->tls ? MHD_USE_TLS : 0), 0, accept_cb, h, access_cb, h,
		    MHD_OPTION_LISTEN_SOCKET, h->fd, MHD_OPTION_NOTIFY_COMPLETED, completed_cb, h,
		    MHD_OPTION_NOTIFY_CONNECTION, notify_cb, h, MHD_OPTION_CONNECTION_LIMIT,
		    connection_limit(), MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTPD_IDLE_S,
		    MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_ARRAY,
		    h->tls ? tls : tls + 3, MHD_OPTION_END);
	}
	if (!h->mhd) {
		snprintf(err, errsize, "the HTTP server did not start on %s%s", h->address,
			 h->tls ? " (is the key the certificate's?)" : "");
		goto fail;
	}
	if (pthread_create(&h->sweeper, NULL, sweeper, h)) {
		snprintf(err, errsize, "cannot start a thread");
		MHD_stop_daemon(h->mhd);
		goto fail;
	}
	h->sweeping = true;
	return h;
fail:
	pthread_cond_destroy(&h->wake);
	pthread_mutex_destroy(&h->lock);
	close(h->fd);
	free(h);
	return NULL;
}

const char *httpd_address(const struct httpd *h)
{
	return h->address;
}

void httpd_stop(struct httpd *h)
{
	if (!h)
		return;
	pthread_mutex_lock(&h->lock);
	h->stopping = true;
	pthread_cond_signal(&h->wake);
	pthread_mutex_unlock(&h->lock);
	if (h->sweeping)
		pthread_join(h->sweeper, NULL);
	MHD_stop_daemon(h->mhd);
	close(h->fd);
	pthread_cond_destroy(&h->wake);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

const char *httpd_header(const struct httpd_request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

const char *httpd_query(const struct httpd_request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}
