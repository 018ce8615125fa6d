/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/effect.h"

static const char *const msg_names[GAME_MSG_COUNT] = {
    [GAME_MSG_GAME_START] = "game-start",
    [GAME_MSG_NEW_GAME] = "new-game",
    [GAME_MSG_PAUSED] = "paused",
    [GAME_MSG_RESUMED] = "resumed",
    [GAME_MSG_PROMOTION_PROMPT] = "promotion-prompt",
    [GAME_MSG_PROMOTION_NEEDED] = "promotion-needed",
    [GAME_MSG_MISMATCH] = "mismatch",
    [GAME_MSG_BOARD_RESTORED] = "board-restored",
    [GAME_MSG_NOTHING_TO_REPEAT] = "nothing-to-repeat",
    [GAME_MSG_RESUMED_AFTER_RESTART] = "resumed-after-restart",
    [GAME_MSG_RESUMED_NO_CLOCK] = "resumed-no-clock",
    [GAME_MSG_FLAG_WHITE] = "flag-white",
    [GAME_MSG_FLAG_BLACK] = "flag-black",
    [GAME_MSG_CHECKMATE] = "checkmate",
    [GAME_MSG_STALEMATE] = "stalemate",
    [GAME_MSG_DEAD_POSITION] = "dead-position",
    [GAME_MSG_FIVEFOLD] = "fivefold",
    [GAME_MSG_SEVENTY_FIVE] = "seventy-five",
    [GAME_MSG_ILLEGAL_MOVE] = "illegal-move",
    [GAME_MSG_RESULT_WHITE_WINS] = "result-white-wins",
    [GAME_MSG_RESULT_BLACK_WINS] = "result-black-wins",
    [GAME_MSG_RESULT_DRAW] = "result-draw",
    [GAME_MSG_WHITE_RESIGNS] = "white-resigns",
    [GAME_MSG_BLACK_RESIGNS] = "black-resigns",
    [GAME_MSG_WHITE_OFFERS_DRAW] = "white-offers-draw",
    [GAME_MSG_BLACK_OFFERS_DRAW] = "black-offers-draw",
    [GAME_MSG_CLAIM_TO_ARBITER] = "claim-to-arbiter",
    [GAME_MSG_CLAIM_CORRECT] = "claim-correct",
    [GAME_MSG_CLAIM_INCORRECT] = "claim-incorrect",
    [GAME_MSG_RESULT_APPROVED] = "result-approved",
    [GAME_MSG_NO_RESULT] = "no-result",
    [GAME_MSG_MENU_OFFER_DRAW] = "menu-offer-draw",
    [GAME_MSG_MENU_ACCEPT_DRAW] = "menu-accept-draw",
    [GAME_MSG_MENU_CLAIM_THREEFOLD] = "menu-claim-threefold",
    [GAME_MSG_MENU_CLAIM_FIFTY] = "menu-claim-fifty",
    [GAME_MSG_MENU_RESIGN] = "menu-resign",
    [GAME_MSG_MENU_APPROVE] = "menu-approve",
    [GAME_MSG_MENU_CANCEL] = "menu-cancel",
    [GAME_MSG_MENU_CONFIRM_RESIGN] = "menu-confirm-resign",
    [GAME_MSG_MENU_CLOSED] = "menu-closed",
    [GAME_MSG_NOT_NOW] = "not-now",
};

const char *game_msg_name(enum game_msg msg)
{
	return (unsigned)msg < GAME_MSG_COUNT && msg_names[msg] ? msg_names[msg] : "?";
}
