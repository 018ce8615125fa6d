/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control protocol's replies as JSON (protocol.h); the watch events are events.c's.
 */
#include "control/json.h"
#include "control/protocol.h"
#include "control/replies.h"
#include "game/online.h"
#include "game/review.h"

#include <stdio.h>
#include <string.h>

/* "code":..,"args":{..}: the end of every reply. */
static void code_fields(struct json_writer *w, const struct game_reply *reply)
{
	json_string(w, "code", reply_row(reply->code)->name);
	json_object(w, "args");
	for (int i = 0; i < reply->argc; i++) {
		if (reply->args[i].number)
			json_int(w, reply->args[i].key, reply->args[i].n);
		else
			json_string(w, reply->args[i].key, game_reply_arg_text(reply, i));
	}
	json_end(w);
}

/* A data reply's code, without arguments. */
static void code_only(struct json_writer *w, enum reply_code code)
{
	json_string(w, "code", reply_row(code)->name);
	json_object(w, "args");
	json_end(w);
}

void control_reply(struct strbuf *out, const struct game_reply *reply)
{
	struct json_writer w;

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", reply->ok);
	if (reply_row(reply->code)->wording)
		json_string(&w, reply->ok ? "text" : "error", reply->text);
	code_fields(&w, reply);
	json_end(&w);
}

const char *control_export_name(enum control_export f)
{
	static const char *const names[] = {"pgn", "text", "brf", "unicode"};

	return (unsigned)f < 4 ? names[f] : "pgn";
}

void control_json_squares(struct json_writer *w, const char *key, uint64_t mask)
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

void control_json_uci(struct json_writer *w, const char *key, chess_move m)
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
	json_string(w, "kind", rules_kind_name(rules_kind(g->rules, &g->tc)));
	/* Who stopped clocks that stand (6.11): the player's pause button, the arbiter (and
	 * who), a claim, a restart; and a press while they stood that completed a move. */
	if (c->state == CLOCK_PAUSED && g->stopped_by != STOP_NONE) {
		json_string(w, "stopped_by", game_stop_name(g->stopped_by));
		json_string(w, "stopped_by_author", g->stopped_author);
	} else {
		json_null(w, "stopped_by");
	}
	if (c->state == CLOCK_PAUSED && g->paused_completed >= 0)
		json_string(w, "completed_while_stopped", game_color_name(g->paused_completed));
	/* After a restart: thinking time the clocks gave back (at least, at most; the arbiter
	 * decides), or a clock that could not be known. */
	if (g->uncharged_up_to_ms > 0) {
		json_int(w, "uncharged_ms", g->uncharged_ms);
		json_int(w, "uncharged_up_to_ms", g->uncharged_up_to_ms);
		json_string(w, "uncharged_color", game_color_name(g->uncharged_color));
	}
	json_bool(w, "uncertain", g->clock_uncertain);
	json_end(w);
}

static void flows(struct json_writer *w, const struct game *g, const struct control_status_extra *x)
{
	json_object(w, "flows");
	if (promotion_is_pending(&g->promotion)) {
		json_object(w, "promotion");
		control_json_uci(w, "move", g->promotion.move);
		/* The piece being chosen is said in the earphone; final, it is announced. */
		json_string(w, "choice",
			    game_audience_reaches(GAME_AUDIENCE_PLAYER, x->audience)
				? piece_name(g->promotion.choice)
				: NULL);
		json_end(w);
	} else {
		json_null(w, "promotion");
	}
	if (g->mismatch.state == MISMATCH_SETUP) {
		json_null(w, "mismatch");
		json_object(w, "setup");
		control_json_squares(w, "differ_now", x->board_differences);
		json_end(w);
		json_end(w);
		return;
	}
	/* A board kept from the player during their own move is the arbiter's to know: telling
	 * it would be advice (11.3.1). */
	if (mismatch_active(&g->mismatch) &&
	    (g->mismatch.state != MISMATCH_HELD ||
	     game_audience_reaches(GAME_AUDIENCE_ARBITER, x->audience))) {
		json_object(w, "mismatch");
		json_string(w, "state", mismatch_state_name(g->mismatch.state));
		control_json_squares(w, "should_be_empty", g->mismatch.should_be_empty);
		control_json_squares(w, "should_be_occupied", g->mismatch.should_be_occupied);
		control_json_squares(w, "differ_now", x->board_differences);
		json_end(w);
	} else {
		json_null(w, "mismatch");
	}
	json_null(w, "setup");
	json_end(w);
}

