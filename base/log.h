/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Logging to stderr (systemd's journal keeps it), by category and level.  The level is
 * checked before anything is formatted.
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
	LOG_MAIN,
	LOG_CATEGORY_COUNT
};

extern enum log_level log_levels[LOG_CATEGORY_COUNT];

void log_set_level(enum log_level level);
/* "debug", "info", "warn", "error" -> level; -1 if unknown. */
int log_level_parse(const char *name);
void log_write(enum log_category cat, enum log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An error that stops the daemon, "annabellad: MESSAGE": at priority err under journald,
 * so `journalctl -p err` shows why the service failed. */
void log_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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
