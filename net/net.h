/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The networked helpers, subcommands of the `annabella` tool: each a client of the control
 * socket (or of the broker alone), in a process of its own, so the daemon never opens a
 * network socket.  Each takes the arguments after its name and returns the exit status (0
 * ok, 1 failure, 2 bad usage or input), and has its usage (as cli/cli.h's commands).
 */
#ifndef ANNABELLA_NET_H
#define ANNABELLA_NET_H

#include <stdio.h>

/* web --listen ADDR:PORT [--socket PATH] [--config FILE] */
int cli_web(int argc, char **argv);
/* broadcast --mqtt HOST:PORT --board NAME [--socket PATH] [--config FILE] [auth, TLS] */
int cli_broadcast(int argc, char **argv);
/* relay --mqtt HOST:PORT --listen ADDR:PORT ... | relay tags ROUND.csv --mqtt HOST:PORT ... */
int cli_relay(int argc, char **argv);

void cli_web_usage(FILE *f);
void cli_broadcast_usage(FILE *f);
void cli_relay_usage(FILE *f);

#endif
