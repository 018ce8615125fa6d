/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The command table's handlers (dispatch.c), named by the table's rows (protocol.c).
 * Internal to control/.
 */
#ifndef ANNABELLA_CONTROL_HANDLERS_H
#define ANNABELLA_CONTROL_HANDLERS_H

#include "control/protocol.h"

#define HANDLER(name)                                                                              \
	void name(const struct control_env *env, struct control_request *req,                      \
		  struct control_outcome *out)

HANDLER(control_h_game); /* a command that changes the game: the referee's */
HANDLER(control_h_status);
HANDLER(control_h_moves);
HANDLER(control_h_export);
HANDLER(control_h_games);
HANDLER(control_h_compare);
HANDLER(control_h_help);
HANDLER(control_h_watch);
HANDLER(control_h_auth);
HANDLER(control_h_notation);
HANDLER(control_h_engine); /* training (docs/training.md "Training and study") */
HANDLER(control_h_review);
HANDLER(control_h_online); /* online play (docs/online.md "Playing online") */

#undef HANDLER

#endif
