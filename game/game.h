/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game as the referee knows it: position and moves, the clock, and the flows that run
 * beside them (completion, promotion, mismatch, result, draw offers and claims).  Pure data
 * with one mutator: game_apply() takes a journal record (record.h).  The referee
 * (referee.h) decides which records to make; a restart replays the journal's records
 * through game_apply() and so comes back to the same game.
 *
 * No allocation: the moves live in the struct (GAME_MAX_PLIES), which callers allocate once.
 */
#ifndef ANNABELLA_GAME_H
#define ANNABELLA_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"
#include "game/clock.h"
#include "game/completion.h"
#include "game/mismatch.h"
#include "game/promotion.h"
#include "game/record.h"
#include "game/result.h"
#include "game/rules.h"

/* More plies than any game under the 75-move rule reaches in practice. */
#define GAME_MAX_PLIES 6000

/*
 * A running clock is journaled at least this often (a `checkpoint` record when no other
 * record carried it for this long), so a power cut gives back at most about this much of
 * the running side's time, and the arbiter is told how much.  Five seconds: "a few
 * seconds" an arbiter can settle (6.10.2), at one small record, written and synced, every
 * five seconds of a turn: 720 an hour at most, fewer than a game's moves, touches and
 * presses make, and nothing waits for their syncs (the writer's).
 */
#define GAME_CHECKPOINT_MS 5000

enum {
	GAME_PLY_COMPLETE = 1,	 /* its press came (or no clock) */
	GAME_PLY_DRAW_OFFER = 2, /* a draw was offered with it (8.1.5: "(=)") */
	GAME_PLY_RELAYED = 4,	 /* relayed by an assistant (D.2.10), not seen on the board */
	GAME_PLY_COUNTED = 8,	 /* the clock's move counter counted its completion */
	/* Made after a flag fell, while the arbiter had not ruled on it (6.8: the flag has
	 * fallen once observed or claimed): kept, marked on the scoresheet. */
	GAME_PLY_AFTER_FLAG = 16,
};

/* The board's events since the last move made from them, in order: what a restart needs to
 * recognise a move in progress (a capture whose piece is already off the board). */
#define GAME_BOARD_EVENTS 64
struct game_board_event {
	uint64_t ms;
	uint8_t square;
	bool occupied;
};

/* What the scoresheet says about moves that are not in it (D.2.8 corrections, moves
 * retracted by the arbiter, illegal moves): a comment after ply `ply` (-1: before the first
 * move). */
#define GAME_MAX_NOTES 32
#define GAME_NOTE_MAX  200
struct game_note {
	int ply;
	char text[GAME_NOTE_MAX];
};

struct game_ply {
	chess_move move;
	uint8_t flags;
	/* What the clock gave its mover when it was completed: the press's increment or
	 * Bronstein credit, a period's time (taken back when the move is ruled illegal). */
	int32_t earned_ms;
	int64_t clk_ms; /* its [%clk] reading, -1 if none */
	char san[CHESS_SAN_MAX];
};

/* What a colour's completing press did to its clock, until the complete record of the move
 * it completes comes (right after it, or when the opponent's move reaches the board after
 * their press). */
struct game_press_memo {
	bool pending;
	bool counted;	   /* the move counter counted the move */
	int64_t earned_ms; /* what the press gave */
};

/* A press that switched the clocks without completing a move the game knows: with no move
 * made (7.5.3), of a board no legal move explains (7.5.1), or the opponent's press whose move
 * has not reached the tactile board yet.  What `illegal` rules for that colour while it is
 * open: until the colour's next press, a ruling, or (the opponent's) its move on the board. */
struct game_open_press {
	bool open;
	enum press_kind kind;
	bool counted;
	int64_t earned_ms;
	int plies; /* plies in the game when it came */
	uint64_t ms;
};

/* Who stopped the clocks that stand (Art. 6.11): only the arbiter starts them again in a
 * tournament (6.11.3; docs/control.md "Control interface"). */
enum game_stop {
	STOP_NONE = 0,
	STOP_PLAYER,
	STOP_ARBITER,
	STOP_CLAIM,
	STOP_RESTART,
	STOP_ENGINE /* casual play: the training engine was lost (referee_engine.c) */
};

struct game_claim {
	bool open; /* the clocks stand for the arbiter */
	int color;
	enum claim_kind kind;
	chess_move move; /* intended, the made move (after_move), or CHESS_MOVE_NONE */
	/* Made after the claimant's own move was made on the board, before its press: the
	 * verdict is on the position after that move (1.3: the claimant no longer has the
	 * move; 9.4), for the arbiter to weigh. */
	bool after_move;
	bool correct;
	int ply; /* plies played when it was made */
	char author[GAME_AUTHOR_MAX];
};

/* The device's fair-play state over the game (fairplay.h): as first measured, as now, and
 * whether it ever broke the policy. */
struct game_fairplay {
	bool measured;
	struct fairplay_policy policy;
	struct fairplay_state first, last;
	int changes;	 /* records after the first */
	bool breach_now; /* the last state breaks the policy */
	bool breach;	 /* some state did */
	int breach_move; /* the move number when it first did (0: before the first move) */
	char breach_what[FAIRPLAY_ITEM_MAX];
};

