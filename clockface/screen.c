/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The clock display's drivers: the I2C messages that start an HD44780 (through a PCF8574) or
 * an SSD1306 and change what it shows, sending only what differs from the screen as it is.
 */
#include <string.h>

#include "clockface/face.h"

/* ------------------------------------------------------------------ messages */

static struct face_msg *msg_new(struct face_out *out)
{
	struct face_msg *m;

	if (out->n == FACE_OUT_MAX) {
		out->overflow = true;
		return NULL;
	}
	m = &out->msg[out->n++];
	memset(m, 0, sizeof(*m));
	return m;
}

/* Raw bytes, split anywhere into messages (a PCF8574 takes each byte as its outputs); the
 * wait after the last. */
static void out_bytes(struct face_out *out, const uint8_t *b, size_t n, uint16_t wait_us)
{
	struct face_msg *m = NULL;

	while (n > 0) {
		size_t k = n < FACE_MSG_MAX ? n : FACE_MSG_MAX;

		m = msg_new(out);
		if (!m)
			return;
		memcpy(m->b, b, k);
		m->len = (uint8_t)k;
		b += k;
		n -= k;
	}
	if (m)
		m->wait_us = wait_us;
}

/* A stream behind a control byte (SSD1306: 0x00 commands, 0x40 data), repeated at the head of
 * every message. */
static void out_stream(struct face_out *out, uint8_t control, const uint8_t *b, size_t n)
{
	while (n > 0) {
		size_t k = n < FACE_MSG_MAX - 1 ? n : FACE_MSG_MAX - 1;
		struct face_msg *m = msg_new(out);

		if (!m)
			return;
		m->b[0] = control;
		memcpy(m->b + 1, b, k);
		m->len = (uint8_t)(k + 1);
		b += k;
		n -= k;
	}
}

/* ------------------------------------------------------------------ HD44780 */

/* The bus bytes of one 4-bit transfer (E high, then low: the controller takes the nibble on
 * the falling edge) and of one byte (high nibble first).  out must hold 2 or 4 bytes. */
static void hd44780_nibble(uint8_t nibble, bool rs, bool backlight, uint8_t *out)
{
	uint8_t v = (uint8_t)((nibble & 0x0f) << 4 | (rs ? HD44780_RS : 0) |
			      (backlight ? HD44780_BACKLIGHT : 0));

	out[0] = v | HD44780_E;
	out[1] = v;
}

static void hd44780_byte(uint8_t byte, bool rs, bool backlight, uint8_t *out)
{
	hd44780_nibble(byte >> 4, rs, backlight, out);
	hd44780_nibble(byte & 0x0f, rs, backlight, out + 2);
}

static void hd_nibble(struct face_out *out, const struct face_screen *s, uint8_t nibble,
		      uint16_t wait_us)
{
	uint8_t b[2];

	hd44780_nibble(nibble, false, s->backlight, b);
	out_bytes(out, b, 2, wait_us);
}

static void hd_command(struct face_out *out, const struct face_screen *s, uint8_t cmd,
		       uint16_t wait_us)
{
	uint8_t b[4];

	hd44780_byte(cmd, false, s->backlight, b);
	out_bytes(out, b, 4, wait_us);
}

/* The datasheet's initialisation by instruction (whatever state the controller is in, 8-bit
 * or half way through a 4-bit byte), then 4 bits, two lines, the glyphs, display on. */
static void hd_start(struct face_screen *s, struct face_out *out)
{
	uint8_t b[4 * 8 * 8]; /* the big digits' eight parts, or the glyphs (FACE_GLYPHS <= 8) */
	size_t n = 0;

	hd_nibble(out, s, 0x3, 4500);
	hd_nibble(out, s, 0x3, 150);
	hd_nibble(out, s, 0x3, 150);
	hd_nibble(out, s, 0x2, 150);
	hd_command(out, s, 0x28, 0);	/* function set: 4 bits, 2 lines, 5x8 dots */
	hd_command(out, s, 0x08, 0);	/* display off */
	hd_command(out, s, 0x01, 2000); /* clear (1.52 ms) */
	hd_command(out, s, 0x06, 0);	/* entry mode: the address increments, no shift */
	if (s->big) {
		/* The big digits' eight parts: characters 0..7. */
		hd_command(out, s, 0x40, 0);
		for (int g = 0; g < 8; g++)
			for (int r = 0; r < 8; r++, n += 4)
				hd44780_byte(hd44780_big_parts[g][r], true, s->backlight, b + n);
	} else {
		hd_command(out, s, 0x40 | 1 * 8, 0); /* CGRAM address of character 1 */
		for (int g = 0; g < FACE_GLYPHS; g++)
			for (int r = 0; r < 8; r++, n += 4)
				hd44780_byte(hd44780_glyphs[g][r], true, s->backlight, b + n);
	}
	out_bytes(out, b, n, 0);
	hd_command(out, s, 0x0c, 0); /* display on, no cursor, no blinking */
	for (int r = 0; r < FACE_ROWS; r++) {
		memset(s->text.row[r], ' ', FACE_COLS);
		s->text.row[r][FACE_COLS] = 0;
	}
}

