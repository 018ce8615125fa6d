/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella verify`: the anchors (README "Security model").  control.log and
 * speech.log against the digests the journal noted of their first bytes, and the chain's
 * values published off the device (a saved round.pgn or scoresheet, the broker's status
 * messages) against the journal's lines: cut, or written again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sha256.h"
#include "chess/pgn.h"
#include "cli/cli_verify_int.h"
#include "store/journal.h"
#include "store/state.h"

/* The log's bytes read in the order of its digests' lengths, each digest checked: true when
 * every one matches (the last in *good), false (said) when one does not or the log is
 * shorter. */
static bool digests_match(int fd, const struct anchor *a, int n, const char *name, long long size,
			  int *good)
{
	unsigned char buf[65536], d[SHA256_SIZE];
	char hex[2 * SHA256_SIZE + 1];
	struct sha256 h;
	long long done = 0;
	bool ok = true;

	*good = -1;
	sha256_init(&h);
	/* The anchors in the order of their length (the journal's order, as the log grew). */
	for (int i = 0; i < n && ok; i++) {
		struct sha256 copy;

		if (a[i].bytes < done)
			continue;
		if (a[i].bytes > size) {
			printf("%-11s cut short: %lld bytes now, %lld noted at line %d\n", name,
			       size, a[i].bytes, a[i].line);
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
			    name, a[i].bytes, a[i].line,
			    *good >= 0 ? " (those noted before were whole)" : "");
			ok = false;
			break;
		}
		*good = i;
	}
	return ok;
}

/* Each log against the digests the journal noted of it: false if one does not match.  What
 * was written after the last is covered by none: for a game in progress (current) it is
 * not checked; a finished game's ended there. */
bool vf_check_log(struct verify *v, int which, const char *path, bool current)
{
	const struct anchor *a = v->anchors[which];
	int n = v->anchor_count[which];
	struct stat st;
	int fd, good;
	bool ok;

	if (!n) {
		printf("%-11s no digest of it in the journal\n", vf_log_names[which]);
		vf_not_checked(v, "%s: no digest of it in the journal", vf_log_names[which]);
		return true;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		printf("%-11s %s: %s\n", vf_log_names[which], path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	ok = digests_match(fd, a, n, vf_log_names[which], (long long)st.st_size, &good);
	close(fd);
	if (!ok)
		return false;
	printf("%-11s the first %lld bytes as noted at line %d (%d digests)\n", vf_log_names[which],
	       a[good].bytes, a[good].line, n);
	if (st.st_size > a[good].bytes && current) {
		printf("%-11s NOT COVERED: its last %lld bytes, written after the last digest: no "
		       "digest covers them yet\n",
		       "", (long long)st.st_size - a[good].bytes);
		vf_not_checked(v, "%s: its last %lld bytes, after its last digest",
			       vf_log_names[which], (long long)st.st_size - a[good].bytes);
	} else if (st.st_size > a[good].bytes) {
		printf("%-11s %lld bytes written after the game's last digest: after its end, "
		       "not this game's record\n",
		       "", (long long)st.st_size - a[good].bytes);
	}
	return true;
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
int vf_read_anchors(struct verify *v, const char *path)
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
				strstr(j, "\"line\":") ? vf_line_number(strstr(j, "\"line\":") + 7)
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
				vf_line_number(pgn_game_tag(&g, "JournalLine")),
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
bool vf_check_published(const struct verify *v, const struct journal_stats *st,
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
