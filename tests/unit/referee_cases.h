/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The fixture of the referee's cmocka tests (include after <cmocka.h>): one referee run `t`
 * per test, set up and torn down (every utterance of a tournament game checked against
 * utterances.h), and the checks they share: an effect logged or not, the last record of a
 * type, and the records read back giving the same game.
 */
#ifndef ANNABELLA_REFEREE_CASES_H
#define ANNABELLA_REFEREE_CASES_H

#include "tests/unit/referee_testutil.h"

static struct rt *t;

static int setup(void **state)
{
	(void)state;
	t = calloc(1, sizeof(*t));
	return t ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	if (t->r)
		rt_close(t);
	if (t->tournament_faults)
		fail_msg("%d utterances not allowed in tournament mode; the first: %s",
			 t->tournament_faults, t->tournament_fault);
	if (t->audience_faults)
		fail_msg("%d events handed out to the wrong audience; the first: %s",
			 t->audience_faults, t->audience_fault);
	free(t);
	return 0;
}

static __attribute__((unused)) void assert_logged(const char *want)
{
	if (!strstr(t->log, want))
		fail_msg("expected '%s' in:\n%s", want, t->log);
}

static __attribute__((unused)) void assert_not_logged(const char *unwanted)
{
	if (strstr(t->log, unwanted))
		fail_msg("did not expect '%s' in:\n%s", unwanted, t->log);
}

/* The log emptied: what follows is looked for alone. */
static __attribute__((unused)) void clear_log(void)
{
	t->log_len = 0;
	t->log[0] = '\0';
}

/* The last reply logged holds `want`. */
static __attribute__((unused)) void last_reply(const char *want)
{
	const char *r = NULL;

	for (const char *q = strstr(t->log, " REPLY "); q; q = strstr(q + 1, " REPLY "))
		r = q;
	if (!r || !strstr(r, want))
		fail_msg("expected '%s' in the last reply of:\n%s", want, t->log);
}

/* The last record of a type, its arguments; NULL if none. */
static __attribute__((unused)) const char *last_record(const char *type)
{
	for (int i = t->nrec - 1; i >= 0; i--)
		if (!strcmp(t->types[i], type))
			return t->args[i];
	return NULL;
}

static __attribute__((unused)) const char *san(int ply)
{
	return rt_game(t)->plies[ply].san;
}

/* The game read back from its records is the game. */
static __attribute__((unused)) void assert_replays(void)
{
	struct game_sink none = {0};
	struct referee *fresh = referee_new(&t->set, &none);
	static char a[16384], b[16384];

	assert_non_null(fresh);
	assert_int_equal(rt_replay(t, rt_game_start(t), t->nrec, fresh), 0);
	game_describe(rt_game(t), t->now, a, sizeof(a));
	game_describe(referee_game(fresh), t->now, b, sizeof(b));
	assert_string_equal(a, b);
	referee_free(fresh);
}

#endif
