/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella chess rules core: squares, pieces, moves, positions, legal move
 * generation, game state.  Pure C, no I/O.
 *
 * Squares are numbered a1 = 0, b1 = 1, ... h1 = 7, a2 = 8, ... h8 = 63, so
 * file = sq & 7 and rank = sq >> 3.
 */
#ifndef ANNABELLA_CHESS_H
#define ANNABELLA_CHESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum chess_color { CHESS_WHITE = 0, CHESS_BLACK = 1 };

enum chess_piece_type {
	CHESS_NO_PIECE = 0,
	CHESS_PAWN = 1,
	CHESS_KNIGHT = 2,
	CHESS_BISHOP = 3,
	CHESS_ROOK = 4,
	CHESS_QUEEN = 5,
	CHESS_KING = 6,
};

/* A coloured piece: type | color << 3; 0 is an empty square. */
typedef uint8_t chess_piece;
#define CHESS_PIECE(color, type) ((chess_piece)((type) | ((color) << 3)))
#define CHESS_PIECE_TYPE(p)	 ((enum chess_piece_type)((p)&7))
#define CHESS_PIECE_COLOR(p)	 ((enum chess_color)(((p) >> 3) & 1))

#define CHESS_NO_SQUARE	     64
#define CHESS_SQ(file, rank) ((file) + 8 * (rank))
#define CHESS_FILE(sq)	     ((sq)&7)
#define CHESS_RANK(sq)	     ((sq) >> 3)

/* Castling rights bits. */
enum {
	CHESS_CASTLE_WK = 1, /* White O-O */
	CHESS_CASTLE_WQ = 2, /* White O-O-O */
	CHESS_CASTLE_BK = 4,
	CHESS_CASTLE_BQ = 8,
};

/*
 * A move: from (bits 0-5), to (bits 6-11), kind (bits 12-13), promotion piece
 * (bits 14-15: knight, bishop, rook, queen).  Castling is encoded as the
 * king's two-square move (e1g1, e1c1); 0 is "no move".
 */
typedef uint16_t chess_move;
enum chess_move_kind {
	CHESS_MOVE_NORMAL = 0,
	CHESS_MOVE_PROMOTION = 1,
	CHESS_MOVE_EN_PASSANT = 2,
	CHESS_MOVE_CASTLING = 3,
};
#define CHESS_MOVE_NONE ((chess_move)0)

static inline chess_move chess_move_make(int from, int to, enum chess_move_kind kind,
					 enum chess_piece_type promo)
{
	unsigned p = kind == CHESS_MOVE_PROMOTION ? (unsigned)(promo - CHESS_KNIGHT) : 0u;
	return (chess_move)((unsigned)from | (unsigned)to << 6 | (unsigned)kind << 12 | p << 14);
}
static inline int chess_move_from(chess_move m)
{
	return m & 63;
}
static inline int chess_move_to(chess_move m)
{
	return (m >> 6) & 63;
}
static inline enum chess_move_kind chess_move_kind(chess_move m)
{
	return (enum chess_move_kind)((m >> 12) & 3);
}
/* The promotion piece type, or CHESS_NO_PIECE. */
static inline enum chess_piece_type chess_move_promotion(chess_move m)
{
	return chess_move_kind(m) == CHESS_MOVE_PROMOTION
		   ? (enum chess_piece_type)(CHESS_KNIGHT + ((m >> 14) & 3))
		   : CHESS_NO_PIECE;
}

/* Upper bound on legal moves in any position the FEN parser accepts.  218 is the known
 * maximum for reachable positions; accepted but unreachable ones are bounded by 15 pieces
 * at their best (9 queens, 2 rooks, 2 bishops, 2 knights, king: 321). */
#define CHESS_MAX_MOVES 322

struct chess_move_list {
	int count;
	chess_move moves[CHESS_MAX_MOVES];
};

/*
 * A position.  The fields are public so that positions can be copied and
 * compared cheaply; change them only through the functions below.
 * (The representation is documented in position.c.)
 */
struct chess_pos {
	uint64_t by_color[2];
	uint64_t by_type[7]; /* indexed by enum chess_piece_type; [0] unused */
	chess_piece board[64];
	uint8_t side;	   /* enum chess_color to move */
	uint8_t castling;  /* CHESS_CASTLE_* bits */
	uint8_t ep_square; /* square behind a pawn that just advanced two, or CHESS_NO_SQUARE;
			    * kept only while an e.p. capture onto it is legal (Art. 9.2.3) */
	uint16_t halfmove_clock;
	uint16_t fullmove_number;
	uint64_t key; /* Zobrist key of placement, side, castling and *legal* e.p. (9.2.3) */
};

/* What chess_pos_make() saves so chess_pos_unmake() can restore the position. */
struct chess_undo {
	chess_piece captured;
	uint8_t castling;
	uint8_t ep_square;
	uint16_t halfmove_clock;
	uint64_t key;
};

/* Errors from parsers: a message and the 1-based line and column it names; for a move,
 * what kind of error (a program may word it in another language). */
