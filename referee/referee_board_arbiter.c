/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's side of the arbiter's menu on the board's buttons (board_arbiter.h): the
 * chord, the PIN and its count of wrong ones, the menu and the clock editor.  Its choices
 * are commands given as the arbiter (referee_command.c), each with its line for
 * control.log; a PIN tried is in control.log as "auth ****".  The PINs go through the PIN
 * budget of the control socket (docs/control.md "Control interface", base/pinguard.h), under the
 * key PIN_KEY_BOARD.
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

#include "base/pinguard.h"

#define HELD_FIRST_MS 500 /* a held +/- repeats after this */
#define HELD_EVERY_MS 100 /* and then this often */

static bool enabled(const struct referee *r)
{
	return r->set.board_arbiter && r->set.arbiter_pin.hash.set && r->pins;
}

void referee_attach_pins(struct referee *r, struct pin_guard *pins)
{
	r->pins = pins;
}

/* An entry in control.log for what was done at the board (a PIN tried, a command): the
 * reply's text, as for a request on the socket. */
static void audit(struct referee *r, const char *author, enum game_role role, const char *line,
		  const struct game_reply *reply, uint64_t now)
{
	struct game_effect fx = {.kind = GAME_FX_AUDIT, .ms = now, .ok = reply->ok, .role = role};

	snprintf(fx.command, sizeof(fx.command), "%s", line);
	snprintf(fx.author, sizeof(fx.author), "%s", author);
	snprintf(fx.text, sizeof(fx.text), "%s", reply->text);
	ref_effect(r, &fx);
}

/* A PIN tried at the board: "board", with the player's role (the buttons are the player's
 * until the PIN is right). */
static void audit_pin(struct referee *r, enum reply_code code, const struct reply_value *args,
		      uint64_t now)
{
	struct game_reply reply;

	game_reply_set(&reply, code, args);
	audit(r, "board", ROLE_PLAYER, "auth ****", &reply, now);
}

static struct game_command board_command(enum game_command_kind kind)
{
	struct game_command c = {.kind = kind, .role = ROLE_ARBITER, .color = -1};

	c.white_moves = c.black_moves = -1;
	snprintf(c.author, sizeof(c.author), "board+pin");
	return c;
}

/* The arbiter's command from the menu: carried out as any other, and into control.log. */
static void board_do(struct referee *r, const struct game_command *c, uint64_t now)
{
	struct game_reply reply;

	ref_command(r, c, now, &reply);
	audit(r, c->author, c->role, c->line, &reply, now);
}

static void close_menu(struct referee *r, uint64_t now)
{
	struct board_arbiter *a = &r->arb;

	a->state = BOARD_ARBITER_CLOSED;
	a->held = -1;
	a->n_entered = a->digit = 0;
	memset(a->entered, 0, sizeof(a->entered));
	ref_say(r, GAME_PRIVATE, GAME_MSG_ARBITER_DONE, now);
}

/* ------------------------------------------------------------------ the menu */

static void add_item(struct board_arbiter *a, enum board_arbiter_item item, const char *result)
{
	if (a->count == BOARD_ARBITER_ITEMS)
		return;
	a->items[a->count] = item;
	snprintf(a->results[a->count], sizeof(a->results[0]), "%s", result ? result : "");
	a->count++;
}

/* Whether the game meets what the command of that kind needs (game_command_needs()). */
static bool allowed(const struct referee *r, enum game_command_kind kind)
{
	struct game_reply why;

	return !game_command_kind_unmet(&r->g, kind, &why);
}

/* What the game allows now: a result where the arbiter's ruling is due (a flag, or "*" from
 * a rule), the clocks set, started again (they stand), each as its command needs. */
static void build_menu(struct referee *r)
{
	struct board_arbiter *a = &r->arb;
	const struct game *g = &r->g;
	const struct result_flow *res = &g->result;
	bool ruling = allowed(r, CMD_RESULT);

	a->count = a->at = 0;
	/* A ruling that is due comes first. */
	if (ruling && res->state == RESULT_FLAG_PENDING) {
		int winner = !res->flag_color;

		if (strcmp(res->flag_result, "1/2-1/2"))
			add_item(a, BOARD_ITEM_RESULT, result_win(winner));
		if (strcmp(res->flag_result, result_win(winner)))
			add_item(a, BOARD_ITEM_RESULT, "1/2-1/2");
	} else if (ruling && result_undecided(res)) {
		/* A rule left the result to the arbiter (its reason says whose win is in
		 * question): any result. */
		add_item(a, BOARD_ITEM_RESULT, "1-0");
		add_item(a, BOARD_ITEM_RESULT, "1/2-1/2");
		add_item(a, BOARD_ITEM_RESULT, "0-1");
	}
	/* The fair-play verdict, to read: the device met the policy all game, or not. */
	if (g->fairplay.measured)
		add_item(a, BOARD_ITEM_SEAL, g->fairplay.breach ? "breach" : "ok");
	if (allowed(r, CMD_CLOCK_SET))
		add_item(a, BOARD_ITEM_SET_CLOCKS, NULL);
	if (allowed(r, CMD_RESUME) && res->state == RESULT_ON && g->clock.state == CLOCK_PAUSED)
		add_item(a, BOARD_ITEM_RESUME, NULL);
	add_item(a, BOARD_ITEM_CLOSE, NULL);
}

