/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/present.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "control/protocol.h"
#include "daemon/clockface.h"
#include "daemon/leds.h"
#include "daemon/haptic.h"
#include "daemon/ctlsock.h"
#include "daemon/display.h"
#include "store/games.h"
#include "store/scoresheet.h"

#define TEXT_MAX 512

struct presenter {
	struct presenter_config cfg;
	struct voice *voice;
	struct store *store;
	struct referee *referee;
	struct ctlsock *ctl;
	struct display *display;
	struct clockface *clockface;
	struct leds *leds;
	struct haptic *haptic;
	bool mate_said;	    /* the last move was announced with ", Matt" */
	bool settings_said; /* the settings were said (once, at the first game) */
	bool repeated;	    /* a repeat was said, at last_repeat_ms */
	uint64_t last_repeat_ms;
	presenter_game_hook game_hook;
	void *game_hook_user;
	struct power_status power; /* the last reading ([power]) */
};

void presenter_set_game_hook(struct presenter *p, presenter_game_hook fn, void *user)
{
	p->game_hook = fn;
	p->game_hook_user = user;
}

/* What each of the referee's messages is called in the phrase tables. */
static const enum phrase_id msg_phrase[GAME_MSG_COUNT] = {
    [GAME_MSG_GAME_START] = PHRASE_GAME_START,
    [GAME_MSG_NEW_GAME] = PHRASE_NEW_GAME,
    [GAME_MSG_PAUSED] = PHRASE_PAUSED,
    [GAME_MSG_RESUMED] = PHRASE_RESUMED,
    [GAME_MSG_PROMOTION_PROMPT] = PHRASE_PROMOTION_PROMPT,
    [GAME_MSG_PROMOTION_NEEDED] = PHRASE_PROMOTION_NEEDED,
    [GAME_MSG_MISMATCH] = PHRASE_MISMATCH,
    [GAME_MSG_BOARD_RESTORED] = PHRASE_BOARD_RESTORED,
    [GAME_MSG_NOTHING_TO_REPEAT] = PHRASE_NOTHING_TO_REPEAT,
    [GAME_MSG_RESUMED_AFTER_RESTART] = PHRASE_GAME_RESUMED_AFTER_RESTART,
    [GAME_MSG_RESUMED_NO_CLOCK] = PHRASE_GAME_RESUMED_NO_CLOCK,
    [GAME_MSG_FLAG_WHITE] = PHRASE_FLAG_WHITE,
    [GAME_MSG_FLAG_BLACK] = PHRASE_FLAG_BLACK,
    [GAME_MSG_CHECKMATE] = PHRASE_CHECKMATE,
    [GAME_MSG_STALEMATE] = PHRASE_STALEMATE,
    [GAME_MSG_DEAD_POSITION] = PHRASE_DEAD_POSITION,
    [GAME_MSG_FIVEFOLD] = PHRASE_FIVEFOLD,
    [GAME_MSG_SEVENTY_FIVE] = PHRASE_SEVENTY_FIVE,
    [GAME_MSG_ILLEGAL_MOVE] = PHRASE_ILLEGAL_MOVE,
    [GAME_MSG_RESULT_WHITE_WINS] = PHRASE_RESULT_WHITE_WINS,
    [GAME_MSG_RESULT_BLACK_WINS] = PHRASE_RESULT_BLACK_WINS,
    [GAME_MSG_RESULT_DRAW] = PHRASE_RESULT_DRAW,
    [GAME_MSG_WHITE_RESIGNS] = PHRASE_WHITE_RESIGNS,
    [GAME_MSG_BLACK_RESIGNS] = PHRASE_BLACK_RESIGNS,
    [GAME_MSG_WHITE_OFFERS_DRAW] = PHRASE_WHITE_OFFERS_DRAW,
    [GAME_MSG_BLACK_OFFERS_DRAW] = PHRASE_BLACK_OFFERS_DRAW,
    [GAME_MSG_CLAIM_TO_ARBITER] = PHRASE_CLAIM_TO_ARBITER,
    [GAME_MSG_CLAIM_CORRECT] = PHRASE_CLAIM_CORRECT,
    [GAME_MSG_CLAIM_INCORRECT] = PHRASE_CLAIM_INCORRECT,
    [GAME_MSG_RESULT_APPROVED] = PHRASE_RESULT_APPROVED,
    [GAME_MSG_NO_RESULT] = PHRASE_NO_RESULT,
    [GAME_MSG_MENU_OFFER_DRAW] = PHRASE_MENU_OFFER_DRAW,
    [GAME_MSG_MENU_ACCEPT_DRAW] = PHRASE_MENU_ACCEPT_DRAW,
    [GAME_MSG_MENU_CLAIM_THREEFOLD] = PHRASE_MENU_CLAIM_THREEFOLD,
    [GAME_MSG_MENU_CLAIM_FIFTY] = PHRASE_MENU_CLAIM_FIFTY,
    [GAME_MSG_MENU_RESIGN] = PHRASE_MENU_RESIGN,
    [GAME_MSG_MENU_APPROVE] = PHRASE_MENU_APPROVE,
    [GAME_MSG_MENU_CANCEL] = PHRASE_MENU_CANCEL,
    [GAME_MSG_MENU_CONFIRM_RESIGN] = PHRASE_MENU_CONFIRM_RESIGN,
    [GAME_MSG_MENU_CLOSED] = PHRASE_MENU_CLOSED,
    [GAME_MSG_NOT_NOW] = PHRASE_NOT_NOW,
    [GAME_MSG_PRESS_NO_MOVE] = PHRASE_PRESS_NO_MOVE,
    [GAME_MSG_SETUP] = PHRASE_SETUP,
    [GAME_MSG_SETUP_DONE] = PHRASE_SETUP_DONE,
    [GAME_MSG_CLOCKS_SET] = PHRASE_CLOCKS_SET,
    [GAME_MSG_CLAIM_REJECTED] = PHRASE_CLAIM_REJECTED,
    [GAME_MSG_CORRECTION] = PHRASE_CORRECTION,
    [GAME_MSG_MENU_QUICK_GUIDE] = PHRASE_MENU_QUICK_GUIDE,
    [GAME_MSG_MENU_BRAILLE_SHEET] = PHRASE_MENU_BRAILLE_SHEET,
    [GAME_MSG_QUICK_GUIDE_BUTTONS] = PHRASE_QUICK_GUIDE_BUTTONS,
    [GAME_MSG_QUICK_GUIDE_MENU] = PHRASE_QUICK_GUIDE_MENU,
    [GAME_MSG_QUICK_GUIDE_SPEECH] = PHRASE_QUICK_GUIDE_SPEECH,
    [GAME_MSG_CLOCK_GAP_WHITE] = PHRASE_CLOCK_GAP_WHITE,
    [GAME_MSG_CLOCK_GAP_BLACK] = PHRASE_CLOCK_GAP_BLACK,
    [GAME_MSG_PERIOD_CARRIED_WHITE] = PHRASE_PERIOD_CARRIED_WHITE,
    [GAME_MSG_PERIOD_CARRIED_BLACK] = PHRASE_PERIOD_CARRIED_BLACK,
    [GAME_MSG_CLOCK_UNCERTAIN] = PHRASE_CLOCK_UNCERTAIN,
    [GAME_MSG_ARBITER_RESUMES] = PHRASE_ARBITER_RESUMES,
    [GAME_MSG_ENGINE_PLAYS_WHITE] = PHRASE_ENGINE_PLAYS_WHITE,
    [GAME_MSG_ENGINE_PLAYS_BLACK] = PHRASE_ENGINE_PLAYS_BLACK,
    [GAME_MSG_ENGINE_OFF] = PHRASE_ENGINE_OFF,
    [GAME_MSG_ENGINE_MISSING] = PHRASE_ENGINE_MISSING,
    [GAME_MSG_ENGINE_DIED] = PHRASE_ENGINE_DIED,
    [GAME_MSG_ENGINE_HUNG] = PHRASE_ENGINE_HUNG,
    [GAME_MSG_ENGINE_NONSENSE] = PHRASE_ENGINE_NONSENSE,
    [GAME_MSG_ENGINE_GONE] = PHRASE_ENGINE_GONE,
    [GAME_MSG_ENGINE_NOT_READY] = PHRASE_ENGINE_NOT_READY,
    [GAME_MSG_TRAIN_REQUESTED] = PHRASE_TRAIN_REQUESTED,
    [GAME_MSG_TAKEBACK] = PHRASE_TAKEBACK,
    [GAME_MSG_MENU_HINT] = PHRASE_MENU_HINT,
    [GAME_MSG_MENU_TAKEBACK] = PHRASE_MENU_TAKEBACK,
    [GAME_MSG_MENU_TRAIN] = PHRASE_MENU_TRAIN,
    [GAME_MSG_MENU_END_REVIEW] = PHRASE_MENU_END_REVIEW,
    [GAME_MSG_REVIEW_SETUP] = PHRASE_REVIEW_SETUP,
    [GAME_MSG_REVIEW_READY] = PHRASE_REVIEW_READY,
    [GAME_MSG_REVIEW_START_OF_GAME] = PHRASE_REVIEW_START_OF_GAME,
    [GAME_MSG_REVIEW_END_OF_GAME] = PHRASE_REVIEW_END_OF_GAME,
    [GAME_MSG_REVIEW_ENDED] = PHRASE_REVIEW_ENDED,
    [GAME_MSG_REVIEW_RETURN] = PHRASE_REVIEW_RETURN,
    [GAME_MSG_ARBITER_PIN] = PHRASE_ARBITER_PIN,
    [GAME_MSG_ARBITER_DONE] = PHRASE_ARBITER_DONE,
    [GAME_MSG_REVIEW_SETUP_FIRST] = PHRASE_REVIEW_SETUP_FIRST,
    [GAME_MSG_REVIEW_END_OF_VARIATION] = PHRASE_REVIEW_END_OF_VARIATION,
    [GAME_MSG_REVIEW_NO_VARIATION] = PHRASE_REVIEW_NO_VARIATION,
    [GAME_MSG_REVIEW_ALOUD] = PHRASE_REVIEW_ALOUD,
    [GAME_MSG_REVIEW_QUIET] = PHRASE_REVIEW_QUIET,
    [GAME_MSG_MENU_REVIEW_GOTO] = PHRASE_MENU_REVIEW_GOTO,
    [GAME_MSG_MENU_REVIEW_LEAVE] = PHRASE_MENU_REVIEW_LEAVE,
    [GAME_MSG_MENU_REVIEW_ALOUD] = PHRASE_MENU_REVIEW_ALOUD,
    [GAME_MSG_MENU_REVIEW_QUIET] = PHRASE_MENU_REVIEW_QUIET,
    [GAME_MSG_MENU_GAMES] = PHRASE_MENU_GAMES,
    [GAME_MSG_MENU_LAST_MOVES] = PHRASE_MENU_LAST_MOVES,
    [GAME_MSG_ENGINE_PLAYS_WHITE_ELO] = PHRASE_ENGINE_PLAYS_WHITE_ELO,
    [GAME_MSG_ENGINE_PLAYS_BLACK_ELO] = PHRASE_ENGINE_PLAYS_BLACK_ELO,
    [GAME_MSG_ENGINE_PLAYS_WHITE_LEVEL] = PHRASE_ENGINE_PLAYS_WHITE_LEVEL,
    [GAME_MSG_ENGINE_PLAYS_BLACK_LEVEL] = PHRASE_ENGINE_PLAYS_BLACK_LEVEL,
    [GAME_MSG_ENGINE_ELO_LOWEST] = PHRASE_ENGINE_ELO_LOWEST,
    [GAME_MSG_ENGINE_ELO_HIGHEST] = PHRASE_ENGINE_ELO_HIGHEST,
    [GAME_MSG_ENGINE_LOST_HOW_ON] = PHRASE_ENGINE_LOST_HOW_ON,
    [GAME_MSG_ENGINE_LOST_PAUSE] = PHRASE_ENGINE_LOST_PAUSE,
    [GAME_MSG_ENGINE_ACCEPTS_DRAW] = PHRASE_ENGINE_ACCEPTS_DRAW,
    [GAME_MSG_ENGINE_DECLINES_DRAW] = PHRASE_ENGINE_DECLINES_DRAW,
    [GAME_MSG_MENU_EVAL] = PHRASE_MENU_EVAL,
    [GAME_MSG_MENU_REVIEW_PLAY] = PHRASE_MENU_REVIEW_PLAY,
    [GAME_MSG_NEW_GAME_SETUP] = PHRASE_NEW_GAME_SETUP,
    [GAME_MSG_ONLINE_CONNECTION_LOST] = PHRASE_ONLINE_CONNECTION_LOST,
    [GAME_MSG_ONLINE_CONNECTED] = PHRASE_ONLINE_CONNECTED,
    [GAME_MSG_ONLINE_TOKEN_INVALID] = PHRASE_ONLINE_TOKEN_INVALID,
    [GAME_MSG_ONLINE_RATE_LIMITED] = PHRASE_ONLINE_RATE_LIMITED,
    [GAME_MSG_ONLINE_SERVER_DOWN] = PHRASE_ONLINE_SERVER_DOWN,
    [GAME_MSG_ONLINE_SEEKING] = PHRASE_ONLINE_SEEKING,
    [GAME_MSG_ONLINE_NO_OPPONENT] = PHRASE_ONLINE_NO_OPPONENT,
    [GAME_MSG_ONLINE_CHALLENGE_SENT] = PHRASE_ONLINE_CHALLENGE_SENT,
    [GAME_MSG_ONLINE_CHALLENGE_DECLINED] = PHRASE_ONLINE_CHALLENGE_DECLINED,
    [GAME_MSG_ONLINE_CHALLENGE_WAITING] = PHRASE_ONLINE_CHALLENGE_WAITING,
    [GAME_MSG_ONLINE_CHALLENGE_HERE] = PHRASE_ONLINE_CHALLENGE_HERE,
    [GAME_MSG_ONLINE_CHALLENGE_UNPLAYABLE] = PHRASE_ONLINE_CHALLENGE_UNPLAYABLE,
    [GAME_MSG_ONLINE_TIME_CONTROL] = PHRASE_ONLINE_TIME_CONTROL,
    [GAME_MSG_ONLINE_REFUSED] = PHRASE_ONLINE_REFUSED,
    [GAME_MSG_ONLINE_TAKEBACK_DECLINED] = PHRASE_ONLINE_TAKEBACK_DECLINED,
    [GAME_MSG_ONLINE_DRAW_DECLINED] = PHRASE_ONLINE_DRAW_DECLINED,
    [GAME_MSG_ONLINE_PLAYS_WHITE] = PHRASE_ONLINE_PLAYS_WHITE,
    [GAME_MSG_ONLINE_PLAYS_BLACK] = PHRASE_ONLINE_PLAYS_BLACK,
    [GAME_MSG_ONLINE_SETUP] = PHRASE_ONLINE_SETUP,
    [GAME_MSG_ONLINE_MOVE_REFUSED] = PHRASE_ONLINE_MOVE_REFUSED,
    [GAME_MSG_ONLINE_TAKEBACK_ASKED] = PHRASE_ONLINE_TAKEBACK_ASKED,
    [GAME_MSG_ONLINE_TAKEBACK_SENT] = PHRASE_ONLINE_TAKEBACK_SENT,
    [GAME_MSG_ONLINE_OPPONENT_GONE] = PHRASE_ONLINE_OPPONENT_GONE,
    [GAME_MSG_ONLINE_OPPONENT_BACK] = PHRASE_ONLINE_OPPONENT_BACK,
    [GAME_MSG_ONLINE_CLAIM_POSSIBLE] = PHRASE_ONLINE_CLAIM_POSSIBLE,
    [GAME_MSG_ONLINE_ABORTED] = PHRASE_ONLINE_ABORTED,
    [GAME_MSG_ONLINE_NOT_READY] = PHRASE_ONLINE_NOT_READY,
    [GAME_MSG_ONLINE_REQUESTED] = PHRASE_ONLINE_REQUESTED,
    [GAME_MSG_ONLINE_GONE] = PHRASE_ONLINE_GONE,
    [GAME_MSG_MENU_ONLINE] = PHRASE_MENU_ONLINE,
    [GAME_MSG_MENU_ABORT] = PHRASE_MENU_ABORT,
    [GAME_MSG_MENU_DECLINE_DRAW] = PHRASE_MENU_DECLINE_DRAW,
    [GAME_MSG_MENU_ACCEPT_TAKEBACK] = PHRASE_MENU_ACCEPT_TAKEBACK,
    [GAME_MSG_MENU_DECLINE_TAKEBACK] = PHRASE_MENU_DECLINE_TAKEBACK,
    [GAME_MSG_MENU_CLAIM_VICTORY] = PHRASE_MENU_CLAIM_VICTORY,
    [GAME_MSG_MENU_CLAIM_DRAW_GONE] = PHRASE_MENU_CLAIM_DRAW_GONE,
};

