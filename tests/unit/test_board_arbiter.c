/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The arbiter at the board (referee/board_arbiter.h), driven button by button: the chord, the
 * PIN entered on the buttons and its count of wrong ones in the PIN budget (docs/control.md
 * "Control interface", base/pinguard.h: at most ten a minute, the same budget as the control
 * socket's), the PIN never in a record or an effect, the menu, the clock editor, the flag ruling,
 * and the player alone never getting in.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/pinguard.h"
#include "tests/unit/referee_cases.h"

/* Six digits that no clock reading or time of these games contains. */
#define PIN "917263"

/* The arbiter's PIN as the daemon gives it: its salted hash (base/pinhash.h). */
static void set_pin(struct referee_settings *set)
{
	static const unsigned char salt[PIN_HASH_SALT] = "salt of the test";

	pin_hash_make(&set->arbiter_pin.hash, PIN, salt, PIN_HASH_ITERATIONS);
}

/* The PIN budget, as the daemon attaches the control socket's. */
static struct pin_guard pins;

static void attach_pins(void)
{
	pin_guard_init(&pins);
	referee_attach_pins(t->r, &pins);
}

static void open_game(const char *tc)
{
	referee_settings_defaults(&t->set);
	t->set.board_arbiter = true;
	set_pin(&t->set);
	rt_open(t, CHESS_WHITE, tc, NULL);
	attach_pins();
}

static void down(enum game_button b)
{
	rt_event(t, GAME_EV_BUTTON, b, true);
}

static void up(enum game_button b)
{
	rt_event(t, GAME_EV_BUTTON, b, false);
}

/* info and repeat held together for `ms`. */
static void chord(uint64_t ms)
{
	down(GAME_BUTTON_INFO);
	rt_wait(t, 100);
	down(GAME_BUTTON_REPEAT);
	rt_wait(t, ms);
	up(GAME_BUTTON_INFO);
	up(GAME_BUTTON_REPEAT);
	rt_wait(t, 100);
}

static enum board_arbiter_state menu_state(void)
{
	struct board_arbiter_view v;

	referee_arbiter_view(t->r, t->now, &v);
	return v.state;
}

static struct board_arbiter_view view(void)
{
	struct board_arbiter_view v;

	referee_arbiter_view(t->r, t->now, &v);
	return v;
}

/* A PIN on the buttons: each digit as that many presses of select, then repeat; info. */
static void enter_pin(const char *pin)
{
	for (const char *d = pin; *d; d++) {
		for (int k = 0; k < *d - '0'; k++)
			rt_press(t, GAME_BUTTON_SELECT);
		rt_press(t, GAME_BUTTON_REPEAT);
	}
	rt_press(t, GAME_BUTTON_INFO);
}

static void start_clocks(void)
{
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "e2", "e4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
}

/* Nothing of the PIN anywhere: records, effects, the display's view. */
static void assert_pin_nowhere(void)
{
	for (int i = 0; i < t->nrec; i++)
		assert_null(strstr(t->args[i], PIN));
	assert_null(strstr(t->log, PIN));
}

static void test_chord_opens_the_pin_prompt(void **state)
{
	(void)state;
	open_game("300+0");
	/* Held too short: nothing. */
	chord(1500);
	assert_int_equal(menu_state(), BOARD_ARBITER_CLOSED);
	t->log_len = 0;
	t->log[0] = '\0';
	chord(2100);
	assert_int_equal(menu_state(), BOARD_ARBITER_PIN);
	assert_logged(" SAY private arbiter-pin\n");
	/* The chord's second button (repeat) was no request: nothing repeated. */
	assert_not_logged(" REPEAT");
	assert_not_logged("nothing-to-repeat");
}

/* The pause button closes the prompt; so does leaving it alone for 30 s. */
static void test_prompt_closes(void **state)
{
	(void)state;
	open_game("300+0");
	chord(2100);
	rt_press(t, GAME_BUTTON_PAUSE);
	assert_int_equal(menu_state(), BOARD_ARBITER_CLOSED);
	assert_logged(" SAY private arbiter-done\n");
	chord(2100);
	rt_wait(t, BOARD_ARBITER_PIN_MS + 100);
	assert_int_equal(menu_state(), BOARD_ARBITER_CLOSED);
}

/* Without an arbiter PIN (or a display) the chord is two buttons, nothing more. */
static void test_no_menu_without_a_pin(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->set.board_arbiter = true;
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	attach_pins();
	chord(2500);
	assert_int_equal(menu_state(), BOARD_ARBITER_CLOSED);
	assert_not_logged("arbiter-pin");
}

/* Nor without a PIN budget to count its PINs. */
static void test_no_menu_without_a_budget(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->set.board_arbiter = true;
	set_pin(&t->set);
	rt_open(t, CHESS_WHITE, "300+0", NULL);
	chord(2500);
	assert_int_equal(menu_state(), BOARD_ARBITER_CLOSED);
	assert_not_logged("arbiter-pin");
}

/* The right PIN opens the menu and the running clocks stop; it is in control.log only as
 * "auth ****" and never anywhere else. */
static void test_right_pin_stops_the_clocks(void **state)
{
	(void)state;
	open_game("300+0");
	start_clocks();
	assert_int_equal(rt_game(t)->clock.state, CLOCK_RUNNING);
	chord(2100);
	enter_pin(PIN);
	assert_int_equal(menu_state(), BOARD_ARBITER_MENU);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_PAUSED);
	assert_true(strstr(last_record("pause"), "board+pin") == last_record("pause"));
	assert_string_equal(san(0), "e4");
	assert_pin_nowhere();
	assert_replays();
}

