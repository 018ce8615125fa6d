/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/ctlsock.h"

#include "store/journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/log.h"
#include "base/pendlog.h"
#include "control/protocol.h"
#include "daemon/audit.h"
#include "base/pinguard.h"
#include "store/recovery.h"
#include "store/games.h"
#include "store/scoresheet.h"
#include "store/state.h"

/* A client's unsent replies and events: more than this and it is dropped. */
#define OUT_MAX (512 * 1024)
/* Bytes read from one client per wake-up: a burst is served a slice at a time. */
#define READ_SLICE 65536
/* A request as control.log shows it: its first 200 bytes, escaped (at most 4 bytes each). */
#define LOGGABLE_MAX (4 * 200 + 4)
/* Wrong PINs before the connection is closed. */
#define AUTH_TRIES 5
/* A connection's first whole line, and every line once begun, within this (real time). */
#define LINE_WAIT_MS 10000u
/* File descriptors kept free for the daemon's own files whatever the clients hold: a
 * scoresheet's temporary file and its directory (twice: game.pgn and the copy under
 * games/), the next game's journal and audio record, the start line's log, a display or
 * braille display connecting again. */
#define FD_RESERVE 8
/* Reads (the table's rows that only read what anyone may know) are counted per author and
 * written as one line once the first of them is this old (docs/state.md "State directory"). */
#define READS_MS      60000u
#define READS_AUTHORS 16
#define READS_KINDS   8
/* control.log kept through a storage fault: at most this much, tried again this often. */
#define CONTROL_LOG_PENDING_MAX (1 << 20)
#define LOG_RETRY_MS		1000u

struct client {
	int fd;
	unsigned gen; /* tells a reused slot from the client a reply was for */
	uid_t uid;
	bool arbiter_user;  /* the peer's user is one of [control] arbiters */
	bool spoke;	    /* it has sent a whole line */
	uint64_t since;	    /* connected at */
	uint64_t line_from; /* the line it is sending was begun at (0: none begun) */
	char user[40];
	char author[GAME_AUTHOR_MAX];
	enum game_role role;
	bool watching;
	bool watch_public; /* `watch public`: public events only */
	bool engine; /* the training process (docs/training.md "Training and study"): `engine on` or
			`engine wait` */
	bool online; /* the online process (docs/online.md "Playing online"): `online on` or `online
			wait` */
	char notation[3]; /* `notation LANG`: its moves' piece letters ("": the interface
			     language's) */
	int auth_failures;
	char in[CONTROL_LINE_MAX + 2];
	size_t in_len;
	bool discarding; /* the current line is too long: skipped to its end */
	struct strbuf out;
	size_t out_sent;
};

/* An author's reads not yet written to control.log: how many of each row, how many refused,
 * since when (0: a free place). */
struct reads {
	char author[GAME_AUTHOR_MAX];
	enum game_role role;
	uint64_t since;
	const struct control_command *kind[READS_KINDS];
	unsigned long count[READS_KINDS], refused;
};

struct ctlsock {
	struct loop *loop;
	struct referee *referee;
	struct presenter *presenter;
	struct store *store;
	int listen_fd;
	char path[108];
	struct pendlog clog; /* control.log, its lines kept through storage faults */
	int arbiter_count;
	char arbiters[CONFIG_MAX_ARBITERS][32];
	struct pin_secret arbiter_pin, assistant_pin;
	struct client clients[CTLSOCK_MAX_CLIENTS];
	unsigned next_gen;
	int watchers;
	bool script_engine; /* a board script's `control` lines said `engine on` */
	bool script_online; /* ... `online on` */
	bool closing;	    /* ctlsock_close(): the game is no longer told of clients */
	struct braille_layout braille_layout; /* export brf's pages ([braille]) */
	char state_dir[256];		      /* export of a game kept under games/ */
	char words[512];		      /* the last move's words, for a status reply */
	int spare_fd;		/* /dev/null, given up for a moment to refuse a client at EMFILE */
	bool timeouts;		/* real time: silent and half-line clients are closed */
	struct pin_guard pins;	/* wrong PINs per Unix user (docs/control.md "Control interface") */
	uint64_t refusals_said; /* the last refused client logged, and those since not */
	int refusals_quiet;
	uint64_t log_retry_at; /* control.log's kept lines tried again then (0: not set) */
	struct reads reads[READS_AUTHORS];
};

/* ------------------------------------------------------------------ the audit */

/* control.log: MS AUTHOR ROLE COMMAND => ok|error TEXT; the author and the text escaped
 * here (audit.h), the command by loggable(). */
static void audit(struct ctlsock *c, uint64_t now, const char *author, enum game_role role,
		  const char *line, bool ok, const char *text)
{
	char buf[4096], who[4 * GAME_AUTHOR_MAX], said[2048];
	int n;

	audit_escape(author, strlen(author), who, sizeof(who));
	audit_escape(text ? text : "", text ? strlen(text) : 0, said, sizeof(said));
	n = snprintf(buf, sizeof(buf), "%llu %s %s %s => %s%s%s\n", (unsigned long long)now, who,
		     control_role_name(role), line, ok ? "ok" : "error", said[0] ? " " : "", said);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf)) {
		n = sizeof(buf) - 1;
		buf[n - 1] = '\n';
	}
	pendlog_add(&c->clog, buf, (size_t)n);
}