/* The quick guide is information: a move's announcement cuts it short (voice.h). */
static bool is_quick_guide(enum game_msg msg)
{
	return msg == GAME_MSG_QUICK_GUIDE_BUTTONS || msg == GAME_MSG_QUICK_GUIDE_MENU ||
	       msg == GAME_MSG_QUICK_GUIDE_SPEECH;
}

/* A menu item: the next one the player steps to, or a prompt, cuts it short (voice.h). */
static bool is_menu_item(enum game_msg msg)
{
	switch (msg) {
	case GAME_MSG_MENU_OFFER_DRAW:
	case GAME_MSG_MENU_ACCEPT_DRAW:
	case GAME_MSG_MENU_CLAIM_THREEFOLD:
	case GAME_MSG_MENU_CLAIM_FIFTY:
	case GAME_MSG_MENU_RESIGN:
	case GAME_MSG_MENU_APPROVE:
	case GAME_MSG_MENU_CANCEL:
	case GAME_MSG_MENU_CONFIRM_RESIGN:
	case GAME_MSG_MENU_QUICK_GUIDE:
	case GAME_MSG_MENU_BRAILLE_SHEET:
	case GAME_MSG_MENU_HINT:
	case GAME_MSG_MENU_TAKEBACK:
	case GAME_MSG_MENU_TRAIN:
	case GAME_MSG_MENU_END_REVIEW:
		return true;
	default:
		return false;
	}
}

