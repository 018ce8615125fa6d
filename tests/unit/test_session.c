/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game session driven directly, without board hardware: square and button events
 * in, game.pgn, speech.log and the journal out (DESIGN 3 and 4.4).  The voice is real
 * (eSpeak NG thread) with no audio sink, so speech.log is written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "chess/chess.h"
#include "daemon/config.h"
#include "daemon/journal.h"
#include "base/log.h"
#include "daemon/session.h"
#include "voice/voice.h"

#include "voice_testutil.h"

/* The settle time is 150 ms: a tick this long after the last peg makes the move. */
#define SETTLE_TICK 200

struct fixture {
	char dir[64];
	struct config cfg;
	struct voice *voice;
	struct session *s;
	uint64_t now;
};

static void fixture_voice(struct fixture *f)
{
	f->voice = tu_voice(f->dir, VOICE_SINK_NONE, "null", "null");
	assert_non_null(f->voice);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	tu_tempdir(f->dir, "session");
	log_set_level(LOG_LEVEL_ERROR);
	config_defaults(&f->cfg);
	snprintf(f->cfg.state_dir, sizeof(f->cfg.state_dir), "%s", f->dir);
	f->cfg.voice.sink = VOICE_SINK_NONE;
	f->cfg.sync = false;
	fixture_voice(f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->s)
		session_close(f->s, f->now);
	if (f->voice)
		voice_stop(f->voice);
	tu_rmdir(f->dir);
	free(f);
	return 0;
}

static void open_game(struct fixture *f, int player, const char *tc, const char *fen)
{
	struct session_setup setup = {.player = player, .virtual_time = true};
	char err[300] = "";

	snprintf(setup.time_control, sizeof(setup.time_control), "%s", tc);
	snprintf(setup.fen, sizeof(setup.fen), "%s", fen ? fen : CHESS_FEN_START);
	f->s = session_open(&f->cfg, &setup, f->voice, f->now, err, sizeof(err));
	if (!f->s)
		fail_msg("session_open: %s", err);
	session_board_ready(f->s, session_expected_occupancy(f->s), f->now);
}

static void close_game(struct fixture *f)
{
	session_close(f->s, f->now);
	f->s = NULL;
}

static int sq(const char *name)
{
	int s = chess_square_parse(name);

	assert_true(s >= 0);
	return s;
}

static void board_event(struct fixture *f, enum board_event_type type, int index, bool active)
{
	struct board_event ev = {
	    .time_ms = f->now + 20, /* confirmed after the debounce time */
	    .type = type,
	    .index = index,
	    .active = active,
	    .change_ms = f->now,
	};

	session_board_event(f->s, &ev);
}

static void lift(struct fixture *f, const char *square)
{
	board_event(f, BOARD_EVENT_SQUARE, sq(square), false);
	f->now += 100;
}

static void place(struct fixture *f, const char *square)
{
	board_event(f, BOARD_EVENT_SQUARE, sq(square), true);
	f->now += 100;
}

/* Time passes with ticks at the deadlines (as the main loop runs them), up to now + ms. */
static void wait_ms(struct fixture *f, uint64_t ms)
{
	uint64_t end = f->now + ms;

	for (int i = 0; i < 100; i++) {
		uint64_t d = session_deadline(f->s, f->now);

		if (d > end)
			break;
		if (d > f->now)
			f->now = d;
		session_tick(f->s, f->now);
	}
	f->now = end;
	session_tick(f->s, f->now);
}

/* A quiet move: lift, place, still for the settle time. */
static void move(struct fixture *f, const char *from, const char *to)
{
	lift(f, from);
	place(f, to);
	wait_ms(f, SETTLE_TICK);
}

/* A capture, the captured piece taken off first. */
static void capture(struct fixture *f, const char *from, const char *to)
{
	lift(f, to);
	lift(f, from);
	place(f, to);
	wait_ms(f, SETTLE_TICK);
}

