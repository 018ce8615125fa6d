/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The referee's side of a review (docs/training.md "Going over a game", game/review.h): a game
 * loaded with its variations and comments, its start position guided square by square, then
 * stepped through, jumped in and branched from with the buttons or the commands, each step
 * said (in the earphone, or on the speaker too) and the squares that change guided.  Casual
 * play only; nothing of it is journaled.
 */
#include "referee/referee_int.h"

#include <stdio.h>
#include <string.h>

/* Moves a clock button steps when a move is chosen to go to. */
#define CHOOSE_STEP 10

/* Where the review's words go: the earphone, or the speaker too (a coach beside the player;
 * [training] review-aloud, casual play only). */
static enum game_channel channel(const struct referee *r)
{
	return r->review.aloud && ref_casual(r) ? GAME_PUBLIC : GAME_PRIVATE;
}

static void say(struct referee *r, enum game_msg msg, uint64_t now)
{
	ref_say(r, channel(r), msg, now);
}

static void shown_said(struct referee *r, enum game_review_say what, bool comment, uint64_t now);

/* ------------------------------------------------------------------ the board */

/* The position the board should show: the review's, or, returning, the game's own. */
static const struct chess_pos *target(const struct referee *r)
{
	return r->review.state == REVIEW_RETURN ? game_position(&r->g) : &r->review.shown;
}

/* The squares the board gets wrong: a peg where none belongs or none where one does, and,
 * in the review, a peg that must be changed for another piece. */
static uint64_t wrong(const struct referee *r)
{
	uint64_t occ = chess_pos_occupancy(target(r));

	if (!r->board_ready)
		return 0;
	return (r->det.sensed ^ occ) | (r->review.state == REVIEW_ON ? r->review.swap : 0);
}

/* The first square to put right, named: true when there was one. */
static bool guide_first(struct referee *r, uint64_t now)
{
	int sq = ref_first_wrong(wrong(r), chess_pos_occupancy(target(r)));

	if (sq < 0)
		return false;
	ref_guide_square(r, target(r), sq, false, channel(r), now);
	return true;
}

/* The squares whose piece differs between two positions. */
static uint64_t pieces_differ(const struct chess_pos *a, const struct chess_pos *b)
{
	uint64_t differ = 0;

	for (int sq = 0; sq < 64; sq++)
		if (chess_pos_piece_at(a, sq) != chess_pos_piece_at(b, sq))
			differ |= 1ULL << sq;
	return differ;
}

/* The review now shows another position than `was`: a square whose peg stays and whose
 * piece changes (a capture, a jump) waits for its peg to be lifted and the other piece put
 * in; a square emptied or filled needs nothing more than its peg. */
static void shown_changed(struct referee *r, const struct chess_pos *was)
{
	struct review *v = &r->review;
	uint64_t both = chess_pos_occupancy(was) & chess_pos_occupancy(&v->shown);

	v->swap =
	    (v->swap | (pieces_differ(was, &v->shown) & both)) & chess_pos_occupancy(&v->shown);
}

/* The start position is on the board: the steps may begin; the game's opening comment. */
static void ready(struct referee *r, uint64_t now)
{
	struct review *v = &r->review;

	v->ready = true;
	say(r, GAME_MSG_REVIEW_READY, now);
	if (v->at == 0 && review_comment(v, v->cur, 0))
		shown_said(r, GAME_REVIEW_GOTO, false, now);
}

bool ref_review_square(struct referee *r, int sq, bool occupied, uint64_t before, uint64_t now)
{
	struct review *v = &r->review;
	uint64_t occ, now_wrong, bit = 1ULL << sq;
	int next;

	if (!review_active(v))
		return false;
	/* A peg put in where one had to be changed is the new piece. */
	if (occupied)
		v->swap &= ~bit;
	occ = chess_pos_occupancy(target(r));
	now_wrong = wrong(r);
	/* It was wrong, and it is right now: confirmed, and the next square named. */
	if (((before ^ occ) & bit) && !(now_wrong & bit)) {
		ref_guide_square(r, target(r), sq, true, channel(r), now);
		next = ref_first_wrong(now_wrong, occ);
		if (next >= 0)
			ref_guide_square(r, target(r), next, false, channel(r), now);
	}
	if (now_wrong)
		return true;
	if (v->state == REVIEW_ON && !v->ready) {
		ready(r, now);
	} else if (v->state == REVIEW_RETURN) {
		ref_review_finish(r, now);
		ref_say(r, GAME_PRIVATE, GAME_MSG_SETUP_DONE, now);
	}
	return true;
}

