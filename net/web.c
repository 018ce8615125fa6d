/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella web --listen ADDR:PORT [--socket PATH] [--config FILE]
 *               [--tls-cert FILE --tls-key FILE]
 * annabella web certificate DIR
 *
 * docs/web.md "The web page for the assistant and the arbiter".
 *
 * The assistant's and the arbiter's page, served on libmicrohttpd by a process of its own:
 * a client of the daemon's control socket like the CLI, so the daemon never opens a
 * network socket and the page can be stopped or firewalled without touching the game.
 *
 * One thread keeps a `watch public` connection to the daemon (reconnecting with back-off)
 * and, after each batch of events, a second connection refreshes the cached status (`status
 * public`), scoresheet and PGN; only then are the events put into a ring that every
 * server-sent event stream reads at its own pace.  The page is open to anyone on the
 * network, so it carries only what anyone may know (game/audience.h), whatever the role of
 * this process's user.  Requests without a PIN are answered from that cache (the other
 * reads, rarer, at most WEB_READS_BURST at once and one each WEB_READS_MS per address), so
 * visitors never reach the daemon.
 *
 *   GET  /, /app.js, /style.css        the page (web/, built in)
 *   GET  /api/status                   the daemon's status reply (header X-Age-Ms: its age)
 *   GET  /api/moves, /api/commands     the scoresheet reply; the command table (`help`)
 *   GET  /game.pgn                     the game's PGN
 *   GET  /api/legal                    the legal moves of the cached position (SAN, UCI and
 *                                      the local notation), offered as the assistant types
 *   GET  /api/events                   server-sent events: each `watch` line, with its id;
 *                                      Last-Event-ID catches up from the ring; an `alive`
 *                                      event every 2 s says how old the data is, so a page
 *                                      knows when it is not live (the daemon or this
 *                                      process frozen or gone)
 *   POST /api/command                  body: one section 8 line; header X-PIN: the PIN.
 *                                      Without a PIN only status, moves, export and help.
 *                                      X-Page: the page's own word, passed on with `auth`;
 *                                      X-Lang: the page's language, passed on with
 *                                      `notation` when it is not the daemon's (its piece
 *                                      letters in the moves typed).
 *
 * The HTTP side is one event loop (net/httpd.h): an event stream waits suspended, and a
 * command that needs the daemon is queued for WEB_WORKERS threads, each with one daemon
 * connection at a time, so the page never holds more of the daemon's connections for its
 * user than the daemon gives one user (the arbiter's commands go first).  A full queue is
 * 503 "busy", and so is the daemon's refusal of a connection: never "wrong PIN".
 *
 * PINs: net/pingate.h (each address's own budget; the arbiter's PIN never held back by
 * others' guesses), against the salted hashes of the PIN file (base/pinhash.h): the page
 * holds no PIN but the one a request brings.  Only a right PIN is passed on with `auth`,
 * so the daemon never counts the page's user as guessing.  Without the PINs in its
 * configuration the page passes each PIN on, one at a time per address.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/lang.h"
#include "base/log.h"
#include "base/pinguard.h"
#include "base/timeutil.h"
#include "chess/chess.h"
#include "config/config.h"
#include "control/json.h"
#include "control/protocol.h"
#include "game/color.h"
#include "net/assets.h"
#include "net/ctlclient.h"
#include "net/httpd.h"
#include "net/net.h"
#include "net/pingate.h"
#include "net/tlscert.h"
#include "net/web.h"

/* Set by the signal handler, read by the daemon thread: an atomic, not only a volatile
 * sig_atomic_t, since another thread reads it (ThreadSanitizer found the race when the
 * page was stopped). */
static atomic_int stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop_requested, 1);
}

bool web_stop_requested(void)
{
	return atomic_load(&stop_requested);
}

/* ------------------------------------------------------------------ answers */

