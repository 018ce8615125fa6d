/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella script GAME.pgn`: a board script (docs/scripts.md "Board scripts, line logs, time
 * controls") that plays the first game of a PGN file on the tactile board the way people do: pieces
 * lifted and placed in varied orders, touches, pieces carried over holes, think times, clock
 * presses, promotion choices with `select`.  The sim backend runs it, so whole games test the
 * daemon end to end.
 *
 * The timing keeps every move recognisable: within a move the hand's actions
 * are a few hundred ms apart; a piece set down in passing is lifted again well
 * within the settle time; a completed move stays still for at least 400 ms
 * before a clock press (1 s without a clock) and a replicated promotion's
 * choice has 3.2 s to become final when nothing else finalises it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "chess/chess.h"
#include "chess/pgn.h"
#include "cli/cli.h"
#include "game/clock.h"
#include "game/color.h"
#include "store/state.h"

#define STILL_BEFORE_PRESS_MS 400 /* well above the 150 ms settle time */
#define STILL_NO_CLOCK_MS     1000
#define PROMOTION_FINAL_MS    3200 /* the daemon finalises 3 s after the last select */
#define MAX_THINK_MS	      20000
#define PGN_MAX_BYTES	      (16u << 20)

struct gen {
	FILE *out;
	uint64_t rng;
	bool varied;  /* --variants: seeded orders and times; otherwise one natural order */
	bool chatter; /* --chatter */
	bool clock;
	int player;	      /* colour of the tactile player */
	uint64_t pending_ms;  /* wait before the next action */
	uint64_t min_next_ms; /* the board must stay still this long before the next action */
	uint64_t think_max_ms;
};

/* ---------------------------------------------------------------- randomness */

static uint64_t rng_next(struct gen *g)
{
	/* splitmix64: small, and the same sequence everywhere for one seed. */
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static uint64_t rng_range(struct gen *g, uint64_t lo, uint64_t hi)
{
	return lo + rng_next(g) % (hi - lo + 1);
}

static bool rng_chance(struct gen *g, unsigned percent)
{
	return rng_next(g) % 100 < percent;
}

/* Natural value without --variants, else uniform in [lo, hi]. */
static uint64_t pick(struct gen *g, uint64_t natural, uint64_t lo, uint64_t hi)
{
	return g->varied ? rng_range(g, lo, hi) : natural;
}

/* ---------------------------------------------------------------- output */

static void wait_ms(struct gen *g, uint64_t ms)
{
	g->pending_ms += ms;
}

__attribute__((format(printf, 2, 3))) static void emit(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	if (g->pending_ms < g->min_next_ms)
		g->pending_ms = g->min_next_ms;
	g->min_next_ms = 0;
	if (g->pending_ms)
		fprintf(g->out, "+%" PRIu64 " ", g->pending_ms);
	g->pending_ms = 0;
	va_start(ap, fmt);
	vfprintf(g->out, fmt, ap);
	va_end(ap);
	fputc('\n', g->out);
}

static void emit_square(struct gen *g, const char *verb, int sq)
{
	char name[3];
	chess_square_format(sq, name);
	emit(g, "%s %s", verb, name);
}

/* The pause between two actions of one hand within a move. */
static void hand_gap(struct gen *g)
{
	wait_ms(g, pick(g, 300, 100, 600));
}

static void lift(struct gen *g, int sq)
{
	hand_gap(g);
	emit_square(g, "lift", sq);
}

static void place(struct gen *g, int sq)
{
	hand_gap(g);
	emit_square(g, "place", sq);
}

/*
 * Time passes with the board still (a player thinking); with --chatter a sensor
 * may bounce meanwhile, away from the settling of the move before and the start
 * of the next.
 */
static void think(struct gen *g, uint64_t natural)
{
	uint64_t ms = natural;

	if (g->varied) {
		/* Mostly short, sometimes long: the smaller of two draws. */
		uint64_t a = rng_range(g, 300, g->think_max_ms),
			 b = rng_range(g, 300, g->think_max_ms);
		ms = a < b ? a : b;
		if (rng_chance(g, 10))
			ms = a > b ? a : b;
	}
	if (g->chatter && ms >= 3000 && rng_chance(g, 40)) {
		uint64_t before = rng_range(g, 1000, ms - 1000);
		if (g->min_next_ms > before)
			before = g->min_next_ms;
		wait_ms(g, before);
		char name[3];
		chess_square_format((int)rng_range(g, 0, 63), name);
		emit(g, "chatter %s %" PRIu64, name, rng_range(g, 1, 4));
		ms = ms > before ? ms - before : 0;
		if (ms < 1000)
			ms = 1000;
	}
	wait_ms(g, ms);
}

/* ---------------------------------------------------------------- one move on the board */

/* An empty square near the middle of the way, to set the piece down on in passing. */
static int carry_square(struct gen *g, const struct chess_pos *pos, int from, int to)
{
	int mf = (CHESS_FILE(from) + CHESS_FILE(to)) / 2,
	    mr = (CHESS_RANK(from) + CHESS_RANK(to)) / 2;
	int candidates[25], n = 0;

	for (int df = -2; df <= 2; df++) {
		for (int dr = -2; dr <= 2; dr++) {
			int f = mf + df, r = mr + dr;
			if (f < 0 || f > 7 || r < 0 || r > 7)
				continue;
			int sq = CHESS_SQ(f, r);
			if (sq != to && sq != from && !pos->board[sq])
				candidates[n++] = sq;
		}
	}
	return n ? candidates[rng_range(g, 0, (uint64_t)n - 1)] : -1;
}

/* Lift and put back a piece of the mover (a touch, D.2.2), then go on. */
static void touch_first(struct gen *g, const struct chess_pos *pos)
{
	int squares[16], n = 0;
	for (int sq = 0; sq < 64; sq++)
		if (pos->board[sq] && CHESS_PIECE_COLOR(pos->board[sq]) == pos->side && n < 16)
			squares[n++] = sq;
	if (!n)
		return;
	int sq = squares[rng_range(g, 0, (uint64_t)n - 1)];
	lift(g, sq);
	place(g, sq);
	wait_ms(g, rng_range(g, 200, 1500));
}

static void castle_on_board(struct gen *g, int king_from, int king_to)
{
	int rank = CHESS_RANK(king_from);
	bool king_side = king_to > king_from;
	int rook_from = king_side ? CHESS_SQ(7, rank) : CHESS_SQ(0, rank);
	int rook_to = king_side ? king_to - 1 : king_to + 1;

	switch (g->varied ? rng_range(g, 0, 3) : 0) {
	case 0: /* king first, as Art. 4.4 has it */
		lift(g, king_from);
		place(g, king_to);
		lift(g, rook_from);
		place(g, rook_to);
		break;
	case 1: /* rook first */
		lift(g, rook_from);
		place(g, rook_to);
		lift(g, king_from);
		place(g, king_to);
		break;
	case 2: /* both in hand, king placed first */
		lift(g, king_from);
		lift(g, rook_from);
		place(g, king_to);
		place(g, rook_to);
		break;
	default: /* both in hand, rook placed first */
		lift(g, rook_from);
		lift(g, king_from);
		place(g, rook_to);
		place(g, king_to);
		break;
	}
}

static void en_passant_on_board(struct gen *g, int from, int to, int captured)
{
	switch (g->varied ? rng_range(g, 0, 2) : 0) {
	case 0: /* own pawn first */
		lift(g, from);
		lift(g, captured);
		place(g, to);
		break;
	case 1: /* captured pawn first */
		lift(g, captured);
		lift(g, from);
		place(g, to);
		break;
	default: /* captured pawn last */
		lift(g, from);
		place(g, to);
		lift(g, captured);
		break;
	}
}

static void capture_on_board(struct gen *g, int from, int to)
{
	if (g->varied && rng_chance(g, 50)) {
		lift(g, to); /* the captured piece first */
		lift(g, from);
	} else {
		lift(g, from);
		lift(g, to);
	}
	place(g, to);
}

/* The select presses that choose a promotion piece: Dame, Turm, Läufer, Springer. */
static int select_presses(chess_move m)
{
	switch (chess_move_promotion(m)) {
	case CHESS_QUEEN:
		return 1;
	case CHESS_ROOK:
		return 2;
	case CHESS_BISHOP:
		return 3;
	default:
		return 4;
	}
}

/* Lifts and places that make m on the board.  Returns true for a promotion (selects follow). */
static bool move_on_board(struct gen *g, const struct chess_pos *pos, chess_move m)
{
	int from = chess_move_from(m), to = chess_move_to(m);
	int captured = chess_move_capture_square(pos, m);

	if (g->varied && rng_chance(g, 10))
		touch_first(g, pos);

	switch (chess_move_kind(m)) {
	case CHESS_MOVE_CASTLING:
		castle_on_board(g, from, to);
		return false;
	case CHESS_MOVE_EN_PASSANT:
		en_passant_on_board(g, from, to, captured);
		return false;
	case CHESS_MOVE_PROMOTION:
		if (captured != CHESS_NO_SQUARE) {
			capture_on_board(g, from, to);
		} else if (g->varied && rng_chance(g, 30)) {
			place(g, to); /* the new piece first (Art. 4.6) */
			lift(g, from);
		} else {
			lift(g, from);
			place(g, to);
		}
		return true;
	case CHESS_MOVE_NORMAL:
		break;
	}
	if (captured != CHESS_NO_SQUARE) {
		capture_on_board(g, from, to);
		return false;
	}
	lift(g, from);
	if (g->varied && rng_chance(g, 15)) {
		int via = carry_square(g, pos, from, to);
		if (via >= 0) {
			/* Set down in passing: lifted again well within the settle time. */
			hand_gap(g);
			emit_square(g, "place", via);
			wait_ms(g, rng_range(g, 40, 90));
			emit_square(g, "lift", via);
		}
	}
	place(g, to);
	return false;
}

static void press(struct gen *g, const char *button)
{
	emit(g, "press %s", button);
}

static void choose_promotion(struct gen *g, chess_move m)
{
	/* The device asks once the move is made (settle time), then each press steps. */
	wait_ms(g, pick(g, 600, 500, 1200));
	for (int i = select_presses(m); i > 0; i--) {
		press(g, "select");
		wait_ms(g, pick(g, 400, 250, 700));
	}
}

/* ---------------------------------------------------------------- the game */

static const char *button_of(const struct gen *g, int color)
{
	return color == g->player ? "player-clock" : "opponent-clock";
}

static void play_move(struct gen *g, const struct chess_pos *pos, chess_move m)
{
	int mover = pos->side;
	bool own = mover == g->player;
	char san[CHESS_SAN_MAX];

	chess_move_to_san(pos, m, san, sizeof(san));
	fprintf(g->out, "# %d.%s %s (%s)\n", pos->fullmove_number, mover == CHESS_WHITE ? "" : "..",
		san, own ? "player" : "opponent");

	if (own || !g->clock) {
		/* The tactile player's own move, or without a clock the opponent's move
		 * replicated as soon as it is announced. */
		think(g, own ? 3000 : 4000);
		bool promo = move_on_board(g, pos, m);
		if (promo)
			choose_promotion(g, m);
		if (g->clock) {
			wait_ms(g, pick(g, 800, STILL_BEFORE_PRESS_MS, 1200));
			press(g, button_of(g, mover));
		} else {
			g->min_next_ms = promo ? PROMOTION_FINAL_MS : STILL_NO_CLOCK_MS;
		}
		return;
	}

	/* The opponent's move with a clock: made on their board while they think, then
	 * replicated on the tactile board after their press or, announced, before it. */
	think(g, 4000);
	if (g->varied && rng_chance(g, 35)) {
		wait_ms(g, rng_range(g, 300, 1500));
		bool promo = move_on_board(g, pos, m);
		if (promo)
			choose_promotion(g, m);
		wait_ms(g, pick(g, 800, STILL_BEFORE_PRESS_MS, 1200));
		press(g, button_of(g, mover));
		return;
	}
	wait_ms(g, pick(g, 500, 200, 1200));
	press(g, button_of(g, mover));
	wait_ms(g, pick(g, 1500, 300, 3000));
	bool promo = move_on_board(g, pos, m);
	if (promo)
		choose_promotion(g, m);
	/* Nothing presses after it: the choice becomes final on its own. */
	g->min_next_ms = promo ? PROMOTION_FINAL_MS : STILL_BEFORE_PRESS_MS;
}

/* A think-time ceiling the clock can afford: a share of the first period plus the increment. */
static uint64_t think_budget(const struct time_control *tc)
{
	if (tc->count == 0)
		return MAX_THINK_MS;
	const struct tc_period *p = &tc->periods[0];
	uint64_t moves = p->moves > 0 ? (uint64_t)p->moves : 60;
	uint64_t ms = p->base_ms / moves / 2;
	if (p->mode != TC_PLAIN)
		ms += p->extra_ms / 2;
	if (ms < 1000)
		ms = 1000;
	return ms > MAX_THINK_MS ? MAX_THINK_MS : ms;
}

void cli_script_usage(FILE *f)
{
	fprintf(f, "usage: annabella script GAME.pgn [--player white|black] [--variants SEED] "
		   "[--chatter] [--time-control TC]\n");
}

static int usage(const char *msg, const char *arg)
{
	if (msg)
		log_error(LOG_MAIN, "%s%s%s", msg, arg ? " " : "", arg ? arg : "");
	cli_script_usage(stderr);
	return 2;
}

/* GAME.pgn and the options into g, *path and *tc_text: 0, or 2 (said). */
static int parse_args(int argc, char **argv, struct gen *g, const char **path, const char **tc_text)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--player")) {
			if (++i >= argc)
				return usage("--player needs white or black", NULL);
			if (!strcmp(argv[i], "white"))
				g->player = CHESS_WHITE;
			else if (!strcmp(argv[i], "black"))
				g->player = CHESS_BLACK;
			else
				return usage("bad --player", argv[i]);
		} else if (!strcmp(a, "--variants")) {
			char *end;
			if (++i >= argc)
				return usage("--variants needs a seed", NULL);
			errno = 0;
			unsigned long long seed = strtoull(argv[i], &end, 10);
			if (errno || end == argv[i] || *end || argv[i][0] == '-')
				return usage("bad --variants seed", argv[i]);
			g->varied = true;
			g->rng = seed;
		} else if (!strcmp(a, "--chatter")) {
			g->chatter = true;
		} else if (!strcmp(a, "--time-control")) {
			if (++i >= argc)
				return usage("--time-control needs a time control", NULL);
			*tc_text = argv[i];
		} else if (a[0] == '-' && a[1]) {
			return usage("unknown option", a);
		} else if (*path) {
			return usage("more than one PGN file:", a);
		} else {
			*path = a;
		}
	}
	if (!*path)
		return usage("no PGN file given", NULL);
	return 0;
}

/* The first game of the PGN file into game: 0, or 2 (said). */
static int read_game(const char *path, struct pgn_game *game)
{
	size_t len = 0;
	char *text = state_read_file(path, &len);
	if (text && len > PGN_MAX_BYTES) {
		free(text);
		text = NULL;
		errno = EFBIG;
	}
	if (!text) {
		log_error(LOG_MAIN, "%s: %s", path, strerror(errno));
		return 2;
	}
	struct pgn_reader *r = pgn_reader_new(text, len);
	free(text);
	if (!r) {
		log_error(LOG_MAIN, "out of memory");
		return 2;
	}
	struct chess_error perr = {0};
	int got = pgn_reader_next(r, game, &perr);
	pgn_reader_free(r);
	if (got < 0) {
		log_error(LOG_MAIN, "%s:%d:%d: %s", path, perr.line, perr.column, perr.message);
		return 2;
	}
	if (got == 0) {
		log_error(LOG_MAIN, "%s: no game", path);
		return 2;
	}
	return 0;
}

/* Without --time-control, the game's TimeControl tag when it parses (else none) into tc:
 * the text the script names. */
static const char *tag_time_control(const struct pgn_game *game, const char *path,
				    struct time_control *tc)
{
	const char *tag = pgn_game_tag(game, "TimeControl");
	const char *tc_text = "-";
	char err[160];

	if (tag && strcmp(tag, "?") && strcmp(tag, "-")) {
		if (time_control_parse(tag, tc, err, sizeof(err)) == 0)
			tc_text = tag;
		else
			log_warn(LOG_MAIN, "%s: TimeControl \"%s\" ignored (%s)", path, tag, err);
	}
	if (!strcmp(tc_text, "-"))
		time_control_parse("-", tc, err, sizeof(err));
	return tc_text;
}

/* The script's head: the players, the tactile player, the time control, a setup. */
static void write_header(struct gen *g, const struct pgn_game *game, const char *tc_text)
{
	char fen[CHESS_FEN_MAX];

	fprintf(g->out, "# %s - %s\n",
		pgn_game_tag(game, "White") ? pgn_game_tag(game, "White") : "?",
		pgn_game_tag(game, "Black") ? pgn_game_tag(game, "Black") : "?");
	fprintf(g->out, "player %s\n", game_color_name(g->player));
	fprintf(g->out, "time-control %s\n", tc_text);
	chess_fen_format(&game->game.start, fen, sizeof(fen));
	if (strcmp(fen, CHESS_FEN_START))
		fprintf(g->out, "setup %s\n", fen);
}

/* The clock started, every move played, the last one left still. */
static void play_game(struct gen *g, const struct pgn_game *game)
{
	struct chess_pos pos = game->game.start;
	if (g->clock) {
		/* The clock starts when the side not to move presses (Black, from the initial
		 * position: Art. 6.6). */
		wait_ms(g, 1000);
		press(g, button_of(g, pos.side == CHESS_WHITE ? CHESS_BLACK : CHESS_WHITE));
	}
	for (int i = 0; i < game->game.count; i++) {
		struct chess_undo undo;
		chess_move m = game->game.moves[i];
		play_move(g, &pos, m);
		chess_pos_make(&pos, m, &undo);
	}
	/* The last move stays still long enough to be made and final. */
	if (g->min_next_ms) {
		g->pending_ms = g->pending_ms > g->min_next_ms ? g->pending_ms : g->min_next_ms;
		fprintf(g->out, "# end of game %s, still for %" PRIu64 " ms\n", game->result,
			g->pending_ms);
	} else {
		fprintf(g->out, "# end of game %s\n", game->result);
	}
}

int cli_script(int argc, char **argv)
{
	const char *path = NULL, *tc_text = NULL;
	struct gen g = {.out = stdout, .player = CHESS_WHITE};
	struct time_control tc;
	struct pgn_game game;
	char err[160];
	int rc = parse_args(argc, argv, &g, &path, &tc_text);

	if (rc)
		return rc;
	if (tc_text && time_control_parse(tc_text, &tc, err, sizeof(err)))
		return usage("bad --time-control:", err);
	rc = read_game(path, &game);
	if (rc)
		return rc;
	if (!tc_text)
		tc_text = tag_time_control(&game, path, &tc);
	g.clock = tc.count > 0;
	g.think_max_ms = think_budget(&tc);
	write_header(&g, &game, tc_text);
	play_game(&g, &game);
	pgn_game_free(&game);
	if (fflush(g.out) || ferror(g.out)) {
		log_error(LOG_MAIN, "write error: %s", strerror(errno));
		return 1;
	}
	return 0;
}
