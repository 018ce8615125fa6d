/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/ctlsock.h"

#include "daemon/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/log.h"
#include "control/protocol.h"
#include "daemon/scoresheet.h"
#include "daemon/state.h"

/* A client's unsent replies and events: more than this and it is dropped. */
#define OUT_MAX (512 * 1024)
/* Bytes read from one client per wake-up: a burst is served a slice at a time. */
#define READ_SLICE 65536
/* Wrong PINs before the connection is closed. */
#define AUTH_TRIES 5

struct client {
	int fd;
	unsigned gen; /* tells a reused slot from the client a reply was for */
	char user[40];
	char author[GAME_AUTHOR_MAX];
	enum game_role role;
	bool watching;
	bool watch_public; /* `watch public`: public events only */
	bool engine;	   /* the training process (DESIGN 10): `engine on` or `engine wait` */
	int auth_failures;
	char in[CONTROL_LINE_MAX + 2];
	size_t in_len;
	bool discarding; /* the current line is too long: skipped to its end */
	struct strbuf out;
	size_t out_sent;
};

struct ctlsock {
	struct loop *loop;
	struct referee *referee;
	struct presenter *presenter;
	struct store *store;
	int listen_fd;
	char path[108];
	int log_fd;
	int arbiter_count;
	char arbiters[CONFIG_MAX_ARBITERS][32];
	char arbiter_pin[32], assistant_pin[32];
	struct client clients[CTLSOCK_MAX_CLIENTS];
	unsigned next_gen;
	int watchers;
	bool script_engine; /* a board script's `control` lines said `engine on` */
	bool closing;	    /* ctlsock_close(): the game is no longer told of clients */
	struct braille_layout braille_layout; /* export brf's pages ([braille]) */
	char state_dir[256];		      /* export of a game kept under games/ */
	char words[512];		      /* the last move's words, for a status reply */
};

/* ------------------------------------------------------------------ the audit */

/* control.log: MS AUTHOR ROLE COMMAND => ok|error TEXT */
static void audit(struct ctlsock *c, uint64_t now, const char *author, enum game_role role,
		  const char *line, bool ok, const char *text)
{
	char buf[1024];
	int n;

	if (c->log_fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%llu %s %s %s => %s%s%s\n", (unsigned long long)now, author,
		     control_role_name(role), line, ok ? "ok" : "error", text && *text ? " " : "",
		     text ? text : "");
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf)) {
		n = sizeof(buf) - 1;
		buf[n - 1] = '\n';
	}
	if (write(c->log_fd, buf, (size_t)n) != n)
		log_warn(LOG_CONTROL, "control.log: %s", strerror(errno));
}

/* The request as the log shows it: printable, one line, cut at 200 bytes. */
static void loggable(const char *line, size_t len, char *out, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 4 < size && i < 200; i++) {
		unsigned char ch = (unsigned char)line[i];

		out[n++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	if (len > 200 && n + 4 < size) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
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
		x->record.saving_fails = x->record.saving_error != NULL;
	}
}

