/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella: the command-line tool (perft, board scripts, scoresheet exports, and the
 * control client of DESIGN section 8).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "net/net.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
} commands[] = {
    {"perft", cli_perft, "perft FEN DEPTH [--divide]"},
    {"script", cli_script, "script GAME.pgn [--player white|black] [--variants SEED] [--chatter]"},
    {"scoresheet", cli_scoresheet,
     "scoresheet --format pgn|text|brf|unicode [--config FILE] [--page-lines N] [--line-cells N] "
     "[--signs after|before-square] STATE_DIR"},
    {"control", cli_control, "control [--socket PATH] [COMMAND ARGS...]"},
    {"status", cli_status, "status [--socket PATH]"},
    {"web", cli_web, "web --listen ADDR:PORT [--socket PATH] [--config FILE]"},
    {"fsck", cli_fsck, "fsck STATE_DIR [--repair]"},
    {"verify", cli_verify, "verify [STATE_DIR|GAME.journal]"},
    {"pin", cli_pin, "pin [DIGITS]"},
    {"speech-phonemes", cli_speech_phonemes, "speech-phonemes"},
    {"speech-samples", cli_speech_samples, "speech-samples DIR"},
    {"broadcast", cli_broadcast,
     "broadcast --mqtt HOST:PORT --board NAME [--socket PATH] [--config FILE]\n"
     "            [--user U --password-file F] [--tls-ca FILE] [--accept-tags]"},
    {"relay", cli_relay,
     "relay --mqtt HOST:PORT --listen ADDR:PORT [--config FILE] [--user U --password-file F]\n"
     "            [--tls-ca FILE]\n"
     "  annabella relay tags ROUND.csv --mqtt HOST:PORT [--config FILE] [auth and TLS as relay]"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  annabella %s\n", commands[i].usage);
}

int main(int argc, char **argv)
{
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
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 2, argv + 2);
	fprintf(stderr, "annabella: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
