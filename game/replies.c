/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The replies' table and their wording (replies.h).  Each row: the code's name, whether it
 * is a success, its arguments and its English wording.  The names are a contract
 * (docs/control.md "Reply codes"): a row may be added, never renamed; web/codes.js words every
 * one in de, en, sv and nl (tests/check-codes.sh).
 */
#include "game/replies.h"

#include <stdio.h>
#include <string.h>

#define OK  true
#define ERR false

/* An illegal move's ruling with a clock: the clocks after it, and what it took back of
 * each side's (a time and moves on the counter; taken_back: the same in English). */
#define CLOCKS_BACK                                                                                \
	"[white] [black] [white_moves] [black_moves] [white_back] [white_back_moves] "             \
	"[black_back] [black_back_moves] [taken_back]"
#define CLOCKS_BACK_WORDING                                                                        \
	"[; clocks White {white}, Black {black}, moves {white_moves}/{black_moves}][; taken "      \
	"back: {taken_back}]"

static const struct reply_row rows[REPLY_CODE_COUNT] = {
    [REPLY_NONE] = {"none", ERR, "", "no reply"},
    [REPLY_BAD_ARGS] = {"bad-args", ERR, "code",
			"the reply {code} was given other arguments than its table names"},
    /* The request line and its parsing. */
    [REPLY_OUT_OF_MEMORY] = {"out-of-memory", ERR, "", "out of memory"},
    [REPLY_REQUEST_TOO_LONG] = {"request-too-long", ERR, "max", "request longer than {max} bytes"},
    [REPLY_REQUEST_NUL] = {"request-nul", ERR, "", "request holds a NUL byte"},
    [REPLY_REQUEST_CONTROL_CHARACTER] = {"request-control-character", ERR, "",
					 "request holds a control character"},
    [REPLY_REQUEST_NOT_UTF8] = {"request-not-utf8", ERR, "",
				"request holds text that is not UTF-8"},
    [REPLY_EMPTY_REQUEST] = {"empty-request", ERR, "", "empty request"},
    [REPLY_UNKNOWN_COMMAND] = {"unknown-command", ERR, "command",
			       "unknown command '{command}' (help lists them)"},
    [REPLY_USAGE] = {"usage", ERR, "command usage", "usage: {usage}"},
    [REPLY_NO_ARGUMENTS] = {"no-arguments", ERR, "command", "{command} takes no arguments"},
    [REPLY_WANT_COLOR] = {"want-color", ERR, "word", "'{word}': white or black"},
    [REPLY_TAG_NAME_TOO_LONG] = {"tag-name-too-long", ERR, "max", "tag name too long"},
    [REPLY_TAG_VALUE_TOO_LONG] = {"tag-value-too-long", ERR, "max",
				  "tag value too long (at most {max} bytes)"},
    [REPLY_NOT_A_MOVE] = {"not-a-move", ERR, "word", "'{word}' is not a move"},
    [REPLY_WANT_CLAIM_KIND] = {"want-claim-kind", ERR, "word",
			       "'{word}': threefold or fifty (or uphold|reject)"},
    [REPLY_WANT_RESULT] = {"want-result", ERR, "word", "'{word}': 1-0, 0-1 or 1/2-1/2"},
    [REPLY_REASON_TOO_LONG] = {"reason-too-long", ERR, "max",
			       "reason too long (at most {max} bytes)"},
    [REPLY_WANT_TIMES] = {"want-times", ERR, "usage", "times are H:MM:SS: {usage}"},
    [REPLY_WANT_MOVE_COUNTERS] = {"want-move-counters", ERR, "usage",
				  "move counters are numbers: {usage}"},
    [REPLY_WANT_PLY] = {"want-ply", ERR, "word", "'{word}': a ply number, 0 for the start"},
    [REPLY_WANT_RELAY_PLY] = {"want-relay-ply", ERR, "word",
			      "'{word}': the ply (a number from 1) or the move number (12. for "
			      "White's, 12... for Black's) the move is for"},
    [REPLY_PIN_TOO_LONG] = {"pin-too-long", ERR, "", "PIN too long"},
    [REPLY_WANT_NAME] = {"want-name", ERR, "word",
			 "'{word}': a name of at most 16 letters, digits, - and _"},
    [REPLY_WANT_EXPORT_FORMAT] = {"want-export-format", ERR, "word",
				  "'{word}': pgn, text, brf or unicode"},
    /* Who may give it, and what it needs of the game. */
    [REPLY_NOT_ALLOWED_ROLE] = {"not-allowed-role", ERR, "command role",
				"not allowed for this role"},
    [REPLY_NO_GAME] = {"no-game", ERR, "", "no game yet"},
    [REPLY_NOT_IN_MODE] = {"not-in-mode", ERR, "mode", "not allowed in {mode} mode"},
    [REPLY_NO_CLOCK] = {"no-clock", ERR, "", "the game has no clock"},
    [REPLY_GAME_CLOSED] = {"game-closed", ERR, "result",
			   "the result is approved: the game is closed"},
    [REPLY_GAME_OVER] = {"game-over", ERR, "result", "the game is over: {result}"},
    [REPLY_FLAG_PENDING] = {"flag-pending", ERR, "color",
			    "{color}'s flag has fallen: the arbiter rules on it first"},
    /* The handlers of the rows that do not change the game. */
    [REPLY_STATUS] = {"status", OK, "", NULL},
    [REPLY_MOVES] = {"moves", OK, "", NULL},
    [REPLY_HELP] = {"help", OK, "", NULL},
    [REPLY_EXPORT] = {"export", OK, "format", NULL},
    [REPLY_GAMES] = {"games", OK, "count", NULL},
    [REPLY_GAMES_UNREADABLE] = {"games-unreadable", ERR, "",
				"the finished games kept on the device cannot be read"},
    [REPLY_WANT_GAMES_COUNT] = {"want-games-count", ERR, "word max",
				"'{word}': how many games (1 to {max})"},
    [REPLY_RENDER_FAILED] = {"render-failed", ERR, "format", "cannot render the scoresheet"},
    [REPLY_COMPARE_AGREE] = {"compare-agree", OK, "agree device_plies their_plies [unreadable]",
			     "{agree} of {device_plies} plies agree; the scoresheets agree[; "
			     "'{unreadable}' after ply {their_plies} is not a legal move]"},
    [REPLY_COMPARE_DIFFER] = {"compare-differ", OK,
			      "agree device_plies their_plies ply move_number device theirs "
			      "[unreadable]",
			      "{agree} of {device_plies} plies agree; ply {ply} (move "
			      "{move_number}) differs: {device} on the device, {theirs} on "
			      "theirs[; '{unreadable}' after ply {their_plies} is not a legal "
			      "move]"},
    [REPLY_COMPARE_THEIRS_SHORT] = {"compare-theirs-short", OK,
				    "agree device_plies their_plies ply move_number device "
				    "[unreadable]",
				    "{agree} of {device_plies} plies agree; theirs ends before "
				    "ply {ply} (move {move_number}, {device} on the device)[; "
				    "'{unreadable}' after ply {their_plies} is not a legal move]"},
    [REPLY_COMPARE_THEIRS_LONG] = {"compare-theirs-long", OK,
				   "agree device_plies their_plies theirs [unreadable]",
				   "{agree} of {device_plies} plies agree; theirs goes on after "
				   "the device's last ply ({theirs})[; '{unreadable}' after ply "
				   "{their_plies} is not a legal move]"},
    [REPLY_WATCH_NEEDS_CONNECTION] = {"watch-needs-connection", ERR, "",
				      "watch needs a connection"},
    [REPLY_WATCHING] = {"watching", OK, "", "watching"},
    [REPLY_WATCHING_PUBLIC] = {"watching-public", OK, "", "watching public events"},
    [REPLY_AUTH] = {"auth", OK, "role", "{role}"},
    [REPLY_NOTATION] =
	{"notation", OK, "lang letters",
	 "moves on this connection are read with the piece letters {letters} ({lang}) "
	 "besides the English and German ones"},
    [REPLY_WRONG_PIN] = {"wrong-pin", ERR, "", "wrong PIN"},
    /* The control socket's refusals of a client and of PINs. */
    [REPLY_TOO_MANY_CLIENTS] = {"too-many-clients", ERR, "max", "too many clients ({max})"},
    [REPLY_ARBITERS_PLACES] = {"arbiters-places", ERR, "places",
			       "too many clients: the last {places} places are kept for the "
			       "arbiters"},
    [REPLY_TOO_MANY_USER_CONNECTIONS] = {"too-many-user-connections", ERR, "max",
					 "too many connections of this user (at most {max})"},
    [REPLY_FDS_KEPT] = {"fds-kept", ERR, "",
			"too many clients: the file descriptors left are kept for the game's "
			"files"},
    [REPLY_NO_FD_LEFT] = {"no-fd-left", ERR, "", "too many clients: no file descriptor left"},
    [REPLY_PIN_WAIT] = {"pin-wait", ERR, "seconds", "too many wrong PINs: wait {seconds} s"},
    [REPLY_WRONG_PIN_WAIT] = {"wrong-pin-wait", ERR, "seconds",
			      "wrong PIN; the next is checked in {seconds} s"},
    /* The referee. */
    [REPLY_NO_REPLY] = {"no-reply", ERR, "", "no reply from the game"},
    [REPLY_NOT_APPLIED] = {"not-applied", ERR, "what", "the {what} does not fit the game"},
    [REPLY_TAG_NAME_BAD] = {"tag-name-bad", ERR, "tag",
			    "'{tag}' is not a tag name: a letter, then letters, digits and _"},
    [REPLY_TAG_RESERVED] = {"tag-reserved", ERR, "tag",
			    "{tag} is written by the device from the game"},
    [REPLY_TAG_NO_ROOM] = {"tag-no-room", ERR, "tag", "no room for another tag"},
    [REPLY_TAG_SET] = {"tag-set", OK, "tag", "{tag} set"},
    [REPLY_DRAW_OFFER_NO_MOVE] = {"draw-offer-no-move", ERR, "color",
				  "a draw is offered after making a move (9.1.2.1): {color} has "
				  "made none"},
    [REPLY_DRAW_OFFER_NO_MOVES] = {"draw-offer-no-moves", ERR, "",
				   "a draw is offered after making a move (9.1.2.1): no move has "
				   "been made"},
    [REPLY_DRAW_OFFERED] = {"draw-offered", OK, "color move_number",
			    "draw offer by {color} with move {move_number}"},
    [REPLY_NO_DRAW_OFFER] = {"no-draw-offer", ERR, "", "no draw offer to accept"},
    [REPLY_DRAW_AGREED] = {"draw-agreed", OK, "", "draw agreed"},
    [REPLY_CLAIM_WHOSE] = {"claim-whose", ERR, "kind",
			   "whose claim? claim {kind} white|black [MOVE]: the arbiter names the "
			   "claimant"},
    [REPLY_CLAIM_MOVE_MADE] = {"claim-move-made", ERR, "color",
			       "{color} has made a move on the board, not yet completed: it is "
			       "the move the claim intends (claim without MOVE)"},
    [REPLY_CLAIM_NOT_ON_MOVE] = {"claim-not-on-move", ERR, "color on_move_color",
				 "{color} cannot claim now: {on_move_color} is on move (9.2, "
				 "9.3: the player on move claims)"},
    [REPLY_NOT_LEGAL] = {"not-legal", ERR, "move color why detail",
			 "'{move}' is not a legal move for {color}: {detail}"},
    /* made: the claimant's own move, made and not completed, that the verdict assumed. */
    [REPLY_CLAIM_CORRECT] = {"claim-correct", OK, "kind color [made]",
			     "{kind} claim by {color} is correct[, made after {made} was made on "
			     "the board (the claimant no longer has the move: 1.3, 9.4)]"},
    [REPLY_CLAIM_NOT_CORRECT] = {"claim-not-correct", OK, "kind color [made]",
				 "{kind} claim by {color} is not correct[, made after {made} was "
				 "made on the board (the claimant no longer has the move: 1.3, "
				 "9.4)]"},
    [REPLY_CLAIM_MADE] = {"claim-made", OK, "kind color",
			  "{kind} claim by {color}: the clocks stand for the arbiter"},
    [REPLY_RESIGN_NO_SIDE] = {"resign-no-side", ERR, "", "resign needs the side: white or black"},
    [REPLY_RESIGNED] = {"resigned", OK, "color result", "{color} resigns: {result}"},
    [REPLY_RESULT_BAD] = {"result-bad", ERR, "result", "result must be 1-0, 0-1 or 1/2-1/2"},
    [REPLY_RESULT_NO_REASON] = {"result-no-reason", ERR, "result",
				"result needs a reason (agreed draw, claim upheld, ...)"},
    [REPLY_RESULT_SET] = {"result-set", OK, "result reason", "{result}, {reason}"},
    [REPLY_RESULT_REPLACED] = {"result-replaced", OK, "result reason before",
			       "{result}, {reason} (in place of {before}, not approved)"},
    [REPLY_RESULT_APPROVED_ALREADY] = {"result-approved-already", ERR, "result",
				       "the result {result} is approved already"},
    [REPLY_NO_RESULT_YET] = {"no-result-yet", ERR, "", "no result to approve: the game is on"},
    [REPLY_NO_RESULT_TO_APPROVE] = {"no-result-to-approve", ERR, "", "no result to approve"},
    [REPLY_FLAG_UNDECIDED] =
	{"flag-undecided", ERR, "color article",
	 "{color}'s flag fell with the period's moves made and not all "
	 "completed ({article}): the arbiter decides (result, or clock set and "
	 "resume)"},
    [REPLY_RESULT_APPROVED] = {"result-approved", OK, "result", "result {result} approved"},
    [REPLY_CLOCKS_NOT_RUNNING] = {"clocks-not-running", ERR, "", "the clocks are not running"},
    [REPLY_CLOCKS_NOT_PAUSED] = {"clocks-not-paused", ERR, "", "the clocks are not paused"},
    [REPLY_CLOCKS_PAUSED] = {"clocks-paused", OK, "", "clocks paused"},
    [REPLY_CLOCKS_RUNNING] = {"clocks-running", OK, "color", "clocks running: {color}'s"},
    [REPLY_CLOCKS_RUNNING_PRESS] = {"clocks-running-press", OK, "color pressed_color ply name",
				    "clocks running: {color}'s; {pressed_color} pressed while they "
				    "stood, completing {name} (no reading, no increment), so "
				    "{pressed_color}'s clock no longer runs"},
    [REPLY_CLOCKS_RUNNING_PRESS_UNSEEN] = {"clocks-running-press-unseen", OK, "color pressed_color",
					   "clocks running: {color}'s; {pressed_color} pressed "
					   "while they stood, completing their move on the "
					   "opponent's board (no reading, no increment), so "
					   "{pressed_color}'s clock no longer runs"},
    [REPLY_NOT_OPPONENTS_TURN] = {"not-opponents-turn", ERR, "color",
				  "it is not the opponent's turn"},
    [REPLY_RELAY_IN_GAME] = {"relay-in-game", OK, "ply name", "{name} is in the game already"},
    [REPLY_RELAY_TOO_LATE] = {"relay-too-late", ERR, "ply name",
			      "{name} was completed by the opponent's press: too late to correct "
			      "it (D.2.8); the arbiter may roll back"},
    [REPLY_RELAY_NOT_WITHDRAWN] = {"relay-not-withdrawn", ERR, "ply name",
				   "{name} cannot be withdrawn"},
    [REPLY_RELAYED] = {"relayed", OK, "ply name", "{name} relayed"},
    [REPLY_RELAYED_CORRECTION] = {"relayed-correction", OK, "ply name replaced",
				  "{name} relayed as a correction"},
    [REPLY_RELAY_TAKEN] = {"relay-taken", ERR, "ply name by move",
			   "ply {ply} is {name}, relayed by {by}: {move} not taken (only the "
			   "one who relayed a move corrects it, D.2.8; or the arbiter)"},
    [REPLY_RELAY_PAST] =
	{"relay-past", ERR, "ply name plies",
	 "ply {ply} is {name}, and the game has {plies} {plies|ply|plies}: too late to relay "
	 "or correct it; the arbiter may roll back"},
    [REPLY_RELAY_AHEAD] = {"relay-ahead", ERR, "ply plies next",
			   "the game has {plies} {plies|ply|plies}: the next to relay is ply "
			   "{next}, not {ply}"},
    [REPLY_RELAY_PLAYERS_PLY] = {"relay-players-ply", ERR, "ply color",
				 "ply {ply} is {color}'s move, the tactile player's: a relayed "
				 "move is the opponent's"},
    [REPLY_RELAY_BEFORE_START] = {"relay-before-start", ERR, "move_number first",
				  "the game begins with move {first}: there is no move "
				  "{move_number} in it"},
    [REPLY_ROLLBACK_NO_MOVES] = {"rollback-no-moves", ERR, "",
				 "the game has no moves yet: there is nothing to roll back"},
    [REPLY_ROLLBACK_RANGE] = {"rollback-range", ERR, "plies last",
			      "the game has {plies} {plies|ply|plies}: rollback takes a ply from 0 "
			      "(the start) to {last}"},
    [REPLY_RETRACED] = {"retraced", OK, "ply name later",
			"retraced to ply {ply} (after {name}); {later} later {later|ply|plies} "
			"kept as a comment; the clocks stay until set"},
    [REPLY_RETRACED_START] = {"retraced-start", OK, "ply later",
			      "retraced to ply {ply} (after the start); {later} later "
			      "{later|ply|plies} kept as a comment; the clocks stay until set"},
    [REPLY_ILLEGAL_NO_MOVE] = {"illegal-no-move", ERR, "color",
			       "no completed move or press of {color} to rule on"},
    [REPLY_ILLEGAL_NO_MOVE_ANY] = {"illegal-no-move-any", ERR, "",
				   "no completed move or press of either side to rule on"},
    [REPLY_EMPTY_PRESS_NOT_ILLEGAL] = {"empty-press-not-illegal", ERR, "color edition article",
				       "{color}'s press with no move made: not an illegal move "
				       "in the {edition} Laws (no article like 7.5.3; {article}); "
				       "set the clocks with clock set"},
    [REPLY_ILLEGAL_TOO_LATE] = {"illegal-too-late", ERR,
				"ply name color other_color edition article",
				"{name}: {other_color} has moved since; under {edition} the "
				"illegal move stands ({article})"},
    [REPLY_ILLEGAL_PRESS_TOO_LATE] = {"illegal-press-too-late", ERR,
				      "color press detail other_color edition article",
				      "{color}'s press {detail}: {other_color} has moved since; "
				      "under {edition} the illegal move stands ({article})"},
    [REPLY_ILLEGAL_ENDS] = {"illegal-ends", OK, "ply name color count result article",
			    "{name} illegal: {color}'s illegal move number {count} ends the "
			    "game: {result} ({article})"},
    [REPLY_ILLEGAL_PRESS_ENDS] = {"illegal-press-ends", OK,
				  "color press detail count result article",
				  "{color}'s press {detail} illegal: {color}'s illegal move number "
				  "{count} ends the game: {result} ({article})"},
    [REPLY_ILLEGAL_RULED] =
	{"illegal-ruled", OK,
	 "ply name color count penalty penalty_ms other_color article " CLOCKS_BACK,
	 "{name} illegal: {color}'s illegal move number {count}; +{penalty} "
	 "to {other_color} ({article})" CLOCKS_BACK_WORDING},
    [REPLY_ILLEGAL_PRESS_RULED] = {"illegal-press-ruled", OK,
				   "color press detail count penalty penalty_ms other_color "
				   "article " CLOCKS_BACK,
				   "{color}'s press {detail} illegal: {color}'s illegal move "
				   "number {count}; +{penalty} to {other_color} "
				   "({article})" CLOCKS_BACK_WORDING},
    [REPLY_CLOCK_NOT_APPLIED] = {"clock-not-applied", ERR, "",
				 "the setting does not fit the clock"},
    [REPLY_CLOCKS_SET] = {"clocks-set", OK, "white black white_ms black_ms",
			  "clocks set: White {white}, Black {black}"},
    /* clock control TC (6.10.2): detail says what is wrong, in English. */
    [REPLY_WANT_TIME_CONTROL] = {"want-time-control", ERR, "text detail",
				 "'{text}' is no time control for this game: {detail}"},
    /* delay_periods: periods with a delay or Bronstein time that another period follows, at
     * whose end the main time left is carried over (docs/arbiter.md "The clock and the
     * rulings, for the arbiter"). */
    [REPLY_TIME_CONTROL_SET] = {"time-control-set", OK, "time_control [delay_periods]",
				"time control {time_control} from now on; the times and move "
				"counters stand (clock set corrects them)[; at the end of "
				"{delay_periods} {delay_periods|period|periods} with a delay the "
				"main time left is carried into the next (6.3.2)]"},
    [REPLY_CLOCK_ADDED] = {"clock-added", OK, "color time time_ms white black",
			   "{time} added to {color}'s clock: White {white}, Black {black}"},
    [REPLY_NO_CLAIM] = {"no-claim", ERR, "", "no claim to rule on"},
    [REPLY_CLAIM_UPHELD] = {"claim-upheld", OK, "result", "claim upheld: {result}"},
    [REPLY_CLAIM_REJECTED] =
	{"claim-rejected", OK,
	 "penalty penalty_ms color article [claimant_color] [cut_from] "
	 "[cut_to]",
	 "claim rejected: +{penalty} to {color} ({article})[, "
	 "{claimant_color}'s time cut from {cut_from} to {cut_to}]; the clocks "
	 "run"},
    /* Training and study (docs/training.md "Training and study"). */
    [REPLY_WANT_GAME_ID] = {"want-game-id", ERR, "word", "'{word}' is not a game id"},
    [REPLY_NO_SUCH_GAME] = {"no-such-game", ERR, "game", "no game {game} under games/"},
    [REPLY_GAME_UNREADABLE] = {"game-unreadable", ERR, "game",
			       "cannot read the scoresheet of {game} under games/"},
    [REPLY_ENGINE_NAME_TOO_LONG] = {"engine-name-too-long", ERR, "max",
				    "engine name too long (at most {max} bytes)"},
    [REPLY_WANT_HINT_PLY] = {"want-hint-ply", ERR, "word", "'{word}': the ply the hint is for"},
    [REPLY_ENGINE_ELSEWHERE] = {"engine-elsewhere", ERR, "",
				"another connection is the training process"},
    [REPLY_HINT_NOT_ENGINE] = {"hint-not-engine", ERR, "",
			       "only the training process answers a hint"},
    [REPLY_ENGINE_WATCH_FIRST] =
	{"engine-watch-first", ERR, "",
	 "watch first: the requests to the training process come as events"},
    [REPLY_ENGINE_SIDE_TAKEN] =
	{"engine-side-taken", ERR, "color engine_color",
	 "the tactile player plays {color} in this game: the engine plays {engine_color}"},
    [REPLY_ENGINE_PLAYS] = {"engine-plays", OK, "engine color", "{engine} plays {color}"},
    [REPLY_ENGINE_OFF] = {"engine-off", OK, "[end]", "engine off[: {end}]"},
    [REPLY_ENGINE_WAITING] = {"engine-waiting", OK, "",
			      "waiting for the button menu's training entry"},
    [REPLY_NO_HINT_ASKED] = {"no-hint-asked", ERR, "ply", "no hint is asked for ply {ply}"},
    [REPLY_HINT_SAID] = {"hint-said", OK, "move", "hint said: {move}"},
    [REPLY_NO_ENGINE] = {"no-engine", ERR, "",
			 "no engine is connected: a hint comes from `annabella train`"},
    [REPLY_HINT_NOT_ON_MOVE] = {"hint-not-on-move", ERR, "color",
				"a hint is for the tactile player's move: {color} is on move"},
    [REPLY_HINT_ASKED] = {"hint-asked", OK, "engine", "hint asked of {engine}"},
    [REPLY_TAKEBACK_NOTHING] = {"takeback-nothing", ERR, "color",
				"nothing to take back: {color} has made no move"},
    [REPLY_TAKEN_BACK] =
	{"taken-back", OK, "plies ply name",
	 "{plies} {plies|ply|plies} taken back, to after {name}; set the position up"},
    [REPLY_TAKEN_BACK_START] =
	{"taken-back-start", OK, "plies",
	 "{plies} {plies|ply|plies} taken back, to the start; set the position up"},
    [REPLY_REVIEW_HAS_BOARD] = {"review-has-board", ERR, "",
				"a review has the board: review end first"},
    [REPLY_REVIEW_ON] = {"review-on", ERR, "", "a review is on: review end first"},
    [REPLY_REVIEW_TRAINING_ON] = {"review-training-on", ERR, "",
				  "a training game is on: its engine must stop first"},
    [REPLY_REVIEW_GAME_ON] = {"review-game-on", ERR, "plies",
			      "a game is being played ({plies} {plies|ply|plies}): a review takes "
			      "the board once it has ended"},
    [REPLY_REVIEW_BAD_FEN] = {"review-bad-fen", ERR, "column detail",
			      "the review's FEN, column {column}: {detail}"},
    [REPLY_REVIEW_LOADING] = {"review-loading", OK, "", "loading a review"},
    [REPLY_REVIEW_NOT_LOADING] = {"review-not-loading", ERR, "",
				  "no review is being loaded: review load first"},
    [REPLY_REVIEW_MOVE_NOT_LEGAL] =
	{"review-move-not-legal", ERR, "number move",
	 "move {number} of the review, '{move}': not a legal move there (UCI)"},
    [REPLY_REVIEW_TOO_MANY_MOVES] = {"review-too-many-moves", ERR, "number move max",
				     "move {number} of the review, '{move}': too many moves"},
    [REPLY_REVIEW_ADDED] = {"review-added", OK, "added count",
			    "{added} {added|move|moves} added, {count} in all"},
    [REPLY_REVIEW_NOT_ALLOWED] = {"review-not-allowed", ERR, "",
				  "the game no longer allows a review"},
    [REPLY_REVIEW_BEGUN] = {"review-begun", OK, "plies",
			    "review of {plies} {plies|ply|plies}: set up its start position"},
    [REPLY_REVIEW_DROPPED] = {"review-dropped", OK, "", "review dropped"},
    [REPLY_REVIEW_ENDED] = {"review-ended", OK, "", "review ended"},
    [REPLY_REVIEW_ENDED_RETURN] = {"review-ended-return", OK, "",
				   "review ended: set the game's position up again"},
    [REPLY_REVIEW_OVER] = {"review-over", ERR, "",
			   "the review is over: the game's position is being set up"},
    [REPLY_NO_REVIEW] = {"no-review", ERR, "", "no review is on"},
    [REPLY_REVIEW_AT_END] = {"review-at-end", ERR, "plies",
			     "the review is at its last move ({plies})"},
    [REPLY_REVIEW_AT_START] = {"review-at-start", ERR, "", "the review is at its start"},
    [REPLY_REVIEW_AT] = {"review-at", OK, "ply plies", "at ply {ply} of {plies}"},
    [REPLY_REVIEW_AT_VARIATION] = {"review-at-variation", OK, "ply plies line",
				   "at ply {ply} of {plies}, in variation {line}"},
    [REPLY_WANT_REVIEW_MOVE] = {"want-review-move", ERR, "word",
				"'{word}': a move number (12 for White's move, 12... for Black's), "
				"start or end"},
    [REPLY_WANT_REVIEW_LINE] =
	{"want-review-line", ERR, "word",
	 "'{word}': a line (0 the game's, or a variation's number) or a ply"},
    [REPLY_REVIEW_LINE_ADDED] = {"review-line-added", OK, "line parent ply",
				 "variation {line}: from ply {ply} of line {parent}"},
    [REPLY_REVIEW_TOO_MANY_LINES] = {"review-too-many-lines", ERR, "max",
				     "too many variations (at most {max})"},
    [REPLY_REVIEW_NO_SUCH_MOVE] = {"review-no-such-move", ERR, "line ply",
				   "line {line} has no move at ply {ply}"},
    [REPLY_REVIEW_ANNOTATED] = {"review-annotated", OK, "line ply",
				"comment at ply {ply} of line {line}"},
    [REPLY_REVIEW_COMMENTS_FULL] = {"review-comments-full", ERR, "max",
				    "no room for more comments ({max} bytes in all)"},
    [REPLY_REVIEW_NOT_SET_UP] = {"review-not-set-up", ERR, "squares",
				 "set the board up first: {squares} {squares|square|squares} to "
				 "put right"},
    [REPLY_REVIEW_NO_VARIATION] = {"review-no-variation", ERR, "", "no variation branches here"},
    [REPLY_REVIEW_IN_GAME_LINE] = {"review-in-game-line", ERR, "",
				   "the review shows the game's own line, no variation"},
    [REPLY_REVIEW_ALOUD] = {"review-aloud", OK, "", "the review is said on the speaker too"},
    [REPLY_REVIEW_QUIET] = {"review-quiet", OK, "", "the review is said in the earphone only"},
    [REPLY_LAST_MOVES_SAID] = {"last-moves-said", OK, "count moves",
			       "the last {count} {count|ply|plies} said to the player: {moves}"},
    [REPLY_NO_MOVE_YET] = {"no-move-yet", ERR, "", "no move has been made yet"},
    [REPLY_WANT_MOVE_COUNT] = {"want-move-count", ERR, "word max",
			       "'{word}': how many moves of each side (1 to {max})"},
    [REPLY_ENGINE_NOT_SELF] = {"engine-not-self", ERR, "",
			       "only the training process answers for its engine"},
    [REPLY_WANT_ENGINE_STRENGTH] = {"want-engine-strength", ERR, "word",
				    "'{word}': a rating or level (elo N [asked N] | level N)"},
    [REPLY_ENGINE_DECLINES_DRAW] = {"engine-declines-draw", OK, "engine",
				    "{engine} declines the draw"},
    [REPLY_EVAL_ASKED] = {"eval-asked", OK, "engine", "evaluation asked of {engine}"},
    [REPLY_NO_EVAL_ASKED] = {"no-eval-asked", ERR, "ply", "no evaluation is asked for ply {ply}"},
    [REPLY_WANT_EVAL] =
	{"want-eval", ERR, "word",
	 "'{word}': centipawns for White, or moves to mate (negative: Black mates)"},
    [REPLY_NO_DRAW_ASKED] = {"no-draw-asked", ERR, "",
			     "no draw offer of the player's stands for the engine to answer"},
    [REPLY_EVAL_SAID] = {"eval-said", OK, "centipawns",
			 "evaluation said: {centipawns} centipawns for White"},
    [REPLY_EVAL_SAID_MATE] = {"eval-said-mate", OK, "color moves",
			      "evaluation said: {color} mates in {moves} {moves|move|moves}"},
    [REPLY_NEW_GAME_BAD_FEN] = {"new-game-bad-fen", ERR, "column detail",
				"the new game's FEN, column {column}: {detail}"},
    [REPLY_NEW_GAME_BEGUN] = {"new-game-begun", OK, "game differ",
			      "game {game} begun; {differ} {differ|square|squares} to set up"},
    [REPLY_NEW_GAME_GAME_ON] = {"new-game-game-on", ERR, "plies",
				"a game is being played ({plies} {plies|ply|plies}): a new one "
				"begins once it has ended"},
/* A rule's result left to the arbiter: whether the other side can still checkmate by
 * any series of legal moves is not proven either way (docs/arbiter.md "Who can still
 * checkmate"); the position is `fen`, `result` the win in question. */
#define MATE_QUESTION                                                                              \
	"can {winner_color} still mate from {fen}? the arbiter decides: result {result} or "       \
	"1/2-1/2"
    [REPLY_RESIGNED_UNDECIDED] = {"resigned-undecided", OK, "color winner_color fen result",
				  "{color} resigns; " MATE_QUESTION},
    [REPLY_ILLEGAL_ENDS_UNDECIDED] =
	{"illegal-ends-undecided", OK, "ply name color count winner_color fen result article",
	 "{name} illegal: {color}'s number {count} ends the game; " MATE_QUESTION},
    [REPLY_ILLEGAL_PRESS_ENDS_UNDECIDED] = {"illegal-press-ends-undecided", OK,
					    "color press detail count winner_color fen result "
					    "article",
					    "{color}'s press {detail} illegal: {color}'s number "
					    "{count} ends the game; " MATE_QUESTION},
    [REPLY_APPROVE_UNDECIDED] = {"approve-undecided", ERR, "reason",
				 "no result to approve yet: the arbiter decides it ({reason})"},
    [REPLY_FLAG_MATE_UNDECIDED] = {"flag-mate-undecided", ERR, "color winner_color fen",
				   "no result to approve yet: the arbiter decides it ({color}'s "
				   "flag fell; can {winner_color} still mate from {fen}?)"},
    /* Online play (docs/online.md "Playing online"). */
    [REPLY_ONLINE_ELSEWHERE] = {"online-elsewhere", ERR, "",
				"another connection is the online process"},
    [REPLY_ONLINE_NOT_SELF] = {"online-not-self", ERR, "", "only the online process says that"},
    [REPLY_ONLINE_WATCH_FIRST] = {"online-watch-first", ERR, "",
				  "watch first: the requests to the online process come as events"},
    [REPLY_ONLINE_SERVER_ONLY] =
	{"online-server-only", ERR, "",
	 "an online game's moves, offers, clocks and result come from the server"},
    [REPLY_ONLINE_ON] = {"online-on", OK, "", "the online process is connected"},
    [REPLY_ONLINE_OFF] = {"online-off", OK, "", "online play off"},
    [REPLY_ONLINE_WAITING] = {"online-waiting", OK, "",
			      "waiting for the button menu's online entry"},
    [REPLY_ONLINE_SAID] = {"online-said", OK, "news", "the news ({news}) said to the player"},
    [REPLY_ONLINE_BEGUN] = {"online-begun", OK, "id color",
			    "online game {id} begun: the tactile player plays {color}"},
    [REPLY_ONLINE_RESUMED] = {"online-resumed", OK, "id", "online game {id} goes on"},
    [REPLY_ONLINE_GAME_ON] = {"online-game-on", ERR, "plies",
			      "a game is on ({plies} {plies|ply|plies}): finish it first"},
    [REPLY_ONLINE_BAD_GAME] = {"online-bad-game", ERR, "value",
			       "the device cannot play the server's game: {value}"},
    [REPLY_ONLINE_PLY_AHEAD] =
	{"online-ply-ahead", ERR, "ply plies",
	 "ply {ply} does not follow: the game has {plies} {plies|ply|plies}"},
    [REPLY_ONLINE_NOT_LEGAL] = {"online-not-legal", ERR, "ply move",
				"the server's ply {ply}, {move}, is not a legal move here"},
    [REPLY_ONLINE_IN_STEP] = {"online-in-step", OK, "ply name", "ply {ply} is {name} here too"},
    [REPLY_ONLINE_PLY_DIFFERS] = {"online-ply-differs", ERR, "ply name",
				  "ply {ply} is {name} here: set the game back first"},
    [REPLY_ONLINE_MOVE] = {"online-move", OK, "ply name", "the server's ply {ply}: {name}"},
    [REPLY_ONLINE_CLOCK] = {"online-clock", OK, "white black",
			    "clocks as the server's: White {white}, Black {black}"},
    [REPLY_ONLINE_BACK] =
	{"online-back", OK, "ply plies",
	 "the game as the server's, after ply {ply}; {plies} {plies|ply|plies} taken back"},
    [REPLY_ONLINE_NOT_AN_END] = {"online-not-an-end", ERR, "status",
				 "'{status}' is no end of a game"},
    [REPLY_ONLINE_RESULT] = {"online-result", OK, "result reason",
			     "the server's result: {result} ({reason})"},
    [REPLY_ONLINE_OFFERS] = {"online-offers", OK, "offers",
			     "the offers on the server ({offers}) noted"},
    [REPLY_ONLINE_OPPONENT_GONE] = {"online-opponent-gone", OK, "seconds",
				    "the opponent left the game: a claim in {seconds} s"},
    [REPLY_ONLINE_OPPONENT_BACK] = {"online-opponent-back", OK, "", "the opponent is back"},
    [REPLY_WANT_ONLINE_WORD] = {"want-online-word", ERR, "word",
				"'{word}' is not a word of `online`"},
#undef MATE_QUESTION
};

