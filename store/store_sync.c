/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the store's writer finished (docs/state.md "State directory"): the journal's syncs put
 * in place (in virtual time once their `disk slow` time has come in daemon time), a failure
 * said and saving tried again every STORE_RETRY_MS, saving said to work again once all is on
 * storage, and the longest a record waited to reach storage noted in the journal.
 */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "base/log.h"
#include "store/journal.h"
#include "store/state.h"
#include "store/store_int.h"
#include "store/writer.h"

static void saving_works(struct store *s)
{
	if (!s->failing)
		return;
	s->failing = false;
	log_info(LOG_GAME, "saving works again: the game is on disk whole");
	if (s->notice)
		s->notice(s->notice_user, STORE_NOTICE_WORKS);
}

/* Saving works again once every line is written, its sync done, and no scoresheet waits. */
static void check_works(struct store *s)
{
	if (s->failing && s->written == s->nlines && !s->sync_failed && !s->pgn_due &&
	    (!s->journal || s->sync_asked >= journal_size(s->journal)))
		saving_works(s);
}

/* Virtual time: a sync that takes its `disk slow` time in daemon time, after the one under
 * way; one waiting already takes this one in (the writer merges them so). */
static void slow_sync(struct store *s, off_t upto)
{
	uint64_t start;

	if (s->nslow == STORE_SLOW_SYNCS) {
		if (upto > s->slow[s->nslow - 1].upto)
			s->slow[s->nslow - 1].upto = upto;
		return;
	}
	start = s->nslow ? s->slow[s->nslow - 1].due : s->now;
	if (start < s->now)
		start = s->now;
	s->slow[s->nslow++] =
	    (struct slow_sync){.upto = upto, .due = start + state_sync_delay(), .asked = s->now};
}

/* The longest a record has waited to reach storage, noted in the journal whenever it has
 * grown (by a tenth, 10 ms at least): a restart's bound of the time it gives back covers it
 * (recovery reads the notes). */
void store_note_lag(struct store *s)
{
	uint32_t step = s->lag_noted_ms / 10 > 10 ? s->lag_noted_ms / 10 : 10;

	if (s->lag_ms < s->lag_noted_ms + step || s->failing || !s->journal_game[0])
		return;
	s->lag_noted_ms = (s->lag_ms + 9) / 10 * 10;
	store_note(s, s->now, "sync latency=%" PRIu32, s->lag_noted_ms);
}

/* What the writer finished: a sync's place on storage (in virtual time once its `disk
 * slow` time has come), a failure said and tried again. */
void store_take_results(struct store *s)
{
	struct writer_result res[16];
	int n;

	while ((n = writer_results(s->writer, res, 16)) > 0) {
		for (int i = 0; i < n; i++) {
			const struct writer_result *r = &res[i];

			if (r->kind == WRITER_SYNC) {
				if (r->tag != s->journal_gen || !s->journal)
					continue;
				if (r->err) {
					s->sync_failed = true;
					store_saving_failed(s, "journal", r->err);
					continue;
				}
				if (!s->writer_threaded && state_sync_delay()) {
					slow_sync(s, r->upto);
				} else {
					journal_mark_synced(s->journal, r->upto);
					/* In virtual time a sync takes no daemon time but its
					 * `disk slow` delay (slow_sync): the machine's own time
					 * for it (a loaded machine, valgrind) is not the game's. */
					if (s->writer_threaded && r->latency_ms > s->lag_ms)
						s->lag_ms = r->latency_ms;
				}
				continue;
			}
			if (!r->err) {
				if (strstr(r->path, "/game.pgn"))
					s->pgn_due = false;
				continue;
			}
			if (strstr(r->path, "/game.record")) {
				log_warn(LOG_GAME, "%s: %s (the journal keeps the game record)",
					 r->path, strerror(r->err));
				s->copy_due = true;
				continue;
			}
			s->pgn_due = true;
			store_saving_failed(s, r->path, r->err);
		}
	}
	check_works(s);
}

int store_fd(const struct store *s)
{
	return writer_fd(s->writer);
}

void store_service(struct store *s, uint64_t now)
{
	s->now = now;
	store_take_results(s);
	store_note_lag(s);
}

uint64_t store_deadline(const struct store *s)
{
	uint64_t t = s->failing ? s->last_try_ms + STORE_RETRY_MS : UINT64_MAX;

	if (s->nslow && s->slow[0].due < t)
		t = s->slow[0].due;
	return t;
}

void store_tick(struct store *s, uint64_t now)
{
	s->now = now;
	while (s->nslow && s->slow[0].due <= now) {
		if (s->journal)
			journal_mark_synced(s->journal, s->slow[0].upto);
		if (s->slow[0].due - s->slow[0].asked > s->lag_ms)
			s->lag_ms = (uint32_t)(s->slow[0].due - s->slow[0].asked);
		memmove(s->slow, s->slow + 1, sizeof(s->slow[0]) * (size_t)--s->nslow);
	}
	store_note_lag(s);
	if (!s->failing || now < s->last_try_ms + STORE_RETRY_MS)
		return;
	s->last_try_ms = now;
	if (store_flush(s))
		return;
	if (s->pgn_due && s->game)
		store_write_pgn(s, s->game, game_over(s->game));
	store_take_results(s);
}