/* Wrong PINs: five at once, then a wait that doubles; a PIN tried in the wait is not
 * checked.  Pressing for a whole minute, the buttons check at most ten; control.log has each
 * try as "auth ****". */
static void test_wrong_pins_counted(void **state)
{
	int checked = 0;
	uint64_t end;

	(void)state;
	open_game("300+0");
	chord(2100);
	end = t->now + 60000;
	while (t->now < end) {
		size_t before = t->log_len;

		enter_pin("135791");
		if (strstr(t->log + before, " AUDIT board player auth **** => error wrong PIN"))
			checked++;
		if (menu_state() == BOARD_ARBITER_CLOSED)
			chord(2100);
	}
	assert_true(checked >= 5);
	assert_true(checked <= 10);
	assert_true(view().failures == checked);
	assert_true(view().wait_s > 0);
	assert_logged(" AUDIT board player auth **** => error too many wrong PINs: wait ");
	/* The right PIN waits its turn too, then works; the count stays (a right PIN does not
	 * buy more tries: pinguard.h). */
	rt_wait(t, (uint64_t)view().wait_s * 1000);
	if (menu_state() == BOARD_ARBITER_CLOSED) /* the prompt closes when unused for 30 s */
		chord(2100);
	enter_pin(PIN);
	assert_int_equal(menu_state(), BOARD_ARBITER_MENU);
	assert_int_equal(view().failures, checked);
	assert_logged(" AUDIT board player auth **** => ok arbiter\n");
	assert_pin_nowhere();
}

/* The budget is the control socket's: a wait it imposes on the board's key refuses the right
 * PIN on the buttons, unchecked, until it ends. */
static void test_the_budget_is_shared(void **state)
{
	uint64_t wait = 0;

	(void)state;
	open_game("300+0");
	/* Nine wrong PINs elsewhere under the board's key: a wait of 32 s. */
	for (int k = 0; k < PIN_FREE_TRIES + 4; k++)
		wait = pin_guard_wrong(&pins, PIN_KEY_BOARD, t->now);
	assert_true(wait >= 30000);
	chord(2100);
	enter_pin(PIN);
	assert_int_equal(menu_state(), BOARD_ARBITER_PIN);
	assert_logged(" AUDIT board player auth **** => error too many wrong PINs: wait ");
	rt_wait(t, wait);
	if (menu_state() == BOARD_ARBITER_CLOSED)
		chord(2100);
	enter_pin(PIN);
	assert_int_equal(menu_state(), BOARD_ARBITER_MENU);
	assert_pin_nowhere();
}

