/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabellad: the daemon shell.  main() opens the parts in order (board, voice, state
 * files, the referee, the control socket) and closes them in reverse; the loop (loop.h)
 * runs the sources that each part registers.  The game itself is decided by the referee
 * (game/), a pure core: this file only wires it to the world.
 */
#include "daemon/annabellad_int.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "base/log.h"
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
int daemon_game_settings(const struct daemon *d, struct referee_settings *s, char *err,
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

/* The state directory made (or kept in memory while it cannot be), locked for this daemon
 * alone, and the device key that keys the journal's chain.  0 with *lock (or -1 when the lock
 * waits for storage); -1 with err when another process holds it. */
static int lock_state(struct daemon *d, int *lock, char *err, size_t err_size)
{
	pid_t holder;

	/* Storage that cannot be written now (read-only, full, not mounted yet) is no reason
	 * not to start: the game is kept in memory, said once, and written when it can be. */
	if (state_mkdir(d->cfg.state_dir))
		log_error(LOG_MAIN, "%s: %s; the game is kept in memory until it can be written",
			  d->cfg.state_dir, strerror(errno));
	/* One writer at a time: a second daemon on this directory (one started by hand beside
	 * the service, a unit started twice) or a repair running stops this one before it
	 * writes anything (docs/state.md "State directory": `lock`). */
	*lock = state_lock(d->cfg.state_dir, true, &holder);
	if (*lock < 0 && errno == EWOULDBLOCK) {
		snprintf(err, err_size,
			 "%s is in use by process %ld (another annabellad, or annabella fsck): "
			 "one writer at a time; this one stops",
			 d->cfg.state_dir, (long)holder);
		return -1;
	}
	if (*lock < 0)
		log_warn(LOG_MAIN, "%s/lock: %s; locked once it can be written", d->cfg.state_dir,
			 strerror(errno));
	/* The journal's chain keyed with the device key (store/devkey.h), made at the first
	 * start; without it the game is journaled all the same, with a plain chain. */
	if (devkey_use(d->cfg.state_dir, true, err, err_size))
		log_error(LOG_MAIN, "no device key (%s): the journal's chain is not keyed", err);
	return 0;
}

/* The voice, the store (holding the lock from now on), the presenter and the referee. */
static int open_game(struct daemon *d, const struct referee_settings *settings, int lock, char *err,
		     size_t err_size)
{
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
	    .params = &settings->next,
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
	d->referee = referee_new(settings, &sink);
	if (!d->referee) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	return 0;
}

/* The control socket and what its commands read, the braille display, the clock display, its
 * LEDs and the vibration motor, each attached to the referee and the presenter. */
static int open_outputs(struct daemon *d, char *err, size_t err_size)
{
	struct control_env shell;

	d->ctl = ctlsock_open(&d->cfg, d->loop);
	d->ctlshell = ctlshell_new(&d->cfg, d->referee, d->presenter, d->store);
	if (!d->ctl || !d->ctlshell) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	shell = ctlshell_env(d->ctlshell);
	ctlsock_attach(d->ctl, d->referee, &shell);
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
	return 0;
}

/* The arbiter sees what recovery did in status; the player hears once what was lost (a
 * duplicated line or records put back lose nothing, and are not said). */
static void say_recovery(struct daemon *d)
{
	const struct recovery *rc = store_recovered(d->store);
	struct present_recovery what = {.from_scoresheet = rc->from_scoresheet,
					.moves_lost = rc->moves_lost,
					.readings_missing = rc->readings_missing,
					.other_game = rc->foreign_path[0] != '\0'};

	if (recovery_lost(rc))
		presenter_recovery(d->presenter, &what, loop_now(d->loop));
}

static int start(struct daemon *d, char *err, size_t err_size, int *status)
{
	struct referee_settings settings;
	struct game_event ready = {.kind = GAME_EV_BOARD_READY};
	uint64_t origin;
	char fen_err[400] = "";
	const struct game *g;
	int lock;

	*status = 2;
	if (open_board(d, err, err_size) ||
	    daemon_game_settings(d, &settings, err, err_size, fen_err, sizeof(fen_err)))
		return -1;
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
		struct driver_hooks hooks = {.user = d, .disk = daemon_script_disk};

		driver_faults_at_start(d->driver, &hooks);
	}
	if (lock_state(d, &lock, err, err_size)) {
		*status = 2;
		return -1;
	}
	if (open_game(d, &settings, lock, err, err_size) || open_outputs(d, err, err_size))
		return -1;
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
	say_recovery(d);
	place_pegs(d);
	board_record_start(d->board);
	ready.ms = loop_now(d->loop);
	ready.sensed = board_occupancy(d->board);
	referee_handle(d->referee, &ready);
	daemon_add_sources(d, origin);
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

/* The configuration, its PINs and the options over it; errors logged. */
static int configure(struct daemon *d)
{
	char err[512], warn[512];

	config_defaults(&d->cfg);
	if (d->opt.config_path && config_load(&d->cfg, d->opt.config_path, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return -1;
	}
	log_set_level((enum log_level)d->cfg.log_level);
	if (speechcheck_pronounce(&d->cfg, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return -1;
	}
	if (config_load_pins(&d->cfg, warn, sizeof(warn), err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return -1;
	}
	if (warn[0])
		log_error(LOG_MAIN, "%s", warn);
	warn_pins(&d->cfg);
	/* A player who cannot hear the device: everything said to them on the braille display,
	 * the events they must not miss on the vibration motor (docs/braille.md "Messages for a
	 * player who cannot hear"). */
	if (d->cfg.deafblind) {
		d->cfg.braille_display = d->cfg.braille_messages = true;
		if (d->cfg.board.haptic_line == BOARD_NO_LINE)
			log_warn(LOG_MAIN,
				 "%s: [game] deafblind without a vibration motor ([haptic] "
				 "line): the moves and the clock's warnings are shown, not felt",
				 d->opt.config_path ? d->opt.config_path : "configuration");
	}
	if (d->opt.state_dir)
		snprintf(d->cfg.state_dir, sizeof(d->cfg.state_dir), "%s", d->opt.state_dir);
	snprintf(d->cfg.voice.state_dir, sizeof(d->cfg.voice.state_dir), "%s", d->cfg.state_dir);
	if (d->opt.audio >= 0)
		d->cfg.voice.sink = (enum voice_sink_type)d->opt.audio;
	if (d->opt.control && snprintf(d->cfg.control_socket, sizeof(d->cfg.control_socket), "%s",
				       d->opt.control) >= (int)sizeof(d->cfg.control_socket)) {
		log_error(LOG_MAIN, "--control: path too long");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct daemon d = {.sigfd = -1, .end_at = UINT64_MAX};
	char err[512];
	int status;

	log_init("annabellad", LOG_LEVEL_WARN);
	if (parse_options(argc, argv, &d.opt)) {
		usage(stderr);
		return 2;
	}
	if (configure(&d))
		return 2;
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
	daemon_send_status(&d, true);
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