/* The device's fair-play state over the game (game/fairplay.h), for the arbiter alone: the
 * verdict item by item on the last state measured, whether it broke the policy, and the
 * scoresheet's summary. */
static void fairplay(struct json_writer *w, const struct game *g, enum game_audience audience)
{
	const struct game_fairplay *f = &g->fairplay;
	struct fairplay_item items[FAIRPLAY_ITEM_COUNT];
	char text[FAIRPLAY_POLICY_MAX > FAIRPLAY_SUMMARY_MAX ? FAIRPLAY_POLICY_MAX
							     : FAIRPLAY_SUMMARY_MAX];

	if (!f->measured || !game_audience_reaches(GAME_AUDIENCE_ARBITER, audience)) {
		json_null(w, "fairplay");
		return;
	}
	json_object(w, "fairplay");
	json_bool(w, "ok", fairplay_judge(&f->policy, &f->last, items));
	json_bool(w, "breach", f->breach);
	if (f->breach) {
		json_int(w, "breach_move", f->breach_move);
		json_string(w, "breach_what", f->breach_what);
	}
	json_int(w, "changes", f->changes);
	if (!fairplay_policy_format(&f->policy, text, sizeof(text)))
		json_string(w, "policy", text);
	json_array(w, "items");
	for (int i = 0; i < FAIRPLAY_ITEM_COUNT; i++) {
		json_object(w, NULL);
		json_string(w, "item", fairplay_item_name((enum fairplay_item_kind)i));
		json_bool(w, "ok", items[i].ok);
		json_string(w, "what", items[i].what);
		if (!items[i].ok)
			json_string(w, "fix", items[i].fix);
		json_end(w);
	}
	json_end(w);
	fairplay_summary(&f->first, f->breach, f->breach_move, f->breach_what, &f->policy, text,
			 sizeof(text));
	json_string(w, "summary", text);
	json_end(w);
}

