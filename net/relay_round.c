/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The round of the relay (docs/broadcast.md "Live broadcast and the room relay"): the
 * boards named by --boards and by the rows of the round's tags CSV (--round), the only ones
 * the room shows, and the CSV's file read whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/log.h"
#include "net/relay.h"

#define CSV_SIZE_MAX (1 << 20)

int relay_read_csv(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	size_t n;

	if (!f) {
		log_error(LOG_MAIN, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > CSV_SIZE_MAX) {
		log_error(LOG_MAIN, "%s: not a CSV file of at most %d bytes", path, CSV_SIZE_MAX);
		fclose(f);
		return -1;
	}
	*text = malloc((size_t)st.st_size + 1);
	n = *text ? fread(*text, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!*text || n != (size_t)st.st_size) {
		log_error(LOG_MAIN, "%s: cannot read: %s", path,
			  *text ? "short read" : "out of memory");
		free(*text);
		return -1;
	}
	(*text)[n] = '\0';
	*len = n;
	return 0;
}

static int add_round_board(struct relay *r, const char *name, const char *where)
{
	if (!room_board_name_ok(name)) {
		log_error(LOG_MAIN,
			  "%s: '%s' is not a board's name (letters, digits, '.', '_', '-')", where,
			  name);
		return -1;
	}
	for (int i = 0; i < r->round_count; i++)
		if (!strcmp(r->round_boards[i], name))
			return 0;
	if (r->round_count == ROOM_BOARDS_MAX) {
		log_error(LOG_MAIN, "%s: more than %d boards", where, ROOM_BOARDS_MAX);
		return -1;
	}
	snprintf(r->round_boards[r->round_count++], ROOM_NAME_MAX, "%s", name);
	return 0;
}

/* The boards of --boards (names, comma or space separated) and of --round's rows. */
int relay_round_boards(struct relay *r, const struct relay_options *o)
{
	if (!o->boards && !o->round)
		return 0;
	r->round_boards = calloc(ROOM_BOARDS_MAX, sizeof(*r->round_boards));
	if (!r->round_boards)
		return -1;
	if (o->boards) {
		char *list = strdup(o->boards), *save = NULL;

		if (!list)
			return -1;
		for (char *t = strtok_r(list, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save))
			if (add_round_board(r, t, "--boards")) {
				free(list);
				return -1;
			}
		free(list);
	}
	if (o->round) {
		struct room_csv *csv = calloc(1, sizeof(*csv));
		char err[400], *text = NULL;
		size_t len;
		int rc = 0;

		if (!csv || relay_read_csv(o->round, &text, &len))
			rc = -1;
		else if (room_csv_parse(text, len, csv, err, sizeof(err))) {
			log_error(LOG_MAIN, "%s:%s", o->round, err);
			rc = -1;
		}
		for (int i = 0; rc == 0 && csv && i < csv->row_count; i++)
			rc = add_round_board(r, csv->rows[i].name, o->round);
		free(text);
		free(csv);
		if (rc)
			return -1;
	}
	if (!r->round_count) {
		log_error(LOG_MAIN, "the round names no board");
		return -1;
	}
	return 0;
}