static void press(struct fixture *f, enum board_button b)
{
	board_event(f, BOARD_EVENT_BUTTON, b, true);
	f->now += 80;
	board_event(f, BOARD_EVENT_BUTTON, b, false);
	f->now += 100;
	session_tick(f->s, f->now);
}

static char *state_file(struct fixture *f, const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	return tu_read_file(path, NULL);
}

static bool state_exists(struct fixture *f, const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	return access(path, F_OK) == 0;
}

static char *speech(struct fixture *f)
{
	voice_wait_idle(f->voice);
	return state_file(f, "speech.log");
}

/* The lines of speech.log after offset (bytes), on channel ch, that contain want. */
static int count_lines(const char *log, size_t offset, const char *ch, const char *want)
{
	int n = 0;
	const char *p = log + offset;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[600];

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		{
			const char *sp = strchr(line, ' ');

			if (sp && !strncmp(sp + 1, ch, strlen(ch)) && sp[1 + strlen(ch)] == ' ' &&
			    (!want || strstr(sp + 2 + strlen(ch), want)))
				n++;
		}
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

static size_t speech_size(struct fixture *f)
{
	char *log = speech(f);
	size_t n = log ? strlen(log) : 0;

	free(log);
	return n;
}

/* The last line of speech.log on a channel (text only), into buf. */
static bool last_line(const char *log, const char *ch, char *buf, size_t size)
{
	const char *p = log;
	bool found = false;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *sp = memchr(p, ' ', len);

		if (sp && (size_t)(sp + 1 - p) + strlen(ch) + 1 <= len &&
		    !strncmp(sp + 1, ch, strlen(ch)) && sp[1 + strlen(ch)] == ' ') {
			const char *text = sp + 2 + strlen(ch);

			snprintf(buf, size, "%.*s", (int)(len - (size_t)(text - p)), text);
			found = true;
		}
		p = nl ? nl + 1 : NULL;
	}
	return found;
}

static void assert_contains(const char *text, const char *want)
{
	if (!text || !strstr(text, want))
		fail_msg("expected '%s' in:\n%s", want, text ? text : "(null)");
}

static void assert_lacks(const char *text, const char *unwanted)
{
	if (text && strstr(text, unwanted))
		fail_msg("did not expect '%s' in:\n%s", unwanted, text);
}

/* ------------------------------------------------------------------ tests */

static void test_new_game_files(void **state)
{
	struct fixture *f = *state;
	char *pgn, *journal;

	open_game(f, CHESS_WHITE, "-", NULL);
	assert_false(session_resumed(f->s));
	assert_int_equal(session_move_count(f->s), 0);
	assert_false(session_game_over(f->s));
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "[Event \"?\"]");
	assert_contains(pgn, "[Result \"*\"]");
	assert_contains(pgn, "[Date \"????.??.??\"]"); /* unknown in virtual time */
	assert_lacks(pgn, "TimeControl");	       /* no clock */
	free(pgn);
	journal = state_file(f, "journal");
	assert_contains(journal, " 0 game game-0001 white - tournament " CHESS_FEN_START);
	free(journal);
}

static void test_quiet_move_and_capture(void **state)
{
	struct fixture *f = *state;
	char *pgn, *log, *journal;

	open_game(f, CHESS_WHITE, "-", NULL);
	f->now = 1000;
	move(f, "e2", "e4");
	assert_int_equal(session_move_count(f->s), 1);
	move(f, "d7", "d5");
	capture(f, "e4", "d5");
	assert_int_equal(session_move_count(f->s), 3);

	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "1. e4 d5 2. exd5");
	assert_lacks(pgn, "%clk");
	free(pgn);
	log = speech(f);
	assert_int_equal(count_lines(log, 0, "public", "Bauer Eva zwei Eva vier"), 1);
	assert_int_equal(count_lines(log, 0, "public", "Bauer David sieben David fünf"), 1);
	assert_int_equal(count_lines(log, 0, "public", "Bauer Eva vier schlägt David fünf"), 1);
	assert_int_equal(count_lines(log, 0, "private", NULL), 0);
	free(log);
	journal = state_file(f, "journal");
	assert_contains(journal, "made 1 e2e4 e4");
	assert_contains(journal, "made 3 e4d5 exd5");
	assert_contains(journal, "touch d5 p");
	free(journal);
}

