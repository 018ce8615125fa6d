/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the referee asks the world to do, at the level of meaning: "announce this move of
 * this position publicly", "tell the player privately that the board does not match".
 * Never words, files or sockets: the daemon's presenter renders each effect for speech,
 * braille, the clock display, the scoresheet files and watchers, each as the effect's
 * audience allows (audience.h).  Replies to commands are not effects: referee_command()
 * returns them.
 */
#ifndef ANNABELLA_EFFECT_H
#define ANNABELLA_EFFECT_H

#include <stdbool.h>
#include <stdint.h>

#include "chess/chess.h"
#include "game/audience.h"

enum game_channel { GAME_PUBLIC = 0, GAME_PRIVATE };

/* Fixed messages, in the interface language when spoken. */
enum game_msg {
	GAME_MSG_GAME_START,		/* the clock started: "Partie beginnt" */
	GAME_MSG_NEW_GAME,		/* the board set up again after a game */
	GAME_MSG_PAUSED,		/* the clocks stand (Art. 6.11.2) */
	GAME_MSG_RESUMED,		/* they run again */
	GAME_MSG_PROMOTION_PROMPT,	/* choose the promotion piece */
	GAME_MSG_PROMOTION_NEEDED,	/* a press before the piece was chosen */
	GAME_MSG_MISMATCH,		/* the board does not match the game */
	GAME_MSG_BOARD_RESTORED,	/* it matches again */
	GAME_MSG_NOTHING_TO_REPEAT,	/* `repeat` before the first move */
	GAME_MSG_RESUMED_AFTER_RESTART, /* the daemon restarted; the clocks stand */
	GAME_MSG_RESUMED_NO_CLOCK,	/* the same without a clock */
	GAME_MSG_FLAG_WHITE,		/* White's flag fell */
	GAME_MSG_FLAG_BLACK,
	GAME_MSG_CHECKMATE, /* the game ended by checkmate */
	GAME_MSG_STALEMATE,
	GAME_MSG_DEAD_POSITION,
	GAME_MSG_FIVEFOLD,
	GAME_MSG_SEVENTY_FIVE,
	GAME_MSG_ILLEGAL_MOVE,	    /* casual mode only */
	GAME_MSG_RESULT_WHITE_WINS, /* the result, to the tactile player */
	GAME_MSG_RESULT_BLACK_WINS,
	GAME_MSG_RESULT_DRAW,
	GAME_MSG_WHITE_RESIGNS,
	GAME_MSG_BLACK_RESIGNS,
	GAME_MSG_WHITE_OFFERS_DRAW, /* a draw offer: public when the tactile player makes it,
				       private when it is made to them */
	GAME_MSG_BLACK_OFFERS_DRAW,
	GAME_MSG_CLAIM_TO_ARBITER, /* a claim: the clocks stand, the arbiter decides */
	GAME_MSG_CLAIM_CORRECT,	   /* casual mode: the claim is correct */
	GAME_MSG_CLAIM_INCORRECT,  /* casual mode: it is not */
	GAME_MSG_RESULT_APPROVED,  /* the result is approved (8.7) */
	GAME_MSG_NO_RESULT,	   /* approve with no result to approve */
	GAME_MSG_MENU_OFFER_DRAW,  /* the button menu's items */
	GAME_MSG_MENU_ACCEPT_DRAW,
	GAME_MSG_MENU_CLAIM_THREEFOLD,
	GAME_MSG_MENU_CLAIM_FIFTY,
	GAME_MSG_MENU_RESIGN,
	GAME_MSG_MENU_APPROVE,
	GAME_MSG_MENU_CANCEL,
	GAME_MSG_MENU_CONFIRM_RESIGN, /* "press repeat again to resign" */
	GAME_MSG_MENU_CLOSED,
	GAME_MSG_NOT_NOW,	      /* a menu choice the game does not allow now */
	GAME_MSG_PRESS_NO_MOVE,	      /* the tactile player pressed with no move made (7.5.3) */
	GAME_MSG_SETUP,		      /* set up the position the arbiter retraced the game to */
	GAME_MSG_SETUP_DONE,	      /* the board shows it: the game goes on */
	GAME_MSG_CLOCKS_SET,	      /* the arbiter set the clocks */
	GAME_MSG_CLAIM_REJECTED,      /* the arbiter rejected the tactile player's claim */
	GAME_MSG_CORRECTION,	      /* the next move corrects the one announced before (D.2.8) */
	GAME_MSG_MENU_QUICK_GUIDE,    /* menu items: the spoken quick guide, */
	GAME_MSG_MENU_BRAILLE_SHEET,  /* the braille scoresheet on the display, page by page */
	GAME_MSG_QUICK_GUIDE_BUTTONS, /* the quick guide: the buttons, */
	GAME_MSG_QUICK_GUIDE_MENU,    /* the menu, */
	GAME_MSG_QUICK_GUIDE_SPEECH,  /* what the device says when */
	/* After a restart: up to white_ms of White's (Black's) thinking time before the power
	 * cut could not be counted; the clocks could not be recovered exactly. */
	GAME_MSG_CLOCK_GAP_WHITE,
	GAME_MSG_CLOCK_GAP_BLACK,
	GAME_MSG_CLOCK_UNCERTAIN,
	GAME_MSG_ARBITER_RESUMES, /* pause pressed while the clocks stand: the arbiter restarts
				     them (6.11.3) */
	/* Training and study (docs/training.md "Training and study"), casual mode only: */
	GAME_MSG_ENGINE_PLAYS_WHITE, /* a training process plays White with an engine */
	GAME_MSG_ENGINE_PLAYS_BLACK,
	GAME_MSG_ENGINE_OFF,	   /* it stopped: the training is over */
	GAME_MSG_ENGINE_MISSING,   /* its engine could not be started */
	GAME_MSG_ENGINE_DIED,	   /* its engine stopped */
	GAME_MSG_ENGINE_HUNG,	   /* its engine did not answer in time */
	GAME_MSG_ENGINE_NONSENSE,  /* its engine answered no legal move */
	GAME_MSG_ENGINE_GONE,	   /* its connection closed without a word */
	GAME_MSG_ENGINE_NOT_READY, /* the menu's training chosen with no training process waiting */
	GAME_MSG_TRAIN_REQUESTED,  /* it was asked to play */
	GAME_MSG_TAKEBACK,	   /* moves taken back: set up the position */
	GAME_MSG_MENU_HINT,	   /* the menu's items in casual play */
	GAME_MSG_MENU_TAKEBACK,
	GAME_MSG_MENU_TRAIN,
	GAME_MSG_MENU_END_REVIEW,
	GAME_MSG_REVIEW_SETUP,	       /* a review begins: set up its start position */
	GAME_MSG_REVIEW_READY,	       /* the board shows it: the buttons step through the game */
	GAME_MSG_REVIEW_START_OF_GAME, /* back at the start: nothing before */
	GAME_MSG_REVIEW_END_OF_GAME,   /* at the end: nothing after */
	GAME_MSG_REVIEW_ENDED,	       /* the review is over */
	GAME_MSG_REVIEW_RETURN,	       /* it is over: set the game's position up again */
	GAME_MSG_ARBITER_PIN,	       /* the arbiter's menu on the buttons: the PIN is asked for */
	GAME_MSG_ARBITER_DONE,	       /* it closed: the buttons are the player's again */
	/* Online play (docs/online.md "Playing online"): */
	GAME_MSG_ONLINE_CONNECTION_LOST,
	GAME_MSG_ONLINE_CONNECTED,
	GAME_MSG_ONLINE_TOKEN_INVALID,
	GAME_MSG_ONLINE_RATE_LIMITED,
	GAME_MSG_ONLINE_SERVER_DOWN,
	GAME_MSG_ONLINE_SEEKING,
	GAME_MSG_ONLINE_NO_OPPONENT,
	GAME_MSG_ONLINE_CHALLENGE_SENT,
	GAME_MSG_ONLINE_CHALLENGE_DECLINED,
	GAME_MSG_ONLINE_CHALLENGE_WAITING,
	GAME_MSG_ONLINE_CHALLENGE_HERE,
	GAME_MSG_ONLINE_CHALLENGE_UNPLAYABLE,
	GAME_MSG_ONLINE_TIME_CONTROL,
	GAME_MSG_ONLINE_REFUSED,
	GAME_MSG_ONLINE_TAKEBACK_DECLINED,
	GAME_MSG_ONLINE_DRAW_DECLINED,
	GAME_MSG_ONLINE_PLAYS_WHITE,
	GAME_MSG_ONLINE_PLAYS_BLACK,
	GAME_MSG_ONLINE_SETUP,
	GAME_MSG_ONLINE_MOVE_REFUSED,
	GAME_MSG_ONLINE_TAKEBACK_ASKED,
	GAME_MSG_ONLINE_TAKEBACK_SENT,
	GAME_MSG_ONLINE_OPPONENT_GONE,
	GAME_MSG_ONLINE_OPPONENT_BACK,
	GAME_MSG_ONLINE_CLAIM_POSSIBLE,
	GAME_MSG_ONLINE_ABORTED,
	GAME_MSG_ONLINE_NOT_READY,
	GAME_MSG_ONLINE_REQUESTED,
	GAME_MSG_ONLINE_GONE,
	GAME_MSG_MENU_ONLINE,
	GAME_MSG_MENU_ABORT,
	GAME_MSG_MENU_DECLINE_DRAW,
	GAME_MSG_MENU_ACCEPT_TAKEBACK,
	GAME_MSG_MENU_DECLINE_TAKEBACK,
	GAME_MSG_MENU_CLAIM_VICTORY,
	GAME_MSG_MENU_CLAIM_DRAW_GONE,
	/* A colour's period with a delay ended: the main time left (white_ms) is carried into
	 * the next period (6.3.2, docs/arbiter.md). */
	GAME_MSG_PERIOD_CARRIED_WHITE,
	GAME_MSG_PERIOD_CARRIED_BLACK,
	/* A review (docs/training.md "Going over a game"): */
	GAME_MSG_REVIEW_SETUP_FIRST,	  /* a step before the start position is on the board */
	GAME_MSG_REVIEW_END_OF_VARIATION, /* at a variation's end: nothing after */
	GAME_MSG_REVIEW_NO_VARIATION,	  /* no variation branches here, none to leave */
	GAME_MSG_REVIEW_ALOUD,		  /* the review is said on the speaker too */
	GAME_MSG_REVIEW_QUIET,		  /* in the earphone only */
	GAME_MSG_MENU_REVIEW_GOTO,	  /* the menu's items in a review */
	GAME_MSG_MENU_REVIEW_LEAVE,
	GAME_MSG_MENU_REVIEW_ALOUD,
	GAME_MSG_MENU_REVIEW_QUIET,
	GAME_MSG_MENU_GAMES,	  /* the menu's item in casual play: the finished games */
	GAME_MSG_MENU_LAST_MOVES, /* the menu's item: the last moves of both sides */
	/* Training (docs/training.md "Playing the computer"), casual play only: */
	GAME_MSG_ENGINE_PLAYS_WHITE_ELO, /* the computer plays White at Elo `count` */
	GAME_MSG_ENGINE_PLAYS_BLACK_ELO,
	GAME_MSG_ENGINE_PLAYS_WHITE_LEVEL, /* at level `count` */
	GAME_MSG_ENGINE_PLAYS_BLACK_LEVEL,
	GAME_MSG_ENGINE_ELO_LOWEST,  /* the rating asked was held to the engine's lowest, `count` */
	GAME_MSG_ENGINE_ELO_HIGHEST, /* to its highest */
	GAME_MSG_ENGINE_LOST_HOW_ON, /* the engine is gone mid-game: the clocks stand, how on */
	GAME_MSG_ENGINE_LOST_PAUSE,  /* the same, no training game in the menu */
	GAME_MSG_ENGINE_ACCEPTS_DRAW, /* the player's draw offer, answered by the engine */
	GAME_MSG_ENGINE_DECLINES_DRAW,
	GAME_MSG_MENU_EVAL,	   /* the menu's item with an engine playing: its evaluation */
	GAME_MSG_MENU_REVIEW_PLAY, /* in a review: a new game from the position shown */
	GAME_MSG_NEW_GAME_SETUP,   /* a new game from a position: set it up */
	GAME_MSG_COUNT
};

