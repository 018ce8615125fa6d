/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Who may connect to the control socket (docs/control.md "Control interface"): the socket at
 * its path with its group and mode (never taken from a daemon that still answers there), each
 * connection's Unix user, the places (at most CTLSOCK_MAX_CLIENTS, the last for the arbiters,
 * CTLSOCK_PER_USER for any other user) and the file descriptors the daemon keeps for its own
 * files; a refused client told why, and a client that sends no whole line in time closed.
 */
#include "daemon/ctlsock_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
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
#include "store/state.h"

/* A connection's first whole line, and every line once begun, within this (real time). */
#define LINE_WAIT_MS 10000u
/* File descriptors kept free for the daemon's own files whatever the clients hold: a
 * scoresheet's temporary file and its directory (twice: game.pgn and the copy under
 * games/), the next game's journal and audio record, the start line's log, a display or
 * braille display connecting again. */
#define FD_RESERVE 8

static bool is_arbiter(const struct ctlsock *c, const char *user)
{
	for (int i = 0; i < c->arbiter_count; i++)
		if (!strcmp(c->arbiters[i], user))
			return true;
	return false;
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
			ctl_drop(c, cl,
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
		if (!cl || loop_add_fd(c->loop, cfd, POLLIN, ctl_client_ready, c)) {
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

int ctl_listen(struct ctlsock *c, const struct config *cfg)
{
	if (!cfg->control_socket[0] || !strcmp(cfg->control_socket, "none") ||
	    listen_at(c, cfg->control_socket, cfg->control_group))
		return -1;
	loop_add_fd(c->loop, c->listen_fd, POLLIN, accept_ready, c);
	loop_add_source(c->loop, timeout_deadline, timeout_run, c);
	log_info(LOG_CONTROL, "control socket %s", c->path);
	return 0;
}