static void test_capture_mover_lifted_first(void **state)
{
	struct fixture *f = *state;
	char *pgn;

	open_game(f, CHESS_WHITE, "-", NULL);
	f->now = 1000;
	move(f, "e2", "e4");
	move(f, "d7", "d5");
	lift(f, "e4");
	lift(f, "d5");
	place(f, "d5");
	wait_ms(f, SETTLE_TICK);
	assert_int_equal(session_move_count(f->s), 3);
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "2. exd5");
	free(pgn);
}

static void test_repeat(void **state)
{
	struct fixture *f = *state;
	char *log, line[600];
	size_t before;

	open_game(f, CHESS_WHITE, "-", NULL);
	f->now = 1000;
	press(f, BOARD_BUTTON_REPEAT);
	log = speech(f);
	assert_true(last_line(log, "private", line, sizeof(line)));
	assert_string_equal(line, "Noch kein Zug");
	free(log);

	move(f, "g1", "f3");
	before = speech_size(f);
	press(f, BOARD_BUTTON_REPEAT);
	log = speech(f);
	assert_int_equal(count_lines(log, before, "private", NULL), 1);
	assert_int_equal(count_lines(log, before, "public", NULL), 0);
	assert_true(last_line(log, "private", line, sizeof(line)));
	assert_string_equal(line, "Springer Gustav eins Felix drei");
	free(log);
}

static void check_info_language(enum phrase_lang lang, const char *white, const char *black,
				const char *move_word)
{
	struct fixture *f;
	void *st;
	char *log, line[600];
	size_t before;

	assert_int_equal(setup(&st), 0);
	f = st;
	f->cfg.phrases.lang = lang;
	open_game(f, CHESS_WHITE, "300+0", NULL);
	f->now = 1000;
	press(f, BOARD_BUTTON_OPPONENT_CLOCK); /* Black's press starts White's clock */
	move(f, "e2", "e4");
	press(f, BOARD_BUTTON_PLAYER_CLOCK);
	before = speech_size(f);
	press(f, BOARD_BUTTON_INFO);
	log = speech(f);
	assert_int_equal(count_lines(log, before, "private", NULL), 1);
	assert_int_equal(count_lines(log, before, "public", NULL), 0);
	assert_true(last_line(log, "private", line, sizeof(line)));
	assert_contains(line, white);
	assert_contains(line, black);
	assert_contains(line, move_word);
	free(log);
	teardown(&st);
}

static void test_info_languages(void **state)
{
	(void)state;
	check_info_language(PHRASE_DE, "Weiß", "Schwarz", "Zug");
	check_info_language(PHRASE_EN, "White", "Black", "Move");
	check_info_language(PHRASE_SV, "Vit", "Svart", "Drag");
	check_info_language(PHRASE_NL, "Wit", "Zwart", "Zet");
}

static void test_info_without_clock(void **state)
{
	struct fixture *f = *state;
	char *log, line[600];

	open_game(f, CHESS_WHITE, "-", NULL);
	f->now = 1000;
	move(f, "e2", "e4");
	press(f, BOARD_BUTTON_INFO);
	log = speech(f);
	assert_true(last_line(log, "private", line, sizeof(line)));
	assert_contains(line, "Zug");
	free(log);
}

