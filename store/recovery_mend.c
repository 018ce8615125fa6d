/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What recovery changes in the state directory (docs/state.md "State directory"): a journal of
 * another game with the same id set aside under games/, game.pgn kept there before it is
 * written again, the journal written again whole (the damaged one kept) and game.record
 * written again from its first line; what storage cannot take yet waits for
 * recovery_mend().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "store/recovery_int.h"
#include "store/salvage.h"
#include "store/state.h"

/* ------------------------------------------------------------------ a foreign journal */

struct survey {
	char game_args[GAME_RECORD_MAX];
	bool has_game;
	char (*san)[CHESS_SAN_MAX]; /* the last move journaled for each ply */
	int plies;
};

static int survey_record(void *user, const struct journal_record *jr, char *why, size_t why_size)
{
	struct survey *sv = user;
	struct game_record rec;

	(void)why;
	(void)why_size;
	if (!strcmp(jr->type, "game") && !sv->has_game) {
		snprintf(sv->game_args, sizeof(sv->game_args), "%s", jr->args);
		sv->has_game = true;
		return 0;
	}
	if (strcmp(jr->type, "made") && strcmp(jr->type, "relayed"))
		return 0;
	if (game_record_decode(&rec, jr->type, jr->args, jr->ms, why, why_size))
		return 0;
	{
		int ply = (rec.type == REC_MADE ? rec.u.made.ply : rec.u.relayed.ply) - 1;

		if (ply < 0 || ply >= GAME_MAX_PLIES)
			return 0;
		snprintf(sv->san[ply], CHESS_SAN_MAX, "%s",
			 rec.type == REC_MADE ? rec.u.made.san : rec.u.relayed.san);
		if (ply + 1 > sv->plies)
			sv->plies = ply + 1;
	}
	return 0;
}

/*
 * Whether the journal is another game's than the one game.record and game.pgn hold (the
 * same id: copied from another board, or a game restored from elsewhere): its game record
 * is not game.record's, or two or more of its moves are not game.pgn's.  Then it is set
 * aside under games/, and the game of game.record and game.pgn is resumed.
 */
void rcv_set_aside_foreign(struct replay *rp, const char *path)
{
	struct survey jn = {0}, copy = {0};
	char cpath[PATH_MAX], err[256], why[160] = "";
	struct game_record rec;
	struct chess_pos start;
	struct chess_error cerr;
	int differ = 0;

	jn.san = calloc(GAME_MAX_PLIES, CHESS_SAN_MAX);
	if (!jn.san)
		return;
	if (journal_read(path, false, survey_record, &jn, NULL, err, sizeof(err)) <= 0 ||
	    !jn.has_game)
		goto done;
	rcv_game_copy_path(rp->dir, cpath, sizeof(cpath));
	copy.san = jn.san; /* unused: the copy is one line */
	if (journal_read(cpath, false, survey_record, &copy, NULL, err, sizeof(err)) > 0 &&
	    copy.has_game && strcmp(copy.game_args, jn.game_args)) {
		snprintf(why, sizeof(why), "its game record is not game.record's");
	} else if (rp->disk_text &&
		   !game_record_decode(&rec, "game", jn.game_args, 0, err, sizeof(err)) &&
		   !chess_fen_parse(&start, rec.u.game.fen, &cerr)) {
		struct salvage sv;

		if (salvage_read(&sv, rp->disk_text, rp->disk_len, &start) == 0) {
			for (int i = 0; i < jn.plies && i < sv.count; i++)
				if (jn.san[i][0] && sv.plies[i].san[0] &&
				    strcmp(jn.san[i], sv.plies[i].san))
					differ++;
			if (differ >= 2 && !sv.finished)
				snprintf(why, sizeof(why), "%d of its moves are not game.pgn's",
					 differ);
			salvage_free(&sv);
		}
	}
	if (!why[0] || game_record_decode(&rec, "game", jn.game_args, 0, err, sizeof(err)))
		goto done;
	if (state_kept_name(rp->dir, rec.u.game.id, "foreign", "journal", rp->rc->foreign_path,
			    sizeof(rp->rc->foreign_path)) ||
	    rename(path, rp->rc->foreign_path)) {
		log_error(LOG_GAME,
			  "the journal is another game's (%s), but cannot be set aside: %s", why,
			  strerror(errno));
		rp->rc->foreign_path[0] = '\0';
		goto done;
	}
	log_error(LOG_GAME,
		  "the journal is another game's with the id %s (%s): kept as %s; the game of "
		  "game.record and game.pgn resumes (the arbiter chooses: annabella fsck --use)",
		  rec.u.game.id, why, rp->rc->foreign_path);
done:
	free(jn.san);
}

/* ------------------------------------------------------------------ mending */

static int keep_scoresheet(struct recovery *rc)
{
	char path[PATH_MAX], kept[PATH_MAX];

	snprintf(path, sizeof(path), "%s/game.pgn", rc->dir);
	if (access(path, F_OK)) {
		rc->keep_scoresheet = false;
		return 0;
	}
	if (state_keep(rc->dir, path, rc->game_id, "before-recovery", "pgn", kept, sizeof(kept)))
		return -1;
	snprintf(rc->scoresheet_kept_path, sizeof(rc->scoresheet_kept_path), "%s", kept);
	rc->keep_scoresheet = false;
	log_warn(LOG_GAME,
		 "game.pgn (%d plies) kept as %s before it is written again; the "
		 "arbiter decides",
		 rc->scoresheet_kept, kept);
	return 0;
}

static int mend_journal(struct recovery *rc, char *const *lines, size_t nlines)
{
	char path[PATH_MAX];
	size_t total = 0;
	char *text;
	int rc_write;

	snprintf(path, sizeof(path), "%s/journal", rc->dir);
	if (!rc->damaged_path[0] && !access(path, F_OK)) {
		char kept[PATH_MAX];

		if (state_keep(rc->dir, path, rc->game_id, "damaged", "journal", kept,
			       sizeof(kept)))
			return -1;
		snprintf(rc->damaged_path, sizeof(rc->damaged_path), "%s", kept);
	}
	/* A new chain over the records kept; the recovery itself is noted in it (store.c). */
	text = journal_chain_text(lines, nlines, &total);
	if (!text)
		return -1;
	rc_write = state_write_atomic(path, text, total, rc->sync);
	free(text);
	if (rc_write)
		return -1;
	rc->mend_journal = false;
	log_warn(LOG_GAME, "journal mended (%zu records)%s%s", nlines,
		 rc->damaged_path[0] ? "; the damaged one is kept as " : "", rc->damaged_path);
	return 0;
}

/* game.record, the game record's copy, written again from the recovered first line. */
static int write_copy(struct recovery *rc, char *const *lines, size_t nlines)
{
	char path[PATH_MAX];

	rcv_game_copy_path(rc->dir, path, sizeof(path));
	if (nlines && state_write_atomic(path, lines[0], strlen(lines[0]), rc->sync))
		return -1;
	rc->write_copy = false;
	log_warn(LOG_GAME, "%s written again", path);
	return 0;
}

int recovery_mend(struct recovery *rc, char *const *lines, size_t nlines)
{
	if (rc->keep_scoresheet && keep_scoresheet(rc))
		return -1;
	if (rc->mend_journal && mend_journal(rc, lines, nlines))
		return -1;
	if (rc->write_copy && write_copy(rc, lines, nlines))
		return -1;
	return 0;
}

bool recovery_mend_due(const struct recovery *rc)
{
	return rc->keep_scoresheet || rc->mend_journal || rc->write_copy;
}
