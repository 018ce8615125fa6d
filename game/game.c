/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * game_apply(): the one mutator of the game (game.h).  Each record type has its apply
 * function, in one table; every check that can fail comes before the first change, so a
 * record that does not fit leaves the game as it was.  The records of the clock are in
 * game_clock.c.
 */
#include "game/game_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void game_init(struct game *g)
{
	memset(g, 0, sizeof(*g));
	g->offer_color = -1;
	g->paused_completed = -1;
	g->paused_ply = -1;
	completion_reset(&g->completion);
	promotion_reset(&g->promotion);
	mismatch_reset(&g->mismatch);
	result_reset(&g->result);
}

void game_position_before(const struct game *g, int ply, struct chess_pos *out)
{
	chess_game_position_at(&g->chess, ply, out);
}

int game_ply_color(const struct game *g, int ply)
{
	return (g->start.side + ply) & 1;
}

int game_last_ply_of(const struct game *g, int color)
{
	for (int i = game_plies(g) - 1; i >= 0; i--)
		if (game_ply_color(g, i) == color)
			return i;
	return -1;
}

int game_move_number(const struct game *g, int ply)
{
	return g->start.fullmove_number + (ply + g->start.side) / 2;
}

void game_ply_name(const struct game *g, int ply, char *buf, size_t size)
{
	snprintf(buf, size, "%d.%s %s", game_move_number(g, ply),
		 game_ply_color(g, ply) == CHESS_WHITE ? "" : "..", g->plies[ply].san);
}

const char *game_stop_name(enum game_stop stop)
{
	static const char *const names[] = {NULL,    "player",	"arbiter",
					    "claim", "restart", "engine"};

	return (unsigned)stop < sizeof(names) / sizeof(names[0]) ? names[stop] : NULL;
}

/* ------------------------------------------------------------------ notes */

static void add_note(struct game *g, int ply, const char *text)
{
	struct game_note *n;

	if (g->note_count == GAME_MAX_NOTES) {
		/* The oldest note goes: the journal keeps every record anyway. */
		memmove(g->notes, g->notes + 1, sizeof(g->notes[0]) * (GAME_MAX_NOTES - 1));
		g->note_count--;
	}
	n = &g->notes[g->note_count++];
	n->ply = ply;
	snprintf(n->text, sizeof(n->text), "%s", text);
}

/* "PREFIX: 21. e4 Nc6 22. Nf3" for plies [from, to), as a note after ply from - 1. */
static void note_moves(struct game *g, int from, int to, const char *prefix)
{
	char text[GAME_NOTE_MAX];
	size_t n = (size_t)snprintf(text, sizeof(text), "%s:", prefix);

	for (int i = from; i < to && n < sizeof(text); i++) {
		bool white = game_ply_color(g, i) == CHESS_WHITE;

		if (white || i == from)
			n += (size_t)snprintf(text + n, sizeof(text) - n, " %d.%s",
					      game_move_number(g, i), white ? "" : "..");
		if (n < sizeof(text))
			n += (size_t)snprintf(text + n, sizeof(text) - n, " %s", g->plies[i].san);
	}
	add_note(g, from - 1, text);
}

/* Keep the first `keep` plies: later moves leave the movetext (noted), the flows that
 * waited on them end, and the tactile board must be set up again. */
static void retract(struct game *g, int keep, const char *why, uint64_t ms)
{
	if (keep < game_plies(g))
		note_moves(g, keep, game_plies(g), why);
	chess_game_truncate(&g->chess, keep);
	if (g->readings_lost_before > keep)
		g->readings_lost_before = keep;
	for (int c = 0; c < 2; c++) {
		struct completion_fifo *f = &g->completion.uncompleted[c];
		int n = 0;

		for (int i = 0; i < f->count; i++)
			if (f->items[i] < keep)
				f->items[n++] = f->items[i];
		f->count = n;
	}
	g->completion.early_presses.count = 0;
	for (int c = 0; c < 2; c++) {
		g->press_memo[c].pending = false;
		if (g->open_press[c].plies > keep)
			g->open_press[c].open = false;
	}
	g->recount_from = keep;
	promotion_reset(&g->promotion);
	mismatch_setup(&g->mismatch, ms);
	g->offer_color = -1;
	g->claim.open = false;
	g->board_event_count = 0;
	g->touched = 0;
}

