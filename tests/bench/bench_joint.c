/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The joints between voices over a long game: every move announced with national rank
 * numerals (en, sv, nl: German words, the numerals in their language), into a WAV record;
 * the silence eSpeak NG left at each joint, what the voice thread kept of it, against the
 * longest silence between words of the German voice alone saying the same moves; and the
 * process's CPU time per second of audio for those games (synthesis, the joints and the
 * record's writes).  Prints "bench NAME VALUE UNIT" lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chess/chess.h"
#include "voice/phrases.h"
#include "voice/voice.h"
#include "voice/wav.h"

#define PLIES 160
#define LEVEL 64

/* Where each utterance ends in the record (samples). */
static uint64_t ends[PLIES + 1];

/* The longest silence between sounds of one utterance, in ms (the silence before an
 * utterance's first sound and after its last is not between words). */
static double longest_word_gap(const char *path)
{
	uint64_t i = 0;
	int u = 0;
	FILE *f = fopen(path, "rb");
	uint8_t head[64];
	struct wav_info info;
	size_t run = 0, best = 0;
	int16_t s;
	int seen = 0;

	if (!f || fread(head, 1, sizeof(head), f) != sizeof(head) ||
	    wav_parse_header(head, sizeof(head), &info)) {
		if (f)
			fclose(f);
		return -1;
	}
	fseek(f, info.data_offset, SEEK_SET);
	while (fread(&s, sizeof(s), 1, f) == 1) {
		if (u < PLIES && i++ >= ends[u]) {
			u++;
			seen = 0;
			run = 0;
		}
		if (abs(s) <= LEVEL) {
			run++;
			continue;
		}
		if (seen && run > best)
			best = run;
		seen = 1;
		run = 0;
	}
	fclose(f);
	return (double)best * 1000.0 / info.sample_rate;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned record_rate(const char *path)
{
	uint8_t head[64];
	struct wav_info info;
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof(head), f) : 0;

	if (f)
		fclose(f);
	return wav_parse_header(head, n, &info) == 0 ? info.sample_rate : 0;
}

/* Say the game's moves with o into the record at path; the voice's stats after. */
static int say_game(const struct phrase_options *o, const char *dir, const char *path,
		    struct voice_stats *st)
{
	struct voice_config cfg;
	struct chess_pos pos;
	struct chess_error ferr;
	char err[200];
	struct voice *v;

	voice_config_defaults(&cfg);
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
	v = voice_start(&cfg, err, sizeof(err));
	if (!v) {
		fprintf(stderr, "bench_joint: %s\n", err);
		return -1;
	}
	unlink(path);
	voice_record_to(v, path);
	chess_fen_parse(&pos, CHESS_FEN_START, &ferr);
	for (int ply = 0; ply < PLIES; ply++) {
		struct chess_move_list list;
		struct chess_undo undo;
		struct utterance u;
		chess_move m;

		if (chess_pos_legal_moves(&pos, &list) == 0) {
			chess_fen_parse(&pos, CHESS_FEN_START, &ferr);
			chess_pos_legal_moves(&pos, &list);
		}
		m = list.moves[(ply * 7 + 3) % list.count];
		utterance_clear(&u);
		phrase_add_move(&u, o, &pos, m);
		voice_say_utterance(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, (uint64_t)ply);
		voice_wait_idle(v);
		voice_get_stats(v, st);
		ends[ply] = st->samples_recorded;
		chess_pos_make(&pos, m, &undo);
	}
	voice_record_to(v, NULL);
	voice_wait_idle(v);
	voice_get_stats(v, st);
	voice_stop(v);
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/annabella-bench-joint-XXXXXX", path[128], cmd[160];
	struct phrase_options o;
	struct voice_stats st;
	uint32_t raw_max = 0, cut_max = 0;
	uint64_t joints = 0, audio_samples = 0;
	double word_gap, cpu_s = 0;
	unsigned rate = 0;

	chess_init();
	if (!mkdtemp(dir))
		return 1;
	phrase_options_defaults(&o);
	snprintf(path, sizeof(path), "%s/de.wav", dir);
	if (say_game(&o, dir, path, &st))
		return 1;
	word_gap = longest_word_gap(path);
	for (int lang = PHRASE_EN; lang < PHRASE_LANG_COUNT; lang++) {
		o.lang = (enum phrase_lang)lang;
		o.national_ranks = true;
		snprintf(path, sizeof(path), "%s/%s.wav", dir, phrase_lang_code(o.lang));
		cpu_s -= cpu_seconds();
		if (say_game(&o, dir, path, &st))
			return 1;
		cpu_s += cpu_seconds();
		audio_samples += st.samples_recorded;
		rate = record_rate(path);
		joints += st.joints;
		if (st.joint_raw_max_ms > raw_max)
			raw_max = st.joint_raw_max_ms;
		if (st.joint_max_ms > cut_max)
			cut_max = st.joint_max_ms;
	}
	printf("bench voice_joints %llu joints\n", (unsigned long long)joints);
	printf("bench voice_joint_silence_raw_max %u ms\n", raw_max);
	printf("bench voice_joint_silence_max %u ms\n", cut_max);
	printf("bench voice_word_gap_max %.1f ms\n", word_gap);
	if (rate && audio_samples)
		printf("bench voice_mixed_cpu_per_audio_s %.2f ms\n",
		       cpu_s * 1000.0 / ((double)audio_samples / rate));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 && cut_max <= (uint32_t)(word_gap + 0.5) ? 0 : 1;
}
