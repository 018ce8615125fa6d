/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The clock display: what it shows, and the bytes that show it, read back through models of
 * the HD44780 (behind its PCF8574) and the SSD1306. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "base/log.h"
/* The modules themselves: their file-local functions are tested here. */
#include "clockface/layout.c"
#include "clockface/screen.c"
#include "clockface/writer.c"
#include "game/clock.h"
#include "face_testutil.h"

/* What the thread has done: messages sent, failures (each streak of them counts once). */
static void face_writer_counts(struct face_writer *w, unsigned long *sent, unsigned long *failures)
{
	pthread_mutex_lock(&w->lock);
	*sent = w->sent;
	*failures = w->failures;
	pthread_mutex_unlock(&w->lock);
}

static const char *const names_en[2] = {"WHITE", "BLACK"};

static void time_is(int64_t ms, bool tenths, const char *want)
{
	char buf[16];

	face_format_time(ms, tenths, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_time_formats(void **state)
{
	(void)state;
	time_is(5400000, true, "1:30:00");
	time_is(3600000, true, "1:00:00");
	time_is(3599999, true, "59:59");
	time_is(600000, true, "10:00");
	time_is(61000, true, "1:01");
	time_is(10000, true, "0:10");
	time_is(9999, true, "0:09.9");
	time_is(9999, false, "0:09");
	time_is(50, true, "0:00.0");
	time_is(0, true, "0:00.0");
	time_is(-300, false, "0:00");
	time_is(36000000, false, "10:00:00");
}

static void test_layout_marks(void **state)
{
	struct face_view v = {
	    .has_clock = true, .ms = {5400000, 5399000}, .running = 0, .flagged = -1};
	struct face_text t;

	(void)state;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x02WHITE   1:30:00");
	assert_string_equal(t.row[1], " BLACK   1:29:59");
	v.paused = true;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x03WHITE   1:30:00");
	v.paused = false;
	v.running = 1;
	v.ms[1] = 0;
	v.flagged = 1;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], " WHITE   1:30:00");
	assert_string_equal(t.row[1], "\x01"
				      "BLACK    0:00.0");
	v = (struct face_view){.running = -1, .flagged = -1};
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], " WHITE         -");
}

/* A power problem: its mark in White's row, column 8, with or without a clock. */
static void test_layout_power(void **state)
{
	struct face_view v = {.has_clock = true,
			      .ms = {5400000, 5399000},
			      .running = 0,
			      .flagged = -1,
			      .power = FACE_GLYPH_LOW_VOLTAGE};
	struct face_text t;

	(void)state;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x02WHITE  \x05"
				      "1:30:00");
	assert_string_equal(t.row[1], " BLACK   1:29:59");
	v.power = FACE_GLYPH_BATTERY;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x02WHITE  \x04"
				      "1:30:00");
	v = (struct face_view){.running = -1, .flagged = -1, .power = FACE_GLYPH_BATTERY};
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], " WHITE  \x04      -");
	/* Ten hours and more fill column 8: the time wins. */
	v = (struct face_view){.has_clock = true,
			       .ms = {36000000, 60000},
			       .running = 1,
			       .flagged = -1,
			       .power = FACE_GLYPH_BATTERY};
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], " WHITE  10:00:00");
}

static void test_names_per_language(void **state)
{
	const char *n[2];
	struct face_view v = {.has_clock = true, .ms = {1000, 2000}, .running = 1, .flagged = -1};
	struct face_text t;

	(void)state;
	face_names("de", n);
	assert_string_equal(n[1], "SCHWARZ");
	face_layout(&v, n, false, &t);
	assert_string_equal(t.row[1], "\x02SCHWARZ    0:02");
	face_names("xx", n);
	assert_string_equal(n[0], "WHITE");
}

static void test_next_change(void **state)
{
	struct face_view v = {.has_clock = true, .ms = {5000, 65432}, .running = 1, .flagged = -1};

	(void)state;
	/* 65432 ms shows 1:05 until it falls below 65000. */
	assert_int_equal(face_next_change_ms(&v, true), 433);
	v.ms[1] = 65000;
	assert_int_equal(face_next_change_ms(&v, true), 1);
	v.ms[1] = 9950;
	assert_int_equal(face_next_change_ms(&v, true), 51);
	assert_int_equal(face_next_change_ms(&v, false), 951);
	v.paused = true;
	assert_true(face_next_change_ms(&v, true) == UINT64_MAX);
	v.paused = false;
	v.running = -1;
	assert_true(face_next_change_ms(&v, true) == UINT64_MAX);
}

