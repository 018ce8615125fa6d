/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The German phrases: one entry for every phrase id, slots as in voice/phrases.h. */
#include "voice/phrases.h"

const char *const phrases_de[PHRASE_ID_COUNT] = {
    [PHRASE_GAME_START] = "Partie beginnt",
    [PHRASE_NEW_GAME] = "Neue Partie",
    [PHRASE_PAUSED] = "Uhren angehalten",
    [PHRASE_RESUMED] = "Uhren laufen weiter",
    [PHRASE_PROMOTION_PROMPT] = "Umwandlung: Figur wählen",
    [PHRASE_PROMOTION_NEEDED] = "Erst die Umwandlungsfigur wählen",
    [PHRASE_MISMATCH] = "Brett stimmt nicht mit der Partie überein",
    [PHRASE_BOARD_RESTORED] = "Brett wieder in Ordnung",
    [PHRASE_NOTHING_TO_REPEAT] = "Noch kein Zug",
    [PHRASE_CLOCK_NOT_RUNNING] = "Die Uhr läuft nicht",
    [PHRASE_GAME_RESUMED_AFTER_RESTART] = "Partie fortgesetzt, Uhren angehalten",
    [PHRASE_GAME_RESUMED_NO_CLOCK] = "Partie fortgesetzt",
    [PHRASE_FLAG_WHITE] = "Zeit überschritten: Weiß",
    [PHRASE_FLAG_BLACK] = "Zeit überschritten: Schwarz",
    [PHRASE_RESULT_WHITE_WINS] = "Weiß gewinnt",
    [PHRASE_RESULT_BLACK_WINS] = "Schwarz gewinnt",
    [PHRASE_RESULT_DRAW] = "Remis",
    [PHRASE_CHECKMATE] = "Schachmatt",
    [PHRASE_STALEMATE] = "Patt",
    [PHRASE_DEAD_POSITION] = "Tote Stellung",
    [PHRASE_FIVEFOLD] = "Fünfmalige Stellungswiederholung",
    [PHRASE_SEVENTY_FIVE] = "Fünfundsiebzig-Züge-Regel",
    [PHRASE_ILLEGAL_MOVE] = "Regelwidriger Zug",
    [PHRASE_WHITE_RESIGNS] = "Weiß gibt auf",
    [PHRASE_BLACK_RESIGNS] = "Schwarz gibt auf",
    [PHRASE_WHITE_OFFERS_DRAW] = "Weiß bietet Remis an",
    [PHRASE_BLACK_OFFERS_DRAW] = "Schwarz bietet Remis an",
    [PHRASE_CLAIM_TO_ARBITER] = "Reklamation an den Schiedsrichter, Uhren angehalten",
    [PHRASE_CLAIM_CORRECT] = "Reklamation berechtigt",
    [PHRASE_CLAIM_INCORRECT] = "Reklamation unberechtigt",
    [PHRASE_RESULT_APPROVED] = "Ergebnis bestätigt",
    [PHRASE_NO_RESULT] = "Noch kein Ergebnis",
    [PHRASE_MENU_OFFER_DRAW] = "Remis anbieten",
    [PHRASE_MENU_ACCEPT_DRAW] = "Remis annehmen",
    [PHRASE_MENU_CLAIM_THREEFOLD] = "Remis reklamieren: dreimalige Stellungswiederholung",
    [PHRASE_MENU_CLAIM_FIFTY] = "Remis reklamieren: fünfzig Züge",
    [PHRASE_MENU_RESIGN] = "Aufgeben",
    [PHRASE_MENU_APPROVE] = "Ergebnis bestätigen",
    [PHRASE_MENU_CANCEL] = "Abbrechen",
    [PHRASE_MENU_CONFIRM_RESIGN] = "Wirklich aufgeben? Zum Bestätigen noch einmal Wiederholen",
    [PHRASE_MENU_CLOSED] = "Menü geschlossen",
    [PHRASE_NOT_NOW] = "Jetzt nicht möglich",
    [PHRASE_PRESS_NO_MOVE] = "Uhr gedrückt ohne Zug",
    [PHRASE_SETUP] = "Stellung aufbauen",
    [PHRASE_SETUP_DONE] = "Stellung stimmt, die Partie geht weiter",
    [PHRASE_CLOCKS_SET] = "Uhren gestellt",
    [PHRASE_CLAIM_REJECTED] = "Reklamation abgelehnt",
    [PHRASE_CORRECTION] = "Korrektur",
    [PHRASE_ARBITER_PIN] = "Schiedsrichter: PIN eingeben",
    [PHRASE_ARBITER_DONE] = "Schiedsrichter fertig",
    [PHRASE_SQUARE_OK] = "{square} stimmt",
    [PHRASE_ERROR] = "Fehler",
    [PHRASE_SQUARE_EMPTY] = "{square} sollte leer sein",
    [PHRASE_SQUARE_OCCUPIED] = "{square} sollte besetzt sein: {piece}",
    [PHRASE_CLOCK_INFO] = "Weiß: {white}. Schwarz: {black}. Gespielte Züge: {count}.",
    [PHRASE_MOVES_PLAYED] = "Gespielte Züge: {count}.",
    [PHRASE_CLOCK_USED] = "Verbraucht: Weiß {white}, Schwarz {black}.",
    [PHRASE_DELAY_WHITE] = "Verzögerung Weiß: noch {time}.",
    [PHRASE_DELAY_BLACK] = "Verzögerung Schwarz: noch {time}.",
    [PHRASE_SAVE_FAILED] = "Die Partie kann nicht mehr gespeichert werden",
    [PHRASE_SAVE_WORKS] = "Die Partie wird wieder gespeichert",
    [PHRASE_RECOVERY_INCOMPLETE] =
	"Die Partie wurde nicht vollständig wiederhergestellt, bitte Schiedsrichter rufen",
    [PHRASE_POWER_UNDERVOLTAGE] =
	"Achtung, die Stromversorgung ist zu schwach, bitte Schiedsrichter rufen",
    [PHRASE_POWER_ON_BATTERY] = "Achtung, kein Netzstrom, das Gerät läuft auf Akku",
    [PHRASE_POWER_BATTERY_LOW] = "Achtung, der Akku ist fast leer, bitte Schiedsrichter rufen",
    [PHRASE_POWER_PERCENT] = "{count} Prozent",
    [PHRASE_POWER_OK] = "Die Stromversorgung ist wieder in Ordnung",
    [PHRASE_TIME_LEFT] = "noch {time}",
    [PHRASE_SETTINGS] = "Sprache Deutsch, Sprechtempo {count}",
    [PHRASE_SETTINGS_LONG] = "lange Zugansage",
    [PHRASE_SETTINGS_SHORT] = "kurze Zugansage",
    [PHRASE_MENU_QUICK_GUIDE] = "Kurzanleitung",
    [PHRASE_MENU_BRAILLE_SHEET] = "Partieformular auf der Braillezeile",
    [PHRASE_QUICK_GUIDE_BUTTONS] =
	"Die Tasten. Eigene Uhr: nach dem eigenen Zug drücken. Gegneruhr: drückt der Gegner. Info: "
	"beide Zeiten und die gespielten Züge. Wiederholen: der letzte Zug, noch einmal gedrückt "
	"langsamer. Auswahl: bei einer Umwandlung die Figur, wenn das Brett nicht stimmt das "
	"nächste Feld. Pause: hält die Uhren an, um den Schiedsrichter zu rufen.",
    [PHRASE_QUICK_GUIDE_MENU] =
	"Das Menü. Auswahl lange halten öffnet es. Auswahl geht zum nächsten Eintrag, Wiederholen "
	"wählt ihn. Es bietet Remis anbieten oder annehmen, Remis reklamieren, Aufgeben, Ergebnis "
	"bestätigen, Abbrechen, diese Anleitung und, mit einer Braillezeile, das Partieformular "
	"darauf, Seite für Seite.",
    [PHRASE_QUICK_GUIDE_SPEECH] =
	"Was das Gerät sagt. Jeden Zug laut für beide. Nur im Ohrhörer: die Zeiten, die "
	"Umwandlung, wenn das Brett nicht zur Partie passt, Warnungen bei wenig Zeit und das Menü. "
	"Im Turnier sagt es nichts, was ein Rat wäre.",
    [PHRASE_BRAILLE_PAGE] = "Partieformular, Seite {count}",
    [PHRASE_CLOCK_GAP_WHITE] = "Bis zu {time} Bedenkzeit von Weiß vor dem Neustart nicht gezählt",
    [PHRASE_CLOCK_GAP_BLACK] =
	"Bis zu {time} Bedenkzeit von Schwarz vor dem Neustart nicht gezählt",
    [PHRASE_CLOCK_UNCERTAIN] =
	"Uhren nicht genau wiederhergestellt: sie stehen auf den letzten bekannten Zeiten",
    [PHRASE_ARBITER_RESUMES] = "Uhren stehen, der Schiedsrichter startet sie",
};
