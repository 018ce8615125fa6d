/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config/config.h"
#include "base/sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chess/chess.h"
#include "game/color.h"
#include "base/log.h"
#include "base/utf8.h"

/* The patterns felt apart without looking: the opponent's move one pulse, a time warning
 * three short ones, a flag one long one, the arbiter two short and a long one. */
static void haptic_config_defaults(struct haptic_config *h)
{
	static const char *const defaults[HAPTIC_EVENT_COUNT] = {
	    [HAPTIC_MOVE] = "400",
	    [HAPTIC_WARNING] = "150 150 150 150 150",
	    [HAPTIC_FLAG] = "1500",
	    [HAPTIC_ARBITER] = "150 100 150 100 800",
	};
	char err[80];

	for (int e = 0; e < HAPTIC_EVENT_COUNT; e++)
		haptic_pattern_parse(defaults[e], &h->pattern[e], err, sizeof(err));
}

const char *haptic_event_name(enum haptic_event e)
{
	static const char *const names[HAPTIC_EVENT_COUNT] = {
	    [HAPTIC_MOVE] = "move",
	    [HAPTIC_WARNING] = "warning",
	    [HAPTIC_FLAG] = "flag",
	    [HAPTIC_ARBITER] = "arbiter",
	};

	return (unsigned)e < HAPTIC_EVENT_COUNT ? names[e] : "?";
}

int haptic_pattern_parse(const char *text, struct haptic_pattern *out, char *err, size_t size)
{
	struct haptic_pattern p = {0};
	const char *s = text;

	for (;;) {
		char *end;
		long v;

		while (*s == ' ' || *s == ',')
			s++;
		if (!*s)
			break;
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || end == s || (*end && *end != ' ' && *end != ',')) {
			snprintf(err, size, "'%s' is not a pattern of milliseconds (on off on ...)",
				 text);
			return -1;
		}
		if (v < HAPTIC_PULSE_MIN || v > HAPTIC_PULSE_MAX) {
			snprintf(err, size, "%ld ms: each on or off time must be %d..%d ms", v,
				 HAPTIC_PULSE_MIN, HAPTIC_PULSE_MAX);
			return -1;
		}
		if (p.count == HAPTIC_PATTERN_MAX) {
			snprintf(err, size, "at most %d times in a pattern", HAPTIC_PATTERN_MAX);
			return -1;
		}
		p.ms[p.count++] = (uint16_t)v;
		s = end;
	}
	if (p.count % 2 == 0) {
		snprintf(err, size,
			 "'%s': a pattern begins and ends with the motor on (an odd "
			 "number of times)",
			 text);
		return -1;
	}
	*out = p;
	return 0;
}

static void power_config_defaults(struct power_config *cfg);

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

static int parse_uint(const char *value, long min, long max, long *out)
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

static int copy_string(char *dst, size_t size, const char *value)
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

	if (copy_string(buf, sizeof(buf), value))
		return -1;
	cfg->warning_count = 0;
	for (char *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		long v;

		if (cfg->warning_count == CONFIG_MAX_WARNINGS || parse_uint(tok, 1, 36000, &v))
			return -1;
		cfg->warnings_s[cfg->warning_count++] = (uint32_t)v;
	}
	return 0;
}

