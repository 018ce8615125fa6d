/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "base/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum log_level log_levels[LOG_CATEGORY_COUNT] = {
    LOG_LEVEL_WARN, LOG_LEVEL_WARN, LOG_LEVEL_WARN, LOG_LEVEL_WARN,
    LOG_LEVEL_WARN, LOG_LEVEL_WARN, LOG_LEVEL_WARN,
};

static const char *const category_names[LOG_CATEGORY_COUNT] = {
    "gpio", "game", "voice", "clock", "braille", "control", "main",
};
static const char *const level_names[] = {"error", "warn", "info", "debug"};
/* syslog priorities: err, warning, info, debug. */
static const int priority[] = {3, 4, 6, 7};
static int journald = -1;

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

/* $JOURNAL_STREAM names the device and inode of the stream journald gave us: stderr is it. */
static int stderr_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!js || sscanf(js, "%llu:%llu", &dev, &ino) != 2 || fstat(STDERR_FILENO, &st))
		return 0;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

void log_fatal(const char *fmt, ...)
{
	char line[640];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (journald < 0)
		journald = stderr_is_journal();
	fprintf(stderr, "%sannabellad: %s\n", journald ? "<3>" : "", line);
}

void log_write(enum log_category cat, enum log_level level, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n = snprintf(line, sizeof(line), "annabellad: %s: %s: ", category_names[cat],
			 level_names[level]);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	/* Under journald (a stream it opened for us) each line carries its priority, so
	 * `journalctl -p warning` shows the errors and warnings.  One write per line, so lines
	 * from the voice thread do not interleave. */
	if (journald < 0)
		journald = stderr_is_journal();
	if (journald)
		fprintf(stderr, "<%d>%s\n", priority[level], line);
	else
		fprintf(stderr, "%s\n", line);
}
