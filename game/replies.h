/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The replies to requests (docs/control.md "Reply codes"): every reply the referee, the command
 * table and its handlers give is a code from one table (replies.c) with its arguments, and its
 * English text is that code's wording built from those arguments.  A reply's `text` or `error` and
 * its `code` and `args` therefore cannot say different things, and a program or a page words the
 * code in its own language from the same arguments (web/codes.js: de, en, sv, nl).  Pure.
 *
 * A wording is plain text with three marks:
 *   {key}             the argument's value;
 *   {key|one|other}   "one" when the (number) argument is 1, else "other";
 *   [...]             with a mark inside: the text between the brackets only when every
 *                     argument named in it is given (an optional part: "[; '{unreadable}'
 *                     is not a move]"); brackets without a mark are text ("[MOVE]").
 * Arguments are strings or numbers, given in the order the table names them; an optional
 * one is left out.  Arguments whose key is `color` or ends in `_color` hold white|black;
 * `kind` a claim's kind (threefold|fifty), `mode` tournament|casual, `role`
 * assistant|arbiter|player, `what` what did not fit the game, `why` why a move is not a
 * legal one (syntax, no-such-move, ambiguous, promotion-piece), `press` the kind of a
 * clock press that completed no move on the tactile board (empty, illegal, move, paused:
 * as `status` names it), `end` how a training engine stopped (normal, missing, died, hung,
 * nonsense): words a page translates; `detail` says `why` or `press` (or what is wrong
 * with a FEN) in English, `taken_back` in English what the `*_back` arguments give.
 */
#ifndef ANNABELLA_REPLIES_H
#define ANNABELLA_REPLIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/effect.h" /* GAME_REPLY_MAX */

