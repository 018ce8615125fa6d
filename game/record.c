/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The journal's vocabulary (see record.h): one table of record types, each with its
 * encoder and decoder over a small token reader and writer (game/record_words.c).
 */
#include "game/record_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ the records */

static void enc_game(const struct game_record *rec, struct rec_writer *w)
{
	const struct game_params *p = &rec->u.game;

	rec_put_word(w, p->id);
	rec_put_word(w, game_color_name(p->player));
	rec_put_word(w, p->time_control);
	rec_put_word(w, game_mode_name(p->mode));
	rec_put_word(w, rules_edition_name(p->edition));
	rec_put_string(w, p->fen);
	for (int i = 0; i < p->tag_count; i++) {
		rec_put_word(w, p->tags[i].name);
		rec_put_string(w, p->tags[i].value);
	}
}

static const char *mode_name_int(int i)
{
	return game_mode_name((enum game_mode)i);
}

static const char *edition_name_int(int i)
{
	return rules_edition_name((enum rules_edition)i);
}

static void dec_game(struct game_record *rec, struct rec_reader *r)
{
	struct game_params *p = &rec->u.game;

	rec_get_word(r, p->id, sizeof(p->id));
	p->player = rec_get_color(r);
	rec_get_word(r, p->time_control, sizeof(p->time_control));
	p->mode = (enum game_mode)rec_get_enum(r, mode_name_int, GAME_MODE_COUNT);
	p->edition = (enum rules_edition)rec_get_enum(r, edition_name_int, RULES_EDITION_COUNT);
	rec_get_string(r, p->fen, sizeof(p->fen));
	while (!r->bad && *r->p) {
		struct game_tag *t;

		if (p->tag_count == GAME_MAX_TAGS) {
			r->bad = true;
			break;
		}
		t = &p->tags[p->tag_count++];
		rec_get_word(r, t->name, sizeof(t->name));
		rec_get_string(r, t->value, sizeof(t->value));
	}
}

static void enc_peg(const struct game_record *rec, struct rec_writer *w)
{
	static const char letters[] = " pnbrqk";
	chess_piece p = rec->u.peg.piece;
	char sq[3], piece[2] = {letters[CHESS_PIECE_TYPE(p) % 7], 0};

	chess_square_format(rec->u.peg.square, sq);
	rec_put_word(w, sq);
	if (rec->type == REC_PLACE)
		return;
	if (!p) {
		rec_put_word(w, "-");
		return;
	}
	if (CHESS_PIECE_COLOR(p) == CHESS_WHITE)
		piece[0] = (char)(piece[0] - 'a' + 'A');
	rec_put_word(w, piece);
}

static void dec_peg(struct game_record *rec, struct rec_reader *r)
{
	char sq[4] = "", piece[4] = "";
	const char *p;

	rec_get_word(r, sq, sizeof(sq));
	rec->u.peg.square = chess_square_parse(sq);
	if (rec->u.peg.square < 0)
		r->bad = true;
	if (rec->type == REC_PLACE || r->bad)
		return;
	rec_get_word(r, piece, sizeof(piece));
	if (r->bad || !strcmp(piece, "-"))
		return;
	p = strchr("PNBRQKpnbrqk", piece[0]);
	if (r->bad || !piece[0] || piece[1] || !p) {
		r->bad = true;
		return;
	}
	rec->u.peg.piece = CHESS_PIECE((p - "PNBRQKpnbrqk") / 6, 1 + (p - "PNBRQKpnbrqk") % 6);
}

static void enc_select(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_word(w, (char[]){"  NBRQ"[rec->u.select % 6], 0});
}

static void dec_select(struct game_record *rec, struct rec_reader *r)
{
	char word[4];
	const char *p;

	rec_get_word(r, word, sizeof(word));
	p = strchr("NBRQ", word[0]);
	if (r->bad || !word[0] || word[1] || !p) {
		r->bad = true;
		return;
	}
	rec->u.select = (enum chess_piece_type)(CHESS_KNIGHT + (p - "NBRQ"));
}

static void enc_promotion(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_uci(w, rec->u.promotion);
}

static void dec_promotion(struct game_record *rec, struct rec_reader *r)
{
	if (!strcmp(r->p, "-")) {
		r->p++;
		rec->u.promotion = CHESS_MOVE_NONE;
		return;
	}
	rec->u.promotion = rec_get_uci(r);
}

static void enc_made(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_fmt(w, "%d", rec->u.made.ply);
	rec_put_uci(w, rec->u.made.move);
	rec_put_word(w, rec->u.made.san);
	rec_put_fmt(w, "%d", rec->u.made.events);
}