/* How the voice takes a private message: the quick guide as information, a menu item as
 * such, the rest as prompts. */
static enum voice_kind private_kind(enum game_msg msg)
{
	if (is_quick_guide(msg))
		return VOICE_KIND_INFO;
	return is_menu_item(msg) ? VOICE_KIND_MENU : VOICE_KIND_PROMPT;
}

struct presenter *presenter_new(const struct presenter_config *cfg, struct voice *voice,
				struct store *store)
{
	struct presenter *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cfg = *cfg;
	p->voice = voice;
	p->store = store;
	return p;
}

void presenter_free(struct presenter *p)
{
	free(p);
}

void presenter_attach(struct presenter *p, struct referee *r, struct ctlsock *c)
{
	p->referee = r;
	p->ctl = c;
}

void presenter_attach_clockface(struct presenter *p, struct clockface *f)
{
	p->clockface = f;
}

void presenter_attach_leds(struct presenter *p, struct leds *l)
{
	p->leds = l;
}

void presenter_attach_haptic(struct presenter *p, struct haptic *h)
{
	p->haptic = h;
}

void presenter_attach_display(struct presenter *p, struct display *d)
{
	p->display = d;
}

/* The phrase options for the game being played: casual and online play announce check and
 * mate unless told otherwise (docs/arbiter.md "Behaviour the Laws ask for", tournament mode). */
static struct phrase_options options(const struct presenter *p)
{
	struct phrase_options o = p->cfg.phrases;
	const struct game *g = p->referee ? referee_game(p->referee) : NULL;

	if (g && g->open && g->params.mode != GAME_TOURNAMENT && !p->cfg.announce_check_set)
		o.announce_check = true;
	return o;
}

const char *presenter_lang(const struct presenter *p)
{
	return p ? phrase_lang_code(p->cfg.phrases.lang) : NULL;
}

