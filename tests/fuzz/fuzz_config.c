/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the configuration file.  The input is written to a file and loaded over
 * the defaults; it must never crash, and every error must start with the file name.  The
 * user's pronunciation overrides it accepted are applied to a text in every language.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "voice/pronounce.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct config cfg;
	char err[512];
	FILE *f;

	if (size > 16384)
		return 0;
	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/annabella-fuzz-config-%d.conf", (int)getpid());
	f = fopen(path, "wb");
	if (!f)
		return 0;
	if (fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);
	config_defaults(&cfg);
	err[0] = '\0';
	if (config_load(&cfg, path, err, sizeof(err)) != 0) {
		size_t n = strlen(path);

		if (strncmp(err, path, n) != 0 || err[n] != ':')
			__builtin_trap(); /* an error that does not name the file */
	} else {
		static const char text[] = "Springer Cesar eins schlägt David acht en passant, "
					   "one hundred and five remi opgeven";
		char out[1024];

		for (int lang = 0; lang < PHRASE_LANG_COUNT; lang++)
			if (pronounce_apply(&cfg.voice.pronounce, (enum phrase_lang)lang, text, out,
					    sizeof(out)) >= sizeof(out))
				__builtin_trap();
	}
	unlink(path);
	return 0;
}
