/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella journal [--json] STATE_DIR|JOURNAL
 *
 * The record as the device reads it, for people and for the tests: the journal's lines
 * through the journal's own reader (store/journal.h) and each record through the game's own
 * decoder (game/record.h), so a change of either format changes what this prints and every
 * test that reads a journal through it sees the change.  Given a state directory it also
 * reads game.record (the copy of the game record) and game.pgn as far as it can be read
 * (store/salvage.h, as recovery reads it), placed from the game's start position.
 *
 * Without --json: one line per record (`LINE MS TYPE ARGS`) and the lines skipped.  With
 * --json one object: `journal` (the path), `lines`, `torn_tail`, `chain` (its final value),
 * `chained`, `chain_breaks`, `unchecked` (keyed lines whose value could not be checked: no
 * device key here), `bad`, `duplicates`, `skipped` (the line numbers of the lines that are no
 * record read: bad, duplicated or torn), `records` (each with `line`, `ms`, `type`, `args`,
 * `chain_checked`, `chain_ok`, `clock` (whether it carries the clock), and what the game's
 * decoder reads from it: `ply`, `uci`, `san` (made, relayed), `clk_ms` (complete), `color`
 * and `kind` (press), `id`, `player`, `time_control`, `fen` (game), `plies` and `run`
 * (restart), `recovered` (checkpoint), `result` (result, flag); `decoded` false when it
 * cannot), and for a state directory `game_record` (game.record's game, or null) and
 * `scoresheet` (null without game.pgn, else `plies`, each `san` ("" unreadable) and `clk_ms`
 * (-1: none or unreadable), `damaged`, `finished` and `result`).  It checks the keyed chain
 * with the device key of the journal's state directory where it may read it
 * (store/devkey.h).  Nothing is changed.
 * Exit 0, or 2 when there is nothing to read.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/log.h"
#include "base/strbuf.h"
#include "chess/chess.h"
#include "cli/cli.h"
#include "control/json.h"
#include "game/record.h"
#include "store/devkey.h"
#include "store/journal.h"
#include "store/salvage.h"
#include "store/state.h"

struct listing {
	bool json;
	struct json_writer *w;
	unsigned char *taken; /* by line number: a record was read there */
	size_t taken_size;
	bool have_game;
	struct game_params game; /* the journal's first game record */
};

void cli_journal_usage(FILE *f)
{
	fprintf(f, "usage: annabella journal [--json] STATE_DIR|JOURNAL\n");
}

static int usage(void)
{
	cli_journal_usage(stderr);
	return 2;
}

static void json_game(struct json_writer *w, const struct game_params *p)
{
	json_string(w, "id", p->id);
	json_string(w, "player", game_color_name(p->player));
	json_string(w, "time_control", p->time_control);
	json_string(w, "fen", p->fen);
}

/* What the game's decoder reads from a record, as JSON members. */
static void json_decoded(struct json_writer *w, const struct game_record *rec)
{
	char uci[8];

	switch (rec->type) {
	case REC_GAME:
		json_game(w, &rec->u.game);
		break;
	case REC_MADE:
	case REC_RELAYED:
		json_int(w, "ply", rec->u.made.ply);
		chess_move_to_uci(rec->u.made.move, uci, sizeof(uci));
		json_string(w, "uci", uci);
		json_string(w, "san", rec->u.made.san);
		break;
	case REC_COMPLETE:
		json_int(w, "ply", rec->u.complete.ply);
		json_int(w, "clk_ms", rec->u.complete.clk_ms);
		break;
	case REC_PRESS:
		json_string(w, "color", game_color_name(rec->u.press.color));
		json_string(w, "kind", game_press_kind_name(rec->u.press.kind));
		break;
	case REC_RESTART:
		json_int(w, "plies", rec->u.restart.plies);
		json_int(w, "run", rec->u.restart.run);
		break;
	case REC_CHECKPOINT:
		json_bool(w, "recovered", rec->u.checkpoint_recovered);
		break;
	case REC_RESULT:
		json_string(w, "result", rec->u.result.result);
		break;
	case REC_FLAG:
		json_string(w, "color", game_color_name(rec->u.flag.color));
		json_string(w, "result", rec->u.flag.result);
		break;
	default:
		break;
	}
}

static int list_record(void *user, const struct journal_record *jr, char *why, size_t why_size)
{
	struct listing *l = user;
	struct game_record rec;
	char err[160];
	bool note = !strcmp(jr->type, JOURNAL_NOTE_TYPE);
	bool decoded =
	    !note && !game_record_decode(&rec, jr->type, jr->args, jr->ms, err, sizeof(err));

	(void)why;
	(void)why_size;
	if (jr->line > 0 && (size_t)jr->line < l->taken_size)
		l->taken[jr->line] = 1;
	if (decoded && rec.type == REC_GAME && !l->have_game) {
		l->have_game = true;
		l->game = rec.u.game;
	}
	if (!l->json) {
		printf("%d %llu %s%s%s%s\n", jr->line, (unsigned long long)jr->ms, jr->type,
		       jr->args[0] ? " " : "", jr->args,
		       jr->chain_checked && !jr->chain_ok ? "  (chain breaks here)" : "");
		return 0;
	}
	json_object(l->w, NULL);
	json_int(l->w, "line", jr->line);
	json_int(l->w, "ms", (int64_t)jr->ms);
	json_string(l->w, "type", jr->type);
	json_string(l->w, "args", jr->args);
	json_bool(l->w, "chain_checked", jr->chain_checked);
	json_bool(l->w, "chain_ok", jr->chain_ok);
	if (!note) {
		json_bool(l->w, "decoded", decoded);
		json_bool(l->w, "clock",
			  decoded && (game_record_has_clock(rec.type) ||
				      (rec.type == REC_COMPLETE && rec.u.complete.counted)));
	}
	if (decoded)
		json_decoded(l->w, &rec);
	json_end(l->w);
	return 0;
}

/* game.record's game, if it holds one. */
static int copy_record(void *user, const struct journal_record *jr, char *why, size_t why_size)
{
	struct game_record *rec = user;

	if (rec->type != REC_TYPE_COUNT || strcmp(jr->type, "game"))
		return 0;
	if (game_record_decode(rec, jr->type, jr->args, jr->ms, why, why_size))
		rec->type = REC_TYPE_COUNT;
	return 0;
}

/* The lines of a file (a torn last line counts); 0 if it cannot be read. */
static size_t count_lines(const char *path)
{
	size_t len, n = 0;
	char *text = state_read_file(path, &len);

	if (!text)
		return 0;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		n++;
	free(text);
	return n;
}

static void json_scoresheet(struct json_writer *w, const char *path, const struct game_params *p)
{
	struct chess_pos start;
	struct chess_error cerr;
	struct salvage sv;
	size_t len;
	char *text = state_read_file(path, &len);

	if (!text) {
		json_null(w, "scoresheet");
		return;
	}
	if (!p || chess_fen_parse(&start, p->fen, &cerr))
		chess_fen_parse(&start, CHESS_FEN_START, &cerr);
	if (salvage_read(&sv, text, len, &start)) {
		free(text);
		json_null(w, "scoresheet");
		return;
	}
	json_object(w, "scoresheet");
	json_array(w, "plies");
	for (int i = 0; i < sv.count; i++) {
		json_object(w, NULL);
		json_string(w, "san", sv.plies[i].san);
		json_int(w, "clk_ms", sv.plies[i].clk_ms);
		json_end(w);
	}
	json_end(w);
	json_bool(w, "damaged", sv.damaged);
	json_bool(w, "finished", sv.finished);
	json_bool(w, "has_result", sv.has_result);
	json_end(w);
	salvage_free(&sv);
	free(text);
}

/* [--json] and the one argument: 0, or -1 (a usage error). */
static int parse_args(int argc, char **argv, struct listing *l, const char **arg)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			l->json = true;
		else if (argv[i][0] != '-' && !*arg)
			*arg = argv[i];
		else
			return -1;
	}
	return *arg ? 0 : -1;
}

