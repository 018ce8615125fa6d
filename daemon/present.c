/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/present_int.h"

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
#include "store/scoresheet.h"

void presenter_set_game_hook(struct presenter *p, presenter_game_hook fn, void *user)
{
	p->game_hook = fn;
	p->game_hook_user = user;
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
struct phrase_options present_options(const struct presenter *p)
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
	struct phrase_options o = present_options(p);

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

void present_say(struct presenter *p, enum game_audience audience, enum voice_kind kind,
		 const struct utterance *u, int rate_percent, uint64_t ms)
{
	say_reported(p, audience, kind, u, rate_percent, ms, 0);
}

/* Once, privately, when the first game opens or resumes: the language, the rate and the
 * form of the announcements. */
static void say_settings(struct presenter *p, uint64_t ms)
{
	struct phrase_options o = present_options(p);
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
	present_say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, ms);
}

void presenter_notice(struct presenter *p, enum present_notice n, uint64_t ms)
{
	static const enum phrase_id phrases[] = {
	    [PRESENT_NOTICE_SAVE_FAILED] = PHRASE_SAVE_FAILED,
	    [PRESENT_NOTICE_SAVE_WORKS] = PHRASE_SAVE_WORKS,
	    [PRESENT_NOTICE_STORAGE_REPLACED] = PHRASE_STORAGE_REPLACED,
	};
	struct phrase_options o = present_options(p);
	struct utterance u;

	if ((unsigned)n >= sizeof(phrases) / sizeof(phrases[0]))
		return;
	utterance_clear(&u);
	phrase_add(&u, &o, phrases[n], NULL);
	present_say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, ms);
	/* The record in danger: the arbiter is wanted. */
	if (n != PRESENT_NOTICE_SAVE_WORKS)
		haptic_signal(p->haptic, HAPTIC_ARBITER);
}

void presenter_recovery(struct presenter *p, const struct present_recovery *r, uint64_t ms)
{
	struct phrase_options o = present_options(p);
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
	present_say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, ms);
}

/* Privately: the most severe power problem (with the battery's charge when known), or
 * that there is none any more. */
static void say_power(struct presenter *p, uint64_t ms)
{
	const struct power_status *st = &p->power;
	struct phrase_options o = present_options(p);
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
	present_say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, ms);
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

/* A message of the referee's: public words are information a move makes stale; the quick
 * guide too. */
static void say_message(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = present_options(p);
	struct phrase_args a = {.square = -1};
	struct utterance u;

	if (fx->msg == GAME_MSG_CHECKMATE && p->mate_said)
		return;
	/* The display shows the game again once a review is over. */
	if ((fx->msg == GAME_MSG_REVIEW_ENDED || fx->msg == GAME_MSG_REVIEW_RETURN) && p->referee)
		display_show_game(p->display, referee_game(p->referee));
	/* A clock gap says its time; a rating or a level its number. */
	a.time_ms = fx->has_clock && fx->white_ms > 0 ? (uint64_t)fx->white_ms : 0;
	a.count = fx->count;
	utterance_clear(&u);
	phrase_add(&u, &o, present_msg_phrase(fx->msg), &a);
	present_say(p, fx->audience,
		    fx->audience == GAME_AUDIENCE_PUBLIC || fx->after_move
			? VOICE_KIND_INFO
			: present_msg_kind(fx->msg),
		    &u, 100, fx->ms);
}

/* The braille scoresheet's page the display shows (the first again after the last); said so
 * the player knows where the display is. */
static void show_braille_page(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = present_options(p);
	const struct pgn_game *pgn = store_pgn(p->store);
	char *brf = pgn ? scoresheet_render(pgn, "brf", &p->cfg.braille_layout) : NULL;
	struct phrase_args a = {.square = -1};
	struct utterance u;

	a.count = display_show_pages(p->display, brf ? brf : "", fx->page);
	free(brf);
	if (a.count > 0) {
		utterance_clear(&u);
		phrase_add(&u, &o, PHRASE_BRAILLE_PAGE, &a);
		present_say(p, GAME_AUDIENCE_PLAYER, VOICE_KIND_PROMPT, &u, 100, fx->ms);
	}
}

