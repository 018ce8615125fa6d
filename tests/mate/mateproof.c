/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The proof that chess_pos_mate() (chess/mate.c) is exact for every position of at most five
 * men without pawns: for each material, the independent retrograde analysis of retro.c gives
 * the set of positions from which White can checkmate; the function is asked about every one
 * of the material's legal positions (both sides to move) and must say "possible" exactly for
 * those, "never" for the rest, and never "unknown".  Black's answers are checked on the
 * mirrored positions (colours swapped, ranks reversed).
 *
 * --sample-only asks only about the random positions (a quick look at large materials).
 * --lines N asks the first N random positions the oracle says can mate again, this time with
 * the helpmate line, for both colours, and replays each line to the mate.
 * --white-only asks White's questions alone in the triangle (the sample asks both): with
 * every material in both colours listed, they are all the questions there are, Black's
 * being White's of the mirrored material.
 *
 * Which positions: --all asks about every legal position; otherwise those with the white
 * king in the triangle a1-d1-d4 (every position is one of those under the board's eight
 * symmetries, which leave the rules of pawnless chess without castling unchanged), plus
 * --sample random positions anywhere, which also shows the function keeps the symmetry.
 *
 * The oracle checks itself: on the three-man materials against a plain forward fixed point;
 * on every material, on sampled positions, that a position reaches a mate exactly when it
 * is one or has a legal successor that does (successors from its own move generator); and
 * its checkmates against chess/.  --stockfish FILE writes sampled checkmates and
 * stalemates as FENs for tests/check-mate.sh to put to Stockfish.
 *
 * Usage: mateproof [--men N] [--min-men N] [--material NAME]... [--all] [--white-only]
 *                  [--sample-only] [--sample N] [--lines N] [--seed N] [--stockfish FILE]
 *                  [--quiet]
 * Exit 0 when every answer agrees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chess/chess.h"
#include "tests/mate/retro.h"

#define TRIANGLE                                                                                   \
	((1ull << 0) | (1ull << 1) | (1ull << 2) | (1ull << 3) | (1ull << 9) | (1ull << 10) |      \
	 (1ull << 11) | (1ull << 18) | (1ull << 19) | (1ull << 27))

struct options {
	int men, min_men;
	const char *only[64];
	int n_only;
	bool all, quiet, white_only, sample_only;
	long sample, lines;
	uint64_t seed;
	FILE *stockfish;
};