void presenter_move_words(const struct presenter *p, const struct chess_pos *before, chess_move m,
			  char *buf, size_t size)
{
	struct phrase_options o = options(p);

	phrase_move(&o, before, m, buf, size);
}

/*
 * The presenter's own sinks, and whether an event of an audience (game/audience.h) may reach
 * each: the speaker and the clock display public events only, the earphone the player's,
 * the braille display (the tactile player's) both.  Watchers are filtered by the control
 * socket (ctlsock_event()).  An arbiter's event reaches none of them.
 */
enum present_sink {
	PRESENT_SPEAKER = 0,
	PRESENT_EARPHONE,
	PRESENT_BRAILLE,
	PRESENT_CLOCKFACE,
	PRESENT_SINK_COUNT
};
static bool presenter_reaches(enum present_sink sink, enum game_audience audience)
{
	switch (sink) {
	case PRESENT_SPEAKER:	/* heard by both players and anyone near the board */
	case PRESENT_CLOCKFACE: /* seen by the sighted opponent (Art. 6.10.1) */
		return audience == GAME_AUDIENCE_PUBLIC;
	case PRESENT_EARPHONE: /* the tactile player's alone; the public is on the speaker */
		return audience == GAME_AUDIENCE_PLAYER;
	case PRESENT_BRAILLE: /* the tactile player's own display */
		return game_audience_reaches(audience, GAME_AUDIENCE_PLAYER);
	case PRESENT_SINK_COUNT:
		break;
	}
	return false;
}

/* An utterance for its audience: on the speaker or in the earphone as the audience allows
 * (an arbiter's is never spoken), and to the watchers it reaches.  report: the referee hears
 * when it has been said (GAME_EV_SAID), or 0. */
static void say_reported(struct presenter *p, enum game_audience audience, enum voice_kind kind,
			 const struct utterance *u, int rate_percent, uint64_t ms, int report)
{
	if (!u->text[0])
		return;
	if (p->voice && presenter_reaches(PRESENT_SPEAKER, audience))
		voice_say_reported(p->voice, VOICE_PUBLIC, kind, u, rate_percent, ms,
				   (uint64_t)report);
	else if (p->voice && presenter_reaches(PRESENT_EARPHONE, audience))
		voice_say_reported(p->voice, VOICE_PRIVATE, kind, u, rate_percent, ms,
				   (uint64_t)report);
	if (ctlsock_watched(p->ctl)) {
		struct strbuf line = {0};

		struct control_say_part parts[UTTERANCE_SEGMENTS_MAX];

		for (int i = 0; i < u->count && i < UTTERANCE_SEGMENTS_MAX; i++) {
			parts[i].lang = phrase_lang_code(u->seg[i].lang);
			parts[i].start = u->seg[i].start;
			parts[i].end = u->seg[i].end;
		}
		control_event_say_parts(&line, ms, audience, u->text, parts, u->count);
		if (line.p)
			ctlsock_event(p->ctl, line.p, audience);
		free(line.p);
	}
	/* For a player who cannot hear it: on the braille display too (a move is its own line
	 * there, in the chess code). */
	if (p->cfg.braille_messages && kind != VOICE_KIND_MOVE &&
	    presenter_reaches(PRESENT_BRAILLE, audience))
		display_message(p->display, u->text, ms);
}

static void say(struct presenter *p, enum game_audience audience, enum voice_kind kind,
		const struct utterance *u, int rate_percent, uint64_t ms)
{
	say_reported(p, audience, kind, u, rate_percent, ms, 0);
}

/* Once, privately, when the first game opens or resumes: the language, the rate and the
 * form of the announcements. */
static void say_settings(struct presenter *p, uint64_t ms)
{
	struct phrase_options o = options(p);
	struct phrase_args a = {.square = -1, .count = p->cfg.rate};
	struct utterance u;

	if (p->settings_said)
		return;
	p->settings_said = true;
	utterance_clear(&u);
	phrase_add(&u, &o, PHRASE_SETTINGS, &a);
	utterance_add(&u, o.lang, ", ");
	phrase_add(&u, &o, o.short_form ? PHRASE_SETTINGS_SHORT : PHRASE_SETTINGS_LONG, NULL);
	/* A prompt, as the game's other private words then: in the order they are said
	 * (a prompt goes before queued information). */
	say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, ms);
}

void presenter_notice(struct presenter *p, enum present_notice n, uint64_t ms)
{
	static const enum phrase_id phrases[] = {
	    [PRESENT_NOTICE_SAVE_FAILED] = PHRASE_SAVE_FAILED,
	    [PRESENT_NOTICE_SAVE_WORKS] = PHRASE_SAVE_WORKS,
	    [PRESENT_NOTICE_STORAGE_REPLACED] = PHRASE_STORAGE_REPLACED,
	};
	struct phrase_options o = options(p);
	struct utterance u;

	if ((unsigned)n >= sizeof(phrases) / sizeof(phrases[0]))
		return;
	utterance_clear(&u);
	phrase_add(&u, &o, phrases[n], NULL);
	say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, ms);
	/* The record in danger: the arbiter is wanted. */
	if (n != PRESENT_NOTICE_SAVE_WORKS)
		haptic_signal(p->haptic, HAPTIC_ARBITER);
}

void presenter_recovery(struct presenter *p, const struct present_recovery *r, uint64_t ms)
{
	struct phrase_options o = options(p);
	struct phrase_args a = {.square = -1};
	struct utterance u;

	utterance_clear(&u);
	phrase_add(&u, &o, PHRASE_RECOVERY_INCOMPLETE, NULL);
	if (r->from_scoresheet) {
		utterance_add(&u, o.lang, ". ");
		phrase_add(&u, &o, PHRASE_RECOVERED_FROM_SCORESHEET, NULL);
	}
	if (r->moves_lost) {
		a.count = r->moves_lost;
		utterance_add(&u, o.lang, ". ");
		phrase_add(&u, &o, PHRASE_RECOVERY_MOVES_LOST, &a);
	}
	if (r->readings_missing) {
		a.count = r->readings_missing;
		utterance_add(&u, o.lang, ". ");
		phrase_add(&u, &o, PHRASE_RECOVERY_READINGS_LOST, &a);
	}
	if (r->other_game) {
		utterance_add(&u, o.lang, ". ");
		phrase_add(&u, &o, PHRASE_RECOVERY_OTHER_GAME, NULL);
	}
	say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, ms);
}

/* Privately: the most severe power problem (with the battery's charge when known), or
 * that there is none any more. */
