/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: lichess's Board API messages as `annabella online` reads them
 * (cli/lichess_msg.h).  Each input is split into NDJSON lines; each goes through the parser,
 * and a state's moves through the move reader from the start position, each word replayed
 * when it is a legal move.  Nothing may crash or read past a field, and a parsed state's
 * moves must end in a NUL within their buffer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"
#include "cli/lichess_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lichess_msg msg;
	char *text, *line, *save = NULL;
	char err[256], why[256];

	if (size > 2 * LICHESS_LINE_MAX)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (lichess_msg_parse(line, &msg, err, sizeof(err)))
			continue;
		if (msg.type == LICHESS_GAME_FULL || msg.type == LICHESS_GAME_STATE) {
			struct chess_pos pos;
			const char *at = msg.state.moves;
			char word[6];

			if (!memchr(msg.state.moves, '\0', sizeof(msg.state.moves)))
				abort();
			chess_pos_init_start(&pos);
			while (lichess_next_move(&at, &pos, word)) {
				chess_move m;
				struct chess_undo undo;

				if (chess_move_parse_uci(&pos, word, &m))
					break;
				chess_pos_make(&pos, m, &undo);
			}
		}
		if (msg.type == LICHESS_CHALLENGE)
			lichess_time_control_allowed(LICHESS_BY_CHALLENGE, msg.u.challenge.limit_s,
						     msg.u.challenge.increment_s, why, sizeof(why));
	}
	lichess_error_text(text, why, sizeof(why));
	free(text);
	return 0;
}
