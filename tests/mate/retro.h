/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * An independent oracle for "can White still checkmate by some series of legal moves" (Art.
 * 5.2.2, 6.9, 7.5.5, 5.1.2): for a material of at most five men without pawns, the set of
 * all positions from which a position where White has checkmated Black can be reached,
 * worked out backwards from every checkmate by retrograde analysis.  It shares nothing with
 * chess/: its own attack tables, its own legality and checkmate tests.
 *
 * Men are numbered: 0 the white king, 1 the black king, 2.. the others in the material's
 * order.  A position of the material is a side to move and a square for each man; the table
 * keeps, for each placement of men 1..n-1 (a "config": man i's square in bits 6(i-1)..),
 * one 64-bit word whose bit b says the position with the white king on b belongs to the set.
 * So a move of any man but the white king moves a whole word, and the white king's moves are
 * shifts within one: most of the work is done 64 positions at a time.
 *
 * Castling, en passant and the move counters play no part (no pawns, no castling rights).
 */
#ifndef ANNABELLA_TESTS_RETRO_H
#define ANNABELLA_TESTS_RETRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RETRO_MAX_MEN 5

enum { RETRO_WHITE = 0, RETRO_BLACK = 1 };
/* The same numbers as chess/chess.h's piece types, so positions convert without a table. */
enum { RETRO_KNIGHT = 2, RETRO_BISHOP = 3, RETRO_ROOK = 4, RETRO_QUEEN = 5, RETRO_KING = 6 };

struct retro_material {
	int n; /* men, both kings included: 2..RETRO_MAX_MEN */
	int type[RETRO_MAX_MEN];
	int color[RETRO_MAX_MEN];
};

/* One config's words for one side to move, together so that the solve touches one place in
 * memory for each (the tables of five men are a gigabyte). */
struct retro_cell {
	uint64_t legal;	    /* the legal positions */
	uint64_t can;	    /* those from which White can mate */
	uint64_t next, cur; /* the solve's rounds */
};

struct retro_table {
	struct retro_material m;
	size_t words;		    /* 64^(n-1) */
	struct retro_cell *cell[2]; /* [side to move][config] */
	/* What the solve found, for the report. */
	uint64_t mates, positions, reachable;
	int rounds;
};

/* "KQvKN": the material's name, white's men first. */
void retro_material_name(const struct retro_material *m, char *buf, size_t size);
/* The material from a name like "KQRvKN" (men sorted as the table wants them); 0 or -1. */
int retro_material_parse(const char *name, struct retro_material *m);
/* Every material of at most max_men men without pawns, smaller ones first, each once, in the
 * canonical order of its men; returns how many (up to max). */
int retro_materials(int max_men, struct retro_material *out, int max);

/* The solved tables of smaller materials a solve looks its captures up in. */
struct retro_cache;
struct retro_cache *retro_cache_new(void);
void retro_cache_free(struct retro_cache *c);
/* The table of m, solving it (and, first, what it needs) when it is not there yet.  Tables
 * of up to keep_men men stay in the cache; a larger one belongs to the caller
 * (retro_table_free).  NULL when out of memory. */
struct retro_table *retro_solve(struct retro_cache *c, const struct retro_material *m,
				int keep_men);
void retro_table_free(struct retro_table *t);

/* A config from the squares of men 1..n-1, and back. */
size_t retro_config(const struct retro_material *m, const int *sq);
void retro_squares(const struct retro_material *m, size_t config, int *sq);

/* Tests of the oracle's own parts, on one position (squares of all men, side to move). */
bool retro_is_legal(const struct retro_material *m, const int *sq, int side);
bool retro_is_white_mate(const struct retro_material *m, const int *sq);
/* Every legal successor of a legal position of m: the men's squares after each move, the
 * captured man marked -1.  Returns how many (up to max). */
int retro_successors(const struct retro_material *m, const int *sq, int side,
		     int (*out)[RETRO_MAX_MEN], int max);

#endif
