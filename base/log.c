/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum log_level log_levels[LOG_CATEGORY_COUNT] = {
    LOG_LEVEL_WARN, LOG_LEVEL_WARN, LOG_LEVEL_WARN, LOG_LEVEL_WARN,
    LOG_LEVEL_WARN, LOG_LEVEL_WARN, LOG_LEVEL_WARN, LOG_LEVEL_WARN,
};

static const char *const category_names[LOG_CATEGORY_COUNT] = {
    "gpio", "game", "voice", "clock", "braille", "control", "net", "main",
};
static const char *const level_names[] = {"error", "warn", "info", "debug"};
/* syslog priorities: err, warning, info, debug. */
static const int priority[] = {3, 4, 6, 7};

static char program[64] = "annabella";
static pthread_once_t journald_once = PTHREAD_ONCE_INIT;
static int journald;

/* $JOURNAL_STREAM names the device and inode of the stream journald gave us: stderr is it
 * (not merely a child's inherited variable with stderr sent elsewhere). */
static void find_journald(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	journald = js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && !fstat(STDERR_FILENO, &st) &&
		   (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

void log_init(const char *name, enum log_level level)
{
	snprintf(program, sizeof(program), "%s", name);
	log_set_level(level);
	pthread_once(&journald_once, find_journald);
}

void log_set_level(enum log_level level)
{
	for (int i = 0; i < LOG_CATEGORY_COUNT; i++)
		log_levels[i] = level;
}

int log_level_parse(const char *name)
{
	for (int i = 0; i < (int)(sizeof(level_names) / sizeof(level_names[0])); i++)
		if (strcmp(name, level_names[i]) == 0)
			return i;
	return -1;
}

void log_write(enum log_category cat, enum log_level level, const char *fmt, ...)
{
	char line[1024];
	size_t n;
	va_list ap;
	int w;

	pthread_once(&journald_once, find_journald);
	w = snprintf(line, sizeof(line), "%s%s%s%s%s: ", program, cat == LOG_MAIN ? "" : ": ",
		     cat == LOG_MAIN ? "" : category_names[cat],
		     level == LOG_LEVEL_INFO ? "" : ": ",
		     level == LOG_LEVEL_INFO ? "" : level_names[level]);
	n = w < 0 ? 0 : (size_t)w < sizeof(line) ? (size_t)w : sizeof(line) - 1;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (journald)
		fprintf(stderr, "<%d>%s\n", priority[level], line);
	else
		fprintf(stderr, "%s\n", line);
}
