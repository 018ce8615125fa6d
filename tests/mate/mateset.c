/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Who can still checkmate (chess_pos_mate(), chess/mate.c) on sets of positions: the public
 * classified sets (../shared/data: each line two characters and a FEN, "WB", "W-", "-B" or
 * "--" for who can mate), final positions of games lost on time (one FEN a line: the side
 * with time left, the side not to move, is asked), and the positions of PGN games from a
 * ply on (both sides asked).
 *
 * Every answer is checked:
 *  - "possible": its helpmate line is replayed with the move generator and must end in the
 *    mate of the other side, move by move legal;
 *  - a class given in the set must be the answer (possible or never);
 *  - "never" (with --verify N) is put to an independent proof written here: every position
 *    reachable from it by legal moves is generated (up to N of them), and none may be the
 *    colour's mate; a position where the colour has its king alone is not followed (a lone
 *    king gives no check), and one of at most four men without pawns or castling rights is
 *    answered by the retrograde analysis of tests/mate/retro.c.  It shares nothing with
 *    chess/mate*.c.  A proof that does not close within N positions is counted as unsettled
 *    (and named); one that reaches a mate makes the answer wrong.
 *  - "unknown" is listed by name; in a set given with --real it counts against the goal.
 *
 * Prints a summary per set and, with --bench, "bench NAME VALUE UNIT" lines: the answers,
 * the undecided and wrong ones, and the time a question takes (p50, p99, max).
 *
 * Usage: mateset [--verify N] [--bench] [--from-ply N] [--slow MS] [--list FILE]
 *                [--allow FILE] [--real] FILE [[--real] FILE]...
 * FILE: *.txt a classified set, *.fen final positions of timeouts, *.pgn games.
 * Exit 0 when no answer is wrong (and, for --real sets and the games, none is undecided but
 * the cases named with --allow).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chess/chess.h"
#include "chess/pgn.h"
#include "tests/mate/retro.h"

/* The real-game questions known to stay undecided, each by name (--allow FILE: "SIDE FEN"
 * lines, # comments): the goal is none, and each is a case to study. */
#define MAX_NAMED 64

struct options {
	char named[MAX_NAMED][CHESS_FEN_MAX + 8];
	int n_named;
	long verify;
	double slow; /* name the questions that took longer (ms) */
	bool bench;
	int from_ply;
	FILE *list;
};

struct set {
	char name[64];
	bool real;
	long asked, possible, never, unknown, wrong;
	long verified, unsettled, agreed, refused, named;
	double *ms;
	long n_ms, cap_ms;
};

/* The time the question takes the thread: on a machine others share too, the wall clock
 * would count their work. */
static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void fen_of(const struct chess_pos *pos, char *buf)
{
	chess_fen_format(pos, buf, CHESS_FEN_MAX);
}

static const char *side_name(enum chess_color c)
{
	return c == CHESS_WHITE ? "white" : "black";
}

/* ------------------------------------------------------------------ the line's replay */