static void say_power(struct presenter *p, uint64_t ms)
{
	const struct power_status *st = &p->power;
	struct phrase_options o = options(p);
	struct phrase_args a = {.square = -1, .count = st->percent};
	struct utterance u;

	utterance_clear(&u);
	if (st->problems & POWER_UNDERVOLTAGE)
		phrase_add(&u, &o, PHRASE_POWER_UNDERVOLTAGE, NULL);
	else if (st->problems & (POWER_BATTERY_LOW | POWER_ON_BATTERY))
		phrase_add(&u, &o,
			   st->problems & POWER_BATTERY_LOW ? PHRASE_POWER_BATTERY_LOW
							    : PHRASE_POWER_ON_BATTERY,
			   NULL);
	else
		phrase_add(&u, &o, PHRASE_POWER_OK, NULL);
	if (st->problems && !(st->problems & POWER_UNDERVOLTAGE) && st->percent >= 0) {
		utterance_add(&u, o.lang, ", ");
		phrase_add(&u, &o, PHRASE_POWER_PERCENT, &a);
	}
	say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, ms);
}

void presenter_set_power(struct presenter *p, const struct power_status *st, uint64_t ms)
{
	bool first = !p->power.monitored;
	unsigned before = p->power.problems;

	p->power = *st;
	clockface_set_power(p->clockface, st->problems);
	if (first ? st->problems != 0 : st->problems != before) {
		say_power(p, ms);
		if (st->problems)
			haptic_signal(p->haptic, HAPTIC_ARBITER);
	}
}

const struct power_status *presenter_power(const struct presenter *p)
{
	return &p->power;
}

/* A review's move (docs/training.md "Going over a game"): "Zug zwölf, Weiß: Springer Gustav eins
 * Felix drei", or the start. */
static void review_move_words(struct utterance *u, const struct phrase_options *o,
			      const struct game_effect *fx)
{
	struct phrase_args a = {.square = -1, .count = fx->move_number_at};

	if (fx->move == CHESS_MOVE_NONE) {
		phrase_add(u, o, PHRASE_REVIEW_START_OF_GAME, NULL);
		return;
	}
	phrase_add(u, o,
		   fx->before.side == CHESS_WHITE ? PHRASE_REVIEW_MOVE_WHITE
						  : PHRASE_REVIEW_MOVE_BLACK,
		   &a);
	utterance_add(u, o->lang, " ");
	phrase_add_move(u, o, &fx->before, fx->move);
}

/* A review's step: the move made ("Variante: ..." into a variation), taken back ("Zurück:
 * ..."), or where we are (the last move shown, who is to move or the end, the length); the
 * variations that branch here; that the move has a comment when it is not said. */
static void review_words(struct utterance *u, const struct phrase_options *o,
			 const struct game_effect *fx)
{
	struct phrase_args a = {.square = -1, .count = fx->move_number};
	bool where = fx->review == GAME_REVIEW_WHERE || fx->review == GAME_REVIEW_LEAVE;

	switch (fx->review) {
	case GAME_REVIEW_CHOOSE_BEGIN:
		phrase_add(u, o, PHRASE_REVIEW_GOTO_PROMPT, &a);
		return;
	case GAME_REVIEW_CHOOSE:
		phrase_add(u, o, a.count ? PHRASE_REVIEW_GOTO_MOVE : PHRASE_REVIEW_START_OF_GAME,
			   &a);
		return;
	case GAME_REVIEW_BACK:
		phrase_add(u, o, PHRASE_REVIEW_BACK, NULL);
		utterance_add(u, o->lang, " ");
		break;
	case GAME_REVIEW_ENTER:
		phrase_add(u, o, PHRASE_REVIEW_VARIATION, NULL);
		utterance_add(u, o->lang, " ");
		break;
	case GAME_REVIEW_LEAVE:
		phrase_add(u, o, PHRASE_REVIEW_LEFT, NULL);
		utterance_add(u, o->lang, " ");
		break;
	case GAME_REVIEW_WHERE:
		if (fx->line) {
			phrase_add(u, o, PHRASE_REVIEW_VARIATION, NULL);
			utterance_add(u, o->lang, " ");
		}
		break;
	default:
		break;
	}
	review_move_words(u, o, fx);
	if (where) {
		utterance_add(u, o->lang, ". ");
		if (fx->ply >= fx->total)
			phrase_add(u, o,
				   fx->line ? PHRASE_REVIEW_END_OF_VARIATION
					    : PHRASE_REVIEW_END_OF_GAME,
				   NULL);
		else
			phrase_add(u, o,
				   fx->color == CHESS_WHITE ? PHRASE_REVIEW_WHITE_TO_MOVE
							    : PHRASE_REVIEW_BLACK_TO_MOVE,
				   NULL);
		utterance_add(u, o->lang, ". ");
		a.count = fx->moves_made;
		phrase_add(u, o, PHRASE_REVIEW_LENGTH, &a);
	}
	if (fx->variations) {
		a.count = fx->variations;
		utterance_add(u, o->lang, ". ");
		phrase_add(u, o, PHRASE_REVIEW_VARIATIONS, &a);
	}
	if (fx->comment && fx->review != GAME_REVIEW_BACK && (where || !fx->comment_said)) {
		utterance_add(u, o->lang, ". ");
		phrase_add(u, o, PHRASE_REVIEW_COMMENT_CUE, NULL);
	}
}

/* A move's comment in a review, after its step: "Kommentar: ...", in as many utterances as its
 * length takes, each cut after a word (information: the next step makes it stale). */
static void say_review_comment(struct presenter *p, const struct phrase_options *o,
			       const struct game_effect *fx)
{
	const char *c = fx->comment;
	struct utterance u;
	bool first = true;

	while (*c) {
		size_t room = UTTERANCE_TEXT_MAX - 64, n = strlen(c);
		char part[UTTERANCE_TEXT_MAX];

		if (n > room) {
			n = room;
			while (n > room / 2 && c[n] != ' ')
				n--;
			while (n > 0 && ((unsigned char)c[n] & 0xc0) == 0x80)
				n--;
		}
		memcpy(part, c, n);
		part[n] = '\0';
		utterance_clear(&u);
		if (first) {
			phrase_add(&u, o, PHRASE_REVIEW_COMMENT, NULL);
			utterance_add(&u, o->lang, " ");
		}
		utterance_add(&u, o->lang, part);
		say(p, fx->audience, VOICE_KIND_INFO, &u, 100, fx->ms);
		first = false;
		c += n;
		while (*c == ' ')
			c++;
	}
}

/* The game's last moves (repeat held, the menu, `last-moves`; as lichess's blind mode gives
 * them): "Letzte Züge: Zug zwanzig, Weiß: Springer Gustav eins Felix drei, Schwarz: ...", one
 * utterance a move number, the first a prompt, the rest information a move cuts short. */
