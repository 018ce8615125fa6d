/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared by the referee's tests: a referee driven event by event in virtual time, with a
 * sink that keeps every record (as its journal text) and a line per effect, and a check that
 * the records, read back, give the same game.
 */
#ifndef ANNABELLA_REFEREE_TESTUTIL_H
#define ANNABELLA_REFEREE_TESTUTIL_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"
#include "control/json.h"
#include "control/protocol.h"
#include "game/online.h"
#include "referee/referee.h"
#include "tests/unit/reply_check.h"
#include "tests/unit/utterances.h"

#define RT_MAX_RECORDS 4000
#define RT_LOG_MAX     (256 * 1024)

struct rt {
	struct referee *r;
	struct referee_settings set;
	uint64_t now;
	int games;
	int nrec;
	char types[RT_MAX_RECORDS][24];
	char args[RT_MAX_RECORDS][GAME_RECORD_MAX];
	uint64_t ms[RT_MAX_RECORDS];
	char log[RT_LOG_MAX]; /* one line per effect: "MS KIND DETAIL" */
	size_t log_len;
	/* Utterances in tournament mode that utterances.h does not allow there: how many, the
	 * first, and how many utterances were checked. */
	int tournament_faults;
	char tournament_fault[160];
	int tournament_said;
	/* Records and effects handed out with an audience other than the one this test
	 * expects of them (game/audience.h): how many, and the first. */
	int audience_faults;
	char audience_fault[160];
	int audience_counts[GAME_AUDIENCE_COUNT];
	/* The last MOVE effect: whether the next move may cut its announcement short, and the
	 * report it asks for when heard (rt_said()). */
	bool last_move_echo;
	int last_move_report;
};

static inline void rt_logf(struct rt *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void rt_logf(struct rt *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t->log + t->log_len, RT_LOG_MAX - t->log_len, fmt, ap);
	va_end(ap);
	if (n > 0 && t->log_len + (size_t)n < RT_LOG_MAX)
		t->log_len += (size_t)n;
}

static inline void rt_audience_fault(struct rt *t, const char *what, enum game_audience got,
				     enum game_audience want)
{
	if (!t->audience_faults++)
		snprintf(t->audience_fault, sizeof(t->audience_fault), "%s: %s, expected %s", what,
			 game_audience_name(got), game_audience_name(want));
}

/* What the tests expect of a record's audience, said independently of audience.c: the
 * claim record holds its verdict and a held mismatch is kept from the player (11.3.1), the
 * device's fair-play state is the arbiter's, the promotion choice in progress is the
 * player's; the rest is public. */
static inline void rt_check_record_audience(struct rt *t, const struct game_record *rec)
{
	enum game_audience want = GAME_AUDIENCE_PUBLIC;

	if (rec->type == REC_CLAIM || rec->type == REC_HELD || rec->type == REC_FAIRPLAY)
		want = GAME_AUDIENCE_ARBITER;
	else if (rec->type == REC_SELECT)
		want = GAME_AUDIENCE_PLAYER;
	if ((unsigned)rec->audience < GAME_AUDIENCE_COUNT)
		t->audience_counts[rec->audience]++;
	if (rec->audience != want)
		rt_audience_fault(t, game_record_name(rec->type), rec->audience, want);
}

/* The audience an effect of `kind` on channel `ch` must have: what is said in the earphone is
 * the player's, on the speaker public, the referee's faults and the arbiter's menu the
 * arbiter's, the rest public (a table of its own, not game/audience.c's). */
static inline enum game_audience rt_expected_effect_audience(enum game_effect_kind kind,
							     enum game_channel ch)
{
	switch (kind) {
	case GAME_FX_SAY:
	case GAME_FX_MOVE:
	case GAME_FX_GUIDE:  /* a review's, said aloud */
	case GAME_FX_REVIEW: /* the same */
		return ch == GAME_PUBLIC ? GAME_AUDIENCE_PUBLIC : GAME_AUDIENCE_PLAYER;
	case GAME_FX_REPEAT:
	case GAME_FX_PIECE:
	case GAME_FX_TIMES:
	case GAME_FX_WARNING:
	case GAME_FX_BRAILLE_PAGE:
	case GAME_FX_HINT:
	case GAME_FX_ENGINE_ASK:
	case GAME_FX_GAMES:
	case GAME_FX_LAST_MOVES:
	case GAME_FX_ONLINE_ASK:
	case GAME_FX_EVAL:
		return GAME_AUDIENCE_PLAYER;
	case GAME_FX_FAULT:
	case GAME_FX_AUDIT:
		return GAME_AUDIENCE_ARBITER;
	default:
		return GAME_AUDIENCE_PUBLIC;
	}
}

