/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella verify [STATE_DIR|GAME.journal]
 *
 * Whether a game's record is whole and unedited, for an arbiter or an appeals committee:
 *
 * - the journal: every line read, its chain followed (store/journal.h): damaged or
 *   duplicated lines, lines whose chain value the lines before them do not give (an edit,
 *   a line taken out), records that do not fit the game, recoveries the daemon noted, and
 *   the device that recorded it (its device notes);
 * - the scoresheet next to it (game.pgn, or games/ID.pgn): the same moves, clock readings,
 *   result and tags as the game the journal gives, and its JournalChain (a finished game's)
 *   a value the chain took, so the journal up to there is the one the scoresheet was
 *   written from;
 * - the audit: control.log and speech.log against the digests the journal noted of them
 *   (their first BYTES bytes), so nothing was changed in them up to there.
 *
 * It prints what it found and the chain's final value.  Exit 0: whole and unedited; 1:
 * something is not; 2: bad usage or nothing to read.  Nothing is changed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "base/sha256.h"
#include "base/utf8.h"
#include "chess/pgn.h"
#include "cli/cli.h"
#include "store/device.h"
#include "store/devkey.h"
#include "store/journal.h"
#include "store/state.h"
#include "game/clock.h"
#include "game/game.h"

#define MAX_ANCHORS 4096
#define MAX_NOTES   32

struct anchor {
	int line;
	long long bytes;
	char hex[2 * SHA256_SIZE + 1];
};

struct verify {
	/* The scoresheet, read before the journal. */
	struct pgn_game pgn;
	bool have_pgn;
	const char *pgn_chain; /* its JournalChain, or NULL */
	/* The journal. */
	struct game g;
	int records, not_fitting, first_not_fitting, last_line;
	bool compared;	   /* the scoresheet was compared at its chain's line */
	int compared_line; /* that line */
	char differs[512]; /* the first difference, "" if none */
	char device[64], version[32];
	int devices;	   /* device notes */
	bool other_device; /* a note named another serial than the first */
	char recovered[MAX_NOTES][256];
	int recoveries;
	bool mended;			       /* a recovery lost or put back records */
	struct anchor anchors[2][MAX_ANCHORS]; /* control.log, speech.log */
	int anchor_count[2];
};

static const char *const log_names[2] = {"control.log", "speech.log"};

static int usage(void)
{
	fprintf(stderr, "usage: annabella verify [STATE_DIR|GAME.journal]\n");
	return 2;
}

/* The value of KEY=VALUE in a note's words, into out; false if absent. */
static bool note_value(const char *args, const char *key, char *out, size_t size)
{
	size_t kl = strlen(key);

	for (const char *p = args; p && *p;) {
		const char *end = strchr(p, ' ');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(out, size, "%.*s", (int)(len - kl - 1), p + kl + 1);
			return true;
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

static void take_note(struct verify *v, const struct journal_record *rec)
{
	char value[256];

	if (!strncmp(rec->args, "device ", 7)) {
		if (!note_value(rec->args, "serial", value, sizeof(value)))
			return;
		if (v->devices && strcmp(value, v->device))
			v->other_device = true;
		if (!v->devices)
			snprintf(v->device, sizeof(v->device), "%.63s", value);
		v->devices++;
		if (note_value(rec->args, "version", value, sizeof(value)))
			snprintf(v->version, sizeof(v->version), "%.31s", value);
	} else if (!strncmp(rec->args, "audit ", 6)) {
		for (int i = 0; i < 2; i++) {
			struct anchor *a;

			if (!note_value(rec->args, log_names[i], value, sizeof(value)) ||
			    v->anchor_count[i] == MAX_ANCHORS)
				continue;
			a = &v->anchors[i][v->anchor_count[i]];
			if (sscanf(value, "%lld:%64[0-9a-f]", &a->bytes, a->hex) != 2 ||
			    strlen(a->hex) != 2 * SHA256_SIZE)
				continue;
			a->line = rec->line;
			v->anchor_count[i]++;
		}
	} else if (!strncmp(rec->args, "recovered ", 10)) {
		static const char *const lost[] = {"bad", "duplicates", "refused", "filled"};

		if (v->recoveries < MAX_NOTES)
			snprintf(v->recovered[v->recoveries++], sizeof(v->recovered[0]),
				 "line %d (%llu ms): %s", rec->line, (unsigned long long)rec->ms,
				 rec->args + 10);
		for (size_t i = 0; i < sizeof(lost) / sizeof(lost[0]); i++)
			if (note_value(rec->args, lost[i], value, sizeof(value)) &&
			    strcmp(value, "0"))
				v->mended = true;
		if (note_value(rec->args, "copy", value, sizeof(value)) && !strcmp(value, "yes"))
			v->mended = true;
	}
}

/* The [%clk] reading in a comment, or "" (into out). */
static void comment_clock(const char *comment, char *out, size_t size)
{
	const char *p = comment ? strstr(comment, "[%clk ") : NULL;
	const char *end = p ? strchr(p, ']') : NULL;

	out[0] = '\0';
	if (p && end)
		snprintf(out, size, "%.*s", (int)(end - p - 6), p + 6);
}

/* The scoresheet against the game as the journal gives it up to here: the first
 * difference into v->differs. */
static void compare(struct verify *v)
{
	const struct game *g = &v->g;
	const struct pgn_game *pgn = &v->pgn;
	int plies = game_plies(g);
	const char *result = game_over(g) ? g->result.result : "*";

	v->differs[0] = '\0';
	for (int i = 0; i < plies && i < pgn->game.count; i++) {
		char a[8], b[8], want[32] = "", have[32];

		if (pgn->game.moves[i] != g->plies[i].move) {
			chess_move_to_uci(g->plies[i].move, a, sizeof(a));
			chess_move_to_uci(pgn->game.moves[i], b, sizeof(b));
			snprintf(v->differs, sizeof(v->differs),
				 "ply %d: %s in the scoresheet, %s in the journal", i + 1, b, a);
			return;
		}
		if (g->plies[i].clk_ms >= 0)
			clock_format_hms(g->plies[i].clk_ms, want, sizeof(want));
		comment_clock(pgn->comments ? pgn->comments[i] : NULL, have, sizeof(have));
		if (strcmp(want, have)) {
			snprintf(
			    v->differs, sizeof(v->differs),
			    "ply %d: clock reading '%s' in the scoresheet, '%s' in the journal",
			    i + 1, have, want);
			return;
		}
	}
	if (plies != pgn->game.count) {
		snprintf(v->differs, sizeof(v->differs),
			 "%d plies in the scoresheet, %d in the journal", pgn->game.count, plies);
		return;
	}
	if (strcmp(result, pgn->result)) {
		snprintf(v->differs, sizeof(v->differs),
			 "result %s in the scoresheet, %s in the journal", pgn->result, result);
		return;
	}
	for (int i = 0; i < g->params.tag_count; i++) {
		const struct game_tag *t = &g->params.tags[i];
		const char *have = pgn_game_tag(pgn, t->name);
		char want[3 * sizeof(t->value)];

		/* As the scoresheet writes it (base/utf8.h): a journal of an earlier version
		 * may hold what turns the text. */
		utf8_copy_safe(want, sizeof(want), t->value, strlen(t->value));
		if (t->value[0] && (!have || strcmp(have, want))) {
			snprintf(v->differs, sizeof(v->differs),
				 "tag %s: '%s' in the scoresheet, '%s' in the journal", t->name,
				 have ? have : "(none)", want);
			return;
		}
	}
}

static int take(void *user, const struct journal_record *rec, char *why, size_t why_size)
{
	struct verify *v = user;
	struct game_record gr;

	v->last_line = rec->line;
	if (!strcmp(rec->type, JOURNAL_NOTE_TYPE)) {
		take_note(v, rec);
	} else if (game_record_decode(&gr, rec->type, rec->args, rec->ms, why, why_size) ||
		   game_apply(&v->g, &gr)) {
		v->not_fitting++;
		if (!v->first_not_fitting)
			v->first_not_fitting = rec->line;
	} else {
		v->records++;
	}
	if (v->have_pgn && v->pgn_chain && !v->compared && !strcmp(rec->chain, v->pgn_chain)) {
		v->compared = true;
		v->compared_line = rec->line;
		compare(v);
	}
	return 0;
}

/* Each log against the digests the journal noted of it: false if one does not match. */
static bool check_log(const struct verify *v, int which, const char *path)
{
	const struct anchor *a = v->anchors[which];
	int n = v->anchor_count[which];
	unsigned char buf[65536], d[SHA256_SIZE];
	char hex[2 * SHA256_SIZE + 1];
	struct sha256 h;
	struct stat st;
	long long done = 0;
	int fd, good = -1;
	bool ok = true;

	if (!n) {
		printf("%-11s no digest of it in the journal\n", log_names[which]);
		return true;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		printf("%-11s %s: %s\n", log_names[which], path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	sha256_init(&h);
	/* The anchors in the order of their length (the journal's order, as the log grew). */
	for (int i = 0; i < n && ok; i++) {
		struct sha256 copy;

		if (a[i].bytes < done)
			continue;
		if (a[i].bytes > st.st_size) {
			printf("%-11s cut short: %lld bytes now, %lld noted at line %d\n",
			       log_names[which], (long long)st.st_size, a[i].bytes, a[i].line);
			ok = false;
			break;
		}
		while (done < a[i].bytes) {
			size_t want = (size_t)(a[i].bytes - done) < sizeof(buf)
					  ? (size_t)(a[i].bytes - done)
					  : sizeof(buf);
			ssize_t got = read(fd, buf, want);

			if (got <= 0) {
				ok = false;
				break;
			}
			sha256_update(&h, buf, (size_t)got);
			done += got;
		}
		copy = h;
		sha256_final(&copy, d);
		sha256_hex(d, sizeof(d), hex);
		if (!ok || strcmp(hex, a[i].hex)) {
			printf(
			    "%-11s EDITED: its first %lld bytes are not those noted at line %d%s\n",
			    log_names[which], a[i].bytes, a[i].line,
			    good >= 0 ? " (those noted before were whole)" : "");
			ok = false;
			break;
		}
		good = i;
	}
	close(fd);
	if (ok)
		printf("%-11s the first %lld bytes as noted at line %d (%d digests); %lld bytes "
		       "written after\n",
		       log_names[which], a[good].bytes, a[good].line, n,
		       (long long)st.st_size - a[good].bytes);
	return ok;
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
		char *slash;

		snprintf(journal, size, "%s", arg);
		snprintf(logs, size, "%s", arg);
		slash = strrchr(logs, '/');
		if (slash)
			*slash = '\0';
		else
			snprintf(logs, size, ".");
		/* A finished game's journal under games/: the logs are in the directory above. */
		slash = strrchr(logs, '/');
		if (!strcmp(slash ? slash + 1 : logs, "games")) {
			if (slash)
				*slash = '\0';
			else
				snprintf(logs, size, ".");
		}
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

static void read_scoresheet(struct verify *v, const char *path)
{
	struct chess_error cerr;
	struct pgn_reader *rd;
	size_t len;
	char *text = state_read_file(path, &len);

	if (!text)
		return;
	rd = pgn_reader_new(text, len);
	if (rd && pgn_reader_next(rd, &v->pgn, &cerr) == 1) {
		v->have_pgn = true;
		v->pgn_chain = pgn_game_tag(&v->pgn, "JournalChain");
	}
	pgn_reader_free(rd);
	free(text);
}

int cli_verify(int argc, char **argv)
{
	static struct verify v;
	char journal[PATH_MAX], pgn[PATH_MAX], logs[PATH_MAX], path[PATH_MAX + 16], err[256];
	char here[64];
	struct journal_stats st;
	const char *arg = "/var/lib/annabella";
	bool whole = true;

	if (argc > 1 || (argc == 1 && argv[0][0] == '-'))
		return usage();
	if (argc == 1)
		arg = argv[0];
	if (locate(arg, journal, pgn, logs, sizeof(journal)))
		return 2;
	log_set_level(LOG_LEVEL_ERROR);
	/* The chain's key, beside the state directory (store/devkey.h): only the daemon's user
	 * and root read it. */
	devkey_use(logs, false, err, sizeof(err));
	game_init(&v.g);
	read_scoresheet(&v, pgn);
	if (journal_read(journal, false, take, &v, &st, err, sizeof(err)) < 0) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (!st.taken && !st.bad) {
		log_error(LOG_MAIN, "%s: no record in it", journal);
		return 2;
	}

	printf("journal     %s\n", journal);
	printf("%-11s %d records of the game, %d lines in all\n", "", v.records, v.last_line);
	if (st.bad || st.duplicates || st.torn_tail) {
		printf("%-11s DAMAGED: %d lines unreadable, %d duplicated%s (first at line %d)\n",
		       "", st.bad, st.duplicates, st.torn_tail ? ", a torn last line" : "",
		       st.first_skipped);
		whole = false;
	}
	if (st.chain_breaks) {
		printf("%-11s EDITED: the chain breaks at %d lines (first at line %d): a line "
		       "changed or taken out\n",
		       "", st.chain_breaks, st.first_chain_break);
		whole = false;
	}
	if (v.not_fitting) {
		printf("%-11s %d records do not fit the game (first at line %d)\n", "",
		       v.not_fitting, v.first_not_fitting);
		whole = false;
	}
	if (st.unchained)
		printf("%-11s %d lines of the earlier format (no chain value of their own; the "
		       "chained lines after them cover them)\n",
		       "", st.unchained);
	if (!st.bad && !st.duplicates && !st.torn_tail && !st.chain_breaks)
		printf("%-11s every line read and chained to the one before it\n", "");
	for (int i = 0; i < v.recoveries; i++)
		printf("%-11s recovered at start, %s\n", "", v.recovered[i]);
	if (v.mended) {
		printf("%-11s NOT WHOLE: the daemon mended it after damage (records lost or put "
		       "back); the damaged journal is kept as the note says\n",
		       "");
		whole = false;
	}
	device_serial(here, sizeof(here));
	if (v.devices)
		printf("device      %s (annabella %s)%s%s\n", v.device,
		       v.version[0] ? v.version : "?",
		       v.other_device ? ", and ANOTHER device in later notes" : "",
		       !strcmp(here, v.device) ? ", this device" : "");
	else
		printf("device      not noted (a journal of an earlier version)\n");

	printf("scoresheet  %s\n", pgn);
	if (!v.have_pgn) {
		printf("%-11s MISSING or unreadable\n", "");
		whole = false;
	} else {
		if (!v.compared) {
			if (v.pgn_chain) {
				printf("%-11s its JournalChain %s is NOT a value of this journal's "
				       "chain\n",
				       "", v.pgn_chain);
				whole = false;
			}
			compare(&v);
		} else {
			printf("%-11s its JournalChain is the chain after line %d of %d\n", "",
			       v.compared_line, v.last_line);
		}
		if (v.differs[0]) {
			printf("%-11s DIFFERS from the journal: %s\n", "", v.differs);
			whole = false;
		} else {
			printf("%-11s the journal's %d plies, clock readings, result %s and tags\n",
			       "", game_plies(&v.g), v.pgn.result);
		}
		if (!v.pgn_chain)
			printf("%-11s no JournalChain (only a finished game's scoresheet has it)\n",
			       "");
	}
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", logs, log_names[i]);
		if (!check_log(&v, i, path))
			whole = false;
	}
	printf("chain       %s\n", st.chain);
	printf("%s\n", whole ? "whole and unedited" : "NOT whole and unedited");
	if (v.have_pgn)
		pgn_game_free(&v.pgn);
	return whole ? 0 : 1;
}
