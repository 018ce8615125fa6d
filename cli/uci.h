/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A UCI chess engine as a child process (`annabella train`, docs/training.md "Training and study"):
 * started with pipes, spoken to by the UCI protocol, never linked.  Every wait has a deadline, so
 * an engine that hangs, dies or answers nonsense is an error the caller reports, never a stuck
 * process. Only the `annabella` tool uses this; the daemon never runs an engine (Art. 11.3).
 */
#ifndef ANNABELLA_UCI_H
#define ANNABELLA_UCI_H

#include <stdbool.h>
#include <stddef.h>

#define UCI_MOVE_MAX 8 /* "e7e8q" and its NUL */

struct uci_engine;

/* What went wrong, for the player to hear (docs/training.md "Training and study") and the caller's
 * exit. */
enum uci_failure {
	UCI_OK = 0,
	UCI_MISSING,  /* no engine at the path, or it cannot be started */
	UCI_DIED,     /* it closed its output, or writing to it failed */
	UCI_HUNG,     /* it did not answer in its time */
	UCI_NONSENSE, /* it answered something that is no move */
};

/*
 * Starts the engine at path and completes the handshake (uci ... uciok, isready ...
 * readyok) within timeout_ms.  NULL with the reason in err and, if failure is not NULL,
 * its kind in *failure.
 */
struct uci_engine *uci_start(const char *path, int timeout_ms, enum uci_failure *failure, char *err,
			     size_t errsize);
/* Says quit, waits a moment, then kills; reaps the child.  NULL is fine. */
void uci_stop(struct uci_engine *e);

/* The engine's name (`id name`), or its path when it gave none. */
const char *uci_name(const struct uci_engine *e);

/*
 * The playing strength: a skill level 0..20 (`Skill Level`), or with elo > 0 a rating
 * (`UCI_LimitStrength` and `UCI_Elo`, clamped to the engine's range).  0, or -1 with the
 * reason when the engine offers neither or stops answering.
 */
int uci_set_level(struct uci_engine *e, int level, char *err, size_t errsize);
/* *set: the rating set, held to the engine's range. */
int uci_set_elo(struct uci_engine *e, int elo, int *set, char *err, size_t errsize);

/* Its full strength again (for a hint): UCI_LimitStrength off, Skill Level 20, whichever
 * it offers.  0, or -1 with the reason. */
int uci_set_full_strength(struct uci_engine *e, char *err, size_t errsize);

/* A new game (`ucinewgame`, then isready). */
int uci_new_game(struct uci_engine *e, char *err, size_t errsize);

/*
 * The engine's move in the position given as a FEN (NULL: the start position) followed by
 * the moves (UCI, space separated; NULL or "": none), thinking movetime_ms.  The answer is
 * checked only for its form here (the caller checks it is legal); grace_ms is how much longer
 * than movetime_ms the engine may take before it counts as hung.  0 with the move in
 * move[UCI_MOVE_MAX] ("(none)" is an error: no legal move), or -1 with the reason.
 */
int uci_best_move(struct uci_engine *e, const char *fen, const char *moves, int movetime_ms,
		  int grace_ms, char move[UCI_MOVE_MAX], char *err, size_t errsize);

/* The last uci_best_move()'s score for the side to move, as the engine last gave it: true
 * with it, or false when it gave none.  A mate in `mate` moves (negative: being mated) has cp
 * +-100000. */
struct uci_score {
	int cp;
	int mate; /* 0: no mate seen */
};
bool uci_last_score(const struct uci_engine *e, struct uci_score *score);

/* Why the last call that failed failed. */
enum uci_failure uci_last_failure(const struct uci_engine *e);
/* "missing", "died", "hung", "nonsense" (the words of `engine off REASON`), "ok". */
const char *uci_failure_name(enum uci_failure f);

#endif