#undef OK
#undef ERR
#undef CLOCKS_BACK
#undef CLOCKS_BACK_WORDING

const struct reply_row *reply_row(enum reply_code code)
{
	return (unsigned)code < REPLY_CODE_COUNT && rows[code].name ? &rows[code] : &rows[0];
}

enum reply_code reply_code_parse(const char *name)
{
	for (int i = 0; i < REPLY_CODE_COUNT; i++)
		if (rows[i].name && !strcmp(rows[i].name, name))
			return (enum reply_code)i;
	return REPLY_NONE;
}

const char *game_reply_arg_text(const struct game_reply *reply, int i)
{
	if (i < 0 || i >= reply->argc || reply->args[i].number)
		return NULL;
	return reply->pool + reply->args[i].at;
}

const struct reply_arg *game_reply_find(const struct game_reply *reply, const char *key)
{
	for (int i = 0; i < reply->argc; i++)
		if (!strcmp(reply->args[i].key, key))
			return &reply->args[i];
	return NULL;
}

/* The next key of a row's argument list after *p: its bounds, and whether it is optional
 * ("[key]").  false at the end. */
static bool next_key(const char **p, const char **key, size_t *len, bool *optional)
{
	const char *s = *p;

	while (*s == ' ')
		s++;
	if (!*s)
		return false;
	*optional = *s == '[';
	if (*optional)
		s++;
	*key = s;
	*len = strcspn(s, " ]");
	s += *len;
	if (*s == ']')
		s++;
	*p = s;
	return true;
}

