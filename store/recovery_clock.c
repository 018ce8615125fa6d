/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recovery's clock (docs/state.md "State directory"): whether the journal's torn last line may
 * have been a press, whether the clock is older than the game recovered, and the clock put
 * together from the last readings known for each side, stopped and marked uncertain by a
 * `checkpoint recovered` record until the arbiter resumes or sets it.
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "store/recovery_int.h"
#include "store/state.h"

/* ------------------------------------------------------------------ the clock */

/* Whether the journal's torn last line (a power cut in the middle of its write, or the file
 * cut short) may have been a press or a completion: its type is one of them, or the line is
 * too short to tell.  Read before the reading cuts it off. */
bool rcv_torn_line_may_press(const char *path)
{
	size_t len;
	char *text = state_read_file(path, &len), *tail;
	int spaces = 0;
	bool may;

	if (!text || !len || text[len - 1] == '\n') {
		free(text);
		return false;
	}
	tail = memrchr(text, '\n', len);
	tail = tail ? tail + 1 : text;
	/* "CRC32 CHAIN MS TYPE ...": the type is whole once four spaces are there. */
	for (const char *p = tail; *p; p++)
		spaces += *p == ' ';
	may = spaces < 4 || strstr(tail, " press ") || strstr(tail, " complete ");
	free(text);
	return may;
}

/* Whether a reading came after the journal's last clock record and is not the clock's: the
 * press that gave it was lost, so the clock is older than the game (game.pgn is written
 * after every press, so a press it does not show is lost from both copies).  A game from
 * game.record or game.pgn alone has no clock record at all: its clock is not known once it
 * has moves. */
static bool clock_stale(struct replay *rp)
{
	const struct game *g = referee_game(rp->r);

	if ((rp->rc->game_from_copy || rp->rc->from_scoresheet) && game_plies(g) > 0 &&
	    !rp->clock_seq)
		return true;
	/* A press torn off the journal's end switched the clocks the journal does not show:
	 * a move still waits for a press that may have come. */
	if (rp->torn_press && (completion_waiting(&g->completion, CHESS_WHITE) >= 0 ||
			       completion_waiting(&g->completion, CHESS_BLACK) >= 0))
		return true;
	for (int color = 0; color < 2; color++) {
		int last = -1;

		for (int i = game_plies(g) - 1; i >= 0 && last < 0; i--)
			if (game_ply_color(g, i) == color && g->plies[i].clk_ms >= 0)
				last = i;
		if (last >= 0 && rp->reading_seq[last] > rp->clock_seq &&
		    g->plies[last].clk_ms / 1000 !=
			clock_last_press_remaining(&g->clock, color) / 1000)
			return true;
	}
	return false;
}

/*
 * The clock could not be known (its records lost; moves and readings came back from
 * elsewhere): it resumes from the last reading known for each side, the side to move next
 * runs, stopped until the arbiter resumes or sets it.  A `checkpoint recovered` record
 * carries it (and marks it uncertain), so the next start comes back to the same clock.
 */
void rcv_recover_clock(struct replay *rp, uint64_t ms)
{
	const struct game *g = referee_game(rp->r);
	struct game_record rec = {.type = REC_CHECKPOINT, .ms = ms};
	struct chess_clock c = g->clock;
	int64_t reading[2] = {clock_remaining(&c, CHESS_WHITE, ms),
			      clock_remaining(&c, CHESS_BLACK, ms)};
	int moves[2] = {c.moves[0], c.moves[1]}, counted[2] = {0, 0};
	int last = game_plies(g) - 1, running;

	if (!g->has_clock || game_over(g) || !clock_stale(rp))
		return;
	for (int i = 0; i <= last; i++) {
		int color = game_ply_color(g, i);

		if (g->plies[i].clk_ms < 0)
			continue;
		reading[color] = g->plies[i].clk_ms;
		counted[color]++;
	}
	for (int color = 0; color < 2; color++)
		if (counted[color] > moves[color])
			moves[color] = counted[color];
	/* The side whose move is not complete runs: the last mover before their press, else
	 * the side to move. */
	running = last >= 0 && !(g->plies[last].flags & GAME_PLY_COMPLETE) ? game_ply_color(g, last)
									   : game_position(g)->side;
	if (c.state == CLOCK_NOT_STARTED)
		clock_press(&c, !c.first_mover, ms);
	clock_set_running(&c, running, ms);
	clock_set(&c, reading[0], reading[1], -1, ms);
	clock_set_moves(&c, moves[0], moves[1]);
	clock_pause(&c, ms);
	rec.u.checkpoint_recovered = true;
	rec.clock = c;
	if (rcv_apply(rp, &rec, NULL))
		return;
	rp->rc->clock_uncertain = true;
	log_warn(LOG_GAME,
		 "the clock's records were lost: it stands at the last readings known (white "
		 "%lld ms, black %lld ms) until the arbiter resumes or sets it",
		 (long long)reading[0], (long long)reading[1]);
}