static void dec_made(struct game_record *rec, struct rec_reader *r)
{
	rec->u.made.ply = (int)rec_get_int(r, 1, 1000000);
	rec->u.made.move = rec_get_uci(r);
	rec_get_word(r, rec->u.made.san, sizeof(rec->u.made.san));
	rec->u.made.events = (int)rec_get_int(r, 0, 100000);
}

static const char *press_name_int(int i)
{
	return game_press_kind_name((enum press_kind)i);
}

static void enc_press(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_word(w, game_color_name(rec->u.press.color));
	rec_put_word(w, game_press_kind_name(rec->u.press.kind));
	rec_put_clock(w, &rec->clock, rec->ms);
}

static void dec_press(struct game_record *rec, struct rec_reader *r)
{
	rec->u.press.color = rec_get_color(r);
	rec->u.press.kind = (enum press_kind)rec_get_enum(r, press_name_int, PRESS_KIND_COUNT);
	rec_get_clock(r, &rec->clock, rec->ms);
}

static void enc_complete(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_fmt(w, "%d %" PRId64, rec->u.complete.ply, rec->u.complete.clk_ms);
	if (rec->u.complete.counted)
		rec_put_clock(w, &rec->clock, rec->ms);
}

static void dec_complete(struct game_record *rec, struct rec_reader *r)
{
	rec->u.complete.ply = (int)rec_get_int(r, 1, 1000000);
	rec->u.complete.clk_ms = rec_get_int(r, -1, INT64_MAX);
	if (!r->bad && *r->p) {
		rec->u.complete.counted = true;
		rec_get_clock(r, &rec->clock, rec->ms);
	}
}

/* pause, resume */
static void enc_author_clock(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_clock(w, &rec->clock, rec->ms);
}

static void dec_author_clock(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec_get_clock(r, &rec->clock, rec->ms);
}

/* clock-set AUTHOR CLOCK [counters]: `counters` when the arbiter gave the move counters
 * (journals before it have no such word). */
static void enc_clock_set(const struct game_record *rec, struct rec_writer *w)
{
	enc_author_clock(rec, w);
	if (rec->u.counters_set)
		rec_put_word(w, "counters");
}

static void dec_clock_set(struct game_record *rec, struct rec_reader *r)
{
	char word[16];

	dec_author_clock(rec, r);
	if (!r->bad && *r->p) {
		rec_get_word(r, word, sizeof(word));
		if (strcmp(word, "counters"))
			r->bad = true;
		rec->u.counters_set = true;
	}
}

/* fairplay yes|no "POLICY" "STATE" "WHAT" */
static void enc_fairplay(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_word(w, rec->u.fairplay.breach ? "yes" : "no");
	rec_put_string(w, rec->u.fairplay.policy);
	rec_put_string(w, rec->u.fairplay.state);
	rec_put_string(w, rec->u.fairplay.what);
}

static void dec_fairplay(struct game_record *rec, struct rec_reader *r)
{
	char word[8];
	struct fairplay_policy p;
	struct fairplay_state s;

	rec_get_word(r, word, sizeof(word));
	rec->u.fairplay.breach = !strcmp(word, "yes");
	rec_get_string(r, rec->u.fairplay.policy, sizeof(rec->u.fairplay.policy));
	rec_get_string(r, rec->u.fairplay.state, sizeof(rec->u.fairplay.state));
	rec_get_string(r, rec->u.fairplay.what, sizeof(rec->u.fairplay.what));
	if ((strcmp(word, "yes") && strcmp(word, "no")) ||
	    fairplay_policy_parse(rec->u.fairplay.policy, &p) ||
	    fairplay_parse(rec->u.fairplay.state, &s))
		r->bad = true;
}

/* clock-control AUTHOR TC CLOCK */
static void enc_clock_control(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_word(w, rec->u.time_control);
	rec_put_clock(w, &rec->clock, rec->ms);
}

static void dec_clock_control(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec_get_word(r, rec->u.time_control, sizeof(rec->u.time_control));
	rec_get_clock(r, &rec->clock, rec->ms);
}

static void enc_mismatch(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_fmt(w, "%016" PRIx64 " %016" PRIx64, rec->u.mismatch.empty,
		    rec->u.mismatch.occupied);
}

static void dec_mismatch(struct game_record *rec, struct rec_reader *r)
{
	rec->u.mismatch.empty = rec_get_mask(r);
	rec->u.mismatch.occupied = rec_get_mask(r);
}