static char *refusal_json(const struct refusal *f)
{
	struct strbuf b = {0};
	struct json_writer jw;
	int64_t seconds = (int64_t)((f->wait_ms + 999) / 1000);

	json_init(&jw, &b);
	json_object(&jw, NULL);
	json_bool(&jw, "ok", false);
	json_string(&jw, "error", f->error);
	if (f->code) {
		json_string(&jw, "code", f->code);
		json_object(&jw, "args");
		if (f->wait_ms)
			json_int(&jw, "seconds", seconds);
		json_end(&jw);
	}
	if (f->reason)
		json_string(&jw, "reason", f->reason);
	if (f->wait_ms)
		json_int(&jw, "seconds", seconds);
	json_end(&jw);
	return strbuf_finish(&b);
}

static enum MHD_Result answer_json(const struct httpd_request *req, unsigned status,
				   const char *body, uint64_t retry_ms)
{
	char retry[24];

	if (!retry_ms)
		return httpd_respond_text(req, status, "application/json", body);
	snprintf(retry, sizeof(retry), "%llu", (unsigned long long)((retry_ms + 999) / 1000));
	return httpd_respond_with(req, status, "application/json", body, "Retry-After", retry);
}

enum MHD_Result web_refuse(const struct httpd_request *req, const struct refusal *f)
{
	char *body = refusal_json(f);
	enum MHD_Result r;

	r = answer_json(req, f->status, body ? body : "{\"ok\":false}", f->wait_ms);
	free(body);
	return r;
}

static enum MHD_Result json_error(const struct httpd_request *req, unsigned status,
				  const char *message)
{
	const struct refusal f = {.status = status, .error = message};

	return web_refuse(req, &f);
}

/* A job's answer, set by the worker. */
void web_job_refused(struct job *j, const struct refusal *f)
{
	j->status = f->status;
	j->retry_ms = f->wait_ms;
	free(j->body);
	j->body = refusal_json(f);
}

/* ------------------------------------------------------------------ commands */

/* Commands a visitor without a PIN may give: the table's rows that only read. */
static bool read_only(const char *line)
{
	const struct control_command *c = control_command_find(line);

	return c && (c->flags & CONTROL_READS);
}

static enum MHD_Result cached(struct web *w, const struct httpd_request *req, char *const *slot,
			      const char *type, bool age)
{
	enum MHD_Result r;

	pthread_mutex_lock(&w->mu);
	if (!*slot) {
		bool up = w->daemon_up;

		pthread_mutex_unlock(&w->mu);
		return json_error(req, MHD_HTTP_SERVICE_UNAVAILABLE,
				  up ? "no game yet" : "the daemon is not reachable");
	}
	if (age) {
		char ms[32];

		snprintf(ms, sizeof(ms), "%llu",
			 (unsigned long long)(monotonic_ms() - w->status_at));
		r = httpd_respond_with(req, MHD_HTTP_OK, type, *slot, "X-Age-Ms", ms);
	} else {
		r = httpd_respond_text(req, MHD_HTTP_OK, type, *slot);
	}
	pthread_mutex_unlock(&w->mu);
	return r;
}

/* The cache's reply to a read without a PIN (status, moves, help, the game's PGN), or NULL
 * when it holds none. */
static char *const *cached_reply(struct web *w, const char *line)
{
	const struct control_command *c = control_command_find(line);
	char words[4][16];
	int n = sscanf(line, "%15s %15s %15s %15s", words[0], words[1], words[2], words[3]);

	if (c == control_command_find("status") &&
	    (n == 1 || (n == 2 && !strcmp(words[1], "public"))))
		return &w->status;
	if (c == control_command_find("moves") && n == 1)
		return &w->moves;
	if (c == control_command_find("help") && n == 1)
		return &w->commands;
	if (c == control_command_find("export") && n == 2 && !strcmp(words[1], "pgn"))
		return &w->export_pgn;
	return NULL;
}

/* Whether key may make one more read the cache cannot answer (mu held): a bucket of
 * WEB_READS_BURST refilled one each WEB_READS_MS; *wait when not. */
