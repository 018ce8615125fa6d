/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Every utterance the referee can make, with its channel and the condition under which it is
 * made in tournament mode (Art. 11.3.1, 12.6: no advice; never that the opponent moved or
 * that a press is missing).  test_tournament checks this list against the game's messages
 * and against the README's table for arbiters; test_property checks every utterance of its
 * tournament games against it.  Utterances marked casual-only must never be heard in a
 * tournament.
 */
#ifndef ANNABELLA_TEST_UTTERANCES_H
#define ANNABELLA_TEST_UTTERANCES_H

#include <stdbool.h>
#include <string.h>

struct tournament_utterance {
	const char *name;    /* game_msg_name(), or the effect: move, repeat, piece, ... */
	const char *channel; /* public, private, or "public or private" */
	bool tournament;     /* may be said in tournament mode */
	const char *when;
};

static const struct tournament_utterance utterances[] = {
    {"move", "public", true,
     "a move is made: the board shows it (settle time or press), or an assistant relays it"},
    {"correction", "public", true,
     "before a move that replaces one announced before the opponent's press (D.2.8)"},
    {"game-start", "private", true, "the clock was started"},
    {"new-game", "private", true, "the board was set up for the next game after a result"},
    {"paused", "private", true,
     "the clocks were stopped (the player's pause, the arbiter), or the player pressed while "
     "they stand"},
    {"resumed", "private", true, "the arbiter started the clocks again"},
    {"arbiter-resumes", "private", true,
     "pause pressed while the clocks stand: the arbiter starts them again (6.11.3)"},
    {"resumed-after-restart", "private", true, "the device restarted; the clocks stand"},
    {"resumed-no-clock", "private", true, "the device restarted in a game without a clock"},
    {"clock-gap-white", "private", true,
     "after resumed-after-restart: up to how much of White's running time the power cut "
     "gave back (not counted; the arbiter decides)"},
    {"clock-gap-black", "private", true, "the same for Black's running time"},
    {"period-carried-white", "private", true,
     "White completed a period with a delay: the main time left is carried into the next "
     "(6.3.2), said with the time"},
    {"period-carried-black", "private", true, "the same for Black"},
    {"clock-uncertain", "private", true,
     "after resumed-after-restart: the clocks' records were lost; they stand at the last "
     "readings known until the arbiter resumes or sets them"},
    {"promotion-prompt", "private", true,
     "a pawn reached the last rank on the board: choose the piece with select"},
    {"promotion-needed", "private", true,
     "the player pressed after their own promotion before choosing its piece"},
    {"piece", "private", true, "select stepped the promotion piece"},
    {"mismatch", "private", true,
     "the board shows no legal move: at the player's press of an impossible board, or when "
     "replicating the opponent's move, or (without a clock) when the opponent's reply reaches "
     "the board or at pause; never during the player's own move"},
    {"guide", "private", true,
     "select during the mismatch flow or a set-up: the next square that differs, with its piece "
     "(a casual review said aloud: on the speaker too)"},
    {"board-restored", "private", true, "the board matches the game again"},
    {"setup", "private", true, "the arbiter retraced the game: set that position up"},
    {"setup-done", "private", true, "the board shows the retraced position"},
    {"repeat", "private", true, "repeat: the last move"},
    {"nothing-to-repeat", "private", true, "repeat before the first move (held too)"},
    {"last-moves", "private", true,
     "repeat held, the menu's last moves or last-moves: the last five moves of both sides (the "
     "player's scoresheet read out)"},
    {"menu-last-moves", "private", true, "menu item, after the help, once a move is made"},
    {"times", "private", true,
     "info: both remaining times (or the time used, [clock] info) and the moves made"},
    {"warning", "private", true, "the player's own time fell below a [clock] warnings mark"},
    {"press-no-move", "private", true,
     "after the player's press, when it completed no move (7.5.3)"},
    {"flag-white", "public or private", true,
     "White's flag fell and the period's moves were not made (6.4, 6.9); public, or private "
     "where the arbiter does not point a flag out (2005 rapid and blitz, B7) or as [clock] "
     "flag-announce says; nothing with flag-announce = off"},
    {"flag-black", "public or private", true, "Black's flag fell: as for White"},
    {"checkmate", "public", true, "the move made was checkmate (5.1.1)"},
    {"stalemate", "public", true, "the move made was stalemate (5.2.1)"},
    {"dead-position", "private", true, "the move made left a dead position (5.2.2)"},
    {"fivefold", "public", false, "casual mode: fivefold repetition (9.6.1)"},
    {"seventy-five", "public", false, "casual mode: 75 moves (9.6.2)"},
    {"illegal-move", "private", false, "casual mode: the board shows an illegal move"},
    {"white-resigns", "public", true, "White resigned (menu or assistant)"},
    {"black-resigns", "public", true, "Black resigned (menu or assistant)"},
    {"white-offers-draw", "public or private", true,
     "White offered a draw: public when the tactile player offers, private when offered to "
     "them"},
    {"black-offers-draw", "public or private", true, "Black offered a draw: as for White"},
    {"claim-to-arbiter", "private", true,
     "the player's claim went to the arbiter; the clocks stand"},
    {"claim-rejected", "private", true, "the arbiter rejected the player's claim"},
    {"claim-correct", "private", false, "casual mode: the claim is correct"},
    {"claim-incorrect", "private", false, "casual mode: the claim is not"},
    {"result-white-wins", "public or private", true,
     "a result was given (arbiter: private; an illegal move that loses: public)"},
    {"result-black-wins", "public or private", true, "as for White"},
    {"result-draw", "public or private", true,
     "a draw result was given, agreed (public) or ruled (private)"},
    {"result-approved", "private", true, "the result was approved (8.7)"},
    {"no-result", "private", true, "approve with no result to approve"},
    {"clocks-set", "private", true, "the arbiter set the clocks"},
    {"menu-offer-draw", "private", true, "the player's menu item: offer a draw"},
    {"menu-accept-draw", "private", true, "menu item, only while the opponent's offer stands"},
    {"menu-claim-threefold", "private", true, "menu item, only on the player's turn"},
    {"menu-claim-fifty", "private", true, "menu item, only on the player's turn"},
    {"menu-resign", "private", true, "menu item: resign"},
    {"menu-approve", "private", true, "menu item, only while a result waits"},
    {"menu-cancel", "private", true, "menu item: cancel"},
    {"menu-confirm-resign", "private", true, "after choosing resign: press repeat again"},
    {"menu-closed", "private", true, "the menu closed (cancel, or menu-ms unused)"},
    {"not-now", "private", true, "a menu choice the game does not allow now"},
    {"menu-quick-guide", "private", true, "menu item, after cancel: the spoken quick guide"},
    {"menu-braille-sheet", "private", true,
     "menu item, after the quick guide, only with a braille display: the scoresheet on it"},
    {"quick-guide-buttons", "private", true,
     "the quick guide chosen: the buttons (a move's announcement cuts the guide short)"},
    {"quick-guide-menu", "private", true, "the quick guide, next: the menu and its items"},
    {"quick-guide-speech", "private", true,
     "the quick guide, last: what the device says when, and on which channel"},
    {"braille-page", "private", true,
     "the braille scoresheet chosen in the menu: the page the display now shows (each repeat: the "
     "next)"},
    {"engine-plays-white", "private", false,
     "casual mode: a training process (annabella train) plays White with an engine"},
    {"engine-plays-black", "private", false, "casual mode: the same for Black"},
    {"engine-plays-white-elo", "private", false,
     "casual mode: the same, at the rating it plays (held to the engine's range)"},
    {"engine-plays-black-elo", "private", false, "casual mode: the same for Black"},
    {"engine-plays-white-level", "private", false, "casual mode: the same, at a skill level"},
    {"engine-plays-black-level", "private", false, "casual mode: the same for Black"},
    {"engine-elo-lowest", "private", false,
     "casual mode: after the side and rating: the rating asked was below the engine's range"},
    {"engine-elo-highest", "private", false, "casual mode: the same, above the engine's range"},
    {"engine-lost-how-on", "private", false,
     "casual mode: the engine was lost in a game: the clocks stand, the menu's training or "
     "pause goes on"},
    {"engine-lost-pause", "private", false,
     "casual mode: the same where the menu offers no training game: pause goes on"},
    {"engine-accepts-draw", "private", false,
     "casual mode: the engine accepts the player's draw offer (by its evaluation)"},
    {"engine-declines-draw", "private", false, "casual mode: the engine declines it"},
    {"menu-eval", "private", false, "casual mode: menu item, with an engine playing"},
    {"eval", "private", false,
     "casual mode: the engine's evaluation in words (menu or eval), answered by the training "
     "process"},
    {"menu-review-play", "private", false,
     "casual mode: menu item during a review: a new game from the position shown"},
    {"new-game-setup", "private", false,
     "casual mode: a new game from a position (new-game, train --fen): set it up"},
    {"engine-off", "private", false, "casual mode: the training process stopped"},
    {"engine-missing", "private", false,
     "casual mode: the training process found no engine to start"},
    {"engine-died", "private", false, "casual mode: its engine stopped; the training ends"},
    {"engine-hung", "private", false,
     "casual mode: its engine did not answer in time; the training ends"},
    {"engine-nonsense", "private", false,
     "casual mode: its engine answered no legal move; the training ends"},
    {"engine-gone", "private", false,
     "casual mode: the training process's connection closed without a word"},
    {"engine-not-ready", "private", false,
     "casual mode: the menu's training entry chosen with no training process waiting"},
    {"train-requested", "private", false,
     "casual mode: the menu's training entry passed to the waiting training process"},
    {"takeback", "private", false,
     "casual mode: the last move pair taken back; set the position up"},
    {"menu-hint", "private", false, "casual mode: menu item, with an engine, on the player's move"},
    {"menu-takeback", "private", false, "casual mode: menu item, once the player has moved"},
    {"menu-train", "private", false, "casual mode: menu item, where [training] menu enables it"},
    {"menu-games", "private", false, "casual mode: menu item: the finished games kept"},
    {"games", "private", false,
     "casual mode: the menu's finished games chosen: the last three, each with its number, "
     "players and result"},
    {"menu-end-review", "private", false, "casual mode: menu item during a review"},
    {"menu-review-goto", "private", false,
     "casual mode: menu item during a review: go to a move, chosen with the buttons"},
    {"menu-review-leave", "private", false,
     "casual mode: menu item during a review that shows a variation"},
    {"menu-review-aloud", "private", false,
     "casual mode: menu item during a review said in the earphone only"},
    {"menu-review-quiet", "private", false,
     "casual mode: menu item during a review said on the speaker too"},
    {"review-setup", "public or private", false,
     "casual mode: a review begins: set up its start position (on the speaker too where the "
     "review is said aloud, as every review utterance)"},
    {"review-ready", "public or private", false,
     "casual mode: the board shows the review's start position; how the buttons step"},
    {"review-setup-first", "public or private", false,
     "casual mode: a step before the review's start position is on the board"},
    {"review-start-of-game", "public or private", false,
     "casual mode: back (or repeat) at the review's start"},
    {"review-end-of-game", "public or private", false,
     "casual mode: next at the review's last move"},
    {"review-end-of-variation", "public or private", false,
     "casual mode: next at a variation's last move"},
    {"review-no-variation", "public or private", false,
     "casual mode: no variation to enter or leave"},
    {"review-aloud", "public or private", false,
     "casual mode: the review is said on the speaker too from now on"},
    {"review-quiet", "public or private", false,
     "casual mode: the review is said in the earphone only from now on"},
    {"review-ended", "public or private", false,
     "casual mode: the review ended after the game's end"},
    {"review-return", "private", false,
     "casual mode: the review ended: set the game's position up again"},
    {"hint", "private", false, "casual mode: the engine's suggestion for the player's move"},
    {"review", "public or private", false,
     "casual mode: a review's step (next, back, where are we, go to a move, into or out of a "
     "variation, a move's comment, the move being chosen)"},
    {"arbiter-pin", "private", true,
     "info and repeat were held together: the arbiter's menu on the buttons asks for the PIN "
     "(the player's buttons are the arbiter's until it closes)"},
    {"arbiter-done", "private", true, "the arbiter's menu on the buttons closed"},
    {"online-connection-lost", "private", false,
     "online play: the server cannot be reached; the online process tries again"},
    {"online-connected", "private", false,
     "online play: the server can be reached again; the game is as the server has it"},
    {"online-token-invalid", "private", false,
     "online play: the server refused the access token (its file is named in the online process's "
     "log)"},
    {"online-rate-limited", "private", false,
     "online play: the server asked for a minute's wait (HTTP 429)"},
    {"online-server-down", "private", false,
     "online play: the server cannot be reached when a game is to begin"},
    {"online-seeking", "private", false, "online play: a seek is out, waiting for an opponent"},
    {"online-no-opponent", "private", false, "online play: the seek ended without a game"},
    {"online-challenge-sent", "private", false, "online play: the friend was challenged"},
    {"online-challenge-declined", "private", false,
     "online play: the friend declined the challenge, or it lapsed"},
    {"online-challenge-waiting", "private", false,
     "online play: waiting for the friend's challenge"},
    {"online-challenge-here", "private", false,
     "online play: the friend's challenge came; the menu's online entry accepts it"},
    {"online-challenge-unplayable", "private", false,
     "online play: the friend's challenge is for a game the board cannot play (a variant, no "
     "clock, too fast): declined"},
    {"online-time-control", "private", false,
     "online play: the server does not play the time control asked for"},
    {"online-refused", "private", false,
     "online play: the server refused what the player asked for in the menu"},
    {"online-takeback-declined", "private", false,
     "online play: the opponent declined the player's takeback"},
    {"online-draw-declined", "private", false,
     "online play: the opponent declined the player's draw offer"},
    {"online-plays-white", "private", false,
     "online play: a game began on the server, the player has White"},
    {"online-plays-black", "private", false, "online play: the same with Black"},
    {"online-setup", "private", false, "online play: set the position up as the server has it"},
    {"online-move-refused", "private", false,
     "online play: the server refused the player's move; set the position back"},
    {"online-takeback-asked", "private", false,
     "online play: the opponent asks to take back a move (the menu answers)"},
    {"online-takeback-sent", "private", false,
     "online play: the player's takeback request is on the server"},
    {"online-opponent-gone", "private", false, "online play: the opponent left the game"},
    {"online-opponent-back", "private", false, "online play: the opponent is back"},
    {"online-claim-possible", "private", false,
     "online play: the opponent stayed away long enough: the menu claims the win or a draw"},
    {"online-aborted", "private", false,
     "online play: the game was aborted on the server (by either side)"},
    {"online-not-ready", "private", false,
     "casual mode: the menu's online entry chosen with no online process waiting, or an online "
     "item with none connected"},
    {"online-requested", "private", false,
     "casual mode: the menu's online entry passed to the waiting online process"},
    {"online-gone", "private", false,
     "online play: the online process's connection closed without a word"},
    {"menu-online", "private", false,
     "casual mode: menu item, where [online] menu enables it and no game is in progress"},
    {"menu-abort", "private", false, "online play: menu item, before both sides have moved"},
    {"menu-decline-draw", "private", false,
     "online play: menu item, while the opponent's draw offer stands"},
    {"menu-accept-takeback", "private", false,
     "online play: menu item, while the opponent asks for a takeback"},
    {"menu-decline-takeback", "private", false,
     "online play: menu item, while the opponent asks for a takeback"},
    {"menu-claim-victory", "private", false,
     "online play: menu item, once the opponent stayed away long enough"},
    {"menu-claim-draw-gone", "private", false, "online play: menu item, with claim the win"},
};

#define UTTERANCE_COUNT (sizeof(utterances) / sizeof(utterances[0]))

static inline const struct tournament_utterance *utterance_find(const char *name)
{
	for (size_t i = 0; i < UTTERANCE_COUNT; i++)
		if (!strcmp(utterances[i].name, name))
			return &utterances[i];
	return NULL;
}

/* NULL when `name` said on `channel` ("public"/"private") is allowed in tournament mode,
 * else why not. */
static inline const char *utterance_tournament_fault(const char *name, const char *channel)
{
	const struct tournament_utterance *u = utterance_find(name);

	if (!u)
		return "not in the list of utterances";
	if (!u->tournament)
		return "casual mode only";
	if (!strstr(u->channel, channel))
		return "on a channel the list does not give";
	return NULL;
}

#endif
