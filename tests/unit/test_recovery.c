/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recovery on its own (store/recovery.h): a game with a clock is played through
 * the referee, its journal, game.record and game.pgn written as the store writes them, then
 * damaged as the issue found it, and recovered into a fresh referee:
 *  - readings dropped: a journal cut short keeps game.pgn's readings, a flipped `complete`
 *    record gets its reading from the press record, two swapped records both fit;
 *  - readings invented: an emptied or deleted journal resumes the clocks from the last
 *    readings known for each side, marked uncertain, never from the time control's start;
 *  - both copies damaged: the longest consistent game of both comes back, game.pgn is kept
 *    before it is written again; when both are cut the longer prefix wins;
 *  - a foreign journal with the same id is set aside, the game of game.pgn resumes;
 *  - the journal and game.record both lost: the game of game.pgn, its only copy, resumes
 *    (a finished one is kept, not written over); a game.pgn damaged only in a tag or a
 *    reading's text is kept before it is written again; a duplicated line loses nothing;
 *  - storage that cannot be written: the mending waits and is done later;
 *  - a damaged game.pgn is read as far as it can be (salvage.h);
 *  - a casual game's takeback (docs/training.md "Training and study") is replayed: the moves after
 * it, not the ones it took back, with the readings and the clock's moves as played.
 */
#include <errno.h>
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

#include "base/log.h"
#include "store/journal.h"
#include "store/recovery.h"
#include "store/salvage.h"
#include "store/sheet.h"
#include "store/state.h"
#include "tests/unit/referee_testutil.h"

static struct rt *t;
static char dir[64];

static int fixture_setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_recovery_XXXXXX");
	assert_non_null(mkdtemp(dir));
	log_set_level(LOG_LEVEL_ERROR);
	t = calloc(1, sizeof(*t));
	return t ? 0 : -1;
}

static int fixture_teardown(void **state)
{
	(void)state;
	state_set_fault(STATE_FAULT_NONE);
	state_remove_tree(dir);
	if (t->r)
		rt_close(t);
	free(t);
	return 0;
}

static void path_of(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

/* 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6, White the tactile player, 5400+30: White's moves pressed
 * after they are made, Black's pressed before they reach the tactile board (the sighted
 * opponent's press first: the move is complete when made). */
static void play(void)
{
	static const char *const moves[][2] = {{"e2", "e4"}, {"e7", "e5"}, {"g1", "f3"},
					       {"b8", "c6"}, {"f1", "b5"}, {"a7", "a6"}};

	rt_open(t, CHESS_WHITE, "5400+30", NULL);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	for (int i = 0; i < 6; i++) {
		rt_wait(t, 3000 + 1000u * (unsigned)i);
		if (i % 2) {
			rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
			rt_move(t, moves[i][0], moves[i][1]);
		} else {
			rt_move(t, moves[i][0], moves[i][1]);
			rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
		}
	}
	assert_int_equal(game_plies(rt_game(t)), 6);
	for (int i = 0; i < 6; i++)
		assert_true(rt_game(t)->plies[i].clk_ms > 0);
}

/* The state directory as the store leaves it: the journal, game.record, game.pgn. */
static void write_state(void)
{
	char path[128], line[JOURNAL_LINE_MAX + 1];
	struct sheet *sh = sheet_new();
	char *pgn = sheet_text(sh, rt_game(t), NULL, NULL);
	FILE *f;

	path_of(path, sizeof(path), "games");
	assert_int_equal(state_mkdir(path), 0);
	path_of(path, sizeof(path), "journal");
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < t->nrec; i++) {
		assert_true(journal_format(line, sizeof(line), t->ms[i], t->types[i], "%s",
					   t->args[i]) > 0);
		fputs(line, f);
		if (i == 0) {
			char copy[128];

			path_of(copy, sizeof(copy), "game.record");
			assert_int_equal(state_write_atomic(copy, line, strlen(line), false), 0);
		}
	}
	fclose(f);
	path_of(path, sizeof(path), "game.pgn");
	assert_non_null(pgn);
	assert_int_equal(state_write_atomic(path, pgn, strlen(pgn), false), 0);
	free(pgn);
	sheet_free(sh);
}