/* The same check for effects. */
static inline void rt_check_effect_audience(struct rt *t, const struct game_effect *fx)
{
	enum game_audience want = rt_expected_effect_audience(fx->kind, fx->channel);

	if ((unsigned)fx->audience < GAME_AUDIENCE_COUNT)
		t->audience_counts[fx->audience]++;
	if (fx->audience != want)
		rt_audience_fault(t, "effect", fx->audience, want);
}

static inline void rt_record(void *user, const struct game_record *rec)
{
	struct rt *t = user;

	rt_check_record_audience(t, rec);
	if (t->nrec == RT_MAX_RECORDS)
		return;
	snprintf(t->types[t->nrec], sizeof(t->types[0]), "%s", game_record_name(rec->type));
	if (game_record_encode(rec, t->args[t->nrec], sizeof(t->args[0])) < 0)
		snprintf(t->args[t->nrec], sizeof(t->args[0]), "(too long)");
	t->ms[t->nrec] = rec->ms;
	t->nrec++;
}

/* The utterance an effect makes, by the names of utterances.h; NULL if it says nothing. */
static inline const char *rt_utterance(const struct game_effect *fx)
{
	switch (fx->kind) {
	case GAME_FX_SAY:
		return game_msg_name(fx->msg);
	case GAME_FX_MOVE:
		return "move";
	case GAME_FX_REPEAT:
		return fx->move == CHESS_MOVE_NONE ? "nothing-to-repeat" : "repeat";
	case GAME_FX_PIECE:
		return "piece";
	case GAME_FX_GUIDE:
		return "guide";
	case GAME_FX_TIMES:
		return "times";
	case GAME_FX_WARNING:
		return "warning";
	case GAME_FX_BRAILLE_PAGE:
		return "braille-page";
	case GAME_FX_HINT:
		return "hint";
	case GAME_FX_REVIEW:
		return "review";
	case GAME_FX_GAMES:
		return "games";
	case GAME_FX_LAST_MOVES:
		return "last-moves";
	case GAME_FX_EVAL:
		return "eval";
	default:
		return NULL;
	}
}

static inline void rt_check_tournament(struct rt *t, const struct game_effect *fx)
{
	const char *name = rt_utterance(fx), *channel, *fault;

	if (!name || !t->r || referee_game(t->r)->params.mode != GAME_TOURNAMENT)
		return;
	channel = fx->channel == GAME_PUBLIC ? "public" : "private";
	t->tournament_said++;
	if (fx->kind == GAME_FX_MOVE && fx->correction)
		name = "correction"; /* said with the move it announces */
	fault = utterance_tournament_fault(name, channel);
	if (fault && !t->tournament_faults++)
		snprintf(t->tournament_fault, sizeof(t->tournament_fault), "%s (%s): %s", name,
			 channel, fault);
}

