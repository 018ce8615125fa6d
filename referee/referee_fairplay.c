/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's side of the device's fair-play state (game/fairplay.h, docs/fairplay.md "Fair
 * play"): the shell measures the machine and hands the state in; in a tournament game every
 * change is judged against the arbiter's policy and journaled (a `fairplay` record, for the
 * arbiter alone), the first at the game's start.  Whether a training client is connected
 * is the referee's own knowledge, put into the state here.
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

void ref_fairplay_check(struct referee *r, uint64_t now)
{
	struct game *g = &r->g;
	struct game_record rec;
	struct fairplay_item items[FAIRPLAY_ITEM_COUNT];
	struct fairplay_state s;
	char policy[FAIRPLAY_POLICY_MAX], last[FAIRPLAY_POLICY_MAX];
	bool ok;

	if (!r->fairplay.have || !g->open || game_over(g) || g->params.mode != GAME_TOURNAMENT)
		return;
	s = r->fairplay.state;
	s.training = r->engine.state != REFEREE_ENGINE_NONE;
	if (fairplay_policy_format(&r->fairplay.policy, policy, sizeof(policy)))
		return;
	if (g->fairplay.measured && fairplay_equal(&s, &g->fairplay.last) &&
	    !fairplay_policy_format(&g->fairplay.policy, last, sizeof(last)) &&
	    !strcmp(policy, last))
		return;
	rec = ref_record(REC_FAIRPLAY, now);
	ok = fairplay_judge(&r->fairplay.policy, &s, items);
	rec.u.fairplay.breach = !ok;
	snprintf(rec.u.fairplay.policy, sizeof(rec.u.fairplay.policy), "%s", policy);
	if (fairplay_format(&s, rec.u.fairplay.state, sizeof(rec.u.fairplay.state)))
		return;
	/* Every item the state fails, not only the first: a radio and a changed file at once
	 * are two things for the arbiter to see in the tag and in verify's report. */
	for (int i = 0, n = 0; i < FAIRPLAY_ITEM_COUNT; i++) {
		size_t used = strlen(rec.u.fairplay.what);

		if (items[i].ok || used >= sizeof(rec.u.fairplay.what) - 1)
			continue;
		snprintf(rec.u.fairplay.what + used, sizeof(rec.u.fairplay.what) - used, "%s%s",
			 n++ ? "; " : "", items[i].what);
	}
	ref_emit(r, &rec);
}

void referee_fairplay(struct referee *r, const struct fairplay_policy *policy,
		      const struct fairplay_state *state, uint64_t now)
{
	r->fairplay.have = true;
	r->fairplay.policy = *policy;
	r->fairplay.state = *state;
	ref_fairplay_check(r, now);
}