/* The index of the record that is the n-th line of TYPE ARGS starting with `prefix`. */
static int record_index(const char *type, const char *prefix)
{
	for (int i = 0; i < t->nrec; i++)
		if (!strcmp(t->types[i], type) && !strncmp(t->args[i], prefix, strlen(prefix)))
			return i;
	fail_msg("no %s %s record", type, prefix);
	return -1;
}

static char *journal_text(size_t *len)
{
	char path[128];
	char *text;

	path_of(path, sizeof(path), "journal");
	text = state_read_file(path, len);
	assert_non_null(text);
	return text;
}

static void journal_replace(const char *text, size_t len)
{
	char path[128];

	path_of(path, sizeof(path), "journal");
	assert_int_equal(state_write_atomic(path, text, len, false), 0);
}

/* The byte offset where journal line `index` (0-based) begins. */
static size_t line_offset(const char *text, int index)
{
	size_t at = 0;

	for (int i = 0; i < index; i++)
		at = (size_t)(strchr(text + at, '\n') - text) + 1;
	return at;
}

static void flip_line(int index)
{
	size_t len, at;
	char *text = journal_text(&len);

	at = line_offset(text, index);
	text[at + 12] ^= 0x04;
	journal_replace(text, len);
	free(text);
}

static void cut_journal_before_line(int index)
{
	size_t len;
	char *text = journal_text(&len);

	journal_replace(text, line_offset(text, index));
	free(text);
}

struct recovered {
	struct recovery rc;
	struct referee *r;
	const struct game *g;
};

static void recover(struct recovered *out)
{
	struct game_sink none = {0};
	struct game_params p = t->set.next;
	char err[256];

	/* A new game's settings and id, as the store gives them. */
	snprintf(p.id, sizeof(p.id), "game-9999");
	out->r = referee_new(&t->set, &none);
	assert_non_null(out->r);
	assert_int_equal(recovery_run(&out->rc, dir, false, &p, out->r, err, sizeof(err)), 0);
	out->g = referee_game(out->r);
}

/* game.pgn with a byte changed: the first `what` after `after` gets `to`. */
static void edit_scoresheet(const char *after, const char *what, char to)
{
	char path[128];
	size_t len;
	char *text, *at;

	path_of(path, sizeof(path), "game.pgn");
	text = state_read_file(path, &len);
	assert_non_null(text);
	at = strstr(text, after);
	assert_non_null(at);
	at = strstr(at, what);
	assert_non_null(at);
	*at = to;
	assert_int_equal(state_write_atomic(path, text, len, false), 0);
	free(text);
}

static void done(struct recovered *out)
{
	recovery_free(&out->rc);
	referee_free(out->r);
}

/* Every move and every reading of the game as played. */
static void assert_whole(const struct game *g)
{
	const struct game *want = rt_game(t);

	assert_true(g->open);
	assert_int_equal(game_plies(g), game_plies(want));
	for (int i = 0; i < game_plies(want); i++) {
		assert_string_equal(g->plies[i].san, want->plies[i].san);
		if (g->plies[i].clk_ms / 1000 != want->plies[i].clk_ms / 1000)
			fail_msg("move %d: reading %lld, played %lld", i + 1,
				 (long long)g->plies[i].clk_ms, (long long)want->plies[i].clk_ms);
	}
}

static bool kept(const char *what)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/games/%s-%s-1.%s", dir, rt_game(t)->params.id, what,
		 !strcmp(what, "before-recovery") ? "pgn" : "journal");
	return stat(path, &st) == 0;
}

/* ------------------------------------------------------------------ readings dropped */

