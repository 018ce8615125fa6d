/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Move detection: one test per order in which people make moves on a pegged
 * board, plus the unexplained, restored and timing cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chess/detect.h"

#define GAP 100 /* ms between a hand's actions within a move: below the settle time */

struct harness {
	struct detect d;
	uint64_t now;
	int touches;
	int touch_squares[64];
	chess_piece touch_pieces[64];
};

static struct harness h;

static void start(const char *fen)
{
	struct chess_pos pos;
	struct chess_error err;
	memset(&h, 0, sizeof(h));
	assert_int_equal(chess_fen_parse(&pos, fen, &err), 0);
	detect_init(&h.d, NULL, &pos, chess_pos_occupancy(&pos));
	h.now = 1000;
}

static int sq(const char *name)
{
	int s = chess_square_parse(name);
	assert_true(s >= 0);
	return s;
}

static void edge(int square, bool occupied)
{
	struct detect_result r;
	if (detect_square(&h.d, square, occupied, h.now, &r) == DETECT_TOUCH) {
		assert_int_equal(r.square, square);
		h.touch_squares[h.touches] = r.square;
		h.touch_pieces[h.touches] = r.piece;
		h.touches++;
	}
}

/*
 * Actions separated by spaces, each `GAP` ms after the previous: "-e2" lifts,
 * "+e4" places, "~e4" is an extra off/on (or on/off) pair 5 ms apart that got
 * past debouncing, "/MS" waits.
 */
static void act_gap(const char *actions, uint64_t gap)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", actions);
	for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (tok[0] == '/') {
			h.now += (uint64_t)atoi(tok + 1);
			continue;
		}
		h.now += gap;
		int s = sq(tok + 1);
		if (tok[0] == '-') {
			edge(s, false);
		} else if (tok[0] == '+') {
			edge(s, true);
		} else {
			bool was = (h.d.sensed >> s) & 1;
			edge(s, !was);
			h.now += 5;
			edge(s, was);
		}
	}
}

static void act(const char *actions)
{
	act_gap(actions, GAP);
}

/* Poll at each deadline until something other than NONE comes out or there is no deadline. */
static enum detect_kind wait_result(struct detect_result *r)
{
	for (int i = 0; i < 10; i++) {
		uint64_t dl = detect_deadline(&h.d);
		if (dl == DETECT_NO_DEADLINE)
			return DETECT_NONE;
		if (dl > h.now)
			h.now = dl;
		enum detect_kind k = detect_poll(&h.d, h.now, r);
		if (k != DETECT_NONE)
			return k;
	}
	fail_msg("deadline never settles");
	return DETECT_NONE;
}

static chess_move uci(const char *text)
{
	chess_move m;
	assert_int_equal(chess_move_parse_uci(&h.d.pos, text, &m), 0);
	return m;
}

/* The board must come out as exactly this move (queen placeholder for promotions). */
static void expect_move(const char *text)
{
	struct detect_result r;
	char got[8];
	enum detect_kind k = wait_result(&r);
	assert_int_equal(k, DETECT_MOVE);
	chess_move_to_uci(r.move, got, sizeof(got));
	assert_string_equal(got, text);
	assert_true(r.event_count > 0);
	detect_commit(&h.d, r.move);
}

static void expect_still(void)
{
	struct detect_result r;
	assert_int_equal(wait_result(&r), DETECT_NONE);
	assert_int_equal(detect_deadline(&h.d), DETECT_NO_DEADLINE);
}

static void expect_fen_board(const char *fen)
{
	struct chess_pos pos;
	struct chess_error err;
	assert_int_equal(chess_fen_parse(&pos, fen, &err), 0);
	assert_memory_equal(pos.board, h.d.pos.board, sizeof(pos.board));
}

#define START	     CHESS_FEN_START
#define KNIGHT_TAKES "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1"

/* ---------------------------------------------------------------- ordinary moves */

static void test_quiet_move(void **state)
{
	(void)state;
	start(START);
	act("-e2 +e4");
	expect_move("e2e4");
	assert_int_equal(h.d.pos.side, CHESS_BLACK);
	expect_still();
	assert_int_equal(h.touches, 1);
	assert_int_equal(h.touch_pieces[0], CHESS_PIECE(CHESS_WHITE, CHESS_PAWN));
}

