/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "store/games.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/pgn.h"
#include "store/scoresheet.h"

#define PGN_READ_MAX (1 << 20)

/* The length of the run at `s` of characters `is` takes (at most max), or 0 when it is shorter
 * than min. */
static size_t span(const char *s, int (*is)(int), size_t min, size_t max)
{
	size_t n = 0;

	while (n < max && s[n] && is((unsigned char)s[n]))
		n++;
	return n >= min ? n : 0;
}

static int is_name(int c)
{
	return isalnum(c) || c == '_';
}

static int is_hex(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f');
}

/* Whether `name` is a game's id (game-NNNN, or game-NNNN-HOST-STAMP-RAND), not a copy kept
 * beside it (ID-before-recovery-N). */
static bool store_game_id_valid(const char *name)
{
	const char *p = name;
	size_t n;

	if (strncmp(p, "game-", 5))
		return false;
	p += 5;
	if (!(n = span(p, isdigit, 1, 9)))
		return false;
	p += n;
	if (!*p)
		return true;
	/* -HOST-YYYYMMDDTHHMMSS-RRRR (store.c's store_new_game()) */
	if (*p++ != '-' || !(n = span(p, is_name, 1, 12)))
		return false;
	p += n;
	if (*p++ != '-' || span(p, isdigit, 8, 8) != 8 || p[8] != 'T' ||
	    span(p + 9, isdigit, 6, 6) != 6)
		return false;
	p += 15;
	return *p++ == '-' && span(p, is_hex, 4, 4) == 4 && !p[4];
}

static int game_number(const char *id)
{
	return atoi(id + 5);
}

/* The ids under games/ (their .pgn) into *ids, a malloc'd array of malloc'd names: how many,
 * or -1 (errno) when games/ cannot be read. */
static int game_ids(const char *dir, char ***ids_out)
{
	char path[4096];
	char **ids = NULL;
	int cap = 0, n = 0;
	struct dirent *e;
	DIR *d;

	*ids_out = NULL;
	snprintf(path, sizeof(path), "%s/games", dir);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char id[GAME_ID_MAX];

		if (l < 5 || l - 4 >= sizeof(id) || strcmp(e->d_name + l - 4, ".pgn"))
			continue;
		memcpy(id, e->d_name, l - 4);
		id[l - 4] = '\0';
		if (!store_game_id_valid(id))
			continue;
		if (n == cap) {
			char **more =
			    realloc(ids, (size_t)(cap = cap ? cap * 2 : 64) * sizeof(*ids));

			if (!more)
				break;
			ids = more;
		}
		if (!(ids[n] = strdup(id)))
			break;
		n++;
	}
	closedir(d);
	*ids_out = ids;
	return n;
}

static int newest_first(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int nx = game_number(x), ny = game_number(y);

	return nx != ny ? (ny > nx) - (ny < nx) : strcmp(y, x);
}

static void free_ids(char **ids, int n)
{
	for (int i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

static void tag(const struct pgn_game *g, const char *name, char *out, size_t size)
{
	const char *v = pgn_game_tag(g, name);

	snprintf(out, size, "%s", v ? v : "?");
}

/* games/ID.pgn's game into *g: 0; -1 when the file cannot be opened, -2 when it holds no game
 * that can be read (or out of memory). */
static int read_game(const char *dir, const char *id, struct pgn_game *g)
{
	char path[4096];
	struct pgn_reader *rd = NULL;
	struct chess_error err;
	char *text;
	size_t len;
	FILE *f;
	int rc = -2;

	snprintf(path, sizeof(path), "%s/games/%s.pgn", dir, id);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	text = malloc(PGN_READ_MAX);
	if (text) {
		len = fread(text, 1, PGN_READ_MAX, f);
		rd = pgn_reader_new(text, len);
	}
	fclose(f);
	if (rd && pgn_reader_next(rd, g, &err) == 1)
		rc = 0;
	pgn_reader_free(rd);
	free(text);
	return rc;
}

/* What games/ID.pgn says of its game: 0, or -1 when it cannot be read. */
static int read_info(const char *dir, const char *id, struct game_summary *info)
{
	struct pgn_game g;

	if (read_game(dir, id, &g))
		return -1;
	memset(info, 0, sizeof(*info));
	snprintf(info->id, sizeof(info->id), "%s", id);
	info->number = game_number(id);
	tag(&g, "White", info->white, sizeof(info->white));
	tag(&g, "Black", info->black, sizeof(info->black));
	tag(&g, "Date", info->date, sizeof(info->date));
	snprintf(info->result, sizeof(info->result), "%s", g.result);
	info->plies = g.game.count;
	pgn_game_free(&g);
	return 0;
}

int store_games_list(const char *dir, const char *current, struct game_summary *out, int max)
{
	int listed = 0;
	char **ids;
	int n = game_ids(dir, &ids);

	if (n < 0)
		return errno == ENOENT ? 0 : -1;
	if (n > 1)
		qsort(ids, (size_t)n, sizeof(*ids), newest_first);
	for (int i = 0; i < n && listed < max; i++) {
		if (current && !strcmp(ids[i], current))
			continue;
		if (!read_info(dir, ids[i], &out[listed]))
			listed++;
	}
	free_ids(ids, n);
	return listed;
}

int store_game_find(const char *dir, const char *what, char *id, size_t size)
{
	int n, found = 0, number = -1;
	char **ids;
	char *end;

	/* "42" or "game-0042": the game with that number. */
	if (!strncmp(what, "game-", 5) && store_game_id_valid(what) && !strchr(what + 5, '-'))
		number = game_number(what);
	else if (what[0] >= '0' && what[0] <= '9' && (number = (int)strtol(what, &end, 10), *end))
		number = -1;
	n = game_ids(dir, &ids);
	for (int i = 0; i < n; i++) {
		if (strcmp(ids[i], what) && (number < 0 || game_number(ids[i]) != number))
			continue;
		if (!found++)
			snprintf(id, size, "%s", ids[i]);
	}
	free_ids(ids, n);
	return found == 1 ? 0 : -1;
}

char *store_game_render(const char *dir, const char *what, const char *format,
			const struct braille_layout *layout, enum reply_code *why)
{
	char id[GAME_ID_MAX];
	struct pgn_game g;
	char *text;

	if (store_game_find(dir, what, id, sizeof(id))) {
		*why = REPLY_NO_SUCH_GAME;
		return NULL;
	}
	switch (read_game(dir, id, &g)) {
	case 0:
		break;
	case -1:
		*why = REPLY_NO_SUCH_GAME;
		return NULL;
	default:
		*why = REPLY_GAME_UNREADABLE;
		return NULL;
	}
	text = scoresheet_render(&g, format, layout);
	pgn_game_free(&g);
	if (!text)
		*why = REPLY_GAME_UNREADABLE;
	return text;
}
