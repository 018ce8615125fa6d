/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/menu.h"

void menu_open(struct menu *m, const struct game *g, uint64_t now)
{
	int player = g->params.player;

	m->count = 0;
	if (!game_over(g) && g->result.state == RESULT_ON) {
		m->items[m->count++] = MENU_OFFER_DRAW;
		if (g->offer_color >= 0 && g->offer_color != player)
			m->items[m->count++] = MENU_ACCEPT_DRAW;
		m->items[m->count++] = MENU_CLAIM_THREEFOLD;
		m->items[m->count++] = MENU_CLAIM_FIFTY;
		m->items[m->count++] = MENU_RESIGN;
	}
	if ((g->result.state == RESULT_ENDED || g->result.state == RESULT_FLAG_PENDING) &&
	    !result_undecided(&g->result))
		m->items[m->count++] = MENU_APPROVE;
	m->items[m->count++] = MENU_CANCEL;
	m->at = 0;
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
	};

	return (unsigned)item < MENU_ITEM_COUNT ? msgs[item] : GAME_MSG_MENU_CANCEL;
}
