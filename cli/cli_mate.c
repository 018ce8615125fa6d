/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella mate FEN [white|black]`: who can still checkmate (docs/arbiter.md "Who can still
 * checkmate"), for an arbiter and for scripts.  One line per side asked:
 *
 *     SIDE possible|never|unknown MS [the helpmate in UCI | the reason]
 *
 * MS is the time the answer took in milliseconds.  The FEN may be one argument or its fields
 * as separate arguments.  Without a FEN, the FENs are read one a line from standard input (a line
 * may end in "white" or "black" to ask one side), and the answers come in the same order.  A bad
 * FEN is named (its line on standard input, the column and what is wrong) and the status is 2; the
 * other lines are still answered.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "chess/chess.h"
#include "cli/cli.h"
#include "game/color.h"

void cli_mate_usage(FILE *f)
{
	fprintf(f, "usage: annabella mate [FEN [white|black]]   (FENs on standard input without "
		   "one)\n");
}

static int mate_usage(void)
{
	cli_mate_usage(stderr);
	return 2;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void answer(const struct chess_pos *pos, enum chess_color side)
{
	struct chess_mate_info info = {0};
	double t0 = now_ms();
	enum chess_mate m = chess_pos_mate(pos, side, &info);
	double ms = now_ms() - t0;

	printf("%s %s %.3f", game_color_name(side), chess_mate_name(m), ms);
	if (m == CHESS_MATE_POSSIBLE && info.line_len == 0 && !strcmp(info.reason, "helpmate")) {
		printf(" (mated already)");
	} else if (m == CHESS_MATE_POSSIBLE && info.line_len > 0) {
		for (int i = 0; i < info.line_len; i++) {
			char uci[8];

			chess_move_to_uci(info.line[i], uci, sizeof(uci));
			printf(" %s", uci);
		}
	} else {
		printf(" %s", info.reason);
	}
	putchar('\n');
}

/* Answer for `text`, a FEN perhaps followed by a side; `where` names it in an error.  0, or
 * 2 for a bad FEN or side. */
static int ask(char *text, const char *where)
{
	struct chess_pos pos;
	struct chess_error err;
	int sides = 3; /* bit 0 white, bit 1 black */
	char *last;

	text[strcspn(text, "\r\n")] = '\0';
	while (*text == ' ' || *text == '\t')
		text++;
	last = strrchr(text, ' ');
	if (last && (!strcmp(last + 1, "white") || !strcmp(last + 1, "black"))) {
		sides = !strcmp(last + 1, "white") ? 1 : 2;
		*last = '\0';
	} else if (!strcmp(text, "white") || !strcmp(text, "black")) {
		log_error(LOG_MAIN, "%sno FEN before '%s'", where, text);
		return 2;
	}
	if (chess_fen_parse(&pos, text, &err) < 0) {
		log_error(LOG_MAIN, "%sbad FEN, column %d: %s", where, err.column, err.message);
		return 2;
	}
	if (sides & 1)
		answer(&pos, CHESS_WHITE);
	if (sides & 2)
		answer(&pos, CHESS_BLACK);
	fflush(stdout);
	return 0;
}

int cli_mate(int argc, char **argv)
{
	char line[512];
	int status = 0;
	long n = 0;

	if (argc >= 1 && argv[0][0] == '-')
		return mate_usage();
	if (argc >= 1) {
		/* The FEN as one argument or as its fields, perhaps a side after it. */
		size_t len = 0;

		line[0] = '\0';
		for (int i = 0; i < argc; i++) {
			size_t arg = strlen(argv[i]);

			if (len + arg + 2 > sizeof(line)) {
				log_error(LOG_MAIN, "FEN too long");
				return 2;
			}
			if (i)
				line[len++] = ' ';
			memcpy(line + len, argv[i], arg + 1);
			len += arg;
		}
		return ask(line, "");
	}
	while (fgets(line, sizeof(line), stdin)) {
		char where[48];

		n++;
		if (!strchr(line, '\n') && !feof(stdin)) {
			int c;

			log_error(LOG_MAIN, "line %ld: too long for a FEN", n);
			while ((c = getchar()) != EOF && c != '\n')
				;
			status = 2;
			continue;
		}
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		snprintf(where, sizeof(where), "line %ld: ", n);
		if (ask(line, where))
			status = 2;
	}
	return status;
}
