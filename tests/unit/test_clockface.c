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
#include "clockface/face.h"
#include "clockface/writer.h"
#include "face_testutil.h"

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

static void test_font_has_every_character_shown(void **state)
{
	const char *shown =
	    "0123456789:.-WHITEBLACKWEISSSCHWARZVITSVARTWITZWART\x01\x02\x03\x04\x05";
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
}

/* A bus that is not there: the writer logs, counts one failure, and never blocks the caller. */
static void test_writer_without_bus(void **state)
{
	struct face_config c;
	struct face_writer *w;
	struct face_text t = {{"A", "B"}};
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
	    cmocka_unit_test(test_font_has_every_character_shown),
	    cmocka_unit_test(test_config_keys),
	    cmocka_unit_test(test_writer_without_bus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
