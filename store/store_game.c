/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The store's games (docs/state.md "State directory"): a new game's id, unique across boards
 * and time; the scoresheet written as game.pgn (and as games/ID.pgn at a game's start, its
 * stops and its end) by the writer; the finished games' files under games/ beyond what is
 * kept removed (the audio records within their count, bytes and the room free); the stop.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "store/sheet.h"
#include "store/store_int.h"
#include "store/writer.h"

static int next_game_number(const char *games_dir)
{
	DIR *d = opendir(games_dir);
	struct dirent *e;
	int best = 0;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		int n;

		if (sscanf(e->d_name, "game-%d.", &n) == 1 && n > best)
			best = n;
	}
	closedir(d);
	return best + 1;
}

void store_new_game(struct store *s, struct game_params *p)
{
	char games[PATH_MAX];

	snprintf(games, sizeof(games), "%s/games", s->dir);
	snprintf(p->id, sizeof(p->id), "game-%04d", next_game_number(games));
	if (!s->virtual_time) {
		time_t t = time(NULL);
		struct tm tm;
		char date[16], stamp[20], host[64] = "board";
		unsigned short rnd = 0;
		size_t n = strlen(p->id);

		localtime_r(&t, &tm);
		strftime(date, sizeof(date), "%Y.%m.%d", &tm);
		game_params_set_tag(p, "Date", date);
		/* Unique across boards and time: the number, this board's name, the start time
		 * and a random part, so a journal or archive from another board never takes
		 * this game's place. */
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
		if (gethostname(host, sizeof(host) - 1))
			snprintf(host, sizeof(host), "board");
		for (char *c = host; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			      (*c >= '0' && *c <= '9')))
				*c = '_';
		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
			rnd = (unsigned short)(t ^ getpid());
		snprintf(p->id + n, sizeof(p->id) - n, "-%.12s-%s-%04x", host, stamp, rnd);
	}
}

/* ------------------------------------------------------------------ the scoresheet */

int store_write_pgn(struct store *s, const struct game *g, bool archive_copy)
{
	char path[PATH_MAX];
	char *text, *copy;
	size_t len;
	int rc = 0;

	if (!g->open)
		return 0;
	s->game = g;
	/* game.pgn is kept before it is written again (recovery); until then it waits. */
	if (s->recovery.keep_scoresheet) {
		s->pgn_due = true;
		return -1;
	}
	text = sheet_text(s->sheet, g,
			  &(struct sheet_anchor){.serial = s->serial,
						 .chain = store_chain(s),
						 .line = store_journal_line(s)});
	if (!text) {
		log_error(LOG_GAME, "cannot make the scoresheet (out of memory)");
		return -1;
	}
	/* The writer writes and syncs them off the loop; a failure comes back as its result. */
	len = strlen(text);
	copy = archive_copy ? strdup(text) : NULL;
	snprintf(path, sizeof(path), "%s/game.pgn", s->dir);
	if (writer_replace(s->writer, path, text, len, s->sync)) {
		store_saving_failed(s, "game.pgn", errno);
		rc = -1;
	}
	snprintf(path, sizeof(path), "%s/games/%s.pgn", s->dir, g->params.id);
	if (archive_copy && (!copy || writer_replace(s->writer, path, copy, len, s->sync))) {
		store_saving_failed(s, path, copy ? errno : ENOMEM);
		rc = -1;
	}
	if (rc)
		s->pgn_due = true;
	store_take_results(s);
	return rc;
}

void store_scoresheet(struct store *s, const struct game *g)
{
	store_write_pgn(s, g, game_over(g));
}

static int newer_first(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/* Whether name is a finished game's file under games/ ending in suffix: game-*SUFFIX, not
 * of the game being played (current, its id; "" for none). */
static bool finished_file(const char *name, const char *suffix, const char *current)
{
	size_t l = strlen(name), sl = strlen(suffix);

	return !strncmp(name, "game-", 5) && l > sl && !strcmp(name + l - sl, suffix) &&
	       !(current[0] && !strncmp(name, current, strlen(current)));
}

/* games/ keeps the last `keep` games' files with this suffix (their names sort by game
 * number); older ones go.  The game being played is never among them. */
static void prune(struct store *s, const char *suffix, int keep, const char *current)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d;

	if (keep < 0)
		return;
	snprintf(dir, sizeof(dir), "%s/games", s->dir);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!finished_file(e->d_name, suffix, current))
			continue;
		if (n == cap) {
			char **more = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));

			if (!more)
				break;
			names = more;
		}
		if (!(names[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), newer_first);
	for (size_t i = 0; i < n; i++) {
		if ((int)i >= keep) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			if (unlink(path) == 0)
				log_info(LOG_GAME, "removed %s (kept the last %d)", path, keep);
		}
		free(names[i]);
	}
	free(names);
}

