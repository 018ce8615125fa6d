/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabellad: the daemon shell.  main() opens the parts in order (board, voice, state
 * files, the referee, the control socket) and closes them in reverse; the loop (loop.h)
 * runs the sources that each part registers.  The game itself is decided by the referee
 * (game/), a pure core: this file only wires it to the world.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "base/log.h"
#include "base/timeutil.h"
#include "base/trace.h"
#include "chess/chess.h"
#include "daemon/audit.h"
#include "daemon/speechcheck.h"
#include "daemon/clockface.h"
#include "daemon/leds.h"
#include "daemon/haptic.h"
#include "config/config.h"
#include "daemon/ctlshell.h"
#include "daemon/ctlsock.h"
#include "store/device.h"
#include "store/devkey.h"
#include "store/lock.h"
#include "daemon/display.h"
#include "daemon/driver.h"
#include "daemon/loop.h"
#include "daemon/notify.h"
#include "daemon/fairplay.h"
#include "daemon/power.h"
#include "daemon/present.h"
#include "store/recovery.h"
#include "store/state.h"
#include "daemon/script.h"
#include "daemon/svcstatus.h"
#include "store/store.h"
#include "daemon/takeover.h"
#include "referee/referee.h"
#include "gpio/board.h"
#include "voice/voice.h"

/* docs/commands.md "annabellad": after a script or log ends, the daemon runs five more seconds. */
#define END_GRACE_MS 5000
#define EVENTS_MAX   64

struct options {
	const char *config_path;
	const char *board_spec;
	const char *record_path;
	const char *state_dir;
	const char *control; /* --control PATH|none */
	bool virtual_time;
	int audio; /* enum voice_sink_type, or -1: the default */
};

struct daemon {
	struct config cfg;
	struct options opt;
	struct loop *loop;
	struct board *board;
	enum board_kind board_kind; /* what --board names */
	const char *board_arg;	    /* what follows its "name:", or NULL */
	struct driver *driver;
	struct voice *voice;
	struct store *store;
	struct presenter *presenter;
	struct referee *referee;
	struct ctlsock *ctl;
	struct ctlshell *ctlshell; /* what the control commands read besides the game */
	struct display *display;
	struct clockface *clockface;
	struct leds *leds;
	struct haptic *haptic;
	struct takeover *takeover;	 /* a new version installed while it runs */
	struct power *power;		 /* the Pi's supply and a UPS ([power]) */
	struct fairplay_watch *fairplay; /* the machine's fair-play state ([fairplay]) */
	struct svcstatus status;	 /* the service manager's status line, as last sent */
	int sigfd;
	bool signalled;			     /* stopping on SIGINT or SIGTERM */
	uint64_t watchdog_ms, watchdog_last; /* keep-alive period (0: none), last sent */
	uint64_t end_at;
	bool started; /* the game is open: stopping writes its files */
	/* The voice's reports of announcements said, each given to the referee when its last
	 * sample has been heard (daemon time). */
	struct said_due {
		int report;
		uint64_t at;
	} said[VOICE_SAID_MAX];
	int said_count;
	/* The audit: the start lines written (once a game is open), the logs' anchors. */
	bool start_logged;
	char serial[64];
};