static void say_last_moves(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = options(p);
	const struct game *g = p->referee ? referee_game(p->referee) : NULL;
	struct utterance u;
	bool first = true;
	int said = 0;

	if (!g)
		return;
	for (int i = fx->ply; i < fx->ply + fx->total && i < game_plies(g);) {
		struct chess_pos before;

		utterance_clear(&u);
		if (first) {
			phrase_add(&u, &o, PHRASE_LAST_MOVES, NULL);
			utterance_add(&u, o.lang, " ");
		}
		/* A move number: White's move (or Black's alone), then Black's. */
		do {
			struct phrase_args a = {.square = -1, .count = game_move_number(g, i)};
			bool white = game_ply_color(g, i) == CHESS_WHITE;

			if (white || first)
				phrase_add(&u, &o,
					   white ? PHRASE_REVIEW_MOVE_WHITE
						 : PHRASE_REVIEW_MOVE_BLACK,
					   &a);
			else {
				utterance_add(&u, o.lang, ", ");
				phrase_add(&u, &o, PHRASE_BLACK, NULL);
			}
			utterance_add(&u, o.lang, " ");
			game_position_before(g, i, &before);
			phrase_add_move(&u, &o, &before, g->plies[i].move);
			first = false;
			i++;
		} while (i < fx->ply + fx->total && i < game_plies(g) &&
			 game_ply_color(g, i) == CHESS_BLACK);
		say(p, fx->audience, said++ ? VOICE_KIND_INFO : VOICE_KIND_PROMPT, &u, 100, fx->ms);
	}
}

/* The engine's evaluation in words (docs/training.md "Playing the computer"): level within a
 * third of a pawn, "slightly better" to nearly one pawn, then "about N pawns" to five, then
 * winning; a mate seen in its moves. */
static void say_eval(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = options(p);
	int cp = fx->count < 0 ? -fx->count : fx->count, mate = fx->mate;
	bool white = fx->mate ? fx->mate > 0 : fx->count > 0;
	struct phrase_args a = {.square = -1, .count = (cp + 50) / 100};
	enum phrase_id id;
	struct utterance u;

	if (mate == 1 || mate == -1) {
		id = white ? PHRASE_EVAL_WHITE_MATES_NEXT : PHRASE_EVAL_BLACK_MATES_NEXT;
	} else if (mate) {
		a.count = mate < 0 ? -mate : mate;
		id = white ? PHRASE_EVAL_WHITE_MATES : PHRASE_EVAL_BLACK_MATES;
	} else if (cp < 30) {
		id = PHRASE_EVAL_LEVEL;
	} else if (cp < 80) {
		id = white ? PHRASE_EVAL_WHITE_SLIGHTLY : PHRASE_EVAL_BLACK_SLIGHTLY;
	} else if (cp < 150) {
		id = white ? PHRASE_EVAL_WHITE_PAWN : PHRASE_EVAL_BLACK_PAWN;
	} else if (cp < 500) {
		id = white ? PHRASE_EVAL_WHITE_PAWNS : PHRASE_EVAL_BLACK_PAWNS;
	} else {
		id = white ? PHRASE_EVAL_WHITE_WINNING : PHRASE_EVAL_BLACK_WINNING;
	}
	utterance_clear(&u);
	phrase_add(&u, &o, id, &a);
	say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
}

/* The last finished games kept (the menu's item, docs/training.md "Going over a game"): "Partie
 * zwei: Anna gegen Computer, Weiß gewinnt", one utterance each, newest first; the number is
 * what `annabella review` takes. */
static void say_games(struct presenter *p, const struct game_effect *fx)
{
	static const struct {
		const char *result;
		enum phrase_id said;
	} results[] = {{"1-0", PHRASE_RESULT_WHITE_WINS},
		       {"0-1", PHRASE_RESULT_BLACK_WINS},
		       {"1/2-1/2", PHRASE_RESULT_DRAW}};
	struct phrase_options o = options(p);
	const struct game *g = p->referee ? referee_game(p->referee) : NULL;
	struct game_summary games[3];
	struct utterance u;
	int n = store_games_list(store_dir(p->store),
				 g && g->open && !game_over(g) ? g->params.id : NULL, games,
				 fx->total < 3 ? fx->total : 3);

	if (n <= 0) {
		utterance_clear(&u);
		phrase_add(&u, &o, PHRASE_GAMES_NONE, NULL);
		say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct phrase_args a = {.square = -1, .count = games[i].number};
		enum phrase_id said = PHRASE_GAMES_NO_RESULT;

		for (size_t k = 0; k < sizeof(results) / sizeof(results[0]); k++)
			if (!strcmp(games[i].result, results[k].result))
				said = results[k].said;
		utterance_clear(&u);
		phrase_add(&u, &o, PHRASE_GAMES_ITEM, &a);
		utterance_add(&u, o.lang, " ");
		/* The players, where the scoresheet names them. */
		if (strcmp(games[i].white, "?") || strcmp(games[i].black, "?")) {
			utterance_add(&u, o.lang, games[i].white);
			utterance_add(&u, o.lang, " ");
			phrase_add(&u, &o, PHRASE_GAMES_AGAINST, NULL);
			utterance_add(&u, o.lang, " ");
			utterance_add(&u, o.lang, games[i].black);
			utterance_add(&u, o.lang, ", ");
		}
		phrase_add(&u, &o, said, NULL);
		/* The first as a prompt (it answers the menu), the rest in turn after it. */
		say(p, fx->audience, i ? VOICE_KIND_INFO : VOICE_KIND_PROMPT, &u, 100, fx->ms);
	}
}

/* A review's move, comment and position on the braille display (docs/braille.md "A review on the
 * display"). */
static void show_review(struct presenter *p, const struct phrase_options *o,
			const struct game_effect *fx)
{
	struct braille_review rv = {.pos = &fx->shown,
				    .comment = fx->comment,
				    .none = phrase_text(o->lang, PHRASE_REVIEW_START_OF_GAME),
				    .white = phrase_text(o->lang, PHRASE_WHITE),
				    .black = phrase_text(o->lang, PHRASE_BLACK),
				    .signs = p->cfg.braille_layout.signs};
	char san[CHESS_SAN_MAX];

	if (fx->review == GAME_REVIEW_BACK)
		rv.before = phrase_text(o->lang, PHRASE_REVIEW_BACK);
	else if (fx->review == GAME_REVIEW_LEAVE)
		rv.before = phrase_text(o->lang, PHRASE_REVIEW_LEFT);
	else if (fx->line)
		rv.before = phrase_text(o->lang, PHRASE_REVIEW_VARIATION);
	if (fx->move != CHESS_MOVE_NONE) {
		chess_move_to_san(&fx->before, fx->move, san, sizeof(san));
		rv.san = san;
		rv.number = fx->move_number_at;
		rv.color = (enum chess_color)fx->before.side;
	}
	display_show_review(p->display, &rv);
}

/* A move's announcement: its correction cuts the move it corrects, an echo gives way to the
 * next move, the rest is said whole (voice.h). */
static enum voice_kind move_kind(const struct game_effect *fx)
{
	if (fx->kind == GAME_FX_REPEAT)
		return VOICE_KIND_REPEAT;
	if (fx->correction)
		return VOICE_KIND_CORRECTION;
	return fx->echo ? VOICE_KIND_ECHO : VOICE_KIND_MOVE;
}