/* A move of the record (from, to and promotion piece) as the legal move of the position. */
static chess_move resolve(const struct chess_pos *pos, chess_move m)
{
	if (m == CHESS_MOVE_NONE)
		return CHESS_MOVE_NONE;
	return chess_pos_find_move(pos, chess_move_from(m), chess_move_to(m),
				   chess_move_promotion(m));
}

/* ------------------------------------------------------------------ records */

static int apply_game(struct game *g, const struct game_record *rec)
{
	const struct game_params *p = &rec->u.game;
	struct chess_pos start;
	struct chess_error err;
	struct time_control tc;

	if (!p->id[0] || chess_fen_parse(&start, p->fen, &err) ||
	    time_control_parse(p->time_control, &tc, NULL, 0))
		return -1;
	game_init(g);
	g->open = true;
	g->params = *p;
	g->rules = rules_get(p->edition);
	g->start = start;
	g->tc = tc;
	g->has_clock = tc.count > 0;
	chess_game_init_fixed(&g->chess, &start, g->move_buf, g->key_buf, GAME_MAX_PLIES);
	clock_init(&g->clock, &tc);
	g->clock.delay_carries_saved_time = g->rules->delay_carries_saved_time;
	/* From a set-up position with Black to move, White's press starts Black's clock. */
	clock_set_first_mover(&g->clock, start.side);
	return 0;
}

static int apply_promotion(struct game *g, const struct game_record *rec)
{
	chess_move m;

	/* Withdrawn: the board no longer shows it; the choice stepped so far is kept. */
	if (rec->u.promotion == CHESS_MOVE_NONE) {
		g->promotion.state = PROMOTION_NONE;
		g->promotion.move = CHESS_MOVE_NONE;
		return 0;
	}
	m = chess_pos_find_move(game_position(g), chess_move_from(rec->u.promotion),
				chess_move_to(rec->u.promotion), CHESS_QUEEN);

	if (chess_move_kind(m) != CHESS_MOVE_PROMOTION)
		return -1;
	promotion_set_pending(&g->promotion, m);
	return 0;
}

/* The board's events the move was made of leave the list: what follows (a fast reply)
 * stays for the next move. */
static void consume_events(struct game *g, int n)
{
	if (n >= g->board_event_count) {
		g->board_event_count = 0;
		return;
	}
	memmove(g->board_events, g->board_events + n,
		sizeof(g->board_events[0]) * (size_t)(g->board_event_count - n));
	g->board_event_count -= n;
}

static int apply_board_event(struct game *g, const struct game_record *rec)
{
	struct game_board_event *e;

	if (g->board_event_count == GAME_BOARD_EVENTS)
		consume_events(g, 1);
	e = &g->board_events[g->board_event_count++];
	e->ms = rec->ms;
	e->square = (uint8_t)(rec->u.peg.square & 63);
	e->occupied = rec->type == REC_PLACE;
	if (rec->type == REC_LIFT && rec->u.peg.piece)
		g->touched |= 1ull << e->square;
	return 0;
}

static int apply_made(struct game *g, const struct game_record *rec)
{
	const struct chess_pos *pos = game_position(g);
	int ply = game_plies(g), mover = pos->side;
	bool relayed = rec->type == REC_RELAYED;
	chess_move m = resolve(pos, relayed ? rec->u.relayed.move : rec->u.made.move);
	struct game_ply *p;
	int64_t clk;

	if ((relayed ? rec->u.relayed.ply : rec->u.made.ply) != ply + 1 || m == CHESS_MOVE_NONE ||
	    ply >= GAME_MAX_PLIES || game_over(g))
		return -1;
	p = &g->plies[ply];
	chess_move_to_san(pos, m, p->san, sizeof(p->san));
	if (chess_game_push(&g->chess, m))
		return -1;
	p->move = m;
	p->flags = relayed ? GAME_PLY_RELAYED : 0;
	if (g->result.state == RESULT_FLAG_PENDING)
		p->flags |= GAME_PLY_AFTER_FLAG;
	p->clk_ms = -1;
	g->touched = 0;
	if (mover == g->params.player)
		g->player_pressed_first = false;
	/* A relayed move was not made on the board: the board's events are not its. */
	consume_events(g, relayed ? g->board_event_count : rec->u.made.events);
	promotion_reset(&g->promotion);
	/* A draw offer stands until the offered side moves (9.1.2.2). */
	if (g->offer_color >= 0 && g->offer_color != mover)
		g->offer_color = -1;
	/* An opponent's press that came first completes it (its complete record follows);
	 * otherwise it waits for its press. */
	if (!g->has_clock)
		return 0;
	if (mover != g->params.player && completion_take_early(&g->completion, &clk)) {
		/* The press that came first completes it: what it did to the clock is the
		 * move's (its complete record follows). */
		struct game_open_press *o = &g->open_press[mover];

		g->press_memo[mover] = (struct game_press_memo){
		    .pending = true, .counted = o->open && o->counted, .earned_ms = o->earned_ms};
		if (!o->open)
			g->press_memo[mover].earned_ms = 0;
		o->open = false;
		return 0;
	}
	completion_made(&g->completion, mover, ply);
	return 0;
}

