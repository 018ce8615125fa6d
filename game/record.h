/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The journal's vocabulary: every fact the game depends on is one record, and game_apply()
 * (game.h) is the only way a record changes the game, live and when a journal is replayed.
 * One table names each record type with its encoder and decoder; a record's text is
 * `TYPE ARGS`, arguments separated by single spaces, text that may hold spaces in double
 * quotes (\" and \\ escaped).  The journal file adds the time and a check (store/journal.h).
 *
 *	game ID PLAYER TC MODE EDITION "FEN" [TAG "VALUE"]...	a new game
 *	lift SQ PIECE|-				a peg left its hole; PIECE: the game's piece
 *						that stood there, touched (D.2.2)
 *	place SQ				a peg went into a hole
 *	select PIECE				a promotion choice step (D.2.1)
 *	promotion UCI|-				a promotion on the board, its piece not yet
 *						final; -: the board no longer shows it
 *	made PLY UCI SAN EVENTS			a move made and announced; EVENTS: how many
 *						of the board's events since the last move
 *						it was made of
 *	press COLOR KIND CLOCK			a clock press: KIND start|move|idle|refused|
 *						illegal|paused|empty (7.5.3: no move made)
 *	complete PLY CLK_MS [CLOCK]		a move completed ([%clk]; -1: none); CLOCK
 *						when the clock counted it without a press
 *						(6.2.1.2, or a flag's check of the moves, 6.4)
 *	pause AUTHOR CLOCK / resume AUTHOR CLOCK	Art. 6.11.2, the arbiter
 *	mismatch EMPTY OCC / held EMPTY OCC	D.2.9 flow (hex square masks); held: kept from
 *						the player until their press (Art. 11.3.1)
 *	restored HOW				the board matches again (board|move)
 *	flag COLOR RESULT CLOCK			a flag fell (Art. 6.9); RESULT waits; *: the
 *						period's moves were made, not all completed
 *						(6.4): the arbiter decides
 *	result RESULT TERMINATION AUTHOR "REASON"	the game ended
 *	restart PLIES RUN [LAG_MS]		the daemon started again (its RUN-th start in
 *						this game) and resumed the game; LAG_MS the
 *						longest a record had waited to reach storage
 *	draw-offer AUTHOR COLOR PLY		a draw offer (9.1.2), marked at move PLY
 *	claim AUTHOR COLOR KIND MOVE CORRECT	a draw claim (9.2, 9.3); MOVE the intended
 *						move (UCI) or -; CORRECT yes|no
 *	ruling AUTHOR upheld|rejected PENALTY_MS CLOCK	the arbiter's ruling on a claim
 *						(9.5.3: a rejected one, time to the opponent)
 *	resign AUTHOR COLOR			a resignation (5.1.2)
 *	approve AUTHOR				the players approve the result (8.7)
 *	tag AUTHOR NAME "VALUE"			a PGN tag set
 *	relayed AUTHOR PLY UCI SAN		the opponent's move relayed (D.2.10)
 *	withdrawn AUTHOR PLY UCI		a move announced and corrected before its
 *						press (D.2.8); kept as a comment
 *	rollback AUTHOR PLY			the game retraced to ply PLY (D.2.9)
 *	illegal AUTHOR COLOR PLY PENALTY_MS COUNT CLOCK	the move PLY ruled illegal (7.5):
 *						retracted, the opponent given PENALTY_MS;
 *						PLY 0: COLOR's open press (no move made,
 *						7.5.3; an impossible board; the opponent's
 *						press whose move is not on the board)
 *	clock-set AUTHOR CLOCK			the arbiter set the clocks (6.10.2, 7.1)
 *	checkpoint running|recovered CLOCK	running: the running clock, journaled every
 *						GAME_CHECKPOINT_MS without a record of it, so
 *						a power cut loses at most that (6.10.2);
 *						recovered: put together at a restart from the
 *						last readings known, the journal's clock lost
 *	takeback AUTHOR PLY CLOCK		casual play: the game taken back to ply PLY
 *						(the last move pair), the clocks as they
 *						stood then (docs/training.md "Training and study")
 *
 * CLOCK is the clock's own text (clock_encode()).  AUTHOR is who gave the command: a Unix
 * user of the control socket (with "+pin" when a PIN gave the role), "script", or
 * "player" for the board's buttons.
 */
#ifndef ANNABELLA_RECORD_H
#define ANNABELLA_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"
#include "game/audience.h"
#include "game/clock.h"
#include "game/color.h"
#include "game/fairplay.h"
#include "game/result.h"
#include "game/rules.h"

#define GAME_ID_MAX	   48
#define GAME_MAX_TAGS	   16
#define GAME_TAG_NAME_MAX  32
#define GAME_TAG_VALUE_MAX 128
#define GAME_AUTHOR_MAX	   48
/* Longest record text (TYPE ARGS). */
#define GAME_RECORD_MAX 4000

/* Online play (docs/online.md "Playing online") is a mode of its own, begun by the online process.
 */
enum game_mode { GAME_TOURNAMENT = 0, GAME_CASUAL, GAME_ONLINE, GAME_MODE_COUNT };

struct game_tag {
	char name[GAME_TAG_NAME_MAX];
	char value[GAME_TAG_VALUE_MAX];
};

/* What a game is: everything the referee's rules depend on. */
struct game_params {
	char id[GAME_ID_MAX];
	int player; /* enum chess_color of the tactile player */
	enum game_mode mode;
	enum rules_edition edition;
	char time_control[64]; /* "-" for none (docs/scripts.md "Board scripts, line logs, time
				  controls") */
	char fen[CHESS_FEN_MAX];
	int tag_count;
	struct game_tag tags[GAME_MAX_TAGS]; /* PGN tags (Event, Site, Date, Round, White,
						Black, ...) */
};

enum game_record_type {
	REC_GAME = 0,
	REC_LIFT,
	REC_PLACE,
	REC_SELECT,
	REC_PROMOTION,
	REC_MADE,
	REC_PRESS,
	REC_COMPLETE,
	REC_PAUSE,
	REC_RESUME,
	REC_MISMATCH,
	REC_HELD,
	REC_RESTORED,
	REC_FLAG,
	REC_RESULT,
	REC_RESTART,
	REC_DRAW_OFFER,
	REC_CLAIM,
	REC_RESIGN,
	REC_APPROVE,
	REC_TAG,
	REC_RELAYED,
	REC_ROLLBACK,
	REC_ILLEGAL,
	REC_CLOCK_SET,
	REC_WITHDRAWN,
	REC_RULING,
	REC_CHECKPOINT,
	REC_TAKEBACK,
	REC_CLOCK_CONTROL, /* the arbiter's time control from the next move on (6.10.2) */
	REC_FAIRPLAY,	   /* the device's fair-play state, measured (game/fairplay.h) */
	REC_TYPE_COUNT
};

enum press_kind {
	PRESS_START = 0, /* the first press: the first mover's clock runs (Art. 6.6) */
	PRESS_MOVE,	 /* a completing press: the opponent's clock runs */
	PRESS_IDLE,	 /* the clock did nothing (not the presser's clock) */
	PRESS_REFUSED,	 /* a promotion without its piece: the press does not count */
	PRESS_ILLEGAL,	 /* the board shows no legal move: Art. 7.5.1 */
	PRESS_PAUSED,	 /* the clocks stand: the move completes without a reading */
	PRESS_EMPTY,	 /* the tactile player's press with no move made (7.5.3) */
	PRESS_KIND_COUNT
};

enum claim_kind { CLAIM_THREEFOLD = 0, CLAIM_FIFTY, CLAIM_KIND_COUNT };

struct game_record {
	enum game_record_type type;
	uint64_t ms; /* daemon time */
	char author[GAME_AUTHOR_MAX];
	union {
		struct game_params game;
		/* clock-set: the arbiter gave the move counters, which settle every move made
		 * before them (a move waiting for its press is not counted again). */
		bool counters_set;
		char time_control[64]; /* clock-control: the control in the TimeControl syntax */
		/* fairplay: the state measured, the policy it was judged by, whether it broke
		 * it, and what broke it first (fairplay_judge()). */
		struct {
			bool breach;
			char policy[FAIRPLAY_POLICY_MAX];
			char state[FAIRPLAY_TEXT_MAX];
			char what[FAIRPLAY_ITEM_MAX];
		} fairplay;
		struct {
			int square;
			chess_piece piece; /* lift: the game's piece touched, or 0 */
		} peg;			   /* lift and place */
		enum chess_piece_type select;
		chess_move promotion;
		struct {
			int ply; /* 1-based */
			chess_move move;
			char san[CHESS_SAN_MAX];
			int events; /* made: the board's events it consumed */
		} made, relayed;
		struct {
			int ply; /* 1-based */
			chess_move move;
		} withdrawn;
		struct {
			bool upheld;
			int64_t penalty_ms;
		} ruling;
		struct {
			int color;
			enum press_kind kind;
		} press;
		struct {
			int ply; /* 1-based */
			int64_t clk_ms;
			bool counted; /* the record carries the clock that counted it */
		} complete;
		struct {
			uint64_t empty, occupied;
		} mismatch; /* mismatch and held */
		bool restored_by_move;
		struct {
			int color;
			char result[8];
		} flag;
		struct {
			char result[8];
			enum result_termination termination;
			char reason[RESULT_REASON_MAX];
			bool replaces; /* the arbiter's, in place of a result not approved */
		} result;
		struct {
			int plies;
			int run; /* 1: the first restart of the game (0: not written) */
			/* The longest a record waited to reach storage before the power cut
			 * (the journal's `journal sync` notes; 0: not known): what the
			 * bound of the time a restart gives back adds to the checkpoints'. */
			int lag_ms;
		} restart;
		bool checkpoint_recovered;
		struct {
			int color;
			int ply; /* 1-based: the offerer's move it goes with */
		} offer;
		struct {
			int color;
			enum claim_kind kind;
			chess_move move; /* intended, or CHESS_MOVE_NONE */
			bool correct;
		} claim;
		int resign_color;
		struct game_tag tag;
		int rollback_ply; /* rollback and takeback: the plies kept */
		struct {
			int color;
			int ply; /* 1-based: the illegal move; 0: the colour's open press */
			int64_t penalty_ms;
			int count;
		} illegal;
	} u;
	/* press, pause, resume, flag, clock-set, illegal, ruling, checkpoint, takeback, a
	 * counted complete: the clock as it stands after the record (its time control is the
	 * game's). */
	struct chess_clock clock;
	/* Who may know of it (audience.h): set by the referee as it hands the record out;
	 * not journaled. */
	enum game_audience audience;
};

const char *game_record_name(enum game_record_type type);
/* Whether the record changes the scoresheet. */
bool game_record_changes_scoresheet(enum game_record_type type);
bool game_record_has_clock(enum game_record_type type);

/* The record's arguments as text (without its type); the length, or -1 if they do not fit. */
int game_record_encode(const struct game_record *r, char *buf, size_t size);
/* A record from its type and arguments, read back at time ms.  0, or -1 with a message. */
int game_record_decode(struct game_record *r, const char *type, const char *args, uint64_t ms,
		       char *err, size_t err_size);

const char *game_press_kind_name(enum press_kind kind);
const char *game_claim_kind_name(enum claim_kind kind); /* "threefold", "fifty" */
const char *game_mode_name(enum game_mode mode);	/* "tournament", "casual", "online" */

/* Tags of a game's parameters. */
const char *game_params_tag(const struct game_params *p, const char *name);
/* Set or replace a tag; -1 if there is no room or the text does not fit. */
int game_params_set_tag(struct game_params *p, const char *name, const char *value);
/* Whether the scoresheet's tag NAME is one the device writes itself (the result, the start
 * position, the time control, the journal's anchor), never a game's own. */
bool game_tag_derived(const char *name);

#endif