/* A finished game's scoresheet as games/ID.pgn keeps it, in a format; NULL with *why. */
static char *render_kept(struct ctlsock *c, enum control_export f, const char *id, const char **why)
{
	char path[PATH_MAX + 64];
	struct pgn_reader *rd = NULL;
	struct pgn_game g;
	struct chess_error err;
	char *text = NULL, *file = NULL;
	size_t len = 0;
	FILE *in;

	snprintf(path, sizeof(path), "%s/games/%s.pgn", c->state_dir, id);
	in = fopen(path, "rb");
	if (!in) {
		*why = "no such game under games/";
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
		*why = "cannot read that game's scoresheet";
	return text;
}

/* The scoresheet in a format, for `export`: the current game's, or a finished one's. */
static char *render(void *shell, enum control_export f, const char *game_id, const char **why)
{
	struct ctlsock *c = shell;
	const struct pgn_game *pgn = c->store ? store_pgn(c->store) : NULL;
	const struct game *g = c->referee ? referee_game(c->referee) : NULL;
	char *text;

	if (game_id && game_id[0] && !(g && g->open && !strcmp(game_id, g->params.id)))
		return render_kept(c, f, game_id, why);
	text = pgn ? scoresheet_render(pgn, control_export_name(f), &c->braille_layout) : NULL;
	if (!text)
		*why = pgn ? "cannot render the scoresheet" : "no game yet";
	return text;
}

/* One event line for the watchers its audience reaches. */
static void send_event(struct ctlsock *c, const char *json, enum game_audience audience)
{
	size_t len = strlen(json);

	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++) {
		struct client *cl = &c->clients[i];
		enum game_audience level = cl->watch_public	      ? GAME_AUDIENCE_PUBLIC
					   : cl->role == ROLE_ARBITER ? GAME_AUDIENCE_ARBITER
								      : GAME_AUDIENCE_PLAYER;

		if (cl->fd >= 0 && cl->watching && game_audience_reaches(audience, level))
			send_line(c, cl, json, len);
	}
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
	    .arbiter_pin = c->arbiter_pin,
	    .assistant_pin = c->assistant_pin,
	    .shell = c,
	    .status_extra = status_extra,
	    .render = render,
	};
	struct control_outcome out;
	char shown[256];

	env.watching = cl && cl->watching;
	env.engine_self = cl ? cl->engine : c->script_engine;
	env.engine_elsewhere = cl && c->script_engine;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++)
		if (c->clients[i].fd >= 0 && c->clients[i].engine && &c->clients[i] != cl)
			env.engine_elsewhere = true;
	control_dispatch(&env, line, len, &out);
	if (out.command && (out.command->flags & CONTROL_SECRET))
		/* The PIN itself stays out of the log. */
		snprintf(shown, sizeof(shown), "%s ****", out.command->name);
	else
		loggable(line, len, shown, sizeof(shown));
	audit(c, now, author, role, shown, out.ok, out.said);
	/* The connection's new state first: sending the reply may drop it. */
	if (cl && out.action == CONTROL_ACT_WATCH) {
		if (!cl->watching)
			c->watchers++;
		cl->watching = true;
		cl->watch_public = out.public_view;
	} else if (cl && out.action == CONTROL_ACT_ROLE) {
		cl->role = out.role;
		snprintf(cl->author, sizeof(cl->author), "%s+pin", cl->user);
	}
	if (out.action == CONTROL_ACT_ENGINE || out.action == CONTROL_ACT_ENGINE_OFF) {
		if (cl)
			cl->engine = out.action == CONTROL_ACT_ENGINE;
		else
			c->script_engine = out.action == CONTROL_ACT_ENGINE;
	}
	answer(c, cl, &out.reply);
	control_outcome_free(&out);
	/* The scoresheet's files after the reply has gone. */
	referee_flush(c->referee, now);
	if (out.action == CONTROL_ACT_PIN_REFUSED) {
		struct strbuf ev = {0};

		/* The arbiters hear of it; after AUTH_TRIES the connection is closed. */
		control_event_pin_refused(&ev, now, author);
		if (ev.p && c->watchers)
			send_event(c, ev.p, CONTROL_PIN_REFUSED_AUDIENCE);
		free(ev.p);
		if (cl && ++cl->auth_failures >= AUTH_TRIES && cl->fd >= 0) {
			log_warn(LOG_CONTROL, "client %s closed after %d wrong PINs", cl->user,
				 AUTH_TRIES);
			flush_client(c, cl);
			drop(c, cl, NULL);
		}
	}
}

