/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The clock display's own thread: the game loop hands it the text to show and never waits
 * for the bus (an SSD1306's whole frame takes about 100 ms at 100 kHz).  The thread sends
 * only what changed; a failing bus or display is logged once, tried again every
 * FACE_RETRY_MS with the latest text, and logged again when it works.
 */
#ifndef ANNABELLA_CLOCKFACE_WRITER_H
#define ANNABELLA_CLOCKFACE_WRITER_H

#include <stdbool.h>
#include <stddef.h>

#include "clockface/face.h"

#define FACE_RETRY_MS 5000

/* The [display] section of the configuration. */
struct face_config {
	enum face_type type;
	char bus[64]; /* "/dev/i2c-1" */
	int address;  /* 7-bit; -1: the type's usual (0x27 PCF8574, 0x3c SSD1306) */
	int height;   /* SSD1306: 64 or 32 */
	bool tenths;  /* tenths of a second below ten seconds */
	bool big;     /* digits = big: as large as the display allows (face.h) */
	/* led-white, led-black: a GPIO line on the board's chip per side, lit while that side's
	 * clock runs; -1: none.  The board requests them (gpio/board.h). */
	int led[2];
};

void face_config_defaults(struct face_config *c);
/* One key of [display]: 0, or -1 with a message in err (the caller adds file and line). */
int face_config_set(struct face_config *c, const char *key, const char *value, char *err,
		    size_t err_size);
/* "none", "hd44780", "ssd1306" */
const char *face_type_name(enum face_type t);
int face_config_address(const struct face_config *c);

struct face_writer;

/* NULL with a message if the thread cannot start. */
struct face_writer *face_writer_start(const struct face_config *cfg, char *err, size_t err_size);
/* Show this text (returns at once; only the latest text handed over is shown). */
void face_writer_show(struct face_writer *w, const struct face_text *text);
/* Ends the thread (after the message it is sending) and frees. */
void face_writer_stop(struct face_writer *w);

#endif
