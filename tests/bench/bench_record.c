/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The game's audio record's size: every move of a master game (D. Byrne - R. Fischer, 82
 * plies) said as the daemon says it into games/ID.opus, and into a PCM WAV for comparison;
 * bytes a ply and for a game of 80 plies.  Prints "bench NAME VALUE UNIT" lines.
 *   bench_record GAME.pgn
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_games.h"
#include "chess/chess.h"
#include "voice/phrases.h"
#include "voice/voice.h"

static long long say_game(const struct pgn_game *game, const char *dir, const char *path)
{
	struct voice_config cfg;
	struct phrase_options o;
	struct chess_pos pos = game->game.start;
	struct stat st;
	char err[200];
	struct voice *v;

	voice_config_defaults(&cfg);
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
	v = voice_start(&cfg, err, sizeof(err));
	if (!v)
		return -1;
	phrase_options_defaults(&o);
	unlink(path);
	voice_record_to(v, path);
	for (int i = 0; i < game->game.count; i++) {
		struct utterance u;
		struct chess_undo undo;

		utterance_clear(&u);
		phrase_add_move(&u, &o, &pos, game->game.moves[i]);
		voice_say_utterance(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, (uint64_t)i);
		voice_wait_idle(v);
		chess_pos_make(&pos, game->game.moves[i], &undo);
	}
	voice_record_to(v, NULL);
	voice_wait_idle(v);
	voice_stop(v);
	return stat(path, &st) ? -1 : (long long)st.st_size;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/annabella-bench-record-XXXXXX", path[128], cmd[128];
	struct pgn_game game;
	long long opus, wav;
	int plies;

	chess_init();
	if (argc != 2 || bench_read_game(argv[1], &game) || !mkdtemp(dir))
		return 1;
	plies = game.game.count;
	snprintf(path, sizeof(path), "%s/game.opus", dir);
	opus = say_game(&game, dir, path);
	snprintf(path, sizeof(path), "%s/game.wav", dir);
	wav = say_game(&game, dir, path);
	pgn_game_free(&game);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0 || opus <= 0 || wav <= 0 || plies <= 0)
		return 1;
	printf("bench record_opus_per_ply %.1f KB\n", opus / 1000.0 / plies);
	printf("bench record_opus_80_plies %.2f MB\n", opus * 80.0 / plies / 1e6);
	printf("bench record_wav_per_ply %.1f KB\n", wav / 1000.0 / plies);
	printf("bench record_wav_80_plies %.2f MB\n", wav * 80.0 / plies / 1e6);
	return 0;
}