enum chess_error_kind {
	CHESS_ERROR_SYNTAX = 0,	  /* not written as a move (or not a position) */
	CHESS_ERROR_NO_SUCH_MOVE, /* well written, but no legal move is it */
	CHESS_ERROR_AMBIGUOUS,	  /* more than one legal move is it */
	CHESS_ERROR_PROMOTION,	  /* a promotion without its piece */
};
struct chess_error {
	int line;
	int column;
	char message[120];
	enum chess_error_kind kind;
};

/* One-time table set-up; idempotent and thread-safe.  Called by chess_pos_*. */
void chess_init(void);

void chess_pos_init_start(struct chess_pos *pos);
void chess_pos_clear(struct chess_pos *pos);
/* Put or remove a piece (for set-up); recomputes nothing else. Call chess_pos_refresh after. */
void chess_pos_put(struct chess_pos *pos, int sq, chess_piece piece);
void chess_pos_remove(struct chess_pos *pos, int sq);
/* Recompute the key (and anything derived) after set-up by put/remove. */
void chess_pos_refresh(struct chess_pos *pos);

static inline chess_piece chess_pos_piece_at(const struct chess_pos *pos, int sq)
{
	return pos->board[sq];
}
uint64_t chess_pos_occupancy(const struct chess_pos *pos);
int chess_pos_king_square(const struct chess_pos *pos, enum chess_color color);
bool chess_pos_in_check(const struct chess_pos *pos);
bool chess_pos_square_attacked(const struct chess_pos *pos, int sq, enum chess_color by);

/* Make a legal move (from chess_pos_legal_moves). */
void chess_pos_make(struct chess_pos *pos, chess_move m, struct chess_undo *undo);
void chess_pos_unmake(struct chess_pos *pos, chess_move m, const struct chess_undo *undo);

/* All legal moves; returns the count. */
int chess_pos_legal_moves(const struct chess_pos *pos, struct chess_move_list *list);
bool chess_pos_is_legal(const struct chess_pos *pos, chess_move m);
/* The legal move from -> to, with promo for promotions; CHESS_MOVE_NONE if none. */
chess_move chess_pos_find_move(const struct chess_pos *pos, int from, int to,
			       enum chess_piece_type promo);
/* Whether the side to move has an en-passant capture that is legal (Art. 9.2.3). */
bool chess_pos_ep_capture_legal(const struct chess_pos *pos);
/* The piece that moves / is captured by m (before making it). */
chess_piece chess_pos_moving_piece(const struct chess_pos *pos, chess_move m);
chess_piece chess_pos_captured_piece(const struct chess_pos *pos, chess_move m);
/* The square of the piece m captures (differs from the target for e.p.), or CHESS_NO_SQUARE. */
int chess_move_capture_square(const struct chess_pos *pos, chess_move m);

/* Leaf count of the legal move tree to depth. */
uint64_t chess_perft(struct chess_pos *pos, int depth);

/* Whether `color` could still checkmate "by any possible series of legal moves" (Art.
 * 5.2.2, 6.9, 7.5.5, 2023 5.1.2): a helpmate question, answered by chess/mate.c: exactly
 * for positions of at most five men without pawns; otherwise "possible" with the helpmate
 * found by a guided search, "never" where a rule, a static analysis of the squares each man
 * can still reach or a search of every line proves it, else unknown. */
enum chess_mate {
	CHESS_MATE_NEVER = 0, /* no series of legal moves ends in that colour's checkmate */
	CHESS_MATE_POSSIBLE,  /* some series does */
	CHESS_MATE_UNKNOWN,   /* neither could be proven: the arbiter decides */
};
#define CHESS_MATE_LINE_MAX 128
/* The answer's grounds and what it cost. */
struct chess_mate_info {
	bool answer_only;   /* in: no line for a five-man answer (the five-man proof asks many) */
	long nodes;	    /* positions looked at */
	int depth;	    /* the deepest ply of a forced line followed (five men or fewer) */
	const char *reason; /* why: "helpmate", or what proves never, or why unknown */
	int line_len;	    /* possible: the helpmate, from the position, in line[] (0 where the
			     * side has mated already, or for a five-man answer without a line) */
	chess_move line[CHESS_MATE_LINE_MAX];
};
/* info may be NULL; otherwise answer_only is read, the rest written. */
enum chess_mate chess_pos_mate(const struct chess_pos *pos, enum chess_color color,
			       struct chess_mate_info *info);
/* "never", "possible", "unknown" */
const char *chess_mate_name(enum chess_mate m);
/* chess_pos_mate() is not NEVER. */
bool chess_pos_can_checkmate(const struct chess_pos *pos, enum chess_color color);
/* Dead position (Art. 5.2.2): neither side can mate, as far as the quick means prove it
 * (five men or fewer without pawns: exactly; otherwise the rules, the static analysis and
 * forced moves, without the searches: it is asked after every move). */
bool chess_pos_is_dead(const struct chess_pos *pos);

