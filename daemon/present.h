/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The presenter: renders each of the referee's effects (game/effect.h) for whoever must
 * hear or see it: speech (phrases in the interface language, moves in Appendix D words),
 * braille (daemon/display.h), the game's files, the clock display and watchers, each only
 * what the event's audience allows (presenter_reaches() in present_int.h).  It is the referee's
 * sink.
 *
 * Speech decisions made here: each utterance is built in segments (voice/utterance.h);
 * `info` says the number of moves made (the referee's count: the number of the last move on
 * the scoresheet), not the position's move number; a mate said with its move
 * (", Matt") is not said again as "Schachmatt"; `repeat` pressed again within
 * PRESENT_SLOW_REPEAT_MS is said at the slow-repeat rate; the settings are said once,
 * privately, when the first game opens or resumes.
 */
#ifndef ANNABELLA_PRESENT_H
#define ANNABELLA_PRESENT_H

#include <stdbool.h>

#include "braille/braille.h"
#include "config/config.h"
#include "daemon/power.h"
#include "store/store.h"
#include "referee/referee.h"
#include "voice/phrases.h"
#include "voice/voice.h"

struct presenter_config {
	struct phrase_options phrases;
	bool announce_check_set; /* announce-check given explicitly (else: casual says check) */
	int rate;		 /* the private channel's rate, said with the settings */
	int slow_repeat;	 /* percent of the rate for `repeat` again within 10 s (0: 70) */
	enum present_info info;	 /* what `info` says of the clocks ([clock] info) */
	struct braille_layout braille_layout; /* the braille scoresheet's pages on the display */
	bool braille_messages; /* what is said to the player also on the display ([braille]) */
};

/* `repeat` pressed again within this time is said slower. */
#define PRESENT_SLOW_REPEAT_MS 10000

struct presenter;
struct ctlsock;
struct display;
struct clockface;

struct presenter *presenter_new(const struct presenter_config *cfg, struct voice *voice,
				struct store *store);
void presenter_free(struct presenter *p);
/* The referee whose effects it renders, and the control socket for replies and watchers
 * (NULL: none). */
void presenter_attach(struct presenter *p, struct referee *r, struct ctlsock *c);
/* The braille display that shows moves, clocks and the scoresheet (NULL: none). */
void presenter_attach_display(struct presenter *p, struct display *d);
/* The clock display for the sighted opponent, refreshed after every record and effect (NULL:
 * none). */
void presenter_attach_clockface(struct presenter *p, struct clockface *f);
struct leds;
/* The clock's LEDs, driven after every record. */
void presenter_attach_leds(struct presenter *p, struct leds *l);
struct haptic;
/* The vibration motor: what the tactile player must not miss, felt (NULL: none). */
void presenter_attach_haptic(struct presenter *p, struct haptic *h);
/* Called when a game begins or resumes (start true; before anything of it is said) and
 * when it ends: the audit's start lines and anchors (daemon/audit.h). */
typedef void (*presenter_game_hook)(void *user, const struct game *g, bool start, uint64_t ms);
void presenter_set_game_hook(struct presenter *p, presenter_game_hook fn, void *user);
/* What the device itself says of its record, privately to the tactile player (docs/state.md
 * "State directory"): saving fails, saving works again, the state directory was removed or
 * replaced (the whole record written again). */
enum present_notice {
	PRESENT_NOTICE_SAVE_FAILED = 0,
	PRESENT_NOTICE_SAVE_WORKS,
	PRESENT_NOTICE_STORAGE_REPLACED
};
void presenter_notice(struct presenter *p, enum present_notice n, uint64_t ms);
/* The game was not fully recovered (a move or reading lost, or what came back needs the
 * arbiter): said privately, with what. */
struct present_recovery {
	bool from_scoresheet; /* game.pgn was the only copy */
	int moves_lost;	      /* plies game.pgn held beyond the game */
	int readings_missing; /* moves completed without their reading */
	bool other_game;      /* another game's journal set aside */
};
void presenter_recovery(struct presenter *p, const struct present_recovery *r, uint64_t ms);
/* The power as daemon/power.h read it: a problem is said privately with the first reading,
 * when the problems change (and that they are gone), and when a game begins; the clock
 * display shows it. */
void presenter_set_power(struct presenter *p, const struct power_status *st, uint64_t ms);
/* The last reading (monitored false: power is not watched). */
const struct power_status *presenter_power(const struct presenter *p);
/* A sink for referee_new() that hands everything to the presenter. */
struct game_sink presenter_sink(struct presenter *p);
/* The interface language's code ("de", "en", "sv", "nl"). */
const char *presenter_lang(const struct presenter *p);
/* The words of a move as announced (for status and the last move). */
void presenter_move_words(const struct presenter *p, const struct chess_pos *before, chess_move m,
			  char *buf, size_t size);

#endif