/* Whether the given arguments are the row's, in its order, optional ones left out; each
 * given key then points at the table's own (static) text. */
static bool args_fit(const struct reply_row *row, const struct reply_value *args, const char **keys,
		     int *count)
{
	const char *p = row->args, *key;
	size_t len;
	bool optional;
	int n = 0;

	while (next_key(&p, &key, &len, &optional)) {
		if (args && args[n].key && strlen(args[n].key) == len &&
		    !strncmp(args[n].key, key, len)) {
			if (n == REPLY_ARGS_MAX)
				return false;
			keys[n] = args[n].key;
			n++;
			continue;
		}
		if (!optional)
			return false;
	}
	*count = n;
	return !args || !args[n].key;
}

static int game_reply_word(const char *wording, const struct game_reply *reply, char *buf,
			   size_t size);

static void set_bad_args(struct game_reply *reply, enum reply_code code)
{
	const struct reply_value bad[] = {REPLY_S("code", reply_row(code)->name), {0}};

	game_reply_set(reply, REPLY_BAD_ARGS, bad);
}

void game_reply_set(struct game_reply *reply, enum reply_code code, const struct reply_value *args)
{
	const struct reply_row *row = reply_row(code);
	const char *keys[REPLY_ARGS_MAX];
	size_t used = 0;
	int count = 0;

	if (!args_fit(row, args, keys, &count)) {
		set_bad_args(reply, code);
		return;
	}
	reply->ok = row->ok;
	reply->code = code;
	reply->argc = count;
	for (int i = 0; i < count; i++) {
		struct reply_arg *a = &reply->args[i];

		/* The key as given: the same text as the table's, and a literal. */
		a->key = keys[i];
		a->number = args[i].number;
		a->n = args[i].n;
		a->at = (uint16_t)used;
		if (!a->number) {
			const char *s = args[i].s ? args[i].s : "";
			size_t n = strlen(s), room = sizeof(reply->pool) - used;

			/* Cut short rather than lost when the pool is full (the last byte stays
			 * for the empty strings after it). */
			if (n >= room)
				n = room - 1;
			memcpy(reply->pool + used, s, n);
			reply->pool[used + n] = '\0';
			used += n + 1;
			if (used > sizeof(reply->pool) - 1)
				used = sizeof(reply->pool) - 1;
		}
	}
	reply->text[0] = '\0';
	if (row->wording &&
	    game_reply_word(row->wording, reply, reply->text, sizeof(reply->text)) < 0)
		snprintf(reply->text, sizeof(reply->text), "%s", row->name);
}

