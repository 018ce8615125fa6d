/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/ctlshell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/present.h"
#include "store/games.h"
#include "store/journal.h"
#include "store/recovery.h"
#include "store/scoresheet.h"
#include "store/store.h"

struct ctlshell {
	struct referee *referee;
	struct presenter *presenter;
	struct store *store;
	struct braille_layout braille_layout; /* export brf's pages ([braille]) */
	char state_dir[256];		      /* export of a game kept under games/ */
	char words[512];		      /* the last move's words, for a status reply */
};

struct ctlshell *ctlshell_new(const struct config *cfg, struct referee *r, struct presenter *p,
			      struct store *s)
{
	struct ctlshell *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return NULL;
	sh->referee = r;
	sh->presenter = p;
	sh->store = s;
	sh->braille_layout = cfg->braille_layout;
	snprintf(sh->state_dir, sizeof(sh->state_dir), "%s", cfg->state_dir);
	return sh;
}

void ctlshell_free(struct ctlshell *s)
{
	free(s);
}

/* The record on disk, for `status`: what the journal's reading at start skipped and put back,
 * a longer scoresheet kept aside, whether saving works now, and the journal's anchor. */
static void record_status(struct store *s, struct control_status_extra *x)
{
	const struct journal_stats *st = store_recovery(s);
	const struct recovery *rc = store_recovered(s);

	x->record.skipped = store_recovery_skipped(s);
	x->record.bad = st->bad;
	x->record.duplicates = st->duplicates;
	x->record.refused = st->refused;
	x->record.first_skipped_line = st->first_skipped;
	x->record.moves_from_scoresheet = store_moves_filled(s);
	x->record.scoresheet_kept_plies = store_scoresheet_kept(s, &x->record.scoresheet_kept);
	if (!x->record.scoresheet_kept_plies)
		x->record.scoresheet_kept = NULL;
	x->record.saving_error = store_saving_error(s);
	x->journal.line = store_journal_line(s);
	x->journal.chain = store_chain(s);
	x->journal.key = journal_key_id()[0] ? journal_key_id() : NULL;
	x->record.saving_fails = x->record.saving_error != NULL;
	x->record.readings_from_scoresheet = rc->readings_filled;
	x->record.readings_from_presses = rc->readings_from_presses;
	x->record.reordered = rc->reordered;
	x->record.foreign_journal = rc->foreign_path[0] ? rc->foreign_path : NULL;
	x->record.moves_lost = rc->moves_lost;
	x->record.readings_missing = rc->readings_missing;
	x->record.from_scoresheet = rc->from_scoresheet;
}

/* What the daemon knows besides the game, for `status`. */
static void status_extra(void *shell, struct control_status_extra *x)
{
	struct ctlshell *c = shell;
	const struct game *g = referee_game(c->referee);
	int last = game_plies(g) - 1;

	if (last >= 0) {
		struct chess_pos before;

		game_position_before(g, last, &before);
		presenter_move_words(c->presenter, &before, g->plies[last].move, c->words,
				     sizeof(c->words));
		x->last_move_words = c->words;
	}
	x->board_differences = referee_board_differences(c->referee);
	x->lang = presenter_lang(c->presenter);
	if (c->store)
		record_status(c->store, x);
	if (c->presenter) {
		const struct power_status *pw = presenter_power(c->presenter);

		x->power = (struct control_power_status){
		    .monitored = pw->monitored,
		    .state = power_problem_name(pw->problems),
		    .undervoltage_sensor = pw->undervoltage_sensor,
		    .undervoltage = pw->problems & POWER_UNDERVOLTAGE,
		    .battery = pw->battery,
		    .battery_status = pw->supply_status,
		    .percent = pw->percent,
		    .minutes_left = pw->minutes_left,
		};
	}
}

/* The scoresheet in a format, for `export`: the current game's, or a finished one's. */
static char *render(void *shell, enum control_export f, const char *game_id, enum reply_code *why)
{
	struct ctlshell *c = shell;
	const struct pgn_game *pgn = c->store ? store_pgn(c->store) : NULL;
	const struct game *g = c->referee ? referee_game(c->referee) : NULL;
	char *text;

	if (game_id && game_id[0] && !(g && g->open && !strcmp(game_id, g->params.id)))
		return store_game_render(c->state_dir, game_id, control_export_name(f),
					 &c->braille_layout, why);
	text = pgn ? scoresheet_render(pgn, control_export_name(f), &c->braille_layout) : NULL;
	if (!text)
		*why = pgn ? REPLY_RENDER_FAILED : REPLY_NO_GAME;
	return text;
}

/* The finished games for `games`: the game being played is none of them. */
static int list_games(void *shell, struct game_summary *out, int max)
{
	struct ctlshell *c = shell;
	const struct game *g = c->referee ? referee_game(c->referee) : NULL;

	return store_games_list(c->state_dir, g && g->open && !game_over(g) ? g->params.id : NULL,
				out, max);
}

struct control_env ctlshell_env(struct ctlshell *s)
{
	return (struct control_env){
	    .shell = s,
	    .status_extra = status_extra,
	    .render = render,
	    .list_games = list_games,
	    .notation = s ? presenter_lang(s->presenter) : NULL,
	};
}
