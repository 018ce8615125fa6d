/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game journal (docs/state.md "State directory"): records written and read back, the CRC of
 * each line, bad lines skipped with the good records after them kept, duplicates skipped, a torn
 * tail cut off and nothing else, over-long records refused, and a refused record skipped with its
 * line.  The chain: each line's value covers the lines before it, an edited or removed line breaks
 * it where it happened, a journal of the earlier format (no chain) is read and continued, and a
 * journal written again whole is the same bytes.
 * The keyed chain: the key note after the first line, every line after it keyed with the
 * device key (HMAC-SHA256), checked with the key, not checked without it or with another,
 * an edit made again without the key found; a start without the key notes that the chain
 * is no longer keyed.
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

/* The module itself: its file-local functions are tested here. */
#include "store/journal.c"
#include "store/journal_read.c"
#include "base/log.h"
#include "base/sha256.h"

#define MAX_RECORDS 16

/* Append one record, written with a single write(2).  0 or -1 (logged). */
static int journal_append(struct journal *j, uint64_t ms, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int journal_append(struct journal *j, uint64_t ms, const char *type, const char *fmt, ...)
{
	char line[JOURNAL_LINE_MAX + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = format_v(line, sizeof(line), ms, type, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (journal_append_line(j, line, (size_t)n)) {
		log_error(LOG_GAME, "journal write failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Device keys (store/devkey.h) for the keyed chain. */
static const unsigned char test_key[32] = "0123456789abcdef0123456789abcdef";
static const unsigned char other_key[32] = "fedcba9876543210fedcba9876543210";

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

	/* The line format: 8 lowercase hex digits of the CRC of the rest, a space, the chain
	 * (32 hex digits: SHA-256 of the previous value, 16 zero bytes for the first line, and
	 * the record, cut to 16 bytes), a space, the record. */
	text = slurp(f->path, NULL);
	assert_non_null(text);
	{
		const char *body = text + 9;
		const char *nl = strchr(text, '\n');
		unsigned char in[16 + 22] = {0}, d[SHA256_SIZE];
		char crc[9], chain[33];

		assert_non_null(nl);
		assert_int_equal(text[8], ' ');
		snprintf(crc, sizeof(crc), "%08x",
			 (unsigned)journal_crc32(body, (size_t)(nl - body)));
		assert_memory_equal(text, crc, 8);
		memcpy(in + 16, "0 game game-0001 white", 22);
		sha256(in, sizeof(in), d);
		sha256_hex(d, 16, chain);
		assert_memory_equal(body, chain, 32);
		assert_int_equal(body[32], ' ');
		assert_memory_equal(body + 33, "0 game game-0001 white\n", 23);
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

	flip_and_check(f, 47, 0x01); /* in the record: "made" -> "lade" ... */
	flip_and_check(f, 42, 0x02); /* the time */
	flip_and_check(f, 58, 0x20); /* the SAN's case */
	flip_and_check(f, 0, 0x01);  /* in the CRC itself */
	flip_and_check(f, 8, 0x01);  /* the separator */
	flip_and_check(f, 20, 0x01); /* the chain value */
	flip_and_check(f, 41, 0x01); /* the separator after it */
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
	char *text, *last;
	size_t len;

	assert_non_null(j);
	assert_int_equal(journal_append(j, 0, "tag", "script White \"A\""), 0);
	assert_int_equal(journal_append(j, 0, "restart", "0"), 0);
	assert_int_equal(journal_append(j, 0, "tag", "script White \"A\""), 0);
	assert_int_equal(journal_append(j, 0, "restart", "0"), 0);
	assert_int_equal(journal_append(j, 0, "tag", "script White \"A\""), 0);
	journal_close(j);
	/* The last line written twice (a block repeated): the one duplicate.  Two records
	 * that are the same within a run are no duplicates: the chain tells them apart. */
	text = slurp(f->path, &len);
	last = text + len - 1;
	while (last > text && last[-1] != '\n')
		last--;
	append_raw(f->path, last, (size_t)(text + len - last));
	free(text);
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

/* ------------------------------------------------------------------ the chain */

struct chained {
	int count;
	bool chained[MAX_RECORDS], ok[MAX_RECORDS];
	char chain[MAX_RECORDS][JOURNAL_CHAIN_HEX];
};

static int collect_chain(void *user, const struct journal_record *rec, char *why, size_t why_size)
{
	struct chained *c = user;

	(void)why;
	(void)why_size;
	if (c->count < MAX_RECORDS) {
		c->chained[c->count] = rec->chained;
		c->ok[c->count] = rec->chain_ok;
		snprintf(c->chain[c->count], sizeof(c->chain[0]), "%s", rec->chain);
	}
	c->count++;
	return 0;
}

/* Rewrite line `n` (1-based) of the file with a new record text, its CRC made right again
 * and its chain value kept, as someone editing the journal by hand would. */
static void edit_line(const char *path, int n, const char *record)
{
	size_t len;
	char *text = slurp(path, &len), *line = text, *nl;
	char out[8192], fixed[512];
	size_t at;

	for (int i = 1; i < n; i++)
		line = strchr(line, '\n') + 1;
	nl = strchr(line, '\n');
	/* "CRC CHAIN " kept but the CRC, then the new record. */
	snprintf(fixed, sizeof(fixed), "%.32s %s", line + 9, record);
	at = (size_t)(line - text);
	memcpy(out, text, at);
	at += (size_t)snprintf(out + at, sizeof(out) - at, "%08x %s",
			       (unsigned)journal_crc32(fixed, strlen(fixed)), fixed);
	memcpy(out + at, nl, len - (size_t)(nl - text));
	at += len - (size_t)(nl - text);
	write_raw(path, out, at);
	free(text);
}

static void test_chain_values_follow_the_lines(void **state)
{
	struct fixture *f = *state;
	struct journal_chain c;
	struct journal_stats st;
	struct chained got = {0};
	char hex[JOURNAL_CHAIN_HEX], err[200];
	struct journal *j;
	static const char *const records[] = {"0 game game-0001 white", "1234 made 1 e2e4 e4",
					      "18446744073709551615 end"};

	write_three(f->path);
	assert_int_equal(journal_read(f->path, false, collect_chain, &got, &st, err, sizeof(err)),
			 3);
	journal_chain_start(&c);
	for (int i = 0; i < 3; i++) {
		journal_chain_next(&c, records[i], strlen(records[i]));
		journal_chain_hex(&c, hex);
		assert_true(got.chained[i]);
		assert_true(got.ok[i]);
		assert_string_equal(got.chain[i], hex);
	}
	assert_string_equal(st.chain, hex);
	assert_int_equal(st.chained, 3);
	assert_int_equal(st.unchained, 0);
	assert_int_equal(st.chain_breaks, 0);

	/* Reopened: the chain goes on from the last line. */
	j = journal_open(f->path, false, err, sizeof(err));
	assert_non_null(j);
	assert_string_equal(journal_chain_value(j), hex);
	assert_int_equal(journal_append(j, 5, "restart", "%d", 1), 0);
	journal_chain_next(&c, "5 restart 1", 11);
	journal_chain_hex(&c, hex);
	assert_string_equal(journal_chain_value(j), hex);
	journal_close(j);
	assert_int_equal(journal_read(f->path, false, NULL, NULL, &st, err, sizeof(err)), 4);
	assert_string_equal(st.chain, hex);
	assert_int_equal(st.chain_breaks, 0);
}

/* An edited record (its CRC made right) breaks the chain at its line; the lines after it
 * are read and check against it again.  A removed line breaks it at the line after. */
static void test_edit_and_removal_break_the_chain(void **state)
{
	struct fixture *f = *state;
	struct journal_stats st;
	struct chained got = {0};
	char err[200];
	size_t len;
	char *text;

	write_three(f->path);
	edit_line(f->path, 2, "1234 made 1 d2d4 d4");
	assert_int_equal(journal_read(f->path, false, collect_chain, &got, &st, err, sizeof(err)),
			 3);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.chain_breaks, 1);
	assert_int_equal(st.first_chain_break, 2);
	assert_true(got.ok[0]);
	assert_false(got.ok[1]);
	assert_true(got.ok[2]);

	/* Line 2 taken out whole. */
	unlink(f->path);
	write_three(f->path);
	text = slurp(f->path, &len);
	{
		char *l2 = strchr(text, '\n') + 1, *l3 = strchr(l2, '\n') + 1;

		memmove(l2, l3, len - (size_t)(l3 - text));
		len -= (size_t)(l3 - l2);
	}
	write_raw(f->path, text, len);
	free(text);
	memset(&got, 0, sizeof(got));
	assert_int_equal(journal_read(f->path, false, collect_chain, &got, &st, err, sizeof(err)),
			 2);
	assert_int_equal(st.chain_breaks, 1);
	assert_int_equal(st.first_chain_break, 2);
}

/* A flipped byte is damage, not an edit: the bad line is skipped and counted as bad, and
 * the line after it (whose value the damaged line no longer gives) is no break. */
static void test_damage_is_no_break(void **state)
{
	struct fixture *f = *state;
	struct journal_stats st;
	char err[200];
	size_t len;
	char *text;

	write_three(f->path);
	text = slurp(f->path, &len);
	strchr(text, '\n')[50] ^= 1;
	write_raw(f->path, text, len);
	free(text);
	assert_int_equal(journal_read(f->path, false, NULL, NULL, &st, err, sizeof(err)), 2);
	assert_int_equal(st.bad, 1);
	assert_int_equal(st.chain_breaks, 0);
}

/* A journal of the earlier format (no chain values; an upgrade in the middle of a game):
 * read as before, and continued with chained lines that cover the earlier ones. */
static void test_earlier_format_read_and_continued(void **state)
{
	struct fixture *f = *state;
	static const char *const records[] = {"0 game game-0001 white", "1234 made 1 e2e4 e4"};
	struct journal_chain c;
	struct journal_stats st;
	struct collected got = {0};
	struct chained ch = {0};
	char hex[JOURNAL_CHAIN_HEX], err[200], line[128];
	struct journal *j;

	journal_chain_start(&c);
	for (int i = 0; i < 2; i++) {
		snprintf(line, sizeof(line), "%08x %s\n",
			 (unsigned)journal_crc32(records[i], strlen(records[i])), records[i]);
		append_raw(f->path, line, strlen(line));
		journal_chain_next(&c, records[i], strlen(records[i]));
	}
	assert_int_equal(journal_read(f->path, false, collect, &got, &st, err, sizeof(err)), 2);
	assert_string_equal(got.args[1], "1 e2e4 e4");
	assert_int_equal(st.unchained, 2);
	assert_int_equal(st.chained, 0);

	j = journal_open(f->path, false, err, sizeof(err));
	assert_non_null(j);
	assert_int_equal(journal_append(j, 2000, "restart", "%d", 1), 0);
	journal_close(j);
	journal_chain_next(&c, "2000 restart 1", 14);
	journal_chain_hex(&c, hex);
	assert_int_equal(journal_read(f->path, false, collect_chain, &ch, &st, err, sizeof(err)),
			 3);
	assert_false(ch.chained[0]);
	assert_true(ch.chained[2]);
	assert_true(ch.ok[2]);
	assert_string_equal(ch.chain[2], hex);
	assert_int_equal(st.unchained, 2);
	assert_int_equal(st.chained, 1);
	assert_int_equal(st.chain_breaks, 0);
}

/* journal_chain_text gives the bytes that appending the same lines to an empty journal
 * gives, plain and keyed (with its key note). */
static void test_chain_text_as_appended(void **state)
{
	struct fixture *f = *state;
	char lines[3][JOURNAL_LINE_MAX + 1], *ptrs[3], err[200];
	size_t len, tlen;
	char *file, *text;
	struct journal *j;

	assert_true(journal_format(lines[0], sizeof(lines[0]), 0, "game", "%s", "g") > 0);
	assert_true(journal_format(lines[1], sizeof(lines[1]), 7, "lift", "%s", "e2 P") > 0);
	assert_true(journal_format(lines[2], sizeof(lines[2]), 9, "place", "%s", "e4") > 0);
	for (int keyed = 0; keyed < 2; keyed++) {
		journal_use_key(keyed ? test_key : NULL, sizeof(test_key));
		unlink(f->path);
		j = journal_open(f->path, false, err, sizeof(err));
		assert_non_null(j);
		for (int i = 0; i < 3; i++) {
			ptrs[i] = lines[i];
			assert_int_equal(journal_append_line(j, lines[i], strlen(lines[i])), 0);
		}
		journal_close(j);
		file = slurp(f->path, &len);
		text = journal_chain_text(ptrs, 3, &tlen);
		assert_non_null(text);
		assert_int_equal(tlen, len);
		assert_memory_equal(text, file, len);
		assert_true(!strstr(text, " 7 journal key id=") == !keyed);
		free(text);
		free(file);
	}
	journal_use_key(NULL, 0);
}

/* The first 16 bytes of HMAC-SHA256(key, state, record), as store/journal.h keys a line. */
static void keyed_next(struct journal_chain *c, const unsigned char *key, const char *record)
{
	struct hmac_sha256 h;
	unsigned char mac[SHA256_SIZE];

	hmac_sha256_init(&h, key, 32);
	hmac_sha256_update(&h, c->v, sizeof(c->v));
	hmac_sha256_update(&h, record, strlen(record));
	hmac_sha256_final(&h, mac);
	memcpy(c->v, mac, sizeof(c->v));
}

static void test_keyed_chain(void **state)
{
	struct fixture *f = *state;
	struct journal_chain c;
	struct journal_stats st;
	struct chained got = {0};
	struct collected recs = {0};
	char hex[JOURNAL_CHAIN_HEX], err[200], note[64];
	struct journal *j;

	journal_use_key(test_key, sizeof(test_key));
	write_three(f->path);
	/* The key note comes second, at the time of the line after it. */
	assert_int_equal(journal_read(f->path, false, collect, &recs, &st, err, sizeof(err)), 4);
	snprintf(note, sizeof(note), "key id=%s", journal_key_id());
	assert_int_equal(strlen(journal_key_id()), 16);
	assert_string_equal(recs.type[1], "journal");
	assert_string_equal(recs.args[1], note);
	assert_int_equal(recs.ms[1], 1234);
	/* The values: the first line plain, the rest keyed. */
	journal_chain_start(&c);
	journal_chain_next(&c, "0 game game-0001 white", 22);
	snprintf(note, sizeof(note), "1234 journal key id=%s", journal_key_id());
	keyed_next(&c, test_key, note);
	keyed_next(&c, test_key, "1234 made 1 e2e4 e4");
	keyed_next(&c, test_key, "18446744073709551615 end");
	journal_chain_hex(&c, hex);
	assert_int_equal(journal_read(f->path, false, collect_chain, &got, &st, err, sizeof(err)),
			 4);
	assert_string_equal(st.chain, hex);
	assert_int_equal(st.keyed, 3);
	assert_int_equal(st.unchecked, 0);
	assert_int_equal(st.first_keyed, 2);
	assert_int_equal(st.chain_breaks, 0);
	assert_string_equal(st.key_id, journal_key_id());
	for (int i = 0; i < 4; i++)
		assert_true(got.ok[i]);
	/* Without the key, or with another: read, the keyed values not checked. */
	journal_use_key(NULL, 0);
	assert_int_equal(journal_read(f->path, false, NULL, NULL, &st, err, sizeof(err)), 4);
	assert_int_equal(st.unchecked, 3);
	assert_int_equal(st.chain_breaks, 0);
	assert_string_equal(st.chain, hex);
	journal_use_key(other_key, sizeof(other_key));
	assert_int_equal(journal_read(f->path, false, NULL, NULL, &st, err, sizeof(err)), 4);
	assert_int_equal(st.unchecked, 3);
	assert_true(st.other_key);
	/* An edit made again plain (without the key) breaks the keyed chain where it was. */
	journal_use_key(test_key, sizeof(test_key));
	edit_line(f->path, 3, "1234 made 1 d2d4 d4");
	assert_int_equal(journal_read(f->path, false, NULL, NULL, &st, err, sizeof(err)), 4);
	assert_int_equal(st.chain_breaks, 1);
	assert_int_equal(st.first_chain_break, 3);
	/* Key notes from elsewhere (another journal's lines written again) are left out. */
	unlink(f->path);
	j = journal_open(f->path, false, err, sizeof(err));
	assert_non_null(j);
	assert_int_equal(journal_append(j, 0, "game", "%s", "g"), 0);
	assert_int_equal(journal_append(j, 1, "journal", "key id=%s", "0000000000000000"), 0);
	assert_int_equal(journal_append(j, 2, "lift", "%s", "e2 P"), 0);
	assert_int_equal(journal_lines(j), 3); /* the game, its own key note, the lift */
	journal_close(j);
	assert_int_equal(journal_read(f->path, false, NULL, NULL, &st, err, sizeof(err)), 3);
	assert_int_equal(st.chain_breaks, 0);
	assert_int_equal(st.unchecked, 0);
	journal_use_key(NULL, 0);
}

/* A start without the key after keyed ones: it notes that the chain goes on plain, so the
 * reader does not take its lines for edits (and says from where they are not keyed). */
static void test_keyless_start_after_keyed(void **state)
{
	struct fixture *f = *state;
	struct journal_stats st;
	struct collected recs = {0};
	char err[200];
	struct journal *j;

	journal_use_key(test_key, sizeof(test_key));
	write_three(f->path);
	journal_use_key(NULL, 0);
	j = journal_open(f->path, false, err, sizeof(err));
	assert_non_null(j);
	assert_int_equal(journal_append(j, 5, "restart", "%d", 1), 0);
	journal_close(j);
	journal_use_key(test_key, sizeof(test_key));
	assert_int_equal(journal_read(f->path, false, collect, &recs, &st, err, sizeof(err)), 6);
	assert_string_equal(recs.args[4], "key id=-");
	assert_int_equal(st.chain_breaks, 0);
	assert_int_equal(st.unkeyed_from, 5);
	assert_string_equal(st.key_id, "-");
	journal_use_key(NULL, 0);
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
	    cmocka_unit_test_setup_teardown(test_chain_values_follow_the_lines, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_edit_and_removal_break_the_chain, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_damage_is_no_break, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_earlier_format_read_and_continued, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_chain_text_as_appended, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_keyed_chain, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_keyless_start_after_keyed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
