/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The control protocol's watch events as JSON (protocol.h): each journal record and effect
 * as its audience may see it, what is said, the engine's and the online process's requests
 * and a refused PIN.
 */
#include "control/json.h"
#include "control/protocol.h"
#include "control/replies.h"
#include "game/online.h"

#include <stdio.h>
#include <string.h>

void control_event_record(struct strbuf *out, const struct game_record *rec, const struct game *g)
{
	struct json_writer w;
	char args[GAME_RECORD_MAX];

	json_init(&w, out);
	json_object(&w, NULL);
	json_string(&w, "event", game_record_name(rec->type));
	json_int(&w, "ms", (int64_t)rec->ms);
	json_string(&w, "audience", game_audience_name(rec->audience));
	if (rec->author[0])
		json_string(&w, "author", rec->author);
	switch (rec->type) {
	case REC_MADE:
		json_int(&w, "ply", rec->u.made.ply);
		control_json_uci(&w, "uci", rec->u.made.move);
		json_string(&w, "san", rec->u.made.san);
		break;
	case REC_RELAYED:
		json_int(&w, "ply", rec->u.relayed.ply);
		control_json_uci(&w, "uci", rec->u.relayed.move);
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
	case REC_FAIRPLAY:
		json_bool(&w, "breach", rec->u.fairplay.breach);
		if (rec->u.fairplay.breach)
			json_string(&w, "what", rec->u.fairplay.what);
		json_string(&w, "state", rec->u.fairplay.state);
		json_string(&w, "policy", rec->u.fairplay.policy);
		if (g)
			json_int(&w, "move",
				 game_plies(g) ? game_move_number(g, game_plies(g) - 1)
					       : g->start.fullmove_number);
		break;
	case REC_MISMATCH:
	case REC_HELD:
		control_json_squares(&w, "should_be_empty", rec->u.mismatch.empty);
		control_json_squares(&w, "should_be_occupied", rec->u.mismatch.occupied);
		break;
	default:
		/* The record's own words, as the journal has them. */
		if (game_record_encode(rec, args, sizeof(args)) >= 0)
			json_string(&w, "args", args);
		break;
	}
	if ((game_record_has_clock(rec->type) ||
	     (rec->type == REC_COMPLETE && rec->u.complete.counted)) &&
	    g && g->has_clock) {
		json_int(&w, "white_ms", clock_remaining(&g->clock, CHESS_WHITE, rec->ms));
		json_int(&w, "black_ms", clock_remaining(&g->clock, CHESS_BLACK, rec->ms));
	}
	json_end(&w);
}

void control_event_say_parts(struct strbuf *out, uint64_t ms, enum game_audience audience,
			     const char *text, const struct control_say_part *parts, int count)
{
	struct json_writer w;
	size_t len = strlen(text);

	json_init(&w, out);
	json_object(&w, NULL);
	json_string(&w, "event", "say");
	json_int(&w, "ms", (int64_t)ms);
	json_string(&w, "audience", game_audience_name(audience));
	/* The speaker for the public, the earphone for the player. */
	json_string(&w, "channel", audience == GAME_AUDIENCE_PUBLIC ? "public" : "private");
	json_string(&w, "text", text);
	if (count > 0) {
		json_array(&w, "parts");
		for (int i = 0; i < count; i++) {
			/* From the part's start (the first from 0) to the next part's start. */
			size_t from = i ? parts[i].start : 0;
			size_t to = i + 1 < count ? parts[i + 1].start : len;
			char piece[512];

			if (from > len || to > len || to < from || to - from >= sizeof(piece))
				continue;
			memcpy(piece, text + from, to - from);
			piece[to - from] = '\0';
			json_object(&w, NULL);
			json_string(&w, "lang", parts[i].lang);
			json_string(&w, "text", piece);
			json_end(&w);
		}
		json_end(&w);
	}
	json_end(&w);
}

bool control_event_effect(struct strbuf *out, const struct game_effect *fx)
{
	struct json_writer w;

	if (fx->kind != GAME_FX_CLAIM)
		return false;
	json_init(&w, out);
	json_object(&w, NULL);
	json_string(&w, "event", "claimed");
	json_int(&w, "ms", (int64_t)fx->ms);
	json_string(&w, "audience", game_audience_name(fx->audience));
	json_string(&w, "by", game_color_name(fx->color));
	json_string(&w, "kind", game_claim_kind_name((enum claim_kind)fx->claim));
	control_json_uci(&w, "move", fx->move);
	json_end(&w);
	return true;
}

void control_event_engine_ask(struct strbuf *out, const struct game_effect *fx,
			      const struct game *g)
{
	static const char *const names[] = {[GAME_ENGINE_HINT] = "hint-request",
					    [GAME_ENGINE_PLAY] = "train-request",
					    [GAME_ENGINE_DRAW] = "draw-request",
					    [GAME_ENGINE_EVAL] = "eval-request"};
	struct json_writer w;
	char fen[CHESS_FEN_MAX];

	json_init(&w, out);
	json_object(&w, NULL);
	json_string(&w, "event", names[fx->request]);
	json_int(&w, "ms", (int64_t)fx->ms);
	json_string(&w, "audience", game_audience_name(fx->audience));
	json_int(&w, "ply", fx->ply);
	json_string(&w, "side", game_color_name(fx->color));
	if (g && g->open) {
		chess_fen_format(game_position(g), fen, sizeof(fen));
		json_string(&w, "fen", fen);
	}
	json_end(&w);
}

void control_event_online_ask(struct strbuf *out, const struct game_effect *fx)
{
	struct json_writer w;

	json_init(&w, out);
	json_object(&w, NULL);
	json_string(&w, "event", "online-request");
	json_int(&w, "ms", (int64_t)fx->ms);
	json_string(&w, "audience", game_audience_name(fx->audience));
	json_string(&w, "request", game_online_request_name(fx->online_request));
	json_int(&w, "ply", fx->ply);
	json_string(&w, "side", game_color_name(fx->color));
	json_end(&w);
}

void control_event_pin_refused(struct strbuf *out, uint64_t ms, const char *author)
{
	struct json_writer w;

	json_init(&w, out);
	json_object(&w, NULL);
	json_string(&w, "event", "pin-refused");
	json_int(&w, "ms", (int64_t)ms);
	json_string(&w, "audience", game_audience_name(CONTROL_PIN_REFUSED_AUDIENCE));
	json_string(&w, "author", author);
	json_end(&w);
}