void ctlsock_log_line(struct ctlsock *c, const char *line)
{
	pendlog_start(&c->clog, line, strlen(line));
}

int ctlsock_log_digest(const struct ctlsock *c, off_t *bytes, char hex[2 * SHA256_SIZE + 1])
{
	return c ? pendlog_digest(&c->clog, bytes, hex) : -1;
}

/* ------------------------------------------------------------------ reads, counted */

/* One line for an author's reads: `MS AUTHOR ROLE (N reads since MS0) => ok status 1520,
 * moves 3; 2 refused`. */
static void reads_write(struct ctlsock *c, struct reads *r, uint64_t now)
{
	char shown[64], text[400];
	unsigned long all = 0;
	size_t at = 0;

	for (int i = 0; i < READS_KINDS && r->kind[i]; i++) {
		all += r->count[i];
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s %lu", i ? ", " : "",
				       r->kind[i]->name, r->count[i]);
		if (at >= sizeof(text))
			at = sizeof(text) - 1;
	}
	if (r->refused)
		snprintf(text + at, sizeof(text) - at, "; %lu refused", r->refused);
	snprintf(shown, sizeof(shown), "(%lu reads since %llu)", all,
		 (unsigned long long)r->since - 1);
	audit(c, now, r->author, r->role, shown, true, text);
	memset(r, 0, sizeof(*r));
}

/* The reads of `author` written (before a request of theirs that is no read); NULL: all. */
static void reads_flush(struct ctlsock *c, const char *author, uint64_t now)
{
	for (int i = 0; i < READS_AUTHORS; i++)
		if (c->reads[i].since && (!author || !strcmp(c->reads[i].author, author)))
			reads_write(c, &c->reads[i], now);
}

/* A read counted for its author; the oldest author's written first when all places are
 * taken. */
static void reads_count(struct ctlsock *c, const char *author, enum game_role role,
			const struct control_command *row, bool ok, uint64_t now)
{
	struct reads *r = NULL, *oldest = &c->reads[0];
	int k;

	for (int i = 0; i < READS_AUTHORS && !r; i++) {
		struct reads *e = &c->reads[i];

		if (e->since && e->role == role && !strcmp(e->author, author))
			r = e;
		else if (!oldest->since || (e->since && e->since < oldest->since))
			oldest = e;
	}
	for (int i = 0; i < READS_AUTHORS && !r; i++)
		if (!c->reads[i].since)
			r = &c->reads[i];
	if (!r) {
		reads_write(c, oldest, now);
		r = oldest;
	}
	if (!r->since) {
		snprintf(r->author, sizeof(r->author), "%s", author);
		r->role = role;
		r->since = now + 1; /* 0 is a free place */
	}
	for (k = 0; k < READS_KINDS - 1 && r->kind[k] && r->kind[k] != row; k++)
		;
	r->kind[k] = row;
	r->count[k]++;
	r->refused += !ok;
}

void ctlsock_log_reads(struct ctlsock *c, uint64_t now)
{
	if (c)
		reads_flush(c, NULL, now);
}

static uint64_t reads_deadline(void *user, uint64_t now)
{
	struct ctlsock *c = user;
	uint64_t at = UINT64_MAX;

	(void)now;
	for (int i = 0; i < READS_AUTHORS; i++)
		if (c->reads[i].since && c->reads[i].since - 1 + READS_MS < at)
			at = c->reads[i].since - 1 + READS_MS;
	return at;
}

static void reads_due(void *user, uint64_t now)
{
	struct ctlsock *c = user;

	for (int i = 0; i < READS_AUTHORS; i++)
		if (c->reads[i].since && c->reads[i].since - 1 + READS_MS <= now)
			reads_write(c, &c->reads[i], now);
}

/* Lines kept through a storage fault are written when storage works again, without waiting
 * for the next request: tried once a second. */
static uint64_t log_deadline(void *user, uint64_t now)
{
	struct ctlsock *c = user;

	if (!pendlog_waiting(&c->clog))
		return UINT64_MAX;
	if (!c->log_retry_at)
		c->log_retry_at = now + LOG_RETRY_MS;
	return c->log_retry_at;
}

static void log_retry(void *user, uint64_t now)
{
	struct ctlsock *c = user;

	(void)now;
	c->log_retry_at = 0;
	pendlog_flush(&c->clog);
}

/* The request as the log shows it: its first 200 bytes escaped (audit.h), "..." after a
 * longer one.  out: at least LOGGABLE_MAX bytes. */
static void loggable(const char *line, size_t len, char *out, size_t size)
{
	size_t n = audit_escape(line, len < 200 ? len : 200, out, size - 3);

	if (len > 200)
		memcpy(out + n, "...", 4);
}

/*
 * The request and its reply as control.log shows them: never a PIN.  `auth` is `auth ****`;
 * a request no row of the table took (a mistyped `Auth` or `atuh`, bytes refused before its
 * words were read) is its length alone, since what follows its first word may be a PIN; the
 * reply of either is its code when its words quote the request.  Else the request's first
 * 200 bytes, escaped.
 */
static void shown_request(struct control_outcome *out, const char *line, size_t len, char *shown,
			  size_t size)
{
	if (out->command && !(out->command->flags & CONTROL_SECRET)) {
		loggable(line, len, shown, size);
		return;
	}
	if (out->command)
		snprintf(shown, size, "%s ****", out->command->name);
	else
		snprintf(shown, size, "(%zu bytes)", len);
	if (!out->command || out->quotes)
		snprintf(out->said, sizeof(out->said), "%s", reply_row(out->code)->name);
}

