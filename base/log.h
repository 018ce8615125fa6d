/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The log of all three programs (annabellad, the annabella tool and its networked helpers):
 * lines on stderr, by category and level, each "PROGRAM: CATEGORY: LEVEL: MESSAGE" (no
 * category for the program's own lines, LOG_MAIN; no level word for info), with the syslog
 * priority in front ("<4>") when stderr is the stream journald gave the service, so
 * `journalctl -p warning` shows the warnings and errors.  The level is checked before
 * anything is formatted.  One write per line: lines of several threads do not interleave.
 */
#ifndef ANNABELLA_LOG_H
#define ANNABELLA_LOG_H

enum log_level { LOG_LEVEL_ERROR = 0, LOG_LEVEL_WARN, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG };
enum log_category {
	LOG_GPIO = 0,
	LOG_GAME,
	LOG_VOICE,
	LOG_CLOCK,
	LOG_BRAILLE,
	LOG_CONTROL,
	LOG_NET, /* the helpers' links: the MQTT broker, HTTP */
	LOG_MAIN,
	LOG_CATEGORY_COUNT
};

extern enum log_level log_levels[LOG_CATEGORY_COUNT];

/* At the start of main, before any thread: the program's name as its lines begin
 * ("annabellad", "annabella web"; "annabella" until then) and every category's level. */
void log_init(const char *program, enum log_level level);
void log_set_level(enum log_level level);
/* "debug", "info", "warn", "error" -> level; -1 if unknown. */
int log_level_parse(const char *name);
void log_write(enum log_category cat, enum log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define LOG(cat, level, ...)                                                                       \
	do {                                                                                       \
		if ((level) <= log_levels[(cat)])                                                  \
			log_write((cat), (level), __VA_ARGS__);                                    \
	} while (0)
#define log_error(cat, ...) LOG(cat, LOG_LEVEL_ERROR, __VA_ARGS__)
#define log_warn(cat, ...)  LOG(cat, LOG_LEVEL_WARN, __VA_ARGS__)
#define log_info(cat, ...)  LOG(cat, LOG_LEVEL_INFO, __VA_ARGS__)
#define log_debug(cat, ...) LOG(cat, LOG_LEVEL_DEBUG, __VA_ARGS__)

#endif
