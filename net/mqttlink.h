/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The broker side of `annabella broadcast` and `annabella relay` (docs/broadcast.md "Live broadcast
 * and the room relay"): one MQTT connection on libmosquitto, driven from the caller's poll() loop
 * (no thread), with a username/password and TLS when configured.  A lost or refused connection is
 * retried with back-off (0.5 s doubling to 10 s); subscriptions are renewed on each connect and the
 * caller hears of each connect, so it can publish its retained state again.
 */
#ifndef ANNABELLA_MQTTLINK_H
#define ANNABELLA_MQTTLINK_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"

struct mqtt_options {
	char host[128];
	int port;
	char user[64];
	char password[256]; /* the password file's first line */
	char tls_ca[256];   /* "" : no TLS */
};

/*
 * The options from a configuration section (already loaded) and then the command line's
 * --mqtt HOST:PORT, --user U, --password-file F, --tls-ca FILE, which override it.  0, or
 * -1 with the reason (naming the option or file) in err.
 */
int mqtt_options_from(struct mqtt_options *o, const struct config_mqtt *cfg, const char *mqtt,
		      const char *user, const char *password_file, const char *tls_ca, char *err,
		      size_t errsize);

struct mqttlink;

struct mqttlink_callbacks {
	void (*connected)(void *user);
	void (*message)(void *user, const char *topic, const char *payload, size_t len);
	void (*published)(void *user, int mid);
};

/* NULL with the reason in err. */
struct mqttlink *mqttlink_new(const struct mqtt_options *o, const char *client_id,
			      const struct mqttlink_callbacks *cb, void *user, char *err,
			      size_t errsize);
void mqttlink_free(struct mqttlink *l);

/* The broker's last will: published (QoS 1, retained) for us when the connection is lost
 * without a goodbye.  Before the first connect; 0 or -1. */
int mqttlink_will(struct mqttlink *l, const char *topic, const char *payload);
/* Subscribed (QoS 1) now if connected, and again after each connect. */
int mqttlink_subscribe(struct mqttlink *l, const char *pattern);
/* QoS 1.  The message id (>0), or -1 when not connected (the caller republishes on the
 * next connect) or on an error. */
int mqttlink_publish(struct mqttlink *l, const char *topic, const void *payload, size_t len,
		     bool retain);
bool mqttlink_up(const struct mqttlink *l);
/* Whether the broker refused us (bad name or password, not authorised) on the last try. */
bool mqttlink_refused(const struct mqttlink *l);

/* The poll entry (fd -1 while down) and the longest wait before mqttlink_run (ms). */
void mqttlink_pollfd(struct mqttlink *l, struct pollfd *pfd);
int mqttlink_timeout(const struct mqttlink *l);
/* Reads, writes, keeps alive, reconnects when due; revents from poll (0 if none). */
void mqttlink_run(struct mqttlink *l, short revents);
/* A clean goodbye (the queued messages written first, within timeout_ms). */
void mqttlink_disconnect(struct mqttlink *l, int timeout_ms);

#endif