static bool read_allowed(struct web *w, const char *key, uint64_t now, uint64_t *wait)
{
	struct reader *r = NULL, *oldest = &w->readers[0];

	for (int i = 0; i < WEB_READERS && !r; i++) {
		if (!strcmp(w->readers[i].key, key))
			r = &w->readers[i];
		else if (w->readers[i].at < oldest->at)
			oldest = &w->readers[i];
	}
	if (!r) {
		r = oldest;
		snprintf(r->key, sizeof(r->key), "%s", key);
		r->tokens = WEB_READS_BURST;
		r->at = now;
	}
	r->tokens += (double)(now - r->at) / WEB_READS_MS;
	if (r->tokens > WEB_READS_BURST)
		r->tokens = WEB_READS_BURST;
	r->at = now;
	if (r->tokens >= 1) {
		r->tokens -= 1;
		return true;
	}
	*wait = (uint64_t)((1 - r->tokens) * WEB_READS_MS) + 1;
	return false;
}

/* Waits that ended with PINs refused in them: one log line each (mu held). */
static void pin_waits(struct web *w, uint64_t now, bool all)
{
	struct pin_wait pw;

	while (pin_guard_ended(&w->gate.guard, now, all, &pw))
		log_warn(LOG_MAIN,
			 "%d PINs from %s refused unchecked during a %llu s wait "
			 "after %d wrong ones",
			 pw.refused, pw.key, (unsigned long long)(pw.length / 1000), pw.wrong);
}

/* The gate's refusal of a PIN, logged as the page's log has always said it. */
static enum MHD_Result pin_refused(const struct httpd_request *req,
				   const struct pin_gate_outcome *o)
{
	struct refusal f = {.status = MHD_HTTP_TOO_MANY_REQUESTS, .wait_ms = o->wait};

	switch (o->why) {
	case PIN_GATE_ADDRESS:
		if (o->first_refusal)
			log_info(LOG_MAIN, "%s waits %llu s for its next PIN", req->key,
				 (unsigned long long)((o->wait + 999) / 1000));
		f.error = "too many wrong PINs from this address";
		f.code = "pin-wait";
		break;
	case PIN_GATE_ADDRESSES:
		f.error = "too many addresses are trying PINs on this page";
		f.reason = "addresses";
		break;
	case PIN_GATE_FULL_TOTAL:
		log_warn(LOG_MAIN,
			 "wrong PIN from %s (%d); not the arbiter's, and new addresses wait for "
			 "the assistant's",
			 req->key, o->wrong);
		if (o->total_filled)
			log_warn(LOG_MAIN, "%d wrong PINs in a minute: new addresses wait (%s)",
				 PIN_GATE_TOTAL, req->key);
		f.error = "too many wrong PINs on this page";
		f.reason = "total";
		break;
	case PIN_GATE_ONE_AT_ONCE:
		f.error = "one PIN at a time from this address";
		f.code = "pin-wait";
		break;
	case PIN_GATE_DAEMON_FULL:
		f = web_busy;
		break;
	}
	return web_refuse(req, &f);
}

/* The body as one command line (without its line end) into line: false when it is not one. */
static bool body_line(const struct httpd_request *req, char *line, size_t size)
{
	size_t n = req->body_len;

	while (n && (req->body[n - 1] == '\n' || req->body[n - 1] == '\r'))
		n--;
	if (!n || n >= size || memchr(req->body, '\n', n) || memchr(req->body, '\0', n))
		return false;
	memcpy(line, req->body, n);
	line[n] = '\0';
	return true;
}

/* A read without a PIN answered here: from the cache, or refused past this address's budget
 * (true, the answer in *r); false when it is for the daemon. */
static bool read_answered(struct web *w, const struct httpd_request *req, const char *line,
			  uint64_t now, enum MHD_Result *r)
{
	char *const *slot = cached_reply(w, line);
	uint64_t wait = 0;
	bool allowed;

	if (slot) {
		*r = cached(w, req, slot, "application/json", false);
		return true;
	}
	pthread_mutex_lock(&w->mu);
	allowed = read_allowed(w, req->key, now, &wait);
	pthread_mutex_unlock(&w->mu);
	if (!allowed) {
		const struct refusal f = {.status = MHD_HTTP_TOO_MANY_REQUESTS,
					  .error = "too many reads from this address",
					  .reason = "reads",
					  .wait_ms = wait};

		*r = web_refuse(req, &f);
		return true;
	}
	return false;
}