enum game_effect_kind {
	GAME_FX_SAY,	      /* msg on channel */
	GAME_FX_MOVE,	      /* announce the move `move` made from `before` (public) */
	GAME_FX_REPEAT,	      /* the last move again (private); move NONE: nothing yet */
	GAME_FX_PIECE,	      /* a promotion choice, `piece` (private) */
	GAME_FX_GUIDE,	      /* `square` should be empty / occupied (private) */
	GAME_FX_TIMES,	      /* both times and the move number (private, D.2.6.1) */
	GAME_FX_WARNING,      /* the player's time left is `white_ms` (private) */
	GAME_FX_SCORESHEET,   /* the scoresheet changed: write it */
	GAME_FX_GAME_START,   /* a new game began: open its files */
	GAME_FX_GAME_END,     /* the game ended (result in the game) */
	GAME_FX_FAULT,	      /* a record the game refused: the referee's own fault, `text` */
	GAME_FX_CLAIM,	      /* a draw claim was made by `color` (public: not whether it is
				 correct, which is the claim record's, for the arbiter) */
	GAME_FX_BRAILLE_PAGE, /* the braille scoresheet's page `page` on the display (private) */
	GAME_FX_HINT,	      /* the engine's suggestion `move` from `before` (private) */
	GAME_FX_ENGINE_ASK,   /* ask the training process: `request` (for it alone) */
	GAME_FX_REVIEW,	      /* a review's step `review`: `move` from `before`, ply `ply` of
				 `total` (private) */
	GAME_FX_AUDIT,	      /* a line of control.log for what the arbiter did at the board */
	GAME_FX_GAMES,	      /* the last `total` finished games kept, said (private) */
	GAME_FX_LAST_MOVES,   /* the game's `total` plies from ply `ply` (0-based), said
				 (private) */
	GAME_FX_ONLINE_ASK,   /* ask the online process: `online_request` (for it alone) */
	GAME_FX_EVAL,	      /* the engine's evaluation: `count` centipawns for White, or mate
				 in `mate` moves (negative: Black mates) (private) */
	GAME_FX_KIND_COUNT
};

