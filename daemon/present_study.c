/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the presenter says and shows of study and of the games kept (docs/training.md
 * "Training and study"): a review's steps, its moves' comments and its position on the
 * braille display, the game's last moves, the engine's evaluation in words and the last
 * finished games.
 */
#include "daemon/present_int.h"

#include <string.h>

#include "daemon/display.h"
#include "store/games.h"

/* A review's move (docs/training.md "Going over a game"): "Zug zwölf, Weiß: Springer Gustav eins
 * Felix drei", or the start. */
static void review_move_words(struct utterance *u, const struct phrase_options *o,
			      const struct game_effect *fx)
{
	struct phrase_args a = {.square = -1, .count = fx->move_number_at};

	if (fx->move == CHESS_MOVE_NONE) {
		phrase_add(u, o, PHRASE_REVIEW_START_OF_GAME, NULL);
		return;
	}
	phrase_add(u, o,
		   fx->before.side == CHESS_WHITE ? PHRASE_REVIEW_MOVE_WHITE
						  : PHRASE_REVIEW_MOVE_BLACK,
		   &a);
	utterance_add(u, o->lang, " ");
	phrase_add_move(u, o, &fx->before, fx->move);
}

/* A review's step: the move made ("Variante: ..." into a variation), taken back ("Zurück:
 * ..."), or where we are (the last move shown, who is to move or the end, the length); the
 * variations that branch here; that the move has a comment when it is not said. */
static void review_words(struct utterance *u, const struct phrase_options *o,
			 const struct game_effect *fx)
{
	struct phrase_args a = {.square = -1, .count = fx->move_number};
	bool where = fx->review == GAME_REVIEW_WHERE || fx->review == GAME_REVIEW_LEAVE;

	switch (fx->review) {
	case GAME_REVIEW_CHOOSE_BEGIN:
		phrase_add(u, o, PHRASE_REVIEW_GOTO_PROMPT, &a);
		return;
	case GAME_REVIEW_CHOOSE:
		phrase_add(u, o, a.count ? PHRASE_REVIEW_GOTO_MOVE : PHRASE_REVIEW_START_OF_GAME,
			   &a);
		return;
	case GAME_REVIEW_BACK:
		phrase_add(u, o, PHRASE_REVIEW_BACK, NULL);
		utterance_add(u, o->lang, " ");
		break;
	case GAME_REVIEW_ENTER:
		phrase_add(u, o, PHRASE_REVIEW_VARIATION, NULL);
		utterance_add(u, o->lang, " ");
		break;
	case GAME_REVIEW_LEAVE:
		phrase_add(u, o, PHRASE_REVIEW_LEFT, NULL);
		utterance_add(u, o->lang, " ");
		break;
	case GAME_REVIEW_WHERE:
		if (fx->line) {
			phrase_add(u, o, PHRASE_REVIEW_VARIATION, NULL);
			utterance_add(u, o->lang, " ");
		}
		break;
	default:
		break;
	}
	review_move_words(u, o, fx);
	if (where) {
		utterance_add(u, o->lang, ". ");
		if (fx->ply >= fx->total)
			phrase_add(u, o,
				   fx->line ? PHRASE_REVIEW_END_OF_VARIATION
					    : PHRASE_REVIEW_END_OF_GAME,
				   NULL);
		else
			phrase_add(u, o,
				   fx->color == CHESS_WHITE ? PHRASE_REVIEW_WHITE_TO_MOVE
							    : PHRASE_REVIEW_BLACK_TO_MOVE,
				   NULL);
		utterance_add(u, o->lang, ". ");
		a.count = fx->moves_made;
		phrase_add(u, o, PHRASE_REVIEW_LENGTH, &a);
	}
	if (fx->variations) {
		a.count = fx->variations;
		utterance_add(u, o->lang, ". ");
		phrase_add(u, o, PHRASE_REVIEW_VARIATIONS, &a);
	}
	if (fx->comment && fx->review != GAME_REVIEW_BACK && (where || !fx->comment_said)) {
		utterance_add(u, o->lang, ". ");
		phrase_add(u, o, PHRASE_REVIEW_COMMENT_CUE, NULL);
	}
}

/* A move's comment in a review, after its step: "Kommentar: ...", in as many utterances as its
 * length takes, each cut after a word (information: the next step makes it stale). */