/* D.2.8: a move announced and corrected before its press leaves the movetext. */
static int apply_withdrawn(struct game *g, const struct game_record *rec)
{
	int ply = rec->u.withdrawn.ply - 1, last = game_plies(g) - 1;
	struct chess_pos before;
	char text[GAME_NOTE_MAX];

	game_position_before(g, last < 0 ? 0 : last, &before);
	if (ply != last || last < 0 || (g->plies[last].flags & GAME_PLY_COMPLETE) ||
	    resolve(&before, rec->u.withdrawn.move) != g->plies[last].move || game_over(g))
		return -1;
	snprintf(text, sizeof(text), "%s", "withdrawn before the press (D.2.8)");
	completion_done(&g->completion, game_ply_color(g, last), last);
	note_moves(g, last, last + 1, text);
	chess_game_truncate(&g->chess, last);
	if (g->readings_lost_before > last)
		g->readings_lost_before = last;
	promotion_reset(&g->promotion);
	g->board_event_count = 0;
	return 0;
}

static int apply_rollback(struct game *g, const struct game_record *rec)
{
	int keep = rec->u.rollback_ply;

	if (keep < 0 || keep >= game_plies(g) || g->result.state == RESULT_APPROVED)
		return -1;
	retract(g, keep, "retracted by the arbiter (D.2.9)", rec->ms);
	/* The game goes on from there: an end it reached later is void. */
	if (game_over(g))
		result_reset(&g->result);
	return 0;
}

/* The open press of `color` is ruled: it completed no move, so nothing is retracted; an
 * opponent's press whose move never reached the board is taken off the presses waiting for
 * their moves. */
static void rule_open_press(struct game *g, int color, uint64_t ms)
{
	struct game_open_press *o = &g->open_press[color];

	if (o->kind != PRESS_EMPTY && o->kind != PRESS_ILLEGAL &&
	    g->completion.early_presses.count > 0)
		g->completion.early_presses.count--;
	if (o->kind == PRESS_ILLEGAL)
		mismatch_setup(&g->mismatch, ms);
	if (color == g->params.player)
		g->player_pressed_first = false;
	o->open = false;
}

/* Casual play (docs/training.md "Training and study"): the last move pair taken back, the clocks as
 * they stood then.  Online play (docs/online.md "Playing online"): the game set back to the
 * server's plies (a takeback, a refused move), or, with none taken back, its position to be
 * set up. */
static int apply_takeback(struct game *g, const struct game_record *rec)
{
	int keep = rec->u.rollback_ply;
	/* Online, or before the first move (a casual game begun from a position: its pegs set
	 * up as after a takeback, referee_engine.c), nothing need be taken back. */
	int last =
	    g->params.mode == GAME_ONLINE || game_plies(g) == 0 ? game_plies(g) : game_plies(g) - 1;

	if (g->params.mode == GAME_TOURNAMENT || keep < 0 || keep > last ||
	    g->result.state == RESULT_APPROVED ||
	    (g->has_clock && clock_adopt(&g->clock, &rec->clock)))
		return -1;
	if (g->has_clock)
		g->last_clock_ms = rec->ms;
	/* Online, the moves left are those the server's game does not have (a takeback both
	 * agreed to, a move it refused). */
	retract(g, keep, g->params.mode == GAME_ONLINE ? "not in the server's game" : "taken back",
		rec->ms);
	if (game_over(g))
		result_reset(&g->result);
	return 0;
}

