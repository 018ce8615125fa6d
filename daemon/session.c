/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game session.  See session.h and DESIGN section 3.
 *
 * Moves: a move is *made* when the board shows it (detect) and it has been announced;
 * it is *complete* when its mover has pressed the clock (D.2.3, D.2.4, Art. 6.2.1).
 * The tactile player's own move completes at their press after it.  An opponent's move
 * reaches the tactile board after or before the opponent's press: presses and
 * replicated moves are matched in order, whichever comes first waits for the other.
 * Without a clock a move is complete when made.  A move that ends the game
 * (checkmate, stalemate, dead position, fivefold, 75 moves) ends it at once; with a
 * clock its mover's press still completes it and gives its [%clk] (else the reading
 * when it was made, when the session closes or the next game begins).
 *
 * game.pgn holds every made move; a move's [%clk] comment is added when it completes.
 *
 * The journal (records below) is replayed through the same functions on start, so a
 * resumed game is the game that was recorded:
 *
 *	game ID PLAYER TC MODE FEN	a new game
 *	touch SQ PIECE			a piece left its hole (D.2.2)
 *	select PIECE			a promotion choice step (D.2.1)
 *	made PLY UCI SAN		a move made and announced
 *	press COLOR KIND CLOCK		a clock press: KIND start|move|idle|refused|illegal|paused
 *	complete PLY CLK_MS		a move completed (CLK_MS -1 without a clock)
 *	pause CLOCK / resume CLOCK	Art. 6.11.2
 *	mismatch EMPTY OCC / restored	D.2.9 flow (hex square masks)
 *	held EMPTY OCC			an unexplained board on the player's own turn, kept
 *					from the player until the press (Art. 11.3.1)
 *	flag COLOR RESULT		a flag fell; result pending confirmation (Art. 6.9)
 *	result RESULT REASON		the game ended by rule (Art. 5, 9.6)
 *	end RESULT			the game is over (only its last move's press may follow)
 *	restart PLIES			the daemon started again and resumed the game
 *
 * CLOCK is "STATE RUNNING W_MS B_MS W_MOVES B_MOVES W_PERIOD B_PERIOD W_INPER B_INPER".
 */
#include "daemon/session.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chess/chess.h"
#include "chess/detect.h"
#include "chess/pgn.h"
#include "game/clock.h"
#include "daemon/journal.h"
#include "base/log.h"
#include "daemon/state.h"
#include "voice/phrases.h"

#define PENDING_MAX 8
#define TEXT_MAX    512

struct fifo {
	int count;
	int64_t items[PENDING_MAX];
};

struct session {
	const struct config *cfg;
	struct voice *voice;
	struct journal *journal;
	char dir[256];
	char game_id[32];
	struct phrase_options phrases;
	const char *lang; /* interface language's eSpeak NG voice */

	int player;
	char tc_text[64];
	struct time_control tc;
	bool has_clock;
	struct chess_clock clock;

	struct pgn_game pgn; /* every made move */
	bool resumed;
	bool replaying; /* rebuilding from the journal: no speech, no writes */

	/* Moves made and not yet complete, per side (plies), and opponent presses that
	 * wait for their move to reach the tactile board ([%clk] milliseconds). */
	struct fifo uncompleted[2];
	struct fifo early_presses;

	struct detect det;
	bool board_ready;
	uint64_t touched; /* squares touched since the last made move (for a restart) */

	/* Promotion made on the board, piece not yet final. */
	bool promo_pending;
	struct detect_result promo;
	enum chess_piece_type promo_choice; /* CHESS_NO_PIECE until the first select */
	uint64_t promo_last_select;

	/* Mismatch flow (D.2.9). */
	bool mismatch_open;
	bool mismatch_held; /* unexplained on the player's own turn, not yet said */
	int guide_next;

	bool warned[CONFIG_MAX_WARNINGS];
	char last_move_words[TEXT_MAX];
	bool game_over;
	bool flag_fell;
	struct session_setup setup; /* how each new game starts */
	uint64_t start_occupancy;   /* its pegs: setting them up after a game starts the next */
	int64_t final_clk;	    /* the mover's time when a move ended the game */
};

/* ------------------------------------------------------------------ helpers */

static void fifo_push(struct fifo *f, int64_t v)
{
	if (f->count == PENDING_MAX) {
		log_warn(LOG_GAME, "too many pending moves or presses; the oldest is dropped");
		memmove(f->items, f->items + 1, sizeof(f->items[0]) * (PENDING_MAX - 1));
		f->count--;
	}
	f->items[f->count++] = v;
}

static int64_t fifo_pop(struct fifo *f)
{
	int64_t v = f->items[0];

	memmove(f->items, f->items + 1, sizeof(f->items[0]) * (size_t)(f->count - 1));
	f->count--;
	return v;
}

static const char *color_name(int color)
{
	return color == CHESS_WHITE ? "white" : "black";
}

static int color_parse(const char *s)
{
	if (!strcmp(s, "white"))
		return CHESS_WHITE;
	if (!strcmp(s, "black"))
		return CHESS_BLACK;
	return -1;
}

static char piece_letter(chess_piece p)
{
	static const char letters[] = " pnbrqk";
	char c = letters[CHESS_PIECE_TYPE(p)];

	return CHESS_PIECE_COLOR(p) == CHESS_WHITE ? (char)(c - 'a' + 'A') : c;
}

static const struct chess_pos *current_pos(const struct session *s)
{
	return &s->pgn.game.pos;
}

static void say(struct session *s, enum voice_channel ch, enum voice_kind kind, const char *lang,
		const char *text, uint64_t now)
{
	if (s->replaying || !text || !*text)
		return;
	if (s->voice)
		voice_say(s->voice, ch, kind, lang, text, now);
}

static void say_phrase(struct session *s, enum voice_channel ch, enum phrase_id id, uint64_t now)
{
	say(s, ch, ch == VOICE_PRIVATE ? VOICE_KIND_PROMPT : VOICE_KIND_INFO, s->lang,
	    phrase_text(s->phrases.lang, id), now);
}

static void clock_snapshot(const struct session *s, char *buf, size_t size)
{
	const struct chess_clock *c = &s->clock;

	snprintf(buf, size, "%d %d %" PRId64 " %" PRId64 " %d %d %d %d %d %d", (int)c->state,
		 c->running, c->remaining_ms[0], c->remaining_ms[1], c->moves[0], c->moves[1],
		 c->period[0], c->period[1], c->moves_in_period[0], c->moves_in_period[1]);
}

/* Restore the clock from a snapshot, stopped: the time since it was taken is unknown. */
static int clock_restore(struct session *s, const char *text, uint64_t now)
{
	struct chess_clock *c = &s->clock;
	int state, running;
	int64_t w, b;
	int mw, mb, pw, pb, iw, ib;

	if (sscanf(text, "%d %d %" SCNd64 " %" SCNd64 " %d %d %d %d %d %d", &state, &running, &w,
		   &b, &mw, &mb, &pw, &pb, &iw, &ib) != 10)
		return -1;
	if (state < CLOCK_NOT_STARTED || state > CLOCK_STOPPED || running < 0 || running > 1 ||
	    pw < 0 || pb < 0 || pw >= TC_MAX_PERIODS || pb >= TC_MAX_PERIODS)
		return -1;
	c->state = (enum clock_state)state;
	if (c->state == CLOCK_RUNNING)
		c->state = CLOCK_PAUSED;
	c->running = running;
	c->remaining_ms[0] = w;
	c->remaining_ms[1] = b;
	c->moves[0] = mw;
	c->moves[1] = mb;
	c->period[0] = pw;
	c->period[1] = pb;
	c->moves_in_period[0] = iw;
	c->moves_in_period[1] = ib;
	c->turn_used_ms[0] = c->turn_used_ms[1] = 0;
	c->since_ms = now;
	return 0;
}

static void journal_write(struct session *s, uint64_t now, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void journal_write(struct session *s, uint64_t now, const char *type, const char *fmt, ...)
{
	char args[JOURNAL_LINE_MAX];
	va_list ap;

	if (s->replaying || !s->journal)
		return;
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	journal_append(s->journal, now, type, "%s", args);
}

static void journal_durable(struct session *s)
{
	if (!s->replaying && s->journal)
		journal_sync(s->journal);
}

/* ------------------------------------------------------------------ scoresheet */

static void set_comment(struct session *s, int ply, const char *text)
{
	struct pgn_game *g = &s->pgn;
	char *copy;

	if (ply < 0 || ply >= g->game.count || ply >= g->comments_capacity)
		return;
	copy = text ? strdup(text) : NULL;
	if (text && !copy)
		return;
	free(g->comments[ply]);
	g->comments[ply] = copy;
}

/* game.pgn after every move; the copy under games/ (next to the game's audio record)
 * when the game starts, ends, or the daemon stops. */
static void write_scoresheet_to(struct session *s, bool archive_copy)
{
	char path[PATH_MAX];
	char *text;

	if (s->replaying || !s->pgn.game.moves)
		return; /* while replaying, or with no game (the next one could not start) */
	text = pgn_format(&s->pgn);
	if (!text) {
		log_error(LOG_GAME, "cannot format the scoresheet (out of memory)");
		return;
	}
	snprintf(path, sizeof(path), "%s/game.pgn", s->dir);
	if (state_write_atomic(path, text, strlen(text), s->cfg->sync))
		log_error(LOG_GAME, "%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/games/%s.pgn", s->dir, s->game_id);
	if (archive_copy && state_write_atomic(path, text, strlen(text), s->cfg->sync))
		log_error(LOG_GAME, "%s: %s", path, strerror(errno));
	free(text);
}

static void write_scoresheet(struct session *s)
{
	write_scoresheet_to(s, s->game_over);
}

/* DESIGN 4.4: the mover's time right after the press, truncated to whole seconds. */
static void set_clk_comment(struct session *s, int ply, int64_t clk_ms)
{
	char hms[32], comment[48];

	if (clk_ms < 0)
		return;
	clock_format_hms(clk_ms, hms, sizeof(hms));
	snprintf(comment, sizeof(comment), "[%%clk %s]", hms);
	set_comment(s, ply, comment);
}

static void complete_move(struct session *s, int ply, int64_t clk_ms, uint64_t now)
{
	set_clk_comment(s, ply, clk_ms);
	journal_write(s, now, "complete", "%d %" PRId64, ply + 1, clk_ms);
	journal_durable(s);
	write_scoresheet(s);
}

static void finish_game(struct session *s, const char *result, const char *reason, uint64_t now)
{
	if (s->game_over)
		return;
	s->game_over = true;
	pgn_game_set_result(&s->pgn, result);
	pgn_game_set_tag(&s->pgn, "Termination", reason);
	journal_write(s, now, "result", "%s %s", result, reason);
	journal_write(s, now, "end", "%s", result);
	journal_durable(s);
	write_scoresheet(s);
	log_info(LOG_GAME, "game over: %s (%s)", result, reason);
}

/* ------------------------------------------------------------------ moves */

static const char *winner_result(int winner)
{
	return winner == CHESS_WHITE ? "1-0" : "0-1";
}

/* Art. 5 and 9.6: the game ends at once. */
static bool check_outcome(struct session *s, uint64_t now)
{
	enum chess_outcome o = chess_game_outcome(&s->pgn.game);
	int mover = !current_pos(s)->side;

	switch (o) {
	case CHESS_ONGOING:
		return false;
	case CHESS_CHECKMATE:
		if (s->cfg->mode == MODE_CASUAL)
			say_phrase(s, VOICE_PUBLIC, PHRASE_CHECKMATE, now);
		finish_game(s, winner_result(mover), "checkmate", now);
		break;
	case CHESS_STALEMATE:
		if (s->cfg->mode == MODE_CASUAL)
			say_phrase(s, VOICE_PUBLIC, PHRASE_STALEMATE, now);
		finish_game(s, "1/2-1/2", "stalemate", now);
		break;
	case CHESS_DEAD_POSITION:
		if (s->cfg->mode == MODE_CASUAL)
			say_phrase(s, VOICE_PUBLIC, PHRASE_DEAD_POSITION, now);
		finish_game(s, "1/2-1/2", "dead position", now);
		break;
	case CHESS_FIVEFOLD:
		/* Trap 1: in a tournament this goes to the arbiter (log, journal), not the
		 * players. */
		if (s->cfg->mode == MODE_CASUAL)
			say_phrase(s, VOICE_PUBLIC, PHRASE_FIVEFOLD, now);
		finish_game(s, "1/2-1/2", "fivefold repetition", now);
		break;
	case CHESS_SEVENTY_FIVE:
		if (s->cfg->mode == MODE_CASUAL)
			say_phrase(s, VOICE_PUBLIC, PHRASE_SEVENTY_FIVE, now);
		finish_game(s, "1/2-1/2", "seventy-five moves", now);
		break;
	}
	return true;
}

/* A move made on the board (and, live, announced). */
static int apply_made(struct session *s, chess_move m, uint64_t now)
{
	struct chess_pos before = *current_pos(s);
	char san[CHESS_SAN_MAX], uci[8];
	int mover = before.side;
	bool over;
	int ply;

	if (!chess_pos_is_legal(&before, m))
		return -1;
	chess_move_to_san(&before, m, san, sizeof(san));
	chess_move_to_uci(m, uci, sizeof(uci));
	if (!s->replaying) {
		phrase_move(&s->phrases, &before, m, s->last_move_words,
			    sizeof(s->last_move_words));
		say(s, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", s->last_move_words, now);
	}
	if (pgn_game_push(&s->pgn, m, NULL))
		return -1;
	ply = s->pgn.game.count - 1;
	s->touched = 0;
	s->promo_choice = CHESS_NO_PIECE;
	if (s->board_ready)
		detect_commit(&s->det, m);
	journal_write(s, now, "made", "%d %s %s", ply + 1, uci, san);
	log_info(LOG_GAME, "move %d made: %s", ply + 1, san);

	over = check_outcome(s, now);
	if (!s->has_clock) {
		complete_move(s, ply, -1, now);
	} else if (mover != s->player && s->early_presses.count) {
		complete_move(s, ply, fifo_pop(&s->early_presses), now);
		if (over)
			clock_stop(&s->clock, now);
	} else {
		if (over) {
			/* The game is over (Art. 5); the mover's press still completes the move
			 * and gives its [%clk] (Art. 6.2.1).  Without a press, the reading now
			 * stands. */
			int64_t left = clock_remaining(&s->clock, mover, now);

			s->final_clk = left > 0 ? left : 0;
		}
		fifo_push(&s->uncompleted[mover], ply);
		journal_durable(s);
		write_scoresheet(s);
	}
	return 0;
}

/* ------------------------------------------------------------------ promotion */

static void promotion_final(struct session *s, uint64_t now)
{
	chess_move m;

	if (!s->promo_pending || s->promo_choice == CHESS_NO_PIECE)
		return;
	m = chess_move_make(chess_move_from(s->promo.move), chess_move_to(s->promo.move),
			    CHESS_MOVE_PROMOTION, s->promo_choice);
	s->promo_pending = false;
	if (apply_made(s, m, now))
		log_error(LOG_GAME, "promotion move refused by the rules core");
}

static void promotion_select(struct session *s, uint64_t now)
{
	/* Dame -> Turm -> Läufer -> Springer -> Dame ... (DESIGN 1). */
	static const enum chess_piece_type cycle[] = {CHESS_QUEEN, CHESS_ROOK, CHESS_BISHOP,
						      CHESS_KNIGHT};
	int next = 0;

	for (int i = 0; i < 4; i++)
		if (cycle[i] == s->promo_choice)
			next = (i + 1) % 4;
	s->promo_choice = cycle[next];
	s->promo_last_select = now;
	journal_write(s, now, "select", "%c", "  NBRQ"[s->promo_choice]);
	say(s, VOICE_PRIVATE, VOICE_KIND_PROMPT, "de", phrase_piece(s->promo_choice), now);
}

/* Whether a pawn about to promote is off its hole: `select` pressed then already chooses
 * the piece for the promotion being made. */
static bool promotion_in_hand(const struct session *s)
{
	const struct chess_pos *pos = current_pos(s);
	uint64_t rank = pos->side == CHESS_WHITE ? 0x00ff000000000000ull : 0x000000000000ff00ull;
	uint64_t pawns = pos->by_type[CHESS_PAWN] & pos->by_color[pos->side] & rank;

	return s->board_ready && (pawns & s->touched & ~s->det.sensed) != 0;
}

/* ------------------------------------------------------------------ mismatch */

static void mismatch_raise(struct session *s, const struct detect_result *r, uint64_t now)
{
	s->mismatch_open = true;
	s->mismatch_held = false;
	s->guide_next = 0;
	journal_write(s, now, "mismatch", "%016" PRIx64 " %016" PRIx64, r->should_be_empty,
		      r->should_be_occupied);
	journal_durable(s);
	if (s->cfg->mode == MODE_CASUAL && current_pos(s)->side == s->player)
		say_phrase(s, VOICE_PRIVATE, PHRASE_ILLEGAL_MOVE, now);
	say_phrase(s, VOICE_PRIVATE, PHRASE_MISMATCH, now);
}

static void mismatch_guide(struct session *s, uint64_t now)
{
	uint64_t diff = detect_differences(&s->det);
	uint64_t occupied = chess_pos_occupancy(current_pos(s));
	char text[TEXT_MAX];
	int n = 0, sq = -1;

	if (!diff) {
		say_phrase(s, VOICE_PRIVATE, PHRASE_BOARD_RESTORED, now);
		return;
	}
	/* Step through the differing squares, one per select press. */
	for (int i = 0; i < 64; i++) {
		if (!(diff >> i & 1))
			continue;
		if (n == s->guide_next % __builtin_popcountll(diff))
			sq = i;
		n++;
	}
	s->guide_next++;
	phrase_square_should(&s->phrases, sq, occupied >> sq & 1, text, sizeof(text));
	say(s, VOICE_PRIVATE, VOICE_KIND_PROMPT, s->lang, text, now);
}

/* ------------------------------------------------------------------ detection */

static void handle_detect(struct session *s, const struct detect_result *r, uint64_t now)
{
	switch (r->kind) {
	case DETECT_NONE:
		break;
	case DETECT_TOUCH: {
		char sq[3];

		chess_square_format(r->square, sq);
		s->touched |= 1ull << r->square;
		journal_write(s, now, "touch", "%s %c", sq, piece_letter(r->piece));
		/* A lift after a replicated promotion makes its choice final (DESIGN 3). */
		if (s->promo_pending && current_pos(s)->side != s->player)
			promotion_final(s, now);
		break;
	}
	case DETECT_MOVE:
		if (s->mismatch_open || s->mismatch_held) {
			s->mismatch_open = s->mismatch_held = false;
			journal_write(s, now, "restored", "move");
		}
		if (r->promotion_pending) {
			/* promo_choice is kept: select steps since the last move, restored from
			 * the journal after a restart. */
			s->promo_pending = true;
			s->promo = *r;
			if (s->promo_choice == CHESS_NO_PIECE)
				say_phrase(s, VOICE_PRIVATE, PHRASE_PROMOTION_PROMPT, now);
			break;
		}
		if (apply_made(s, r->move, now)) {
			log_error(LOG_GAME, "detected move refused by the rules core");
			detect_set_position(&s->det, current_pos(s));
		}
		break;
	case DETECT_UNEXPLAINED:
		if (s->mismatch_open || s->mismatch_held)
			break;
		if (s->cfg->mode == MODE_TOURNAMENT && s->has_clock &&
		    current_pos(s)->side == s->player && !s->game_over) {
			/* The player's own move in progress: warning them before their press
			 * would be advice (Art. 11.3.1, trap 1).  Kept for the press. */
			s->mismatch_held = true;
			journal_write(s, now, "held", "%016" PRIx64 " %016" PRIx64,
				      r->should_be_empty, r->should_be_occupied);
			break;
		}
		mismatch_raise(s, r, now);
		break;
	case DETECT_RESTORED:
		if (s->mismatch_open)
			say_phrase(s, VOICE_PRIVATE, PHRASE_BOARD_RESTORED, now);
		if (s->mismatch_open || s->mismatch_held)
			journal_write(s, now, "restored", "board");
		s->mismatch_open = s->mismatch_held = false;
		break;
	}
}

static void poll_detect(struct session *s, uint64_t now)
{
	struct detect_result r;

	/* Bounded: each round consumes a move or settles the board. */
	for (int i = 0; i < 8 && s->board_ready && !s->promo_pending && !s->game_over; i++) {
		if (detect_deadline(&s->det) > now)
			break;
		if (detect_poll(&s->det, now, &r) == DETECT_NONE)
			break;
		handle_detect(s, &r, now);
	}
}

/* A clock press is a moment of stillness: a move whose last peg went in just before it
 * (or a rook set beside the king, which could still become castling) is made now, before
 * the press is taken, so it is announced before the opponent's clock starts (D.2.3). */
static void settle_now(struct session *s, uint64_t now)
{
	struct detect_result r;

	for (int i = 0; i < 8 && s->board_ready && !s->promo_pending && !s->game_over; i++) {
		if (detect_flush(&s->det, now, &r) == DETECT_NONE)
			break;
		handle_detect(s, &r, now);
	}
}

/* ------------------------------------------------------------------ clock */

static void apply_press(struct session *s, int color, const char *kind, uint64_t now)
{
	char snap[160];

	clock_snapshot(s, snap, sizeof(snap));
	journal_write(s, now, "press", "%s %s %s", color_name(color), kind, snap);
	journal_durable(s);
}

static void press_clock(struct session *s, int color, uint64_t now)
{
	enum clock_state before;
	int rc;

	if (!s->has_clock)
		return;
	if (s->game_over) {
		/* Only the press that completes the game's last move still counts. */
		if (s->uncompleted[color].count && s->clock.state == CLOCK_RUNNING &&
		    s->clock.running == color && clock_press(&s->clock, color, now) == 0) {
			apply_press(s, color, "move", now);
			complete_move(s, (int)fifo_pop(&s->uncompleted[color]),
				      clock_last_press_remaining(&s->clock, color), now);
			clock_stop(&s->clock, now);
		}
		return;
	}
	settle_now(s, now);
	if (color == s->player && s->promo_pending && current_pos(s)->side == s->player) {
		if (s->promo_choice == CHESS_NO_PIECE) {
			/* Trap 2: never a silent queen.  The press does not count. */
			apply_press(s, color, "refused", now);
			say_phrase(s, VOICE_PRIVATE, PHRASE_PROMOTION_NEEDED, now);
			return;
		}
		promotion_final(s, now);
	} else if (s->promo_pending && current_pos(s)->side != s->player) {
		promotion_final(s, now);
	}
	before = s->clock.state;
	if (before == CLOCK_PAUSED) {
		/* The clocks stand (for the arbiter, or after a restart until `pause`): the press
		 * completes the mover's move, without a reading, and reminds the player. */
		apply_press(s, color, "paused", now);
		if (s->uncompleted[color].count)
			complete_move(s, (int)fifo_pop(&s->uncompleted[color]), -1, now);
		if (color == s->player)
			say_phrase(s, VOICE_PRIVATE, PHRASE_PAUSED, now);
		return;
	}
	rc = clock_press(&s->clock, color, now);
	if (before == CLOCK_NOT_STARTED) {
		if (rc == 0 || s->clock.state == CLOCK_RUNNING) {
			apply_press(s, color, "start", now);
			say_phrase(s, VOICE_PRIVATE, PHRASE_GAME_START, now);
		} else {
			apply_press(s, color, "idle", now);
		}
		return;
	}
	if (rc != 0) {
		apply_press(s, color, "idle", now);
		return;
	}
	if (color == s->player && s->mismatch_held) {
		/* Art. 7.5.1: a move is completed by the press, even an illegal one; now the
		 * arbiter's flow may start. */
		struct detect_result r = {.kind = DETECT_UNEXPLAINED};
		uint64_t diff = detect_differences(&s->det);
		uint64_t occ = chess_pos_occupancy(current_pos(s));

		r.should_be_empty = diff & ~occ;
		r.should_be_occupied = diff & occ;
		apply_press(s, color, "illegal", now);
		mismatch_raise(s, &r, now);
		return;
	}
	apply_press(s, color, "move", now);
	{
		int64_t clk = clock_last_press_remaining(&s->clock, color);

		if (s->uncompleted[color].count)
			complete_move(s, (int)fifo_pop(&s->uncompleted[color]), clk, now);
		else if (color != s->player)
			fifo_push(&s->early_presses, clk);
		/* The press that settled a game-ending move also stops the clocks. */
		if (s->game_over)
			clock_stop(&s->clock, now);
	}
	for (int i = 0; i < s->cfg->warning_count; i++)
		if (clock_remaining(&s->clock, s->player, now) >
		    (int64_t)s->cfg->warnings_s[i] * 1000)
			s->warned[i] = false;
}

static void replay_press(struct session *s, int color, const char *kind, const char *snap,
			 uint64_t now)
{
	if (!strcmp(kind, "paused")) {
		if (s->uncompleted[color].count)
			fifo_pop(&s->uncompleted[color]); /* its "complete" record follows */
		return;
	}
	if (!strcmp(kind, "move")) {
		int64_t clk;

		clock_restore(s, snap, now);
		clk = s->clock.remaining_ms[color];
		if (s->uncompleted[color].count)
			fifo_pop(&s->uncompleted[color]); /* its "complete" record follows */
		else if (color != s->player)
			fifo_push(&s->early_presses, clk);
		return;
	}
	clock_restore(s, snap, now);
}

static void toggle_pause(struct session *s, uint64_t now)
{
	char snap[160];

	if (!s->has_clock || s->game_over)
		return;
	if (s->clock.state == CLOCK_RUNNING) {
		clock_pause(&s->clock, now);
		clock_snapshot(s, snap, sizeof(snap));
		journal_write(s, now, "pause", "%s", snap);
		journal_durable(s);
		say_phrase(s, VOICE_PRIVATE, PHRASE_PAUSED, now);
	} else if (s->clock.state == CLOCK_PAUSED) {
		clock_resume(&s->clock, now);
		clock_snapshot(s, snap, sizeof(snap));
		journal_write(s, now, "resume", "%s", snap);
		journal_durable(s);
		say_phrase(s, VOICE_PRIVATE, PHRASE_RESUMED, now);
	}
}

static void speak_info(struct session *s, uint64_t now)
{
	char text[TEXT_MAX];
	int move_number = current_pos(s)->fullmove_number;

	if (s->has_clock) {
		int64_t w = clock_remaining(&s->clock, CHESS_WHITE, now);
		int64_t b = clock_remaining(&s->clock, CHESS_BLACK, now);

		phrase_clock_info(s->phrases.lang, w > 0 ? (uint64_t)w : 0, b > 0 ? (uint64_t)b : 0,
				  move_number, text, sizeof(text));
	} else {
		phrase_move_number(s->phrases.lang, move_number, text, sizeof(text));
	}
	say(s, VOICE_PRIVATE, VOICE_KIND_TIME, s->lang, text, now);
}

static void check_flag(struct session *s, uint64_t now)
{
	int flagged, winner;
	const char *result;

	if (!s->has_clock || s->flag_fell || s->game_over || clock_flag_deadline(&s->clock) > now)
		return;
	flagged = clock_check_flag(&s->clock, now);
	if (flagged < 0)
		return;
	s->flag_fell = true;
	winner = !flagged;
	/* Art. 6.9: a draw if the opponent cannot checkmate by any legal series. */
	result = chess_pos_can_checkmate(current_pos(s), (enum chess_color)winner)
		     ? winner_result(winner)
		     : "1/2-1/2";
	journal_write(s, now, "flag", "%s %s", color_name(flagged), result);
	journal_durable(s);
	say_phrase(s, VOICE_PUBLIC, flagged == CHESS_WHITE ? PHRASE_FLAG_WHITE : PHRASE_FLAG_BLACK,
		   now);
	/* The result waits for the players' and arbiter's confirmation (Art. 8.7). */
	log_info(LOG_CLOCK, "%s's flag fell; %s pending confirmation", color_name(flagged), result);
}

static uint64_t warning_deadline(const struct session *s, uint64_t now)
{
	uint64_t best = UINT64_MAX;
	int64_t left;

	if (!s->has_clock || s->clock.state != CLOCK_RUNNING || s->clock.running != s->player)
		return best;
	left = clock_remaining(&s->clock, s->player, now);
	for (int i = 0; i < s->cfg->warning_count; i++) {
		int64_t at = (int64_t)s->cfg->warnings_s[i] * 1000;

		if (!s->warned[i] && left > at && now + (uint64_t)(left - at) < best)
			best = now + (uint64_t)(left - at);
	}
	return best;
}

static void check_warnings(struct session *s, uint64_t now)
{
	int64_t left;

	if (!s->has_clock || s->clock.state != CLOCK_RUNNING || s->clock.running != s->player)
		return;
	left = clock_remaining(&s->clock, s->player, now);
	for (int i = 0; i < s->cfg->warning_count; i++) {
		char text[TEXT_MAX];

		if (s->warned[i] || left > (int64_t)s->cfg->warnings_s[i] * 1000)
			continue;
		s->warned[i] = true;
		phrase_duration(s->phrases.lang, left > 0 ? (uint64_t)left : 0, text, sizeof(text));
		say(s, VOICE_PRIVATE, VOICE_KIND_TIME, s->lang, text, now);
	}
}

/* ------------------------------------------------------------------ journal replay */

static int replay_record(void *user, const struct journal_record *rec)
{
	struct session *s = user;
	const char *a = rec->args;

	if (!strcmp(rec->type, "game")) {
		char id[32], player[8], tc[64], mode[16];
		int n = 0;
		struct chess_pos start;
		struct chess_error err;

		if (s->pgn.game.moves)
			return -1; /* a second game in one journal */
		if (sscanf(a, "%31s %7s %63s %15s %n", id, player, tc, mode, &n) != 4 || !n ||
		    color_parse(player) < 0 || chess_fen_parse(&start, a + n, &err) ||
		    time_control_parse(tc, &s->tc, s->game_id, sizeof(s->game_id)))
			return -1;
		snprintf(s->game_id, sizeof(s->game_id), "%s", id);
		s->player = color_parse(player);
		snprintf(s->tc_text, sizeof(s->tc_text), "%s", tc);
		s->has_clock = s->tc.count > 0;
		clock_init(&s->clock, &s->tc);
		clock_set_first_mover(&s->clock, start.side);
		s->start_occupancy = chess_pos_occupancy(&start);
		if (pgn_game_init(&s->pgn, &start))
			return -1;
		return 0;
	}
	if (!s->pgn.game.moves)
		return -1; /* records before the game record */
	if (!strcmp(rec->type, "made")) {
		int ply;
		char uci[8];
		chess_move m;

		if (sscanf(a, "%d %7s", &ply, uci) != 2 || ply != s->pgn.game.count + 1 ||
		    chess_move_parse_uci(current_pos(s), uci, &m))
			return -1;
		return apply_made(s, m, rec->ms);
	}
	if (!strcmp(rec->type, "complete")) {
		int ply;
		int64_t clk;

		if (sscanf(a, "%d %" SCNd64, &ply, &clk) != 2 || ply < 1 || ply > s->pgn.game.count)
			return -1;
		set_clk_comment(s, ply - 1, clk);
		return 0;
	}
	if (!strcmp(rec->type, "touch")) {
		int sq;
		char name[3] = {a[0], a[0] ? a[1] : 0, 0};

		sq = chess_square_parse(name);
		if (sq < 0)
			return -1;
		s->touched |= 1ull << sq;
		return 0;
	}
	if (!strcmp(rec->type, "select")) {
		const char *p = strchr("NBRQ", a[0]);

		if (!a[0] || !p)
			return -1;
		s->promo_choice = (enum chess_piece_type)(CHESS_KNIGHT + (p - "NBRQ"));
		return 0;
	}
	if (!strcmp(rec->type, "press")) {
		char color[8], kind[12];
		int n = 0;

		if (sscanf(a, "%7s %11s %n", color, kind, &n) != 2 || !n || color_parse(color) < 0)
			return -1;
		replay_press(s, color_parse(color), kind, a + n, rec->ms);
		return 0;
	}
	if (!strcmp(rec->type, "pause") || !strcmp(rec->type, "resume"))
		return clock_restore(s, a, rec->ms);
	if (!strcmp(rec->type, "flag")) {
		s->flag_fell = true;
		return 0;
	}
	if (!strcmp(rec->type, "result")) {
		char result[8];

		if (sscanf(a, "%7s", result) != 1)
			return -1;
		pgn_game_set_result(&s->pgn, result);
		s->game_over = true;
		return 0;
	}
	if (!strcmp(rec->type, "end")) {
		s->game_over = true;
		return 0;
	}
	/* mismatch, held, restored: for the arbiter; the board is re-read on start. */
	return 0;
}

/* ------------------------------------------------------------------ start */

static int next_game_number(const char *games_dir)
{
	DIR *d = opendir(games_dir);
	struct dirent *e;
	int best = 0;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		int n;

		if (sscanf(e->d_name, "game-%d.", &n) == 1 && n > best)
			best = n;
	}
	closedir(d);
	return best + 1;
}

static void set_tags(struct session *s)
{
	char date[16];

	pgn_game_set_tag(&s->pgn, "Event", s->cfg->event);
	pgn_game_set_tag(&s->pgn, "Site", s->cfg->site);
	pgn_game_set_tag(&s->pgn, "Round", s->cfg->round);
	pgn_game_set_tag(&s->pgn, "White", s->cfg->white);
	pgn_game_set_tag(&s->pgn, "Black", s->cfg->black);
	if (!s->setup.virtual_time) {
		time_t t = time(NULL);
		struct tm tm;

		localtime_r(&t, &tm);
		strftime(date, sizeof(date), "%Y.%m.%d", &tm);
		pgn_game_set_tag(&s->pgn, "Date", date);
	}
	if (s->has_clock)
		pgn_game_set_tag(&s->pgn, "TimeControl", s->tc_text);
}

/* Archive a finished game's journal so the next game starts a new one. */
static void archive_journal(struct session *s, const char *journal_path)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/games/%s.journal", s->dir, s->game_id);
	if (rename(journal_path, path))
		log_error(LOG_GAME, "cannot archive %s: %s", journal_path, strerror(errno));
}

/* Per-game state back to nothing, before the next game starts. */
static void reset_game_state(struct session *s)
{
	pgn_game_free(&s->pgn);
	memset(&s->pgn, 0, sizeof(s->pgn));
	memset(s->uncompleted, 0, sizeof(s->uncompleted));
	memset(s->warned, 0, sizeof(s->warned));
	s->early_presses.count = 0;
	s->touched = 0;
	s->promo_pending = s->mismatch_open = s->mismatch_held = false;
	s->promo_choice = CHESS_NO_PIECE;
	s->game_over = s->flag_fell = s->resumed = false;
	s->last_move_words[0] = '\0';
}

/* The game's tags, its audio record and its scoresheet (with the copy under games/). */
static void open_game_files(struct session *s)
{
	set_tags(s);
	if (s->voice && s->cfg->voice.record) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/games/%s.wav", s->dir, s->game_id);
		voice_record_to(s->voice, path);
	}
	write_scoresheet_to(s, true);
}

