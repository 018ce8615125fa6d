/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella relay --mqtt HOST:PORT --listen ADDR:PORT [--config FILE]
 *                 [--boards NAME,NAME... | --round ROUND.csv]
 *                 [--user U --password-file F] [--tls-ca FILE]
 * annabella relay tags ROUND.csv --mqtt HOST:PORT [--config FILE] [auth, TLS]
 *
 * docs/broadcast.md "Live broadcast and the room relay": the room.  The relay subscribes to every
 * board's retained pgn and status and serves, read-only, GET /round.pgn (every board's game in
 * board order, in the shape a tournament broadcast polls), GET /api/boards (JSON) and a page
 * (web/relay.*). Anything but GET and HEAD gets 405: nothing here reaches a game.
 *
 * With --boards (or the round's tags CSV, --round) only the boards named there are the
 * room: anything else published under annabella/ is ignored and logged once per name, so
 * a stray or hostile publisher on the broker never puts a game into round.pgn.  Without
 * either, every board that publishes is shown (and the log says so at start).
 *
 * `relay tags` sends a round's tags (room.h's CSV) to every board through the broker,
 * retained on annabella/NAME/tags; a board's broadcast applies them only when the club
 * let it (--accept-tags).  The boards' control sockets are local to each Pi, so the broker
 * is the one way the relay has to them.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "base/timeutil.h"
#include "base/trace.h"
#include "config/config.h"
#include "net/httpd.h"
#include "net/mqttlink.h"
#include "net/room.h"
#include "net/net.h"
#include "net/relay.h"

/* Set by the signal handler, which may run in one of the HTTP threads: an atomic. */
static atomic_int stopping;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stopping, 1);
}

bool relay_stopping(void)
{
	return atomic_load(&stopping);
}

int64_t relay_wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------ the boards */

static struct board *board_find(struct relay *r, const char *name, bool add)
{
	struct board *b;

	for (int i = 0; i < r->count; i++)
		if (!strcmp(r->boards[i].name, name))
			return &r->boards[i];
	if (!add)
		return NULL;
	if (r->count == ROOM_BOARDS_MAX) {
		if (!r->said_full)
			log_warn(LOG_MAIN, "more than %d boards: '%s' and later ones left out",
				 ROOM_BOARDS_MAX, name);
		r->said_full = true;
		return NULL;
	}
	b = &r->boards[r->count++];
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	return b;
}

/* "annabella/NAME/KIND": 0 with name and kind, or -1. */
static int split_topic(const char *topic, char *name, const char **kind)
{
	const char *p = topic + strlen("annabella/"), *slash;

	if (strncmp(topic, "annabella/", strlen("annabella/")))
		return -1;
	slash = strchr(p, '/');
	if (!slash || (size_t)(slash - p) >= ROOM_NAME_MAX)
		return -1;
	memcpy(name, p, (size_t)(slash - p));
	name[slash - p] = '\0';
	*kind = slash + 1;
	return room_board_name_ok(name) ? 0 : -1;
}

/* Whether a board is in the round; another is logged the first time it publishes. */
static bool in_round(struct relay *r, const char *name, const char *topic)
{
	if (!r->round_count)
		return true;
	for (int i = 0; i < r->round_count; i++)
		if (!strcmp(r->round_boards[i], name))
			return true;
	for (int i = 0; i < r->ignored_count; i++)
		if (!strcmp(r->ignored[i], name))
			return false;
	if (r->ignored_count < IGNORED_SAID_MAX) {
		snprintf(r->ignored[r->ignored_count++], ROOM_NAME_MAX, "%s", name);
		log_warn(LOG_MAIN,
			 "'%s' is not a board of the round: %s ignored (and whatever it "
			 "publishes later)",
			 name, topic);
	} else if (!r->ignored_more) {
		r->ignored_more = true;
		log_warn(LOG_MAIN,
			 "more than %d names that are no board of the round: the others are "
			 "ignored without a word",
			 IGNORED_SAID_MAX);
	}
	return false;
}

static void on_message(void *user, const char *topic, const char *payload, size_t len)
{
	static struct room_game traced; /* the main thread's only */
	struct relay *r = user;
	char name[ROOM_NAME_MAX];
	const char *kind;
	char *text;
	struct board *b;
	struct room_history *h;
	int added;
	bool ours;

	if (split_topic(topic, name, &kind) ||
	    (strcmp(kind, "pgn") && strcmp(kind, "status") && strcmp(kind, "link")))
		return;
	pthread_mutex_lock(&r->lock);
	ours = in_round(r, name, topic);
	pthread_mutex_unlock(&r->lock);
	if (!ours)
		return;
	text = len ? strndup(payload, len) : NULL;
	if (len && !text)
		return;
	pthread_mutex_lock(&r->lock);
	b = board_find(r, name, len > 0);
	if (!b) {
		pthread_mutex_unlock(&r->lock);
		free(text);
		return;
	}
	h = !strcmp(kind, "pgn") ? &b->pgn : !strcmp(kind, "status") ? &b->status : &b->link;
	/* A retained message comes again on every connect: the same text is no change. */
	/* Monotonic: a wall clock set back must never hide what arrived from any view. */
	added = room_history_add(h, (int64_t)monotonic_ms(), r->seq + 1, text, r->delay_ms);
	r->seq += (uint64_t)added;
	pthread_mutex_unlock(&r->lock);
	/* The trace for the benchmark: when the relay held a game of how many plies. */
	if (h == &b->pgn && trace_on() && len) {
		char *copy = strndup(payload, len);

		if (copy && room_game_parse(copy, &traced) == 0)
			trace_at(0, "relay-pgn", "%s %d %d", name, traced.plies, traced.clocks);
		free(copy);
	}
}

