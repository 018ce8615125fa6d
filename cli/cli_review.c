/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella review [--socket PATH] [--config FILE] GAME-ID|NUMBER|FILE.pgn
 * annabella games [--socket PATH] [--config FILE] [N]
 *
 * Study a finished game on the tactile board (docs/training.md "Going over a game"): the game is
 * read here, from a PGN file (a study's variations and comments with it; NAGs are passed over)
 * or from the daemon's games/ (`export pgn GAME-ID`, a game's number too), and handed to the
 * daemon (`review load`, `review add`, `review annotate`, `review variation`, `review begin`).
 * The device then guides the set-up of its start position and steps through it with the
 * buttons; the review ends from the button menu or with `annabella control review end`.  A PGN
 * that does not parse is refused with its file, line and column, and nothing is sent.  A study
 * larger than the device holds loses its last variations and comments, with a warning.
 * `annabella games` lists the finished games the device keeps, with their numbers.
 *
 * Exit 0 when the review began, 1 when the daemon refused it (an unknown game among them), 2
 * for bad usage or input or a daemon that cannot be reached.
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
	pgn_reader_keep_variations(rd, true);
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

/* A comment as it is said: the commands of programs in it ("[%clk 0:04:58]", "[%eval 0.3]",
 * arrows) left out, runs of blanks made one; "" when nothing else is in it. */
