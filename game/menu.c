/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/menu.h"

#include <string.h>

#include "game/command.h"
#include "game/online.h"

enum game_command_kind menu_item_kind(enum menu_item item)
{
	switch (item) {
	case MENU_OFFER_DRAW:
		return CMD_DRAW_OFFER;
	case MENU_ACCEPT_DRAW:
		return CMD_ACCEPT_DRAW;
	case MENU_CLAIM_THREEFOLD:
	case MENU_CLAIM_FIFTY:
		return CMD_CLAIM;
	case MENU_RESIGN:
		return CMD_RESIGN;
	case MENU_APPROVE:
		return CMD_APPROVE;
	case MENU_HINT:
		return CMD_HINT;
	case MENU_EVAL:
		return CMD_EVAL;
	case MENU_TAKEBACK:
		return CMD_TAKEBACK;
	case MENU_LAST_MOVES:
		return CMD_LAST_MOVES;
	default:
		return CMD_KIND_COUNT;
	}
}

unsigned menu_item_needs(enum menu_item item)
{
	enum game_command_kind kind = menu_item_kind(item);

	if (kind != CMD_KIND_COUNT)
		return game_command_needs(kind)->needs;
	switch (item) {
	case MENU_TRAIN:
		/* A training game asked of the training process: from a game not over. */
		return GAME_NEED_NOT_OVER;
	case MENU_ABORT:
	case MENU_DECLINE_DRAW:
	case MENU_ACCEPT_TAKEBACK:
	case MENU_DECLINE_TAKEBACK:
	case MENU_CLAIM_VICTORY:
	case MENU_CLAIM_DRAW_GONE:
		/* Asked of the server in an online game that is on. */
		return GAME_NEED_PLAY;
	default:
		/* The help, the review's items, the online entry: nothing of the game. */
		return 0;
	}
}

/* Whether the game meets what an item needs (menu_item_needs()); the menu offers its items
 * by mode itself. */
static bool allowed(const struct game *g, enum menu_item item)
{
	char why[80];

	return !game_command_unmet(g, GAME_MODES_ALL, menu_item_needs(item), why, sizeof(why));
}

/* What the menu offers after cancel, changing nothing in the game: the quick guide, the
 * braille scoresheet, in casual play the finished games. */
static void menu_add_help(struct menu *m, const struct game *g)
{
	m->items[m->count++] = MENU_QUICK_GUIDE;
	if (m->braille_sheet)
		m->items[m->count++] = MENU_BRAILLE_SHEET;
	if (g->params.mode == GAME_CASUAL)
		m->items[m->count++] = MENU_GAMES;
	if (!m->in_review && game_plies(g) > 0)
		m->items[m->count++] = MENU_LAST_MOVES;
}

/* Casual play's items (docs/training.md "Training and study"), first: what a player training alone
 * uses most.
 */
static void menu_add_training(struct menu *m, const struct game *g)
{
	int player = g->params.player;

	if (g->params.mode != GAME_CASUAL)
		return;
	if (m->engine_playing && game_position(g)->side == player && allowed(g, MENU_HINT))
		m->items[m->count++] = MENU_HINT;
	if (m->engine_playing && allowed(g, MENU_EVAL))
		m->items[m->count++] = MENU_EVAL;
	if (game_last_ply_of(g, player) >= 0 && allowed(g, MENU_TAKEBACK))
		m->items[m->count++] = MENU_TAKEBACK;
	if (m->train_entry && allowed(g, MENU_TRAIN))
		m->items[m->count++] = MENU_TRAIN;
}