static void test_clock_comments(void **state)
{
	struct fixture *f = *state;
	char *pgn, *log;

	open_game(f, CHESS_WHITE, "60+1", NULL);
	f->now = 1000;
	press(f, BOARD_BUTTON_OPPONENT_CLOCK); /* start: White's clock runs from 1000 */
	log = speech(f);
	assert_int_equal(count_lines(log, 0, "private", "Partie beginnt"), 1);
	free(log);

	f->now = 2000;
	move(f, "e2", "e4");
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "[TimeControl \"60+1\"]");
	assert_contains(pgn, "1. e4");
	assert_lacks(pgn, "%clk"); /* made, not complete */
	free(pgn);

	f->now = 3000; /* White used 2 s: 58 s + 1 s increment */
	press(f, BOARD_BUTTON_PLAYER_CLOCK);
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "1. e4 {[%clk 0:00:59]}");
	free(pgn);

	f->now = 4000;
	move(f, "e7", "e5");
	f->now = 6500; /* Black used 3.5 s: 56.5 s + 1 s, truncated */
	press(f, BOARD_BUTTON_OPPONENT_CLOCK);
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "1. e4 {[%clk 0:00:59]} 1... e5 {[%clk 0:00:57]}");
	free(pgn);
	assert_int_equal(session_move_count(f->s), 2);
}

/* The opponent presses before the tactile player replicates the move: the press waits. */
static void test_opponent_press_before_replication(void **state)
{
	struct fixture *f = *state;
	char *pgn;

	open_game(f, CHESS_WHITE, "60+1", NULL);
	f->now = 1000;
	press(f, BOARD_BUTTON_OPPONENT_CLOCK);
	f->now = 2000;
	move(f, "d2", "d4");
	f->now = 3000;
	press(f, BOARD_BUTTON_PLAYER_CLOCK);
	f->now = 5000; /* Black used 2 s */
	press(f, BOARD_BUTTON_OPPONENT_CLOCK);
	f->now = 8000;
	move(f, "d7", "d5");
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "1. d4 {[%clk 0:00:59]} 1... d5 {[%clk 0:00:59]}");
	free(pgn);
}

static void test_promotion_needs_select(void **state)
{
	struct fixture *f = *state;
	char *pgn, *log, line[600];
	size_t before;

	open_game(f, CHESS_WHITE, "60+1", "8/4P3/8/8/8/k7/8/K7 w - - 0 1");
	f->now = 1000;
	press(f, BOARD_BUTTON_OPPONENT_CLOCK);
	f->now = 2000;
	before = speech_size(f);
	move(f, "e7", "e8");
	log = speech(f);
	assert_int_equal(count_lines(log, before, "private", "Umwandlung"), 1);
	assert_int_equal(count_lines(log, before, "public", NULL), 0); /* not yet announced */
	free(log);
	assert_int_equal(session_move_count(f->s), 0);

	/* A press before any select: the move is not complete, a private prompt. */
	f->now = 3000;
	before = speech_size(f);
	press(f, BOARD_BUTTON_PLAYER_CLOCK);
	log = speech(f);
	assert_int_equal(count_lines(log, before, "private", NULL), 1);
	assert_true(last_line(log, "private", line, sizeof(line)));
	assert_string_equal(line, "Erst die Umwandlungsfigur wählen");
	free(log);
	pgn = state_file(f, "game.pgn");
	assert_lacks(pgn, "%clk");
	assert_lacks(pgn, "e8");
	free(pgn);

	/* Dame, Turm, Dame ... the press after the choice completes the move. */
	f->now = 3500;
	press(f, BOARD_BUTTON_SELECT);
	log = speech(f);
	assert_true(last_line(log, "private", line, sizeof(line)));
	assert_string_equal(line, "Dame");
	free(log);
	f->now = 4000; /* White used 3 s in all: 57 s + 1 s */
	press(f, BOARD_BUTTON_PLAYER_CLOCK);
	assert_int_equal(session_move_count(f->s), 1);
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "1. e8=Q {[%clk 0:00:58]}");
	free(pgn);
	log = speech(f);
	assert_int_equal(count_lines(log, 0, "public", "Bauer Eva sieben Eva acht, Dame"), 1);
	free(log);
}

static void test_promotion_cycle(void **state)
{
	struct fixture *f = *state;
	char *pgn;

	open_game(f, CHESS_WHITE, "60+1", "8/4P3/8/8/8/k7/8/K7 w - - 0 1");
	f->now = 1000;
	press(f, BOARD_BUTTON_OPPONENT_CLOCK);
	move(f, "e7", "e8");
	for (int i = 0; i < 4; i++) /* Dame, Turm, Läufer, Springer */
		press(f, BOARD_BUTTON_SELECT);
	press(f, BOARD_BUTTON_PLAYER_CLOCK);
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "1. e8=N");
	free(pgn);
}