/* ------------------------------------------------------------------ what is said */

/* The line whose variations branch where the review is, and the one among them the next comes
 * after: at a variation's first position the alternatives are its parent's (after it); where a
 * variation was just left, the line shown's after that one; else the line shown's from the
 * first (*after -1).  So info goes through the alternatives in turn. */
static int fork_owner(const struct review *v, int *after)
{
	*after = -1;
	if (v->cur != REVIEW_MAIN && v->at == v->line[v->cur].base) {
		*after = v->cur;
		return v->line[v->cur].parent;
	}
	if (v->left > 0 && v->line[v->left].parent == v->cur && v->line[v->left].base == v->at)
		*after = v->left;
	return v->cur;
}

static void step_said(struct referee *r, enum game_review_say what, chess_move named_move,
		      int named_ply, bool comment, uint64_t now)
{
	struct review *v = &r->review;
	struct game_effect fx = {.kind = GAME_FX_REVIEW, .ms = now, .channel = channel(r)};
	int after, owner = fork_owner(v, &after);

	fx.review = what;
	fx.ply = v->at;
	fx.total = review_line_end(v, v->cur);
	fx.line = v->cur;
	fx.shown = v->shown;
	fx.move = named_move;
	if (named_move != CHESS_MOVE_NONE) {
		review_position(v, v->cur, named_ply, &fx.before);
		fx.move_number_at = review_move_number(v, named_ply);
		fx.comment = review_comment(v, v->cur, named_ply + 1);
	} else {
		fx.comment = review_comment(v, v->cur, v->at);
	}
	fx.comment_said = comment || !r->set.review_comments_on_request;
	/* Alternatives to the next move. */
	fx.variations = review_variations(v, owner, v->at, after, &(int){0});
	fx.color = v->shown.side;
	fx.move_number = v->shown.fullmove_number;
	fx.moves_made = fx.total ? review_move_number(v, fx.total - 1) : 0;
	ref_effect(r, &fx);
}

/* The last move shown (none at the start): said with `what`. */
static void shown_said(struct referee *r, enum game_review_say what, bool comment, uint64_t now)
{
	const struct review *v = &r->review;
	chess_move last = v->at > 0 ? review_move_at(v, v->cur, v->at - 1) : CHESS_MOVE_NONE;

	step_said(r, what, last, v->at - 1, comment, now);
}

/* After the review shows another position: what it is, and the first square to change. */
static void moved(struct referee *r, enum game_review_say what, const struct chess_pos *was,
		  uint64_t now)
{
	shown_changed(r, was);
	shown_said(r, what, false, now);
	r->guide_next = 0;
	guide_first(r, now);
}

static void reply_at(const struct review *v, struct game_reply *reply)
{
	if (v->cur == REVIEW_MAIN)
		game_reply_set(reply, REPLY_REVIEW_AT,
			       REPLY_ARGS(REPLY_N("ply", v->at),
					  REPLY_N("plies", review_line_end(v, v->cur))));
	else
		game_reply_set(reply, REPLY_REVIEW_AT_VARIATION,
			       REPLY_ARGS(REPLY_N("ply", v->at),
					  REPLY_N("plies", review_line_end(v, v->cur)),
					  REPLY_N("line", v->cur)));
}

/* ------------------------------------------------------------------ loading */

static void load(struct referee *r, const char *fen, struct game_reply *reply)
{
	struct game *g = &r->g;
	struct chess_pos start;
	struct chess_error err;

	if (review_active(&r->review)) {
		game_reply_set(reply, REPLY_REVIEW_ON, NULL);
		return;
	}
	if (r->engine.state == REFEREE_ENGINE_PLAYING) {
		game_reply_set(reply, REPLY_REVIEW_TRAINING_ON, NULL);
		return;
	}
	if (game_plies(g) > 0 && !game_over(g)) {
		game_reply_set(reply, REPLY_REVIEW_GAME_ON,
			       REPLY_ARGS(REPLY_N("plies", game_plies(g))));
		return;
	}
	if (!fen)
		chess_pos_init_start(&start);
	else if (chess_fen_parse(&start, fen, &err)) {
		game_reply_set(
		    reply, REPLY_REVIEW_BAD_FEN,
		    REPLY_ARGS(REPLY_N("column", err.column), REPLY_S("detail", err.message)));
		return;
	}
	review_load(&r->review, &start);
	game_reply_set(reply, REPLY_REVIEW_LOADING, NULL);
}

