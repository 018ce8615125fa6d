/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's side of the button menu (menu.h): holding select opens it; its choices are
 * the same commands as the control interface's, given with the role of the player, each
 * item checked against what it needs of the game (menu_item_needs()) when chosen.
 */
#include "referee/referee_int.h"

#include <stdio.h>

#include "game/online.h"

static void menu_say(struct referee *r, uint64_t now)
{
	ref_say(r, GAME_PRIVATE,
		r->menu.state == MENU_CONFIRM ? GAME_MSG_MENU_CONFIRM_RESIGN
					      : menu_item_msg(menu_current(&r->menu)),
		now);
}

/* The spoken quick guide, privately: three parts, each cut short by a move's announcement
 * (the presenter says them as information that a move supersedes). */
static void menu_quick_guide(struct referee *r, uint64_t now)
{
	ref_say(r, GAME_PRIVATE, GAME_MSG_QUICK_GUIDE_BUTTONS, now);
	ref_say(r, GAME_PRIVATE, GAME_MSG_QUICK_GUIDE_MENU, now);
	ref_say(r, GAME_PRIVATE, GAME_MSG_QUICK_GUIDE_SPEECH, now);
}

/* The braille scoresheet's next page on the display; the menu stays open on the item, so
 * each repeat turns a page. */
static void menu_braille_sheet(struct referee *r, uint64_t now)
{
	struct game_effect fx = {.kind = GAME_FX_BRAILLE_PAGE, .ms = now, .channel = GAME_PRIVATE};

	r->menu.state = MENU_OPEN;
	r->menu.last_ms = now;
	fx.page = ++r->menu.sheet_page;
	ref_effect(r, &fx);
}

/* What an item asks of the server in an online game (docs/online.md "Playing online"), or -1. */
static int online_request(enum menu_item item)
{
	switch (item) {
	case MENU_OFFER_DRAW:
		return ONLINE_ASK_OFFER_DRAW;
	case MENU_ACCEPT_DRAW:
		return ONLINE_ASK_ACCEPT_DRAW;
	case MENU_DECLINE_DRAW:
		return ONLINE_ASK_DECLINE_DRAW;
	case MENU_RESIGN:
		return ONLINE_ASK_RESIGN;
	case MENU_ABORT:
		return ONLINE_ASK_ABORT;
	case MENU_TAKEBACK:
		return ONLINE_ASK_TAKEBACK;
	case MENU_ACCEPT_TAKEBACK:
		return ONLINE_ASK_ACCEPT_TAKEBACK;
	case MENU_DECLINE_TAKEBACK:
		return ONLINE_ASK_DECLINE_TAKEBACK;
	case MENU_CLAIM_VICTORY:
		return ONLINE_ASK_CLAIM_VICTORY;
	case MENU_CLAIM_DRAW_GONE:
		return ONLINE_ASK_CLAIM_DRAW;
	default:
		return -1;
	}
}

/* The command an item gives (menu_item_kind()), given as the tactile player's. */
static void menu_command(struct referee *r, enum menu_item item, uint64_t now)
{
	struct game_command cmd = {.role = ROLE_PLAYER, .color = r->g.params.player};
	struct game_reply reply;

	snprintf(cmd.author, sizeof(cmd.author), "player");
	cmd.kind = menu_item_kind(item);
	if (cmd.kind == CMD_CLAIM)
		cmd.claim = item == MENU_CLAIM_FIFTY ? CLAIM_FIFTY : CLAIM_THREEFOLD;
	ref_command(r, &cmd, now, &reply);
}

/* The review's items: end it, leave the line, or have it read aloud or quietly. */
static void menu_review(struct referee *r, enum menu_item item, uint64_t now)
{
	struct referee_review_cmd c = {.op = item == MENU_END_REVIEW	 ? REFEREE_REVIEW_END
					     : item == MENU_REVIEW_LEAVE ? REFEREE_REVIEW_LEAVE
									 : REFEREE_REVIEW_ALOUD,
				       .on = item == MENU_REVIEW_ALOUD};
	struct game_reply done;

	referee_review(r, &c, now, &done);
}

/* The last three games: what a player keeps in mind to name one for a review. */
static void menu_games(struct referee *r, uint64_t now)
{
	struct game_effect fx = {
	    .kind = GAME_FX_GAMES, .ms = now, .channel = GAME_PRIVATE, .total = 3};

	ref_effect(r, &fx);
}

