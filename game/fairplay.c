/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The fair-play state and its verdict (fairplay.h).
 *
 * The state's text: fields separated by ';' in a fixed order, each a list of words separated
 * by spaces (no field holds ';'):
 *	ifaces;radios;installed;running;training;local;remote;files;files_changed;version;config
 * an interface "NAME=ADDR,ADDR" ("NAME+w=..." when it is wireless), a radio "TYPE=blocked" or
 * "TYPE=unblocked", training "yes" or "no", files a number (-1: not checked).
 */
#include "game/fairplay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fairplay_policy_defaults(struct fairplay_policy *p)
{
	memset(p, 0, sizeof(*p));
}

static const char *const network_words[] = {"none", "club"};
static const char *const engine_words[] = {"absent", "idle"};
static const char *const logins_words[] = {"local", "none", "any"};
static const char *const files_words[] = {"verify", "skip"};

int fairplay_policy_format(const struct fairplay_policy *p, char *buf, size_t size)
{
	char club[FAIRPLAY_LIST_MAX];
	int n;

	snprintf(club, sizeof(club), "%s", p->club);
	for (char *c = club; *c; c++)
		if (*c == ' ')
			*c = ',';
	n = snprintf(buf, size, "%s%s%s %s %s %s", network_words[p->network & 1],
		     p->network == FAIRPLAY_NETWORK_CLUB ? ":" : "",
		     p->network == FAIRPLAY_NETWORK_CLUB ? club : "", engine_words[p->engine & 1],
		     logins_words[(unsigned)p->logins % 3], files_words[p->files & 1]);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

static int word_index(const char *word, const char *const *words, int count)
{
	for (int i = 0; i < count; i++)
		if (!strcmp(word, words[i]))
			return i;
	return -1;
}

int fairplay_policy_parse(const char *text, struct fairplay_policy *p)
{
	char net[FAIRPLAY_LIST_MAX + 8], engine[16], logins[16], files[16], extra[2];
	char *colon;
	int v;

	fairplay_policy_defaults(p);
	if (sscanf(text, "%103s %15s %15s %15s %1s", net, engine, logins, files, extra) != 4)
		return -1;
	colon = strchr(net, ':');
	if (colon) {
		*colon = '\0';
		if (strlen(colon + 1) >= sizeof(p->club))
			return -1;
		strcpy(p->club, colon + 1);
		for (char *c = p->club; *c; c++)
			if (*c == ',')
				*c = ' ';
	}
	if ((v = word_index(net, network_words, 2)) < 0 || (v == FAIRPLAY_NETWORK_CLUB) != !!colon)
		return -1;
	p->network = (enum fairplay_network)v;
	if ((v = word_index(engine, engine_words, 2)) < 0)
		return -1;
	p->engine = (enum fairplay_engine)v;
	if ((v = word_index(logins, logins_words, 3)) < 0)
		return -1;
	p->logins = (enum fairplay_logins)v;
	if ((v = word_index(files, files_words, 2)) < 0)
		return -1;
	p->files = (enum fairplay_files)v;
	return 0;
}

const char *fairplay_item_name(enum fairplay_item_kind kind)
{
	static const char *const names[FAIRPLAY_ITEM_COUNT] = {
	    "network", "radios", "engine-installed", "engine-running", "training",
	    "logins",  "files",	 "version"};

	return (unsigned)kind < FAIRPLAY_ITEM_COUNT ? names[kind] : "?";
}

/* Whether `name` is a word of the space-separated list. */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* Append "text" to buf, separated by sep when buf is not empty; cut at the end of buf. */
static void add(char *buf, size_t size, const char *sep, const char *text)
{
	size_t len = strlen(buf);
	int n;

	if (len + 1 >= size)
		return;
	n = snprintf(buf + len, size - len, "%s%s", len ? sep : "", text);
	if (n < 0)
		buf[len] = '\0';
}

static void judge_network(const struct fairplay_policy *p, const struct fairplay_state *s,
			  struct fairplay_item *it)
{
	char one[FAIRPLAY_ITEM_MAX];

	it->ok = true;
	for (int i = 0; i < s->n_ifaces; i++) {
		const struct fairplay_iface *f = &s->ifaces[i];
		bool allowed = p->network == FAIRPLAY_NETWORK_CLUB && listed(p->club, f->name);

		snprintf(one, sizeof(one), "%s up%s%s%s%s", f->name, f->addrs[0] ? " (" : "",
			 f->addrs, f->addrs[0] ? ")" : "", allowed ? " on the club's network" : "");
		add(it->what, sizeof(it->what), ", ", one);
		if (!allowed) {
			it->ok = false;
			snprintf(one, sizeof(one), "ip link set %s down", f->name);
			add(it->fix, sizeof(it->fix), "; ", one);
		}
	}
	if (!s->n_ifaces)
		snprintf(it->what, sizeof(it->what), "loopback only");
}

/* A wireless interface on the club's network needs its radio: a wlan radio may be unblocked
 * then; every other radio must be blocked. */
static void judge_radios(const struct fairplay_policy *p, const struct fairplay_state *s,
			 struct fairplay_item *it)
{
	bool club_wireless = false;
	char one[FAIRPLAY_ITEM_MAX];

	for (int i = 0; i < s->n_ifaces; i++)
		club_wireless |= s->ifaces[i].wireless && p->network == FAIRPLAY_NETWORK_CLUB &&
				 listed(p->club, s->ifaces[i].name);
	it->ok = true;
	for (int i = 0; i < s->n_radios; i++) {
		const struct fairplay_radio *r = &s->radios[i];
		bool allowed = r->blocked || (club_wireless && !strcmp(r->type, "wlan"));

		snprintf(one, sizeof(one), "%s %s", r->type, r->blocked ? "blocked" : "unblocked");
		add(it->what, sizeof(it->what), ", ", one);
		if (!allowed) {
			it->ok = false;
			snprintf(one, sizeof(one), "rfkill block %s", r->type);
			if (!strstr(it->fix, one))
				add(it->fix, sizeof(it->fix), "; ", one);
		}
	}
	if (!s->n_radios)
		snprintf(it->what, sizeof(it->what), "no radio");
}

static void judge_logins(const struct fairplay_policy *p, const struct fairplay_state *s,
			 struct fairplay_item *it)
{
	bool local = s->local[0], remote = s->remote[0];

	it->ok = p->logins == FAIRPLAY_LOGINS_ANY ||
		 (p->logins == FAIRPLAY_LOGINS_LOCAL && !remote) || (!local && !remote);
	if (!local && !remote) {
		snprintf(it->what, sizeof(it->what), "nobody logged in");
	} else {
		add(it->what, sizeof(it->what), "", local ? "local: " : "");
		add(it->what, sizeof(it->what), "", s->local);
		add(it->what, sizeof(it->what), "", local && remote ? ", " : "");
		add(it->what, sizeof(it->what), "", remote ? "remote: " : "");
		add(it->what, sizeof(it->what), "", s->remote);
	}
	if (!it->ok)
		snprintf(it->fix, sizeof(it->fix), "%s",
			 remote
			     ? "log the remote users out and stop the SSH server (systemctl stop "
			       "ssh)"
			     : "log out at the console");
}

bool fairplay_judge(const struct fairplay_policy *p, const struct fairplay_state *s,
		    struct fairplay_item items[FAIRPLAY_ITEM_COUNT])
{
	struct fairplay_item *it;
	bool all = true;

	memset(items, 0, sizeof(*items) * FAIRPLAY_ITEM_COUNT);
	judge_network(p, s, &items[FAIRPLAY_ITEM_NETWORK]);
	judge_radios(p, s, &items[FAIRPLAY_ITEM_RADIOS]);

	it = &items[FAIRPLAY_ITEM_ENGINE_INSTALLED];
	it->ok = !s->installed[0] || p->engine == FAIRPLAY_ENGINE_IDLE;
	if (s->installed[0])
		snprintf(it->what, sizeof(it->what), "chess engine installed: %s%s", s->installed,
			 p->engine == FAIRPLAY_ENGINE_IDLE ? " (allowed while idle)" : "");
	else
		snprintf(it->what, sizeof(it->what), "no chess engine installed");
	if (!it->ok)
		snprintf(it->fix, sizeof(it->fix), "apt purge %s", s->installed);

	it = &items[FAIRPLAY_ITEM_ENGINE_RUNNING];
	it->ok = !s->running[0];
	snprintf(it->what, sizeof(it->what), "%s%s",
		 s->running[0] ? "chess engine running: " : "no chess engine running", s->running);
	if (!it->ok)
		snprintf(it->fix, sizeof(it->fix), "stop it (kill the process: name:pid above)");

	it = &items[FAIRPLAY_ITEM_TRAINING];
	it->ok = !s->training;
	snprintf(it->what, sizeof(it->what), "%s",
		 s->training ? "a training client is connected" : "no training client");
	if (!it->ok)
		snprintf(it->fix, sizeof(it->fix),
			 "stop annabella train (systemctl stop "
			 "annabella-train)");

	judge_logins(p, s, &items[FAIRPLAY_ITEM_LOGINS]);

	it = &items[FAIRPLAY_ITEM_FILES];
	if (s->files < 0) {
		it->ok = p->files == FAIRPLAY_FILES_SKIP;
		snprintf(it->what, sizeof(it->what),
			 "the program is not the installed package's: "
			 "its files were not verified");
		if (!it->ok)
			snprintf(it->fix, sizeof(it->fix),
				 "install the package (make package) and run it as the service");
	} else {
		it->ok = s->files == 0;
		if (s->files)
			snprintf(it->what, sizeof(it->what), "%d package %s changed: %s", s->files,
				 s->files == 1 ? "file" : "files", s->files_changed);
		else
			snprintf(it->what, sizeof(it->what), "package files verified");
		if (!it->ok)
			snprintf(it->fix, sizeof(it->fix),
				 "reinstall the package (apt install "
				 "--reinstall annabella)");
	}

	it = &items[FAIRPLAY_ITEM_VERSION];
	it->ok = true;
	snprintf(it->what, sizeof(it->what), "annabella %s, configuration %s", s->version,
		 s->config);

	for (int i = 0; i < FAIRPLAY_ITEM_COUNT; i++)
		all &= items[i].ok;
	return all;
}

/* ------------------------------------------------------------------ text */

/* A field's text without the separators the format uses. */
static void clean(char *s)
{
	for (; *s; s++)
		if (*s == ';' || *s == '\n' || *s == '\r' || *s == '"')
			*s = ',';
}

int fairplay_format(const struct fairplay_state *s, char *buf, size_t size)
{
	char ifaces[FAIRPLAY_IFACES * (FAIRPLAY_NAME_MAX + FAIRPLAY_LIST_MAX + 4)] = "";
	char radios[FAIRPLAY_RADIOS * (FAIRPLAY_NAME_MAX + 12)] = "";
	char one[FAIRPLAY_NAME_MAX + FAIRPLAY_LIST_MAX + 8];
	struct fairplay_state c = *s;
	int n;

	for (int i = 0; i < c.n_ifaces && i < FAIRPLAY_IFACES; i++) {
		clean(c.ifaces[i].name);
		clean(c.ifaces[i].addrs);
		snprintf(one, sizeof(one), "%s%s=%s", c.ifaces[i].name,
			 c.ifaces[i].wireless ? "+w" : "", c.ifaces[i].addrs);
		add(ifaces, sizeof(ifaces), " ", one);
	}
	for (int i = 0; i < c.n_radios && i < FAIRPLAY_RADIOS; i++) {
		clean(c.radios[i].type);
		snprintf(one, sizeof(one), "%s=%s", c.radios[i].type,
			 c.radios[i].blocked ? "blocked" : "unblocked");
		add(radios, sizeof(radios), " ", one);
	}
	clean(c.installed);
	clean(c.running);
	clean(c.local);
	clean(c.remote);
	clean(c.files_changed);
	clean(c.version);
	clean(c.config);
	n = snprintf(buf, size, "%s;%s;%s;%s;%s;%s;%s;%d;%s;%s;%s", ifaces, radios, c.installed,
		     c.running, c.training ? "yes" : "no", c.local, c.remote, c.files,
		     c.files_changed, c.version, c.config);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* The next field of text into buf: -1 when it does not fit. */
static int field(const char **text, char *buf, size_t size)
{
	const char *end = strchr(*text, ';');
	size_t n = end ? (size_t)(end - *text) : strlen(*text);

	if (n >= size)
		return -1;
	memcpy(buf, *text, n);
	buf[n] = '\0';
	*text += n + (end != NULL);
	return 0;
}

int fairplay_parse(const char *text, struct fairplay_state *s)
{
	char ifaces[FAIRPLAY_TEXT_MAX], radios[FAIRPLAY_TEXT_MAX], training[8], files[16];
	char *save = NULL, *w;
	char *end;

	memset(s, 0, sizeof(*s));
	if (field(&text, ifaces, sizeof(ifaces)) || field(&text, radios, sizeof(radios)) ||
	    field(&text, s->installed, sizeof(s->installed)) ||
	    field(&text, s->running, sizeof(s->running)) ||
	    field(&text, training, sizeof(training)) || field(&text, s->local, sizeof(s->local)) ||
	    field(&text, s->remote, sizeof(s->remote)) || field(&text, files, sizeof(files)) ||
	    field(&text, s->files_changed, sizeof(s->files_changed)) ||
	    field(&text, s->version, sizeof(s->version)) ||
	    field(&text, s->config, sizeof(s->config)) || *text)
		return -1;
	if (strcmp(training, "yes") && strcmp(training, "no"))
		return -1;
	s->training = !strcmp(training, "yes");
	s->files = (int)strtol(files, &end, 10);
	if (end == files || *end || s->files < -1)
		return -1;
	for (w = strtok_r(ifaces, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		struct fairplay_iface *f = &s->ifaces[s->n_ifaces];
		char *eq = strchr(w, '=');
		size_t n;

		if (!eq || s->n_ifaces == FAIRPLAY_IFACES)
			return -1;
		*eq = '\0';
		n = strlen(w);
		if (n > 2 && !strcmp(w + n - 2, "+w")) {
			f->wireless = true;
			w[n - 2] = '\0';
		}
		if (strlen(w) >= sizeof(f->name) || strlen(eq + 1) >= sizeof(f->addrs) || !w[0])
			return -1;
		strcpy(f->name, w);
		strcpy(f->addrs, eq + 1);
		s->n_ifaces++;
	}
	save = NULL;
	for (w = strtok_r(radios, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		struct fairplay_radio *r = &s->radios[s->n_radios];
		char *eq = strchr(w, '=');

		if (!eq || s->n_radios == FAIRPLAY_RADIOS)
			return -1;
		*eq = '\0';
		if (!w[0] || strlen(w) >= sizeof(r->type) ||
		    (strcmp(eq + 1, "blocked") && strcmp(eq + 1, "unblocked")))
			return -1;
		strcpy(r->type, w);
		r->blocked = !strcmp(eq + 1, "blocked");
		s->n_radios++;
	}
	return 0;
}

bool fairplay_equal(const struct fairplay_state *a, const struct fairplay_state *b)
{
	char x[FAIRPLAY_TEXT_MAX], y[FAIRPLAY_TEXT_MAX];

	return !fairplay_format(a, x, sizeof(x)) && !fairplay_format(b, y, sizeof(y)) &&
	       !strcmp(x, y);
}

void fairplay_summary(const struct fairplay_state *first, bool breach, int breach_move,
		      const char *breach_what, const struct fairplay_policy *p, char *buf,
		      size_t size)
{
	char net[FAIRPLAY_ITEM_MAX] = "";
	bool radios_blocked = true;

	if (breach && breach_move > 0) {
		snprintf(buf, size, "breach at move %d: %s", breach_move, breach_what);
		return;
	}
	if (breach) {
		snprintf(buf, size, "not sealed at the start: %s", breach_what);
		return;
	}
	for (int i = 0; i < first->n_ifaces; i++)
		add(net, sizeof(net), " ", first->ifaces[i].name);
	for (int i = 0; i < first->n_radios; i++)
		radios_blocked &= first->radios[i].blocked;
	snprintf(buf, size, "sealed: %s%s, %s, %s, annabella %s%s",
		 first->n_ifaces ? net : "loopback only",
		 first->n_ifaces && p->network == FAIRPLAY_NETWORK_CLUB ? " club network only" : "",
		 radios_blocked ? "radios blocked" : "wlan on the club's network",
		 first->installed[0] ? "engine installed, idle" : "no engine installed",
		 first->version,
		 first->files == 0  ? " files verified"
		 : first->files < 0 ? " files not verified"
				    : " files changed");
}
