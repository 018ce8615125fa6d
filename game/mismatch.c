/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/mismatch.h"

void mismatch_reset(struct mismatch *m)
{
	*m = (struct mismatch){.state = MISMATCH_NONE};
}

static void set(struct mismatch *m, enum mismatch_state s, uint64_t empty, uint64_t occupied,
		uint64_t now)
{
	m->state = s;
	m->should_be_empty = empty;
	m->should_be_occupied = occupied;
	m->since_ms = now;
}

void mismatch_hold(struct mismatch *m, uint64_t empty, uint64_t occupied, uint64_t now)
{
	set(m, MISMATCH_HELD, empty, occupied, now);
}

void mismatch_open(struct mismatch *m, uint64_t empty, uint64_t occupied, uint64_t now)
{
	set(m, MISMATCH_OPEN, empty, occupied, now);
}

void mismatch_setup(struct mismatch *m, uint64_t now)
{
	set(m, MISMATCH_SETUP, 0, 0, now);
}

bool mismatch_active(const struct mismatch *m)
{
	return m->state != MISMATCH_NONE;
}

const char *mismatch_state_name(enum mismatch_state s)
{
	static const char *const names[] = {"none", "held", "open", "setup"};

	return (unsigned)s < 4 ? names[s] : "?";
}
