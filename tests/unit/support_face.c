/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Controller models for the clock display's tests (face_testutil.h). */
#include <string.h>

#include "face_testutil.h"

/* ------------------------------------------------------------------ HD44780 */

void hd44780_model_init(struct hd44780_model *m)
{
	memset(m, 0, sizeof(*m));
	memset(m->ddram, ' ', sizeof(m->ddram));
	m->lines = 1;
}

static void hd_instruction(struct hd44780_model *m, uint8_t v)
{
	if (v & 0x80) {
		m->cgram = false;
		m->addr = v & 0x7f;
	} else if (v & 0x40) {
		m->cgram = true;
		m->addr = v & 0x3f;
	} else if (v & 0x20) {
		m->four_bit = !(v & 0x10);
		m->lines = v & 0x08 ? 2 : 1;
	} else if (v & 0x08) {
		m->display_on = v & 0x04;
	} else if (v == 0x01) {
		memset(m->ddram, ' ', sizeof(m->ddram));
		m->cgram = false;
		m->addr = 0;
	} else if (v & 0x02) {
		m->cgram = false;
		m->addr = 0;
	}
}

static void hd_take(struct hd44780_model *m, uint8_t v, bool rs)
{
	m->bytes++;
	if (!rs) {
		hd_instruction(m, v);
		return;
	}
	m->data++;
	if (!m->four_bit)
		m->error = true;
	if (m->cgram) {
		m->cgram_data[m->addr & 0x3f] = v;
		m->addr = (m->addr + 1) & 0x3f;
	} else {
		m->ddram[m->addr & 0x7f] = v;
		m->addr = (m->addr + 1) & 0x7f;
	}
}

void hd44780_model_bus(struct hd44780_model *m, uint8_t byte)
{
	bool falling = (m->last & HD44780_E) && !(byte & HD44780_E);
	bool rs = byte & HD44780_RS;
	uint8_t nibble = byte >> 4;

	m->backlight = byte & HD44780_BACKLIGHT;
	/* RS and the data must be steady while E falls. */
	if (falling && ((m->last ^ byte) & 0xf3))
		m->error = true;
	m->last = byte;
	if (!falling)
		return;
	if (!m->four_bit) {
		/* 8-bit interface, D0-D3 not wired: they read as 0. */
		if (rs)
			m->error = true;
		hd_take(m, (uint8_t)(nibble << 4), false);
		m->half = false;
		return;
	}
	if (!m->half) {
		m->high = nibble;
		m->half = true;
		return;
	}
	m->half = false;
	hd_take(m, (uint8_t)(m->high << 4 | nibble), rs);
}

void hd44780_model_text(const struct hd44780_model *m, struct face_text *out)
{
	for (int r = 0; r < FACE_ROWS; r++) {
		for (int c = 0; c < FACE_COLS; c++)
			out->row[r][c] = (char)m->ddram[r * 0x40 + c];
		out->row[r][FACE_COLS] = 0;
	}
}

/* ------------------------------------------------------------------ SSD1306 */

void ssd1306_model_init(struct ssd1306_model *m)
{
	memset(m, 0, sizeof(*m));
	m->c1 = 127;
	m->p1 = 7;
	m->mux = 64;
}

/* Bytes of arguments after each command byte this model knows; -1: unknown. */
static int ssd_args(uint8_t c)
{
	switch (c) {
	case 0x21:
	case 0x22:
		return 2;
	case 0x20:
	case 0x81:
	case 0x8d:
	case 0xa8:
	case 0xd3:
	case 0xd5:
	case 0xd9:
	case 0xda:
	case 0xdb:
		return 1;
	default:
		if ((c >= 0x40 && c <= 0x7f) || c == 0xa0 || c == 0xa1 || c == 0xa4 || c == 0xa5 ||
		    c == 0xa6 || c == 0xa7 || c == 0xae || c == 0xaf || c == 0xc0 || c == 0xc8 ||
		    c == 0x2e)
			return 0;
		return -1;
	}
}

static void ssd_command(struct ssd1306_model *m)
{
	const uint8_t *c = m->cmd;

	switch (c[0]) {
	case 0x21:
		m->c0 = c[1] & 0x7f;
		m->c1 = c[2] & 0x7f;
		m->col = m->c0;
		break;
	case 0x22:
		m->p0 = c[1] & 7;
		m->p1 = c[2] & 7;
		m->page = m->p0;
		break;
	case 0x20:
		m->horizontal = c[1] == 0x00;
		break;
	case 0x8d:
		m->charge_pump = c[1] == 0x14;
		break;
	case 0xa8:
		m->mux = c[1] + 1;
		break;
	case 0xae:
	case 0xaf:
		m->on = c[0] == 0xaf;
		break;
	default:
		break;
	}
}

void ssd1306_model_write(struct ssd1306_model *m, const uint8_t *b, size_t n)
{
	if (n == 0)
		return;
	if (b[0] != 0x00 && b[0] != 0x40) {
		m->error = true;
		return;
	}
	for (size_t i = 1; i < n; i++) {
		if (b[0] == 0x40) {
			if (!m->horizontal)
				m->error = true;
			m->frame[m->page * 128 + m->col] = b[i];
			m->data++;
			if (++m->col > m->c1) {
				m->col = m->c0;
				if (++m->page > m->p1)
					m->page = m->p0;
			}
			continue;
		}
		if (m->cmd_len == 0) {
			m->cmd_need = ssd_args(b[i]);
			if (m->cmd_need < 0) {
				m->error = true;
				continue;
			}
		}
		m->cmd[m->cmd_len++] = b[i];
		if (m->cmd_len > m->cmd_need) {
			ssd_command(m);
			m->cmd_len = 0;
		}
	}
}

