/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabellad's inside, shared by its files: main_annabellad.c (the options, the settings of
 * every game, the audit's anchors, start and stop) and annabellad_sources.c (what the loop
 * runs: the board, the script's hooks, the referee's ticks, the store, the announcements said,
 * signals, the service manager's watchdog and status, power and fair play).  Internal to the
 * daemon.
 */
#ifndef ANNABELLA_ANNABELLAD_INT_H
#define ANNABELLA_ANNABELLAD_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "daemon/svcstatus.h"
#include "gpio/board.h"
#include "referee/referee.h"
#include "voice/voice.h"

struct options {
	const char *config_path;
	const char *board_spec;
	const char *record_path;
	const char *state_dir;
	const char *control; /* --control PATH|none */
	bool virtual_time;
	int audio; /* enum voice_sink_type, or -1: the default */
};

struct daemon {
	struct config cfg;
	struct options opt;
	struct loop *loop;
	struct board *board;
	enum board_kind board_kind; /* what --board names */
	const char *board_arg;	    /* what follows its "name:", or NULL */
	struct driver *driver;
	struct voice *voice;
	struct store *store;
	struct presenter *presenter;
	struct referee *referee;
	struct ctlsock *ctl;
	struct ctlshell *ctlshell; /* what the control commands read besides the game */
	struct display *display;
	struct clockface *clockface;
	struct leds *leds;
	struct haptic *haptic;
	struct takeover *takeover;	 /* a new version installed while it runs */
	struct power *power;		 /* the Pi's supply and a UPS ([power]) */
	struct fairplay_watch *fairplay; /* the machine's fair-play state ([fairplay]) */
	struct svcstatus status;	 /* the service manager's status line, as last sent */
	int sigfd;
	bool signalled;			     /* stopping on SIGINT or SIGTERM */
	uint64_t watchdog_ms, watchdog_last; /* keep-alive period (0: none), last sent */
	uint64_t end_at;
	bool started; /* the game is open: stopping writes its files */
	/* The voice's reports of announcements said, each given to the referee when its last
	 * sample has been heard (daemon time). */
	struct said_due {
		int report;
		uint64_t at;
	} said[VOICE_SAID_MAX];
	int said_count;
	/* The audit: the start lines written (once a game is open), the logs' anchors. */
	bool start_logged;
	char serial[64];
};

/* main_annabellad.c */

/* What every new game is: the configuration, and the script's header over it (fen_err: a
 * setup FEN that is not a position, an error only if a game is to start from it).  0, or -1
 * with err. */
int daemon_game_settings(const struct daemon *d, struct referee_settings *s, char *err,
			 size_t err_size, char *fen_err, size_t fen_err_size);

/* annabellad_sources.c */

/* The parts' sources on the loop, once the game is ready (origin: the script's time 0). */
void daemon_add_sources(struct daemon *d, uint64_t origin);
/* `disk` in a board script (its faults from the start too). */
void daemon_script_disk(void *user, int what, uint32_t arg, uint64_t now);
/* The service manager's status line ("STATUS="), with READY=1 before it at the first. */
void daemon_send_status(struct daemon *d, bool ready);

#endif
