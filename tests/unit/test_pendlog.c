/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The logs that lose nothing to a storage fault (base/pendlog.h): lines kept while writes
 * fail and written, in order, when they work again; a file that cannot be opened at the
 * start (read-only storage) opened later with what was kept; the limit, and the note of the
 * lines dropped beyond it; a removed directory made again, its file beginning with the start
 * line; storage put back with what was written while it was out.
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
	add(&l, "2 klm\n");
	assert_int_equal(l.lost, 2);
	fail_writes = 0;
	add(&l, "3 i\n"); /* storage works again: the kept line written, room for this one */
	add(&l, "4 j\n");
	/* The dropped lines noted where they were. */
	assert_string_equal(slurp(path), "1 abcd\n2 dropped 2 lines (13 bytes, the last at 2): "
					 "storage failed while the 10 bytes kept in memory "
					 "were full\n3 i\n4 j\n");
	assert_int_equal(l.lost, 0);
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
	pendlog_start(&l, "0 start\n", 8);
	add(&l, "1 a\n");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(sub), 0);
	add(&l, "2 b\n");
	/* A file made again begins with the start line. */
	assert_string_equal(slurp(path), "0 start\n2 b\n");
	pendlog_close(&l);
	unlink(path);
	rmdir(sub);
	rmdir(dir);
}

/* The storage pulled (its directory gone from the path: here moved away, as a file system
 * unmounted) and put back as it was: what was written meanwhile, into the file made again,
 * goes on into the one put back, after what it held. */
static void test_put_back_gets_what_was_written_meanwhile(void **state)
{
	char dir[] = "/tmp/annabella-pendlog-XXXXXX", path[96], sub[80], card[80], under[80];
	struct pendlog l;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/state", dir);
	snprintf(card, sizeof(card), "%s/card", dir);
	snprintf(under, sizeof(under), "%s/under", dir);
	assert_int_equal(mkdir(sub, 0750), 0);
	snprintf(path, sizeof(path), "%s/control.log", sub);
	assert_int_equal(pendlog_open(&l, path, LOG_CONTROL, 1 << 20, NULL), 0);
	pendlog_start(&l, "0 start\n", 8);
	add(&l, "1 a\n");
	assert_int_equal(rename(sub, card), 0); /* pulled */
	add(&l, "2 b\n");
	add(&l, "3 c\n");
	assert_string_equal(slurp(path), "0 start\n2 b\n3 c\n");
	assert_int_equal(rename(sub, under), 0); /* put back */
	assert_int_equal(rename(card, sub), 0);
	add(&l, "4 d\n");
	assert_string_equal(slurp(path), "0 start\n1 a\n2 b\n3 c\n4 d\n");
	add(&l, "5 e\n");
	assert_string_equal(slurp(path), "0 start\n1 a\n2 b\n3 c\n4 d\n5 e\n");
	pendlog_close(&l);
	unlink(path);
	rmdir(sub);
	snprintf(path, sizeof(path), "%s/control.log", under);
	unlink(path);
	rmdir(under);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kept_through_a_fault_in_order),
	    cmocka_unit_test(test_opened_later),
	    cmocka_unit_test(test_the_limit),
	    cmocka_unit_test(test_removed_directory_made_again),
	    cmocka_unit_test(test_put_back_gets_what_was_written_meanwhile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