static void enc_restored(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_word(w, rec->u.restored_by_move ? "move" : "board");
}

static void dec_restored(struct game_record *rec, struct rec_reader *r)
{
	char word[8];

	rec_get_word(r, word, sizeof(word));
	rec->u.restored_by_move = !strcmp(word, "move");
	if (!rec->u.restored_by_move && strcmp(word, "board"))
		r->bad = true;
}

static void enc_flag(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_word(w, game_color_name(rec->u.flag.color));
	rec_put_word(w, rec->u.flag.result);
	rec_put_clock(w, &rec->clock, rec->ms);
}

static void dec_flag(struct game_record *rec, struct rec_reader *r)
{
	rec->u.flag.color = rec_get_color(r);
	rec_get_word(r, rec->u.flag.result, sizeof(rec->u.flag.result));
	if (!result_valid_or_open(rec->u.flag.result))
		r->bad = true;
	rec_get_clock(r, &rec->clock, rec->ms);
}

static void enc_result(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_word(w, rec->u.result.result);
	rec_put_word(w, result_termination_word(rec->u.result.termination));
	rec_put_author(w, rec->author);
	rec_put_string(w, rec->u.result.reason);
	if (rec->u.result.replaces)
		rec_put_word(w, "replaces");
}

static void dec_result(struct game_record *rec, struct rec_reader *r)
{
	char word[24];
	int t;

	rec_get_word(r, rec->u.result.result, sizeof(rec->u.result.result));
	rec_get_word(r, word, sizeof(word));
	t = result_termination_parse(word);
	rec_get_author(r, rec->author);
	rec_get_string(r, rec->u.result.reason, sizeof(rec->u.result.reason));
	if (!r->bad && *r->p) {
		rec_get_word(r, word, sizeof(word));
		if (strcmp(word, "replaces"))
			r->bad = true;
		rec->u.result.replaces = true;
	}
	if (!result_valid_or_open(rec->u.result.result) || t <= TERMINATION_NONE)
		r->bad = true;
	rec->u.result.termination = t < 0 ? TERMINATION_NONE : (enum result_termination)t;
}

static void enc_restart(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_fmt(w, "%d", rec->u.restart.plies);
	if (rec->u.restart.run > 0)
		rec_put_fmt(w, "%d", rec->u.restart.run);
	if (rec->u.restart.run > 0 && rec->u.restart.lag_ms > 0)
		rec_put_fmt(w, "%d", rec->u.restart.lag_ms);
}

/* The run makes every restart's record a line of its own (two restarts at the same time
 * with the same plies were one line twice, read back as a duplicate); journals written
 * before it have none, nor the storage's lag. */
static void dec_restart(struct game_record *rec, struct rec_reader *r)
{
	rec->u.restart.plies = (int)rec_get_int(r, 0, 1000000);
	if (*r->p)
		rec->u.restart.run = (int)rec_get_int(r, 1, 1000000);
	if (*r->p)
		rec->u.restart.lag_ms = (int)rec_get_int(r, 0, 3600000);
}

static void enc_checkpoint(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_word(w, rec->u.checkpoint_recovered ? "recovered" : "running");
	rec_put_clock(w, &rec->clock, rec->ms);
}

static void dec_checkpoint(struct game_record *rec, struct rec_reader *r)
{
	char word[16];

	rec_get_word(r, word, sizeof(word));
	if (!strcmp(word, "recovered"))
		rec->u.checkpoint_recovered = true;
	else if (strcmp(word, "running"))
		r->bad = true;
	rec_get_clock(r, &rec->clock, rec->ms);
}

static void enc_offer(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_word(w, game_color_name(rec->u.offer.color));
	rec_put_fmt(w, "%d", rec->u.offer.ply);
}

static void dec_offer(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec->u.offer.color = rec_get_color(r);
	rec->u.offer.ply = (int)rec_get_int(r, 1, 1000000);
}

static const char *claim_name_int(int i)
{
	return game_claim_kind_name((enum claim_kind)i);
}

static void enc_claim(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_word(w, game_color_name(rec->u.claim.color));
	rec_put_word(w, game_claim_kind_name(rec->u.claim.kind));
	rec_put_uci(w, rec->u.claim.move);
	rec_put_word(w, rec->u.claim.correct ? "yes" : "no");
}