/* The journal the argument names (a state directory's, or the file), dir set for a state
 * directory, and the device key taken where it may be read (root, the daemon's user): the
 * keyed chain's values checked too.  0, or 2 (said). */
static int find_journal(const char *arg, char *journal, size_t journal_size, char *dir,
			size_t dir_size)
{
	char path[PATH_MAX + 16], err[512];
	struct stat sb;

	if (stat(arg, &sb)) {
		log_error(LOG_MAIN, "%s: %s", arg, strerror(errno));
		return 2;
	}
	if (S_ISDIR(sb.st_mode)) {
		snprintf(dir, dir_size, "%s", arg);
		snprintf(journal, journal_size, "%s/journal", arg);
	} else {
		snprintf(journal, journal_size, "%s", arg);
	}
	if (dir[0])
		snprintf(path, sizeof(path), "%s", dir);
	else
		devkey_state_dir(journal, path, sizeof(path));
	devkey_use(path, false, err, sizeof(err));
	return 0;
}

/* After the records: the lines skipped, the counts and the chain. */
static void print_summary(const struct listing *l, const struct journal_stats *st, size_t lines)
{
	for (size_t i = 1; i <= lines; i++)
		if (!l->taken[i])
			printf("%zu skipped (%s)\n", i,
			       i == lines && st->torn_tail ? "torn" : "bad or duplicated");
	printf("%d records, %d bad, %d duplicated%s; chain %s\n", st->taken, st->bad,
	       st->duplicates, st->torn_tail ? ", a torn last line" : "",
	       st->chain[0] ? st->chain : "-");
	if (st->unchecked)
		printf("%d keyed lines not checked: no device key here\n", st->unchecked);
}

