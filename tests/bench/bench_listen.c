/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The listening bench's speaker (tests/bench-listen.sh is its listener): every move of the
 * master games given, in Appendix D words with ", Schach"/", Matt", and every German prompt
 * without a slot, said through the voice thread as the daemon says them (its default rate)
 * by VOICE ("de": eSpeak NG's own; "mb-de6": [voice] voice-de = mb-de6), each into
 * OUT/VOICE/ID.raw (16 kHz, 16-bit mono: what PocketSphinx's US English model takes), with
 * OUT/VOICE/refs.txt ("ID<TAB>words", lower case, umlauts as ae oe ue).  And the
 * listener's closed world: OUT/grammar.jsgf (every move announcement the phrase code can
 * make, and the prompts) and OUT/words.dict (each word in the model's phones, from the
 * phonemes eSpeak NG says for it, the project's pronunciation overrides applied).
 * It prints, for the moves, how they sound: announcements whose last sample is not silent
 * (a click), samples at full scale, the level of the sounding frames, CPU time per second
 * of audio and the median time to the first sample; and the longest wait at a joint of
 * English guidance between German words (a voice loaded there would show).
 *   bench_listen OUT VOICE GAME.pgn...
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chess/chess.h"
#include "chess/pgn.h"
#include "bench_games.h"
#include "voice/phonemes.h"
#include "voice/phrases.h"
#include "voice/pronounce.h"
#include "voice/resample.h"
#include "voice/voice.h"
#include "voice/wav.h"

#define LISTEN_RATE 16000
#define WORDS_MAX   512
#define LEVEL	    64 /* as the voice thread's silence */
#define SAID_MAX    1024

/* Of the moves said. */
static struct {
	int said, clicks;
	uint64_t clipped, samples;
	double power_sum; /* of sounding 20 ms frames */
	uint64_t frames;
	uint64_t first_ns[SAID_MAX];
	double cpu_s;
} moves;

static char words[WORDS_MAX][48];  /* normalized */
static char spoken[WORDS_MAX][48]; /* as written, for its phonemes */
static int nwords;

/* Lower case, ä ö ü ß as ae oe ue ss, punctuation gone, one blank between words. */
static void normalize(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p && n + 3 < size; p++) {
		const char *rep = NULL;
		char one[2] = {0};

		if (p[0] == 0xc3 && p[1]) {
			switch (p[1]) {
			case 0xa4:
			case 0x84:
				rep = "ae";
				break;
			case 0xb6:
			case 0x96:
				rep = "oe";
				break;
			case 0xbc:
			case 0x9c:
				rep = "ue";
				break;
			case 0x9f:
				rep = "ss";
				break;
			default:
				rep = "";
				break;
			}
			p++;
		} else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
			one[0] = (char)(*p | 0x20);
			rep = one;
		} else if (*p == '-') {
			rep = " ";
		} else if (*p == ' ' || *p == ',' || *p == '.' || *p == ':' || *p == ';') {
			rep = " ";
		} else {
			rep = "";
		}
		for (; *rep && n + 1 < size; rep++) {
			if (*rep == ' ' && (n == 0 || out[n - 1] == ' '))
				continue;
			out[n++] = *rep;
		}
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* Every word of text (as written) into the word list. */
static void learn(const char *text)
{
	char copy[UTTERANCE_TEXT_MAX], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", text);
	for (char *w = strtok_r(copy, " ,.:;-", &save); w; w = strtok_r(NULL, " ,.:;-", &save)) {
		char norm[48];
		int i;

		normalize(w, norm, sizeof(norm));
		if (!norm[0])
			continue;
		for (i = 0; i < nwords && strcmp(words[i], norm); i++)
			;
		if (i == nwords && nwords < WORDS_MAX) {
			snprintf(words[nwords], sizeof(words[0]), "%s", norm);
			snprintf(spoken[nwords++], sizeof(spoken[0]), "%s", w);
		}
	}
}

/* eSpeak NG's German phoneme mnemonics in the US English model's phones (the nearest). */
static const struct {
	const char *espeak, *cmu;
} phones[] = {
    {"aI", "AY"}, {"aU", "AW"}, {"OY", "OY"}, {"A~", "AA N"}, {"ts", "T S"}, {"pf", "P F"},
    {"tS", "CH"}, {"dZ", "JH"}, {"a", "AA"},  {"A", "AA"},    {"E", "EH"},   {"e", "EY"},
    {"I", "IH"},  {"i", "IY"},	{"O", "AO"},  {"o", "OW"},    {"U", "UH"},   {"u", "UW"},
    {"Y", "UH"},  {"y", "UW"},	{"2", "ER"},  {"9", "ER"},    {"@", "AH"},   {"6", "ER"},
    {"3", "ER"},  {"p", "P"},	{"b", "B"},   {"t", "T"},     {"d", "D"},    {"k", "K"},
    {"g", "G"},	  {"f", "F"},	{"v", "V"},   {"w", "V"},     {"s", "S"},    {"z", "Z"},
    {"S", "SH"},  {"Z", "ZH"},	{"C", "SH"},  {"x", "HH"},    {"h", "HH"},   {"m", "M"},
    {"n", "N"},	  {"N", "NG"},	{"l", "L"},   {"r", "R"},     {"R", "R"},    {"j", "Y"},
};

static void cmu_phones(const char *espeak, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (const char *p = espeak; *p;) {
		size_t i, len = 0;

		for (i = 0; i < sizeof(phones) / sizeof(phones[0]); i++) {
			len = strlen(phones[i].espeak);
			if (!strncmp(p, phones[i].espeak, len))
				break;
		}
		if (i == sizeof(phones) / sizeof(phones[0])) {
			p++; /* stress, length, pauses */
			continue;
		}
		n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s%s", n ? " " : "",
				      phones[i].cmu);
		p += len;
	}
}

static int write_dict(const char *path)
{
	struct pronounce_table none = {0};
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	for (int i = 0; i < nwords; i++) {
		char in[128], ph[256], cmu[256];

		pronounce_apply(&none, PHRASE_DE, spoken[i], in, sizeof(in));
		voice_phonemes(PHRASE_DE, in, ph, sizeof(ph));
		cmu_phones(ph, cmu, sizeof(cmu));
		fprintf(f, "%s %s\n", words[i], cmu[0] ? cmu : "SIL");
	}
	return fclose(f);
}

static int write_grammar(const char *path, char prompts[][UTTERANCE_TEXT_MAX], int nprompts)
{
	static const char *const files[] = {"anna", "bella", "cesar",  "david",
					    "eva",  "felix", "gustav", "hector"};
	static const char *const ranks[] = {"eins",  "zwei",  "drei",	"vier",
					    "fuenf", "sechs", "sieben", "acht"};
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "#JSGF V1.0;\ngrammar annabella;\n"
		   "public <said> = <move> | <prompt>;\n"
		   "<move> = (<piece> <square> [schlaegt] <square> [en passant] [<promoted>] | "
		   "kurze rochade | lange rochade) [<check>];\n"
		   "<piece> = koenig | dame | turm | laeufer | springer | bauer;\n"
		   "<promoted> = dame | turm | laeufer | springer;\n"
		   "<check> = schach | matt;\n<square> = <file> <rank>;\n<file> = ");
	for (int i = 0; i < 8; i++)
		fprintf(f, "%s%s", i ? " | " : "", files[i]);
	fprintf(f, ";\n<rank> = ");
	for (int i = 0; i < 8; i++)
		fprintf(f, "%s%s", i ? " | " : "", ranks[i]);
	fprintf(f, ";\n<prompt> = ");
	for (int i = 0; i < nprompts; i++)
		fprintf(f, "%s(%s)", i ? " | " : "", prompts[i]);
	fprintf(f, ";\n");
	return fclose(f);
}

