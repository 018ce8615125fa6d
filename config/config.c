/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The configuration's defaults, the table of its sections (config_set(): each [section]'s
 * keys go to its own setter, here or in a file of its own: sections.h), the setters of the
 * game, the rules, the control socket, the web page, detection, training, the clock, the
 * state directory and the log, and the PIN file.  Reading the files is load.c's.
 */
#include "config/config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chess/chess.h"
#include "config/sections.h"
#include "game/color.h"
#include "base/log.h"

void config_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->player = CHESS_WHITE;
	snprintf(cfg->time_control, sizeof(cfg->time_control), "-");
	cfg->mode = GAME_TOURNAMENT;
	cfg->edition = RULES_2023;
	cfg->promotion_ms = 3000;
	cfg->menu_hold_ms = 1000;
	cfg->menu_ms = 15000;
	cfg->train_level = -1;
	cfg->train_movetime_ms = 1000;
	snprintf(cfg->event, sizeof(cfg->event), "?");
	snprintf(cfg->site, sizeof(cfg->site), "?");
	snprintf(cfg->round, sizeof(cfg->round), "?");
	snprintf(cfg->white, sizeof(cfg->white), "?");
	snprintf(cfg->black, sizeof(cfg->black), "?");
	detect_config_defaults(&cfg->detect);
	phrase_options_defaults(&cfg->phrases);
	voice_config_defaults(&cfg->voice);
	cfg->voice.sink = VOICE_SINK_ALSA;
	cfg->slow_repeat = 70;
	cfg->braille_tty = -1;
	cfg->braille_notation = BRAILLE_NOTATION_BCA;
	braille_layout_defaults(&cfg->braille_layout);
	board_config_defaults(&cfg->board);
	face_config_defaults(&cfg->display);
	power_config_defaults(&cfg->power);
	fairplay_config_defaults(&cfg->fairplay);
	haptic_config_defaults(&cfg->haptic);
	online_config_defaults(&cfg->online);
	snprintf(cfg->state_dir, sizeof(cfg->state_dir), "/var/lib/annabella");
	cfg->sync = true;
	cfg->keep_audio = 50;
	cfg->keep_audio_mb = 100;
	cfg->keep_games = -1;
	cfg->reserve_mb = CONFIG_RESERVE_MB;
	snprintf(cfg->control_socket, sizeof(cfg->control_socket), "/run/annabella/control");
	snprintf(cfg->control_group, sizeof(cfg->control_group), "annabella");
	cfg->arbiter_count = 1;
	snprintf(cfg->arbiters[0], sizeof(cfg->arbiters[0]), "root");
	cfg->log_level = LOG_LEVEL_WARN;
}

int config_parse_bool(const char *value, bool *out)
{
	if (!strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "on") ||
	    !strcmp(value, "1")) {
		*out = true;
		return 0;
	}
	if (!strcmp(value, "no") || !strcmp(value, "false") || !strcmp(value, "off") ||
	    !strcmp(value, "0")) {
		*out = false;
		return 0;
	}
	return -1;
}

