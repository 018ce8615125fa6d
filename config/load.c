/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Reading the configuration: the file and its drop-ins (FILE.d/NAME.conf) through libinih,
 * each line counted so a refused key's message names its file and line, continuation
 * lines for a direct wiring's squares, and the digest of what was read.
 */
#include "config/sections.h"

#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/sha256.h"
#include "base/utf8.h"

/* The squares list of a direct wiring (64 line numbers) may not fit on one line: it is
 * gathered over indented continuation lines and applied after the file is read. */
#define SQUARES_TEXT_MAX 1024

struct load_ctx {
	struct config *cfg;
	const char *path;
	FILE *file;
	int line;	/* line last read */
	int error_line; /* first line whose key was refused */
	int long_line;	/* first key line too long for the parser */
	bool indented;	/* the line just read starts with blanks: a continuation */
	int squares_line;
	size_t squares_len;
	char squares[SQUARES_TEXT_MAX];
	char message[200];
};

/* Reads for inih, counting lines, so a refused key's message goes with its line.  A line
 * longer than inih's buffer would be cut in two there and misnumber every line after it;
 * a long comment is dropped, a long key line is refused after reading. */
static char *reader(char *str, int num, void *stream)
{
	struct load_ctx *ctx = stream;
	char *s = fgets(str, num, ctx->file);
	size_t len;

	if (!s)
		return NULL;
	ctx->line++;
	ctx->indented = s[0] == ' ' || s[0] == '\t';
	len = strlen(s);
	if (len > 0 && s[len - 1] != '\n' && !feof(ctx->file)) {
		const char *p = s + strspn(s, " \t");
		int c;

		while ((c = fgetc(ctx->file)) != EOF && c != '\n')
			;
		if (*p != '#' && *p != ';' && !ctx->long_line)
			ctx->long_line = ctx->line;
		s[0] = '\n';
		s[1] = '\0';
	}
	return s;
}

static int refuse(struct load_ctx *ctx, const char *msg)
{
	if (!ctx->error_line) {
		ctx->error_line = ctx->line;
		snprintf(ctx->message, sizeof(ctx->message), "%s", msg);
	}
	return 0;
}

/* Keys whose empty value means something (none, the default): any other empty value is a
 * mistake, named with its line rather than taken as a path "" or a number 0. */
