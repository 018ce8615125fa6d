/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the game journal as found at start.  The input is the journal of a
 * temporary state directory; the session is opened on it (resumed, archived, refused or
 * started anew: errors are fine), the board made ready, and closed.  It must never crash
 * or leak.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chess/chess.h"
#include "daemon/config.h"
#include "base/log.h"
#include "daemon/session.h"
#include "voice/voice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];
static struct voice *voice;
static struct config cfg;

static void cleanup(void)
{
	char cmd[128];

	if (voice)
		voice_stop(voice);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (dir[0] && system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

static int init(void)
{
	char err[256];

	snprintf(dir, sizeof(dir), "/tmp/annabella-fuzz-journal-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	log_set_level(LOG_LEVEL_ERROR);
	config_defaults(&cfg);
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
	cfg.sync = false;
	cfg.voice.sink = VOICE_SINK_NONE;
	snprintf(cfg.voice.state_dir, sizeof(cfg.voice.state_dir), "%s", dir);
	voice = voice_start(&cfg.voice, err, sizeof(err));
	if (!voice)
		return -1;
	atexit(cleanup);
	return 0;
}

static void remove_games(void)
{
	char path[320];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/games", dir);
	d = opendir(path);
	if (d) {
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/games/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	snprintf(path, sizeof(path), "%s/game.pgn", dir);
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct session_setup setup = {.player = CHESS_WHITE, .virtual_time = true};
	char path[128], err[512];
	struct session *s;
	FILE *f;

	if (size > 16384)
		return 0;
	if (!ready) {
		if (init())
			abort();
		ready = true;
	}
	/* A fresh state directory: no games of earlier inputs. */
	remove_games();
	snprintf(path, sizeof(path), "%s/journal", dir);
	f = fopen(path, "wb");
	if (!f)
		return 0;
	if (fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);

	snprintf(setup.time_control, sizeof(setup.time_control), "%s", size & 1 ? "60+1" : "-");
	snprintf(setup.fen, sizeof(setup.fen), "%s", CHESS_FEN_START);
	s = session_open(&cfg, &setup, voice, 1000, err, sizeof(err));
	if (s) {
		session_board_ready(s, session_expected_occupancy(s), 1000);
		session_tick(s, 2000);
		session_close(s, 3000);
	}
	voice_wait_idle(voice);
	snprintf(path, sizeof(path), "%s/speech.log", dir);
	if (truncate(path, 0) != 0)
		return 0;
	return 0;
}