static inline void rt_effect(void *user, const struct game_effect *fx)
{
	static const char *const kinds[GAME_FX_KIND_COUNT] = {
	    "SAY",	    "MOVE",	  "REPEAT",	"PIECE",    "GUIDE", "TIMES",
	    "WARNING",	    "SCORESHEET", "GAME_START", "GAME_END", "FAULT", "CLAIM",
	    "BRAILLE_PAGE", "HINT",	  "ENGINE_ASK", "REVIEW",   "AUDIT", "GAMES",
	    "LAST_MOVES",   "ONLINE_ASK", "EVAL"};
	struct rt *t = user;
	char uci[8], sq[3];

	rt_check_tournament(t, fx);
	rt_check_effect_audience(t, fx);
	rt_logf(t, "%" PRIu64 " %s", fx->ms, kinds[fx->kind]);
	switch (fx->kind) {
	case GAME_FX_SAY:
		rt_logf(t, " %s %s", fx->channel == GAME_PUBLIC ? "public" : "private",
			game_msg_name(fx->msg));
		if (fx->count)
			rt_logf(t, " %d", fx->count);
		break;
	case GAME_FX_MOVE:
		t->last_move_echo = fx->echo;
		t->last_move_report = fx->report;
		chess_move_to_uci(fx->move, uci, sizeof(uci));
		rt_logf(t, " %s", uci);
		break;
	case GAME_FX_REPEAT:
		chess_move_to_uci(fx->move, uci, sizeof(uci));
		rt_logf(t, " %s", uci);
		break;
	case GAME_FX_PIECE:
		rt_logf(t, " %c", " PNBRQK"[fx->piece % 7]);
		break;
	case GAME_FX_GUIDE:
		chess_square_format(fx->square, sq);
		rt_logf(t, " %s %s %c%s%s", sq, fx->occupied ? "occupied" : "empty",
			" PNBRQK"[fx->piece % 7], fx -> confirmed ? " confirmed" : "",
			fx->channel == GAME_PUBLIC ? " aloud" : "");
		break;
	case GAME_FX_TIMES:
	case GAME_FX_WARNING:
		rt_logf(t, " %" PRId64 " %" PRId64 " %d", fx->white_ms, fx->black_ms,
			fx->move_number);
		break;
	case GAME_FX_FAULT:
		rt_logf(t, " %s", fx->text);
		break;
	case GAME_FX_AUDIT:
		rt_logf(t, " %s %s %s => %s %s", fx->author,
			fx->role == ROLE_ARBITER ? "arbiter" : "player", fx->command,
			fx->ok ? "ok" : "error", fx->text);
		break;
	case GAME_FX_CLAIM:
		rt_logf(t, " %s %s", game_color_name(fx->color),
			game_claim_kind_name((enum claim_kind)fx->claim));
		break;
	case GAME_FX_BRAILLE_PAGE:
		rt_logf(t, " page %d", fx->page);
		break;
	case GAME_FX_LAST_MOVES:
		rt_logf(t, " plies %d from %d", fx->total, fx->ply);
		break;
	case GAME_FX_EVAL:
		rt_logf(t, " cp %d mate %d ply %d", fx->count, fx->mate, fx->ply);
		break;
	case GAME_FX_HINT:
		chess_move_to_uci(fx->move, uci, sizeof(uci));
		rt_logf(t, " %s", uci);
		break;
	case GAME_FX_ENGINE_ASK: {
		static const char *const req[] = {[GAME_ENGINE_HINT] = "hint",
						  [GAME_ENGINE_PLAY] = "play",
						  [GAME_ENGINE_DRAW] = "draw",
						  [GAME_ENGINE_EVAL] = "eval"};

		rt_logf(t, " %s %s ply %d", req[fx->request], game_color_name(fx->color), fx->ply);
	} break;
	case GAME_FX_ONLINE_ASK:
		rt_logf(t, " %s ply %d", game_online_request_name(fx->online_request), fx->ply);
		break;
	case GAME_FX_REVIEW: {
		static const char *const says[] = {"next",    "back",	      "where",
						   "goto",    "enter",	      "leave",
						   "comment", "choose-begin", "choose"};

		chess_move_to_uci(fx->move, uci, sizeof(uci));
		rt_logf(t, " %s %s at %d of %d", says[fx->review % 9],
			fx->move == CHESS_MOVE_NONE ? "-" : uci, fx->ply, fx->total);
		if (fx->channel == GAME_PUBLIC)
			rt_logf(t, " aloud");
		if (fx->line)
			rt_logf(t, " line %d", fx->line);
		if (fx->variations)
			rt_logf(t, " variations %d", fx->variations);
		if (fx->comment)
			rt_logf(t, " comment%s '%s'", fx->comment_said ? "" : "-cue", fx->comment);
		if (fx->review >= GAME_REVIEW_CHOOSE_BEGIN)
			rt_logf(t, " move %d", fx->move_number);
		break;
	}
	default:
		break;
	}
	rt_logf(t, "\n");
}

