/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * [online] (docs/online.md "Playing online"): the server, the token's file, the time control of a
 * seek or challenge, rated or casual, the button menu's entry and what it starts.
 */
#include "config/config.h"

#include <stdio.h>
#include <string.h>

#include "chess/chess.h"
#include "config/sections.h"
#include "game/clock.h"
#include "game/color.h"

void online_config_defaults(struct online_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->server, sizeof(cfg->server), "https://lichess.org");
	snprintf(cfg->time_control, sizeof(cfg->time_control), "900+10");
	cfg->color = -1;
}

bool online_user_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n >= 2 && n <= 30 &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") ==
		   n;
}

static int path(char *dst, size_t size, const char *key, const char *value, char *err,
		size_t err_size)
{
	if (value[0] && value[0] != '/')
		BAD("%s must be an absolute path, not '%s'", key, value);
	if (snprintf(dst, size, "%s", value) >= (int)size)
		BAD("%s too long", key);
	return 0;
}

int online_config_set(struct online_config *cfg, const char *key, const char *value, char *err,
		      size_t err_size)
{
	if (!strcmp(key, "server")) {
		size_t n = strlen(value);

		if (strncmp(value, "https://", 8) && strncmp(value, "http://", 7))
			BAD("server must be a URL beginning with https:// (or http://), not '%s'",
			    value);
		if (n >= sizeof(cfg->server))
			BAD("server too long");
		snprintf(cfg->server, sizeof(cfg->server), "%s", value);
		/* The paths are appended to it: no slash at its end. */
		while (n > 8 && cfg->server[n - 1] == '/')
			cfg->server[--n] = '\0';
		return 0;
	}
	if (!strcmp(key, "token-file"))
		return path(cfg->token_file, sizeof(cfg->token_file), key, value, err, err_size);
	if (!strcmp(key, "ca-file"))
		return path(cfg->ca_file, sizeof(cfg->ca_file), key, value, err, err_size);
	if (!strcmp(key, "time-control")) {
		struct time_control tc;
		char why[96];

		if (time_control_parse(value, &tc, why, sizeof(why)) || tc.count != 1 ||
		    tc.periods[0].moves || tc.periods[0].base_ms % 1000 ||
		    (tc.periods[0].mode != TC_PLAIN && tc.periods[0].mode != TC_FISCHER))
			BAD("time-control must be SECONDS+INCREMENT (one period, a Fischer "
			    "increment "
			    "or none, as the server plays), not '%s'",
			    value);
		snprintf(cfg->time_control, sizeof(cfg->time_control), "%s", value);
		return 0;
	}
	if (!strcmp(key, "rated")) {
		if (config_parse_bool(value, &cfg->rated))
			BAD("rated must be yes or no, not '%s'", value);
		return 0;
	}
	if (!strcmp(key, "menu")) {
		if (config_parse_bool(value, &cfg->menu))
			BAD("menu must be yes or no, not '%s'", value);
		return 0;
	}
	if (!strcmp(key, "start")) {
		if (!strcmp(value, "seek"))
			cfg->start = ONLINE_START_SEEK;
		else if (!strcmp(value, "accept"))
			cfg->start = ONLINE_START_ACCEPT;
		else if (!strcmp(value, "challenge"))
			cfg->start = ONLINE_START_CHALLENGE;
		else
			BAD("start must be seek, accept or challenge, not '%s'", value);
		return 0;
	}
	if (!strcmp(key, "friend")) {
		if (value[0] && !online_user_name_ok(value))
			BAD("friend must be a lichess user name (2 to 30 letters, digits, - and "
			    "_), "
			    "not '%s'",
			    value);
		snprintf(cfg->friend_name, sizeof(cfg->friend_name), "%s", value);
		return 0;
	}
	if (!strcmp(key, "color")) {
		int color = game_color_parse(value);

		if (color < 0 && strcmp(value, "random"))
			BAD("color must be white, black or random, not '%s'", value);
		cfg->color = color; /* -1: random */
		return 0;
	}
	BAD("unknown key '%s' in [online]", key);
}
