/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The clock display's bytes as the VM's kernel saw them (the smbus_write trace event of
 * tracefs, one line per SMBus write), fed to the controller models of the unit tests: prints
 * what the screen showed after each burst of writes (the next write more than 50 ms later),
 * as "SECONDS|ROW0|ROW1", the glyphs as '>' (clock runs), '=' (clocks stand), 'F' (flag).
 *
 *   face-decode hd44780|ssd1306 ADDRESS [HEIGHT] < trace
 *
 * Lines for other addresses are left out; the last line is "messages N bytes N errors N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/face_testutil.h"

static bool ssd;
static int height = 64;
static struct hd44780_model hd;
static struct ssd1306_model sm;

static void print_screen(double t)
{
	struct face_text text;

	if (ssd)
		ssd1306_model_text(&sm, height, &text);
	else
		hd44780_model_text(&hd, &text);
	printf("%.6f", t);
	for (int r = 0; r < FACE_ROWS; r++) {
		putchar('|');
		for (int c = 0; c < FACE_COLS; c++) {
			char ch = text.row[r][c];

			putchar(ch == FACE_GLYPH_MOVE	 ? '>'
				: ch == FACE_GLYPH_PAUSE ? '='
				: ch == FACE_GLYPH_FLAG	 ? 'F'
				: ch == FACE_GLYPH_DELAY ? 'd'
							 : ch);
		}
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	char line[1024];
	unsigned long messages = 0, bytes = 0;
	unsigned address;
	double last = -1;

	if (argc < 3) {
		fprintf(stderr, "usage: face-decode hd44780|ssd1306 ADDRESS [HEIGHT] < trace\n");
		return 2;
	}
	ssd = !strcmp(argv[1], "ssd1306");
	address = (unsigned)strtoul(argv[2], NULL, 0);
	if (argc > 3)
		height = atoi(argv[3]);
	hd44780_model_init(&hd);
	ssd1306_model_init(&sm);
	while (fgets(line, sizeof(line), stdin)) {
		const char *p = strstr(line, ": smbus_write: "), *q;
		unsigned a, cmd, len, flags;
		uint8_t msg[64];
		size_t n = 0;
		double t;
		char proto[32];

		if (!p)
			continue;
		/* "... 12.345678: smbus_write: i2c-0 a=027 f=0000 c=34 BYTE l=0 []" */
		q = p;
		while (q > line && q[-1] != ' ')
			q--;
		t = strtod(q, NULL);
		if (sscanf(p, ": smbus_write: i2c-%*d a=%x f=%x c=%x %31s l=%u", &a, &flags, &cmd,
			   proto, &len) != 5 ||
		    a != address)
			continue;
		msg[n++] = (uint8_t)cmd;
		q = strchr(p, '[');
		/* I2C_BLOCK_DATA: the buffer is the count, then the data bytes. */
		for (unsigned i = 0; q && i < len && n < sizeof(msg); i++) {
			unsigned v;

			if (sscanf(q + 1 + 3 * i, "%2x", &v) != 1)
				break;
			if (i > 0)
				msg[n++] = (uint8_t)v;
		}
		if (last >= 0 && t - last > 0.05)
			print_screen(last);
		last = t;
		messages++;
		bytes += n;
		if (ssd)
			ssd1306_model_write(&sm, msg, n);
		else
			for (size_t i = 0; i < n; i++)
				hd44780_model_bus(&hd, msg[i]);
	}
	if (last >= 0)
		print_screen(last);
	printf("messages %lu bytes %lu errors %d\n", messages, bytes, ssd ? sm.error : hd.error);
	return 0;
}
