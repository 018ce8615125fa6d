/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/result.h"

#include <stdio.h>
#include <string.h>

#include "game/color.h"

static const char *const pgn_names[TERMINATION_COUNT] = {
    "", "normal", "time forfeit", "rules infraction", "adjudication", "abandoned",
};
static const char *const words[TERMINATION_COUNT] = {
    "-", "normal", "time-forfeit", "rules-infraction", "adjudication", "abandoned",
};

void result_reset(struct result_flow *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->result, sizeof(r->result), "*");
	r->flag_color = -1;
}

void result_flag(struct result_flow *r, int color, const char *result)
{
	if (r->state != RESULT_ON)
		return;
	r->state = RESULT_FLAG_PENDING;
	r->flag_color = color;
	snprintf(r->flag_result, sizeof(r->flag_result), "%s", result);
	/* Why the result waits, for status: a "*" is the arbiter's to decide. */
	snprintf(r->reason, sizeof(r->reason), "%s's flag fell%s", game_color_name(color),
		 strcmp(result, "*") ? "" : ": the arbiter decides");
}

bool result_undecided(const struct result_flow *r)
{
	/* A game the server aborted (docs/online.md "Playing online") ends with "*" too, decided.
	 */
	return (r->state == RESULT_ENDED && !strcmp(r->result, "*") &&
		r->termination != TERMINATION_ABANDONED) ||
	       (r->state == RESULT_FLAG_PENDING && !strcmp(r->flag_result, "*"));
}

void result_end(struct result_flow *r, const char *result, enum result_termination term,
		const char *reason)
{
	if (result_over(r) && !result_undecided(r))
		return;
	r->state = RESULT_ENDED;
	snprintf(r->result, sizeof(r->result), "%s", result);
	r->termination = term;
	snprintf(r->reason, sizeof(r->reason), "%s", reason ? reason : "");
}

void result_replace(struct result_flow *r, const char *result, enum result_termination term,
		    const char *reason)
{
	if (r->state != RESULT_ENDED)
		return;
	snprintf(r->result, sizeof(r->result), "%s", result);
	r->termination = term;
	snprintf(r->reason, sizeof(r->reason), "%s", reason ? reason : "");
}

void result_approve(struct result_flow *r)
{
	if (result_undecided(r))
		return;
	if (r->state == RESULT_FLAG_PENDING)
		result_end(r, r->flag_result, TERMINATION_TIME_FORFEIT, "flag fall");
	if (r->state == RESULT_ENDED)
		r->state = RESULT_APPROVED;
}

bool result_over(const struct result_flow *r)
{
	return r->state == RESULT_ENDED || r->state == RESULT_APPROVED;
}

bool result_valid(const char *text)
{
	return !strcmp(text, "1-0") || !strcmp(text, "0-1") || !strcmp(text, "1/2-1/2");
}

bool result_valid_or_open(const char *text)
{
	return result_valid(text) || !strcmp(text, "*");
}

const char *result_termination_pgn(enum result_termination t)
{
	return (unsigned)t < TERMINATION_COUNT ? pgn_names[t] : "";
}

const char *result_termination_word(enum result_termination t)
{
	return (unsigned)t < TERMINATION_COUNT ? words[t] : "-";
}

int result_termination_parse(const char *word)
{
	for (int i = 0; i < TERMINATION_COUNT; i++)
		if (!strcmp(word, words[i]))
			return i;
	return -1;
}

const char *result_state_name(enum result_state s)
{
	static const char *const names[] = {"on", "flag-pending", "ended", "approved"};

	return (unsigned)s < 4 ? names[s] : "?";
}

const char *result_win(int color)
{
	return color ? "0-1" : "1-0";
}