static void test_hd44780_nibbles(void **state)
{
	uint8_t b[4];

	(void)state;
	/* 'A' = 0x41 as data: high nibble 4 then 1, each with E high then low, backlight on. */
	hd44780_byte('A', true, true, b);
	assert_int_equal(b[0], 0x4d);
	assert_int_equal(b[1], 0x49);
	assert_int_equal(b[2], 0x1d);
	assert_int_equal(b[3], 0x19);
	hd44780_nibble(0x3, false, false, b);
	assert_int_equal(b[0], 0x34);
	assert_int_equal(b[1], 0x30);
}

static void hd_feed(struct hd44780_model *m, const struct face_out *out, unsigned *bytes)
{
	assert_false(out->overflow);
	for (int i = 0; i < out->n; i++) {
		assert_true(out->msg[i].len > 0 && out->msg[i].len <= FACE_MSG_MAX);
		for (int k = 0; k < out->msg[i].len; k++)
			hd44780_model_bus(m, out->msg[i].b[k]);
		*bytes += out->msg[i].len;
	}
}

static void test_hd44780_start_and_update(void **state)
{
	static struct face_screen s;
	static struct face_out out;
	struct hd44780_model m;
	struct face_view v = {
	    .has_clock = true, .ms = {5400000, 5400000}, .running = 0, .flagged = -1};
	struct face_text t, seen;
	unsigned bytes = 0;

	(void)state;
	/* The power-on state: 8 bits; the start must work from it (and from the middle of a
	 * 4-bit byte, which the three 0x3 nibbles resolve). */
	hd44780_model_init(&m);
	face_screen_init(&s, FACE_HD44780, 0);
	face_screen_start(&s, &out);
	assert_true(s.valid);
	assert_true(out.msg[0].wait_us >= 4100);
	hd_feed(&m, &out, &bytes);
	assert_true(m.four_bit);
	assert_int_equal(m.lines, 2);
	assert_true(m.display_on);
	assert_true(m.backlight);
	assert_false(m.error);
	assert_memory_equal(m.cgram_data + 8, hd44780_glyphs, sizeof(hd44780_glyphs));

	face_layout(&v, names_en, true, &t);
	face_screen_update(&s, &t, &out);
	hd_feed(&m, &out, &bytes);
	hd44780_model_text(&m, &seen);
	assert_string_equal(seen.row[0], t.row[0]);
	assert_string_equal(seen.row[1], t.row[1]);

	/* The same text again: nothing on the bus. */
	face_screen_update(&s, &t, &out);
	assert_int_equal(out.n, 0);

	/* One second later: 1:30:00 becomes 1:29:59, four digits with an unchanged ':' among
	 * them: the address and one run of five characters, four bytes each. */
	bytes = 0;
	v.ms[0] = 5399000;
	face_layout(&v, names_en, true, &t);
	face_screen_update(&s, &t, &out);
	hd_feed(&m, &out, &bytes);
	hd44780_model_text(&m, &seen);
	assert_string_equal(seen.row[0], "\x02WHITE   1:29:59");
	assert_string_equal(seen.row[1], t.row[1]);
	assert_int_equal(bytes, 4 * (1 + 5));
	assert_false(m.error);

	/* A controller that lost its state (the start again from the middle of a byte). */
	hd44780_model_bus(&m, 0x34);
	hd44780_model_bus(&m, 0x30);
	face_screen_start(&s, &out);
	hd_feed(&m, &out, &bytes);
	face_screen_update(&s, &t, &out);
	hd_feed(&m, &out, &bytes);
	hd44780_model_text(&m, &seen);
	assert_string_equal(seen.row[0], t.row[0]);
	assert_false(m.error);
}

static void ssd_feed(struct ssd1306_model *m, const struct face_out *out, unsigned *data)
{
	unsigned before = m->data;

	assert_false(out->overflow);
	for (int i = 0; i < out->n; i++) {
		assert_true(out->msg[i].len >= 2 && out->msg[i].len <= FACE_MSG_MAX);
		ssd1306_model_write(m, out->msg[i].b, out->msg[i].len);
	}
	*data = m->data - before;
}

