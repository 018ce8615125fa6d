/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella verify [--key FILE] [--anchors FILE]... [STATE_DIR|GAME.journal]
 *
 * Whether a game's record is whole and unedited, for an arbiter or an appeals committee
 * (README "Security model"):
 *
 * - the journal: every line read, its chain followed (store/journal.h): damaged or
 *   duplicated lines, lines whose chain value the lines before them do not give (an edit,
 *   a line taken out), records that do not fit the game, recoveries the daemon noted, and
 *   the device that recorded it (its device notes);
 * - the chain's key: its keyed lines checked with the device key (STATE_DIR-key/device-key,
 *   store/devkey.h, or --key FILE), which only the daemon and root read; off the device, or
 *   without the right to read the key, they are not checked, and it says so;
 * - the anchors published off the device while the game was played (the chain's value
 *   after a line, in every scoresheet the daemon wrote, `status`, the broadcast and the
 *   relay's round.pgn): the scoresheet's own, and those of --anchors FILE (a saved round.pgn
 *   or scoresheet, or the broker's retained status messages as mosquitto_sub prints them),
 *   each against the journal's line: a journal that ends before one is cut, one whose line
 *   has another value was written again;
 * - the scoresheet next to it (game.pgn, or games/ID.pgn): the same moves, clock readings,
 *   result and tags as the game the journal gives, at the line its anchor names;
 * - the audit: control.log and speech.log against the digests the journal noted of what the
 *   daemon wrote to them (their first BYTES bytes): an edit of either, during the game or
 *   after, and what was written after the last digest of a game in progress, which no digest
 *   covers yet.
 *
 * It prints what it found and the chain's final value.  Exit 0: whole and unedited, all of it
 * checked; 1: something is not; 2: bad usage or nothing to read; 3: nothing found wrong, but
 * some of it could not be checked (it says what).  Nothing is changed.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "cli/cli.h"
#include "cli/cli_verify_int.h"
#include "store/device.h"
#include "store/devkey.h"
#include "store/journal.h"
#include "game/game.h"

const char *const vf_log_names[2] = {"control.log", "speech.log"};

void cli_verify_usage(FILE *f)
{
	fprintf(f, "usage: annabella verify [--key FILE] [--anchors FILE]... "
		   "[STATE_DIR|GAME.journal]\n");
}

static int usage(void)
{
	cli_verify_usage(stderr);
	return 2;
}

/* Something that could not be checked, for the verdict. */
void vf_not_checked(struct verify *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nunchecked == MAX_UNCHECKED)
		return;
	va_start(ap, fmt);
	vsnprintf(v->unchecked[v->nunchecked++], sizeof(v->unchecked[0]), fmt, ap);
	va_end(ap);
}

/* The device's fair-play state over the game, from the journal's records (docs/fairplay.md
 * "Fair play"). */
static void fairplay_report(const struct game *g)
{
	const struct game_fairplay *f = &g->fairplay;
	char summary[FAIRPLAY_SUMMARY_MAX];

	if (!f->measured) {
		printf(
		    "fair play   not measured (not a tournament game, or a journal of an earlier "
		    "version)\n");
		return;
	}
	fairplay_summary(&f->first, f->breach, f->breach_move, f->breach_what, &f->policy, summary,
			 sizeof(summary));
	printf("fair play   %s\n", summary);
	printf("%-11s %d %s during the game%s\n", "", f->changes,
	       f->changes == 1 ? "change" : "changes",
	       f->breach_now ? "; the last state measured breaks the policy" : "");
}

/* The newest finished game's journal under dir/games (by name: game numbers), into out. */
static bool newest_journal(const char *dir, char *out, size_t size)
{
	char games[PATH_MAX], best[256] = "";
	struct dirent *e;
	DIR *d;

	snprintf(games, sizeof(games), "%s/games", dir);
	d = opendir(games);
	if (!d)
		return false;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (strncmp(e->d_name, "game-", 5) || l < 9 ||
		    strcmp(e->d_name + l - 8, ".journal") || strstr(e->d_name, "-damaged-"))
			continue;
		if (strcmp(e->d_name, best) > 0)
			snprintf(best, sizeof(best), "%s", e->d_name);
	}
	closedir(d);
	if (!best[0])
		return false;
	return snprintf(out, size, "%s/%s", games, best) < (int)size;
}