static void test_cut_journal_keeps_readings(void **state)
{
	struct recovered x;

	(void)state;
	play();
	write_state();
	/* Cut just after the second move's made record: its press, reading and all the rest
	 * are game.pgn's only. */
	cut_journal_before_line(record_index("made", "2 ") + 1);
	recover(&x);
	assert_whole(x.g);
	assert_int_equal(x.rc.filled, 4);
	/* Move 2's reading from its press (Black pressed first), the rest from game.pgn. */
	assert_int_equal(x.rc.readings_from_presses, 1);
	assert_int_equal(x.rc.readings_filled, 4);
	/* The clock's records were lost: it stands at the last readings, marked. */
	assert_true(x.rc.clock_uncertain);
	assert_true(x.g->clock_uncertain);
	assert_int_equal(x.g->clock.state, CLOCK_PAUSED);
	assert_int_equal(clock_remaining(&x.g->clock, CHESS_WHITE, 0) / 1000,
			 rt_game(t)->plies[4].clk_ms / 1000);
	assert_int_equal(clock_remaining(&x.g->clock, CHESS_BLACK, 0) / 1000,
			 rt_game(t)->plies[5].clk_ms / 1000);
	assert_int_equal(x.g->clock.running, CHESS_WHITE);
	assert_true(kept("damaged"));
	done(&x);
}

static void test_flipped_complete_reading_from_press(void **state)
{
	struct recovered x;

	(void)state;
	play();
	write_state();
	flip_line(record_index("complete", "3 "));
	recover(&x);
	assert_whole(x.g);
	/* To the millisecond: the press record's own reading, and the clock is known. */
	assert_int_equal(x.g->plies[2].clk_ms, rt_game(t)->plies[2].clk_ms);
	assert_int_equal(x.rc.readings_from_presses, 1);
	assert_false(x.rc.clock_uncertain);
	assert_int_equal(x.rc.stats.bad, 1);
	done(&x);
}

static void test_swapped_records_both_fit(void **state)
{
	struct recovered x;
	size_t len, a, b, c;
	char *text, *swapped;
	int made;

	(void)state;
	play();
	write_state();
	/* Black's move 4, complete when made (the press came first): its complete record
	 * written before its made record. */
	made = record_index("made", "4 ");
	assert_string_equal(t->types[made + 1], "complete");
	text = journal_text(&len);
	a = line_offset(text, made);
	b = line_offset(text, made + 1);
	c = line_offset(text, made + 2);
	swapped = malloc(len);
	memcpy(swapped, text, a);
	memcpy(swapped + a, text + b, c - b);
	memcpy(swapped + a + (c - b), text + a, b - a);
	memcpy(swapped + c, text + c, len - c);
	journal_replace(swapped, len);
	recover(&x);
	assert_whole(x.g);
	assert_int_equal(recovery_skipped(&x.rc), 0);
	assert_int_equal(x.rc.reordered, 1);
	assert_false(x.rc.clock_uncertain);
	free(text);
	free(swapped);
	done(&x);
}

/* ------------------------------------------------------------------ readings invented */

static void test_empty_journal_resumes_from_last_readings(void **state)
{
	struct recovered x;

	(void)state;
	play();
	write_state();
	journal_replace("", 0);
	recover(&x);
	assert_true(x.rc.game_from_copy);
	assert_whole(x.g);
	assert_true(x.g->clock_uncertain);
	/* Not the time control's start: the last readings on disk. */
	assert_true(clock_remaining(&x.g->clock, CHESS_WHITE, 0) < 5400000 + 3 * 30000);
	assert_int_equal(clock_remaining(&x.g->clock, CHESS_WHITE, 0) / 1000,
			 rt_game(t)->plies[4].clk_ms / 1000);
	assert_int_equal(clock_remaining(&x.g->clock, CHESS_BLACK, 0) / 1000,
			 rt_game(t)->plies[5].clk_ms / 1000);
	assert_int_equal(x.g->clock.moves[CHESS_WHITE], 3);
	assert_int_equal(x.g->clock.moves[CHESS_BLACK], 3);
	done(&x);
}

