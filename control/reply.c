/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control protocol's replies and watch events as JSON (protocol.h).
 */
#include "control/json.h"
#include "control/protocol.h"

#include <stdio.h>
#include <string.h>

void control_reply_error(struct strbuf *out, const char *error)
{
	struct json_writer w;

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", false);
	json_string(&w, "error", error);
	json_end(&w);
}

void control_reply_ok(struct strbuf *out, const char *text)
{
	struct json_writer w;

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	if (text)
		json_string(&w, "text", text);
	json_end(&w);
}

const char *control_export_name(enum control_export f)
{
	static const char *const names[] = {"pgn", "text", "brf", "unicode"};

	return (unsigned)f < 4 ? names[f] : "pgn";
}

static void squares(struct json_writer *w, const char *key, uint64_t mask)
{
	json_array(w, key);
	for (int sq = 0; sq < 64; sq++) {
		char name[3];

		if (!(mask >> sq & 1))
			continue;
		chess_square_format(sq, name);
		json_string(w, NULL, name);
	}
	json_end(w);
}

static void uci(struct json_writer *w, const char *key, chess_move m)
{
	char text[8];

	if (m == CHESS_MOVE_NONE) {
		json_null(w, key);
		return;
	}
	chess_move_to_uci(m, text, sizeof(text));
	json_string(w, key, text);
}

static const char *piece_name(enum chess_piece_type p)
{
	static const char *const names[] = {NULL,   "pawn",  "knight", "bishop",
					    "rook", "queen", "king"};

	return (unsigned)p < 7 ? names[p] : NULL;
}

static const char *clock_state_name(enum clock_state s)
{
	static const char *const names[] = {"not-started", "running", "paused", "flagged",
					    "stopped"};

	return (unsigned)s < 5 ? names[s] : "?";
}

static void clock_status(struct json_writer *w, const struct game *g, uint64_t now)
{
	const struct chess_clock *c = &g->clock;
	bool turn = c->state == CLOCK_RUNNING || c->state == CLOCK_PAUSED;

	if (!g->has_clock) {
		json_null(w, "clock");
		return;
	}
	json_object(w, "clock");
	json_string(w, "time_control", g->params.time_control);
	json_string(w, "state", clock_state_name(c->state));
	json_int(w, "white_ms", clock_remaining(c, CHESS_WHITE, now));
	json_int(w, "black_ms", clock_remaining(c, CHESS_BLACK, now));
	json_int(w, "white_used_ms", (int64_t)clock_used(c, CHESS_WHITE, now));
	json_int(w, "black_used_ms", (int64_t)clock_used(c, CHESS_BLACK, now));
	if (turn)
		json_string(w, "running", game_color_name(c->running));
	else
		json_null(w, "running");
	json_int(w, "white_moves", c->moves[0]);
	json_int(w, "black_moves", c->moves[1]);
	/* After a restart: thinking time the clocks gave back (the arbiter decides). */
	if (g->uncharged_ms > 0) {
		json_int(w, "uncharged_ms", g->uncharged_ms);
		json_string(w, "uncharged_color", game_color_name(g->uncharged_color));
	}
	json_end(w);
}

static void flows(struct json_writer *w, const struct game *g, const struct control_status_extra *x)
{
	json_object(w, "flows");
	if (promotion_is_pending(&g->promotion)) {
		json_object(w, "promotion");
		uci(w, "move", g->promotion.move);
		json_string(w, "choice", piece_name(g->promotion.choice));
		json_end(w);
	} else {
		json_null(w, "promotion");
	}
	if (g->mismatch.state == MISMATCH_SETUP) {
		json_null(w, "mismatch");
		json_object(w, "setup");
		squares(w, "differ_now", x->board_differences);
		json_end(w);
		json_end(w);
		return;
	}
	if (mismatch_active(&g->mismatch)) {
		json_object(w, "mismatch");
		json_string(w, "state", mismatch_state_name(g->mismatch.state));
		squares(w, "should_be_empty", g->mismatch.should_be_empty);
		squares(w, "should_be_occupied", g->mismatch.should_be_occupied);
		squares(w, "differ_now", x->board_differences);
		json_end(w);
	} else {
		json_null(w, "mismatch");
	}
	json_null(w, "setup");
	json_end(w);
}

static void claim(struct json_writer *w, const struct game *g, enum game_role role)
{
	const struct game_claim *c = &g->claim;

	if (!g->claims) {
		json_null(w, "claim");
		return;
	}
	json_object(w, "claim");
	json_string(w, "by", game_color_name(c->color));
	json_string(w, "kind", game_claim_kind_name(c->kind));
	uci(w, "move", c->move);
	json_int(w, "ply", c->ply);
	json_bool(w, "open", c->open);
	/* Whether it is correct is for the arbiter alone (11.3.1). */
	if (role == ROLE_ARBITER)
		json_bool(w, "correct", c->correct);
	json_end(w);
}