static void test_resume(void **state)
{
	struct fixture *f = *state;
	char *log, *pgn;
	size_t before;

	open_game(f, CHESS_WHITE, "-", NULL);
	f->now = 1000;
	move(f, "e2", "e4");
	move(f, "e7", "e5");
	close_game(f);
	assert_true(state_exists(f, "journal"));

	f->now = 50000;
	before = speech_size(f);
	open_game(f, CHESS_WHITE, "-", NULL);
	assert_true(session_resumed(f->s));
	assert_int_equal(session_move_count(f->s), 2);
	log = speech(f);
	assert_int_equal(count_lines(log, before, "private", "Partie fortgesetzt"), 1);
	free(log);

	/* The game goes on from there. */
	f->now = 51000;
	move(f, "g1", "f3");
	assert_int_equal(session_move_count(f->s), 3);
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "1. e4 e5 2. Nf3");
	free(pgn);
}

static void test_resume_with_clock(void **state)
{
	struct fixture *f = *state;
	char *log, *pgn;
	size_t before;

	open_game(f, CHESS_WHITE, "60+1", NULL);
	f->now = 1000;
	press(f, BOARD_BUTTON_OPPONENT_CLOCK);
	f->now = 2000;
	move(f, "e2", "e4");
	f->now = 3000;
	press(f, BOARD_BUTTON_PLAYER_CLOCK);
	close_game(f);

	f->now = 90000;
	before = speech_size(f);
	open_game(f, CHESS_WHITE, "60+1", NULL);
	assert_true(session_resumed(f->s));
	assert_int_equal(session_move_count(f->s), 1);
	log = speech(f);
	assert_int_equal(count_lines(log, before, "private", "Partie fortgesetzt"), 1);
	free(log);
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "1. e4 {[%clk 0:00:59]}");
	free(pgn);
}

static void test_resume_torn_journal(void **state)
{
	struct fixture *f = *state;
	char path[160];
	FILE *fp;
	struct stat st_before, st_after;

	open_game(f, CHESS_WHITE, "-", NULL);
	f->now = 1000;
	move(f, "e2", "e4");
	move(f, "e7", "e5");
	close_game(f);
	snprintf(path, sizeof(path), "%s/journal", f->dir);
	assert_int_equal(stat(path, &st_before), 0);
	fp = fopen(path, "a");
	assert_non_null(fp);
	fputs("1f2e3d4c 1800 made 3 g1f", fp); /* the power went mid-write */
	fclose(fp);

	f->now = 50000;
	open_game(f, CHESS_WHITE, "-", NULL);
	assert_true(session_resumed(f->s));
	assert_int_equal(session_move_count(f->s), 2);
	close_game(f);
	/* The torn line was cut off; the restart record follows the last good one. */
	assert_int_equal(stat(path, &st_after), 0);
	assert_true(st_after.st_size > st_before.st_size);
	{
		char *journal = state_file(f, "journal");

		assert_lacks(journal, "g1f");
		assert_contains(journal, " restart 2\n");
		free(journal);
	}
	f->now = 60000;
	open_game(f, CHESS_WHITE, "-", NULL);
	assert_int_equal(session_move_count(f->s), 2);
}