/* What GAME_FX_ENGINE_ASK asks of the training process. */
enum game_engine_request {
	GAME_ENGINE_HINT = 0, /* the engine's best move for the player, at ply `ply` */
	GAME_ENGINE_PLAY,     /* play `color` (the button menu's training entry) */
	GAME_ENGINE_DRAW,     /* the player offers a draw at ply `ply`: accept or decline */
	GAME_ENGINE_EVAL,     /* the position's evaluation, at ply `ply` */
};

/* What a review says (GAME_FX_REVIEW): the move `move` made from `before` (NONE: at the
 * start) with its number, `ply` plies shown of the `total` of the line shown. */
enum game_review_say {
	GAME_REVIEW_NEXT = 0, /* the move made */
	GAME_REVIEW_BACK,     /* the move taken back */
	GAME_REVIEW_WHERE,    /* where we are: the last move shown, who is to move, the length */
	GAME_REVIEW_GOTO,     /* gone straight to the position after the move */
	GAME_REVIEW_ENTER,    /* into a variation: its first move made */
	GAME_REVIEW_LEAVE,    /* out of a variation: where we are on the line it left */
	GAME_REVIEW_COMMENT,  /* the last move shown again, with its comment */
	GAME_REVIEW_CHOOSE_BEGIN, /* a move to go to is chosen: how, and `move_number` */
	GAME_REVIEW_CHOOSE,	  /* the move chosen now: `move_number` (0: the start) */
};