static void claim(struct json_writer *w, const struct game *g, enum game_audience audience)
{
	const struct game_claim *c = &g->claim;

	if (!g->claims) {
		json_null(w, "claim");
		return;
	}
	json_object(w, "claim");
	json_string(w, "by", game_color_name(c->color));
	json_string(w, "kind", game_claim_kind_name(c->kind));
	control_json_uci(w, "move", c->move);
	/* The move was the claimant's own, made before the claim (1.3, 9.4): the verdict is on
	 * the position after it. */
	json_bool(w, "after_move", c->after_move);
	json_int(w, "ply", c->ply);
	json_bool(w, "open", c->open);
	/* Whether it is correct is for the arbiter alone (11.3.1). */
	if (game_audience_reaches(GAME_AUDIENCE_ARBITER, audience))
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

/* The training process and a review (docs/training.md "Training and study"): null when there is
 * none. */
static void training(struct json_writer *w, const struct control_status_extra *x)
{
	const struct referee_engine_info *e = &x->engine;
	const struct referee_review_info *v = &x->review;

	if (e->state == REFEREE_ENGINE_NONE) {
		json_null(w, "engine");
	} else {
		json_object(w, "engine");
		json_string(w, "state", e->state == REFEREE_ENGINE_PLAYING ? "playing" : "waiting");
		if (e->state == REFEREE_ENGINE_PLAYING) {
			json_string(w, "name", e->name);
			json_string(w, "plays", game_color_name(e->side));
			json_bool(w, "hint_asked", e->hint_asked);
		}
		json_end(w);
	}
	if (v->state == REVIEW_OFF) {
		json_null(w, "review");
		return;
	}
	json_object(w, "review");
	json_string(w, "state", review_state_name((enum review_state)v->state));
	json_int(w, "at", v->at);
	json_int(w, "plies", v->plies);
	json_int(w, "line", v->line);
	json_bool(w, "aloud", v->aloud);
	control_json_squares(w, "differ_now", v->differ);
	json_end(w);
}

/* The online process (docs/online.md "Playing online"): null when there is none.  What the server
 * knows of the player (the token) never comes here. */
static void online(struct json_writer *w, const struct control_status_extra *x)
{
	const struct referee_online_info *o = &x->online;
	char offers[64];

	if (o->state == REFEREE_ONLINE_NONE) {
		json_null(w, "online");
		return;
	}
	json_object(w, "online");
	json_string(w, "state", o->state == REFEREE_ONLINE_WAITING ? "waiting" : "connected");
	game_online_offers_format(o->offers, offers, sizeof(offers));
	json_string(w, "offers", offers);
	json_bool(w, "opponent_gone", o->opponent_gone);
	json_bool(w, "claimable", o->claimable);
	json_end(w);
}

/* The player on move as `claim` takes it (9.2, 9.3: only they may claim): the side to move,
 * or, with a clock, the side whose move is made on the board and not yet completed by its
 * press (`made`: a claim now is about the position after that move). */
static void on_move(struct json_writer *w, const struct game *g)
{
	bool made;
	int color = game_claim_on_move(g, &made);

	json_object(w, "on_move");
	json_string(w, "color", game_color_name(color));
	json_bool(w, "made", made);
	json_end(w);
}

/* The last move made, as its ply, SAN and the words it was announced with; null before the first.
 */
static void last_move(struct json_writer *w, const struct game *g,
		      const struct control_status_extra *x)
{
	int last = game_plies(g) - 1;

	if (last < 0) {
		json_null(w, "last_move");
		return;
	}
	json_object(w, "last_move");
	json_int(w, "ply", last + 1);
	json_string(w, "san", g->plies[last].san);
	json_string(w, "words", x->last_move_words);
	json_end(w);
}

/* What resuming made of the journal and the scoresheet, and whether saving works. */
static void record(struct json_writer *w, const struct control_status_extra *x)
{
	json_object(w, "record");
	json_int(w, "skipped", x->record.skipped);
	json_int(w, "bad", x->record.bad);
	json_int(w, "duplicates", x->record.duplicates);
	json_int(w, "refused", x->record.refused);
	json_int(w, "first_skipped_line", x->record.first_skipped_line);
	json_int(w, "moves_from_scoresheet", x->record.moves_from_scoresheet);
	json_int(w, "scoresheet_kept_plies", x->record.scoresheet_kept_plies);
	json_string(w, "scoresheet_kept", x->record.scoresheet_kept);
	json_int(w, "readings_from_scoresheet", x->record.readings_from_scoresheet);
	json_int(w, "readings_from_presses", x->record.readings_from_presses);
	json_int(w, "reordered", x->record.reordered);
	json_string(w, "foreign_journal", x->record.foreign_journal);
	json_int(w, "moves_lost", x->record.moves_lost);
	json_int(w, "readings_missing", x->record.readings_missing);
	json_bool(w, "from_scoresheet", x->record.from_scoresheet);
	json_bool(w, "saving", !x->record.saving_fails);
	json_string(w, "saving_error", x->record.saving_error);
	json_end(w);
}

/* The journal's hash chain: null when the journal has none. */
static void journal(struct json_writer *w, const struct control_status_extra *x)
{
	if (!x->journal.chain || !x->journal.chain[0]) {
		json_null(w, "journal");
		return;
	}
	json_object(w, "journal");
	json_int(w, "line", x->journal.line);
	json_string(w, "chain", x->journal.chain);
	json_string(w, "key", x->journal.key);
	json_end(w);
}

/* An integer that is null when unknown (negative). */
static void int_or_null(struct json_writer *w, const char *key, int n)
{
	if (n >= 0)
		json_int(w, key, n);
	else
		json_null(w, key);
}

/* The supply and the battery: null when power is not monitored. */
static void power(struct json_writer *w, const struct control_status_extra *x)
{
	if (!x->power.monitored) {
		json_null(w, "power");
		return;
	}
	json_object(w, "power");
	json_string(w, "state", x->power.state);
	if (x->power.undervoltage_sensor)
		json_bool(w, "undervoltage", x->power.undervoltage);
	else
		json_null(w, "undervoltage");
	if (x->power.battery) {
		json_object(w, "battery");
		json_string(w, "status", x->power.battery_status);
		int_or_null(w, "percent", x->power.percent);
		int_or_null(w, "minutes_left", x->power.minutes_left);
		json_end(w);
	} else {
		json_null(w, "battery");
	}
	json_end(w);
}

/* A count per color, as {"white":..,"black":..}. */
static void per_color(struct json_writer *w, const char *key, const int count[2])
{
	json_object(w, key);
	json_int(w, "white", count[0]);
	json_int(w, "black", count[1]);
	json_end(w);
}

/* Illegal moves, empty presses and the presses that completed no move the game knows, as
 * `illegal` would rule them. */
static void presses(struct json_writer *w, const struct game *g)
{
	per_color(w, "illegal", g->illegal_count);
	per_color(w, "empty_presses", g->empty_presses);
	json_object(w, "open_presses");
	for (int c = 0; c < 2; c++) {
		if (g->open_press[c].open)
			json_string(w, game_color_name(c),
				    game_press_kind_name(g->open_press[c].kind));
		else
			json_null(w, game_color_name(c));
	}
	json_end(w);
}

/* The arbiter's notes, each after its ply. */
static void notes(struct json_writer *w, const struct game *g)
{
	json_array(w, "notes");
	for (int i = 0; i < g->note_count; i++) {
		json_object(w, NULL);
		json_int(w, "after_ply", g->notes[i].ply + 1);
		json_string(w, "text", g->notes[i].text);
		json_end(w);
	}
	json_end(w);
}

/* The draw offer standing and how many were made. */
static void draw_offer(struct json_writer *w, const struct game *g)
{
	if (g->offer_color >= 0)
		json_string(w, "draw_offer", game_color_name(g->offer_color));
	else
		json_null(w, "draw_offer");
	json_int(w, "draw_offers", g->offers);
}

static void tags(struct json_writer *w, const struct game *g)
{
	json_object(w, "tags");
	for (int i = 0; i < g->params.tag_count; i++)
		json_string(w, g->params.tags[i].name, g->params.tags[i].value);
	json_end(w);
}

/* The game's identity: position, start, sides, mode, rules and language. */
static void identity(struct json_writer *w, const struct game *g,
		     const struct control_status_extra *x)
{
	char fen[CHESS_FEN_MAX];

	chess_fen_format(game_position(g), fen, sizeof(fen));
	json_string(w, "game", g->params.id);
	json_string(w, "fen", fen);
	chess_fen_format(&g->start, fen, sizeof(fen));
	json_string(w, "start_fen", fen);
	json_int(w, "plies", game_plies(g));
	json_string(w, "to_move", game_color_name(game_position(g)->side));
	on_move(w, g);
	json_string(w, "player", game_color_name(g->params.player));
	json_string(w, "mode", game_mode_name(g->params.mode));
	json_string(w, "rules", rules_edition_name(g->params.edition));
	json_string(w, "lang", x->lang);
}

void control_reply_status(struct strbuf *out, const struct game *g,
			  const struct control_status_extra *x)
{
	struct json_writer w;

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	if (!g->open) {
		json_null(&w, "game");
		json_string(&w, "lang", x->lang);
		code_only(&w, REPLY_STATUS);
		json_end(&w);
		return;
	}
	identity(&w, g, x);
	clock_status(&w, g, x->now);
	last_move(&w, g, x);
	flows(&w, g, x);
	record(&w, x);
	journal(&w, x);
	power(&w, x);
	presses(&w, g);
	notes(&w, g);
	draw_offer(&w, g);
	claim(&w, g, x->audience);
	fairplay(&w, g, x->audience);
	result(&w, g);
	json_int(&w, "restarts", g->restarts);
	training(&w, x);
	online(&w, x);
	tags(&w, g);
	code_only(&w, REPLY_STATUS);
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
		json_bool(&w, "after_flag", p->flags & GAME_PLY_AFTER_FLAG);
		control_json_uci(&w, "uci", p->move);
		json_end(&w);
	}
	json_end(&w);
	code_only(&w, REPLY_MOVES);
	json_end(&w);
}

