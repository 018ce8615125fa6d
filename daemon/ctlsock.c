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
	/* The request being handled: the referee's reply goes to it. */
	uint32_t next_id, current_id;
	struct client *current;
	unsigned current_gen;
	bool replied;
	char current_line[256];
	char current_author[GAME_AUTHOR_MAX];
	enum game_role current_role;
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

static void status_reply(struct ctlsock *c, struct strbuf *out, enum game_role role, uint64_t now)
{
	const struct game *g = referee_game(c->referee);
	struct control_status_extra x = {.now = now, .role = role};
	char words[512] = "";
	int last = game_plies(g) - 1;

	if (last >= 0) {
		struct chess_pos before;

		game_position_before(g, last, &before);
		presenter_move_words(c->presenter, &before, g->plies[last].move, words,
				     sizeof(words));
		x.last_move_words = words;
	}
	x.board_differences = referee_board_differences(c->referee);
	x.lang = presenter_lang(c->presenter);
	if (c->store) {
		const struct journal_stats *st = store_recovery(c->store);

		x.record.skipped = store_recovery_skipped(c->store);
		x.record.bad = st->bad;
		x.record.duplicates = st->duplicates;
		x.record.refused = st->refused;
		x.record.first_skipped_line = st->first_skipped;
		x.record.moves_from_scoresheet = store_moves_filled(c->store);
		x.record.scoresheet_kept_plies =
		    store_scoresheet_kept(c->store, &x.record.scoresheet_kept);
		if (!x.record.scoresheet_kept_plies)
			x.record.scoresheet_kept = NULL;
		x.record.saving_error = store_saving_error(c->store);
		x.record.saving_fails = x.record.saving_error != NULL;
	}
	control_reply_status(out, g, &x);
}

static void export_reply(struct ctlsock *c, struct strbuf *out, enum control_export f)
{
	const struct pgn_game *pgn = store_pgn(c->store);
	char *text = pgn ? scoresheet_render(pgn, control_export_name(f)) : NULL;

	if (!text) {
		control_reply_error(out, pgn ? "cannot render the scoresheet" : "no game yet");
		return;
	}
	control_reply_export(out, control_export_name(f), text);
	free(text);
}

/* A wrong PIN is refused and logged; after AUTH_TRIES the connection is closed. */
static void auth(struct ctlsock *c, struct client *cl, const char *pin, struct strbuf *out)
{
	enum game_role role;

	if (c->arbiter_pin[0] && !strcmp(pin, c->arbiter_pin))
		role = ROLE_ARBITER;
	else if (c->assistant_pin[0] && !strcmp(pin, c->assistant_pin))
		role = ROLE_ASSISTANT;
	else {
		control_reply_error(out, "wrong PIN");
		if (cl && ++cl->auth_failures >= AUTH_TRIES)
			cl->auth_failures = -1; /* closed once the reply is sent */
		return;
	}
	if (cl) {
		cl->role = role;
		snprintf(cl->author, sizeof(cl->author), "%s+pin", cl->user);
	}
	control_reply_ok(out, control_role_name(role));
}