static void put_le(FILE *f, const void *samples, size_t n)
{
	fwrite(samples, sizeof(int16_t), n, f);
}

static void raw_out(void *ctx, const int16_t *s, size_t n)
{
	put_le(ctx, s, n);
}

/* The record at wav as 16 kHz raw samples at raw. */
static int convert(const char *wav, const char *raw)
{
	FILE *in = fopen(wav, "rb"), *out = fopen(raw, "wb");
	uint8_t head[WAV_HEADER_SIZE];
	struct wav_info info;
	struct resampler r;
	int16_t buf[1024];
	size_t n;

	if (!in || !out || fread(head, 1, sizeof(head), in) != sizeof(head) ||
	    wav_parse_header(head, sizeof(head), &info)) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return -1;
	}
	resampler_init(&r, info.sample_rate, LISTEN_RATE);
	while ((n = fread(buf, sizeof(int16_t), sizeof(buf) / sizeof(buf[0]), in)) > 0) {
		if (info.sample_rate == LISTEN_RATE)
			put_le(out, buf, n);
		else
			resampler_push(&r, buf, n, raw_out, out);
	}
	if (info.sample_rate != LISTEN_RATE)
		resampler_flush(&r, raw_out, out);
	fclose(in);
	return fclose(out);
}

/* This process's CPU time and its children's (an MBROLA voice's mbrola process, the
 * workers), which run while it waits. */