/* ------------------------------------------------------------------ clients */

static void update_events(struct ctlsock *c, struct client *cl)
{
	short ev = POLLIN;

	if (cl->out.len > cl->out_sent)
		ev |= POLLOUT;
	loop_set_fd_events(c->loop, cl->fd, ev);
}

static void drop(struct ctlsock *c, struct client *cl, const char *why)
{
	if (cl->fd < 0)
		return;
	if (why)
		log_info(LOG_CONTROL, "client %s dropped: %s", cl->user, why);
	loop_remove_fd(c->loop, cl->fd);
	close(cl->fd);
	cl->fd = -1;
	if (cl->watching)
		c->watchers--;
	cl->watching = false;
	if (cl->engine) {
		/* The training process went without `engine off`: the player hears of it. */
		cl->engine = false;
		if (!c->closing && c->referee)
			referee_engine_gone(c->referee, loop_now(c->loop));
	}
	if (cl->online) {
		/* The online process went without `online off`: the player hears of it. */
		cl->online = false;
		if (!c->closing && c->referee)
			referee_online_gone(c->referee, loop_now(c->loop));
	}
	free(cl->out.p);
	memset(&cl->out, 0, sizeof(cl->out));
	cl->out_sent = 0;
}

static void flush_client(struct ctlsock *c, struct client *cl)
{
	while (cl->out.len > cl->out_sent) {
		ssize_t n = send(cl->fd, cl->out.p + cl->out_sent, cl->out.len - cl->out_sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				break;
			drop(c, cl, strerror(errno));
			return;
		}
		cl->out_sent += (size_t)n;
	}
	if (cl->out_sent == cl->out.len) {
		cl->out.len = cl->out_sent = 0;
		if (cl->out.p)
			cl->out.p[0] = '\0';
	}
	update_events(c, cl);
}

/* Queue a line for a client; a client whose queue is full is dropped, never waited for. */
static void send_line(struct ctlsock *c, struct client *cl, const char *line, size_t len)
{
	if (cl->fd < 0)
		return;
	if (cl->out.len - cl->out_sent + len + 1 > OUT_MAX) {
		drop(c, cl, "it does not read what it is sent");
		return;
	}
	strbuf_append(&cl->out, line, len);
	strbuf_append(&cl->out, "\n", 1);
	if (cl->out.failed) {
		drop(c, cl, "out of memory");
		return;
	}
	flush_client(c, cl);
}

/* ------------------------------------------------------------------ requests */

static bool is_arbiter(const struct ctlsock *c, const char *user)
{
	for (int i = 0; i < c->arbiter_count; i++)
		if (!strcmp(c->arbiters[i], user))
			return true;
	return false;
}

static void answer(struct ctlsock *c, struct client *cl, const struct strbuf *reply)
{
	if (cl && reply->p)
		send_line(c, cl, reply->p, reply->len);
}