static int start_new_game(struct session *s, const struct session_setup *setup, uint64_t now,
			  const char *journal_path, char *err, size_t err_size)
{
	struct chess_pos start;
	struct chess_error ferr;
	char games[PATH_MAX];

	if (chess_fen_parse(&start, setup->fen, &ferr)) {
		snprintf(err, err_size, "%s: setup FEN, column %d: %s",
			 setup->fen_origin[0] ? setup->fen_origin : "setup", ferr.column,
			 ferr.message);
		return -1;
	}
	s->start_occupancy = chess_pos_occupancy(&start);
	if (time_control_parse(setup->time_control, &s->tc, err, err_size))
		return -1;
	snprintf(games, sizeof(games), "%s/games", s->dir);
	snprintf(s->game_id, sizeof(s->game_id), "game-%04d", next_game_number(games));
	s->player = setup->player;
	snprintf(s->tc_text, sizeof(s->tc_text), "%s", setup->time_control);
	s->has_clock = s->tc.count > 0;
	clock_init(&s->clock, &s->tc);
	/* From a set-up position with Black to move, White's press starts Black's clock. */
	clock_set_first_mover(&s->clock, start.side);
	if (pgn_game_init(&s->pgn, &start)) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	s->journal = journal_open(journal_path, s->cfg->sync, err, err_size);
	if (!s->journal)
		return -1;
	journal_write(s, now, "game", "%s %s %s %s %s", s->game_id, color_name(s->player),
		      s->tc_text, s->cfg->mode == MODE_CASUAL ? "casual" : "tournament",
		      setup->fen);
	journal_durable(s);
	return 0;
}

