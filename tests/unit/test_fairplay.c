/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The device's fair-play state (game/fairplay.h, host/probe.h, referee/referee_fairplay.c):
 * its text read back as written, the verdict for each policy with every failing item named and
 * its fix, the scoresheet's summary, the machine measured on made trees (sysfs, /proc, an
 * engine directory, dpkg's checksums, utmp), and the referee journaling it in tournament
 * games only, once per change, for the arbiter alone, into the scoresheet's FairPlay tag.
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
#include <utmpx.h>

#include <cmocka.h>

#include "base/md5.h"
#include "host/probe.h"
#include "tests/unit/referee_cases.h"

/* A sealed machine: loopback only, one radio blocked, no engine, nobody logged in. */
static struct fairplay_state sealed(void)
{
	struct fairplay_state s = {0};

	s.n_radios = 1;
	snprintf(s.radios[0].type, sizeof(s.radios[0].type), "wlan");
	s.radios[0].blocked = true;
	s.files = 0;
	snprintf(s.version, sizeof(s.version), "0.10.0");
	snprintf(s.config, sizeof(s.config), "0123456789abcdef");
	return s;
}

static void test_text_round_trip(void **state)
{
	struct fairplay_state s = sealed(), back;
	struct fairplay_policy p, pb;
	char text[FAIRPLAY_TEXT_MAX], ptext[FAIRPLAY_POLICY_MAX];

	(void)state;
	s.n_ifaces = 2;
	snprintf(s.ifaces[0].name, sizeof(s.ifaces[0].name), "eth0");
	snprintf(s.ifaces[0].addrs, sizeof(s.ifaces[0].addrs), "192.0.2.5/24,fe80::1/64");
	snprintf(s.ifaces[1].name, sizeof(s.ifaces[1].name), "wlan0");
	s.ifaces[1].wireless = true;
	s.n_radios = 2;
	snprintf(s.radios[1].type, sizeof(s.radios[1].type), "bluetooth");
	snprintf(s.installed, sizeof(s.installed), "stockfish crafty");
	snprintf(s.running, sizeof(s.running), "stockfish:1234");
	s.training = true;
	snprintf(s.local, sizeof(s.local), "alice@tty1");
	snprintf(s.remote, sizeof(s.remote), "bob@pts/0(192.0.2.3)");
	s.files = 2;
	snprintf(s.files_changed, sizeof(s.files_changed), "/usr/sbin/annabellad");
	assert_int_equal(fairplay_format(&s, text, sizeof(text)), 0);
	assert_int_equal(fairplay_parse(text, &back), 0);
	assert_true(fairplay_equal(&s, &back));
	assert_memory_equal(&s.ifaces[0], &back.ifaces[0], sizeof(s.ifaces[0]));
	assert_true(back.ifaces[1].wireless);
	assert_false(back.radios[1].blocked);
	/* A separator in a measured name cannot make another field. */
	snprintf(s.local, sizeof(s.local), "eve;@tty2");
	assert_int_equal(fairplay_format(&s, text, sizeof(text)), 0);
	assert_int_equal(fairplay_parse(text, &back), 0);
	assert_string_equal(back.local, "eve,@tty2");
	/* Damaged text is refused. */
	assert_int_equal(fairplay_parse("eth0;;;", &back), -1);
	assert_int_equal(fairplay_parse(";;;;maybe;;;0;;v;c", &back), -1);
	assert_int_equal(fairplay_parse("eth0;wlan=half;;;no;;;0;;v;c", &back), -1);

	fairplay_policy_defaults(&p);
	p.network = FAIRPLAY_NETWORK_CLUB;
	snprintf(p.club, sizeof(p.club), "eth0 wlan0");
	p.engine = FAIRPLAY_ENGINE_IDLE;
	p.logins = FAIRPLAY_LOGINS_ANY;
	p.files = FAIRPLAY_FILES_SKIP;
	assert_int_equal(fairplay_policy_format(&p, ptext, sizeof(ptext)), 0);
	assert_string_equal(ptext, "club:eth0,wlan0 idle any skip");
	assert_int_equal(fairplay_policy_parse(ptext, &pb), 0);
	assert_memory_equal(&p, &pb, sizeof(p));
	assert_int_equal(fairplay_policy_parse("club idle any skip", &pb), -1);
	assert_int_equal(fairplay_policy_parse("none:eth0 idle any skip", &pb), -1);
	assert_int_equal(fairplay_policy_parse("none absent local", &pb), -1);
}

