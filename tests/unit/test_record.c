/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The journal's vocabulary: every record type written and read back the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "game/record.h"

static struct game_record record(enum game_record_type type)
{
	struct game_record r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.ms = 123456;
	snprintf(r.author, sizeof(r.author), "alice+pin");
	return r;
}

/* Encode, decode, encode again: the same text, and the decoded record encodes as given. */
static void round_trip(const struct game_record *r, const char *want)
{
	char text[GAME_RECORD_MAX], again[GAME_RECORD_MAX], err[160] = "";
	struct game_record back;

	assert_true(game_record_encode(r, text, sizeof(text)) >= 0);
	if (want)
		assert_string_equal(text, want);
	if (game_record_decode(&back, game_record_name(r->type), text, r->ms, err, sizeof(err)))
		fail_msg("%s %s: %s", game_record_name(r->type), text, err);
	assert_int_equal(back.type, r->type);
	assert_true(game_record_encode(&back, again, sizeof(again)) >= 0);
	assert_string_equal(text, again);
}

static struct chess_clock a_clock(void)
{
	struct time_control tc;
	struct chess_clock c;

	assert_int_equal(time_control_parse("40/5400+30:1800+30", &tc, NULL, 0), 0);
	clock_init(&c, &tc);
	clock_press(&c, 1, 1000);
	clock_press(&c, 0, 61000);
	return c;
}