/* The next moves of the line being loaded, UCI words; a line goes in whole or not at all. */
static void add(struct referee *r, const char *moves, struct game_reply *reply)
{
	struct review *v = &r->review;
	struct review_line *line = &v->line[v->lines - 1];
	const char *p = moves;
	int added = 0, count = v->count, line_count = line->count;
	struct chess_pos end = v->end;

	for (;;) {
		char word[16];
		size_t n;
		chess_move m = CHESS_MOVE_NONE;
		bool ok;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		n = strcspn(p, " \t");
		ok = n < sizeof(word);
		if (ok) {
			memcpy(word, p, n);
			word[n] = '\0';
			ok = !chess_move_parse_uci(&v->end, word, &m) && !review_add(v, m);
		}
		if (!ok) {
			char shown[17];

			snprintf(shown, sizeof(shown), "%.*s", (int)(n < 16 ? n : 16), p);
			if (v->count >= REVIEW_MAX_PLIES)
				game_reply_set(reply, REPLY_REVIEW_TOO_MANY_MOVES,
					       REPLY_ARGS(REPLY_N("number", line->count + 1),
							  REPLY_S("move", shown),
							  REPLY_N("max", REVIEW_MAX_PLIES)));
			else
				game_reply_set(reply, REPLY_REVIEW_MOVE_NOT_LEGAL,
					       REPLY_ARGS(REPLY_N("number", line->count + 1),
							  REPLY_S("move", shown)));
			v->count = count;
			line->count = line_count;
			v->end = end;
			return;
		}
		added++;
		p += n;
	}
	game_reply_set(reply, REPLY_REVIEW_ADDED,
		       REPLY_ARGS(REPLY_N("added", added), REPLY_N("count", v->count)));
}

static void add_line(struct referee *r, int parent, int base, struct game_reply *reply)
{
	struct review *v = &r->review;
	int line;

	if (v->lines >= REVIEW_MAX_LINES) {
		game_reply_set(reply, REPLY_REVIEW_TOO_MANY_LINES,
			       REPLY_ARGS(REPLY_N("max", REVIEW_MAX_LINES - 1)));
		return;
	}
	line = review_add_line(v, parent, base);
	if (line < 0) {
		game_reply_set(reply, REPLY_REVIEW_NO_SUCH_MOVE,
			       REPLY_ARGS(REPLY_N("line", parent), REPLY_N("ply", base)));
		return;
	}
	game_reply_set(
	    reply, REPLY_REVIEW_LINE_ADDED,
	    REPLY_ARGS(REPLY_N("line", line), REPLY_N("parent", parent), REPLY_N("ply", base)));
}

static void annotate(struct referee *r, int line, int ply, const char *text,
		     struct game_reply *reply)
{
	int rc = review_annotate(&r->review, line, ply, text);

	if (rc == -1)
		game_reply_set(reply, REPLY_REVIEW_NO_SUCH_MOVE,
			       REPLY_ARGS(REPLY_N("line", line), REPLY_N("ply", ply)));
	else if (rc == -2)
		game_reply_set(reply, REPLY_REVIEW_COMMENTS_FULL,
			       REPLY_ARGS(REPLY_N("max", REVIEW_COMMENTS_MAX)));
	else
		game_reply_set(reply, REPLY_REVIEW_ANNOTATED,
			       REPLY_ARGS(REPLY_N("line", line), REPLY_N("ply", ply)));
}

