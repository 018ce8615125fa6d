/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * [broadcast] and [relay]: the MQTT broker both publish to or read from, what the broadcast
 * sends, and the relay's views, delay and round.
 */
#include "config/sections.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The broker's keys of [broadcast] and [relay]: 1 if key was one of them, 0 if not, -1 on a
 * bad value. */
static int set_mqtt(struct config_mqtt *m, const char *key, const char *value, char *err,
		    size_t err_size)
{
	struct {
		const char *key;
		char *dst;
		size_t size;
	} keys[] = {
	    {"mqtt", m->mqtt, sizeof(m->mqtt)},
	    {"user", m->user, sizeof(m->user)},
	    {"password-file", m->password_file, sizeof(m->password_file)},
	    {"tls-ca", m->tls_ca, sizeof(m->tls_ca)},
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(key, keys[i].key))
			continue;
		if (!strcmp(key, "mqtt") && !strchr(value, ':'))
			BAD("mqtt must be HOST:PORT");
		if (i >= 2 && value[0] != '/')
			BAD("%s must be an absolute path", key);
		if (config_copy_string(keys[i].dst, keys[i].size, value))
			BAD("%s too long (at most %zu characters)", key, keys[i].size - 1);
		return 1;
	}
	return 0;
}

int config_set_broadcast(struct config *cfg, const char *key, const char *value, char *err,
			 size_t err_size)
{
	bool b;
	int rc = set_mqtt(&cfg->broadcast_mqtt, key, value, err, err_size);

	if (rc)
		return rc < 0 ? -1 : 0;
	if (!strcmp(key, "board")) {
		if (!value[0] ||
		    strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				  "0123456789._-") != strlen(value))
			BAD("board must be a name of letters, digits, '.', '_' and '-'");
		if (config_copy_string(cfg->broadcast_board, sizeof(cfg->broadcast_board), value))
			BAD("board too long (at most %zu characters)",
			    sizeof(cfg->broadcast_board) - 1);
	} else if (!strcmp(key, "accept-tags")) {
		if (config_parse_bool(value, &b))
			BAD("accept-tags must be yes or no");
		cfg->broadcast_accept_tags = b;
	} else {
		BAD("unknown key '%s' in [broadcast]", key);
	}
	return 0;
}

int config_minutes(const char *value)
{
	char *end;
	double m;

	errno = 0;
	m = strtod(value, &end);
	if (errno || end == value || *end || !(m >= 0 && m <= 1440))
		return -1;
	return (int)(m * 60 + 0.5);
}

int config_set_relay(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	int rc = set_mqtt(&cfg->relay_mqtt, key, value, err, err_size);

	if (rc)
		return rc < 0 ? -1 : 0;
	if (!strcmp(key, "listen")) {
		if (!strchr(value, ':'))
			BAD("listen must be ADDR:PORT");
		if (config_copy_string(cfg->relay_listen, sizeof(cfg->relay_listen), value))
			BAD("listen too long");
	} else if (!strcmp(key, "arbiter-listen")) {
		if (!strchr(value, ':'))
			BAD("arbiter-listen must be ADDR:PORT");
		if (config_copy_string(cfg->relay_arbiter_listen, sizeof(cfg->relay_arbiter_listen),
				       value))
			BAD("arbiter-listen too long");
	} else if (!strcmp(key, "delay")) {
		int s = config_minutes(value);

		if (s < 0)
			BAD("delay must be minutes from 0 to 1440 (a fraction allowed: 0.5)");
		cfg->relay_delay_s = s;
	} else if (!strcmp(key, "boards")) {
		if (config_copy_string(cfg->relay_boards, sizeof(cfg->relay_boards), value))
			BAD("boards too long (at most %zu characters)",
			    sizeof(cfg->relay_boards) - 1);
	} else if (!strcmp(key, "round")) {
		if (value[0] && value[0] != '/')
			BAD("round must be an absolute path");
		if (config_copy_string(cfg->relay_round, sizeof(cfg->relay_round), value))
			BAD("round too long");
	} else {
		BAD("unknown key '%s' in [relay]", key);
	}
	return 0;
}