static void test_every_type(void **state)
{
	struct game_record r;

	(void)state;
	r = record(REC_GAME);
	snprintf(r.u.game.id, sizeof(r.u.game.id), "game-0007");
	r.u.game.player = CHESS_BLACK;
	r.u.game.mode = GAME_CASUAL;
	r.u.game.edition = RULES_2005;
	snprintf(r.u.game.time_control, sizeof(r.u.game.time_control), "900+10");
	snprintf(r.u.game.fen, sizeof(r.u.game.fen), "%s", CHESS_FEN_START);
	game_params_set_tag(&r.u.game, "Event", "Club \"Open\" \\ 2026");
	game_params_set_tag(&r.u.game, "Date", "2026.11.24");
	round_trip(&r, "game-0007 black 900+10 casual 2005 "
		       "\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\" "
		       "Event \"Club \\\"Open\\\" \\\\ 2026\" Date \"2026.11.24\"");
	r = record(REC_LIFT);
	r.u.peg.square = chess_square_parse("d7");
	r.u.peg.piece = CHESS_PIECE(CHESS_BLACK, CHESS_PAWN);
	round_trip(&r, "d7 p");
	r.u.peg.piece = 0;
	round_trip(&r, "d7 -");
	r = record(REC_PLACE);
	r.u.peg.square = chess_square_parse("h8");
	round_trip(&r, "h8");
	r = record(REC_SELECT);
	r.u.select = CHESS_KNIGHT;
	round_trip(&r, "N");
	r = record(REC_PROMOTION);
	r.u.promotion = chess_move_make(48, 56, CHESS_MOVE_PROMOTION, CHESS_QUEEN);
	round_trip(&r, "a7a8q");
	r = record(REC_MADE);
	r.u.made.ply = 31;
	r.u.made.move = chess_move_make(4, 6, CHESS_MOVE_CASTLING, CHESS_NO_PIECE);
	snprintf(r.u.made.san, sizeof(r.u.made.san), "O-O+");
	r.u.made.events = 4;
	round_trip(&r, "31 e1g1 O-O+ 4");
	r = record(REC_PROMOTION);
	r.u.promotion = CHESS_MOVE_NONE;
	round_trip(&r, "-");
	r = record(REC_WITHDRAWN);
	r.u.withdrawn.ply = 9;
	r.u.withdrawn.move = chess_move_make(12, 20, CHESS_MOVE_NORMAL, CHESS_NO_PIECE);
	round_trip(&r, "alice+pin 9 e2e3");
	r = record(REC_RULING);
	r.u.ruling.upheld = false;
	r.u.ruling.penalty_ms = 120000;
	r.clock = a_clock();
	round_trip(&r, NULL);
	r = record(REC_PRESS);
	r.u.press.color = CHESS_WHITE;
	r.u.press.kind = PRESS_MOVE;
	r.clock = a_clock();
	round_trip(&r, NULL);
	r = record(REC_COMPLETE);
	r.u.complete.ply = 2;
	r.u.complete.clk_ms = -1;
	round_trip(&r, "2 -1");
	r = record(REC_PAUSE);
	r.clock = a_clock();
	round_trip(&r, NULL);
	r = record(REC_MISMATCH);
	r.u.mismatch.empty = 1ull << 63;
	r.u.mismatch.occupied = 1;
	round_trip(&r, "8000000000000000 0000000000000001");
	r = record(REC_RESTORED);
	r.u.restored_by_move = true;
	round_trip(&r, "move");
	r = record(REC_FLAG);
	r.u.flag.color = CHESS_BLACK;
	snprintf(r.u.flag.result, sizeof(r.u.flag.result), "1/2-1/2");
	r.clock = a_clock();
	round_trip(&r, NULL);
	r = record(REC_RESULT);
	snprintf(r.u.result.result, sizeof(r.u.result.result), "1-0");
	r.u.result.termination = TERMINATION_TIME_FORFEIT;
	snprintf(r.u.result.reason, sizeof(r.u.result.reason), "Black's flag fell");
	round_trip(&r, "1-0 time-forfeit alice+pin \"Black's flag fell\"");
	r.u.result.replaces = true;
	round_trip(&r, "1-0 time-forfeit alice+pin \"Black's flag fell\" replaces");
	r = record(REC_RESTART);
	r.u.restart.plies = 40;
	round_trip(&r, "40");
	r.u.restart.run = 3;
	round_trip(&r, "40 3");
	r = record(REC_CHECKPOINT);
	r.clock = a_clock();
	round_trip(&r, NULL);
	r.u.checkpoint_recovered = true;
	round_trip(&r, NULL);
	r = record(REC_DRAW_OFFER);
	r.u.offer.color = CHESS_WHITE;
	r.u.offer.ply = 21;
	round_trip(&r, "alice+pin white 21");
	r = record(REC_CLAIM);
	r.u.claim.color = CHESS_BLACK;
	r.u.claim.kind = CLAIM_FIFTY;
	r.u.claim.correct = true;
	round_trip(&r, "alice+pin black fifty - yes");
	r.u.claim.move = chess_move_make(62, 45, CHESS_MOVE_NORMAL, CHESS_NO_PIECE);
	round_trip(&r, "alice+pin black fifty g8f6 yes");
	r = record(REC_RESIGN);
	r.u.resign_color = CHESS_BLACK;
	round_trip(&r, "alice+pin black");
	r = record(REC_APPROVE);
	round_trip(&r, "alice+pin");
	r = record(REC_TAG);
	snprintf(r.u.tag.name, sizeof(r.u.tag.name), "Round");
	snprintf(r.u.tag.value, sizeof(r.u.tag.value), "3.1");
	round_trip(&r, "alice+pin Round \"3.1\"");
	r = record(REC_ROLLBACK);
	r.u.rollback_ply = 0;
	round_trip(&r, "alice+pin 0");
	r = record(REC_ILLEGAL);
	r.u.illegal.color = CHESS_WHITE;
	r.u.illegal.ply = 21;
	r.u.illegal.penalty_ms = 120000;
	r.u.illegal.count = 1;
	r.clock = a_clock();
	round_trip(&r, NULL);
	r = record(REC_CLOCK_SET);
	r.clock = a_clock();
	round_trip(&r, NULL);
	r.u.counters_set = true;
	round_trip(&r, NULL);
	r = record(REC_CLOCK_CONTROL);
	r.clock = a_clock();
	snprintf(r.u.time_control, sizeof(r.u.time_control), "40/5400+30:1800+30");
	round_trip(&r, NULL);
	r = record(REC_FAIRPLAY);
	r.u.fairplay.breach = true;
	snprintf(r.u.fairplay.policy, sizeof(r.u.fairplay.policy), "club:eth0 idle local verify");
	snprintf(r.u.fairplay.state, sizeof(r.u.fairplay.state),
		 "eth0=192.0.2.5/24 wlan0+w=;wlan=unblocked;stockfish;;no;alice@tty1;;0;;0.10.0;"
		 "0123456789abcdef");
	snprintf(r.u.fairplay.what, sizeof(r.u.fairplay.what), "wlan unblocked");
	round_trip(&r, "yes \"club:eth0 idle local verify\" \"eth0=192.0.2.5/24 wlan0+w=;"
		       "wlan=unblocked;stockfish;;no;alice@tty1;;0;;0.10.0;0123456789abcdef\" "
		       "\"wlan unblocked\"");
	r = record(REC_RELAYED);
	r.u.relayed.ply = 1;
	r.u.relayed.move = chess_move_make(12, 28, CHESS_MOVE_NORMAL, CHESS_NO_PIECE);
	snprintf(r.u.relayed.san, sizeof(r.u.relayed.san), "e4");
	round_trip(&r, "alice+pin 1 e2e4 e4");
	/* An author that would split the record is kept in one word. */
	r = record(REC_APPROVE);
	snprintf(r.author, sizeof(r.author), "a b\"c");
	round_trip(&r, "a_b_c");
	r.author[0] = '\0';
	round_trip(&r, "-");
}

