/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * speech.log (docs/state.md "State directory"): a line for each utterance as the voice
 * thread begins it, held until the daemon's start line so that the start line comes first,
 * and kept through storage faults (base/pendlog.h) until storage works again.
 */
#include "voice/voice_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What was held for the start line goes to speech.log after it (or without it, at the end). */
static void release_held(struct voice *v)
{
	if (!v->holding)
		return;
	v->holding = false;
	if (v->held_lines.len && !v->held_lines.failed)
		pendlog_add(&v->slog, v->held_lines.p, v->held_lines.len);
	free(v->held_lines.p);
	v->held_lines = (struct strbuf){0};
}

void voice_speech_log_write(struct voice *v, const struct item *it)
{
	char line[VOICE_TEXT_MAX + 64];
	int n = snprintf(line, sizeof(line), "%llu %s ", (unsigned long long)it->time_ms,
			 voice_channel_names[it->ch]);
	size_t len;

	if (n < 0)
		return;
	len = (size_t)n;
	for (const char *p = it->u.text; *p && len + 2 < sizeof(line); p++)
		line[len++] = (*p == '\n' || *p == '\r') ? ' ' : *p;
	line[len++] = '\n';
	pthread_mutex_lock(&v->log_lock);
	if (v->holding && v->held_lines.len + len <= VOICE_LOG_PENDING_MAX) {
		strbuf_append(&v->held_lines, line, len);
		if (v->held_lines.failed)
			release_held(v);
	} else {
		release_held(v);
		pendlog_add(&v->slog, line, len);
	}
	pthread_mutex_unlock(&v->log_lock);
}

int voice_log_digest(struct voice *v, off_t *bytes, char hex[2 * SHA256_SIZE + 1])
{
	int rc;

	pthread_mutex_lock(&v->log_lock);
	rc = pendlog_digest(&v->slog, bytes, hex);
	pthread_mutex_unlock(&v->log_lock);
	return rc;
}

void voice_log_line(struct voice *v, const char *line)
{
	pthread_mutex_lock(&v->log_lock);
	pendlog_start(&v->slog, line, strlen(line));
	release_held(v);
	pthread_mutex_unlock(&v->log_lock);
}

/* The voice thread's end: what was held goes to speech.log, and a last try to write it. */
void voice_log_end(struct voice *v)
{
	pthread_mutex_lock(&v->log_lock);
	release_held(v);
	if (pendlog_waiting(&v->slog))
		pendlog_flush(&v->slog); /* a last try at the end */
	pthread_mutex_unlock(&v->log_lock);
}
