/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The voice thread's synthesis (docs/speech.md "Voices"): eSpeak NG in process, each
 * language's voice tried at start and its falling back said, a segment of an utterance said
 * in its language's voice (in process, by the language's worker, or by a spawned espeak-ng
 * with the process engine), and a chosen voice that says nothing loaded again or replaced by
 * the language's own.  Its samples go to voice_seg_chunk() (voice_thread.c).
 */
#include "voice/voice_int.h"

#include <errno.h>
#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/log.h"
#include "voice/phonemes.h"
#include "voice/pronounce.h"

static int synth_callback(short *wav, int numsamples, espeak_EVENT *events)
{
	struct voice *v = events != NULL ? events->user_data : NULL;

	if (v == NULL)
		return 0;
	if (voice_current_aborted(v))
		return 1;
	if (wav == NULL || numsamples <= 0)
		return 0;
	voice_seg_chunk(v, wav, (size_t)numsamples);
	return voice_current_aborted(v) ? 1 : 0;
}

/* eSpeak NG is set up once per process (voice/phonemes.c).  Voices come one after another
 * (pthread_join orders them), so plain statics suffice. */
static char espeak_loaded_voice[48];

static void espeak_start(struct voice *v)
{
	int espeak_rate = voice_espeak_init(VOICE_ESPEAK_BUFFER_MS);

	if (espeak_rate <= 0) {
		log_error(LOG_VOICE,
			  "eSpeak NG cannot start (data missing?): nothing will be heard");
		v->sample_rate = 22050;
		v->espeak_ok = false;
		return;
	}
	v->sample_rate = espeak_rate;
	v->espeak_ok = true;
	/* Parameters are ours to set again for this voice. */
	espeak_loaded_voice[0] = '\0';
}

/* Load lang's voice with the channel's variant, and set the channel's parameters. */
bool voice_espeak_use(struct voice *v, enum phrase_lang lang, enum voice_channel ch,
		      int rate_percent)
{
	const struct voice_params *p = &v->cfg.params[ch];
	const struct lang_voice *lv = &v->langs[(unsigned)lang < PHRASE_LANG_COUNT ? lang : 0];
	char name[sizeof(espeak_loaded_voice)];
	int rate = p->rate * rate_percent / 100;

	/* A variant is a formant voice's; MBROLA's voices have their own sound. */
	if (p->variant[0] && !lv->mbrola)
		snprintf(name, sizeof(name), "%s+%s", lv->name, p->variant);
	else
		snprintf(name, sizeof(name), "%s", lv->name);
	if (strcmp(espeak_loaded_voice, name) != 0) {
		if (espeak_SetVoiceByName(name) != EE_OK) {
			log_warn(LOG_VOICE, "eSpeak NG has no voice \"%s\"", name);
			/* Never another voice for a chosen one (its rate may differ): the caller
			 * falls back to the language's own. */
			if (espeak_SetVoiceByName(lv->name) != EE_OK &&
			    (lv->named || espeak_SetVoiceByName("de") != EE_OK)) {
				espeak_loaded_voice[0] = '\0';
				return false;
			}
		}
		snprintf(espeak_loaded_voice, sizeof(espeak_loaded_voice), "%s", name);
	}
	/* A voice brings its own defaults; ours come after it. */
	espeak_SetParameter(espeakRATE, rate < 80 ? 80 : rate, 0);
	espeak_SetParameter(espeakPITCH, p->pitch, 0);
	espeak_SetParameter(espeakVOLUME, p->volume * lv->volume_percent / 100, 0);
	v->seg_voice = lv;
	return true;
}

/* The voice's own notice: lang's chosen voice cannot speak, the language's own does (said
 * privately once, logged once). */
