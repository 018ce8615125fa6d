/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Position representation, Zobrist keys, make/unmake, attacks.
 *
 * Why both bitboards and a mailbox: legal move generation needs set
 * operations (pins, check masks, "is this square attacked" for the king's
 * targets, sliding attacks through magic multiplication), which bitboards do
 * in a few instructions; but the rest of the program (move detection, speech,
 * notation) asks "what stands on e4?" far more often than anything else, and
 * board[64] answers that in one load.  make/unmake keep the two in step; the
 * cost is a few extra stores per move.
 *
 * The e.p. square is kept only when the side to move has a legal en-passant
 * capture.  Then pos->key contains the e.p. file exactly when a capture is
 * possible, which is the identity of positions in Art. 9.2.3: after 1.e4 the
 * position is the same as if the pawn had arrived in two steps, and a
 * repetition count must see it so.
 */
#include <pthread.h>
#include <string.h>

#include "chess/bitboard.h"

uint64_t chess_bb_knight[64];
uint64_t chess_bb_king[64];
uint64_t chess_bb_pawn[2][64];
uint64_t chess_bb_between[64][64];
uint64_t chess_bb_line[64][64];
struct chess_magic chess_magic_rook[64];
struct chess_magic chess_magic_bishop[64];

uint64_t chess_zobrist_piece[16][64];
uint64_t chess_zobrist_castling[16];
uint64_t chess_zobrist_ep[8];
uint64_t chess_zobrist_side;

/* Sizes: the sum over squares of 2^(relevant bits): 102400 for rooks, 5248 for bishops. */
static uint64_t rook_table[102400];
static uint64_t bishop_table[5248];

/* Rights that survive a move touching the square: a king or rook leaving home, or a rook
 * captured at home, clears the rights that depend on it. */
static uint8_t castle_keep[64];

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static uint64_t prng_state;

/*
 * Per-square seeds for the magic search below: with these, each square's search succeeds
 * within a few hundred candidates, so the whole set-up takes milliseconds instead of a
 * quarter of a second.  Any seed would find a valid magic; these were picked once as the
 * fastest of the first few hundred.
 */
static const uint16_t rook_seeds[64] = {
    73,	 145, 49,  132, 84,  320, 308, 79,  243, 169, 151, 158, 74,  46,  159, 200,
    160, 163, 385, 266, 393, 142, 306, 133, 255, 288, 197, 232, 213, 92,  106, 341,
    139, 270, 283, 314, 218, 92,  317, 134, 179, 258, 213, 158, 251, 230, 367, 66,
    163, 117, 9,   166, 328, 316, 279, 397, 153, 370, 47,  266, 301, 216, 229, 161};
static const uint16_t bishop_seeds[64] = {
    2,	44, 57, 62, 30, 30, 55, 9,  18, 25, 19, 1,  24, 55, 46, 62, 24, 59, 35, 42, 21, 15,
    48, 55, 22, 1,  33, 58, 45, 38, 39, 61, 11, 6,  51, 9,  60, 35, 42, 2,  39, 39, 22, 32,
    53, 17, 20, 47, 55, 16, 47, 22, 30, 45, 35, 44, 9,	62, 11, 7,  36, 16, 18, 2};

/* xorshift64*: tiny, fast, and good enough to find magics and Zobrist keys; a fixed seed makes
 * the tables (and so the keys) the same in every run. */
static uint64_t prng_next(void)
{
	prng_state ^= prng_state >> 12;
	prng_state ^= prng_state << 25;
	prng_state ^= prng_state >> 27;
	return prng_state * 0x2545F4914F6CDD1DULL;
}

static bool on_board(int f, int r)
{
	return f >= 0 && f < 8 && r >= 0 && r < 8;
}

