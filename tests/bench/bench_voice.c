/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Move made -> first audio sample handed to ALSA ("null" PCM), over every move of a whole
 * game, against spawning espeak-ng per phrase (spawn -> first bytes of its --stdout WAV);
 * and the resident size with the German voice loaded.
 *
 *     bench_voice [DEVICE [PLIES]]
 *
 * With DEVICE, a sound card that plays in real time (tests/bench/pcm_paced.c), the first
 * PLIES (20) moves instead, three times: each said when the one before has been heard
 * (nothing ahead), 300 ms into the one before said as an echo (which it cuts short), and
 * 300 ms into the one before said whole (which it waits for): "voice_paced_..." figures.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "chess/chess.h"
#include "voice/phrases.h"
#include "voice/voice.h"

/* Kasparov - Topalov, Wijk aan Zee 1999, played ROUNDS times (rounds of a tournament): the
 * percentiles are over every move, so that p99 is not simply the slowest one. */
#define ROUNDS 3
static const char *const game[] = {
    "e4",   "d6",   "d4",   "Nf6",   "Nc3",  "g6",   "Be3",   "Bg7",   "Qd2",  "c6",	"f3",
    "b5",   "Nge2", "Nbd7", "Bh6",   "Bxh6", "Qxh6", "Bb7",   "a3",    "e5",   "O-O-O", "Qe7",
    "Kb1",  "a6",   "Nc1",  "O-O-O", "Nb3",  "exd4", "Rxd4",  "c5",    "Rd1",  "Nb6",	"g3",
    "Kb8",  "Na5",  "Ba8",  "Bh3",   "d5",   "Qf4+", "Ka7",   "Rhe1",  "d4",   "Nd5",	"Nbxd5",
    "exd5", "Qd6",  "Rxd4", "cxd4",  "Re7+", "Kb6",  "Qxd4+", "Kxa5",  "b4+",  "Ka4",	"Qc3",
    "Qxd5", "Ra7",  "Bb7",  "Rxb7",  "Qc4",  "Qxf6", "Kxa3",  "Qxa6+", "Kxb4", "c3+",	"Kxc3",
    "Qa1+", "Kd2",  "Qb2+", "Kd1",   "Bf1",  "Rd2",  "Rd7",   "Rxd7",  "Bxc4", "bxc4",	"Qxh8",
    "Rd3",  "Qa8",  "c3",   "Qa4+",  "Ke1",  "f4",   "f5",    "Kc1",   "Rd2",  "Qa7",
};
#define GAME_PLIES (sizeof(game) / sizeof(game[0]))

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile. */
static double percentile_ms(uint64_t *v, size_t n, double p)
{
	size_t rank;

	qsort(v, n, sizeof(*v), cmp_u64);
	rank = (size_t)(p / 100.0 * (double)n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return (double)v[rank - 1] / 1e6;
}

static double rss_mb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	double kb = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %lf kB", &kb) == 1)
			break;
	fclose(f);
	return kb / 1024.0;
}