/* ------------------------------------------------------------------ wording */

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len - 1;

		memcpy(o->buf + o->len, s, n < room ? n : room);
		o->buf[o->len + (n < room ? n : room)] = '\0';
	}
	o->len += n;
}

static const struct reply_arg *find_n(const struct game_reply *reply, const char *key, size_t n)
{
	for (int i = 0; i < reply->argc; i++)
		if (strlen(reply->args[i].key) == n && !strncmp(reply->args[i].key, key, n))
			return &reply->args[i];
	return NULL;
}

/* One {...} mark at *p (after its '{'): written to o, or checked only (o NULL).  -1 when
 * malformed, 0 when its argument is missing, 1 when worded. */
static int mark(const char **p, const struct game_reply *reply, struct out *o)
{
	const char *s = *p, *end = strchr(s, '}'), *bar;
	const struct reply_arg *a;
	size_t keylen;

	if (!end)
		return -1;
	bar = memchr(s, '|', (size_t)(end - s));
	keylen = (size_t)((bar ? bar : end) - s);
	*p = end + 1;
	if (!keylen)
		return -1;
	a = find_n(reply, s, keylen);
	if (!a)
		return 0;
	if (!o)
		return 1;
	if (bar) {
		/* {key|one|other} */
		const char *one = bar + 1, *bar2 = memchr(one, '|', (size_t)(end - one));

		if (!bar2)
			return -1;
		if (a->number && a->n == 1)
			put(o, one, (size_t)(bar2 - one));
		else
			put(o, bar2 + 1, (size_t)(end - bar2 - 1));
	} else if (a->number) {
		char num[24];

		snprintf(num, sizeof(num), "%lld", (long long)a->n);
		put(o, num, strlen(num));
	} else {
		const char *v = reply->pool + a->at;

		put(o, v, strlen(v));
	}
	return 1;
}