static int apply_illegal(struct game *g, const struct game_record *rec)
{
	int ply = rec->u.illegal.ply - 1, color = rec->u.illegal.color & 1;
	bool press = rec->u.illegal.ply == 0;

	if (game_over(g) ||
	    (press ? !g->open_press[color].open
		   : ply < 0 || ply >= game_plies(g) || game_ply_color(g, ply) != color) ||
	    (g->has_clock && clock_adopt(&g->clock, &rec->clock)))
		return -1;
	if (g->has_clock)
		g->last_clock_ms = rec->ms;
	if (press)
		rule_open_press(g, color, rec->ms);
	else {
		char why[32];

		snprintf(why, sizeof(why), "illegal (%s)", g->rules->retract_article);
		retract(g, ply, why, rec->ms);
	}
	g->illegal_count[color] = rec->u.illegal.count;
	g->paused_completed = -1;
	return 0;
}

/* The device's fair-play state measured (fairplay.h): the first of the game, a change. */
static int apply_fairplay(struct game *g, const struct game_record *rec)
{
	struct game_fairplay *f = &g->fairplay;
	struct fairplay_policy policy;
	struct fairplay_state state;

	if (fairplay_policy_parse(rec->u.fairplay.policy, &policy) ||
	    fairplay_parse(rec->u.fairplay.state, &state))
		return -1;
	if (!f->measured)
		f->first = state;
	else
		f->changes++;
	f->measured = true;
	f->policy = policy;
	f->last = state;
	f->breach_now = rec->u.fairplay.breach;
	if (rec->u.fairplay.breach && !f->breach) {
		int plies = game_plies(g);

		f->breach = true;
		f->breach_move = plies ? game_move_number(g, plies - 1) : 0;
		snprintf(f->breach_what, sizeof(f->breach_what), "%s", rec->u.fairplay.what);
	}
	return 0;
}

static int apply_ruling(struct game *g, const struct game_record *rec)
{
	if (!g->claims || game_over(g) || (g->has_clock && clock_adopt(&g->clock, &rec->clock)))
		return -1;
	if (g->has_clock)
		g->last_clock_ms = rec->ms;
	g->claim.open = false;
	return 0;
}

static int apply_result(struct game *g, const struct game_record *rec)
{
	if (rec->u.result.replaces) {
		if (g->result.state != RESULT_ENDED || result_undecided(&g->result))
			return -1;
		result_replace(&g->result, rec->u.result.result, rec->u.result.termination,
			       rec->u.result.reason);
		return 0;
	}
	if (game_over(g) && !result_undecided(&g->result))
		return -1;
	result_end(&g->result, rec->u.result.result, rec->u.result.termination,
		   rec->u.result.reason);
	g->offer_color = -1;
	g->claim.open = false;
	game_stop_clock(g, rec->ms);
	return 0;
}

static int apply_offer(struct game *g, const struct game_record *rec)
{
	int ply = rec->u.offer.ply - 1;

	if (ply < 0 || ply >= game_plies(g) || game_ply_color(g, ply) != rec->u.offer.color ||
	    game_over(g))
		return -1;
	g->plies[ply].flags |= GAME_PLY_DRAW_OFFER;
	g->offer_color = rec->u.offer.color;
	g->offers++;
	return 0;
}

static int apply_claim(struct game *g, const struct game_record *rec)
{
	chess_move m = rec->u.claim.move;
	int last = game_plies(g) - 1;
	bool after_move = false;

	if (game_over(g))
		return -1;
	/* The claimant's own move, made and not yet completed, is the one the verdict assumed;
	 * any other move is an intended one, legal in the position on the board. */
	if (m != CHESS_MOVE_NONE && last >= 0 && game_ply_color(g, last) == rec->u.claim.color &&
	    !(g->plies[last].flags & GAME_PLY_COMPLETE) &&
	    chess_move_from(g->plies[last].move) == chess_move_from(m) &&
	    chess_move_to(g->plies[last].move) == chess_move_to(m)) {
		m = g->plies[last].move;
		after_move = true;
	} else if (m != CHESS_MOVE_NONE && (m = resolve(game_position(g), m)) == CHESS_MOVE_NONE) {
		return -1;
	}
	g->claim = (struct game_claim){
	    .open = true,
	    .color = rec->u.claim.color,
	    .kind = rec->u.claim.kind,
	    .move = m,
	    .after_move = after_move,
	    .correct = rec->u.claim.correct,
	    .ply = game_plies(g),
	};
	snprintf(g->claim.author, sizeof(g->claim.author), "%s", rec->author);
	g->claims++;
	/* The clocks stop for the arbiter (9.2, 9.3). */
	if (g->has_clock && g->clock.state == CLOCK_RUNNING) {
		clock_pause(&g->clock, rec->ms);
		g->stopped_by = STOP_CLAIM;
		snprintf(g->stopped_author, sizeof(g->stopped_author), "%s", rec->author);
	}
	return 0;
}