/* Spawn espeak-ng for one phrase; ns until the first bytes of its WAV output arrive. */
static uint64_t espeak_spawn_first_bytes(const char *text)
{
	int fds[2];
	uint64_t t0, t = 0;
	pid_t pid;
	char buf[4096];
	ssize_t k;

	if (pipe(fds) != 0)
		return 0;
	t0 = now_ns();
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		int devnull = open("/dev/null", O_WRONLY);

		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		execlp("espeak-ng", "espeak-ng", "-v", "de", "-s", "160", "--stdout", text,
		       (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return 0;
	}
	while ((k = read(fds[0], buf, sizeof(buf))) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			break;
		if (t == 0)
			t = now_ns() - t0;
	}
	close(fds[0]);
	waitpid(pid, NULL, 0);
	return t;
}

/* Sleep until monotonic time t. */
static void sleep_until(uint64_t t)
{
	struct timespec ts = {(time_t)(t / 1000000000u), (long)(t % 1000000000u)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* The latency of the first sample of the n-th utterance to have one, once it has. */
static uint64_t first_sample(struct voice *v, uint64_t n)
{
	struct voice_stats st;

	for (voice_get_stats(v, &st); st.first_samples < n; voice_get_stats(v, &st))
		sleep_until(now_ns() + 1000000u);
	return st.last_first_sample_ns;
}

/* On a card that plays in real time: each move `behind` what (-1: said when the one before
 * has been heard; VOICE_KIND_ECHO or VOICE_KIND_MOVE: 300 ms into the one before, said as
 * that kind); the first sample's latency of each. */
static size_t paced_run(struct voice *v, char phrases[][160], size_t plies, int behind,
			uint64_t *out)
{
	struct voice_stats st;
	struct voice_said said;
	struct utterance u;
	size_t n = 0;

	voice_get_stats(v, &st);
	for (size_t i = 0; i < plies; i++) {
		enum voice_kind kind = behind < 0 ? VOICE_KIND_MOVE : (enum voice_kind)behind;

		utterance_set(&u, PHRASE_DE, phrases[i]);
		voice_say_reported(v, VOICE_PUBLIC, kind, &u, 100, i, i + 1);
		out[n++] = first_sample(v, st.first_samples + i + 1);
		if (behind < 0) {
			/* Until it has been heard to its end. */
			voice_wait_idle(v);
			while (voice_said_take(v, &said, 1) == 0)
				sleep_until(now_ns() + 1000000u);
			sleep_until(said.heard_ns + 50000000u);
		} else {
			sleep_until(now_ns() + 300000000u);
			while (voice_said_take(v, &said, 1) > 0)
				;
		}
	}
	voice_wait_idle(v);
	while (voice_said_take(v, &said, 1) > 0)
		;
	return n;
}

static void paced(struct voice *v, char phrases[][160], size_t plies)
{
	static uint64_t lat[GAME_PLIES];
	static const struct {
		const char *name;
		int behind;
	} runs[] = {{"nothing_ahead", -1},
		    {"behind_echo", VOICE_KIND_ECHO},
		    {"behind_move", VOICE_KIND_MOVE}};

	/* "Partie beginnt" heard first. */
	sleep_until(now_ns() + 2000000000u);
	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		/* The first of a "behind" run has nothing ahead: not counted. */
		size_t n = paced_run(v, phrases, plies, runs[r].behind, lat);
		uint64_t *from = runs[r].behind < 0 ? lat : lat + 1;

		if (runs[r].behind >= 0)
			n--;
		printf("bench voice_paced_%s_first_sample_p50 %.3f ms\n", runs[r].name,
		       percentile_ms(from, n, 50));
		printf("bench voice_paced_%s_first_sample_p99 %.3f ms\n", runs[r].name,
		       percentile_ms(from, n, 99));
	}
}

int main(int argc, char **argv)
{
	static char phrases[GAME_PLIES][160];
	static uint64_t ours[ROUNDS * GAME_PLIES], spawned[GAME_PLIES];
	struct phrase_options o;
	struct voice_config cfg;
	struct voice_stats st;
	struct chess_pos pos;
	struct voice *v;
	char err[200], dir[] = "/tmp/annabella-bench-voice-XXXXXX";
	size_t n = 0, m = 0, plies;
	double rss;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	voice_config_defaults(&cfg);
	cfg.sink = VOICE_SINK_ALSA;
	snprintf(cfg.device[VOICE_PUBLIC], sizeof(cfg.device[0]), "%s",
		 argc > 1 ? argv[1] : "null");
	snprintf(cfg.device[VOICE_PRIVATE], sizeof(cfg.device[0]), "null");
	snprintf(cfg.state_dir, sizeof(cfg.state_dir), "%s", dir);
	v = voice_start(&cfg, err, sizeof(err));
	if (v == NULL) {
		fprintf(stderr, "bench_voice: %s\n", err);
		return 1;
	}
	voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", "Partie beginnt", 0);
	voice_wait_idle(v);
	rss = rss_mb();

	/* The game, move by move, as the daemon does it: words, then voice_say. */
	phrase_options_defaults(&o);
	for (int round = 0; round < (argc > 1 ? 1 : ROUNDS); round++) {
		chess_pos_init_start(&pos);
		m = 0;
		for (size_t i = 0; i < GAME_PLIES; i++) {
			struct chess_error cerr;
			struct chess_undo undo;
			chess_move mv;
			uint64_t t0, words;

			if (chess_move_parse_san(&pos, game[i], &mv, &cerr) != 0) {
				fprintf(stderr, "bench_voice: move %zu %s: %s\n", i + 1, game[i],
					cerr.message);
				break;
			}
			t0 = now_ns();
			phrase_move(&o, &pos, mv, phrases[m], sizeof(phrases[m]));
			words = now_ns() - t0;
			chess_pos_make(&pos, mv, &undo);
			m++;
			if (argc > 1)
				continue; /* the words alone: said below */
			voice_say(v, VOICE_PUBLIC, VOICE_KIND_MOVE, "de", phrases[m - 1],
				  1000 * (i + 1));
			voice_wait_idle(v);
			voice_get_stats(v, &st);
			ours[n++] = words + st.last_first_sample_ns;
		}
	}
	plies = m;
	if (argc > 1) {
		size_t want = argc > 2 ? strtoul(argv[2], NULL, 10) : 20;

		paced(v, phrases, want > 1 && want < plies ? want : plies);
		voice_stop(v);
		return 0;
	}
	voice_stop(v);
	if (n == 0)
		return 1;

	m = 0;
	for (size_t i = 0; i < plies; i++) {
		uint64_t t = espeak_spawn_first_bytes(phrases[i]);

		if (t > 0)
			spawned[m++] = t;
	}

	double p50 = percentile_ms(ours, n, 50), p99 = percentile_ms(ours, n, 99);
	printf("bench voice_moves %zu moves\n", n);
	printf("bench espeak_spawn_moves %zu moves\n", m);
	printf("bench voice_first_sample_p50 %.3f ms\n", p50);
	printf("bench voice_first_sample_p99 %.3f ms\n", p99);
	if (m > 0) {
		double s50 = percentile_ms(spawned, m, 50), s99 = percentile_ms(spawned, m, 99);

		printf("bench espeak_spawn_first_sample_p50 %.3f ms\n", s50);
		printf("bench espeak_spawn_first_sample_p99 %.3f ms\n", s99);
		printf("bench voice_speedup_p99 %.1f x\n", s99 / p99);
	} else {
		fprintf(stderr, "bench_voice: espeak-ng could not be run\n");
	}
	printf("bench voice_rss %.1f MB\n", rss);

	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_voice: cannot remove %s\n", dir);
	return 0;
}
