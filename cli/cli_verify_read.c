/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella verify`: the journal and the scoresheet read (README "Security model").  Each line of
 * the journal taken: its chain's value kept for the anchors, the device's, audit and recovery
 * notes, each record applied to the game; the scoresheet read with the product's own reader and
 * compared with the game at the line its anchor names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "chess/pgn.h"
#include "cli/cli_verify_int.h"
#include "game/clock.h"
#include "game/game.h"
#include "store/journal.h"
#include "store/state.h"

/* The value of KEY=VALUE in a note's words, into out; false if absent. */
static bool note_value(const char *args, const char *key, char *out, size_t size)
{
	size_t kl = strlen(key);

	for (const char *p = args; p && *p;) {
		const char *end = strchr(p, ' ');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(out, size, "%.*s", (int)(len - kl - 1), p + kl + 1);
			return true;
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

static void take_note(struct verify *v, const struct journal_record *rec)
{
	char value[256];

	if (!strncmp(rec->args, "device ", 7)) {
		if (!note_value(rec->args, "serial", value, sizeof(value)))
			return;
		if (v->devices && strcmp(value, v->device))
			v->other_device = true;
		if (!v->devices)
			snprintf(v->device, sizeof(v->device), "%.63s", value);
		v->devices++;
		if (note_value(rec->args, "version", value, sizeof(value)))
			snprintf(v->version, sizeof(v->version), "%.31s", value);
	} else if (!strncmp(rec->args, "audit ", 6)) {
		for (int i = 0; i < 2; i++) {
			struct anchor *a;

			if (!note_value(rec->args, vf_log_names[i], value, sizeof(value)) ||
			    v->anchor_count[i] == MAX_ANCHORS)
				continue;
			a = &v->anchors[i][v->anchor_count[i]];
			if (sscanf(value, "%lld:%64[0-9a-f]", &a->bytes, a->hex) != 2 ||
			    strlen(a->hex) != 2 * SHA256_SIZE)
				continue;
			a->line = rec->line;
			v->anchor_count[i]++;
		}
	} else if (!strncmp(rec->args, "recovered ", 10)) {
		static const char *const lost[] = {"bad", "duplicates", "refused", "filled"};

		if (v->recoveries < MAX_NOTES)
			snprintf(v->recovered[v->recoveries++], sizeof(v->recovered[0]),
				 "line %d (%llu ms): %s", rec->line, (unsigned long long)rec->ms,
				 rec->args + 10);
		for (size_t i = 0; i < sizeof(lost) / sizeof(lost[0]); i++)
			if (note_value(rec->args, lost[i], value, sizeof(value)) &&
			    strcmp(value, "0"))
				v->mended = true;
		if (note_value(rec->args, "copy", value, sizeof(value)) && !strcmp(value, "yes"))
			v->mended = true;
	}
}

/* The [%clk] reading in a comment, or "" (into out). */
static void comment_clock(const char *comment, char *out, size_t size)
{
	const char *p = comment ? strstr(comment, "[%clk ") : NULL;
	const char *end = p ? strchr(p, ']') : NULL;

	out[0] = '\0';
	if (p && end)
		snprintf(out, size, "%.*s", (int)(end - p - 6), p + 6);
}

/* The scoresheet against the game as the journal gives it up to here: the first
 * difference into v->differs. */
void vf_compare(struct verify *v)
{
	const struct game *g = &v->g;
	const struct pgn_game *pgn = &v->pgn;
	int plies = game_plies(g);
	const char *result = game_over(g) ? g->result.result : "*";

	v->differs[0] = '\0';
	for (int i = 0; i < plies && i < pgn->game.count; i++) {
		char a[8], b[8], want[32] = "", have[32];

		if (pgn->game.moves[i] != g->plies[i].move) {
			chess_move_to_uci(g->plies[i].move, a, sizeof(a));
			chess_move_to_uci(pgn->game.moves[i], b, sizeof(b));
			snprintf(v->differs, sizeof(v->differs),
				 "ply %d: %s in the scoresheet, %s in the journal", i + 1, b, a);
			return;
		}
		if (g->plies[i].clk_ms >= 0)
			clock_format_hms(g->plies[i].clk_ms, want, sizeof(want));
		comment_clock(pgn->comments ? pgn->comments[i] : NULL, have, sizeof(have));
		if (strcmp(want, have)) {
			snprintf(
			    v->differs, sizeof(v->differs),
			    "ply %d: clock reading '%s' in the scoresheet, '%s' in the journal",
			    i + 1, have, want);
			return;
		}
	}
	if (plies != pgn->game.count) {
		snprintf(v->differs, sizeof(v->differs),
			 "%d plies in the scoresheet, %d in the journal", pgn->game.count, plies);
		return;
	}
	if (strcmp(result, pgn->result)) {
		snprintf(v->differs, sizeof(v->differs),
			 "result %s in the scoresheet, %s in the journal", pgn->result, result);
		return;
	}
	if (g->fairplay.measured) {
		char want[FAIRPLAY_SUMMARY_MAX];
		const char *have = pgn_game_tag(pgn, "FairPlay");

		fairplay_summary(&g->fairplay.first, g->fairplay.breach, g->fairplay.breach_move,
				 g->fairplay.breach_what, &g->fairplay.policy, want, sizeof(want));
		if (!have || strcmp(have, want)) {
			snprintf(v->differs, sizeof(v->differs),
				 "tag FairPlay: '%s' in the scoresheet, '%s' from the journal",
				 have ? have : "(none)", want);
			return;
		}
	}
	for (int i = 0; i < g->params.tag_count; i++) {
		const struct game_tag *t = &g->params.tags[i];
		const char *have = pgn_game_tag(pgn, t->name);
		char want[3 * sizeof(t->value)];

		/* As the scoresheet writes it (base/utf8.h): a journal of an earlier version
		 * may hold what turns the text. */
		utf8_copy_safe(want, sizeof(want), t->value, strlen(t->value));
		if (t->value[0] && (!have || strcmp(have, want))) {
			snprintf(v->differs, sizeof(v->differs),
				 "tag %s: '%s' in the scoresheet, '%s' in the journal", t->name,
				 have ? have : "(none)", want);
			return;
		}
	}
}

/* The chain's value after line `line`, kept for the anchors. */
static void keep_chain(struct verify *v, int line, const char *chain)
{
	if (line > v->chains_cap) {
		int cap = v->chains_cap ? v->chains_cap : 1024;
		char(*more)[JOURNAL_CHAIN_HEX];

		while (cap < line)
			cap *= 2;
		more = realloc(v->chains, (size_t)cap * sizeof(*more));
		if (!more)
			return;
		memset(more + v->chains_cap, 0, (size_t)(cap - v->chains_cap) * sizeof(*more));
		v->chains = more;
		v->chains_cap = cap;
	}
	snprintf(v->chains[line - 1], sizeof(v->chains[0]), "%s", chain);
}

int vf_take(void *user, const struct journal_record *rec, char *why, size_t why_size)
{
	struct verify *v = user;
	struct game_record gr;

	v->last_line = rec->line;
	keep_chain(v, rec->line, rec->chain);
	if (!strcmp(rec->type, "restart") && v->nrestarts < MAX_RESTARTS)
		v->restarts[v->nrestarts++] = rec->line;
	if (!strcmp(rec->type, JOURNAL_NOTE_TYPE)) {
		take_note(v, rec);
	} else if (game_record_decode(&gr, rec->type, rec->args, rec->ms, why, why_size) ||
		   game_apply(&v->g, &gr)) {
		v->not_fitting++;
		if (!v->first_not_fitting)
			v->first_not_fitting = rec->line;
	} else {
		v->records++;
	}
	if (v->have_pgn && v->pgn_chain && !v->compared && !strcmp(rec->chain, v->pgn_chain) &&
	    (!v->pgn_line || v->pgn_line == rec->line)) {
		v->compared = true;
		v->compared_line = rec->line;
		vf_compare(v);
	}
	return 0;
}

/* A line number as a tag or JSON gives it; 0 if it is none. */
long vf_line_number(const char *text)
{
	char *end;
	long n = text ? strtol(text, &end, 10) : 0;

	return text && end != text && n > 0 ? n : 0;
}

void vf_read_scoresheet(struct verify *v, const char *path)
{
	struct chess_error cerr;
	struct pgn_reader *rd;
	size_t len;
	char *text = state_read_file(path, &len);

	if (!text)
		return;
	rd = pgn_reader_new(text, len);
	if (rd && pgn_reader_next(rd, &v->pgn, &cerr) == 1) {
		v->have_pgn = true;
		v->pgn_chain = pgn_game_tag(&v->pgn, "JournalChain");
		v->pgn_line = vf_line_number(pgn_game_tag(&v->pgn, "JournalLine"));
	}
	pgn_reader_free(rd);
	free(text);
}