int config_parse_uint(const char *value, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int config_copy_string(char *dst, size_t size, const char *value)
{
	if (strlen(value) >= size)
		return -1;
	memcpy(dst, value, strlen(value) + 1);
	return 0;
}

/* Comma-separated seconds, e.g. "300, 60". */
static int parse_warnings(struct config *cfg, const char *value)
{
	char buf[256];
	char *save = NULL;

	if (config_copy_string(buf, sizeof(buf), value))
		return -1;
	cfg->warning_count = 0;
	for (char *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		long v;

		if (cfg->warning_count == CONFIG_MAX_WARNINGS ||
		    config_parse_uint(tok, 1, 36000, &v))
			return -1;
		cfg->warnings_s[cfg->warning_count++] = (uint32_t)v;
	}
	return 0;
}

/* [rules] edition, also read as [game] rules (where it was before). */
static int set_edition(struct config *cfg, const char *key, const char *value, char *err,
		       size_t err_size)
{
	int e = rules_edition_parse(value);

	if (e < 0)
		BAD("%s must be 2023, 2018 or 2005, not '%s'", key, value);
	cfg->edition = (enum rules_edition)e;
	return 0;
}

static int set_rules(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	if (strcmp(key, "edition"))
		BAD("unknown key '%s' in [rules]", key);
	return set_edition(cfg, key, value, err, err_size);
}

/* Space- or comma-separated user names. */
static int parse_names(struct config *cfg, const char *value)
{
	char buf[512];
	char *save = NULL;

	if (config_copy_string(buf, sizeof(buf), value))
		return -1;
	cfg->arbiter_count = 0;
	for (char *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (cfg->arbiter_count == CONFIG_MAX_ARBITERS ||
		    config_copy_string(cfg->arbiters[cfg->arbiter_count], sizeof(cfg->arbiters[0]),
				       tok))
			return -1;
		cfg->arbiter_count++;
	}
	return 0;
}

/* A PIN in clear (its digits, hashed now with a random salt), its hash, or empty for none. */
static int set_pin(struct config *cfg, const char *key, const char *value, char *err,
		   size_t err_size)
{
	struct config_pin *pin = key[1] == 'r' ? &cfg->arbiter_pin : &cfg->assistant_pin;
	const struct config_pin *other =
	    pin == &cfg->arbiter_pin ? &cfg->assistant_pin : &cfg->arbiter_pin;
	unsigned char salt[PIN_HASH_SALT];
	size_t n = strlen(value);

	memset(pin, 0, sizeof(*pin));
	if (!n)
		return 0;
	if (!strncmp(value, PIN_HASH_PREFIX, strlen(PIN_HASH_PREFIX))) {
		if (pin_hash_parse(&pin->hash, value))
			BAD("%s: not a PIN's hash as `annabella pin` writes it", key);
		return 0;
	}
	if (n < PIN_DIGITS_MIN || n > PIN_DIGITS_MAX || strspn(value, "0123456789") != n)
		BAD("%s must be at least 4 digits (at most 31), a hash from `annabella pin`, or "
		    "empty for none",
		    key);
	if (pin_hash_check(&other->hash, value))
		BAD("arbiter-pin and assistant-pin must differ");
	if (getrandom(salt, sizeof(salt), 0) != (ssize_t)sizeof(salt))
		BAD("%s: no random source for its salt", key);
	pin_hash_make(&pin->hash, value, salt, PIN_HASH_ITERATIONS);
	return 0;
}

static int set_control(struct config *cfg, const char *key, const char *value, char *err,
		       size_t err_size)
{
	if (!strcmp(key, "socket")) {
		if (value[0] && strcmp(value, "none") && value[0] != '/')
			BAD("socket must be an absolute path or none");
		if (config_copy_string(cfg->control_socket, sizeof(cfg->control_socket), value))
			BAD("socket path too long (at most %zu characters)",
			    sizeof(cfg->control_socket) - 1);
	} else if (!strcmp(key, "group")) {
		if (config_copy_string(cfg->control_group, sizeof(cfg->control_group), value))
			BAD("group name too long");
	} else if (!strcmp(key, "arbiters")) {
		if (parse_names(cfg, value))
			BAD("arbiters must be up to %d user names", CONFIG_MAX_ARBITERS);
	} else if (!strcmp(key, "arbiter-pin") || !strcmp(key, "assistant-pin")) {
		if (set_pin(cfg, key, value, err, err_size))
			return -1;
	} else if (!strcmp(key, "pin-file")) {
		if (value[0] && value[0] != '/')
			BAD("pin-file must be an absolute path, or empty for none");
		if (config_copy_string(cfg->pin_file, sizeof(cfg->pin_file), value))
			BAD("pin-file too long");
	} else {
		BAD("unknown key '%s' in [control]", key);
	}
	return 0;
}

static int set_web(struct config *cfg, const char *key, const char *value, char *err,
		   size_t err_size)
{
	char *dst = !strcmp(key, "listen")	  ? cfg->web_listen
		    : !strcmp(key, "hosts")	  ? cfg->web_hosts
		    : !strcmp(key, "certificate") ? cfg->web_certificate
		    : !strcmp(key, "key")	  ? cfg->web_key
						  : NULL;
	size_t size = dst == cfg->web_listen	    ? sizeof(cfg->web_listen)
		      : dst == cfg->web_hosts	    ? sizeof(cfg->web_hosts)
		      : dst == cfg->web_certificate ? sizeof(cfg->web_certificate)
						    : sizeof(cfg->web_key);

	if (!dst)
		BAD("unknown key '%s' in [web]", key);
	if (dst == cfg->web_listen && value[0] && !strchr(value, ':'))
		BAD("listen must be ADDR:PORT (like 127.0.0.1:8080 or [::]:8080), not '%s'", value);
	if (dst == cfg->web_hosts &&
	    value[strspn(value, "abcdefghijklmnopqrstuvwxyz"
				"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-, ")])
		BAD("hosts: host names (letters, digits, '.', '-'), separated by spaces");
	if (dst != cfg->web_listen && dst != cfg->web_hosts && value[0] && value[0] != '/')
		BAD("%s must be an absolute path, not '%s'", key, value);
	if (config_copy_string(dst, size, value))
		BAD("%s too long", key);
	return 0;
}

static int set_game(struct config *cfg, const char *key, const char *value, char *err,
		    size_t err_size)
{
	long v;

	if (!strcmp(key, "player")) {
		int player = game_color_parse(value);

		if (player < 0)
			BAD("player must be white or black, not '%s'", value);
		cfg->player = player;
	} else if (!strcmp(key, "time-control")) {
		struct time_control tc;
		char tc_err[128];

		if (time_control_parse(value, &tc, tc_err, sizeof(tc_err)))
			BAD("time-control '%s': %s", value, tc_err);
		if (config_copy_string(cfg->time_control, sizeof(cfg->time_control), value))
			BAD("time-control too long");
	} else if (!strcmp(key, "mode")) {
		if (!strcmp(value, "tournament"))
			cfg->mode = GAME_TOURNAMENT;
		else if (!strcmp(value, "casual"))
			cfg->mode = GAME_CASUAL;
		else
			BAD("mode must be tournament or casual, not '%s'", value);
	} else if (!strcmp(key, "rules")) {
		return set_edition(cfg, key, value, err, err_size);
	} else if (!strcmp(key, "deafblind")) {
		if (config_parse_bool(value, &cfg->deafblind))
			BAD("deafblind must be yes or no, not '%s'", value);
	} else if (!strcmp(key, "promotion-ms")) {
		if (config_parse_uint(value, 500, 60000, &v))
			BAD("promotion-ms must be 500..60000");
		cfg->promotion_ms = (uint32_t)v;
	} else if (!strcmp(key, "menu-hold-ms")) {
		if (config_parse_uint(value, 300, 10000, &v))
			BAD("menu-hold-ms must be 300..10000");
		cfg->menu_hold_ms = (uint32_t)v;
	} else if (!strcmp(key, "menu-ms")) {
		if (config_parse_uint(value, 2000, 600000, &v))
			BAD("menu-ms must be 2000..600000");
		cfg->menu_ms = (uint32_t)v;
	} else if (!strcmp(key, "event") || !strcmp(key, "site") || !strcmp(key, "round") ||
		   !strcmp(key, "white") || !strcmp(key, "black")) {
		char *dst = !strcmp(key, "event")   ? cfg->event
			    : !strcmp(key, "site")  ? cfg->site
			    : !strcmp(key, "round") ? cfg->round
			    : !strcmp(key, "white") ? cfg->white
						    : cfg->black;
		size_t size = !strcmp(key, "round") ? sizeof(cfg->round) : sizeof(cfg->event);

		if (strchr(value, '"') || strchr(value, '\\') ||
		    config_copy_string(dst, size, value))
			BAD("%s must be under %zu characters, without quotes or backslashes", key,
			    size);
	} else {
		BAD("unknown key '%s' in [game]", key);
	}
	return 0;
}

static int set_detect(struct config *cfg, const char *key, const char *value, char *err,
		      size_t err_size)
{
	long v;

	if (!strcmp(key, "settle-ms")) {
		if (config_parse_uint(value, 20, 5000, &v))
			BAD("settle-ms must be 20..5000");
		cfg->detect.settle_ms = (uint32_t)v;
	} else if (!strcmp(key, "mismatch-ms")) {
		if (config_parse_uint(value, 200, 600000, &v))
			BAD("mismatch-ms must be 200..600000");
		cfg->detect.mismatch_ms = (uint32_t)v;
	} else if (!strcmp(key, "castle-wait-ms")) {
		if (config_parse_uint(value, 0, 10000, &v))
			BAD("castle-wait-ms must be 0..10000");
		cfg->detect.castle_wait_ms = (uint32_t)v;
	} else if (!strcmp(key, "in-hand-ms")) {
		if (config_parse_uint(value, 200, 3600000, &v))
			BAD("in-hand-ms must be 200..3600000");
		cfg->detect.in_hand_ms = (uint32_t)v;
	} else {
		BAD("unknown key '%s' in [detect]", key);
	}
	return 0;
}

/* [training]: the button menu's training entry and `annabella train`'s defaults (docs/training.md
 * "Training and study"). */
static int set_training(struct config *cfg, const char *key, const char *value, char *err,
			size_t err_size)
{
	long v;

	if (!strcmp(key, "menu")) {
		if (config_parse_bool(value, &cfg->train_menu))
			BAD("menu must be yes or no, not '%s'", value);
	} else if (!strcmp(key, "engine")) {
		if (value[0] != '/')
			BAD("engine must be an absolute path, not '%s'", value);
		if (config_copy_string(cfg->train_engine, sizeof(cfg->train_engine), value))
			BAD("engine path too long");
	} else if (!strcmp(key, "level")) {
		if (config_parse_uint(value, 0, 20, &v))
			BAD("level must be 0..20");
		cfg->train_level = (int)v;
	} else if (!strcmp(key, "elo")) {
		if (config_parse_uint(value, 100, 4000, &v))
			BAD("elo must be a rating from 100 to 4000");
		cfg->train_elo = (int)v;
	} else if (!strcmp(key, "movetime-ms")) {
		if (config_parse_uint(value, 10, 600000, &v))
			BAD("movetime-ms must be 10..600000");
		cfg->train_movetime_ms = (int)v;
	} else if (!strcmp(key, "review-aloud")) {
		if (config_parse_bool(value, &cfg->review_aloud))
			BAD("review-aloud must be yes or no, not '%s'", value);
	} else if (!strcmp(key, "review-comments")) {
		if (strcmp(value, "always") && strcmp(value, "request"))
			BAD("review-comments must be always or request, not '%s'", value);
		cfg->review_comments_on_request = !strcmp(value, "request");
	} else {
		BAD("unknown key '%s' in [training]", key);
	}
	return 0;
}

/* [clock]: the time warnings, what `info` says of the clocks, who hears a flag fall. */
static int set_clock(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	if (!strcmp(key, "warnings")) {
		if (parse_warnings(cfg, value))
			BAD("warnings must be up to %d numbers of seconds, e.g. 300, 60",
			    CONFIG_MAX_WARNINGS);
		return 0;
	}
	if (!strcmp(key, "info")) {
		if (!strcmp(value, "left"))
			cfg->clock_info = PRESENT_INFO_LEFT;
		else if (!strcmp(value, "used"))
			cfg->clock_info = PRESENT_INFO_USED;
		else if (!strcmp(value, "both"))
			cfg->clock_info = PRESENT_INFO_BOTH;
		else
			BAD("info must be left, used or both, not '%s'", value);
		return 0;
	}
	if (!strcmp(key, "flag-announce")) {
		if (!strcmp(value, "public"))
			cfg->flag_announce = FLAG_ANNOUNCE_PUBLIC;
		else if (!strcmp(value, "private"))
			cfg->flag_announce = FLAG_ANNOUNCE_PRIVATE;
		else if (!strcmp(value, "off"))
			cfg->flag_announce = FLAG_ANNOUNCE_OFF;
		else
			BAD("flag-announce must be public, private or off, not '%s'", value);
		return 0;
	}
	BAD("unknown key '%s' in [clock]", key);
}

/* [state]: the state directory, its syncing, and what of old games it keeps. */
static int set_state(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	bool b;

	if (!strcmp(key, "dir")) {
		if (config_copy_string(cfg->state_dir, sizeof(cfg->state_dir), value))
			BAD("dir too long");
		return 0;
	}
	if (!strcmp(key, "sync")) {
		if (config_parse_bool(value, &b))
			BAD("sync must be yes or no");
		cfg->sync = b;
		return 0;
	}
	if (!strcmp(key, "keep-audio") || !strcmp(key, "keep-games")) {
		int *keep = key[5] == 'a' ? &cfg->keep_audio : &cfg->keep_games;
		long v;

		if (!strcmp(value, "all"))
			*keep = -1;
		else if (config_parse_uint(value, 1, 1000000, &v))
			BAD("%s must be a number of games (1..1000000) or all", key);
		else
			*keep = (int)v;
		return 0;
	}
	if (!strcmp(key, "keep-audio-mb")) {
		long v;

		if (config_parse_uint(value, 0, 1000000, &v))
			BAD("keep-audio-mb must be 0..1000000 (megabytes; 0: no bound)");
		cfg->keep_audio_mb = (int)v;
		return 0;
	}
	if (!strcmp(key, "reserve")) {
		long v;

		if (config_parse_uint(value, 0, 65536, &v))
			BAD("reserve must be a number of MiB (0..65536)");
		cfg->reserve_mb = (int)v;
		return 0;
	}
	BAD("unknown key '%s' in [state]", key);
}

/* [log]: how much the daemon logs. */
static int set_log(struct config *cfg, const char *key, const char *value, char *err,
		   size_t err_size)
{
	if (!strcmp(key, "level")) {
		int level = log_level_parse(value);

		if (level < 0)
			BAD("level must be error, warn, info or debug");
		cfg->log_level = level;
		return 0;
	}
	BAD("unknown key '%s' in [log]", key);
}

static int set_board(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	return board_config_set(&cfg->board, key, value, err, err_size);
}

static int set_display(struct config *cfg, const char *key, const char *value, char *err,
		       size_t err_size)
{
	if (face_config_set(&cfg->display, key, value, err, err_size))
		return -1;
	/* The LEDs are lines of the board's chip: the board requests and drives them. */
	for (int side = 0; side < 2; side++)
		cfg->board.led_lines[side] =
		    cfg->display.led[side] < 0 ? BOARD_NO_LINE : cfg->display.led[side];
	return 0;
}

static int set_power(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	return power_config_set(&cfg->power, key, value, err, err_size);
}

static int set_fairplay(struct config *cfg, const char *key, const char *value, char *err,
			size_t err_size)
{
	return fairplay_config_set(&cfg->fairplay, key, value, err, err_size);
}

static int set_online(struct config *cfg, const char *key, const char *value, char *err,
		      size_t err_size)
{
	return online_config_set(&cfg->online, key, value, err, err_size);
}

/* Each section and the setter of its keys. */
static const struct {
	const char *name;
	int (*set)(struct config *cfg, const char *key, const char *value, char *err,
		   size_t err_size);
} sections[] = {
    {"game", set_game},
    {"rules", set_rules},
    {"control", set_control},
    {"web", set_web},
    {"detect", set_detect},
    {"voice", config_set_voice},
    {"speech", config_set_speech},
    {"braille", config_set_braille},
    {"broadcast", config_set_broadcast},
    {"relay", config_set_relay},
    {"training", set_training},
    {"board", set_board},
    {"display", set_display},
    {"power", set_power},
    {"haptic", config_set_haptic},
    {"fairplay", set_fairplay},
    {"online", set_online},
    {"clock", set_clock},
    {"state", set_state},
    {"log", set_log},
};

int config_set(struct config *cfg, const char *section, const char *key, const char *value,
	       char *err, size_t err_size)
{
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (!strcmp(section, sections[i].name))
			return sections[i].set(cfg, key, value, err, err_size);
	if (!*section)
		BAD("key '%s' outside a section", key);
	BAD("unknown section [%s]", section);
}

/* ------------------------------------------------------------------ the PIN file */

/* Whether the file at path holds something besides white space. */
static bool has_text(const char *path)
{
	char text[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, text, sizeof(text)) : -1;

	if (fd >= 0)
		close(fd);
	for (ssize_t i = 0; i < n; i++)
		if (!strchr(" \t\r\n", text[i]))
			return true;
	return false;
}

const char *config_secret_path(const char *name, const char *path, char *buf, size_t size)
{
	const char *dir = getenv("CREDENTIALS_DIRECTORY");

	/* One of white space alone is the unit's stand-in for a file it did not find
	 * (SetCredential=). */
	if (dir && dir[0] && snprintf(buf, size, "%s/%s", dir, name) < (int)size && has_text(buf))
		return buf;
	return path;
}

bool config_pin_exposed(const struct config_pin *pin)
{
	struct stat st;

	return pin->hash.set && pin->file[0] && stat(pin->file, &st) == 0 &&
	       (st.st_mode & (S_IRGRP | S_IROTH));
}

int config_load_pins(struct config *cfg, char *warn, size_t warn_size, char *err, size_t err_size)
{
	char buf[PATH_MAX], line[512];
	const char *path = config_secret_path("pins", cfg->pin_file, buf, sizeof(buf));
	struct config pins;
	FILE *f;
	int n = 0;

	warn[0] = '\0';
	if (!path[0])
		return 0;
	f = fopen(path, "r");
	if (!f) {
		if (errno != ENOENT)
			snprintf(warn, warn_size, "%s: cannot read: %s; no PIN gives a role", path,
				 strerror(errno));
		return 0;
	}
	/* Its own PINs: each it names replaces the configuration's. */
	pins.arbiter_pin = cfg->arbiter_pin;
	pins.assistant_pin = cfg->assistant_pin;
	while (fgets(line, sizeof(line), f)) {
		char *key = line, *eq, *value, *end;
		char msg[200];

		n++;
		line[strcspn(line, "\r\n")] = '\0';
		key += strspn(key, " \t");
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			snprintf(err, err_size, "%s:%d: KEY = VALUE expected", path, n);
			fclose(f);
			return -1;
		}
		value = eq + 1 + strspn(eq + 1, " \t");
		for (end = eq; end > key && (end[-1] == ' ' || end[-1] == '\t'); end--)
			;
		*end = '\0';
		for (end = value + strlen(value);
		     end > value && (end[-1] == ' ' || end[-1] == '\t');)
			*--end = '\0';
		if ((strcmp(key, "arbiter-pin") && strcmp(key, "assistant-pin")) ||
		    set_pin(&pins, key, value, msg, sizeof(msg))) {
			snprintf(err, err_size, "%s:%d: %s", path, n,
				 strcmp(key, "arbiter-pin") && strcmp(key, "assistant-pin")
				     ? "only arbiter-pin and assistant-pin belong in the PIN file"
				     : msg);
			fclose(f);
			return -1;
		}
		{
			struct config_pin *pin =
			    key[1] == 'r' ? &pins.arbiter_pin : &pins.assistant_pin;

			snprintf(pin->file, sizeof(pin->file), "%s", path);
			pin->line = n;
		}
	}
	fclose(f);
	cfg->arbiter_pin = pins.arbiter_pin;
	cfg->assistant_pin = pins.assistant_pin;
	return 0;
}