static int apply_approve(struct game *g, const struct game_record *rec)
{
	if ((!game_over(g) && g->result.state != RESULT_FLAG_PENDING) ||
	    (g->result.state == RESULT_FLAG_PENDING && !strcmp(g->result.flag_result, "*")))
		return -1;
	if (g->result.state == RESULT_FLAG_PENDING)
		game_stop_clock(g, g->last_record_ms);
	result_approve(&g->result);
	g->approved_ms = rec->ms;
	return 0;
}

static int apply_select(struct game *g, const struct game_record *rec)
{
	promotion_choose(&g->promotion, rec->u.select, rec->ms);
	return 0;
}

static int apply_mismatch(struct game *g, const struct game_record *rec)
{
	mismatch_open(&g->mismatch, rec->u.mismatch.empty, rec->u.mismatch.occupied, rec->ms);
	return 0;
}

static int apply_held(struct game *g, const struct game_record *rec)
{
	mismatch_hold(&g->mismatch, rec->u.mismatch.empty, rec->u.mismatch.occupied, rec->ms);
	return 0;
}

static int apply_restored(struct game *g, const struct game_record *rec)
{
	(void)rec;
	mismatch_reset(&g->mismatch);
	return 0;
}

static int apply_resign(struct game *g, const struct game_record *rec)
{
	(void)rec;
	return game_over(g) ? -1 : 0; /* its result record follows */
}

static int apply_tag(struct game *g, const struct game_record *rec)
{
	return game_params_set_tag(&g->params, rec->u.tag.name, rec->u.tag.value);
}

/* Each record type's apply function; the clock's are in game_clock.c. */
static int (*const appliers[REC_TYPE_COUNT])(struct game *g, const struct game_record *rec) = {
    [REC_GAME] = apply_game,
    [REC_LIFT] = apply_board_event,
    [REC_PLACE] = apply_board_event,
    [REC_SELECT] = apply_select,
    [REC_PROMOTION] = apply_promotion,
    [REC_MADE] = apply_made,
    [REC_RELAYED] = apply_made,
    [REC_PRESS] = game_apply_press,
    [REC_COMPLETE] = game_apply_complete,
    [REC_PAUSE] = game_apply_pause,
    [REC_CLOCK_SET] = game_apply_clock_set,
    [REC_RESUME] = game_apply_resume,
    [REC_MISMATCH] = apply_mismatch,
    [REC_HELD] = apply_held,
    [REC_RESTORED] = apply_restored,
    [REC_FLAG] = game_apply_flag,
    [REC_RESULT] = apply_result,
    [REC_RESTART] = game_apply_restart,
    [REC_DRAW_OFFER] = apply_offer,
    [REC_CLAIM] = apply_claim,
    [REC_RESIGN] = apply_resign,
    [REC_APPROVE] = apply_approve,
    [REC_TAG] = apply_tag,
    [REC_WITHDRAWN] = apply_withdrawn,
    [REC_ROLLBACK] = apply_rollback,
    [REC_ILLEGAL] = apply_illegal,
    [REC_RULING] = apply_ruling,
    [REC_CHECKPOINT] = game_apply_checkpoint,
    [REC_CLOCK_CONTROL] = game_apply_clock_control,
    [REC_FAIRPLAY] = apply_fairplay,
    [REC_TAKEBACK] = apply_takeback,
};

int game_apply(struct game *g, const struct game_record *rec)
{
	int rc;

	if (rec->type != REC_GAME && !g->open)
		return -1;
	if ((unsigned)rec->type >= REC_TYPE_COUNT || !appliers[rec->type])
		return -1;
	rc = appliers[rec->type](g, rec);
	if (rc == 0) {
		g->last_record_ms = rec->ms;
		game_note_stop(g, rec);
	}
	if (rc == 0 && rec->type == REC_RELAYED) {
		g->relayed_ply = game_plies(g) - 1;
		snprintf(g->relayed_by, sizeof(g->relayed_by), "%s", rec->author);
	}
	return rc;
}

/* ------------------------------------------------------------------ description */