static void hd_update(struct face_screen *s, const struct face_text *text, struct face_out *out)
{
	for (int r = 0; r < FACE_ROWS; r++) {
		const char *old = s->text.row[r], *new = text->row[r];
		int c = 0;

		while (c < FACE_COLS) {
			uint8_t b[4 * (FACE_COLS + 1)];
			size_t n = 0;
			int end;

			if (old[c] == new[c]) {
				c++;
				continue;
			}
			/* A run of changes; one unchanged character inside costs less to send again
			 * than a new address. */
			end = c + 1;
			while (end < FACE_COLS &&
			       (old[end] != new[end] ||
				(end + 1 < FACE_COLS && old[end + 1] != new[end + 1])))
				end++;
			hd44780_byte((uint8_t)(0x80 | (r * 0x40 + c)), false, s->backlight, b);
			n = 4;
			for (int k = c; k < end; k++, n += 4)
				hd44780_byte((uint8_t) new[k], true, s->backlight, b + n);
			out_bytes(out, b, n, 0);
			c = end;
		}
		memcpy(s->text.row[r], new, FACE_COLS + 1);
	}
}

/* ------------------------------------------------------------------ SSD1306 */

static int pages(const struct face_screen *s)
{
	return s->height / 8;
}

/* The first page of each row of text: centred on 128x64, filling 128x32. */
static int row_page(int row, int height)
{
	return height == 64 ? 1 + row * 4 : row * 2;
}

/* 7 bits, each doubled, one pixel down: 16 rows. */
static uint16_t tall(uint8_t column)
{
	uint16_t v = 0;

	for (int r = 0; r < 7; r++)
		if (column >> r & 1)
			v |= (uint16_t)(3u << (1 + 2 * r));
	return v;
}

void ssd1306_render(const struct face_text *text, int height, uint8_t *frame)
{
	memset(frame, 0, (size_t)128 * (size_t)(height / 8));
	for (int r = 0; r < FACE_ROWS; r++) {
		uint8_t *top = frame + 128 * row_page(r, height);

		for (int c = 0; c < FACE_COLS && text->row[r][c]; c++) {
			uint8_t cols[5];

			face_font_columns(text->row[r][c], cols);
			for (int x = 0; x < 5; x++) {
				uint16_t v = tall(cols[x]);

				top[c * 8 + 1 + x] = (uint8_t)(v & 0xff);
				top[128 + c * 8 + 1 + x] = (uint8_t)(v >> 8);
			}
		}
	}
}

/* The columns a scaled time takes (as ssd1306_render_big() draws it): digits and letters
 * 6 * scale wide, ':' and '.' 3 * scale. */
static int ssd1306_big_width(const char *time, int scale)
{
	int w = 0;

	for (const char *c = time; *c; c++)
		w += (*c == ':' || *c == '.' ? 3 : 6) * scale;
	return w;
}

static void set_pixel(uint8_t *frame, int height, int x, int y)
{
	if (x >= 0 && x < 128 && y >= 0 && y < height)
		frame[128 * (y / 8) + x] |= (uint8_t)(1u << (y % 8));
}

/* A character of the font at (x, y), each pixel scale x scale; ':' and '.' only their middle
 * columns (1-2), so they take 3 * scale. */
static int draw_scaled(uint8_t *frame, int height, int x, int y, char c, int scale)
{
	uint8_t cols[5];
	bool narrow = c == ':' || c == '.';
	int c0 = narrow ? 1 : 0, c1 = narrow ? 3 : 5;

	face_font_columns(c, cols);
	for (int col = c0; col < c1; col++)
		for (int r = 0; r < 7; r++)
			if (cols[col] >> r & 1)
				for (int dx = 0; dx < scale; dx++)
					for (int dy = 0; dy < scale; dy++)
						set_pixel(frame, height,
							  x + (col - c0) * scale + dx,
							  y + r * scale + dy);
	return (narrow ? 3 : 6) * scale;
}