static void broker_state(struct relay *r, bool up)
{
	pthread_mutex_lock(&r->lock);
	if (r->broker_up != up) {
		r->broker_up = up;
		r->broker_since_ms = relay_wall_ms();
	}
	pthread_mutex_unlock(&r->lock);
}

/* ------------------------------------------------------------------ options */

void cli_relay_usage(FILE *f)
{
	fprintf(f, "usage: annabella relay --mqtt HOST:PORT --listen ADDR:PORT [--config FILE]\n"
		   "           [--delay MINUTES] [--arbiter-listen ADDR:PORT]\n"
		   "           [--boards NAME,NAME... | --round ROUND.csv]\n"
		   "           [--user U --password-file F] [--tls-ca FILE]\n"
		   "       annabella relay tags ROUND.csv --mqtt HOST:PORT [--config FILE]\n"
		   "           [--user U --password-file F] [--tls-ca FILE]\n");
}

/* The command line into o; 0, or 2 after the usage (relay tags takes fewer options). */
static int relay_getopt(int argc, char **argv, bool tags, struct relay_options *o)
{
	static const struct option longopts[] = {
	    {"mqtt", required_argument, NULL, 'm'},
	    {"listen", required_argument, NULL, 'l'},
	    {"config", required_argument, NULL, 'c'},
	    {"user", required_argument, NULL, 'u'},
	    {"password-file", required_argument, NULL, 'p'},
	    {"tls-ca", required_argument, NULL, 't'},
	    {"delay", required_argument, NULL, 'd'},
	    {"arbiter-listen", required_argument, NULL, 'a'},
	    {"boards", required_argument, NULL, 'b'},
	    {"round", required_argument, NULL, 'r'},
	    {NULL, 0, NULL, 0},
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc + 1, argv - 1, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			o->mqtt = optarg;
			break;
		case 'l':
			o->listen = optarg;
			break;
		case 'c':
			o->config = optarg;
			break;
		case 'u':
			o->user = optarg;
			break;
		case 'p':
			o->password_file = optarg;
			break;
		case 't':
			o->tls_ca = optarg;
			break;
		case 'd':
			o->delay = optarg;
			break;
		case 'a':
			o->arbiter_listen = optarg;
			break;
		case 'b':
			o->boards = optarg;
			break;
		case 'r':
			o->round = optarg;
			break;
		default:
			cli_relay_usage(stderr);
			return 2;
		}
	}
	if (optind < argc + 1 ||
	    (tags && (o->listen || o->delay || o->arbiter_listen || o->boards || o->round))) {
		cli_relay_usage(stderr);
		return 2;
	}
	return 0;
}

int relay_parse_options(int argc, char **argv, bool tags, struct relay_options *o,
			struct mqtt_options *mo, struct config *cfg)
{
	char err[400];