enum reply_code {
	REPLY_NONE = 0, /* no reply given */
	REPLY_BAD_ARGS, /* a reply given other arguments than its row names (a bug) */
	/* The request line and its parsing (control/protocol.c). */
	REPLY_OUT_OF_MEMORY,
	REPLY_REQUEST_TOO_LONG,
	REPLY_REQUEST_NUL,
	REPLY_REQUEST_CONTROL_CHARACTER,
	REPLY_REQUEST_NOT_UTF8,
	REPLY_EMPTY_REQUEST,
	REPLY_UNKNOWN_COMMAND,
	REPLY_USAGE,
	REPLY_NO_ARGUMENTS,
	REPLY_WANT_COLOR,
	REPLY_TAG_NAME_TOO_LONG,
	REPLY_TAG_VALUE_TOO_LONG,
	REPLY_NOT_A_MOVE,
	REPLY_WANT_CLAIM_KIND,
	REPLY_WANT_RESULT,
	REPLY_REASON_TOO_LONG,
	REPLY_WANT_TIMES,
	REPLY_WANT_MOVE_COUNTERS,
	REPLY_WANT_PLY,
	REPLY_WANT_RELAY_PLY,
	REPLY_PIN_TOO_LONG,
	REPLY_WANT_NAME,
	REPLY_WANT_EXPORT_FORMAT,
	/* Who may give it, and what it needs of the game (the command table). */
	REPLY_NOT_ALLOWED_ROLE,
	REPLY_NO_GAME,
	REPLY_NOT_IN_MODE,
	REPLY_NO_CLOCK,
	REPLY_GAME_CLOSED,
	REPLY_GAME_OVER,
	REPLY_FLAG_PENDING,
	/* The handlers of the rows that do not change the game. */
	REPLY_STATUS,
	REPLY_MOVES,
	REPLY_HELP,
	REPLY_EXPORT,
	REPLY_GAMES,
	REPLY_GAMES_UNREADABLE,
	REPLY_WANT_GAMES_COUNT,
	REPLY_RENDER_FAILED,
	REPLY_COMPARE_AGREE,
	REPLY_COMPARE_DIFFER,
	REPLY_COMPARE_THEIRS_SHORT,
	REPLY_COMPARE_THEIRS_LONG,
	REPLY_WATCH_NEEDS_CONNECTION,
	REPLY_WATCHING,
	REPLY_WATCHING_PUBLIC,
	REPLY_AUTH,
	REPLY_NOTATION,
	REPLY_WRONG_PIN,
	/* The control socket's refusals of a client (daemon/ctlsock_accept.c) and of PINs
	 * (daemon/ctlsock.c). */
	REPLY_TOO_MANY_CLIENTS,
	REPLY_ARBITERS_PLACES,
	REPLY_TOO_MANY_USER_CONNECTIONS,
	REPLY_FDS_KEPT,
	REPLY_NO_FD_LEFT,
	REPLY_PIN_WAIT,
	REPLY_WRONG_PIN_WAIT,
	/* The referee: commands that change the game. */
	REPLY_NO_REPLY,
	REPLY_NOT_APPLIED,
	REPLY_TAG_NAME_BAD,
	REPLY_TAG_RESERVED,
	REPLY_TAG_NO_ROOM,
	REPLY_TAG_SET,
	REPLY_DRAW_OFFER_NO_MOVE,
	REPLY_DRAW_OFFER_NO_MOVES,
	REPLY_DRAW_OFFERED,
	REPLY_NO_DRAW_OFFER,
	REPLY_DRAW_AGREED,
	REPLY_CLAIM_WHOSE,
	REPLY_CLAIM_MOVE_MADE,
	REPLY_CLAIM_NOT_ON_MOVE,
	REPLY_NOT_LEGAL,
	REPLY_CLAIM_CORRECT,
	REPLY_CLAIM_NOT_CORRECT,
	REPLY_CLAIM_MADE,
	REPLY_RESIGN_NO_SIDE,
	REPLY_RESIGNED,
	REPLY_RESULT_BAD,
	REPLY_RESULT_NO_REASON,
	REPLY_RESULT_SET,
	REPLY_RESULT_REPLACED,
	REPLY_RESULT_APPROVED_ALREADY,
	REPLY_NO_RESULT_YET,
	REPLY_NO_RESULT_TO_APPROVE,
	REPLY_FLAG_UNDECIDED,
	REPLY_RESULT_APPROVED,
	REPLY_CLOCKS_NOT_RUNNING,
	REPLY_CLOCKS_NOT_PAUSED,
	REPLY_CLOCKS_PAUSED,
	REPLY_CLOCKS_RUNNING,
	REPLY_CLOCKS_RUNNING_PRESS,
	REPLY_CLOCKS_RUNNING_PRESS_UNSEEN,
	REPLY_NOT_OPPONENTS_TURN,
	REPLY_RELAY_IN_GAME,
	REPLY_RELAY_TOO_LATE,
	REPLY_RELAY_NOT_WITHDRAWN,
	REPLY_RELAYED,
	REPLY_RELAYED_CORRECTION,
	REPLY_RELAY_TAKEN,
	REPLY_RELAY_PAST,
	REPLY_RELAY_AHEAD,
	REPLY_RELAY_PLAYERS_PLY,
	REPLY_RELAY_BEFORE_START,
	REPLY_ROLLBACK_NO_MOVES,
	REPLY_ROLLBACK_RANGE,
	REPLY_RETRACED,
	REPLY_RETRACED_START,
	REPLY_ILLEGAL_NO_MOVE,
	REPLY_ILLEGAL_NO_MOVE_ANY,
	REPLY_EMPTY_PRESS_NOT_ILLEGAL,
	REPLY_ILLEGAL_TOO_LATE,
	REPLY_ILLEGAL_PRESS_TOO_LATE,
	REPLY_ILLEGAL_ENDS,
	REPLY_ILLEGAL_PRESS_ENDS,
	REPLY_ILLEGAL_RULED,
	REPLY_ILLEGAL_PRESS_RULED,
	REPLY_CLOCK_NOT_APPLIED,
	REPLY_CLOCKS_SET,
	REPLY_WANT_TIME_CONTROL,
	REPLY_TIME_CONTROL_SET,
	REPLY_CLOCK_ADDED,
	REPLY_NO_CLAIM,
	REPLY_CLAIM_UPHELD,
	REPLY_CLAIM_REJECTED,
	/* Training and study (docs/training.md "Training and study"): the training process,
	   takeback and review. */
	REPLY_WANT_GAME_ID,
	REPLY_NO_SUCH_GAME,
	REPLY_GAME_UNREADABLE,
	REPLY_ENGINE_NAME_TOO_LONG,
	REPLY_WANT_HINT_PLY,
	REPLY_ENGINE_ELSEWHERE,
	REPLY_HINT_NOT_ENGINE,
	REPLY_ENGINE_WATCH_FIRST,
	REPLY_ENGINE_SIDE_TAKEN,
	REPLY_ENGINE_PLAYS,
	REPLY_ENGINE_OFF,
	REPLY_ENGINE_WAITING,
	REPLY_NO_HINT_ASKED,
	REPLY_HINT_SAID,
	REPLY_NO_ENGINE,
	REPLY_HINT_NOT_ON_MOVE,
	REPLY_HINT_ASKED,
	REPLY_TAKEBACK_NOTHING,
	REPLY_TAKEN_BACK,
	REPLY_TAKEN_BACK_START,
	REPLY_REVIEW_HAS_BOARD,
	REPLY_REVIEW_ON,
	REPLY_REVIEW_TRAINING_ON,
	REPLY_REVIEW_GAME_ON,
	REPLY_REVIEW_BAD_FEN,
	REPLY_REVIEW_LOADING,
	REPLY_REVIEW_NOT_LOADING,
	REPLY_REVIEW_MOVE_NOT_LEGAL,
	REPLY_REVIEW_TOO_MANY_MOVES,
	REPLY_REVIEW_ADDED,
	REPLY_REVIEW_NOT_ALLOWED,
	REPLY_REVIEW_BEGUN,
	REPLY_REVIEW_DROPPED,
	REPLY_REVIEW_ENDED,
	REPLY_REVIEW_ENDED_RETURN,
	REPLY_REVIEW_OVER,
	REPLY_NO_REVIEW,
	REPLY_REVIEW_AT_END,
	REPLY_REVIEW_AT_START,
	REPLY_REVIEW_AT,
	REPLY_REVIEW_AT_VARIATION,
	REPLY_WANT_REVIEW_MOVE,
	REPLY_WANT_REVIEW_LINE,
	REPLY_REVIEW_LINE_ADDED,
	REPLY_REVIEW_TOO_MANY_LINES,
	REPLY_REVIEW_NO_SUCH_MOVE,
	REPLY_REVIEW_ANNOTATED,
	REPLY_REVIEW_COMMENTS_FULL,
	REPLY_REVIEW_NOT_SET_UP,
	REPLY_REVIEW_NO_VARIATION,
	REPLY_REVIEW_IN_GAME_LINE,
	REPLY_REVIEW_ALOUD,
	REPLY_REVIEW_QUIET,
	REPLY_LAST_MOVES_SAID,
	REPLY_NO_MOVE_YET,
	REPLY_WANT_MOVE_COUNT,
	REPLY_ENGINE_NOT_SELF,
	REPLY_WANT_ENGINE_STRENGTH,
	REPLY_ENGINE_DECLINES_DRAW,
	REPLY_EVAL_ASKED,
	REPLY_NO_EVAL_ASKED,
	REPLY_NO_DRAW_ASKED,
	REPLY_WANT_EVAL,
	REPLY_EVAL_SAID,
	REPLY_EVAL_SAID_MATE,
	REPLY_NEW_GAME_BAD_FEN,
	REPLY_NEW_GAME_BEGUN,
	REPLY_NEW_GAME_GAME_ON,
	/* A rule's result left to the arbiter: can the other side still mate? */
	REPLY_RESIGNED_UNDECIDED,
	REPLY_ILLEGAL_ENDS_UNDECIDED,
	REPLY_ILLEGAL_PRESS_ENDS_UNDECIDED,
	REPLY_APPROVE_UNDECIDED,
	REPLY_FLAG_MATE_UNDECIDED,
	/* Online play (docs/online.md "Playing online"). */
	REPLY_ONLINE_ELSEWHERE,
	REPLY_ONLINE_NOT_SELF,
	REPLY_ONLINE_WATCH_FIRST,
	REPLY_ONLINE_SERVER_ONLY,
	REPLY_ONLINE_ON,
	REPLY_ONLINE_OFF,
	REPLY_ONLINE_WAITING,
	REPLY_ONLINE_SAID,
	REPLY_ONLINE_BEGUN,
	REPLY_ONLINE_RESUMED,
	REPLY_ONLINE_GAME_ON,
	REPLY_ONLINE_BAD_GAME,
	REPLY_ONLINE_PLY_AHEAD,
	REPLY_ONLINE_NOT_LEGAL,
	REPLY_ONLINE_IN_STEP,
	REPLY_ONLINE_PLY_DIFFERS,
	REPLY_ONLINE_MOVE,
	REPLY_ONLINE_CLOCK,
	REPLY_ONLINE_BACK,
	REPLY_ONLINE_NOT_AN_END,
	REPLY_ONLINE_RESULT,
	REPLY_ONLINE_OFFERS,
	REPLY_ONLINE_OPPONENT_GONE,
	REPLY_ONLINE_OPPONENT_BACK,
	REPLY_WANT_ONLINE_WORD,
	REPLY_CODE_COUNT
};