/* The finished games' audio records (games/game-*.opus, and the .wav of earlier versions):
 * the newest keep_audio of them, together at most keep_audio_bytes less the room the game
 * in progress keeps (as large as the largest record, at least STORE_AUDIO_ROOM); and
 * fewer while the file system has less than that room free.  The oldest go first. */
#define STORE_AUDIO_ROOM (2u * 1000 * 1000)

struct audio_file {
	char name[NAME_MAX + 1];
	uint64_t size;
};

static int audio_newer_first(const void *a, const void *b)
{
	return strcmp(((const struct audio_file *)b)->name, ((const struct audio_file *)a)->name);
}

static void prune_audio(struct store *s, const char *current)
{
	char dir[PATH_MAX], path[PATH_MAX + NAME_MAX + 2];
	struct audio_file *files = NULL;
	size_t n = 0, cap = 0, kept = 0;
	uint64_t room = STORE_AUDIO_ROOM, total = 0, free_bytes = UINT64_MAX;
	struct statvfs fs;
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/games", s->dir);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;

		if ((!finished_file(e->d_name, ".opus", current) &&
		     !finished_file(e->d_name, ".wav", current)) ||
		    fstatat(dirfd(d), e->d_name, &st, 0))
			continue;
		if (n == cap) {
			struct audio_file *more =
			    realloc(files, (cap = cap ? cap * 2 : 64) * sizeof(*files));

			if (!more)
				break;
			files = more;
		}
		snprintf(files[n].name, sizeof(files[n].name), "%s", e->d_name);
		files[n++].size = (uint64_t)st.st_size;
		if ((uint64_t)st.st_size > room)
			room = (uint64_t)st.st_size;
	}
	closedir(d);
	if (n)
		qsort(files, n, sizeof(*files), audio_newer_first);
	if (statvfs(dir, &fs) == 0)
		free_bytes = (uint64_t)fs.f_bavail * fs.f_frsize;
	while (kept < n && (s->keep_audio < 0 || kept < (size_t)s->keep_audio) &&
	       (!s->keep_audio_bytes || total + files[kept].size + room <= s->keep_audio_bytes))
		total += files[kept++].size;
	while (kept > 0 && free_bytes < room) {
		free_bytes += files[--kept].size;
		total -= files[kept].size;
	}
	for (size_t i = kept; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
		if (unlink(path) == 0)
			log_info(LOG_GAME,
				 "removed %s (kept the last %zu, %llu MB; %llu MB kept for the "
				 "game in progress)",
				 path, kept, (unsigned long long)(total / 1000000),
				 (unsigned long long)(room / 1000000));
	}
	free(files);
}

void store_game_start(struct store *s, const struct game *g)
{
	/* The finished games' files beyond what is kept go (the audio is the large part; PGN
	 * and journals are small and all kept unless told otherwise). */
	prune_audio(s, g->params.id);
	prune(s, ".pgn", s->keep_games, g->params.id);
	prune(s, ".journal", s->keep_games, g->params.id);
	if (s->voice && s->record_audio) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/games/%s.opus", s->dir, g->params.id);
		voice_record_to(s->voice, path);
	}
	store_write_pgn(s, g, true);
}

void store_close(struct store *s, const struct game *g)
{
	store_flush(s);
	store_write_pgn(s, g, true);
	writer_drain(s->writer);
	store_take_results(s);
	if (s->written < s->nlines)
		log_error(LOG_GAME, "%zu journal records could not be saved before the stop",
			  s->nlines - s->written);
	/* A game whose result is approved is done: its journal is kept under games/.  One
	 * still waiting for approval (8.7) is resumed at the next start. */
	if (g->open && g->result.state == RESULT_APPROVED)
		store_archive_journal(s);
}

const struct pgn_game *store_pgn(const struct store *s)
{
	return sheet_pgn(s->sheet);
}