static void say_review_comment(struct presenter *p, const struct phrase_options *o,
			       const struct game_effect *fx)
{
	const char *c = fx->comment;
	struct utterance u;
	bool first = true;

	while (*c) {
		size_t room = UTTERANCE_TEXT_MAX - 64, n = strlen(c);
		char part[UTTERANCE_TEXT_MAX];

		if (n > room) {
			n = room;
			while (n > room / 2 && c[n] != ' ')
				n--;
			while (n > 0 && ((unsigned char)c[n] & 0xc0) == 0x80)
				n--;
		}
		memcpy(part, c, n);
		part[n] = '\0';
		utterance_clear(&u);
		if (first) {
			phrase_add(&u, o, PHRASE_REVIEW_COMMENT, NULL);
			utterance_add(&u, o->lang, " ");
		}
		utterance_add(&u, o->lang, part);
		present_say(p, fx->audience, VOICE_KIND_INFO, &u, 100, fx->ms);
		first = false;
		c += n;
		while (*c == ' ')
			c++;
	}
}

/* The game's last moves (repeat held, the menu, `last-moves`; as lichess's blind mode gives
 * them): "Letzte Züge: Zug zwanzig, Weiß: Springer Gustav eins Felix drei, Schwarz: ...", one
 * utterance a move number, the first a prompt, the rest information a move cuts short. */
void present_last_moves(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = present_options(p);
	const struct game *g = p->referee ? referee_game(p->referee) : NULL;
	struct utterance u;
	bool first = true;
	int said = 0;

	if (!g)
		return;
	for (int i = fx->ply; i < fx->ply + fx->total && i < game_plies(g);) {
		struct chess_pos before;

		utterance_clear(&u);
		if (first) {
			phrase_add(&u, &o, PHRASE_LAST_MOVES, NULL);
			utterance_add(&u, o.lang, " ");
		}
		/* A move number: White's move (or Black's alone), then Black's. */
		do {
			struct phrase_args a = {.square = -1, .count = game_move_number(g, i)};
			bool white = game_ply_color(g, i) == CHESS_WHITE;

			if (white || first)
				phrase_add(&u, &o,
					   white ? PHRASE_REVIEW_MOVE_WHITE
						 : PHRASE_REVIEW_MOVE_BLACK,
					   &a);
			else {
				utterance_add(&u, o.lang, ", ");
				phrase_add(&u, &o, PHRASE_BLACK, NULL);
			}
			utterance_add(&u, o.lang, " ");
			game_position_before(g, i, &before);
			phrase_add_move(&u, &o, &before, g->plies[i].move);
			first = false;
			i++;
		} while (i < fx->ply + fx->total && i < game_plies(g) &&
			 game_ply_color(g, i) == CHESS_BLACK);
		present_say(p, fx->audience, said++ ? VOICE_KIND_INFO : VOICE_KIND_PROMPT, &u, 100,
			    fx->ms);
	}
}

/* The engine's evaluation in words (docs/training.md "Playing the computer"): level within a
 * third of a pawn, "slightly better" to nearly one pawn, then "about N pawns" to five, then
 * winning; a mate seen in its moves. */
void present_eval(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = present_options(p);
	int cp = fx->count < 0 ? -fx->count : fx->count, mate = fx->mate;
	bool white = fx->mate ? fx->mate > 0 : fx->count > 0;
	struct phrase_args a = {.square = -1, .count = (cp + 50) / 100};
	enum phrase_id id;
	struct utterance u;

	if (mate == 1 || mate == -1) {
		id = white ? PHRASE_EVAL_WHITE_MATES_NEXT : PHRASE_EVAL_BLACK_MATES_NEXT;
	} else if (mate) {
		a.count = mate < 0 ? -mate : mate;
		id = white ? PHRASE_EVAL_WHITE_MATES : PHRASE_EVAL_BLACK_MATES;
	} else if (cp < 30) {
		id = PHRASE_EVAL_LEVEL;
	} else if (cp < 80) {
		id = white ? PHRASE_EVAL_WHITE_SLIGHTLY : PHRASE_EVAL_BLACK_SLIGHTLY;
	} else if (cp < 150) {
		id = white ? PHRASE_EVAL_WHITE_PAWN : PHRASE_EVAL_BLACK_PAWN;
	} else if (cp < 500) {
		id = white ? PHRASE_EVAL_WHITE_PAWNS : PHRASE_EVAL_BLACK_PAWNS;
	} else {
		id = white ? PHRASE_EVAL_WHITE_WINNING : PHRASE_EVAL_BLACK_WINNING;
	}
	utterance_clear(&u);
	phrase_add(&u, &o, id, &a);
	present_say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
}