void ssd1306_model_text(const struct ssd1306_model *m, int height, struct face_text *out)
{
	static const char chars[] =
	    " 0123456789:.-/=>ABCDEFGHIJKLMNOPQRSTUVWXYZ\x01\x02\x03\x04\x05\x06";
	struct face_text probe;
	uint8_t frame[FACE_FRAME_MAX];

	/* Each character drawn alone in the first cell of both rows is held against the cells. */
	for (int r = 0; r < FACE_ROWS; r++) {
		for (int c = 0; c < FACE_COLS; c++) {
			out->row[r][c] = '?';
			for (const char *ch = chars; *ch; ch++) {
				int page = height == 64 ? 1 + r * 4 : r * 2;
				bool same = true;

				memset(&probe, 0, sizeof(probe));
				probe.row[r][0] = *ch;
				ssd1306_render(&probe, height, frame);
				for (int x = 0; x < 8 && same; x++)
					for (int p = 0; p < 2 && same; p++)
						same = frame[(page + p) * 128 + x] ==
						       m->frame[(page + p) * 128 + c * 8 + x];
				if (same) {
					out->row[r][c] = *ch;
					break;
				}
			}
		}
		out->row[r][FACE_COLS] = 0;
	}
}

/* ------------------------------------------------------------------ big digits */

/* The character of the font whose pixels, each scale x scale, stand at (x, y) of the frame,
 * among `chars` (':' and '.' by their middle columns only, as drawn big); 0 if none. */
static bool lit(const uint8_t *frame, int height, int x, int y)
{
	return x >= 0 && x < 128 && y >= 0 && y < height &&
	       (frame[128 * (y / 8) + x] >> (y % 8) & 1);
}

static char glyph_at(const uint8_t *frame, int height, int x, int y, int scale, const char *chars,
		     bool narrow)
{
	for (const char *c = chars; *c; c++) {
		uint8_t cols[5];
		bool same = true;
		int c0 = narrow ? 1 : 0, c1 = narrow ? 3 : 5;

		if ((*c == ':' || *c == '.') != narrow)
			continue;
		face_font_columns(*c, cols);
		for (int col = c0; col < c1 && same; col++)
			for (int r = 0; r < 7 && same; r++)
				for (int d = 0; d < scale * scale && same; d++)
					same =
					    lit(frame, height, x + (col - c0) * scale + d % scale,
						y + r * scale + d / scale) == (cols[col] >> r & 1);
		if (same)
			return *c;
	}
	return 0;
}

void ssd1306_model_big_row(const struct ssd1306_model *m, int height, int row,
			   struct ssd1306_big_row *out)
{
	uint8_t frame[FACE_FRAME_MAX];
	int band = height / 2, y0 = row * band, top = band, bottom = -1, lit_count = 0;
	int small = band >= 32 ? 2 : 1, x, n = 0, scale;

	memcpy(frame, m->frame, sizeof(frame));
	memset(out, 0, sizeof(*out));
	/* Reverse video: more lit than dark. */
	for (int y = y0; y < y0 + band; y++)
		for (int xx = 0; xx < 128; xx++)
			lit_count += lit(frame, height, xx, y);
	if (lit_count > 128 * band / 2) {
		out->inverted = true;
		for (int y = y0; y < y0 + band; y++)
			for (int xx = 0; xx < 128; xx++)
				frame[128 * (y / 8) + xx] ^= (uint8_t)(1u << (y % 8));
	}
	/* The time: right-aligned at x 128, its height 7 * scale. */
	for (int y = y0; y < y0 + band; y++)
		for (int xx = 32; xx < 128; xx++)
			if (lit(frame, height, xx, y)) {
				if (y - y0 < top)
					top = y - y0;
				if (y - y0 > bottom)
					bottom = y - y0;
			}
	scale = bottom >= top ? (bottom - top + 1) / 7 : 0;
	out->scale = scale;
	x = 128;
	while (scale > 0 && x > 32 && n < (int)sizeof(out->time) - 1) {
		char c =
		    glyph_at(frame, height, x - 6 * scale, y0 + top, scale, "0123456789", false);

		if (c) {
			x -= 6 * scale;
		} else if ((c = glyph_at(frame, height, x - 3 * scale, y0 + top, scale, ":.",
					 true))) {
			x -= 3 * scale;
		} else {
			break;
		}
		memmove(out->time + 1, out->time, (size_t)n + 1);
		out->time[0] = c;
		n++;
	}
	/* The mark and the initial at the top left; the count below. */
	out->mark = glyph_at(frame, height, 1, y0 + 1, small, " \x01\x02\x03", false);
	out->initial = glyph_at(frame, height, 3 + 6 * small, y0 + 1, small,
				"ABCDEFGHIJKLMNOPQRSTUVWXYZ", false);
	for (int i = 0, lx = 1; i < 5; i++, lx += 6) {
		char c = glyph_at(frame, height, lx, y0 + band - 8, 1, "0123456789/\x06", false);

		if (!c)
			break;
		out->label[i] = c;
	}
}
