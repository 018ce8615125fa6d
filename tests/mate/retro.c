/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Retrograde analysis for "White can still checkmate" (retro.h).  Three steps per material:
 * the legal positions; the seeds (every checkmate of Black, and every position with a capture
 * into a smaller material's position that reaches one); then rounds that add every position
 * with a move into the positions added by the round before, until a round adds nothing.
 * A position is in the set exactly when some series of legal moves leads from it to a
 * checkmate of Black: the seeds are one move (or none) from it, and each round goes one move
 * further back.
 */
#include "tests/mate/retro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BIT(sq) ((uint64_t)1 << (sq))

/* ------------------------------------------------------------------ attacks */

static uint64_t knight_att[64], king_att[64], ray[8][64], between[64][64];
static const int dir_file[8] = {0, 1, 1, -1, 0, -1, -1, 1}; /* N E NE NW S W SW SE */
static const int dir_rank[8] = {1, 0, 1, 1, -1, 0, -1, -1};
static bool tables_ready;

static void tables_init(void)
{
	static const int kn[8][2] = {{1, 2},   {2, 1},	 {2, -1}, {1, -2},
				     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

	if (tables_ready)
		return;
	for (int sq = 0; sq < 64; sq++) {
		int f = sq & 7, r = sq >> 3;

		for (int k = 0; k < 8; k++) {
			int f2 = f + kn[k][0], r2 = r + kn[k][1];

			if (f2 >= 0 && f2 < 8 && r2 >= 0 && r2 < 8)
				knight_att[sq] |= BIT(f2 + 8 * r2);
		}
		for (int d = 0; d < 8; d++) {
			int f2 = f + dir_file[d], r2 = r + dir_rank[d];

			if (f2 >= 0 && f2 < 8 && r2 >= 0 && r2 < 8)
				king_att[sq] |= BIT(f2 + 8 * r2);
			for (uint64_t path = 0; f2 >= 0 && f2 < 8 && r2 >= 0 && r2 < 8;
			     f2 += dir_file[d], r2 += dir_rank[d]) {
				int to = f2 + 8 * r2;

				between[sq][to] = path;
				path |= BIT(to);
				ray[d][sq] |= BIT(to);
			}
		}
	}
	tables_ready = true;
}

/* Directions 0-3 go up the square numbers, 4-7 down. */
static uint64_t slide(int sq, uint64_t occ, int d0, int d1)
{
	uint64_t att = 0;

	for (int d = d0; d < d1; d++) {
		for (int k = d; k < 8; k += 4) {
			uint64_t r = ray[k][sq], block = r & occ;

			if (block) {
				int first =
				    k < 4 ? __builtin_ctzll(block) : 63 - __builtin_clzll(block);

				r ^= ray[k][first];
			}
			att |= r;
		}
	}
	return att;
}

static uint64_t attacks(int type, int sq, uint64_t occ)
{
	switch (type) {
	case RETRO_KNIGHT:
		return knight_att[sq];
	case RETRO_BISHOP:
		return slide(sq, occ, 2, 4);
	case RETRO_ROOK:
		return slide(sq, occ, 0, 2);
	case RETRO_QUEEN:
		return slide(sq, occ, 0, 4);
	default:
		return king_att[sq];
	}
}

static bool slider(int type)
{
	return type == RETRO_BISHOP || type == RETRO_ROOK || type == RETRO_QUEEN;
}

/* ------------------------------------------------------------------ materials */

static const char letters[] = "??NBRQK";

void retro_material_name(const struct retro_material *m, char *buf, size_t size)
{
	char s[2 * RETRO_MAX_MEN + 2];
	size_t n = 0;

	for (int side = 0; side < 2; side++) {
		s[n++] = 'K';
		for (int i = 2; i < m->n; i++)
			if (m->color[i] == side)
				s[n++] = letters[m->type[i]];
		if (!side)
			s[n++] = 'v';
	}
	s[n] = 0;
	snprintf(buf, size, "%s", s);
}

/* The canonical order of the men after the kings: White's first, each side's by falling
 * value (queen, rook, bishop, knight). */
static int man_rank(int color, int type)
{
	return color * 8 + (RETRO_QUEEN - type);
}

static void sort_men(struct retro_material *m)
{
	for (int i = 3; i < m->n; i++)
		for (int j = i; j > 2 && man_rank(m->color[j - 1], m->type[j - 1]) >
					     man_rank(m->color[j], m->type[j]);
		     j--) {
			int t = m->type[j], c = m->color[j];

			m->type[j] = m->type[j - 1];
			m->color[j] = m->color[j - 1];
			m->type[j - 1] = t;
			m->color[j - 1] = c;
		}
}

int retro_material_parse(const char *name, struct retro_material *m)
{
	int side = -1;

	memset(m, 0, sizeof(*m));
	m->n = 2;
	m->type[0] = m->type[1] = RETRO_KING;
	m->color[0] = RETRO_WHITE;
	m->color[1] = RETRO_BLACK;
	for (const char *p = name; *p; p++) {
		const char *l = strchr(letters + 2, *p);

		if (*p == 'v' && side == 0) {
			side = -2;
		} else if (*p == 'K' && (side == -1 || side == -2)) {
			side = side == -1 ? 0 : 1;
		} else if (l && *p != 'K' && side >= 0 && m->n < RETRO_MAX_MEN) {
			m->type[m->n] = (int)(l - letters);
			m->color[m->n] = side;
			m->n++;
		} else {
			return -1;
		}
	}
	if (side != 1)
		return -1;
	sort_men(m);
	return 0;
}

int retro_materials(int max_men, struct retro_material *out, int max)
{
	int count = 0;

	for (int n = 2; n <= max_men && n <= RETRO_MAX_MEN; n++) {
		/* The others as a non-decreasing sequence of man_rank values 0..15 (types 2..5). */
		int k = n - 2, idx[RETRO_MAX_MEN] = {0};

		for (;;) {
			bool ok = true;

			for (int i = 0; i < k; i++)
				if ((idx[i] & 7) > RETRO_QUEEN - RETRO_KNIGHT)
					ok = false;
			if (ok && count < max) {
				struct retro_material *m = &out[count++];

				m->n = n;
				m->type[0] = m->type[1] = RETRO_KING;
				m->color[0] = RETRO_WHITE;
				m->color[1] = RETRO_BLACK;
				for (int i = 0; i < k; i++) {
					m->color[2 + i] = idx[i] / 8;
					m->type[2 + i] = RETRO_QUEEN - idx[i] % 8;
				}
			}
			/* The next non-decreasing sequence. */
			int i = k - 1;

			while (i >= 0 && idx[i] == 15)
				i--;
			if (i < 0)
				break;
			idx[i]++;
			for (int j = i + 1; j < k; j++)
				idx[j] = idx[i];
		}
	}
	return count;
}

/* ------------------------------------------------------------------ positions */

size_t retro_config(const struct retro_material *m, const int *sq)
{
	size_t r = 0;

	for (int i = m->n - 1; i >= 1; i--)
		r = r << 6 | (size_t)sq[i];
	return r;
}

void retro_squares(const struct retro_material *m, size_t config, int *sq)
{
	for (int i = 1; i < m->n; i++, config >>= 6)
		sq[i] = (int)(config & 63);
}

/* Whether a man of `by` attacks `target` (men with a square of -1 are gone). */
static bool attacked(const struct retro_material *m, const int *sq, int by, int target,
		     uint64_t occ)
{
	for (int i = 0; i < m->n; i++)
		if (sq[i] >= 0 && m->color[i] == by &&
		    (attacks(m->type[i], sq[i], occ) & BIT(target)))
			return true;
	return false;
}

static uint64_t occupancy(const struct retro_material *m, const int *sq)
{
	uint64_t occ = 0;

	for (int i = 0; i < m->n; i++)
		if (sq[i] >= 0)
			occ |= BIT(sq[i]);
	return occ;
}

bool retro_is_legal(const struct retro_material *m, const int *sq, int side)
{
	tables_init();
	if ((size_t)__builtin_popcountll(occupancy(m, sq)) != (size_t)m->n)
		return false;
	/* The side not to move is not in check. */
	return !attacked(m, sq, side, sq[!side], occupancy(m, sq));
}

int retro_successors(const struct retro_material *m, const int *sq, int side,
		     int (*out)[RETRO_MAX_MEN], int max)
{
	uint64_t occ, own = 0;
	int count = 0;

	tables_init();
	occ = occupancy(m, sq);
	for (int i = 0; i < m->n; i++)
		if (sq[i] >= 0 && m->color[i] == side)
			own |= BIT(sq[i]);
	for (int i = 0; i < m->n; i++) {
		uint64_t targets;

		if (sq[i] < 0 || m->color[i] != side)
			continue;
		targets = attacks(m->type[i], sq[i], occ) & ~own;
		while (targets) {
			int to = __builtin_ctzll(targets), next[RETRO_MAX_MEN];

			targets &= targets - 1;
			memcpy(next, sq, sizeof(next));
			for (int j = 0; j < m->n; j++)
				if (next[j] == to)
					next[j] =
					    -1; /* captured (never a king in a legal position) */
			next[i] = to;
			if (attacked(m, next, !side, next[side], occupancy(m, next)))
				continue;
			if (count < max)
				memcpy(out[count], next, sizeof(next));
			count++;
		}
	}
	return count;
}

/* Whether `side` has a legal move; its king's moves first, as they settle most positions. */
static bool has_move(const struct retro_material *m, const int *sq, int side)
{
	uint64_t occ = occupancy(m, sq), own = 0;

	for (int i = 0; i < m->n; i++)
		if (sq[i] >= 0 && m->color[i] == side)
			own |= BIT(sq[i]);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < m->n; i++) {
			uint64_t targets;

			if (sq[i] < 0 || m->color[i] != side || (i == side) != (pass == 0))
				continue;
			targets = attacks(m->type[i], sq[i], occ) & ~own;
			while (targets) {
				int to = __builtin_ctzll(targets), next[RETRO_MAX_MEN];

				targets &= targets - 1;
				memcpy(next, sq, sizeof(next));
				for (int j = 0; j < m->n; j++)
					if (next[j] == to)
						next[j] = -1;
				next[i] = to;
				if (!attacked(m, next, !side, next[side], occupancy(m, next)))
					return true;
			}
		}
	}
	return false;
}

