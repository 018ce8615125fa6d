/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/script.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/state.h"
#include "game/color.h"
#include "gpio/board.h"

#define MAX_WORDS 64

struct parser {
	const char *name;
	int line;
	char *err;
	size_t err_size;
	struct script *out;
	int capacity;
	uint64_t time_ms;
};

__attribute__((format(printf, 2, 3))) static int fail(struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->err && p->err_size)
		snprintf(p->err, p->err_size, "%s:%d: %s", p->name, p->line, msg);
	return -1;
}

/* A decimal number without sign, at most max.  0 or -1. */
static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return -1;
	}
	*out = v;
	return 0;
}

static int parse_square(const char *s)
{
	if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' || s[2])
		return -1;
	return (s[0] - 'a') + 8 * (s[1] - '1');
}

int script_fen_occupancy(const char *fen, uint64_t *occupancy)
{
	uint64_t occ = 0;
	int rank = 7, file = 0;

	for (const char *c = fen; *c && *c != ' '; c++) {
		if (*c == '/') {
			if (file != 8 || rank == 0)
				return -1;
			rank--;
			file = 0;
		} else if (*c >= '1' && *c <= '8') {
			file += *c - '0';
			if (file > 8)
				return -1;
		} else if (strchr("pnbrqkPNBRQK", *c)) {
			if (file >= 8)
				return -1;
			occ |= 1ull << (rank * 8 + file);
			file++;
		} else {
			return -1;
		}
	}
	if (rank != 0 || file != 8)
		return -1;
	*occupancy = occ;
	return 0;
}

static int add_action(struct parser *p, enum script_action_type type, int target, uint32_t arg)
{
	struct script *s = p->out;

	if (s->count >= SCRIPT_MAX_ACTIONS)
		return fail(p, "too many actions (at most %d)", SCRIPT_MAX_ACTIONS);
	if (s->count == p->capacity) {
		int cap = p->capacity ? p->capacity * 2 : 64;
		struct script_action *a;

		if (cap > SCRIPT_MAX_ACTIONS)
			cap = SCRIPT_MAX_ACTIONS;
		a = realloc(s->actions, (size_t)cap * sizeof(*a));
		if (!a)
			return fail(p, "out of memory");
		s->actions = a;
		p->capacity = cap;
	}
	s->actions[s->count++] = (struct script_action){
	    .time_ms = p->time_ms, .type = type, .target = target, .arg = arg, .line = p->line};
	return 0;
}

/* Append a word to the script's texts, then a space, or the text's end. */
static int add_text(struct parser *p, const char *word, bool last)
{
	struct script *s = p->out;
	size_t len = strlen(word);
	char *t;

	if (s->texts_len + len + 1 > SCRIPT_MAX_BYTES)
		return fail(p, "control commands too long");
	t = realloc(s->texts, s->texts_len + len + 1);
	if (!t)
		return fail(p, "out of memory");
	s->texts = t;
	memcpy(t + s->texts_len, word, len);
	s->texts_len += len;
	t[s->texts_len++] = last ? '\0' : ' ';
	return 0;
}

static int parse_header(struct parser *p, char **w, int n)
{
	struct script_header *h = &p->out->header;

	if (p->out->count > 0)
		return fail(p, "header '%s' after the first action", w[0]);
	if (!strcmp(w[0], "player")) {
		if (h->player_line)
			return fail(p, "duplicate 'player' (first on line %d)", h->player_line);
		if (n != 2)
			return fail(p, "usage: player white|black");
		h->player = game_color_parse(w[1]);
		if (h->player < 0)
			return fail(p, "bad player '%s' (white or black)", w[1]);
		h->player_line = p->line;
		return 0;
	}
	if (!strcmp(w[0], "time-control")) {
		if (h->time_control_line)
			return fail(p, "duplicate 'time-control' (first on line %d)",
				    h->time_control_line);
		if (n != 2)
			return fail(p, "usage: time-control TC (one word, '-' for none)");
		if (strlen(w[1]) >= sizeof(h->time_control))
			return fail(p, "time control too long");
		if (strcmp(w[1], "-") && (strspn(w[1], "0123456789/+:db") != strlen(w[1]) ||
					  w[1][0] < '0' || w[1][0] > '9'))
			return fail(p, "bad time control '%s'", w[1]);
		strcpy(h->time_control, w[1]);
		h->has_time_control = true;
		h->time_control_line = p->line;
		return 0;
	}
	/* setup */
	if (h->setup_line)
		return fail(p, "duplicate 'setup' (first on line %d)", h->setup_line);
	if (n < 2)
		return fail(p, "usage: setup FEN");
	if (n > 7)
		return fail(p, "bad FEN: more than six fields");
	{
		size_t len = 0;
		uint64_t occ;

		for (int i = 1; i < n; i++) {
			size_t l = strlen(w[i]);

			if (len + l + 2 > sizeof(h->setup_fen))
				return fail(p, "FEN too long");
			if (i > 1)
				h->setup_fen[len++] = ' ';
			memcpy(h->setup_fen + len, w[i], l);
			len += l;
		}
		h->setup_fen[len] = 0;
		if (script_fen_occupancy(h->setup_fen, &occ))
			return fail(p, "bad FEN placement '%s'", w[1]);
	}
	h->has_setup = true;
	h->setup_line = p->line;
	return 0;
}