/* The JSON object's counts after its records, and the lines skipped. */
static void json_summary(const struct listing *l, const struct journal_stats *st, size_t lines)
{
	struct json_writer *w = l->w;

	json_int(w, "lines", (int64_t)lines);
	json_bool(w, "torn_tail", st->torn_tail);
	json_string(w, "chain", st->chain);
	json_int(w, "chained", st->chained);
	json_int(w, "chain_breaks", st->chain_breaks);
	json_int(w, "unchecked", st->unchecked);
	json_int(w, "bad", st->bad);
	json_int(w, "duplicates", st->duplicates);
	json_array(w, "skipped");
	for (size_t i = 1; i <= lines; i++)
		if (!l->taken[i])
			json_int(w, NULL, (int64_t)i);
	json_end(w);
}

/* A state directory's game.record and game.pgn, placed from the journal's game (else
 * game.record's). */
static void json_state_dir(const struct listing *l, const char *dir)
{
	struct game_record copy = {.type = REC_TYPE_COUNT};
	char path[PATH_MAX + 16], err[512];

	snprintf(path, sizeof(path), "%s/game.record", dir);
	if (journal_read(path, false, copy_record, &copy, NULL, err, sizeof(err)) < 0 ||
	    copy.type != REC_GAME) {
		json_null(l->w, "game_record");
	} else {
		json_object(l->w, "game_record");
		json_game(l->w, &copy.u.game);
		json_end(l->w);
	}
	snprintf(path, sizeof(path), "%s/game.pgn", dir);
	json_scoresheet(l->w, path,
			l->have_game		? &l->game
			: copy.type == REC_GAME ? &copy.u.game
						: NULL);
}

int cli_journal(int argc, char **argv)
{
	const char *arg = NULL;
	char journal[PATH_MAX], dir[PATH_MAX] = "", err[512] = "";
	struct listing l = {0};
	struct json_writer w;
	struct strbuf out = {0};
	struct journal_stats st;
	size_t lines;
	int n;

	if (parse_args(argc, argv, &l, &arg))
		return usage();
	if (find_journal(arg, journal, sizeof(journal), dir, sizeof(dir)))
		return 2;
	lines = count_lines(journal);
	l.taken_size = lines + 2;
	l.taken = calloc(l.taken_size, 1);
	if (!l.taken) {
		log_error(LOG_MAIN, "out of memory");
		return 2;
	}
	json_init(&w, &out);
	l.w = &w;
	if (l.json) {
		json_object(&w, NULL);
		json_string(&w, "journal", journal);
		json_array(&w, "records");
	}
	/* One record a line: printed as it is read, unless the whole is one JSON object. */
	n = journal_read(journal, false, list_record, &l, &st, err, sizeof(err));
	if (n < 0) {
		log_error(LOG_MAIN, "%s", err);
		free(l.taken);
		free(out.p);
		return 2;
	}
	if (!l.json) {
		print_summary(&l, &st, lines);
		free(l.taken);
		return 0;
	}
	json_end(&w);
	json_summary(&l, &st, lines);
	if (dir[0])
		json_state_dir(&l, dir);
	json_end(&w);
	free(l.taken);
	if (out.failed) {
		log_error(LOG_MAIN, "out of memory");
		return 2;
	}
	printf("%s\n", out.p ? out.p : "{}");
	free(out.p);
	return 0;
}