static void begin(struct referee *r, uint64_t now, struct game_reply *reply)
{
	struct review *v = &r->review;

	if ((game_plies(&r->g) > 0 && !game_over(&r->g)) ||
	    r->engine.state == REFEREE_ENGINE_PLAYING) {
		review_reset(v);
		game_reply_set(reply, REPLY_REVIEW_NOT_ALLOWED, NULL);
		return;
	}
	review_begin(v);
	r->menu.state = MENU_CLOSED;
	r->guide_next = 0;
	say(r, GAME_MSG_REVIEW_SETUP, now);
	if (!guide_first(r, now))
		ready(r, now);
	game_reply_set(reply, REPLY_REVIEW_BEGUN, REPLY_ARGS(REPLY_N("plies", v->line[0].count)));
}

/* ------------------------------------------------------------------ the end */

void ref_review_finish(struct referee *r, uint64_t now)
{
	const struct game *g = &r->g;

	review_reset(&r->review);
	detect_init(&r->det, &r->set.detect, game_position(g), r->det.sensed);
	/* The board shows the game again: a mismatch raised before the review is over. */
	if (!game_over(g) && mismatch_active(&g->mismatch) && !detect_differences(&r->det))
		ref_restored(r, false, now);
}

static void end(struct referee *r, uint64_t now, struct game_reply *reply)
{
	struct review *v = &r->review;

	if (v->state == REVIEW_LOADING) {
		review_reset(v);
		game_reply_set(reply, REPLY_REVIEW_DROPPED, NULL);
		return;
	}
	v->choosing = false;
	if (game_over(&r->g)) {
		say(r, GAME_MSG_REVIEW_ENDED, now);
		ref_review_finish(r, now);
		game_reply_set(reply, REPLY_REVIEW_ENDED, NULL);
		return;
	}
	/* The game's own position is guided back in the earphone: the game is the player's. */
	v->state = REVIEW_RETURN;
	r->guide_next = 0;
	ref_say(r, GAME_PRIVATE, GAME_MSG_REVIEW_RETURN, now);
	if (r->board_ready) {
		int sq = ref_first_wrong(wrong(r), chess_pos_occupancy(target(r)));

		if (sq >= 0) {
			ref_guide_square(r, target(r), sq, false, GAME_PRIVATE, now);
			game_reply_set(reply, REPLY_REVIEW_ENDED_RETURN, NULL);
			return;
		}
	}
	ref_review_finish(r, now);
	ref_say(r, GAME_PRIVATE, GAME_MSG_SETUP_DONE, now);
	game_reply_set(reply, REPLY_REVIEW_ENDED, NULL);
}

/* ------------------------------------------------------------------ moving */

/* Steps wait until the start position is on the board: "set the board up first", and the
 * next square to put right. */
static bool set_up(struct referee *r, uint64_t now, struct game_reply *reply)
{
	if (r->review.ready)
		return true;
	say(r, GAME_MSG_REVIEW_SETUP_FIRST, now);
	r->guide_next = 0;
	guide_first(r, now);
	game_reply_set(reply, REPLY_REVIEW_NOT_SET_UP,
		       REPLY_ARGS(REPLY_N("squares", __builtin_popcountll(wrong(r)))));
	return false;
}

static void step(struct referee *r, int dir, uint64_t now, struct game_reply *reply)
{
	struct review *v = &r->review;
	struct chess_pos was = v->shown;

	if (!review_step(v, dir)) {
		if (dir > 0) {
			say(r,
			    v->cur == REVIEW_MAIN ? GAME_MSG_REVIEW_END_OF_GAME
						  : GAME_MSG_REVIEW_END_OF_VARIATION,
			    now);
			game_reply_set(reply, REPLY_REVIEW_AT_END,
				       REPLY_ARGS(REPLY_N("plies", v->at)));
		} else {
			say(r, GAME_MSG_REVIEW_START_OF_GAME, now);
			game_reply_set(reply, REPLY_REVIEW_AT_START, NULL);
		}
		return;
	}
	shown_changed(r, &was);
	if (dir > 0)
		shown_said(r, GAME_REVIEW_NEXT, false, now);
	else
		step_said(r, GAME_REVIEW_BACK, review_move_at(v, v->cur, v->at), v->at, false, now);
	r->guide_next = 0;
	guide_first(r, now);
	reply_at(v, reply);
}

/* The plies before move `number` of `color` is made, and after it: the ply shown when it
 * is gone to (0: the start; -1: the line's end). */