static void test_deleted_journal_resumes_from_last_readings(void **state)
{
	struct recovered x;
	char path[128];

	(void)state;
	play();
	write_state();
	path_of(path, sizeof(path), "journal");
	assert_int_equal(unlink(path), 0);
	recover(&x);
	assert_whole(x.g);
	assert_true(x.g->clock_uncertain);
	assert_int_equal(x.g->clock.state, CLOCK_PAUSED);
	done(&x);
}

/* ------------------------------------------------------------------ both copies */

static void test_both_copies_damaged(void **state)
{
	struct recovered x;
	char path[128];
	size_t len;
	char *pgn, *at;

	(void)state;
	play();
	write_state();
	/* The journal loses move 4's record; game.pgn a byte in move 2. */
	flip_line(record_index("made", "4 "));
	path_of(path, sizeof(path), "game.pgn");
	pgn = state_read_file(path, &len);
	at = strstr(pgn, " e5 ");
	assert_non_null(at);
	at[2] = '\x01';
	assert_int_equal(state_write_atomic(path, pgn, len, false), 0);
	free(pgn);
	recover(&x);
	assert_whole(x.g);
	assert_int_equal(x.rc.filled, 1);
	/* game.pgn, damaged, is kept before it is ever written again. */
	assert_true(kept("before-recovery"));
	assert_true(kept("damaged"));
	done(&x);
}

