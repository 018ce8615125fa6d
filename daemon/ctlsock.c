/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/ctlsock_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/log.h"
#include "control/protocol.h"

/* A client's unsent replies and events: more than this and it is dropped. */
#define OUT_MAX (512 * 1024)
/* Bytes read from one client per wake-up: a burst is served a slice at a time. */
#define READ_SLICE 65536
/* Wrong PINs before the connection is closed. */
#define AUTH_TRIES 5

/* ------------------------------------------------------------------ clients */

static void update_events(struct ctlsock *c, struct client *cl)
{
	short ev = POLLIN;

	if (cl->out.len > cl->out_sent)
		ev |= POLLOUT;
	loop_set_fd_events(c->loop, cl->fd, ev);
}

void ctl_drop(struct ctlsock *c, struct client *cl, const char *why)
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
			ctl_drop(c, cl, strerror(errno));
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
		ctl_drop(c, cl, "it does not read what it is sent");
		return;
	}
	strbuf_append(&cl->out, line, len);
	strbuf_append(&cl->out, "\n", 1);
	if (cl->out.failed) {
		ctl_drop(c, cl, "out of memory");
		return;
	}
	flush_client(c, cl);
}

/* ------------------------------------------------------------------ requests */

static void answer(struct ctlsock *c, struct client *cl, const struct strbuf *reply)
{
	if (cl && reply->p)
		send_line(c, cl, reply->p, reply->len);
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
			ctl_audit(c, now, w.key, ROLE_ASSISTANT, "auth ****", false, text);
		else
			ctl_audit(c, now, "board", ROLE_PLAYER, "auth ****", false, text);
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
		ctl_drop(c, cl, NULL);
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
	ctl_audit(c, now, author, role, line, ok, text);
	if (!ok && !strcmp(line, "auth ****"))
		pin_refused(c, NULL, author, false, now);
}

struct pin_guard *ctlsock_pins(struct ctlsock *c)
{
	return c ? &c->pins : NULL;
}

/* A request's environment: the shell's parts (ctlsock_attach()), who gives it, and where the
 * training and the online process are. */
static void request_env(struct ctlsock *c, struct client *cl, const char *author,
			enum game_role role, uint64_t now, struct control_env *env)
{
	*env = c->shell;
	env->referee = c->referee;
	env->now = now;
	env->role = role;
	env->author = author;
	env->connection = cl != NULL;
	env->arbiter_pin = &c->arbiter_pin;
	env->assistant_pin = &c->assistant_pin;
	env->watching = cl && cl->watching;
	if (cl && cl->notation[0])
		env->notation = cl->notation;
	env->engine_self = cl ? cl->engine : c->script_engine;
	env->engine_elsewhere = cl && c->script_engine;
	env->online_self = cl ? cl->online : c->script_online;
	env->online_elsewhere = cl && c->script_online;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++)
		if (c->clients[i].fd >= 0 && &c->clients[i] != cl) {
			env->engine_elsewhere |= c->clients[i].engine;
			env->online_elsewhere |= c->clients[i].online;
		}
}

/* What a request's outcome makes of its connection (cl; NULL: a board script): watching, a
 * role and author after a right PIN, its notation, the training or the online process. */
static void take_action(struct ctlsock *c, struct client *cl, const struct control_outcome *out)
{
	if (cl && out->action == CONTROL_ACT_WATCH) {
		if (!cl->watching)
			c->watchers++;
		cl->watching = true;
		cl->watch_public = out->public_view;
	} else if (cl && out->action == CONTROL_ACT_ROLE) {
		cl->role = out->role;
		/* `auth PIN NAME`: the person at a shared connection (a phone at the web page)
		 * is told apart from the others with the same PIN. */
		if (snprintf(cl->author, sizeof(cl->author), "%s+pin%s%s", cl->user,
			     out->name[0] ? ":" : "", out->name) >= (int)sizeof(cl->author))
			log_warn(LOG_CONTROL, "author %s cut short", cl->author);
	}
	if (cl && out->action == CONTROL_ACT_NOTATION)
		snprintf(cl->notation, sizeof(cl->notation), "%s", out->lang);
	if (out->action == CONTROL_ACT_ENGINE || out->action == CONTROL_ACT_ENGINE_OFF) {
		if (cl)
			cl->engine = out->action == CONTROL_ACT_ENGINE;
		else
			c->script_engine = out->action == CONTROL_ACT_ENGINE;
	}
	if (out->action == CONTROL_ACT_ONLINE || out->action == CONTROL_ACT_ONLINE_OFF) {
		if (cl)
			cl->online = out->action == CONTROL_ACT_ONLINE;
		else
			c->script_online = out->action == CONTROL_ACT_ONLINE;
	}
}

/* Give one request line, from a client (cl) or a board script (cl NULL): through the
 * command table, its reply back to the client, a line in control.log. */
static void request(struct ctlsock *c, struct client *cl, const char *author, enum game_role role,
		    const char *line, size_t len, uint64_t now)
{
	struct control_env env;
	const struct control_command *auth = control_command_find("auth");
	struct control_outcome out;
	char shown[LOGGABLE_MAX], head[80];
	bool counted = cl && !cl->arbiter_user;

	request_env(c, cl, author, role, now, &env);
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
		ctl_reads_count(c, author, role, out.command, out.ok, now);
	} else {
		ctl_reads_flush(c, author, now);
		ctl_shown_request(&out, line, len, shown, sizeof(shown));
		ctl_audit(c, now, author, role, shown, out.ok, out.said);
	}
	/* The connection's new state first: sending the reply may drop it. */
	take_action(c, cl, &out);
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

void ctl_client_ready(void *user, int fd, short revents, uint64_t now)
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
			ctl_drop(c, cl, NULL); /* closed: a line half sent is not a request */
			return;
		}
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
				ctl_drop(c, cl, strerror(errno));
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
				ctl_audit(c, now, cl->author, cl->role, "(too long)", false,
					  err.text);
				answer(c, cl, &out);
				free(out.p);
			}
			cl->discarding = true;
			cl->in_len = 0;
		}
	}
}

struct ctlsock *ctlsock_open(const struct config *cfg, struct loop *loop)
{
	struct ctlsock *c = calloc(1, sizeof(*c));
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
	memcpy(c->arbiters, cfg->arbiters, sizeof(c->arbiters));
	c->arbiter_pin.hash = cfg->arbiter_pin.hash;
	c->assistant_pin.hash = cfg->assistant_pin.hash;
	ctl_log_open(c, cfg);
	ctl_listen(c, cfg);
	loop_add_source(loop, pin_deadline, pin_run, c);
	return c;
}

void ctlsock_attach(struct ctlsock *c, struct referee *r, const struct control_env *shell)
{
	c->referee = r;
	c->shell = *shell;
}

void ctlsock_close(struct ctlsock *c)
{
	if (!c)
		return;
	c->closing = true;
	for (int i = 0; i < CTLSOCK_MAX_CLIENTS; i++) {
		if (c->clients[i].fd >= 0)
			flush_client(c, &c->clients[i]);
		ctl_drop(c, &c->clients[i], NULL);
	}
	if (c->listen_fd >= 0) {
		loop_remove_fd(c->loop, c->listen_fd);
		close(c->listen_fd);
		unlink(c->path);
	}
	pin_waits(c, c->loop ? loop_now(c->loop) : 0, true);
	ctl_reads_flush(c, NULL, c->loop ? loop_now(c->loop) : 0);
	pendlog_flush(&c->clog); /* a last try */
	pendlog_close(&c->clog);
	if (c->spare_fd >= 0)
		close(c->spare_fd);
	free(c);
}