static double cpu_seconds(void)
{
	struct timespec ts;
	double children = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	while (d && (e = readdir(d))) {
		char path[300], buf[1024], *p;
		unsigned long utime, stime;
		int ppid;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
		fclose(f);
		p = strrchr(buf, ')');
		if (p &&
		    sscanf(p + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ppid,
			   &utime, &stime) == 3 &&
		    ppid == getpid())
			children += (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
	}
	if (d)
		closedir(d);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + children;
}

/* How a move's record sounds: its end, its clipping, its sounding frames' power. */
static void measure(const char *wav)
{
	FILE *f = fopen(wav, "rb");
	uint8_t head[WAV_HEADER_SIZE];
	struct wav_info info;
	int16_t s[8192], last = 0;
	double frame = 0;
	size_t in_frame = 0, n, per_frame;
	double powers[4096];
	size_t nf = 0;
	double loudest = 0;

	if (!f || fread(head, 1, sizeof(head), f) != sizeof(head) ||
	    wav_parse_header(head, sizeof(head), &info)) {
		if (f)
			fclose(f);
		return;
	}
	per_frame = info.sample_rate / 50;
	while ((n = fread(s, sizeof(int16_t), sizeof(s) / sizeof(s[0]), f)) > 0)
		for (size_t i = 0; i < n; i++) {
			moves.clipped += s[i] >= 32767 || s[i] <= -32768;
			moves.samples++;
			frame += (double)s[i] * s[i];
			last = s[i];
			if (++in_frame == per_frame) {
				if (nf < sizeof(powers) / sizeof(powers[0]))
					powers[nf++] = frame / (double)per_frame;
				frame = 0;
				in_frame = 0;
			}
		}
	fclose(f);
	moves.clicks += abs(last) > LEVEL;
	for (size_t i = 0; i < nf; i++)
		if (powers[i] > loudest)
			loudest = powers[i];
	for (size_t i = 0; i < nf; i++)
		if (powers[i] * 1000 >= loudest) {
			moves.power_sum += powers[i];
			moves.frames++;
		}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int say(struct voice *v, const char *dir, const char *id, const struct utterance *u,
	       FILE *refs)
{
	char wav[512], raw[512], norm[UTTERANCE_TEXT_MAX];
	bool move = strncmp(id, "prompt-", 7) != 0;
	struct voice_stats st;
	double cpu = cpu_seconds();

	snprintf(wav, sizeof(wav), "%s/said.wav", dir);
	snprintf(raw, sizeof(raw), "%s/%s.raw", dir, id);
	unlink(wav);
	voice_record_to(v, wav);
	voice_say_utterance(v, VOICE_PUBLIC, VOICE_KIND_MOVE, u, 100, 0);
	voice_record_to(v, NULL);
	voice_wait_idle(v);
	if (move && moves.said < SAID_MAX) {
		moves.cpu_s += cpu_seconds() - cpu;
		voice_get_stats(v, &st);
		moves.first_ns[moves.said++] = st.last_first_sample_ns;
		measure(wav);
	}
	if (convert(wav, raw))
		return -1;
	normalize(u->text, norm, sizeof(norm));
	fprintf(refs, "%s\t%s\n", id, norm);
	learn(u->text);
	return 0;
}

int main(int argc, char **argv)
{
	static char prompts[PHRASE_ID_COUNT][UTTERANCE_TEXT_MAX];
	struct voice_config cfg;
	struct phrase_options o;
	struct voice_stats st;
	char dir[400], path[512], err[200];
	struct voice *v;
	FILE *refs;
	int nprompts = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: bench_listen OUT VOICE GAME.pgn...\n");
		return 2;
	}
	chess_init();
	snprintf(dir, sizeof(dir), "%s/%s", argv[1], argv[2]);
	if ((mkdir(argv[1], 0755) && errno != EEXIST) || (mkdir(dir, 0755) && errno != EEXIST))
		return 1;
	voice_config_defaults(&cfg);
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%.200s", dir);
	cfg.notice_lang = PHRASE_EN; /* the guidance below is English */
	if (strcmp(argv[2], "de"))
		snprintf(cfg.voice_name[PHRASE_DE], sizeof(cfg.voice_name[0]), "%s", argv[2]);
	v = voice_start(&cfg, err, sizeof(err));
	if (!v) {
		fprintf(stderr, "bench_listen: %s\n", err);
		return 1;
	}
	voice_get_stats(v, &st);
	if (st.fell_back) {
		voice_stop(v);
		return 3; /* not installed: the warning said why */
	}
	snprintf(path, sizeof(path), "%s/refs.txt", dir);
	refs = fopen(path, "w");
	if (!refs)
		return 1;
	/* Every word the grammar has, said or not. */
	learn("König Dame Turm Läufer Springer Bauer schlägt en passant Kurze Lange Rochade "
	      "Schach Matt Anna Bella Cesar David Eva Felix Gustav Hector eins zwei drei vier "
	      "fünf sechs sieben acht");
	phrase_options_defaults(&o);
	o.announce_check = true;
	for (int g = 3; g < argc; g++) {
		struct pgn_game game;

		if (bench_read_game(argv[g], &game)) {
			fprintf(stderr, "bench_listen: %s: no game\n", argv[g]);
			return 1;
		}
		struct chess_pos pos = game.game.start;

		for (int i = 0; i < game.game.count; i++) {
			struct utterance u;
			struct chess_undo undo;
			char id[32];

			utterance_clear(&u);
			phrase_add_move(&u, &o, &pos, game.game.moves[i]);
			snprintf(id, sizeof(id), "g%d-p%03d", g - 2, i + 1);
			if (say(v, dir, id, &u, refs))
				return 1;
			chess_pos_make(&pos, game.game.moves[i], &undo);
		}
		pgn_game_free(&game);
	}
	for (int id = 0; id < PHRASE_ID_COUNT; id++) {
		const char *t = phrase_text(PHRASE_DE, (enum phrase_id)id);
		struct utterance u;
		char name[32];

		if (strchr(t, '{') || !t[0])
			continue;
		utterance_clear(&u);
		phrase_add(&u, &o, (enum phrase_id)id, &(struct phrase_args){0});
		normalize(u.text, prompts[nprompts], sizeof(prompts[0]));
		snprintf(name, sizeof(name), "prompt-%03d", id);
		if (prompts[nprompts][0] && say(v, dir, name, &u, refs) == 0)
			nprompts++;
	}
	fclose(refs);
	/* English guidance, German words in it, as an English interface says it. */
	o.lang = PHRASE_EN;
	snprintf(path, sizeof(path), "%s/said.wav", dir);
	voice_record_to(v, path); /* said only when heard (a sink) or kept */
	for (int sq = 0; sq < 64; sq += 3) {
		struct utterance u;

		utterance_clear(&u);
		phrase_add(&u, &o, PHRASE_SQUARE_OCCUPIED,
			   &(struct phrase_args){.square = sq, .piece = CHESS_BISHOP});
		voice_say_utterance(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, 0);
		voice_wait_idle(v);
	}
	voice_record_to(v, NULL);
	voice_wait_idle(v);
	voice_get_stats(v, &st);
	voice_stop(v);
	if (moves.said && moves.samples) {
		const char *name = argv[2];
		char key[48];
		size_t k = 0;

		for (const char *p = name; *p && k + 1 < sizeof(key); p++)
			key[k++] = *p == '-' ? '_' : *p;
		key[k] = '\0';
		qsort(moves.first_ns, (size_t)moves.said, sizeof(uint64_t), cmp_u64);
		printf("bench listen_%s_rate %u Hz\n", key, st.sample_rate);
		printf("bench listen_%s_end_clicks %d of_%d\n", key, moves.clicks, moves.said);
		printf("bench listen_%s_clipped %llu samples\n", key,
		       (unsigned long long)moves.clipped);
		printf("bench listen_%s_level %.1f dBFS\n", key,
		       10 * log10(moves.power_sum / (double)moves.frames / (32768.0 * 32768.0)));
		printf("bench listen_%s_cpu_per_audio_s %.4f s\n", key,
		       moves.cpu_s / ((double)moves.samples / st.sample_rate));
		printf("bench listen_%s_first_sample_p50 %.2f ms\n", key,
		       (double)moves.first_ns[moves.said / 2] / 1e6);
		printf("bench listen_%s_joint_wait_max %.1f ms\n", key,
		       st.joint_wait_max_us / 1000.0);
	}
	snprintf(path, sizeof(path), "%s/said.wav", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/words.dict", argv[1]);
	if (write_dict(path))
		return 1;
	snprintf(path, sizeof(path), "%s/grammar.jsgf", argv[1]);
	return write_grammar(path, prompts, nprompts) ? 1 : 0;
}
