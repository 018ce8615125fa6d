/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The pronunciation overrides of the configuration ([speech] pronounce WORD = PHONEMES),
 * tried at start (voice/pronounce_check.h) before the voice thread runs: one whose phonemes
 * eSpeak NG does not read whole is refused with its file and line (the daemon exits 2); one
 * that sounds far shorter than the word it replaces is logged as a warning with its file and
 * line, and used.
 */
#ifndef ANNABELLA_SPEECHCHECK_H
#define ANNABELLA_SPEECHCHECK_H

#include <stddef.h>

#include "config/config.h"

/* 0, or -1 with "FILE:LINE: message" in err. */
int speechcheck_pronounce(const struct config *cfg, char *err, size_t err_size);

#endif
