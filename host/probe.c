/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The machine measured for the fair-play state (probe.h).
 */
#include "host/probe.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utmpx.h>

extern char **environ;

#include "base/firstline.h"
#include "base/md5.h"
#include "base/sha256.h"

/* The executables of the chess engines Debian ships (bookworm and trixie), by name. */
static const char *const engines[] = {
    "stockfish", "crafty",   "ethereal", "glaurung", "hoichess", "toga2",    "fruit",
    "gnuchess",	 "fairymax", "phalanx",	 "sjeng",    "lc0",	 "polyglot",
};
#define ENGINES (sizeof(engines) / sizeof(engines[0]))

void probe_config_defaults(struct probe_config *c)
{
	memset(c, 0, sizeof(*c));
	c->sysfs = "/sys";
	c->proc = "/proc";
	c->utmp = "/run/utmp";
	c->dpkg_info = "";
	c->package = "annabella";
	c->engine_dirs = "/usr/games:/usr/local/games:/usr/bin:/usr/local/bin";
	c->engine = "";
	c->root = "/";
	c->addresses = true;
	c->files = true;
	c->version = "";
	c->config_digest = "";
}

/* printf into buf: 0, or -1 when it does not fit (what is cut is not used). */
static int format(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Append a word to a space-separated list, unless it is there; cut when full. */
static void add_word(char *list, size_t size, const char *word)
{
	size_t len = strlen(list), n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return;
	if (len + (len ? 1 : 0) + n + 1 > size)
		return;
	if (len)
		list[len++] = ' ';
	memcpy(list + len, word, n + 1);
}

/* ------------------------------------------------------------------ network and radios */

static void interface_addresses(const char *name, char *out, size_t size)
{
	struct ifaddrs *all, *a;

	out[0] = '\0';
	if (getifaddrs(&all))
		return;
	for (a = all; a; a = a->ifa_next) {
		char addr[INET6_ADDRSTRLEN], word[INET6_ADDRSTRLEN + 8];
		const void *bytes;
		int family, prefix = 0;

		if (!a->ifa_addr || strcmp(a->ifa_name, name))
			continue;
		family = a->ifa_addr->sa_family;
		if (family == AF_INET)
			bytes = &((const struct sockaddr_in *)(const void *)a->ifa_addr)->sin_addr;
		else if (family == AF_INET6)
			bytes =
			    &((const struct sockaddr_in6 *)(const void *)a->ifa_addr)->sin6_addr;
		else
			continue;
		if (!inet_ntop(family, bytes, addr, sizeof(addr)))
			continue;
		if (a->ifa_netmask) {
			const unsigned char *m =
			    family == AF_INET
				? (const unsigned char *)&(
				      (const struct sockaddr_in *)(const void *)a->ifa_netmask)
				      ->sin_addr
				: (const unsigned char *)&(
				      (const struct sockaddr_in6 *)(const void *)a->ifa_netmask)
				      ->sin6_addr;
			for (int i = 0; i < (family == AF_INET ? 4 : 16); i++)
				prefix += __builtin_popcount(m[i]);
		}
		format(word, sizeof(word), "%s/%d", addr, prefix);
		if (strlen(out) + strlen(word) + 2 <= size)
			snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? "," : "",
				 word);
	}
	freeifaddrs(all);
}

/* Interfaces the administrator brought up (IFF_UP in their flags), loopback aside: a dummy
 * interface is up with its operstate "unknown", so the flag is what counts. */
static void measure_interfaces(const struct probe_config *c, struct fairplay_state *s)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], flags[32];
	struct dirent **names;
	int n;

	format(dir, sizeof(dir), "%s/class/net", c->sysfs);
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		struct fairplay_iface *f = &s->ifaces[s->n_ifaces];
		struct stat st;

		format(path, sizeof(path), "%s/%s/flags", dir, name);
		if (name[0] != '.' && strcmp(name, "lo") && s->n_ifaces < FAIRPLAY_IFACES &&
		    !file_first_line(path, flags, sizeof(flags)) &&
		    (strtoul(flags, NULL, 16) & 1) && strlen(name) < sizeof(f->name)) {
			memset(f, 0, sizeof(*f));
			strcpy(f->name, name);
			format(path, sizeof(path), "%s/%s/wireless", dir, name);
			f->wireless = !stat(path, &st);
			format(path, sizeof(path), "%s/%s/phy80211", dir, name);
			f->wireless |= !stat(path, &st);
			if (c->addresses)
				interface_addresses(name, f->addrs, sizeof(f->addrs));
			s->n_ifaces++;
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
}

