/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The English phrases: one entry for every phrase id, slots as in voice/phrases.h. */
#include "voice/phrases.h"

const char *const phrases_en[PHRASE_ID_COUNT] = {
    [PHRASE_GAME_START] = "Game starts",
    [PHRASE_NEW_GAME] = "New game",
    [PHRASE_PAUSED] = "Clocks stopped",
    [PHRASE_RESUMED] = "Clocks running again",
    [PHRASE_PROMOTION_PROMPT] = "Promotion: choose a piece",
    [PHRASE_PROMOTION_NEEDED] = "Choose the promotion piece first",
    [PHRASE_MISMATCH] = "The board does not match the game",
    [PHRASE_BOARD_RESTORED] = "Board restored",
    [PHRASE_NOTHING_TO_REPEAT] = "No move yet",
    [PHRASE_CLOCK_NOT_RUNNING] = "The clock is not running",
    [PHRASE_GAME_RESUMED_AFTER_RESTART] = "Game resumed, clocks stopped",
    [PHRASE_GAME_RESUMED_NO_CLOCK] = "Game resumed",
    [PHRASE_FLAG_WHITE] = "White's flag has fallen",
    [PHRASE_FLAG_BLACK] = "Black's flag has fallen",
    [PHRASE_RESULT_WHITE_WINS] = "White wins",
    [PHRASE_RESULT_BLACK_WINS] = "Black wins",
    [PHRASE_RESULT_DRAW] = "Draw",
    [PHRASE_CHECKMATE] = "Checkmate",
    [PHRASE_STALEMATE] = "Stalemate",
    [PHRASE_DEAD_POSITION] = "Dead position",
    [PHRASE_FIVEFOLD] = "Fivefold repetition",
    [PHRASE_SEVENTY_FIVE] = "Seventy-five-move rule",
    [PHRASE_ILLEGAL_MOVE] = "Illegal move",
    [PHRASE_WHITE_RESIGNS] = "White resigns",
    [PHRASE_BLACK_RESIGNS] = "Black resigns",
    [PHRASE_WHITE_OFFERS_DRAW] = "White offers a draw",
    [PHRASE_BLACK_OFFERS_DRAW] = "Black offers a draw",
    [PHRASE_CLAIM_TO_ARBITER] = "Claim passed to the arbiter, clocks stopped",
    [PHRASE_CLAIM_CORRECT] = "The claim is correct",
    [PHRASE_CLAIM_INCORRECT] = "The claim is not correct",
    [PHRASE_RESULT_APPROVED] = "Result approved",
    [PHRASE_NO_RESULT] = "No result yet",
    [PHRASE_MENU_OFFER_DRAW] = "Offer a draw",
    [PHRASE_MENU_ACCEPT_DRAW] = "Accept the draw",
    [PHRASE_MENU_CLAIM_THREEFOLD] = "Claim a draw: threefold repetition",
    [PHRASE_MENU_CLAIM_FIFTY] = "Claim a draw: fifty moves",
    [PHRASE_MENU_RESIGN] = "Resign",
    [PHRASE_MENU_APPROVE] = "Approve the result",
    [PHRASE_MENU_CANCEL] = "Cancel",
    [PHRASE_MENU_CONFIRM_RESIGN] = "Really resign? Press repeat again to confirm",
    [PHRASE_MENU_CLOSED] = "Menu closed",
    [PHRASE_NOT_NOW] = "Not possible now",
    [PHRASE_PRESS_NO_MOVE] = "Clock pressed without a move",
    [PHRASE_SETUP] = "Set up the position",
    [PHRASE_SETUP_DONE] = "The position is set up, the game goes on",
    [PHRASE_CLOCKS_SET] = "Clocks set",
    [PHRASE_CLAIM_REJECTED] = "Claim rejected",
    [PHRASE_CORRECTION] = "Correction",
    [PHRASE_SQUARE_OK] = "{square} is right",
    [PHRASE_ERROR] = "Error",
    [PHRASE_SQUARE_EMPTY] = "{square} should be empty",
    [PHRASE_SQUARE_OCCUPIED] = "{square} should be occupied: {piece}",
    [PHRASE_CLOCK_INFO] = "White: {white}. Black: {black}. Moves played: {count}.",
    [PHRASE_MOVES_PLAYED] = "Moves played: {count}.",
    [PHRASE_CLOCK_USED] = "Time used: White {white}, Black {black}.",
    [PHRASE_SAVE_FAILED] = "The scoresheet can no longer be saved",
    [PHRASE_SAVE_WORKS] = "The scoresheet is saved again",
    [PHRASE_RECOVERY_INCOMPLETE] = "The game was not fully recovered: please call the arbiter",
    [PHRASE_POWER_UNDERVOLTAGE] = "Warning: the power supply is too weak, please call the arbiter",
    [PHRASE_POWER_ON_BATTERY] = "Warning: no mains power, running on battery",
    [PHRASE_POWER_BATTERY_LOW] = "Warning: the battery is almost empty, please call the arbiter",
    [PHRASE_POWER_PERCENT] = "{count} percent",
    [PHRASE_POWER_OK] = "The power supply is fine again",
    [PHRASE_TIME_LEFT] = "{time} left",
    [PHRASE_SETTINGS] = "Language English, speech rate {count}",
    [PHRASE_SETTINGS_LONG] = "long move announcements",
    [PHRASE_SETTINGS_SHORT] = "short move announcements",
    [PHRASE_MENU_QUICK_GUIDE] = "Quick guide",
    [PHRASE_MENU_BRAILLE_SHEET] = "Scoresheet on the braille display",
    [PHRASE_QUICK_GUIDE_BUTTONS] =
	"The buttons. Your clock: press it after your move. Opponent clock: your opponent presses "
	"it. Info: both times and the moves played. Repeat: the last move, slower when pressed "
	"again. Select: the piece for a promotion, and the next square when the board does not "
	"match. Pause: stops the clocks to call the arbiter.",
    [PHRASE_QUICK_GUIDE_MENU] =
	"The menu. Hold select to open it. Select goes to the next item, repeat chooses it. It "
	"offers a draw offer or accepting one, draw claims, resigning, approving the result, "
	"cancel, this guide and, with a braille display, the scoresheet on it, page by page.",
    [PHRASE_QUICK_GUIDE_SPEECH] =
	"What the device says. Every move aloud for both players. Only in your earphone: the "
	"times, promotion, when the board does not match the game, low time warnings and the menu. "
	"In a tournament it says nothing that would be advice.",
    [PHRASE_BRAILLE_PAGE] = "Scoresheet, page {count}",
    [PHRASE_CLOCK_GAP_WHITE] =
	"Up to {time} of White's thinking time before the restart were not counted",
    [PHRASE_CLOCK_GAP_BLACK] =
	"Up to {time} of Black's thinking time before the restart were not counted",
    [PHRASE_CLOCK_UNCERTAIN] =
	"The clocks could not be recovered exactly: they stand at the last times known",
    [PHRASE_ARBITER_RESUMES] = "The clocks stand, the arbiter starts them",
};