static bool may_be_empty(const char *key)
{
	static const char *const keys[] = {"arbiter-pin",
					   "assistant-pin",
					   "variant",
					   "public-variant",
					   "private-variant",
					   "voice-de",
					   "voice-en",
					   "voice-sv",
					   "voice-nl",
					   "host",
					   "auth",
					   "warnings",
					   "event",
					   "site",
					   "round",
					   "white",
					   "black",
					   "arbiters",
					   "tty",
					   "club",
					   "utmp",
					   "dpkg-info"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* Whether value holds a character that breaks the line or turns the text (a tab is
 * white space). */
static bool turns_text(const char *value)
{
	const unsigned char *p = (const unsigned char *)value;
	size_t len = strlen(value);

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_decode(p + i, len - i, &cp);

		if (n && cp != '\t' && utf8_effect(cp) != UTF8_PLAIN)
			return true;
		i += n ? n : 1;
	}
	return false;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *ctx = user;
	char msg[200];

	/* Values become tags, names and words a person reads: nothing that breaks a line or
	 * turns the text (base/utf8.h).  Bytes that are no UTF-8 (a file in Latin-1 from
	 * before) are taken as they were: the scoresheets write them as U+FFFD. */
	if (turns_text(value)) {
		snprintf(msg, sizeof(msg),
			 "%s: a character that breaks the line or turns the text (such as U+202E "
			 "or U+2028)",
			 name);
		return refuse(ctx, msg);
	}
	if (!strcmp(section, "board") && !strcmp(name, "squares")) {
		size_t n = strlen(value);

		/* A new squares key replaces the list, as a later value does for any key;
		 * an indented line continues it. */
		if (!ctx->indented) {
			ctx->squares_len = 0;
			ctx->squares_line = ctx->line;
		}
		if (ctx->squares_len + n + 2 > sizeof(ctx->squares))
			return refuse(ctx, "squares: too long");
		if (ctx->squares_len)
			ctx->squares[ctx->squares_len++] = ' ';
		memcpy(ctx->squares + ctx->squares_len, value, n + 1);
		ctx->squares_len += n;
		return 1;
	}
	if (!value[0] && !may_be_empty(name)) {
		snprintf(msg, sizeof(msg), "%s has no value", name);
		return refuse(ctx, msg);
	}
	if (config_set(ctx->cfg, section, name, value, msg, sizeof(msg)) == 0) {
		if (!strcmp(section, "control") && strstr(name, "-pin")) {
			struct config_pin *pin =
			    name[1] == 'r' ? &ctx->cfg->arbiter_pin : &ctx->cfg->assistant_pin;

			snprintf(pin->file, sizeof(pin->file), "%s", ctx->path);
			pin->line = ctx->line;
		}
		if (!strcmp(section, "speech") && !strncmp(name, "pronounce", 9)) {
			struct config_place *at = &ctx->cfg->pronounce_at[ctx->cfg->pronounce_last];

			/* The last given wins; where the one it replaced was given is kept. */
			ctx->cfg->pronounce_replaced[ctx->cfg->pronounce_last] =
			    ctx->cfg->pronounce_again ? *at : (struct config_place){0};
			snprintf(at->file, sizeof(at->file), "%s", ctx->path);
			at->line = ctx->line;
		}
		return 1;
	}
	return refuse(ctx, msg);
}

static int load_file(struct config *cfg, const char *path, char *err, size_t err_size)
{
	struct load_ctx ctx = {.cfg = cfg, .path = path};
	char msg[200];
	int rc;

	ctx.file = fopen(path, "r");
	if (!ctx.file) {
		snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	{
		struct stat st;

		if (fstat(fileno(ctx.file), &st) == 0 && !S_ISREG(st.st_mode)) {
			fclose(ctx.file);
			snprintf(err, err_size, "%s: not a configuration file (%s)", path,
				 S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
			return -1;
		}
	}
	rc = ini_parse_stream(reader, &ctx, handler, &ctx);
	fclose(ctx.file);
	if (rc == -2) {
		snprintf(err, err_size, "%s: out of memory", path);
		return -1;
	}
	if (ctx.long_line && (rc <= 0 || ctx.long_line < rc)) {
		snprintf(err, err_size,
			 "%s:%d: line too long (at most 198 characters; continue a long value on "
			 "indented lines)",
			 path, ctx.long_line);
		return -1;
	}
	if (rc > 0) {
		snprintf(err, err_size, "%s:%d: %s", path, rc,
			 rc == ctx.error_line ? ctx.message
					      : "syntax error (expected [section] or key = value)");
		return -1;
	}
	if (ctx.squares_line &&
	    board_config_set(&cfg->board, "squares", ctx.squares, msg, sizeof(msg))) {
		snprintf(err, err_size, "%s:%d: %s", path, ctx.squares_line, msg);
		return -1;
	}
	return 0;
}

/* A drop-in's name: NAME.conf, not hidden (an editor's or a package manager's leftovers,
 * such as .x.conf.swp or x.conf.dpkg-dist, are not read). */
static int dropin_filter(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".conf");
}

/* Byte order, whatever the locale: 10-x.conf before 20-y.conf before a.conf. */
static int dropin_order(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The bytes of a file read into the configuration's digest (config.h). */
static void digest_file(struct sha256 *h, const char *path)
{
	unsigned char buf[4096];
	FILE *f = fopen(path, "rbe");
	size_t n;

	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(h, buf, n);
	fclose(f);
}

static void digest_done(struct config *cfg, struct sha256 *h)
{
	unsigned char digest[SHA256_SIZE];
	char hex[2 * SHA256_SIZE + 1];

	sha256_final(h, digest);
	sha256_hex(digest, SHA256_SIZE, hex);
	snprintf(cfg->digest, sizeof(cfg->digest), "%.16s", hex);
}

int config_load(struct config *cfg, const char *path, char *err, size_t err_size)
{
	char dir[PATH_MAX], file[PATH_MAX];
	struct dirent **names;
	struct sha256 h;
	int n, rc = 0;

	sha256_init(&h);
	if (load_file(cfg, path, err, err_size))
		return -1;
	digest_file(&h, path);
	if (snprintf(dir, sizeof(dir), "%s.d", path) >= (int)sizeof(dir)) {
		snprintf(err, err_size, "%s.d: path too long", path);
		return -1;
	}
	n = scandir(dir, &names, dropin_filter, dropin_order);
	if (n < 0) {
		if (errno == ENOENT) {
			digest_done(cfg, &h);
			return 0;
		}
		snprintf(err, err_size, "%s: cannot read the drop-in directory: %s", dir,
			 strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (!rc) {
			if (snprintf(file, sizeof(file), "%s/%s", dir, names[i]->d_name) >=
			    (int)sizeof(file)) {
				snprintf(err, err_size, "%s/%s: path too long", dir,
					 names[i]->d_name);
				rc = -1;
			} else if (load_file(cfg, file, err, err_size)) {
				rc = -1;
			} else {
				digest_file(&h, file);
			}
		}
		free(names[i]);
	}
	free(names);
	digest_done(cfg, &h);
	return rc;
}