static uint64_t slide_attacks(int sq, uint64_t occ, const int dirs[4][2])
{
	uint64_t att = 0;
	for (int d = 0; d < 4; d++) {
		int f = CHESS_FILE(sq) + dirs[d][0], r = CHESS_RANK(sq) + dirs[d][1];
		for (; on_board(f, r); f += dirs[d][0], r += dirs[d][1]) {
			att |= BB(CHESS_SQ(f, r));
			if (occ & BB(CHESS_SQ(f, r)))
				break;
		}
	}
	return att;
}

/* The squares whose occupancy matters: each ray without the board edge it runs into. */
static uint64_t slide_mask(int sq, const int dirs[4][2])
{
	uint64_t mask = 0;
	for (int d = 0; d < 4; d++) {
		int f = CHESS_FILE(sq) + dirs[d][0], r = CHESS_RANK(sq) + dirs[d][1];
		for (; on_board(f + dirs[d][0], r + dirs[d][1]); f += dirs[d][0], r += dirs[d][1])
			mask |= BB(CHESS_SQ(f, r));
	}
	return mask;
}

/*
 * Find a magic for each square by trial: sparse random multipliers until every occupancy
 * subset maps to an index holding its own attack set (constructive collisions allowed).
 * Takes a few milliseconds; the scratch arrays are static since this runs once, under
 * pthread_once.
 */
static void magic_init(struct chess_magic *magics, uint64_t *table, const int dirs[4][2],
		       const uint16_t seeds[64])
{
	static uint64_t occs[4096], refs[4096];
	static unsigned epoch[4096];
	unsigned cur = 0;
	uint64_t *next = table;

	memset(epoch, 0, sizeof(epoch));
	for (int sq = 0; sq < 64; sq++) {
		struct chess_magic *m = &magics[sq];
		int bits, n = 0;
		uint64_t sub = 0;

		m->mask = slide_mask(sq, dirs);
		bits = chess_bb_count(m->mask);
		m->shift = 64u - (unsigned)bits;
		m->attacks = next;
		/* Every subset of the mask (carry-rippler enumeration). */
		do {
			occs[n] = sub;
			refs[n] = slide_attacks(sq, sub, dirs);
			n++;
			sub = (sub - m->mask) & m->mask;
		} while (sub);

		prng_state = seeds[sq] * 0x9E3779B97F4A7C15ULL + 1;
		for (;;) {
			uint64_t magic = prng_next() & prng_next() & prng_next();
			int i;

			if (chess_bb_count((m->mask * magic) & 0xFF00000000000000ULL) < 6)
				continue;
			cur++;
			for (i = 0; i < n; i++) {
				unsigned idx = (unsigned)((occs[i] * magic) >> m->shift);
				if (epoch[idx] != cur) {
					epoch[idx] = cur;
					m->attacks[idx] = refs[i];
				} else if (m->attacks[idx] != refs[i]) {
					break;
				}
			}
			if (i == n) {
				m->magic = magic;
				break;
			}
		}
		next += (size_t)1 << bits;
	}
}

static void leaper_init(void)
{
	static const int knight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
					 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
	for (int sq = 0; sq < 64; sq++) {
		int f = CHESS_FILE(sq), r = CHESS_RANK(sq);
		for (int i = 0; i < 8; i++) {
			if (on_board(f + knight[i][0], r + knight[i][1]))
				chess_bb_knight[sq] |=
				    BB(CHESS_SQ(f + knight[i][0], r + knight[i][1]));
		}
		for (int df = -1; df <= 1; df++) {
			for (int dr = -1; dr <= 1; dr++) {
				if ((df || dr) && on_board(f + df, r + dr))
					chess_bb_king[sq] |= BB(CHESS_SQ(f + df, r + dr));
			}
		}
		for (int df = -1; df <= 1; df += 2) {
			if (on_board(f + df, r + 1))
				chess_bb_pawn[CHESS_WHITE][sq] |= BB(CHESS_SQ(f + df, r + 1));
			if (on_board(f + df, r - 1))
				chess_bb_pawn[CHESS_BLACK][sq] |= BB(CHESS_SQ(f + df, r - 1));
		}
	}
}

