/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella: the command-line tool (perft, board scripts, scoresheet exports, and the
 * control client of docs/control.md "Control interface").
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "cli/cli.h"
#include "net/net.h"

/* Each command logs as "annabella NAME" (base/log.h): the commands a person runs from
 * warnings on, the helpers, which run as services, from info (what they connect to, and
 * when they lose it). */
static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *f);
	enum log_level log_level;
	bool own_help; /* reads --help itself (control: only before the command) */
} commands[] = {
    {"perft", cli_perft, cli_perft_usage, LOG_LEVEL_WARN, false},
    {"mate", cli_mate, cli_mate_usage, LOG_LEVEL_WARN, false},
    {"script", cli_script, cli_script_usage, LOG_LEVEL_WARN, false},
    {"scoresheet", cli_scoresheet, cli_scoresheet_usage, LOG_LEVEL_WARN, false},
    {"control", cli_control, cli_control_usage, LOG_LEVEL_WARN, true},
    {"status", cli_status, cli_status_usage, LOG_LEVEL_WARN, false},
    {"codes", cli_codes, cli_codes_usage, LOG_LEVEL_WARN, false},
    {"web", cli_web, cli_web_usage, LOG_LEVEL_INFO, false},
    {"fsck", cli_fsck, cli_fsck_usage, LOG_LEVEL_WARN, false},
    {"verify", cli_verify, cli_verify_usage, LOG_LEVEL_WARN, false},
    {"journal", cli_journal, cli_journal_usage, LOG_LEVEL_WARN, false},
    {"pin", cli_pin, cli_pin_usage, LOG_LEVEL_WARN, false},
    {"brf", cli_brf, cli_brf_usage, LOG_LEVEL_WARN, false},
    {"seal", cli_seal, cli_seal_usage, LOG_LEVEL_WARN, false},
    {"speech-phonemes", cli_speech_phonemes, cli_speech_phonemes_usage, LOG_LEVEL_WARN, false},
    {"speech-samples", cli_speech_samples, cli_speech_samples_usage, LOG_LEVEL_WARN, false},
    {"broadcast", cli_broadcast, cli_broadcast_usage, LOG_LEVEL_INFO, false},
    {"relay", cli_relay, cli_relay_usage, LOG_LEVEL_INFO, false},
    {"train", cli_train, cli_train_usage, LOG_LEVEL_INFO, false},
    {"review", cli_review, cli_review_usage, LOG_LEVEL_WARN, false},
    {"games", cli_games, cli_games_usage, LOG_LEVEL_WARN, false},
    {"online", cli_online, cli_online_usage, LOG_LEVEL_INFO, false},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: annabella COMMAND [ARGS...]   (annabella COMMAND --help: its usage)\n"
		   "       annabella --version\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		commands[i].usage(f);
}

/* --help or -h among a command's arguments (up to a "--"), as GNU and Debian tools read
 * it: the usage on standard output, exit 0, nothing else done. */
static bool asks_help(int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	char program[64];

	log_init("annabella", LOG_LEVEL_WARN);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("annabella %s\n", ANNABELLA_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			if (!commands[i].own_help && asks_help(argc - 2, argv + 2)) {
				commands[i].usage(stdout);
				return 0;
			}
			snprintf(program, sizeof(program), "annabella %s", commands[i].name);
			log_init(program, commands[i].log_level);
			return commands[i].run(argc - 2, argv + 2);
		}
	log_error(LOG_MAIN, "unknown command '%s'", argv[1]);
	usage(stderr);
	return 2;
}