static void ssd_case(int height)
{
	static struct face_screen s;
	static struct face_out out;
	static struct ssd1306_model m;
	struct face_view v = {.has_clock = true, .ms = {185000, 9900}, .running = 1, .flagged = -1};
	struct face_text t, seen;
	unsigned data;

	ssd1306_model_init(&m);
	face_screen_init(&s, FACE_SSD1306, height);
	face_screen_start(&s, &out);
	ssd_feed(&m, &out, &data);
	assert_int_equal(data, 128 * height / 8);
	assert_true(m.on);
	assert_true(m.charge_pump);
	assert_int_equal(m.mux, height);
	assert_false(m.error);

	face_layout(&v, names_en, true, &t);
	face_screen_update(&s, &t, &out);
	ssd_feed(&m, &out, &data);
	ssd1306_model_text(&m, height, &seen);
	assert_string_equal(seen.row[0], " WHITE      3:05");
	assert_string_equal(seen.row[1], "\x02"
					 "BLACK    0:09.9");
	face_screen_update(&s, &t, &out);
	assert_int_equal(out.n, 0);

	/* A tenth later only the last digit's columns change, on its two pages. */
	v.ms[1] = 9800;
	face_layout(&v, names_en, true, &t);
	face_screen_update(&s, &t, &out);
	ssd_feed(&m, &out, &data);
	assert_true(data > 0 && data <= 2 * 5);
	ssd1306_model_text(&m, height, &seen);
	assert_string_equal(seen.row[1], "\x02"
					 "BLACK    0:09.8");
	assert_false(m.error);
}

static void test_ssd1306_64(void **state)
{
	(void)state;
	ssd_case(64);
}

static void test_ssd1306_32(void **state)
{
	(void)state;
	ssd_case(32);
}

/* ------------------------------------------------------------------ issue 17: for the
 * sighted opponent: moves made, the period's end, the delay left, big digits */

/* Once the clock runs: the initial, then the moves made, or "made/control" in a period
 * that ends with a move count; while the delay runs (delay mode), the hourglass and its
 * whole seconds left; the time as before; a '+' after the initial of the side that passed a
 * time control first. */
static void test_layout_moves_period_delay(void **state)
{
	struct face_view v = {.has_clock = true,
			      .ms = {5400000, 5280000},
			      .running = 0,
			      .flagged = -1,
			      .started = true,
			      .moves = {12, 12},
			      .control = {40, 40},
			      .delay_ms = -1};
	struct face_text t;

	(void)state;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x02W 12/40 1:30:00");
	assert_string_equal(t.row[1], " B 12/40 1:28:00");
	/* The second period, without a move count: White passed the time control first, and
	 * the '+' after its initial says so until Black passes it too. */
	v.moves[0] = 41;
	v.control[0] = 0;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x02W+   41 1:30:00");
	assert_string_equal(t.row[1], " B 12/40 1:28:00");
	/* Delay mode: 4.2 s of White's delay left shows as 5, rounded up (the main time stands). */
	v.delay_ms = 4200;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x02W+   \x06"
				      "5 1:30:00");
	assert_string_equal(t.row[1], " B 12/40 1:28:00");
	v.delay_ms = 0; /* spent: the main time runs */
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x02W+   \x06"
				      "0 1:30:00");
	/* Both past it: no sign. */
	v.moves[1] = 40;
	v.control[1] = 0;
	v.delay_ms = -1;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x02W    41 1:30:00");
	assert_string_equal(t.row[1], " B    40 1:28:00");
	/* Before the start: the names, as before. */
	v.started = false;
	v.delay_ms = -1;
	face_layout(&v, names_en, true, &t);
	assert_string_equal(t.row[0], "\x02WHITE   1:30:00");
}

/* The display changes when the delay's shown second does, while the main time stands. */
static void test_next_change_in_delay(void **state)
{
	struct face_view v = {.has_clock = true,
			      .ms = {300000, 65432},
			      .running = 1,
			      .flagged = -1,
			      .delay_ms = 4200};

	(void)state;
	assert_int_equal(face_next_change_ms(&v, true), 200);
	v.delay_ms = 4000;
	assert_int_equal(face_next_change_ms(&v, true), 1000);
	v.delay_ms = 0;
	assert_int_equal(face_next_change_ms(&v, true), 433);
}