static int ply_after(const struct review *v, int number, int color)
{
	if (number < 0)
		return review_line_end(v, v->cur);
	if (number == 0)
		return 0;
	return 2 * (number - v->start.fullmove_number) + color - (int)v->start.side + 1;
}

/* Straight to ply `ply` of the line shown: the move it ends on said, and only the squares
 * that differ from the position shown before guided. */
static void go_to(struct referee *r, int ply, struct game_reply *reply, uint64_t now)
{
	struct review *v = &r->review;
	struct chess_pos was = v->shown;
	int end = review_line_end(v, v->cur);

	v->choosing = false;
	review_show(v, v->cur, ply < 0 ? 0 : ply > end ? end : ply);
	moved(r, GAME_REVIEW_GOTO, &was, now);
	reply_at(v, reply);
}

/* Into the n-th variation that branches here (0: the next one, after the one shown when at
 * its first position): its first move made. */
static void enter(struct referee *r, int n, uint64_t now, struct game_reply *reply)
{
	struct review *v = &r->review;
	struct chess_pos was = v->shown;
	int after, owner = fork_owner(v, &after), line = -1;

	if (n > 0) {
		int k = 0;

		for (int i = owner + 1; i < v->lines && line < 0; i++)
			if (v->line[i].parent == owner && v->line[i].base == v->at && ++k == n)
				line = i;
	} else {
		review_variations(v, owner, v->at, after, &line);
	}
	if (line < 0) {
		say(r, GAME_MSG_REVIEW_NO_VARIATION, now);
		game_reply_set(reply, REPLY_REVIEW_NO_VARIATION, NULL);
		return;
	}
	review_show(v, line, v->at + 1);
	moved(r, GAME_REVIEW_ENTER, &was, now);
	reply_at(v, reply);
}

/* Out of the variation shown: back on the line it branches from, where it branches. */
static void leave(struct referee *r, uint64_t now, struct game_reply *reply)
{
	struct review *v = &r->review;
	struct chess_pos was = v->shown;
	int left;

	if (v->cur == REVIEW_MAIN) {
		say(r, GAME_MSG_REVIEW_NO_VARIATION, now);
		game_reply_set(reply, REPLY_REVIEW_IN_GAME_LINE, NULL);
		return;
	}
	left = v->cur;
	review_show(v, v->line[v->cur].parent, v->line[v->cur].base);
	v->left = left;
	moved(r, GAME_REVIEW_LEAVE, &was, now);
	reply_at(v, reply);
}

/* `select` (and `info` where no variation is): where we are, then the next square that
 * differs. */
static void where(struct referee *r, uint64_t now)
{
	uint64_t differ = wrong(r);

	if (r->review.state == REVIEW_ON)
		shown_said(r, GAME_REVIEW_WHERE, false, now);
	if (differ)
		ref_guide_square(r, target(r), ref_next_differing_square(r, differ), false,
				 r->review.state == REVIEW_ON ? channel(r) : GAME_PRIVATE, now);
}

static void aloud(struct referee *r, bool on, uint64_t now, struct game_reply *reply)
{
	r->review.aloud = on;
	/* Said where it will be heard from now on. */
	say(r, on ? GAME_MSG_REVIEW_ALOUD : GAME_MSG_REVIEW_QUIET, now);
	game_reply_set(reply, on ? REPLY_REVIEW_ALOUD : REPLY_REVIEW_QUIET, NULL);
}

void referee_review(struct referee *r, const struct referee_review_cmd *c, uint64_t now,
		    struct game_reply *reply)
{
	struct review *v = &r->review;
	enum referee_review_op op = c->op;