#define BAD(...)                                                                                   \
	do {                                                                                       \
		snprintf(err, err_size, __VA_ARGS__);                                              \
		return -1;                                                                         \
	} while (0)

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

	if (copy_string(buf, sizeof(buf), value))
		return -1;
	cfg->arbiter_count = 0;
	for (char *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (cfg->arbiter_count == CONFIG_MAX_ARBITERS ||
		    copy_string(cfg->arbiters[cfg->arbiter_count], sizeof(cfg->arbiters[0]), tok))
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
		if (copy_string(cfg->control_socket, sizeof(cfg->control_socket), value))
			BAD("socket path too long (at most %zu characters)",
			    sizeof(cfg->control_socket) - 1);
	} else if (!strcmp(key, "group")) {
		if (copy_string(cfg->control_group, sizeof(cfg->control_group), value))
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
		if (copy_string(cfg->pin_file, sizeof(cfg->pin_file), value))
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
	if (copy_string(dst, size, value))
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
		if (copy_string(cfg->time_control, sizeof(cfg->time_control), value))
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
		if (parse_uint(value, 500, 60000, &v))
			BAD("promotion-ms must be 500..60000");
		cfg->promotion_ms = (uint32_t)v;
	} else if (!strcmp(key, "menu-hold-ms")) {
		if (parse_uint(value, 300, 10000, &v))
			BAD("menu-hold-ms must be 300..10000");
		cfg->menu_hold_ms = (uint32_t)v;
	} else if (!strcmp(key, "menu-ms")) {
		if (parse_uint(value, 2000, 600000, &v))
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

		if (strchr(value, '"') || strchr(value, '\\') || copy_string(dst, size, value))
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
		if (parse_uint(value, 20, 5000, &v))
			BAD("settle-ms must be 20..5000");
		cfg->detect.settle_ms = (uint32_t)v;
	} else if (!strcmp(key, "mismatch-ms")) {
		if (parse_uint(value, 200, 600000, &v))
			BAD("mismatch-ms must be 200..600000");
		cfg->detect.mismatch_ms = (uint32_t)v;
	} else if (!strcmp(key, "castle-wait-ms")) {
		if (parse_uint(value, 0, 10000, &v))
			BAD("castle-wait-ms must be 0..10000");
		cfg->detect.castle_wait_ms = (uint32_t)v;
	} else if (!strcmp(key, "in-hand-ms")) {
		if (parse_uint(value, 200, 3600000, &v))
			BAD("in-hand-ms must be 200..3600000");
		cfg->detect.in_hand_ms = (uint32_t)v;
	} else {
		BAD("unknown key '%s' in [detect]", key);
	}
	return 0;
}

/* rate, pitch, volume, variant: "public-rate" for one channel, "rate" for both.  0 if
 * set; -1 with err empty if the key is not one of them, with a message if the value is
 * bad. */