static void line_init(void)
{
	for (int a = 0; a < 64; a++) {
		uint64_t ra = slide_attacks(a, 0, rook_dirs);
		uint64_t ba = slide_attacks(a, 0, bishop_dirs);
		for (int b = 0; b < 64; b++) {
			if (a == b)
				continue;
			if (ra & BB(b)) {
				chess_bb_line[a][b] =
				    (ra & slide_attacks(b, 0, rook_dirs)) | BB(a) | BB(b);
				chess_bb_between[a][b] = slide_attacks(a, BB(b), rook_dirs) &
							 slide_attacks(b, BB(a), rook_dirs);
			} else if (ba & BB(b)) {
				chess_bb_line[a][b] =
				    (ba & slide_attacks(b, 0, bishop_dirs)) | BB(a) | BB(b);
				chess_bb_between[a][b] = slide_attacks(a, BB(b), bishop_dirs) &
							 slide_attacks(b, BB(a), bishop_dirs);
			}
		}
	}
}

static void zobrist_init(void)
{
	for (int p = 0; p < 16; p++) {
		for (int sq = 0; sq < 64; sq++)
			chess_zobrist_piece[p][sq] = prng_next();
	}
	/* One key per right, combined by xor, so that losing a right is one xor pair. */
	uint64_t right[4];
	for (int i = 0; i < 4; i++)
		right[i] = prng_next();
	for (int c = 0; c < 16; c++) {
		chess_zobrist_castling[c] = 0;
		for (int i = 0; i < 4; i++) {
			if (c & (1 << i))
				chess_zobrist_castling[c] ^= right[i];
		}
	}
	for (int f = 0; f < 8; f++)
		chess_zobrist_ep[f] = prng_next();
	chess_zobrist_side = prng_next();
}

static void init_once(void)
{
	leaper_init();
	line_init();
	magic_init(chess_magic_rook, rook_table, rook_dirs, rook_seeds);
	magic_init(chess_magic_bishop, bishop_table, bishop_dirs, bishop_seeds);
	prng_state = 0x9E3779B97F4A7C15ULL;
	zobrist_init();
	memset(castle_keep, 0xF, sizeof(castle_keep));
	castle_keep[CHESS_SQ(4, 0)] = (uint8_t) ~(CHESS_CASTLE_WK | CHESS_CASTLE_WQ) & 0xF;
	castle_keep[CHESS_SQ(7, 0)] = (uint8_t)~CHESS_CASTLE_WK & 0xF;
	castle_keep[CHESS_SQ(0, 0)] = (uint8_t)~CHESS_CASTLE_WQ & 0xF;
	castle_keep[CHESS_SQ(4, 7)] = (uint8_t) ~(CHESS_CASTLE_BK | CHESS_CASTLE_BQ) & 0xF;
	castle_keep[CHESS_SQ(7, 7)] = (uint8_t)~CHESS_CASTLE_BK & 0xF;
	castle_keep[CHESS_SQ(0, 7)] = (uint8_t)~CHESS_CASTLE_BQ & 0xF;
}

void chess_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, init_once);
}

/* ---------------------------------------------------------------- set-up */

void chess_pos_clear(struct chess_pos *pos)
{
	chess_init();
	memset(pos, 0, sizeof(*pos));
	pos->ep_square = CHESS_NO_SQUARE;
	pos->fullmove_number = 1;
	pos->key = 0;
}

void chess_pos_put(struct chess_pos *pos, int sq, chess_piece piece)
{
	chess_pos_remove(pos, sq);
	if (!piece)
		return;
	pos->board[sq] = piece;
	pos->by_color[CHESS_PIECE_COLOR(piece)] |= BB(sq);
	pos->by_type[CHESS_PIECE_TYPE(piece)] |= BB(sq);
}