static int want_words(struct parser *p, char **w, int n, int want, const char *usage)
{
	if (n < want)
		return fail(p, "usage: %s", usage);
	if (n > want)
		return fail(p, "unexpected '%s' after %s", w[want], w[0]);
	return 0;
}

static int action_lift_place(struct parser *p, char **w, int n)
{
	int sq;

	if (want_words(p, w, n, 2, !strcmp(w[0], "lift") ? "lift SQ" : "place SQ"))
		return -1;
	sq = parse_square(w[1]);
	if (sq < 0)
		return fail(p, "bad square '%s' (a1..h8)", w[1]);
	return add_action(p, w[0][0] == 'l' ? SCRIPT_LIFT : SCRIPT_PLACE, sq, 0);
}

static int action_press_hold(struct parser *p, char **w, int n)
{
	bool hold = w[0][0] == 'h';
	int button;
	uint64_t v;

	if (want_words(p, w, n, hold ? 3 : 2, hold ? "hold BUTTON MS" : "press BUTTON"))
		return -1;
	button = board_button_parse(w[1]);
	if (button < 0)
		return fail(p, "bad button '%s'", w[1]);
	if (!hold)
		return add_action(p, SCRIPT_PRESS, button, SCRIPT_PRESS_MS);
	if (parse_uint(w[2], SCRIPT_MAX_WAIT_MS, &v))
		return fail(p, "bad number '%s' (milliseconds, at most %u)", w[2],
			    SCRIPT_MAX_WAIT_MS);
	return add_action(p, SCRIPT_HOLD, button, (uint32_t)v);
}

static int action_chatter(struct parser *p, char **w, int n)
{
	int sq;
	uint64_t v;

	if (want_words(p, w, n, 3, "chatter SQ N"))
		return -1;
	sq = parse_square(w[1]);
	if (sq < 0)
		return fail(p, "bad square '%s' (a1..h8)", w[1]);
	if (parse_uint(w[2], SCRIPT_MAX_CHATTER, &v) || v == 0)
		return fail(p, "bad number '%s' (bounces, 1..%u)", w[2], SCRIPT_MAX_CHATTER);
	return add_action(p, SCRIPT_CHATTER, sq, (uint32_t)v);
}

static int action_stuck_bounce(struct parser *p, char **w, int n)
{
	bool stuck = w[0][0] == 's';
	int target, button, at = stuck ? 3 : 2;
	uint32_t arg2 = 0;
	uint64_t v;

	if (stuck &&
	    want_words(p, w, n, 4, "stuck SQ occupied|empty MS, or stuck BUTTON down|up MS"))
		return -1;
	if (!stuck && n < 3)
		return fail(p, "usage: bounce SQ|BUTTON MS [SEED]");
	if (!stuck && n > 4)
		return fail(p, "unexpected '%s' after bounce", w[4]);
	target = parse_square(w[1]);
	if (target < 0) {
		button = board_button_parse(w[1]);
		if (button < 0)
			return fail(p, "bad square or button '%s'", w[1]);
		target = BOARD_SIM_BUTTON + button;
	}
	if (stuck) {
		const char *on = target < BOARD_SIM_BUTTON ? "occupied" : "down";
		const char *off = target < BOARD_SIM_BUTTON ? "empty" : "up";

		if (strcmp(w[2], on) && strcmp(w[2], off))
			return fail(p, "bad level '%s' (%s or %s)", w[2], on, off);
		arg2 = !strcmp(w[2], on);
	}
	if (parse_uint(w[at], SCRIPT_MAX_WAIT_MS, &v) || v == 0)
		return fail(p, "bad number '%s' (milliseconds, 1..%u)", w[at], SCRIPT_MAX_WAIT_MS);
	if (!stuck && n == 4) {
		uint64_t seed;

		if (parse_uint(w[3], UINT32_MAX, &seed))
			return fail(p, "bad seed '%s' (0..%u)", w[3], UINT32_MAX);
		arg2 = (uint32_t)seed;
	} else if (!stuck) {
		arg2 = (uint32_t)(p->time_ms * 2654435761u) ^ (uint32_t)target * 40503u;
	}
	if (add_action(p, stuck ? SCRIPT_STUCK : SCRIPT_BOUNCE, target, (uint32_t)v))
		return -1;
	p->out->actions[p->out->count - 1].arg2 = arg2;
	return 0;
}