static void test_both_cut_longer_prefix_wins(void **state)
{
	struct recovered x;
	char path[128];
	size_t len;
	char *pgn, *at;

	(void)state;
	play();
	write_state();
	/* The journal holds three moves, game.pgn five (cut inside the sixth). */
	cut_journal_before_line(record_index("made", "4 "));
	path_of(path, sizeof(path), "game.pgn");
	pgn = state_read_file(path, &len);
	at = strstr(pgn, "a6");
	assert_non_null(at);
	assert_int_equal(truncate(path, at - pgn + 1), 0);
	free(pgn);
	recover(&x);
	assert_int_equal(game_plies(x.g), 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(x.g->plies[i].clk_ms / 1000, rt_game(t)->plies[i].clk_ms / 1000);
	done(&x);
	/* And the other way: the journal the longer. */
	write_state();
	path_of(path, sizeof(path), "game.pgn");
	pgn = state_read_file(path, &len);
	at = strstr(pgn, "Nf3");
	assert_int_equal(truncate(path, at - pgn), 0);
	free(pgn);
	cut_journal_before_line(record_index("made", "6 "));
	recover(&x);
	assert_int_equal(game_plies(x.g), 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(x.g->plies[i].clk_ms, rt_game(t)->plies[i].clk_ms);
	done(&x);
}

/* ------------------------------------------------------------------ a foreign journal */

static void test_foreign_journal_set_aside(void **state)
{
	struct recovered x;
	char path[128], foreign[JOURNAL_LINE_MAX * 4];
	char line[JOURNAL_LINE_MAX + 1];
	size_t n = 0;

	(void)state;
	play();
	write_state();
	/* Another board's game with the same id: the same game record, other moves. */
	for (int i = 0; i < t->nrec && strcmp(t->types[i], "made"); i++) {
		journal_format(line, sizeof(line), t->ms[i], t->types[i], "%s", t->args[i]);
		n += (size_t)snprintf(foreign + n, sizeof(foreign) - n, "%s", line);
	}
	journal_format(line, sizeof(line), 5000, "made", "1 d2d4 d4 2");
	n += (size_t)snprintf(foreign + n, sizeof(foreign) - n, "%s", line);
	journal_format(line, sizeof(line), 9000, "made", "2 d7d5 d5 2");
	n += (size_t)snprintf(foreign + n, sizeof(foreign) - n, "%s", line);
	journal_replace(foreign, n);
	recover(&x);
	assert_whole(x.g);
	assert_true(x.rc.foreign_path[0]);
	assert_true(recovery_incomplete(&x.rc));
	path_of(path, sizeof(path), "journal");
	/* Both kept: the foreign one under games/, untouched. */
	assert_non_null(strstr(x.rc.foreign_path, "-foreign-1.journal"));
	{
		size_t len;
		char *back = state_read_file(x.rc.foreign_path, &len);

		assert_non_null(back);
		assert_int_equal(len, n);
		assert_memory_equal(back, foreign, n);
		free(back);
	}
	done(&x);
}

/* A move's record bad in the journal and its reading damaged in game.pgn: the move comes back
 * from game.pgn, and its intact complete record from the journal is kept (it was dropped as
 * not fitting, and the move completed without a reading). */
static void test_complete_kept_when_its_move_is_lost(void **state)
{
	struct recovered x;

	(void)state;
	play();
	write_state();
	flip_line(record_index("made", "2 "));
	edit_scoresheet("1... e5", ":", '2');
	recover(&x);
	assert_whole(x.g);
	assert_int_equal(x.rc.filled, 1);
	assert_int_equal(x.rc.stats.refused, 0);
	assert_int_equal(x.rc.readings_missing, 0);
	done(&x);
}

/* game.pgn cut short just before `what`. */
static void cut_scoresheet_before(const char *what)
{
	char path[128];
	size_t len;
	char *text, *at;

	path_of(path, sizeof(path), "game.pgn");
	text = state_read_file(path, &len);
	assert_non_null(text);
	at = strstr(text, what);
	assert_non_null(at);
	assert_int_equal(state_write_atomic(path, text, (size_t)(at - text), false), 0);
	free(text);
}

/* The journal cut in the middle of the press of its last move (both copies cut, the journal
 * the longer): the press may have come, so the clock is put together and a later press gives
 * that move no reading; a torn touch leaves the journal's clock as it is. */
static void test_torn_press_loses_the_reading(void **state)
{
	struct recovered x;
	size_t len, at;
	char *text;
	int press;

	(void)state;
	play();
	write_state();
	press = record_index("made", "5 ") + 1;
	assert_string_equal(t->types[press], "press");
	text = journal_text(&len);
	at = line_offset(text, press);
	at += (size_t)(strstr(text + at, " press ") - (text + at)) + 12; /* its type whole */
	journal_replace(text, at);
	cut_scoresheet_before("3. Bb5");
	recover(&x);
	assert_int_equal(game_plies(x.g), 5);
	assert_false(x.g->plies[4].flags & GAME_PLY_COMPLETE);
	assert_true(x.rc.clock_uncertain);
	assert_int_equal(x.g->readings_lost_before, 5);
	done(&x);
	/* A touch of the next move torn instead: nothing about the clock was lost. */
	write_state();
	at = line_offset(text, record_index("made", "6 ") - 1);
	at += (size_t)(strstr(text + at, " place ") - (text + at)) + 9;
	journal_replace(text, at);
	cut_scoresheet_before("3. Bb5");
	recover(&x);
	assert_int_equal(game_plies(x.g), 5);
	assert_false(x.rc.clock_uncertain);
	assert_int_equal(x.g->readings_lost_before, 0);
	done(&x);
	free(text);
}

/* ------------------------------------------------------------------ game.pgn alone */

/* The journal and game.record both lost (one damaged region of a card takes both): the game
 * comes back from game.pgn alone, with its moves, readings and tags, under the id of its copy
 * under games/; the clock stands at the last readings; game.pgn is kept as it was, and
 * game.record and the journal are written again. */
static void test_scoresheet_the_only_copy(void **state)
{
	struct recovered x;
	char path[128], copy[160], *text, *record;
	size_t len;

	(void)state;
	play();
	write_state();
	/* Its copy under games/ as the store writes it at the start: no move yet. */
	{
		struct sheet *sh = sheet_new();
		struct game start = *rt_game(t);
		char *pgn;

		start.chess.count = 0;
		pgn = sheet_text(sh, &start, NULL, NULL);
		snprintf(copy, sizeof(copy), "%s/games/%s.pgn", dir, rt_game(t)->params.id);
		assert_int_equal(state_write_atomic(copy, pgn, strlen(pgn), false), 0);
		free(pgn);
		sheet_free(sh);
	}
	path_of(path, sizeof(path), "journal");
	assert_int_equal(unlink(path), 0);
	path_of(path, sizeof(path), "game.record");
	assert_int_equal(unlink(path), 0);
	recover(&x);
	assert_true(x.rc.from_scoresheet);
	assert_whole(x.g);
	assert_string_equal(x.g->params.id, rt_game(t)->params.id);
	assert_string_equal(x.g->params.time_control, "5400+30");
	assert_int_equal(x.g->params.player, t->set.next.player);
	assert_true(x.rc.clock_uncertain);
	assert_true(recovery_lost(&x.rc));
	assert_true(kept("before-recovery"));
	/* game.record is the recovered journal's first line again. */
	path_of(path, sizeof(path), "game.record");
	record = state_read_file(path, &len);
	assert_non_null(record);
	assert_non_null(strstr(record, " game "));
	assert_int_equal(x.rc.nlines > 0, 1);
	assert_string_equal(record, x.rc.lines[0]);
	free(record);
	path_of(path, sizeof(path), "journal");
	text = state_read_file(path, &len);
	assert_non_null(text);
	assert_non_null(strstr(text, " made 6 "));
	free(text);
	done(&x);
}

/* A finished game's game.pgn that no file under games/ holds is kept before the next game
 * writes over it (no game is resumed from it). */
static void test_finished_scoresheet_kept(void **state)
{
	struct recovered x;
	char path[128], *text, *end;
	size_t len;

	(void)state;
	play();
	write_state();
	/* The game resigned: its result in the tag and at the end. */
	path_of(path, sizeof(path), "game.pgn");
	text = state_read_file(path, &len);
	assert_non_null(text);
	end = strrchr(text, '*');
	assert_non_null(end);
	strcpy(end, "0-1\n");
	*strchr(strstr(text, "[Result"), '*') = '#';
	{
		char *t2 = malloc(len + 8), *at = strchr(text, '#');

		assert_non_null(t2);
		snprintf(t2, len + 8, "%.*s0-1%s", (int)(at - text), text, at + 1);
		assert_int_equal(state_write_atomic(path, t2, strlen(t2), false), 0);
		free(t2);
	}
	free(text);
	path_of(path, sizeof(path), "journal");
	assert_int_equal(unlink(path), 0);
	path_of(path, sizeof(path), "game.record");
	assert_int_equal(unlink(path), 0);
	recover(&x);
	assert_false(x.g->open);
	assert_non_null(strstr(x.rc.scoresheet_kept_path, "unknown-before-recovery-1.pgn"));
	done(&x);
}

/* game.pgn damaged only in a tag or in a reading's text: kept before it is written again,
 * though every move and reading came back from the journal. */
static void test_scoresheet_tag_or_comment_damaged_kept(void **state)
{
	static const struct {
		const char *after, *what;
		char to;
	} damage[] = {
	    {"[Event", "Event", 'E' ^ 0x20}, /* a tag's name */
	    {"[Site", "?", '!'},	     /* a tag's value */
	    {"2. Nf3", "%clk", '%' ^ 0x01},  /* a reading's text */
	    {"3... a6", "clk", 'c' ^ 0x02},
	};

	(void)state;
	play();
	for (size_t i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
		struct recovered x;

		write_state();
		edit_scoresheet(damage[i].after, damage[i].what, damage[i].to);
		recover(&x);
		assert_whole(x.g);
		if (!x.rc.scoresheet_kept_path[0])
			fail_msg("damage %zu (%s): game.pgn not kept", i, damage[i].after);
		assert_false(recovery_lost(&x.rc));
		done(&x);
		state_remove_tree(dir);
		assert_int_equal(mkdir(dir, 0700), 0);
	}
}

/* A duplicated line loses nothing: nothing to say to the player. */
static void test_duplicate_loses_nothing(void **state)
{
	struct recovered x;
	size_t len, at, end;
	char *text, *twice;

	(void)state;
	play();
	write_state();
	text = journal_text(&len);
	at = line_offset(text, record_index("made", "3 "));
	end = line_offset(text, record_index("made", "3 ") + 1);
	twice = malloc(len + end - at);
	assert_non_null(twice);
	memcpy(twice, text, end);
	memcpy(twice + end, text + at, len - at);
	journal_replace(twice, len + end - at);
	recover(&x);
	assert_whole(x.g);
	assert_int_equal(x.rc.stats.duplicates, 1);
	assert_true(recovery_incomplete(&x.rc));
	assert_false(recovery_lost(&x.rc));
	free(twice);
	free(text);
	done(&x);
}

/* ------------------------------------------------------------------ storage */

static void test_mending_waits_for_storage(void **state)
{
	struct recovered x;

	(void)state;
	play();
	write_state();
	flip_line(record_index("made", "4 "));
	state_set_fault(STATE_FAULT_READONLY);
	recover(&x);
	assert_whole(x.g);
	assert_true(recovery_mend_due(&x.rc));
	assert_false(kept("damaged"));
	assert_int_equal(recovery_mend(&x.rc, x.rc.lines, x.rc.nlines), -1);
	state_set_fault(STATE_FAULT_NONE);
	assert_int_equal(recovery_mend(&x.rc, x.rc.lines, x.rc.nlines), 0);
	assert_false(recovery_mend_due(&x.rc));
	assert_true(kept("damaged"));
	done(&x);
	/* The mended journal alone gives the whole game. */
	recover(&x);
	assert_whole(x.g);
	assert_int_equal(recovery_skipped(&x.rc), 0);
	done(&x);
}

/* ------------------------------------------------------------------ salvage */

static void test_salvage_damaged_scoresheet(void **state)
{
	static const char pgn[] =
	    "[Event \"?\"]\n[Result \"*\"]\n\n"
	    "1. e4 {[%clk 1:30:21]} 1... e5 {[%clk 1:30:20]} 2. N\001f3\n"
	    "{[%clk 1:30:38]} 2... Nc6 {[%clk 1:3x:48]} 3. Bb5 {[%clk 1:30:59]}\n"
	    "3... a6 {[%clk 1:30:57]} *\n";
	struct chess_pos start;
	struct salvage sv;

	(void)state;
	chess_pos_init_start(&start);
	assert_int_equal(salvage_read(&sv, pgn, sizeof(pgn) - 1, &start), 0);
	assert_true(sv.damaged);
	assert_true(sv.has_result);
	assert_false(sv.finished);
	assert_int_equal(sv.count, 6);
	assert_string_equal(sv.plies[0].san, "e4");
	assert_int_equal(sv.plies[0].clk_ms, (1 * 3600 + 30 * 60 + 21) * 1000);
	assert_string_equal(sv.plies[2].san, "");
	assert_int_equal(sv.plies[2].clk_ms, (1 * 3600 + 30 * 60 + 38) * 1000);
	assert_string_equal(sv.plies[3].san, "Nc6");
	assert_int_equal(sv.plies[3].clk_ms, -1);
	assert_string_equal(sv.plies[5].san, "a6");
	salvage_free(&sv);
	/* Cut inside the last move: that move is not taken. */
	assert_int_equal(salvage_read(&sv, pgn, strstr(pgn, "a6") - pgn + 1, &start), 0);
	assert_int_equal(sv.count, 5);
	assert_false(sv.has_result);
	salvage_free(&sv);
	/* A space flipped into a NUL byte: the token it is in is unreadable, the rest read (it
	 * made the reading loop for ever). */
	{
		static const char nul[] = "1. e4 {[%clk 1:30:21]} 1...\0e5 {[%clk 1:30:20]} "
					  "2. Nf3 {[%clk 1:30:38]} *\n";

		assert_int_equal(salvage_read(&sv, nul, sizeof(nul) - 1, &start), 0);
		assert_true(sv.damaged);
		assert_string_equal(sv.plies[0].san, "e4");
		assert_string_equal(sv.plies[2].san, "Nf3");
		salvage_free(&sv);
	}
	/* A comment that swallowed the next move (its '}' flipped): neither reading taken, the
	 * next move number places the rest. */
	{
		static const char bad[] = "1. e4 {[%clk 1:30:21]| 1... e5 {[%clk 1:30:20]} "
					  "2. Nf3 {[%clk 1:30:38]} *\n";

		assert_int_equal(salvage_read(&sv, bad, sizeof(bad) - 1, &start), 0);
		assert_string_equal(sv.plies[0].san, "e4");
		assert_int_equal(sv.plies[0].clk_ms, -1);
		assert_string_equal(sv.plies[1].san, "");
		assert_string_equal(sv.plies[2].san, "Nf3");
		salvage_free(&sv);
	}
}

/* ------------------------------------------------------------------ takeback */

static void test_takeback_replayed(void **state)
{
	struct recovered x;
	const struct game *g;

	(void)state;
	referee_settings_defaults(&t->set);
	t->set.next.mode = GAME_CASUAL;
	play();
	g = rt_game(t);
	/* White's last move and Black's reply taken back: 3. Bb5 a6. */
	t->now += 2000;
	assert_int_equal(rt_control(t, ROLE_ASSISTANT, "takeback"), 0);
	assert_int_equal(game_plies(g), 4);
	rt_lift(t, "a6");
	rt_place(t, "a7");
	rt_lift(t, "b5");
	rt_place(t, "f1");
	rt_wait(t, t->now + 1000);
	/* Another third move, pressed, and Black's reply. */
	rt_move(t, "f1", "c4");
	rt_press(t, GAME_BUTTON_PLAYER_CLOCK);
	rt_wait(t, t->now + 3000);
	rt_press(t, GAME_BUTTON_OPPONENT_CLOCK);
	rt_move(t, "g8", "f6");
	assert_int_equal(game_plies(g), 6);
	assert_string_equal(g->plies[4].san, "Bc4");
	record_index("takeback", "tester 4 ");
	write_state();
	recover(&x);
	assert_whole(x.g);
	assert_int_equal(recovery_skipped(&x.rc), 0);
	assert_int_equal(x.rc.filled, 0);
	assert_false(x.rc.clock_uncertain);
	assert_int_equal(x.g->clock.moves[CHESS_WHITE], g->clock.moves[CHESS_WHITE]);
	assert_int_equal(x.g->clock.moves[CHESS_BLACK], g->clock.moves[CHESS_BLACK]);
	assert_int_equal(clock_remaining(&x.g->clock, CHESS_WHITE, t->now),
			 clock_remaining(&g->clock, CHESS_WHITE, t->now));
	done(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_cut_journal_keeps_readings, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_flipped_complete_reading_from_press, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_swapped_records_both_fit, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_empty_journal_resumes_from_last_readings,
					    fixture_setup, fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_deleted_journal_resumes_from_last_readings,
					    fixture_setup, fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_both_copies_damaged, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_both_cut_longer_prefix_wins, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_foreign_journal_set_aside, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_complete_kept_when_its_move_is_lost, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_torn_press_loses_the_reading, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_scoresheet_the_only_copy, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_finished_scoresheet_kept, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_scoresheet_tag_or_comment_damaged_kept,
					    fixture_setup, fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_duplicate_loses_nothing, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_mending_waits_for_storage, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_takeback_replayed, fixture_setup,
					    fixture_teardown),
	    cmocka_unit_test_setup_teardown(test_salvage_damaged_scoresheet, fixture_setup,
					    fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