/* A job for the line, with the page's word and language when they are well formed. */
static struct job *job_new(const struct httpd_request *req, const char *line)
{
	/* The page's own word (X-Page): the person at a phone, told apart from the others with
	 * the same PIN (a relay's author: `auth PIN NAME`, docs/control.md "Control interface"). */
	const char *page = httpd_header(req, "X-Page");
	const char *lang = httpd_header(req, "X-Lang");
	struct job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	snprintf(j->line, sizeof(j->line), "%s", line);
	snprintf(j->key, sizeof(j->key), "%s", req->key);
	if (page && *page && strlen(page) <= 16 &&
	    strspn(page, "abcdefghijklmnopqrstuvwxyz0123456789") == strlen(page))
		snprintf(j->page, sizeof(j->page), "%s", page);
	if (phrase_lang_parse(lang) >= 0)
		snprintf(j->lang, sizeof(j->lang), "%s", lang);
	return j;
}

/* The gate's wrong PIN, logged with the wait it starts. */
static enum MHD_Result pin_wrong(const struct httpd_request *req, const struct pin_gate_outcome *o)
{
	struct refusal f = {
	    .status = MHD_HTTP_FORBIDDEN, .error = "wrong PIN", .code = "wrong-pin"};

	if (o->wait) {
		log_warn(LOG_MAIN, "wrong PIN from %s (%d); its next is checked in %llu s",
			 req->key, o->wrong, (unsigned long long)(o->wait / 1000));
		f.code = "wrong-pin-wait";
		f.wait_ms = o->wait;
	} else {
		log_warn(LOG_MAIN, "wrong PIN from %s", req->key);
	}
	return web_refuse(req, &f);
}

static enum MHD_Result command(struct web *w, const struct httpd_request *req)
{
	const char *pin = httpd_header(req, "X-PIN");
	char line[4097];
	struct job *j;
	uint64_t now = monotonic_ms();
	enum MHD_Result r;

	if (req->pending) {
		j = req->pending;
		return answer_json(req, j->status, j->body ? j->body : "{\"ok\":false}",
				   j->retry_ms);
	}
	if (!body_line(req, line, sizeof(line)))
		return json_error(req, MHD_HTTP_BAD_REQUEST,
				  "give one command line of at most 4096 bytes");
	if (control_command_find(line) && (control_command_find(line)->flags & CONTROL_SESSION))
		return json_error(req, MHD_HTTP_BAD_REQUEST,
				  "watch and auth are not commands of the page (use the PIN field "
				  "and /api/events)");
	if (pin && !*pin)
		pin = NULL;
	if (!pin && !read_only(line))
		return json_error(req, MHD_HTTP_UNAUTHORIZED, "this command needs a PIN");
	if (pin && (strlen(pin) > 31 || strspn(pin, "0123456789") != strlen(pin))) {
		const struct refusal f = {
		    .status = MHD_HTTP_FORBIDDEN, .error = "wrong PIN", .code = "wrong-pin"};

		return web_refuse(req, &f);
	}
	if (!pin && read_answered(w, req, line, now, &r))
		return r;
	j = job_new(req, line);
	if (!j)
		return MHD_NO;
	if (pin) {
		struct pin_gate_outcome o;
		enum pin_gate_verdict v;

		pthread_mutex_lock(&w->mu);
		pin_waits(w, now, false);
		v = pin_gate_check(&w->gate, req->key, pin, now, &o);
		pthread_mutex_unlock(&w->mu);
		if (v == PIN_GATE_WAIT || v == PIN_GATE_WRONG) {
			free(j);
			return v == PIN_GATE_WAIT ? pin_refused(req, &o) : pin_wrong(req, &o);
		}
		snprintf(j->pin, sizeof(j->pin), "%s", pin);
		j->ask = v == PIN_GATE_ASK;
		j->arbiter = v == PIN_GATE_RIGHT && o.role == PIN_GATE_ARBITER;
	}
	return web_enqueue(w, req, j);
}
/* ------------------------------------------------------------------ routes */

/*
 * The legal moves of the cached position: what the assistant may relay is offered as they
 * type.  {"ok":true,"fen":...,"to_move":"white","moves":[{"san":"Nf3","uci":"g1f3",
 * "local":"Sf3"},...]} (local: the paper notation, Appendix C, with the piece letters of
 * ?lang=, else of the daemon's language).
 */
