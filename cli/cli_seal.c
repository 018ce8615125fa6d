/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annabella seal [--config FILE] [--socket PATH]: the arbiter's check before a round
 * (docs/fairplay.md "Fair play"; 11.3.2), one verdict: the machine measured as the daemon
 * measures it (host/probe.h), each item judged against the [fairplay] policy of the
 * configuration (/etc/annabella/annabella.conf and its drop-ins by default), printed as `ok`
 * or what is wrong with how to fix it.  Whether a training client is connected is asked of
 * the daemon, when its socket answers.  Exit 0 only when every item meets the policy, 1 when
 * one does not, 2 for bad usage or a configuration that cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cli/cli.h"
#include "config/config.h"
#include "control/json.h"
#include "host/probe.h"
#include "net/ctlclient.h"

#define DEFAULT_CONFIG "/etc/annabella/annabella.conf"

/* Whether the daemon has a training client: 1, 0, or -1 when it cannot be asked. */
static int training_connected(const char *socket)
{
	char err[256], engine[256] = "";
	char *reply = NULL;
	struct ctlclient *c = ctlclient_connect(socket, err, sizeof(err));
	int rc = -1;

	if (!c)
		return -1;
	if (!ctlclient_request(c, "status", &reply, 2000) && ctlclient_reply_ok(reply) &&
	    json_get(reply, "engine", engine, sizeof(engine)) > 0)
		rc = strcmp(engine, "null") != 0;
	free(reply);
	ctlclient_close(c);
	return rc;
}

int cli_seal(int argc, char **argv)
{
	const char *config_path = DEFAULT_CONFIG, *socket = NULL;
	struct fairplay_item items[FAIRPLAY_ITEM_COUNT];
	struct fairplay_state s;
	struct probe_config p;
	struct config cfg;
	char err[512];
	bool ok;
	int training;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: annabella seal [--config FILE] [--socket PATH]\n");
			return 0;
		}
		if (i + 1 < argc && !strcmp(argv[i], "--config")) {
			config_path = argv[++i];
		} else if (i + 1 < argc && !strcmp(argv[i], "--socket")) {
			socket = argv[++i];
		} else {
			fprintf(stderr, "usage: annabella seal [--config FILE] [--socket PATH]\n");
			return 2;
		}
	}
	config_defaults(&cfg);
	if (config_load(&cfg, config_path, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s", err);
		return 2;
	}
	probe_config_defaults(&p);
	p.sysfs = cfg.fairplay.sysfs;
	p.proc = cfg.fairplay.proc;
	p.utmp = cfg.fairplay.utmp;
	p.dpkg_info = cfg.fairplay.dpkg_info;
	p.root = cfg.fairplay.root;
	p.engine_dirs = cfg.fairplay.engine_dirs;
	p.engine = cfg.train_engine;
	p.addresses = !strcmp(cfg.fairplay.sysfs, "/sys");
	p.files = cfg.fairplay.policy.files == FAIRPLAY_FILES_VERIFY;
	p.version = ANNABELLA_VERSION;
	p.config_digest = cfg.digest;
	probe_measure(&p, &s);
	if (!socket)
		socket = cfg.control_socket[0] ? cfg.control_socket : CTLCLIENT_DEFAULT_SOCKET;
	training = training_connected(socket);
	s.training = training > 0;
	ok = fairplay_judge(&cfg.fairplay.policy, &s, items);
	for (int i = 0; i < FAIRPLAY_ITEM_COUNT; i++) {
		printf("%-5s %-16s %s\n", items[i].ok ? "ok" : "WRONG",
		       fairplay_item_name((enum fairplay_item_kind)i), items[i].what);
		if (!items[i].ok)
			printf("%-5s %-16s fix: %s\n", "", "", items[i].fix);
	}
	if (training < 0)
		printf("%-5s %-16s the daemon did not answer on %s: a training client could not "
		       "be asked for\n",
		       "", "", socket);
	printf("%s\n", ok ? "sealed: the device meets the fair-play policy"
			  : "NOT sealed: the device does not meet the fair-play policy");
	return ok ? 0 : 1;
}