bool retro_is_white_mate(const struct retro_material *m, const int *sq)
{
	tables_init();
	return attacked(m, sq, RETRO_WHITE, sq[1], occupancy(m, sq)) &&
	       !has_move(m, sq, RETRO_BLACK);
}

/* ------------------------------------------------------------------ the cache */

struct retro_cache {
	int count;
	struct retro_table *tables[512];
};

struct retro_cache *retro_cache_new(void)
{
	return calloc(1, sizeof(struct retro_cache));
}

void retro_cache_free(struct retro_cache *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->count; i++)
		retro_table_free(c->tables[i]);
	free(c);
}

/* Zeroed memory for the cells, in huge pages where the kernel gives them (the solve's
 * accesses jump by megabytes). */
static struct retro_cell *cells_new(size_t n)
{
	size_t size = n * sizeof(struct retro_cell);
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, size, MADV_HUGEPAGE);
	return p;
}

void retro_table_free(struct retro_table *t)
{
	if (!t)
		return;
	for (int s = 0; s < 2; s++)
		if (t->cell[s])
			munmap(t->cell[s], t->words * sizeof(struct retro_cell));
	free(t);
}

static bool same_material(const struct retro_material *a, const struct retro_material *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->type[i] != b->type[i] || a->color[i] != b->color[i])
			return false;
	return true;
}