	if (relay_getopt(argc, argv, tags, o))
		return 2;
	config_defaults(cfg);
	if (o->config && config_load(cfg, o->config, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (!o->listen && cfg->relay_listen[0])
		o->listen = cfg->relay_listen;
	if (!o->boards && !o->round) {
		o->boards = cfg->relay_boards[0] ? cfg->relay_boards : NULL;
		o->round = cfg->relay_round[0] ? cfg->relay_round : NULL;
	}
	if (!tags && !o->listen) {
		log_error(LOG_MAIN, "no address: give --listen ADDR:PORT (or listen = in [relay])");
		return 2;
	}
	if (!o->arbiter_listen && cfg->relay_arbiter_listen[0])
		o->arbiter_listen = cfg->relay_arbiter_listen;
	o->delay_s = cfg->relay_delay_s;
	if (o->delay && (o->delay_s = config_minutes(o->delay)) < 0) {
		log_error(LOG_MAIN,
			  "--delay '%s': give minutes from 0 to 1440 (a fraction allowed: 0.5)",
			  o->delay);
		return 2;
	}
	if (mqtt_options_from(mo, &cfg->relay_mqtt, o->mqtt, o->user, o->password_file, o->tls_ca,
			      err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	return 0;
}

/* ------------------------------------------------------------------ the relay */

/* The broker's link, subscribed to every board's pgn, status and link (NULL after the error). */
static struct mqttlink *relay_broker(const struct mqtt_options *mo, struct relay *r)
{
	struct mqttlink_callbacks cb = {.message = on_message};
	struct mqttlink *l;
	char err[400];

	l = mqttlink_new(mo, NULL, &cb, r, err, sizeof(err));
	if (!l) {
		log_error(LOG_MAIN, "%s", err);
		return NULL;
	}
	mqttlink_subscribe(l, "annabella/+/pgn");
	mqttlink_subscribe(l, "annabella/+/status");
	mqttlink_subscribe(l, "annabella/+/link");
	return l;
}

/* The public site, and the arbiter's when asked for; 0, or 2 after the error. */
static int relay_listen(const struct relay_options *o, struct site *public_site,
			struct site *arbiter_site, struct httpd **h, struct httpd **ha)
{
	char err[400];

	*h = httpd_start(&(struct httpd_options){.listen = o->listen}, relay_handle, public_site,
			 err, sizeof(err));
	if (!*h) {
		log_error(LOG_MAIN, "--listen %s: %s", o->listen, err);
		return 2;
	}
	if (o->arbiter_listen) {
		*ha = httpd_start(&(struct httpd_options){.listen = o->arbiter_listen},
				  relay_handle, arbiter_site, err, sizeof(err));
		if (!*ha) {
			log_error(LOG_MAIN, "--arbiter-listen %s: %s", o->arbiter_listen, err);
			return 2;
		}
	}
	return 0;
}

/* What the log says at start: where, how late, and which boards. */
static void relay_say_start(const struct relay *r, const struct relay_options *o,
			    const struct mqtt_options *mo, struct httpd *h, struct httpd *ha)
{
	log_info(LOG_MAIN, "listening on http://%s/ for the boards of %s:%d%s", httpd_address(h),
		 mo->host, mo->port, mo->tls_ca[0] ? " (TLS)" : "");
	if (r->delay_ms)
		log_info(LOG_MAIN, "the public view is %d min %d s behind the boards",
			 o->delay_s / 60, o->delay_s % 60);
	if (ha)
		log_info(LOG_MAIN, "the arbiter's view, undelayed, on http://%s/",
			 httpd_address(ha));
	if (r->round_count)
		log_info(LOG_MAIN, "the round: %d boards; other publishers are ignored",
			 r->round_count);
	else
		log_warn(LOG_MAIN,
			 "no --boards or --round: every board that publishes on the broker is "
			 "shown");
}

/* Until a signal: 0, or 1 when poll() fails. */
static int relay_run(struct relay *r, struct mqttlink *l)
{
	while (!stopping) {
		struct pollfd pfd;

		mqttlink_pollfd(l, &pfd);
		if (poll(&pfd, 1, mqttlink_timeout(l)) < 0 && errno != EINTR) {
			log_error(LOG_MAIN, "poll: %s", strerror(errno));
			return 1;
		}
		mqttlink_run(l, pfd.revents);
		broker_state(r, mqttlink_up(l));
	}
	return 0;
}

static void relay_free(struct relay *r)
{
	for (int i = 0; i < r->count; i++) {
		room_history_free(&r->boards[i].pgn);
		room_history_free(&r->boards[i].status);
		room_history_free(&r->boards[i].link);
	}
	for (int i = 0; i < 2; i++) {
		free(r->round[i].body);
		free(r->round[i].gz);
		free(r->boards_json[i].body);
		free(r->boards_json[i].gz);
	}
	free(r->boards);
	free(r->round_boards);
}

int cli_relay(int argc, char **argv)
{
	struct relay_options o = {0};
	struct mqtt_options mo;
	struct config *cfg;
	struct relay r = {.lock = PTHREAD_MUTEX_INITIALIZER};
	struct site public_site = {.r = &r}, arbiter_site = {.r = &r, .arbiter = true};
	struct mqttlink *l = NULL;
	struct httpd *h = NULL, *ha = NULL;
	struct sigaction sa = {.sa_handler = on_signal};
	int rc;

	if (argc >= 1 && !strcmp(argv[0], "tags"))
		return relay_tags(argc - 1, argv + 1);
	cfg = calloc(1, sizeof(*cfg));
	r.boards = calloc(ROOM_BOARDS_MAX, sizeof(*r.boards));
	if (!cfg || !r.boards) {
		free(cfg);
		free(r.boards);
		return 1;
	}
	rc = relay_parse_options(argc, argv, false, &o, &mo, cfg);
	if (!rc && relay_round_boards(&r, &o))
		rc = 2;
	if (rc) {
		free(cfg);
		free(r.boards);
		free(r.round_boards);
		return 2;
	}
	r.delay_ms = (int64_t)o.delay_s * 1000;
	r.started_ms = r.broker_since_ms = relay_wall_ms();
	trace_open_from_env();
	rc = 1;
	l = relay_broker(&mo, &r);
	if (!l)
		goto out;
	rc = relay_listen(&o, &public_site, &arbiter_site, &h, &ha);
	if (rc)
		goto out;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	relay_say_start(&r, &o, &mo, h, ha);
	rc = relay_run(&r, l);
out:
	httpd_stop(ha);
	httpd_stop(h);
	if (l)
		mqttlink_disconnect(l, 500);
	mqttlink_free(l);
	relay_free(&r);
	free(cfg);
	trace_close();
	return rc;
}