static inline void rt_new_game(void *user, struct game_params *p)
{
	struct rt *t = user;

	snprintf(p->id, sizeof(p->id), "test-%d", ++t->games);
}

/* A referee for a new game: player, time control, start FEN (NULL: initial). */
static inline void rt_open(struct rt *t, int player, const char *tc, const char *fen)
{
	struct game_sink sink = {
	    .user = t, .record = rt_record, .effect = rt_effect, .new_game = rt_new_game};
	struct game_event ready = {.kind = GAME_EV_BOARD_READY};

	if (!t->set.promotion_ms)
		referee_settings_defaults(&t->set);
	t->set.next.player = player;
	snprintf(t->set.next.time_control, sizeof(t->set.next.time_control), "%s", tc);
	snprintf(t->set.next.fen, sizeof(t->set.next.fen), "%s", fen ? fen : CHESS_FEN_START);
	t->r = referee_new(&t->set, &sink);
	referee_start(t->r, t->now);
	ready.ms = t->now;
	ready.sensed = referee_expected_occupancy(t->r);
	referee_handle(t->r, &ready);
}

static inline void rt_close(struct rt *t)
{
	referee_stop(t->r, t->now);
	referee_free(t->r);
	t->r = NULL;
}

static inline const struct game *rt_game(const struct rt *t)
{
	return referee_game(t->r);
}

/* Ticks at the referee's deadlines up to now + ms, as the loop runs them. */
static inline void rt_wait(struct rt *t, uint64_t ms)
{
	uint64_t end = t->now + ms;

	for (int i = 0; i < 10000; i++) {
		uint64_t d = referee_deadline(t->r, t->now);
		struct game_event tick = {.kind = GAME_EV_TICK};

		if (d > end)
			break;
		if (d > t->now)
			t->now = d;
		tick.ms = t->now;
		referee_handle(t->r, &tick);
	}
	t->now = end;
}

static inline void rt_event(struct rt *t, enum game_event_kind kind, int index, bool active)
{
	struct game_event ev = {.kind = kind, .ms = t->now, .index = index, .active = active};

	referee_handle(t->r, &ev);
}

/* The voice's report: the last move's announcement has been heard to its end. */
static inline void rt_said(struct rt *t)
{
	rt_event(t, GAME_EV_SAID, t->last_move_report, false);
}

static inline int rt_sq(const char *name)
{
	return chess_square_parse(name);
}

/* A peg leaves / enters a hole; 100 ms pass. */
static inline void rt_lift(struct rt *t, const char *sq)
{
	rt_event(t, GAME_EV_SQUARE, rt_sq(sq), false);
	rt_wait(t, 100);
}

static inline void rt_place(struct rt *t, const char *sq)
{
	rt_event(t, GAME_EV_SQUARE, rt_sq(sq), true);
	rt_wait(t, 100);
}

/* A quiet move (or a capture, the captured piece taken first), then the settle time. */
static inline void rt_move(struct rt *t, const char *from, const char *to)
{
	rt_lift(t, from);
	rt_place(t, to);
	rt_wait(t, 200);
}

static inline void rt_capture(struct rt *t, const char *from, const char *to)
{
	rt_lift(t, to);
	rt_lift(t, from);
	rt_place(t, to);
	rt_wait(t, 200);
}

/* A button pressed and released (held `ms`), then 100 ms. */
static inline void rt_hold(struct rt *t, enum game_button b, uint64_t ms)
{
	rt_event(t, GAME_EV_BUTTON, b, true);
	rt_wait(t, ms);
	rt_event(t, GAME_EV_BUTTON, b, false);
	rt_wait(t, 100);
}

static inline void rt_press(struct rt *t, enum game_button b)
{
	rt_hold(t, b, 80);
}

static inline void rt_log_reply(struct rt *t, bool ok, const char *text)
{
	rt_logf(t, "%" PRIu64 " REPLY %s %s\n", t->now, ok ? "ok" : "error", text);
}

/* A command given straight to the referee (as the button menu does); its reply logged as
 * "MS REPLY ok|error TEXT". */