/* Where the journal, its scoresheet and the logs are. */
static int locate(const char *arg, char *journal, char *pgn, char *logs, size_t size)
{
	struct stat st;

	if (stat(arg, &st)) {
		log_error(LOG_MAIN, "%s: %s", arg, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(logs, size, "%s", arg);
		snprintf(journal, size, "%s/journal", arg);
		if (access(journal, F_OK) == 0) {
			snprintf(pgn, size, "%s/game.pgn", arg);
			return 0;
		}
		if (!newest_journal(arg, journal, size)) {
			log_error(LOG_MAIN, "%s: no game's journal there", arg);
			return -1;
		}
		printf("no game in progress; the last finished game:\n");
	} else {
		snprintf(journal, size, "%s", arg);
		/* A finished game's journal under games/: the logs are in the directory above. */
		devkey_state_dir(journal, logs, size);
	}
	snprintf(pgn, size, "%s", journal);
	if (strlen(pgn) > 8 && !strcmp(pgn + strlen(pgn) - 8, ".journal"))
		snprintf(pgn + strlen(pgn) - 8, size - strlen(pgn) + 8, ".pgn");
	else
		snprintf(strrchr(pgn, '/') ? strrchr(pgn, '/') + 1 : pgn,
			 size - (size_t)((strrchr(pgn, '/') ? strrchr(pgn, '/') + 1 : pgn) - pgn),
			 "game.pgn");
	return 0;
}

/* What to read: the arguments, and where the journal, its scoresheet and the logs are. */
struct where {
	char journal[PATH_MAX], pgn[PATH_MAX], logs[PATH_MAX];
	const char *anchors[32], *key_file;
	int nanchors;
};

/* The arguments into w: 0, or 2 (bad usage, or nothing there; said). */
static int arguments(int argc, char **argv, struct where *w)
{
	const char *given = NULL;
	const char *arg = "/var/lib/annabella";

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--key") && i + 1 < argc)
			w->key_file = argv[++i];
		else if (!strcmp(argv[i], "--anchors") && i + 1 < argc &&
			 w->nanchors < (int)(sizeof(w->anchors) / sizeof(w->anchors[0])))
			w->anchors[w->nanchors++] = argv[++i];
		else if (argv[i][0] != '-' && !given)
			arg = given = argv[i];
		else
			return usage();
	}
	if (locate(arg, w->journal, w->pgn, w->logs, sizeof(w->journal)))
		return 2;
	return 0;
}

/* The journal's lines: damaged, edited, not fitting the game.  False when not whole. */
static bool report_lines(const struct verify *v, const struct journal_stats *st,
			 const char *journal)
{
	bool whole = true;

	printf("journal     %s\n", journal);
	printf("%-11s %d records of the game, %d lines in all\n", "", v->records, st->lines);
	if (st->bad || st->duplicates || st->torn_tail) {
		printf("%-11s DAMAGED: %d lines unreadable, %d duplicated%s (first at line %d)\n",
		       "", st->bad, st->duplicates, st->torn_tail ? ", a torn last line" : "",
		       st->first_skipped);
		whole = false;
	}
	if (st->chain_breaks) {
		printf("%-11s EDITED: the chain breaks at %d lines (first at line %d): a line "
		       "changed or taken out\n",
		       "", st->chain_breaks, st->first_chain_break);
		whole = false;
	}
	if (v->not_fitting) {
		printf("%-11s %d records do not fit the game (first at line %d)\n", "",
		       v->not_fitting, v->first_not_fitting);
		whole = false;
	}
	if (st->unchained)
		printf("%-11s %d lines of the earlier format (no chain value of their own; the "
		       "chained lines after them cover them)\n",
		       "", st->unchained);
	if (!st->bad && !st->duplicates && !st->torn_tail && !st->chain_breaks)
		printf("%-11s every line read and chained to the one before it%s\n", "",
		       st->unchecked ? " (the keyed values not checked: below)" : "");
	return whole;
}

