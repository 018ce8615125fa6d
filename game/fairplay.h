/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The device's fair-play state (docs/fairplay.md "Fair play"; 11.3.2: an electronic device
 * at the board needs the arbiter's approval) and the policy the arbiter sets for it, pure:
 * what was measured, as the daemon journals it, judged item by item against the policy.
 *
 * What is measured (host/probe.h does it): the network interfaces that are up (loopback
 * aside) with their addresses, each radio's rfkill state, the chess engines installed and
 * running, whether a training client is connected, the interactive logins (local and
 * remote), whether the installed package's files match its checksums, the version and a
 * digest of the configuration in force.
 */
#ifndef ANNABELLA_FAIRPLAY_H
#define ANNABELLA_FAIRPLAY_H

#include <stdbool.h>
#include <stddef.h>

#define FAIRPLAY_IFACES	     8
#define FAIRPLAY_RADIOS	     8
#define FAIRPLAY_NAME_MAX    16
#define FAIRPLAY_LIST_MAX    96
#define FAIRPLAY_TEXT_MAX    1024 /* the state as fairplay_format() writes it */
#define FAIRPLAY_ITEM_MAX    160
#define FAIRPLAY_SUMMARY_MAX 200

struct fairplay_iface {
	char name[FAIRPLAY_NAME_MAX];
	char addrs[FAIRPLAY_LIST_MAX]; /* "192.0.2.5/24,fe80::1/64", or "" */
	bool wireless;
};

struct fairplay_radio {
	char type[FAIRPLAY_NAME_MAX]; /* rfkill's type: "wlan", "bluetooth", ... */
	bool blocked;		      /* soft or hard */
};

struct fairplay_state {
	int n_ifaces;
	struct fairplay_iface ifaces[FAIRPLAY_IFACES];
	int n_radios;
	struct fairplay_radio radios[FAIRPLAY_RADIOS];
	char installed[FAIRPLAY_LIST_MAX];     /* engines installed: "stockfish gnuchess", or "" */
	char running[FAIRPLAY_LIST_MAX];       /* engine processes: "stockfish:1234", or "" */
	bool training;			       /* a training client is connected to the daemon */
	char local[FAIRPLAY_LIST_MAX];	       /* local logins: "alice@tty1" */
	char remote[FAIRPLAY_LIST_MAX];	       /* remote logins: "bob@pts/0(192.0.2.3)" */
	int files;			       /* package files changed; -1: not checked */
	char files_changed[FAIRPLAY_LIST_MAX]; /* the first of them */
	char version[24];
	char config[17]; /* the configuration's digest: 16 hex digits of its SHA-256 */
};

enum fairplay_network { FAIRPLAY_NETWORK_NONE = 0, FAIRPLAY_NETWORK_CLUB };
enum fairplay_engine { FAIRPLAY_ENGINE_ABSENT = 0, FAIRPLAY_ENGINE_IDLE };
enum fairplay_logins { FAIRPLAY_LOGINS_LOCAL = 0, FAIRPLAY_LOGINS_NONE, FAIRPLAY_LOGINS_ANY };
enum fairplay_files { FAIRPLAY_FILES_VERIFY = 0, FAIRPLAY_FILES_SKIP };

/* [fairplay]: what the arbiter allows. */
struct fairplay_policy {
	enum fairplay_network network;
	char club[FAIRPLAY_LIST_MAX]; /* network = club: the interfaces allowed ("eth0 wlan0") */
	enum fairplay_engine engine;  /* absent: none installed; idle: installed, none running */
	enum fairplay_logins logins;  /* local (the default): no remote login; none; any */
	enum fairplay_files files;    /* verify: the package's files checked; skip (not packaged) */
};
void fairplay_policy_defaults(struct fairplay_policy *p);
/* The policy as words for the journal ("club:eth0,wlan0 idle local verify"), and back: 0,
 * or -1. */
#define FAIRPLAY_POLICY_MAX (FAIRPLAY_LIST_MAX + 32)
int fairplay_policy_format(const struct fairplay_policy *p, char *buf, size_t size);
int fairplay_policy_parse(const char *text, struct fairplay_policy *p);

/* One item of the verdict. */
enum fairplay_item_kind {
	FAIRPLAY_ITEM_NETWORK = 0,
	FAIRPLAY_ITEM_RADIOS,
	FAIRPLAY_ITEM_ENGINE_INSTALLED,
	FAIRPLAY_ITEM_ENGINE_RUNNING,
	FAIRPLAY_ITEM_TRAINING,
	FAIRPLAY_ITEM_LOGINS,
	FAIRPLAY_ITEM_FILES,
	FAIRPLAY_ITEM_VERSION,
	FAIRPLAY_ITEM_COUNT
};
struct fairplay_item {
	bool ok;
	char what[FAIRPLAY_ITEM_MAX]; /* what was found: "eth0 up (192.0.2.5/24)" */
	char fix[FAIRPLAY_ITEM_MAX];  /* how to fix it, when not ok: "ip link set eth0 down" */
};
/* "network", "radios", "engine-installed", ... */
const char *fairplay_item_name(enum fairplay_item_kind kind);
/* Every item judged into items[FAIRPLAY_ITEM_COUNT]; true when all are ok. */
bool fairplay_judge(const struct fairplay_policy *p, const struct fairplay_state *s,
		    struct fairplay_item items[FAIRPLAY_ITEM_COUNT]);

/* The state as one line of text for the journal, and back: 0, or -1 (a field that does not
 * fit or cannot be read). */
int fairplay_format(const struct fairplay_state *s, char *buf, size_t size);
int fairplay_parse(const char *text, struct fairplay_state *s);
bool fairplay_equal(const struct fairplay_state *a, const struct fairplay_state *b);

/* The FairPlay tag of a scoresheet: the state over the whole game in one line, "sealed: ..."
 * when it met the policy from start to end, "not sealed at the start: ..." or "breach at move
 * N: ..." (breach_move, 0 before the first move) with what broke it first when it did not. */
void fairplay_summary(const struct fairplay_state *first, bool breach, int breach_move,
		      const char *breach_what, const struct fairplay_policy *p, char *buf,
		      size_t size);

#endif