static bool judged(const struct fairplay_policy *p, const struct fairplay_state *s,
		   struct fairplay_item items[FAIRPLAY_ITEM_COUNT], enum fairplay_item_kind failing)
{
	bool ok = fairplay_judge(p, s, items);

	for (int i = 0; i < FAIRPLAY_ITEM_COUNT; i++)
		if (items[i].ok != (i != (int)failing)) {
			fail_msg("item %s is %s", fairplay_item_name((enum fairplay_item_kind)i),
				 items[i].ok ? "ok" : "wrong");
		}
	return ok;
}

/* Each policy's verdicts: one thing wrong at a time, named with its fix. */
static void test_verdicts(void **state)
{
	struct fairplay_item items[FAIRPLAY_ITEM_COUNT];
	struct fairplay_policy p;
	struct fairplay_state s = sealed();

	(void)state;
	fairplay_policy_defaults(&p);
	assert_true(fairplay_judge(&p, &s, items));
	assert_string_equal(items[FAIRPLAY_ITEM_NETWORK].what, "loopback only");

	/* An interface up: a breach with network = none, not with it on the club's list. */
	s.n_ifaces = 1;
	snprintf(s.ifaces[0].name, sizeof(s.ifaces[0].name), "eth0");
	snprintf(s.ifaces[0].addrs, sizeof(s.ifaces[0].addrs), "192.0.2.5/24");
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_NETWORK));
	assert_string_equal(items[FAIRPLAY_ITEM_NETWORK].what, "eth0 up (192.0.2.5/24)");
	assert_string_equal(items[FAIRPLAY_ITEM_NETWORK].fix, "ip link set eth0 down");
	p.network = FAIRPLAY_NETWORK_CLUB;
	snprintf(p.club, sizeof(p.club), "eth0");
	assert_true(fairplay_judge(&p, &s, items));
	snprintf(s.ifaces[0].name, sizeof(s.ifaces[0].name), "eth1");
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_NETWORK));

	/* Radios: every one blocked, but for wlan when the club's network is wireless. */
	s = sealed();
	fairplay_policy_defaults(&p);
	s.radios[0].blocked = false;
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_RADIOS));
	assert_string_equal(items[FAIRPLAY_ITEM_RADIOS].fix, "rfkill block wlan");
	s.n_ifaces = 1;
	snprintf(s.ifaces[0].name, sizeof(s.ifaces[0].name), "wlan0");
	s.ifaces[0].wireless = true;
	p.network = FAIRPLAY_NETWORK_CLUB;
	snprintf(p.club, sizeof(p.club), "wlan0");
	assert_true(fairplay_judge(&p, &s, items));
	s.n_radios = 2;
	snprintf(s.radios[1].type, sizeof(s.radios[1].type), "bluetooth");
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_RADIOS));
	assert_string_equal(items[FAIRPLAY_ITEM_RADIOS].fix, "rfkill block bluetooth");

	/* Engines: installed is a breach with engine = absent only; running always is. */
	s = sealed();
	fairplay_policy_defaults(&p);
	snprintf(s.installed, sizeof(s.installed), "stockfish");
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_ENGINE_INSTALLED));
	assert_string_equal(items[FAIRPLAY_ITEM_ENGINE_INSTALLED].fix, "apt purge stockfish");
	p.engine = FAIRPLAY_ENGINE_IDLE;
	assert_true(fairplay_judge(&p, &s, items));
	snprintf(s.running, sizeof(s.running), "stockfish:4242");
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_ENGINE_RUNNING));
	assert_non_null(strstr(items[FAIRPLAY_ITEM_ENGINE_RUNNING].what, "stockfish:4242"));

	/* A training client. */
	s = sealed();
	fairplay_policy_defaults(&p);
	s.training = true;
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_TRAINING));

	/* Logins: remote ones are a breach by default, any with logins = none, none with any. */
	s = sealed();
	snprintf(s.local, sizeof(s.local), "alice@tty1");
	assert_true(fairplay_judge(&p, &s, items));
	p.logins = FAIRPLAY_LOGINS_NONE;
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_LOGINS));
	p.logins = FAIRPLAY_LOGINS_LOCAL;
	snprintf(s.remote, sizeof(s.remote), "bob@pts/0(192.0.2.3)");
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_LOGINS));
	assert_non_null(strstr(items[FAIRPLAY_ITEM_LOGINS].what, "remote: bob@pts/0(192.0.2.3)"));
	p.logins = FAIRPLAY_LOGINS_ANY;
	assert_true(fairplay_judge(&p, &s, items));

	/* Files: changed ones always; not checked only where the policy skips them. */
	s = sealed();
	fairplay_policy_defaults(&p);
	s.files = 1;
	snprintf(s.files_changed, sizeof(s.files_changed), "/usr/sbin/annabellad");
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_FILES));
	assert_string_equal(items[FAIRPLAY_ITEM_FILES].what,
			    "1 package file changed: /usr/sbin/annabellad");
	s.files = -1;
	assert_false(judged(&p, &s, items, FAIRPLAY_ITEM_FILES));
	p.files = FAIRPLAY_FILES_SKIP;
	assert_true(fairplay_judge(&p, &s, items));
}