	/* Casual play only, as the command table has it (game_command_needs()). */
	if (game_command_kind_unmet(&r->g, CMD_REVIEW, reply))
		return;
	if (op == REFEREE_REVIEW_LOAD) {
		load(r, c->text, reply);
		return;
	}
	if (op == REFEREE_REVIEW_ALOUD) {
		aloud(r, c->on, now, reply);
		referee_flush(r, now);
		return;
	}
	if (op == REFEREE_REVIEW_ADD || op == REFEREE_REVIEW_VARIATION ||
	    op == REFEREE_REVIEW_ANNOTATE || op == REFEREE_REVIEW_BEGIN) {
		if (v->state != REVIEW_LOADING)
			game_reply_set(reply, REPLY_REVIEW_NOT_LOADING, NULL);
		else if (op == REFEREE_REVIEW_ADD)
			add(r, c->text ? c->text : "", reply);
		else if (op == REFEREE_REVIEW_VARIATION)
			add_line(r, c->line, c->ply, reply);
		else if (op == REFEREE_REVIEW_ANNOTATE)
			annotate(r, c->line, c->ply, c->text ? c->text : "", reply);
		else
			begin(r, now, reply);
		referee_flush(r, now);
		return;
	}
	if (op == REFEREE_REVIEW_END && v->state != REVIEW_OFF) {
		end(r, now, reply);
		referee_flush(r, now);
		return;
	}
	if (v->state != REVIEW_ON) {
		game_reply_set(
		    reply, v->state == REVIEW_RETURN ? REPLY_REVIEW_OVER : REPLY_NO_REVIEW, NULL);
		return;
	}
	r->guide_next = 0;
	switch (op) {
	case REFEREE_REVIEW_WHERE:
		where(r, now);
		reply_at(v, reply);
		break;
	case REFEREE_REVIEW_COMMENT:
		if (v->at > 0 || review_comment(v, v->cur, v->at)) {
			shown_said(r, GAME_REVIEW_COMMENT, true, now);
			reply_at(v, reply);
		} else {
			say(r, GAME_MSG_REVIEW_START_OF_GAME, now);
			game_reply_set(reply, REPLY_REVIEW_AT_START, NULL);
		}
		break;
	default:
		if (!set_up(r, now, reply))
			break;
		if (op == REFEREE_REVIEW_NEXT || op == REFEREE_REVIEW_BACK)
			step(r, op == REFEREE_REVIEW_NEXT ? 1 : -1, now, reply);
		else if (op == REFEREE_REVIEW_GOTO)
			go_to(r, ply_after(v, c->move, c->color), reply, now);
		else if (op == REFEREE_REVIEW_ENTER)
			enter(r, c->n, now, reply);
		else if (op == REFEREE_REVIEW_LEAVE)
			leave(r, now, reply);
		break;
	}
	referee_flush(r, now);
}

/* A new game from the position shown: the review ends (the board shows that position
 * already), and a waiting training process is asked to play it. */
void ref_review_play(struct referee *r, uint64_t now)
{
	struct review *v = &r->review;
	struct chess_pos start = v->shown;

	if (v->state != REVIEW_ON || !set_up(r, now, &(struct game_reply){0}))
		return;
	review_reset(v);
	if (ref_new_game_from(r, &start, now)) {
		ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
		return;
	}
	if (r->engine.state == REFEREE_ENGINE_WAITING)
		ref_train_request(r, now);
}

/* ------------------------------------------------------------------ the buttons */

/* Choosing a move to go to (the menu's item): the clock buttons ten moves on or back,
 * select and info one, repeat goes there, pause gives up. */
static void choose_said(struct referee *r, enum game_review_say what, uint64_t now)
{
	struct game_effect fx = {.kind = GAME_FX_REVIEW, .ms = now, .channel = channel(r)};

	fx.review = what;
	fx.move = CHESS_MOVE_NONE;
	fx.move_number = r->review.choose_move;
	fx.line = r->review.cur;
	fx.shown = r->review.shown;
	fx.ply = r->review.at;
	fx.total = review_line_end(&r->review, r->review.cur);
	ref_effect(r, &fx);
}

void ref_review_choose(struct referee *r, uint64_t now)
{
	struct review *v = &r->review;
	struct game_reply reply;

	if (!set_up(r, now, &reply))
		return;
	v->choosing = true;
	v->choose_ms = now;
	v->choose_move = v->at > 0 ? review_move_number(v, v->at - 1) : 1;
	choose_said(r, GAME_REVIEW_CHOOSE_BEGIN, now);
}