/* ------------------------------------------------------------------ the solve */

/* The legal positions of one config with `side` to move, as a word over the white king. */
static uint64_t legal_word(const struct retro_material *m, const int *sq, int side)
{
	uint64_t occ = 0, mask;
	int bk = sq[1];

	for (int i = 1; i < m->n; i++) {
		if (occ & BIT(sq[i]))
			return 0;
		occ |= BIT(sq[i]);
	}
	mask = ~occ & ~king_att[bk];
	for (int i = 2; i < m->n; i++) {
		uint64_t a = attacks(m->type[i], sq[i], occ);

		if (side == RETRO_WHITE && m->color[i] == RETRO_WHITE && (a & BIT(bk)))
			/* Black, not to move, in check: only the white king in between saves it. */
			mask &= slider(m->type[i]) ? between[sq[i]][bk] : 0;
		else if (side == RETRO_BLACK && m->color[i] == RETRO_BLACK)
			mask &= ~a; /* the white king, not to move, may not stand in check */
	}
	return mask;
}

/* The white king's squares from which Black stands in check (whatever else). */
static uint64_t checked_word(const struct retro_material *m, const int *sq)
{
	uint64_t occ = 0, checked = 0;

	for (int i = 1; i < m->n; i++)
		occ |= BIT(sq[i]);
	for (int i = 2; i < m->n; i++)
		if (m->color[i] == RETRO_WHITE && (attacks(m->type[i], sq[i], occ) & BIT(sq[1])))
			checked |= slider(m->type[i]) ? ~between[sq[i]][sq[1]] : ~(uint64_t)0;
	return checked;
}

