/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the command table's parsers share (protocol.c's and parse_casual.c's): the helpers
 * that refuse a request with a reply, copy a word, read a colour or a move's number, and the
 * parsers of casual play's commands the table names.  Inside control/ only.
 */
#ifndef ANNABELLA_CONTROL_PARSERS_H
#define ANNABELLA_CONTROL_PARSERS_H

#include <stddef.h>
#include <string.h>

#include "control/protocol.h"
#include "game/color.h"

static inline int fail(struct game_reply *err, enum reply_code code, const struct reply_value *args)
{
	game_reply_set(err, code, args);
	return -1;
}

/* usage: ... for the request's row. */
static inline int usage(const struct control_words *ws, const char *usage, struct game_reply *err)
{
	return fail(err, REPLY_USAGE,
		    REPLY_ARGS(REPLY_S("command", ws->w[0]), REPLY_S("usage", usage)));
}

/* A word the reply quotes. */
static inline int bad_word(struct game_reply *err, enum reply_code code, const char *word)
{
	return fail(err, code, REPLY_ARGS(REPLY_S("word", word)));
}

static inline int color_arg(const char *word, int *color, struct game_reply *err)
{
	*color = game_color_parse(word);
	if (*color < 0)
		return bad_word(err, REPLY_WANT_COLOR, word);
	return 0;
}

/* A word into a field it has been checked to fit, or cut short. */
static inline void copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* "12" (a ply), "12." (White's move 12) or "12..." (Black's), at the start of a word:
 * the length read (0: none), the ply or the move number and colour into *cmd. */
size_t control_relay_ply(const char *word, struct game_command *cmd);
/* A command without arguments. */
int control_p_none(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err);

/* parse_casual.c: training and study (docs/training.md "Training and study") and online play
 * (docs/online.md "Playing online"). */
int control_p_engine(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err);
int control_p_hint(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err);
int control_p_eval(const struct control_words *ws, struct control_request *req,
		   struct game_reply *err);
int control_p_new_game(const struct control_words *ws, struct control_request *req,
		       struct game_reply *err);
int control_p_takeback(const struct control_words *ws, struct control_request *req,
		       struct game_reply *err);
int control_p_review(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err);
int control_p_online(const struct control_words *ws, struct control_request *req,
		     struct game_reply *err);

#endif