static void choose_button(struct referee *r, enum game_button b, uint64_t now)
{
	struct review *v = &r->review;
	int end = review_line_end(v, v->cur);
	int last = end > 0 ? review_move_number(v, end - 1) : 0, step = 0;
	struct game_reply reply;

	v->choose_ms = now;
	switch (b) {
	case GAME_BUTTON_PLAYER_CLOCK:
		step = CHOOSE_STEP;
		break;
	case GAME_BUTTON_OPPONENT_CLOCK:
		step = -CHOOSE_STEP;
		break;
	case GAME_BUTTON_SELECT:
		step = 1;
		break;
	case GAME_BUTTON_INFO:
		step = -1;
		break;
	case GAME_BUTTON_REPEAT:
		go_to(r, ply_after(v, v->choose_move, CHESS_WHITE), &reply, now);
		return;
	case GAME_BUTTON_PAUSE:
	case GAME_BUTTON_COUNT:
		v->choosing = false;
		ref_say(r, GAME_PRIVATE, GAME_MSG_MENU_CLOSED, now);
		return;
	}
	/* From the start (0) to the line's last move, stopping at either end. */
	v->choose_move += step;
	if (v->choose_move > last)
		v->choose_move = last;
	if (v->choose_move < 0)
		v->choose_move = 0;
	choose_said(r, GAME_REVIEW_CHOOSE, now);
}

/* `info`: into the variation that branches here; in a variation where none does, back out of
 * it; else where we are. */
static void info_button(struct referee *r, uint64_t now)
{
	struct review *v = &r->review;
	int after, owner = fork_owner(v, &after), next;
	struct game_reply reply;

	review_variations(v, owner, v->at, after, &next);
	/* On the game's line, past the last variation here: where we are, and the next info
	 * begins again with the first. */
	if (next < 0 && v->cur == REVIEW_MAIN) {
		v->left = 0;
		where(r, now);
	} else if (set_up(r, now, &reply) && next >= 0)
		enter(r, 0, now, &reply);
	else if (v->ready)
		leave(r, now, &reply);
}

bool ref_review_button(struct referee *r, enum game_button b, uint64_t now)
{
	struct review *v = &r->review;
	struct game_reply reply;
	struct referee_review_cmd c = {.op = REFEREE_REVIEW_NEXT};

	if (!review_active(v))
		return false;
	if (v->state == REVIEW_ON && v->choosing) {
		choose_button(r, b, now);
		referee_flush(r, now);
		return true;
	}
	switch (b) {
	case GAME_BUTTON_PLAYER_CLOCK:
	case GAME_BUTTON_OPPONENT_CLOCK:
		if (v->state == REVIEW_RETURN) {
			ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
			break;
		}
		c.op = b == GAME_BUTTON_PLAYER_CLOCK ? REFEREE_REVIEW_NEXT : REFEREE_REVIEW_BACK;
		referee_review(r, &c, now, &reply);
		break;
	case GAME_BUTTON_SELECT:
		where(r, now);
		break;
	case GAME_BUTTON_INFO:
		if (v->state == REVIEW_ON)
			info_button(r, now);
		else
			where(r, now);
		break;
	case GAME_BUTTON_REPEAT:
		/* The last move shown again, with its comment. */
		c.op = REFEREE_REVIEW_COMMENT;
		if (v->state == REVIEW_ON)
			referee_review(r, &c, now, &reply);
		else
			ref_say(r, GAME_PRIVATE, GAME_MSG_NOT_NOW, now);
		break;
	case GAME_BUTTON_PAUSE:
	case GAME_BUTTON_COUNT:
		break;
	}
	return true;
}

void ref_review_tick(struct referee *r, uint64_t now)
{
	struct review *v = &r->review;

	if (v->choosing && now >= v->choose_ms + r->set.menu_ms) {
		v->choosing = false;
		ref_say(r, GAME_PRIVATE, GAME_MSG_MENU_CLOSED, now);
	}
}

uint64_t ref_review_deadline(const struct referee *r)
{
	return r->review.choosing ? r->review.choose_ms + r->set.menu_ms : UINT64_MAX;
}

void referee_review_info(const struct referee *r, struct referee_review_info *out)
{
	const struct review *v = &r->review;

	out->state = v->state;
	out->at = v->at;
	out->plies = v->state == REVIEW_OFF ? 0 : review_line_end(v, v->cur);
	out->line = v->cur;
	out->aloud = v->aloud;
	out->differ = review_active(v) ? wrong(r) : 0;
}