/* Every square the white king could have come from to the squares of b. */
static uint64_t king_spread(uint64_t b)
{
	const uint64_t not_a = 0xfefefefefefefefeULL, not_h = 0x7f7f7f7f7f7f7f7fULL;

	return b << 8 | b >> 8 | ((b << 1 | b << 9 | b >> 7) & not_a) |
	       ((b >> 1 | b >> 9 | b << 7) & not_h);
}

struct solve {
	struct retro_table *t;
};

static void add(struct solve *s, int side, size_t config, uint64_t bits)
{
	struct retro_cell *c;

	if (!bits)
		return;
	c = &s->t->cell[side][config];
	bits &= c->legal & ~c->can;
	c->can |= bits;
	c->next |= bits;
}

/* Every position one move before the positions `bits` of `config`, `mover` having moved:
 * each of the mover's men back along its moves to an empty square. */
static void retract(struct solve *s, const int *sq, size_t config, int mover, uint64_t bits)
{
	const struct retro_material *m = &s->t->m;
	uint64_t occ = 0;

	for (int i = 1; i < m->n; i++)
		occ |= BIT(sq[i]);
	if (mover == RETRO_WHITE)
		add(s, mover, config, king_spread(bits));
	for (int i = 1; i < m->n; i++) {
		int shift = 6 * (i - 1), y = sq[i];
		uint64_t from;

		if (m->color[i] != mover)
			continue;
		from = attacks(m->type[i], y, occ) & ~occ;
		while (from) {
			int y2 = __builtin_ctzll(from);
			size_t c2 = config - ((size_t)y << shift) + ((size_t)y2 << shift);

			from &= from - 1;
			add(s, mover, c2, bits & ~(between[y][y2] | BIT(y2)));
		}
	}
}

/* Seeds from the captures into m minus man j: each position of the smaller material that
 * reaches a checkmate, with man j put back where it was captured and the capturer back on a
 * square it came from. */
static int seed_captures(struct solve *s, struct retro_cache *c, int j)
{
	const struct retro_material *m = &s->t->m;
	struct retro_material sub = *m;
	struct retro_table *st;
	int victim_side = m->color[j], mover = !victim_side;

	for (int i = j; i + 1 < m->n; i++) {
		sub.type[i] = m->type[i + 1];
		sub.color[i] = m->color[i + 1];
	}
	sub.n = m->n - 1;
	st = retro_solve(c, &sub, RETRO_MAX_MEN - 1);
	if (!st)
		return -1;
	for (size_t cfg = 0; cfg < st->words; cfg++) {
		uint64_t w = st->cell[victim_side][cfg].can, occ = 0;
		int ssq[RETRO_MAX_MEN], sq[RETRO_MAX_MEN];

		if (!w)
			continue;
		retro_squares(&sub, cfg, ssq);
		for (int i = 1; i < sub.n; i++)
			occ |= BIT(ssq[i]);
		/* m's squares, man j still to be placed. */
		for (int i = 1; i < m->n; i++)
			sq[i] = i < j ? ssq[i] : i > j ? ssq[i - 1] : -1;
		if (mover == RETRO_WHITE) {
			/* The white king took man j on y. */
			for (uint64_t b = w; b; b &= b - 1) {
				int y = __builtin_ctzll(b);

				sq[j] = y;
				add(s, mover, retro_config(m, sq), king_att[y]);
			}
		}
		for (int k = 1; k < m->n; k++) {
			int y = sq[k];
			uint64_t from;

			if (k == j || m->color[k] != mover)
				continue;
			from = attacks(m->type[k], y, occ) & ~occ;
			sq[j] = y;
			while (from) {
				int y2 = __builtin_ctzll(from);

				from &= from - 1;
				sq[k] = y2;
				add(s, mover, retro_config(m, sq), w & ~(between[y][y2] | BIT(y2)));
			}
			sq[k] = y;
		}
	}
	return 0;
}