static void speak(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = options(p);
	struct phrase_args a = {.square = -1}, used;
	struct utterance u;
	int rate = 100;
	bool mate;

	utterance_clear(&u);
	switch (fx->kind) {
	case GAME_FX_SAY:
		if (fx->msg == GAME_MSG_CHECKMATE && p->mate_said)
			break;
		/* The display shows the game again once a review is over. */
		if ((fx->msg == GAME_MSG_REVIEW_ENDED || fx->msg == GAME_MSG_REVIEW_RETURN) &&
		    p->referee)
			display_show_game(p->display, referee_game(p->referee));
		/* A clock gap says its time; a rating or a level its number. */
		a.time_ms = fx->has_clock && fx->white_ms > 0 ? (uint64_t)fx->white_ms : 0;
		a.count = fx->count;
		phrase_add(&u, &o, msg_phrase[fx->msg % GAME_MSG_COUNT], &a);
		/* Public words are information a move makes stale; the quick guide too. */
		say(p, fx->audience,
		    fx->audience == GAME_AUDIENCE_PUBLIC || fx->after_move ? VOICE_KIND_INFO
									   : private_kind(fx->msg),
		    &u, 100, fx->ms);
		break;
	case GAME_FX_BRAILLE_PAGE: {
		const struct pgn_game *pgn = store_pgn(p->store);
		char *brf = pgn ? scoresheet_render(pgn, "brf", &p->cfg.braille_layout) : NULL;

		/* The page the display shows (the first again after the last); said so the
		 * player knows where the display is. */
		a.count = display_show_pages(p->display, brf ? brf : "", fx->page);
		free(brf);
		if (a.count > 0) {
			phrase_add(&u, &o, PHRASE_BRAILLE_PAGE, &a);
			say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, fx->ms);
		}
		break;
	}
	case GAME_FX_MOVE:
	case GAME_FX_REPEAT:
		if (fx->correction) {
			phrase_add(&u, &o, PHRASE_CORRECTION, NULL);
			utterance_add(&u, o.lang, ": ");
		}
		mate = phrase_add_move(&u, &o, &fx->before, fx->move);
		if (fx->kind == GAME_FX_MOVE) {
			p->mate_said = mate;
			if (presenter_reaches(PRESENT_BRAILLE, fx->audience))
				display_show_move(p->display, fx->ply, &fx->before, fx->move);
		} else {
			if (p->repeated && fx->ms - p->last_repeat_ms < PRESENT_SLOW_REPEAT_MS)
				rate = p->cfg.slow_repeat > 0 ? p->cfg.slow_repeat : 70;
			p->repeated = true;
			p->last_repeat_ms = fx->ms;
		}
		say_reported(p, fx->audience, move_kind(fx), &u, rate, fx->ms,
			     fx->kind == GAME_FX_MOVE ? fx->report : 0);
		break;
	case GAME_FX_PIECE:
		phrase_add_german(&u, phrase_piece(fx->piece));
		say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
		break;
	case GAME_FX_GUIDE:
		a.square = fx->square;
		a.piece = fx->piece;
		if (fx->confirmed)
			phrase_add(&u, &o, PHRASE_SQUARE_OK, &a);
		else if (!fx->occupied)
			phrase_add(&u, &o, PHRASE_SQUARE_EMPTY, &a);
		else if (fx->piece != CHESS_NO_PIECE)
			phrase_add(&u, &o, PHRASE_SQUARE_OCCUPIED, &a);
		else {
			char text[UTTERANCE_TEXT_MAX];

			phrase_square_should(&o, fx->square, true, CHESS_NO_PIECE, text,
					     sizeof(text));
			utterance_add(&u, o.lang, text);
		}
		/* The first square of the engine's move goes after the move's announcement
		 * (guidance would go before it); a move of the player's own makes either stale. */
		say(p, fx->audience, fx->after_move ? VOICE_KIND_INFO : VOICE_KIND_GUIDE, &u, 100,
		    fx->ms);
		break;
	case GAME_FX_HINT:
		phrase_add(&u, &o, PHRASE_HINT, NULL);
		utterance_add(&u, o.lang, " ");
		phrase_add_move(&u, &o, &fx->before, fx->move);
		say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
		break;
	case GAME_FX_REVIEW:
		if (fx->review != GAME_REVIEW_CHOOSE_BEGIN && fx->review != GAME_REVIEW_CHOOSE &&
		    presenter_reaches(PRESENT_BRAILLE, fx->audience))
			show_review(p, &o, fx);
		review_words(&u, &o, fx);
		/* A prompt, as the guidance that follows it: in the order said. */
		say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
		if (fx->comment && fx->comment_said &&
		    (fx->review == GAME_REVIEW_NEXT || fx->review == GAME_REVIEW_GOTO ||
		     fx->review == GAME_REVIEW_ENTER || fx->review == GAME_REVIEW_COMMENT))
			say_review_comment(p, &o, fx);
		break;
	case GAME_FX_TIMES:
		a.count = fx->moves_made; /* D.2.6.1: the number of moves made */
		a.white_ms = fx->white_ms > 0 ? (uint64_t)fx->white_ms : 0;
		a.black_ms = fx->black_ms > 0 ? (uint64_t)fx->black_ms : 0;
		used = a;
		used.white_ms = fx->white_used_ms > 0 ? (uint64_t)fx->white_used_ms : 0;
		used.black_ms = fx->black_used_ms > 0 ? (uint64_t)fx->black_used_ms : 0;
		if (!fx->has_clock) {
			phrase_add(&u, &o, PHRASE_MOVES_PLAYED, &a);
		} else if (p->cfg.info == PRESENT_INFO_USED) {
			phrase_add(&u, &o, PHRASE_CLOCK_USED, &used);
			utterance_add(&u, o.lang, " ");
			phrase_add(&u, &o, PHRASE_MOVES_PLAYED, &a);
		} else {
			phrase_add(&u, &o, PHRASE_CLOCK_INFO, &a);
			if (p->cfg.info == PRESENT_INFO_BOTH) {
				utterance_add(&u, o.lang, " ");
				phrase_add(&u, &o, PHRASE_CLOCK_USED, &used);
			}
		}
		/* Delay mode: the delay still left, not only the main time. */
		if (fx->has_clock && fx->delay_ms > 0) {
			struct phrase_args d = {.time_ms = (uint64_t)fx->delay_ms};

			utterance_add(&u, o.lang, " ");
			phrase_add(&u, &o,
				   fx->delay_color ? PHRASE_DELAY_BLACK : PHRASE_DELAY_WHITE, &d);
		}
		/* The clock line first: the words, as a message, go over it. */
		if (fx->has_clock && presenter_reaches(PRESENT_BRAILLE, fx->audience))
			display_show_clock(p->display, fx->white_ms, fx->black_ms);
		say(p, fx->audience, VOICE_KIND_TIME, &u, 100, fx->ms);
		break;
	case GAME_FX_GAMES:
		say_games(p, fx);
		break;
	case GAME_FX_LAST_MOVES:
		say_last_moves(p, fx);
		break;
	case GAME_FX_EVAL:
		say_eval(p, fx);
		break;
	case GAME_FX_WARNING:
		a.time_ms = fx->white_ms > 0 ? (uint64_t)fx->white_ms : 0;
		phrase_add(&u, &o, PHRASE_TIME_LEFT, &a);
		say(p, fx->audience, VOICE_KIND_TIME, &u, 100, fx->ms);
		break;
	default:
		break;
	}
}