/* A move announced, or repeated (slower when `repeat` comes again within
 * PRESENT_SLOW_REPEAT_MS). */
static void say_move(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = present_options(p);
	struct utterance u;
	int rate = 100;
	bool mate;

	utterance_clear(&u);
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
}

/* A square of the guidance: right, empty, occupied, or what should be on it. */
static void say_guide(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = present_options(p);
	struct phrase_args a = {.square = fx->square, .piece = fx->piece};
	struct utterance u;

	utterance_clear(&u);
	if (fx->confirmed)
		phrase_add(&u, &o, PHRASE_SQUARE_OK, &a);
	else if (!fx->occupied)
		phrase_add(&u, &o, PHRASE_SQUARE_EMPTY, &a);
	else if (fx->piece != CHESS_NO_PIECE)
		phrase_add(&u, &o, PHRASE_SQUARE_OCCUPIED, &a);
	else {
		char text[UTTERANCE_TEXT_MAX];

		phrase_square_should(&o, fx->square, true, CHESS_NO_PIECE, text, sizeof(text));
		utterance_add(&u, o.lang, text);
	}
	/* The first square of the engine's move goes after the move's announcement
	 * (guidance would go before it); a move of the player's own makes either stale. */
	present_say(p, fx->audience, fx->after_move ? VOICE_KIND_INFO : VOICE_KIND_GUIDE, &u, 100,
		    fx->ms);
}

/* `info`: the moves made (D.2.6.1) and the clocks as [clock] info asks, the delay still left;
 * the clock line on the braille display. */
static void say_times(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = present_options(p);
	struct phrase_args a = {.square = -1}, used;
	struct utterance u;

	utterance_clear(&u);
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
		phrase_add(&u, &o, fx->delay_color ? PHRASE_DELAY_BLACK : PHRASE_DELAY_WHITE, &d);
	}
	/* The clock line first: the words, as a message, go over it. */
	if (fx->has_clock && presenter_reaches(PRESENT_BRAILLE, fx->audience))
		display_show_clock(p->display, fx->white_ms, fx->black_ms);
	present_say(p, fx->audience, VOICE_KIND_TIME, &u, 100, fx->ms);
}

static void speak(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = present_options(p);
	struct phrase_args a = {.square = -1};
	struct utterance u;

	utterance_clear(&u);
	switch (fx->kind) {
	case GAME_FX_SAY:
		say_message(p, fx);
		break;
	case GAME_FX_BRAILLE_PAGE:
		show_braille_page(p, fx);
		break;
	case GAME_FX_MOVE:
	case GAME_FX_REPEAT:
		say_move(p, fx);
		break;
	case GAME_FX_PIECE:
		phrase_add_german(&u, phrase_piece(fx->piece));
		present_say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
		break;
	case GAME_FX_GUIDE:
		say_guide(p, fx);
		break;
	case GAME_FX_HINT:
		phrase_add(&u, &o, PHRASE_HINT, NULL);
		utterance_add(&u, o.lang, " ");
		phrase_add_move(&u, &o, &fx->before, fx->move);
		present_say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
		break;
	case GAME_FX_REVIEW:
		present_review(p, fx);
		break;
	case GAME_FX_TIMES:
		say_times(p, fx);
		break;
	case GAME_FX_GAMES:
		present_games(p, fx);
		break;
	case GAME_FX_LAST_MOVES:
		present_last_moves(p, fx);
		break;
	case GAME_FX_EVAL:
		present_eval(p, fx);
		break;
	case GAME_FX_WARNING:
		a.time_ms = fx->white_ms > 0 ? (uint64_t)fx->white_ms : 0;
		phrase_add(&u, &o, PHRASE_TIME_LEFT, &a);
		present_say(p, fx->audience, VOICE_KIND_TIME, &u, 100, fx->ms);
		break;
	default:
		break;
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
	else if (fx->kind == GAME_FX_SAY && present_msg_arbiter(fx->msg))
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
