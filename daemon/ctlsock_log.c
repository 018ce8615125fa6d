/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * control.log (docs/state.md "State directory"): the audit's line for every request and its
 * reply, reads counted per author and written as one line, a request as the log shows it
 * (never a PIN), and its lines kept through a storage fault and written when storage works
 * again.
 */
#include "daemon/ctlsock_int.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "daemon/audit.h"
#include "store/state.h"

/* control.log kept through a storage fault: at most this much, tried again this often. */
#define CONTROL_LOG_PENDING_MAX (1 << 20)
#define LOG_RETRY_MS		1000u

/* ------------------------------------------------------------------ the audit */

/* control.log: MS AUTHOR ROLE COMMAND => ok|error TEXT; the author and the text escaped
 * here (audit.h), the command by loggable(). */
void ctl_audit(struct ctlsock *c, uint64_t now, const char *author, enum game_role role,
	       const char *line, bool ok, const char *text)
{
	char buf[4096], who[4 * GAME_AUTHOR_MAX], said[2048];
	int n;

	audit_escape(author, strlen(author), who, sizeof(who));
	audit_escape(text ? text : "", text ? strlen(text) : 0, said, sizeof(said));
	n = snprintf(buf, sizeof(buf), "%llu %s %s %s => %s%s%s\n", (unsigned long long)now, who,
		     control_role_name(role), line, ok ? "ok" : "error", said[0] ? " " : "", said);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf)) {
		n = sizeof(buf) - 1;
		buf[n - 1] = '\n';
	}
	pendlog_add(&c->clog, buf, (size_t)n);
}

void ctlsock_log_line(struct ctlsock *c, const char *line)
{
	pendlog_start(&c->clog, line, strlen(line));
}

int ctlsock_log_digest(const struct ctlsock *c, off_t *bytes, char hex[2 * SHA256_SIZE + 1])
{
	return c ? pendlog_digest(&c->clog, bytes, hex) : -1;
}

/* ------------------------------------------------------------------ reads, counted */

/* One line for an author's reads: `MS AUTHOR ROLE (N reads since MS0) => ok status 1520,
 * moves 3; 2 refused`. */
static void reads_write(struct ctlsock *c, struct reads *r, uint64_t now)
{
	char shown[64], text[400];
	unsigned long all = 0;
	size_t at = 0;

	for (int i = 0; i < READS_KINDS && r->kind[i]; i++) {
		all += r->count[i];
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s %lu", i ? ", " : "",
				       r->kind[i]->name, r->count[i]);
		if (at >= sizeof(text))
			at = sizeof(text) - 1;
	}
	if (r->refused)
		snprintf(text + at, sizeof(text) - at, "; %lu refused", r->refused);
	snprintf(shown, sizeof(shown), "(%lu reads since %llu)", all,
		 (unsigned long long)r->since - 1);
	ctl_audit(c, now, r->author, r->role, shown, true, text);
	memset(r, 0, sizeof(*r));
}

/* The reads of `author` written (before a request of theirs that is no read); NULL: all. */
void ctl_reads_flush(struct ctlsock *c, const char *author, uint64_t now)
{
	for (int i = 0; i < READS_AUTHORS; i++)
		if (c->reads[i].since && (!author || !strcmp(c->reads[i].author, author)))
			reads_write(c, &c->reads[i], now);
}

/* A read counted for its author; the oldest author's written first when all places are
 * taken. */
