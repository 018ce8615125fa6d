/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella review [--socket PATH] [--config FILE] GAME-ID|FILE.pgn
 *
 * Study a finished game on the tactile board (docs/training.md "Training and study"): the game is
 * read here, on its main line (variations, comments and NAGs are passed over), from a PGN file or
 * from the daemon's games/ (`export pgn GAME-ID`), and handed to the daemon move by move (`review
 * load`, `review add`, `review begin`).  The device then guides the set-up of its start position
 * and steps through it with the buttons; the review ends from the button menu or with
 * `annabella control review end`.  A PGN that does not parse is refused with its file, line
 * and column, and nothing is sent.
 *
 * Exit 0 when the review began, 1 when the daemon refused it, 2 for bad usage or input or a
 * daemon that cannot be reached.
 */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/log.h"
#include "chess/pgn.h"
#include "control/json.h"
#include "control/protocol.h"
#include "cli/cli.h"
#include "config/config.h"
#include "net/ctlclient.h"

#define REPLY_TIMEOUT_MS 15000
#define PGN_FILE_MAX	 (16 << 20)
/* A `review add` line's moves: well under the request's limit. */
#define ADD_CHUNK 3000

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text;

	if (!f)
		return NULL;
	text = malloc(PGN_FILE_MAX + 1);
	if (text) {
		*len = fread(text, 1, PGN_FILE_MAX, f);
		text[*len] = '\0';
		if (ferror(f) || !feof(f)) {
			free(text);
			text = NULL;
			errno = ferror(f) ? EIO : EFBIG;
		}
	}
	fclose(f);
	return text;
}

/* One request and its reply (malloc'd in *reply); 0 when the reply is ok, 1 when it is an
 * error (printed), 2 when the daemon did not answer. */
static int request(struct ctlclient *c, const char *line, char **reply)
{
	char msg[512];

	if (ctlclient_request(c, line, reply, REPLY_TIMEOUT_MS)) {
		log_error(LOG_MAIN, "no reply from the daemon");
		return 2;
	}
	if (ctlclient_reply_ok(*reply))
		return 0;
	if (json_get(*reply, "error", msg, sizeof(msg)) < 0)
		snprintf(msg, sizeof(msg), "%s", *reply);
	log_error(LOG_MAIN, "the daemon refuses: %s", msg);
	return 1;
}

/* The first game of a PGN text: 0, or 2 with the place named (name:LINE:COLUMN). */
static int parse(const char *name, const char *text, size_t len, struct pgn_game *g)
{
	struct pgn_reader *rd = pgn_reader_new(text, len);
	struct chess_error err;
	int rc;

	if (!rd) {
		log_error(LOG_MAIN, "out of memory");
		return 2;
	}
	rc = pgn_reader_next(rd, g, &err);
	pgn_reader_free(rd);
	if (rc == 1)
		return 0;
	if (rc == 0)
		log_error(LOG_MAIN, "%s: no game in it", name);
	else
		log_error(LOG_MAIN, "%s:%d:%d: %s", name, err.line, err.column, err.message);
	return 2;
}

/* The game to the daemon: its start, its moves in chunks, then the review begins. */
static int send_game(struct ctlclient *c, const struct pgn_game *g)
{
	char line[CONTROL_LINE_MAX], fen[CHESS_FEN_MAX];
	char *reply = NULL;
	size_t n;
	int rc;

	chess_fen_format(&g->game.start, fen, sizeof(fen));
	snprintf(line, sizeof(line), "review load %s", strcmp(fen, CHESS_FEN_START) ? fen : "");
	rc = request(c, line, &reply);
	free(reply);
	if (rc)
		return rc;
	n = (size_t)snprintf(line, sizeof(line), "review add");
	for (int i = 0; i < g->game.count; i++) {
		char uci[8];

		chess_move_to_uci(g->game.moves[i], uci, sizeof(uci));
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s", uci);
		if (n > ADD_CHUNK || i + 1 == g->game.count) {
			rc = request(c, line, &reply);
			free(reply);
			if (rc)
				return rc;
			n = (size_t)snprintf(line, sizeof(line), "review add");
		}
	}
	rc = request(c, "review begin", &reply);
	if (rc == 0) {
		char text[256];

		if (json_get(reply, "text", text, sizeof(text)) > 0)
			printf("review: %s\n", text);
	}
	free(reply);
	return rc;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: annabella review [--socket PATH] [--config FILE] GAME-ID|FILE.pgn\n");
	return 2;
}

int cli_review(int argc, char **argv)
{
	const char *socket = NULL, *config_path = NULL, *what = NULL;
	struct config cfg;
	struct ctlclient *c;
	struct pgn_game g;
	struct stat st;
	char err[512];
	char *text = NULL;
	size_t len = 0;
	bool from_file = false;
	int rc;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--socket") && i + 1 < argc)
			socket = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config_path = argv[++i];
		else if (argv[i][0] == '-' || what)
			return usage();
		else
			what = argv[i];
	}
	if (!what)
		return usage();
	config_defaults(&cfg);
	if (config_path && config_load(&cfg, config_path, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (!socket)
		socket = cfg.control_socket[0] ? cfg.control_socket : CTLCLIENT_DEFAULT_SOCKET;
	signal(SIGPIPE, SIG_IGN);

	/* A file is read here (and refused before the daemon hears of it); a game id is the
	 * daemon's. */
	if (stat(what, &st) == 0 || strchr(what, '/') || strstr(what, ".pgn")) {
		text = read_file(what, &len);
		if (!text) {
			log_error(LOG_MAIN, "%s: %s", what, strerror(errno));
			return 2;
		}
		rc = parse(what, text, len, &g);
		free(text);
		if (rc)
			return rc;
		from_file = true;
	}
	c = ctlclient_connect(socket, err, sizeof(err));
	if (!c) {
		log_error(LOG_MAIN, "%s", err);
		if (from_file)
			pgn_game_free(&g);
		return 2;
	}
	if (!from_file) {
		char line[128], *reply = NULL;
		char *pgn;

		snprintf(line, sizeof(line), "export pgn %s", what);
		rc = request(c, line, &reply);
		if (rc) {
			free(reply);
			ctlclient_close(c);
			return rc == 1 ? 2 : rc;
		}
		pgn = malloc(CTLCLIENT_LINE_MAX);
		if (!pgn || json_get(reply, "text", pgn, CTLCLIENT_LINE_MAX) < 0) {
			log_error(LOG_MAIN, "the daemon sent no scoresheet");
			free(pgn);
			free(reply);
			ctlclient_close(c);
			return 2;
		}
		free(reply);
		rc = parse(what, pgn, strlen(pgn), &g);
		free(pgn);
		if (rc) {
			ctlclient_close(c);
			return rc;
		}
	}
	rc = send_game(c, &g);
	if (rc == 0)
		printf(
		    "review: %d moves of %s - %s; player-clock: next move, opponent-clock: back, "
		    "select: where we are; the button menu ends it\n",
		    g.game.count, pgn_game_tag(&g, "White") ? pgn_game_tag(&g, "White") : "?",
		    pgn_game_tag(&g, "Black") ? pgn_game_tag(&g, "Black") : "?");
	pgn_game_free(&g);
	ctlclient_close(c);
	return rc;
}
