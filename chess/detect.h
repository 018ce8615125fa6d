/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Move detection from hole sensors.  A pure state machine: square up/down
 * events with times and the current position go in; touches, moves (with the
 * sequence of events that made them) and unexplained boards come out.
 *
 * The sensors see occupancy only.  A move is recognised from the sequence, not
 * from a snapshot: a capture needs the captured piece's hole to have been
 * emptied at some point, even though it ends occupied again.
 *
 * Usage: feed every debounced edge to detect_square(); call detect_poll() when
 * the time given by detect_deadline() is reached (the board has been still for
 * the settle time, or unexplained for the mismatch time).  When a move comes
 * out, the caller accepts it with detect_commit() (for a promotion once the
 * piece is chosen), then polls again: a fast reply (the opponent's move made
 * right after the player's own, with no still moment between) gives a second
 * move.
 *
 * A rook moved to the square beside its king while that castling is legal may
 * be the first half of castling, rook first: it is made only once the board
 * has stayed so for castle_wait_ms, unless detect_flush() (the mover pressed
 * the clock: the move is complete) decides it at once.
 */
#ifndef ANNABELLA_DETECT_H
#define ANNABELLA_DETECT_H

#include "chess/chess.h"

#define DETECT_MAX_EVENTS  64 /* events kept since the last committed move */
#define DETECT_NO_DEADLINE UINT64_MAX

struct detect_config {
	uint32_t settle_ms;   /* board still this long before a move is made (default 150) */
	uint32_t mismatch_ms; /* unexplained placements this long raise a mismatch (default 3000) */
	uint32_t in_hand_ms;  /* pieces only lifted (in hand) this long raise one (default 20000) */
	uint32_t castle_wait_ms; /* a rook move that may be half a castling waits (default 1500) */
};

struct detect_event {
	uint64_t time_ms;
	uint8_t square;
	bool occupied; /* true: a peg entered the hole */
};

enum detect_kind {
	DETECT_NONE = 0,
	DETECT_TOUCH,	    /* a piece of the position left its hole (D.2.2) */
	DETECT_MOVE,	    /* a legal move was made on the board */
	DETECT_UNEXPLAINED, /* the board differs from the game and no legal move explains it */
	DETECT_RESTORED,    /* after UNEXPLAINED, the board again matches the game */
};

struct detect_result {
	enum detect_kind kind;
	uint64_t time_ms;
	/* TOUCH */
	int square;
	chess_piece piece;
	/* MOVE: for a promotion, move carries CHESS_QUEEN as a placeholder and
	 * promotion_pending is set: the piece is chosen by the player (select). */
	chess_move move;
	bool promotion_pending;
	int event_count;
	struct detect_event events[DETECT_MAX_EVENTS];
	/* UNEXPLAINED: squares whose occupancy differs from the position */
	uint64_t should_be_empty;
	uint64_t should_be_occupied;
};

/* What the deadline after a classification is for (internal). */
enum detect_wait {
	DETECT_WAIT_NONE = 0,
	DETECT_WAIT_MISMATCH, /* wrong placements: mismatch_ms after the last change */
	DETECT_WAIT_IN_HAND,  /* only pieces missing: in_hand_ms after the last change */
	DETECT_WAIT_CASTLE,   /* a rook move that may be half a castling: castle_wait_ms */
};

struct detect {
	struct detect_config cfg;
	struct chess_pos pos; /* the game's position the board should show */
	uint64_t sensed;      /* occupancy as sensed now */
	uint64_t last_change_ms;
	uint64_t lifted;  /* squares of pos lifted since the last commit (touch logged) */
	bool unexplained; /* UNEXPLAINED reported and not yet restored */
	bool overflow;	  /* more events than kept: only the final occupancy is used */
	int event_count;
	struct detect_event events[DETECT_MAX_EVENTS];
	/* Internal state. */
	uint64_t base;		  /* occupancy before events[0] */
	uint64_t dropped_emptied; /* squares emptied by events dropped on overflow */
	uint64_t now_ms;	  /* the latest time seen */
	bool dirty;		  /* changed since the last classification */
	bool setting_up;	  /* not yet matched since init / set_position: no moves */
	enum detect_wait wait;
	chess_move reported; /* MOVE reported and not committed, or CHESS_MOVE_NONE */
	int reported_events; /* events[0, reported_events) made it */
};

void detect_config_defaults(struct detect_config *cfg);
/* Start from a position and the occupancy the sensors show now. */
void detect_init(struct detect *d, const struct detect_config *cfg, const struct chess_pos *pos,
		 uint64_t sensed);
/* A new position for the board to show (rollback, set-up); keeps the sensed occupancy. */
void detect_set_position(struct detect *d, const struct chess_pos *pos);
/* One debounced edge.  Returns the result kind (TOUCH or NONE) and fills *out. */
enum detect_kind detect_square(struct detect *d, int square, bool occupied, uint64_t time_ms,
			       struct detect_result *out);
/* When detect_poll() should next be called, or DETECT_NO_DEADLINE. */
uint64_t detect_deadline(const struct detect *d);
/* Classify the board at time now: MOVE, UNEXPLAINED, RESTORED or NONE. */
enum detect_kind detect_poll(struct detect *d, uint64_t now, struct detect_result *out);
/* Classify at once, without waiting for the settle time or castle_wait_ms: for a clock
 * press, which completes the move.  A mismatch still waits for its own deadline. */
enum detect_kind detect_flush(struct detect *d, uint64_t now, struct detect_result *out);
/* Accept a move reported by detect_poll() (with the chosen promotion piece): the position
 * advances and the events that made the move are consumed. */
void detect_commit(struct detect *d, chess_move move);
/* Squares that differ from the position now. */
uint64_t detect_differences(const struct detect *d);

#endif