/* The player alone: any presses but the PIN never open the menu. */
static void test_player_alone_never_gets_in(void **state)
{
	static const enum game_button buttons[] = {
	    GAME_BUTTON_SELECT, GAME_BUTTON_REPEAT,	  GAME_BUTTON_INFO,
	    GAME_BUTTON_SELECT, GAME_BUTTON_PLAYER_CLOCK, GAME_BUTTON_OPPONENT_CLOCK,
	    GAME_BUTTON_SELECT, GAME_BUTTON_REPEAT};

	(void)state;
	open_game("300+0");
	start_clocks();
	chord(2100);
	for (int k = 0; k < 200; k++) {
		rt_press(t, buttons[k % 8]);
		assert_int_not_equal(menu_state(), BOARD_ARBITER_MENU);
		if (menu_state() == BOARD_ARBITER_CLOSED)
			chord(2100);
	}
	assert_null(last_record("clock-set"));
}

/* The tactile player holds the chord on the opponent's time and leaves the prompt open: the
 * opponent's press counts as in play (6.2.1), the prompt stays open, and the opponent's flag
 * is not run down by it. */
static void test_opponent_press_counts_in_the_prompt(void **state)
{
	(void)state;
	open_game("300+0");
	start_clocks(); /* 1. e4 pressed: Black's clock runs */
	rt_move(t, "e7", "e5");
	chord(2100);
	assert_int_equal(menu_state(), BOARD_ARBITER_PIN);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_RUNNING);
	assert_int_equal(rt_game(t)->clock.running, CHESS_WHITE);
	assert_true(rt_game(t)->plies[1].flags & GAME_PLY_COMPLETE);
	assert_int_equal(menu_state(), BOARD_ARBITER_PIN);
	/* The player's own press counts too: the prompt is no pause. */
	rt_move(t, "g1", "f3");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(rt_game(t)->clock.running, CHESS_BLACK);
	assert_true(rt_game(t)->plies[2].flags & GAME_PLY_COMPLETE);
	/* The PIN still opens the menu, which stops the clocks. */
	enter_pin(PIN);
	assert_int_equal(menu_state(), BOARD_ARBITER_MENU);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_PAUSED);
	assert_replays();
}

/* Only whole PINs count: the player pressing info once a second in the prompt for three
 * minutes (a PIN of no digits each time), or a PIN cut short, is never a wrong PIN, and the
 * arbiter's right PIN is checked at once afterwards. */
static void test_stray_presses_are_no_wrong_pins(void **state)
{
	(void)state;
	open_game("300+0");
	chord(2100);
	for (int k = 0; k < 180; k++) {
		rt_press(t, GAME_BUTTON_INFO);
		rt_wait(t, 1000);
		if (menu_state() == BOARD_ARBITER_CLOSED)
			chord(2100);
	}
	enter_pin("12345");   /* one digit short */
	enter_pin("1234567"); /* one too many */
	assert_int_equal(view().failures, 0);
	assert_int_equal(view().wait_s, 0);
	assert_not_logged(" AUDIT board player auth ****");
	enter_pin(PIN);
	assert_int_equal(menu_state(), BOARD_ARBITER_MENU);
}

/* The editor: times and move counters, field by field, a held button repeating; a clock
 * button sets them (journaled as the arbiter's clock set); then the clocks start again. */