struct session *session_open(const struct config *cfg, const struct session_setup *setup,
			     struct voice *voice, uint64_t now, char *err, size_t err_size)
{
	struct session *s = calloc(1, sizeof(*s));
	char path[PATH_MAX], journal_path[PATH_MAX];
	int n;

	if (!s) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	chess_init();
	s->cfg = cfg;
	s->voice = voice;
	s->setup = *setup;
	s->phrases = cfg->phrases;
	/* Casual play announces check and mate unless told otherwise (DESIGN 3, item 6). */
	if (cfg->mode == MODE_CASUAL && !cfg->announce_check_set)
		s->phrases.announce_check = true;
	s->lang = phrase_lang_code(s->phrases.lang);
	snprintf(s->dir, sizeof(s->dir), "%s", cfg->state_dir);
	snprintf(path, sizeof(path), "%s/games", s->dir);
	if (state_mkdir(path)) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		goto fail;
	}
	snprintf(journal_path, sizeof(journal_path), "%s/journal", s->dir);

	s->replaying = true;
	n = journal_read(journal_path, true, replay_record, s, err, err_size);
	s->replaying = false;
	if (n < 0)
		goto fail;
	if (n > 0 && s->pgn.game.moves && !s->game_over) {
		s->resumed = true;
		s->journal = journal_open(journal_path, cfg->sync, err, err_size);
		if (!s->journal)
			goto fail;
		journal_write(s, now, "restart", "%d", s->pgn.game.count);
		journal_durable(s);
		log_info(LOG_GAME, "resumed game %s after %d moves", s->game_id, s->pgn.game.count);
	} else {
		if (n > 0 && s->pgn.game.moves) {
			archive_journal(s, journal_path);
		} else if (n > 0) {
			snprintf(err, err_size, "%s: no game record", journal_path);
			goto fail;
		}
		reset_game_state(s);
		if (start_new_game(s, setup, now, journal_path, err, err_size))
			goto fail;
	}
	open_game_files(s);
	if (s->resumed)
		say_phrase(s, VOICE_PRIVATE,
			   s->has_clock ? PHRASE_GAME_RESUMED_AFTER_RESTART
					: PHRASE_GAME_RESUMED_NO_CLOCK,
			   now);
	return s;