/* What the daemon knows besides the game, for `status`. */
static void status_extra(void *shell, struct control_status_extra *x)
{
	struct ctlsock *c = shell;
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
	if (c->store) {
		const struct journal_stats *st = store_recovery(c->store);

		x->record.skipped = store_recovery_skipped(c->store);
		x->record.bad = st->bad;
		x->record.duplicates = st->duplicates;
		x->record.refused = st->refused;
		x->record.first_skipped_line = st->first_skipped;
		x->record.moves_from_scoresheet = store_moves_filled(c->store);
		x->record.scoresheet_kept_plies =
		    store_scoresheet_kept(c->store, &x->record.scoresheet_kept);
		if (!x->record.scoresheet_kept_plies)
			x->record.scoresheet_kept = NULL;
		x->record.saving_error = store_saving_error(c->store);
		x->journal.line = store_journal_line(c->store);
		x->journal.chain = store_chain(c->store);
		x->journal.key = journal_key_id()[0] ? journal_key_id() : NULL;
		x->record.saving_fails = x->record.saving_error != NULL;
		{
			const struct recovery *rc = store_recovered(c->store);

			x->record.readings_from_scoresheet = rc->readings_filled;
			x->record.readings_from_presses = rc->readings_from_presses;
			x->record.reordered = rc->reordered;
			x->record.foreign_journal = rc->foreign_path[0] ? rc->foreign_path : NULL;
			x->record.moves_lost = rc->moves_lost;
			x->record.readings_missing = rc->readings_missing;
			x->record.from_scoresheet = rc->from_scoresheet;
		}
	}
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

/* A finished game's scoresheet as games/ID.pgn keeps it (the id, or the game's number), in a
 * format; NULL with *why. */
static char *render_kept(struct ctlsock *c, enum control_export f, const char *what,
			 enum reply_code *why)
{
	char path[PATH_MAX + 64], id[GAME_ID_MAX];
	struct pgn_reader *rd = NULL;
	struct pgn_game g;
	struct chess_error err;
	char *text = NULL, *file = NULL;
	size_t len = 0;
	FILE *in;

	if (store_game_find(c->state_dir, what, id, sizeof(id))) {
		*why = REPLY_NO_SUCH_GAME;
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/games/%s.pgn", c->state_dir, id);
	in = fopen(path, "rb");
	if (!in) {
		*why = REPLY_NO_SUCH_GAME;
		return NULL;
	}
	file = malloc(1 << 20);
	if (file)
		len = fread(file, 1, (1 << 20) - 1, in);
	fclose(in);
	if (file)
		rd = pgn_reader_new(file, len);
	if (rd && pgn_reader_next(rd, &g, &err) == 1) {
		text = scoresheet_render(&g, control_export_name(f), &c->braille_layout);
		pgn_game_free(&g);
	}
	pgn_reader_free(rd);
	free(file);
	if (!text)
		*why = REPLY_GAME_UNREADABLE;
	return text;
}

/* The scoresheet in a format, for `export`: the current game's, or a finished one's. */
static char *render(void *shell, enum control_export f, const char *game_id, enum reply_code *why)
{
	struct ctlsock *c = shell;
	const struct pgn_game *pgn = c->store ? store_pgn(c->store) : NULL;
	const struct game *g = c->referee ? referee_game(c->referee) : NULL;
	char *text;

	if (game_id && game_id[0] && !(g && g->open && !strcmp(game_id, g->params.id)))
		return render_kept(c, f, game_id, why);
	text = pgn ? scoresheet_render(pgn, control_export_name(f), &c->braille_layout) : NULL;
	if (!text)
		*why = pgn ? REPLY_RENDER_FAILED : REPLY_NO_GAME;
	return text;
}

/* The finished games for `games`: the game being played is none of them. */
static int list_games(void *shell, struct game_summary *out, int max)
{
	struct ctlsock *c = shell;
	const struct game *g = c->referee ? referee_game(c->referee) : NULL;

	return store_games_list(c->state_dir, g && g->open && !game_over(g) ? g->params.id : NULL,
				out, max);
}

/* One event line for the watchers its audience reaches. */
static void send_event(struct ctlsock *c, const char *json, enum game_audience audience)
{
	size_t len = strlen(json);

	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++) {
		struct client *cl = &c->clients[i];
		enum game_audience level =
		    game_audience_level(cl->watch_public, cl->role == ROLE_ARBITER);

		if (cl->fd >= 0 && cl->watching && game_audience_reaches(audience, level))
			send_line(c, cl, json, len);
	}
}

/* ------------------------------------------------------------------ PINs */

/* control.log gets one line per wait that refused PINs: who, how long, how many. */
static void pin_waits(struct ctlsock *c, uint64_t now, bool all)
{
	struct pin_wait w;

	while (pin_guard_ended(&c->pins, now, all, &w)) {
		char text[160];

		snprintf(text, sizeof(text),
			 "%d %s refused unchecked during a %llu s wait after %d wrong ones",
			 w.refused, w.refused == 1 ? "PIN" : "PINs",
			 (unsigned long long)(w.length / 1000), w.wrong);
		/* The board's buttons ("board", as its tries are logged) are the player's until
		 * the arbiter's PIN is right. */
		if (strcmp(w.key, PIN_KEY_BOARD))
			audit(c, now, w.key, ROLE_ASSISTANT, "auth ****", false, text);
		else
			audit(c, now, "board", ROLE_PLAYER, "auth ****", false, text);
	}
}

static uint64_t pin_deadline(void *user, uint64_t now)
{
	struct ctlsock *c = user;

	(void)now;
	return pin_guard_deadline(&c->pins);
}

static void pin_run(void *user, uint64_t now)
{
	pin_waits(user, now, false);
}

/* Give one request line, from a client (cl) or a board script (cl NULL): through the
 * command table, its reply back to the client, a line in control.log. */
/* A wrong or refused PIN's end: the arbiters hear of it (an event), and a connection that is
 * not an arbiter's own is closed after AUTH_TRIES of them. */
static void pin_refused(struct ctlsock *c, struct client *cl, const char *author, bool counted,
			uint64_t now)
{
	struct strbuf ev = {0};

	control_event_pin_refused(&ev, now, author);
	if (ev.p && c->watchers)
		send_event(c, ev.p, CONTROL_PIN_REFUSED_AUDIENCE);
	free(ev.p);
	if (cl && counted && ++cl->auth_failures >= AUTH_TRIES && cl->fd >= 0) {
		log_warn(LOG_CONTROL, "client %s closed after %d wrong or refused PINs", cl->user,
			 AUTH_TRIES);
		flush_client(c, cl);
		drop(c, cl, NULL);
	}
}

/*
 * `auth` while its user waits after too many wrong PINs (pinguard.h): refused unchecked,
 * even the right PIN; these tries go to control.log once per wait (pin_waits()).  The
 * arbiters' own users are never slowed, nor is a board script.  True when it was refused.
 */
static bool auth_waits(struct ctlsock *c, struct client *cl, const char *author, uint64_t now)
{
	uint64_t wait;
	bool first;
	struct game_reply err;
	struct strbuf out = {0};

	if (!cl || cl->arbiter_user || !(wait = pin_guard_ask(&c->pins, cl->user, now, &first)))
		return false;
	game_reply_set(&err, REPLY_PIN_WAIT, REPLY_ARGS(REPLY_N("seconds", (wait + 999) / 1000)));
	if (first)
		log_warn(LOG_CONTROL, "user %s: PINs refused for %llu s after %d wrong ones",
			 cl->user, (unsigned long long)((wait + 999) / 1000),
			 pin_guard_count(&c->pins, cl->user, now));
	control_reply(&out, &err);
	answer(c, cl, &out);
	free(out.p);
	pin_refused(c, cl, author, true, now);
	return true;
}

void ctlsock_audit(struct ctlsock *c, uint64_t now, const char *author, enum game_role role,
		   const char *line, bool ok, const char *text)
{
	if (!c)
		return;
	audit(c, now, author, role, line, ok, text);
	if (!ok && !strcmp(line, "auth ****"))
		pin_refused(c, NULL, author, false, now);
}

struct pin_guard *ctlsock_pins(struct ctlsock *c)
{
	return c ? &c->pins : NULL;
}

/* Give one request line, from a client (cl) or a board script (cl NULL): through the
 * command table, its reply back to the client, a line in control.log. */
static void request(struct ctlsock *c, struct client *cl, const char *author, enum game_role role,
		    const char *line, size_t len, uint64_t now)
{
	struct control_env env = {
	    .referee = c->referee,
	    .now = now,
	    .role = role,
	    .author = author,
	    .connection = cl != NULL,
	    .arbiter_pin = &c->arbiter_pin,
	    .assistant_pin = &c->assistant_pin,
	    .shell = c,
	    .status_extra = status_extra,
	    .render = render,
	    .list_games = list_games,
	};
	const struct control_command *auth = control_command_find("auth");
	struct control_outcome out;
	char shown[LOGGABLE_MAX], head[80];
	bool counted = cl && !cl->arbiter_user;

	env.watching = cl && cl->watching;
	env.notation = cl && cl->notation[0] ? cl->notation : presenter_lang(c->presenter);
	env.engine_self = cl ? cl->engine : c->script_engine;
	env.engine_elsewhere = cl && c->script_engine;
	env.online_self = cl ? cl->online : c->script_online;
	env.online_elsewhere = cl && c->script_online;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++)
		if (c->clients[i].fd >= 0 && &c->clients[i] != cl) {
			env.engine_elsewhere |= c->clients[i].engine;
			env.online_elsewhere |= c->clients[i].online;
		}
	/* The line's first words (it need not end in a NUL) pick its row. */
	snprintf(head, sizeof(head), "%.*s", (int)(len < sizeof(head) - 1 ? len : sizeof(head) - 1),
		 line);
	if (auth && control_command_find(head) == auth && auth_waits(c, cl, author, now))
		return;
	control_dispatch(&env, line, len, &out);
	if (out.action == CONTROL_ACT_PIN_REFUSED && counted) {
		/* Counted per Unix user across connections: after five, a growing wait. */
		uint64_t wait = pin_guard_wrong(&c->pins, cl->user, now);

		if (wait) {
			struct game_reply err;

			game_reply_set(&err, REPLY_WRONG_PIN_WAIT,
				       REPLY_ARGS(REPLY_N("seconds", wait / 1000)));
			free(out.reply.p);
			out.reply = (struct strbuf){0};
			snprintf(out.said, sizeof(out.said), "%s", err.text);
			control_reply(&out.reply, &err);
		}
	}
	if (out.command && (out.command->flags & CONTROL_READS)) {
		reads_count(c, author, role, out.command, out.ok, now);
	} else {
		reads_flush(c, author, now);
		shown_request(&out, line, len, shown, sizeof(shown));
		audit(c, now, author, role, shown, out.ok, out.said);
	}
	/* The connection's new state first: sending the reply may drop it. */
	if (cl && out.action == CONTROL_ACT_WATCH) {
		if (!cl->watching)
			c->watchers++;
		cl->watching = true;
		cl->watch_public = out.public_view;
	} else if (cl && out.action == CONTROL_ACT_ROLE) {
		cl->role = out.role;
		/* `auth PIN NAME`: the person at a shared connection (a phone at the web page)
		 * is told apart from the others with the same PIN. */
		if (snprintf(cl->author, sizeof(cl->author), "%s+pin%s%s", cl->user,
			     out.name[0] ? ":" : "", out.name) >= (int)sizeof(cl->author))
			log_warn(LOG_CONTROL, "author %s cut short", cl->author);
	}
	if (cl && out.action == CONTROL_ACT_NOTATION)
		snprintf(cl->notation, sizeof(cl->notation), "%s", out.lang);
	if (out.action == CONTROL_ACT_ENGINE || out.action == CONTROL_ACT_ENGINE_OFF) {
		if (cl)
			cl->engine = out.action == CONTROL_ACT_ENGINE;
		else
			c->script_engine = out.action == CONTROL_ACT_ENGINE;
	}
	if (out.action == CONTROL_ACT_ONLINE || out.action == CONTROL_ACT_ONLINE_OFF) {
		if (cl)
			cl->online = out.action == CONTROL_ACT_ONLINE;
		else
			c->script_online = out.action == CONTROL_ACT_ONLINE;
	}
	answer(c, cl, &out.reply);
	control_outcome_free(&out);
	/* The scoresheet's files after the reply has gone. */
	referee_flush(c->referee, now);
	if (out.action == CONTROL_ACT_PIN_REFUSED)
		pin_refused(c, cl, author, counted, now);
}