static void test_capture_captured_piece_first(void **state)
{
	(void)state;
	start(KNIGHT_TAKES);
	act("-d5 /800 -c3 +d5");
	expect_move("c3d5");
	expect_still();
}

static void test_capture_captured_piece_first_with_pause(void **state)
{
	(void)state;
	start(KNIGHT_TAKES);
	act("-d5");
	/* The captured pawn is in hand: nothing is decided while the player thinks. */
	struct detect_result r;
	h.now += 2000;
	assert_int_equal(detect_poll(&h.d, h.now, &r), DETECT_NONE);
	act("-c3 +d5");
	expect_move("c3d5");
}

static void test_capture_capturing_piece_first(void **state)
{
	(void)state;
	start(KNIGHT_TAKES);
	act("-c3 -d5 +d5");
	expect_move("c3d5");
	expect_still();
}

/* The victim touched and put back, then the capture, all within the settle time: the
 * touch does not make the capture's destination a stray peg (a property test found it). */
static void test_capture_after_victim_touched_and_put_back(void **state)
{
	(void)state;
	start(KNIGHT_TAKES);
	act("-d5 +d5 -d5 -c3 +d5");
	expect_move("c3d5");
	expect_still();
	start(KNIGHT_TAKES);
	act("-d5 +d5 -c3 -d5 +d5");
	expect_move("c3d5");
	expect_still();
	/* A pawn capture, the victim first touched, as in 1. d4 e5 2. Nf3 exd4. */
	start("rnbqkbnr/pppp1ppp/8/4p3/3P4/5N2/PPP1PPPP/RNBQKB1R b KQkq - 1 2");
	act("-d4 +d4 -e5 -d4 +d4");
	expect_move("e5d4");
	expect_still();
}

/* The victim touched and put back, the capturing piece lifted and held: no capture (the
 * victim's hole was not refilled after the capturing piece left). */
static void test_victim_put_back_then_capturing_piece_held(void **state)
{
	(void)state;
	start(KNIGHT_TAKES);
	act("-d5 +d5 -c3");
	struct detect_result r;
	assert_int_equal(wait_result(&r), DETECT_UNEXPLAINED);
	assert_int_equal(r.should_be_occupied, (uint64_t)1 << sq("c3"));
}

static void test_capturing_piece_lifted_is_not_a_capture(void **state)
{
	(void)state;
	start(KNIGHT_TAKES);
	/* Knight in hand over d5, the pawn never lifted: occupancy equals Nxd5 but no capture. */
	act("-c3");
	struct detect_result r;
	enum detect_kind k = wait_result(&r);
	assert_int_equal(k, DETECT_UNEXPLAINED);
	assert_int_equal(r.should_be_empty, 0);
	assert_int_equal(r.should_be_occupied, (uint64_t)1 << sq("c3"));
}

/* ---------------------------------------------------------------- castling */

struct castle_case {
	const char *fen;
	const char *king_first, *rook_first, *both_lifted;
	const char *uci;
};

static const struct castle_case castles[] = {
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "-e1 +g1 -h1 +f1", "-h1 +f1 -e1 +g1",
     "-e1 -h1 +g1 +f1", "e1g1"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "-e1 +c1 -a1 +d1", "-a1 +d1 -e1 +c1",
     "-a1 -e1 +d1 +c1", "e1c1"},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "-e8 +g8 -h8 +f8", "-h8 +f8 -e8 +g8",
     "-h8 -e8 +f8 +g8", "e8g8"},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "-e8 +c8 -a8 +d8", "-a8 +d8 -e8 +c8",
     "-e8 -a8 +c8 +d8", "e8c8"},
};

static void castle_each(int order)
{
	for (size_t i = 0; i < sizeof(castles) / sizeof(castles[0]); i++) {
		const struct castle_case *c = &castles[i];
		start(c->fen);
		act(order == 0 ? c->king_first : order == 1 ? c->rook_first : c->both_lifted);
		expect_move(c->uci);
		expect_still();
	}
}

static void test_castling_king_first(void **state)
{
	(void)state;
	castle_each(0);
}

static void test_castling_rook_first(void **state)
{
	(void)state;
	castle_each(1);
}

static void test_castling_both_lifted(void **state)
{
	(void)state;
	castle_each(2);
}

