/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Board scripts (DESIGN 4.3): the sim backend's input.  Pure parser.
 */
#ifndef ANNABELLA_SCRIPT_H
#define ANNABELLA_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum script_action_type {
	SCRIPT_LIFT = 0,
	SCRIPT_PLACE,
	SCRIPT_PRESS, /* press and release: held 80 ms */
	SCRIPT_HOLD,  /* press, hold arg ms, release */
	SCRIPT_CHATTER, /* the square's sensor bounces arg times within 10 ms, ending as it was */
	SCRIPT_CRASH,
};

struct script_action {
	uint64_t time_ms; /* absolute daemon time: the sum of the +MS waits so far */
	enum script_action_type type;
	int target; /* square 0..63 or enum board_button */
	uint32_t arg;
	int line; /* line in the script file */
};

struct script_header {
	int player; /* -1: not given (config decides), else enum chess_color */
	bool has_time_control;
	char time_control[64]; /* "-" for none */
	bool has_setup;
	char setup_fen[100];
};

struct script {
	struct script_header header;
	int count;
	struct script_action *actions;
};

/* Parse script text.  0, or -1 with "NAME:LINE: message" in err. */
int script_parse(const char *text, size_t len, const char *name, struct script *out, char *err,
		 size_t err_size);
int script_load(const char *path, struct script *out, char *err, size_t err_size);
void script_free(struct script *s);

#endif