/* "game-start", "mismatch", ...: for logs, tests and watchers. */
const char *game_msg_name(enum game_msg msg);

/* Replies to commands, and faults. */
#define GAME_REPLY_MAX 320

struct game_effect {
	enum game_effect_kind kind;
	uint64_t ms; /* daemon time of the event */
	/* Who may know of it: set by the referee as it hands the effect out (audience.h). */
	enum game_audience audience;
	enum game_channel channel;
	enum game_msg msg;
	int count; /* SAY: the number its words name ({count}); EVAL: centipawns for White */
	int mate;  /* EVAL: mate in so many moves (negative: for Black), 0: none seen */
	/* MOVE, REPEAT */
	struct chess_pos before;
	chess_move move;
	int ply;
	bool correction; /* MOVE: it replaces the move announced before (D.2.8) */
	bool relayed;	 /* MOVE: relayed to the device (an assistant's, the engine's), not made
			    on the board */
	/* MOVE: its listener has heard it already: the opponent's move, which the opponent
	 * announced (D.2.1), or any move in training, where no sighted opponent needs the
	 * player's own said.  The next move may cut its announcement short; the tactile
	 * player's own move against a person is the move's announcement (D.2.3.3), said
	 * whole. */
	bool echo;
	/* MOVE: tell the referee when its announcement has been heard to its end
	 * (GAME_EV_SAID with this number), or 0 */
	int report;
	/* PIECE */
	enum chess_piece_type piece;
	/* GUIDE */
	int square;
	bool occupied;	 /* the square should hold a peg (of `piece`) */
	bool confirmed;	 /* it does now (set-up guidance confirms each square) */
	bool after_move; /* GUIDE: the first square of a move just announced; SAY: words about
			    that move (the engine's move declining a draw): said after it */
	/* TIMES, WARNING; SAY of a clock gap: white_ms */
	bool has_clock;
	int64_t white_ms, black_ms;
	int move_number;		      /* of the position: the move to be made next */
	int moves_made;			      /* the number of the last move on the scoresheet */
	int64_t white_used_ms, black_used_ms; /* TIMES: the time each has used in the game */
	int64_t delay_ms; /* TIMES, delay mode: the delay left of `delay_color`; -1: none */
	int delay_color;
	/* BRAILLE_PAGE: 1 the first; past the last page, the first again */
	int page;
	/* CLAIM: the claimant and the kind (enum claim_kind); `move` the intended move */
	int color;
	int claim;
	/* ENGINE_ASK */
	enum game_engine_request request;
	/* ONLINE_ASK: enum game_online_request (online.h); `color` the player, `ply` the plies */
	int online_request;
	/* REVIEW */
	enum game_review_say review;
	int total;
	int move_number_at; /* REVIEW: the move number of `move` ("12" of "12. Nf3") */
	int line;	    /* REVIEW: the line shown: 0 the game's, else a variation */
	int variations;	    /* REVIEW: the variations that branch here (other next moves) */
	/* REVIEW: the comment on `move` (before the first move: the game's or the variation's
	 * opening comment), valid while the effect is handed out, or NULL; said in full, or
	 * only that there is one ([training] review-comments = request) */
	const char *comment;
	bool comment_said;
	struct chess_pos shown; /* REVIEW: the position the board is to show */
	/* FAULT; AUDIT: the reply's text */
	char text[GAME_REPLY_MAX];
	/* AUDIT: what was done at the board (the arbiter's menu), for control.log: the command
	 * as a line (a PIN tried: "auth ****", never its digits), its author and role, and
	 * whether its reply is a success */
	char command[160]; /* GAME_COMMAND_LINE_MAX */
	char author[48];   /* GAME_AUTHOR_MAX */
	int role;	   /* enum game_role */
	bool ok;
};

#endif
