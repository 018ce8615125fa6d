/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The presenter: renders each of the referee's effects (game/effect.h) for whoever must
 * hear or see it: speech (phrases in the interface language, moves in Appendix D words),
 * the game's files, control replies and watchers.  It is the referee's sink.
 */
#ifndef ANNABELLA_PRESENT_H
#define ANNABELLA_PRESENT_H

#include <stdbool.h>

#include "daemon/store.h"
#include "game/referee.h"
#include "voice/phrases.h"
#include "voice/voice.h"

struct presenter_config {
	struct phrase_options phrases;
	bool announce_check_set; /* announce-check given explicitly (else: casual says check) */
};

struct presenter;
struct ctlsock;

struct presenter *presenter_new(const struct presenter_config *cfg, struct voice *voice,
				struct store *store);
void presenter_free(struct presenter *p);
/* The referee whose effects it renders, and the control socket for replies and watchers
 * (NULL: none). */
void presenter_attach(struct presenter *p, struct referee *r, struct ctlsock *c);
/* A sink for referee_new() that hands everything to the presenter. */
struct game_sink presenter_sink(struct presenter *p);
/* The words of a move as announced (for status and the last move). */
void presenter_move_words(const struct presenter *p, const struct chess_pos *before, chess_move m,
			  char *buf, size_t size);

#endif