/* Give one request line, from a client (cl) or a board script (cl NULL). */
static void request(struct ctlsock *c, struct client *cl, const char *author, enum game_role role,
		    const char *line, size_t len, uint64_t now)
{
	struct control_request req;
	struct strbuf out = {0};
	char err[256], shown[256], said[256] = "";
	bool ok;

	loggable(line, len, shown, sizeof(shown));
	if (control_parse(line, len, &req, err, sizeof(err))) {
		control_reply_error(&out, err);
		audit(c, now, author, role, shown, false, err);
		goto done;
	}
	if (!control_allowed(&req, role)) {
		control_reply_error(&out, "not allowed for this role");
		audit(c, now, author, role, shown, false, "not allowed for this role");
		goto done;
	}
	if (req.changes_game) {
		struct game_event ev = {.kind = GAME_EV_COMMAND, .ms = now, .command = &req.game};

		req.game.role = role;
		snprintf(req.game.author, sizeof(req.game.author), "%s", author);
		if (++c->next_id == 0)
			c->next_id = 1;
		req.game.request = c->current_id = c->next_id;
		c->current = cl;
		c->current_gen = cl ? cl->gen : 0;
		c->replied = false;
		snprintf(c->current_line, sizeof(c->current_line), "%s", shown);
		snprintf(c->current_author, sizeof(c->current_author), "%s", author);
		c->current_role = role;
		referee_handle(c->referee, &ev);
		if (!c->replied)
			ctlsock_reply(c, req.game.request, false, "no reply from the game", now);
		c->current = NULL;
		c->current_id = 0;
		return;
	}
	ok = true;
	switch (req.cmd) {
	case CTL_STATUS:
		status_reply(c, &out, role, now);
		break;
	case CTL_MOVES:
		control_reply_moves(&out, referee_game(c->referee));
		break;
	case CTL_EXPORT:
		export_reply(c, &out, req.export_format);
		break;
	case CTL_HELP:
		control_reply_help(&out);
		break;
	case CTL_COMPARE: {
		struct game_comparison cmp;

		if (game_compare(referee_game(c->referee), req.movetext, &cmp, err, sizeof(err))) {
			ok = false;
			control_reply_error(&out, err);
		} else {
			control_reply_compare(&out, &cmp);
			game_compare_describe(&cmp, said, sizeof(said));
		}
		break;
	}
	case CTL_WATCH:
		if (!cl) {
			ok = false;
			control_reply_error(&out, "watch needs a connection");
		} else {
			if (!cl->watching)
				c->watchers++;
			cl->watching = true;
			control_reply_ok(&out, "watching");
		}
		break;
	case CTL_AUTH:
		auth(c, cl, req.pin, &out);
		ok = strstr(out.p ? out.p : "", "\"ok\":true") != NULL;
		/* The PIN itself stays out of the log. */
		snprintf(shown, sizeof(shown), "auth ****");
		break;
	default:
		ok = false;
		control_reply_error(&out, "not available in this version");
		break;
	}
	if (ok)
		audit(c, now, author, role, shown, true, said);
	else
		audit(c, now, author, role, shown, false, "refused");
done:
	answer(c, cl, &out);
	free(out.p);
	if (cl && cl->auth_failures < 0 && cl->fd >= 0) {
		log_warn(LOG_CONTROL, "client %s closed after %d wrong PINs", cl->user, AUTH_TRIES);
		flush_client(c, cl);
		drop(c, cl, NULL);
	}
}

void ctlsock_reply(struct ctlsock *c, uint32_t id, bool ok, const char *text, uint64_t now)
{
	struct strbuf out = {0};
	struct client *cl;

	if (!c || id != c->current_id || c->replied)
		return;
	cl = c->current;
	c->replied = true;
	if (ok)
		control_reply_ok(&out, text);
	else
		control_reply_error(&out, text);
	audit(c, now, c->current_author, c->current_role, c->current_line, ok, text);
	if (cl && cl->gen == c->current_gen)
		answer(c, cl, &out);
	free(out.p);
}

void ctlsock_audit(struct ctlsock *c, uint64_t now, const char *author, enum game_role role,
		   const char *line, bool ok, const char *text)
{
	if (c)
		audit(c, now, author, role, line, ok, text);
}

void ctlsock_script(struct ctlsock *c, const char *role, const char *command, uint64_t now)
{
	request(c, NULL, "script", !strcmp(role, "arbiter") ? ROLE_ARBITER : ROLE_ASSISTANT,
		command, strlen(command), now);
}

void ctlsock_event(struct ctlsock *c, const char *json)
{
	size_t len = strlen(json);

	if (!c || !c->watchers)
		return;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++)
		if (c->clients[i].fd >= 0 && c->clients[i].watching)
			send_line(c, &c->clients[i], json, len);
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