static void usage(FILE *f)
{
	fprintf(f, "usage: annabellad [--config FILE] [--board gpiod|sim:SCRIPT|replay:LOG]\n"
		   "                  [--time real|virtual] [--audio alsa|wav|none] [--state DIR]\n"
		   "                  [--record-lines LOG] [--control PATH|none]\n");
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
	    {"config", required_argument, NULL, 'c'},
	    {"board", required_argument, NULL, 'b'},
	    {"time", required_argument, NULL, 't'},
	    {"audio", required_argument, NULL, 'a'},
	    {"state", required_argument, NULL, 's'},
	    {"record-lines", required_argument, NULL, 'r'},
	    {"control", required_argument, NULL, 'C'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->board_spec = "gpiod";
	o->audio = -1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->config_path = optarg;
			break;
		case 'b':
			o->board_spec = optarg;
			break;
		case 't':
			if (!strcmp(optarg, "virtual"))
				o->virtual_time = true;
			else if (strcmp(optarg, "real")) {
				log_error(LOG_MAIN, "--time must be real or virtual");
				return -1;
			}
			break;
		case 'a':
			if (!strcmp(optarg, "alsa"))
				o->audio = VOICE_SINK_ALSA;
			else if (!strcmp(optarg, "wav"))
				o->audio = VOICE_SINK_WAV;
			else if (!strcmp(optarg, "none"))
				o->audio = VOICE_SINK_NONE;
			else {
				log_error(LOG_MAIN, "--audio must be alsa, wav or none");
				return -1;
			}
			break;
		case 's':
			o->state_dir = optarg;
			break;
		case 'r':
			o->record_path = optarg;
			break;
		case 'C':
			o->control = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("annabellad %s\n", ANNABELLA_VERSION);
			exit(0);
		default:
			log_error(LOG_MAIN, "unknown option or missing value: %s",
				  argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		log_error(LOG_MAIN, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

/* What every new game is: the configuration, and the script's header over it.  A setup
 * FEN that is not a position is an error only if a game is to start from it: a resumed game
 * takes only its pegs (fen_err then holds the message). */
static int game_settings(const struct daemon *d, struct referee_settings *s, char *err,
			 size_t err_size, char *fen_err, size_t fen_err_size)
{
	const struct config *cfg = &d->cfg;
	const struct script_header *h = d->driver ? driver_header(d->driver) : NULL;
	const char *script = d->driver ? d->board_arg : "";
	struct game_params *p = &s->next;
	struct time_control tc;
	struct chess_pos pos;
	struct chess_error ferr;
	char tc_err[200];

	referee_settings_defaults(s);
	p->player = cfg->player;
	p->mode = cfg->mode;
	p->edition = cfg->edition;
	snprintf(p->time_control, sizeof(p->time_control), "%s", cfg->time_control);
	snprintf(p->fen, sizeof(p->fen), "%s", CHESS_FEN_START);
	if (h && h->player >= 0)
		p->player = h->player;
	if (h && h->has_time_control) {
		if (time_control_parse(h->time_control, &tc, tc_err, sizeof(tc_err))) {
			snprintf(err, err_size, "%s:%d: time-control: %s", script,
				 h->time_control_line, tc_err);
			return -1;
		}
		snprintf(p->time_control, sizeof(p->time_control), "%s", h->time_control);
	}
	if (h && h->has_setup) {
		if (chess_fen_parse(&pos, h->setup_fen, &ferr))
			snprintf(fen_err, fen_err_size, "%s:%d: setup FEN, column %d: %s", script,
				 h->setup_line, ferr.column, ferr.message);
		else
			snprintf(p->fen, sizeof(p->fen), "%s", h->setup_fen);
	}
	game_params_set_tag(p, "Event", cfg->event);
	game_params_set_tag(p, "Site", cfg->site);
	game_params_set_tag(p, "Round", cfg->round);
	game_params_set_tag(p, "White", cfg->white);
	game_params_set_tag(p, "Black", cfg->black);
	s->detect = cfg->detect;
	s->promotion_ms = cfg->promotion_ms;
	s->hold_ms = cfg->menu_hold_ms;
	s->menu_ms = cfg->menu_ms;
	/* The arbiter's menu on the buttons needs the display to show it and the PIN. */
	s->board_arbiter = cfg->display.type != FACE_NONE && cfg->arbiter_pin.hash.set;
	s->arbiter_pin = (struct pin_secret){.hash = cfg->arbiter_pin.hash};
	s->braille_display = cfg->braille_display;
	s->train_menu = cfg->train_menu;
	s->review_aloud = cfg->review_aloud;
	s->review_comments_on_request = cfg->review_comments_on_request;
	s->online_menu = cfg->online.menu;
	s->warning_count = cfg->warning_count;
	memcpy(s->warnings_s, cfg->warnings_s, sizeof(s->warnings_s));
	s->flag_announce = cfg->flag_announce;
	return 0;
}

/* ------------------------------------------------------------------ sources */

static void board_events(struct daemon *d, uint64_t now)
{
	struct board_event events[EVENTS_MAX];
	int n = board_service(d->board, now, events, EVENTS_MAX);

	if (n < 0) {
		log_error(LOG_GPIO, "board failed: %s; stopping", board_error(d->board));
		loop_stop(d->loop, 1);
		return;
	}
	for (int i = 0; i < n; i++) {
		/* When the peg moved or the button went down, not when debouncing confirmed it:
		 * clock readings are taken at the press itself. */
		struct game_event ev = {
		    .kind = events[i].type == BOARD_EVENT_SQUARE ? GAME_EV_SQUARE : GAME_EV_BUTTON,
		    .ms = events[i].change_ms,
		    .index = events[i].index,
		    .active = events[i].active,
		};

		if (trace_on() && !loop_virtual(d->loop))
			trace_at(monotonic_ns() - (now - ev.ms) * 1000000u,
				 ev.kind == GAME_EV_SQUARE ? "edge" : "button", "%d %d", ev.index,
				 ev.active);
		referee_handle(d->referee, &ev);
	}
}

static uint64_t board_deadline_fn(void *user, uint64_t now)
{
	struct daemon *d = user;

	(void)now;
	return board_deadline(d->board);
}

static void board_run(void *user, uint64_t now)
{
	board_events(user, now);
}

static void board_fd_ready(void *user, int fd, short revents, uint64_t now)
{
	(void)fd;
	(void)revents;
	board_events(user, now);
}

/* A live script's lines as they arrive (a named pipe). */
static void script_fd_ready(void *user, int fd, short revents, uint64_t now)
{
	struct daemon *d = user;

	(void)revents;
	/* Its end closes it: out of the loop then (nothing opened a file in between). */
	if (driver_read(d->driver, now))
		loop_remove_fd(d->loop, fd);
}

/* The sim's power cut: the board's events confirmed by then are taken first, as they
 * would have been on a real board. */
static void before_crash(void *user, uint64_t now)
{
	board_events(user, now);
}

static void script_control(void *user, const char *role, const char *author, const char *command,
			   uint64_t now)
{
	struct daemon *d = user;

	ctlsock_script(d->ctl, role, author, command, now);
}

/* `disk` in a board script: a storage fault from now on, or the state directory removed. */
static void script_disk(void *user, int what, uint32_t arg, uint64_t now)
{
	struct daemon *d = user;

	(void)now;
	if (what == SCRIPT_DISK_SLOW) {
		state_set_sync_delay(arg);
		return;
	}
	if (what != SCRIPT_DISK_REMOVED) {
		state_set_fault((enum state_fault)what);
		return;
	}
	if (state_remove_tree(d->cfg.state_dir))
		log_error(LOG_MAIN, "disk removed: cannot remove %s: %s", d->cfg.state_dir,
			  strerror(errno));
}

/* ------------------------------------------------------------------ the audit */

/* The logs' digests as written, noted in the journal (its chain covers them). */
static void note_anchors(struct daemon *d, uint64_t ms)
{
	char part[2][200];

	ctlsock_log_reads(d->ctl, ms);
	for (int i = 0; i < 2; i++) {
		char hex[2 * SHA256_SIZE + 1];
		const char *name = i ? "speech.log" : "control.log";
		off_t bytes;

		if (i ? voice_log_digest(d->voice, &bytes, hex)
		      : ctlsock_log_digest(d->ctl, &bytes, hex))
			snprintf(part[i], sizeof(part[i]), "%s=-", name);
		else
			snprintf(part[i], sizeof(part[i]), "%s=%lld:%s", name, (long long)bytes,
				 hex);
	}
	store_note(d->store, ms, "audit %s %s", part[0], part[1]);
}

/* A game begins or resumes, or ends.  At the daemon's first, the start line goes to both
 * logs (docs/state.md "State directory", control.log), before anything of the game is said; every
 * game's journal notes the device, the wall clock and the logs' anchors. */
static void game_hook(void *user, const struct game *g, bool start, uint64_t ms)
{
	struct daemon *d = user;
	char wall[32], line[256];
	bool synced;

	if (!start) {
		note_anchors(d, ms);
		return;
	}
	audit_wallclock(wall, sizeof(wall));
	synced = audit_clock_synced();
	if (!d->start_logged) {
		/* Through the logs' owners: kept with their lines while storage fails. */
		d->start_logged = true;
		audit_start_line(line, sizeof(line), ms, wall, synced, g->params.id, game_plies(g));
		if (d->ctl)
			ctlsock_log_line(d->ctl, line);
		voice_log_line(d->voice, line);
	}
	store_note(d->store, ms, "device serial=%s version=%s clock=%s synced=%s", d->serial,
		   ANNABELLA_VERSION, wall, synced ? "yes" : "no");
	note_anchors(d, ms);
}

static void saving_notice(void *user, enum store_notice n)
{
	static const enum present_notice notices[] = {
	    [STORE_NOTICE_FAILING] = PRESENT_NOTICE_SAVE_FAILED,
	    [STORE_NOTICE_WORKS] = PRESENT_NOTICE_SAVE_WORKS,
	    [STORE_NOTICE_REPLACED] = PRESENT_NOTICE_STORAGE_REPLACED,
	};
	struct daemon *d = user;

	presenter_notice(d->presenter, notices[n], loop_now(d->loop));
}

/* The service manager's watchdog, kept alive by the loop itself. */
static uint64_t watchdog_deadline(void *user, uint64_t now)
{
	struct daemon *d = user;

	(void)now;
	return d->watchdog_ms ? d->watchdog_last + d->watchdog_ms : UINT64_MAX;
}

static void watchdog_run(void *user, uint64_t now)
{
	struct daemon *d = user;

	d->watchdog_last = now;
	notify_send("WATCHDOG=1");
}

/* Saving is tried again while it fails; the writer's results are taken as they come. */
static uint64_t store_deadline_fn(void *user, uint64_t now)
{
	struct daemon *d = user;

	(void)now;
	return store_deadline(d->store);
}

static void store_run(void *user, uint64_t now)
{
	struct daemon *d = user;

	store_tick(d->store, now);
}

static void store_ready(void *user, int fd, short revents, uint64_t now)
{
	struct daemon *d = user;

	(void)fd;
	(void)revents;
	store_service(d->store, now);
}

static uint64_t referee_deadline_fn(void *user, uint64_t now)
{
	struct daemon *d = user;

	return referee_deadline(d->referee, now);
}

static void referee_run(void *user, uint64_t now)
{
	struct daemon *d = user;
	struct game_event ev = {.kind = GAME_EV_TICK, .ms = now};

	referee_handle(d->referee, &ev);
}

/* A script or line log that has ended: five more seconds, then stop. */
static uint64_t end_deadline(void *user, uint64_t now)
{
	struct daemon *d = user;

	if (d->end_at == UINT64_MAX && d->board_kind != BOARD_GPIOD &&
	    (!d->driver || driver_done(d->driver)) && board_finished(d->board))
		d->end_at = now + END_GRACE_MS;
	return d->end_at;
}

static void end_run(void *user, uint64_t now)
{
	struct daemon *d = user;

	(void)now;
	loop_stop(d->loop, 0);
}

/* SIGHUP: the configuration again, and what can change safely during a game taken from it
 * (log level, voices, detection and menu times, clock warnings); the log says what was
 * not. */
static void reload(struct daemon *d)
{
	struct config cfg;
	struct referee_settings set;
	char err[512], fen_err[256] = "";

	if (!d->opt.config_path) {
		log_info(LOG_MAIN, "SIGHUP: no configuration file to read again");
		return;
	}
	config_defaults(&cfg);
	if (config_load(&cfg, d->opt.config_path, err, sizeof(err))) {
		log_error(LOG_MAIN, "SIGHUP: %s; nothing reloaded", err);
		return;
	}
	log_set_level((enum log_level)cfg.log_level);
	if (d->voice)
		voice_set_params(d->voice, cfg.voice.params);
	d->cfg.detect = cfg.detect;
	d->cfg.promotion_ms = cfg.promotion_ms;
	d->cfg.menu_hold_ms = cfg.menu_hold_ms;
	d->cfg.menu_ms = cfg.menu_ms;
	d->cfg.warning_count = cfg.warning_count;
	memcpy(d->cfg.warnings_s, cfg.warnings_s, sizeof(d->cfg.warnings_s));
	d->cfg.flag_announce = cfg.flag_announce;
	memcpy(d->cfg.voice.params, cfg.voice.params, sizeof(d->cfg.voice.params));
	d->cfg.log_level = cfg.log_level;
	if (game_settings(d, &set, err, sizeof(err), fen_err, sizeof(fen_err)) == 0)
		referee_update_settings(d->referee, &set);
	log_info(LOG_MAIN,
		 "SIGHUP: reloaded the log level, the voices' rate, pitch, volume and "
		 "variant, detection and menu times, clock warnings and flag announcement; not "
		 "reloaded (restart "
		 "for them): the board, the state directory, the control socket, the audio "
		 "devices, the language, the voices of the languages (voice-de ...) and the "
		 "game settings");
}

static void signal_ready(void *user, int fd, short revents, uint64_t now)
{
	struct daemon *d = user;
	struct signalfd_siginfo si;
	unsigned signo;

	(void)revents;
	(void)now;
	if (read(fd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return;
	signo = si.ssi_signo;
	if (signo == SIGHUP) {
		reload(d);
		return;
	}
	log_info(LOG_MAIN, "stopping on signal %u", signo);
	d->signalled = true;
	loop_stop(d->loop, 0);
}

/* The service manager's status line, sent when what it says changes (a move, a result, a
 * storage fault ...): asked every round, it compares a few numbers. */
static uint64_t status_deadline(void *user, uint64_t now)
{
	struct daemon *d = user;

	return svcstatus_due(&d->status, referee_game(d->referee), store_saving_error(d->store),
			     takeover_waiting(d->takeover))
		   ? now
		   : UINT64_MAX;
}

/* "STATUS=" and the line; READY=1 before it at the first. */
static void send_status(struct daemon *d, bool ready)
{
	static const char ready_prefix[] = "READY=1\n";
	char msg[sizeof(ready_prefix) + 7 + 400];
	int n = snprintf(msg, sizeof(msg), "%sSTATUS=", ready ? ready_prefix : "");

	svcstatus_format(&d->status, referee_game(d->referee), store_saving_error(d->store),
			 takeover_waiting(d->takeover), msg + n, sizeof(msg) - (size_t)n);
	notify_send(msg);
}

static void status_run(void *user, uint64_t now)
{
	(void)now;
	send_status(user, false);
}

static void power_changed(void *user, const struct power_status *st, uint64_t now)
{
	struct daemon *d = user;

	presenter_set_power(d->presenter, st, now);
}

/* A tournament game on and not over: the machine's fair-play state is watched for it. */
static bool fairplay_active(void *user)
{
	struct daemon *d = user;
	const struct game *g = referee_game(d->referee);

	return g->open && g->params.mode == GAME_TOURNAMENT && !game_over(g);
}

static void fairplay_changed(void *user, const struct fairplay_state *s, uint64_t now)
{
	struct daemon *d = user;

	referee_fairplay(d->referee, &d->cfg.fairplay.policy, s, now);
}

/* ------------------------------------------------------------------ announcements said */

/* The voice's reports, each due when its announcement will have been heard: in real time
 * that moment on the daemon's clock, in virtual time now (speech takes no virtual time). */
static void take_said(struct daemon *d, uint64_t now)
{
	struct voice_said got[VOICE_SAID_MAX];
	int n = voice_said_take(d->voice, got, VOICE_SAID_MAX);
	uint64_t now_ns = monotonic_ns();

	for (int i = 0; i < n; i++) {
		uint64_t at = now;

		if (!loop_virtual(d->loop) && got[i].heard_ns > now_ns)
			at += (got[i].heard_ns - now_ns + 999999) / 1000000;
		if (d->said_count == VOICE_SAID_MAX) {
			/* More than the referee ever waits for: the oldest makes room. */
			log_warn(LOG_VOICE, "report %d given up", d->said[0].report);
			memmove(&d->said[0], &d->said[1],
				sizeof(d->said[0]) * (VOICE_SAID_MAX - 1));
			d->said_count--;
		}
		d->said[d->said_count++] = (struct said_due){(int)got[i].token, at};
	}
}

static void said_ready(void *user, int fd, short revents, uint64_t now)
{
	(void)fd;
	(void)revents;
	take_said(user, now);
}

static uint64_t said_deadline(void *user, uint64_t now)
{
	struct daemon *d = user;
	uint64_t best = UINT64_MAX;

	(void)now;
	for (int i = 0; i < d->said_count; i++)
		if (d->said[i].at < best)
			best = d->said[i].at;
	return best;
}

static void said_run(void *user, uint64_t now)
{
	struct daemon *d = user;

	for (int i = 0; i < d->said_count;) {
		struct game_event ev = {
		    .kind = GAME_EV_SAID, .ms = now, .index = d->said[i].report};

		if (d->said[i].at > now) {
			i++;
			continue;
		}
		d->said[i] = d->said[--d->said_count];
		trace_at(0, "said", "%d", ev.index);
		referee_handle(d->referee, &ev);
	}
}

/* Virtual time: speech finishes before time moves on, and what was said is reported now; a
 * reading of the machine's fair-play state asked for is taken before time moves on too (a
 * game's start is read at its start, however fast the script goes on). */
static bool voice_idle(void *user)
{
	struct daemon *d = user;
	bool reading = fairplay_watch_wait(d->fairplay);

	voice_wait_idle(d->voice);
	take_said(d, loop_now(d->loop));
	return d->said_count > 0 || reading;
}

static int open_signals(void)
{
	sigset_t set;

	/* An output whose reader went away (a pipe, a client) is an error there, never the
	 * end of the game. */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* ------------------------------------------------------------------ start and stop */

/* Run at a real-time priority (the unit's CPUSchedulingPolicy=, docs/install.md "Real time,
 * and what not to run beside the daemon"), the daemon keeps its memory in RAM: a page read
 * back from the SD card would undo what the priority gives.  Locked as it is touched (MCL_ONFAULT),
 * what is mapped once everything has started: the unit's LimitMEMLOCK= bounds it.  Said at start
 * either way. */
static void realtime_memory(void)
{
	int policy = sched_getscheduler(0);
	struct sched_param sp = {0};

	if (policy != SCHED_FIFO && policy != SCHED_RR) {
		log_info(LOG_MAIN, "normal priority: announcements may wait for other programs");
		return;
	}
	sched_getparam(0, &sp);
	if (mlockall(MCL_CURRENT | MCL_ONFAULT))
		log_warn(LOG_MAIN,
			 "real-time priority %d, but the memory cannot be locked (%s): a page read "
			 "back from storage can delay an announcement (LimitMEMLOCK=)",
			 sp.sched_priority, strerror(errno));
	else
		log_info(LOG_MAIN, "real-time priority %d (%s), memory locked", sp.sched_priority,
			 policy == SCHED_FIFO ? "fifo" : "rr");
}

static int open_board(struct daemon *d, char *err, size_t err_size)
{
	const char *spec = d->opt.board_spec;

	if (board_spec_parse(spec, &d->board_kind, &d->board_arg, err, err_size))
		return -1;
	if (d->board_kind == BOARD_SIM && d->board_arg) {
		d->driver = driver_open(d->board_arg, &d->cfg.board, err, err_size);
		if (!d->driver)
			return -1;
		if (driver_fd(d->driver) >= 0 && d->opt.virtual_time) {
			snprintf(err, err_size,
				 "%s: a live script (a named pipe) needs --time real",
				 d->board_arg);
			return -1;
		}
	}
	d->board =
	    board_open(&d->cfg.board, spec, d->opt.record_path, loop_now(d->loop), err, err_size);
	return d->board ? 0 : -1;
}

/* The simulated pegs: as the script sets them up, else where a resumed game's pegs stood
 * when the power went, else the initial position. */
static void place_pegs(struct daemon *d)
{
	const struct script_header *h = d->driver ? driver_header(d->driver) : NULL;
	uint64_t occ;

	if (!h)
		return;
	if (h->has_setup && script_fen_occupancy(h->setup_fen, &occ) == 0)
		board_sim_place(d->board, occ);
	else if (referee_resumed(d->referee))
		board_sim_place(d->board, referee_expected_occupancy(d->referee));
}

static int start(struct daemon *d, char *err, size_t err_size, int *status)
{
	struct referee_settings settings;
	struct store_config sc = {
	    .dir = d->cfg.state_dir,
	    .serial = d->serial,
	    .sync = d->cfg.sync,
	    .record_audio = d->cfg.voice.record,
	    .virtual_time = d->opt.virtual_time,
	    .threaded = !d->opt.virtual_time,
	    .keep_audio = d->cfg.keep_audio,
	    .keep_audio_bytes = (uint64_t)d->cfg.keep_audio_mb * 1000000u,
	    .keep_games = d->cfg.keep_games,
	};
	struct presenter_config pc = {
	    .phrases = d->cfg.phrases,
	    .announce_check_set = d->cfg.announce_check_set,
	    .rate = d->cfg.voice.params[VOICE_PRIVATE].rate,
	    .slow_repeat = d->cfg.slow_repeat,
	    .info = d->cfg.clock_info,
	    .braille_layout = d->cfg.braille_layout,
	    .braille_messages = d->cfg.braille_messages,
	};
	struct game_sink sink;
	struct game_event ready = {.kind = GAME_EV_BOARD_READY};
	uint64_t origin;
	char fen_err[400] = "";
	const struct game *g;
	pid_t holder;
	int lock;

	*status = 2;
	if (open_board(d, err, err_size) ||
	    game_settings(d, &settings, err, err_size, fen_err, sizeof(fen_err)))
		return -1;
	sc.params = &settings.next;
	origin = loop_now(d->loop);
	*status = 1;
	/* In virtual time the game is played by a script, not recorded by this device. */
	if (d->opt.virtual_time)
		snprintf(d->serial, sizeof(d->serial), "virtual");
	else
		device_serial(d->serial, sizeof(d->serial));
	d->sigfd = open_signals();
	if (d->sigfd < 0) {
		snprintf(err, err_size, "signals: %s", strerror(errno));
		return -1;
	}
	/* A script's storage fault from its start is there before the state directory is
	 * opened. */
	if (d->driver) {
		struct driver_hooks hooks = {.user = d, .disk = script_disk};

		driver_faults_at_start(d->driver, &hooks);
	}
	/* Storage that cannot be written now (read-only, full, not mounted yet) is no reason
	 * not to start: the game is kept in memory, said once, and written when it can be. */
	if (state_mkdir(d->cfg.state_dir))
		log_error(LOG_MAIN, "%s: %s; the game is kept in memory until it can be written",
			  d->cfg.state_dir, strerror(errno));
	/* One writer at a time: a second daemon on this directory (one started by hand beside
	 * the service, a unit started twice) or a repair running stops this one before it
	 * writes anything (docs/state.md "State directory": `lock`). */
	lock = state_lock(d->cfg.state_dir, true, &holder);
	if (lock < 0 && errno == EWOULDBLOCK) {
		snprintf(err, err_size,
			 "%s is in use by process %ld (another annabellad, or annabella fsck): "
			 "one writer at a time; this one stops",
			 d->cfg.state_dir, (long)holder);
		*status = 2;
		return -1;
	}
	if (lock < 0)
		log_warn(LOG_MAIN, "%s/lock: %s; locked once it can be written", d->cfg.state_dir,
			 strerror(errno));
	/* The journal's chain keyed with the device key (store/devkey.h), made at the first
	 * start; without it the game is journaled all the same, with a plain chain. */
	if (devkey_use(d->cfg.state_dir, true, err, err_size))
		log_error(LOG_MAIN, "no device key (%s): the journal's chain is not keyed", err);
	d->cfg.voice.log_write = state_write;
	d->cfg.voice.log_reserve = (unsigned long long)d->cfg.reserve_mb << 20;
	d->cfg.voice.log_after_start = true;
	d->cfg.voice.notice_lang = d->cfg.phrases.lang;
	d->voice = voice_start(&d->cfg.voice, err, err_size);
	if (!d->voice) {
		close(lock);
		return -1;
	}
	d->store = store_open(&sc, d->voice, err, err_size);
	if (d->store)
		store_hold_lock(d->store, lock);
	else
		close(lock);
	d->presenter = d->store ? presenter_new(&pc, d->voice, d->store) : NULL;
	if (!d->presenter)
		return -1;
	sink = presenter_sink(d->presenter);
	d->referee = referee_new(&settings, &sink);
	if (!d->referee) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	d->ctl = ctlsock_open(&d->cfg, d->loop);
	d->ctlshell = ctlshell_new(&d->cfg, d->referee, d->presenter, d->store);
	if (!d->ctl || !d->ctlshell) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	{
		struct control_env shell = ctlshell_env(d->ctlshell);

		ctlsock_attach(d->ctl, d->referee, &shell);
	}
	/* The PINs entered on the board's buttons go through the socket's PIN budget. */
	referee_attach_pins(d->referee, ctlsock_pins(d->ctl));
	presenter_attach(d->presenter, d->referee, d->ctl);
	d->display = display_open(&d->cfg, d->loop, d->referee);
	presenter_attach_display(d->presenter, d->display);
	d->clockface =
	    clockface_open(&d->cfg.display, presenter_lang(d->presenter), d->loop, d->referee);
	presenter_attach_clockface(d->presenter, d->clockface);
	d->leds = leds_open(&d->cfg.board, d->board, d->loop, d->referee);
	presenter_attach_leds(d->presenter, d->leds);
	d->haptic = haptic_open(&d->cfg, d->board, d->loop);
	presenter_attach_haptic(d->presenter, d->haptic);
	*status = 2;
	store_set_notice(d->store, saving_notice, d);
	if (store_replay(d->store, d->referee, err, err_size))
		return -1;
	g = referee_game(d->referee);
	if (fen_err[0] && !(g->open && !game_over(g))) {
		snprintf(err, err_size, "%s", fen_err);
		return -1;
	}
	*status = 1;
	presenter_set_game_hook(d->presenter, game_hook, d);
	referee_set_storage_lag(d->referee, store_recovered(d->store)->sync_lag_ms);
	referee_start(d->referee, loop_now(d->loop));
	d->started = true;
	/* The arbiter sees what recovery did in status; the player hears once what was lost
	 * (a duplicated line or records put back lose nothing, and are not said). */
	if (recovery_lost(store_recovered(d->store))) {
		const struct recovery *rc = store_recovered(d->store);
		struct present_recovery what = {.from_scoresheet = rc->from_scoresheet,
						.moves_lost = rc->moves_lost,
						.readings_missing = rc->readings_missing,
						.other_game = rc->foreign_path[0] != '\0'};

		presenter_recovery(d->presenter, &what, loop_now(d->loop));
	}
	place_pegs(d);
	board_record_start(d->board);
	ready.ms = loop_now(d->loop);
	ready.sensed = board_occupancy(d->board);
	referee_handle(d->referee, &ready);

	/* The script's actions at a time go before the board's service at that time, so a
	 * scan sees the pegs they placed. */
	if (d->driver) {
		struct driver_hooks hooks = {.user = d,
					     .before_crash = before_crash,
					     .control = script_control,
					     .disk = script_disk};

		driver_start(d->driver, d->board, origin, &hooks);
		loop_add_source(d->loop, driver_deadline, driver_run, d->driver);
		if (driver_fd(d->driver) >= 0)
			loop_add_fd(d->loop, driver_fd(d->driver), POLLIN, script_fd_ready, d);
	}
	loop_add_source(d->loop, board_deadline_fn, board_run, d);
	loop_add_source(d->loop, referee_deadline_fn, referee_run, d);
	loop_add_source(d->loop, store_deadline_fn, store_run, d);
	if (!d->opt.virtual_time) {
		d->watchdog_ms = notify_watchdog_ms();
		d->watchdog_last = loop_now(d->loop);
		loop_add_source(d->loop, watchdog_deadline, watchdog_run, d);
	}
	loop_add_source(d->loop, said_deadline, said_run, d);
	loop_add_source(d->loop, end_deadline, end_run, d);
	d->takeover = takeover_open(d->loop, d->referee);
	if (notify_wanted())
		loop_add_source(d->loop, status_deadline, status_run, d);
	d->power =
	    power_open(&d->cfg.power, d->board_kind == BOARD_GPIOD, d->loop, power_changed, d);
	d->fairplay = fairplay_watch_open(&d->cfg.fairplay, d->board_kind == BOARD_GPIOD,
					  d->cfg.train_engine, ANNABELLA_VERSION, d->cfg.digest,
					  d->loop, fairplay_active, fairplay_changed, d);
	loop_add_fd(d->loop, d->sigfd, POLLIN, signal_ready, d);
	if (board_fd(d->board) >= 0)
		loop_add_fd(d->loop, board_fd(d->board), POLLIN, board_fd_ready, d);
	if (store_fd(d->store) >= 0)
		loop_add_fd(d->loop, store_fd(d->store), POLLIN, store_ready, d);
	if (voice_said_fd(d->voice) >= 0)
		loop_add_fd(d->loop, voice_said_fd(d->voice), POLLIN, said_ready, d);
	if (d->opt.virtual_time)
		loop_set_idle(d->loop, voice_idle, d);
	return 0;
}

static void stop(struct daemon *d)
{
	/* A new version taking over is the same main process to the service manager: a
	 * reload, which its READY=1 ends; STOPPING=1 would have it wait for an exit. */
	if (takeover_program(d->takeover))
		notify_send("RELOADING=1\nSTATUS=starting the new version");
	else
		notify_send("STOPPING=1");
	if (d->started) {
		referee_stop(d->referee, loop_now(d->loop));
		note_anchors(d, loop_now(d->loop));
		store_close(d->store, referee_game(d->referee));
	}
	ctlsock_close(d->ctl);
	ctlshell_free(d->ctlshell);
	display_close(d->display);
	clockface_close(d->clockface);
	leds_close(d->leds);
	haptic_close(d->haptic);
	/* Stopped by a signal in real time: within a second whatever the audio does (the
	 * journal is synced already). */
	if (d->voice && d->signalled && !d->opt.virtual_time)
		voice_stop_within(d->voice, 800);
	else if (d->voice)
		voice_stop(d->voice);
	power_free(d->power);
	fairplay_watch_free(d->fairplay);
	referee_free(d->referee);
	presenter_free(d->presenter);
	store_free(d->store);
	board_close(d->board);
	driver_free(d->driver);
	if (d->sigfd >= 0)
		close(d->sigfd);
	loop_free(d->loop);
}

/* PINs shorter than six digits are accepted (configurations from before) but said: at ten
 * wrong PINs a minute, four digits fall within a day.  So is a PIN (or its hash) in a file
 * more than its owner may read: the control socket's group, the assistants, would read the
 * arbiter's (README "Security model"). */
static void warn_pins(const struct config *cfg)
{
	static const char *const keys[] = {"arbiter-pin", "assistant-pin"};
	const struct config_pin *pins[] = {&cfg->arbiter_pin, &cfg->assistant_pin};

	for (int i = 0; i < 2; i++) {
		if (pins[i]->hash.set && pins[i]->hash.digits < CONFIG_PIN_DIGITS)
			log_warn(LOG_MAIN,
				 "%s: [control] %s has %d digits: give it at least %d (`annabella "
				 "pin` makes one)",
				 pins[i]->file[0] ? pins[i]->file : "configuration", keys[i],
				 pins[i]->hash.digits, CONFIG_PIN_DIGITS);
		if (config_pin_exposed(pins[i]))
			log_warn(
			    LOG_MAIN,
			    "%s:%d: [control] %s is in a file its group or others may read "
			    "(the control socket's group: the assistants): keep the PINs in the "
			    "PIN file, which only the daemon and the page read (sudo annabella "
			    "pin --set %.*s)",
			    pins[i]->file, pins[i]->line, keys[i], (int)strcspn(keys[i], "-"),
			    keys[i]);
	}
}

int main(int argc, char **argv)
{
	static struct daemon d = {.sigfd = -1, .end_at = UINT64_MAX};
	char err[512], warn[512];
	int status;

	log_init("annabellad", LOG_LEVEL_WARN);
	if (parse_options(argc, argv, &d.opt)) {
		usage(stderr);
		return 2;
	}
	config_defaults(&d.cfg);
	if (d.opt.config_path && config_load(&d.cfg, d.opt.config_path, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	log_set_level((enum log_level)d.cfg.log_level);
	if (speechcheck_pronounce(&d.cfg, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (config_load_pins(&d.cfg, warn, sizeof(warn), err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (warn[0])
		log_error(LOG_MAIN, "%s", warn);
	warn_pins(&d.cfg);
	/* A player who cannot hear the device: everything said to them on the braille display,
	 * the events they must not miss on the vibration motor (docs/braille.md "Messages for a
	 * player who cannot hear"). */
	if (d.cfg.deafblind) {
		d.cfg.braille_display = d.cfg.braille_messages = true;
		if (d.cfg.board.haptic_line == BOARD_NO_LINE)
			log_warn(LOG_MAIN,
				 "%s: [game] deafblind without a vibration motor ([haptic] "
				 "line): the moves and the clock's warnings are shown, not felt",
				 d.opt.config_path ? d.opt.config_path : "configuration");
	}
	if (d.opt.state_dir)
		snprintf(d.cfg.state_dir, sizeof(d.cfg.state_dir), "%s", d.opt.state_dir);
	snprintf(d.cfg.voice.state_dir, sizeof(d.cfg.voice.state_dir), "%s", d.cfg.state_dir);
	if (d.opt.audio >= 0)
		d.cfg.voice.sink = (enum voice_sink_type)d.opt.audio;
	if (d.opt.control && snprintf(d.cfg.control_socket, sizeof(d.cfg.control_socket), "%s",
				      d.opt.control) >= (int)sizeof(d.cfg.control_socket)) {
		log_error(LOG_MAIN, "--control: path too long");
		return 2;
	}

	chess_init();
	trace_open_from_env();
	/* One heap for every thread: no arena of 64 MB reserved per thread, so the memory that
	 * realtime_memory() locks is little more than what is used. */
	mallopt(M_ARENA_MAX, 1);
	d.loop = loop_new(d.opt.virtual_time);
	if (!d.loop) {
		log_error(LOG_MAIN, "out of memory");
		return 1;
	}
	if (start(&d, err, sizeof(err), &status)) {
		log_error(LOG_MAIN, "%s", err);
		stop(&d);
		return status;
	}
	realtime_memory();
	send_status(&d, true);
	status = loop_run(d.loop);
	stop(&d);
	trace_close();
	if (takeover_program(d.takeover)) {
		char program[PATH_MAX];

		snprintf(program, sizeof(program), "%s", takeover_program(d.takeover));
		takeover_free(d.takeover);
		execv(program, argv);
		/* The service manager starts it (Restart=) after this exit. */
		log_error(LOG_MAIN, "cannot start the new version %s: %s", program,
			  strerror(errno));
		return 1;
	}
	takeover_free(d.takeover);
	return status;
}