int game_describe(const struct game *g, uint64_t now, char *buf, size_t size)
{
	char fen[CHESS_FEN_MAX], clock[CLOCK_TEXT_MAX] = "-";
	size_t n = 0;
	int w;

#define ADD(...)                                                                                   \
	do {                                                                                       \
		w = snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__);                       \
		if (w > 0)                                                                         \
			n += (size_t)w;                                                            \
	} while (0)

	if (size)
		buf[0] = '\0';
	if (!g->open)
		return snprintf(buf, size, "no game");
	chess_fen_format(game_position(g), fen, sizeof(fen));
	if (g->has_clock)
		clock_encode(&g->clock, now, clock, sizeof(clock));
	ADD("game %s player %s\nfen %s\nclock %s\n", g->params.id,
	    game_color_name(g->params.player), fen, clock);
	for (int i = 0; i < game_plies(g); i++)
		ADD("%s%s{%" PRId64 "%s}", i ? " " : "", g->plies[i].san, g->plies[i].clk_ms,
		    g->plies[i].flags & GAME_PLY_DRAW_OFFER ? " (=)" : "");
	ADD("\ncompletion w%d b%d early%d final%" PRId64 "\n", g->completion.uncompleted[0].count,
	    g->completion.uncompleted[1].count, g->completion.early_presses.count,
	    g->completion.final_clk);
	ADD("promotion %d %04x %d\n", g->promotion.state, g->promotion.move, g->promotion.choice);
	ADD("mismatch %s %016" PRIx64 " %016" PRIx64 "\n", mismatch_state_name(g->mismatch.state),
	    g->mismatch.should_be_empty, g->mismatch.should_be_occupied);
	ADD("result %s %s %s %s flag %d %s\n", result_state_name(g->result.state), g->result.result,
	    result_termination_word(g->result.termination), g->result.reason, g->result.flag_color,
	    g->result.flag_result);
	ADD("offer %d/%d claim %d %d %d %d %d/%d touched %016" PRIx64 " restarts %d\n",
	    g->offer_color, g->offers, g->claim.open, g->claim.color, g->claim.kind,
	    g->claim.correct, g->claim.ply, g->claims, g->touched, g->restarts);
	ADD("illegal %d %d empty %d %d pressed-first %d uncharged %" PRId64 " %" PRId64
	    " %d uncertain %d readings-lost-before %d\n",
	    g->illegal_count[0], g->illegal_count[1], g->empty_presses[0], g->empty_presses[1],
	    g->player_pressed_first, g->uncharged_ms, g->uncharged_up_to_ms, g->uncharged_color,
	    g->clock_uncertain, g->readings_lost_before);
	ADD("stopped %s %s paused-completed %d %d recount %d ignored %d %d approved %" PRIu64 "\n",
	    g->stopped_by ? game_stop_name(g->stopped_by) : "-", g->stopped_author,
	    g->paused_completed, g->paused_ply, g->recount_from, g->ignored_presses[0],
	    g->ignored_presses[1], g->approved_ms);
	for (int c = 0; c < 2; c++)
		ADD("press %d memo %d %d %" PRId64 " open %d %s %d %" PRId64 " %d\n", c,
		    g->press_memo[c].pending, g->press_memo[c].counted, g->press_memo[c].earned_ms,
		    g->open_press[c].open, game_press_kind_name(g->open_press[c].kind),
		    g->open_press[c].counted, g->open_press[c].earned_ms, g->open_press[c].plies);
	for (int i = 0; i < game_plies(g); i++)
		ADD("%s%s%d", i ? " " : "earned ", g->plies[i].flags & GAME_PLY_COUNTED ? "+" : "",
		    g->plies[i].earned_ms);
	ADD("%s", game_plies(g) ? "\n" : "");
	for (int i = 0; i < g->board_event_count; i++)
		ADD("%s%c%c%c", i ? " " : "events ", 'a' + (g->board_events[i].square & 7),
		    '1' + (g->board_events[i].square >> 3),
		    g->board_events[i].occupied ? '+' : '-');
	ADD("%s", g->board_event_count ? "\n" : "");
	for (int i = 0; i < g->note_count; i++)
		ADD("note %d %s\n", g->notes[i].ply, g->notes[i].text);
	for (int i = 0; i < g->params.tag_count; i++)
		ADD("tag %s=%s\n", g->params.tags[i].name, g->params.tags[i].value);
#undef ADD
	return (int)n;
}