/* The last finished games kept (the menu's item, docs/training.md "Going over a game"): "Partie
 * zwei: Anna gegen Computer, Weiß gewinnt", one utterance each, newest first; the number is
 * what `annabella review` takes. */
void present_games(struct presenter *p, const struct game_effect *fx)
{
	static const struct {
		const char *result;
		enum phrase_id said;
	} results[] = {{"1-0", PHRASE_RESULT_WHITE_WINS},
		       {"0-1", PHRASE_RESULT_BLACK_WINS},
		       {"1/2-1/2", PHRASE_RESULT_DRAW}};
	struct phrase_options o = present_options(p);
	const struct game *g = p->referee ? referee_game(p->referee) : NULL;
	struct game_summary games[3];
	struct utterance u;
	int n = store_games_list(store_dir(p->store),
				 g && g->open && !game_over(g) ? g->params.id : NULL, games,
				 fx->total < 3 ? fx->total : 3);

	if (n <= 0) {
		utterance_clear(&u);
		phrase_add(&u, &o, PHRASE_GAMES_NONE, NULL);
		present_say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct phrase_args a = {.square = -1, .count = games[i].number};
		enum phrase_id said = PHRASE_GAMES_NO_RESULT;

		for (size_t k = 0; k < sizeof(results) / sizeof(results[0]); k++)
			if (!strcmp(games[i].result, results[k].result))
				said = results[k].said;
		utterance_clear(&u);
		phrase_add(&u, &o, PHRASE_GAMES_ITEM, &a);
		utterance_add(&u, o.lang, " ");
		/* The players, where the scoresheet names them. */
		if (strcmp(games[i].white, "?") || strcmp(games[i].black, "?")) {
			utterance_add(&u, o.lang, games[i].white);
			utterance_add(&u, o.lang, " ");
			phrase_add(&u, &o, PHRASE_GAMES_AGAINST, NULL);
			utterance_add(&u, o.lang, " ");
			utterance_add(&u, o.lang, games[i].black);
			utterance_add(&u, o.lang, ", ");
		}
		phrase_add(&u, &o, said, NULL);
		/* The first as a prompt (it answers the menu), the rest in turn after it. */
		present_say(p, fx->audience, i ? VOICE_KIND_INFO : VOICE_KIND_PROMPT, &u, 100,
			    fx->ms);
	}
}

/* A review's move, comment and position on the braille display (docs/braille.md "A review on the
 * display"). */
static void show_review(struct presenter *p, const struct phrase_options *o,
			const struct game_effect *fx)
{
	struct braille_review rv = {.pos = &fx->shown,
				    .comment = fx->comment,
				    .none = phrase_text(o->lang, PHRASE_REVIEW_START_OF_GAME),
				    .white = phrase_text(o->lang, PHRASE_WHITE),
				    .black = phrase_text(o->lang, PHRASE_BLACK),
				    .signs = p->cfg.braille_layout.signs};
	char san[CHESS_SAN_MAX];

	if (fx->review == GAME_REVIEW_BACK)
		rv.before = phrase_text(o->lang, PHRASE_REVIEW_BACK);
	else if (fx->review == GAME_REVIEW_LEAVE)
		rv.before = phrase_text(o->lang, PHRASE_REVIEW_LEFT);
	else if (fx->line)
		rv.before = phrase_text(o->lang, PHRASE_REVIEW_VARIATION);
	if (fx->move != CHESS_MOVE_NONE) {
		chess_move_to_san(&fx->before, fx->move, san, sizeof(san));
		rv.san = san;
		rv.number = fx->move_number_at;
		rv.color = (enum chess_color)fx->before.side;
	}
	display_show_review(p->display, &rv);
}

void present_review(struct presenter *p, const struct game_effect *fx)
{
	struct phrase_options o = present_options(p);
	struct utterance u;

	if (fx->review != GAME_REVIEW_CHOOSE_BEGIN && fx->review != GAME_REVIEW_CHOOSE &&
	    presenter_reaches(PRESENT_BRAILLE, fx->audience))
		show_review(p, &o, fx);
	utterance_clear(&u);
	review_words(&u, &o, fx);
	/* A prompt, as the guidance that follows it: in the order said. */
	present_say(p, fx->audience, VOICE_KIND_PROMPT, &u, 100, fx->ms);
	if (fx->comment && fx->comment_said &&
	    (fx->review == GAME_REVIEW_NEXT || fx->review == GAME_REVIEW_GOTO ||
	     fx->review == GAME_REVIEW_ENTER || fx->review == GAME_REVIEW_COMMENT))
		say_review_comment(p, &o, fx);
}
