/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/display.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

struct display {
	struct braille_display *braille;
	struct loop *loop;
	struct referee *referee;
	int fd;
	/* The scoresheet handed to the panel (it copies it). */
	const char *san[GAME_MAX_PLIES];
	bool offers[GAME_MAX_PLIES];
	/* The message on the display: its utterances' BRF lines, and when they were said. */
	char message[4096];
	size_t message_len;
	uint64_t message_ms;
};

/* Lines as wide as a display's usual 40 cells; the panel pans along them on a smaller one. */
#define DISPLAY_LINE_CELLS 40

/* A key of the display: what the board's button does, pressed and released at once. */
static void display_ready(void *user, int fd, short revents, uint64_t now)
{
	struct display *d = user;
	enum braille_command cmds[8];
	int n;

	(void)fd;
	(void)revents;
	n = braille_display_service(d->braille, cmds, 8);
	for (int i = 0; i < n; i++) {
		struct game_event ev = {.kind = GAME_EV_BUTTON, .ms = now, .active = true};

		if (cmds[i] == BRAILLE_COMMAND_INFO)
			ev.index = GAME_BUTTON_INFO;
		else if (cmds[i] == BRAILLE_COMMAND_REPEAT)
			ev.index = GAME_BUTTON_REPEAT;
		else
			continue;
		log_info(LOG_BRAILLE, "display key: %s",
			 ev.index == GAME_BUTTON_INFO ? "info" : "repeat");
		referee_handle(d->referee, &ev);
		ev.active = false;
		referee_handle(d->referee, &ev);
	}
}

struct display *display_open(const struct config *cfg, struct loop *loop, struct referee *referee)
{
	struct braille_display_config bc = {
	    .host = cfg->braille_host[0] ? cfg->braille_host : NULL,
	    .auth = cfg->braille_auth[0] ? cfg->braille_auth : NULL,
	    .tty = cfg->braille_tty,
	    .notation = cfg->braille_notation,
	    .signs = cfg->braille_layout.signs,
	};
	struct display *d;

	if (!cfg->braille_display)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d) {
		log_error(LOG_BRAILLE, "braille display: out of memory; going on without it");
		return NULL;
	}
	d->braille = braille_display_open(&bc);
	if (!d->braille) {
		log_error(LOG_BRAILLE, "braille display cannot start: %s; going on without it",
			  strerror(errno));
		free(d);
		return NULL;
	}
	d->loop = loop;
	d->referee = referee;
	d->fd = braille_display_fd(d->braille);
	if (d->fd >= 0)
		loop_add_fd(loop, d->fd, POLLIN, display_ready, d);
	return d;
}

void display_close(struct display *d)
{
	if (!d)
		return;
	if (d->fd >= 0)
		loop_remove_fd(d->loop, d->fd);
	braille_display_close(d->braille);
	free(d);
}

void display_show_move(struct display *d, int ply, const struct chess_pos *before, chess_move m)
{
	if (d)
		braille_display_show_move(d->braille, ply, before, m);
}

void display_show_clock(struct display *d, int64_t white_ms, int64_t black_ms)
{
	if (d)
		braille_display_show_clock(d->braille, white_ms, black_ms);
}

int display_show_pages(struct display *d, const char *brf, int page)
{
	int shown = 0, count = 0;

	if (!d)
		return 0;
	/* Count the pages first, so a page past the last wraps round. */
	braille_display_show_pages(d->braille, brf, 1, &shown, &count);
	if (count > 0 && page > 1)
		braille_display_show_pages(d->braille, brf, (page - 1) % count + 1, &shown, &count);
	log_info(LOG_BRAILLE, "scoresheet page %d of %d on the display", shown, count);
	return shown;
}

void display_show_review(struct display *d, const struct braille_review *rv)
{
	char *brf;

	if (!d)
		return;
	brf = braille_review_brf(rv, DISPLAY_LINE_CELLS);
	if (brf)
		braille_display_show_pages(d->braille, brf, 1, NULL, NULL);
	free(brf);
}

void display_show_game(struct display *d, const struct game *g)
{
	if (!d)
		return;
	display_show_scoresheet(d, g);
	braille_display_home(d->braille);
}

void display_message(struct display *d, const char *text, uint64_t ms)
{
	struct braille_layout layout = {.cells_per_line = DISPLAY_LINE_CELLS,
					.page_number = BRAILLE_PAGE_NUMBER_NONE};
	char *brf;
	size_t n;

	if (!d || !text[0])
		return;
	/* One moment's utterances together (a step and its guidance), each from a new line. */
	if (ms != d->message_ms)
		d->message_len = 0;
	d->message_ms = ms;
	brf = braille_text_pages(text, BRAILLE_BRF, &layout);
	n = brf ? strlen(brf) : 0;
	if (n && d->message_len + n < sizeof(d->message)) {
		memcpy(d->message + d->message_len, brf, n + 1);
		d->message_len += n;
		braille_display_show_message(d->braille, d->message);
	}
	free(brf);
}

void display_show_scoresheet(struct display *d, const struct game *g)
{
	struct scoresheet_san sheet = {0};
	int plies = game_plies(g);

	if (!d)
		return;
	if (plies > GAME_MAX_PLIES)
		plies = GAME_MAX_PLIES;
	for (int i = 0; i < plies; i++) {
		d->san[i] = g->plies[i].san;
		d->offers[i] = (g->plies[i].flags & GAME_PLY_DRAW_OFFER) != 0;
	}
	sheet.san = d->san;
	sheet.count = plies;
	sheet.first_number = g->start.fullmove_number;
	sheet.first_color = (enum chess_color)g->start.side;
	sheet.draw_offered = d->offers;
	braille_display_set_scoresheet(d->braille, &sheet);
}
