/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/present.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "control/protocol.h"
#include "daemon/clockface.h"
#include "daemon/leds.h"
#include "daemon/ctlsock.h"
#include "daemon/display.h"
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

bool presenter_reaches(enum present_sink sink, enum game_audience audience)
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
 * (an arbiter's is never spoken), and to the watchers it reaches. */
static void say(struct presenter *p, enum game_audience audience, enum voice_kind kind,
		const struct utterance *u, int rate_percent, uint64_t ms)
{
	if (!u->text[0])
		return;
	if (p->voice && presenter_reaches(PRESENT_SPEAKER, audience))
		voice_say_utterance(p->voice, VOICE_PUBLIC, kind, u, rate_percent, ms);
	else if (p->voice && presenter_reaches(PRESENT_EARPHONE, audience))
		voice_say_utterance(p->voice, VOICE_PRIVATE, kind, u, rate_percent, ms);
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
	if (first ? st->problems != 0 : st->problems != before)
		say_power(p, ms);
}

const struct power_status *presenter_power(const struct presenter *p)
{
	return &p->power;
}

/* A review's step (docs/training.md "Training and study"): "Zug zwölf, Weiß: Springer Gustav eins
 * Felix drei"; back: "Zurück: ..." the move taken back; where are we: the last move shown (or the
 * start), the side to move (or the end), and the game's length. */
static void review_words(struct utterance *u, const struct phrase_options *o,
			 const struct game_effect *fx)
{
	struct phrase_args a = {.square = -1};

	if (fx->review == GAME_REVIEW_BACK) {
		phrase_add(u, o, PHRASE_REVIEW_BACK, NULL);
		utterance_add(u, o->lang, " ");
	}
	if (fx->move != CHESS_MOVE_NONE) {
		a.count = fx->move_number_at;
		phrase_add(u, o,
			   fx->before.side == CHESS_WHITE ? PHRASE_REVIEW_MOVE_WHITE
							  : PHRASE_REVIEW_MOVE_BLACK,
			   &a);
		utterance_add(u, o->lang, " ");
		phrase_add_move(u, o, &fx->before, fx->move);
	} else if (fx->review == GAME_REVIEW_WHERE) {
		phrase_add(u, o, PHRASE_REVIEW_START_OF_GAME, NULL);
	}
	if (fx->review != GAME_REVIEW_WHERE)
		return;
	utterance_add(u, o->lang, ". ");
	if (fx->ply >= fx->total)
		phrase_add(u, o, PHRASE_REVIEW_END_OF_GAME, NULL);
	else
		phrase_add(u, o,
			   fx->color == CHESS_WHITE ? PHRASE_REVIEW_WHITE_TO_MOVE
						    : PHRASE_REVIEW_BLACK_TO_MOVE,
			   NULL);
	utterance_add(u, o->lang, ". ");
	a.count = fx->moves_made;
	phrase_add(u, o, PHRASE_REVIEW_LENGTH, &a);
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
		/* A clock gap says its time. */
		a.time_ms = fx->has_clock && fx->white_ms > 0 ? (uint64_t)fx->white_ms : 0;
		phrase_add(&u, &o, msg_phrase[fx->msg % GAME_MSG_COUNT], &a);
		/* The quick guide is long: a move's announcement cuts it short. */
		say(p, fx->audience,
		    fx->audience == GAME_AUDIENCE_PUBLIC || is_quick_guide(fx->msg)
			? VOICE_KIND_INFO
			: VOICE_KIND_PROMPT,
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
		say(p, fx->audience, fx->kind == GAME_FX_MOVE ? VOICE_KIND_MOVE : VOICE_KIND_REPEAT,
		    &u, rate, fx->ms);
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
		/* The first square of the engine's move goes after the move's announcement (a
		 * prompt would go before it); a move of the player's own makes it stale. */
		say(p, fx->audience, fx->after_move ? VOICE_KIND_INFO : VOICE_KIND_PROMPT, &u, 100,
		    fx->ms);
		break;
	case GAME_FX_HINT:
		phrase_add(&u, &o, PHRASE_HINT, NULL);
		utterance_add(&u, o.lang, " ");
		phrase_add_move(&u, &o, &fx->before, fx->move);
		say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
		break;
	case GAME_FX_REVIEW:
		review_words(&u, &o, fx);
		/* A prompt, as the guidance that follows it: in the order said. */
		say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
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
		say(p, fx->audience, VOICE_KIND_TIME, &u, 100, fx->ms);
		if (fx->has_clock && presenter_reaches(PRESENT_BRAILLE, fx->audience))
			display_show_clock(p->display, fx->white_ms, fx->black_ms);
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

static void present_effect(void *user, const struct game_effect *fx)
{
	struct presenter *p = user;
	const struct game *g = p->referee ? referee_game(p->referee) : NULL;

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
