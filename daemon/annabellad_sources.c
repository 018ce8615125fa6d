/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What annabellad's loop runs (daemon/loop.h): the board's events, a board script's hooks
 * (its live lines, the power cut, `control` and `disk`), the referee's ticks, the store's
 * retries and writer, the announcements said given back to the referee when heard, signals
 * (SIGHUP reloads what can change during a game), the service manager's watchdog and status
 * line, the power monitor and the fair-play watch; in virtual time the loop's idle wait for
 * speech.  daemon_add_sources() registers them once the game is ready.
 */
#include "daemon/annabellad_int.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "base/log.h"
#include "base/timeutil.h"
#include "base/trace.h"
#include "daemon/ctlsock.h"
#include "daemon/driver.h"
#include "daemon/fairplay.h"
#include "daemon/loop.h"
#include "daemon/notify.h"
#include "daemon/power.h"
#include "daemon/present.h"
#include "daemon/script.h"
#include "daemon/takeover.h"
#include "store/state.h"
#include "store/store.h"

/* docs/commands.md "annabellad": after a script or log ends, the daemon runs five more seconds. */
#define END_GRACE_MS 5000
#define EVENTS_MAX   64

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
void daemon_script_disk(void *user, int what, uint32_t arg, uint64_t now)
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
	if (daemon_game_settings(d, &set, err, sizeof(err), fen_err, sizeof(fen_err)) == 0)
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
void daemon_send_status(struct daemon *d, bool ready)
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
	daemon_send_status(user, false);
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

void daemon_add_sources(struct daemon *d, uint64_t origin)
{
	/* The script's actions at a time go before the board's service at that time, so a
	 * scan sees the pegs they placed. */
	if (d->driver) {
		struct driver_hooks hooks = {.user = d,
					     .before_crash = before_crash,
					     .control = script_control,
					     .disk = daemon_script_disk};

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
}
