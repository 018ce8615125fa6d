/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the audio record's reader (voice/oggopus.h), which a restarted daemon
 * runs over a record a crash may have torn.  Whatever the bytes: the whole pages it finds
 * lie within the file, and a writer that continues the file leaves it whole pages to the
 * end, the pages found before kept.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "voice/oggopus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int16_t tone[441];
	struct ogg_opus_info before, after;
	struct ogg_opus_writer *w;
	struct stat st;
	int fd = memfd_create("record", 0);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	if (ogg_opus_scan(fd, &before, NULL, NULL) || before.valid_end < 0 ||
	    (size_t)before.valid_end > size)
		abort();
	w = ogg_opus_open_fd(fd, 22050);
	if (!w) {
		close(fd);
		return 0;
	}
	ogg_opus_write(w, tone, sizeof(tone) / sizeof(tone[0]));
	ogg_opus_commit(w);
	if (ogg_opus_scan(fd, &after, NULL, NULL) || fstat(fd, &st) ||
	    after.valid_end != st.st_size || after.pages <= before.pages)
		abort();
	ogg_opus_close(w);
	return 0;
}