static void open_menu(struct referee *r, uint64_t now)
{
	struct game_command c = board_command(CMD_PAUSE);

	r->arb.state = BOARD_ARBITER_MENU;
	/* The arbiter stops the clocks to intervene (6.11.2, 6.12). */
	if (allowed(r, CMD_PAUSE) && r->g.clock.state == CLOCK_RUNNING) {
		snprintf(c.line, sizeof(c.line), "pause");
		board_do(r, &c, now);
	}
	build_menu(r);
}

static void open_editor(struct referee *r, uint64_t now)
{
	struct board_arbiter *a = &r->arb;
	const struct chess_clock *c = &r->g.clock;

	a->state = BOARD_ARBITER_EDIT;
	a->field = BOARD_FIELD_WHITE_H;
	a->held = -1;
	for (int side = 0; side < 2; side++) {
		int64_t ms = clock_remaining(c, side, now);

		/* Whole seconds, as the editor sets them (H:MM:SS, hours 0..9). */
		ms = ms < 0 ? 0 : ms / 1000 * 1000;
		a->ms[side] = ms > 35999000 ? 35999000 : ms;
		a->moves[side] = c->moves[side];
	}
}

static void choose(struct referee *r, uint64_t now)
{
	struct board_arbiter *a = &r->arb;
	enum board_arbiter_item item = a->items[a->at];
	const struct game *g = &r->g;
	struct game_command c;

	switch (item) {
	case BOARD_ITEM_RESUME:
		c = board_command(CMD_RESUME);
		snprintf(c.line, sizeof(c.line), "resume");
		a->state = BOARD_ARBITER_CLOSED; /* the arbiter is done: the game goes on */
		board_do(r, &c, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_ARBITER_DONE, now);
		return;
	case BOARD_ITEM_SET_CLOCKS:
		open_editor(r, now);
		return;
	case BOARD_ITEM_RESULT:
		c = board_command(CMD_RESULT);
		snprintf(c.result, sizeof(c.result), "%s", a->results[a->at]);
		if (g->result.state == RESULT_FLAG_PENDING)
			snprintf(c.text, sizeof(c.text), "%s",
				 strcmp(c.result, "1/2-1/2")
				     ? "time forfeit (6.9), the arbiter at the board"
				     : "time forfeit: no mate possible (6.9), the arbiter at the "
				       "board");
		else
			snprintf(c.text, sizeof(c.text),
				 "the arbiter's decision at the board: %.80s", g->result.reason);
		snprintf(c.line, sizeof(c.line), "result %s %s", c.result, c.text);
		a->state = BOARD_ARBITER_CLOSED;
		board_do(r, &c, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_ARBITER_DONE, now);
		return;
	case BOARD_ITEM_CLOSE:
		close_menu(r, now);
		return;
	case BOARD_ITEM_SEAL: /* read on the display; nothing to do */
		return;
	}
}

/* ------------------------------------------------------------------ the editor */

static void step_field(struct board_arbiter *a, int delta)
{
	int side = a->field >= BOARD_FIELD_BLACK_H;
	int f = a->field - (side ? BOARD_FIELD_BLACK_H : 0);
	int64_t s = a->ms[side] / 1000, h = s / 3600, m = s / 60 % 60, sec = s % 60;

	switch (f) {
	case 0:
		h = (h + delta + 10) % 10;
		break;
	case 1:
		m = (m + delta + 60) % 60;
		break;
	case 2:
		sec = (sec + delta + 60) % 60;
		break;
	default:
		a->moves[side] += delta;
		if (a->moves[side] < 0)
			a->moves[side] = 0;
		if (a->moves[side] > 999)
			a->moves[side] = 999;
		return;
	}
	a->ms[side] = ((h * 60 + m) * 60 + sec) * 1000;
}

