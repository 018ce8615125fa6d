/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A game: start position, moves, and the key of every position reached, so
 * that repetitions (Art. 9.2, 9.6.1) are found by comparing keys.  The key
 * hashes the e.p. file only when an e.p. capture is legal (Art. 9.2.3), so
 * equal keys mean the same position in the sense of the Laws.
 * (Who can still checkmate, for dead positions and results: chess/mate.c.)
 */
#include <stdlib.h>
#include <string.h>

#include "chess/bitboard.h"

int chess_game_init(struct chess_game *game, const struct chess_pos *start)
{
	memset(game, 0, sizeof(*game));
	game->start = *start;
	game->pos = *start;
	game->capacity = 64;
	game->moves = malloc(sizeof(*game->moves) * (size_t)game->capacity);
	game->keys = malloc(sizeof(*game->keys) * ((size_t)game->capacity + 1));
	if (!game->moves || !game->keys) {
		chess_game_free(game);
		return -1;
	}
	game->keys[0] = start->key;
	return 0;
}

void chess_game_init_fixed(struct chess_game *game, const struct chess_pos *start,
			   chess_move *moves, uint64_t *keys, int capacity)
{
	memset(game, 0, sizeof(*game));
	game->start = *start;
	game->pos = *start;
	game->capacity = capacity;
	game->moves = moves;
	game->keys = keys;
	game->fixed = true;
	game->keys[0] = start->key;
}

void chess_game_free(struct chess_game *game)
{
	if (game->fixed) {
		game->count = 0;
		return;
	}
	free(game->moves);
	free(game->keys);
	game->moves = NULL;
	game->keys = NULL;
	game->count = game->capacity = 0;
}

static int game_grow(struct chess_game *game)
{
	int cap = game->capacity ? game->capacity * 2 : 64;

	if (game->fixed)
		return -1;
	chess_move *moves = realloc(game->moves, sizeof(*moves) * (size_t)cap);
	if (!moves)
		return -1;
	game->moves = moves;
	uint64_t *keys = realloc(game->keys, sizeof(*keys) * ((size_t)cap + 1));
	if (!keys)
		return -1;
	game->keys = keys;
	game->capacity = cap;
	return 0;
}

int chess_game_push(struct chess_game *game, chess_move m)
{
	struct chess_undo undo;

	if (!chess_pos_is_legal(&game->pos, m))
		return -1;
	if (game->count >= game->capacity && game_grow(game))
		return -1;
	chess_pos_make(&game->pos, m, &undo);
	game->moves[game->count++] = m;
	game->keys[game->count] = game->pos.key;
	return 0;
}

void chess_game_position_at(const struct chess_game *game, int ply, struct chess_pos *out)
{
	struct chess_undo undo;

	if (ply < 0)
		ply = 0;
	if (ply > game->count)
		ply = game->count;
	if (ply == game->count) {
		*out = game->pos;
		return;
	}
	*out = game->start;
	for (int i = 0; i < ply; i++)
		chess_pos_make(out, game->moves[i], &undo);
}

int chess_game_pop(struct chess_game *game)
{
	if (game->count == 0)
		return -1;
	/* Replaying from the start needs no stored undo records, and take-backs are rare. */
	chess_game_position_at(game, game->count - 1, &game->pos);
	game->count--;
	return 0;
}

int chess_game_truncate(struct chess_game *game, int count)
{
	if (count < 0 || count > game->count)
		return -1;
	chess_game_position_at(game, count, &game->pos);
	game->count = count;
	return 0;
}

int chess_game_repetitions(const struct chess_game *game)
{
	uint64_t key = game->keys[game->count];
	int n = 1;

	/* Same side to move: every second position back; an irreversible move (pawn move or
	 * capture) ends the search, as no earlier position can recur. */
	int reach = game->pos.halfmove_clock;
	for (int i = game->count - 2; i >= 0 && game->count - i <= reach; i -= 2) {
		if (game->keys[i] == key)
			n++;
	}
	return n;
}

enum chess_outcome chess_game_outcome(const struct chess_game *game)
{
	struct chess_move_list list;

	if (chess_pos_legal_moves(&game->pos, &list) == 0)
		return chess_pos_in_check(&game->pos) ? CHESS_CHECKMATE : CHESS_STALEMATE;
	if (chess_pos_is_dead(&game->pos))
		return CHESS_DEAD_POSITION;
	if (chess_game_repetitions(game) >= 5)
		return CHESS_FIVEFOLD;
	if (game->pos.halfmove_clock >= 150)
		return CHESS_SEVENTY_FIVE;
	return CHESS_ONGOING;
}

bool chess_game_can_claim_threefold(const struct chess_game *game)
{
	return chess_game_outcome(game) == CHESS_ONGOING && chess_game_repetitions(game) >= 3;
}

bool chess_game_can_claim_fifty(const struct chess_game *game)
{
	return game->pos.halfmove_clock >= 100 && chess_game_outcome(game) == CHESS_ONGOING;
}

bool chess_game_move_claims_threefold(const struct chess_game *game, chess_move m)
{
	struct chess_pos next = game->pos;
	struct chess_undo undo;
	int n = 1;

	if (!chess_pos_is_legal(&game->pos, m))
		return false;
	chess_pos_make(&next, m, &undo);
	/* The position after m would sit at index count + 1: compare with count - 1, ... */
	for (int i = game->count - 1; i >= 0 && game->count + 1 - i <= next.halfmove_clock;
	     i -= 2) {
		if (game->keys[i] == next.key)
			n++;
	}
	return n >= 3;
}

bool chess_game_move_claims_fifty(const struct chess_game *game, chess_move m)
{
	struct chess_pos next = game->pos;
	struct chess_undo undo;

	if (!chess_pos_is_legal(&game->pos, m))
		return false;
	chess_pos_make(&next, m, &undo);
	return next.halfmove_clock >= 100;
}