/* One argument as a caller gives it: REPLY_S("move", text) or REPLY_N("ply", 12). */
struct reply_value {
	const char *key; /* NULL ends a list */
	const char *s;
	int64_t n;
	bool number;
};
#define REPLY_S(k, v) ((struct reply_value){.key = (k), .s = (v)})
#define REPLY_N(k, v) ((struct reply_value){.key = (k), .n = (int64_t)(v), .number = true})
/* A list of arguments for game_reply_set(): REPLY_ARGS(REPLY_S(...), REPLY_N(...)). */
#define REPLY_ARGS(...) ((const struct reply_value[]){__VA_ARGS__, {0}})

#define REPLY_ARGS_MAX 20
#define REPLY_POOL_MAX 512

/* A reply's arguments put together one by one (in its row's order), for a reply whose
 * optional arguments depend on the case: `args.v` is a REPLY_ARGS list. */
struct reply_list {
	struct reply_value v[REPLY_ARGS_MAX + 1]; /* ends with {0} */
	int n;
};
static inline void reply_add(struct reply_list *l, struct reply_value v)
{
	if (l->n < REPLY_ARGS_MAX)
		l->v[l->n++] = v;
}

/* A reply: its code, its arguments as given, and its English text. */
struct game_reply {
	bool ok;
	enum reply_code code;
	int argc;
	struct reply_arg {
		const char *key; /* as given: a literal */
		bool number;
		int64_t n;
		uint16_t at; /* a string's place in pool */
	} args[REPLY_ARGS_MAX];
	char pool[REPLY_POOL_MAX];
	char text[GAME_REPLY_MAX]; /* the code's wording (an error, or what was done) */
};

/* What the table says of a code. */
struct reply_row {
	const char *name;    /* "not-legal": stable, for programs and pages */
	bool ok;	     /* a success, or an error */
	const char *args;    /* its arguments' keys, space-separated, in order ("" for none);
				a key in [] is optional: "agree device_plies [unreadable]" */
	const char *wording; /* its English text; NULL for a reply whose data is the answer
				(status, moves, help, export): no text */
};
const struct reply_row *reply_row(enum reply_code code);
/* The code of a name, or REPLY_NONE. */
enum reply_code reply_code_parse(const char *name);

/* Set *reply to `code` with `args` (NULL or a REPLY_ARGS list): ok from the table, the
 * arguments copied, the text worded.  Arguments that are not the row's (in its order,
 * optional ones left out) make it REPLY_BAD_ARGS naming the code. */
void game_reply_set(struct game_reply *reply, enum reply_code code, const struct reply_value *args);
/* The string value of argument i (NULL for a number). */
const char *game_reply_arg_text(const struct game_reply *reply, int i);
/* The argument of a key, or NULL. */
const struct reply_arg *game_reply_find(const struct game_reply *reply, const char *key);

#endif