/* The chain's key: without it anyone who can write the state directory makes the chain
 * again.  err: why the key here was not loaded (have_key false). */
static void report_key(struct verify *v, const struct journal_stats *st, bool have_key,
		       const char *err, const char *key_path)
{
	if (!st->first_keyed) {
		printf(
		    "%-11s the chain is NOT keyed (a journal of an earlier version, or of a start "
		    "without the device key): anyone who could write the state directory could "
		    "have made it again\n",
		    "");
		vf_not_checked(v, "the chain is not keyed");
	} else if (st->unchecked) {
		printf("%-11s keyed with the device key %s from line %d: %d lines NOT checked here "
		       "(%s)\n",
		       "", st->key_id, st->first_keyed, st->unchecked,
		       !have_key       ? err
		       : st->other_key ? "the key here is another device's"
				       : "another key");
		vf_not_checked(v, "%d lines of the keyed chain (the device key %s)", st->unchecked,
			       st->key_id);
	} else {
		printf("%-11s keyed with the device key %s from line %d: every keyed line checked "
		       "with it (%s)\n",
		       "", journal_key_id(), st->first_keyed, key_path);
	}
	if (st->unkeyed_from) {
		printf("%-11s the chain is NOT keyed from line %d on (a start without the device "
		       "key)\n",
		       "", st->unkeyed_from);
		vf_not_checked(v, "the lines after line %d: not keyed", st->unkeyed_from);
	}
}

/* The recoveries the daemon noted and the device that recorded it.  False when the daemon
 * mended the journal (not whole). */
static bool report_device(const struct verify *v)
{
	char here[64];
	bool whole = true;

	for (int i = 0; i < v->recoveries; i++)
		printf("%-11s recovered at start, %s\n", "", v->recovered[i]);
	if (v->mended) {
		printf("%-11s NOT WHOLE: the daemon mended it after damage (records lost or put "
		       "back); the damaged journal is kept as the note says\n",
		       "");
		whole = false;
	}
	device_serial(here, sizeof(here));
	if (v->devices)
		printf("device      %s (annabella %s)%s%s\n", v->device,
		       v->version[0] ? v->version : "?",
		       v->other_device ? ", and ANOTHER device in later notes" : "",
		       !strcmp(here, v->device) ? ", this device" : "");
	else
		printf("device      not noted (a journal of an earlier version)\n");
	return whole;
}

/* The anchors published off the device given (--anchors), each against the journal: 0, or 2
 * when a file cannot be read (said).  *whole false when one is cut or edited. */
static int report_anchors(struct verify *v, const struct journal_stats *st, const struct where *w,
			  bool *whole)
{
	int published_ok = 0;

	for (int i = 0; i < w->nanchors; i++)
		if (vf_read_anchors(v, w->anchors[i])) {
			log_error(LOG_MAIN, "%s: %s", w->anchors[i], strerror(errno));
			return 2;
		}
	printf("anchors     ");
	if (!w->nanchors)
		printf("none from off the device given (--anchors: a saved round.pgn or "
		       "scoresheet, the broker's status messages)\n");
	else
		printf("%d of this game in %d files given%s\n", v->npub, w->nanchors,
		       v->other_games ? " (and some of other games, left aside)" : "");
	for (int i = 0; i < v->npub; i++) {
		if (vf_check_published(v, st, &v->pub[i]))
			published_ok++;
		else
			*whole = false;
	}
	if (published_ok)
		printf("%-11s %d as published (the last at line %ld)\n", "", published_ok,
		       v->pub[v->npub - 1].line);
	if (w->nanchors && !v->npub)
		vf_not_checked(v, "no anchor of this game in the files given");
	return 0;
}