void ssd1306_render_big(const struct face_text *text, int height, uint8_t *frame)
{
	int band = height / 2, left = 32, width = 128 - left;

	memset(frame, 0, (size_t)128 * (size_t)(height / 8));
	for (int r = 0; r < FACE_ROWS; r++) {
		const char *row = text->row[r];
		char time[FACE_COLS + 1], label[8];
		int y0 = r * band, scale = 1, small = band >= 32 ? 2 : 1, x, n = 0;

		/* The time: cols 8-15 without their leading blanks. */
		for (int c = 8; c < FACE_COLS && row[c]; c++)
			if (row[c] != ' ' || n)
				time[n++] = row[c];
		time[n] = '\0';
		while (ssd1306_big_width(time, scale + 1) <= width && 7 * (scale + 1) <= band - 2)
			scale++;
		x = 128 - ssd1306_big_width(time, scale);
		for (const char *c = time; *c; c++)
			x += draw_scaled(frame, height, x, y0 + (band - 7 * scale) / 2, *c, scale);
		/* At the left: the mark and the initial, and below them the moves made or the
		 * delay (cols 3-7 once the clock runs; before, cols 1-7 hold the name). */
		x = draw_scaled(frame, height, 1, y0 + 1, row[0] ? row[0] : ' ', small);
		draw_scaled(frame, height, 3 + x, y0 + 1, row[1], small);
		n = 0;
		for (int c = 3; row[1] && row[2] == ' ' && c < 8 && row[c]; c++)
			if (row[c] != ' ' || n)
				label[n++] = row[c];
		label[n] = '\0';
		for (int i = 0, lx = 1; label[i] && lx + 5 <= left; i++, lx += 6)
			draw_scaled(frame, height, lx, y0 + band - 8, label[i], 1);
		/* The running side's band in reverse video. */
		if (row[0] == FACE_GLYPH_MOVE)
			for (int y = y0; y < y0 + band; y++)
				for (int xx = 0; xx < 128; xx++)
					frame[128 * (y / 8) + xx] ^= (uint8_t)(1u << (y % 8));
	}
}

static void ssd_window(struct face_out *out, int c0, int c1, int p0, int p1)
{
	const uint8_t cmd[] = {0x21, (uint8_t)c0, (uint8_t)c1, 0x22, (uint8_t)p0, (uint8_t)p1};

	out_stream(out, 0x00, cmd, sizeof(cmd));
}

static void ssd_start(struct face_screen *s, struct face_out *out)
{
	const uint8_t init[] = {
	    0xae,	/* display off */
	    0xd5, 0x80, /* clock divide ratio and oscillator frequency: the default */
	    0xa8, (uint8_t)(s->height - 1),	 /* multiplex ratio: the height */
	    0xd3, 0x00,				 /* no display offset */
	    0x40,				 /* start line 0 */
	    0x8d, 0x14,				 /* charge pump on (no external VCC) */
	    0x20, 0x00,				 /* horizontal addressing */
	    0xa1,				 /* column 127 is SEG0: not mirrored as mounted */
	    0xc8,				 /* COM scan from the top */
	    0xda, s->height == 64 ? 0x12 : 0x02, /* COM pins: alternative (64), sequential (32) */
	    0x81, 0xcf,				 /* contrast */
	    0xd9, 0xf1,				 /* pre-charge period */
	    0xdb, 0x40,				 /* VCOMH deselect level */
	    0x2e,				 /* no scrolling */
	    0xa4,				 /* show the RAM */
	    0xa6,				 /* not inverted */
	};
	static const uint8_t zeros[128] = {0};
	const uint8_t on = 0xaf;

	out_stream(out, 0x00, init, sizeof(init));
	ssd_window(out, 0, 127, 0, pages(s) - 1);
	for (int p = 0; p < pages(s); p++)
		out_stream(out, 0x40, zeros, sizeof(zeros));
	out_stream(out, 0x00, &on, 1);
	memset(s->frame, 0, sizeof(s->frame));
	memset(&s->text, 0, sizeof(s->text));
}

static void ssd_update(struct face_screen *s, const struct face_text *text, struct face_out *out)
{
	uint8_t frame[FACE_FRAME_MAX];

	if (s->big && !text->plain)
		ssd1306_render_big(text, s->height, frame);
	else
		ssd1306_render(text, s->height, frame);
	for (int p = 0; p < pages(s); p++) {
		const uint8_t *old = s->frame + 128 * p, *new = frame + 128 * p;
		int c0 = 0, c1 = 127;

		while (c0 < 128 && old[c0] == new[c0])
			c0++;
		if (c0 == 128)
			continue;
		while (old[c1] == new[c1])
			c1--;
		ssd_window(out, c0, c1, p, p);
		out_stream(out, 0x40, new + c0, (size_t)(c1 - c0 + 1));
	}
	memcpy(s->frame, frame, sizeof(frame));
	s->text = *text;
}

/* ------------------------------------------------------------------ the screen */

void face_screen_init(struct face_screen *s, enum face_type type, int height)
{
	memset(s, 0, sizeof(*s));
	s->type = type;
	s->height = height == 32 ? 32 : 64;
	s->backlight = true;
}

void face_screen_start(struct face_screen *s, struct face_out *out)
{
	out->n = 0;
	out->overflow = false;
	if (s->type == FACE_HD44780)
		hd_start(s, out);
	else if (s->type == FACE_SSD1306)
		ssd_start(s, out);
	s->valid = s->type != FACE_NONE;
}

void face_screen_update(struct face_screen *s, const struct face_text *text, struct face_out *out)
{
	out->n = 0;
	out->overflow = false;
	if (!s->valid)
		return;
	if (s->type == FACE_HD44780)
		hd_update(s, text, out);
	else if (s->type == FACE_SSD1306)
		ssd_update(s, text, out);
}