static void set_clocks(struct referee *r, uint64_t now)
{
	struct board_arbiter *a = &r->arb;
	struct game_command c = board_command(CMD_CLOCK_SET);
	char w[16], b[16];

	c.white_ms = a->ms[0];
	c.black_ms = a->ms[1];
	c.white_moves = a->moves[0];
	c.black_moves = a->moves[1];
	clock_format_hms(a->ms[0], w, sizeof(w));
	clock_format_hms(a->ms[1], b, sizeof(b));
	snprintf(c.line, sizeof(c.line), "clock set %s %s %d %d", w, b, a->moves[0], a->moves[1]);
	a->state = BOARD_ARBITER_MENU;
	board_do(r, &c, now);
	build_menu(r);
}

/* ------------------------------------------------------------------ the PIN */

/* The PIN entered is checked, through the PIN budget (docs/control.md "Control interface"): five
 * wrong ones are free, then each makes the next wait (2 s, doubling), so at most ten are checked in
 * a minute; a PIN tried in a wait is not checked at all (the right one neither: the wait tells
 * nothing). The digits are forgotten at once; control.log has "auth ****". */
static void check_pin(struct referee *r, uint64_t now)
{
	struct board_arbiter *a = &r->arb;
	uint64_t wait;
	bool right;

	a->entered[a->n_entered] = '\0';
	/* Only a whole PIN is checked: a stray info (or a PIN cut short) is no wrong PIN, so a
	 * player pressing info in the prompt never pushes the arbiter's next check back. */
	if (a->n_entered != r->set.arbiter_pin.hash.digits) {
		a->n_entered = a->digit = 0;
		memset(a->entered, 0, sizeof(a->entered));
		return;
	}
	right = pin_secret_check(&r->set.arbiter_pin, a->entered);
	a->n_entered = a->digit = 0;
	memset(a->entered, 0, sizeof(a->entered));
	wait = pin_guard_ask(r->pins, PIN_KEY_BOARD, now, NULL);
	if (wait) {
		audit_pin(r, REPLY_PIN_WAIT, REPLY_ARGS(REPLY_N("seconds", (wait + 999) / 1000)),
			  now);
		return;
	}
	if (!right) {
		wait = pin_guard_wrong(r->pins, PIN_KEY_BOARD, now);
		if (wait)
			audit_pin(r, REPLY_WRONG_PIN_WAIT,
				  REPLY_ARGS(REPLY_N("seconds", wait / 1000)), now);
		else
			audit_pin(r, REPLY_WRONG_PIN, NULL, now);
		return;
	}
	audit_pin(r, REPLY_AUTH, REPLY_ARGS(REPLY_S("role", "arbiter")), now);
	open_menu(r, now);
}

/* ------------------------------------------------------------------ buttons and time */

static void menu_button(struct referee *r, enum game_button b, uint64_t now)
{
	struct board_arbiter *a = &r->arb;

	switch (a->state) {
	case BOARD_ARBITER_PIN:
		if (b == GAME_BUTTON_SELECT)
			a->digit = (a->digit + 1) % 10;
		else if (b == GAME_BUTTON_REPEAT && a->n_entered < BOARD_ARBITER_PIN_MAX - 1)
			a->entered[a->n_entered++] = (char)('0' + a->digit), a->digit = 0;
		else if (b == GAME_BUTTON_INFO)
			check_pin(r, now);
		else if (b == GAME_BUTTON_PAUSE)
			close_menu(r, now);
		break;
	case BOARD_ARBITER_MENU:
		if (b == GAME_BUTTON_SELECT)
			a->at = (a->at + 1) % a->count;
		else if (b == GAME_BUTTON_INFO)
			a->at = (a->at + a->count - 1) % a->count;
		else if (b == GAME_BUTTON_REPEAT)
			choose(r, now);
		else if (b == GAME_BUTTON_PAUSE)
			close_menu(r, now);
		break;
	case BOARD_ARBITER_EDIT:
		if (b == GAME_BUTTON_SELECT) {
			a->field = (enum board_arbiter_field)((a->field + 1) % BOARD_FIELD_COUNT);
		} else if (b == GAME_BUTTON_REPEAT || b == GAME_BUTTON_INFO) {
			step_field(a, b == GAME_BUTTON_REPEAT ? 1 : -1);
			a->held = (int)b;
			a->held_next_ms = now + HELD_FIRST_MS;
		} else if (b == GAME_BUTTON_PLAYER_CLOCK || b == GAME_BUTTON_OPPONENT_CLOCK) {
			set_clocks(r, now);
		} else if (b == GAME_BUTTON_PAUSE) {
			a->state = BOARD_ARBITER_MENU;
			build_menu(r);
		}
		break;
	case BOARD_ARBITER_CLOSED:
		break;
	}
}

