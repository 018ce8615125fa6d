/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "daemon/audit.h"

#include <stdio.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#include "base/utf8.h"

/* Characters that are not printable, or that change how the text around them reads: C0
 * and C1 controls, DEL, and the invisible and direction-changing marks (zero-width
 * spaces and joiners, LRM/RLM/ALM, the bidi embeddings, overrides and isolates, the line
 * and paragraph separators, word joiners, the byte order mark, the interlinear marks). */
static bool printable(uint32_t c)
{
	if (utf8_effect(c) != UTF8_PLAIN)
		return false;
	if ((c >= 0x200b && c <= 0x200f) || (c >= 0x2060 && c <= 0x206f) || c == 0x061c ||
	    c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) || c == 0xad)
		return false;
	return true;
}

size_t audit_escape(const char *in, size_t len, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t at = 0, i = 0;

	if (!size)
		return 0;
	while (i < len) {
		uint32_t cp = 0;
		size_t n = utf8_decode(p + i, len - i, &cp);

		if (n && printable(cp) && cp != '\\') {
			if (at + n >= size)
				break;
			memcpy(out + at, p + i, n);
			at += n;
			i += n;
			continue;
		}
		if (n && cp == '\\') {
			if (at + 2 >= size)
				break;
			out[at++] = '\\';
			out[at++] = '\\';
			i++;
			continue;
		}
		/* Each byte of it escaped: a stray byte alone, a whole sequence that is valid
		 * but not printable. */
		if (!n)
			n = 1;
		if (at + 4 * n >= size)
			break;
		for (size_t k = 0; k < n; k++)
			at += (size_t)snprintf(out + at, size - at, "\\x%02x", p[i + k]);
		i += n;
	}
	out[at] = '\0';
	return at;
}

/* systemd-timesyncd's mark that it has synchronised the clock (since systemd 239). */
#define TIMESYNC_FLAG "/run/systemd/timesync/synchronized"

bool audit_clock_synced(void)
{
	struct timex tx = {.modes = 0};
	int state = adjtimex(&tx);

	/* The kernel's own state, as timedatectl's "System clock synchronized" and systemd's
	 * ntp_synced() read it: not marked unsynchronised, and an error under 16 s. */
	if (state >= 0)
		return state != TIME_ERROR && !(tx.status & STA_UNSYNC) && tx.maxerror < 16000000;
	/* Refused (a sandbox's ProtectClock= forbids even reading it): timesyncd's flag. */
	return access(TIMESYNC_FLAG, F_OK) == 0;
}

void audit_wallclock(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "unknown");
}

int audit_start_line(char *buf, size_t size, uint64_t ms, const char *wallclock, bool synced,
		     const char *game, int plies)
{
	return snprintf(buf, size, "%llu start %s %s %s %d\n", (unsigned long long)ms, wallclock,
			synced ? "synced" : "unsynced", game && *game ? game : "-", plies);
}