fail:
	if (s->pgn.game.moves)
		pgn_game_free(&s->pgn);
	journal_close(s->journal);
	free(s);
	return NULL;
}

void session_close(struct session *s, uint64_t now)
{
	if (!s)
		return;
	/* A game-ending move whose press never came: the reading when it was made. */
	for (int c = 0; c < 2; c++)
		while (s->game_over && s->uncompleted[c].count)
			complete_move(s, (int)fifo_pop(&s->uncompleted[c]), s->final_clk, now);
	journal_durable(s);
	write_scoresheet_to(s, true);
	if (s->game_over) {
		char path[PATH_MAX];

		journal_close(s->journal);
		s->journal = NULL;
		snprintf(path, sizeof(path), "%s/journal", s->dir);
		archive_journal(s, path);
	}
	journal_close(s->journal);
	pgn_game_free(&s->pgn);
	free(s);
}

bool session_resumed(const struct session *s)
{
	return s->resumed;
}

uint64_t session_expected_occupancy(const struct session *s)
{
	return chess_pos_occupancy(current_pos(s));
}

void session_board_ready(struct session *s, uint64_t sensed, uint64_t now)
{
	uint64_t expected = chess_pos_occupancy(current_pos(s));
	struct detect_result r;

	detect_init(&s->det, &s->cfg->detect, current_pos(s), expected);
	s->board_ready = true;
	/* What happened on the board before a restart: the journaled touches (a captured
	 * piece's hole emptied) and the pegs as they stand now. */
	s->replaying = true;
	for (int sq = 0; sq < 64; sq++) {
		if (s->touched >> sq & 1) {
			detect_square(&s->det, sq, false, now, &r);
			if (sensed >> sq & 1)
				detect_square(&s->det, sq, true, now, &r);
		} else if ((sensed ^ expected) >> sq & 1) {
			detect_square(&s->det, sq, sensed >> sq & 1, now, &r);
		}
	}
	s->replaying = false;
}

