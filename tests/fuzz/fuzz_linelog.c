/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: line logs (docs/scripts.md "Board scripts, line logs, time controls").  The
 * parser on its own, then a valid log replayed through the board code (debounce) in virtual time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpio/board.h"
#include "gpio/linelog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct linelog_reader r;
	struct linelog_edge e;
	struct board_config cfg;
	struct board_event ev[16];
	struct board *b;
	char err[256], spec[64];
	FILE *f;
	int got, fd;

	if (size == 0 || size > 8192)
		return 0;
	f = fmemopen((void *)(uintptr_t)data, size, "r");
	if (!f)
		return 0;
	linelog_reader_init(&r, f, "fuzz");
	while ((got = linelog_read(&r, &e, err, sizeof(err))) > 0)
		;
	fclose(f);
	if (got < 0)
		return 0;

	fd = memfd_create("linelog", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	board_config_defaults(&cfg);
	cfg.wiring = (enum board_wiring)(data[0] % 3);
	snprintf(spec, sizeof(spec), "replay:/proc/self/fd/%d", fd);
	b = board_open(&cfg, spec, NULL, 0, err, sizeof(err));
	if (b) {
		uint64_t now = 0;

		for (int i = 0; i < 4096 && !board_finished(b); i++) {
			uint64_t d = board_deadline(b);

			if (d == UINT64_MAX)
				__builtin_trap(); /* unfinished but nothing to wait for */
			if (d > now)
				now = d;
			if (board_service(b, now, ev, 16) < 0)
				break;
		}
		board_close(b);
	}
	close(fd);
	return 0;
}