bool ref_arbiter_button(struct referee *r, enum game_button b, bool down, uint64_t now)
{
	struct board_arbiter *a = &r->arb;
	bool other_down;

	if (!enabled(r))
		return false;
	if (b == GAME_BUTTON_INFO || b == GAME_BUTTON_REPEAT) {
		bool *me = b == GAME_BUTTON_INFO ? &a->info_down : &a->repeat_down;
		uint64_t *since = b == GAME_BUTTON_INFO ? &a->info_ms : &a->repeat_ms;

		other_down = b == GAME_BUTTON_INFO ? a->repeat_down : a->info_down;
		*me = down;
		if (down)
			*since = now;
		if (!a->info_down && !a->repeat_down)
			a->chord_used = false;
		if (!down && a->held == (int)b)
			a->held = -1;
	} else {
		other_down = false;
	}
	if (a->state == BOARD_ARBITER_CLOSED)
		/* The chord's second button says nothing: it is the chord, not a request. */
		return down && other_down && (b == GAME_BUTTON_INFO || b == GAME_BUTTON_REPEAT);
	/* Until the PIN is right the buttons are the player's and the clocks run: a clock press
	 * counts as in play (the opponent may press while the player holds the prompt open, on
	 * the opponent's time or their own, 6.2.1), and the prompt stays open. */
	if (a->state == BOARD_ARBITER_PIN &&
	    (b == GAME_BUTTON_PLAYER_CLOCK || b == GAME_BUTTON_OPPONENT_CLOCK))
		return false;
	if (down) {
		a->last_ms = now;
		menu_button(r, b, now);
	}
	return true;
}

void ref_arbiter_tick(struct referee *r, uint64_t now)
{
	struct board_arbiter *a = &r->arb;

	if (!enabled(r))
		return;
	if (a->state == BOARD_ARBITER_CLOSED && a->info_down && a->repeat_down && !a->chord_used &&
	    now >=
		(a->info_ms > a->repeat_ms ? a->info_ms : a->repeat_ms) + BOARD_ARBITER_CHORD_MS) {
		a->chord_used = true;
		a->state = BOARD_ARBITER_PIN;
		a->last_ms = now;
		a->n_entered = a->digit = 0;
		a->held = -1;
		ref_say(r, GAME_PRIVATE, GAME_MSG_ARBITER_PIN, now);
		return;
	}
	if (a->state == BOARD_ARBITER_CLOSED)
		return;
	if (now >= a->last_ms + (a->state == BOARD_ARBITER_PIN ? BOARD_ARBITER_PIN_MS
							       : BOARD_ARBITER_MENU_MS)) {
		close_menu(r, now);
		return;
	}
	if (a->state == BOARD_ARBITER_EDIT && a->held >= 0 && now >= a->held_next_ms) {
		step_field(a, a->held == GAME_BUTTON_REPEAT ? 1 : -1);
		a->held_next_ms = now + HELD_EVERY_MS;
		a->last_ms = now;
	}
}

uint64_t ref_arbiter_deadline(const struct referee *r)
{
	const struct board_arbiter *a = &r->arb;
	uint64_t best = UINT64_MAX, t;

	if (!enabled(r))
		return best;
	if (a->state == BOARD_ARBITER_CLOSED) {
		if (a->info_down && a->repeat_down && !a->chord_used)
			best = (a->info_ms > a->repeat_ms ? a->info_ms : a->repeat_ms) +
			       BOARD_ARBITER_CHORD_MS;
		return best;
	}
	best = a->last_ms +
	       (a->state == BOARD_ARBITER_PIN ? BOARD_ARBITER_PIN_MS : BOARD_ARBITER_MENU_MS);
	if (a->state == BOARD_ARBITER_EDIT && a->held >= 0) {
		t = a->held_next_ms;
		if (t < best)
			best = t;
	}
	return best;
}

void referee_arbiter_view(const struct referee *r, uint64_t now, struct board_arbiter_view *v)
{
	const struct board_arbiter *a = &r->arb;
	uint64_t wait = r->pins ? pin_guard_wait_left(r->pins, PIN_KEY_BOARD, now) : 0;

	memset(v, 0, sizeof(*v));
	v->state = a->state;
	v->digits = a->n_entered;
	v->failures = r->pins ? pin_guard_count(r->pins, PIN_KEY_BOARD, now) : 0;
	v->wait_s = (int)((wait + 999) / 1000);
	if (a->count) {
		v->item = a->items[a->at];
		snprintf(v->result, sizeof(v->result), "%s", a->results[a->at]);
		v->at = a->at;
		v->count = a->count;
	}
	for (int side = 0; side < 2; side++) {
		v->ms[side] = a->ms[side];
		v->moves[side] = a->moves[side];
	}
	v->field = a->field;
}