static void expect_bad(const char *type, const char *args)
{
	struct game_record r;
	char err[160] = "";

	if (game_record_decode(&r, type, args, 0, err, sizeof(err)) == 0)
		fail_msg("'%s %s' accepted", type, args);
	assert_true(err[0] != '\0');
}

static void test_bad_records(void **state)
{
	(void)state;
	expect_bad("teleport", "e2 e4");
	expect_bad("lift", "e9 P");
	expect_bad("lift", "e2");
	expect_bad("lift", "e2 X");
	expect_bad("lift", "e2 P extra");
	expect_bad("place", "e2 P");
	expect_bad("ruling", "arbiter maybe 0 running white 1 1 0 0 0 0 0 0 0 0 1 1 white -");
	expect_bad("select", "K");
	expect_bad("made", "0 e2e4 e4");
	expect_bad("made", "1 e2e9 e4");
	expect_bad("made", "1 e2e4");
	expect_bad("made", "1 e2e4 e4");
	expect_bad("press", "white move");
	expect_bad("press", "green move running white 1 1 0 0 0 0 0 0 0 0 1 1 white -");
	expect_bad("press", "white jump running white 1 1 0 0 0 0 0 0 0 0 1 1 white -");
	expect_bad("press", "white move sprinting white 1 1 0 0 0 0 0 0 0 0 1 1 white -");
	expect_bad("complete", "1 -2");
	expect_bad("mismatch", "ff 00");
	expect_bad("restored", "magic");
	expect_bad("flag", "white 2-0 flagged white 0 1 0 0 0 0 0 0 0 0 1 1 white white");
	expect_bad("result", "1-0 normal alice");
	expect_bad("result", "1-0 surrender alice \"x\"");
	expect_bad("result", "1-0 normal alice \"unterminated");
	expect_bad("claim", "alice white threefold - maybe");
	expect_bad("game", "g1 white - tournament 1999 \"8/8/8/8/8/8/8/K6k w - - 0 1\"");
	expect_bad("game", "g1 white - tournament 2023 8/8/8/8/8/8/8/K6k");
}

static void test_clock_text(void **state)
{
	struct chess_clock c = a_clock(), d;
	char text[CLOCK_TEXT_MAX], again[CLOCK_TEXT_MAX];
	int n;

	(void)state;
	/* White moved at 61000 after 60 s (+30 s); read at 70000, Black has used 9 s. */
	n = clock_encode(&c, 70000, text, sizeof(text));
	assert_true(n > 0 && (size_t)n < sizeof(text));
	assert_string_equal(text,
			    "running black 5370000 5400000 1 0 0 0 1 0 0 9000 5370000 5400000 "
			    "white - 60000 0");
	memset(&d, 0, sizeof(d));
	d.tc = c.tc;
	assert_int_equal(clock_decode(&d, text, 80000), n);
	/* The time used: White's 60 s turn, and Black's 9 s so far (then 19 s, read later). */
	assert_int_equal(clock_used(&c, CHESS_WHITE, 70000), 60000);
	assert_int_equal(clock_used(&c, CHESS_BLACK, 70000), 9000);
	assert_int_equal(clock_used(&d, CHESS_BLACK, 90000), 19000);
	/* Decoded later, the turn goes on from where it was read. */
	assert_int_equal(clock_remaining(&d, CHESS_BLACK, 81000), clock_remaining(&c, 1, 71000));
	clock_encode(&d, 80000, again, sizeof(again));
	assert_string_equal(text, again);
	assert_int_equal(clock_decode(&d, "running black 1 2", 0), -1);
	/* A journal from before the time used was kept: it counts from the restart. */
	memset(&d, 0, sizeof(d));
	d.tc = c.tc;
	assert_true(clock_decode(&d,
				 "running black 5370000 5400000 1 0 0 0 1 0 0 9000 5370000 5400000 "
				 "white -",
				 80000) > 0);
	assert_int_equal(clock_used(&d, CHESS_WHITE, 80000), 0);
	/* A period the time control does not have is refused when adopted. */
	d.period[0] = 5;
	assert_int_equal(clock_adopt(&c, &d), -1);
	/* A restart: the running clock stands at its journaled reading. */
	clock_rebase(&c, 500);
	assert_int_equal(c.state, CLOCK_PAUSED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_type),
	    cmocka_unit_test(test_bad_records),
	    cmocka_unit_test(test_clock_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