void chess_pos_remove(struct chess_pos *pos, int sq)
{
	chess_piece p = pos->board[sq];
	if (!p)
		return;
	pos->board[sq] = 0;
	pos->by_color[CHESS_PIECE_COLOR(p)] &= ~BB(sq);
	pos->by_type[CHESS_PIECE_TYPE(p)] &= ~BB(sq);
}

bool chess_ep_square_usable(const struct chess_pos *pos, int ep)
{
	enum chess_color us = (enum chess_color)pos->side, them = (enum chess_color)(us ^ 1);
	uint64_t kings = pos->by_type[CHESS_KING] & pos->by_color[us];
	int cap = us == CHESS_WHITE ? ep - 8 : ep + 8;
	uint64_t cands;

	if (ep >= 64 || !kings || CHESS_RANK(ep) != (us == CHESS_WHITE ? 5 : 2))
		return false;
	if (pos->board[cap] != CHESS_PIECE(them, CHESS_PAWN) || pos->board[ep])
		return false;
	cands = chess_bb_pawn[them][ep] & pos->by_type[CHESS_PAWN] & pos->by_color[us];
	while (cands) {
		int from = chess_bb_pop(&cands);
		int ksq = chess_bb_lsb(kings);
		uint64_t occ = (chess_pos_occupancy(pos) ^ BB(from) ^ BB(cap)) | BB(ep);
		/* The captured pawn no longer attacks; everything else is seen through occ. */
		uint64_t att = chess_bb_attackers(pos, ksq, occ, them) & ~BB(cap);
		if (!att)
			return true;
	}
	return false;
}

void chess_pos_refresh(struct chess_pos *pos)
{
	uint64_t key = 0;

	chess_init();
	for (int sq = 0; sq < 64; sq++) {
		if (pos->board[sq])
			key ^= chess_zobrist_piece[pos->board[sq]][sq];
	}
	if (pos->side == CHESS_BLACK)
		key ^= chess_zobrist_side;
	pos->castling &= 0xF;
	key ^= chess_zobrist_castling[pos->castling];
	if (pos->ep_square != CHESS_NO_SQUARE && !chess_ep_square_usable(pos, pos->ep_square))
		pos->ep_square = CHESS_NO_SQUARE;
	if (pos->ep_square != CHESS_NO_SQUARE)
		key ^= chess_zobrist_ep[CHESS_FILE(pos->ep_square)];
	pos->key = key;
}

void chess_pos_init_start(struct chess_pos *pos)
{
	static const enum chess_piece_type back[8] = {CHESS_ROOK,   CHESS_KNIGHT, CHESS_BISHOP,
						      CHESS_QUEEN,  CHESS_KING,	  CHESS_BISHOP,
						      CHESS_KNIGHT, CHESS_ROOK};
	chess_pos_clear(pos);
	for (int f = 0; f < 8; f++) {
		chess_pos_put(pos, CHESS_SQ(f, 0), CHESS_PIECE(CHESS_WHITE, back[f]));
		chess_pos_put(pos, CHESS_SQ(f, 1), CHESS_PIECE(CHESS_WHITE, CHESS_PAWN));
		chess_pos_put(pos, CHESS_SQ(f, 6), CHESS_PIECE(CHESS_BLACK, CHESS_PAWN));
		chess_pos_put(pos, CHESS_SQ(f, 7), CHESS_PIECE(CHESS_BLACK, back[f]));
	}
	pos->castling = CHESS_CASTLE_WK | CHESS_CASTLE_WQ | CHESS_CASTLE_BK | CHESS_CASTLE_BQ;
	chess_pos_refresh(pos);
}

/* ---------------------------------------------------------------- queries */

uint64_t chess_pos_occupancy(const struct chess_pos *pos)
{
	return pos->by_color[CHESS_WHITE] | pos->by_color[CHESS_BLACK];
}

