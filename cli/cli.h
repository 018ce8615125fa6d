/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Subcommands of the `annabella` tool.  Each takes the arguments after its name and
 * returns the exit status (0 ok, 1 failure, 2 bad usage or input), and has its usage, which
 * it prints on standard error for bad usage and the tool prints on standard output for
 * `annabella NAME --help`.  The networked helpers (web, broadcast, relay) are in net/net.h.
 */
#ifndef ANNABELLA_CLI_H
#define ANNABELLA_CLI_H

#include <stdio.h>

int cli_perft(int argc, char **argv); /* perft FEN DEPTH [--divide] */
int cli_mate(int argc, char **argv);  /* mate [FEN [white|black]]: who can still checkmate */
int cli_script(int argc,
	       char **argv); /* script GAME.pgn [--player C] [--variants SEED] [--chatter] */
int cli_scoresheet(int argc, char **argv); /* scoresheet --format pgn|text|brf|unicode STATE_DIR */
int cli_control(int argc, char **argv);	   /* control [--socket PATH] [COMMAND ARGS...] */
int cli_status(int argc, char **argv);	   /* status [--socket PATH] */
int cli_codes(int argc, char **argv);	   /* codes: the replies' table */
int cli_fsck(int argc, char **argv);	   /* fsck STATE_DIR [--repair] */
int cli_verify(int argc, char **argv);	   /* verify [STATE_DIR|GAME.journal] */
int cli_journal(int argc, char **argv);	   /* journal [--json] STATE_DIR|JOURNAL */
int cli_pin(int argc, char **argv);	   /* pin [DIGITS] | --set|--clear ROLE ... */
int cli_brf(int argc, char **argv);	   /* brf [--page-lines N] [--line-cells N] FILE */
int cli_seal(int argc, char **argv);	   /* seal [--config FILE] [--socket PATH] */
int cli_speech_phonemes(int argc, char **argv); /* speech-phonemes */
int cli_speech_samples(int argc, char **argv);	/* speech-samples DIR */
/* train --engine PATH [--side C] [--level N | --elo N] [--movetime MS] [--fen FEN | --wait] */
int cli_train(int argc, char **argv);
/* review [--socket PATH] [--config FILE] GAME-ID|FILE.pgn */
int cli_review(int argc, char **argv);
/* games [--socket PATH] [--config FILE] [N] */
int cli_games(int argc, char **argv);
/* online [--seek | --accept FRIEND | --challenge FRIEND] [--wait] ... (docs/online.md "Playing
 * online") */
int cli_online(int argc, char **argv);

void cli_perft_usage(FILE *f);
void cli_script_usage(FILE *f);
void cli_scoresheet_usage(FILE *f);
void cli_control_usage(FILE *f);
void cli_status_usage(FILE *f);
void cli_codes_usage(FILE *f);
void cli_fsck_usage(FILE *f);
void cli_verify_usage(FILE *f);
void cli_pin_usage(FILE *f);
void cli_speech_phonemes_usage(FILE *f);
void cli_speech_samples_usage(FILE *f);
void cli_train_usage(FILE *f);
void cli_review_usage(FILE *f);
void cli_games_usage(FILE *f);
void cli_mate_usage(FILE *f);
void cli_journal_usage(FILE *f);
void cli_brf_usage(FILE *f);
void cli_seal_usage(FILE *f);
void cli_online_usage(FILE *f);

#endif
