/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "voice/worker.h"

#include <errno.h>
#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/timeutil.h"
#include "voice/phonemes.h"

#define WORKER_ENV "ANNABELLA_VOICE_WORKER"
#define WORKER_FD  3

/* A request: its mark, the parameters, then len bytes of text.  A stop the voice thread
 * sent as the text ended arrives before the next request: the worker skips it. */
#define WORKER_REQUEST 0x51455241 /* "AREQ" */
#define WORKER_STOP    's'

struct worker_request {
	int32_t mark, len, rate, pitch, volume;
};

/* The worker's replies: a count of samples that follow; 0 ends a text. */
struct worker_frame {
	int32_t n;
};

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Read n bytes, waiting at most ms for each part; -1 on EOF, error or silence. */
static int read_all(int fd, void *buf, size_t n, int ms)
{
	char *p = buf;

	while (n > 0) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		ssize_t k;
		int rc = ms < 0 ? 1 : poll(&pfd, 1, ms);

		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			return -1;
		k = recv(fd, p, n, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* ---------------------------------------------------------------- the worker */

static int worker_fd = -1;
static bool worker_stopped;

static int worker_callback(short *wav, int n, espeak_EVENT *events)
{
	struct worker_frame f = {n};
	char c;

	(void)events;
	/* The voice thread sends nothing but a stop while a text is said. */
	if (recv(worker_fd, &c, 1, MSG_DONTWAIT) == 1)
		worker_stopped = true;
	if (worker_stopped)
		return 1;
	if (wav && n > 0 &&
	    (write_all(worker_fd, &f, sizeof(f)) ||
	     write_all(worker_fd, wav, sizeof(short) * (size_t)n)))
		_exit(0);
	return 0;
}

static int worker_main(const char *name)
{
	struct worker_frame hello = {-1};
	const espeak_VOICE *cur;
	char *text = NULL;

	worker_fd = WORKER_FD;
	signal(SIGPIPE, SIG_IGN);
	if (espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, VOICE_ESPEAK_BUFFER_MS, NULL,
			      espeakINITIALIZE_DONT_EXIT) > 0 &&
	    espeak_SetVoiceByName(name) == EE_OK && (cur = espeak_GetCurrentVoice()) != NULL)
		hello.n = espeak_ng_GetSampleRate();
	espeak_SetSynthCallback(worker_callback);
	if (write_all(worker_fd, &hello, sizeof(hello)) || hello.n <= 0)
		return 1;
	for (;;) {
		struct worker_request rq;
		struct worker_frame end = {0};
		char *more;

		unsigned char first = WORKER_STOP;

		while (first == WORKER_STOP)
			if (read_all(worker_fd, &first, 1, -1))
				return 0;
		memcpy(&rq, &first, 1);
		if (read_all(worker_fd, (char *)&rq + 1, sizeof(rq) - 1, -1) ||
		    rq.mark != WORKER_REQUEST || rq.len < 0 || rq.len > 65536)
			return 0;
		more = realloc(text, (size_t)rq.len + 1);
		if (!more)
			return 1;
		text = more;
		if (read_all(worker_fd, text, (size_t)rq.len, -1))
			return 0;
		text[rq.len] = '\0';
		espeak_SetParameter(espeakRATE, rq.rate, 0);
		espeak_SetParameter(espeakPITCH, rq.pitch, 0);
		espeak_SetParameter(espeakVOLUME, rq.volume, 0);
		worker_stopped = false;
		espeak_Synth(text, (size_t)rq.len + 1, 0, POS_CHARACTER, 0,
			     espeakCHARS_UTF8 | espeakPHONEMES, NULL, NULL);
		if (write_all(worker_fd, &end, sizeof(end)))
			return 0;
	}
}

/* Any program linked with voice/ is a worker when started as one: before main(). */
__attribute__((constructor)) static void worker_maybe(void)
{
	const char *name = getenv(WORKER_ENV);

	if (name && *name)
		_exit(worker_main(name));
}

/* ---------------------------------------------------------------- the voice thread's side */

extern char **environ;

int voice_worker_start(struct voice_worker *w, const char *name, char *why, size_t why_size)
{
	char env_voice[sizeof(WORKER_ENV) + VOICE_NAME_MAX + 1];
	char arg0[] = "annabella-voice";
	char *argv[] = {arg0, NULL};
	char **envp;
	size_t n = 0, k = 0;
	posix_spawn_file_actions_t fa;
	struct worker_frame hello;
	int sv[2], rc;

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	snprintf(w->name, sizeof(w->name), "%s", name);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		snprintf(why, why_size, "socketpair: %s", strerror(errno));
		return -1;
	}
	while (environ[n])
		n++;
	envp = calloc(n + 2, sizeof(*envp));
	if (!envp) {
		close(sv[0]);
		close(sv[1]);
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	snprintf(env_voice, sizeof(env_voice), "%s=%s", WORKER_ENV, name);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], WORKER_ENV "=", sizeof(WORKER_ENV)))
			envp[k++] = environ[i];
	envp[k++] = env_voice;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], WORKER_FD);
	/* Nothing else of ours: an mbrola's pipe held open here would keep it from ending. */
	posix_spawn_file_actions_addclosefrom_np(&fa, WORKER_FD + 1);
	rc = posix_spawn(&w->pid, "/proc/self/exe", &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	free(envp);
	close(sv[1]);
	if (rc) {
		close(sv[0]);
		w->pid = 0;
		snprintf(why, why_size, "cannot start its process: %s", strerror(rc));
		return -1;
	}
	w->fd = sv[0];
	if (read_all(w->fd, &hello, sizeof(hello), VOICE_WORKER_START_MS) || hello.n <= 0) {
		voice_worker_stop(w);
		snprintf(why, why_size, "its process could not load it");
		return -1;
	}
	w->rate = (unsigned)hello.n;
	return 0;
}