static void test_set_clocks_and_resume(void **state)
{
	const char *rec;
	int64_t seconds;

	(void)state;
	open_game("300+0");
	start_clocks();
	rt_wait(t, 3000);
	chord(2100);
	enter_pin(PIN);
	/* The items: set the clocks, start them; the first chosen. */
	assert_int_equal(view().item, BOARD_ITEM_SET_CLOCKS);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_int_equal(menu_state(), BOARD_ARBITER_EDIT);
	assert_int_equal(view().field, BOARD_FIELD_WHITE_H);
	/* White: 0:04:59 -> 1:04:59 (hours up), minutes down twice -> 1:02:59. */
	rt_press(t, GAME_BUTTON_REPEAT);
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_INFO);
	rt_press(t, GAME_BUTTON_INFO);
	assert_int_equal(view().ms[0], 3779000);
	/* Black's seconds: held up for two seconds: one step, then ten a second after half a
	 * second (at 0.5, 0.6, ... 2.0 s: sixteen more). */
	for (int k = 0; k < 4; k++)
		rt_press(t, GAME_BUTTON_SELECT);
	assert_int_equal(view().field, BOARD_FIELD_BLACK_M);
	rt_press(t, GAME_BUTTON_SELECT);
	seconds = view().ms[1] / 1000 % 60;
	rt_hold(t, GAME_BUTTON_REPEAT, 2000);
	assert_int_equal(view().ms[1] / 1000 % 60, (seconds + 17) % 60);
	/* Black's moves: 0 -> 0 (never below), White's stay 1. */
	rt_press(t, GAME_BUTTON_SELECT);
	rt_press(t, GAME_BUTTON_INFO);
	assert_int_equal(view().moves[0], 1);
	assert_int_equal(view().moves[1], 0);
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	assert_int_equal(menu_state(), BOARD_ARBITER_MENU);
	rec = last_record("clock-set");
	assert_non_null(rec);
	/* Black's clock (it is Black's turn) stands, White has 1:02:59 and one move. */
	assert_true(strncmp(rec, "board+pin paused black 3779000 ", 31) == 0);
	assert_int_equal(rt_game(t)->clock.moves[0], 1);
	assert_logged(" AUDIT board+pin arbiter clock set 1:02:59 ");
	assert_logged(" => ok clocks set: White 1:02:59");
	/* Start them again: the menu closes, the buttons are the player's. */
	rt_press(t, GAME_BUTTON_SELECT);
	assert_int_equal(view().item, BOARD_ITEM_RESUME);
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_int_equal(menu_state(), BOARD_ARBITER_CLOSED);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_RUNNING);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	assert_int_equal(rt_game(t)->clock.running, CHESS_WHITE);
	assert_pin_nowhere();
	assert_replays();
}

/* A flag: the first item is the result Art. 6.9 gives; choosing it ends the game. */
static void test_flag_ruling(void **state)
{
	(void)state;
	open_game("10+0");
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 12000);
	assert_int_equal(rt_game(t)->result.state, RESULT_FLAG_PENDING);
	chord(2100);
	enter_pin(PIN);
	assert_int_equal(view().item, BOARD_ITEM_RESULT);
	assert_string_equal(view().result, "0-1");
	rt_press(t, GAME_BUTTON_REPEAT);
	assert_int_equal(menu_state(), BOARD_ARBITER_CLOSED);
	assert_int_equal(rt_game(t)->result.state, RESULT_ENDED);
	assert_string_equal(rt_game(t)->result.result, "0-1");
	assert_int_equal(rt_game(t)->result.termination, TERMINATION_TIME_FORFEIT);
	assert_replays();
}

/* A flag that is a draw (K+Q against a lone knight): no win is offered. */
static void test_flag_ruling_draw_only(void **state)
{
	(void)state;
	referee_settings_defaults(&t->set);
	t->set.board_arbiter = true;
	set_pin(&t->set);
	rt_open(t, CHESS_WHITE, "10+0", "1n2k3/8/8/8/8/8/8/3QK3 w - - 0 1");
	attach_pins();
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_wait(t, 12000);
	chord(2100);
	enter_pin(PIN);
	assert_string_equal(view().result, "1/2-1/2");
	rt_press(t, GAME_BUTTON_SELECT);
	assert_int_not_equal(view().item, BOARD_ITEM_RESULT);
}

/* FIDE's standards for electronic clocks: the arbiter corrects the time and the move counter
 * within 60 seconds.  At the board, the usual correction (two minutes to Black, the clocks
 * started again) from the chord to the clocks running, each button counted at 0.4 s (a
 * person's pace; this harness presses faster): docs/fide-equipment.md gives the count. */
