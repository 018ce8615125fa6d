/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `annabella relay tags ROUND.csv` (docs/broadcast.md "Live broadcast and the room relay"):
 * a round's tags sent to every board through the broker, retained on annabella/NAME/tags,
 * and waited for until the broker acknowledged each.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/strbuf.h"
#include "base/timeutil.h"
#include "net/net.h"
#include "net/relay.h"

#define TAGS_WAIT_MS 10000

struct tags_send {
	int outstanding;
};

static void on_tags_published(void *user, int mid)
{
	struct tags_send *t = user;

	(void)mid;
	t->outstanding--;
}

/* Runs the link until done() or timeout_ms; whether done. */
static bool run_until(struct mqttlink *l, bool (*done)(struct mqttlink *, void *), void *arg,
		      int timeout_ms)
{
	uint64_t end = monotonic_ms() + (uint64_t)timeout_ms;

	while (!done(l, arg) && !relay_stopping()) {
		struct pollfd pfd;
		int t = mqttlink_timeout(l);
		uint64_t now = monotonic_ms();

		if (now >= end || mqttlink_refused(l))
			return false;
		mqttlink_pollfd(l, &pfd);
		if ((uint64_t)t > end - now)
			t = (int)(end - now);
		if (poll(&pfd, 1, t) < 0 && errno != EINTR)
			return false;
		mqttlink_run(l, pfd.revents);
	}
	return done(l, arg);
}

static bool link_up(struct mqttlink *l, void *arg)
{
	(void)arg;
	return mqttlink_up(l);
}

static bool all_acknowledged(struct mqttlink *l, void *arg)
{
	const struct tags_send *t = arg;

	return mqttlink_up(l) && t->outstanding == 0;
}

int relay_tags(int argc, char **argv)
{
	struct relay_options o = {0};
	struct mqtt_options mo;
	struct config *cfg = calloc(1, sizeof(*cfg));
	struct room_csv *csv = calloc(1, sizeof(*csv));
	struct tags_send t = {0};
	struct mqttlink_callbacks cb = {.published = on_tags_published};
	struct mqttlink *l = NULL;
	char err[400], *text = NULL;
	const char *path;
	size_t len;
	int rc = 2;

	if (!cfg || !csv)
		goto out;
	if (argc < 1 || argv[0][0] == '-') {
		cli_relay_usage(stderr);
		goto out;
	}
	path = argv[0];
	rc = relay_parse_options(argc - 1, argv + 1, true, &o, &mo, cfg);
	if (rc)
		goto out;
	rc = 2;
	if (relay_read_csv(path, &text, &len))
		goto out;
	if (room_csv_parse(text, len, csv, err, sizeof(err))) {
		log_error(LOG_MAIN, "%s:%s", path, err);
		goto out;
	}
	rc = 1;
	l = mqttlink_new(&mo, NULL, &cb, &t, err, sizeof(err));
	if (!l) {
		log_error(LOG_MAIN, "%s", err);
		goto out;
	}
	if (!run_until(l, link_up, NULL, TAGS_WAIT_MS)) {
		log_error(LOG_MAIN, "broker %s:%d: %s; nothing sent", mo.host, mo.port,
			  mqttlink_refused(l) ? "refused" : "not reached");
		goto out;
	}
	for (int i = 0; i < csv->row_count; i++) {
		struct strbuf payload = {0};
		char topic[128], *p;

		room_csv_payload(csv, i, &payload);
		p = strbuf_finish(&payload);
		snprintf(topic, sizeof(topic), "annabella/%s/tags", csv->rows[i].name);
		if (p && mqttlink_publish(l, topic, p, strlen(p), true) > 0)
			t.outstanding++;
		else
			log_error(LOG_MAIN, "%s: not sent", topic);
		free(p);
	}
	if (!run_until(l, all_acknowledged, &t, TAGS_WAIT_MS) || t.outstanding != 0) {
		log_error(LOG_MAIN, "broker %s:%d: %d of %d boards' tags not acknowledged", mo.host,
			  mo.port, t.outstanding, csv->row_count);
		goto out;
	}
	mqttlink_disconnect(l, 1000);
	printf("relay tags: %d board%s, %d tag column%s, sent to %s:%d\n", csv->row_count,
	       csv->row_count == 1 ? "" : "s", csv->tag_count, csv->tag_count == 1 ? "" : "s",
	       mo.host, mo.port);
	rc = 0;
out:
	if (l)
		mqttlink_free(l);
	free(text);
	free(csv);
	free(cfg);
	return rc;
}