static enum MHD_Result legal(struct web *w, const struct httpd_request *req)
{
	const char *asked = httpd_query(req, "lang");
	char fen[CHESS_FEN_MAX + 8] = "", lang[8];
	struct chess_pos pos;
	struct chess_error err;
	struct chess_move_list list;
	struct strbuf b = {0};
	struct json_writer jw;
	enum MHD_Result r;

	pthread_mutex_lock(&w->mu);
	if (w->status && json_get(w->status, "fen", fen, sizeof(fen)) < 0)
		fen[0] = '\0';
	pthread_mutex_unlock(&w->mu);
	if (!fen[0] || chess_fen_parse(&pos, fen, &err))
		return json_error(req, MHD_HTTP_SERVICE_UNAVAILABLE, "no position yet");
	if (phrase_lang_parse(asked) >= 0)
		snprintf(lang, sizeof(lang), "%s", asked);
	else
		web_daemon_lang(w, lang);
	chess_pos_legal_moves(&pos, &list);
	json_init(&jw, &b);
	json_object(&jw, NULL);
	json_bool(&jw, "ok", true);
	json_string(&jw, "fen", fen);
	json_string(&jw, "to_move", game_color_name(pos.side));
	json_array(&jw, "moves");
	for (int i = 0; i < list.count; i++) {
		char san[CHESS_SAN_MAX], uci[8], local[CHESS_SAN_MAX];

		chess_move_to_san(&pos, list.moves[i], san, sizeof(san));
		chess_move_to_uci(list.moves[i], uci, sizeof(uci));
		chess_move_to_local_lang(&pos, list.moves[i], lang, local, sizeof(local));
		json_object(&jw, NULL);
		json_string(&jw, "san", san);
		json_string(&jw, "uci", uci);
		json_string(&jw, "local", local);
		json_end(&jw);
	}
	json_end(&jw);
	json_end(&jw);
	r = httpd_respond_text(req, MHD_HTTP_OK, "application/json", b.p ? b.p : "{\"ok\":false}");
	free(b.p);
	return r;
}

/* The page in the daemon's language from its first byte (the script takes it from there). */
static enum MHD_Result page(struct web *w, const struct httpd_request *req, const struct asset *a)
{
	static const char from[] = "<html lang=\"de\">";
	char lang[8], *copy;
	const char *at = memmem(a->data, a->len, from, sizeof(from) - 1);
	enum MHD_Result r;

	web_daemon_lang(w, lang);
	if (!at || strlen(lang) != 2 || !strcmp(lang, "de"))
		return httpd_respond_static(req, a->content_type, a->data, a->len);
	copy = malloc(a->len);
	if (!copy)
		return MHD_NO;
	memcpy(copy, a->data, a->len);
	memcpy(copy + (at - (const char *)a->data) + strlen("<html lang=\""), lang, 2);
	if (httpd_wants_gzip(httpd_header(req, "Accept-Encoding"))) {
		size_t gz_len;
		char *gz = httpd_gzip(copy, a->len, &gz_len);
		const struct httpd_header h[] = {{"Vary", "Accept-Encoding"},
						 {"Content-Encoding", "gzip"}};

		if (gz) {
			free(copy);
			r = httpd_respond_headers(req, MHD_HTTP_OK, a->content_type, gz, gz_len, h,
						  2);
			free(gz);
			return r;
		}
	}
	r = httpd_respond(req, MHD_HTTP_OK, a->content_type, copy, a->len);
	free(copy);
	return r;
}

static enum MHD_Result route(void *user, const struct httpd_request *req)
{
	struct web *w = user;
	bool get = !strcmp(req->method, "GET") || !strcmp(req->method, "HEAD");
	const struct asset *a;