void ctlsock_script(struct ctlsock *c, const char *role, const char *author, const char *command,
		    uint64_t now)
{
	request(c, NULL, author, !strcmp(role, "arbiter") ? ROLE_ARBITER : ROLE_ASSISTANT, command,
		strlen(command), now);
}

void ctlsock_event(struct ctlsock *c, const char *json, enum game_audience audience)
{
	if (!c || !c->watchers)
		return;
	send_event(c, json, audience);
}

void ctlsock_engine_event(struct ctlsock *c, const char *json)
{
	if (!c)
		return;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++)
		if (c->clients[i].fd >= 0 && c->clients[i].engine)
			send_line(c, &c->clients[i], json, strlen(json));
}

void ctlsock_online_event(struct ctlsock *c, const char *json)
{
	if (!c)
		return;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++)
		if (c->clients[i].fd >= 0 && c->clients[i].online)
			send_line(c, &c->clients[i], json, strlen(json));
}

bool ctlsock_watched(const struct ctlsock *c)
{
	return c && c->watchers > 0;
}

/* ------------------------------------------------------------------ reading */

static void client_ready(void *user, int fd, short revents, uint64_t now)
{
	struct ctlsock *c = user;
	struct client *cl = NULL;
	size_t budget = READ_SLICE;

	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++)
		if (c->clients[i].fd == fd)
			cl = &c->clients[i];
	if (!cl)
		return;
	if (revents & POLLOUT)
		flush_client(c, cl);
	if (cl->fd < 0 || !(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	while (budget > 0 && cl->fd >= 0) {
		char *nl;
		ssize_t n =
		    recv(fd, cl->in + cl->in_len, sizeof(cl->in) - cl->in_len, MSG_DONTWAIT);

		if (n == 0) {
			drop(c, cl, NULL); /* closed: a line half sent is not a request */
			return;
		}
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
				drop(c, cl, strerror(errno));
			return;
		}
		budget = (size_t)n < budget ? budget - (size_t)n : 0;
		cl->in_len += (size_t)n;
		while (cl->fd >= 0 && (nl = memchr(cl->in, '\n', cl->in_len))) {
			size_t len = (size_t)(nl - cl->in);

			cl->spoke = true;
			cl->line_from = 0;
			if (cl->discarding)
				cl->discarding = false;
			else
				request(c, cl, cl->author, cl->role, cl->in, len, now);
			if (cl->fd < 0)
				return;
			memmove(cl->in, nl + 1, cl->in_len - len - 1);
			cl->in_len -= len + 1;
		}
		if (cl->fd >= 0 && (cl->in_len || cl->discarding) && !cl->line_from)
			cl->line_from = now ? now : 1;
		if (cl->fd >= 0 && cl->in_len == sizeof(cl->in)) {
			/* Over the limit without a newline: refused, the rest of it skipped. */
			if (!cl->discarding) {
				struct game_reply err;
				struct strbuf out = {0};

				game_reply_set(&err, REPLY_REQUEST_TOO_LONG,
					       REPLY_ARGS(REPLY_N("max", CONTROL_LINE_MAX)));
				control_reply(&out, &err);
				audit(c, now, cl->author, cl->role, "(too long)", false, err.text);
				answer(c, cl, &out);
				free(out.p);
			}
			cl->discarding = true;
			cl->in_len = 0;
		}
	}
}