/* The scoresheet: its anchor in the journal's chain, and the game it holds against the
 * journal's.  False when it is missing, not anchored in this journal, or differs. */
static bool report_scoresheet(struct verify *v, const struct journal_stats *st, const char *pgn)
{
	bool whole = true;

	printf("scoresheet  %s\n", pgn);
	if (!v->have_pgn) {
		printf("%-11s MISSING or unreadable\n", "");
		return false;
	}
	if (!v->compared) {
		if (v->pgn_chain && v->pgn_line) {
			struct published own = {.source = "the scoresheet", .line = v->pgn_line};

			snprintf(own.chain, sizeof(own.chain), "%.32s", v->pgn_chain);
			vf_check_published(v, st, &own);
			whole = false;
		} else if (v->pgn_chain) {
			printf("%-11s its JournalChain %s is NOT a value of this journal's chain\n",
			       "", v->pgn_chain);
			whole = false;
		}
		vf_compare(v);
	} else {
		printf("%-11s its JournalChain is the chain after line %d of %d\n", "",
		       v->compared_line, st->lines);
	}
	if (v->differs[0]) {
		printf("%-11s DIFFERS from the journal: %s\n", "", v->differs);
		whole = false;
	} else {
		printf("%-11s the journal's %d plies, clock readings, result %s and tags\n", "",
		       game_plies(&v->g), v->pgn.result);
	}
	if (!v->pgn_chain)
		printf("%-11s no JournalChain (a scoresheet of an earlier version)\n", "");
	return whole;
}

/* The verdict said: its exit status. */
static int verdict(const struct verify *v, bool whole)
{
	if (!whole) {
		printf("NOT whole and unedited\n");
		return 1;
	}
	if (v->nunchecked) {
		printf("whole and unedited as far as it could check; NOT checked:\n");
		for (int i = 0; i < v->nunchecked; i++)
			printf("            %s\n", v->unchecked[i]);
		return 3;
	}
	printf("whole and unedited\n");
	return 0;
}

int cli_verify(int argc, char **argv)
{
	static struct verify v;
	struct where w = {0};
	char path[PATH_MAX + 16], err[512] = "no device key given", key_path[PATH_MAX];
	unsigned char key[DEVKEY_BYTES];
	struct journal_stats st;
	bool whole, archived, have_key;
	int rc = arguments(argc, argv, &w);

	if (rc)
		return rc;
	archived = strstr(w.journal, "/games/") || !strncmp(w.journal, "games/", 6);
	log_set_level(LOG_LEVEL_ERROR);
	/* The device key: only the daemon's user and root read it. */
	if (w.key_file)
		snprintf(key_path, sizeof(key_path), "%s", w.key_file);
	else if (devkey_path(w.logs, key_path, sizeof(key_path)))
		key_path[0] = '\0';
	have_key = key_path[0] && devkey_load(key_path, false, key, err, sizeof(err)) == 0;
	if (have_key)
		journal_use_key(key, sizeof(key));
	explicit_bzero(key, sizeof(key));
	game_init(&v.g);
	vf_read_scoresheet(&v, w.pgn);
	if (journal_read(w.journal, false, vf_take, &v, &st, err, sizeof(err)) < 0) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (!st.taken && !st.bad) {
		log_error(LOG_MAIN, "%s: no record in it", w.journal);
		return 2;
	}

	whole = report_lines(&v, &st, w.journal);
	report_key(&v, &st, have_key, err, key_path);
	if (!report_device(&v))
		whole = false;
	/* The anchors published off the device: the scoresheet's (below), and those given. */
	if (report_anchors(&v, &st, &w, &whole))
		return 2;
	if (!report_scoresheet(&v, &st, w.pgn))
		whole = false;
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", w.logs, vf_log_names[i]);
		if (!vf_check_log(&v, i, path, !archived))
			whole = false;
	}
	fairplay_report(&v.g);
	printf("chain       %s\n", st.chain);
	if (v.have_pgn)
		pgn_game_free(&v.pgn);
	free(v.chains);
	return verdict(&v, whole);
}