	if (!strcmp(req->url, "/api/command")) {
		if (strcmp(req->method, "POST"))
			return json_error(req, MHD_HTTP_METHOD_NOT_ALLOWED, "use POST");
		return command(w, req);
	}
	if (!get)
		return json_error(req, MHD_HTTP_METHOD_NOT_ALLOWED, "this page only reads");
	if (!strcmp(req->url, "/api/status"))
		return cached(w, req, &w->status, "application/json", true);
	if (!strcmp(req->url, "/api/moves"))
		return cached(w, req, &w->moves, "application/json", false);
	if (!strcmp(req->url, "/api/commands"))
		return cached(w, req, &w->commands, "application/json", false);
	if (!strcmp(req->url, "/game.pgn"))
		return cached(w, req, &w->pgn, "application/x-chess-pgn; charset=utf-8", false);
	if (!strcmp(req->url, "/api/events"))
		return web_events(w, req);
	if (!strcmp(req->url, "/api/legal"))
		return legal(w, req);
	a = asset_find(req->url);
	if (a && !strcmp(a->path, "/index.html"))
		return page(w, req, a);
	if (a && strncmp(a->path, "/relay", 6))
		return httpd_respond_static(req, a->content_type, a->data, a->len);
	return httpd_respond_text(req, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
				  "not found\n");
}

/* ------------------------------------------------------------------ entry */

void cli_web_usage(FILE *f)
{
	fprintf(f, "usage: annabella web --listen ADDR:PORT [--socket PATH] [--config FILE]\n"
		   "                     [--tls-cert FILE --tls-key FILE]\n"
		   "       annabella web certificate DIR\n");
}

static int usage(void)
{
	cli_web_usage(stderr);
	return 2;
}

/* The workers told to stop (and the page, when it was serving) and each started one joined. */
static void workers_join(struct web *w, bool serving)
{
	pthread_mutex_lock(&w->mu);
	if (serving)
		w->stopping = true;
	w->workers_stop = true;
	pthread_cond_broadcast(&w->jobs_cv);
	pthread_mutex_unlock(&w->mu);
	for (int i = 0; i < WEB_WORKERS; i++)
		if (w->workers[i].started)
			pthread_join(w->workers[i].thread, NULL);
}

/* The workers stopped: each job still queued is answered busy, and every request and
 * stream that waits is resumed (libmicrohttpd must stop with none suspended). */
static void stop_serving(struct web *w)
{
	workers_join(w, true);
	pthread_mutex_lock(&w->mu);
	web_wake_streams(w, UINT64_MAX);
	pthread_mutex_unlock(&w->mu);
}