static void test_castling_rook_first_slowly(void **state)
{
	(void)state;
	/* The rook stands on f1 for a while before the king is lifted: still castling. */
	struct detect_result r;
	start(castles[0].fen);
	act("-h1 +f1");
	h.now = detect_deadline(&h.d);
	assert_int_equal(detect_poll(&h.d, h.now, &r), DETECT_NONE);
	assert_true(detect_deadline(&h.d) > h.now + 800);
	act("/800 -e1 +g1");
	expect_move("e1g1");
}

static void test_rook_move_beside_king_is_made_after_wait(void **state)
{
	(void)state;
	struct detect_result r;
	start(castles[0].fen);
	act("-h1 +f1");
	uint64_t placed = h.now;
	assert_int_equal(wait_result(&r), DETECT_MOVE);
	assert_true(h.now >= placed + h.d.cfg.castle_wait_ms);
	char got[8];
	chess_move_to_uci(r.move, got, sizeof(got));
	assert_string_equal(got, "h1f1");
}

static void test_rook_move_flushed_by_clock_press(void **state)
{
	(void)state;
	struct detect_result r;
	start(castles[0].fen);
	act("-h1 +f1");
	h.now += 400;
	assert_int_equal(detect_poll(&h.d, h.now, &r), DETECT_NONE);
	assert_int_equal(detect_flush(&h.d, h.now, &r), DETECT_MOVE);
	assert_int_equal(r.move, uci("h1f1"));
}

/* ---------------------------------------------------------------- en passant */

#define EP_FEN "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"