struct totals {
	long asked, mismatches, unknown, possible;
	long max_nodes;
	int max_depth;
	long oracle_checked, oracle_bad, mates_checked, terminal_dumped;
	long lines_checked, lines_bad;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The position of the material's men on sq, `side` to move; mirrored: colours swapped and
 * ranks reversed. */
static void make_pos(const struct retro_material *m, const int *sq, int side, bool mirrored,
		     struct chess_pos *pos)
{
	chess_pos_clear(pos);
	for (int i = 0; i < m->n; i++) {
		int color = mirrored ? !m->color[i] : m->color[i];

		if (sq[i] < 0)
			continue;
		chess_pos_put(
		    pos, mirrored ? sq[i] ^ 56 : sq[i],
		    CHESS_PIECE((enum chess_color)color, (enum chess_piece_type)m->type[i]));
	}
	pos->side = (uint8_t)(mirrored ? !side : side);
	pos->castling = 0;
	pos->ep_square = CHESS_NO_SQUARE;
	chess_pos_refresh(pos);
}

static void report(const struct retro_material *m, const int *sq, int side, bool mirrored,
		   const char *what)
{
	struct chess_pos pos;
	char fen[CHESS_FEN_MAX], name[32];

	make_pos(m, sq, side, mirrored, &pos);
	chess_fen_format(&pos, fen, sizeof(fen));
	retro_material_name(m, name, sizeof(name));
	fprintf(stderr, "mateproof: %s: %s: %s\n", name, fen, what);
}

/* Ask the function about one position and its mirror image.  base[mirrored], when given, is
 * the position without the white king (it is put in here, the key left as it was: the
 * function compares only keys of positions it reached from the one asked about, which all
 * differ from their true keys by the same amount). */
static void ask(const struct retro_material *m, const int *sq, int side, bool expect,
		bool white_only, const struct chess_pos *base, struct totals *t)
{
	for (int mirrored = 0; mirrored < (white_only ? 1 : 2); mirrored++) {
		struct chess_pos pos;
		struct chess_mate_info info = {.answer_only = true};
		enum chess_mate got;

		if (base) {
			pos = base[mirrored];
			chess_pos_put(
			    &pos, mirrored ? sq[0] ^ 56 : sq[0],
			    CHESS_PIECE(mirrored ? CHESS_BLACK : CHESS_WHITE, CHESS_KING));
		} else {
			make_pos(m, sq, side, mirrored, &pos);
		}
		got = chess_pos_mate(&pos, mirrored ? CHESS_BLACK : CHESS_WHITE, &info);
		t->asked++;
		if (info.nodes > t->max_nodes)
			t->max_nodes = info.nodes;
		if (info.depth > t->max_depth)
			t->max_depth = info.depth;
		if (got == CHESS_MATE_UNKNOWN)
			t->unknown++;
		if (got == CHESS_MATE_POSSIBLE)
			t->possible++;
		if ((got == CHESS_MATE_POSSIBLE) != expect || got == CHESS_MATE_UNKNOWN) {
			char what[120];

			snprintf(what, sizeof(what), "%s can %s; the function says %s",
				 mirrored ? "black" : "white", expect ? "mate" : "never mate",
				 chess_mate_name(got));
			if (t->mismatches++ < 20)
				report(m, sq, side, mirrored != 0, what);
		}
	}
}

/* A position the oracle says the colour can mate from, asked with the line: the line must
 * replay, move by move legal, to that colour's mate. */
static void check_line(const struct retro_material *m, const int *sq, int side, bool mirrored,
		       struct totals *t)
{
	struct chess_pos pos;
	struct chess_mate_info info = {0};
	struct chess_move_list list;
	enum chess_color color = mirrored ? CHESS_BLACK : CHESS_WHITE;
	bool ok;