/* Online play's items (docs/online.md "Playing online"): what the server allows now. */
static void menu_add_online(struct menu *m, const struct game *g)
{
	int player = g->params.player;
	unsigned offers = m->online_offers;
	char why[80];

	if (game_command_unmet(g, GAME_MODES_ALL, GAME_NEED_PLAY, why, sizeof(why)))
		return;
	/* What the opponent asks first: it waits for an answer. */
	if (offers & ONLINE_OFFER_DRAW(!player)) {
		m->items[m->count++] = MENU_ACCEPT_DRAW;
		m->items[m->count++] = MENU_DECLINE_DRAW;
	}
	if (offers & ONLINE_OFFER_TAKEBACK(!player)) {
		m->items[m->count++] = MENU_ACCEPT_TAKEBACK;
		m->items[m->count++] = MENU_DECLINE_TAKEBACK;
	}
	if (m->online_claimable) {
		m->items[m->count++] = MENU_CLAIM_VICTORY;
		m->items[m->count++] = MENU_CLAIM_DRAW_GONE;
	}
	if (game_plies(g) < 2)
		m->items[m->count++] = MENU_ABORT;
	if (!(offers & (ONLINE_OFFER_DRAW(player) | ONLINE_OFFER_DRAW(!player))))
		m->items[m->count++] = MENU_OFFER_DRAW;
	if (!(offers & (ONLINE_OFFER_TAKEBACK(player) | ONLINE_OFFER_TAKEBACK(!player))) &&
	    game_last_ply_of(g, player) >= 0)
		m->items[m->count++] = MENU_TAKEBACK;
	m->items[m->count++] = MENU_RESIGN;
}

/* Whether a game is on (moves made or the clock started, no result yet). */
static bool game_on(const struct game *g)
{
	return !game_over(g) &&
	       (game_plies(g) > 0 || (g->has_clock && g->clock.state != CLOCK_NOT_STARTED));
}

void menu_open(struct menu *m, const struct game *g, uint64_t now)
{
	int player = g->params.player;
	bool made;

	m->count = 0;
	if (m->in_review) {
		/* The game stands while a review is on: ending it, moving in it, how it is
		 * said, and the help. */
		m->items[m->count++] = MENU_END_REVIEW;
		m->items[m->count++] = MENU_REVIEW_GOTO;
		m->items[m->count++] = MENU_REVIEW_PLAY;
		if (m->review_variation)
			m->items[m->count++] = MENU_REVIEW_LEAVE;
		m->items[m->count++] = m->review_aloud ? MENU_REVIEW_QUIET : MENU_REVIEW_ALOUD;
		m->items[m->count++] = MENU_CANCEL;
		menu_add_help(m, g);
		m->at = 0;
		m->sheet_page = 0;
		m->state = MENU_OPEN;
		m->last_ms = now;
		return;
	}
	if (g->params.mode == GAME_ONLINE) {
		menu_add_online(m, g);
		/* After an online game, the next one. */
		if (m->online_entry && game_over(g) && !result_undecided(&g->result))
			m->items[m->count++] = MENU_ONLINE;
		m->items[m->count++] = MENU_CANCEL;
		menu_add_help(m, g);
		m->at = 0;
		m->sheet_page = 0;
		m->state = MENU_OPEN;
		m->last_ms = now;
		return;
	}
	menu_add_training(m, g);
	if (m->online_entry && g->params.mode == GAME_CASUAL && !game_on(g) &&
	    !result_undecided(&g->result))
		m->items[m->count++] = MENU_ONLINE;
	if (allowed(g, MENU_OFFER_DRAW))
		m->items[m->count++] = MENU_OFFER_DRAW;
	if (g->offer_color >= 0 && g->offer_color != player && allowed(g, MENU_ACCEPT_DRAW))
		m->items[m->count++] = MENU_ACCEPT_DRAW;
	/* Claims only on the player's move (9.2, 9.3), as the claim itself checks. */
	if (allowed(g, MENU_CLAIM_THREEFOLD) && game_claim_on_move(g, &made) == player) {
		m->items[m->count++] = MENU_CLAIM_THREEFOLD;
		m->items[m->count++] = MENU_CLAIM_FIFTY;
	}
	if (allowed(g, MENU_RESIGN))
		m->items[m->count++] = MENU_RESIGN;
	if ((g->result.state == RESULT_ENDED || g->result.state == RESULT_FLAG_PENDING) &&
	    !result_undecided(&g->result))
		m->items[m->count++] = MENU_APPROVE;
	m->items[m->count++] = MENU_CANCEL;
	menu_add_help(m, g);
	m->at = 0;
	m->sheet_page = 0;
	m->state = MENU_OPEN;
	m->last_ms = now;
}