static void voice_fell_back(struct voice *v, enum phrase_lang lang, const char *asked,
			    const char *why)
{
	struct phrase_options o;
	struct utterance u;

	if (v->lang_noticed[lang])
		return;
	v->lang_noticed[lang] = true;
	pthread_mutex_lock(&v->lock);
	v->stats.fell_back |= 1u << lang;
	pthread_mutex_unlock(&v->lock);
	log_warn(LOG_VOICE, "voice-%s = %s: %s; eSpeak NG's own voice %s speaks instead",
		 phrase_lang_code(lang), asked, why, phrase_lang_code(lang));
	phrase_options_defaults(&o);
	o.lang = v->cfg.notice_lang;
	utterance_clear(&u);
	phrase_add(&u, &o, PHRASE_VOICE_FALLBACK, &(struct phrase_args){0});
	voice_say_utterance(v, VOICE_PRIVATE, VOICE_KIND_PROMPT, &u, 100, v->current.time_ms);
}

/* A variant eSpeak NG does not have is no sound of its own: eSpeak NG would say the plain
 * voice without a word (variant = mb-de6 did).  Logged, and the plain voice used. */
static void variants_check(struct voice *v)
{
	for (int ch = 0; ch < VOICE_CHANNEL_COUNT; ch++) {
		char *variant = v->cfg.params[ch].variant;

		if (variant[0] && !lang_voice_variant_exists(variant)) {
			log_warn(LOG_VOICE,
				 "%s variant = %s: eSpeak NG has no such variant (a voice is "
				 "voice-de = ...); the voice's own sound is used",
				 voice_channel_names[ch], variant);
			variant[0] = '\0';
			v->stats.variants_unknown |= 1u << ch;
		}
	}
}

/* Each language's voice tried before the first word; the sinks' and the record's rate is
 * then the German voice's, which says the moves. */
static void voices_check(struct voice *v)
{
	variants_check(v);
	for (int l = 0; l < PHRASE_LANG_COUNT; l++) {
		char why[160];

		if (lang_voice_try(&v->langs[l], (enum phrase_lang)l, v->cfg.voice_name[l],
				   v->cfg.params[VOICE_PUBLIC].volume, why, sizeof(why)))
			voice_fell_back(v, (enum phrase_lang)l, v->cfg.voice_name[l], why);
		else if (v->langs[l].named)
			log_info(LOG_VOICE,
				 "voice-%s = %s: %u Hz, gain %.1f dB at %d %% of the volume",
				 phrase_lang_code((enum phrase_lang)l), v->langs[l].name,
				 v->langs[l].rate, 20 * log10(v->langs[l].gain),
				 v->langs[l].volume_percent);
	}
	/* Loading an MBROLA voice starts mbrola again: beside one, every other language keeps
	 * its voice loaded in a process of its own; the moves' German stays here. */
	for (int l = PHRASE_EN; l < PHRASE_LANG_COUNT; l++)
		v->langs[l].apart = v->langs[PHRASE_DE].mbrola || v->langs[l].mbrola;
	v->sample_rate = (int)v->langs[PHRASE_DE].rate;
	pthread_mutex_lock(&v->lock);
	v->stats.sample_rate = (unsigned)v->sample_rate;
	pthread_mutex_unlock(&v->lock);
	espeak_loaded_voice[0] = '\0';
	espeak_SetSynthCallback(synth_callback);
}

size_t voice_segment_input(const struct pronounce_table *t, const struct utterance *u, int i,
			   char *buf, size_t size)
{
	char words[UTTERANCE_TEXT_MAX + 2];
	size_t n = utterance_segment_text(u, i, words, sizeof(words) - 1);

	if (n >= sizeof(words) - 1)
		n = strlen(words);
	if (i + 1 < u->count) {
		words[n++] = ',';
		words[n] = '\0';
	}
	return pronounce_apply(t, i >= 0 && i < u->count ? u->seg[i].lang : PHRASE_DE, words, buf,
			       size);
}

extern char **environ;

/* The process engine: `espeak-ng --stdout` spawned for one segment, its WAV read (the
 * 44-byte header skipped) and passed on as the library's samples are.  Stopped early when
 * the utterance is superseded. */