/* ---------------------------------------------------------------- FEN */
#define CHESS_FEN_MAX	100
#define CHESS_FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/* Parse with full validation; 0 or -1 with err filled (line 1, column of the fault). */
int chess_fen_parse(struct chess_pos *pos, const char *fen, struct chess_error *err);
/* Format into buf (at least CHESS_FEN_MAX bytes). */
void chess_fen_format(const struct chess_pos *pos, char *buf, size_t size);

/* ---------------------------------------------------------------- squares and notation */
/* "e4" -> 28; -1 if not a square. */
int chess_square_parse(const char *s);
/* 28 -> "e4" (buf of at least 3 bytes). */
void chess_square_format(int sq, char *buf);

#define CHESS_SAN_MAX 16
/* English SAN with +/#: "Nbd7", "exd6", "e8=Q+", "O-O-O#". */
void chess_move_to_san(const struct chess_pos *pos, chess_move m, char *buf, size_t size);
/* Lenient SAN: also 0-0, missing x or +, "e.p.", German letters K D T L S, long
 * algebraic (e2-e4, Ng1-f3) and UCI.  0, or -1 with err (column) filled. */
int chess_move_parse_san(const struct chess_pos *pos, const char *text, chess_move *out,
			 struct chess_error *err);
/* UCI / long notation: "e2e4", "e7e8q". */
void chess_move_to_uci(chess_move m, char *buf, size_t size);
int chess_move_parse_uci(const struct chess_pos *pos, const char *text, chess_move *out);
/* Appendix C local paper notation with German letters: "Sf3", "exd6", "d8D", "0-0", "Lxb5+". */
void chess_move_to_local(const struct chess_pos *pos, chess_move m, char *buf, size_t size);
/*
 * Appendix C's national piece letters: a language's letters for the king, queen, rook,
 * bishop and knight ("KQRBN" en, "KDTLS" de and sv, "KDTLP" nl; English for NULL or another
 * language).  The local notation in a language's letters ("Pf3" in nl); and the lenient
 * reader above that also takes them: the English and German letters always, and the
 * language's besides (the Dutch P, Paard, is a knight only for nl: elsewhere P is no piece).
 */
const char *chess_piece_letters(const char *lang);
void chess_move_to_local_lang(const struct chess_pos *pos, chess_move m, const char *lang,
			      char *buf, size_t size);
int chess_move_parse_lang(const struct chess_pos *pos, const char *text, const char *lang,
			  chess_move *out, struct chess_error *err);

/* ---------------------------------------------------------------- games */
enum chess_outcome {
	CHESS_ONGOING = 0,
	CHESS_CHECKMATE,     /* side to move is mated */
	CHESS_STALEMATE,     /* side to move is stalemated */
	CHESS_DEAD_POSITION, /* by material (Art. 5.2.2) */
	CHESS_FIVEFOLD,	     /* Art. 9.6.1, automatic */
	CHESS_SEVENTY_FIVE,  /* Art. 9.6.2, automatic */
};

struct chess_game {
	struct chess_pos start;
	struct chess_pos pos; /* current */
	int count;	      /* moves played */
	int capacity;
	chess_move *moves;
	uint64_t *keys; /* keys[i] = key of the position before moves[i]; keys[count] = current */
	bool fixed;	/* the buffers are the caller's: never grown or freed */
};

int chess_game_init(struct chess_game *game, const struct chess_pos *start);
/* A game whose moves live in the caller's buffers (moves: capacity, keys: capacity + 1): it
 * never allocates, and a push beyond capacity fails. */
void chess_game_init_fixed(struct chess_game *game, const struct chess_pos *start,
			   chess_move *moves, uint64_t *keys, int capacity);
void chess_game_free(struct chess_game *game);
/* Play a legal move; 0, or -1 if illegal or out of memory. */
int chess_game_push(struct chess_game *game, chess_move m);
/* Take back the last move; 0, or -1 if none. */
int chess_game_pop(struct chess_game *game);
/* Keep the first `count` moves only (a retraction); 0, or -1 if count is out of range. */
int chess_game_truncate(struct chess_game *game, int count);
/* Position after `ply` moves (0 = start) into *out. */
void chess_game_position_at(const struct chess_game *game, int ply, struct chess_pos *out);
/* How many times the current position has occurred (Art. 9.2 identity). */
int chess_game_repetitions(const struct chess_game *game);
/* Automatic end of the game in the current position (checkmate first). */
enum chess_outcome chess_game_outcome(const struct chess_game *game);
/* Claimable draws for the side to move: threefold (9.2) and fifty moves (9.3). */
bool chess_game_can_claim_threefold(const struct chess_game *game);
bool chess_game_can_claim_fifty(const struct chess_game *game);
/* Claims by an intended move (Art. 9.2.1.1, 9.3.1): the legal move m would make the
 * position occur a third time / complete the last 50 moves without pawn move or capture. */
bool chess_game_move_claims_threefold(const struct chess_game *game, chess_move m);
bool chess_game_move_claims_fifty(const struct chess_game *game, chess_move m);

#endif