static int action_disk(struct parser *p, char **w, int n)
{
	int f;

	if (n == 3 && !strcmp(w[1], "slow")) {
		uint64_t ms;

		if (parse_uint(w[2], SCRIPT_MAX_SLOW_MS, &ms))
			return fail(p, "bad sync time '%s' (0 to %u ms)", w[2], SCRIPT_MAX_SLOW_MS);
		return add_action(p, SCRIPT_DISK, SCRIPT_DISK_SLOW, (uint32_t)ms);
	}
	if (want_words(p, w, n, 2, "disk full|eio|readonly|ok|removed|slow MS"))
		return -1;
	f = !strcmp(w[1], "removed") ? SCRIPT_DISK_REMOVED : state_fault_parse(w[1]);
	if (f < 0)
		return fail(p, "bad disk state '%s' (full, eio, readonly, ok, removed or slow MS)",
			    w[1]);
	return add_action(p, SCRIPT_DISK, f, 0);
}

static int action_crash(struct parser *p, char **w, int n)
{
	char *end;
	unsigned long bytes;

	if (n == 1)
		return add_action(p, SCRIPT_CRASH, 0, 0);
	if (n == 2 && !strcmp(w[1], "unsynced"))
		return add_action(p, SCRIPT_CRASH, SCRIPT_CRASH_UNSYNCED, 0);
	if (strcmp(w[1], "after"))
		return fail(p, "unexpected '%s' after crash", w[1]);
	if (want_words(p, w, n, 3, "crash after BYTES"))
		return -1;
	errno = 0;
	bytes = strtoul(w[2], &end, 10);
	if (*end || w[2][0] == '-' || errno || bytes < 1 || bytes > 100000000)
		return fail(p, "bad byte count '%s' (1 to 100000000)", w[2]);
	return add_action(p, SCRIPT_CRASH, SCRIPT_CRASH_AFTER_BYTES, (uint32_t)bytes);
}

static int action_control(struct parser *p, char **w, int n)
{
	int role;
	size_t at, author = 0, len;
	char *name;

	if (n < 3)
		return fail(p, "usage: control assistant|arbiter[:NAME] COMMAND...");
	name = strchr(w[1], ':');
	if (name)
		*name++ = '\0';
	if (!strcmp(w[1], "assistant"))
		role = 0;
	else if (!strcmp(w[1], "arbiter"))
		role = 1;
	else
		return fail(p, "bad role '%s' (assistant or arbiter)", w[1]);
	if (name) {
		len = strlen(name);
		if (!len || len > 16 ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789-_") != len)
			return fail(p, "bad name '%s' (letters, digits, - and _; at most 16)",
				    name);
		author = p->out->texts_len + 1;
		if (add_text(p, "script:", false))
			return -1;
		/* "script:" and the name as one text: the space add_text put between them
		 * goes. */
		p->out->texts_len--;
		if (add_text(p, name, true))
			return -1;
	}
	at = p->out->texts_len;
	for (int i = 2; i < n; i++)
		if (add_text(p, w[i], i + 1 == n))
			return -1;
	if (add_action(p, SCRIPT_CONTROL, role, (uint32_t)at))
		return -1;
	p->out->actions[p->out->count - 1].arg2 = (uint32_t)author;
	return 0;
}

/* The board script's actions: each verb and its parser (docs/scripts.md). */
static const struct {
	const char *verb;
	int (*parse)(struct parser *p, char **w, int n);
} actions[] = {
    {"lift", action_lift_place},     {"place", action_lift_place}, {"press", action_press_hold},
    {"hold", action_press_hold},     {"chatter", action_chatter},  {"stuck", action_stuck_bounce},
    {"bounce", action_stuck_bounce}, {"disk", action_disk},	   {"crash", action_crash},
    {"control", action_control},
};

static int parse_action(struct parser *p, char **w, int n)
{
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(w[0], actions[i].verb))
			return actions[i].parse(p, w, n);
	return fail(p, "unknown action '%s'", w[0]);
}