static void dec_claim(struct game_record *rec, struct rec_reader *r)
{
	char word[8];

	rec_get_author(r, rec->author);
	rec->u.claim.color = rec_get_color(r);
	rec->u.claim.kind = (enum claim_kind)rec_get_enum(r, claim_name_int, CLAIM_KIND_COUNT);
	if (!strncmp(r->p, "- ", 2)) {
		r->p += 2;
		rec->u.claim.move = CHESS_MOVE_NONE;
	} else {
		rec->u.claim.move = rec_get_uci(r);
	}
	rec_get_word(r, word, sizeof(word));
	rec->u.claim.correct = !strcmp(word, "yes");
	if (!rec->u.claim.correct && strcmp(word, "no"))
		r->bad = true;
}

static void enc_color_author(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_word(w, game_color_name(rec->u.resign_color));
}

static void dec_color_author(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec->u.resign_color = rec_get_color(r);
}

static void enc_author(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
}

static void dec_author(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
}

static void enc_tag(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_word(w, rec->u.tag.name);
	rec_put_string(w, rec->u.tag.value);
}

static void dec_tag(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec_get_word(r, rec->u.tag.name, sizeof(rec->u.tag.name));
	rec_get_string(r, rec->u.tag.value, sizeof(rec->u.tag.value));
}

static void enc_relayed(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_fmt(w, "%d", rec->u.relayed.ply);
	rec_put_uci(w, rec->u.relayed.move);
	rec_put_word(w, rec->u.relayed.san);
}

static void dec_relayed(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec->u.relayed.ply = (int)rec_get_int(r, 1, 1000000);
	rec->u.relayed.move = rec_get_uci(r);
	rec_get_word(r, rec->u.relayed.san, sizeof(rec->u.relayed.san));
}

static void enc_withdrawn(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_fmt(w, "%d", rec->u.withdrawn.ply);
	rec_put_uci(w, rec->u.withdrawn.move);
}

static void dec_withdrawn(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec->u.withdrawn.ply = (int)rec_get_int(r, 1, 1000000);
	rec->u.withdrawn.move = rec_get_uci(r);
}

static void enc_ruling(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_word(w, rec->u.ruling.upheld ? "upheld" : "rejected");
	rec_put_fmt(w, "%" PRId64, rec->u.ruling.penalty_ms);
	rec_put_clock(w, &rec->clock, rec->ms);
}

static void dec_ruling(struct game_record *rec, struct rec_reader *r)
{
	char word[12];

	rec_get_author(r, rec->author);
	rec_get_word(r, word, sizeof(word));
	rec->u.ruling.upheld = !strcmp(word, "upheld");
	if (!rec->u.ruling.upheld && strcmp(word, "rejected"))
		r->bad = true;
	rec->u.ruling.penalty_ms = rec_get_int(r, 0, 86400000);
	rec_get_clock(r, &rec->clock, rec->ms);
}

static void enc_rollback(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_fmt(w, "%d", rec->u.rollback_ply);
}

static void dec_rollback(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec->u.rollback_ply = (int)rec_get_int(r, 0, 1000000);
}

static void enc_illegal(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_word(w, game_color_name(rec->u.illegal.color));
	rec_put_fmt(w, "%d %" PRId64 " %d", rec->u.illegal.ply, rec->u.illegal.penalty_ms,
		    rec->u.illegal.count);
	rec_put_clock(w, &rec->clock, rec->ms);
}

static void dec_illegal(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec->u.illegal.color = rec_get_color(r);
	rec->u.illegal.ply = (int)rec_get_int(r, 0, 1000000);
	rec->u.illegal.penalty_ms = rec_get_int(r, 0, 86400000);
	rec->u.illegal.count = (int)rec_get_int(r, 1, 1000);
	rec_get_clock(r, &rec->clock, rec->ms);
}

static void enc_takeback(const struct game_record *rec, struct rec_writer *w)
{
	rec_put_author(w, rec->author);
	rec_put_fmt(w, "%d", rec->u.rollback_ply);
	rec_put_clock(w, &rec->clock, rec->ms);
}

static void dec_takeback(struct game_record *rec, struct rec_reader *r)
{
	rec_get_author(r, rec->author);
	rec->u.rollback_ply = (int)rec_get_int(r, 0, 1000000);
	rec_get_clock(r, &rec->clock, rec->ms);
}

/* ------------------------------------------------------------------ the table */

enum { SCORESHEET = 1, CLOCK = 2 };