/* What an item does once chosen and allowed. */
static void menu_act(struct referee *r, enum menu_item item, uint64_t now)
{
	switch (item) {
	case MENU_OFFER_DRAW:
	case MENU_ACCEPT_DRAW:
	case MENU_CLAIM_THREEFOLD:
	case MENU_CLAIM_FIFTY:
	case MENU_RESIGN:
	case MENU_APPROVE:
	case MENU_HINT:
	case MENU_EVAL:
	case MENU_TAKEBACK:
		menu_command(r, item, now);
		return;
	case MENU_QUICK_GUIDE:
		menu_quick_guide(r, now);
		return;
	case MENU_BRAILLE_SHEET:
		menu_braille_sheet(r, now);
		return;
	case MENU_REVIEW_PLAY:
		ref_review_play(r, now);
		return;
	case MENU_TRAIN:
		ref_train_request(r, now);
		return;
	case MENU_ONLINE:
		ref_online_request_play(r, now);
		return;
	case MENU_ABORT:
	case MENU_DECLINE_DRAW:
	case MENU_ACCEPT_TAKEBACK:
	case MENU_DECLINE_TAKEBACK:
	case MENU_CLAIM_VICTORY:
	case MENU_CLAIM_DRAW_GONE:
		/* Online play's own: asked in menu_choose(). */
		ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
		return;
	case MENU_END_REVIEW:
	case MENU_REVIEW_LEAVE:
	case MENU_REVIEW_ALOUD:
	case MENU_REVIEW_QUIET:
		menu_review(r, item, now);
		return;
	case MENU_REVIEW_GOTO:
		ref_review_choose(r, now);
		return;
	case MENU_LAST_MOVES:
		ref_last_moves(r, REFEREE_LAST_MOVES, now);
		return;
	case MENU_GAMES:
		menu_games(r, now);
		return;
	case MENU_CANCEL:
	case MENU_ITEM_COUNT:
		ref_say(r, GAME_PRIVATE, GAME_MSG_MENU_CLOSED, now);
		return;
	}
}

static void menu_choose(struct referee *r, uint64_t now)
{
	enum menu_item item = menu_current(&r->menu);
	char why[80];

	if (item == MENU_RESIGN && r->menu.state != MENU_CONFIRM) {
		r->menu.state = MENU_CONFIRM;
		r->menu.last_ms = now;
		menu_say(r, now);
		return;
	}
	r->menu.state = MENU_CLOSED;
	if (game_command_unmet(&r->g, GAME_MODES_ALL, menu_item_needs(item), why, sizeof(why))) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
		return;
	}
	if (r->g.params.mode == GAME_ONLINE && online_request(item) >= 0) {
		/* Asked of the server: the game changes when its stream says so. */
		ref_online_ask(r, online_request(item), now);
		return;
	}
	menu_act(r, item, now);
}

void ref_menu_button(struct referee *r, enum game_button b, uint64_t now)
{
	if (b == GAME_BUTTON_SELECT) {
		menu_next(&r->menu, now);
		menu_say(r, now);
	} else if (b == GAME_BUTTON_REPEAT) {
		menu_choose(r, now);
	}
}

void ref_menu_tick(struct referee *r, uint64_t now)
{
	if (r->select_down && !r->select_hold_used && now >= r->select_down_ms + r->set.hold_ms) {
		r->select_hold_used = true;
		if (r->menu.state == MENU_CLOSED) {
			r->menu.braille_sheet = r->set.braille_display;
			r->menu.engine_playing = r->engine.state == REFEREE_ENGINE_PLAYING;
			r->menu.train_entry =
			    r->set.train_menu && r->engine.state != REFEREE_ENGINE_PLAYING;
			r->menu.in_review = review_active(&r->review);
			r->menu.review_variation = r->review.cur != REVIEW_MAIN;
			r->menu.review_aloud = r->review.aloud;
			/* The menu takes the buttons from a move being chosen. */
			r->review.choosing = false;
			r->menu.online_entry = r->set.online_menu;
			r->menu.online_offers = r->online.offers;
			r->menu.online_claimable = ref_online_claimable(r, now);
			menu_open(&r->menu, &r->g, now);
			menu_say(r, now);
		}
	}
	if (r->menu.state != MENU_CLOSED && now >= r->menu.last_ms + r->set.menu_ms) {
		r->menu.state = MENU_CLOSED;
		ref_say(r, GAME_PRIVATE, GAME_MSG_MENU_CLOSED, now);
	}
}

uint64_t ref_menu_deadline(const struct referee *r)
{
	uint64_t best = UINT64_MAX;

	if (r->select_down && !r->select_hold_used)
		best = r->select_down_ms + r->set.hold_ms;
	if (r->menu.state != MENU_CLOSED && r->menu.last_ms + r->set.menu_ms < best)
		best = r->menu.last_ms + r->set.menu_ms;
	return best;
}