/* One line, comment already cut, NUL-terminated in buf. */
static int parse_line(struct parser *p, char *buf)
{
	char *w[MAX_WORDS];
	int n = 0;
	char *s = buf;
	uint64_t wait;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s)
			break;
		if (n == MAX_WORDS)
			return fail(p, "too many words");
		w[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (*s)
			*s++ = 0;
	}
	if (n == 0)
		return 0;
	if (!strcmp(w[0], "player") || !strcmp(w[0], "time-control") || !strcmp(w[0], "setup"))
		return parse_header(p, w, n);
	if (w[0][0] == '+') {
		if (parse_uint(w[0] + 1, SCRIPT_MAX_WAIT_MS, &wait))
			return fail(p, "bad number '%s' (a wait is +MS, at most %u)", w[0],
				    SCRIPT_MAX_WAIT_MS);
		if (n == 1)
			return fail(p, "missing action after '%s'", w[0]);
		if (!strcmp(w[1], "player") || !strcmp(w[1], "time-control") ||
		    !strcmp(w[1], "setup"))
			return fail(p, "a header line takes no wait");
		if (p->time_ms + wait > SCRIPT_MAX_TIME_MS)
			return fail(p, "script longer than %llu ms",
				    (unsigned long long)SCRIPT_MAX_TIME_MS);
		/* The wait applies to this action; commit it only once the action parses. */
		p->time_ms += wait;
		if (parse_action(p, w + 1, n - 1)) {
			p->time_ms -= wait;
			return -1;
		}
		return 0;
	}
	return parse_action(p, w, n);
}

int script_parse(const char *text, size_t len, const char *name, struct script *out, char *err,
		 size_t err_size)
{
	struct parser p = {
	    .name = name ? name : "script", .err = err, .err_size = err_size, .out = out};
	char buf[SCRIPT_MAX_LINE + 1];
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	out->header.player = -1;
	while (pos < len) {
		size_t end = pos, n;
		char *hash;

		p.line++;
		while (end < len && text[end] != '\n')
			end++;
		n = end - pos;
		if (n > SCRIPT_MAX_LINE) {
			fail(&p, "line too long (at most %d characters)", SCRIPT_MAX_LINE);
			goto fail;
		}
		memcpy(buf, text + pos, n);
		buf[n] = 0;
		if (strlen(buf) != n) {
			fail(&p, "NUL character");
			goto fail;
		}
		hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		if (parse_line(&p, buf))
			goto fail;
		pos = end + 1;
	}
	return 0;
fail:
	script_free(out);
	return -1;
}

int script_append_line(struct script *s, const char *line, int lineno, const char *name,
		       uint64_t at_ms, char *err, size_t err_size)
{
	struct parser p = {.name = name ? name : "script",
			   .line = lineno,
			   .err = err,
			   .err_size = err_size,
			   .out = s,
			   .capacity = s->count,
			   .time_ms = at_ms};
	char buf[SCRIPT_MAX_LINE + 1];
	char *hash;

	if (strlen(line) > SCRIPT_MAX_LINE)
		return fail(&p, "line too long (at most %d characters)", SCRIPT_MAX_LINE);
	snprintf(buf, sizeof(buf), "%s", line);
	hash = strchr(buf, '#');
	if (hash)
		*hash = 0;
	/* After the actions so far: the script's time does not go back. */
	if (s->count && s->actions[s->count - 1].time_ms > p.time_ms)
		p.time_ms = s->actions[s->count - 1].time_ms;
	return parse_line(&p, buf);
}

int script_load(const char *path, struct script *out, char *err, size_t err_size)
{
	FILE *f;
	char *text = NULL;
	size_t len = 0, cap = 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->header.player = -1;
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t got;

		if (len == cap) {
			char *t;

			if (cap >= SCRIPT_MAX_BYTES) {
				snprintf(err, err_size, "%s: larger than %u bytes", path,
					 SCRIPT_MAX_BYTES);
				goto out;
			}
			cap = cap ? cap * 2 : 4096;
			t = realloc(text, cap);
			if (!t) {
				snprintf(err, err_size, "%s: out of memory", path);
				goto out;
			}
			text = t;
		}
		got = fread(text + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, err_size, "%s: read error", path);
		goto out;
	}
	ret = script_parse(text, len, path, out, err, err_size);
out:
	free(text);
	fclose(f);
	return ret;
}

void script_free(struct script *s)
{
	free(s->actions);
	free(s->texts);
	s->actions = NULL;
	s->texts = NULL;
	s->count = 0;
	s->texts_len = 0;
}

const char *script_control_text(const struct script *s, const struct script_action *a)
{
	if (a->type != SCRIPT_CONTROL || !s->texts || a->arg >= s->texts_len)
		return "";
	return s->texts + a->arg;
}

const char *script_control_role(const struct script_action *a)
{
	return a->target ? "arbiter" : "assistant";
}

const char *script_control_author(const struct script *s, const struct script_action *a)
{
	if (a->type != SCRIPT_CONTROL || !a->arg2 || !s->texts || a->arg2 - 1 >= s->texts_len)
		return "script";
	return s->texts + a->arg2 - 1;
}
