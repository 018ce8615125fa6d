/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella scoresheet --format pgn|text|brf|unicode [--config FILE] [--page-lines N]
 *                      [--line-cells N] [--signs after|before-square] STATE_DIR
 *
 * The game in a state directory (its game.pgn) as PGN, as the paper notation of
 * Appendix C, or as the braille scoresheet (D.2.7).  The braille pages, lines and signs
 * come from the configuration's [braille] (the defaults without --config), and the
 * options after it override them.
 */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "chess/pgn.h"
#include "cli/cli.h"
#include "config/config.h"
#include "store/scoresheet.h"
#include "store/state.h"

void cli_scoresheet_usage(FILE *f)
{
	fprintf(f, "usage: annabella scoresheet --format pgn|text|brf|unicode [--config FILE]\n"
		   "       [--page-lines N] [--line-cells N] [--signs after|before-square] "
		   "STATE_DIR\n");
}

static int usage(void)
{
	cli_scoresheet_usage(stderr);
	return 2;
}

struct scoresheet_args {
	const char *format, *dir, *config;
	const char *values[3]; /* --page-lines, --line-cells, --signs: braille_keys[] */
};

static const char *const braille_keys[] = {"page-lines", "line-cells", "signs"};

/* The options into a: 0, or -1 (a usage error). */
static int parse_args(int argc, char **argv, struct scoresheet_args *a)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc)
			a->format = argv[++i];
		else if (!strncmp(argv[i], "--format=", 9))
			a->format = argv[i] + 9;
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			a->config = argv[++i];
		else if (!strcmp(argv[i], "--page-lines") && i + 1 < argc)
			a->values[0] = argv[++i];
		else if (!strcmp(argv[i], "--line-cells") && i + 1 < argc)
			a->values[1] = argv[++i];
		else if (!strcmp(argv[i], "--signs") && i + 1 < argc)
			a->values[2] = argv[++i];
		else if (argv[i][0] != '-' && !a->dir)
			a->dir = argv[i];
		else
			return -1;
	}
	return 0;
}

/* The configuration's [braille] (the defaults without --config), the options given
 * (values, by braille_keys[]) over it: 0, or 2 (said). */
static int braille_config(struct config *cfg, const char *config, const char *const values[3])
{
	char msg[300];

	config_defaults(cfg);
	if (config && config_load(cfg, config, msg, sizeof(msg))) {
		log_error(LOG_MAIN, "%s", msg);
		return 2;
	}
	for (int k = 0; k < 3; k++) {
		if (values[k] &&
		    config_set(cfg, "braille", braille_keys[k], values[k], msg, sizeof(msg))) {
			log_error(LOG_MAIN, "--%s: %s", braille_keys[k], msg);
			return 2;
		}
	}
	return 0;
}

/* The state directory's game.pgn, its first game into game: 0, or the exit status (said). */
static int read_game(const char *dir, struct pgn_game *game)
{
	char path[PATH_MAX];
	struct pgn_reader *reader;
	struct chess_error err;
	char *text;
	size_t len;
	int rc;

	if (snprintf(path, sizeof(path), "%s/game.pgn", dir) >= (int)sizeof(path)) {
		log_error(LOG_MAIN, "%s: path too long", dir);
		return 2;
	}
	text = state_read_file(path, &len);
	if (!text) {
		log_error(LOG_MAIN, "%s: %s", path, strerror(errno));
		return 1;
	}
	reader = pgn_reader_new(text, len);
	free(text);
	if (!reader) {
		log_error(LOG_MAIN, "out of memory");
		return 1;
	}
	rc = pgn_reader_next(reader, game, &err);
	pgn_reader_free(reader);
	if (rc <= 0) {
		if (rc < 0)
			log_error(LOG_MAIN, "%s:%d:%d: %s", path, err.line, err.column,
				  err.message);
		else
			log_error(LOG_MAIN, "%s: no game", path);
		return 2;
	}
	return 0;
}

int cli_scoresheet(int argc, char **argv)
{
	struct scoresheet_args a = {0};
	static struct config cfg;
	struct pgn_game game;
	char *out;
	int rc;

	if (parse_args(argc, argv, &a))
		return usage();
	rc = braille_config(&cfg, a.config, a.values);
	if (rc)
		return rc;
	if (!a.format || !a.dir)
		return usage();
	if (strcmp(a.format, "pgn") && strcmp(a.format, "text") && strcmp(a.format, "brf") &&
	    strcmp(a.format, "unicode")) {
		log_error(LOG_MAIN, "unknown format '%s'", a.format);
		return usage();
	}
	rc = read_game(a.dir, &game);
	if (rc)
		return rc;
	out = scoresheet_render(&game, a.format, &cfg.braille_layout);
	pgn_game_free(&game);
	if (!out) {
		log_error(LOG_MAIN, "cannot render the %s scoresheet: %s", a.format,
			  strerror(errno));
		return 1;
	}
	fputs(out, stdout);
	free(out);
	return 0;
}

void cli_brf_usage(FILE *f)
{
	fprintf(f, "usage: annabella brf [--config FILE] [--page-lines N] [--line-cells N] "
		   "TEXT-FILE\n");
}

/*
 * annabella brf [--config FILE] [--page-lines N] [--line-cells N] TEXT-FILE: a text (UTF-8)
 * in braille on the embosser's pages, with the scoresheet's pages and line division (the
 * printable guides, docs/guide/); exit 2 for bad usage, 1 for a file that cannot be read.
 */
int cli_brf(int argc, char **argv)
{
	const char *values[3] = {NULL, NULL, NULL}, *file = NULL, *config = NULL;
	static struct config cfg;
	char *text, *out;
	size_t len;
	bool bad = false;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
		else if (!strcmp(argv[i], "--page-lines") && i + 1 < argc)
			values[0] = argv[++i];
		else if (!strcmp(argv[i], "--line-cells") && i + 1 < argc)
			values[1] = argv[++i];
		else if (argv[i][0] != '-' && !file)
			file = argv[i];
		else
			bad = true;
	}
	if (bad || !file) {
		cli_brf_usage(stderr);
		return 2;
	}
	if (braille_config(&cfg, config, values))
		return 2;
	text = state_read_file(file, &len);
	if (!text) {
		log_error(LOG_MAIN, "%s: %s", file, strerror(errno));
		return 1;
	}
	out = braille_text_pages(text, BRAILLE_BRF, &cfg.braille_layout);
	free(text);
	if (!out) {
		log_error(LOG_MAIN, "%s: cannot put it in braille: %s", file, strerror(errno));
		return 1;
	}
	fputs(out, stdout);
	free(out);
	return 0;
}