static void test_bad_journal_record_names_line(void **state)
{
	struct fixture *f = *state;
	struct session_setup setup = {.player = CHESS_WHITE, .virtual_time = true};
	char path[160], err[300] = "", want[200], line[128];
	const char *body = "1500 made 3 e2e4 e4"; /* not legal after 1. e4 e5 */
	FILE *fp;

	open_game(f, CHESS_WHITE, "-", NULL);
	f->now = 1000;
	move(f, "e2", "e4");
	move(f, "e7", "e5");
	close_game(f);
	snprintf(path, sizeof(path), "%s/journal", f->dir);
	snprintf(line, sizeof(line), "%08x %s\n", (unsigned)journal_crc32(body, strlen(body)),
		 body);
	fp = fopen(path, "a");
	assert_non_null(fp);
	fputs(line, fp);
	fclose(fp);

	snprintf(setup.time_control, sizeof(setup.time_control), "-");
	snprintf(setup.fen, sizeof(setup.fen), "%s", CHESS_FEN_START);
	assert_null(session_open(&f->cfg, &setup, f->voice, 2000, err, sizeof(err)));
	/* game, touch e2, made 1, touch e7, made 2, complete x2 ... the bad one is last. */
	snprintf(want, sizeof(want), "%s:", path);
	assert_contains(err, want);
	assert_contains(err, "made");
}

static void fools_mate(struct fixture *f)
{
	move(f, "f2", "f3");
	move(f, "e7", "e5");
	move(f, "g2", "g4");
	move(f, "d8", "h4");
}

static void test_checkmate_ends_game(void **state)
{
	struct fixture *f = *state;
	char *pgn;

	open_game(f, CHESS_WHITE, "-", NULL);
	f->now = 1000;
	fools_mate(f);
	assert_int_equal(session_move_count(f->s), 4);
	assert_true(session_game_over(f->s));
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "[Result \"0-1\"]");
	assert_contains(pgn, "2. g4 Qh4# 0-1");
	free(pgn);

	/* Pegs moved after the end change nothing. */
	move(f, "e1", "e2");
	assert_int_equal(session_move_count(f->s), 4);

	close_game(f);
	assert_false(state_exists(f, "journal"));
	assert_true(state_exists(f, "games/game-0001.journal"));
	pgn = state_file(f, "games/game-0001.pgn");
	assert_contains(pgn, "[Result \"0-1\"]");
	free(pgn);

	/* The next session starts a new game. */
	f->now = 100000;
	open_game(f, CHESS_WHITE, "-", NULL);
	assert_false(session_resumed(f->s));
	assert_int_equal(session_move_count(f->s), 0);
	close_game(f);
	{
		char *journal = state_file(f, "journal");

		assert_contains(journal, " game game-0002 ");
		free(journal);
	}
}

static void test_checkmate_with_clock(void **state)
{
	struct fixture *f = *state;
	char *pgn;

	/* The tactile player is Black and mates; the press completes the mating move. */
	open_game(f, CHESS_BLACK, "60+1", NULL);
	f->now = 1000;
	press(f, BOARD_BUTTON_PLAYER_CLOCK); /* Black's press starts White's clock */
	f->now = 2000;
	move(f, "f2", "f3");
	press(f, BOARD_BUTTON_OPPONENT_CLOCK);
	f->now = 3000;
	move(f, "e7", "e5");
	press(f, BOARD_BUTTON_PLAYER_CLOCK);
	f->now = 4000;
	move(f, "g2", "g4");
	press(f, BOARD_BUTTON_OPPONENT_CLOCK);
	f->now = 5000;
	move(f, "d8", "h4");
	assert_true(session_game_over(f->s));
	press(f, BOARD_BUTTON_PLAYER_CLOCK);
	pgn = state_file(f, "game.pgn");
	assert_contains(pgn, "[Result \"0-1\"]");
	assert_contains(pgn, "Qh4# {[%clk");
	free(pgn);
	close_game(f);
	assert_true(state_exists(f, "games/game-0001.journal"));
	assert_false(state_exists(f, "journal"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_new_game_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_quiet_move_and_capture, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_capture_mover_lifted_first, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repeat, setup, teardown),
	    cmocka_unit_test(test_info_languages),
	    cmocka_unit_test_setup_teardown(test_info_without_clock, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_comments, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_opponent_press_before_replication, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_promotion_needs_select, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_promotion_cycle, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resume, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resume_with_clock, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resume_torn_journal, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bad_journal_record_names_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_checkmate_ends_game, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_checkmate_with_clock, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
