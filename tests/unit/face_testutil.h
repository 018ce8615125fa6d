/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Models of the clock display's controllers for the tests (tests/unit/support_face.c): each
 * takes the I2C messages a driver sends, as the device would, and tells what the screen shows.
 * Also used by the VM test (tests/vm/face-decode.c) on the bytes the kernel saw.
 */
#ifndef ANNABELLA_TESTS_FACE_TESTUTIL_H
#define ANNABELLA_TESTS_FACE_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clockface/face.h"

/* An HD44780 behind a PCF8574 (bits as clockface/face.h), from power-on (8-bit mode). */
struct hd44780_model {
	uint8_t last;	 /* the PCF8574's outputs */
	bool four_bit;	 /* after a function set with DL = 0 */
	bool half;	 /* a high nibble is waiting for its low one */
	uint8_t high;	 /* that nibble */
	bool cgram;	 /* the address counter points into CGRAM */
	uint8_t addr;	 /* DDRAM or CGRAM address */
	bool display_on; /* display control D */
	bool backlight;	 /* P3 as last written */
	int lines;	 /* function set N: 1 or 2 */
	uint8_t ddram[128];
	uint8_t cgram_data[64];
	unsigned bytes; /* bytes the controller took (instructions and data) */
	unsigned data;	/* of them, data writes */
	bool error;	/* something a driver must not do (data before 4-bit mode, ...) */
};
void hd44780_model_init(struct hd44780_model *m);
/* One byte on the bus to the PCF8574. */
void hd44780_model_bus(struct hd44780_model *m, uint8_t byte);
/* Rows 0 and 1 as characters (CGRAM characters 1..3 as the face's glyph codes). */
void hd44780_model_text(const struct hd44780_model *m, struct face_text *out);

/* An SSD1306: control byte, then commands (0x00) or data (0x40). */
struct ssd1306_model {
	int c0, c1, p0, p1; /* the column and page window */
	int col, page;
	bool on, charge_pump, horizontal;
	int mux; /* multiplex ratio + 1: the height */
	uint8_t frame[FACE_FRAME_MAX];
	unsigned data; /* data bytes taken */
	bool error;
	/* commands under way */
	uint8_t cmd[4];
	int cmd_len, cmd_need;
};
void ssd1306_model_init(struct ssd1306_model *m);
/* One I2C write (its bytes after the address). */
void ssd1306_model_write(struct ssd1306_model *m, const uint8_t *b, size_t n);
/* The text the frame shows (as ssd1306_render() draws it); '?' where no character fits. */
void ssd1306_model_text(const struct ssd1306_model *m, int height, struct face_text *out);

/* A row of the SSD1306's big digits (ssd1306_render_big()) read back from the frame: its
 * band in reverse video or not, the time and its scale, the mark, initial and count. */
struct ssd1306_big_row {
	bool inverted;
	int scale;
	char time[16];
	char mark, initial;
	char label[8];
};
void ssd1306_model_big_row(const struct ssd1306_model *m, int height, int row,
			   struct ssd1306_big_row *out);

#endif
