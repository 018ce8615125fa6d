/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * [haptic]: the vibration motor's line on the board's chip and the pattern felt for each
 * kind of event (docs/wiring.md "The vibration motor").
 */
#include "config/sections.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The patterns felt apart without looking: the opponent's move one pulse, a time warning
 * three short ones, a flag one long one, the arbiter two short and a long one. */
void haptic_config_defaults(struct haptic_config *h)
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

/* [haptic]: the vibration motor's line on the board's chip and its patterns. */
int config_set_haptic(struct config *cfg, const char *key, const char *value, char *err,
		      size_t err_size)
{
	char msg[160];
	long v;

	if (!strcmp(key, "line")) {
		if (!strcmp(value, "none"))
			cfg->board.haptic_line = BOARD_NO_LINE;
		else if (config_parse_uint(value, 0, BOARD_MAX_LINE, &v))
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