void ctlsock_script(struct ctlsock *c, const char *role, const char *command, uint64_t now)
{
	request(c, NULL, "script", !strcmp(role, "arbiter") ? ROLE_ARBITER : ROLE_ASSISTANT,
		command, strlen(command), now);
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

			if (cl->discarding)
				cl->discarding = false;
			else
				request(c, cl, cl->author, cl->role, cl->in, len, now);
			memmove(cl->in, nl + 1, cl->in_len - len - 1);
			cl->in_len -= len + 1;
		}
		if (cl->fd >= 0 && cl->in_len == sizeof(cl->in)) {
			/* Over the limit without a newline: refused, the rest of it skipped. */
			if (!cl->discarding) {
				char err[80];
				struct strbuf out = {0};

				snprintf(err, sizeof(err), "request longer than %d bytes",
					 CONTROL_LINE_MAX);
				control_reply_error(&out, err);
				audit(c, now, cl->author, cl->role, "(too long)", false, err);
				answer(c, cl, &out);
				free(out.p);
			}
			cl->discarding = true;
			cl->in_len = 0;
		}
	}
}

static void peer_user(int fd, char *user, size_t size)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct passwd pw, *res = NULL;
	char buf[1024];

	snprintf(user, size, "unknown");
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return;
	if (getpwuid_r(cred.uid, &pw, buf, sizeof(buf), &res) == 0 && res)
		snprintf(user, size, "%s", pw.pw_name);
	else
		snprintf(user, size, "uid%u", (unsigned)cred.uid);
}

static void accept_ready(void *user, int fd, short revents, uint64_t now)
{
	struct ctlsock *c = user;

	(void)revents;
	(void)now;
	for (int round = 0; round < CTLSOCK_MAX_CLIENTS; round++) {
		int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct client *cl = NULL;

		if (cfd < 0)
			return;
		for (int i = 0; i < CTLSOCK_MAX_CLIENTS && !cl; i++)
			if (c->clients[i].fd < 0)
				cl = &c->clients[i];
		if (!cl || loop_add_fd(c->loop, cfd, POLLIN, client_ready, c)) {
			static const char busy[] =
			    "{\"ok\":false,\"error\":\"too many clients\"}\n";

			if (send(cfd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
				log_debug(LOG_CONTROL, "refusing a client: %s", strerror(errno));
			close(cfd);
			log_warn(LOG_CONTROL, "a client refused: %d clients already",
				 CTLSOCK_MAX_CLIENTS);
			continue;
		}
		memset(cl, 0, sizeof(*cl));
		cl->fd = cfd;
		cl->gen = ++c->next_gen;
		peer_user(cfd, cl->user, sizeof(cl->user));
		snprintf(cl->author, sizeof(cl->author), "%s", cl->user);
		cl->role = is_arbiter(c, cl->user) ? ROLE_ARBITER : ROLE_ASSISTANT;
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
	c->arbiter_count = cfg->arbiter_count;
	c->braille_layout = cfg->braille_layout;
	snprintf(c->state_dir, sizeof(c->state_dir), "%s", cfg->state_dir);
	memcpy(c->arbiters, cfg->arbiters, sizeof(c->arbiters));
	snprintf(c->arbiter_pin, sizeof(c->arbiter_pin), "%s", cfg->arbiter_pin);
	snprintf(c->assistant_pin, sizeof(c->assistant_pin), "%s", cfg->assistant_pin);
	snprintf(log_path, sizeof(log_path), "%s/control.log", cfg->state_dir);
	c->log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
	if (c->log_fd < 0)
		log_error(LOG_CONTROL, "%s: %s", log_path, strerror(errno));
	if (cfg->control_socket[0] && strcmp(cfg->control_socket, "none") &&
	    listen_at(c, cfg->control_socket, cfg->control_group) == 0) {
		loop_add_fd(loop, c->listen_fd, POLLIN, accept_ready, c);
		log_info(LOG_CONTROL, "control socket %s", c->path);
	}
	return c;
}

void ctlsock_attach(struct ctlsock *c, struct referee *r, struct presenter *p, struct store *s)
{
	c->referee = r;
	c->presenter = p;
	c->store = s;
}

bool ctlsock_listening(const struct ctlsock *c)
{
	return c && c->listen_fd >= 0;
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
	if (c->log_fd >= 0)
		close(c->log_fd);
	free(c);
}