/* What the clock gives the display: the delay left in the running turn, the period's end. */
static void test_clock_delay_and_period_end(void **state)
{
	struct time_control tc;
	struct chess_clock c;
	char err[80];

	(void)state;
	assert_int_equal(time_control_parse("300d5", &tc, err, sizeof(err)), 0);
	clock_init(&c, &tc);
	assert_int_equal(clock_delay_left(&c, 0, 0), -1); /* not started */
	assert_int_equal(clock_press(&c, 1, 1000), CLOCK_PRESS_STARTED);
	assert_int_equal(clock_delay_left(&c, 0, 1000), 5000);
	assert_int_equal(clock_delay_left(&c, 0, 3500), 2500);
	assert_int_equal(clock_remaining(&c, 0, 3500), 300000); /* the main time stands */
	assert_int_equal(clock_delay_left(&c, 0, 9000), 0);
	assert_int_equal(clock_remaining(&c, 0, 9000), 297000);
	assert_int_equal(clock_delay_left(&c, 1, 9000), -1); /* Black's clock does not run */
	clock_pause(&c, 2000 + 1000);
	assert_int_equal(clock_press(&c, 0, 3000), CLOCK_PRESS_IGNORED);
	assert_int_equal(time_control_parse("40/5400+30:1800+30", &tc, err, sizeof(err)), 0);
	clock_init(&c, &tc);
	assert_int_equal(clock_period_end(&c, 0), 40);
	assert_int_equal(clock_delay_left(&c, 0, 0), -1);
	assert_int_equal(time_control_parse("900+10", &tc, err, sizeof(err)), 0);
	clock_init(&c, &tc);
	assert_int_equal(clock_period_end(&c, 0), 0);
}

/* A half of the HD44780's big digits, built from the parts: "M:SS" as 4 characters. */
static void big_expect(const struct face_text *t, int side, const char *top0, const char *bottom0,
		       const char *digits)
{
	char top[9], bottom[9];
	int c = 1;

	memset(top, ' ', 8);
	memset(bottom, ' ', 8);
	top[8] = bottom[8] = '\0';
	top[0] = top0[0];
	bottom[0] = bottom0[0];
	for (const char *d = digits; *d; d++) {
		if (*d >= '0' && *d <= '9') {
			char p[4];

			face_big_digit(*d - '0', p);
			top[c] = p[0];
			top[c + 1] = p[1];
			bottom[c] = p[2];
			bottom[c + 1] = p[3];
			c += 2;
		} else if (*d == ':') {
			top[c] = bottom[c] = '.';
			c++;
		} else if (*d == 'h' || *d == '.') {
			bottom[c++] = *d;
		} else {
			c++; /* ' ': a blank column */
		}
	}
	assert_memory_equal(t->row[0] + 8 * side, top, 8);
	assert_memory_equal(t->row[1] + 8 * side, bottom, 8);
}

static void test_big_layout(void **state)
{
	struct face_view v = {.has_clock = true,
			      .ms = {293000, 5340000},
			      .running = 0,
			      .flagged = -1,
			      .started = true,
			      .moves = {7, 6},
			      .delay_ms = -1};
	struct face_text t;
	char p[4];

	(void)state;
	/* 4:53 running, beside 1h29 (an hour and more: hours and minutes). */
	face_layout_big(&v, names_en, true, &t);
	big_expect(&t, 0, ">", "W", "4:53");
	big_expect(&t, 1, " ", "B", "1h29");
	assert_int_equal(strlen(t.row[0]), 16);
	/* 45:30: the minutes big, ":30" small above the moves made. */
	v.ms[1] = 45 * 60000 + 30000;
	v.running = 1;
	v.paused = true;
	face_layout_big(&v, names_en, true, &t);
	assert_memory_equal(t.row[0] + 8 + 5, ":30", 3);
	assert_memory_equal(t.row[1] + 8 + 5, "  6", 3);
	assert_int_equal(t.row[0][8], '=');
	face_big_digit(4, p);
	assert_int_equal(t.row[0][9], p[0]);
	face_big_digit(5, p);
	assert_int_equal(t.row[1][12], p[3]);
	/* Under ten seconds with tenths: "9.5"; the flag. */
	v.ms[0] = 9540;
	v.flagged = 0;
	v.ms[0] = 0;
	face_layout_big(&v, names_en, true, &t);
	big_expect(&t, 0, "F", "W", "  0.0");
	v.flagged = -1;
	v.ms[0] = 9540;
	face_layout_big(&v, names_en, true, &t);
	big_expect(&t, 0, " ", "W", "  9.5");
	/* Delay mode: the delay's seconds under the mark of the side whose delay runs. */
	v.running = 0;
	v.paused = false;
	v.delay_ms = 2100;
	v.ms[0] = 293000;
	face_layout_big(&v, names_en, true, &t);
	big_expect(&t, 0, ">", "3", "4:53");
	/* No clock: the initial and a dash. */
	v.has_clock = false;
	face_layout_big(&v, names_en, true, &t);
	assert_memory_equal(t.row[0], "W      -B      -", 16);
}

