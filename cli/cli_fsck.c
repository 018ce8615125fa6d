/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella fsck STATE_DIR [--repair] [--use JOURNAL]
 *
 * The state directory's record checked offline, as the daemon reads it at start (recovery.h):
 * the journal's records read, the ones skipped (bad, duplicated, not fitting the game), the
 * moves recovered against those game.pgn holds, the move records and readings that would be
 * put back, a clock that could not be known, a journal of another game, a game that only
 * game.pgn still holds.  Never beside the daemon: it takes the directory's lock (lock.h) and
 * refuses a directory in use.  By default nothing
 * is changed (the check runs on a copy); with --repair the directory is mended as the daemon
 * would mend it (every file it changes kept under games/ first).  --use JOURNAL (a journal
 * kept under games/, a foreign or damaged one) makes that journal's game the current game:
 * the arbiter's choice; the current game's journal, game.pgn and game.record are kept under
 * games/ as ID-set-aside-N first.  Run as root on the service's directory, the files it makes
 * get the directory's owner and group.  Exit 0: nothing wrong; 1: something was (and, with
 * --repair or --use, was mended); 2: bad usage or an unreadable directory.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "cli/cli.h"
#include "store/journal.h"
#include "store/devkey.h"
#include "store/lock.h"
#include "store/recovery.h"
#include "store/state.h"
#include "store/store.h"
#include "referee/referee.h"

void cli_fsck_usage(FILE *f)
{
	fprintf(f, "usage: annabella fsck STATE_DIR [--repair] [--use JOURNAL]\n");
}

static int usage(void)
{
	cli_fsck_usage(stderr);
	return 2;
}

/* A journal's game record line (with its newline): the first record of type game. */
static int first_game(void *user, const struct journal_record *jr, char *why, size_t why_size)
{
	char *line = user;

	(void)why;
	(void)why_size;
	if (!line[0] && !strcmp(jr->type, "game"))
		journal_format(line, JOURNAL_LINE_MAX + 1, jr->ms, jr->type, "%s", jr->args);
	return 0;
}

/* The id in a game record line ("unknown" if it has none). */
static void line_game_id(const char *line, char *id, size_t size)
{
	if (sscanf(line, "%*s %*s game %47s", id) != 1 || size < 48)
		snprintf(id, size, "unknown");
}