static void test_en_passant_pawn_first(void **state)
{
	(void)state;
	start(EP_FEN);
	act("-e5 -d5 +d6");
	expect_move("e5d6");
	expect_fen_board("4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
	expect_still();
}

static void test_en_passant_captured_pawn_first(void **state)
{
	(void)state;
	start(EP_FEN);
	act("-d5 -e5 +d6");
	expect_move("e5d6");
	expect_still();
}

static void test_en_passant_captured_pawn_last(void **state)
{
	(void)state;
	start(EP_FEN);
	act("-e5 +d6 /500 -d5");
	expect_move("e5d6");
	expect_still();
}

/* ---------------------------------------------------------------- promotion */

#define PROMO_FEN "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1"

static void promote(const char *actions, const char *from_to)
{
	static const enum chess_piece_type pieces[] = {CHESS_QUEEN, CHESS_ROOK, CHESS_BISHOP,
						       CHESS_KNIGHT};
	for (int i = 0; i < 4; i++) {
		struct detect_result r;
		start(PROMO_FEN);
		act(actions);
		assert_int_equal(wait_result(&r), DETECT_MOVE);
		assert_true(r.promotion_pending);
		assert_int_equal(chess_move_from(r.move), sq(from_to));
		assert_int_equal(chess_move_to(r.move), sq(from_to + 2));
		/* Waiting for the choice: nothing more comes out. */
		assert_int_equal(wait_result(&r), DETECT_NONE);
		chess_move chosen =
		    chess_move_make(sq(from_to), sq(from_to + 2), CHESS_MOVE_PROMOTION, pieces[i]);
		detect_commit(&h.d, chosen);
		assert_int_equal(CHESS_PIECE_TYPE(h.d.pos.board[sq(from_to + 2)]), pieces[i]);
		assert_int_equal(h.d.pos.board[sq(from_to)], 0);
		expect_still();
	}
}

static void test_promotion_quiet(void **state)
{
	(void)state;
	promote("-e7 +e8", "e7e8");
	promote("+e8 -e7", "e7e8"); /* the new piece first (Art. 4.6 either order) */
}

static void test_promotion_capture(void **state)
{
	(void)state;
	promote("-d8 -e7 +d8", "e7d8");
	promote("-e7 -d8 +d8", "e7d8");
}

/* ---------------------------------------------------------------- touches */

static void test_lift_and_put_back(void **state)
{
	(void)state;
	start(START);
	act("-g1 /700 +g1");
	assert_int_equal(h.touches, 1);
	assert_int_equal(h.touch_squares[0], sq("g1"));
	assert_int_equal(h.touch_pieces[0], CHESS_PIECE(CHESS_WHITE, CHESS_KNIGHT));
	expect_still();
	assert_int_equal(h.d.pos.side, CHESS_WHITE);
	/* Then a real move with another piece. */
	act("-d7");
	assert_int_equal(h.touch_pieces[1], CHESS_PIECE(CHESS_BLACK, CHESS_PAWN));
	act("+d7 -d2 +d4");
	expect_move("d2d4");
}

static void test_touches_once_per_square(void **state)
{
	(void)state;
	start(START);
	act("-g1 +g1 /400 -g1 +g1 /400 -b1 +b1 -g1 +f3");
	assert_int_equal(h.touches, 2);
	assert_int_equal(h.touch_squares[0], sq("g1"));
	assert_int_equal(h.touch_squares[1], sq("b1"));
	expect_move("g1f3");
	/* A new move: touches count again. */
	act("-g8 +f6");
	assert_int_equal(h.touches, 3);
	assert_int_equal(h.touch_pieces[2], CHESS_PIECE(CHESS_BLACK, CHESS_KNIGHT));
	expect_move("g8f6");
}

static void test_piece_carried_over_holes(void **state)
{
	(void)state;
	start("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
	/* The bishop brushes e2, d3 and c4 on its way to b5. */
	act_gap("-f1 +e2 -e2 +d3 -d3 +c4 -c4 +b5", 40);
	expect_move("f1b5");
	expect_still();
}

/* ---------------------------------------------------------------- fast replies */

static void test_fast_reply(void **state)
{
	(void)state;
	start(START);
	act("-e2 +e4 -e7 +e5");
	expect_move("e2e4");
	expect_move("e7e5");
	expect_still();
}

static void test_fast_reply_recapture_same_square(void **state)
{
	(void)state;
	start("3qk3/8/8/3p4/8/2N5/8/4K3 w - - 0 1");
	act("-d5 -c3 +d5 -d5 -d8 +d5");
	expect_move("c3d5");
	expect_move("d8d5");
	expect_fen_board("4k3/8/8/3q4/8/8/8/4K3 w - - 0 2");
	expect_still();
}

static void test_fast_reply_capture_of_moved_piece(void **state)
{
	(void)state;
	start("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
	act("-e2 +e4 -d5 -e4 +e4");
	expect_move("e2e4");
	expect_move("d5e4");
	expect_still();
}

static void test_fast_reply_after_castling(void **state)
{
	(void)state;
	start(castles[0].fen);
	act("-h1 +f1 -e1 +g1 -e8 +c8 -a8 +d8");
	expect_move("e1g1");
	expect_move("e8c8");
}

/* Regression: five moves with no still moment between them were more than the chain
 * search took, and the board was reported unexplained. */
static void test_fast_replies_five_moves(void **state)
{
	(void)state;
	start(START);
	act("-e2 +e4 -e7 +e5 -g1 +f3 -b8 +c6 -f1 +b5");
	expect_move("e2e4");
	expect_move("e7e5");
	expect_move("g1f3");
	expect_move("b8c6");
	expect_move("f1b5");
	expect_still();
}

/* Regression: f7-f6 carried over f5, then exf6 at once, was taken as f7-f5 and exf6 e.p.
 * (with a piece put on f6 before the e5 pawn left its hole). */
static void test_carry_over_double_step_then_capture(void **state)
{
	(void)state;
	start("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
	act("-f7 +f5 -f5 +f6 -e5 -f6 +f6");
	expect_move("f7f6");
	expect_move("e5f6");
	expect_still();
}

/* ---------------------------------------------------------------- late or faulty sensors */

/* Board case 5: the source's sensor reports after the destination's (30 ms of sensor lag):
 * the still board shows exactly the quiet move, and it is made. */
static void test_quiet_move_source_reports_late(void **state)
{
	(void)state;
	start(START);
	act("+e4 /30 -e2");
	expect_move("e2e4");
	expect_still();
	/* A sticky contact that lets go seconds later. */
	act("/2000 +e5 /3000 -e7");
	expect_move("e7e5");
	expect_still();
}

/* Board case 6: the source's sensor is stuck occupied; the board is unexplained until it
 * recovers, and then the move it shows is made. */
static void test_stuck_source_recovers(void **state)
{
	struct detect_result r;

	(void)state;
	start(START);
	act("+f3");
	assert_int_equal(wait_result(&r), DETECT_UNEXPLAINED);
	act("/5000 -g1");
	expect_move("g1f3");
	expect_still();
}

/* A late source never makes a capture: the victim touched and put back, then the capturing
 * piece lifted, is not a capture (an earlier detection case, kept as it was). */
static void test_late_source_capture_refused(void **state)
{
	struct detect_result r;

	(void)state;
	start(KNIGHT_TAKES);
	act("-d5 +d5 -c3");
	assert_true(wait_result(&r) != DETECT_MOVE);
}

/* A stray peg put on the destination and taken away again before the piece leaves does not
 * refuse the move. */
static void test_stray_peg_on_destination_removed(void **state)
{
	(void)state;
	start(START);
	act("+e4 -e4 -e2 +e4");
	expect_move("e2e4");
	expect_still();
}

/* Board case 7: the opponent's rook move replicated while castling is still legal, then the
 * player lifts an own piece within the castling wait: the rook move is made at once; the
 * player's lift is the start of their reply, not a mismatch. */
static void test_rook_move_then_next_movers_lift(void **state)
{
	struct detect_result r;

	(void)state;
	start("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1");
	act("-h8 +f8 /300 -g2");
	assert_int_equal(wait_result(&r), DETECT_MOVE);
	assert_int_equal(r.move, uci("h8f8"));
	detect_commit(&h.d, r.move);
	act("+g3");
	expect_move("g2g3");
	expect_still();
}

/* The same with any move: a reply begun within the settle time of the move before it. */
static void test_move_then_reply_begun_at_once(void **state)
{
	struct detect_result r;

	(void)state;
	start(START);
	act_gap("-e2 +e4 -e7", 50);
	assert_int_equal(wait_result(&r), DETECT_MOVE);
	assert_int_equal(r.move, uci("e2e4"));
	detect_commit(&h.d, r.move);
	act("/2000 +e5");
	expect_move("e7e5");
	expect_still();
}

/* The mover's own further lift after their move is not a reply: nothing is made early. */
static void test_own_lift_after_move_is_no_reply(void **state)
{
	struct detect_result r;

	(void)state;
	start(START);
	act_gap("-e2 +e4 -d2", 50);
	assert_true(wait_result(&r) != DETECT_MOVE);
}

static void test_promotion_committed_at_next_lift(void **state)
{
	(void)state;
	struct detect_result r;
	start("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
	act("-a7 +a8");
	assert_int_equal(wait_result(&r), DETECT_MOVE);
	assert_true(r.promotion_pending);
	/* The replicated reply starts before the choice is final. */
	act("-e8");
	detect_commit(&h.d, chess_move_make(sq("a7"), sq("a8"), CHESS_MOVE_PROMOTION, CHESS_ROOK));
	act("+e7");
	expect_move("e8e7");
}

/* ---------------------------------------------------------------- chatter */

static void test_chatter(void **state)
{
	(void)state;
	/* An extra off/on on the moving piece's hole, the target and an unrelated piece. */
	start(START);
	act("~e2 -e2 +e4 ~e4");
	expect_move("e2e4");
	act("-e7 ~a8 +e5");
	expect_move("e7e5");
	act("-g1 ~g1 ~h3 +f3");
	expect_move("g1f3");
	expect_still();
}

static void test_chatter_on_other_enemy_piece_during_capture(void **state)
{
	(void)state;
	/* The queen can take on d5 or a4; the rook on a4 bounces while she takes on d5,
	 * during the move or after it. */
	start("4k3/8/8/3p4/r7/8/8/3QK3 w - - 0 1");
	act("-d1 ~a4 -d5 +d5");
	expect_move("d1d5");
	start("4k3/8/8/3p4/r7/8/8/3QK3 w - - 0 1");
	act("-d1 -d5 /300 +d5 ~a4");
	expect_move("d1d5");
}

static void test_events_overflow(void **state)
{
	(void)state;
	start(KNIGHT_TAKES);
	act("-d5");
	/* A noisy sensor fills the event buffer many times over. */
	for (int i = 0; i < DETECT_MAX_EVENTS; i++)
		act_gap("~a1", 20);
	assert_true(h.d.event_count <= DETECT_MAX_EVENTS);
	act("-c3 +d5");
	expect_move("c3d5");
	expect_still();
}

/* ---------------------------------------------------------------- unexplained boards */

static void test_unexplained_then_restored(void **state)
{
	(void)state;
	struct detect_result r;
	start(START);
	act("-e2 +e5");
	uint64_t placed = h.now;
	assert_int_equal(detect_poll(&h.d, placed + h.d.cfg.settle_ms, &r), DETECT_NONE);
	assert_int_equal(detect_deadline(&h.d), placed + h.d.cfg.mismatch_ms);
	assert_int_equal(detect_poll(&h.d, placed + h.d.cfg.mismatch_ms - 1, &r), DETECT_NONE);
	h.now = placed + h.d.cfg.mismatch_ms;
	assert_int_equal(detect_poll(&h.d, h.now, &r), DETECT_UNEXPLAINED);
	assert_int_equal(r.should_be_empty, (uint64_t)1 << sq("e5"));
	assert_int_equal(r.should_be_occupied, (uint64_t)1 << sq("e2"));
	assert_int_equal(detect_differences(&h.d), r.should_be_empty | r.should_be_occupied);
	assert_int_equal(detect_deadline(&h.d), DETECT_NO_DEADLINE);
	act("-e5");
	/* Still wrong (a pawn in hand): no second report. */
	assert_int_equal(wait_result(&r), DETECT_NONE);
	act("+e2");
	assert_int_equal(wait_result(&r), DETECT_RESTORED);
	expect_still();
	act("-d2 +d4");
	expect_move("d2d4");
}

static void test_unexplained_then_move_completed(void **state)
{
	(void)state;
	struct detect_result r;
	start(START);
	act("-e2 +e5");
	assert_int_equal(wait_result(&r), DETECT_UNEXPLAINED);
	act("-e5 +e4");
	expect_move("e2e4");
	expect_still();
}

static void test_pieces_in_hand_timing(void **state)
{
	(void)state;
	struct detect_result r;
	start(START);
	act("-g1");
	uint64_t lifted = h.now;
	assert_int_equal(detect_poll(&h.d, lifted + h.d.cfg.settle_ms, &r), DETECT_NONE);
	assert_int_equal(detect_deadline(&h.d), lifted + h.d.cfg.in_hand_ms);
	assert_int_equal(detect_poll(&h.d, lifted + h.d.cfg.mismatch_ms, &r), DETECT_NONE);
	assert_int_equal(detect_poll(&h.d, lifted + h.d.cfg.in_hand_ms, &r), DETECT_UNEXPLAINED);
	assert_int_equal(r.should_be_empty, 0);
	assert_int_equal(r.should_be_occupied, (uint64_t)1 << sq("g1"));
	h.now = lifted + h.d.cfg.in_hand_ms;
	act("+f3");
	expect_move("g1f3");
}

static void test_deadlines(void **state)
{
	(void)state;
	struct detect_result r;
	start(START);
	assert_int_equal(detect_deadline(&h.d), DETECT_NO_DEADLINE);
	act("-e2");
	assert_int_equal(detect_deadline(&h.d), h.now + h.d.cfg.settle_ms);
	/* Not still long enough yet. */
	act("+e4");
	assert_int_equal(detect_poll(&h.d, h.now + 10, &r), DETECT_NONE);
	assert_int_equal(detect_deadline(&h.d), h.now + h.d.cfg.settle_ms);
	expect_move("e2e4");
	assert_int_equal(detect_deadline(&h.d), DETECT_NO_DEADLINE);
}

static void test_set_position_and_setup(void **state)
{
	(void)state;
	struct detect_result r;
	struct chess_pos pos;
	struct chess_error err;
	/* The pegs are not there yet at start: unexplained until set up, then restored. */
	assert_int_equal(chess_fen_parse(&pos, START, &err), 0);
	memset(&h, 0, sizeof(h));
	detect_init(&h.d, NULL, &pos, chess_pos_occupancy(&pos) & ~((uint64_t)1 << sq("d1")));
	assert_int_equal(wait_result(&r), DETECT_UNEXPLAINED);
	assert_int_equal(r.should_be_occupied, (uint64_t)1 << sq("d1"));
	h.now += 100;
	act("+d1");
	assert_int_equal(wait_result(&r), DETECT_RESTORED);
	/* A rollback to a position after 1.e4: the board must follow. */
	act("-e2 +e4");
	expect_move("e2e4");
	assert_int_equal(chess_fen_parse(&pos, START, &err), 0);
	detect_set_position(&h.d, &pos);
	assert_int_equal(wait_result(&r), DETECT_UNEXPLAINED);
	act("-e4 +e2");
	assert_int_equal(wait_result(&r), DETECT_RESTORED);
}

static void test_commit_of_other_move(void **state)
{
	(void)state;
	start(START);
	/* The daemon is given a move the board does not show yet; the board then follows. */
	detect_commit(&h.d, uci("e2e4"));
	assert_int_equal(h.d.pos.side, CHESS_BLACK);
	act("-e2 +e4");
	expect_still();
	act("-c7 +c5");
	expect_move("c7c5");
}

static void test_restart_replay_same_time(void **state)
{
	(void)state;
	struct detect_result r;
	/* After a restart the journaled touches and the pegs are fed at one instant, in
	 * square order: the capture must still count. */
	start("k7/8/5N2/3p4/8/8/8/4K3 w - - 0 1");
	detect_square(&h.d, sq("d5"), false, h.now, &r);
	detect_square(&h.d, sq("d5"), true, h.now, &r);
	detect_square(&h.d, sq("f6"), false, h.now, &r);
	expect_move("f6d5");
}

static void test_flush_does_not_hurry_mismatch(void **state)
{
	(void)state;
	struct detect_result r;
	start(START);
	act("-e2 +e5");
	assert_int_equal(detect_flush(&h.d, h.now + 1, &r), DETECT_NONE);
	assert_int_equal(detect_deadline(&h.d), h.now + h.d.cfg.mismatch_ms);
	/* A flush right after a completed move decides it without the settle time. */
	act("-e5 +e4");
	assert_int_equal(detect_flush(&h.d, h.now + 1, &r), DETECT_MOVE);
	assert_int_equal(r.move, uci("e2e4"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_quiet_move),
	    cmocka_unit_test(test_capture_captured_piece_first),
	    cmocka_unit_test(test_capture_captured_piece_first_with_pause),
	    cmocka_unit_test(test_capture_capturing_piece_first),
	    cmocka_unit_test(test_capturing_piece_lifted_is_not_a_capture),
	    cmocka_unit_test(test_capture_after_victim_touched_and_put_back),
	    cmocka_unit_test(test_victim_put_back_then_capturing_piece_held),
	    cmocka_unit_test(test_castling_king_first),
	    cmocka_unit_test(test_castling_rook_first),
	    cmocka_unit_test(test_castling_both_lifted),
	    cmocka_unit_test(test_castling_rook_first_slowly),
	    cmocka_unit_test(test_rook_move_beside_king_is_made_after_wait),
	    cmocka_unit_test(test_rook_move_flushed_by_clock_press),
	    cmocka_unit_test(test_en_passant_pawn_first),
	    cmocka_unit_test(test_en_passant_captured_pawn_first),
	    cmocka_unit_test(test_en_passant_captured_pawn_last),
	    cmocka_unit_test(test_promotion_quiet),
	    cmocka_unit_test(test_promotion_capture),
	    cmocka_unit_test(test_lift_and_put_back),
	    cmocka_unit_test(test_touches_once_per_square),
	    cmocka_unit_test(test_piece_carried_over_holes),
	    cmocka_unit_test(test_fast_reply),
	    cmocka_unit_test(test_fast_reply_recapture_same_square),
	    cmocka_unit_test(test_fast_reply_capture_of_moved_piece),
	    cmocka_unit_test(test_fast_reply_after_castling),
	    cmocka_unit_test(test_quiet_move_source_reports_late),
	    cmocka_unit_test(test_stuck_source_recovers),
	    cmocka_unit_test(test_late_source_capture_refused),
	    cmocka_unit_test(test_stray_peg_on_destination_removed),
	    cmocka_unit_test(test_rook_move_then_next_movers_lift),
	    cmocka_unit_test(test_move_then_reply_begun_at_once),
	    cmocka_unit_test(test_own_lift_after_move_is_no_reply),
	    cmocka_unit_test(test_promotion_committed_at_next_lift),
	    cmocka_unit_test(test_chatter),
	    cmocka_unit_test(test_chatter_on_other_enemy_piece_during_capture),
	    cmocka_unit_test(test_events_overflow),
	    cmocka_unit_test(test_unexplained_then_restored),
	    cmocka_unit_test(test_unexplained_then_move_completed),
	    cmocka_unit_test(test_pieces_in_hand_timing),
	    cmocka_unit_test(test_deadlines),
	    cmocka_unit_test(test_set_position_and_setup),
	    cmocka_unit_test(test_commit_of_other_move),
	    cmocka_unit_test(test_fast_replies_five_moves),
	    cmocka_unit_test(test_carry_over_double_step_then_capture),
	    cmocka_unit_test(test_restart_replay_same_time),
	    cmocka_unit_test(test_flush_does_not_hurry_mismatch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