static int set_voice_params(struct config *cfg, const char *key, const char *value, char *err,
			    size_t err_size)
{
	int first = 0, last = VOICE_CHANNEL_COUNT - 1;
	const char *name = key;
	long v = 0;

	err[0] = '\0';
	if (!strncmp(key, "public-", 7)) {
		first = last = VOICE_PUBLIC;
		name = key + 7;
	} else if (!strncmp(key, "private-", 8)) {
		first = last = VOICE_PRIVATE;
		name = key + 8;
	}
	if (!strcmp(name, "rate")) {
		if (parse_uint(value, 80, 450, &v))
			BAD("%s must be 80..450 words per minute", key);
	} else if (!strcmp(name, "pitch")) {
		if (parse_uint(value, 0, 100, &v))
			BAD("%s must be 0..100", key);
	} else if (!strcmp(name, "volume")) {
		if (parse_uint(value, 0, 200, &v))
			BAD("%s must be 0..200", key);
	} else if (!strcmp(name, "variant")) {
		if (strlen(value) >= sizeof(cfg->voice.params[0].variant) ||
		    strspn(value, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(value))
			BAD("%s must be an eSpeak NG variant name (e.g. f2, klatt), or empty", key);
	} else {
		return -1;
	}
	for (int ch = first; ch <= last; ch++) {
		struct voice_params *p = &cfg->voice.params[ch];

		if (!strcmp(name, "rate"))
			p->rate = (int)v;
		else if (!strcmp(name, "pitch"))
			p->pitch = (int)v;
		else if (!strcmp(name, "volume"))
			p->volume = (int)v;
		else
			copy_string(p->variant, sizeof(p->variant), value);
	}
	return 0;
}

/* [speech]: pronunciation overrides and how a repeat asked again is said.
 * "pronounce WORD" is for the German voice, "pronounce-en WORD" (-sv, -nl) for another. */
static int set_speech(struct config *cfg, const char *key, const char *value, char *err,
		      size_t err_size)
{
	long v;

	if (!strncmp(key, "pronounce", 9)) {
		const char *word = key + 9;
		int lang = PHRASE_DE;

		if (word[0] == '-') {
			char code[3] = {word[1], word[1] ? word[2] : '\0', '\0'};

			lang = phrase_lang_parse(code);
			if (lang < 0 || !word[1] || !word[2])
				BAD("'%s': pronounce-LANG takes de, en, sv or nl", key);
			word += 3;
		}
		if (word[0] != ' ')
			BAD("'%s': write pronounce WORD = PHONEMES", key);
		word += strspn(word, " ");
		cfg->pronounce_again = false;
		for (int i = 0; i < cfg->voice.pronounce.count; i++)
			if (cfg->voice.pronounce.user[i].lang == (enum phrase_lang)lang &&
			    !strcmp(cfg->voice.pronounce.user[i].word, word))
				cfg->pronounce_again = true;
		if (pronounce_add(&cfg->voice.pronounce, (enum phrase_lang)lang, word, value, err,
				  err_size))
			return -1;
		for (int i = 0; i < cfg->voice.pronounce.count; i++)
			if (cfg->voice.pronounce.user[i].lang == (enum phrase_lang)lang &&
			    !strcmp(cfg->voice.pronounce.user[i].word, word))
				cfg->pronounce_last = i;
		return 0;
	}
	if (!strcmp(key, "slow-repeat")) {
		if (parse_uint(value, 50, 100, &v))
			BAD("slow-repeat must be 50..100 (percent of the rate)");
		cfg->slow_repeat = (int)v;
		return 0;
	}
	BAD("unknown key '%s' in [speech]", key);
}

/* [braille]: the live display through BRLTTY. */
static int set_braille(struct config *cfg, const char *key, const char *value, char *err,
		       size_t err_size)
{
	long v;

	if (!strcmp(key, "display")) {
		if (config_parse_bool(value, &cfg->braille_display))
			BAD("display must be yes or no, not '%s'", value);
	} else if (!strcmp(key, "messages")) {
		if (config_parse_bool(value, &cfg->braille_messages))
			BAD("messages must be yes or no, not '%s'", value);
	} else if (!strcmp(key, "host")) {
		if (copy_string(cfg->braille_host, sizeof(cfg->braille_host), value))
			BAD("host too long");
	} else if (!strcmp(key, "auth")) {
		if (copy_string(cfg->braille_auth, sizeof(cfg->braille_auth), value))
			BAD("auth too long");
	} else if (!strcmp(key, "tty")) {
		if (!strcmp(value, "root"))
			cfg->braille_tty = -1;
		else if (parse_uint(value, 0, 63, &v))
			BAD("tty must be root or 0..63");
		else
			cfg->braille_tty = (int)v;
	} else if (!strcmp(key, "notation")) {
		if (!strcmp(value, "bca"))
			cfg->braille_notation = BRAILLE_NOTATION_BCA;
		else if (!strcmp(value, "computer"))
			cfg->braille_notation = BRAILLE_NOTATION_COMPUTER;
		else
			BAD("notation must be bca or computer, not '%s'", value);
	} else if (!strcmp(key, "page-lines")) {
		if (strcmp(value, "0") &&
		    parse_uint(value, BRAILLE_PAGE_LINES_MIN, BRAILLE_PAGE_LINES_MAX, &v))
			BAD("page-lines must be 0 (no pages) or %d..%d", BRAILLE_PAGE_LINES_MIN,
			    BRAILLE_PAGE_LINES_MAX);
		cfg->braille_layout.lines_per_page = strcmp(value, "0") ? (int)v : 0;
	} else if (!strcmp(key, "line-cells")) {
		if (parse_uint(value, BRAILLE_LINE_CELLS_MIN, BRAILLE_LINE_CELLS_MAX, &v))
			BAD("line-cells must be %d..%d", BRAILLE_LINE_CELLS_MIN,
			    BRAILLE_LINE_CELLS_MAX);
		cfg->braille_layout.cells_per_line = (int)v;
	} else if (!strcmp(key, "page-number")) {
		if (!strcmp(value, "bottom"))
			cfg->braille_layout.page_number = BRAILLE_PAGE_NUMBER_BOTTOM;
		else if (!strcmp(value, "top"))
			cfg->braille_layout.page_number = BRAILLE_PAGE_NUMBER_TOP;
		else if (!strcmp(value, "none"))
			cfg->braille_layout.page_number = BRAILLE_PAGE_NUMBER_NONE;
		else
			BAD("page-number must be bottom, top or none, not '%s'", value);
	} else if (!strcmp(key, "signs")) {
		if (!strcmp(value, "after"))
			cfg->braille_layout.signs = BRAILLE_SIGNS_AFTER;
		else if (!strcmp(value, "before-square"))
			cfg->braille_layout.signs = BRAILLE_SIGNS_BEFORE_SQUARE;
		else
			BAD("signs must be after or before-square, not '%s'", value);
	} else {
		BAD("unknown key '%s' in [braille]", key);
	}
	return 0;
}

static int set_voice(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	bool b;

	if (!strcmp(key, "language")) {
		int lang = phrase_lang_parse(value);

		if (lang < 0)
			BAD("language must be de, en, sv or nl, not '%s'", value);
		cfg->phrases.lang = (enum phrase_lang)lang;
	} else if (!strcmp(key, "short-form") || !strcmp(key, "national-ranks") ||
		   !strcmp(key, "announce-check") || !strcmp(key, "record")) {
		if (config_parse_bool(value, &b))
			BAD("%s must be yes or no, not '%s'", key, value);
		if (!strcmp(key, "short-form"))
			cfg->phrases.short_form = b;
		else if (!strcmp(key, "national-ranks"))
			cfg->phrases.national_ranks = b;
		else if (!strcmp(key, "record"))
			cfg->voice.record = b;
		else {
			cfg->phrases.announce_check = b;
			cfg->announce_check_set = true;
		}
	} else if (!strcmp(key, "audio")) {
		if (!strcmp(value, "alsa"))
			cfg->voice.sink = VOICE_SINK_ALSA;
		else if (!strcmp(value, "wav"))
			cfg->voice.sink = VOICE_SINK_WAV;
		else if (!strcmp(value, "none"))
			cfg->voice.sink = VOICE_SINK_NONE;
		else
			BAD("audio must be alsa, wav or none, not '%s'", value);
	} else if (!strncmp(key, "voice-", 6)) {
		int lang = phrase_lang_parse(key + 6);

		if (lang < 0)
			BAD("'%s': voice-LANG takes de, en, sv or nl", key);
		if (strlen(value) >= sizeof(cfg->voice.voice_name[0]) ||
		    strspn(value,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
			strlen(value))
			BAD("%s must be an eSpeak NG voice name (e.g. mb-de6, de), or empty", key);
		copy_string(cfg->voice.voice_name[lang], sizeof(cfg->voice.voice_name[lang]),
			    value);
	} else if (!strcmp(key, "engine")) {
		if (!strcmp(value, "library"))
			cfg->voice.engine = VOICE_ENGINE_LIBRARY;
		else if (!strcmp(value, "process"))
			cfg->voice.engine = VOICE_ENGINE_PROCESS;
		else
			BAD("engine must be library or process, not '%s'", value);
	} else if (set_voice_params(cfg, key, value, err, err_size) == 0) {
		return 0;
	} else if (err[0]) {
		return -1;
	} else if (!strcmp(key, "public-device") || !strcmp(key, "private-device")) {
		int ch = !strcmp(key, "public-device") ? VOICE_PUBLIC : VOICE_PRIVATE;

		if (copy_string(cfg->voice.device[ch], sizeof(cfg->voice.device[ch]), value))
			BAD("%s too long", key);
	} else {
		BAD("unknown key '%s' in [voice]", key);
	}
	return 0;
}

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
		if (copy_string(keys[i].dst, keys[i].size, value))
			BAD("%s too long (at most %zu characters)", key, keys[i].size - 1);
		return 1;
	}
	return 0;
}

