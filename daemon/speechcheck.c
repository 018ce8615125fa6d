/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/speechcheck.h"

#include <stdio.h>

#include "base/log.h"
#include "voice/corpus.h"
#include "voice/pronounce_check.h"

static const char *const voice_names[PHRASE_LANG_COUNT] = {"German", "English", "Swedish", "Dutch"};

int speechcheck_pronounce(const struct config *cfg, char *err, size_t err_size)
{
	const struct pronounce_table *t = &cfg->voice.pronounce;

	for (int i = 0; i < t->count; i++) {
		const struct pronounce_entry *e = &t->user[i];
		const struct config_place *at = &cfg->pronounce_at[i];
		const char *voice =
		    voice_names[(unsigned)e->lang < PHRASE_LANG_COUNT ? e->lang : 0];
		struct pronounce_verdict v;
		enum phrase_lang other = PHRASE_DE;

		if (pronounce_check(e, &v)) {
			snprintf(err, err_size,
				 "%s:%d: pronounce %s: eSpeak NG cannot start to try it", at->file,
				 at->line, e->word);
			return -1;
		}
		if (cfg->pronounce_replaced[i].line)
			log_warn(LOG_VOICE,
				 "%s:%d: pronounce %s given again for the %s voice: it replaces "
				 "the one of %s:%d (the last one given is said)",
				 at->file, at->line, e->word, voice,
				 cfg->pronounce_replaced[i].file, cfg->pronounce_replaced[i].line);
		if (speech_corpus_says(e->lang, e->word, &other) == 0)
			log_warn(
			    LOG_VOICE,
			    "%s:%d: pronounce-%s %s: the %s voice never says '%s' (the %s voice "
			    "does: pronounce-%s)",
			    at->file, at->line, phrase_lang_code(e->lang), e->word, voice, e->word,
			    voice_names[other], phrase_lang_code(other));
		if (!v.accepted) {
			snprintf(err, err_size,
				 "%s:%d: pronounce %s = %s: the %s voice of eSpeak NG reads only "
				 "'%s' of it (a phoneme it does not know; see espeak-ng -x -v %s)",
				 at->file, at->line, e->word, e->phonemes, voice, v.read,
				 phrase_lang_code(e->lang));
			return -1;
		}
		if (v.short_sound)
			log_warn(LOG_VOICE,
				 "%s:%d: pronounce %s = %s sounds %u ms, the word itself %u ms in "
				 "the %s voice: far shorter, check the phonemes",
				 at->file, at->line, e->word, e->phonemes, v.phonemes_ms, v.word_ms,
				 voice);
		else
			log_info(LOG_VOICE, "%s:%d: pronounce %s = %s: %u ms (the word: %u ms)",
				 at->file, at->line, e->word, e->phonemes, v.phonemes_ms,
				 v.word_ms);
	}
	return 0;
}