	make_pos(m, sq, side, mirrored, &pos);
	ok = chess_pos_mate(&pos, color, &info) == CHESS_MATE_POSSIBLE;
	for (int i = 0; ok && i < info.line_len; i++) {
		struct chess_undo undo;

		ok = chess_pos_is_legal(&pos, info.line[i]);
		if (ok)
			chess_pos_make(&pos, info.line[i], &undo);
	}
	ok = ok && pos.side != color && chess_pos_in_check(&pos) &&
	     chess_pos_legal_moves(&pos, &list) == 0;
	t->lines_checked++;
	if (!ok && t->lines_bad++ < 10)
		report(m, sq, side, mirrored, "the helpmate line does not replay to mate");
}

static bool table_get(const struct retro_table *t, const int *sq, int side)
{
	size_t cfg = retro_config(&t->m, sq);

	return t->cell[side][cfg].can >> sq[0] & 1;
}

/* The table of the material left after man j's capture, and the squares in it. */
static bool after_capture(struct retro_cache *c, const struct retro_material *m, const int *sq,
			  int side)
{
	struct retro_material sub = *m;
	int ssq[RETRO_MAX_MEN], n = 0;
	struct retro_table *st;

	sub.n = 0;
	for (int i = 0; i < m->n; i++) {
		if (sq[i] < 0)
			continue;
		sub.type[n] = m->type[i];
		sub.color[n] = m->color[i];
		ssq[n++] = sq[i];
	}
	sub.n = n;
	st = retro_solve(c, &sub, RETRO_MAX_MEN - 1);
	return st && table_get(st, ssq, side);
}

/* The oracle's own check on one position: in the set exactly when a checkmate of Black or
 * with a successor in it (successors from retro_successors(), not from the retraction). */
static void check_oracle_at(struct retro_cache *c, const struct retro_table *t, const int *sq,
			    int side, struct totals *tot)
{
	int succ[400][RETRO_MAX_MEN];
	int n = retro_successors(&t->m, sq, side, succ, 400);
	bool expect = side == RETRO_BLACK && retro_is_white_mate(&t->m, sq);

	for (int i = 0; i < n && !expect; i++) {
		bool captured = false;

		for (int j = 0; j < t->m.n; j++)
			captured |= succ[i][j] < 0;
		expect = captured ? after_capture(c, &t->m, succ[i], !side)
				  : table_get(t, succ[i], !side);
	}
	tot->oracle_checked++;
	if (expect != table_get(t, sq, side)) {
		if (tot->oracle_bad++ < 10)
			report(&t->m, sq, side, false, "the oracle disagrees with its successors");
	}
	/* Its checkmates and stalemates are chess/'s too (and Stockfish's, when asked). */
	if (n == 0) {
		struct chess_pos pos;
		struct chess_move_list list;
		bool mate = !retro_is_legal(&t->m, sq, !side);

		make_pos(&t->m, sq, side, false, &pos);
		tot->mates_checked++;
		if (chess_pos_legal_moves(&pos, &list) != 0 || chess_pos_in_check(&pos) != mate) {
			if (tot->oracle_bad++ < 10)
				report(&t->m, sq, side, false,
				       "chess/ does not see it as terminal");
		}
	}
}

/* The three-man materials again by a plain forward fixed point over every position. */
static long check_fixed_point(struct retro_cache *c, const struct retro_table *t)
{
	const struct retro_material *m = &t->m;
	size_t words = t->words;
	uint64_t *can[2];
	long bad = 0;
	bool changed = true;

	for (int s = 0; s < 2; s++)
		can[s] = calloc(words, sizeof(uint64_t));
	while (changed) {
		changed = false;
		for (int side = 0; side < 2; side++)
			for (size_t cfg = 0; cfg < words; cfg++) {
				int sq[RETRO_MAX_MEN];

				retro_squares(m, cfg, sq);
				for (uint64_t w = t->cell[side][cfg].legal & ~can[side][cfg]; w;
				     w &= w - 1) {
					int succ[400][RETRO_MAX_MEN];
					int n;
					bool yes;

					sq[0] = __builtin_ctzll(w);
					yes = side == RETRO_BLACK && retro_is_white_mate(m, sq);
					n = retro_successors(m, sq, side, succ, 400);
					for (int i = 0; i < n && !yes; i++) {
						bool captured = false;

						for (int j = 0; j < m->n; j++)
							captured |= succ[i][j] < 0;
						if (captured) {
							yes = after_capture(c, m, succ[i], !side);
						} else {
							size_t c2 = retro_config(m, succ[i]);

							yes = can[!side][c2] >> succ[i][0] & 1;
						}
					}
					if (yes) {
						can[side][cfg] |= 1ull << sq[0];
						changed = true;
					}
				}
			}
	}
	for (int side = 0; side < 2; side++)
		for (size_t cfg = 0; cfg < words; cfg++)
			if (can[side][cfg] != t->cell[side][cfg].can)
				bad++;
	free(can[0]);
	free(can[1]);
	return bad;
}

static void dump_terminal(const struct retro_table *t, const int *sq, int side, struct totals *tot,
			  FILE *f)
{
	struct chess_pos pos;
	char fen[CHESS_FEN_MAX];
	int succ[1][RETRO_MAX_MEN];

	if (retro_successors(&t->m, sq, side, succ, 0) != 0)
		return;
	make_pos(&t->m, sq, side, false, &pos);
	chess_fen_format(&pos, fen, sizeof(fen));
	fprintf(f, "%s %s\n", retro_is_legal(&t->m, sq, !side) ? "stalemate" : "mate", fen);
	tot->terminal_dumped++;
}

static bool wanted(const struct options *o, const struct retro_material *m)
{
	char name[32];

	if (m->n < o->min_men || m->n > o->men)
		return false;
	if (!o->n_only)
		return true;
	retro_material_name(m, name, sizeof(name));
	for (int i = 0; i < o->n_only; i++)
		if (!strcmp(o->only[i], name))
			return true;
	return false;
}

static int prove(const struct options *o, struct retro_cache *c, const struct retro_material *m,
		 struct totals *all)
{
	struct totals t = {0};
	double t0 = now_s(), t1, t2;
	struct retro_table *tab = retro_solve(c, m, RETRO_MAX_MEN - 1);
	char name[32];
	int sq[RETRO_MAX_MEN];