/* What the arbiter says to the player, or the device's call for the arbiter: felt as the
 * arbiter's pattern. */
static bool arbiter_attention(enum game_msg msg)
{
	switch (msg) {
	case GAME_MSG_CLAIM_TO_ARBITER:
	case GAME_MSG_CLAIM_REJECTED:
	case GAME_MSG_CLOCKS_SET:
	case GAME_MSG_SETUP:
	case GAME_MSG_RESUMED:
	case GAME_MSG_ARBITER_RESUMES:
	case GAME_MSG_RESUMED_AFTER_RESTART:
	case GAME_MSG_RESUMED_NO_CLOCK:
	case GAME_MSG_CLOCK_UNCERTAIN:
	case GAME_MSG_ARBITER_PIN:
	case GAME_MSG_ARBITER_DONE:
		return true;
	default:
		return false;
	}
}

/* The effects the tactile player must feel when they cannot hear ([haptic]): the opponent's
 * move relayed to the device (by an assistant, or the engine's), a time warning, the arbiter's
 * words; a flag is its record's. */
static void feel(struct presenter *p, const struct game_effect *fx, const struct game *g)
{
	if (!p->haptic || !presenter_reaches(PRESENT_BRAILLE, fx->audience))
		return;
	/* A move the player did not make on the board: relayed (an assistant's, the engine's). */
	if (fx->kind == GAME_FX_MOVE && g && fx->before.side != g->params.player && fx->relayed)
		haptic_signal(p->haptic, HAPTIC_MOVE);
	else if (fx->kind == GAME_FX_WARNING)
		haptic_signal(p->haptic, HAPTIC_WARNING);
	else if (fx->kind == GAME_FX_SAY && arbiter_attention(fx->msg))
		haptic_signal(p->haptic, HAPTIC_ARBITER);
}

static void present_effect(void *user, const struct game_effect *fx)
{
	struct presenter *p = user;
	const struct game *g = p->referee ? referee_game(p->referee) : NULL;

	feel(p, fx, g);
	if (presenter_reaches(PRESENT_CLOCKFACE, fx->audience))
		clockface_touch(p->clockface);
	switch (fx->kind) {
	case GAME_FX_SCORESHEET:
		if (g) {
			store_scoresheet(p->store, g);
			if (presenter_reaches(PRESENT_BRAILLE, fx->audience))
				display_show_scoresheet(p->display, g);
		}
		break;
	case GAME_FX_GAME_START:
		if (g && p->game_hook)
			p->game_hook(p->game_hook_user, g, true, fx->ms);
		if (g) {
			store_game_start(p->store, g);
			say_settings(p, fx->ms);
			/* A low-power warning before the game (see daemon/power.h). */
			if (p->power.monitored && p->power.problems)
				say_power(p, fx->ms);
			log_info(LOG_GAME, "game %s: %s", g->params.id,
				 referee_resumed(p->referee) ? "resumed" : "begins");
		}
		break;
	case GAME_FX_GAME_END:
		if (g && p->game_hook)
			p->game_hook(p->game_hook_user, g, false, fx->ms);
		if (g)
			log_info(LOG_GAME, "game %s over: %s (%s)", g->params.id, g->result.result,
				 g->result.reason);
		break;
	case GAME_FX_FAULT:
		log_error(LOG_GAME, "%s", fx->text);
		break;
	case GAME_FX_ENGINE_ASK: {
		struct strbuf line = {0};

		/* For the training process alone (docs/training.md "Training and study"). */
		control_event_engine_ask(&line, fx, g);
		if (line.p)
			ctlsock_engine_event(p->ctl, line.p);
		free(line.p);
		break;
	}
	case GAME_FX_ONLINE_ASK: {
		struct strbuf line = {0};

		/* For the online process alone (docs/online.md "Playing online"). */
		control_event_online_ask(&line, fx);
		if (line.p)
			ctlsock_online_event(p->ctl, line.p);
		free(line.p);
		break;
	}
	case GAME_FX_AUDIT:
		/* The arbiter's menu on the buttons: into control.log, with its author ("board"
		 * for a PIN tried, "board+pin" once it was right); an arbiter's event, never
		 * spoken or shown. */
		ctlsock_audit(p->ctl, fx->ms, fx->author, (enum game_role)fx->role, fx->command,
			      fx->ok, fx->text);
		break;
	case GAME_FX_CLAIM:
		if (ctlsock_watched(p->ctl)) {
			struct strbuf line = {0};

			if (control_event_effect(&line, fx) && line.p)
				ctlsock_event(p->ctl, line.p, fx->audience);
			free(line.p);
		}
		break;
	default:
		speak(p, fx);
		break;
	}
}

static void present_record(void *user, const struct game_record *rec)
{
	struct presenter *p = user;

	store_record(p->store, rec);
	/* A fallen flag is felt whether it is said or not ([clock] flag-announce). */
	if (rec->type == REC_FLAG)
		haptic_signal(p->haptic, HAPTIC_FLAG);
	/* Every press, pause, clock setting, flag and result is a public record: the clock
	 * display and its LEDs show it. */
	if (presenter_reaches(PRESENT_CLOCKFACE, rec->audience)) {
		clockface_touch(p->clockface);
		leds_touch(p->leds);
	}
	if (ctlsock_watched(p->ctl)) {
		struct strbuf line = {0};

		/* A checkpoint changes nothing anyone sees (the clock reads the same): it is for
		 * the journal alone. */
		if (rec->type == REC_CHECKPOINT)
			return;
		control_event_record(&line, rec, p->referee ? referee_game(p->referee) : NULL);
		if (line.p)
			ctlsock_event(p->ctl, line.p, rec->audience);
		free(line.p);
	}
}

static void present_new_game(void *user, struct game_params *params)
{
	struct presenter *p = user;

	store_new_game(p->store, params);
}

struct game_sink presenter_sink(struct presenter *p)
{
	return (struct game_sink){
	    .user = p,
	    .record = present_record,
	    .effect = present_effect,
	    .new_game = present_new_game,
	};
}