static inline void rt_command(struct rt *t, const struct game_command *cmd)
{
	struct game_reply reply;
	struct strbuf line = {0};

	referee_command(t->r, cmd, t->now, &reply);
	/* The referee's reply as the socket gives it: a code of the table with its row's
	 * arguments, its text their wording (reply_check.h). */
	control_reply(&line, &reply);
	if (!line.p || reply_check_line(line.p)) {
		fprintf(stderr, "reply to command %d: %s\n", (int)cmd->kind,
			line.p ? reply_check_line(line.p) : "none");
		abort();
	}
	free(line.p);
	rt_log_reply(t, reply.ok, reply.text);
	referee_flush(t->r, t->now);
}

/* A request line as the control socket gives it, through the command table (roles, modes,
 * needs, parser, handler), as `role` (author "tester"); its reply logged as above and
 * returned (0: ok). */
static inline int rt_control(struct rt *t, enum game_role role, const char *line)
{
	struct control_env env = {
	    .referee = t->r, .now = t->now, .role = role, .author = "tester", .connection = true};
	struct control_outcome out;
	char text[GAME_REPLY_MAX + 64] = "";
	int rc;

	control_dispatch(&env, line, strlen(line), &out);
	/* Every reply's text is its code's wording from its arguments (reply_check.h). */
	if (out.reply.p && reply_check_line(out.reply.p)) {
		fprintf(stderr, "reply to '%s': %s\n", line, reply_check_line(out.reply.p));
		abort();
	}
	if (out.reply.p && json_get(out.reply.p, out.ok ? "text" : "error", text, sizeof(text)) < 0)
		snprintf(text, sizeof(text), "%s", out.reply.p);
	rt_log_reply(t, out.ok, text);
	rc = out.ok ? 0 : -1;
	control_outcome_free(&out);
	referee_flush(t->r, t->now);
	return rc;
}

/* The status reply as an assistant's connection gets it (a static buffer, overwritten by the
 * next call). */
static inline const char *rt_status(const struct rt *t)
{
	struct control_env env = {.referee = t->r,
				  .now = t->now,
				  .role = ROLE_ASSISTANT,
				  .author = "tester",
				  .connection = true};
	struct control_outcome out;
	static char text[65536];

	control_dispatch(&env, "status", 6, &out);
	snprintf(text, sizeof(text), "%s", out.reply.p ? out.reply.p : "");
	control_outcome_free(&out);
	return text;
}

/* Read the kept records back into a fresh referee, as a restart does: 0 when every record
 * decodes and applies; the game's description at `at` into buf. */
static inline int rt_replay(const struct rt *t, int from, int to, struct referee *fresh)
{
	for (int i = from; i < to; i++) {
		struct game_record rec;
		char err[160];

		if (game_record_decode(&rec, t->types[i], t->args[i], t->ms[i], err, sizeof(err)))
			return -1;
		if (referee_replay(fresh, &rec))
			return -1;
	}
	return 0;
}

/* A power cut and a restart: the kept records read into a fresh referee with the same sink,
 * which starts at now with the board as it was, and takes the place of t->r (its records and
 * effects go on into t). */
static inline void rt_restart(struct rt *t)
{
	struct game_sink sink = {
	    .user = t, .record = rt_record, .effect = rt_effect, .new_game = rt_new_game};
	struct game_event ready = {.kind = GAME_EV_BOARD_READY, .ms = t->now};
	struct referee *fresh = referee_new(&t->set, &sink);
	int n = t->nrec;

	if (!fresh || rt_replay(t, 0, n, fresh)) {
		fprintf(stderr, "rt_restart: the records do not replay\n");
		abort();
	}
	ready.sensed = referee_expected_occupancy(t->r);
	referee_free(t->r);
	t->r = fresh;
	referee_start(t->r, t->now);
	referee_handle(t->r, &ready);
}

/* The index of the last game record, where the current game's journal begins. */
static inline int rt_game_start(const struct rt *t)
{
	for (int i = t->nrec - 1; i >= 0; i--)
		if (!strcmp(t->types[i], "game"))
			return i;
	return 0;
}

#endif