static int presses;

static void step(enum game_button b)
{
	rt_press(t, b);
	presses++;
}

static void test_correction_within_a_minute(void **state)
{
	int64_t black;

	(void)state;
	open_game("300+0");
	start_clocks();
	rt_wait(t, 3000);
	presses = 0;
	chord(2100); /* 2 s held */
	for (const char *d = PIN; *d; d++) {
		for (int k = 0; k < *d - '0'; k++)
			step(GAME_BUTTON_SELECT);
		step(GAME_BUTTON_REPEAT);
	}
	step(GAME_BUTTON_INFO);
	assert_int_equal(view().item, BOARD_ITEM_SET_CLOCKS);
	step(GAME_BUTTON_REPEAT); /* the editor, at White's hours */
	black = view().ms[1];	  /* Black's time when the PIN stopped the clocks, whole seconds */
	for (int k = 0; k < 5; k++)
		step(GAME_BUTTON_SELECT); /* to Black's minutes */
	step(GAME_BUTTON_REPEAT);
	step(GAME_BUTTON_REPEAT);	/* +2 minutes */
	step(GAME_BUTTON_PLAYER_CLOCK); /* set */
	step(GAME_BUTTON_SELECT);	/* start the clocks */
	step(GAME_BUTTON_REPEAT);
	assert_int_equal(rt_game(t)->clock.state, CLOCK_RUNNING);
	/* Two minutes more than when the clocks stopped (Black's clock runs again since the
	 * last press). */
	assert_true(clock_remaining(&rt_game(t)->clock, CHESS_BLACK, t->now) <= black + 120000);
	assert_true(clock_remaining(&rt_game(t)->clock, CHESS_BLACK, t->now) > black + 119000);
	/* The PIN 917263 takes 34 presses of its own; the correction 12 more. */
	assert_int_equal(presses, 46);
	assert_true(2000 + presses * 400 < 60000);
	printf("correction at the board: %d presses, %.1f s at 0.4 s a press (the chord 2 s)\n",
	       presses, (2000 + presses * 400) / 1000.0);
}

/* The fair-play verdict is an item of the menu, to read: "ok" while the device met the
 * policy, "breach" once it did not. */
static void test_seal_item(void **state)
{
	struct fairplay_policy policy;
	struct fairplay_state sealed = {.files = 0};
	bool seen = false;

	(void)state;
	open_game("300+0");
	fairplay_policy_defaults(&policy);
	referee_fairplay(t->r, &policy, &sealed, t->now);
	chord(2100);
	enter_pin(PIN);
	for (int k = 0; k < view().count; k++, rt_press(t, GAME_BUTTON_SELECT))
		if (view().item == BOARD_ITEM_SEAL) {
			assert_string_equal(view().result, "ok");
			seen = true;
		}
	assert_true(seen);
	rt_press(t, GAME_BUTTON_PAUSE);
	sealed.n_ifaces = 1;
	snprintf(sealed.ifaces[0].name, sizeof(sealed.ifaces[0].name), "eth0");
	referee_fairplay(t->r, &policy, &sealed, t->now);
	chord(2100);
	enter_pin(PIN);
	seen = false;
	for (int k = 0; k < view().count; k++, rt_press(t, GAME_BUTTON_SELECT))
		if (view().item == BOARD_ITEM_SEAL) {
			assert_string_equal(view().result, "breach");
			seen = true;
		}
	assert_true(seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_chord_opens_the_pin_prompt, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_prompt_closes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_menu_without_a_pin, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_menu_without_a_budget, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_right_pin_stops_the_clocks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_wrong_pins_counted, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_the_budget_is_shared, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_player_alone_never_gets_in, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_opponent_press_counts_in_the_prompt, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_stray_presses_are_no_wrong_pins, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_set_clocks_and_resume, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_flag_ruling, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_flag_ruling_draw_only, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_seal_item, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_correction_within_a_minute, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