static const struct record_kind {
	const char *name;
	unsigned flags;
	void (*encode)(const struct game_record *rec, struct rec_writer *w);
	void (*decode)(struct game_record *rec, struct rec_reader *r);
} kinds[REC_TYPE_COUNT] = {
    [REC_GAME] = {"game", SCORESHEET, enc_game, dec_game},
    [REC_LIFT] = {"lift", 0, enc_peg, dec_peg},
    [REC_PLACE] = {"place", 0, enc_peg, dec_peg},
    [REC_SELECT] = {"select", 0, enc_select, dec_select},
    [REC_PROMOTION] = {"promotion", 0, enc_promotion, dec_promotion},
    [REC_MADE] = {"made", SCORESHEET, enc_made, dec_made},
    [REC_PRESS] = {"press", CLOCK, enc_press, dec_press},
    [REC_COMPLETE] = {"complete", SCORESHEET, enc_complete, dec_complete},
    [REC_PAUSE] = {"pause", CLOCK, enc_author_clock, dec_author_clock},
    [REC_RESUME] = {"resume", CLOCK, enc_author_clock, dec_author_clock},
    [REC_MISMATCH] = {"mismatch", 0, enc_mismatch, dec_mismatch},
    [REC_HELD] = {"held", 0, enc_mismatch, dec_mismatch},
    [REC_RESTORED] = {"restored", 0, enc_restored, dec_restored},
    [REC_FLAG] = {"flag", CLOCK, enc_flag, dec_flag},
    [REC_RESULT] = {"result", SCORESHEET, enc_result, dec_result},
    [REC_RESTART] = {"restart", 0, enc_restart, dec_restart},
    [REC_DRAW_OFFER] = {"draw-offer", SCORESHEET, enc_offer, dec_offer},
    [REC_CLAIM] = {"claim", 0, enc_claim, dec_claim},
    [REC_RESIGN] = {"resign", 0, enc_color_author, dec_color_author},
    [REC_APPROVE] = {"approve", SCORESHEET, enc_author, dec_author},
    [REC_TAG] = {"tag", SCORESHEET, enc_tag, dec_tag},
    [REC_RELAYED] = {"relayed", SCORESHEET, enc_relayed, dec_relayed},
    [REC_ROLLBACK] = {"rollback", SCORESHEET, enc_rollback, dec_rollback},
    [REC_ILLEGAL] = {"illegal", SCORESHEET | CLOCK, enc_illegal, dec_illegal},
    [REC_CLOCK_SET] = {"clock-set", CLOCK, enc_clock_set, dec_clock_set},
    [REC_WITHDRAWN] = {"withdrawn", SCORESHEET, enc_withdrawn, dec_withdrawn},
    [REC_RULING] = {"ruling", CLOCK, enc_ruling, dec_ruling},
    [REC_CHECKPOINT] = {"checkpoint", CLOCK, enc_checkpoint, dec_checkpoint},
    [REC_TAKEBACK] = {"takeback", SCORESHEET | CLOCK, enc_takeback, dec_takeback},
    [REC_CLOCK_CONTROL] = {"clock-control", SCORESHEET | CLOCK, enc_clock_control,
			   dec_clock_control},
    [REC_FAIRPLAY] = {"fairplay", SCORESHEET, enc_fairplay, dec_fairplay},
};

const char *game_record_name(enum game_record_type type)
{
	return (unsigned)type < REC_TYPE_COUNT ? kinds[type].name : "?";
}

bool game_record_changes_scoresheet(enum game_record_type type)
{
	return (unsigned)type < REC_TYPE_COUNT && (kinds[type].flags & SCORESHEET);
}

bool game_record_has_clock(enum game_record_type type)
{
	return (unsigned)type < REC_TYPE_COUNT && (kinds[type].flags & CLOCK);
}

int game_record_encode(const struct game_record *r, char *buf, size_t size)
{
	struct rec_writer w = {.buf = buf, .size = size};

	if (!size || (unsigned)r->type >= REC_TYPE_COUNT)
		return -1;
	buf[0] = '\0';
	kinds[r->type].encode(r, &w);
	return w.full ? -1 : (int)w.len;
}

int game_record_decode(struct game_record *rec, const char *type, const char *args, uint64_t ms,
		       char *err, size_t err_size)
{
	struct rec_reader r = {.p = args};

	memset(rec, 0, sizeof(*rec));
	rec->ms = ms;
	for (int i = 0; i < REC_TYPE_COUNT; i++) {
		if (strcmp(type, kinds[i].name))
			continue;
		rec->type = (enum game_record_type)i;
		kinds[i].decode(rec, &r);
		if (!rec_at_end(&r)) {
			snprintf(err, err_size, "bad %s record", type);
			return -1;
		}
		return 0;
	}
	snprintf(err, err_size, "unknown record type '%s'", type);
	return -1;
}