/* Whether the '[' at s opens an optional part: a ']' closes it and a mark is inside. */
static const char *optional_end(const char *s)
{
	const char *close = strchr(s + 1, ']');
	const char *mark = strchr(s + 1, '{');

	return close && mark && mark < close ? close : NULL;
}

/* Text from *p up to `stop` ('\0', or ']' inside an optional part), marks worded into o
 * (NULL: checked only).  0, -1 when malformed, -2 when an argument is missing. */
static int span(const char **p, char stop, const struct game_reply *reply, struct out *o)
{
	const char *s = *p, *close;

	while (*s && *s != stop) {
		if (*s == '{') {
			int rc;

			s++;
			rc = mark(&s, reply, o);
			if (rc <= 0)
				return rc < 0 ? -1 : -2;
		} else if (*s == '[' && stop != ']' && (close = optional_end(s))) {
			/* [optional]: worded when every argument in it is given. */
			const char *inside = s + 1, *check = inside;
			int rc = span(&check, ']', reply, NULL);

			if (rc == -1)
				return -1;
			if (rc == 0 && o)
				span(&inside, ']', reply, o);
			s = close + 1;
		} else {
			/* Plain text, brackets without a mark in them included ("[MOVE]"). */
			size_t n = 1 + strcspn(s + 1, stop == ']' ? "{[]" : "{[");

			if (o)
				put(o, s, n);
			s += n;
		}
	}
	*p = s;
	return 0;
}

/* Word a template with the reply's arguments (the marks of replies.h) into buf; the length it
 * needed (as snprintf), or -1 if the template is malformed (an unclosed mark, a key not
 * among the arguments outside an optional part). */
static int game_reply_word(const char *wording, const struct game_reply *reply, char *buf,
			   size_t size)
{
	struct out o = {.buf = buf, .size = size};
	const char *p = wording;

	if (size)
		buf[0] = '\0';
	/* Outside an optional part a missing argument is as malformed as an unclosed mark. */
	if (span(&p, '\0', reply, &o))
		return -1;
	return (int)o.len;
}
