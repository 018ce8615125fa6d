/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The listening kit and the phoneme golden: every phrase of every language, moves in each
 * language's settings, durations and numbers, as the daemon would say them.
 *   annabella speech-phonemes     one line per segment: NAME #N LANG: words -> phonemes
 *                                 (tests/speech/phonemes.golden; eSpeak NG 1.51)
 *   annabella speech-samples DIR  DIR/NAME.wav for each, and DIR/index.html with audio
 *                                 elements, each segment marked with its language and
 *                                 phonemes, for a native speaker to review
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "chess/chess.h"
#include "cli/cli.h"
#include "voice/phonemes.h"
#include "voice/phrases.h"
#include "voice/voice.h"

static const struct {
	const char *fen, *uci;
} corpus_moves[] = {
    {CHESS_FEN_START, "g1f3"},
    {CHESS_FEN_START, "e2e4"},
    {"4k3/8/8/1p6/8/8/8/4KB2 w - - 0 1", "f1b5"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"},
    {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"},
    {"3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q"},
    {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"},
    {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"},
    {"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2"},
};
#define CORPUS_MOVES	 (int)(sizeof(corpus_moves) / sizeof(corpus_moves[0]))
#define CORPUS_MOVE_SETS 2 /* long form; short form with national numerals */
static const uint64_t corpus_durations[] = {0, 400, 4200, 59000, 3723000};
#define CORPUS_DURATIONS (int)(sizeof(corpus_durations) / sizeof(corpus_durations[0]))
static const int corpus_counts[] = {1, 21, 101, 1001};
#define CORPUS_COUNTS (int)(sizeof(corpus_counts) / sizeof(corpus_counts[0]))
#define CORPUS_PER_LANG                                                                            \
	(PHRASE_ID_COUNT + CORPUS_MOVES * CORPUS_MOVE_SETS + CORPUS_DURATIONS + CORPUS_COUNTS)

/* Item i of the corpus: its name and utterance; -1 past the end. */
static int corpus_item(int i, char *name, size_t size, struct utterance *u)
{
	enum phrase_lang lang = (enum phrase_lang)(i / CORPUS_PER_LANG);
	int k = i % CORPUS_PER_LANG;
	struct phrase_options o;
	struct phrase_args a = {.square = CHESS_SQ(6, 0),
				.piece = CHESS_KNIGHT,
				.time_ms = 4200,
				.white_ms = 3720000,
				.black_ms = 185000,
				.count = 101};

	if (i < 0 || lang >= PHRASE_LANG_COUNT)
		return -1;
	phrase_options_defaults(&o);
	o.lang = lang;
	o.announce_check = true;
	utterance_clear(u);
	if (k < PHRASE_ID_COUNT) {
		snprintf(name, size, "%s-phrase-%02d", phrase_lang_code(lang), k);
		phrase_add(u, &o, (enum phrase_id)k, &a);
		return 0;
	}
	k -= PHRASE_ID_COUNT;
	if (k < CORPUS_MOVES * CORPUS_MOVE_SETS) {
		struct chess_pos pos;
		struct chess_error err;
		chess_move m;
		int set = k / CORPUS_MOVES;

		k %= CORPUS_MOVES;
		o.short_form = set == 1;
		o.national_ranks = set == 1;
		snprintf(name, size, "%s-move-%s-%02d", phrase_lang_code(lang),
			 set ? "short-national" : "long", k);
		if (chess_fen_parse(&pos, corpus_moves[k].fen, &err) ||
		    chess_move_parse_uci(&pos, corpus_moves[k].uci, &m))
			return -1;
		phrase_add_move(u, &o, &pos, m);
		return 0;
	}
	k -= CORPUS_MOVES * CORPUS_MOVE_SETS;
	if (k < CORPUS_DURATIONS) {
		snprintf(name, size, "%s-time-%llu", phrase_lang_code(lang),
			 (unsigned long long)corpus_durations[k]);
		a.time_ms = corpus_durations[k];
		phrase_add(u, &o, PHRASE_TIME_LEFT, &a);
		return 0;
	}
	k -= CORPUS_DURATIONS;
	snprintf(name, size, "%s-count-%d", phrase_lang_code(lang), corpus_counts[k]);
	a.count = corpus_counts[k];
	phrase_add(u, &o, PHRASE_MOVES_PLAYED, &a);
	return 0;
}

/* One line per segment: NAME #N LANG: words -> phonemes. */
static void segment_line(FILE *f, const char *name, const struct utterance *u, int s, bool html)
{
	char words[UTTERANCE_TEXT_MAX], input[2 * UTTERANCE_TEXT_MAX], ph[4 * UTTERANCE_TEXT_MAX];

	utterance_segment_text(u, s, words, sizeof(words));
	voice_segment_input(NULL, u, s, input, sizeof(input));
	voice_phonemes(u->seg[s].lang, input, ph, sizeof(ph));
	if (html)
		fprintf(f, "<li lang=\"%s\">%s: %s <code>[%s]</code></li>\n",
			phrase_lang_code(u->seg[s].lang), phrase_lang_code(u->seg[s].lang), words,
			ph);
	else
		fprintf(f, "%s #%d %s: %s -> %s\n", name, s + 1, phrase_lang_code(u->seg[s].lang),
			words, ph);
}

void cli_speech_phonemes_usage(FILE *f)
{
	fprintf(f, "usage: annabella speech-phonemes\n");
}

int cli_speech_phonemes(int argc, char **argv)
{
	struct utterance u;
	char name[64];

	(void)argv;
	if (argc != 0) {
		cli_speech_phonemes_usage(stderr);
		return 2;
	}
	chess_init();
	if (voice_espeak_init(20) <= 0) {
		log_error(LOG_MAIN, "eSpeak NG cannot start");
		return 1;
	}
	printf("# eSpeak NG %s\n", voice_espeak_version());
	for (int i = 0; corpus_item(i, name, sizeof(name), &u) == 0; i++)
		for (int s = 0; s < u.count; s++)
			segment_line(stdout, name, &u, s, false);
	return 0;
}

void cli_speech_samples_usage(FILE *f)
{
	fprintf(f, "usage: annabella speech-samples DIR\n");
}

int cli_speech_samples(int argc, char **argv)
{
	struct voice_config cfg;
	struct utterance u;
	struct voice *v;
	char name[64], path[600], err[256];
	FILE *index;

	if (argc != 1) {
		cli_speech_samples_usage(stderr);
		return 2;
	}
	chess_init();
	if (mkdir(argv[0], 0755) && errno != EEXIST) {
		log_error(LOG_MAIN, "%s: %s", argv[0], strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/index.html", argv[0]);
	index = fopen(path, "w");
	if (!index) {
		log_error(LOG_MAIN, "%s: %s", path, strerror(errno));
		return 1;
	}
	/* The phonemes first: eSpeak NG is the voice thread's once it runs. */
	fprintf(index,
		"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		"<title>annabella: speech samples</title></head><body>\n"
		"<h1>annabella speech samples (eSpeak NG %s)</h1>\n"
		"<p>Each sample: the text, then each segment with the language of its "
		"voice and the phonemes eSpeak NG says.</p>\n",
		voice_espeak_version());
	for (int i = 0; corpus_item(i, name, sizeof(name), &u) == 0; i++) {
		fprintf(index,
			"<h2 id=\"%s\">%s</h2>\n<p>%s</p>\n<audio controls src=\"%s.wav\">"
			"</audio>\n<ul>\n",
			name, name, u.text, name);
		for (int s = 0; s < u.count; s++)
			segment_line(index, name, &u, s, true);
		fprintf(index, "</ul>\n");
	}
	fprintf(index, "</body></html>\n");
	if (fclose(index)) {
		log_error(LOG_MAIN, "%s: %s", path, strerror(errno));
		return 1;
	}
	voice_config_defaults(&cfg);
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", argv[0]);
	v = voice_start(&cfg, err, sizeof(err));
	if (!v) {
		log_error(LOG_MAIN, "%s", err);
		return 1;
	}
	for (int i = 0; corpus_item(i, name, sizeof(name), &u) == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s.wav", argv[0], name);
		unlink(path);
		voice_record_to(v, path);
		voice_say_utterance(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, (uint64_t)i);
		voice_record_to(v, NULL);
		voice_wait_idle(v);
	}
	voice_stop(v);
	printf("%s/index.html\n", argv[0]);
	return 0;
}
