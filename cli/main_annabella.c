/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella: the command-line tool (perft, board scripts, scoresheet exports, and the
 * control client of docs/control.md "Control interface").
 */
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
	const char *usage;
	enum log_level log_level;
} commands[] = {
    {"perft", cli_perft, "perft FEN DEPTH [--divide]", LOG_LEVEL_WARN},
    {"mate", cli_mate, "mate [FEN [white|black]]   (FENs one a line on standard input without one)",
     LOG_LEVEL_WARN},
    {"script", cli_script, "script GAME.pgn [--player white|black] [--variants SEED] [--chatter]",
     LOG_LEVEL_WARN},
    {"scoresheet", cli_scoresheet,
     "scoresheet --format pgn|text|brf|unicode [--config FILE] [--page-lines N] [--line-cells N] "
     "[--signs after|before-square] STATE_DIR",
     LOG_LEVEL_WARN},
    {"control", cli_control, "control [--socket PATH] [COMMAND ARGS...]", LOG_LEVEL_WARN},
    {"status", cli_status, "status [--socket PATH]", LOG_LEVEL_WARN},
    {"codes", cli_codes, "codes", LOG_LEVEL_WARN},
    {"web", cli_web, "web --listen ADDR:PORT [--socket PATH] [--config FILE]", LOG_LEVEL_INFO},
    {"fsck", cli_fsck, "fsck STATE_DIR [--repair]", LOG_LEVEL_WARN},
    {"verify", cli_verify, "verify [STATE_DIR|GAME.journal]", LOG_LEVEL_WARN},
    {"journal", cli_journal, "journal [--json] STATE_DIR|JOURNAL", LOG_LEVEL_WARN},
    {"pin", cli_pin, "pin [DIGITS]", LOG_LEVEL_WARN},
    {"brf", cli_brf, "brf [--config FILE] [--page-lines N] [--line-cells N] TEXT-FILE",
     LOG_LEVEL_WARN},
    {"seal", cli_seal, "seal [--config FILE] [--socket PATH]", LOG_LEVEL_WARN},
    {"speech-phonemes", cli_speech_phonemes, "speech-phonemes", LOG_LEVEL_WARN},
    {"speech-samples", cli_speech_samples, "speech-samples [--voice LANG=VOICE]... DIR",
     LOG_LEVEL_WARN},
    {"broadcast", cli_broadcast,
     "broadcast --mqtt HOST:PORT --board NAME [--socket PATH] [--config FILE]\n"
     "            [--user U --password-file F] [--tls-ca FILE] [--accept-tags]",
     LOG_LEVEL_INFO},
    {"relay", cli_relay,
     "relay --mqtt HOST:PORT --listen ADDR:PORT [--config FILE] [--user U --password-file F]\n"
     "            [--tls-ca FILE]\n"
     "  annabella relay tags ROUND.csv --mqtt HOST:PORT [--config FILE] [auth and TLS as relay]",
     LOG_LEVEL_INFO},
    {"train", cli_train,
     "train --engine PATH [--side white|black] [--level 0..20 | --elo N] [--movetime MS]\n"
     "            [--hint-movetime MS] [--fen FEN | --wait] [--socket PATH] [--config FILE]",
     LOG_LEVEL_INFO},
    {"review", cli_review, "review [--socket PATH] [--config FILE] GAME-ID|NUMBER|FILE.pgn",
     LOG_LEVEL_WARN},
    {"games", cli_games, "games [--socket PATH] [--config FILE] [N]", LOG_LEVEL_WARN},
    {"online", cli_online,
     "online [--seek | --accept FRIEND | --challenge FRIEND] [--time-control S+I]\n"
     "            [--rated | --casual] [--color white|black|random] [--wait] [--socket PATH]\n"
     "            [--config FILE]",
     LOG_LEVEL_INFO},
};

static void usage(FILE *f)
{
	fprintf(f, "usage:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  annabella %s\n", commands[i].usage);
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
			snprintf(program, sizeof(program), "annabella %s", commands[i].name);
			log_init(program, commands[i].log_level);
			return commands[i].run(argc - 2, argv + 2);
		}
	log_error(LOG_MAIN, "unknown command '%s'", argv[1]);
	usage(stderr);
	return 2;
}