void session_board_event(struct session *s, const struct board_event *ev)
{
	/* When the peg moved or the button went down, not when debouncing confirmed it:
	 * clock readings are taken at the press itself. */
	uint64_t now = ev->change_ms;

	switch (ev->type) {
	case BOARD_EVENT_CRASH:
		/* The sim's power cut: nothing is flushed. */
		kill(getpid(), SIGKILL);
		break;
	case BOARD_EVENT_SQUARE: {
		struct detect_result r;

		if (!s->board_ready)
			break;
		/* After the end, pegs are taken away and put back: nothing to record, but the
		 * board is followed, so that setting it up again starts the next game. */
		if (detect_square(&s->det, ev->index, ev->active, now, &r) != DETECT_NONE &&
		    !s->game_over)
			handle_detect(s, &r, now);
		break;
	}
	case BOARD_EVENT_BUTTON:
		if (!ev->active)
			break;
		switch (ev->index) {
		case BOARD_BUTTON_PLAYER_CLOCK:
			press_clock(s, s->player, now);
			break;
		case BOARD_BUTTON_OPPONENT_CLOCK:
			press_clock(s, !s->player, now);
			break;
		case BOARD_BUTTON_INFO:
			speak_info(s, now);
			break;
		case BOARD_BUTTON_REPEAT:
			if (s->last_move_words[0])
				say(s, VOICE_PRIVATE, VOICE_KIND_REPEAT, "de", s->last_move_words,
				    now);
			else
				say_phrase(s, VOICE_PRIVATE, PHRASE_NOTHING_TO_REPEAT, now);
			break;
		case BOARD_BUTTON_SELECT:
			/* A select press right after the new piece went in: the promotion is
			 * made now, so the press chooses its piece. */
			if (!s->promo_pending && !s->mismatch_open)
				settle_now(s, now);
			if (s->promo_pending || promotion_in_hand(s))
				promotion_select(s, now);
			else if (s->mismatch_open)
				mismatch_guide(s, now);
			break;
		case BOARD_BUTTON_PAUSE:
			toggle_pause(s, now);
			break;
		default:
			break;
		}
		break;
	}
}