/* Every digit is two characters wide and two high, of the eight parts, and no two digits
 * look alike. */
static void test_big_digits_distinct(void **state)
{
	char seen[10][4];

	(void)state;
	for (int d = 0; d < 10; d++) {
		face_big_digit(d, seen[d]);
		for (int i = 0; i < 4; i++)
			assert_true(seen[d][i] == ' ' || (seen[d][i] >= FACE_BIG_PART(0) &&
							  seen[d][i] <= FACE_BIG_PART(7)));
		for (int e = 0; e < d; e++)
			assert_memory_not_equal(seen[d], seen[e], 4);
	}
}

/* The HD44780 in big mode: its eight parts in CGRAM 0..7, the text through codes 8..15. */
static void test_hd44780_big(void **state)
{
	static struct face_screen s;
	static struct face_out out;
	struct hd44780_model m;
	struct face_view v = {.has_clock = true,
			      .ms = {293000, 300000},
			      .running = 0,
			      .flagged = -1,
			      .started = true,
			      .delay_ms = -1};
	struct face_text t, seen;
	unsigned bytes = 0;

	(void)state;
	hd44780_model_init(&m);
	face_screen_init(&s, FACE_HD44780, 0);
	s.big = true;
	face_screen_start(&s, &out);
	hd_feed(&m, &out, &bytes);
	assert_memory_equal(m.cgram_data, hd44780_big_parts, sizeof(hd44780_big_parts));
	face_layout_big(&v, names_en, true, &t);
	face_screen_update(&s, &t, &out);
	hd_feed(&m, &out, &bytes);
	hd44780_model_text(&m, &seen);
	assert_memory_equal(seen.row[0], t.row[0], 16);
	assert_memory_equal(seen.row[1], t.row[1], 16);
	assert_false(m.error);
}

/* The SSD1306 in big mode, read back from its frame: each time in the largest digits that
 * fit its band, the running side's band in reverse video, the mark, initial and count. */
static void ssd_big_case(int height)
{
	static struct face_screen s;
	static struct face_out out;
	static struct ssd1306_model m;
	struct face_view v = {.has_clock = true,
			      .ms = {293000, 5340000},
			      .running = 0,
			      .flagged = -1,
			      .started = true,
			      .moves = {7, 6},
			      .control = {40, 40},
			      .delay_ms = -1};
	struct face_text t;
	struct ssd1306_big_row row;
	unsigned data;

	ssd1306_model_init(&m);
	face_screen_init(&s, FACE_SSD1306, height);
	s.big = true;
	face_screen_start(&s, &out);
	ssd_feed(&m, &out, &data);
	face_layout(&v, names_en, true, &t);
	face_screen_update(&s, &t, &out);
	ssd_feed(&m, &out, &data);
	assert_false(m.error);
	ssd1306_model_big_row(&m, height, 0, &row);
	assert_string_equal(row.time, "4:53");
	assert_true(row.inverted);
	assert_int_equal(row.mark, FACE_GLYPH_MOVE);
	assert_int_equal(row.initial, 'W');
	assert_string_equal(row.label, "7/40");
	/* As large as the band allows: 28 pixels of a 32-pixel band, 14 of 16. */
	assert_int_equal(row.scale, height == 64 ? 4 : 2);
	ssd1306_model_big_row(&m, height, 1, &row);
	assert_string_equal(row.time, "1:29:00");
	assert_false(row.inverted);
	assert_int_equal(row.mark, ' ');
	assert_int_equal(row.initial, 'B');
	assert_true(row.scale >= 1 && ssd1306_big_width("1:29:00", row.scale) <= 96);
	assert_true(ssd1306_big_width("1:29:00", row.scale + 1) > 96 ||
		    7 * (row.scale + 1) > height / 2 - 2);
	/* Black's clock runs, its delay: the band changes over, the hourglass and its seconds. */
	v.running = 1;
	v.delay_ms = 3000;
	face_layout(&v, names_en, true, &t);
	face_screen_update(&s, &t, &out);
	ssd_feed(&m, &out, &data);
	ssd1306_model_big_row(&m, height, 0, &row);
	assert_false(row.inverted);
	ssd1306_model_big_row(&m, height, 1, &row);
	assert_true(row.inverted);
	assert_string_equal(row.label, "\x06"
				       "3");
}

