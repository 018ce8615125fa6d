/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "game/compare.h"

#include <stdio.h>
#include <string.h>

/* A word that is not a move: a move number ("12.", "12...", "12"), a result, a draw offer
 * mark.  A number glued to a move ("12.e4") leaves the move. */
static const char *strip(char *word)
{
	char *p = word;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p != word && (*p == '.' || !*p)) {
		while (*p == '.')
			p++;
		word = p;
	}
	if (!strcmp(word, "(=)") || !strcmp(word, "=") || !strcmp(word, "1-0") ||
	    !strcmp(word, "0-1") || !strcmp(word, "1/2-1/2") || !strcmp(word, "½-½") ||
	    !strcmp(word, "*") || !*word)
		return NULL;
	return word;
}

/* German promotion as on paper ("d8D", "exd8S") to what the SAN reader takes ("d8=Q"). */
static void promotion_letters(char *word, size_t size)
{
	static const char de[] = "DTLS", en[] = "QRBN";
	size_t n = strlen(word);
	const char *p;

	while (n && (word[n - 1] == '+' || word[n - 1] == '#'))
		n--;
	if (n >= 3 && word[n - 2] >= '1' && word[n - 2] <= '8' && (p = strchr(de, word[n - 1])) &&
	    word[n - 1] && word[0] >= 'a' && word[0] <= 'h' && n + 2 < size) {
		char letter = en[p - de];

		memmove(word + n + 1, word + n, strlen(word + n) + 1);
		word[n - 1] = '=';
		word[n] = letter;
	}
}

int game_compare(const struct game *g, const char *movetext, const char *lang,
		 struct game_comparison *out, char *err, size_t err_size)
{
	struct chess_pos pos = g->start;
	const char *p = movetext;
	int depth = 0;

	memset(out, 0, sizeof(*out));
	out->device_plies = game_plies(g);
	if (!g->open) {
		snprintf(err, err_size, "no game");
		return -1;
	}
	while (*p) {
		char word[32], written[32];
		const char *w;
		size_t n = 0;
		chess_move m;
		struct chess_error cerr;
		struct chess_undo undo;

		if (*p == '{' || *p == '(') {
			/* Comments and variations are not moves; "(=)" is a draw offer. */
			char close = *p == '{' ? '}' : ')';

			depth = 1;
			for (p++; *p && depth; p++) {
				if (*p == close)
					depth--;
			}
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',') {
			p++;
			continue;
		}
		while (p[n] && !strchr(" \t\r\n,{(", p[n]))
			n++;
		snprintf(word, sizeof(word), "%.*s",
			 (int)(n < sizeof(word) - 4 ? n : sizeof(word) - 4), p);
		p += n;
		w = strip(word);
		if (!w)
			continue;
		snprintf(written, sizeof(written), "%s", w); /* w points into word */
		w = written;
		snprintf(word, sizeof(word), "%s", written);
		promotion_letters(word, sizeof(word));
		if (chess_move_parse_lang(&pos, word, lang, &m, &cerr)) {
			out->unreadable = true;
			snprintf(out->unreadable_word, sizeof(out->unreadable_word), "%s", w);
			break;
		}
		if (out->their_plies == out->agree && out->agree < out->device_plies &&
		    g->plies[out->agree].move == m)
			out->agree++;
		else if (out->their_plies == out->agree && !out->differ) {
			out->differ = true;
			chess_move_to_san(&pos, m, out->theirs, sizeof(out->theirs));
			snprintf(out->their_word, sizeof(out->their_word), "%s", w);
		}
		chess_pos_make(&pos, m, &undo);
		out->their_plies++;
	}
	if (!out->differ && out->agree < out->device_plies && out->their_plies == out->agree)
		out->differ = true; /* theirs ends before the device's */
	if (out->differ) {
		if (out->agree < out->device_plies)
			snprintf(out->device, sizeof(out->device), "%s", g->plies[out->agree].san);
		out->move_number = g->start.fullmove_number + (out->agree + g->start.side) / 2;
	}
	return 0;
}

/* One more argument of a reply being built. */
static void add(struct reply_value *v, int *n, struct reply_value arg)
{
	v[*n] = arg;
	*n += 1;
	v[*n] = (struct reply_value){0};
}

void game_compare_reply(const struct game_comparison *c, struct game_reply *reply)
{
	struct reply_value v[REPLY_ARGS_MAX + 1];
	enum reply_code code = REPLY_COMPARE_AGREE;
	int n = 0;

	add(v, &n, REPLY_N("agree", c->agree));
	add(v, &n, REPLY_N("device_plies", c->device_plies));
	add(v, &n, REPLY_N("their_plies", c->their_plies));
	if (c->differ && c->device[0]) {
		code = c->theirs[0] ? REPLY_COMPARE_DIFFER : REPLY_COMPARE_THEIRS_SHORT;
		add(v, &n, REPLY_N("ply", c->agree + 1));
		add(v, &n, REPLY_N("move_number", c->move_number));
		add(v, &n, REPLY_S("device", c->device));
		if (c->theirs[0])
			add(v, &n, REPLY_S("theirs", c->theirs));
	} else if (c->differ) {
		code = REPLY_COMPARE_THEIRS_LONG;
		add(v, &n, REPLY_S("theirs", c->theirs));
	}
	if (c->unreadable)
		add(v, &n, REPLY_S("unreadable", c->unreadable_word));
	game_reply_set(reply, code, v);
}

void game_compare_describe(const struct game_comparison *c, char *out, size_t size)
{
	struct game_reply reply;

	game_compare_reply(c, &reply);
	snprintf(out, size, "%s", reply.text);
}