/* The white king's squares from which Black, in check, is surely not mated: beside a flight
 * square that no other white man attacks (the white king can only block attacks), Black's
 * king steps there unless the white king stands next to it. */
static uint64_t not_mate_word(const struct retro_material *m, const int *sq)
{
	uint64_t occ = 0, flights, mated_only_if = ~(uint64_t)0;

	for (int i = 1; i < m->n; i++)
		occ |= BIT(sq[i]);
	flights = king_att[sq[1]] & ~occ;
	occ &= ~BIT(sq[1]);
	for (; flights; flights &= flights - 1) {
		int f = __builtin_ctzll(flights);
		bool hit = false;

		for (int i = 2; i < m->n && !hit; i++)
			hit = m->color[i] == RETRO_WHITE &&
			      (attacks(m->type[i], sq[i], occ) & BIT(f));
		if (!hit)
			mated_only_if &= king_att[f] | BIT(f);
	}
	return ~mated_only_if;
}

static struct retro_table *solve_new(struct retro_cache *c, const struct retro_material *m)
{
	struct retro_table *t = calloc(1, sizeof(*t));
	struct solve s = {.t = t};
	int sq[RETRO_MAX_MEN];

	if (!t)
		return NULL;
	t->m = *m;
	t->words = (size_t)1 << (6 * (m->n - 1));
	for (int side = 0; side < 2; side++) {
		t->cell[side] = cells_new(t->words);
		if (!t->cell[side])
			goto fail;
	}
	for (size_t cfg = 0; cfg < t->words; cfg++) {
		retro_squares(m, cfg, sq);
		for (int side = 0; side < 2; side++) {
			t->cell[side][cfg].legal = legal_word(m, sq, side);
			t->positions += (uint64_t)__builtin_popcountll(t->cell[side][cfg].legal);
		}
	}
	/* Seeds: the checkmates of Black... */
	for (size_t cfg = 0; cfg < t->words; cfg++) {
		uint64_t cand;

		retro_squares(m, cfg, sq);
		cand = t->cell[RETRO_BLACK][cfg].legal & checked_word(m, sq);
		if (cand)
			cand &= ~not_mate_word(m, sq);
		for (; cand; cand &= cand - 1) {
			sq[0] = __builtin_ctzll(cand);
			if (retro_is_white_mate(m, sq)) {
				add(&s, RETRO_BLACK, cfg, BIT(sq[0]));
				t->mates++;
			}
		}
	}
	/* ... and the captures into smaller materials that reach one. */
	for (int j = 2; j < m->n; j++)
		if (seed_captures(&s, c, j))
			goto fail;
	/* Rounds, each one move further back. */
	for (;;) {
		bool any = false;

		for (int side = 0; side < 2; side++)
			for (size_t cfg = 0; cfg < t->words; cfg++) {
				struct retro_cell *cell = &t->cell[side][cfg];

				cell->cur = cell->next;
				cell->next = 0;
			}
		for (int side = 0; side < 2; side++) {
			for (size_t cfg = 0; cfg < t->words; cfg++) {
				uint64_t bits = t->cell[side][cfg].cur;

				if (!bits)
					continue;
				any = true;
				retro_squares(m, cfg, sq);
				retract(&s, sq, cfg, !side, bits);
			}
		}
		if (!any)
			break;
		t->rounds++;
	}
	for (int side = 0; side < 2; side++)
		for (size_t cfg = 0; cfg < t->words; cfg++)
			t->reachable += (uint64_t)__builtin_popcountll(t->cell[side][cfg].can);
	return t;
fail:
	retro_table_free(t);
	return NULL;
}

struct retro_table *retro_solve(struct retro_cache *c, const struct retro_material *m, int keep_men)
{
	struct retro_table *t;

	tables_init();
	for (int i = 0; i < c->count; i++)
		if (same_material(&c->tables[i]->m, m))
			return c->tables[i];
	t = solve_new(c, m);
	if (t && m->n <= keep_men && c->count < (int)(sizeof(c->tables) / sizeof(c->tables[0])))
		c->tables[c->count++] = t;
	return t;
}
