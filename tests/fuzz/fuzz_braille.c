/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The braille coders on arbitrary text: the chess code's SAN reader, UEB text, computer
 * braille, and the live display's panel fed with those moves and pressed with keys.  The
 * first byte picks the notation and the window's width.  Every call must stay within its
 * buffers; a move the code accepts must fit BRAILLE_MOVE_MAX cells and be six-dot only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "braille/braille.h"
#include "braille/panel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct braille_panel panel;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	enum braille_notation notation =
	    data[0] & 1 ? BRAILLE_NOTATION_COMPUTER : BRAILLE_NOTATION_BCA;
	braille_panel_init(&panel, notation, (data[0] >> 1) % 50);
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	int ply = 1;
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		braille_cell cells[BRAILLE_MOVE_MAX];
		int n = braille_move_from_san(line, cells, BRAILLE_MOVE_MAX);
		if (n > BRAILLE_MOVE_MAX)
			abort();
		for (int k = 0; k < n; k++)
			if (cells[k] & 0xC0)
				abort();
		braille_cell wide[64];
		if (braille_text(line, wide, 64) > 64 || braille_computer_text(line, wide, 64) > 64)
			abort();
		/* Into the panel: a short line is a move, a byte of 0x01-0x07 a key. */
		if (line[0] >= 1 && line[0] <= 7) {
			braille_panel_key(&panel, (enum braille_panel_key)(line[0] - 1));
		} else if (line[0] == '@') {
			braille_panel_clock(&panel, (int64_t)strlen(line) * 1000003, -1);
		} else if (strlen(line) < CHESS_SAN_MAX) {
			int jump = line[0] == '^' ? 500 : 0;
			braille_panel_move_san(&panel, ply + jump, line, ply / 2 + 1,
					       ply % 2 ? CHESS_WHITE : CHESS_BLACK);
			ply++;
		}
		braille_cell window[BRAILLE_PANEL_WIDTH_MAX];
		braille_panel_window(&panel, window);
		braille_panel_route(&panel, (int)(strlen(line) % 60) - 5);
		if (panel.line < 0 || panel.line >= braille_panel_lines(&panel) || panel.offset < 0)
			abort();
	}
	free(text);
	return 0;
}