static void measure_radios(const struct probe_config *c, struct fairplay_state *s)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], soft[8], hard[8];
	struct dirent **names;
	int n;

	format(dir, sizeof(dir), "%s/class/rfkill", c->sysfs);
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		struct fairplay_radio *r = &s->radios[s->n_radios];

		format(path, sizeof(path), "%s/%s/type", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && s->n_radios < FAIRPLAY_RADIOS &&
		    !file_first_line(path, r->type, sizeof(r->type))) {
			format(path, sizeof(path), "%s/%s/soft", dir, names[i]->d_name);
			if (file_first_line(path, soft, sizeof(soft)))
				snprintf(soft, sizeof(soft), "0");
			format(path, sizeof(path), "%s/%s/hard", dir, names[i]->d_name);
			if (file_first_line(path, hard, sizeof(hard)))
				snprintf(hard, sizeof(hard), "0");
			r->blocked = strcmp(soft, "0") || strcmp(hard, "0");
			s->n_radios++;
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
}

/* ------------------------------------------------------------------ engines and logins */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void measure_installed(const struct probe_config *c, struct fairplay_state *s)
{
	char dirs[PATH_MAX], path[PATH_MAX * 2], *save = NULL;

	snprintf(dirs, sizeof(dirs), "%s", c->engine_dirs ? c->engine_dirs : "");
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
		for (size_t i = 0; i < ENGINES; i++) {
			format(path, sizeof(path), "%s/%s", d, engines[i]);
			if (!access(path, X_OK))
				add_word(s->installed, sizeof(s->installed), engines[i]);
		}
	if (c->engine && c->engine[0] == '/' && !access(c->engine, X_OK))
		add_word(s->installed, sizeof(s->installed), base_name(c->engine));
}

/* Whether a process's name is an engine's: one of Debian's, or the configured one (the
 * kernel's comm keeps 15 bytes of the name). */
static bool engine_name(const struct probe_config *c, const char *comm)
{
	const char *mine = c->engine && c->engine[0] ? base_name(c->engine) : NULL;

	for (size_t i = 0; i < ENGINES; i++)
		if (!strncmp(comm, engines[i], 15) && strlen(comm) == strnlen(engines[i], 15))
			return true;
	return mine && !strncmp(comm, mine, 15) && strlen(comm) == strnlen(mine, 15);
}

static void measure_running(const struct probe_config *c, struct fairplay_state *s)
{
	DIR *d = opendir(c->proc);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX], comm[32], word[64];

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		format(path, sizeof(path), "%s/%s/comm", c->proc, e->d_name);
		if (file_first_line(path, comm, sizeof(comm)) || !engine_name(c, comm))
			continue;
		format(word, sizeof(word), "%s:%s", comm, e->d_name);
		add_word(s->running, sizeof(s->running), word);
	}
	if (d)
		closedir(d);
}

/* The interactive logins utmp holds (a session whose process still lives): local ones at a
 * console or a local terminal, remote ones with the host they came from. */
static void measure_logins(const struct probe_config *c, struct fairplay_state *s)
{
	struct utmpx *u;

	if (!c->utmp || !c->utmp[0] || access(c->utmp, R_OK))
		return;
	if (utmpxname(c->utmp))
		return;
	setutxent();
	while ((u = getutxent())) {
		char user[sizeof(u->ut_user) + 1], line[sizeof(u->ut_line) + 1];
		char host[sizeof(u->ut_host) + 1], word[128];

		if (u->ut_type != USER_PROCESS ||
		    (u->ut_pid > 0 && kill(u->ut_pid, 0) && errno == ESRCH))
			continue;
		snprintf(user, sizeof(user), "%.*s", (int)sizeof(u->ut_user), u->ut_user);
		snprintf(line, sizeof(line), "%.*s", (int)sizeof(u->ut_line), u->ut_line);
		snprintf(host, sizeof(host), "%.*s", (int)sizeof(u->ut_host), u->ut_host);
		for (char *p = user; *p; p++)
			if (*p == ' ' || *p == ';')
				*p = '_';
		/* A graphical session's display (":0") is local. */
		if (host[0] && host[0] != ':') {
			format(word, sizeof(word), "%s@%s(%s)", user, line, host);
			add_word(s->remote, sizeof(s->remote), word);
		} else {
			format(word, sizeof(word), "%s@%s", user, line);
			add_word(s->local, sizeof(s->local), word);
		}
	}
	endutxent();
}