void ctl_reads_count(struct ctlsock *c, const char *author, enum game_role role,
		     const struct control_command *row, bool ok, uint64_t now)
{
	struct reads *r = NULL, *oldest = &c->reads[0];
	int k;

	for (int i = 0; i < READS_AUTHORS && !r; i++) {
		struct reads *e = &c->reads[i];

		if (e->since && e->role == role && !strcmp(e->author, author))
			r = e;
		else if (!oldest->since || (e->since && e->since < oldest->since))
			oldest = e;
	}
	for (int i = 0; i < READS_AUTHORS && !r; i++)
		if (!c->reads[i].since)
			r = &c->reads[i];
	if (!r) {
		reads_write(c, oldest, now);
		r = oldest;
	}
	if (!r->since) {
		snprintf(r->author, sizeof(r->author), "%s", author);
		r->role = role;
		r->since = now + 1; /* 0 is a free place */
	}
	for (k = 0; k < READS_KINDS - 1 && r->kind[k] && r->kind[k] != row; k++)
		;
	r->kind[k] = row;
	r->count[k]++;
	r->refused += !ok;
}

void ctlsock_log_reads(struct ctlsock *c, uint64_t now)
{
	if (c)
		ctl_reads_flush(c, NULL, now);
}

static uint64_t reads_deadline(void *user, uint64_t now)
{
	struct ctlsock *c = user;
	uint64_t at = UINT64_MAX;

	(void)now;
	for (int i = 0; i < READS_AUTHORS; i++)
		if (c->reads[i].since && c->reads[i].since - 1 + READS_MS < at)
			at = c->reads[i].since - 1 + READS_MS;
	return at;
}

static void reads_due(void *user, uint64_t now)
{
	struct ctlsock *c = user;

	for (int i = 0; i < READS_AUTHORS; i++)
		if (c->reads[i].since && c->reads[i].since - 1 + READS_MS <= now)
			reads_write(c, &c->reads[i], now);
}

/* Lines kept through a storage fault are written when storage works again, without waiting
 * for the next request: tried once a second. */
static uint64_t log_deadline(void *user, uint64_t now)
{
	struct ctlsock *c = user;

	if (!pendlog_waiting(&c->clog))
		return UINT64_MAX;
	if (!c->log_retry_at)
		c->log_retry_at = now + LOG_RETRY_MS;
	return c->log_retry_at;
}

static void log_retry(void *user, uint64_t now)
{
	struct ctlsock *c = user;

	(void)now;
	c->log_retry_at = 0;
	pendlog_flush(&c->clog);
}

/* The request as the log shows it: its first 200 bytes escaped (audit.h), "..." after a
 * longer one.  out: at least LOGGABLE_MAX bytes. */
static void loggable(const char *line, size_t len, char *out, size_t size)
{
	size_t n = audit_escape(line, len < 200 ? len : 200, out, size - 3);

	if (len > 200)
		memcpy(out + n, "...", 4);
}

/*
 * The request and its reply as control.log shows them: never a PIN.  `auth` is `auth ****`;
 * a request no row of the table took (a mistyped `Auth` or `atuh`, bytes refused before its
 * words were read) is its length alone, since what follows its first word may be a PIN; the
 * reply of either is its code when its words quote the request.  Else the request's first
 * 200 bytes, escaped.
 */
void ctl_shown_request(struct control_outcome *out, const char *line, size_t len, char *shown,
		       size_t size)
{
	if (out->command && !(out->command->flags & CONTROL_SECRET)) {
		loggable(line, len, shown, size);
		return;
	}
	if (out->command)
		snprintf(shown, size, "%s ****", out->command->name);
	else
		snprintf(shown, size, "(%zu bytes)", len);
	if (!out->command || out->quotes)
		snprintf(out->said, sizeof(out->said), "%s", reply_row(out->code)->name);
}

void ctl_log_open(struct ctlsock *c, const struct config *cfg)
{
	char log_path[PATH_MAX];

	snprintf(log_path, sizeof(log_path), "%s/control.log", cfg->state_dir);
	pendlog_open(&c->clog, log_path, LOG_CONTROL, CONTROL_LOG_PENDING_MAX, state_write);
	pendlog_set_reserve(&c->clog, (unsigned long long)cfg->reserve_mb << 20);
	loop_add_source(c->loop, log_deadline, log_retry, c);
	loop_add_source(c->loop, reads_deadline, reads_due, c);
}
