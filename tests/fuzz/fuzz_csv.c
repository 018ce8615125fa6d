/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the round's tags CSV of `annabella relay tags` (net/room.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "net/room.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct room_csv csv;
	char err[256];

	if (room_csv_parse((const char *)data, size, &csv, err, sizeof(err)) == 0) {
		/* At least one board, each named as a topic allows, and its payload made. */
		if (csv.row_count < 1 || csv.row_count > ROOM_BOARDS_MAX)
			__builtin_trap();
		for (int i = 0; i < csv.row_count; i++) {
			struct strbuf out = {0};

			if (!room_board_name_ok(csv.rows[i].name))
				__builtin_trap();
			room_csv_payload(&csv, i, &out);
			free(out.p);
		}
	} else if (!err[0]) {
		__builtin_trap(); /* an error always says where and why */
	}
	return 0;
}
