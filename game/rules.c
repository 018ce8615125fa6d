/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Every edition-dependent number and rule, one row each, with the article it comes from in
 * that edition's text: 2023 (FIDE Laws of Chess, effective 1 January 2023), 2018 (effective
 * 1 January 2018), 2005 (effective 1 July 2005), each read in its translation.  The kinds of game
 * are indexed standard, rapid, blitz.
 */
#include "game/rules.h"

#include <string.h>

#define MIN(n) ((int64_t)(n)*60 * 1000)

static const struct rules editions[RULES_EDITION_COUNT] =
    {
	[RULES_2023] =
	    {
		.name = "2023",
		/* B.1: blitz is ten minutes or less; A.1: rapid more than ten and less than
		 * sixty, time plus 60 times the increment. */
		.blitz_max_ms = MIN(10),
		.rapid_max_ms = MIN(60) - 1,
		.kind_article = "A.1, B.1",
		/* 7.5.5: two minutes, the second loses; A.3: one minute in rapid; blitz
		 * through B.3 (A.3) unless B.2's one arbiter per game applies. */
		.illegal = {{MIN(2), 2, false, "7.5.5", true},
			    {MIN(1), 2, false, "7.5.5, A.3", true},
			    {MIN(1), 2, false, "7.5.5, B.3 (A.3)", true}},
		.retract_article = "7.5.1",
		.empty_press_illegal = true,
		.empty_press_article = "7.5.3",
		/* 9.5.3: two minutes to the opponent; A.3, B.3: one in rapid and blitz. */
		.claim = {{MIN(2), false, "9.5.3"},
			  {MIN(1), false, "9.5.3, A.3"},
			  {MIN(1), false, "9.5.3, B.3 (A.3)"}},
		/* 6.8: fallen when the arbiter observes it; A.5.5: the arbiter calls it. */
		.flag_pointed_out = {true, true, true},
		.flag_article = "6.9",
		.moves_check_article = "6.4",
		.moves_check_made = false, /* 6.3.1: "voltooien" */
		.completion_article = "6.2.1",
		.pause_article = "6.11.3",
		.resignation_draw_without_mate = true,	 /* 5.1.2 */
		.automatic_fivefold_seventy_five = true, /* 9.6 */
		.delay_carries_saved_time = true,	 /* 6.3.2 */
	    },
	[RULES_2018] =
	    {
		.name = "2018",
		/* Bilaga B.1: blitz at most ten minutes; A.1: rapid more than ten and less than
		 * sixty. */
		.blitz_max_ms = MIN(10),
		.rapid_max_ms = MIN(60) - 1,
		.kind_article = "A.1, B.1",
		/* 7.5.5: two minutes, the second loses; A.4.2 applies 7.5.5 in rapid; B.2: the
		 * penalties of § 7 and § 9 are one minute in blitz. */
		.illegal = {{MIN(2), 2, false, "7.5.5", true},
			    {MIN(2), 2, false, "7.5.5, A.4.2", true},
			    {MIN(1), 2, false, "7.5.5, B.2", true}},
		.retract_article = "7.5.1",
		.empty_press_illegal = true,
		.empty_press_article = "7.5.3",
		.claim = {{MIN(2), false, "9.5.3"},
			  {MIN(2), false, "9.5.3"},
			  {MIN(1), false, "9.5.3, B.2"}},
		/* 6.8; A.4.5: the arbiter points out a fallen flag. */
		.flag_pointed_out = {true, true, true},
		.flag_article = "6.9",
		.moves_check_article = "6.4",
		.moves_check_made = false, /* 6.3.1: "fullborda" */
		.completion_article = "6.2.1",
		.pause_article = "6.11.3",
		.resignation_draw_without_mate = false,
		.automatic_fivefold_seventy_five = true, /* 9.6 */
		.delay_carries_saved_time = true,	 /* 6.3.2 */
	    },
	[RULES_2005] =
	    {
		.name = "2005",
		/* C1: blitz under 15 minutes; B1: rapid "zwischen 15 und 60 Minuten" (counted as
		 * under 60, as in the later texts). */
		.blitz_max_ms = MIN(15) - 1,
		.rapid_max_ms = MIN(60) - 1,
		.kind_article = "B1, C1",
		/* 7.4 b: two minutes for each of the first two, the third loses (no draw
		 * clause); B6: in rapid only on the opponent's claim before they move; C3: in
		 * blitz the opponent claims the win before they move (a draw when they cannot
		 * mate). */
		.illegal = {{MIN(2), 3, false, "7.4 b", false},
			    {MIN(2), 3, true, "7.4 b, B6", false},
			    {0, 1, true, "C3", true}},
		.retract_article = "7.4 a",
		/* 6.8 a: the move is not complete until the press; no article makes a press
		 * without a move an illegal move. */
		.empty_press_illegal = false,
		.empty_press_article = "6.8 a",
		/* 9.5 b: three minutes to the opponent, and the claimant's time cut. */
		.claim = {{MIN(3), true, "9.5 b"},
			  {MIN(3), true, "9.5 b"},
			  {MIN(3), true, "9.5 b"}},
		/* 6.9: fallen when the arbiter observes it; B7 (and C2 for blitz): the arbiter
		 * refrains from pointing out a fallen flag. */
		.flag_pointed_out = {true, false, false},
		.flag_article = "6.10",
		.moves_check_article = "6.3",
		.moves_check_made = true, /* 6.2 a: "ausführen" */
		.completion_article = "6.8 a",
		.pause_article = "6.13 c",
		.resignation_draw_without_mate = false,
		.automatic_fivefold_seventy_five = false,
		.delay_carries_saved_time = true, /* 6.2 b */
	    },
};

const struct rules *rules_get(enum rules_edition edition)
{
	if ((unsigned)edition >= RULES_EDITION_COUNT)
		edition = RULES_2023;
	return &editions[edition];
}

int rules_edition_parse(const char *name)
{
	for (int i = 0; i < RULES_EDITION_COUNT; i++)
		if (!strcmp(name, editions[i].name))
			return i;
	return -1;
}

const char *rules_edition_name(enum rules_edition edition)
{
	return rules_get(edition)->name;
}

enum clock_game_kind rules_kind(const struct rules *rules, const struct time_control *tc)
{
	const struct tc_period *p;
	int64_t total;

	if (tc->count <= 0)
		return CLOCK_STANDARD;
	p = &tc->periods[0];
	total = (int64_t)p->base_ms + (p->mode != TC_PLAIN ? 60 * (int64_t)p->extra_ms : 0);
	if (total <= rules->blitz_max_ms)
		return CLOCK_BLITZ;
	if (total <= rules->rapid_max_ms)
		return CLOCK_RAPID;
	return CLOCK_STANDARD;
}

int64_t rules_claim_cut(const struct rules_claim *claim, int64_t left)
{
	if (!claim->cuts_claimant || left < MIN(1))
		return left;
	if (left <= MIN(2))
		return MIN(1); /* exactly two minutes: half of it is one minute too */
	return left - (left / 2 < MIN(3) ? left / 2 : MIN(3));
}

const char *rules_kind_name(enum clock_game_kind kind)
{
	static const char *const names[] = {"standard", "rapid", "blitz"};

	return (unsigned)kind < 3 ? names[kind] : "?";
}