struct game {
	bool open; /* a game record has been applied */
	struct game_params params;
	const struct rules *rules;
	struct chess_pos start;
	struct time_control tc;
	bool has_clock;
	struct chess_game chess; /* moves and repetition keys, in the buffers below */
	struct chess_clock clock;
	struct completion completion;
	struct promotion promotion;
	struct mismatch mismatch;
	struct result_flow result;
	uint64_t touched; /* squares touched since the last made move (D.2.2) */
	int restarts;
	/* The last relayed move (D.2.10): its ply (0-based) and who relayed it, so only they
	 * correct it by naming its ply (D.2.8).  A relayed ply whose index is not this one has
	 * no known relayer. */
	int relayed_ply;
	char relayed_by[GAME_AUTHOR_MAX];
	int offer_color; /* an open draw offer's colour, -1 if none */
	int offers;	 /* draw offers made */
	struct game_claim claim;
	int claims;
	int illegal_count[2]; /* completed illegal moves ruled (7.5.5) */
	int empty_presses[2]; /* presses with no move made (7.5.3) */
	struct game_press_memo press_memo[2];
	struct game_open_press open_press[2];
	/* The clocks stand (PAUSED): who stopped them, and their author (a user, "player"). */
	enum game_stop stopped_by;
	char stopped_author[GAME_AUTHOR_MAX];
	/* While they stand: the colour whose move a press completed (its clock runs no more:
	 * the resumption starts the other), and that move's ply (-1: the opponent's move that
	 * has not reached the board); -1 if none. */
	int paused_completed;
	int paused_ply;
	/* The plies whose completion a flag's check (6.4) may still count: from the last time
	 * the arbiter set the counters or retraced the game. */
	int recount_from;
	/* Presses of a colour the clock ignored, the other's clock running (its player had not
	 * pressed): since the last clock set.  The opponent's move that such a press meant to
	 * complete is matched to a later press, so their moves waiting for a press may in truth
	 * be complete (6.4's check then leaves a flag to the arbiter). */
	int ignored_presses[2];
	uint64_t last_complete_ms; /* time of the last complete record */
	uint64_t approved_ms;	   /* when the result was approved (8.7) */
	/* The tactile player's press switched the clocks with no move completed on the board
	 * (an impossible board, 7.5.1, or no move, 7.5.3): the move they make next is complete
	 * at once.  Until that move, or the opponent's press. */
	bool player_pressed_first;
	int note_count;
	struct game_note notes[GAME_MAX_NOTES];
	int board_event_count;
	struct game_board_event board_events[GAME_BOARD_EVENTS];
	/* After a restart: how long the running clock ran at least between its last journaled
	 * reading and the journal's last record, not charged to anyone (the arbiter decides),
	 * and how long at most when the journal was written up to the power cut (a
	 * checkpoint every GAME_CHECKPOINT_MS). */
	int64_t uncharged_ms;
	int64_t uncharged_up_to_ms;
	int uncharged_color;
	/* The clock could not be known after a restart (its records lost): it stands at the
	 * last readings known for each side until the arbiter resumes or sets it. */
	bool clock_uncertain;
	/* The plies before this one that were waiting for their press when the clock was put
	 * together (a `checkpoint recovered`): their press may have come and been lost, and a
	 * later press's reading would be the put-together clock's, so none completes them with
	 * a reading (a move recovered without its reading stays without one). */
	int readings_lost_before;
	struct game_fairplay fairplay;
	uint64_t last_clock_ms; /* time of the last record that carried the clock */
	uint64_t last_record_ms;
	struct game_ply plies[GAME_MAX_PLIES];
	chess_move move_buf[GAME_MAX_PLIES];
	uint64_t key_buf[GAME_MAX_PLIES + 1];
};

/* No game yet. */
void game_init(struct game *g);
/* Apply one record.  0, or -1 (the game unchanged) when it does not fit the game: a move
 * that is not legal, a ply out of order, a record before the game record. */
int game_apply(struct game *g, const struct game_record *rec);

static inline const struct chess_pos *game_position(const struct game *g)
{
	return &g->chess.pos;
}
static inline int game_plies(const struct game *g)
{
	return g->chess.count;
}
static inline bool game_over(const struct game *g)
{
	return result_over(&g->result);
}
/* The position before ply `ply` (0-based) into *out. */
void game_position_before(const struct game *g, int ply, struct chess_pos *out);
/* The colour that made ply `ply` (0-based). */
int game_ply_color(const struct game *g, int ply);
/* The last ply made by `color` (0-based), or -1. */
int game_last_ply_of(const struct game *g, int color);
/* The move number of ply `ply` (0-based): "12" of "12. e4" or "12... e5". */
int game_move_number(const struct game *g, int ply);
/* Ply `ply` (0-based) as the scoresheet writes it: "12. Nf3" or "12... Nf6". */
void game_ply_name(const struct game *g, int ply, char *buf, size_t size);
/* "player", "arbiter", "claim", "restart"; NULL for STOP_NONE. */
const char *game_stop_name(enum game_stop stop);

/* Everything the property tests compare, as text: position, moves with their readings and
 * marks, the clock at `now`, every flow and the result.  Returns the length (as snprintf). */
int game_describe(const struct game *g, uint64_t now, char *buf, size_t size);

#endif
