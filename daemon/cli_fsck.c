/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella fsck STATE_DIR [--repair]
 *
 * The state directory's record checked offline, as the daemon reads it at start: the
 * journal's records read, the ones skipped (bad, duplicated, not fitting the game), the
 * moves recovered against those game.pgn holds, and the move records that would be put back
 * from game.pgn.  By default nothing is changed (the check runs on a copy); with --repair the
 * directory is mended as the daemon would mend it (the damaged journal and a longer
 * scoresheet kept under games/).  Exit 0: nothing wrong; 1: something was (and, with
 * --repair, was mended); 2: bad usage or an unreadable directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "daemon/cli.h"
#include "daemon/journal.h"
#include "daemon/state.h"
#include "daemon/store.h"
#include "game/referee.h"

static int usage(void)
{
	fprintf(stderr, "usage: annabella fsck STATE_DIR [--repair]\n");
	return 2;
}

/* dir/name copied to copy/name (a missing file is no error).  0, or -1 with errno. */
static int copy_file(const char *dir, const char *copy, const char *name)
{
	char from[PATH_MAX], to[PATH_MAX];
	size_t len;
	char *text;
	int rc;

	if (snprintf(from, sizeof(from), "%s/%s", dir, name) >= (int)sizeof(from) ||
	    snprintf(to, sizeof(to), "%s/%s", copy, name) >= (int)sizeof(to)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	text = state_read_file(from, &len);
	if (!text)
		return errno == ENOENT ? 0 : -1;
	rc = state_write_atomic(to, text, len, false);
	free(text);
	return rc;
}

/*
 * journal, game.record and game.pgn of dir copied into a new directory under $TMPDIR, with
 * the archived scoresheet of game.record's game (whether that game had ended decides what
 * an empty journal resumes).
 */
static int copy_record(const char *dir, char *copy, size_t size)
{
	static const char *const files[] = {"journal", "game.record", "game.pgn"};
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX], id[128], name[160];
	char *record;

	snprintf(copy, size, "%s/annabella-fsck-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(copy))
		return -1;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (copy_file(dir, copy, files[i]))
			return -1;
	if (snprintf(path, sizeof(path), "%s/game.record", copy) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	record = state_read_file(path, NULL);
	if (record && sscanf(record, "%*s %*s game %127s", id) == 1 &&
	    strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") ==
		strlen(id)) {
		if (snprintf(path, sizeof(path), "%s/games", copy) >= (int)sizeof(path) ||
		    snprintf(name, sizeof(name), "games/%s.pgn", id) >= (int)sizeof(name) ||
		    state_mkdir(path) || copy_file(dir, copy, name)) {
			free(record);
			return -1;
		}
	}
	free(record);
	return 0;
}

int cli_fsck(int argc, char **argv)
{
	const char *dir = NULL;
	bool repair = false;
	char copy[PATH_MAX] = "", err[512] = "";
	struct store_config sc = {.sync = true, .virtual_time = true};
	struct referee_settings set;
	struct game_sink none = {0};
	const struct journal_stats *st;
	const struct game *g;
	struct referee *r;
	struct store *s;
	const char *kept;
	int problems;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--repair"))
			repair = true;
		else if (argv[i][0] != '-' && !dir)
			dir = argv[i];
		else
			return usage();
	}
	if (!dir)
		return usage();
	if (access(dir, R_OK | X_OK)) {
		fprintf(stderr, "annabella fsck: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	if (!repair && copy_record(dir, copy, sizeof(copy))) {
		fprintf(stderr, "annabella fsck: cannot copy %s to check it: %s\n", dir,
			strerror(errno));
		return 2;
	}
	sc.dir = repair ? dir : copy;
	log_set_level(LOG_LEVEL_ERROR);
	referee_settings_defaults(&set);
	r = referee_new(&set, &none);
	s = r ? store_open(&sc, NULL, err, sizeof(err)) : NULL;
	if (!s || store_replay(s, r, err, sizeof(err))) {
		fprintf(stderr, "annabella fsck: %s\n", err[0] ? err : "out of memory");
		store_free(s);
		referee_free(r);
		if (copy[0])
			state_remove_tree(copy);
		return 2;
	}
	st = store_recovery(s);
	g = referee_game(r);
	printf("journal: %d records read, %d bad, %d duplicated, %d not fitting the game%s\n",
	       st->taken, st->bad, st->duplicates, st->refused,
	       st->torn_tail ? ", a torn last line" : "");
	if (st->first_skipped)
		printf("journal: the first skipped at line %d\n", st->first_skipped);
	printf("game: %s, %d moves recovered\n", g->open ? g->params.id : "(none)",
	       g->open ? game_plies(g) : 0);
	if (store_moves_filled(s))
		printf("game: %d move records put back from game.pgn\n", store_moves_filled(s));
	if (store_scoresheet_kept(s, &kept))
		printf("game.pgn: held %d moves, more than the journal gave back; %s %s\n",
		       store_scoresheet_kept(s, NULL), repair ? "kept as" : "would be kept",
		       repair ? kept : "under games/");
	problems = store_recovery_skipped(s) + store_moves_filled(s) +
		   store_scoresheet_kept(s, NULL) + st->torn_tail;
	if (!problems)
		printf("fsck: %s: the record is whole\n", dir);
	else if (repair)
		printf("fsck: %s: mended (the damaged journal kept under games/)\n", dir);
	else
		printf("fsck: %s: damaged; `annabella fsck %s --repair` mends it as the daemon "
		       "would at its start\n",
		       dir, dir);
	store_free(s);
	referee_free(r);
	if (copy[0])
		state_remove_tree(copy);
	return problems ? 1 : 0;
}