void control_reply_games(struct strbuf *out, const struct game_summary *games, int count)
{
	struct json_writer w;
	struct game_reply r;

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	json_array(&w, "games");
	for (int i = 0; i < count; i++) {
		const struct game_summary *g = &games[i];

		json_object(&w, NULL);
		json_string(&w, "id", g->id);
		json_int(&w, "number", g->number);
		json_string(&w, "white", g->white);
		json_string(&w, "black", g->black);
		json_string(&w, "result", g->result);
		json_string(&w, "date", g->date);
		json_int(&w, "plies", g->plies);
		json_end(&w);
	}
	json_end(&w);
	game_reply_set(&r, REPLY_GAMES, REPLY_ARGS(REPLY_N("count", count)));
	code_fields(&w, &r);
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
	json_string(&w, "code", reply_row(REPLY_EXPORT)->name);
	json_object(&w, "args");
	json_string(&w, "format", format);
	json_end(&w);
	json_end(&w);
}

void control_reply_compare(struct strbuf *out, const struct game_comparison *c)
{
	struct json_writer w;
	struct game_reply reply;

	game_compare_reply(c, &reply);
	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	json_string(&w, "text", reply.text);
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
	code_fields(&w, &reply);
	json_end(&w);
}

/* A space-separated list as a JSON array of its words. */
static void word_array(struct json_writer *w, const char *key, const char *list, char sep)
{
	json_array(w, key);
	while (list && *list) {
		char word[64];
		size_t n = strcspn(list, sep == '|' ? "|" : " ");

		snprintf(word, sizeof(word), "%.*s", (int)(n < 63 ? n : 63), list);
		if (n)
			json_string(w, NULL, word);
		list += n;
		if (*list)
			list++;
	}
	json_end(w);
}