static void test_summary(void **state)
{
	struct fairplay_policy p;
	struct fairplay_state s = sealed();
	char text[FAIRPLAY_SUMMARY_MAX];

	(void)state;
	fairplay_policy_defaults(&p);
	fairplay_summary(&s, false, 0, "", &p, text, sizeof(text));
	assert_string_equal(text, "sealed: loopback only, radios blocked, no engine installed, "
				  "annabella 0.10.0 files verified");
	s.n_ifaces = 1;
	snprintf(s.ifaces[0].name, sizeof(s.ifaces[0].name), "eth0");
	p.network = FAIRPLAY_NETWORK_CLUB;
	snprintf(s.installed, sizeof(s.installed), "stockfish");
	fairplay_summary(&s, false, 0, "", &p, text, sizeof(text));
	assert_string_equal(text, "sealed: eth0 club network only, radios blocked, engine "
				  "installed, idle, annabella 0.10.0 files verified");
	fairplay_summary(&s, true, 20, "wlan unblocked", &p, text, sizeof(text));
	assert_string_equal(text, "breach at move 20: wlan unblocked");
	fairplay_summary(&s, true, 0, "eth1 up", &p, text, sizeof(text));
	assert_string_equal(text, "not sealed at the start: eth1 up");
}

/* ------------------------------------------------------------------ the machine measured */

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[1024], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = path + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void md5_hex(const char *text, char out[33])
{
	unsigned char d[MD5_SIZE];
	struct md5 m;

	md5_init(&m);
	md5_update(&m, text, strlen(text));
	md5_final(&m, d);
	for (int i = 0; i < MD5_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_md5(void **state)
{
	char hex[33];

	(void)state;
	/* RFC 1321's test suite. */
	md5_hex("", hex);
	assert_string_equal(hex, "d41d8cd98f00b204e9800998ecf8427e");
	md5_hex("abc", hex);
	assert_string_equal(hex, "900150983cd24fb0d6963f7d28e17f72");
	md5_hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
		hex);
	assert_string_equal(hex, "57edf4a22be3c955ac49da2e2107b67a");
}

static void test_probe_on_made_trees(void **state)
{
	struct probe_config c;
	struct fairplay_state s;
	char path[1024], sums[256], a[33], b[33];
	char sysfs[600], proc[600], utmp[600], dpkg[600], dirs[1300];
	struct utmpx u = {0};

	(void)state;
	snprintf(root, sizeof(root), "/tmp/annabella-fairplay-XXXXXX");
	assert_non_null(mkdtemp(root));
	put("sys/class/net/lo/flags", "0x9\n");
	put("sys/class/net/eth0/flags", "0x1003\n");
	put("sys/class/net/dummy0/flags", "0x82\n"); /* down */
	put("sys/class/net/wlan0/flags", "0x1003\n");
	put("sys/class/net/wlan0/phy80211/name", "phy0\n");
	put("sys/class/rfkill/rfkill0/type", "wlan\n");
	put("sys/class/rfkill/rfkill0/soft", "0\n");
	put("sys/class/rfkill/rfkill0/hard", "0\n");
	put("sys/class/rfkill/rfkill1/type", "bluetooth\n");
	put("sys/class/rfkill/rfkill1/soft", "1\n");
	put("sys/class/rfkill/rfkill1/hard", "0\n");
	put("proc/123/comm", "stockfish\n");
	put("proc/456/comm", "bash\n");
	put("proc/self/comm", "stockfish\n"); /* not a process number */
	put("games/stockfish", "#!/bin/sh\n");
	snprintf(path, sizeof(path), "%s/games/stockfish", root);
	chmod(path, 0755);
	put("games/notes.txt", "stockfish\n");
	put("usr/bin/annabella", "the program\n");
	put("usr/share/doc/annabella/README", "changed since the package\n");
	md5_hex("the program\n", a);
	md5_hex("the README as installed\n", b);
	snprintf(sums, sizeof(sums), "%s  usr/bin/annabella\n%s  usr/share/doc/annabella/README\n",
		 a, b);
	put("dpkg/annabella.md5sums", sums);
	/* utmp: a local login, a remote one, and one whose process is gone. */
	snprintf(path, sizeof(path), "%s/utmp", root);
	put("utmp", "");
	assert_int_equal(utmpxname(path), 0);
	setutxent();
	u.ut_type = USER_PROCESS;
	u.ut_pid = getpid();
	snprintf(u.ut_user, sizeof(u.ut_user), "alice");
	snprintf(u.ut_line, sizeof(u.ut_line), "tty1");
	memcpy(u.ut_id, "1", 2);
	assert_non_null(pututxline(&u));
	snprintf(u.ut_user, sizeof(u.ut_user), "bob");
	snprintf(u.ut_line, sizeof(u.ut_line), "pts/0");
	memcpy(u.ut_id, "ts/0", 4);
	snprintf(u.ut_host, sizeof(u.ut_host), "192.0.2.3");
	assert_non_null(pututxline(&u));
	u.ut_pid = 999999; /* no such process */
	snprintf(u.ut_user, sizeof(u.ut_user), "gone");
	snprintf(u.ut_line, sizeof(u.ut_line), "pts/1");
	memcpy(u.ut_id, "ts/1", 4);
	assert_non_null(pututxline(&u));
	endutxent();

	probe_config_defaults(&c);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	c.sysfs = sysfs;
	snprintf(proc, sizeof(proc), "%s/proc", root);
	c.proc = proc;
	snprintf(utmp, sizeof(utmp), "%s/utmp", root);
	c.utmp = utmp;
	snprintf(dpkg, sizeof(dpkg), "%s/dpkg", root);
	c.dpkg_info = dpkg;
	c.root = root;
	snprintf(dirs, sizeof(dirs), "%s/games:%s/nowhere", root, root);
	c.engine_dirs = dirs;
	c.addresses = false;
	c.version = "0.10.0";
	c.config_digest = "0123456789abcdef";
	probe_measure(&c, &s);
	assert_int_equal(s.n_ifaces, 2);
	assert_string_equal(s.ifaces[0].name, "eth0");
	assert_false(s.ifaces[0].wireless);
	assert_string_equal(s.ifaces[1].name, "wlan0");
	assert_true(s.ifaces[1].wireless);
	assert_int_equal(s.n_radios, 2);
	assert_string_equal(s.radios[0].type, "wlan");
	assert_false(s.radios[0].blocked);
	assert_true(s.radios[1].blocked);
	assert_string_equal(s.installed, "stockfish");
	assert_string_equal(s.running, "stockfish:123");
	assert_string_equal(s.local, "alice@tty1");
	assert_string_equal(s.remote, "bob@pts/0(192.0.2.3)");
	assert_int_equal(s.files, 1);
	assert_string_equal(s.files_changed, "/usr/share/doc/annabella/README");
	assert_string_equal(s.version, "0.10.0");
	/* Without the package's checksums: not checked. */
	c.package = "nosuchpackage";
	probe_measure(&c, &s);
	assert_int_equal(s.files, -1);
	/* By default the checksums are dpkg's own, through dpkg-query: bash's files as
	 * installed on every Debian system; a package not installed is not checked. */
	c.dpkg_info = "";
	c.root = "/";
	c.package = "bash";
	assert_int_equal(probe_package_files(&c, path, sizeof(path)), 0);
	c.package = "nosuchpackage";
	assert_int_equal(probe_package_files(&c, path, sizeof(path)), -1);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
}

/* ------------------------------------------------------------------ the referee */

static void open_game(enum game_mode mode)
{
	referee_settings_defaults(&t->set);
	t->set.next.mode = mode;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
}

static int records(const char *type)
{
	int n = 0;

	for (int i = 0; i < t->nrec; i++)
		n += !strcmp(t->types[i], type);
	return n;
}

/* In a tournament game: the state at the start, journaled once; the same state again,
 * nothing; a change mid-game that breaks the policy, journaled as a breach at its move, for
 * the arbiter alone; the game read back from its records gives the same. */
static void test_referee_journals_changes(void **state)
{
	struct fairplay_policy p;
	struct fairplay_state s = sealed();
	const struct game *g;

	(void)state;
	fairplay_policy_defaults(&p);
	open_game(GAME_TOURNAMENT);
	referee_fairplay(t->r, &p, &s, t->now);
	assert_int_equal(records("fairplay"), 1);
	assert_non_null(strstr(last_record("fairplay"), "no \"none absent local verify\""));
	referee_fairplay(t->r, &p, &s, t->now);
	assert_int_equal(records("fairplay"), 1);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_move(t, "e7", "e5");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	s.radios[0].blocked = false;
	referee_fairplay(t->r, &p, &s, t->now);
	assert_int_equal(records("fairplay"), 2);
	assert_non_null(strstr(last_record("fairplay"), "yes "));
	assert_non_null(strstr(last_record("fairplay"), "\"wlan unblocked\""));
	g = rt_game(t);
	assert_true(g->fairplay.breach);
	assert_int_equal(g->fairplay.breach_move, 1);
	assert_int_equal(g->fairplay.changes, 1);
	assert_int_equal(t->audience_faults, 0);
	/* Blocked again: a change, the breach stays in the record. */
	s.radios[0].blocked = true;
	referee_fairplay(t->r, &p, &s, t->now);
	assert_int_equal(records("fairplay"), 3);
	assert_true(rt_game(t)->fairplay.breach);
	assert_false(rt_game(t)->fairplay.breach_now);
	/* Two things wrong at once, a radio and a changed package file: both are named. */
	s.radios[0].blocked = false;
	s.files = 1;
	snprintf(s.files_changed, sizeof(s.files_changed), "/usr/bin/annabellad");
	referee_fairplay(t->r, &p, &s, t->now);
	assert_int_equal(records("fairplay"), 4);
	assert_non_null(strstr(last_record("fairplay"),
			       "\"wlan unblocked; 1 package file changed: /usr/bin/annabellad\""));
	assert_replays();
}

/* Casual play: nothing journaled; the next tournament game journals the state at its start. */
static void test_casual_games_are_not_watched(void **state)
{
	struct fairplay_policy p;
	struct fairplay_state s = sealed();

	(void)state;
	fairplay_policy_defaults(&p);
	open_game(GAME_CASUAL);
	referee_fairplay(t->r, &p, &s, t->now);
	assert_int_equal(records("fairplay"), 0);
	assert_false(rt_game(t)->fairplay.measured);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text_round_trip),
	    cmocka_unit_test(test_verdicts),
	    cmocka_unit_test(test_summary),
	    cmocka_unit_test(test_md5),
	    cmocka_unit_test(test_probe_on_made_trees),
	    cmocka_unit_test_setup_teardown(test_referee_journals_changes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_casual_games_are_not_watched, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
