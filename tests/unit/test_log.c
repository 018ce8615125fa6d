/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one logger of the three programs (base/log.h): each line names the program, the
 * category (none for the program's own) and the level (none for info); the level is
 * checked per category; the syslog priority goes in front only when stderr is the stream
 * $JOURNAL_STREAM names.  Each case runs in a child of its own, with stderr a file, since
 * whether stderr is journald's is found once per process.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/log.h"

enum stream { STREAM_PLAIN, STREAM_JOURNAL, STREAM_OTHER_JOURNAL };

/* Runs fn in a child whose stderr is a file (journald's, by $JOURNAL_STREAM, or not); the
 * file's text into out. */
static void in_child(enum stream stream, void (*fn)(void), char *out, size_t size)
{
	char path[] = "/tmp/test_log_XXXXXX";
	int fd = mkstemp(path), status;
	pid_t pid;
	FILE *f;
	size_t n;

	assert_true(fd >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct stat st;
		char js[64];

		dup2(fd, STDERR_FILENO);
		fstat(fd, &st);
		snprintf(js, sizeof(js), "%llu:%llu", (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino + (stream == STREAM_OTHER_JOURNAL));
		if (stream == STREAM_PLAIN)
			unsetenv("JOURNAL_STREAM");
		else
			setenv("JOURNAL_STREAM", js, 1);
		fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
	unlink(path);
}

static void daemon_lines(void)
{
	log_init("annabellad", LOG_LEVEL_WARN);
	log_warn(LOG_GPIO, "line %d: stuck", 7);
	log_error(LOG_MAIN, "bad option");
	log_info(LOG_GAME, "not shown at warn");
	log_debug(LOG_CONTROL, "nor this");
}

static void test_daemon_lines_on_a_terminal(void **state)
{
	char out[1024];

	(void)state;
	in_child(STREAM_PLAIN, daemon_lines, out, sizeof(out));
	assert_string_equal(out, "annabellad: gpio: warn: line 7: stuck\n"
				 "annabellad: error: bad option\n");
}

static void test_daemon_lines_under_journald(void **state)
{
	char out[1024];

	(void)state;
	in_child(STREAM_JOURNAL, daemon_lines, out, sizeof(out));
	assert_string_equal(out, "<4>annabellad: gpio: warn: line 7: stuck\n"
				 "<3>annabellad: error: bad option\n");
}

/* A $JOURNAL_STREAM inherited while stderr goes elsewhere (a child run by hand from a
 * service's shell) is not journald's. */
static void test_another_stream_is_no_journal(void **state)
{
	char out[1024];

	(void)state;
	in_child(STREAM_OTHER_JOURNAL, daemon_lines, out, sizeof(out));
	assert_string_equal(out, "annabellad: gpio: warn: line 7: stuck\n"
				 "annabellad: error: bad option\n");
}

static void helper_lines(void)
{
	log_init("annabella web", LOG_LEVEL_INFO);
	log_info(LOG_MAIN, "192.0.2.7 waits %d s for its next PIN", 2);
	log_warn(LOG_NET, "broker %s: refused", "b:1883");
	log_debug(LOG_NET, "not shown at info");
	log_levels[LOG_NET] = LOG_LEVEL_DEBUG;
	log_debug(LOG_NET, "shown: the net category at debug");
	log_debug(LOG_MAIN, "the others stay at info");
}

static void test_helper_lines(void **state)
{
	char out[1024];

	(void)state;
	in_child(STREAM_JOURNAL, helper_lines, out, sizeof(out));
	assert_string_equal(out,
			    "<6>annabella web: 192.0.2.7 waits 2 s for its next PIN\n"
			    "<4>annabella web: net: warn: broker b:1883: refused\n"
			    "<7>annabella web: net: debug: shown: the net category at debug\n");
}

static void long_line(void)
{
	char text[3000];

	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	log_init("annabella relay", LOG_LEVEL_INFO);
	log_error(LOG_MAIN, "%s", text);
	log_error(LOG_MAIN, "after it");
}

/* A message too long for a line is cut, and still one line. */
static void test_long_line_cut(void **state)
{
	char out[4096];
	char *nl;

	(void)state;
	in_child(STREAM_PLAIN, long_line, out, sizeof(out));
	assert_int_equal(strncmp(out, "annabella relay: error: xxx", 27), 0);
	nl = strchr(out, '\n');
	assert_non_null(nl);
	assert_true(nl - out < 1024);
	assert_string_equal(nl + 1, "annabella relay: error: after it\n");
}

static void test_level_names(void **state)
{
	(void)state;
	assert_int_equal(log_level_parse("error"), LOG_LEVEL_ERROR);
	assert_int_equal(log_level_parse("warn"), LOG_LEVEL_WARN);
	assert_int_equal(log_level_parse("info"), LOG_LEVEL_INFO);
	assert_int_equal(log_level_parse("debug"), LOG_LEVEL_DEBUG);
	assert_int_equal(log_level_parse("warning"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_daemon_lines_on_a_terminal),
	    cmocka_unit_test(test_daemon_lines_under_journald),
	    cmocka_unit_test(test_another_stream_is_no_journal),
	    cmocka_unit_test(test_helper_lines),
	    cmocka_unit_test(test_long_line_cut),
	    cmocka_unit_test(test_level_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
