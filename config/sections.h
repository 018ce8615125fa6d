/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the configuration's sections share: the setters that config_set()'s table
 * (config.c) dispatches to from their own files, the readers of a number and of a string
 * they use, and BAD, their way to refuse a value.  Each setter takes one key of its section:
 * 0, or -1 with a message in err.  Inside config/ only.
 */
#ifndef ANNABELLA_CONFIG_SECTIONS_H
#define ANNABELLA_CONFIG_SECTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "config/config.h"

/* Refuse the value: the message into err (of err_size bytes), and return -1. */
#define BAD(...)                                                                                   \
	do {                                                                                       \
		snprintf(err, err_size, __VA_ARGS__);                                              \
		return -1;                                                                         \
	} while (0)

/* A decimal number from min to max: 0, or -1 for anything else. */
int config_parse_uint(const char *value, long min, long max, long *out);
/* value into dst of size bytes: 0, or -1 (dst unchanged) if it does not fit. */
int config_copy_string(char *dst, size_t size, const char *value);

void haptic_config_defaults(struct haptic_config *h);

/* voice.c */
int config_set_voice(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size);
int config_set_speech(struct config *cfg, const char *key, const char *value, char *err,
		      size_t err_size);
/* braille.c */
int config_set_braille(struct config *cfg, const char *key, const char *value, char *err,
		       size_t err_size);
/* broadcast.c */
int config_set_broadcast(struct config *cfg, const char *key, const char *value, char *err,
			 size_t err_size);
int config_set_relay(struct config *cfg, const char *key, const char *value, char *err,
		     size_t err_size);
/* power.c: [power]'s defaults, and one of its keys. */
void power_config_defaults(struct power_config *cfg);
int power_config_set(struct power_config *cfg, const char *key, const char *value, char *err,
		     size_t err_size);
/* haptic.c */
int config_set_haptic(struct config *cfg, const char *key, const char *value, char *err,
		      size_t err_size);

#endif
