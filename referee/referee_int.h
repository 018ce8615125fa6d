/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's inside, shared by its files: referee.c (events, games, output),
 * referee_board.c (the board: moves, promotion, mismatch, the game's end), referee_clock.c
 * (presses, pause, flag, warnings), referee_command.c (commands), referee_menu.c (the
 * button menu).  Internal to game/.
 */
#ifndef ANNABELLA_REFEREE_INT_H
#define ANNABELLA_REFEREE_INT_H

#include "game/menu.h"
#include "referee/referee.h"
#include "game/review.h"

struct referee {
	struct referee_settings set;
	struct game_sink sink;
	struct detect det; /* the sensors' reading of the board, rebuilt at every start */
	bool board_ready;
	bool resumed;
	uint32_t storage_lag_ms; /* referee_set_storage_lag() */
	bool scoresheet_dirty;
	bool warned[REFEREE_MAX_WARNINGS];
	int guide_next; /* the mismatch guidance's next square */
	bool select_down;
	uint64_t select_down_ms;
	bool select_hold_used; /* this hold opened the menu */
	/* repeat held since repeat_down_ms, and nothing else pressed: the last moves at
	 * hold_ms (the menu's hold) */
	bool repeat_held;
	uint64_t repeat_down_ms;
	bool cleared; /* the board was emptied since the game ended */
	struct menu menu;
	struct board_arbiter arb; /* the arbiter's menu on the buttons */
	/* The PIN budget its PINs go through (docs/control.md "Control interface", key
	 * PIN_KEY_BOARD; NULL: no menu). */
	struct pin_guard *pins;
	/* The reply of the command being carried out (referee_command()), or NULL. */
	struct game_reply *reply;
	/* Training (referee_train.c): the training process, as it said of itself. */
	struct {
		enum referee_engine_state state;
		int side;
		char name[64];
		bool hint_asked;
		int hint_ply; /* the plies of the position the hint is for */
		/* The player's draw offer and evaluation asked of it, for the plies then
		 * (referee_engine.c); the clocks it stopped when it was lost. */
		bool draw_asked, eval_asked;
		int draw_ply, eval_ply;
		bool stopped_clocks;
		/* Its clock is pressed once its move has been heard (D.2.3-D.2.4): the
		 * report that announcement gives (0: none awaited), and the latest time to
		 * press should no report come. */
		int press_report;
		uint64_t press_by;
		int press_plies; /* the game's plies with that move: a takeback cancels it */
	} engine;
	/* The report number the next MOVE effect asks for (0: none), and the last one given. */
	int report_next, report_last;
	/* Online play (referee_online.c): the online process, as it said of itself and of the
	 * server's game. */
	struct {
		enum referee_online_state state;
		unsigned offers; /* the offers standing on the server (game/online.h) */
		bool gone;	 /* the opponent left */
		bool claim_said; /* that a claim is possible was said */
		uint64_t claim_at;
	} online;
	/* The engine's move is being made on the board: each square guided and confirmed. */
	bool relay_guide;
	/* Its promotion's square when it captured: the peg there is changed for the new piece. */
	uint64_t relay_swap;
	struct review review; /* study (referee_train.c) */
	/* The device's fair-play state as the shell last measured it (referee_fairplay.c). */
	struct {
		bool have;
		struct fairplay_policy policy;
		struct fairplay_state state;
	} fairplay;
	struct game g; /* last: it is large */
};

/* A record of `type` at `ms`, all else zero. */
struct game_record ref_record(enum game_record_type type, uint64_t ms);
/* Apply a record and hand it out.  0, or -1 if it did not fit (a fault, reported). */
int ref_emit(struct referee *r, struct game_record *rec);
void ref_effect(struct referee *r, const struct game_effect *fx);
void ref_say(struct referee *r, enum game_channel ch, enum game_msg msg, uint64_t ms);

/* referee.c */
/* A fault of the referee's own (a record that did not fit): a reply to no request. */
void ref_fault(struct referee *r, uint64_t ms, const char *what);
/* The last `moves` moves of both sides said privately (repeat held, the menu, `last-moves`):
 * the plies said (0: no move yet). */
#define REFEREE_LAST_MOVES 5
int ref_last_moves(struct referee *r, int moves, uint64_t now);
/* A new game with these parameters (the id and date filled by the sink); the board is
 * followed from its start position. */
void ref_new_game(struct referee *r, const struct game_params *params, uint64_t now);

/* referee_board.c */
/* A move made: from the board, or relayed by an assistant (relayed_by: the author). */
int ref_make_move(struct referee *r, chess_move m, bool correction, const char *relayed_by,
		  uint64_t now);
int ref_withdraw_last(struct referee *r, const char *author, uint64_t now);
chess_move ref_changed_move(const struct referee *r);
void ref_mismatch_open_held(struct referee *r, uint64_t now);
void ref_setup_begin(struct referee *r, uint64_t now);
/* A restored record: the board matches the game again. */
void ref_restored(struct referee *r, bool by_move, uint64_t now);
void ref_end_game(struct referee *r, const char *result, enum result_termination term,
		  const char *reason, const char *author, uint64_t now);
void ref_settle_now(struct referee *r, uint64_t now);
void ref_mismatch_raise(struct referee *r, uint64_t empty, uint64_t occupied, uint64_t now);
bool ref_promotion_final(struct referee *r, uint64_t now);
void ref_board_ready(struct referee *r, uint64_t sensed, uint64_t now);
/* The next of the squares in `diff` (not 0) that a select press steps to, in turn. */
int ref_next_differing_square(struct referee *r, uint64_t diff);
void ref_square(struct referee *r, int sq, bool occupied, uint64_t now);
void ref_select(struct referee *r, uint64_t now);
bool ref_detecting(const struct referee *r);
void ref_poll_detect(struct referee *r, uint64_t now);

/* referee_clock.c */
void ref_press(struct referee *r, int color, uint64_t now);
/* A press record of `kind` carrying the clock after it; a complete record of ply `ply`
 * (0-based) with its [%clk] reading (-1: none). */
void ref_press_record(struct referee *r, int color, enum press_kind kind,
		      const struct chess_clock *after, uint64_t now);
void ref_complete(struct referee *r, int ply, int64_t clk, uint64_t now);
void ref_pause(struct referee *r, bool pause, const char *author, uint64_t now);
void ref_pause_button(struct referee *r, uint64_t now);
void ref_check_flag(struct referee *r, uint64_t now);
void ref_info(struct referee *r, uint64_t now);
void ref_check_warnings(struct referee *r, uint64_t now);
uint64_t ref_clock_deadline(const struct referee *r, uint64_t now);
/* The running clock journaled when no record carried it for GAME_CHECKPOINT_MS. */
void ref_checkpoint(struct referee *r, uint64_t now);
/* After a restart, privately: the time the power cut may have given back, or that the
 * clocks could not be recovered exactly. */
void ref_say_clock_gap(struct referee *r, uint64_t now);
/* The tactile player completed a period with a delay or Bronstein time (the clock before the
 * record that did it is `before`): said privately, with the main time carried into the next
 * period (6.3.2), so the player hears what happened to it. */
void ref_say_period_change(struct referee *r, const struct chess_clock *before, uint64_t now);

/* referee_command.c */
void ref_command(struct referee *r, const struct game_command *cmd, uint64_t now,
		 struct game_reply *reply);
/* The reply to the command being carried out: a code of replies.h with its arguments
 * (REPLY_ARGS(...), or NULL); a menu command's error is also said to the player. */
void ref_answer(struct referee *r, const struct game_command *cmd, uint64_t now,
		enum reply_code code, const struct reply_value *args);
/* The reply to a move (cmd->move) that is not a legal one for `side`. */
void ref_answer_not_legal(struct referee *r, const struct game_command *cmd, uint64_t now, int side,
			  const struct chess_error *err);
struct game_record ref_command_record(enum game_record_type type, const struct game_command *cmd,
				      uint64_t now);
/* A draw offer by `color` (its author's), marked at its last move and said: publicly when
 * it is the tactile player's, privately when made to them.  The ply it is marked at; -1
 * when that side has no move yet, -2 when the game refused it. */
int ref_draw_offer(struct referee *r, int color, const char *author, uint64_t now);
/* The result, said privately ("*": nothing). */
void ref_say_result(struct referee *r, const char *result, uint64_t now);

/* referee_arbiter.c */
void ref_cmd_move(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_rollback(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_illegal(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_clock_set(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_clock_control(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_clock_add(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_ruling(struct referee *r, const struct game_command *cmd, uint64_t now);

/* referee_train.c */
bool ref_casual(const struct referee *r);
/* Whether the game is in a mode the command may be given in (game_command_needs()); if not,
 * false, the command answered: no game, or not in this mode (the mode named). */
bool ref_mode_allows(struct referee *r, const struct game_command *cmd, uint64_t now);
/* A question for the engine (a hint, the evaluation) can be asked: casual play and an engine
 * playing; else false, the command answered why. */
bool ref_engine_asked(struct referee *r, const struct game_command *cmd, uint64_t now);
/* The square to put right first of those in `wrong`: a peg to take away before one to put in
 * (a move's from-square before its to-square), each from a1 on; -1 if none. */
int ref_first_wrong(uint64_t wrong, uint64_t target);
/* The square `sq` of `pos` named to the player on `ch`: what belongs there, or that it is
 * right. */
void ref_guide_square(struct referee *r, const struct chess_pos *pos, int sq, bool confirmed,
		      enum game_channel ch, uint64_t now);
void ref_cmd_hint(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_takeback(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_engine(struct referee *r, const struct game_command *cmd, uint64_t now);
/* The menu's training entry chosen. */
void ref_train_request(struct referee *r, uint64_t now);
/* The engine's relayed move: guide its squares one by one. */
void ref_relay_guide_begin(struct referee *r, uint64_t now);
/* The engine's move was made: its clock is pressed once the announcement has been heard. */
void ref_engine_press_when_said(struct referee *r, uint64_t now);
/* A report of an announcement heard (GAME_EV_SAID). */
void ref_engine_said(struct referee *r, int report, uint64_t now);
/* The engine's clock pressed now if it waits for its announcement: before anything that
 * needs the clocks as they are after its move (a press, a move, a command, the end). */
void ref_engine_press_now(struct referee *r, uint64_t now);
/* When the engine's press is due at the latest, or UINT64_MAX. */
uint64_t ref_engine_deadline(const struct referee *r);
/* A square changed: the board's guidance of the engine's move, if it is on. */
void ref_train_square(struct referee *r, int sq, uint64_t before, uint64_t now);

/* referee_engine.c */
/* engine on: what the player hears of it (its side and strength). */
void ref_engine_strength_said(struct referee *r, const struct game_command *cmd, uint64_t now);
/* The engine is gone while it played: the clocks stop, the player hears how to go on. */
void ref_engine_lost(struct referee *r, uint64_t now);
/* The tactile player offered a draw: asked of the engine. */
void ref_engine_draw_offered(struct referee *r, uint64_t now);
/* The engine's move was made: a draw offer it did not answer is declined by it. */
void ref_engine_moved(struct referee *r, uint64_t now);
/* engine draw, engine eval: the training process's answers. */
void ref_engine_answer(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_eval(struct referee *r, const struct game_command *cmd, uint64_t now);
void ref_cmd_new_game(struct referee *r, const struct game_command *cmd, uint64_t now);
/* A casual game from `start` (no game on, no review): 0, its board guided when it differs. */
int ref_new_game_from(struct referee *r, const struct chess_pos *start, uint64_t now);

/* referee_review.c */
/* A square changed during a review: guided; true when a review is on (it took the square). */
bool ref_review_square(struct referee *r, int sq, bool occupied, uint64_t before, uint64_t now);
/* A button during a review: true when the review took it. */
bool ref_review_button(struct referee *r, enum game_button b, uint64_t now);
/* The menu's "play from here": a new game from the position shown, the engine asked to play
 * where one waits. */
void ref_review_play(struct referee *r, uint64_t now);
/* The menu's "go to a move": the buttons choose the move. */
void ref_review_choose(struct referee *r, uint64_t now);
/* The review is over: the board is the game's again. */
void ref_review_finish(struct referee *r, uint64_t now);
void ref_review_tick(struct referee *r, uint64_t now);
uint64_t ref_review_deadline(const struct referee *r);
/* Set-up guidance, said with `msg` (GAME_MSG_SETUP, GAME_MSG_TAKEBACK). */
void ref_setup_begin_with(struct referee *r, enum game_msg msg, uint64_t now);
/* referee_online.c (docs/online.md "Playing online") */
void ref_cmd_online(struct referee *r, const struct game_command *cmd, uint64_t now);
/* The player's clock press in an online game: their move goes to the server. */
void ref_online_press(struct referee *r, int color, uint64_t now);
/* The player's move on the board ended the game (mate, stalemate): complete at once, so it
 * goes to the server without a press. */
void ref_online_final_move(struct referee *r, uint64_t now);
/* What the player asks of the server (the menu's online items), given to the online
 * process; said that none is there otherwise. */
void ref_online_ask(struct referee *r, int request, uint64_t now);
/* The menu's online entry: a game asked of the waiting online process. */
void ref_online_request_play(struct referee *r, uint64_t now);
/* Whether the player may claim the win or a draw now (the opponent stayed away). */
bool ref_online_claimable(const struct referee *r, uint64_t now);
/* referee_mate.c */
/* The result of a rule that gives `winner` the game unless they cannot checkmate by any
 * series of legal moves: their win, "1/2-1/2", or "*" (not proven either way). */
const char *ref_mate_result(const struct referee *r, int winner);
/* For a "*": the position the arbiter decides on, as FEN (CHESS_FEN_MAX bytes). */
void ref_mate_fen(const struct referee *r, char *buf, size_t size);

/* referee_fairplay.c */
/* The fair-play state journaled when the game (a tournament game on) has none yet or it
 * changed: at the game's start, at a restart, when the training client comes or goes. */
void ref_fairplay_check(struct referee *r, uint64_t now);

/* referee_board_arbiter.c */
/* A button for the arbiter's menu: true when it takes it (its chord, or it is open). */
bool ref_arbiter_button(struct referee *r, enum game_button b, bool down, uint64_t now);
void ref_arbiter_tick(struct referee *r, uint64_t now);
uint64_t ref_arbiter_deadline(const struct referee *r);

/* referee_menu.c */
void ref_menu_button(struct referee *r, enum game_button b, uint64_t now);
void ref_menu_tick(struct referee *r, uint64_t now);
uint64_t ref_menu_deadline(const struct referee *r);

#endif