static int set_broadcast(struct config *cfg, const char *key, const char *value, char *err,
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
		if (copy_string(cfg->broadcast_board, sizeof(cfg->broadcast_board), value))
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

static int set_relay(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size)
{
	int rc = set_mqtt(&cfg->relay_mqtt, key, value, err, err_size);

	if (rc)
		return rc < 0 ? -1 : 0;
	if (!strcmp(key, "listen")) {
		if (!strchr(value, ':'))
			BAD("listen must be ADDR:PORT");
		if (copy_string(cfg->relay_listen, sizeof(cfg->relay_listen), value))
			BAD("listen too long");
	} else if (!strcmp(key, "arbiter-listen")) {
		if (!strchr(value, ':'))
			BAD("arbiter-listen must be ADDR:PORT");
		if (copy_string(cfg->relay_arbiter_listen, sizeof(cfg->relay_arbiter_listen),
				value))
			BAD("arbiter-listen too long");
	} else if (!strcmp(key, "delay")) {
		int s = config_minutes(value);

		if (s < 0)
			BAD("delay must be minutes from 0 to 1440 (a fraction allowed: 0.5)");
		cfg->relay_delay_s = s;
	} else if (!strcmp(key, "boards")) {
		if (copy_string(cfg->relay_boards, sizeof(cfg->relay_boards), value))
			BAD("boards too long (at most %zu characters)",
			    sizeof(cfg->relay_boards) - 1);
	} else if (!strcmp(key, "round")) {
		if (value[0] && value[0] != '/')
			BAD("round must be an absolute path");
		if (copy_string(cfg->relay_round, sizeof(cfg->relay_round), value))
			BAD("round too long");
	} else {
		BAD("unknown key '%s' in [relay]", key);
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
		if (copy_string(cfg->train_engine, sizeof(cfg->train_engine), value))
			BAD("engine path too long");
	} else if (!strcmp(key, "level")) {
		if (parse_uint(value, 0, 20, &v))
			BAD("level must be 0..20");
		cfg->train_level = (int)v;
	} else if (!strcmp(key, "elo")) {
		if (parse_uint(value, 100, 4000, &v))
			BAD("elo must be a rating from 100 to 4000");
		cfg->train_elo = (int)v;
	} else if (!strcmp(key, "movetime-ms")) {
		if (parse_uint(value, 10, 600000, &v))
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

/* [haptic]: the vibration motor's line on the board's chip and its patterns. */
static int set_haptic(struct config *cfg, const char *key, const char *value, char *err,
		      size_t err_size)
{
	char msg[160];
	long v;

	if (!strcmp(key, "line")) {
		if (!strcmp(value, "none"))
			cfg->board.haptic_line = BOARD_NO_LINE;
		else if (parse_uint(value, 0, BOARD_MAX_LINE, &v))
			BAD("line must be none or a line of the board's chip, 0..%d",
			    BOARD_MAX_LINE);
		else
			cfg->board.haptic_line = (int)v;
		return 0;
	}
	for (int e = 0; e < HAPTIC_EVENT_COUNT; e++) {
		if (strcmp(key, haptic_event_name((enum haptic_event)e)))
			continue;
		if (haptic_pattern_parse(value, &cfg->haptic.pattern[e], msg, sizeof(msg)))
			BAD("%s: %s", key, msg);
		return 0;
	}
	BAD("unknown key '%s' in [haptic]", key);
}

/* ------------------------------------------------------------------ [power] */

static void power_config_defaults(struct power_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->monitor = POWER_MONITOR_AUTO;
	snprintf(cfg->sysfs, sizeof(cfg->sysfs), "/sys");
	snprintf(cfg->undervoltage, sizeof(cfg->undervoltage), "auto");
	snprintf(cfg->supply, sizeof(cfg->supply), "auto");
	cfg->low_percent = 20;
	cfg->low_hours = 10;
}

static int set_power_path(char *dst, size_t size, const char *key, const char *value, char *err,
			  size_t err_size)
{
	if (strcmp(value, "auto") && strcmp(value, "none") && value[0] != '/')
		BAD("%s must be auto, none or an absolute path, not '%s'", key, value);
	if (snprintf(dst, size, "%s", value) >= (int)size)
		BAD("%s too long", key);
	return 0;
}

/* One [power] key.  0, or -1 with a message in err. */
static int power_config_set(struct power_config *cfg, const char *key, const char *value, char *err,
			    size_t err_size)
{
	if (!strcmp(key, "monitor")) {
		if (!strcmp(value, "auto"))
			cfg->monitor = POWER_MONITOR_AUTO;
		else if (!strcmp(value, "yes"))
			cfg->monitor = POWER_MONITOR_YES;
		else if (!strcmp(value, "no"))
			cfg->monitor = POWER_MONITOR_NO;
		else
			BAD("monitor must be auto, yes or no, not '%s'", value);
		return 0;
	}
	if (!strcmp(key, "sysfs")) {
		if (value[0] != '/')
			BAD("sysfs must be an absolute path, not '%s'", value);
		if (snprintf(cfg->sysfs, sizeof(cfg->sysfs), "%s", value) >=
		    (int)sizeof(cfg->sysfs))
			BAD("sysfs too long");
		return 0;
	}
	if (!strcmp(key, "undervoltage"))
		return set_power_path(cfg->undervoltage, sizeof(cfg->undervoltage), key, value, err,
				      err_size);
	if (!strcmp(key, "supply"))
		return set_power_path(cfg->supply, sizeof(cfg->supply), key, value, err, err_size);
	if (!strcmp(key, "low-percent")) {
		char *end;
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || *end || end == value || v < 1 || v > 99)
			BAD("low-percent must be 1..99, not '%s'", value);
		cfg->low_percent = (int)v;
		return 0;
	}
	if (!strcmp(key, "low-hours")) {
		char *end;
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || *end || end == value || v < 1 || v > 48)
			BAD("low-hours must be 1..48, not '%s'", value);
		cfg->low_hours = (int)v;
		return 0;
	}
	BAD("unknown key '%s' in [power]", key);
}

int config_set(struct config *cfg, const char *section, const char *key, const char *value,
	       char *err, size_t err_size)
{
	bool b;

	if (!strcmp(section, "game"))
		return set_game(cfg, key, value, err, err_size);
	if (!strcmp(section, "rules"))
		return set_rules(cfg, key, value, err, err_size);
	if (!strcmp(section, "control"))
		return set_control(cfg, key, value, err, err_size);
	if (!strcmp(section, "web"))
		return set_web(cfg, key, value, err, err_size);
	if (!strcmp(section, "detect"))
		return set_detect(cfg, key, value, err, err_size);
	if (!strcmp(section, "voice"))
		return set_voice(cfg, key, value, err, err_size);
	if (!strcmp(section, "speech"))
		return set_speech(cfg, key, value, err, err_size);
	if (!strcmp(section, "braille"))
		return set_braille(cfg, key, value, err, err_size);
	if (!strcmp(section, "broadcast"))
		return set_broadcast(cfg, key, value, err, err_size);
	if (!strcmp(section, "relay"))
		return set_relay(cfg, key, value, err, err_size);
	if (!strcmp(section, "training"))
		return set_training(cfg, key, value, err, err_size);
	if (!strcmp(section, "board"))
		return board_config_set(&cfg->board, key, value, err, err_size);
	if (!strcmp(section, "display")) {
		if (face_config_set(&cfg->display, key, value, err, err_size))
			return -1;
		/* The LEDs are lines of the board's chip: the board requests and drives them. */
		for (int side = 0; side < 2; side++)
			cfg->board.led_lines[side] =
			    cfg->display.led[side] < 0 ? BOARD_NO_LINE : cfg->display.led[side];
		return 0;
	}
	if (!strcmp(section, "power"))
		return power_config_set(&cfg->power, key, value, err, err_size);
	if (!strcmp(section, "haptic"))
		return set_haptic(cfg, key, value, err, err_size);
	if (!strcmp(section, "fairplay"))
		return fairplay_config_set(&cfg->fairplay, key, value, err, err_size);
	if (!strcmp(section, "online"))
		return online_config_set(&cfg->online, key, value, err, err_size);
	if (!strcmp(section, "clock")) {
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
				BAD("flag-announce must be public, private or off, not '%s'",
				    value);
			return 0;
		}
		BAD("unknown key '%s' in [clock]", key);
	}
	if (!strcmp(section, "state")) {
		if (!strcmp(key, "dir")) {
			if (copy_string(cfg->state_dir, sizeof(cfg->state_dir), value))
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
			else if (parse_uint(value, 1, 1000000, &v))
				BAD("%s must be a number of games (1..1000000) or all", key);
			else
				*keep = (int)v;
			return 0;
		}
		if (!strcmp(key, "keep-audio-mb")) {
			long v;

			if (parse_uint(value, 0, 1000000, &v))
				BAD("keep-audio-mb must be 0..1000000 (megabytes; 0: no bound)");
			cfg->keep_audio_mb = (int)v;
			return 0;
		}
		if (!strcmp(key, "reserve")) {
			long v;

			if (parse_uint(value, 0, 65536, &v))
				BAD("reserve must be a number of MiB (0..65536)");
			cfg->reserve_mb = (int)v;
			return 0;
		}
		BAD("unknown key '%s' in [state]", key);
	}
	if (!strcmp(section, "log")) {
		if (!strcmp(key, "level")) {
			int level = log_level_parse(value);

			if (level < 0)
				BAD("level must be error, warn, info or debug");
			cfg->log_level = level;
			return 0;
		}
		BAD("unknown key '%s' in [log]", key);
	}
	if (!*section)
		BAD("key '%s' outside a section", key);
	BAD("unknown section [%s]", section);
}

