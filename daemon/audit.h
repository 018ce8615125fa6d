/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The audit (docs/state.md "State directory", control.log): what control.log and speech.log say
 * besides their requests and utterances, so an appeals committee can trust and order them.
 *
 * - Text from outside (requests, user names, replies that quote them) is escaped before it
 *   reaches control.log: what is not printable UTF-8 (control characters, bytes that are no
 *   UTF-8, characters that turn text around or hide it, such as U+202E) is written as \xHH
 *   per byte, and a backslash as \\, so a request can neither start a line of its own nor
 *   make one look like another.
 * - Each start of the daemon writes `MS start WALLCLOCK synced|unsynced GAME-ID PLIES` to
 *   both logs: WALLCLOCK is UTC (2026-11-26T08:30:00Z), `synced` only when the system
 *   clock is known to be right (the kernel's NTP state, as timedatectl reads it, or
 *   systemd-timesyncd's flag file when the sandbox hides the kernel's).
 * - Anchors: the SHA-256 of each log as the daemon wrote it (base/pendlog.h), noted in the
 *   game's journal (whose chain then covers them), so `annabella verify` can tell that the
 *   logs were not edited since they were written.
 */
#ifndef ANNABELLA_AUDIT_H
#define ANNABELLA_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* len bytes of in, escaped, into out (NUL-terminated, cut to fit at an escape's edge); the
 * length written. */
size_t audit_escape(const char *in, size_t len, char *out, size_t size);

/* Whether the system clock is known to be right. */
bool audit_clock_synced(void);
/* The time now as `2026-11-26T08:30:00Z`. */
void audit_wallclock(char *buf, size_t size);
/* The start line, with its newline; its length as snprintf. */
int audit_start_line(char *buf, size_t size, uint64_t ms, const char *wallclock, bool synced,
		     const char *game, int plies);

#endif