	retro_material_name(m, name, sizeof(name));
	if (!tab) {
		fprintf(stderr, "mateproof: %s: out of memory\n", name);
		return -1;
	}
	t1 = now_s();
	for (int side = 0; side < 2 && !o->sample_only; side++)
		for (size_t cfg = 0; cfg < tab->words; cfg++) {
			uint64_t w = tab->cell[side][cfg].legal & (o->all ? ~0ull : TRIANGLE);

			struct chess_pos base[2];

			if (!w)
				continue;
			retro_squares(m, cfg, sq);
			sq[0] = -1;
			make_pos(m, sq, side, false, &base[0]);
			make_pos(m, sq, side, true, &base[1]);
			for (; w; w &= w - 1) {
				sq[0] = __builtin_ctzll(w);
				ask(m, sq, side, tab->cell[side][cfg].can >> sq[0] & 1,
				    o->white_only, base, &t);
			}
		}
	/* Random positions anywhere: the function, and the oracle against itself. */
	for (long k = 0; k < o->sample; k++) {
		int side = (int)(rng() & 1);

		for (int i = 0; i < m->n; i++)
			sq[i] = (int)(rng() & 63);
		if (!retro_is_legal(m, sq, side)) {
			k--;
			continue;
		}
		ask(m, sq, side, table_get(tab, sq, side), false, NULL, &t);
		check_oracle_at(c, tab, sq, side, &t);
		if (k < o->lines && table_get(tab, sq, side)) {
			check_line(m, sq, side, false, &t);
			check_line(m, sq, side, true, &t);
		}
		if (o->stockfish && k < 200)
			dump_terminal(tab, sq, side, &t, o->stockfish);
	}
	if (o->stockfish) {
		/* A few terminal positions of each kind, found by walking the table. */
		int found = 0;

		for (size_t cfg = rng() % tab->words, n = 0; n < tab->words && found < 20;
		     n++, cfg = (cfg + 7919) % tab->words)
			for (int side = 0; side < 2; side++) {
				uint64_t w = tab->cell[side][cfg].legal;

				retro_squares(m, cfg, sq);
				for (; w && found < 20; w &= w - 1) {
					long before = t.terminal_dumped;

					sq[0] = __builtin_ctzll(w);
					dump_terminal(tab, sq, side, &t, o->stockfish);
					found += t.terminal_dumped > before;
				}
			}
	}
	if (m->n == 3) {
		long bad = check_fixed_point(c, tab);

		t.oracle_checked += (long)tab->words * 2;
		if (bad) {
			fprintf(stderr, "mateproof: %s: the fixed point differs in %ld words\n",
				name, bad);
			t.oracle_bad += bad;
		}
	}
	t2 = now_s();
	if (!o->quiet || t.mismatches || t.oracle_bad || t.lines_bad)
		printf(
		    "%-8s positions %11llu white-can %11llu mates %9llu rounds %2d | asked %10ld "
		    "possible %10ld mismatches %ld unknown %ld depth %d nodes %ld | oracle "
		    "%ld bad %ld | %.1fs + %.1fs\n",
		    name, (unsigned long long)tab->positions, (unsigned long long)tab->reachable,
		    (unsigned long long)tab->mates, tab->rounds, t.asked, t.possible, t.mismatches,
		    t.unknown, t.max_depth, t.max_nodes, t.oracle_checked, t.oracle_bad, t1 - t0,
		    t2 - t1);
	fflush(stdout);
	if (m->n > RETRO_MAX_MEN - 1)
		retro_table_free(tab);
	all->asked += t.asked;
	all->possible += t.possible;
	all->mismatches += t.mismatches;
	all->unknown += t.unknown;
	all->oracle_checked += t.oracle_checked;
	all->oracle_bad += t.oracle_bad;
	all->mates_checked += t.mates_checked;
	all->terminal_dumped += t.terminal_dumped;
	all->lines_checked += t.lines_checked;
	all->lines_bad += t.lines_bad;
	if (t.max_depth > all->max_depth)
		all->max_depth = t.max_depth;
	if (t.max_nodes > all->max_nodes)
		all->max_nodes = t.max_nodes;
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = {.men = 4, .min_men = 2, .sample = 20000};
	static struct retro_material mats[512];
	struct totals all = {0};
	struct retro_cache *c;
	int count, done = 0;
	double t0 = now_s();

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--men") && v) {
			o.men = atoi(v);
			i++;
		} else if (!strcmp(a, "--min-men") && v) {
			o.min_men = atoi(v);
			i++;
		} else if (!strcmp(a, "--material") && v && o.n_only < 64) {
			o.only[o.n_only++] = v;
			i++;
		} else if (!strcmp(a, "--sample") && v) {
			o.sample = atol(v);
			i++;
		} else if (!strcmp(a, "--lines") && v) {
			o.lines = atol(v);
			i++;
		} else if (!strcmp(a, "--seed") && v) {
			o.seed = strtoull(v, NULL, 10);
			i++;
		} else if (!strcmp(a, "--stockfish") && v) {
			o.stockfish = fopen(v, "w");
			if (!o.stockfish) {
				perror(v);
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--all")) {
			o.all = true;
		} else if (!strcmp(a, "--sample-only")) {
			o.sample_only = true;
		} else if (!strcmp(a, "--white-only")) {
			o.white_only = true;
		} else if (!strcmp(a, "--quiet")) {
			o.quiet = true;
		} else {
			fprintf(
			    stderr,
			    "usage: mateproof [--men N] [--min-men N] [--material NAME]... [--all] "
			    "[--white-only] [--sample-only] [--sample N] [--lines N] [--seed N] "
			    "[--stockfish "
			    "FILE] "
			    "[--quiet]\n");
			return 2;
		}
	}
	if (o.men > RETRO_MAX_MEN)
		o.men = RETRO_MAX_MEN;
	for (int i = 0; i < o.n_only; i++) {
		struct retro_material m;

		if (retro_material_parse(o.only[i], &m)) {
			fprintf(stderr, "mateproof: %s: not a material like KQvKN\n", o.only[i]);
			return 2;
		}
		if (m.n > o.men)
			o.men = m.n;
	}
	rng_state ^= o.seed * 0x9e3779b97f4a7c15ull;
	c = retro_cache_new();
	count = retro_materials(o.men, mats, 512);
	for (int k = 0; k < count; k++) {
		if (!wanted(&o, &mats[k]))
			continue;
		if (prove(&o, c, &mats[k], &all))
			return 2;
		done++;
	}
	retro_cache_free(c);
	if (o.stockfish)
		fclose(o.stockfish);
	printf("mateproof: %d materials, %ld answers (%ld possible), %ld wrong, %ld unknown; "
	       "deepest forced line %d plies, at most %ld positions a question; %ld helpmate "
	       "lines replayed, %ld bad; oracle: %ld checks, %ld bad, %ld terminal positions "
	       "against chess/; %.0f s\n",
	       done, all.asked, all.possible, all.mismatches, all.unknown, all.max_depth,
	       all.max_nodes, all.lines_checked, all.lines_bad, all.oracle_checked, all.oracle_bad,
	       all.mates_checked, now_s() - t0);
	return all.mismatches || all.unknown || all.oracle_bad || all.lines_bad ? 1 : 0;
}
