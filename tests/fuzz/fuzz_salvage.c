/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A damaged scoresheet read as far as it can be (store/salvage.h): arbitrary bytes.  It must
 * never crash and must end; every ply it places is within the file's plies, every move text
 * a SAN-shaped string, every comment within the text, every tag a name and a value that fit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"
#include "store/salvage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct chess_pos start;
	struct salvage sv;
	char *text;

	if (!ready) {
		chess_init();
		ready = true;
	}
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	chess_pos_init_start(&start);
	if (salvage_read(&sv, text, size, &start) == 0) {
		if (sv.count < 0 || sv.tag_count < 0 || sv.tag_count > SALVAGE_TAGS_MAX)
			abort();
		for (int i = 0; i < sv.count; i++) {
			const struct salvage_ply *p = &sv.plies[i];

			if (strlen(p->san) >= CHESS_SAN_MAX ||
			    (p->comment &&
			     (p->comment < text || p->comment + p->comment_len > text + size)))
				abort();
		}
		for (int i = 0; i < sv.tag_count; i++)
			if (!sv.tags[i].name[0] ||
			    strlen(sv.tags[i].value) >= SALVAGE_TAG_VALUE_MAX)
				abort();
		salvage_free(&sv);
	}
	free(text);
	return 0;
}