static void test_ssd1306_big_64(void **state)
{
	(void)state;
	ssd_big_case(64);
}

static void test_ssd1306_big_32(void **state)
{
	(void)state;
	ssd_big_case(32);
}

/* The arbiter's menu on the buttons: the PIN as stars, the wait, an item, the editor with
 * its field blinking; plain text in big mode too. */
static void test_menu_layout(void **state)
{
	struct face_menu m = {.screen = FACE_MENU_PIN, .digits = 3};
	struct face_view v = {
	    .has_clock = true, .ms = {293000, 5340000}, .running = 1, .flagged = -1};
	struct face_text t;

	(void)state;
	/* While the PIN is entered the clocks may run: both stay on the display. */
	face_layout_menu(&m, "de", &v, true, &t);
	assert_string_equal(t.row[0], "   4:53>1:29:00 ");
	assert_string_equal(t.row[1], "PIN ***_        ");
	assert_true(t.plain);
	v.running = 0;
	v.paused = true;
	face_layout_menu(&m, "de", &v, true, &t);
	assert_string_equal(t.row[0], "   4:53=1:29:00 ");
	face_layout_menu(&m, "de", NULL, true, &t);
	assert_string_equal(t.row[0], "SCHIEDSRICHTER  ");
	m.wait_s = 12;
	face_layout_menu(&m, "en", &v, true, &t);
	assert_string_equal(t.row[1], "PIN  WAIT 12    ");
	m = (struct face_menu){.screen = FACE_MENU_ITEM,
			       .item = FACE_ITEM_RESULT,
			       .result = "1/2-1/2",
			       .at = 1,
			       .count = 4};
	face_layout_menu(&m, "de", NULL, true, &t);
	assert_string_equal(t.row[0], "SCHIEDSRICHT 2/4");
	assert_string_equal(t.row[1], "> ERGEBNIS 1/2  ");
	m.item = FACE_ITEM_SET_CLOCKS;
	face_layout_menu(&m, "sv", NULL, true, &t);
	assert_string_equal(t.row[1], "> STALL KLOCKAN ");
	m.item = FACE_ITEM_SEAL;
	m.result = "ok";
	face_layout_menu(&m, "en", NULL, true, &t);
	assert_string_equal(t.row[1], "> SEAL OK       ");
	m.result = "breach";
	face_layout_menu(&m, "de", NULL, true, &t);
	assert_string_equal(t.row[1], "> SIEGEL BREACH ");
	m = (struct face_menu){
	    .screen = FACE_MENU_EDIT, .ms = {3779000, 297000}, .moves = {23, 22}, .field = 1};
	face_layout_menu(&m, "de", NULL, true, &t);
	assert_string_equal(t.row[0], "W 1:02:59  Z  23");
	assert_string_equal(t.row[1], "S 0:04:57  Z  22");
	m.blink_off = true;
	face_layout_menu(&m, "de", NULL, true, &t);
	assert_string_equal(t.row[0], "W 1:  :59  Z  23");
	m.field = 7;
	face_layout_menu(&m, "en", NULL, true, &t);
	assert_string_equal(t.row[0], "W 1:02:59  M  23");
	assert_string_equal(t.row[1], "B 0:04:57  M    ");
}

static void test_font_has_every_character_shown(void **state)
{
	const char *shown =
	    "0123456789:.-/=>*_?WHITEBLACKWEISSSCHWARZVITSVARTWITZWART\x01\x02\x03\x04\x05\x06";
	uint8_t box[5], cols[5];

	(void)state;
	face_font_columns('~', box);
	for (const char *c = shown; *c; c++) {
		face_font_columns(*c, cols);
		assert_memory_not_equal(cols, box, 5);
	}
}