/* dir/name moved to games/ID-set-aside-N.ext (a missing file is no error). */
static int set_aside(const char *dir, const char *name, const char *id, int n, const char *ext)
{
	char from[PATH_MAX], to[PATH_MAX];

	if (snprintf(from, sizeof(from), "%s/%s", dir, name) >= (int)sizeof(from) ||
	    snprintf(to, sizeof(to), "%s/games/%s-set-aside-%d.%s", dir, id, n, ext) >=
		(int)sizeof(to)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (rename(from, to) && errno != ENOENT)
		return -1;
	return 0;
}

/*
 * The arbiter's choice: the game of `file` (a journal) becomes the current game.  The current
 * game's journal, game.pgn and game.record are kept under games/ first; game.pgn is made
 * again from the chosen journal when the daemon starts.
 */
static int use_journal(const char *dir, const char *file)
{
	char line[JOURNAL_LINE_MAX + 1] = "", current[JOURNAL_LINE_MAX + 1] = "", err[256];
	char path[PATH_MAX], id[64], kept[PATH_MAX];
	size_t len;
	char *text;
	int n;

	if (journal_read(file, false, first_game, line, NULL, err, sizeof(err)) < 0 || !line[0]) {
		log_error(LOG_MAIN, "%s: no game record to resume from it%s%s", file,
			  err[0] ? ": " : "", err);
		return -1;
	}
	text = state_read_file(file, &len);
	if (!text) {
		log_error(LOG_MAIN, "%s: %s", file, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/journal", dir);
	if (journal_read(path, false, first_game, current, NULL, err, sizeof(err)) <= 0 ||
	    !current[0]) {
		snprintf(path, sizeof(path), "%s/game.record", dir);
		journal_read(path, false, first_game, current, NULL, err, sizeof(err));
	}
	line_game_id(current, id, sizeof(id));
	for (n = 1; n < 1000; n++) {
		snprintf(kept, sizeof(kept), "%s/games/%s-set-aside-%d.journal", dir, id, n);
		if (access(kept, F_OK))
			break;
	}
	snprintf(path, sizeof(path), "%s/games", dir);
	if (state_mkdir(path) || set_aside(dir, "journal", id, n, "journal") ||
	    set_aside(dir, "game.pgn", id, n, "pgn") ||
	    set_aside(dir, "game.record", id, n, "record")) {
		log_error(LOG_MAIN, "cannot keep the current game under %s/games: %s", dir,
			  strerror(errno));
		free(text);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/journal", dir);
	if (state_write_atomic(path, text, len, true)) {
		log_error(LOG_MAIN, "%s: %s", path, strerror(errno));
		free(text);
		return -1;
	}
	free(text);
	snprintf(path, sizeof(path), "%s/game.record", dir);
	if (state_write_atomic(path, line, strlen(line), true))
		log_warn(LOG_MAIN, "%s: %s (the journal keeps the game record)", path,
			 strerror(errno));
	line_game_id(line, kept, sizeof(kept));
	printf("fsck: %s: the game of %s (%s) is the current game; the one before is kept as "
	       "%s/games/%s-set-aside-%d.*\n",
	       dir, file, kept, dir, id, n);
	return 0;
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
 * the scoresheets and journals under games/ (whether game.record's game had ended decides
 * what an empty journal resumes; the copy of game.pgn's game there gives its id when
 * game.pgn is all that is left), not the audio records.
 */
static int copy_record(const char *dir, char *copy, size_t size)
{
	static const char *const files[] = {"journal", "game.record", "game.pgn"};
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX], name[NAME_MAX + 8];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	snprintf(copy, size, "%s/annabella-fsck-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(copy))
		return -1;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (copy_file(dir, copy, files[i]))
			return -1;
	if (snprintf(path, sizeof(path), "%s/games", copy) >= (int)sizeof(path) ||
	    state_mkdir(path) ||
	    snprintf(path, sizeof(path), "%s/games", dir) >= (int)sizeof(path)) {
		errno = errno ? errno : ENAMETOOLONG;
		return -1;
	}
	d = opendir(path);
	while (d && !rc && (e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if ((l > 4 && !strcmp(e->d_name + l - 4, ".pgn")) ||
		    (l > 8 && !strcmp(e->d_name + l - 8, ".journal"))) {
			snprintf(name, sizeof(name), "games/%s", e->d_name);
			rc = copy_file(dir, copy, name);
		}
	}
	if (d)
		closedir(d);
	return rc;
}

struct fsck_args {
	const char *dir, *use;
	bool repair;
};

/* STATE_DIR [--repair] [--use JOURNAL]: 0, or -1 (a usage error). */
static int parse_args(int argc, char **argv, struct fsck_args *a)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--repair"))
			a->repair = true;
		else if (!strcmp(argv[i], "--use") && i + 1 < argc)
			a->use = argv[++i];
		else if (argv[i][0] != '-' && !a->dir)
			a->dir = argv[i];
		else
			return -1;
	}
	return a->dir ? 0 : -1;
}

/* The directory locked, the device key taken, --use's journal put in place (a repair then)
 * and, for a check, the record copied into copy: 0 with *lock, or 2 (said). */
static int prepare(struct fsck_args *a, int *lock, char *copy, size_t copy_size, char *err,
		   size_t err_size)
{
	struct stat dst;
	pid_t holder;

	if (access(a->dir, R_OK | X_OK) || stat(a->dir, &dst)) {
		log_error(LOG_MAIN, "%s: %s", a->dir, strerror(errno));
		return 2;
	}
	/* Run as root (sudo) on the service's directory: what it makes stays the service's,
	 * or the service could no longer write its own record. */
	if (geteuid() == 0 && (dst.st_uid != 0 || dst.st_gid != 0))
		state_set_owner(dst.st_uid, dst.st_gid);
	/* Never beside the daemon (or another fsck): a repair would replace the journal it
	 * appends to, and even a check could read a record half written. */
	*lock = state_lock(a->dir, a->repair || a->use, &holder);
	if (*lock < 0 && errno == EWOULDBLOCK) {
		log_error(LOG_MAIN,
			  "%s is in use by process %ld (annabellad, or another annabella fsck): "
			  "stop the service first (systemctl stop annabellad), then run fsck again",
			  a->dir, (long)holder);
		return 2;
	}
	/* The device key, where it may be read (root): a journal mended is keyed as the
	 * daemon keys it; without it, mended plain (store/devkey.h). */
	if (devkey_use(a->dir, false, err, err_size))
		err[0] = '\0';
	if (a->use) {
		if (use_journal(a->dir, a->use)) {
			close(*lock);
			return 2;
		}
		a->repair = true;
	}
	if (!a->repair && copy_record(a->dir, copy, copy_size)) {
		log_error(LOG_MAIN, "cannot copy %s to check it: %s", a->dir, strerror(errno));
		close(*lock);
		return 2;
	}
	return 0;
}

/* What the replay read and recovered, as it differs from a whole record. */
static void print_recovery(struct store *s, const struct game *g)
{
	const struct journal_stats *st = store_recovery(s);
	const struct recovery *rc;

	printf("journal: %d records read, %d bad, %d duplicated, %d not fitting the game%s\n",
	       st->taken, st->bad, st->duplicates, st->refused,
	       st->torn_tail ? ", a torn last line" : "");
	if (st->first_skipped)
		printf("journal: the first skipped at line %d\n", st->first_skipped);
	printf("game: %s, %d moves recovered\n", g->open ? g->params.id : "(none)",
	       g->open ? game_plies(g) : 0);
	rc = store_recovered(s);
	if (rc->reordered)
		printf("journal: %d records fitted after the next one (written out of order)\n",
		       rc->reordered);
	if (store_moves_filled(s))
		printf("game: %d move records put back from game.pgn\n", store_moves_filled(s));
	if (rc->readings_filled || rc->readings_from_presses)
		printf("game: %d readings put back from game.pgn, %d from their press records\n",
		       rc->readings_filled, rc->readings_from_presses);
	if (rc->from_scoresheet)
		printf("game: neither the journal nor game.record holds its game record: resumed "
		       "from game.pgn alone (its moves, readings, start and tags; the player's "
		       "colour, mode and edition are this device's settings for a new game): the "
		       "arbiter checks them\n");
	if (rc->moves_lost)
		printf("game: %d moves game.pgn holds are not in the game recovered (lost from the "
		       "journal; kept with game.pgn for the arbiter)\n",
		       rc->moves_lost);
	if (rc->readings_missing)
		printf("game: %d moves completed without their reading (its records lost)\n",
		       rc->readings_missing);
	if (rc->clock_uncertain)
		printf("clock: its records were lost: it stands at the last readings known, "
		       "uncertain, until the arbiter resumes or sets it\n");
}

/* The report after the replay, then the verdict: the problems found, or -1 (a repair that
 * cannot be mended now, said). */
static int report(struct store *s, const struct game *g, const struct fsck_args *a)
{
	const struct journal_stats *st = store_recovery(s);
	const struct recovery *rc = store_recovered(s);
	const char *kept;
	int problems;

	print_recovery(s, g);
	if (store_scoresheet_kept(s, &kept))
		printf("game.pgn: held %d moves, %s; %s %s\n", store_scoresheet_kept(s, NULL),
		       rc->from_scoresheet ? "the only copy of the game"
		       : g->open	   ? "not the game recovered (damaged, longer or other)"
					   : "a game no file under games/ holds, not resumed",
		       a->repair && kept[0] ? "kept as" : "would be kept",
		       a->repair && kept[0] ? kept : "under games/");
	if (rc->foreign_path[0])
		printf("journal: another game's with the same id: %s %s; the game of game.record "
		       "and game.pgn resumes (annabella fsck %s --use FILE chooses the other)\n",
		       a->repair ? "kept as" : "would be kept under games/",
		       a->repair ? rc->foreign_path : "", a->dir);
	problems = store_recovery_skipped(s) + store_moves_filled(s) +
		   store_scoresheet_kept(s, NULL) + st->torn_tail + rc->reordered +
		   rc->readings_filled + rc->readings_from_presses + rc->clock_uncertain +
		   rc->from_scoresheet + (rc->foreign_path[0] != '\0') + (a->use != NULL);
	if (a->repair && recovery_mend_due(rc)) {
		log_error(LOG_MAIN, "%s: cannot be mended now (%s); nothing lost", a->dir,
			  store_saving_error(s) ? store_saving_error(s) : strerror(errno));
		problems = -1;
	} else if (!problems)
		printf("fsck: %s: the record is whole\n", a->dir);
	else if (a->repair)
		printf("fsck: %s: mended (what it changed kept under games/)\n", a->dir);
	else
		printf("fsck: %s: damaged; `annabella fsck %s --repair` mends it as the daemon "
		       "would at its start\n",
		       a->dir, a->dir);
	return problems;
}

int cli_fsck(int argc, char **argv)
{
	struct fsck_args a = {0};
	char copy[PATH_MAX] = "", err[512] = "";
	struct store_config sc = {.sync = true, .virtual_time = true};
	struct referee_settings set;
	struct game_sink none = {0};
	struct referee *r;
	struct store *s;
	int problems, lock = -1;

	if (parse_args(argc, argv, &a))
		return usage();
	if (prepare(&a, &lock, copy, sizeof(copy), err, sizeof(err)))
		return 2;
	sc.dir = a.repair ? a.dir : copy;
	log_set_level(LOG_LEVEL_ERROR);
	referee_settings_defaults(&set);
	sc.params = &set.next;
	r = referee_new(&set, &none);
	s = r ? store_open(&sc, NULL, err, sizeof(err)) : NULL;
	/* A repair's store holds the lock it writes under; a check's stays here. */
	if (s && a.repair) {
		store_hold_lock(s, lock);
		lock = -1;
	}
	if (!s || store_replay(s, r, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err[0] ? err : "out of memory");
		problems = -1;
	} else {
		problems = report(s, referee_game(r), &a);
	}
	store_free(s);
	referee_free(r);
	if (copy[0])
		state_remove_tree(copy);
	close(lock);
	return problems < 0 ? 2 : problems ? 1 : 0;
}
