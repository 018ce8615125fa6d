/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The logs that lose nothing to a storage fault (base/pendlog.h): lines kept while writes
 * fail and written, in order, when they work again; a file that cannot be opened at the
 * start (read-only storage) opened later with what was kept; the limit; a removed directory
 * made again.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/pendlog.h"

static int fail_writes; /* the storage fault: writes fail with EROFS while set */
static int partial;	/* the next write writes at most this many bytes (0: all) */

static ssize_t faulty_write(int fd, const void *data, size_t len)
{
	if (fail_writes) {
		errno = EROFS;
		return -1;
	}
	if (partial && len > (size_t)partial) {
		len = (size_t)partial;
		partial = 0;
	}
	return write(fd, data, len);
}

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void add(struct pendlog *l, const char *line)
{
	pendlog_add(l, line, strlen(line));
}

static void test_kept_through_a_fault_in_order(void **state)
{
	char dir[] = "/tmp/annabella-pendlog-XXXXXX", path[64];
	struct pendlog l;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/control.log", dir);
	assert_int_equal(pendlog_open(&l, path, LOG_CONTROL, 1 << 20, faulty_write), 0);
	add(&l, "1 a\n");
	fail_writes = 1;
	add(&l, "2 b\n");
	add(&l, "3 c\n");
	assert_true(pendlog_waiting(&l));
	assert_false(pendlog_flush(&l));
	assert_string_equal(slurp(path), "1 a\n");
	fail_writes = 0;
	partial = 3; /* storage back, the first write cut short */
	assert_true(pendlog_flush(&l));
	assert_false(pendlog_waiting(&l));
	add(&l, "4 d\n");
	assert_string_equal(slurp(path), "1 a\n2 b\n3 c\n4 d\n");
	pendlog_close(&l);
	unlink(path);
	rmdir(dir);
}

static void test_opened_later(void **state)
{
	char dir[] = "/tmp/annabella-pendlog-XXXXXX", path[96];
	struct pendlog l;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* The directory is not there yet (storage not mounted): nothing can be opened. */
	snprintf(path, sizeof(path), "%s/state/speech.log", dir);
	assert_int_equal(pendlog_open(&l, path, LOG_VOICE, 1 << 20, NULL), -1);
	add(&l, "0 start\n");
	add(&l, "0 private hello\n");
	assert_true(pendlog_waiting(&l));
	snprintf(path, sizeof(path), "%s/state", dir);
	assert_int_equal(mkdir(path, 0750), 0);
	snprintf(path, sizeof(path), "%s/state/speech.log", dir);
	add(&l, "5 public e4\n");
	assert_false(pendlog_waiting(&l));
	assert_string_equal(slurp(path), "0 start\n0 private hello\n5 public e4\n");
	pendlog_close(&l);
	unlink(path);
	snprintf(path, sizeof(path), "%s/state", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_the_limit(void **state)
{
	char dir[] = "/tmp/annabella-pendlog-XXXXXX", path[64];
	struct pendlog l;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/control.log", dir);
	assert_int_equal(pendlog_open(&l, path, LOG_CONTROL, 10, faulty_write), 0);
	fail_writes = 1;
	add(&l, "1 abcd\n"); /* 7 bytes: kept */
	add(&l, "2 efgh\n"); /* 14 > 10: not kept, counted */
	assert_int_equal(l.lost, 1);
	fail_writes = 0;
	add(&l, "3 i\n"); /* storage works again: the kept line written, room for this one */
	add(&l, "4 j\n");
	assert_string_equal(slurp(path), "1 abcd\n3 i\n4 j\n");
	assert_int_equal(l.lost, 1);
	pendlog_close(&l);
	unlink(path);
	rmdir(dir);
}

static void test_removed_directory_made_again(void **state)
{
	char dir[] = "/tmp/annabella-pendlog-XXXXXX", path[96], sub[80];
	struct pendlog l;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/state", dir);
	assert_int_equal(mkdir(sub, 0750), 0);
	snprintf(path, sizeof(path), "%s/control.log", sub);
	assert_int_equal(pendlog_open(&l, path, LOG_CONTROL, 1 << 20, NULL), 0);
	add(&l, "1 a\n");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(sub), 0);
	add(&l, "2 b\n");
	assert_string_equal(slurp(path), "2 b\n");
	pendlog_close(&l);
	unlink(path);
	rmdir(sub);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kept_through_a_fault_in_order),
	    cmocka_unit_test(test_opened_later),
	    cmocka_unit_test(test_the_limit),
	    cmocka_unit_test(test_removed_directory_made_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
