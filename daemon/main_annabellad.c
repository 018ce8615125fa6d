/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabellad: the daemon.  One poll() loop owns the game; the voice thread owns
 * eSpeak NG and the audio devices.  Time is real (monotonic) or virtual: in virtual
 * time the loop jumps straight to the next scripted action or timer deadline, so a
 * whole game replays in milliseconds with the same code that runs on a Pi.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "base/timeutil.h"
#include "chess/chess.h"
#include "daemon/config.h"
#include "base/log.h"
#include "daemon/session.h"
#include "daemon/state.h"
#include "gpio/board.h"
#include "voice/voice.h"

/* DESIGN 4.2: after a script or log ends, the daemon runs five more seconds. */
#define END_GRACE_MS 5000
#define EVENTS_MAX   64

struct options {
	const char *config_path;
	const char *board_spec;
	const char *record_path;
	const char *state_dir;
	bool virtual_time;
	int audio; /* enum voice_sink_type, or -1: the default */
};

static void usage(FILE *f)
{
	fprintf(f, "usage: annabellad [--config FILE] [--board gpiod|sim:SCRIPT|replay:LOG]\n"
		   "                  [--time real|virtual] [--audio alsa|wav|none] [--state DIR]\n"
		   "                  [--record-lines LOG]\n");
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
	    {"help", no_argument, NULL, 'h'},
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
				fprintf(stderr, "annabellad: --time must be real or virtual\n");
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
				fprintf(stderr, "annabellad: --audio must be alsa, wav or none\n");
				return -1;
			}
			break;
		case 's':
			o->state_dir = optarg;
			break;
		case 'r':
			o->record_path = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			fprintf(stderr, "annabellad: unknown option or missing value: %s\n",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "annabellad: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

/* Daemon time: real milliseconds since start, or virtual. */
struct timesrc {
	bool virtual_time;
	uint64_t origin;
	uint64_t now;
};

static uint64_t timesrc_now(struct timesrc *t)
{
	if (!t->virtual_time)
		t->now = monotonic_ms() - t->origin;
	return t->now;
}

static void make_setup(const struct config *cfg, const char *spec, const struct script_header *h,
		       bool virtual_time, struct session_setup *setup)
{
	memset(setup, 0, sizeof(*setup));
	setup->player = cfg->player;
	snprintf(setup->time_control, sizeof(setup->time_control), "%s", cfg->time_control);
	snprintf(setup->fen, sizeof(setup->fen), "%s", CHESS_FEN_START);
	setup->virtual_time = virtual_time;
	if (!h)
		return;
	if (h->player >= 0)
		setup->player = h->player;
	if (h->has_time_control)
		snprintf(setup->time_control, sizeof(setup->time_control), "%s", h->time_control);
	if (h->has_setup) {
		snprintf(setup->fen, sizeof(setup->fen), "%s", h->setup_fen);
		snprintf(setup->fen_origin, sizeof(setup->fen_origin), "%s:%d",
			 strchr(spec, ':') ? strchr(spec, ':') + 1 : spec, h->setup_line);
	}
}

static int open_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static int run(struct board *board, struct session *session, struct voice *voice,
	       struct timesrc *ts, int sigfd)
{
	struct board_event events[EVENTS_MAX];
	uint64_t end_at = UINT64_MAX;
	uint64_t now = timesrc_now(ts);

	for (;;) {
		uint64_t next;
		int n = board_service(board, now, events, EVENTS_MAX);

		if (n < 0) {
			log_error(LOG_GPIO, "board failed: %s; stopping", board_error(board));
			return 1;
		}
		for (int i = 0; i < n; i++)
			session_board_event(session, &events[i]);
		session_tick(session, now);
		if (end_at == UINT64_MAX && board_finished(board))
			end_at = now + END_GRACE_MS;
		if (now >= end_at)
			return 0;
		if (n == EVENTS_MAX)
			continue; /* more may be waiting at this very time */

		next =
		    min_u64(min_u64(board_deadline(board), session_deadline(session, now)), end_at);
		if (ts->virtual_time) {
			/* Speech takes no virtual time: finish it before time moves on. */
			voice_wait_idle(voice);
			if (next == UINT64_MAX) {
				log_error(LOG_MAIN, "virtual time with nothing left to wait for");
				return 0;
			}
			if (next > ts->now)
				ts->now = next;
			now = ts->now;
			continue;
		} else {
			struct pollfd fds[2];
			int nfds = 0;
			int timeout = -1;

			fds[nfds++] = (struct pollfd){.fd = sigfd, .events = POLLIN};
			if (board_fd(board) >= 0)
				fds[nfds++] =
				    (struct pollfd){.fd = board_fd(board), .events = POLLIN};
			if (next != UINT64_MAX)
				timeout = next > now ? (int)min_u64(next - now, 60000) : 0;
			if (poll(fds, (nfds_t)nfds, timeout) < 0 && errno != EINTR) {
				log_error(LOG_MAIN, "poll: %s", strerror(errno));
				return 1;
			}
			if (fds[0].revents & POLLIN) {
				log_info(LOG_MAIN, "stopping on a signal");
				return 0;
			}
			now = timesrc_now(ts);
		}
	}
}

int main(int argc, char **argv)
{
	static struct config cfg;
	struct options opt;
	struct timesrc ts = {0};
	struct session_setup setup;
	struct board *board = NULL;
	struct voice *voice = NULL;
	struct session *session = NULL;
	char err[512];
	int status = 1, sigfd = -1;

	if (parse_options(argc, argv, &opt)) {
		usage(stderr);
		return 2;
	}
	config_defaults(&cfg);
	if (opt.config_path && config_load(&cfg, opt.config_path, err, sizeof(err))) {
		fprintf(stderr, "annabellad: %s\n", err);
		return 2;
	}
	log_set_level((enum log_level)cfg.log_level);
	if (opt.state_dir)
		snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", opt.state_dir);
	snprintf(cfg.voice.state_dir, sizeof(cfg.voice.state_dir), "%s", cfg.state_dir);
	if (opt.audio >= 0)
		cfg.voice.sink = (enum voice_sink_type)opt.audio;

	ts.virtual_time = opt.virtual_time;
	ts.origin = monotonic_ms();
	timesrc_now(&ts);

	chess_init();
	board = board_open(&cfg.board, opt.board_spec, opt.record_path, ts.now, err, sizeof(err));
	if (!board) {
		fprintf(stderr, "annabellad: %s\n", err);
		return 2;
	}
	make_setup(&cfg, opt.board_spec, board_script_header(board), opt.virtual_time, &setup);
	if (board_script_header(board) && board_script_header(board)->has_time_control) {
		struct time_control tc;
		char tc_err[200];

		if (time_control_parse(setup.time_control, &tc, tc_err, sizeof(tc_err))) {
			fprintf(stderr, "annabellad: %s:%d: time-control: %s\n",
				strchr(opt.board_spec, ':') + 1,
				board_script_header(board)->time_control_line, tc_err);
			board_close(board);
			return 2;
		}
	}

	sigfd = open_signals();
	if (sigfd < 0) {
		fprintf(stderr, "annabellad: signals: %s\n", strerror(errno));
		goto out;
	}
	if (state_mkdir(cfg.state_dir)) {
		fprintf(stderr, "annabellad: %s: %s\n", cfg.state_dir, strerror(errno));
		goto out;
	}
	voice = voice_start(&cfg.voice, err, sizeof(err));
	if (!voice) {
		fprintf(stderr, "annabellad: voice: %s\n", err);
		goto out;
	}
	session = session_open(&cfg, &setup, voice, timesrc_now(&ts), err, sizeof(err));
	if (!session) {
		fprintf(stderr, "annabellad: %s\n", err);
		status = 2;
		goto out;
	}
	/* A resumed game's pegs stay where they were when the power went, unless the script
	 * says where they are. */
	if (session_resumed(session) && board_script_header(board) &&
	    !board_script_header(board)->has_setup)
		board_sim_place(board, session_expected_occupancy(session));
	session_board_ready(session, board_occupancy(board), timesrc_now(&ts));

	status = run(board, session, voice, &ts, sigfd);
out:
	if (session)
		session_close(session, timesrc_now(&ts));
	if (voice)
		voice_stop(voice);
	board_close(board);
	if (sigfd >= 0)
		close(sigfd);
	return status;
}