static void spoken_comment(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (const char *c = in ? in : ""; *c && n + 1 < size; c++) {
		if (c[0] == '[' && c[1] == '%') {
			const char *end = strchr(c, ']');

			if (!end)
				break;
			c = end;
			continue;
		}
		if (*c == ' ' && (n == 0 || out[n - 1] == ' '))
			continue;
		out[n++] = *c;
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* The reply's code, or "". */
static const char *reply_code(const char *reply, char *buf, size_t size)
{
	if (json_get(reply, "code", buf, size) < 0)
		buf[0] = '\0';
	return buf;
}

/* A request whose refusal for lack of room on the device is a warning, not a failure: 0
 * when it went in or the device had no room (*warned set, said once as `what`), else as
 * request(): 1 refused, 2 no reply. */
static int request_room(struct ctlclient *c, const char *line, const char *what, bool *warned)
{
	char *reply = NULL, code[64];
	int rc;

	if (ctlclient_request(c, line, &reply, REPLY_TIMEOUT_MS)) {
		log_error(LOG_MAIN, "no reply from the daemon");
		return 2;
	}
	rc = ctlclient_reply_ok(reply) ? 0 : 1;
	reply_code(reply, code, sizeof(code));
	if (rc &&
	    (!strcmp(code, "review-too-many-moves") || !strcmp(code, "review-too-many-lines") ||
	     !strcmp(code, "review-comments-full"))) {
		if (!*warned)
			log_warn(LOG_MAIN,
				 "the device has no room for more %s: the rest of them "
				 "are left out",
				 what);
		*warned = true;
		rc = 0;
	} else if (rc) {
		char msg[512];

		if (json_get(reply, "error", msg, sizeof(msg)) < 0)
			snprintf(msg, sizeof(msg), "%s", reply);
		log_error(LOG_MAIN, "the daemon refuses: %s", msg);
	}
	free(reply);
	return rc;
}

/* The moves of a line in chunks of `review add`, from ply `from`. */
static int send_moves(struct ctlclient *c, const struct pgn_game *g, int line, int from, int to,
		      const char *what, bool *warned)
{
	char buf[CONTROL_LINE_MAX];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "review add");

	for (int i = from; i < to; i++) {
		char uci[8];

		chess_move_to_uci(pgn_variation_move(g, line, i), uci, sizeof(uci));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %s", uci);
		if (n > ADD_CHUNK || i + 1 == to) {
			int rc = request_room(c, buf, what, warned);

			if (rc || *warned)
				return rc;
			n = (size_t)snprintf(buf, sizeof(buf), "review add");
		}
	}
	return 0;
}

/* A comment after ply `ply` of the device's line `line`, as it is said ("" sends nothing). */
static int send_comment(struct ctlclient *c, int line, int ply, const char *text, bool *full)
{
	char said[CONTROL_LINE_MAX - 64], buf[CONTROL_LINE_MAX];

	spoken_comment(text, said, sizeof(said));
	if (!said[0] || *full)
		return 0;
	snprintf(buf, sizeof(buf), "review annotate %d %d %s", line, ply, said);
	return request_room(c, buf, "comments", full);
}

/* The variations, each after the one it branches from: the device numbers them 1, 2, ... as
 * they come; a variation's opening comment goes with its first move. */
static int send_variations(struct ctlclient *c, const struct pgn_game *g, bool *full)
{
	int *lines = calloc((size_t)g->variation_count + 1, sizeof(*lines)); /* the device's */
	int next = 1, rc = 0;
	bool no_room = false;

	if (!lines)
		return 2;
	for (int i = 0; i < g->variation_count && !no_room && !rc; i++) {
		const struct pgn_variation *v = &g->variations[i];
		int parent = v->parent < 0 ? 0 : lines[v->parent];
		char buf[96], joined[PGN_MAX_COMMENT * 2 + 4];

		snprintf(buf, sizeof(buf), "review variation %d %d", parent, v->base);
		rc = request_room(c, buf, "variations", &no_room);
		if (!rc && !no_room)
			rc = send_moves(c, g, i, v->base, v->base + v->count, "variations",
					&no_room);
		if (rc || no_room)
			break;
		lines[i] = next++;
		for (int k = 0; k < v->count && !rc; k++) {
			const char *text = v->comments[k];

			if (k == 0 && v->leading_comment) {
				snprintf(joined, sizeof(joined), "%s%s%s", v->leading_comment,
					 text ? " " : "", text ? text : "");
				text = joined;
			}
			rc = send_comment(c, lines[i], v->base + k + 1, text, full);
		}
	}
	free(lines);
	return rc;
}

/* The game to the daemon: its start, its moves in chunks, its comments and variations, then
 * the review begins. */
static int send_game(struct ctlclient *c, const struct pgn_game *g)
{
	char line[CONTROL_LINE_MAX], fen[CHESS_FEN_MAX];
	char *reply = NULL;
	bool full = false, no_room = false;
	int rc;

	chess_fen_format(&g->game.start, fen, sizeof(fen));
	snprintf(line, sizeof(line), "review load %s", strcmp(fen, CHESS_FEN_START) ? fen : "");
	rc = request(c, line, &reply);
	free(reply);
	if (rc)
		return rc;
	rc = send_moves(c, g, -1, 0, g->game.count, "moves", &no_room);
	if (!rc && no_room) {
		log_error(LOG_MAIN, "%d moves: too long a game for the device", g->game.count);
		return 1;
	}
	if (rc)
		return rc;
	rc = send_comment(c, 0, 0, g->leading_comment, &full);
	for (int i = 0; i < g->game.count && !rc; i++)
		rc = send_comment(c, 0, i + 1, i < g->comments_capacity ? g->comments[i] : NULL,
				  &full);
	if (!rc)
		rc = send_variations(c, g, &full);
	if (rc)
		return rc;
	rc = request(c, "review begin", &reply);
	if (rc == 0) {
		char text[256];

		if (json_get(reply, "text", text, sizeof(text)) > 0)
			printf("review: %s\n", text);
	}
	free(reply);
	return rc;
}

void cli_review_usage(FILE *f)
{
	fprintf(
	    f, "usage: annabella review [--socket PATH] [--config FILE] GAME-ID|NUMBER|FILE.pgn\n");
}

/* --socket PATH, --config FILE (read into cfg) and one word; the socket the configuration's
 * when not given: 0, -1 (a usage error) or 2 (the configuration's error, logged). */
static int options(int argc, char **argv, struct config *cfg, const char **socket,
		   const char **word)
{
	const char *config_path = NULL;
	char err[512];

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--socket") && i + 1 < argc)
			*socket = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config_path = argv[++i];
		else if (argv[i][0] == '-' || *word)
			return -1;
		else
			*word = argv[i];
	}
	config_defaults(cfg);
	if (config_path && config_load(cfg, config_path, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (!*socket)
		*socket = cfg->control_socket[0] ? cfg->control_socket : CTLCLIENT_DEFAULT_SOCKET;
	return 0;
}

static int usage(void)
{
	cli_review_usage(stderr);
	return 2;
}

/* A file is read here (and refused before the daemon hears of it); a game id is the daemon's.
 * The file's game into g (*from_file set), or nothing when what names no file: 0, or the exit
 * status (said). */
static int game_from_file(const char *what, struct pgn_game *g, bool *from_file)
{
	struct stat st;
	size_t len = 0;
	char *text;
	bool exists = stat(what, &st) == 0;
	int rc;

	if (exists && S_ISDIR(st.st_mode)) {
		log_error(LOG_MAIN,
			  "%s: a directory, not a PGN file (a game kept on the device is named by "
			  "its id or number: annabella games)",
			  what);
		return 2;
	}
	if (!exists && !strchr(what, '/') && !strstr(what, ".pgn"))
		return 0;
	text = read_file(what, &len);
	if (!text) {
		log_error(LOG_MAIN, "%s: %s", what, strerror(errno));
		return 2;
	}
	rc = parse(what, text, len, g);
	free(text);
	if (rc)
		return rc;
	*from_file = true;
	return 0;
}

/* The game the daemon keeps under that id or number, exported, into g: 0, or the exit status
 * (said). */
static int game_from_daemon(struct ctlclient *c, const char *what, struct pgn_game *g)
{
	char line[128], *reply = NULL;
	char *pgn;
	int rc;

	snprintf(line, sizeof(line), "export pgn %s", what);
	rc = request(c, line, &reply);
	if (rc) {
		free(reply);
		return rc;
	}
	pgn = malloc(CTLCLIENT_LINE_MAX);
	if (!pgn || json_get(reply, "text", pgn, CTLCLIENT_LINE_MAX) < 0) {
		log_error(LOG_MAIN, "the daemon sent no scoresheet");
		free(pgn);
		free(reply);
		return 2;
	}
	free(reply);
	rc = parse(what, pgn, strlen(pgn), g);
	free(pgn);
	return rc;
}

int cli_review(int argc, char **argv)
{
	const char *socket = NULL, *what = NULL;
	struct config cfg;
	struct ctlclient *c;
	struct pgn_game g;
	char err[512];
	bool from_file = false;
	int rc;

	rc = options(argc, argv, &cfg, &socket, &what);
	if (rc < 0 || (!rc && !what))
		return usage();
	if (rc)
		return rc;
	signal(SIGPIPE, SIG_IGN);
	rc = game_from_file(what, &g, &from_file);
	if (rc)
		return rc;
	c = ctlclient_connect(socket, err, sizeof(err));
	if (!c) {
		log_error(LOG_MAIN, "%s", err);
		if (from_file)
			pgn_game_free(&g);
		return 2;
	}
	if (!from_file) {
		rc = game_from_daemon(c, what, &g);
		if (rc) {
			ctlclient_close(c);
			return rc;
		}
	}
	rc = send_game(c, &g);
	if (rc == 0)
		printf("review: %d plies of %s - %s, %d %s; player-clock: next move, "
		       "opponent-clock: back, select: where we are, info: into a variation or out "
		       "of it, repeat: the move again with its comment; the button menu goes to a "
		       "move or ends it\n",
		       g.game.count, pgn_game_tag(&g, "White") ? pgn_game_tag(&g, "White") : "?",
		       pgn_game_tag(&g, "Black") ? pgn_game_tag(&g, "Black") : "?",
		       g.variation_count, g.variation_count == 1 ? "variation" : "variations");
	pgn_game_free(&g);
	ctlclient_close(c);
	return rc;
}

/* The next object of a JSON array's text at *p into buf (strings and escapes kept whole):
 * true, or false at the array's end. */
static bool next_object(const char **p, char *buf, size_t size)
{
	const char *s = strchr(*p, '{');
	bool in_string = false;
	size_t n = 0;

	if (!s)
		return false;
	for (; *s && n + 1 < size; s++) {
		buf[n++] = *s;
		if (in_string && *s == '\\' && s[1])
			buf[n++] = *++s;
		else if (*s == '"')
			in_string = !in_string;
		else if (!in_string && *s == '}')
			break;
	}
	buf[n] = '\0';
	*p = *s ? s + 1 : s;
	return true;
}

void cli_games_usage(FILE *f)
{
	fprintf(f, "usage: annabella games [--socket PATH] [--config FILE] [N]\n");
}

static int games_usage(void)
{
	cli_games_usage(stderr);
	return 2;
}

/* annabella games: the finished games the device keeps, newest first, each with the number
 * or id `annabella review` takes (docs/training.md "Going over a game"). */
int cli_games(int argc, char **argv)
{
	const char *socket = NULL, *count = NULL;
	char line[64], err[512], *reply = NULL, *list;
	struct config cfg;
	struct ctlclient *c;
	int rc, shown = 0;

	rc = options(argc, argv, &cfg, &socket, &count);
	if (rc < 0)
		return games_usage();
	if (rc)
		return rc;
	signal(SIGPIPE, SIG_IGN);
	c = ctlclient_connect(socket, err, sizeof(err));
	if (!c) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	snprintf(line, sizeof(line), "games%s%.40s", count ? " " : "", count ? count : "");
	rc = request(c, line, &reply);
	ctlclient_close(c);
	list = rc ? NULL : malloc(CTLCLIENT_LINE_MAX);
	if (list && json_get(reply, "games", list, CTLCLIENT_LINE_MAX) > 0) {
		char game[2048];
		const char *p = list;

		while (next_object(&p, game, sizeof(game))) {
			char number[16], date[16], white[256], black[256], result[16], plies[16],
			    id[128];

			json_get(game, "number", number, sizeof(number));
			json_get(game, "date", date, sizeof(date));
			json_get(game, "white", white, sizeof(white));
			json_get(game, "black", black, sizeof(black));
			json_get(game, "result", result, sizeof(result));
			json_get(game, "plies", plies, sizeof(plies));
			json_get(game, "id", id, sizeof(id));
			printf("%4s  %s  %s - %s  %s  %s plies  %s\n", number, date, white, black,
			       result, plies, id);
			shown++;
		}
		if (!shown)
			printf("no finished games\n");
	}
	free(list);
	free(reply);
	return rc;
}
