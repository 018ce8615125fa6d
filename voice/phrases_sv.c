/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Swedish phrases: one entry for every phrase id, slots as in voice/phrases.h. */
#include "voice/phrases.h"

const char *const phrases_sv[PHRASE_ID_COUNT] = {
    [PHRASE_GAME_START] = "Partiet börjar",
    [PHRASE_NEW_GAME] = "Nytt parti",
    [PHRASE_PAUSED] = "Klockorna stoppade",
    [PHRASE_RESUMED] = "Klockorna går igen",
    [PHRASE_PROMOTION_PROMPT] = "Förvandling: välj en pjäs",
    [PHRASE_PROMOTION_NEEDED] = "Välj förvandlingspjäsen först",
    [PHRASE_MISMATCH] = "Brädet stämmer inte med partiet",
    [PHRASE_BOARD_RESTORED] = "Brädet är i ordning igen",
    [PHRASE_NOTHING_TO_REPEAT] = "Inget drag än",
    [PHRASE_CLOCK_NOT_RUNNING] = "Klockan går inte",
    [PHRASE_GAME_RESUMED_AFTER_RESTART] = "Partiet återupptaget, klockorna stoppade",
    [PHRASE_GAME_RESUMED_NO_CLOCK] = "Partiet återupptaget",
    [PHRASE_FLAG_WHITE] = "Tiden överskriden: Vit",
    [PHRASE_FLAG_BLACK] = "Tiden överskriden: Svart",
    [PHRASE_RESULT_WHITE_WINS] = "Vit vinner",
    [PHRASE_RESULT_BLACK_WINS] = "Svart vinner",
    [PHRASE_RESULT_DRAW] = "Remi",
    [PHRASE_CHECKMATE] = "Schackmatt",
    [PHRASE_STALEMATE] = "Patt",
    [PHRASE_DEAD_POSITION] = "Död ställning",
    [PHRASE_FIVEFOLD] = "Femfaldig upprepning",
    [PHRASE_SEVENTY_FIVE] = "Sjuttiofemdragsregeln",
    [PHRASE_ILLEGAL_MOVE] = "Regelstridigt drag",
    [PHRASE_WHITE_RESIGNS] = "Vit ger upp",
    [PHRASE_BLACK_RESIGNS] = "Svart ger upp",
    [PHRASE_WHITE_OFFERS_DRAW] = "Vit erbjuder remi",
    [PHRASE_BLACK_OFFERS_DRAW] = "Svart erbjuder remi",
    [PHRASE_CLAIM_TO_ARBITER] = "Reklamationen går till domaren, klockorna stoppade",
    [PHRASE_CLAIM_CORRECT] = "Reklamationen är riktig",
    [PHRASE_CLAIM_INCORRECT] = "Reklamationen är inte riktig",
    [PHRASE_RESULT_APPROVED] = "Resultatet godkänt",
    [PHRASE_NO_RESULT] = "Inget resultat än",
    [PHRASE_MENU_OFFER_DRAW] = "Erbjud remi",
    [PHRASE_MENU_ACCEPT_DRAW] = "Anta remi",
    [PHRASE_MENU_CLAIM_THREEFOLD] = "Reklamera remi: trefaldig upprepning",
    [PHRASE_MENU_CLAIM_FIFTY] = "Reklamera remi: femtio drag",
    [PHRASE_MENU_RESIGN] = "Ge upp",
    [PHRASE_MENU_APPROVE] = "Godkänn resultatet",
    [PHRASE_MENU_CANCEL] = "Avbryt",
    [PHRASE_MENU_CONFIRM_RESIGN] = "Ge upp? Tryck upprepa igen för att bekräfta",
    [PHRASE_MENU_CLOSED] = "Menyn stängd",
    [PHRASE_NOT_NOW] = "Inte möjligt nu",
    [PHRASE_PRESS_NO_MOVE] = "Klockan tryckt utan drag",
    [PHRASE_SETUP] = "Ställ upp ställningen",
    [PHRASE_SETUP_DONE] = "Ställningen stämmer, partiet fortsätter",
    [PHRASE_CLOCKS_SET] = "Klockorna ställda",
    [PHRASE_CLAIM_REJECTED] = "Reklamationen avslogs",
    [PHRASE_CORRECTION] = "Rättelse",
    [PHRASE_SQUARE_OK] = "{square} stämmer",
    [PHRASE_ERROR] = "Fel",
    [PHRASE_SQUARE_EMPTY] = "{square} ska vara tom",
    [PHRASE_SQUARE_OCCUPIED] = "{square} ska vara upptagen: {piece}",
    [PHRASE_CLOCK_INFO] = "Vit: {white}. Svart: {black}. Spelade drag: {count}.",
    [PHRASE_MOVES_PLAYED] = "Spelade drag: {count}.",
    [PHRASE_CLOCK_USED] = "Förbrukad tid: vit {white}, svart {black}.",
    [PHRASE_SAVE_FAILED] = "Protokollet kan inte längre sparas",
    [PHRASE_SAVE_WORKS] = "Protokollet sparas igen",
    [PHRASE_RECOVERY_INCOMPLETE] = "Partiet kunde inte återställas helt, kalla på domaren",
    [PHRASE_TIME_LEFT] = "{time} kvar",
    [PHRASE_SETTINGS] = "Språk svenska, taltempo {count}",
    [PHRASE_SETTINGS_LONG] = "långa dragutrop",
    [PHRASE_SETTINGS_SHORT] = "korta dragutrop",
    [PHRASE_MENU_QUICK_GUIDE] = "Snabbguide",
    [PHRASE_MENU_BRAILLE_SHEET] = "Protokollet på punktskriftsraden",
    [PHRASE_QUICK_GUIDE_BUTTONS] =
	"Knapparna. Din klocka: tryck efter ditt drag. Motståndarens klocka: motståndaren trycker. "
	"Info: båda tiderna och spelade drag. Upprepa: det senaste draget, långsammare om du "
	"trycker igen. Välj: pjäsen vid förvandling, och nästa ruta när brädet inte stämmer. Paus: "
	"stoppar klockorna för att kalla på domaren.",
    [PHRASE_QUICK_GUIDE_MENU] =
	"Menyn. Håll välj för att öppna den. Välj går till nästa val, upprepa väljer det. Där "
	"finns erbjuda eller anta remi, reklamera remi, ge upp, bekräfta resultatet, avbryt, den "
	"här guiden och, med en punktskriftsrad, protokollet på den, sida för sida.",
    [PHRASE_QUICK_GUIDE_SPEECH] =
	"Vad enheten säger. Varje drag högt för båda. Bara i din hörlur: tiderna, förvandling, när "
	"brädet inte stämmer med partiet, varningar om lite tid och menyn. I en turnering säger "
	"den inget som vore ett råd.",
    [PHRASE_BRAILLE_PAGE] = "Protokollet, sida {count}",
    [PHRASE_CLOCK_GAP_WHITE] = "Upp till {time} av vits betänketid före omstarten räknades inte",
    [PHRASE_CLOCK_GAP_BLACK] = "Upp till {time} av svarts betänketid före omstarten räknades inte",
    [PHRASE_CLOCK_UNCERTAIN] =
	"Klockorna kunde inte återställas exakt: de står på de senast kända tiderna",
    [PHRASE_ARBITER_RESUMES] = "Klockorna står, domaren startar dem",
};