void menu_next(struct menu *m, uint64_t now)
{
	if (m->state == MENU_CLOSED)
		return;
	m->state = MENU_OPEN;
	m->at = (m->at + 1) % m->count;
	m->last_ms = now;
}

enum menu_item menu_current(const struct menu *m)
{
	return m->items[m->at];
}

enum game_msg menu_item_msg(enum menu_item item)
{
	static const enum game_msg msgs[MENU_ITEM_COUNT] = {
	    [MENU_OFFER_DRAW] = GAME_MSG_MENU_OFFER_DRAW,
	    [MENU_ACCEPT_DRAW] = GAME_MSG_MENU_ACCEPT_DRAW,
	    [MENU_CLAIM_THREEFOLD] = GAME_MSG_MENU_CLAIM_THREEFOLD,
	    [MENU_CLAIM_FIFTY] = GAME_MSG_MENU_CLAIM_FIFTY,
	    [MENU_RESIGN] = GAME_MSG_MENU_RESIGN,
	    [MENU_APPROVE] = GAME_MSG_MENU_APPROVE,
	    [MENU_CANCEL] = GAME_MSG_MENU_CANCEL,
	    [MENU_QUICK_GUIDE] = GAME_MSG_MENU_QUICK_GUIDE,
	    [MENU_BRAILLE_SHEET] = GAME_MSG_MENU_BRAILLE_SHEET,
	    [MENU_HINT] = GAME_MSG_MENU_HINT,
	    [MENU_TAKEBACK] = GAME_MSG_MENU_TAKEBACK,
	    [MENU_TRAIN] = GAME_MSG_MENU_TRAIN,
	    [MENU_END_REVIEW] = GAME_MSG_MENU_END_REVIEW,
	    [MENU_REVIEW_GOTO] = GAME_MSG_MENU_REVIEW_GOTO,
	    [MENU_REVIEW_LEAVE] = GAME_MSG_MENU_REVIEW_LEAVE,
	    [MENU_REVIEW_ALOUD] = GAME_MSG_MENU_REVIEW_ALOUD,
	    [MENU_REVIEW_QUIET] = GAME_MSG_MENU_REVIEW_QUIET,
	    [MENU_GAMES] = GAME_MSG_MENU_GAMES,
	    [MENU_LAST_MOVES] = GAME_MSG_MENU_LAST_MOVES,
	    [MENU_EVAL] = GAME_MSG_MENU_EVAL,
	    [MENU_REVIEW_PLAY] = GAME_MSG_MENU_REVIEW_PLAY,
	    [MENU_ONLINE] = GAME_MSG_MENU_ONLINE,
	    [MENU_ABORT] = GAME_MSG_MENU_ABORT,
	    [MENU_DECLINE_DRAW] = GAME_MSG_MENU_DECLINE_DRAW,
	    [MENU_ACCEPT_TAKEBACK] = GAME_MSG_MENU_ACCEPT_TAKEBACK,
	    [MENU_DECLINE_TAKEBACK] = GAME_MSG_MENU_DECLINE_TAKEBACK,
	    [MENU_CLAIM_VICTORY] = GAME_MSG_MENU_CLAIM_VICTORY,
	    [MENU_CLAIM_DRAW_GONE] = GAME_MSG_MENU_CLAIM_DRAW_GONE,
	};

	return (unsigned)item < MENU_ITEM_COUNT ? msgs[item] : GAME_MSG_MENU_CANCEL;
}