static bool replay(const struct chess_pos *start, enum chess_color color,
		   const struct chess_mate_info *info, char *why, size_t size)
{
	struct chess_pos pos = *start;
	struct chess_move_list list;

	/* An empty line only where the colour has mated already. */
	for (int i = 0; i < info->line_len; i++) {
		struct chess_undo undo;

		if (!chess_pos_is_legal(&pos, info->line[i])) {
			snprintf(why, size, "move %d of the line is illegal", i + 1);
			return false;
		}
		chess_pos_make(&pos, info->line[i], &undo);
	}
	if (pos.side == color || !chess_pos_in_check(&pos) ||
	    chess_pos_legal_moves(&pos, &list) != 0) {
		snprintf(why, size,
			 info->line_len ? "the line does not end in %s's mate" : "no line",
			 side_name(color));
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ the independent proof */

/* A position packed: the occupied squares, a nibble per man in square order, the side, the
 * castling rights and the e.p. square. */
struct packed {
	uint64_t occ;
	uint64_t men[2];
	uint16_t extra;
};

static void pack(const struct chess_pos *pos, struct packed *p)
{
	uint64_t b = chess_pos_occupancy(pos);
	int k = 0;

	memset(p, 0, sizeof(*p));
	p->occ = b;
	while (b) {
		int sq = __builtin_ctzll(b);

		b &= b - 1;
		p->men[k / 16] |= (uint64_t)pos->board[sq] << (4 * (k % 16));
		k++;
	}
	p->extra = (uint16_t)(pos->side | pos->castling << 1 | pos->ep_square << 5);
}

static void unpack(const struct packed *p, struct chess_pos *pos)
{
	uint64_t b = p->occ;
	int k = 0;

	chess_pos_clear(pos);
	while (b) {
		int sq = __builtin_ctzll(b);

		b &= b - 1;
		chess_pos_put(pos, sq, (chess_piece)(p->men[k / 16] >> (4 * (k % 16)) & 15));
		k++;
	}
	pos->side = p->extra & 1;
	pos->castling = p->extra >> 1 & 15;
	pos->ep_square = (uint8_t)(p->extra >> 5);
	chess_pos_refresh(pos);
}

static uint64_t hash_packed(const struct packed *p)
{
	uint64_t h = p->occ * 0x9E3779B97F4A7C15ull;

	h ^= (p->men[0] + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull;
	h ^= (p->men[1] + p->extra) * 0x94D049BB133111EBull;
	return h ^ (h >> 31);
}

struct closure {
	struct packed *table; /* open addressing; occ 0 is empty (a position has kings) */
	size_t mask;
	struct packed *queue;
	long head, tail, cap;
	struct retro_cache *retro;
};

static bool insert(struct closure *c, const struct packed *p)
{
	size_t i = hash_packed(p) & c->mask;

	while (c->table[i].occ) {
		if (!memcmp(&c->table[i], p, sizeof(*p)))
			return false;
		i = (i + 1) & c->mask;
	}
	c->table[i] = *p;
	c->queue[c->tail++] = *p;
	return true;
}

/* The retrograde oracle's answer for a position of at most four men without pawns:
 * whether `color` can mate. */
static bool retro_can(struct closure *c, const struct chess_pos *pos, enum chess_color color)
{
	static const char letters[] = "..NBRQK";
	char name[16];
	int n = 0, sq[RETRO_MAX_MEN], side;
	struct retro_material m;
	struct retro_table *t;
	uint64_t taken = 0;

	/* As White's question: for Black's, colours swapped and ranks reversed. */
	for (int white = 1; white >= 0; white--) {
		int real = color == CHESS_WHITE ? !white : white;

		name[n++] = 'K';
		for (int type = CHESS_QUEEN; type >= CHESS_KNIGHT; type--) {
			uint64_t b = pos->by_color[real] & pos->by_type[type];

			while (b) {
				b &= b - 1;
				name[n++] = letters[type];
			}
		}
		if (white)
			name[n++] = 'v';
	}
	name[n] = '\0';
	if (retro_material_parse(name, &m) < 0)
		abort();
	/* Each man a square of its type and colour, men of one kind different ones. */
	for (int i = 0; i < m.n; i++) {
		int real = color == CHESS_WHITE ? m.color[i] : !m.color[i];
		uint64_t b = pos->by_color[real] & pos->by_type[m.type[i]] & ~taken;
		int at = __builtin_ctzll(b);

		taken |= 1ull << at;
		sq[i] = color == CHESS_WHITE ? at : at ^ 56;
	}
	t = retro_solve(c->retro, &m, RETRO_MAX_MEN - 1);
	if (!t)
		abort();
	side = color == CHESS_WHITE ? pos->side : !pos->side;
	return t->cell[side][retro_config(&t->m, sq)].can >> sq[0] & 1;
}

/* 1: no position reachable from pos is the colour's mate (never proven); 0: one is (the
 * answer "never" was wrong); -1: more than the cap to look at. */
static int closure(struct closure *c, const struct chess_pos *start, enum chess_color color)
{
	struct packed p;
	int result = 1;

	memset(c->table, 0, (c->mask + 1) * sizeof(*c->table));
	c->head = c->tail = 0;
	pack(start, &p);
	insert(c, &p);
	while (c->head < c->tail) {
		struct chess_pos pos;
		struct chess_move_list list;
		int n;

		unpack(&c->queue[c->head++], &pos);
		n = chess_pos_legal_moves(&pos, &list);
		if (n == 0) {
			if (pos.side != color && chess_pos_in_check(&pos))
				return 0;
			continue;
		}
		if (!(pos.by_color[color] & ~pos.by_type[CHESS_KING]))
			continue; /* a lone king gives no check */
		if (!pos.by_type[CHESS_PAWN] && !pos.castling &&
		    __builtin_popcountll(chess_pos_occupancy(&pos)) <= 4) {
			if (retro_can(c, &pos, color))
				return 0;
			continue;
		}
		for (int i = 0; i < n; i++) {
			struct chess_pos next = pos;
			struct chess_undo undo;

			chess_pos_make(&next, list.moves[i], &undo);
			pack(&next, &p);
			if (c->tail >= c->cap) {
				result = -1;
				break;
			}
			insert(c, &p);
		}
		if (result < 0)
			return -1;
	}
	return 1;
}

/* ------------------------------------------------------------------ one question */

static struct closure the_closure;

static int closure_new(long cap)
{
	size_t size = 1;

	while (size < (size_t)cap * 2)
		size <<= 1;
	the_closure.table = calloc(size, sizeof(struct packed));
	the_closure.mask = size - 1;
	the_closure.cap = cap;
	the_closure.queue = malloc((size_t)cap * sizeof(struct packed));
	the_closure.retro = retro_cache_new();
	return the_closure.table && the_closure.queue && the_closure.retro ? 0 : -1;
}

static void note_ms(struct set *s, double ms)
{
	if (s->n_ms == s->cap_ms) {
		s->cap_ms = s->cap_ms ? 2 * s->cap_ms : 1024;
		s->ms = realloc(s->ms, (size_t)s->cap_ms * sizeof(double));
		if (!s->ms)
			abort();
	}
	s->ms[s->n_ms++] = ms;
}

static void say(const struct options *o, const struct set *s, const struct chess_pos *pos,
		enum chess_color color, const char *what)
{
	char fen[CHESS_FEN_MAX];

	fen_of(pos, fen);
	printf("mateset: %s: %s %s: %s\n", s->name, fen, side_name(color), what);
	if (o->list)
		fprintf(o->list, "%s %s %s %s\n", s->name, side_name(color), what, fen);
}

/* "SIDE FEN" without the move counters, as the allow list names a question. */
static void name_of(const struct chess_pos *pos, enum chess_color color, char *buf, size_t size)
{
	char fen[CHESS_FEN_MAX];
	int fields = 0;

	fen_of(pos, fen);
	for (char *c = fen; *c; c++)
		if (*c == ' ' && ++fields == 4)
			*c = '\0';
	snprintf(buf, size, "%s %s", side_name(color), fen);
}

static bool is_named(const struct options *o, const struct chess_pos *pos, enum chess_color color)
{
	char name[CHESS_FEN_MAX + 8];

	name_of(pos, color, name, sizeof(name));
	for (int i = 0; i < o->n_named; i++)
		if (!strcmp(o->named[i], name))
			return true;
	return false;
}

static int read_named(struct options *o, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct chess_pos pos;
		struct chess_error err;
		char *fen;

		line[strcspn(line, "#\r\n")] = '\0';
		fen = strchr(line, ' ');
		if (!fen || o->n_named == MAX_NAMED)
			continue;
		*fen++ = '\0';
		if (chess_fen_parse(&pos, fen, &err) < 0 ||
		    (strcmp(line, "white") && strcmp(line, "black"))) {
			fprintf(stderr, "%s: not SIDE FEN: %s %s\n", path, line, fen);
			fclose(f);
			return -1;
		}
		name_of(&pos, !strcmp(line, "white") ? CHESS_WHITE : CHESS_BLACK,
			o->named[o->n_named++], sizeof(o->named[0]));
	}
	fclose(f);
	return 0;
}

/* expect: -1 none, else CHESS_MATE_NEVER or CHESS_MATE_POSSIBLE. */
static void ask(const struct options *o, struct set *s, const struct chess_pos *pos,
		enum chess_color color, int expect)
{
	struct chess_mate_info info = {0};
	double t0 = now_ms();
	enum chess_mate m = chess_pos_mate(pos, color, &info);
	double ms = now_ms() - t0;
	char why[160];

	note_ms(s, ms);
	s->asked++;
	if (o->slow > 0 && ms > o->slow) {
		snprintf(why, sizeof(why), "slow: %.1f ms, %s, %ld positions", ms,
			 chess_mate_name(m), info.nodes);
		say(o, s, pos, color, why);
	}
	if (m == CHESS_MATE_POSSIBLE) {
		s->possible++;
		if (!replay(pos, color, &info, why, sizeof(why))) {
			s->wrong++;
			say(o, s, pos, color, why);
			return;
		}
	} else if (m == CHESS_MATE_NEVER) {
		s->never++;
	} else {
		s->unknown++;
		s->named += is_named(o, pos, color);
		say(o, s, pos, color, "undecided");
		return;
	}
	if (expect >= 0) {
		if ((int)m != expect) {
			s->wrong++;
			snprintf(why, sizeof(why), "answered %s, the set says %s",
				 chess_mate_name(m), chess_mate_name((enum chess_mate)expect));
			say(o, s, pos, color, why);
			return;
		}
		s->agreed++;
	}
	if (m == CHESS_MATE_NEVER && o->verify > 0 && pos->by_type[CHESS_PAWN]) {
		int r = closure(&the_closure, pos, color);

		if (r == 1) {
			s->verified++;
		} else if (r == 0) {
			s->wrong++;
			say(o, s, pos, color, "answered never, but a mate is reachable");
		} else {
			s->unsettled++;
			say(o, s, pos, color, "never not settled by the independent proof");
		}
	}
}

/* ------------------------------------------------------------------ the sets */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc((size_t)size + 1);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[size] = '\0';
	*len = (size_t)size;
	return buf;
}

static int run_lines(const struct options *o, struct set *s, const char *path, bool classified)
{
	FILE *f = fopen(path, "r");
	char line[512];
	long n = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct chess_pos pos;
		struct chess_error err;
		const char *fen = line;

		n++;
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (classified) {
			if (strlen(line) < 4 || line[2] != ' ') {
				fprintf(stderr, "%s:%ld: not a class and a FEN\n", path, n);
				fclose(f);
				return -1;
			}
			fen = line + 3;
		}
		if (chess_fen_parse(&pos, fen, &err) < 0) {
			/* Constructed positions no game can reach (too many promoted men): the
			 * Laws' question is not asked of them. */
			s->refused++;
			printf("mateset: %s: line %ld refused by the FEN reader, column %d: %s\n",
			       s->name, n, err.column, err.message);
			continue;
		}
		if (classified) {
			ask(o, s, &pos, CHESS_WHITE,
			    line[0] == 'W' ? CHESS_MATE_POSSIBLE : CHESS_MATE_NEVER);
			ask(o, s, &pos, CHESS_BLACK,
			    line[1] == 'B' ? CHESS_MATE_POSSIBLE : CHESS_MATE_NEVER);
		} else {
			ask(o, s, &pos, (enum chess_color) !pos.side, -1);
		}
	}
	fclose(f);
	return 0;
}