static void result(struct json_writer *w, const struct game *g)
{
	const struct result_flow *r = &g->result;

	json_object(w, "result");
	json_string(w, "state", result_state_name(r->state));
	json_string(w, "result", r->result);
	json_string(w, "termination", result_termination_pgn(r->termination));
	json_string(w, "reason", r->reason);
	json_bool(w, "approved", r->state == RESULT_APPROVED);
	/* "*" where a rule ended the game: whether the opponent can still mate is not proven
	 * either way, the arbiter decides (the reason says so; the position is "fen"). */
	json_bool(w, "arbiter_decides", result_undecided(r));
	if (r->state == RESULT_FLAG_PENDING) {
		json_string(w, "flag", game_color_name(r->flag_color));
		json_string(w, "flag_result", r->flag_result);
	} else {
		json_null(w, "flag");
	}
	json_end(w);
}

void control_reply_status(struct strbuf *out, const struct game *g,
			  const struct control_status_extra *x)
{
	struct json_writer w;
	char fen[CHESS_FEN_MAX];
	int last = game_plies(g) - 1;

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	if (!g->open) {
		json_null(&w, "game");
		json_string(&w, "lang", x->lang);
		json_end(&w);
		return;
	}
	chess_fen_format(game_position(g), fen, sizeof(fen));
	json_string(&w, "game", g->params.id);
	json_string(&w, "fen", fen);
	json_int(&w, "plies", game_plies(g));
	json_string(&w, "to_move", game_color_name(game_position(g)->side));
	json_string(&w, "player", game_color_name(g->params.player));
	json_string(&w, "mode", game_mode_name(g->params.mode));
	json_string(&w, "rules", rules_edition_name(g->params.edition));
	json_string(&w, "lang", x->lang);
	clock_status(&w, g, x->now);
	if (last >= 0) {
		json_object(&w, "last_move");
		json_int(&w, "ply", last + 1);
		json_string(&w, "san", g->plies[last].san);
		json_string(&w, "words", x->last_move_words);
		json_end(&w);
	} else {
		json_null(&w, "last_move");
	}
	flows(&w, g, x);
	json_object(&w, "record");
	json_int(&w, "skipped", x->record.skipped);
	json_int(&w, "bad", x->record.bad);
	json_int(&w, "duplicates", x->record.duplicates);
	json_int(&w, "refused", x->record.refused);
	json_int(&w, "first_skipped_line", x->record.first_skipped_line);
	json_int(&w, "moves_from_scoresheet", x->record.moves_from_scoresheet);
	json_int(&w, "scoresheet_kept_plies", x->record.scoresheet_kept_plies);
	json_string(&w, "scoresheet_kept", x->record.scoresheet_kept);
	json_bool(&w, "saving", !x->record.saving_fails);
	json_string(&w, "saving_error", x->record.saving_error);
	json_end(&w);
	json_object(&w, "illegal");
	json_int(&w, "white", g->illegal_count[0]);
	json_int(&w, "black", g->illegal_count[1]);
	json_end(&w);
	json_object(&w, "empty_presses");
	json_int(&w, "white", g->empty_presses[0]);
	json_int(&w, "black", g->empty_presses[1]);
	json_end(&w);
	json_array(&w, "notes");
	for (int i = 0; i < g->note_count; i++) {
		json_object(&w, NULL);
		json_int(&w, "after_ply", g->notes[i].ply + 1);
		json_string(&w, "text", g->notes[i].text);
		json_end(&w);
	}
	json_end(&w);
	if (g->offer_color >= 0)
		json_string(&w, "draw_offer", game_color_name(g->offer_color));
	else
		json_null(&w, "draw_offer");
	json_int(&w, "draw_offers", g->offers);
	claim(&w, g, x->role);
	result(&w, g);
	json_int(&w, "restarts", g->restarts);
	json_object(&w, "tags");
	for (int i = 0; i < g->params.tag_count; i++)
		json_string(&w, g->params.tags[i].name, g->params.tags[i].value);
	json_end(&w);
	json_end(&w);
}

void control_reply_moves(struct strbuf *out, const struct game *g)
{
	struct json_writer w;

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	json_array(&w, "moves");
	for (int i = 0; i < game_plies(g); i++) {
		const struct game_ply *p = &g->plies[i];
		char hms[32];

		json_object(&w, NULL);
		json_int(&w, "ply", i + 1);
		json_string(&w, "san", p->san);
		if (p->clk_ms >= 0) {
			clock_format_hms(p->clk_ms, hms, sizeof(hms));
			json_string(&w, "clk", hms);
			json_int(&w, "clk_ms", p->clk_ms);
		} else {
			json_null(&w, "clk");
			json_null(&w, "clk_ms");
		}
		json_bool(&w, "draw_offer", p->flags & GAME_PLY_DRAW_OFFER);
		json_end(&w);
	}
	json_end(&w);
	json_end(&w);
}

