/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game journal (DESIGN 4.4): records written and read back, the CRC of each
 * line, bad lines skipped with the good records after them kept, duplicates skipped, a
 * torn tail cut off and nothing else, over-long records refused, and a refused record
 * skipped with its line.
 */
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

#include "daemon/journal.h"
#include "base/log.h"

#define MAX_RECORDS 16

struct collected {
	int count;
	int line[MAX_RECORDS];
	uint64_t ms[MAX_RECORDS];
	char type[MAX_RECORDS][24];
	char args[MAX_RECORDS][JOURNAL_LINE_MAX];
	int fail_at; /* record number (1-based) whose callback fails; 0: none */
};

static int collect(void *user, const struct journal_record *rec, char *why, size_t why_size)
{
	struct collected *c = user;

	if (c->count < MAX_RECORDS) {
		c->line[c->count] = rec->line;
		c->ms[c->count] = rec->ms;
		snprintf(c->type[c->count], sizeof(c->type[0]), "%s", rec->type);
		snprintf(c->args[c->count], sizeof(c->args[0]), "%s", rec->args);
	}
	c->count++;
	if (c->fail_at && c->count == c->fail_at) {
		snprintf(why, why_size, "refused by the test");
		return 1;
	}
	return 0;
}

struct fixture {
	char dir[64];
	char path[128];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/annabella-journal-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	snprintf(f->path, sizeof(f->path), "%s/journal", f->dir);
	/* The torn-tail warnings are expected here. */
	log_set_level(LOG_LEVEL_ERROR);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	return buf;
}

static void append_raw(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "ab");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