static int run_pgn(const struct options *o, struct set *s, const char *path)
{
	size_t len;
	char *text = read_all(path, &len);
	struct pgn_reader *r;
	struct pgn_game g;
	struct chess_error err;
	int got;

	if (!text) {
		perror(path);
		return -1;
	}
	r = pgn_reader_new(text, len);
	free(text);
	if (!r)
		return -1;
	while ((got = pgn_reader_next(r, &g, &err)) != 0) {
		if (got < 0) {
			fprintf(stderr, "%s:%d:%d: %s\n", path, err.line, err.column, err.message);
			pgn_reader_free(r);
			return -1;
		}
		for (int ply = o->from_ply; ply <= g.game.count; ply++) {
			struct chess_pos pos;

			chess_game_position_at(&g.game, ply, &pos);
			ask(o, s, &pos, CHESS_WHITE, -1);
			ask(o, s, &pos, CHESS_BLACK, -1);
		}
		pgn_game_free(&g);
	}
	pgn_reader_free(r);
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double percentile(const struct set *s, double p)
{
	long i = (long)(p * (double)(s->n_ms - 1) + 0.5);

	return s->n_ms ? s->ms[i] : 0;
}

static void report(const struct options *o, struct set *s)
{
	qsort(s->ms, (size_t)s->n_ms, sizeof(double), by_value);
	if (s->refused)
		printf("mateset: %s: %ld positions refused by the FEN reader\n", s->name,
		       s->refused);
	printf("mateset: %s: %ld questions: %ld possible (each line replayed to mate), %ld never "
	       "(%ld verified independently, %ld unsettled), %ld undecided (%ld of them named "
	       "cases), %ld wrong; %ld agree with the set's class\n",
	       s->name, s->asked, s->possible, s->never, s->verified, s->unsettled, s->unknown,
	       s->named, s->wrong, s->agreed);
	printf("mateset: %s: time a question: p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", s->name,
	       percentile(s, 0.5), percentile(s, 0.99), percentile(s, 1.0));
	if (!o->bench)
		return;
	printf("bench mate_%s_questions %ld answers\n", s->name, s->asked);
	printf("bench mate_%s_undecided %ld answers\n", s->name, s->unknown);
	printf("bench mate_%s_undecided_share %.4f %%\n", s->name,
	       s->asked ? 100.0 * (double)s->unknown / (double)s->asked : 0.0);
	printf("bench mate_%s_wrong %ld answers\n", s->name, s->wrong);
	printf("bench mate_%s_p50_ms %.3f ms\n", s->name, percentile(s, 0.5));
	printf("bench mate_%s_p99_ms %.3f ms\n", s->name, percentile(s, 0.99));
	printf("bench mate_%s_max_ms %.3f ms\n", s->name, percentile(s, 1.0));
}

static void set_name(struct set *s, const char *path)
{
	const char *base = strrchr(path, '/');
	char *dot;

	snprintf(s->name, sizeof(s->name), "%s", base ? base + 1 : path);
	dot = strrchr(s->name, '.');
	if (dot)
		*dot = '\0';
	for (char *c = s->name; *c; c++)
		if (*c == '-' || *c == '.')
			*c = '_';
}

int main(int argc, char **argv)
{
	struct options o = {.from_ply = 40};
	bool real = false, failed = false;
	struct set games = {.real = true};
	int n_games = 0;

	chess_init();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		size_t len = strlen(a);

		if (a[0] != '-' && o.verify > 0 && !the_closure.table && closure_new(o.verify) < 0)
			return 2;

		if (!strcmp(a, "--verify") && v) {
			o.verify = atol(v);
			i++;
		} else if (!strcmp(a, "--slow") && v) {
			o.slow = atof(v);
			i++;
		} else if (!strcmp(a, "--bench")) {
			o.bench = true;
		} else if (!strcmp(a, "--from-ply") && v) {
			o.from_ply = atoi(v);
			i++;
		} else if (!strcmp(a, "--list") && v) {
			o.list = fopen(v, "w");
			if (!o.list) {
				perror(v);
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--allow") && v) {
			if (read_named(&o, v) < 0)
				return 2;
			i++;
		} else if (!strcmp(a, "--real")) {
			real = true;
		} else if (a[0] == '-') {
			fprintf(stderr,
				"usage: mateset [--verify N] [--bench] [--from-ply N] "
				"[--slow MS] [--list FILE] [--allow FILE] [--real] FILE...\n");
			return 2;
		} else if (len > 4 && !strcmp(a + len - 4, ".pgn")) {
			/* All games together: one set. */
			snprintf(games.name, sizeof(games.name), "games_from_ply_%d", o.from_ply);
			if (run_pgn(&o, &games, a) < 0)
				return 2;
			n_games++;
			real = false;
		} else {
			struct set s = {.real = real};

			set_name(&s, a);
			if (run_lines(&o, &s, a, len > 4 && !strcmp(a + len - 4, ".txt")) < 0)
				return 2;
			report(&o, &s);
			failed |= s.wrong > 0 || (s.real && s.unknown > s.named);
			free(s.ms);
			real = false;
		}
	}
	if (n_games) {
		report(&o, &games);
		failed |= games.wrong > 0 || games.unknown > games.named;
		free(games.ms);
	}
	if (o.list)
		fclose(o.list);
	return failed ? 1 : 0;
}