/* ------------------------------------------------------------------ the package's files */

static int file_md5(const char *path, char hex[2 * MD5_SIZE + 1])
{
	unsigned char buf[65536], digest[MD5_SIZE];
	struct md5 m;
	FILE *f = fopen(path, "rbe");
	size_t n;

	if (!f)
		return -1;
	md5_init(&m);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		md5_update(&m, buf, n);
	fclose(f);
	md5_final(&m, digest);
	for (int i = 0; i < MD5_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	return 0;
}

/* The package's checksums: PACKAGE.md5sums of the directory the configuration gives, or, by
 * default, as dpkg's own interface gives them (dpkg-query --control-show, never the database
 * read directly).  A stream to read, or NULL; *child the dpkg-query to wait for (0: none). */
static FILE *open_md5sums(const struct probe_config *c, pid_t *child)
{
	char path[PATH_MAX], query[] = "dpkg-query", show[] = "--control-show", what[] = "md5sums";
	char package[64];
	char *argv[] = {query, show, package, what, NULL};
	posix_spawn_file_actions_t fa;
	int fds[2];
	FILE *f;

	*child = 0;
	if (c->dpkg_info && c->dpkg_info[0]) {
		if (format(path, sizeof(path), "%s/%s.md5sums", c->dpkg_info, c->package))
			return NULL;
		return fopen(path, "re");
	}
	if (format(package, sizeof(package), "%s", c->package) || pipe2(fds, O_CLOEXEC))
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(child, "dpkg-query", &fa, NULL, argv, environ)) {
		*child = 0;
		close(fds[0]);
		close(fds[1]);
		posix_spawn_file_actions_destroy(&fa);
		return NULL;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f)
		close(fds[0]);
	return f;
}

int probe_package_files(const struct probe_config *c, char *first, size_t size)
{
	char path[PATH_MAX], line[PATH_MAX + 64], hex[2 * MD5_SIZE + 1];
	FILE *sums;
	pid_t child;
	int changed = 0, lines = 0, status = 0;

	first[0] = '\0';
	sums = open_md5sums(c, &child);
	if (!sums) {
		if (child > 0)
			waitpid(child, &status, 0);
		return -1;
	}
	while (fgets(line, sizeof(line), sums)) {
		char *name;

		line[strcspn(line, "\n")] = '\0';
		/* "MD5  path" (two spaces; the path relative to the root). */
		if (strlen(line) < 2 * MD5_SIZE + 3 || line[2 * MD5_SIZE] != ' ')
			continue;
		lines++;
		name = line + 2 * MD5_SIZE + 2;
		if (format(path, sizeof(path), "%s/%s", c->root, name) || file_md5(path, hex) ||
		    strncmp(hex, line, 2 * MD5_SIZE)) {
			if (!changed++)
				snprintf(first, size, "/%s", name);
		}
	}
	fclose(sums);
	/* dpkg-query that failed (the package not installed) or gave nothing: not checked. */
	if (child > 0 &&
	    (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0))
		return -1;
	return lines ? changed : -1;
}

void probe_files_digest(const char *const *paths, int count, char out[17])
{
	unsigned char buf[4096], digest[SHA256_SIZE];
	char hex[2 * SHA256_SIZE + 1];
	struct sha256 h;

	sha256_init(&h);
	for (int i = 0; i < count; i++) {
		FILE *f = fopen(paths[i], "rbe");
		size_t n;

		if (!f)
			continue;
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			sha256_update(&h, buf, n);
		fclose(f);
	}
	sha256_final(&h, digest);
	sha256_hex(digest, SHA256_SIZE, hex);
	snprintf(out, 17, "%.16s", hex);
}

void probe_measure(const struct probe_config *c, struct fairplay_state *s)
{
	memset(s, 0, sizeof(*s));
	measure_interfaces(c, s);
	measure_radios(c, s);
	measure_installed(c, s);
	measure_running(c, s);
	measure_logins(c, s);
	s->files =
	    c->files ? probe_package_files(c, s->files_changed, sizeof(s->files_changed)) : -1;
	snprintf(s->version, sizeof(s->version), "%s", c->version ? c->version : "");
	snprintf(s->config, sizeof(s->config), "%s", c->config_digest ? c->config_digest : "");
}
