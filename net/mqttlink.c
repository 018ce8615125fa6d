/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/mqttlink.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mosquitto.h>

#include "base/log.h"
#include "base/timeutil.h"

#define BACKOFF_FIRST_MS  500
#define BACKOFF_MAX_MS	  10000
#define CONNACK_WAIT_MS	  10000
#define KEEPALIVE_S	  30
#define SUBSCRIPTIONS_MAX 4

enum link_state { LINK_DOWN, LINK_CONNECTING, LINK_UP };

struct mqttlink {
	struct mosquitto *mosq;
	struct mqtt_options opt;
	struct mqttlink_callbacks cb;
	void *user;
	enum link_state state;
	uint64_t retry_at, connect_at;
	unsigned backoff_ms;
	bool refused, said_down, tried;
	bool connected_pending; /* connected: the callback runs once the library is done with it */
	char last_problem[200];
	int subscription_count;
	char subscriptions[SUBSCRIPTIONS_MAX][128];
};

/* ------------------------------------------------------------------ options */

static int read_password(const char *configured, char *out, size_t size, char *err, size_t errsize)
{
	char buf[PATH_MAX];
	/* The unit's credential, which only this service reads (docs/broadcast.md "Live
	 * broadcast and the room relay"), else the file configured. */
	const char *path = config_secret_path("mqtt-password", configured, buf, sizeof(buf));
	FILE *f = fopen(path, "r");
	struct stat st;
	size_t n;

	if (!f) {
		snprintf(err, errsize, "%s: cannot read the password: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && (st.st_mode & 0044))
		log_warn(LOG_NET,
			 "%s: the password file is readable by its group or everyone (the control "
			 "socket's group: the assistants): keep it 0600, as the unit's credential",
			 path);
	if (!fgets(out, (int)size, f)) {
		fclose(f);
		snprintf(err, errsize, "%s:1: no password in it", path);
		return -1;
	}
	fclose(f);
	n = strcspn(out, "\r\n");
	out[n] = '\0';
	if (!n) {
		snprintf(err, errsize, "%s:1: the password is empty", path);
		return -1;
	}
	return 0;
}

static int parse_address(struct mqtt_options *o, const char *addr, char *err, size_t errsize)
{
	const char *colon = strrchr(addr, ':');
	const char *host = addr;
	size_t host_len;
	char *end;
	long port;

	if (!colon) {
		snprintf(err, errsize, "--mqtt '%s': HOST:PORT wanted", addr);
		return -1;
	}
	host_len = (size_t)(colon - addr);
	if (host[0] == '[' && host_len >= 2 && host[host_len - 1] == ']') {
		host++;
		host_len -= 2;
	}
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	if (!host_len || host_len >= sizeof(o->host) || errno || end == colon + 1 || *end ||
	    port < 1 || port > 65535) {
		snprintf(err, errsize, "--mqtt '%s': HOST:PORT wanted (port 1..65535)", addr);
		return -1;
	}
	memcpy(o->host, host, host_len);
	o->host[host_len] = '\0';
	o->port = (int)port;
	return 0;
}

int mqtt_options_from(struct mqtt_options *o, const struct config_mqtt *cfg, const char *mqtt,
		      const char *user, const char *password_file, const char *tls_ca, char *err,
		      size_t errsize)
{
	memset(o, 0, sizeof(*o));
	if (!mqtt && cfg)
		mqtt = cfg->mqtt[0] ? cfg->mqtt : NULL;
	if (!user && cfg && cfg->user[0])
		user = cfg->user;
	if (!password_file && cfg && cfg->password_file[0])
		password_file = cfg->password_file;
	if (!tls_ca && cfg && cfg->tls_ca[0])
		tls_ca = cfg->tls_ca;
	if (!mqtt) {
		snprintf(err, errsize,
			 "no broker: give --mqtt HOST:PORT (or mqtt = in the "
			 "configuration)");
		return -1;
	}
	if (parse_address(o, mqtt, err, errsize))
		return -1;
	if (user && snprintf(o->user, sizeof(o->user), "%s", user) >= (int)sizeof(o->user)) {
		snprintf(err, errsize, "--user: too long");
		return -1;
	}
	if (password_file && !user) {
		snprintf(err, errsize, "--password-file needs --user");
		return -1;
	}
	if (password_file &&
	    read_password(password_file, o->password, sizeof(o->password), err, errsize))
		return -1;
	if (tls_ca) {
		if (access(tls_ca, R_OK)) {
			snprintf(err, errsize, "--tls-ca %s: cannot read: %s", tls_ca,
				 strerror(errno));
			return -1;
		}
		snprintf(o->tls_ca, sizeof(o->tls_ca), "%s", tls_ca);
	}
	return 0;
}

/* ------------------------------------------------------------------ the link */

static void problem(struct mqttlink *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Said once until it changes or the link comes up, so a broker down for an hour is one
 * line, not thousands. */
static void problem(struct mqttlink *l, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (strcmp(msg, l->last_problem)) {
		LOG(LOG_NET, l->refused ? LOG_LEVEL_ERROR : LOG_LEVEL_WARN,
		    "broker %s:%d: %s; retrying", l->opt.host, l->opt.port, msg);
		snprintf(l->last_problem, sizeof(l->last_problem), "%s", msg);
	}
}

static void go_down(struct mqttlink *l)
{
	if (l->state != LINK_DOWN)
		mosquitto_disconnect(l->mosq);
	l->state = LINK_DOWN;
	l->connected_pending = false;
	l->retry_at = monotonic_ms() + l->backoff_ms;
	l->backoff_ms = l->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : l->backoff_ms * 2;
}

static void on_connect(struct mosquitto *mosq, void *obj, int rc)
{
	struct mqttlink *l = obj;

	(void)mosq;
	if (rc) {
		l->refused = true;
		problem(l, "refused the connection: %s", mosquitto_connack_string(rc));
		go_down(l);
		return;
	}
	l->state = LINK_UP;
	l->refused = false;
	l->backoff_ms = BACKOFF_FIRST_MS;
	if (l->last_problem[0] || l->said_down)
		log_info(LOG_NET, "broker %s:%d: connected", l->opt.host, l->opt.port);
	l->last_problem[0] = '\0';
	l->said_down = true;
	for (int i = 0; i < l->subscription_count; i++)
		mosquitto_subscribe(l->mosq, NULL, l->subscriptions[i], 1);
	/*
	 * Not from here: right after this callback the library sends again what was published
	 * and not acknowledged before the connection was lost.  What the connected callback
	 * publishes now (the game whole) must go after that, or the broker would retain the
	 * older message until the next move.
	 */
	l->connected_pending = true;
}

static void on_disconnect(struct mosquitto *mosq, void *obj, int rc)
{
	struct mqttlink *l = obj;

	(void)mosq;
	if (l->state == LINK_DOWN)
		return;
	l->state = LINK_DOWN;
	l->connected_pending = false;
	if (rc) {
		problem(l, "connection lost");
		l->retry_at = monotonic_ms() + l->backoff_ms;
	}
}

static void on_message(struct mosquitto *mosq, void *obj, const struct mosquitto_message *m)
{
	struct mqttlink *l = obj;

	(void)mosq;
	if (l->cb.message)
		l->cb.message(l->user, m->topic, m->payload ? (const char *)m->payload : "",
			      m->payloadlen > 0 ? (size_t)m->payloadlen : 0);
}

static void on_publish(struct mosquitto *mosq, void *obj, int mid)
{
	struct mqttlink *l = obj;

	(void)mosq;
	if (l->cb.published)
		l->cb.published(l->user, mid);
}

struct mqttlink *mqttlink_new(const struct mqtt_options *o, const char *client_id,
			      const struct mqttlink_callbacks *cb, void *user, char *err,
			      size_t errsize)
{
	struct mqttlink *l = calloc(1, sizeof(*l));
	int rc;

	if (!l) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	mosquitto_lib_init();
	l->opt = *o;
	l->cb = *cb;
	l->user = user;
	l->backoff_ms = BACKOFF_FIRST_MS;
	l->mosq = mosquitto_new(client_id, true, l);
	if (!l->mosq) {
		snprintf(err, errsize, "cannot make an MQTT client: %s", strerror(errno));
		goto fail;
	}
	mosquitto_int_option(l->mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
	if (o->user[0] && (rc = mosquitto_username_pw_set(l->mosq, o->user,
							  o->password[0] ? o->password : NULL))) {
		snprintf(err, errsize, "user: %s", mosquitto_strerror(rc));
		goto fail;
	}
	if (o->tls_ca[0] && (rc = mosquitto_tls_set(l->mosq, o->tls_ca, NULL, NULL, NULL, NULL))) {
		snprintf(err, errsize, "--tls-ca %s: %s", o->tls_ca, mosquitto_strerror(rc));
		goto fail;
	}
	mosquitto_connect_callback_set(l->mosq, on_connect);
	mosquitto_disconnect_callback_set(l->mosq, on_disconnect);
	mosquitto_message_callback_set(l->mosq, on_message);
	mosquitto_publish_callback_set(l->mosq, on_publish);
	l->state = LINK_DOWN;
	l->retry_at = 0; /* at once */
	return l;
fail:
	if (l->mosq)
		mosquitto_destroy(l->mosq);
	free(l);
	mosquitto_lib_cleanup();
	return NULL;
}

void mqttlink_free(struct mqttlink *l)
{
	if (!l)
		return;
	mosquitto_destroy(l->mosq);
	free(l);
	mosquitto_lib_cleanup();
}

int mqttlink_will(struct mqttlink *l, const char *topic, const char *payload)
{
	return mosquitto_will_set(l->mosq, topic, (int)strlen(payload), payload, 1, true) ==
		       MOSQ_ERR_SUCCESS
		   ? 0
		   : -1;
}

int mqttlink_subscribe(struct mqttlink *l, const char *pattern)
{
	if (l->subscription_count == SUBSCRIPTIONS_MAX ||
	    strlen(pattern) >= sizeof(l->subscriptions[0]))
		return -1;
	snprintf(l->subscriptions[l->subscription_count++], sizeof(l->subscriptions[0]), "%s",
		 pattern);
	if (l->state == LINK_UP)
		mosquitto_subscribe(l->mosq, NULL, pattern, 1);
	return 0;
}

int mqttlink_publish(struct mqttlink *l, const char *topic, const void *payload, size_t len,
		     bool retain)
{
	int mid = 0, rc;

	if (l->state != LINK_UP)
		return -1;
	rc = mosquitto_publish(l->mosq, &mid, topic, (int)len, payload, 1, retain);
	if (rc == MOSQ_ERR_SUCCESS)
		return mid;
	if (rc == MOSQ_ERR_NO_CONN || rc == MOSQ_ERR_CONN_LOST || rc == MOSQ_ERR_ERRNO) {
		problem(l, "connection lost while publishing");
		go_down(l);
	} else {
		log_warn(LOG_NET, "%s: not published: %s", topic, mosquitto_strerror(rc));
	}
	return -1;
}

bool mqttlink_up(const struct mqttlink *l)
{
	return l->state == LINK_UP;
}

bool mqttlink_refused(const struct mqttlink *l)
{
	return l->refused;
}

void mqttlink_pollfd(struct mqttlink *l, struct pollfd *pfd)
{
	pfd->fd = l->state == LINK_DOWN ? -1 : mosquitto_socket(l->mosq);
	pfd->events = POLLIN;
	if (pfd->fd >= 0 && mosquitto_want_write(l->mosq))
		pfd->events |= POLLOUT;
	pfd->revents = 0;
}

int mqttlink_timeout(const struct mqttlink *l)
{
	uint64_t now = monotonic_ms();

	if (l->state == LINK_DOWN)
		return l->retry_at <= now ? 0 : (int)(l->retry_at - now);
	return 1000; /* keep-alive and the wait for the broker's answer */
}

static void try_connect(struct mqttlink *l)
{
	int rc;

	/* The connection itself blocks (name lookup, TCP, TLS handshake): a broker on the
	 * club's network answers at once or refuses; the game never waits for us anyway. */
	errno = 0;
	rc = l->tried ? mosquitto_reconnect(l->mosq)
		      : mosquitto_connect(l->mosq, l->opt.host, l->opt.port, KEEPALIVE_S);
	l->tried = true;
	if (rc == MOSQ_ERR_SUCCESS) {
		l->state = LINK_CONNECTING;
		l->connect_at = monotonic_ms();
		return;
	}
	l->refused = false;
	if (rc == MOSQ_ERR_ERRNO)
		problem(l, "%s", strerror(errno));
	else
		problem(l, "%s", mosquitto_strerror(rc));
	l->state = LINK_CONNECTING; /* so go_down closes the socket */
	go_down(l);
}

void mqttlink_run(struct mqttlink *l, short revents)
{
	int rc = MOSQ_ERR_SUCCESS;

	if (l->state == LINK_DOWN) {
		if (monotonic_ms() >= l->retry_at)
			try_connect(l);
		return;
	}
	if (revents & (POLLIN | POLLHUP | POLLERR))
		rc = mosquitto_loop_read(l->mosq, 64);
	if (rc == MOSQ_ERR_SUCCESS && l->state != LINK_DOWN && mosquitto_want_write(l->mosq))
		rc = mosquitto_loop_write(l->mosq, 64);
	if (rc == MOSQ_ERR_SUCCESS && l->state != LINK_DOWN)
		rc = mosquitto_loop_misc(l->mosq);
	if (l->state == LINK_DOWN)
		return; /* the callbacks have seen to it */
	if (rc == MOSQ_ERR_SUCCESS && l->connected_pending && l->state == LINK_UP) {
		l->connected_pending = false;
		if (l->cb.connected)
			l->cb.connected(l->user);
		if (mosquitto_want_write(l->mosq))
			rc = mosquitto_loop_write(l->mosq, 64);
	}
	if (rc != MOSQ_ERR_SUCCESS) {
		problem(l, "%s", rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
		go_down(l);
		return;
	}
	if (l->state == LINK_CONNECTING && monotonic_ms() - l->connect_at > CONNACK_WAIT_MS) {
		problem(l, "no answer to our connection");
		go_down(l);
	}
}

void mqttlink_disconnect(struct mqttlink *l, int timeout_ms)
{
	uint64_t end = monotonic_ms() + (uint64_t)timeout_ms;

	if (l->state != LINK_UP)
		return;
	while (mosquitto_want_write(l->mosq) && monotonic_ms() < end) {
		struct pollfd pfd;

		mqttlink_pollfd(l, &pfd);
		if (poll(&pfd, 1, 100) > 0)
			mqttlink_run(l, pfd.revents);
		if (l->state != LINK_UP)
			return;
	}
	mosquitto_disconnect(l->mosq);
	mosquitto_loop_write(l->mosq, 1);
	l->state = LINK_DOWN;
}