void control_reply_export(struct strbuf *out, const char *format, const char *text)
{
	struct json_writer w;

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	json_string(&w, "format", format);
	json_string(&w, "text", text);
	json_end(&w);
}

void control_reply_compare(struct strbuf *out, const struct game_comparison *c)
{
	struct json_writer w;
	char text[256];

	game_compare_describe(c, text, sizeof(text));
	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	json_string(&w, "text", text);
	json_int(&w, "agree", c->agree);
	json_int(&w, "device_plies", c->device_plies);
	json_int(&w, "their_plies", c->their_plies);
	if (c->differ) {
		json_object(&w, "differ");
		json_int(&w, "ply", c->agree + 1);
		json_int(&w, "move_number", c->move_number);
		json_string(&w, "device", c->device[0] ? c->device : NULL);
		json_string(&w, "theirs", c->theirs[0] ? c->theirs : NULL);
		json_string(&w, "their_word", c->their_word[0] ? c->their_word : NULL);
		json_end(&w);
	} else {
		json_null(&w, "differ");
	}
	if (c->unreadable)
		json_string(&w, "unreadable", c->unreadable_word);
	json_end(&w);
}

void control_reply_help(struct strbuf *out)
{
	struct json_writer w;
	int n;
	const struct control_command_info *c = control_commands(&n);

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	json_array(&w, "commands");
	for (int i = 0; i < n; i++) {
		json_object(&w, NULL);
		json_string(&w, "name", c[i].name);
		json_string(&w, "usage", c[i].usage);
		json_string(&w, "role", c[i].arbiter_only ? "arbiter" : "any");
		json_end(&w);
	}
	json_end(&w);
	json_end(&w);
}

/* ------------------------------------------------------------------ events */

void control_event_record(struct strbuf *out, const struct game_record *rec, const struct game *g)
{
	struct json_writer w;
	char args[GAME_RECORD_MAX];

	json_init(&w, out);
	json_object(&w, NULL);
	json_string(&w, "event", game_record_name(rec->type));
	json_int(&w, "ms", (int64_t)rec->ms);
	if (rec->author[0])
		json_string(&w, "author", rec->author);
	switch (rec->type) {
	case REC_MADE:
		json_int(&w, "ply", rec->u.made.ply);
		uci(&w, "uci", rec->u.made.move);
		json_string(&w, "san", rec->u.made.san);
		break;
	case REC_RELAYED:
		json_int(&w, "ply", rec->u.relayed.ply);
		uci(&w, "uci", rec->u.relayed.move);
		json_string(&w, "san", rec->u.relayed.san);
		break;
	case REC_COMPLETE:
		json_int(&w, "ply", rec->u.complete.ply);
		json_int(&w, "clk_ms", rec->u.complete.clk_ms);
		break;
	case REC_PRESS:
		json_string(&w, "color", game_color_name(rec->u.press.color));
		json_string(&w, "kind", game_press_kind_name(rec->u.press.kind));
		break;
	case REC_RESULT:
		json_string(&w, "result", rec->u.result.result);
		json_string(&w, "termination", result_termination_pgn(rec->u.result.termination));
		json_string(&w, "reason", rec->u.result.reason);
		break;
	case REC_MISMATCH:
	case REC_HELD:
		squares(&w, "should_be_empty", rec->u.mismatch.empty);
		squares(&w, "should_be_occupied", rec->u.mismatch.occupied);
		break;
	default:
		/* The record's own words, as the journal has them. */
		if (game_record_encode(rec, args, sizeof(args)) >= 0)
			json_string(&w, "args", args);
		break;
	}
	if (game_record_has_clock(rec->type) && g && g->has_clock) {
		json_int(&w, "white_ms", clock_remaining(&g->clock, CHESS_WHITE, rec->ms));
		json_int(&w, "black_ms", clock_remaining(&g->clock, CHESS_BLACK, rec->ms));
	}
	json_end(&w);
}

void control_event_say(struct strbuf *out, uint64_t ms, bool public_channel, const char *text)
{
	struct json_writer w;

	json_init(&w, out);
	json_object(&w, NULL);
	json_string(&w, "event", "say");
	json_int(&w, "ms", (int64_t)ms);
	json_string(&w, "channel", public_channel ? "public" : "private");
	json_string(&w, "text", text);
	json_end(&w);
}
