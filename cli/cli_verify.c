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
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
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

#define MAX_ANCHORS   4096
#define MAX_NOTES     32
#define MAX_PUBLISHED 256
#define MAX_RESTARTS  64
#define MAX_UNCHECKED 8

struct anchor {
	int line;
	long long bytes;
	char hex[2 * SHA256_SIZE + 1];
};

/* An anchor published off the device: the chain's value after a line of the journal. */
struct published {
	char source[80];
	long line;
	char chain[JOURNAL_CHAIN_HEX];
};

struct verify {
	/* The scoresheet, read before the journal. */
	struct pgn_game pgn;
	bool have_pgn;
	const char *pgn_chain; /* its JournalChain, or NULL */
	long pgn_line;	       /* its JournalLine, or 0 */
	/* The chain's value after each line read (index: line - 1; "" for a line skipped). */
	char (*chains)[JOURNAL_CHAIN_HEX];
	int chains_cap;
	int restarts[MAX_RESTARTS]; /* the lines of the restart records */
	int nrestarts;
	struct published pub[MAX_PUBLISHED];
	int npub, other_games;		    /* anchors of this game; of other games, left aside */
	char unchecked[MAX_UNCHECKED][200]; /* what could not be checked */
	int nunchecked;
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
static void not_checked(struct verify *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void not_checked(struct verify *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nunchecked == MAX_UNCHECKED)
		return;
	va_start(ap, fmt);
	vsnprintf(v->unchecked[v->nunchecked++], sizeof(v->unchecked[0]), fmt, ap);
	va_end(ap);
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
	if (g->fairplay.measured) {
		char want[FAIRPLAY_SUMMARY_MAX];
		const char *have = pgn_game_tag(pgn, "FairPlay");

		fairplay_summary(&g->fairplay.first, g->fairplay.breach, g->fairplay.breach_move,
				 g->fairplay.breach_what, &g->fairplay.policy, want, sizeof(want));
		if (!have || strcmp(have, want)) {
			snprintf(v->differs, sizeof(v->differs),
				 "tag FairPlay: '%s' in the scoresheet, '%s' from the journal",
				 have ? have : "(none)", want);
			return;
		}
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

/* The chain's value after line `line`, kept for the anchors. */
static void keep_chain(struct verify *v, int line, const char *chain)
{
	if (line > v->chains_cap) {
		int cap = v->chains_cap ? v->chains_cap : 1024;
		char(*more)[JOURNAL_CHAIN_HEX];

		while (cap < line)
			cap *= 2;
		more = realloc(v->chains, (size_t)cap * sizeof(*more));
		if (!more)
			return;
		memset(more + v->chains_cap, 0, (size_t)(cap - v->chains_cap) * sizeof(*more));
		v->chains = more;
		v->chains_cap = cap;
	}
	snprintf(v->chains[line - 1], sizeof(v->chains[0]), "%s", chain);
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

static int take(void *user, const struct journal_record *rec, char *why, size_t why_size)
{
	struct verify *v = user;
	struct game_record gr;

	v->last_line = rec->line;
	keep_chain(v, rec->line, rec->chain);
	if (!strcmp(rec->type, "restart") && v->nrestarts < MAX_RESTARTS)
		v->restarts[v->nrestarts++] = rec->line;
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
	if (v->have_pgn && v->pgn_chain && !v->compared && !strcmp(rec->chain, v->pgn_chain) &&
	    (!v->pgn_line || v->pgn_line == rec->line)) {
		v->compared = true;
		v->compared_line = rec->line;
		compare(v);
	}
	return 0;
}

/* Each log against the digests the journal noted of it: false if one does not match.  What
 * was written after the last is covered by none: for a game in progress (current) it is
 * not checked; a finished game's ended there. */
static bool check_log(struct verify *v, int which, const char *path, bool current)
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
		not_checked(v, "%s: no digest of it in the journal", log_names[which]);
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
	if (!ok)
		return false;
	printf("%-11s the first %lld bytes as noted at line %d (%d digests)\n", log_names[which],
	       a[good].bytes, a[good].line, n);
	if (st.st_size > a[good].bytes && current) {
		printf("%-11s NOT COVERED: its last %lld bytes, written after the last digest: no "
		       "digest covers them yet\n",
		       "", (long long)st.st_size - a[good].bytes);
		not_checked(v, "%s: its last %lld bytes, after its last digest", log_names[which],
			    (long long)st.st_size - a[good].bytes);
	} else if (st.st_size > a[good].bytes) {
		printf("%-11s %lld bytes written after the game's last digest: after its end, "
		       "not this game's record\n",
		       "", (long long)st.st_size - a[good].bytes);
	}
	return true;
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

/* A line number as a tag or JSON gives it; 0 if it is none. */
static long line_number(const char *text)
{
	char *end;
	long n = text ? strtol(text, &end, 10) : 0;

	return text && end != text && n > 0 ? n : 0;
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
		v->pgn_line = line_number(pgn_game_tag(&v->pgn, "JournalLine"));
	}
	pgn_reader_free(rd);
	free(text);
}

static void publish(struct verify *v, const char *game, const char *source, long line,
		    const char *chain)
{
	struct published *p;

	if (!game || strcmp(game, v->g.params.id) || !line || !chain ||
	    strlen(chain) != JOURNAL_CHAIN_HEX - 1) {
		v->other_games += game && strcmp(game, v->g.params.id);
		return;
	}
	if (v->npub == MAX_PUBLISHED)
		return;
	p = &v->pub[v->npub++];
	snprintf(p->source, sizeof(p->source), "%.79s", source);
	p->line = line;
	snprintf(p->chain, sizeof(p->chain), "%s", chain);
}

/* The string value of "key": in a JSON object's text, into out ("" if none). */
static void json_text(const char *json, const char *key, char *out, size_t size)
{
	char want[64];
	const char *at;
	size_t n = 0;

	out[0] = '\0';
	snprintf(want, sizeof(want), "\"%s\":\"", key);
	at = strstr(json, want);
	if (!at)
		return;
	for (at += strlen(want); *at && *at != '"' && n + 1 < size; at++)
		out[n++] = *at;
	out[n] = '\0';
}

/*
 * The anchors of this game in a file kept off the device: a PGN (a saved round.pgn, the
 * page's /game.pgn, a scoresheet downloaded: each game's GameId, JournalLine and
 * JournalChain, read with the scoresheet's own reader), or the broker's status messages, one
 * JSON object a line as mosquitto_sub prints them (with -v, the topic before it): "game" and
 * "journal":{"line":N,"chain":"..."}.  Games of other ids are left aside.  -1 when the file
 * cannot be read.
 */
static int read_anchors(struct verify *v, const char *path)
{
	size_t len;
	char *text = state_read_file(path, &len);
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (!text)
		return -1;
	if (text[strspn(text, " \t\r\n")] != '[') {
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			char game[128], chain[JOURNAL_CHAIN_HEX + 1], src[80];
			const char *j = strchr(line, '{') ? strstr(line, "\"journal\":{") : NULL;

			if (!j)
				continue;
			json_text(line, "game", game, sizeof(game));
			json_text(j, "chain", chain, sizeof(chain));
			snprintf(src, sizeof(src), "%.60s (status)", name);
			publish(v, game, src,
				strstr(j, "\"line\":") ? line_number(strstr(j, "\"line\":") + 7)
						       : 0,
				chain);
		}
	} else {
		struct pgn_reader *rd = pgn_reader_new(text, len);
		struct chess_error cerr;
		struct pgn_game g;
		int rc;

		while (rd && (rc = pgn_reader_next(rd, &g, &cerr)) != 0) {
			if (rc < 0)
				continue;
			publish(v, pgn_game_tag(&g, "GameId"), name,
				line_number(pgn_game_tag(&g, "JournalLine")),
				pgn_game_tag(&g, "JournalChain"));
			pgn_game_free(&g);
		}
		pgn_reader_free(rd);
	}
	free(text);
	return 0;
}

/* The restart at or before `line` nearest to it, 0 if none: a power cut before it may have
 * lost lines the broadcast had published. */
static int restart_before(const struct verify *v, long line)
{
	int best = 0;

	for (int i = 0; i < v->nrestarts; i++)
		if (v->restarts[i] <= line && v->restarts[i] > best)
			best = v->restarts[i];
	return best;
}

/* One published anchor against the journal: the line it names carries its value; false
 * (said) when the journal ends before it (cut) or the line's value is another. */
static bool check_published(const struct verify *v, const struct journal_stats *st,
			    const struct published *p)
{
	const char *have = p->line <= v->chains_cap ? v->chains[p->line - 1] : "";
	int restart;

	if (p->line > st->lines) {
		printf("%-11s CUT: the journal ends at line %d, before line %ld that %s published "
		       "(its value %s)\n",
		       "", st->lines, p->line, p->source, p->chain);
		return false;
	}
	if (!strcmp(have, p->chain))
		return true;
	restart = restart_before(v, p->line);
	printf("%-11s EDITED: line %ld's value is not the %s one that %s published: the journal "
	       "was written again%s\n",
	       "", p->line, p->chain, p->source, restart ? " (or, after the restart at line " : "");
	if (restart)
		printf("%-11s %d, lost lines a power cut took before they reached storage)\n", "",
		       restart);
	return false;
}

int cli_verify(int argc, char **argv)
{
	static struct verify v;
	char journal[PATH_MAX], pgn[PATH_MAX], logs[PATH_MAX], path[PATH_MAX + 16];
	char err[512] = "no device key given";
	char here[64], key_path[PATH_MAX];
	unsigned char key[DEVKEY_BYTES];
	const char *anchors[32], *key_file = NULL, *given = NULL;
	int nanchors = 0, published_ok = 0;
	struct journal_stats st;
	const char *arg = "/var/lib/annabella";
	bool whole = true, archived, have_key;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--key") && i + 1 < argc)
			key_file = argv[++i];
		else if (!strcmp(argv[i], "--anchors") && i + 1 < argc &&
			 nanchors < (int)(sizeof(anchors) / sizeof(anchors[0])))
			anchors[nanchors++] = argv[++i];
		else if (argv[i][0] != '-' && !given)
			arg = given = argv[i];
		else
			return usage();
	}
	if (locate(arg, journal, pgn, logs, sizeof(journal)))
		return 2;
	archived = strstr(journal, "/games/") || !strncmp(journal, "games/", 6);
	log_set_level(LOG_LEVEL_ERROR);
	/* The device key: only the daemon's user and root read it. */
	if (key_file)
		snprintf(key_path, sizeof(key_path), "%s", key_file);
	else if (devkey_path(logs, key_path, sizeof(key_path)))
		key_path[0] = '\0';
	have_key = key_path[0] && devkey_load(key_path, false, key, err, sizeof(err)) == 0;
	if (have_key)
		journal_use_key(key, sizeof(key));
	explicit_bzero(key, sizeof(key));
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
	printf("%-11s %d records of the game, %d lines in all\n", "", v.records, st.lines);
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
		printf("%-11s every line read and chained to the one before it%s\n", "",
		       st.unchecked ? " (the keyed values not checked: below)" : "");
	/* The key: without it anyone who can write the state directory makes the chain again. */
	if (!st.first_keyed) {
		printf(
		    "%-11s the chain is NOT keyed (a journal of an earlier version, or of a start "
		    "without the device key): anyone who could write the state directory could "
		    "have made it again\n",
		    "");
		not_checked(&v, "the chain is not keyed");
	} else if (st.unchecked) {
		printf("%-11s keyed with the device key %s from line %d: %d lines NOT checked here "
		       "(%s)\n",
		       "", st.key_id, st.first_keyed, st.unchecked,
		       !have_key      ? err
		       : st.other_key ? "the key here is another device's"
				      : "another key");
		not_checked(&v, "%d lines of the keyed chain (the device key %s)", st.unchecked,
			    st.key_id);
	} else {
		printf("%-11s keyed with the device key %s from line %d: every keyed line checked "
		       "with it (%s)\n",
		       "", journal_key_id(), st.first_keyed, key_path);
	}
	if (st.unkeyed_from) {
		printf("%-11s the chain is NOT keyed from line %d on (a start without the device "
		       "key)\n",
		       "", st.unkeyed_from);
		not_checked(&v, "the lines after line %d: not keyed", st.unkeyed_from);
	}
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

	/* The anchors published off the device: the scoresheet's (below), and those given. */
	for (int i = 0; i < nanchors; i++)
		if (read_anchors(&v, anchors[i])) {
			log_error(LOG_MAIN, "%s: %s", anchors[i], strerror(errno));
			return 2;
		}
	printf("anchors     ");
	if (!nanchors)
		printf("none from off the device given (--anchors: a saved round.pgn or "
		       "scoresheet, the broker's status messages)\n");
	else
		printf("%d of this game in %d files given%s\n", v.npub, nanchors,
		       v.other_games ? " (and some of other games, left aside)" : "");
	for (int i = 0; i < v.npub; i++) {
		if (check_published(&v, &st, &v.pub[i]))
			published_ok++;
		else
			whole = false;
	}
	if (published_ok)
		printf("%-11s %d as published (the last at line %ld)\n", "", published_ok,
		       v.pub[v.npub - 1].line);
	if (nanchors && !v.npub)
		not_checked(&v, "no anchor of this game in the files given");

	printf("scoresheet  %s\n", pgn);
	if (!v.have_pgn) {
		printf("%-11s MISSING or unreadable\n", "");
		whole = false;
	} else {
		if (!v.compared) {
			if (v.pgn_chain && v.pgn_line) {
				struct published own = {.source = "the scoresheet",
							.line = v.pgn_line};

				snprintf(own.chain, sizeof(own.chain), "%.32s", v.pgn_chain);
				check_published(&v, &st, &own);
				whole = false;
			} else if (v.pgn_chain) {
				printf("%-11s its JournalChain %s is NOT a value of this journal's "
				       "chain\n",
				       "", v.pgn_chain);
				whole = false;
			}
			compare(&v);
		} else {
			printf("%-11s its JournalChain is the chain after line %d of %d\n", "",
			       v.compared_line, st.lines);
		}
		if (v.differs[0]) {
			printf("%-11s DIFFERS from the journal: %s\n", "", v.differs);
			whole = false;
		} else {
			printf("%-11s the journal's %d plies, clock readings, result %s and tags\n",
			       "", game_plies(&v.g), v.pgn.result);
		}
		if (!v.pgn_chain)
			printf("%-11s no JournalChain (a scoresheet of an earlier version)\n", "");
	}
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", logs, log_names[i]);
		if (!check_log(&v, i, path, !archived))
			whole = false;
	}
	fairplay_report(&v.g);
	printf("chain       %s\n", st.chain);
	if (v.have_pgn)
		pgn_game_free(&v.pgn);
	free(v.chains);
	if (!whole) {
		printf("NOT whole and unedited\n");
		return 1;
	}
	if (v.nunchecked) {
		printf("whole and unedited as far as it could check; NOT checked:\n");
		for (int i = 0; i < v.nunchecked; i++)
			printf("            %s\n", v.unchecked[i]);
		return 3;
	}
	printf("whole and unedited\n");
	return 0;
}
