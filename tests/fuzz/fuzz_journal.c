/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the game journal as found at start.  The input is the journal of a
 * temporary state directory; it is replayed into a referee through the daemon's store
 * (resumed, finished, refused or started anew: errors are fine), the board made ready,
 * time passes, and everything is closed.  It must never crash or leak.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "chess/chess.h"
#include "config/config.h"
#include "daemon/present.h"
#include "store/store.h"
#include "referee/referee.h"
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
	struct store_config sc = {.dir = dir, .sync = false, .virtual_time = true};
	struct presenter_config pc = {.phrases = cfg.phrases};
	struct referee_settings settings;
	struct game_event ev = {.kind = GAME_EV_BOARD_READY, .ms = 1000};
	struct store *store;
	struct presenter *p;
	struct referee *r;
	struct game_sink sink;
	char path[128], err[512];
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

	referee_settings_defaults(&settings);
	snprintf(settings.next.time_control, sizeof(settings.next.time_control), "%s",
		 size & 1 ? "60+1" : "-");
	store = store_open(&sc, voice, err, sizeof(err));
	if (!store)
		abort();
	p = presenter_new(&pc, voice, store);
	sink = presenter_sink(p);
	r = referee_new(&settings, &sink);
	presenter_attach(p, r, NULL);
	if (store_replay(store, r, err, sizeof(err)) == 0) {
		referee_start(r, 1000);
		ev.sensed = referee_expected_occupancy(r);
		referee_handle(r, &ev);
		ev = (struct game_event){.kind = GAME_EV_TICK, .ms = 2000};
		referee_handle(r, &ev);
		referee_stop(r, 3000);
		store_close(store, referee_game(r));
	}
	referee_free(r);
	presenter_free(p);
	store_free(store);
	voice_wait_idle(voice);
	snprintf(path, sizeof(path), "%s/speech.log", dir);
	if (truncate(path, 0) != 0)
		return 0;
	return 0;
}