static uid_t peer_user(int fd, char *user, size_t size)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct passwd pw, *res = NULL;
	char buf[1024];

	snprintf(user, size, "unknown");
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return (uid_t)-1;
	if (getpwuid_r(cred.uid, &pw, buf, sizeof(buf), &res) == 0 && res)
		snprintf(user, size, "%s", pw.pw_name);
	else
		snprintf(user, size, "uid%u", (unsigned)cred.uid);
	return cred.uid;
}

/* ------------------------------------------------------------------ limits */

/* Whether a client may take one more file descriptor and still leave `keep` for the
 * daemon's own files (and the arbiters): the descriptors open now, counted in
 * /proc/self/fd (without it, the highest one handed out is taken as the count). */
static bool fds_to_spare(int newest, int keep)
{
	struct rlimit rl;
	int open_now = 0;
	DIR *d;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return true;
	d = opendir("/proc/self/fd");
	if (d) {
		while (readdir(d))
			open_now++;
		closedir(d);
		open_now -= 3; /* ".", ".." and the directory's own */
	} else if (errno == EMFILE || errno == ENFILE) {
		return false;
	} else {
		open_now = newest + 1;
	}
	return (rlim_t)open_now + (rlim_t)keep <= rl.rlim_cur;
}

/*
 * Who may connect besides those connected: at most CTLSOCK_MAX_CLIENTS in all, the last
 * CTLSOCK_ARBITER_SLOTS of them for the arbiters' own users, at most CTLSOCK_PER_USER for
 * any other user, and none that would take the file descriptors the daemon's files need
 * (or, for other users than the arbiters, the arbiters' places' too).  True when it may;
 * else false with the refusal in *why.
 */
static bool admit(const struct ctlsock *c, uid_t uid, bool arbiter, int fd, struct game_reply *why)
{
	int all = 0, mine = 0;

	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++) {
		if (c->clients[i].fd < 0)
			continue;
		all++;
		if (c->clients[i].uid == uid)
			mine++;
	}
	if (all >= CTLSOCK_MAX_CLIENTS)
		game_reply_set(why, REPLY_TOO_MANY_CLIENTS,
			       REPLY_ARGS(REPLY_N("max", CTLSOCK_MAX_CLIENTS)));
	else if (!arbiter && all >= CTLSOCK_MAX_CLIENTS - CTLSOCK_ARBITER_SLOTS)
		game_reply_set(why, REPLY_ARBITERS_PLACES,
			       REPLY_ARGS(REPLY_N("places", CTLSOCK_ARBITER_SLOTS)));
	else if (!arbiter && mine >= CTLSOCK_PER_USER)
		game_reply_set(why, REPLY_TOO_MANY_USER_CONNECTIONS,
			       REPLY_ARGS(REPLY_N("max", CTLSOCK_PER_USER)));
	else if (!fds_to_spare(fd, FD_RESERVE + (arbiter ? 0 : CTLSOCK_ARBITER_SLOTS)))
		game_reply_set(why, REPLY_FDS_KEPT, NULL);
	else
		return true;
	return false;
}