void control_reply_help(struct strbuf *out)
{
	struct json_writer w;
	const struct control_command *c;
	const struct game_command_needs *need;

	json_init(&w, out);
	json_object(&w, NULL);
	json_bool(&w, "ok", true);
	json_array(&w, "commands");
	for (int i = 0; (c = control_command_at(i)); i++) {
		json_object(&w, NULL);
		json_string(&w, "name", c->name);
		json_string(&w, "usage", c->usage);
		json_string(&w, "role", c->roles == CONTROL_ARBITER ? "arbiter" : "any");
		json_array(&w, "roles");
		for (int r = 0; r < ROLE_COUNT; r++)
			if (c->roles & CONTROL_ROLE(r))
				json_string(&w, NULL, control_role_name((enum game_role)r));
		json_end(&w);
		need = game_command_needs(c->kind);
		json_array(&w, "modes");
		for (int m = GAME_TOURNAMENT; m < GAME_MODE_COUNT; m++)
			if (need->modes & GAME_MODE_BIT(m))
				json_string(&w, NULL, game_mode_name((enum game_mode)m));
		json_end(&w);
		json_array(&w, "needs");
		for (int n = 0; n < GAME_NEED_COUNT; n++)
			if (need->needs & (1u << n))
				json_string(&w, NULL, game_need_name(1u << n));
		json_end(&w);
		word_array(&w, "sub", c->sub, '|');
		word_array(&w, "args", c->words, ' ');
		json_bool(&w, "changes", c->flags & CONTROL_CHANGES);
		json_bool(&w, "reads", c->flags & CONTROL_READS);
		json_bool(&w, "session", c->flags & CONTROL_SESSION);
		json_end(&w);
	}
	json_end(&w);
	code_only(&w, REPLY_HELP);
	json_end(&w);
}