int chess_pos_king_square(const struct chess_pos *pos, enum chess_color color)
{
	uint64_t k = pos->by_type[CHESS_KING] & pos->by_color[color];
	return k ? chess_bb_lsb(k) : CHESS_NO_SQUARE;
}

bool chess_pos_square_attacked(const struct chess_pos *pos, int sq, enum chess_color by)
{
	return chess_bb_attackers(pos, sq, chess_pos_occupancy(pos), by) != 0;
}

bool chess_pos_in_check(const struct chess_pos *pos)
{
	int k = chess_pos_king_square(pos, (enum chess_color)pos->side);
	return k != CHESS_NO_SQUARE &&
	       chess_pos_square_attacked(pos, k, (enum chess_color)(pos->side ^ 1));
}

bool chess_pos_ep_capture_legal(const struct chess_pos *pos)
{
	return pos->ep_square != CHESS_NO_SQUARE && chess_ep_square_usable(pos, pos->ep_square);
}

/* ---------------------------------------------------------------- make / unmake */

/* Hot-path helpers: keep mailbox, bitboards and (for make) the key in step. */
static inline void piece_add(struct chess_pos *pos, int sq, chess_piece p)
{
	pos->board[sq] = p;
	pos->by_color[CHESS_PIECE_COLOR(p)] |= BB(sq);
	pos->by_type[CHESS_PIECE_TYPE(p)] |= BB(sq);
}

static inline void piece_del(struct chess_pos *pos, int sq, chess_piece p)
{
	pos->board[sq] = 0;
	pos->by_color[CHESS_PIECE_COLOR(p)] &= ~BB(sq);
	pos->by_type[CHESS_PIECE_TYPE(p)] &= ~BB(sq);
}

static inline void piece_move(struct chess_pos *pos, int from, int to, chess_piece p)
{
	uint64_t fb = BB(from) | BB(to);
	pos->board[from] = 0;
	pos->board[to] = p;
	pos->by_color[CHESS_PIECE_COLOR(p)] ^= fb;
	pos->by_type[CHESS_PIECE_TYPE(p)] ^= fb;
}

/* Rook squares for a castling king move ending on `to`. */
static inline void castle_rook_squares(int to, int *rfrom, int *rto)
{
	if (CHESS_FILE(to) == 6) {
		*rfrom = to + 1;
		*rto = to - 1;
	} else {
		*rfrom = to - 2;
		*rto = to + 1;
	}
}

