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

static int usage(void)
{
	fprintf(stderr,
		"usage: annabella scoresheet --format pgn|text|brf|unicode [--config FILE]\n"
		"       [--page-lines N] [--line-cells N] [--signs after|before-square] "
		"STATE_DIR\n");
	return 2;
}

int cli_scoresheet(int argc, char **argv)
{
	const char *format = NULL, *dir = NULL, *config = NULL;
	const char *keys[] = {"page-lines", "line-cells", "signs"};
	const char *values[3] = {NULL, NULL, NULL};
	static struct config cfg;
	char msg[300];
	char path[PATH_MAX];
	struct pgn_reader *reader;
	struct pgn_game game;
	struct chess_error err;
	char *text, *out;
	size_t len;
	int rc;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc)
			format = argv[++i];
		else if (!strncmp(argv[i], "--format=", 9))
			format = argv[i] + 9;
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
		else if (!strcmp(argv[i], "--page-lines") && i + 1 < argc)
			values[0] = argv[++i];
		else if (!strcmp(argv[i], "--line-cells") && i + 1 < argc)
			values[1] = argv[++i];
		else if (!strcmp(argv[i], "--signs") && i + 1 < argc)
			values[2] = argv[++i];
		else if (argv[i][0] != '-' && !dir)
			dir = argv[i];
		else
			return usage();
	}
	config_defaults(&cfg);
	if (config && config_load(&cfg, config, msg, sizeof(msg))) {
		log_error(LOG_MAIN, "%s", msg);
		return 2;
	}
	for (int k = 0; k < 3; k++) {
		if (values[k] &&
		    config_set(&cfg, "braille", keys[k], values[k], msg, sizeof(msg))) {
			log_error(LOG_MAIN, "--%s: %s", keys[k], msg);
			return 2;
		}
	}
	if (!format || !dir)
		return usage();
	if (strcmp(format, "pgn") && strcmp(format, "text") && strcmp(format, "brf") &&
	    strcmp(format, "unicode")) {
		log_error(LOG_MAIN, "unknown format '%s'", format);
		return usage();
	}
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
	rc = pgn_reader_next(reader, &game, &err);
	pgn_reader_free(reader);
	if (rc <= 0) {
		if (rc < 0)
			log_error(LOG_MAIN, "%s:%d:%d: %s", path, err.line, err.column,
				  err.message);
		else
			log_error(LOG_MAIN, "%s: no game", path);
		return 2;
	}
	out = scoresheet_render(&game, format, &cfg.braille_layout);
	pgn_game_free(&game);
	if (!out) {
		log_error(LOG_MAIN, "cannot render the %s scoresheet: %s", format, strerror(errno));
		return 1;
	}
	fputs(out, stdout);
	free(out);
	return 0;
}

/*
 * annabella brf [--config FILE] [--page-lines N] [--line-cells N] TEXT-FILE: a text (UTF-8)
 * in braille on the embosser's pages, with the scoresheet's pages and line division (the
 * printable guides, docs/guide/); exit 2 for bad usage, 1 for a file that cannot be read.
 */
int cli_brf(int argc, char **argv)
{
	const char *keys[] = {"page-lines", "line-cells"};
	const char *values[2] = {NULL, NULL}, *file = NULL, *config = NULL;
	static struct config cfg;
	char msg[300], *text, *out;
	size_t len;
	bool bad = false;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: annabella brf [--config FILE] [--page-lines N] "
			       "[--line-cells N] "
			       "TEXT-FILE\n");
			return 0;
		}
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
		fprintf(stderr, "usage: annabella brf [--config FILE] [--page-lines N] "
				"[--line-cells N] TEXT-FILE\n");
		return 2;
	}
	config_defaults(&cfg);
	if (config && config_load(&cfg, config, msg, sizeof(msg))) {
		log_error(LOG_MAIN, "%s", msg);
		return 2;
	}
	for (int k = 0; k < 2; k++)
		if (values[k] &&
		    config_set(&cfg, "braille", keys[k], values[k], msg, sizeof(msg))) {
			log_error(LOG_MAIN, "--%s: %s", keys[k], msg);
			return 2;
		}
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
