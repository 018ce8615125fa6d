/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Subcommands of the `annabella` tool.  Each takes the arguments after its name and
 * returns the exit status (0 ok, 1 failure, 2 bad usage or input).
 */
#ifndef ANNABELLA_CLI_H
#define ANNABELLA_CLI_H

int cli_perft(int argc, char **argv); /* perft FEN DEPTH [--divide] */
int cli_script(int argc,
	       char **argv); /* script GAME.pgn [--player C] [--variants SEED] [--chatter] */
int cli_scoresheet(int argc, char **argv); /* scoresheet --format pgn|text|brf|unicode STATE_DIR */
int cli_control(int argc, char **argv);	   /* control [--socket PATH] [COMMAND ARGS...] */
int cli_status(int argc, char **argv);	   /* status [--socket PATH] */
int cli_codes(int argc, char **argv);	   /* codes: the replies' table */
int cli_web(int argc, char **argv);    /* web --listen ADDR:PORT [--socket PATH] [--config FILE] */
int cli_fsck(int argc, char **argv);   /* fsck STATE_DIR [--repair] */
int cli_verify(int argc, char **argv); /* verify [STATE_DIR|GAME.journal] */
int cli_pin(int argc, char **argv);    /* pin [DIGITS] */
int cli_speech_phonemes(int argc, char **argv); /* speech-phonemes */
int cli_speech_samples(int argc, char **argv);	/* speech-samples DIR */
/* broadcast --mqtt HOST:PORT --board NAME [--socket PATH] [--config FILE] [auth, TLS] */
int cli_broadcast(int argc, char **argv);
/* relay --mqtt HOST:PORT --listen ADDR:PORT ... | relay tags ROUND.csv --mqtt HOST:PORT ... */
int cli_relay(int argc, char **argv);

#endif