/* The squares list of a direct wiring (64 line numbers) may not fit on one line: it is
 * gathered over indented continuation lines and applied after the file is read. */
#define SQUARES_TEXT_MAX 1024

struct load_ctx {
	struct config *cfg;
	const char *path;
	FILE *file;
	int line;	/* line last read */
	int error_line; /* first line whose key was refused */
	int long_line;	/* first key line too long for the parser */
	bool indented;	/* the line just read starts with blanks: a continuation */
	int squares_line;
	size_t squares_len;
	char squares[SQUARES_TEXT_MAX];
	char message[200];
};

/* Reads for inih, counting lines, so a refused key's message goes with its line.  A line
 * longer than inih's buffer would be cut in two there and misnumber every line after it;
 * a long comment is dropped, a long key line is refused after reading. */
static char *reader(char *str, int num, void *stream)
{
	struct load_ctx *ctx = stream;
	char *s = fgets(str, num, ctx->file);
	size_t len;

	if (!s)
		return NULL;
	ctx->line++;
	ctx->indented = s[0] == ' ' || s[0] == '\t';
	len = strlen(s);
	if (len > 0 && s[len - 1] != '\n' && !feof(ctx->file)) {
		const char *p = s + strspn(s, " \t");
		int c;

		while ((c = fgetc(ctx->file)) != EOF && c != '\n')
			;
		if (*p != '#' && *p != ';' && !ctx->long_line)
			ctx->long_line = ctx->line;
		s[0] = '\n';
		s[1] = '\0';
	}
	return s;
}