static void write_raw(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

static off_t file_size(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

/* Three records: a game, a made move, a record without arguments. */
static void write_three(const char *path)
{
	char err[200];
	struct journal *j = journal_open(path, false, err, sizeof(err));

	assert_non_null(j);
	assert_int_equal(journal_append(j, 0, "game", "%s %s", "game-0001", "white"), 0);
	assert_int_equal(journal_append(j, 1234, "made", "%d %s %s", 1, "e2e4", "e4"), 0);
	assert_int_equal(journal_append(j, UINT64_C(18446744073709551615), "end", NULL), 0);
	journal_close(j);
}

static void check_three(const struct collected *c)
{
	assert_int_equal(c->count, 3);
	assert_int_equal(c->line[0], 1);
	assert_int_equal(c->ms[0], 0);
	assert_string_equal(c->type[0], "game");
	assert_string_equal(c->args[0], "game-0001 white");
	assert_int_equal(c->line[1], 2);
	assert_int_equal(c->ms[1], 1234);
	assert_string_equal(c->type[1], "made");
	assert_string_equal(c->args[1], "1 e2e4 e4");
	assert_int_equal(c->line[2], 3);
	assert_true(c->ms[2] == UINT64_C(18446744073709551615));
	assert_string_equal(c->type[2], "end");
	assert_string_equal(c->args[2], "");
}

static void test_crc32_known_value(void **state)
{
	(void)state;
	/* The standard CRC-32 check value. */
	assert_int_equal(journal_crc32("123456789", 9), 0xcbf43926u);
	assert_int_equal(journal_crc32("", 0), 0);
}

static void test_append_and_read_back(void **state)
{
	struct fixture *f = *state;
	struct collected c = {0};
	char err[200] = "";
	char *text;

	write_three(f->path);
	assert_int_equal(journal_read(f->path, false, collect, &c, NULL, err, sizeof(err)), 3);
	check_three(&c);

	/* The line format: 8 lowercase hex digits of the body's CRC, a space, the body. */
	text = slurp(f->path, NULL);
	assert_non_null(text);
	{
		const char *body = text + 9;
		const char *nl = strchr(text, '\n');
		char crc[9];

		assert_non_null(nl);
		assert_int_equal(text[8], ' ');
		snprintf(crc, sizeof(crc), "%08x",
			 (unsigned)journal_crc32(body, (size_t)(nl - body)));
		assert_memory_equal(text, crc, 8);
		assert_memory_equal(body, "0 game game-0001 white\n", 23);
	}
	free(text);

	/* Reading again (or with repair) changes nothing; no callback just counts. */
	assert_int_equal(journal_read(f->path, true, NULL, NULL, NULL, err, sizeof(err)), 3);
	memset(&c, 0, sizeof(c));
	assert_int_equal(journal_read(f->path, true, collect, &c, NULL, err, sizeof(err)), 3);
	check_three(&c);
}

static void test_reopen_appends(void **state)
{
	struct fixture *f = *state;
	struct collected c = {0};
	char err[200];
	struct journal *j;

	write_three(f->path);
	j = journal_open(f->path, true, err, sizeof(err));
	assert_non_null(j);
	assert_int_equal(journal_append(j, 5, "restart", "%d", 1), 0);
	assert_int_equal(journal_sync(j), 0);
	journal_close(j);
	assert_int_equal(journal_read(f->path, false, collect, &c, NULL, err, sizeof(err)), 4);
	assert_string_equal(c.type[3], "restart");
	assert_string_equal(c.args[3], "1");
	assert_int_equal(c.line[3], 4);
}

static void test_missing_and_empty(void **state)
{
	struct fixture *f = *state;
	struct collected c = {0};
	char err[200] = "";

	assert_int_equal(journal_read(f->path, true, collect, &c, NULL, err, sizeof(err)), 0);
	assert_int_equal(c.count, 0);
	/* Reading a missing journal does not create it. */
	assert_int_equal(access(f->path, F_OK), -1);

	write_raw(f->path, "", 0);
	assert_int_equal(journal_read(f->path, true, collect, &c, NULL, err, sizeof(err)), 0);
	assert_int_equal(c.count, 0);
	assert_int_equal(file_size(f->path), 0);
}

static void test_open_error_names_path(void **state)
{
	struct fixture *f = *state;
	char err[200] = "";

	(void)f;
	assert_null(journal_open("/nonexistent-dir/journal", false, err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent-dir/journal"));
}

/* Flip one byte of line 2 (in the body, in the CRC): line 2 is skipped, line 3 kept. */
static void flip_and_check(struct fixture *f, size_t offset_in_line2, unsigned char mask)
{
	struct journal_stats st;
	struct collected c = {0};
	char err[200];
	size_t len;
	char *text;
	char *line2;

	unlink(f->path);
	write_three(f->path);
	text = slurp(f->path, &len);
	line2 = strchr(text, '\n') + 1;
	line2[offset_in_line2] = (char)(line2[offset_in_line2] ^ mask);
	write_raw(f->path, text, len);
	free(text);

	assert_int_equal(journal_read(f->path, false, collect, &c, &st, err, sizeof(err)), 2);
	assert_int_equal(c.count, 2);
	assert_string_equal(c.type[0], "game");
	assert_string_equal(c.type[1], "end");
	assert_int_equal(c.line[1], 3);
	assert_int_equal(st.bad, 1);
	assert_int_equal(st.first_skipped, 2);
}

static void test_crc_catches_flipped_byte(void **state)
{
	struct fixture *f = *state;

	flip_and_check(f, 12, 0x01); /* in the body: "made" -> "lade" ... */
	flip_and_check(f, 11, 0x02); /* the time */
	flip_and_check(f, 20, 0x20); /* the SAN's case */
	flip_and_check(f, 0, 0x01);  /* in the CRC itself */
	flip_and_check(f, 8, 0x01);  /* the separator */
}

/* Good records, then a torn tail (no newline at the end); read with repair: the good
 * records, the file cut back to them (only the partial line goes), and an append afterwards
 * gives a journal that reads in full. */
static void check_tail_dropped(struct fixture *f, const char *tail, size_t tail_len)
{
	struct journal_stats st;
	struct collected c = {0};
	char err[200] = "";
	off_t good_size, before_size;
	struct journal *j;

	write_three(f->path);
	good_size = file_size(f->path);
	append_raw(f->path, tail, tail_len);
	before_size = file_size(f->path);
	assert_true(before_size > good_size);

	/* Without repair: the records, the file untouched. */
	assert_int_equal(journal_read(f->path, false, collect, &c, &st, err, sizeof(err)), 3);
	check_three(&c);
	assert_true(st.torn_tail);
	assert_int_equal(file_size(f->path), before_size);

	/* With repair: the partial line cut off. */
	memset(&c, 0, sizeof(c));
	assert_int_equal(journal_read(f->path, true, collect, &c, NULL, err, sizeof(err)), 3);
	check_three(&c);
	assert_int_equal(file_size(f->path), good_size);

	j = journal_open(f->path, false, err, sizeof(err));
	assert_non_null(j);
	assert_int_equal(journal_append(j, 9999, "restart", "%d", 2), 0);
	journal_close(j);
	memset(&c, 0, sizeof(c));
	assert_int_equal(journal_read(f->path, true, collect, &c, &st, err, sizeof(err)), 4);
	assert_int_equal(c.count, 4);
	assert_string_equal(c.type[3], "restart");
	assert_int_equal(c.ms[3], 9999);
	assert_int_equal(c.line[3], 4);
	assert_false(st.torn_tail);
}

static void test_torn_partial_line(void **state)
{
	struct fixture *f = *state;
	static const char tail[] = "0badc0de 2000 made 2 e7e";

	check_tail_dropped(f, tail, sizeof(tail) - 1);
}

static void test_torn_complete_record_without_newline(void **state)
{
	struct fixture *f = *state;
	char line[128];
	const char *body = "2000 made 2 e7e5 e5";

	/* A correct record whose newline never reached the disk counts as torn. */
	snprintf(line, sizeof(line), "%08x %s", (unsigned)journal_crc32(body, strlen(body)), body);
	check_tail_dropped(f, line, strlen(line));
}

/* Whole lines of garbage are skipped, never cut: the records after them are read. */
static void test_garbage_lines_skipped(void **state)
{
	struct fixture *f = *state;
	static const char garbage[] = "\x00\x00\x00\x00\xff\xfe garbage\n\x01\x02\n";
	const char *good = "3000 made 2 e7e5 e5";
	struct journal_stats st;
	struct collected c = {0};
	char err[200] = "", line[128];
	off_t size;

	write_three(f->path);
	append_raw(f->path, garbage, sizeof(garbage) - 1);
	snprintf(line, sizeof(line), "%08x %s\n", (unsigned)journal_crc32(good, strlen(good)),
		 good);
	append_raw(f->path, line, strlen(line));
	size = file_size(f->path);
	assert_int_equal(journal_read(f->path, true, collect, &c, &st, err, sizeof(err)), 4);
	assert_string_equal(c.type[3], "made");
	assert_int_equal(c.line[3], 6);
	assert_int_equal(st.bad, 2);
	assert_int_equal(st.first_skipped, 4);
	assert_int_equal(file_size(f->path), size);
}

/* A bad line in the middle (a torn write followed by good writes): only it is lost. */
static void test_bad_line_in_middle(void **state)
{
	struct fixture *f = *state;
	char tail[256];
	const char *good = "3000 made 3 d2d4 d4";
	struct journal_stats st;
	struct collected c = {0};
	char err[200] = "";
	int n;

	write_three(f->path);
	n = snprintf(tail, sizeof(tail), "00000000 2000 made 2 e7e5 e5\n%08x %s\n",
		     (unsigned)journal_crc32(good, strlen(good)), good);
	append_raw(f->path, tail, (size_t)n);
	assert_int_equal(journal_read(f->path, true, collect, &c, &st, err, sizeof(err)), 4);
	assert_string_equal(c.args[3], "3 d2d4 d4");
	assert_int_equal(st.bad, 1);
}

/* A block written twice: the second copy's records are skipped as duplicates, nothing is
 * applied twice. */
static void test_duplicates_skipped(void **state)
{
	struct fixture *f = *state;
	struct journal_stats st;
	struct collected c = {0};
	char err[200] = "";
	size_t len;
	char *text;

	write_three(f->path);
	text = slurp(f->path, &len);
	append_raw(f->path, text, len);
	free(text);
	assert_int_equal(journal_read(f->path, true, collect, &c, &st, err, sizeof(err)), 3);
	check_three(&c);
	assert_int_equal(st.duplicates, 3);
	assert_int_equal(st.first_skipped, 4);
}

/* Each run of the daemon counts its times from 0 again: a record identical to one of an
 * earlier run (a command at the same script time, a restart with the same plies) is its
 * own, not a block written twice. */
static void test_lines_of_other_runs_are_no_duplicates(void **state)
{
	struct fixture *f = *state;
	struct journal_stats st;
	struct collected c = {0};
	char err[200] = "";
	struct journal *j = journal_open(f->path, false, err, sizeof(err));

	assert_non_null(j);
	assert_int_equal(journal_append(j, 0, "tag", "script White \"A\""), 0);
	assert_int_equal(journal_append(j, 0, "restart", "0"), 0);
	assert_int_equal(journal_append(j, 0, "tag", "script White \"A\""), 0);
	assert_int_equal(journal_append(j, 0, "restart", "0"), 0);
	assert_int_equal(journal_append(j, 0, "tag", "script White \"A\""), 0);
	assert_int_equal(journal_append(j, 0, "tag", "script White \"A\""), 0);
	journal_close(j);
	assert_int_equal(journal_read(f->path, true, collect, &c, &st, err, sizeof(err)), 5);
	assert_int_equal(st.duplicates, 1);
	assert_int_equal(st.first_skipped, 6);
}

static void test_malformed_lines(void **state)
{
	struct fixture *f = *state;
	static const char *const bodies[] = {
	    "notanumber made",			  /* time not a number */
	    "12",				  /* no type */
	    "12 ",				  /* empty type */
	    "12  made 1",			  /* empty type, then more */
	    "12 averyveryverylongrecordtypename", /* type too long for the record */
	};

	for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		char line[128];
		struct collected c = {0};
		char err[200];

		write_three(f->path);
		snprintf(line, sizeof(line), "%08x %s\n",
			 (unsigned)journal_crc32(bodies[i], strlen(bodies[i])), bodies[i]);
		append_raw(f->path, line, strlen(line));
		assert_int_equal(journal_read(f->path, false, collect, &c, NULL, err, sizeof(err)),
				 3);
		unlink(f->path);
	}

	/* Uppercase hex is not what the writer writes: refused too. */
	{
		const char *body = "12 made 1 e2e4 e4";
		char line[128];
		struct collected c = {0};
		char err[200];

		snprintf(line, sizeof(line), "%08X %s\n",
			 (unsigned)journal_crc32(body, strlen(body)), body);
		for (char *p = line; p < line + 8; p++)
			if (*p >= 'a' && *p <= 'f')
				*p = (char)(*p - 'a' + 'A');
		if (strpbrk(line, "ABCDEF") && strpbrk(line, "ABCDEF") < line + 8) {
			write_raw(f->path, line, strlen(line));
			assert_int_equal(
			    journal_read(f->path, false, collect, &c, NULL, err, sizeof(err)), 0);
		}
	}
}

static void test_overlong_line_is_torn(void **state)
{
	struct fixture *f = *state;
	char line[JOURNAL_LINE_MAX * 2 + 32];
	char body[JOURNAL_LINE_MAX * 2];
	struct collected c = {0};
	char err[200];

	/* A line longer than any the writer writes, with a correct CRC: not a record. */
	memset(body, 'x', sizeof(body));
	memcpy(body, "5 made ", 7);
	body[sizeof(body) - 1] = '\0';
	snprintf(line, sizeof(line), "%08x %s\n", (unsigned)journal_crc32(body, strlen(body)),
		 body);
	write_three(f->path);
	append_raw(f->path, line, strlen(line));
	assert_int_equal(journal_read(f->path, true, collect, &c, NULL, err, sizeof(err)), 3);
}

static void test_overlong_records_refused(void **state)
{
	struct fixture *f = *state;
	char arg[JOURNAL_LINE_MAX];
	struct collected c = {0};
	char err[200];
	struct journal *j = journal_open(f->path, false, err, sizeof(err));
	int longest = -1;

	assert_non_null(j);
	memset(arg, 'a', sizeof(arg));
	arg[sizeof(arg) - 1] = '\0';
	log_set_level(LOG_LEVEL_ERROR);
	/* Way too long: refused, nothing written. */
	assert_int_equal(journal_append(j, 1, "made", "%s", arg), -1);
	assert_int_equal(file_size(f->path), 0);
	/* A newline inside a record would split it: refused. */
	assert_int_equal(journal_append(j, 1, "made", "%s", "1 e2e4\ne4"), -1);
	assert_int_equal(file_size(f->path), 0);

	/* Find the longest argument that is accepted; it reads back whole, one more is refused. */
	for (int n = JOURNAL_LINE_MAX - 10; n > 0; n--) {
		if (journal_append(j, 1, "made", "%.*s", n, arg) == 0) {
			longest = n;
			break;
		}
	}
	assert_true(longest > 400);
	assert_int_equal(journal_append(j, 1, "made", "%.*s", longest + 1, arg), -1);
	journal_close(j);
	assert_int_equal(journal_read(f->path, true, collect, &c, NULL, err, sizeof(err)), 1);
	assert_int_equal((int)strlen(c.args[0]), longest);
	/* The whole line fits JOURNAL_LINE_MAX. */
	assert_true(file_size(f->path) <= JOURNAL_LINE_MAX);
}

/* Whatever the writer accepts, the reader reads back: a record type the reader would refuse
 * (empty, too long for struct journal_record, with a space) must be refused by
 * journal_append, or it would cut every later record off the journal on the next start. */
static void test_writer_refuses_what_reader_refuses(void **state)
{
	struct fixture *f = *state;
	static const char *const types[] = {"", "a-record-type-of-24-chars", "two words"};
	char err[200];

	log_set_level(LOG_LEVEL_ERROR);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct journal *j = journal_open(f->path, false, err, sizeof(err));
		struct collected c = {0};
		int rc, n;

		assert_non_null(j);
		assert_int_equal(journal_append(j, 1, "game", "%s", "x"), 0);
		rc = journal_append(j, 2, types[i], "%s", "args");
		assert_int_equal(journal_append(j, 3, "end", "%s", "*"), 0);
		journal_close(j);
		n = journal_read(f->path, true, collect, &c, NULL, err, sizeof(err));
		if (rc == 0) {
			/* Accepted: it must read back as written, and the later record too. */
			assert_int_equal(n, 3);
			assert_string_equal(c.type[1], types[i]);
			assert_string_equal(c.type[2], "end");
		} else {
			assert_int_equal(n, 2);
		}
		unlink(f->path);
	}
}

/* A record the caller refuses is skipped and counted; the reading goes on and the journal
 * is not cut. */
static void test_refused_record_skipped(void **state)
{
	struct fixture *f = *state;
	struct collected c = {.fail_at = 2};
	struct journal_stats st;
	char err[200] = "";
	off_t size;

	write_three(f->path);
	size = file_size(f->path);
	assert_int_equal(journal_read(f->path, true, collect, &c, &st, err, sizeof(err)), 2);
	assert_int_equal(c.count, 3);
	assert_int_equal(st.refused, 1);
	assert_int_equal(st.first_skipped, 2);
	assert_int_equal(file_size(f->path), size);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_crc32_known_value),
	    cmocka_unit_test_setup_teardown(test_append_and_read_back, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reopen_appends, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_missing_and_empty, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_open_error_names_path, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_crc_catches_flipped_byte, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_torn_partial_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_torn_complete_record_without_newline, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_garbage_lines_skipped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_duplicates_skipped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lines_of_other_runs_are_no_duplicates, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_bad_line_in_middle, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_malformed_lines, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_overlong_line_is_torn, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_overlong_records_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_writer_refuses_what_reader_refuses, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_refused_record_skipped, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