int64_t voice_worker_say(struct voice_worker *w, const char *text, int rate, int pitch, int volume,
			 void (*chunk)(void *ctx, const short *s, size_t n),
			 bool (*stop)(void *ctx), void *ctx)
{
	struct worker_request rq = {WORKER_REQUEST, (int32_t)strlen(text), rate, pitch, volume};
	short buf[4096];
	int64_t said = 0;
	bool told = false;

	if (w->pid <= 0 || write_all(w->fd, &rq, sizeof(rq)) ||
	    write_all(w->fd, text, strlen(text)))
		goto dead;
	for (;;) {
		struct worker_frame f;

		if (!told && stop(ctx)) {
			told = write_all(w->fd, &(char){WORKER_STOP}, 1) == 0;
			if (!told)
				goto dead;
		}
		if (read_all(w->fd, &f, sizeof(f), VOICE_WORKER_STALL_MS))
			goto dead;
		if (f.n == 0)
			return said;
		if (f.n < 0)
			goto dead;
		for (int32_t left = f.n; left > 0;) {
			size_t k = (size_t)left < sizeof(buf) / sizeof(buf[0])
				       ? (size_t)left
				       : sizeof(buf) / sizeof(buf[0]);

			if (read_all(w->fd, buf, k * sizeof(short), VOICE_WORKER_STALL_MS))
				goto dead;
			if (!told)
				chunk(ctx, buf, k);
			said += (int64_t)k;
			left -= (int32_t)k;
		}
	}
dead:
	voice_worker_stop(w);
	return -1;
}

void voice_worker_stop(struct voice_worker *w)
{
	uint64_t until = monotonic_ms() + 1000;
	int status;

	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	if (w->pid <= 0)
		return;
	/* It ends at the closed socket; one that does not is killed. */
	while (waitpid(w->pid, &status, WNOHANG) == 0) {
		struct timespec ts = {0, 5 * 1000000L};

		if (monotonic_ms() > until) {
			kill(w->pid, SIGKILL);
			waitpid(w->pid, &status, 0);
			break;
		}
		nanosleep(&ts, NULL);
	}
	w->pid = 0;
}