static void spawn_segment(struct voice *v, const char *voice, enum voice_channel ch,
			  int rate_percent, char *text)
{
	const struct voice_params *p = &v->cfg.params[ch];
	char voice_name[64], rate[16], pitch[16], amplitude[16];
	char *argv[] = {"espeak-ng", "-v",	voice_name, "-s", rate, "-p", pitch,
			"-a",	     amplitude, "--stdout", "--", text, NULL};
	int fds[2], status, rc, r = p->rate * rate_percent / 100;
	posix_spawn_file_actions_t fa;
	short buf[1024];
	size_t skip = 44, have = 0;
	pid_t pid;

	if (p->variant[0] && !v->seg_voice->mbrola)
		snprintf(voice_name, sizeof(voice_name), "%s+%s", voice, p->variant);
	else
		snprintf(voice_name, sizeof(voice_name), "%s", voice);
	snprintf(rate, sizeof(rate), "%d", r < 80 ? 80 : r);
	snprintf(pitch, sizeof(pitch), "%d", p->pitch);
	snprintf(amplitude, sizeof(amplitude), "%d",
		 p->volume * v->seg_voice->volume_percent / 100);
	if (pipe2(fds, O_CLOEXEC)) {
		log_warn(LOG_VOICE, "espeak-ng: pipe: %s", strerror(errno));
		return;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "espeak-ng", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		log_warn(LOG_VOICE, "espeak-ng: %s", strerror(rc));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	close(fds[1]);
	for (;;) {
		ssize_t n = read(fds[0], (char *)buf + have, sizeof(buf) - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || voice_current_aborted(v))
			break;
		have += (size_t)n;
		if (skip) {
			size_t k = have < skip ? have : skip;

			memmove(buf, (char *)buf + k, have - k);
			have -= k;
			skip -= k;
		}
		if (have >= sizeof(short)) {
			size_t samples = have / sizeof(short);

			voice_seg_chunk(v, buf, samples);
			memmove(buf, (char *)buf + samples * sizeof(short),
				have - samples * sizeof(short));
			have -= samples * sizeof(short);
		}
	}
	if (voice_current_aborted(v))
		kill(pid, SIGTERM);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* The voice lang's worker loads for a channel of parameters p (a formant voice's variant). */
static void worker_voice_name(const struct voice *v, enum phrase_lang lang,
			      const struct voice_params *p, char *name, size_t size)
{
	const struct lang_voice *lv = &v->langs[lang];

	if (p->variant[0] && !lv->mbrola)
		snprintf(name, size, "%s+%s", lv->name, p->variant);
	else
		snprintf(name, size, "%s", lv->name);
}

static void worker_chunk(void *ctx, const short *wav, size_t n)
{
	voice_seg_chunk(ctx, wav, n);
}

static bool worker_stop_asked(void *ctx)
{
	return voice_current_aborted(ctx);
}

/* input said by lang's worker, started first if it does not run (or runs another variant). */
static void say_apart(struct voice *v, enum phrase_lang lang, const char *input)
{
	const struct voice_params *p = &v->cfg.params[v->current.ch];
	struct voice_worker *w = &v->workers[lang];
	const struct lang_voice *lv = &v->langs[lang];
	int rate = p->rate * v->current.rate_percent / 100;
	char name[sizeof(w->name)], why[160];

	worker_voice_name(v, lang, p, name, sizeof(name));
	if (w->pid > 0 && strcmp(w->name, name))
		voice_worker_stop(w);
	if (w->pid <= 0 && voice_worker_start(w, name, why, sizeof(why))) {
		log_warn(LOG_VOICE, "voice %s: %s", name, why);
		return;
	}
	voice_worker_say(w, input, rate < 80 ? 80 : rate, p->pitch,
			 p->volume * lv->volume_percent / 100, worker_chunk, worker_stop_asked, v);
}

/* Segment i of the current utterance in lang's voice: its samples (0: it said nothing). */
static uint64_t say_segment(struct voice *v, enum phrase_lang lang, int i)
{
	struct item *it = &v->current;
	char input[2 * UTTERANCE_TEXT_MAX + 16];
	size_t n;

	if (v->langs[lang].apart)
		v->seg_voice = &v->langs[lang];
	else if (!voice_espeak_use(v, lang, it->ch, it->rate_percent))
		return 0;
	n = voice_segment_input(&v->cfg.pronounce, &it->u, i, input, sizeof(input));
	/* MBROLA stops where its last sound stops, mid-wave (a click): a pause after it lets the
	 * sound end, and its silence is cut as a joint's. */
	if (v->seg_voice->mbrola && n < sizeof(input))
		snprintf(input + n, sizeof(input) - n, " [[_:_:]]");
	v->seg_trim_end = !v->seg_goes_on && v->seg_voice->mbrola;
	v->seg_samples = 0;
	v->seg_resample = v->seg_voice->rate != (unsigned)v->sample_rate;
	if (v->seg_resample)
		resampler_init(&v->resampler, v->seg_voice->rate, (unsigned)v->sample_rate);
	if (v->cfg.engine == VOICE_ENGINE_PROCESS)
		spawn_segment(v, v->seg_voice->name, it->ch, it->rate_percent, input);
	else if (v->seg_voice->apart)
		say_apart(v, lang, input);
	else
		espeak_Synth(input, strlen(input) + 1, 0, POS_CHARACTER, 0,
			     espeakCHARS_UTF8 | espeakPHONEMES, NULL, v);
	if (v->seg_resample && !voice_current_aborted(v))
		resampler_flush(&v->resampler, voice_resampled, v);
	return v->seg_samples;
}

/* A chosen voice said nothing (its mbrola process died: eSpeak NG reports success with no
 * sound): loaded again, which starts mbrola again; if that says nothing either, the
 * language's own voice speaks from now on. */
void voice_say_segment(struct voice *v, enum phrase_lang lang, int i)
{
	struct lang_voice *lv = &v->langs[lang];
	char asked[VOICE_NAME_MAX];

	if (say_segment(v, lang, i) > 0 || (!lv->named && !lv->apart) || voice_current_aborted(v))
		return;
	espeak_loaded_voice[0] = '\0';
	voice_worker_stop(&v->workers[lang]);
	if (say_segment(v, lang, i) > 0 || voice_current_aborted(v)) {
		log_warn(LOG_VOICE, "voice %s said nothing; loaded again, it speaks", lv->name);
		return;
	}
	if (lv->named) {
		snprintf(asked, sizeof(asked), "%s", lv->name);
		bool apart = lv->apart;

		lang_voice_default(lv, lang);
		lv->apart = apart;
		espeak_loaded_voice[0] = '\0';
		voice_fell_back(v, lang, asked, "it said nothing, also when loaded again");
		if (say_segment(v, lang, i) > 0 || voice_current_aborted(v))
			return;
	}
	/* The language's own voice in a worker that cannot start: here, loaded each time. */
	if (lv->apart) {
		log_warn(LOG_VOICE, "voice %s: said here, loaded at each change of language",
			 lv->name);
		lv->apart = false;
		say_segment(v, lang, i);
	}
}

/* eSpeak NG, each language's voice and the German voice loaded before the first word; the
 * interface language's worker started now, so that its first prompt waits for none. */
void voice_synth_setup(struct voice *v)
{
	espeak_start(v);
	if (!v->espeak_ok)
		return;
	voices_check(v);
	voice_espeak_use(v, PHRASE_DE, VOICE_PUBLIC, 100);
	if (v->langs[v->cfg.notice_lang].apart) {
		struct voice_params *p = &v->cfg.params[VOICE_PRIVATE];
		char name[sizeof(v->workers[0].name)], why[160];

		worker_voice_name(v, v->cfg.notice_lang, p, name, sizeof(name));
		if (voice_worker_start(&v->workers[v->cfg.notice_lang], name, why, sizeof(why)))
			log_warn(LOG_VOICE, "voice %s: %s", name, why);
	}
}

/* New voice parameters taken (SIGHUP): their variants checked, the voice loaded again. */
void voice_synth_params_taken(struct voice *v)
{
	variants_check(v);
	espeak_loaded_voice[0] = '\0'; /* the variant may have changed */
}

/* Whether the moves' (German) voice is the one eSpeak NG has loaded. */
bool voice_moves_voice_loaded(const struct voice *v)
{
	return strncmp(espeak_loaded_voice, v->langs[PHRASE_DE].name,
		       strlen(v->langs[PHRASE_DE].name)) == 0;
}