/* A client told why it is refused, and closed; logged at most once a second (with how many
 * were refused without a word since), so a flood of connections does not flood the log. */
static void refuse(struct ctlsock *c, int fd, const char *user, const struct game_reply *reply,
		   uint64_t now)
{
	const char *why = reply->text;
	struct strbuf out = {0};

	control_reply(&out, reply);
	strbuf_append(&out, "\n", 1);
	if (out.p && send(fd, out.p, out.len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		log_debug(LOG_CONTROL, "refusing a client: %s", strerror(errno));
	free(out.p);
	close(fd);
	if (c->refusals_said && now < c->refusals_said + 1000) {
		c->refusals_quiet++;
		return;
	}
	if (c->refusals_quiet)
		log_warn(LOG_CONTROL, "client %s refused: %s (and %d more refused before)", user,
			 why, c->refusals_quiet);
	else
		log_warn(LOG_CONTROL, "client %s refused: %s", user, why);
	c->refusals_said = now ? now : 1;
	c->refusals_quiet = 0;
}

/* No descriptor left even to accept (EMFILE): the spare one given up for a moment, so the
 * client can be told and closed, and the socket does not stay readable for ever. */
static void shed(struct ctlsock *c, int listen_fd, uint64_t now)
{
	struct game_reply why;
	int fd;

	if (c->spare_fd < 0)
		return;
	close(c->spare_fd);
	fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	game_reply_set(&why, REPLY_NO_FD_LEFT, NULL);
	if (fd >= 0)
		refuse(c, fd, "?", &why, now);
	c->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* Real time: a client that has sent no whole line within LINE_WAIT_MS of connecting, or
 * leaves a line unfinished that long, is closed: silent clients never keep a place. */
static uint64_t line_deadline(const struct client *cl)
{
	uint64_t at = UINT64_MAX;

	if (cl->fd < 0)
		return at;
	if (!cl->spoke)
		at = cl->since + LINE_WAIT_MS;
	if (cl->line_from && cl->line_from + LINE_WAIT_MS < at)
		at = cl->line_from + LINE_WAIT_MS;
	return at;
}

static uint64_t timeout_deadline(void *user, uint64_t now)
{
	struct ctlsock *c = user;
	uint64_t at = UINT64_MAX;

	(void)now;
	if (!c->timeouts)
		return at;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++) {
		uint64_t t = line_deadline(&c->clients[i]);

		if (t < at)
			at = t;
	}
	return at;
}

static void timeout_run(void *user, uint64_t now)
{
	struct ctlsock *c = user;

	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++) {
		struct client *cl = &c->clients[i];

		if (cl->fd >= 0 && line_deadline(cl) <= now)
			drop(c, cl,
			     cl->spoke ? "a line left unfinished for 10 s"
				       : "no whole line within 10 s of connecting");
	}
}

static void accept_ready(void *user, int fd, short revents, uint64_t now)
{
	struct ctlsock *c = user;

	(void)revents;
	for (int round = 0; round < CTLSOCK_MAX_CLIENTS; round++) {
		int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct client *cl = NULL;
		struct game_reply why;
		char user_name[40];
		bool arbiter;
		uid_t uid;

		if (cfd < 0) {
			if (errno == EMFILE || errno == ENFILE)
				shed(c, fd, now);
			return;
		}
		uid = peer_user(cfd, user_name, sizeof(user_name));
		arbiter = is_arbiter(c, user_name);
		if (!admit(c, uid, arbiter, cfd, &why)) {
			refuse(c, cfd, user_name, &why, now);
			continue;
		}
		for (int i = 0; i < CTLSOCK_MAX_CLIENTS && !cl; i++)
			if (c->clients[i].fd < 0)
				cl = &c->clients[i];
		if (!cl || loop_add_fd(c->loop, cfd, POLLIN, client_ready, c)) {
			game_reply_set(&why, REPLY_TOO_MANY_CLIENTS,
				       REPLY_ARGS(REPLY_N("max", CTLSOCK_MAX_CLIENTS)));
			refuse(c, cfd, user_name, &why, now);
			continue;
		}
		memset(cl, 0, sizeof(*cl));
		cl->fd = cfd;
		cl->gen = ++c->next_gen;
		cl->uid = uid;
		cl->arbiter_user = arbiter;
		cl->since = now;
		snprintf(cl->user, sizeof(cl->user), "%s", user_name);
		snprintf(cl->author, sizeof(cl->author), "%s", cl->user);
		cl->role = arbiter ? ROLE_ARBITER : ROLE_ASSISTANT;
		log_info(LOG_CONTROL, "client %s connected as %s", cl->user,
			 control_role_name(cl->role));
	}
}

/* ------------------------------------------------------------------ the socket */

/* A socket at path that still answers belongs to another daemon: never taken from it. */
static bool in_use(const struct sockaddr_un *addr)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool used;

	if (fd < 0)
		return false;
	used = connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) == 0;
	close(fd);
	return used;
}

