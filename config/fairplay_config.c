/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config/fairplay_config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fairplay_config_defaults(struct fairplay_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->watch = FAIRPLAY_WATCH_AUTO;
	fairplay_policy_defaults(&cfg->policy);
	cfg->interval_s = 10;
	snprintf(cfg->sysfs, sizeof(cfg->sysfs), "/sys");
	snprintf(cfg->proc, sizeof(cfg->proc), "/proc");
	snprintf(cfg->utmp, sizeof(cfg->utmp), "/run/utmp");
	snprintf(cfg->root, sizeof(cfg->root), "/");
	snprintf(cfg->engine_dirs, sizeof(cfg->engine_dirs),
		 "/usr/games:/usr/local/games:/usr/bin:/usr/local/bin");
}

/* A key whose value is one of a few words, and where it goes (an int-sized enum). */
static const struct choice {
	const char *key;
	const char *words[3];
	int count;
	size_t offset;
} choices[] = {
    {"watch", {"auto", "yes", "no"}, 3, offsetof(struct fairplay_config, watch)},
    {"network", {"none", "club"}, 2, offsetof(struct fairplay_config, policy.network)},
    {"engine", {"absent", "idle"}, 2, offsetof(struct fairplay_config, policy.engine)},
    {"logins", {"local", "none", "any"}, 3, offsetof(struct fairplay_config, policy.logins)},
    {"files", {"verify", "skip"}, 2, offsetof(struct fairplay_config, policy.files)},
};

/* A key whose value is a path, and where it goes (a buffer the size of sysfs). */
static const struct {
	const char *key;
	size_t offset;
} paths[] = {
    {"sysfs", offsetof(struct fairplay_config, sysfs)},
    {"proc", offsetof(struct fairplay_config, proc)},
    {"utmp", offsetof(struct fairplay_config, utmp)},
    {"dpkg-info", offsetof(struct fairplay_config, dpkg_info)},
    {"root", offsetof(struct fairplay_config, root)},
};

static int set_choice(struct fairplay_config *cfg, const struct choice *c, const char *value,
		      char *err, size_t err_size)
{
	for (int k = 0; k < c->count; k++)
		if (!strcmp(value, c->words[k])) {
			*(int *)(void *)((char *)cfg + c->offset) = k;
			return 0;
		}
	snprintf(err, err_size, "%s must be %s%s%s%s%s, not '%s'", c->key, c->words[0],
		 c->count > 2 ? ", " : " or ", c->words[1], c->count > 2 ? " or " : "",
		 c->count > 2 ? c->words[2] : "", value);
	return -1;
}

static int set_path(struct fairplay_config *cfg, const char *key, size_t offset, const char *value,
		    char *err, size_t err_size)
{
	char *dst = (char *)cfg + offset;

	if ((value[0] != '/' && value[0]) || strlen(value) >= sizeof(cfg->sysfs)) {
		snprintf(err, err_size, "%s must be an absolute path (or empty), not '%s'", key,
			 value);
		return -1;
	}
	snprintf(dst, sizeof(cfg->sysfs), "%s", value);
	return 0;
}

static int set_club(struct fairplay_config *cfg, const char *value, char *err, size_t err_size)
{
	if (strlen(value) >= sizeof(cfg->policy.club) || strpbrk(value, ";,\"")) {
		snprintf(err, err_size,
			 "club: interface names separated by spaces, at most %zu bytes",
			 sizeof(cfg->policy.club) - 1);
		return -1;
	}
	snprintf(cfg->policy.club, sizeof(cfg->policy.club), "%s", value);
	return 0;
}

static int set_engine_dirs(struct fairplay_config *cfg, const char *value, char *err,
			   size_t err_size)
{
	if (value[0] != '/' || strlen(value) >= sizeof(cfg->engine_dirs)) {
		snprintf(err, err_size,
			 "engine-dirs: absolute directories separated by ':', not "
			 "'%s'",
			 value);
		return -1;
	}
	snprintf(cfg->engine_dirs, sizeof(cfg->engine_dirs), "%s", value);
	return 0;
}

static int set_interval(struct fairplay_config *cfg, const char *value, char *err, size_t err_size)
{
	char *end;
	long s;

	errno = 0;
	s = strtol(value, &end, 10);
	if (errno || *end || end == value || s < 1 || s > 600) {
		snprintf(err, err_size, "interval must be 1..600 seconds, not '%s'", value);
		return -1;
	}
	cfg->interval_s = (int)s;
	return 0;
}

/* The keys with a setter of their own. */
static const struct {
	const char *key;
	int (*set)(struct fairplay_config *cfg, const char *value, char *err, size_t err_size);
} setters[] = {
    {"club", set_club},
    {"engine-dirs", set_engine_dirs},
    {"interval", set_interval},
};

int fairplay_config_set(struct fairplay_config *cfg, const char *key, const char *value, char *err,
			size_t err_size)
{
	for (size_t i = 0; i < sizeof(choices) / sizeof(choices[0]); i++)
		if (!strcmp(key, choices[i].key))
			return set_choice(cfg, &choices[i], value, err, err_size);
	for (size_t i = 0; i < sizeof(setters) / sizeof(setters[0]); i++)
		if (!strcmp(key, setters[i].key))
			return setters[i].set(cfg, value, err, err_size);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!strcmp(key, paths[i].key))
			return set_path(cfg, key, paths[i].offset, value, err, err_size);
	snprintf(err, err_size, "unknown key '%s' in [fairplay]", key);
	return -1;
}
