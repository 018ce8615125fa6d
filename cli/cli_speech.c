/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The listening kit and the phoneme golden: every phrase of every language, moves in each
 * language's settings, durations and numbers, as the daemon would say them.
 *   annabella speech-phonemes     one line per segment: NAME #N LANG: words -> phonemes
 *                                 (tests/speech/phonemes.golden; eSpeak NG 1.51)
 *   annabella speech-samples [--voice LANG=VOICE]... DIR
 *                                 DIR/NAME.wav for each, and DIR/index.html with audio
 *                                 elements, each segment marked with its language and
 *                                 phonemes, for a native speaker to review; with --voice,
 *                                 said by that eSpeak NG voice (de=mb-de6: the MBROLA
 *                                 voice, as [voice] voice-de), to hear it before choosing
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "chess/chess.h"
#include "cli/cli.h"
#include "voice/corpus.h"
#include "voice/phonemes.h"
#include "voice/phrases.h"
#include "voice/voice.h"

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
	for (int i = 0; speech_corpus_item(i, name, sizeof(name), &u) == 0; i++)
		for (int s = 0; s < u.count; s++)
			segment_line(stdout, name, &u, s, false);
	return 0;
}

void cli_speech_samples_usage(FILE *f)
{
	fprintf(f, "usage: annabella speech-samples [--voice LANG=VOICE]... DIR\n");
}

/* Each --voice LANG=VOICE in front into cfg, *argc and *argv past them: 0, or 2 (said). */
static int voice_options(int *argc, char ***argv, struct voice_config *cfg)
{
	while (*argc >= 2 && !strcmp((*argv)[0], "--voice")) {
		const char *arg = (*argv)[1], *eq = strchr(arg, '=');
		char code[3] = "";
		int lang;

		if (eq && eq - arg == 2)
			memcpy(code, arg, 2);
		lang = phrase_lang_parse(code);
		if (lang < 0 || strlen(eq + 1) >= sizeof(cfg->voice_name[0])) {
			fprintf(stderr,
				"annabella speech-samples: --voice %s: give LANG=VOICE, "
				"LANG de, en, sv or nl (de=mb-de6)\n",
				arg);
			return 2;
		}
		snprintf(cfg->voice_name[lang], sizeof(cfg->voice_name[lang]), "%s", eq + 1);
		*argc -= 2;
		*argv += 2;
	}
	return 0;
}

/* DIR/index.html: each sample's text, audio and segments.  The phonemes first: eSpeak NG is
 * the voice thread's once it runs.  0, or 1 (said). */
static int write_index(const char *dir)
{
	struct utterance u;
	char name[64], path[600];
	FILE *index;

	snprintf(path, sizeof(path), "%s/index.html", dir);
	index = fopen(path, "w");
	if (!index) {
		log_error(LOG_MAIN, "%s: %s", path, strerror(errno));
		return 1;
	}
	fprintf(index,
		"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		"<title>annabella: speech samples</title></head><body>\n"
		"<h1>annabella speech samples (eSpeak NG %s)</h1>\n"
		"<p>Each sample: the text, then each segment with the language of its "
		"voice and the phonemes eSpeak NG says.</p>\n",
		voice_espeak_version());
	for (int i = 0; speech_corpus_item(i, name, sizeof(name), &u) == 0; i++) {
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
	return 0;
}

/* DIR/NAME.wav for each sample, said by the voice thread as the daemon says them: 0, or 1
 * (said). */
static int record_samples(struct voice_config *cfg, const char *dir)
{
	struct utterance u;
	struct voice_stats st;
	struct voice *v;
	char name[64], path[600], err[256];

	snprintf(cfg->state_dir, sizeof(cfg->state_dir), "%s", dir);
	v = voice_start(cfg, err, sizeof(err));
	if (!v) {
		log_error(LOG_MAIN, "%s", err);
		return 1;
	}
	voice_get_stats(v, &st);
	if (st.fell_back) {
		/* The voice's warning said which and why: samples of another voice mislead. */
		voice_stop(v);
		return 1;
	}
	for (int i = 0; speech_corpus_item(i, name, sizeof(name), &u) == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s.wav", dir, name);
		unlink(path);
		voice_record_to(v, path);
		voice_say_utterance(v, VOICE_PUBLIC, VOICE_KIND_MOVE, &u, 100, (uint64_t)i);
		voice_record_to(v, NULL);
		voice_wait_idle(v);
	}
	voice_stop(v);
	return 0;
}

int cli_speech_samples(int argc, char **argv)
{
	struct voice_config cfg;

	voice_config_defaults(&cfg);
	if (voice_options(&argc, &argv, &cfg))
		return 2;
	if (argc != 1 || argv[0][0] == '-') { /* an option it does not know is no folder */
		cli_speech_samples_usage(stderr);
		return 2;
	}
	chess_init();
	if (mkdir(argv[0], 0755) && errno != EEXIST) {
		log_error(LOG_MAIN, "%s: %s", argv[0], strerror(errno));
		return 1;
	}
	if (write_index(argv[0]) || record_samples(&cfg, argv[0]))
		return 1;
	printf("%s/index.html\n", argv[0]);
	return 0;
}