static int listen_at(struct ctlsock *c, const char *path, const char *group)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	char dir[sizeof(addr.sun_path)];
	char *slash;
	struct group gr, *gres = NULL;
	char buf[1024];
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		log_error(LOG_CONTROL, "%s: path too long for a socket", path);
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (group[0] && (getgrnam_r(group, &gr, buf, sizeof(buf), &gres) || !gres))
		gres = NULL;
	if (slash && slash != dir) {
		bool made;

		*slash = '\0';
		made = access(dir, F_OK) != 0;
		if (state_mkdir(dir))
			log_warn(LOG_CONTROL, "%s: %s", dir, strerror(errno));
		/* A directory made here (0750) lets the group through to the socket. */
		else if (made && gres && chown(dir, (uid_t)-1, gres->gr_gid))
			log_warn(LOG_CONTROL, "%s: group %s: %s", dir, group, strerror(errno));
	}
	if (in_use(&addr)) {
		log_error(LOG_CONTROL, "%s: another daemon listens there; no control socket", path);
		return -1;
	}
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	/* The file bind() makes takes the socket's own mode less the umask (Linux): 0660 from
	 * the first moment, never wider than it ends up, whatever the umask of the daemon run
	 * by hand (the chmod() below then only adds the group's bits a umask took). */
	if (fd >= 0 && fchmod(fd, 0660))
		log_warn(LOG_CONTROL, "%s: %s", path, strerror(errno));
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, 16)) {
		log_error(LOG_CONTROL, "%s: %s; no control socket", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* 0660, group annabella: who may connect is who is in the group. */
	/* A socket made by a daemon of that group has it already: no chown(), which a
	 * hardened unit's system call filter refuses. */
	if (gres) {
		struct stat st;

		if ((stat(path, &st) || st.st_gid != gres->gr_gid) &&
		    chown(path, (uid_t)-1, gres->gr_gid))
			log_warn(LOG_CONTROL, "%s: group %s: %s", path, group, strerror(errno));
	} else if (group[0]) {
		log_warn(LOG_CONTROL, "%s: no group '%s'; the socket keeps the daemon's group",
			 path, group);
	}
	if (chmod(path, 0660))
		log_warn(LOG_CONTROL, "%s: %s", path, strerror(errno));
	c->listen_fd = fd;
	snprintf(c->path, sizeof(c->path), "%s", path);
	return 0;
}

struct ctlsock *ctlsock_open(const struct config *cfg, struct loop *loop)
{
	struct ctlsock *c = calloc(1, sizeof(*c));
	char log_path[PATH_MAX];

	if (!c)
		return NULL;
	c->loop = loop;
	c->listen_fd = -1;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++)
		c->clients[i].fd = -1;
	pin_guard_init(&c->pins);
	c->timeouts = !loop_virtual(loop);
	c->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	c->arbiter_count = cfg->arbiter_count;
	c->braille_layout = cfg->braille_layout;
	snprintf(c->state_dir, sizeof(c->state_dir), "%s", cfg->state_dir);
	memcpy(c->arbiters, cfg->arbiters, sizeof(c->arbiters));
	c->arbiter_pin.hash = cfg->arbiter_pin.hash;
	c->assistant_pin.hash = cfg->assistant_pin.hash;
	snprintf(log_path, sizeof(log_path), "%s/control.log", cfg->state_dir);
	pendlog_open(&c->clog, log_path, LOG_CONTROL, CONTROL_LOG_PENDING_MAX, state_write);
	pendlog_set_reserve(&c->clog, (unsigned long long)cfg->reserve_mb << 20);
	loop_add_source(loop, log_deadline, log_retry, c);
	loop_add_source(loop, reads_deadline, reads_due, c);
	if (cfg->control_socket[0] && strcmp(cfg->control_socket, "none") &&
	    listen_at(c, cfg->control_socket, cfg->control_group) == 0) {
		loop_add_fd(loop, c->listen_fd, POLLIN, accept_ready, c);
		loop_add_source(loop, timeout_deadline, timeout_run, c);
		log_info(LOG_CONTROL, "control socket %s", c->path);
	}
	loop_add_source(loop, pin_deadline, pin_run, c);
	return c;
}

void ctlsock_attach(struct ctlsock *c, struct referee *r, struct presenter *p, struct store *s)
{
	c->referee = r;
	c->presenter = p;
	c->store = s;
}

void ctlsock_close(struct ctlsock *c)
{
	if (!c)
		return;
	c->closing = true;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++) {
		if (c->clients[i].fd >= 0)
			flush_client(c, &c->clients[i]);
		drop(c, &c->clients[i], NULL);
	}
	if (c->listen_fd >= 0) {
		loop_remove_fd(c->loop, c->listen_fd);
		close(c->listen_fd);
		unlink(c->path);
	}
	pin_waits(c, c->loop ? loop_now(c->loop) : 0, true);
	reads_flush(c, NULL, c->loop ? loop_now(c->loop) : 0);
	pendlog_flush(&c->clog); /* a last try */
	pendlog_close(&c->clog);
	if (c->spare_fd >= 0)
		close(c->spare_fd);
	free(c);
}