/* After a game is over, the board set up in the start position (and still for the settle
 * time) begins the next game: the finished one stays under games/ with its journal. */
static void maybe_next_game(struct session *s, uint64_t now)
{
	char journal_path[PATH_MAX], err[256];
	uint64_t sensed;

	if (!s->game_over || !s->board_ready || s->det.sensed != s->start_occupancy ||
	    now < s->det.last_change_ms + s->det.cfg.settle_ms)
		return;
	sensed = s->det.sensed;
	snprintf(journal_path, sizeof(journal_path), "%s/journal", s->dir);
	for (int c = 0; c < 2; c++)
		while (s->uncompleted[c].count)
			complete_move(s, (int)fifo_pop(&s->uncompleted[c]), s->final_clk, now);
	write_scoresheet_to(s, true);
	journal_close(s->journal);
	s->journal = NULL;
	archive_journal(s, journal_path);
	reset_game_state(s);
	if (start_new_game(s, &s->setup, now, journal_path, err, sizeof(err))) {
		/* Nothing is lost: the finished game is archived.  Stay over until restarted. */
		log_error(LOG_GAME, "cannot start the next game: %s", err);
		s->game_over = true;
		return;
	}
	open_game_files(s);
	detect_init(&s->det, &s->cfg->detect, current_pos(s), sensed);
	log_info(LOG_GAME, "new game %s", s->game_id);
	say_phrase(s, VOICE_PRIVATE, PHRASE_NEW_GAME, now);
}

