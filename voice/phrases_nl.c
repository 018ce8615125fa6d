/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Dutch phrases: one entry for every phrase id, slots as in voice/phrases.h. */
#include "voice/phrases.h"

const char *const phrases_nl[PHRASE_ID_COUNT] = {
    [PHRASE_GAME_START] = "De partij begint",
    [PHRASE_NEW_GAME] = "Nieuwe partij",
    [PHRASE_PAUSED] = "Klokken gestopt",
    [PHRASE_RESUMED] = "Klokken lopen weer",
    [PHRASE_PROMOTION_PROMPT] = "Promotie: kies een stuk",
    [PHRASE_PROMOTION_NEEDED] = "Kies eerst het promotiestuk",
    [PHRASE_MISMATCH] = "Het bord klopt niet met de partij",
    [PHRASE_BOARD_RESTORED] = "Het bord is weer in orde",
    [PHRASE_NOTHING_TO_REPEAT] = "Nog geen zet",
    [PHRASE_CLOCK_NOT_RUNNING] = "De klok loopt niet",
    [PHRASE_GAME_RESUMED_AFTER_RESTART] = "Partij hervat, klokken gestopt",
    [PHRASE_GAME_RESUMED_NO_CLOCK] = "Partij hervat",
    [PHRASE_FLAG_WHITE] = "Tijd overschreden: Wit",
    [PHRASE_FLAG_BLACK] = "Tijd overschreden: Zwart",
    [PHRASE_RESULT_WHITE_WINS] = "Wit wint",
    [PHRASE_RESULT_BLACK_WINS] = "Zwart wint",
    [PHRASE_RESULT_DRAW] = "Remise",
    [PHRASE_CHECKMATE] = "Schaakmat",
    [PHRASE_STALEMATE] = "Pat",
    [PHRASE_DEAD_POSITION] = "Dode stelling",
    [PHRASE_FIVEFOLD] = "Vijfvoudige herhaling",
    [PHRASE_SEVENTY_FIVE] = "Vijfenzeventig-zettenregel",
    [PHRASE_ILLEGAL_MOVE] = "Onreglementaire zet",
    [PHRASE_WHITE_RESIGNS] = "Wit geeft op",
    [PHRASE_BLACK_RESIGNS] = "Zwart geeft op",
    [PHRASE_WHITE_OFFERS_DRAW] = "Wit biedt remise aan",
    [PHRASE_BLACK_OFFERS_DRAW] = "Zwart biedt remise aan",
    [PHRASE_CLAIM_TO_ARBITER] = "Claim naar de arbiter, klokken stilgezet",
    [PHRASE_CLAIM_CORRECT] = "De claim is terecht",
    [PHRASE_CLAIM_INCORRECT] = "De claim is onterecht",
    [PHRASE_RESULT_APPROVED] = "Uitslag bevestigd",
    [PHRASE_NO_RESULT] = "Nog geen uitslag",
    [PHRASE_MENU_OFFER_DRAW] = "Remise aanbieden",
    [PHRASE_MENU_ACCEPT_DRAW] = "Remise aannemen",
    [PHRASE_MENU_CLAIM_THREEFOLD] = "Remise claimen: drievoudige herhaling",
    [PHRASE_MENU_CLAIM_FIFTY] = "Remise claimen: vijftig zetten",
    [PHRASE_MENU_RESIGN] = "Opgeven",
    [PHRASE_MENU_APPROVE] = "Uitslag bevestigen",
    [PHRASE_MENU_CANCEL] = "Annuleren",
    [PHRASE_MENU_CONFIRM_RESIGN] = "Echt opgeven? Druk nog eens op herhalen om te bevestigen",
    [PHRASE_MENU_CLOSED] = "Menu gesloten",
    [PHRASE_NOT_NOW] = "Nu niet mogelijk",
    [PHRASE_PRESS_NO_MOVE] = "Klok ingedrukt zonder zet",
    [PHRASE_SETUP] = "Stelling opzetten",
    [PHRASE_SETUP_DONE] = "De stelling klopt, de partij gaat verder",
    [PHRASE_CLOCKS_SET] = "Klokken ingesteld",
    [PHRASE_CLAIM_REJECTED] = "Claim afgewezen",
    [PHRASE_CORRECTION] = "Correctie",
    [PHRASE_SQUARE_OK] = "{square} klopt",
    [PHRASE_ERROR] = "Fout",
    [PHRASE_SQUARE_EMPTY] = "{square} moet leeg zijn",
    [PHRASE_SQUARE_OCCUPIED] = "{square} moet bezet zijn: {piece}",
    [PHRASE_CLOCK_INFO] = "Wit: {white}. Zwart: {black}. Gespeelde zetten: {count}.",
    [PHRASE_MOVES_PLAYED] = "Gespeelde zetten: {count}.",
    [PHRASE_CLOCK_USED] = "Verbruikt: wit {white}, zwart {black}.",
    [PHRASE_SAVE_FAILED] = "Het notatieformulier kan niet meer worden opgeslagen",
    [PHRASE_SAVE_WORKS] = "Het notatieformulier wordt weer opgeslagen",
    [PHRASE_RECOVERY_INCOMPLETE] = "De partij is niet volledig hersteld, roep de arbiter",
    [PHRASE_TIME_LEFT] = "nog {time}",
    [PHRASE_SETTINGS] = "Taal Nederlands, spreeksnelheid {count}",
    [PHRASE_SETTINGS_LONG] = "lange zetaankondiging",
    [PHRASE_SETTINGS_SHORT] = "korte zetaankondiging",
    [PHRASE_MENU_QUICK_GUIDE] = "Korte handleiding",
    [PHRASE_MENU_BRAILLE_SHEET] = "Notatieformulier op de brailleleesregel",
    [PHRASE_QUICK_GUIDE_BUTTONS] =
	"De knoppen. Eigen klok: indrukken na je zet. Klok van de tegenstander: die drukt de "
	"tegenstander in. Info: beide tijden en de gespeelde zetten. Herhalen: de laatste zet, nog "
	"eens ingedrukt langzamer. Kiezen: het stuk bij promotie, en het volgende veld als het "
	"bord niet klopt. Pauze: zet de klokken stil om de arbiter te roepen.",
    [PHRASE_QUICK_GUIDE_MENU] =
	"Het menu. Houd kiezen ingedrukt om het te openen. Kiezen gaat naar het volgende "
	"onderdeel, herhalen kiest het. Het biedt remise aanbieden of aannemen, remise claimen, "
	"opgeven, de uitslag bevestigen, annuleren, deze handleiding en, met een brailleleesregel, "
	"het notatieformulier daarop, pagina voor pagina.",
    [PHRASE_QUICK_GUIDE_SPEECH] =
	"Wat het apparaat zegt. Elke zet hardop voor beide spelers. Alleen in je oortje: de "
	"tijden, promotie, als het bord niet bij de partij past, waarschuwingen bij weinig tijd en "
	"het menu. In een toernooi zegt het niets dat een advies zou zijn.",
    [PHRASE_BRAILLE_PAGE] = "Notatieformulier, pagina {count}",
    [PHRASE_CLOCK_GAP_WHITE] = "Tot {time} bedenktijd van wit voor de herstart is niet geteld",
    [PHRASE_CLOCK_GAP_BLACK] = "Tot {time} bedenktijd van zwart voor de herstart is niet geteld",
    [PHRASE_CLOCK_UNCERTAIN] =
	"De klokken konden niet precies worden hersteld: ze staan op de laatst bekende tijden",
    [PHRASE_ARBITER_RESUMES] = "De klokken staan stil, de arbiter start ze",
};