void chess_pos_make(struct chess_pos *pos, chess_move m, struct chess_undo *undo)
{
	int from = chess_move_from(m), to = chess_move_to(m);
	enum chess_move_kind kind = chess_move_kind(m);
	chess_piece p = pos->board[from];
	enum chess_color us = (enum chess_color)pos->side;
	uint64_t key = pos->key ^ chess_zobrist_side;
	uint8_t castling;

	undo->castling = pos->castling;
	undo->ep_square = pos->ep_square;
	undo->halfmove_clock = pos->halfmove_clock;
	undo->key = pos->key;
	undo->captured = 0;

	if (pos->ep_square != CHESS_NO_SQUARE) {
		key ^= chess_zobrist_ep[CHESS_FILE(pos->ep_square)];
		pos->ep_square = CHESS_NO_SQUARE;
	}
	castling = pos->castling & castle_keep[from] & castle_keep[to];
	if (castling != pos->castling) {
		key ^= chess_zobrist_castling[pos->castling] ^ chess_zobrist_castling[castling];
		pos->castling = castling;
	}
	pos->halfmove_clock++;

	switch (kind) {
	case CHESS_MOVE_NORMAL:
	case CHESS_MOVE_PROMOTION: {
		chess_piece cap = pos->board[to];
		if (cap) {
			undo->captured = cap;
			piece_del(pos, to, cap);
			key ^= chess_zobrist_piece[cap][to];
			pos->halfmove_clock = 0;
		}
		if (kind == CHESS_MOVE_PROMOTION) {
			chess_piece promo = CHESS_PIECE(us, chess_move_promotion(m));
			piece_del(pos, from, p);
			piece_add(pos, to, promo);
			key ^= chess_zobrist_piece[p][from] ^ chess_zobrist_piece[promo][to];
			pos->halfmove_clock = 0;
			break;
		}
		piece_move(pos, from, to, p);
		key ^= chess_zobrist_piece[p][from] ^ chess_zobrist_piece[p][to];
		if (CHESS_PIECE_TYPE(p) == CHESS_PAWN) {
			pos->halfmove_clock = 0;
			if ((from ^ to) == 16) {
				/* Only worth the legality test when an enemy pawn stands beside. */
				int ep = (from + to) / 2;
				pos->side = (uint8_t)(us ^ 1);
				if ((chess_bb_pawn[us][ep] & pos->by_type[CHESS_PAWN] &
				     pos->by_color[us ^ 1]) &&
				    chess_ep_square_usable(pos, ep)) {
					pos->ep_square = (uint8_t)ep;
					key ^= chess_zobrist_ep[CHESS_FILE(ep)];
				}
			}
		}
		break;
	}
	case CHESS_MOVE_EN_PASSANT: {
		int cap = us == CHESS_WHITE ? to - 8 : to + 8;
		chess_piece cp = pos->board[cap];
		undo->captured = cp;
		piece_del(pos, cap, cp);
		piece_move(pos, from, to, p);
		key ^= chess_zobrist_piece[cp][cap] ^ chess_zobrist_piece[p][from] ^
		       chess_zobrist_piece[p][to];
		pos->halfmove_clock = 0;
		break;
	}
	case CHESS_MOVE_CASTLING: {
		int rfrom, rto;
		chess_piece rook = CHESS_PIECE(us, CHESS_ROOK);
		castle_rook_squares(to, &rfrom, &rto);
		piece_move(pos, from, to, p);
		piece_move(pos, rfrom, rto, rook);
		key ^= chess_zobrist_piece[p][from] ^ chess_zobrist_piece[p][to] ^
		       chess_zobrist_piece[rook][rfrom] ^ chess_zobrist_piece[rook][rto];
		break;
	}
	}

	pos->side = (uint8_t)(us ^ 1);
	if (us == CHESS_BLACK)
		pos->fullmove_number++;
	pos->key = key;
}

void chess_pos_unmake(struct chess_pos *pos, chess_move m, const struct chess_undo *undo)
{
	int from = chess_move_from(m), to = chess_move_to(m);
	enum chess_color us = (enum chess_color)(pos->side ^ 1);
	chess_piece p = pos->board[to];

	switch (chess_move_kind(m)) {
	case CHESS_MOVE_NORMAL:
		piece_move(pos, to, from, p);
		if (undo->captured)
			piece_add(pos, to, undo->captured);
		break;
	case CHESS_MOVE_PROMOTION:
		piece_del(pos, to, p);
		piece_add(pos, from, CHESS_PIECE(us, CHESS_PAWN));
		if (undo->captured)
			piece_add(pos, to, undo->captured);
		break;
	case CHESS_MOVE_EN_PASSANT:
		piece_move(pos, to, from, p);
		piece_add(pos, us == CHESS_WHITE ? to - 8 : to + 8, undo->captured);
		break;
	case CHESS_MOVE_CASTLING: {
		int rfrom, rto;
		castle_rook_squares(to, &rfrom, &rto);
		piece_move(pos, to, from, p);
		piece_move(pos, rto, rfrom, CHESS_PIECE(us, CHESS_ROOK));
		break;
	}
	}
	pos->side = (uint8_t)us;
	if (us == CHESS_BLACK)
		pos->fullmove_number--;
	pos->castling = undo->castling;
	pos->ep_square = undo->ep_square;
	pos->halfmove_clock = undo->halfmove_clock;
	pos->key = undo->key;
}