static int refuse(struct load_ctx *ctx, const char *msg)
{
	if (!ctx->error_line) {
		ctx->error_line = ctx->line;
		snprintf(ctx->message, sizeof(ctx->message), "%s", msg);
	}
	return 0;
}

/* Keys whose empty value means something (none, the default): any other empty value is a
 * mistake, named with its line rather than taken as a path "" or a number 0. */
static bool may_be_empty(const char *key)
{
	static const char *const keys[] = {"arbiter-pin",
					   "assistant-pin",
					   "variant",
					   "public-variant",
					   "private-variant",
					   "voice-de",
					   "voice-en",
					   "voice-sv",
					   "voice-nl",
					   "host",
					   "auth",
					   "warnings",
					   "event",
					   "site",
					   "round",
					   "white",
					   "black",
					   "arbiters",
					   "tty",
					   "club",
					   "utmp",
					   "dpkg-info"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* Whether value holds a character that breaks the line or turns the text (a tab is
 * white space). */
static bool turns_text(const char *value)
{
	const unsigned char *p = (const unsigned char *)value;
	size_t len = strlen(value);

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_decode(p + i, len - i, &cp);

		if (n && cp != '\t' && utf8_effect(cp) != UTF8_PLAIN)
			return true;
		i += n ? n : 1;
	}
	return false;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *ctx = user;
	char msg[200];

	/* Values become tags, names and words a person reads: nothing that breaks a line or
	 * turns the text (base/utf8.h).  Bytes that are no UTF-8 (a file in Latin-1 from
	 * before) are taken as they were: the scoresheets write them as U+FFFD. */
	if (turns_text(value)) {
		snprintf(msg, sizeof(msg),
			 "%s: a character that breaks the line or turns the text (such as U+202E "
			 "or U+2028)",
			 name);
		return refuse(ctx, msg);
	}
	if (!strcmp(section, "board") && !strcmp(name, "squares")) {
		size_t n = strlen(value);

		/* A new squares key replaces the list, as a later value does for any key;
		 * an indented line continues it. */
		if (!ctx->indented) {
			ctx->squares_len = 0;
			ctx->squares_line = ctx->line;
		}
		if (ctx->squares_len + n + 2 > sizeof(ctx->squares))
			return refuse(ctx, "squares: too long");
		if (ctx->squares_len)
			ctx->squares[ctx->squares_len++] = ' ';
		memcpy(ctx->squares + ctx->squares_len, value, n + 1);
		ctx->squares_len += n;
		return 1;
	}
	if (!value[0] && !may_be_empty(name)) {
		snprintf(msg, sizeof(msg), "%s has no value", name);
		return refuse(ctx, msg);
	}
	if (config_set(ctx->cfg, section, name, value, msg, sizeof(msg)) == 0) {
		if (!strcmp(section, "control") && strstr(name, "-pin")) {
			struct config_pin *pin =
			    name[1] == 'r' ? &ctx->cfg->arbiter_pin : &ctx->cfg->assistant_pin;

			snprintf(pin->file, sizeof(pin->file), "%s", ctx->path);
			pin->line = ctx->line;
		}
		if (!strcmp(section, "speech") && !strncmp(name, "pronounce", 9)) {
			struct config_place *at = &ctx->cfg->pronounce_at[ctx->cfg->pronounce_last];

			/* The last given wins; where the one it replaced was given is kept. */
			ctx->cfg->pronounce_replaced[ctx->cfg->pronounce_last] =
			    ctx->cfg->pronounce_again ? *at : (struct config_place){0};
			snprintf(at->file, sizeof(at->file), "%s", ctx->path);
			at->line = ctx->line;
		}
		return 1;
	}
	return refuse(ctx, msg);
}

static int load_file(struct config *cfg, const char *path, char *err, size_t err_size)
{
	struct load_ctx ctx = {.cfg = cfg, .path = path};
	char msg[200];
	int rc;

	ctx.file = fopen(path, "r");
	if (!ctx.file) {
		snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	{
		struct stat st;

		if (fstat(fileno(ctx.file), &st) == 0 && !S_ISREG(st.st_mode)) {
			fclose(ctx.file);
			snprintf(err, err_size, "%s: not a configuration file (%s)", path,
				 S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
			return -1;
		}
	}
	rc = ini_parse_stream(reader, &ctx, handler, &ctx);
	fclose(ctx.file);
	if (rc == -2) {
		snprintf(err, err_size, "%s: out of memory", path);
		return -1;
	}
	if (ctx.long_line && (rc <= 0 || ctx.long_line < rc)) {
		snprintf(err, err_size,
			 "%s:%d: line too long (at most 198 characters; continue a long value on "
			 "indented lines)",
			 path, ctx.long_line);
		return -1;
	}
	if (rc > 0) {
		snprintf(err, err_size, "%s:%d: %s", path, rc,
			 rc == ctx.error_line ? ctx.message
					      : "syntax error (expected [section] or key = value)");
		return -1;
	}
	if (ctx.squares_line &&
	    board_config_set(&cfg->board, "squares", ctx.squares, msg, sizeof(msg))) {
		snprintf(err, err_size, "%s:%d: %s", path, ctx.squares_line, msg);
		return -1;
	}
	return 0;
}

/* A drop-in's name: NAME.conf, not hidden (an editor's or a package manager's leftovers,
 * such as .x.conf.swp or x.conf.dpkg-dist, are not read). */
static int dropin_filter(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".conf");
}

/* Byte order, whatever the locale: 10-x.conf before 20-y.conf before a.conf. */
static int dropin_order(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The bytes of a file read into the configuration's digest (config.h). */
static void digest_file(struct sha256 *h, const char *path)
{
	unsigned char buf[4096];
	FILE *f = fopen(path, "rbe");
	size_t n;

	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(h, buf, n);
	fclose(f);
}

static void digest_done(struct config *cfg, struct sha256 *h)
{
	unsigned char digest[SHA256_SIZE];
	char hex[2 * SHA256_SIZE + 1];

	sha256_final(h, digest);
	sha256_hex(digest, SHA256_SIZE, hex);
	snprintf(cfg->digest, sizeof(cfg->digest), "%.16s", hex);
}

int config_load(struct config *cfg, const char *path, char *err, size_t err_size)
{
	char dir[PATH_MAX], file[PATH_MAX];
	struct dirent **names;
	struct sha256 h;
	int n, rc = 0;

	sha256_init(&h);
	if (load_file(cfg, path, err, err_size))
		return -1;
	digest_file(&h, path);
	if (snprintf(dir, sizeof(dir), "%s.d", path) >= (int)sizeof(dir)) {
		snprintf(err, err_size, "%s.d: path too long", path);
		return -1;
	}
	n = scandir(dir, &names, dropin_filter, dropin_order);
	if (n < 0) {
		if (errno == ENOENT) {
			digest_done(cfg, &h);
			return 0;
		}
		snprintf(err, err_size, "%s: cannot read the drop-in directory: %s", dir,
			 strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (!rc) {
			if (snprintf(file, sizeof(file), "%s/%s", dir, names[i]->d_name) >=
			    (int)sizeof(file)) {
				snprintf(err, err_size, "%s/%s: path too long", dir,
					 names[i]->d_name);
				rc = -1;
			} else if (load_file(cfg, file, err, err_size)) {
				rc = -1;
			} else {
				digest_file(&h, file);
			}
		}
		free(names[i]);
	}
	free(names);
	digest_done(cfg, &h);
	return rc;
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