static void test_config_keys(void **state)
{
	struct face_config c;
	char err[160];

	(void)state;
	face_config_defaults(&c);
	assert_int_equal(c.type, FACE_NONE);
	assert_string_equal(c.bus, "/dev/i2c-1");
	assert_int_equal(face_config_set(&c, "type", "ssd1306", err, sizeof(err)), 0);
	assert_int_equal(face_config_address(&c), 0x3c);
	assert_int_equal(face_config_set(&c, "type", "hd44780", err, sizeof(err)), 0);
	assert_int_equal(face_config_address(&c), 0x27);
	assert_int_equal(face_config_set(&c, "address", "0x3f", err, sizeof(err)), 0);
	assert_int_equal(face_config_address(&c), 0x3f);
	assert_int_equal(face_config_set(&c, "address", "0x78", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "0x03..0x77"));
	assert_int_equal(face_config_set(&c, "type", "lcd", err, sizeof(err)), -1);
	assert_int_equal(face_config_set(&c, "bus", "i2c-1", err, sizeof(err)), -1);
	assert_int_equal(face_config_set(&c, "height", "48", err, sizeof(err)), -1);
	assert_int_equal(face_config_set(&c, "tenths", "no", err, sizeof(err)), 0);
	assert_false(c.tenths);
	assert_int_equal(face_config_set(&c, "colour", "red", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "[display]"));
	assert_false(c.big);
	assert_int_equal(face_config_set(&c, "digits", "big", err, sizeof(err)), 0);
	assert_true(c.big);
	assert_int_equal(face_config_set(&c, "digits", "huge", err, sizeof(err)), -1);
	assert_int_equal(c.led[0], -1);
	assert_int_equal(face_config_set(&c, "led-white", "17", err, sizeof(err)), 0);
	assert_int_equal(face_config_set(&c, "led-black", "27", err, sizeof(err)), 0);
	assert_int_equal(c.led[0], 17);
	assert_int_equal(c.led[1], 27);
	assert_int_equal(face_config_set(&c, "led-black", "none", err, sizeof(err)), 0);
	assert_int_equal(c.led[1], -1);
	assert_int_equal(face_config_set(&c, "led-white", "GPIO17", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "led-white"));
}

/* A bus that is not there: the writer logs, counts one failure, and never blocks the caller. */
static void test_writer_without_bus(void **state)
{
	struct face_config c;
	struct face_writer *w;
	struct face_text t = {.row = {"A", "B"}};
	unsigned long sent = 1, failures = 0;
	char err[160];

	(void)state;
	log_set_level(LOG_LEVEL_ERROR); /* the warning is expected */
	face_config_defaults(&c);
	c.type = FACE_HD44780;
	snprintf(c.bus, sizeof(c.bus), "/dev/null/i2c-9");
	w = face_writer_start(&c, err, sizeof(err));
	assert_non_null(w);
	for (int i = 0; i < 100; i++)
		face_writer_show(w, &t);
	for (int i = 0; i < 200 && failures == 0; i++) {
		struct timespec ts = {0, 5000000};

		nanosleep(&ts, NULL);
		face_writer_counts(w, &sent, &failures);
	}
	assert_int_equal(failures, 1);
	assert_int_equal(sent, 0);
	face_writer_stop(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_time_formats),
	    cmocka_unit_test(test_layout_marks),
	    cmocka_unit_test(test_layout_power),
	    cmocka_unit_test(test_names_per_language),
	    cmocka_unit_test(test_next_change),
	    cmocka_unit_test(test_hd44780_nibbles),
	    cmocka_unit_test(test_hd44780_start_and_update),
	    cmocka_unit_test(test_ssd1306_64),
	    cmocka_unit_test(test_ssd1306_32),
	    cmocka_unit_test(test_layout_moves_period_delay),
	    cmocka_unit_test(test_next_change_in_delay),
	    cmocka_unit_test(test_clock_delay_and_period_end),
	    cmocka_unit_test(test_big_layout),
	    cmocka_unit_test(test_big_digits_distinct),
	    cmocka_unit_test(test_hd44780_big),
	    cmocka_unit_test(test_ssd1306_big_64),
	    cmocka_unit_test(test_ssd1306_big_32),
	    cmocka_unit_test(test_menu_layout),
	    cmocka_unit_test(test_font_has_every_character_shown),
	    cmocka_unit_test(test_config_keys),
	    cmocka_unit_test(test_writer_without_bus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