uint64_t session_deadline(const struct session *s, uint64_t now)
{
	uint64_t best = UINT64_MAX, t;

	if (s->board_ready && !s->promo_pending && !s->game_over) {
		t = detect_deadline(&s->det);
		if (t < best)
			best = t;
	}
	if (s->promo_pending && s->promo_choice != CHESS_NO_PIECE &&
	    (!s->has_clock || current_pos(s)->side != s->player)) {
		t = s->promo_last_select + s->cfg->promotion_ms;
		if (t < best)
			best = t;
	}
	if (s->game_over && s->board_ready && s->det.sensed == s->start_occupancy) {
		t = s->det.last_change_ms + s->det.cfg.settle_ms;
		if (t < best)
			best = t;
	}
	if (s->has_clock && !s->flag_fell && !s->game_over) {
		t = clock_flag_deadline(&s->clock);
		if (t < best)
			best = t;
		t = warning_deadline(s, now);
		if (t < best)
			best = t;
	}
	return best;
}

void session_tick(struct session *s, uint64_t now)
{
	maybe_next_game(s, now);
	check_flag(s, now);
	if (s->promo_pending && s->promo_choice != CHESS_NO_PIECE &&
	    (!s->has_clock || current_pos(s)->side != s->player) &&
	    now >= s->promo_last_select + s->cfg->promotion_ms)
		promotion_final(s, now);
	poll_detect(s, now);
	check_warnings(s, now);
}

int session_move_count(const struct session *s)
{
	return s->pgn.game.count;
}

bool session_game_over(const struct session *s)
{
	return s->game_over;
}