static void web_free(struct web *w)
{
	for (int i = 0; i < RING; i++)
		free(w->ring[i]);
	free(w->status);
	free(w->moves);
	free(w->pgn);
	free(w->commands);
	free(w->export_pgn);
	pthread_cond_destroy(&w->jobs_cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

/* The command line, as given. */
struct web_args {
	const char *listen, *socket, *config, *cert, *key;
};

/* 0, or 2 after the usage. */
static int web_args_parse(int argc, char **argv, struct web_args *a)
{
	for (int i = 0; i < argc; i++) {
		const char **dst = !strcmp(argv[i], "--listen")	    ? &a->listen
				   : !strcmp(argv[i], "--socket")   ? &a->socket
				   : !strcmp(argv[i], "--config")   ? &a->config
				   : !strcmp(argv[i], "--tls-cert") ? &a->cert
				   : !strcmp(argv[i], "--tls-key")  ? &a->key
								    : NULL;

		if (!dst || i + 1 >= argc)
			return usage();
		*dst = argv[++i];
	}
	return 0;
}

/* The arguments with the configuration under them, checked, and the TLS files read: 0, or 2
 * after the error. */
static int web_settle(struct web_args *a, struct config *cfg, struct tls_files *tls)
{
	char err[512], warn[512] = "";

	config_defaults(cfg);
	/* The PINs' hashes from the PIN file, which the unit gives the page as a credential
	 * (README "Security model"): the page holds no PIN but the one a request brings. */
	if (a->config && (config_load(cfg, a->config, err, sizeof(err)) ||
			  config_load_pins(cfg, warn, sizeof(warn), err, sizeof(err)))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (a->config && warn[0])
		log_error(LOG_MAIN, "%s", warn);
	if (!a->listen)
		a->listen = cfg->web_listen[0] ? cfg->web_listen : NULL;
	if (!a->listen)
		return usage();
	if (!strrchr(a->listen, ':') || !strrchr(a->listen, ':')[1] ||
	    strspn(strrchr(a->listen, ':') + 1, "0123456789") !=
		strlen(strrchr(a->listen, ':') + 1)) {
		log_error(LOG_MAIN,
			  "--listen '%s': give ADDR:PORT (like 127.0.0.1:8080 or "
			  "[::]:8080)",
			  a->listen);
		return 2;
	}
	if (!a->cert && cfg->web_certificate[0])
		a->cert = cfg->web_certificate;
	if (!a->key && cfg->web_key[0])
		a->key = cfg->web_key;
	if (!a->cert != !a->key) {
		log_error(LOG_MAIN, "TLS needs both the certificate and its key (--tls-cert and "
				    "--tls-key, or certificate and key in [web])");
		return 2;
	}
	if (a->cert && tls_files_read(tls, a->cert, a->key, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	if (!a->socket)
		a->socket = cfg->control_socket[0] && strcmp(cfg->control_socket, "none")
				? cfg->control_socket
				: CTLCLIENT_DEFAULT_SOCKET;
	return 0;
}

/* 0, or -1 when a worker's thread could not start. */
static int workers_start(struct web *w)
{
	for (int i = 0; i < WEB_WORKERS; i++) {
		w->workers[i].me = i;
		w->workers[i].w = w;
		if (pthread_create(&w->workers[i].thread, NULL, web_worker, &w->workers[i]))
			return -1;
		w->workers[i].started = true;
	}
	return 0;
}

/* Until a signal: every quarter of a second, the streams whose `alive` is due are woken. */
static void keep_alive(struct web *w)
{
	while (!web_stop_requested()) {
		usleep(250 * 1000);
		pthread_mutex_lock(&w->mu);
		web_wake_streams(w, monotonic_ms() - KEEPALIVE_MS);
		pthread_mutex_unlock(&w->mu);
	}
}

static struct web *web_new(const char *socket, const struct config *cfg)
{
	struct web *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	snprintf(w->socket, sizeof(w->socket), "%s", socket);
	pin_gate_init(&w->gate, &cfg->arbiter_pin.hash, &cfg->assistant_pin.hash);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->jobs_cv, NULL);
	return w;
}

/* Where the page is, on stdout; with TLS, its certificate's fingerprint in the log. */
static void say_listening(struct httpd *h, const char *cert, const struct tls_files *tls)
{
	printf("annabella web: listening on %s://%s/\n", cert ? "https" : "http", httpd_address(h));
	if (cert)
		log_info(LOG_MAIN,
			 "its certificate %s: SHA-256 %s (the arbiter checks it once: "
			 "annabella status)",
			 cert, tls->fingerprint);
	fflush(stdout);
}

int cli_web(int argc, char **argv)
{
	struct web_args a = {0};
	struct config cfg;
	struct web *w;
	struct httpd *h;
	struct httpd_options ho = {.same_origin = true};
	struct tls_files tls = {0};
	pthread_t thread;
	char err[512];
	struct sigaction sa = {.sa_handler = on_signal};
	int rc = 1;

	if (argc >= 1 && !strcmp(argv[0], "certificate"))
		return argc == 2 ? tls_cert_make_cli(argv[1]) : usage();
	if (web_args_parse(argc, argv, &a) || web_settle(&a, &cfg, &tls))
		return 2;
	w = web_new(a.socket, &cfg);
	if (!w) {
		tls_files_free(&tls);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	ho.listen = a.listen;
	ho.tls_cert = tls.cert;
	ho.tls_key = tls.key;
	ho.hosts = cfg.web_hosts;
	if (workers_start(w))
		goto out;
	h = httpd_start(&ho, route, w, err, sizeof(err));
	if (!h) {
		log_error(LOG_MAIN, "%s", err);
		goto out;
	}
	say_listening(h, a.cert, &tls);
	if (pthread_create(&thread, NULL, web_daemon_thread, w)) {
		stop_serving(w);
		httpd_stop(h);
		goto out;
	}
	keep_alive(w);
	pthread_join(thread, NULL);
	stop_serving(w);
	httpd_stop(h);
	pthread_mutex_lock(&w->mu);
	pin_waits(w, monotonic_ms(), true);
	pthread_mutex_unlock(&w->mu);
	rc = 0;
out:
	if (rc)
		workers_join(w, false);
	web_free(w);
	tls_files_free(&tls);
	return rc;
}
